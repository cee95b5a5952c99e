//! What an M7 answer holds: the schedule shown with its energy and
//! verdict, and for a front or a comparison their rows.

use serde::{Deserialize, Serialize};

use crate::core::domain::schedule::Schedule;
use crate::core::domain::verify::Verdict;

use super::energy::EnergyParts;
use super::instance::Objective;
use super::plan::Wake;

/// How good an answer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Proven optimal for at most `n` chunks (relative gap at most 1e-9).
    Optimal,
    /// Stopped at the requested gap.
    StoppedAtGap,
    /// Stopped at the time limit; the gap bounds the distance to the optimum.
    StoppedAtTime,
    /// Cancelled; the gap bounds the distance to the optimum.
    Interrupted,
    /// A heuristic's schedule: no bound.
    Heuristic,
}

/// A row of the comparison: one algorithm with one sort rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Compared {
    /// `exact`, `ssc`, `gss`, `super-ssc` or `super-gss`.
    pub algorithm: String,
    /// The sort rule (the winning one for a super heuristic; empty for the
    /// exact search).
    pub sort: String,
    /// Its makespan, s.
    pub makespan: f64,
    /// Its energy, J.
    pub energy: f64,
    /// The chunks it sends.
    pub chunks: usize,
    /// Seconds it took (for a super heuristic, all its rules').
    pub seconds: f64,
    /// `T / T_best − 1`: the distance from the best makespan of the table.
    pub time_quality: f64,
    /// `E / E_least − 1`: the distance from the least energy of the table.
    pub energy_quality: f64,
    /// Whether its schedule passed the verifier.
    pub verified: bool,
}

/// A point of a Pareto front.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrontPoint {
    /// Its makespan, s.
    pub makespan: f64,
    /// Its energy, J.
    pub energy: f64,
    /// The makespan limit it was found under (the least energy within it).
    pub limit: f64,
    /// Whether the search proved it the least energy within the limit.
    pub proven: bool,
    /// The machine of each chunk.
    pub sequence: Vec<usize>,
    /// The size of each chunk.
    pub sizes: Vec<f64>,
    /// Its schedule.
    pub schedule: Schedule,
}

/// The answer for an M7 request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The makespan, s.
    pub makespan: f64,
    /// The energy, J.
    pub energy: f64,
    /// A proven lower bound on the objective (exact search only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<f64>,
    /// `(value − bound)/value` of the objective (exact search only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
    /// How good the answer is.
    pub status: Status,
    /// The algorithm of the schedule shown.
    pub algorithm: String,
    /// Its sort rule (heuristics only).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sort: String,
    /// The machine of each chunk (0-based, counts expanded).
    pub sequence: Vec<usize>,
    /// The size of each chunk.
    pub sizes: Vec<f64>,
    /// When each used machine is woken and ready.
    pub wake: Vec<Wake>,
    /// The energy by machine and state.
    pub energy_parts: EnergyParts,
    /// The schedule.
    pub schedule: Schedule,
    /// The verifier's verdict on it.
    pub verdict: Verdict,
    /// Linear programs solved.
    pub lps: u64,
    /// Prefixes expanded by the exact search.
    pub nodes: u64,
    /// Seconds it took.
    pub seconds: f64,
    /// The Pareto front (objective `pareto`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub front: Vec<FrontPoint>,
    /// Every algorithm and sort rule (algorithm `compare`; also the
    /// heuristics beside a Pareto front).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub compare: Vec<Compared>,
    /// What to keep in mind reading it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// What was minimised (the objective the lower bound bounds).
    #[serde(default)]
    pub objective: Objective,
    /// The most chunks the exact search sends (`n`); a heuristic may send
    /// more, and so beat it.
    #[serde(default)]
    pub chunk_limit: usize,
    /// The count of each row of the machine table, so that an expanded
    /// machine is named by its row and copy (`P2·1`, `P2·2`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rows: Vec<usize>,
}

impl Report {
    /// The name of expanded machine `i` (from 0): its row of the machine
    /// table, from 1, and for a row of several machines the copy, from 1
    /// (`P2·1`); `P<i+1>` when the rows are not known. `P`, not `M`, so
    /// that no machine reads as a model's number (M1 to M9).
    pub fn machine_name(&self, i: usize) -> String {
        let mut first = 0;
        for (row, &count) in self.rows.iter().enumerate() {
            if i < first + count {
                return if count == 1 {
                    format!("P{}", row + 1)
                } else {
                    format!("P{}·{}", row + 1, i - first + 1)
                };
            }
            first += count;
        }
        format!("P{}", i + 1)
    }
}
