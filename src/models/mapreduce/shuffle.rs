//! A MapReduce schedule: the split, every shuffle transfer, and when each
//! reducer reduces.

use serde::{Deserialize, Serialize};

use super::Job;
use crate::core::domain::schedule::Interval;

/// One shuffle transfer: mapper `mapper` sends its piece for reducer
/// `reducer` from `start` to `end`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Transfer {
    /// The sending mapper (from 0).
    pub mapper: usize,
    /// The receiving reducer (from 0).
    pub reducer: usize,
    /// When it starts, in time units.
    pub start: f64,
    /// When it ends, in time units.
    pub end: f64,
}

/// A whole schedule: what each mapper maps, the shuffle, the reduces.
#[derive(Debug, Clone, PartialEq)]
pub struct Shuffle {
    /// The chunk of each mapper.
    pub sizes: Vec<f64>,
    /// Every transfer of a nonzero piece.
    pub transfers: Vec<Transfer>,
    /// When each reducer reduces.
    pub reducers: Vec<Interval>,
    /// When the last reducer ends.
    pub makespan: f64,
}

impl Shuffle {
    /// The schedule of `sizes` and `transfers`, each reducer reducing as
    /// soon as it has every piece and is ready.
    pub fn finish(job: &Job, sizes: Vec<f64>, transfers: Vec<Transfer>) -> Shuffle {
        let mut last: Vec<f64> = (0..job.reducers).map(|j| job.reducer_ready(j)).collect();
        for t in &transfers {
            last[t.reducer] = last[t.reducer].max(t.end);
        }
        let reduce = job.reduce_time();
        let reducers: Vec<Interval> = last
            .into_iter()
            .map(|start| Interval {
                start,
                end: start + reduce,
            })
            .collect();
        let makespan = reducers.iter().map(|i| i.end).fold(0.0, f64::max);
        Shuffle {
            sizes,
            transfers,
            reducers,
            makespan,
        }
    }

    /// When mapper `k` finishes mapping.
    pub fn mapped(&self, job: &Job, k: usize) -> f64 {
        job.mapper_ready(k) + job.map * self.sizes[k]
    }
}

/// `sizes` made to add up to `load` exactly (they come from an LP in scaled
/// units), with shares below `1e-15` of the load dropped.
pub fn normalised(mut sizes: Vec<f64>, load: f64) -> Vec<f64> {
    for a in sizes.iter_mut() {
        if a.is_nan() || *a <= load * 1e-15 {
            *a = 0.0;
        }
    }
    let sum: f64 = sizes.iter().sum();
    if sum > 0.0 {
        let scale = load / sum;
        sizes.iter_mut().for_each(|a| *a *= scale);
    }
    sizes
}
