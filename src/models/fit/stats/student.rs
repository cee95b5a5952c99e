//! The 97.5 % quantile of Student's t, for the fits' 95 % intervals.
//!
//! Degrees of freedom are whole numbers here (samples minus parameters), so
//! the distribution function has a finite closed form (Abramowitz & Stegun
//! 26.7.3–4): with `θ = atan(t/√ν)`, `P(|T| < t)` is
//! `(2/π)(θ + sin θ cos θ (1 + ⅔cos²θ + …))` for odd `ν` and
//! `sin θ (1 + ½cos²θ + (1·3)/(2·4) cos⁴θ + …)` for even `ν`, sums of
//! positive terms that lose no precision. The quantile is found by bisection
//! on it up to `ν = 1000`; beyond, the Cornish–Fisher expansion around the
//! normal quantile (A&S 26.7.5, four terms) is exact to about 1e-13.

use std::f64::consts::PI;

/// The normal distribution's 97.5 % quantile.
pub const Z_975: f64 = 1.959_963_984_540_054;

/// Above this many degrees of freedom the expansion replaces the sum.
const SERIES_LIMIT: usize = 1000;

/// `t` with `P(T ≤ t) = 0.975` for Student's t with `df ≥ 1` degrees of
/// freedom (`df = 0` is treated as 1: callers never ask for it).
pub fn t_975(df: usize) -> f64 {
    let df = df.max(1);
    if df > SERIES_LIMIT {
        return cornish_fisher(df as f64);
    }
    // P(|T| < t) grows with t; t_975 lies in [z, t_975(1)] = [1.96, 12.71].
    let (mut low, mut high) = (Z_975, 12.8);
    for _ in 0..64 {
        let mid = 0.5 * (low + high);
        if central(mid, df) < 0.95 {
            low = mid;
        } else {
            high = mid;
        }
    }
    0.5 * (low + high)
}

/// `P(|T| < t)` for `ν` degrees of freedom (A&S 26.7.3–4).
fn central(t: f64, nu: usize) -> f64 {
    let theta = (t / (nu as f64).sqrt()).atan();
    let (s, c) = theta.sin_cos();
    let c2 = c * c;
    // The terms' ratios: (2j)/(2j+1) for odd ν, (2j−1)/(2j) for even ν.
    let odd = nu % 2 == 1;
    let terms = if odd { (nu - 1) / 2 } else { nu / 2 };
    let mut term = 1.0;
    let mut sum = 1.0;
    for j in 1..terms {
        let j = j as f64;
        term *= c2
            * if odd {
                2.0 * j / (2.0 * j + 1.0)
            } else {
                (2.0 * j - 1.0) / (2.0 * j)
            };
        sum += term;
    }
    if odd {
        let tail = if nu == 1 { 0.0 } else { s * c * sum };
        2.0 / PI * (theta + tail)
    } else {
        s * sum
    }
}

/// The Cornish–Fisher expansion of `t_975` in powers of `1/ν`.
fn cornish_fisher(nu: f64) -> f64 {
    let z = Z_975;
    let z2 = z * z;
    let g1 = z * (z2 + 1.0) / 4.0;
    let g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
    let g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
    let g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0;
    z + g1 / nu + g2 / (nu * nu) + g3 / nu.powi(3) + g4 / nu.powi(4)
}
