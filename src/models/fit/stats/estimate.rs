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
        Self::weighted(ys, residuals, parameters, None)
    }

    /// The goodness of a weighted fit: sample `i` counts `weights[i]` times
    /// in every sum (`None`: once), so `rss` is `Σ w r²`, `σ` the noise of
    /// a sample of weight 1 and `R²` the weighted one; the BIC is that of
    /// Gaussian noise of variance `σ²/w`, which compares with the BIC of
    /// any other weighting of the same data.
    pub fn weighted(
        ys: &[f64],
        residuals: Vec<f64>,
        parameters: usize,
        weights: Option<&[f64]>,
    ) -> Self {
        let n = ys.len();
        let w = |i: usize| weights.map_or(1.0, |w| w[i]);
        let rss: f64 = residuals
            .iter()
            .enumerate()
            .map(|(i, r)| w(i) * r * r)
            .sum();
        let total_weight: f64 = (0..n).map(w).sum();
        let mean = ys.iter().enumerate().map(|(i, y)| w(i) * y).sum::<f64>() / total_weight;
        let total: f64 = (ys.iter().enumerate())
            .map(|(i, y)| w(i) * (y - mean) * (y - mean))
            .sum();
        let df = n.saturating_sub(parameters).max(1);
        Self {
            n,
            parameters,
            rss,
            r2: 1.0 - rss / total,
            residuals,
            sigma: (rss / df as f64).sqrt(),
            bic: bic(rss, ys, parameters, weights),
        }
    }

    /// The residual degrees of freedom `n − p` (at least 1).
    pub fn df(&self) -> usize {
        self.n.saturating_sub(self.parameters).max(1)
    }
}

/// `n ln(rss/n) + p ln n − Σ ln w`, with `rss` floored at
/// `(10⁻¹⁰)² Σ w y²`, residuals ten digits below the data: an exact fit
/// would otherwise score minus infinity, and two fits exact to rounding
/// would compare by their rounding errors rather than by their numbers of
/// parameters. The last term is the weights' share of the likelihood
/// (zero without weights): a sample of weight `w` has noise `σ/√w`.
fn bic(rss: f64, ys: &[f64], parameters: usize, weights: Option<&[f64]>) -> f64 {
    let w = |i: usize| weights.map_or(1.0, |w| w[i]);
    let squares: f64 = ys.iter().enumerate().map(|(i, y)| w(i) * y * y).sum();
    let floor = (1e-20 * squares).max(f64::MIN_POSITIVE);
    let n = ys.len() as f64;
    let spread = weights.map_or(0.0, |w| w.iter().map(|w| w.ln()).sum());
    n * (rss.max(floor) / n).ln() + parameters as f64 * n.ln() - spread
}
