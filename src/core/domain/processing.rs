//! Processing time as a convex piecewise-linear function of the load.
//!
//! A machine with a memory hierarchy computes at one rate while its load fits
//! in the fastest memory and at a slower rate once it spills to the next
//! level (`[2]`, Fig. 2). Each level `k` is a line `A_k1 + x·A_k2`; the
//! processing time is their maximum. Listing the levels fastest first, the
//! function is the intended one only if every level is slower than the one
//! before (convexity) and takes over at a larger load than the one before
//! (otherwise it never applies) — both are checked.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::domain::error::{Checker, Invalid};

/// One memory level: processing `x` units takes `intercept + slope·x`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Level {
    /// Time of an empty load at this level (`A_k1`); negative for the deeper
    /// levels, whose lines start below the core line.
    pub intercept: f64,
    /// Time per load unit at this level (`A_k2`).
    pub slope: f64,
}

impl Level {
    /// The line `intercept + slope·x`.
    pub const fn new(intercept: f64, slope: f64) -> Level {
        Level { intercept, slope }
    }

    /// The time this line gives for load `x`.
    pub fn at(&self, x: f64) -> f64 {
        self.intercept + self.slope * x
    }
}

/// The most memory levels a processing-time function may have.
pub const MAX_LEVELS: usize = 16;

/// A processing-time function: the maximum of its levels' lines, listed
/// fastest (core) first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct ProcessingTime {
    levels: Vec<Level>,
}

impl ProcessingTime {
    /// The function with the given levels, fastest first (not yet checked;
    /// see `ProcessingTime::check`).
    pub fn new(levels: Vec<Level>) -> ProcessingTime {
        ProcessingTime { levels }
    }

    /// The linear function `slope·x` (one level, no start-up cost).
    pub fn linear(slope: f64) -> ProcessingTime {
        ProcessingTime::new(vec![Level::new(0.0, slope)])
    }

    /// The levels, fastest first.
    pub fn levels(&self) -> &[Level] {
        &self.levels
    }

    /// The processing time of load `x`.
    pub fn eval(&self, x: f64) -> f64 {
        self.levels
            .iter()
            .map(|l| l.at(x))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    /// The level in use at load `x`: the fastest level whose line attains
    /// the maximum (at a swap point the faster level is still in use).
    pub fn level_at(&self, x: f64) -> usize {
        let t = self.eval(x);
        let tol = 1e-12 * (1.0 + t.abs());
        self.levels
            .iter()
            .position(|l| l.at(x) >= t - tol)
            .unwrap_or(0)
    }

    /// The loads where level `k` hands over to level `k + 1` (`swp`).
    pub fn swap_points(&self) -> Vec<f64> {
        self.levels
            .windows(2)
            .map(|w| (w[0].intercept - w[1].intercept) / (w[1].slope - w[0].slope))
            .collect()
    }

    /// Records every problem of the function under `field` (a path such as
    /// `processors[0].levels`).
    pub(crate) fn check(&self, field: &str, c: &mut Checker) {
        if !c.count(field, self.levels.len(), MAX_LEVELS) {
            return;
        }
        let mut ok = true;
        for (k, l) in self.levels.iter().enumerate() {
            ok &= c.finite(&format!("{field}[{k}].intercept"), l.intercept);
            ok &= c.positive(&format!("{field}[{k}].slope"), l.slope);
        }
        if !ok {
            return;
        }
        let first = self.levels[0].intercept;
        if first < 0.0 {
            c.fail(
                format!("{field}[0].intercept"),
                Invalid::NegativeAtZero(first),
            );
        }
        let mut previous_swap = 0.0;
        for k in 1..self.levels.len() {
            let (lo, hi) = (self.levels[k - 1], self.levels[k]);
            if hi.slope <= lo.slope {
                let invalid = Invalid::NotConvex {
                    slope: hi.slope,
                    previous: lo.slope,
                };
                c.fail(format!("{field}[{k}].slope"), invalid);
                return;
            }
            let swap = (lo.intercept - hi.intercept) / (hi.slope - lo.slope);
            if swap <= previous_swap {
                let invalid = Invalid::NeverActive {
                    swap_point: swap,
                    previous: previous_swap,
                };
                c.fail(format!("{field}[{k}].intercept"), invalid);
                return;
            }
            previous_swap = swap;
        }
    }
}

/// Checks the two lines of `τ(α) = max{a1 α, a2 α + b2}` (the start-up
/// models' in-core and out-of-core rates) whose fields are `a1`, `a2`, `b2`
/// after `prefix` (empty, or `machines[0].`): `a1 > 0`, `a2 > a1` (convex)
/// and `b2 < 0` (so the lines meet at a positive RAM).
pub fn check_two_lines(c: &mut Checker, prefix: &str, a1: f64, a2: f64, b2: f64) {
    let at = |f: &str| format!("{prefix}{f}");
    let first = c.positive(&at("a1"), a1);
    if c.positive(&at("a2"), a2) && first && a2 <= a1 {
        let invalid = Invalid::NotConvex {
            slope: a2,
            previous: a1,
        };
        c.fail(at("a2"), invalid);
    }
    if c.finite(&at("b2"), b2) && b2 >= 0.0 {
        c.fail(at("b2"), Invalid::NotNegative(b2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_level() -> ProcessingTime {
        ProcessingTime::new(vec![Level::new(1.0, 1.0), Level::new(-9.0, 10.0)])
    }

    #[test]
    fn evaluates_the_worked_example_function() {
        let f = two_level();
        assert_eq!(f.eval(1.25), 3.5);
        assert_eq!(f.eval(0.75), 1.75);
        assert_eq!(f.level_at(0.75), 0);
        assert_eq!(f.level_at(1.25), 1);
        assert_eq!(f.level_at(10.0 / 9.0), 0);
        assert!((f.swap_points()[0] - 10.0 / 9.0).abs() < 1e-15);
    }

    fn problems(f: &ProcessingTime) -> Vec<String> {
        let mut c = crate::core::domain::error::Checker::default();
        f.check("levels", &mut c);
        let errors = c.into_errors();
        errors.iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn rejects_bad_functions_with_their_field() {
        let l = Level::new;
        let cases: &[(Vec<Level>, &str)] = &[
            (vec![], "levels: must not be empty"),
            (
                vec![l(f64::NAN, 1.0)],
                "levels[0].intercept: must be a finite",
            ),
            (
                vec![l(0.0, 0.0)],
                "levels[0].slope: must be greater than zero",
            ),
            (vec![l(-1.0, 1.0)], "levels[0].intercept: gives a negative"),
            (
                vec![l(0.0, 2.0), l(-1.0, 1.0)],
                "levels[1].slope: must be slower",
            ),
            (
                vec![l(0.0, 1.0), l(1.0, 2.0)],
                "levels[1].intercept: is never used",
            ),
            (
                vec![l(0.0, 1.0), l(-10.0, 2.0), l(-5.0, 3.0)],
                "levels[2].intercept: is never used",
            ),
        ];
        for (levels, want) in cases {
            let got = problems(&ProcessingTime::new(levels.clone()));
            assert!(
                got.first().is_some_and(|m| m.starts_with(want)),
                "{levels:?}: got {got:?}, want {want}"
            );
        }
        assert!(problems(&two_level()).is_empty());
    }
}
