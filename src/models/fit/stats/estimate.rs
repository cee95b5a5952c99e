//! A fitted value with its uncertainty, and how well a fit matches its data.

use serde::{Deserialize, Serialize};

use super::student::t_975;

/// A fitted parameter: its value, standard error and 95 % interval
/// (`value ± t_975(n − p) · std_error`, Student's t with the fit's
/// residual degrees of freedom).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Estimate {
    /// The fitted value, in the parameter's unit.
    pub value: f64,
    /// Its standard error, same unit.
    pub std_error: f64,
    /// The lower end of the 95 % interval.
    pub low: f64,
    /// The upper end of the 95 % interval.
    pub high: f64,
}

impl Estimate {
    /// `value` with standard error `std_error` and `df` residual degrees of
    /// freedom.
    pub fn new(value: f64, std_error: f64, df: usize) -> Self {
        let half = t_975(df) * std_error;
        Self {
            value,
            std_error,
            low: value - half,
            high: value + half,
        }
    }

    /// The same estimate in another unit (`factor > 0`).
    pub fn scaled(self, factor: f64) -> Self {
        Self {
            value: self.value * factor,
            std_error: self.std_error * factor,
            low: self.low * factor,
            high: self.high * factor,
        }
    }

    /// Whether `v` lies in the 95 % interval.
    pub fn covers(&self, v: f64) -> bool {
        self.low <= v && v <= self.high
    }
}

/// How well a fit matches its data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Goodness {
    /// Samples.
    pub n: usize,
    /// Parameters fitted (a knee counts as one).
    pub parameters: usize,
    /// The residual sum of squares, in `y`'s unit squared.
    pub rss: f64,
    /// `1 − rss/Σ(y − ȳ)²` (centred, so that fits with and without an
    /// intercept compare; below zero when a line through the origin fits
    /// worse than the mean).
    pub r2: f64,
    /// Measured minus fitted `y`, in the caller's order of the samples.
    pub residuals: Vec<f64>,
    /// The noise's estimated standard deviation `√(rss/(n − p))`, `y`'s unit.
    pub sigma: f64,
    /// The Bayesian information criterion `n ln(rss/n) + p ln n` (Gaussian
    /// noise, constants dropped: only differences between fits of the same
    /// data mean anything; the lower, the better supported).
    pub bic: f64,
}

impl Goodness {
    /// The goodness of a fit of `ys` with these residuals and `parameters`
    /// parameters (`ys` not all equal, more samples than parameters).
    pub fn new(ys: &[f64], residuals: Vec<f64>, parameters: usize) -> Self {
        let n = ys.len();
        let rss: f64 = residuals.iter().map(|r| r * r).sum();
        let mean = ys.iter().sum::<f64>() / n as f64;
        let total: f64 = ys.iter().map(|y| (y - mean) * (y - mean)).sum();
        let df = n.saturating_sub(parameters).max(1);
        Self {
            n,
            parameters,
            rss,
            r2: 1.0 - rss / total,
            residuals,
            sigma: (rss / df as f64).sqrt(),
            bic: bic(rss, ys, parameters),
        }
    }

    /// The residual degrees of freedom `n − p` (at least 1).
    pub fn df(&self) -> usize {
        self.n.saturating_sub(self.parameters).max(1)
    }
}

/// `n ln(rss/n) + p ln n`, with `rss` floored at `(10⁻¹⁰)² Σy²`, residuals
/// ten digits below the data: an exact fit would otherwise score minus
/// infinity, and two fits exact to rounding would compare by their rounding
/// errors rather than by their numbers of parameters.
fn bic(rss: f64, ys: &[f64], parameters: usize) -> f64 {
    let squares: f64 = ys.iter().map(|y| y * y).sum();
    let floor = (1e-20 * squares).max(f64::MIN_POSITIVE);
    let n = ys.len() as f64;
    n * (rss.max(floor) / n).ln() + parameters as f64 * n.ln()
}
