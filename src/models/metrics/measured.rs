//! What measured run times say: the Karp–Flatt serial fraction, Amdahl's
//! law fitted to the speedups, and the universal scalability law fitted to
//! the throughputs.
//!
//! **Speedups.** `S(p) = T(1)/T(p)` when `p = 1` was measured, else
//! `T_s(W)/T(p)`. **Amdahl** `1/S = f + (1 − f)/p` is linear in `f`, so
//! least squares on `1/S` gives `f` in closed form. **USL**
//! `X(p) = λp/(1 + σ(p − 1) + κp(p − 1))` by nonlinear least squares on
//! the throughputs `X = 1/T`: for fixed `σ, κ` the best `λ` is linear least
//! squares; `σ, κ ≥ 0` start from the linear fit of `p T(p)` (Gunther's
//! linearisation) and are refined by a pattern search on `ln` scales.

use super::{Isospeed, IsospeedResult, KarpFlatt, LawPoint, Measured, Usl};

/// The analyses of the measured runs.
#[derive(Debug, Default)]
pub struct Analysis {
    pub karp_flatt: Vec<KarpFlatt>,
    pub trend: Option<String>,
    pub amdahl: Option<f64>,
    pub usl: Option<Usl>,
    pub laws: Vec<LawPoint>,
}

/// Everything the measured runs give (nothing for fewer than two).
pub fn analyse(measured: &[Measured], serial: f64) -> Analysis {
    if measured.len() < 2 {
        return Analysis::default();
    }
    let mut runs = measured.to_vec();
    runs.sort_by(|a, b| a.p.total_cmp(&b.p));
    let reference = runs.iter().find(|m| m.p == 1.0).map_or(serial, |m| m.time);
    let karp_flatt: Vec<KarpFlatt> = runs
        .iter()
        .filter(|m| m.p > 1.0)
        .map(|m| {
            let speedup = reference / m.time;
            KarpFlatt {
                p: m.p,
                speedup,
                serial_fraction: (1.0 / speedup - 1.0 / m.p) / (1.0 - 1.0 / m.p),
            }
        })
        .collect();
    let amdahl = amdahl(&karp_flatt);
    let usl = usl(&runs);
    let top = runs.last().map_or(1.0, |m| m.p);
    Analysis {
        trend: trend(&karp_flatt),
        laws: laws(amdahl, usl.as_ref(), top),
        amdahl,
        usl,
        karp_flatt,
    }
}

/// Whether the serial fraction grows with `p`.
fn trend(rows: &[KarpFlatt]) -> Option<String> {
    let (first, last) = (rows.first()?, rows.last()?);
    if rows.len() < 2 {
        return None;
    }
    let (f0, f1) = (first.serial_fraction, last.serial_fraction);
    Some(if f1 > f0 * 1.2 + 1e-3 {
        format!(
            "The serial fraction grows from {f0:.4} to {f1:.4} with p: the overhead rises with \
             the processors (communication, synchronisation), so the program scales worse \
             than a fixed serial part would say."
        )
    } else if f1 < f0 * 0.8 - 1e-3 {
        format!(
            "The serial fraction falls from {f0:.4} to {f1:.4} with p: the runs gain more than \
             processors (e.g. caches), better than any fixed serial part."
        )
    } else {
        format!(
            "The serial fraction stays near {:.4}: a fixed serial part limits the speedup, as \
             Amdahl's law says.",
            (f0 + f1) / 2.0
        )
    })
}

/// `f` of Amdahl's law by least squares on `1/S`, within `[0, 1]` (a
/// fraction; the least squares of one variable on an interval is the
/// unconstrained one clamped).
fn amdahl(rows: &[KarpFlatt]) -> Option<f64> {
    let (num, den) = rows.iter().fold((0.0, 0.0), |(n, d), r| {
        let x = 1.0 - 1.0 / r.p;
        (n + (1.0 / r.speedup - 1.0 / r.p) * x, d + x * x)
    });
    (den > 0.0).then(|| (num / den).clamp(0.0, 1.0))
}

/// The USL's denominator.
fn load(p: f64, sigma: f64, kappa: f64) -> f64 {
    1.0 + sigma * (p - 1.0) + kappa * p * (p - 1.0)
}

/// The best `λ` for `σ, κ` and the sum of squared residuals of the
/// throughputs.
fn fit(runs: &[Measured], sigma: f64, kappa: f64) -> (f64, f64) {
    // Minimise Σ (λ g_i − x_i)², g_i = p_i/load(p_i), x_i = 1/T_i.
    let (num, den) = runs.iter().fold((0.0, 0.0), |(n, d), m| {
        let g = m.p / load(m.p, sigma, kappa);
        (n + g / m.time, d + g * g)
    });
    let lambda = if den > 0.0 { num / den } else { 0.0 };
    let error = runs
        .iter()
        .map(|m| (lambda * m.p / load(m.p, sigma, kappa) - 1.0 / m.time).powi(2))
        .sum();
    (lambda, error)
}

