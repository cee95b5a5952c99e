//! Machines and the links that feed them.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::domain::error::{Checker, Invalid};
use crate::core::domain::processing::ProcessingTime;

/// A worker machine on a star network: the originator reaches it over its
/// own link, and it computes with its own processing-time function.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Processor {
    /// Communication start-up time `S_i` of a message to this machine.
    pub startup: f64,
    /// Communication time per load unit `C_i` (the inverse bandwidth).
    pub rate: f64,
    /// Processing time of a load, by memory level (fastest first).
    pub levels: ProcessingTime,
    /// Optional memory cap `B_i`: the most load this machine may take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap: Option<f64>,
}

impl Processor {
    /// Time to send `x` load units to this machine: `S_i + x·C_i`.
    pub fn send_time(&self, x: f64) -> f64 {
        self.startup + x * self.rate
    }

    /// Records every problem of this machine under `field`
    /// (e.g. `processors[2]`).
    pub(crate) fn check(&self, field: &str, c: &mut Checker) {
        c.non_negative(&format!("{field}.startup"), self.startup);
        c.non_negative(&format!("{field}.rate"), self.rate);
        self.levels.check(&format!("{field}.levels"), c);
        if let Some(cap) = self.cap {
            c.positive(&format!("{field}.cap"), cap);
        }
    }
}

/// Records the problems of a list of machines under `field`, at most `limit`
/// of them.
pub(crate) fn check_processors(field: &str, ps: &[Processor], limit: usize, c: &mut Checker) {
    if c.count(field, ps.len(), limit) {
        for (i, p) in ps.iter().enumerate() {
            p.check(&format!("{field}[{i}]"), c);
        }
    }
}

/// Records a problem if `order` is not a permutation of `0..m`.
pub(crate) fn check_order(field: &str, order: &[usize], m: usize, c: &mut Checker) {
    let mut seen = vec![false; m];
    for (k, &i) in order.iter().enumerate() {
        if i >= m {
            c.fail(
                format!("{field}[{k}]"),
                Invalid::OutOfRange { index: i, len: m },
            );
            return;
        }
        seen[i] = true;
    }
    if order.len() != m || seen.iter().any(|s| !s) {
        c.fail(field, Invalid::NotPermutation);
    }
}
