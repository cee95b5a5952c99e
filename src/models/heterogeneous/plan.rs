//! A schedule as the solvers produce it: which machine gets each chunk, how
//! much, and when it is sent. Everything else (computing, waking, the
//! makespan, the energy) follows from these and the machines.

use serde::{Deserialize, Serialize};

use super::instance::Worker;
use crate::core::domain::schedule::{Chunk, Interval, Schedule};

/// The decisions of a schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The machine of every chunk, in sending order.
    pub sequence: Vec<usize>,
    /// The size of every chunk.
    pub sizes: Vec<f64>,
    /// When every chunk's send starts.
    pub starts: Vec<f64>,
}

/// When a used machine is woken and ready.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Wake {
    /// The machine (0-based, counts expanded).
    pub machine: usize,
    /// When the wake signal is sent, `w_i`.
    pub at: f64,
    /// When it is ready, `w_i + S_i` (its first send starts then or later).
    pub ready: f64,
}

impl Plan {
    /// The plan without its empty chunks (an empty chunk is never sent).
    pub fn without_empty(self) -> Plan {
        let keep: Vec<usize> = (0..self.sizes.len())
            .filter(|&j| self.sizes[j] > 0.0)
            .collect();
        Plan {
            sequence: keep.iter().map(|&j| self.sequence[j]).collect(),
            sizes: keep.iter().map(|&j| self.sizes[j]).collect(),
            starts: keep.iter().map(|&j| self.starts[j]).collect(),
        }
    }

    /// The same sizes and order with every send moved, if at all, to the
    /// earliest time its rules allow on or after the time given (the
    /// channel free, the machine ready and done with its previous chunk):
    /// how an LP's answer is freed of round-off without replaying it as
    /// early as possible.
    pub(crate) fn settled(mut self, workers: &[Worker]) -> Plan {
        let mut channel = 0.0_f64;
        let mut free: Vec<f64> = workers.iter().map(|w| w.startup).collect();
        for j in 0..self.sizes.len() {
            let w = &workers[self.sequence[j]];
            let start = self.starts[j].max(channel).max(free[self.sequence[j]]);
            self.starts[j] = start;
            channel = start + w.send(self.sizes[j]);
            free[self.sequence[j]] = channel + w.time(self.sizes[j]);
        }
        self
    }

    /// The chunks as the core's schedule: each computed as soon as it is
    /// received.
    pub(crate) fn schedule(&self, workers: &[Worker]) -> Schedule {
        let chunks = (0..self.sizes.len())
            .map(|j| {
                let w = &workers[self.sequence[j]];
                let size = self.sizes[j];
                let received = self.starts[j] + w.send(size);
                Chunk {
                    machine: self.sequence[j],
                    size,
                    send: Interval {
                        start: self.starts[j],
                        end: received,
                    },
                    compute: Interval {
                        start: received,
                        end: received + w.time(size),
                    },
                    level: usize::from(w.a2 * size + w.b2 > w.a1 * size),
                }
            })
            .collect();
        Schedule::new(workers.len(), chunks)
    }

    /// The makespan: when the last computation ends.
    pub(crate) fn makespan(&self, workers: &[Worker]) -> f64 {
        (0..self.sizes.len())
            .map(|j| {
                let w = &workers[self.sequence[j]];
                self.starts[j] + w.send(self.sizes[j]) + w.time(self.sizes[j])
            })
            .fold(0.0, f64::max)
    }

    /// Each used machine's wake-up, as late as its first send allows.
    pub(crate) fn wakes(&self, workers: &[Worker]) -> Vec<Wake> {
        let mut first: Vec<Option<f64>> = vec![None; workers.len()];
        for (&i, &t) in self.sequence.iter().zip(&self.starts) {
            first[i].get_or_insert(t);
        }
        first
            .iter()
            .enumerate()
            .filter_map(|(machine, t)| {
                let startup = workers[machine].startup;
                let at = ((*t)? - startup).max(0.0);
                Some(Wake {
                    machine,
                    at,
                    ready: at + startup,
                })
            })
            .collect()
    }
}