/// The start: `p T(p) = a + b(p − 1) + c p(p − 1)` is linear in
/// `a = 1/λ, b = σ/λ, c = κ/λ`; its least squares (clamped at 0).
fn linear_start(runs: &[Measured]) -> (f64, f64) {
    // Normal equations of the 3 × 3 system.
    let mut m = [[0.0_f64; 4]; 3];
    for r in runs {
        let row = [1.0, r.p - 1.0, r.p * (r.p - 1.0), r.p * r.time];
        for (line, &x) in m.iter_mut().zip(&row) {
            for (cell, &y) in line.iter_mut().zip(&row) {
                *cell += x * y;
            }
        }
    }
    // Gaussian elimination with partial pivoting.
    for col in 0..3 {
        let pivot = (col..3)
            .max_by(|&i, &j| m[i][col].abs().total_cmp(&m[j][col].abs()))
            .unwrap_or(col);
        m.swap(col, pivot);
        if m[col][col].abs() < 1e-300 {
            return (0.0, 0.0);
        }
        let pivot_row = m[col];
        for (i, row) in m.iter_mut().enumerate() {
            if i != col {
                let f = row[col] / pivot_row[col];
                for (x, &y) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * y;
                }
            }
        }
    }
    let [a, b, c] = [0, 1, 2].map(|i| m[i][3] / m[i][i]);
    if a > 0.0 {
        ((b / a).max(0.0), (c / a).max(0.0))
    } else {
        (0.0, 0.0)
    }
}

/// The universal scalability law fitted to the runs (at least three
/// distinct `p`).
fn usl(runs: &[Measured]) -> Option<Usl> {
    let mut ps: Vec<f64> = runs.iter().map(|m| m.p).collect();
    ps.dedup();
    if ps.len() < 3 {
        return None;
    }
    let (mut s, mut k) = linear_start(runs);
    let mut error = fit(runs, s, k).1;
    // Pattern search on ln scales, a bounded number of steps; a value
    // below 1e-15 is zero.
    let mut step = 0.5_f64;
    for _ in 0..4000 {
        if step < 1e-9 {
            break;
        }
        let mut moved = false;
        for (ds, dk) in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
            let scale = |v: f64, d: f64| match (v < 1e-15, d > 0.0) {
                (true, true) => 1e-12,
                (true, false) => 0.0,
                _ if d == 0.0 => v,
                _ => v * (d * step).exp(),
            };
            let (s2, k2) = (scale(s, ds), scale(k, dk));
            let e = fit(runs, s2, k2).1;
            if e < error {
                (s, k, error) = (s2, k2, e);
                moved = true;
            }
        }
        if !moved {
            step /= 2.0;
        }
    }
    // A parameter the data do not need is zero, not a rounding residue.
    let floor = 1e-24 * runs.iter().map(|m| m.time.powi(-2)).sum::<f64>();
    if k < 1e-15 || fit(runs, s, 0.0).1 <= error * (1.0 + 1e-9) + floor {
        k = 0.0;
    }
    if s < 1e-15 || fit(runs, 0.0, k).1 <= error * (1.0 + 1e-9) + floor {
        s = 0.0;
    }
    let (lambda, error) = fit(runs, s, k);
    let scale = runs.iter().map(|m| 1.0 / m.time).fold(0.0, f64::max);
    Some(Usl {
        lambda,
        sigma: s,
        kappa: k,
        peak: (k > 0.0 && s < 1.0).then(|| ((1.0 - s) / k).sqrt()),
        residual: (error / runs.len() as f64).sqrt() / scale,
    })
}

/// Amdahl's and Gustafson's speedups for the fitted serial fraction, and
/// the USL's speedup `X(p)/X(1)`, from 1 to the largest measured `p`.
fn laws(f: Option<f64>, usl: Option<&Usl>, top: f64) -> Vec<LawPoint> {
    let Some(f) = f else { return Vec::new() };
    super::analysis::counts(1.0, top)
        .into_iter()
        .map(|p| LawPoint {
            p,
            amdahl: 1.0 / (f + (1.0 - f) / p),
            gustafson: f + (1.0 - f) * p,
            usl: usl.map(|u| p / load(p, u.sigma, u.kappa)),
        })
        .collect()
}

/// The isospeed metrics of two configurations.
pub fn isospeed(s: &Isospeed) -> IsospeedResult {
    let marked = |v: &[f64]| v.iter().sum::<f64>();
    IsospeedResult {
        psi: s.p2 * s.work / (s.p * s.work2),
        psi_e: (!s.speeds.is_empty() && !s.speeds2.is_empty())
            .then(|| marked(&s.speeds2) * s.work / (marked(&s.speeds) * s.work2)),
    }
}
