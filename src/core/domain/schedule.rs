//! Schedules: who receives which chunk of the load, when, and when it is
//! computed. Every model returns one, the verifier checks one, and the Gantt
//! chart draws one.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Relative tolerance of every comparison of the verifier
/// (`verify::RELATIVE_TOLERANCE`), and of an idle time against rounding.
pub const RELATIVE_TOLERANCE: f64 = 1e-9;

/// A time interval `[start, end]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Interval {
    /// When it starts, in time units.
    pub start: f64,
    /// When it ends, in time units.
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

/// How one machine spends a schedule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MachineUse {
    /// Chunks it receives.
    pub chunks: usize,
    /// Load it receives.
    pub load: f64,
    /// When it starts receiving its first chunk (its start-up).
    pub start: f64,
    /// Time it spends computing.
    pub computing: f64,
    /// Time from its start to the makespan in which it neither receives
    /// nor computes.
    pub idle: f64,
}

impl Schedule {
    /// A schedule of `chunks` (in sending order) on `machines` machines; the
    /// makespan is when the last computation ends.
    pub fn new(machines: usize, chunks: Vec<Chunk>) -> Schedule {
        let makespan = chunks.iter().map(|c| c.compute.end).fold(0.0, f64::max);
        Schedule {
            machines,
            chunks,
            makespan,
        }
    }

    /// Each machine's chunks, load, start, computing and idle time. Idle
    /// time counts from the machine's first reception; receiving while
    /// computing (buffered chunks) is not idle.
    pub fn usage(&self) -> Vec<MachineUse> {
        let mut busy: Vec<Vec<Interval>> = vec![Vec::new(); self.machines];
        let mut uses = vec![
            MachineUse {
                chunks: 0,
                load: 0.0,
                start: f64::INFINITY,
                computing: 0.0,
                idle: 0.0,
            };
            self.machines
        ];
        for c in &self.chunks {
            let u = &mut uses[c.machine];
            u.chunks += 1;
            u.load += c.size;
            u.start = u.start.min(c.send.start);
            u.computing += c.compute.len();
            busy[c.machine].extend([c.send, c.compute]);
        }
        for (u, intervals) in uses.iter_mut().zip(&mut busy) {
            if u.chunks == 0 {
                u.start = 0.0;
                continue;
            }
            // Length of the union of the busy intervals.
            intervals.sort_by(|a, b| a.start.total_cmp(&b.start));
            let (mut covered, mut reach) = (0.0, f64::NEG_INFINITY);
            for i in intervals.iter() {
                if i.end > reach {
                    covered += i.end - i.start.max(reach);
                    reach = i.end;
                }
            }
            // Idle time within the verifier's tolerance is rounding of the
            // interval ends (55·10⁻¹⁸ s shown for 0), not a wait.
            let idle = self.makespan - u.start - covered;
            let rounding = RELATIVE_TOLERANCE * self.makespan.abs();
            u.idle = if idle <= rounding { 0.0 } else { idle };
        }
        uses
    }

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
