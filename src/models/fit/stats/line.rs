//! One straight line by least squares: `y = A x` through the origin (a
//! machine's computing rate `A`) or `y = A x + B` (a link's start-up `S` or
//! per-message cost `O` and its rate `C`).
//!
//! The textbook closed forms: through the origin `A = Σxy/Σx²`,
//! `se(A) = σ/√Σx²`; with an intercept, on centred sums,
//! `A = Σ(x − x̄)(y − ȳ)/Σ(x − x̄)²`, `B = ȳ − A x̄`, `se(A) = σ/√Sxx`,
//! `se(B) = σ √(1/n + x̄²/Sxx)`, where `σ² = rss/(n − p)`. Centring keeps the
//! sums exact to rounding when the loads are large and close together.

use serde::{Deserialize, Serialize};

use super::check;
use super::error::FitError;
use super::estimate::{Estimate, Goodness};

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
    check::samples(xs, ys)?;
    let parameters = 1 + usize::from(intercept);
    check::enough(xs.len(), parameters)?;
    if intercept {
        check::spread(xs)?;
    }
    check::not_flat(ys)?;
    Ok(if intercept {
        affine(xs, ys)
    } else {
        through_origin(xs, ys)
    })
}

/// `y = A x`, from checked samples.
pub(super) fn through_origin(xs: &[f64], ys: &[f64]) -> LineFit {
    let sxx: f64 = xs.iter().map(|x| x * x).sum();
    let sxy: f64 = xs.iter().zip(ys).map(|(x, y)| x * y).sum();
    let a = sxy / sxx;
    let residuals = xs.iter().zip(ys).map(|(x, y)| y - a * x).collect();
    let fit = Goodness::new(ys, residuals, 1);
    LineFit {
        slope: Estimate::new(a, fit.sigma / sxx.sqrt(), fit.df()),
        intercept: None,
        fit,
    }
}

/// `y = A x + B`, from checked samples with at least two different `x`.
fn affine(xs: &[f64], ys: &[f64]) -> LineFit {
    let n = xs.len() as f64;
    let mx = xs.iter().sum::<f64>() / n;
    let my = ys.iter().sum::<f64>() / n;
    let sxx: f64 = xs.iter().map(|x| (x - mx) * (x - mx)).sum();
    let sxy: f64 = xs.iter().zip(ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let a = sxy / sxx;
    let b = my - a * mx;
    let residuals = xs.iter().zip(ys).map(|(x, y)| y - (a * x + b)).collect();
    let fit = Goodness::new(ys, residuals, 2);
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
