//! `[3]`'s two-level processing time `τ(α) = max(a1 α, a2 α + b2)` from
//! measured `(α, τ)`: the exact continuous two-piece least-squares fit with
//! an unknown knee `r = b2/(a1 − a2)`, the RAM size in the load's unit
//! (method and proof of exactness: [`piecewise`](super::piecewise)).
//!
//! The same fit serves energy per chunk `(α, E)` (`[4]`: energy is
//! piecewise linear in the chunk with the same breakpoint): pass the
//! energies as `ys`, and `a1, a2, b2` come out in joules per load unit and
//! joules.
//!
//! **Which model the data support.** The fit is compared with the single
//! line through the origin (with an intercept, when the first line has one)
//! by the Bayesian information criterion `n ln(rss/n) + p ln n`, the knee
//! counting as a parameter (three for `max(a1 α, a2 α + b2)`, one for
//! `a α`): BIC rather than an F-test because the knee makes the models
//! non-nested in the F-test's sense (under one line the knee is not
//! identified), while BIC needs no such regularity and penalises the two
//! extra parameters consistently as samples grow.

use serde::{Deserialize, Serialize};

use super::error::FitError;
use super::estimate::{Estimate, Goodness};
use super::line::{line_weighted, LineFit};
use super::piecewise::{k_lines_weighted, Origin};
use super::weights::Weights;

/// Which fit the data support.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Preferred {
    /// One line: no knee in the measured range (or too little data to
    /// show one).
    OneLine,
    /// Two lines with a knee.
    TwoLevel,
}

/// A two-level fit `τ = a1 α (+ b1)` below the knee `r`, `a2 α + b2` above.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KneeFit {
    /// The first level's slope, `y`'s unit per `x`'s unit.
    pub a1: Estimate,
    /// The first line's intercept, when it is not held at the origin.
    pub b1: Option<Estimate>,
    /// The second level's slope.
    pub a2: Estimate,
    /// The second level's intercept, `y`'s unit.
    pub b2: Estimate,
    /// The knee, in the load's unit (the RAM size).
    pub r: Estimate,
    /// Residuals, `R²`, `σ` and BIC of the two-level fit.
    pub fit: Goodness,
    /// One line on the same data: through the origin, or with an intercept
    /// when the first line has one.
    pub one_line: LineFit,
    /// The fit with the lower BIC.
    pub preferred: Preferred,
    /// The knee lies strictly inside the measured loads. The search keeps
    /// it in `[min α, max α]`; on an end, the data put it there or beyond.
    pub knee_inside: bool,
    /// `a2 > a1`: the second level is slower, so the fit is the maximum of
    /// its lines as `[3]`'s form says.
    pub convex: bool,
}

/// The two-level fit with the first line through the origin (`[3]`).
///
/// Data on one exact straight line give both lines the same slope, and
/// then no knee: [`FitError::Undetermined`] (the caller falls back on one
/// line, [`line_weighted`]). Measured data always have some change of
/// slope; when it is noise, [`KneeFit::preferred`] says so.
pub fn two_level(xs: &[f64], ys: &[f64]) -> Result<KneeFit, FitError> {
    two_level_with(xs, ys, Origin::Through)
}

/// The two-level fit, the first line through the origin or with its own
/// intercept `b1`.
pub fn two_level_with(xs: &[f64], ys: &[f64], origin: Origin) -> Result<KneeFit, FitError> {
    two_level_weighted(xs, ys, origin, Weights::Unit)
}

/// [`two_level_with`] with its samples weighted; the one line it is
/// compared with is weighted alike (for relative noise, by its own fitted
/// values).
pub fn two_level_weighted(
    xs: &[f64],
    ys: &[f64],
    origin: Origin,
    weights: Weights,
) -> Result<KneeFit, FitError> {
    let two = k_lines_weighted(xs, ys, 2, origin, weights)?;
    let one_line = line_weighted(xs, ys, origin == Origin::Free, weights)?;
    let (first, second) = (&two.lines[0], &two.lines[1]);
    // cannot fail: the second line always has its own intercept.
    let b2 = second.intercept.expect("the second line's intercept");
    let r = two.knees[0];
    let (low, high) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| {
            (l.min(x), h.max(x))
        });
    Ok(KneeFit {
        a1: first.slope,
        b1: first.intercept,
        a2: second.slope,
        b2,
        r,
        preferred: if two.fit.bic < one_line.fit.bic {
            Preferred::TwoLevel
        } else {
            Preferred::OneLine
        },
        knee_inside: low < r.value && r.value < high,
        convex: two.convex,
        fit: two.fit,
        one_line,
    })
}
