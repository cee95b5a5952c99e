//! One straight line by least squares: `y = A x` through the origin (a
//! machine's computing rate `A`) or `y = A x + B` (a link's start-up `S` or
//! per-message cost `O` and its rate `C`).
//!
//! The textbook closed forms: through the origin `A = Σxy/Σx²`,
//! `se(A) = σ/√Σx²`; with an intercept, on centred sums,
//! `A = Σ(x − x̄)(y − ȳ)/Σ(x − x̄)²`, `B = ȳ − A x̄`, `se(A) = σ/√Sxx`,
//! `se(B) = σ √(1/n + x̄²/Sxx)`, where `σ² = rss/(n − p)`. Centring keeps the
//! sums exact to rounding when the loads are large and close together.
//! Weighted (`weights.rs`), every sum and mean is the weighted one and `n`
//! the total weight.

use serde::{Deserialize, Serialize};

use super::check;
use super::error::FitError;
use super::estimate::{Estimate, Goodness};
use super::weights::{self, Weights};

/// A fitted line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineFit {
    /// `A`, in `y`'s unit per `x`'s unit.
    pub slope: Estimate,
    /// `B`, in `y`'s unit, when fitted.
    pub intercept: Option<Estimate>,
    /// Residuals, `R²`, `σ` and BIC.
    pub fit: Goodness,
}

/// The least-squares line through `(xs[i], ys[i])`: `y = A x + B` if
/// `intercept`, else `y = A x`.
pub fn line(xs: &[f64], ys: &[f64], intercept: bool) -> Result<LineFit, FitError> {
    line_weighted(xs, ys, intercept, Weights::Unit)
}

/// [`line()`] with its samples weighted.
pub fn line_weighted(
    xs: &[f64],
    ys: &[f64],
    intercept: bool,
    weights: Weights,
) -> Result<LineFit, FitError> {
    let fit = |ws: Option<&[f64]>| exact(xs, ys, intercept, ws);
    weights::weighted(ys, weights, fit, |f| &f.fit)
}

/// The line for fixed weights (`None`: unweighted).
fn exact(xs: &[f64], ys: &[f64], intercept: bool, ws: Option<&[f64]>) -> Result<LineFit, FitError> {
    check::samples(xs, ys)?;
    weights::check(ws, xs.len())?;
    let parameters = 1 + usize::from(intercept);
    check::enough(xs.len(), parameters)?;
    if intercept {
        check::spread(xs)?;
    }
    check::not_flat(ys)?;
    Ok(if intercept {
        affine(xs, ys, ws)
    } else {
        through_origin(xs, ys, ws)
    })
}

/// `y = A x`, from checked samples.
fn through_origin(xs: &[f64], ys: &[f64], ws: Option<&[f64]>) -> LineFit {
    let w = |i: usize| ws.map_or(1.0, |w| w[i]);
    let sxx: f64 = xs.iter().enumerate().map(|(i, x)| w(i) * x * x).sum();
    let sxy: f64 = (xs.iter().zip(ys).enumerate())
        .map(|(i, (x, y))| w(i) * x * y)
        .sum();
    let a = sxy / sxx;
    let residuals = xs.iter().zip(ys).map(|(x, y)| y - a * x).collect();
    let fit = Goodness::weighted(ys, residuals, 1, ws);
    LineFit {
        slope: Estimate::new(a, fit.sigma / sxx.sqrt(), fit.df()),
        intercept: None,
        fit,
    }
}

/// `y = A x + B`, from checked samples with at least two different `x`.
fn affine(xs: &[f64], ys: &[f64], ws: Option<&[f64]>) -> LineFit {
    let w = |i: usize| ws.map_or(1.0, |w| w[i]);
    let n: f64 = (0..xs.len()).map(w).sum();
    let mx = xs.iter().enumerate().map(|(i, x)| w(i) * x).sum::<f64>() / n;
    let my = ys.iter().enumerate().map(|(i, y)| w(i) * y).sum::<f64>() / n;
    let sxx: f64 = (xs.iter().enumerate())
        .map(|(i, x)| w(i) * (x - mx) * (x - mx))
        .sum();
    let sxy: f64 = (xs.iter().zip(ys).enumerate())
        .map(|(i, (x, y))| w(i) * (x - mx) * (y - my))
        .sum();
    let a = sxy / sxx;
    let b = my - a * mx;
    let residuals = xs.iter().zip(ys).map(|(x, y)| y - (a * x + b)).collect();
    let fit = Goodness::weighted(ys, residuals, 2, ws);
    let df = fit.df();
    LineFit {
        slope: Estimate::new(a, fit.sigma / sxx.sqrt(), df),
        intercept: Some(Estimate::new(
            b,
            fit.sigma * (1.0 / n + mx * mx / sxx).sqrt(),
            df,
        )),
        fit,
    }
}
