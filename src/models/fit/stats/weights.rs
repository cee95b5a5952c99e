//! Weighted least squares, for noise that is not of one size: a sample
//! whose noise has standard deviation `σ/√w` weighs `w`, and every fit
//! (lines, the exact knees, the intervals) is the same closed form on
//! weighted sums.
//!
//! **Relative noise.** Timings whose noise is a few per cent of the time
//! have `σ_i = σ·y_i`: the weights are `1/ŷ²`, `ŷ` the fitted time. They
//! depend on the fit, so the fit is iterated (Carroll & Ruppert 1988,
//! *Transformation and weighting in regression*, §2.1: generalised least
//! squares): the first cycle weighs by the measured `1/y²`, each next one
//! by `1/ŷ²` of the cycle before, until no weight moves by more than
//! `10⁻¹⁰` of itself. Each cycle is the exact weighted fit for its weights,
//! knees included; the result weighs every sample by its own fitted value.
//! The measured `1/y²` alone would give a one-cycle fit, but a biased one:
//! a sample measured low weighs more than one measured high, which pulls
//! every coefficient down by about `2σ²` of itself (to first order; 0.2 %
//! at 3 % noise), about `2σ√n` standard errors: the intervals would cover
//! less and less as samples grow.

use super::error::{Axis, FitError};
use super::estimate::Goodness;

/// How a fit weighs its samples: the noise it assumes.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub enum Weights<'a> {
    /// Every sample alike: noise of one size (ordinary least squares).
    #[default]
    Unit,
    /// Sample `i` weighs `w[i]`: its noise's variance is `σ²/w[i]`.
    Given(&'a [f64]),
    /// Noise proportional to the fitted value, `σ_i = σ·ŷ_i`: the weights
    /// `1/ŷ²`, iterated; `σ` is then a fraction of the value.
    Relative,
}

/// The most cycles of a relative fit (they settle in about ten).
const MAX_CYCLES: usize = 100;

/// The largest relative move of any weight at which a relative fit has
/// settled.
const SETTLED: f64 = 1e-10;

/// One weight per sample, each finite and positive.
pub(super) fn check(ws: Option<&[f64]>, samples: usize) -> Result<(), FitError> {
    let Some(ws) = ws else {
        return Ok(());
    };
    if ws.len() != samples {
        return Err(FitError::Weights {
            samples,
            weights: ws.len(),
        });
    }
    for (index, &value) in ws.iter().enumerate() {
        if !value.is_finite() {
            return Err(FitError::NotFinite {
                index,
                axis: Axis::Weight,
            });
        }
        if value <= 0.0 {
            return Err(FitError::NotPositive {
                index,
                axis: Axis::Weight,
                value,
            });
        }
    }
    Ok(())
}

/// A fit of `ys` with `weights`: `fit` makes the fit for fixed weights
/// (`None`: unweighted), `goodness` reads its residuals.
pub(super) fn weighted<T>(
    ys: &[f64],
    weights: Weights,
    fit: impl Fn(Option<&[f64]>) -> Result<T, FitError>,
    goodness: impl Fn(&T) -> &Goodness,
) -> Result<T, FitError> {
    match weights {
        Weights::Unit => fit(None),
        Weights::Given(ws) => fit(Some(ws)),
        Weights::Relative => relative(ys, fit, goodness),
    }
}

/// The relative-noise fit: weights `1/y²`, then `1/ŷ²` of the last fit
/// until they settle.
fn relative<T>(
    ys: &[f64],
    fit: impl Fn(Option<&[f64]>) -> Result<T, FitError>,
    goodness: impl Fn(&T) -> &Goodness,
) -> Result<T, FitError> {
    let mut ws: Vec<f64> = ys.iter().map(|y| 1.0 / (y * y)).collect();
    let mut best = fit(Some(&ws))?;
    for _ in 0..MAX_CYCLES {
        let next = inverse_squares(ys, &goodness(&best).residuals);
        let moved = (next.iter().zip(&ws))
            .map(|(a, b)| (a / b - 1.0).abs())
            .fold(0.0, f64::max);
        if moved <= SETTLED {
            break;
        }
        ws = next;
        best = fit(Some(&ws))?;
    }
    Ok(best)
}

/// `1/ŷ²` for the fitted values `ŷ = y − residual`; a fitted value that is
/// not positive (a line far off at one end) weighs as its measured one.
fn inverse_squares(ys: &[f64], residuals: &[f64]) -> Vec<f64> {
    ys.iter()
        .zip(residuals)
        .map(|(&y, &r)| {
            let fitted = y - r;
            let v = if fitted > 0.0 && fitted.is_finite() {
                fitted
            } else {
                y
            };
            1.0 / (v * v)
        })
        .collect()
}
