//! The shorter of the two schedules of one job, verified, with its proven
//! lower bound: what a request and every point of a series get.

use super::shuffle::Shuffle;
use super::{list_schedule, lower_bound, rotation, verify, Job};
use crate::core::domain::error::Error;
use crate::core::domain::verify::Verdict;
use crate::core::solving::lp::LpError;

/// The shorter of the two schedules, with a proven lower bound.
#[derive(Debug, Clone)]
pub struct Solved {
    /// The schedule.
    pub shuffle: Shuffle,
    /// `"rotation"` or `"list"`.
    pub pattern: &'static str,
    /// The other schedule's makespan.
    pub other: f64,
    /// A lower bound on the optimum (equal to the makespan up to the LP's
    /// round-off when `r = 1`).
    pub lower_bound: f64,
    /// The verifier's verdict on `shuffle`.
    pub verdict: Verdict,
}

/// Both schedules of `job`; the shorter one that verifies is kept.
///
/// # Errors
///
/// [`Error::Solver`] when neither schedule verifies (a bug, reported rather
/// than shown).
pub fn schedule(job: &Job, channels: usize) -> Result<Solved, Error> {
    let list = list_schedule(job);
    let (rotation, lp_end) = match rotation(job) {
        Ok((s, end)) => (Some(s), end),
        Err(_) => (None, 0.0),
    };
    let mut bound = lower_bound(job);
    if job.reducers == 1 && rotation.is_some() {
        // One reducer: the LP over the mapper order is the optimum.
        bound = bound.max(lp_end + job.reduce_time());
    }
    let mut candidates = vec![("list", list)];
    if let Some(s) = rotation {
        candidates.push(("rotation", s));
    }
    candidates.sort_by(|a, b| a.1.makespan.total_cmp(&b.1.makespan));
    let other = candidates.last().map_or(f64::NAN, |c| c.1.makespan);
    let first = candidates[0].1.makespan;
    let mut rejected = Vec::new();
    for (pattern, shuffle) in candidates {
        let verdict = verify(job, channels, &shuffle);
        if verdict.ok {
            let other = if shuffle.makespan == first {
                other
            } else {
                first
            };
            return Ok(Solved {
                // A bound above a verified schedule would be a bug.
                lower_bound: {
                    debug_assert!(bound <= shuffle.makespan * (1.0 + 1e-9));
                    bound.min(shuffle.makespan)
                },
                pattern,
                other,
                shuffle,
                verdict,
            });
        }
        rejected.push(format!(
            "{pattern}: {}",
            verdict.violation.unwrap_or_default()
        ));
    }
    Err(Error::Solver(LpError::Failed(format!(
        "no schedule passed the verifier ({})",
        rejected.join("; ")
    ))))
}
