//! Schedules: who receives which chunk of the load, when, and when it is
//! computed. Every model returns one, the verifier checks one, and the Gantt
//! chart draws one.

use serde::{Deserialize, Serialize};

/// A time interval `[start, end]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub start: f64,
    pub end: f64,
}

impl Interval {
    /// The interval's length.
    pub fn len(&self) -> f64 {
        self.end - self.start
    }

    /// True when the interval has no length.
    pub fn is_empty(&self) -> bool {
        self.end <= self.start
    }
}

/// One piece of the load sent to one machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chunk {
    /// Index of the receiving machine.
    pub machine: usize,
    /// Load units in the chunk (`α`).
    pub size: f64,
    /// When the originator sends it over the channel.
    pub send: Interval,
    /// When the machine computes it.
    pub compute: Interval,
    /// The memory level in use while computing it (0 = core).
    pub level: usize,
}

/// A complete schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Schedule {
    /// Number of machines (including unused ones).
    pub machines: usize,
    /// The chunks in the order they are sent.
    pub chunks: Vec<Chunk>,
    /// The time the last machine finishes (`Cmax`, `T`).
    pub makespan: f64,
}

impl Schedule {
    /// The load each machine receives in total.
    pub fn loads(&self) -> Vec<f64> {
        let mut loads = vec![0.0; self.machines];
        for c in &self.chunks {
            loads[c.machine] += c.size;
        }
        loads
    }

    /// How long each machine is idle between its last computation and the
    /// end of the schedule.
    pub fn final_idle(&self) -> Vec<f64> {
        let mut end = vec![0.0_f64; self.machines];
        for c in &self.chunks {
            end[c.machine] = end[c.machine].max(c.compute.end);
        }
        end.iter().map(|e| (self.makespan - e).max(0.0)).collect()
    }
}
