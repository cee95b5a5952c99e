//! The metrics from the formulas: curves over `p`, the isoefficiency
//! curve and the least parallel time.
//!
//! **Isoefficiency.** At each `p` the work `W` with `E(W, p) = e` is a root
//! of `g(x) = ln T_s(W) − ln(e p T_p(W, p))` in `x = ln W`. A scan of
//! `W = 10^-12 … 10^60` by decades brackets the first sign change; the
//! Illinois variant of regula falsi, with a bisection step whenever the
//! bracket does not halve, narrows it to `1e-12` in `x`. No sign change
//! means no such `W` (said per `p`). The order of growth is the reference
//! function (`p`, `p log p`, `p²`, …) whose ratio to `W` varies least over
//! the upper half (in `log p`) of the curve, if it varies by under 5 %;
//! otherwise the local exponent `d log W/d log p` at the largest `p`.

use super::error::FormulaProblem;
use super::{CurvePoint, Formula, IsoPoint, Isoefficiency, MinTime, Range};
use crate::core::domain::error::Error;
use crate::core::domain::number::{human, number};

/// The most points of a curve over `p`.
pub const MAX_POINTS: usize = 200;

/// `n` values from `a` to `b`, spaced geometrically (both ends kept).
fn geometric(a: f64, b: f64, n: usize) -> Vec<f64> {
    (0..n)
        .map(|k| a * (b / a).powf(k as f64 / (n - 1) as f64))
        .collect()
}

/// Whole processor counts from `r.from` to `r.to`: every one when few,
/// else about [`MAX_POINTS`] spaced geometrically (both ends kept).
pub fn counts(from: f64, to: f64) -> Vec<f64> {
    let (a, b) = (from.ceil().max(1.0), to.floor().max(1.0));
    if b < a {
        return Vec::new();
    }
    if b - a < MAX_POINTS as f64 {
        return (0..=(b - a) as usize).map(|k| a + k as f64).collect();
    }
    let mut out: Vec<f64> = geometric(a, b, MAX_POINTS)
        .into_iter()
        .map(f64::round)
        .collect();
    out.dedup();
    out
}

/// `T_p` at `(w, p)`, which must be a positive time.
fn time(parallel: &Formula, w: f64, p: f64) -> Result<f64, Error> {
    let t = parallel.at(w, p);
    if t.is_finite() && t > 0.0 {
        Ok(t)
    } else {
        let why = format!(
            "is not a positive time at W = {}, p = {} (got {}{})",
            human(w),
            human(p),
            human(t),
            parallel.with_constants()
        );
        Err(Error::field("parallel", FormulaProblem(why).into()))
    }
}

/// Speedup, efficiency, cost and overhead over `range` at work `w`.
///
/// # Errors
///
/// [`Error::Field`] for `parallel` when it is not a positive time at some `p`.
pub fn curves(
    parallel: &Formula,
    serial: f64,
    w: f64,
    range: Range,
) -> Result<Vec<CurvePoint>, Error> {
    counts(range.from, range.to)
        .into_iter()
        .map(|p| {
            let t = time(parallel, w, p)?;
            let point = CurvePoint {
                p,
                time: t,
                speedup: serial / t,
                efficiency: serial / (p * t),
                cost: p * t,
                overhead: p * t - serial,
            };
            let values = [point.speedup, point.efficiency, point.cost, point.overhead];
            if values.iter().all(|v| v.is_finite()) {
                Ok(point)
            } else {
                let why = format!(
                    "gives a speedup or a cost beyond the floating-point range at p = {}",
                    human(p)
                );
                Err(Error::field("parallel", FormulaProblem(why).into()))
            }
        })
        .collect()
}

/// The isoefficiency curve for efficiency `e` over `range` (from `p = 2`:
/// at `p = 1` there is no overhead).
pub fn isoefficiency(serial: &Formula, parallel: &Formula, e: f64, range: Range) -> Isoefficiency {
    let g = |x: f64, p: f64| {
        let w = x.exp();
        (serial.at(w, 1.0) / (e * p * parallel.at(w, p))).ln()
    };
    let mut points = Vec::new();
    let mut missing = Vec::new();
    // Real processor counts: W(p) is smooth, and a wide range keeps all
    // its points (whole counts would crowd at small p).
    let (a, b) = (range.from.max(2.0), range.to);
    let ps: Vec<f64> = if b < a {
        Vec::new()
    } else if b - a < MAX_POINTS as f64 {
        counts(a, b)
    } else {
        geometric(a, b, MAX_POINTS)
    };
    for p in ps {
        match root(|x| g(x, p)) {
            Some(x) => points.push(IsoPoint { p, work: x.exp() }),
            None => missing.push(format!(
                "p = {}: no W from 1e-12 to 1e60 gives efficiency {}",
                number(p),
                number(e)
            )),
        }
    }
    missing.truncate(20);
    let exponent = slope(&points);
    Isoefficiency {
        efficiency: e,
        order: order(&points).or_else(|| exponent.map(|s| format!("≈ p^{s:.2}"))),
        exponent,
        dominant: None,
        points,
        missing,
    }
}

/// The most processors whose isoefficiency work is at most `w`: where the
/// curve (interpolated in `log p`, `log W`) reaches `w`, or its last `p` if
/// it stays below; none if its first point is above `w`.
pub fn cost_optimal(points: &[IsoPoint], w: f64) -> Option<f64> {
    let first = points.first()?;
    if first.work > w {
        return None;
    }
    let crossing = points.windows(2).find(|pair| pair[1].work > w);
    Some(match crossing {
        Some([a, b]) => {
            let t = (w / a.work).ln() / (b.work / a.work).ln();
            a.p * (b.p / a.p).powf(t)
        }
        _ => points.last().map_or(first.p, |q| q.p),
    })
}

/// The first root of `g` on `ln 1e-12 … ln 1e60`, bracketed by decades.
fn root(g: impl Fn(f64) -> f64) -> Option<f64> {
    let step = 10f64.ln();
    let mut a = -12.0 * step;
    let mut ga = g(a);
    for k in -11..=60 {
        let b = k as f64 * step;
        let gb = g(b);
        if ga.is_finite() && gb.is_finite() && (ga <= 0.0) != (gb <= 0.0) {
            return Some(narrow(&g, (a, ga), (b, gb)));
        }
        (a, ga) = (b, gb);
    }
    None
}

/// Regula falsi (Illinois) in a sign-changing bracket, bisecting whenever
/// the bracket does not halve.
fn narrow(
    g: &impl Fn(f64) -> f64,
    (mut a, mut ga): (f64, f64),
    (mut b, mut gb): (f64, f64),
) -> f64 {
    let mut side = 0;
    for _ in 0..200 {
        if (b - a).abs() < 1e-12 {
            break;
        }
        let width = (b - a).abs();
        let mut x = (a * gb - b * ga) / (gb - ga);
        if !x.is_finite() || x <= a.min(b) || x >= a.max(b) {
            x = 0.5 * (a + b);
        }
        let gx = g(x);
        if !gx.is_finite() || gx == 0.0 {
            return x;
        }
        if (gx <= 0.0) == (ga <= 0.0) {
            (a, ga) = (x, gx);
            if side == -1 {
                gb *= 0.5;
            }
            side = -1;
        } else {
            (b, gb) = (x, gx);
            if side == 1 {
                ga *= 0.5;
            }
            side = 1;
        }
        if (b - a).abs() > 0.5 * width {
            let m = 0.5 * (a + b);
            let gm = g(m);
            if (gm <= 0.0) == (ga <= 0.0) {
                (a, ga) = (m, gm);
            } else {
                (b, gb) = (m, gm);
            }
        }
    }
    0.5 * (a + b)
}

/// `d log W/d log p` between the last two points.
fn slope(points: &[IsoPoint]) -> Option<f64> {
    let [.., u, v] = points else { return None };
    Some((v.work / u.work).ln() / (v.p / u.p).ln())
}

/// The reference function whose ratio to `W` varies least over the upper
/// half of the curve, if by under 5 %.
fn order(points: &[IsoPoint]) -> Option<String> {
    let lg = |p: f64| p.log2();
    let candidates: [(&str, &dyn Fn(f64) -> f64); 8] = [
        ("Θ(p)", &|p| p),
        ("Θ(p log p)", &|p| p * lg(p)),
        ("Θ(p^1.5)", &|p| p.powf(1.5)),
        ("Θ(p^1.5 log p)", &|p| p.powf(1.5) * lg(p)),
        ("Θ(p²)", &|p| p * p),
        ("Θ(p² log p)", &|p| p * p * lg(p)),
        ("Θ(p³)", &|p| p * p * p),
        ("Θ(p³ log p)", &|p| p * p * p * lg(p)),
    ];
    let (first, last) = (points.first()?, points.last()?);
    if last.p < 4.0 * first.p {
        return None;
    }
    let middle = (first.p * last.p).sqrt();
    let upper: Vec<&IsoPoint> = points.iter().filter(|q| q.p >= middle).collect();
    candidates
        .iter()
        .map(|(name, f)| {
            let logs = upper.iter().map(|q| (q.work / f(q.p)).ln());
            let (lo, hi) = logs.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| {
                (lo.min(x), hi.max(x))
            });
            (hi - lo, *name)
        })
        .filter(|(spread, _)| *spread < 0.05_f64.ln_1p())
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, name)| name.to_string())
}

/// The least `T_p(w, p)` over `range`: a geometric grid of 400 points,
/// then the sign change of `∂T_p/∂p` (or golden sections) next to the
/// best one.
///
/// # Errors
///
/// [`Error::Field`] for `parallel` when it is not a positive time at some `p`.
pub fn min_time(parallel: &Formula, w: f64, range: Range) -> Result<MinTime, Error> {
    let (a, b) = (range.from, range.to.max(range.from));
    let n = 400;
    let grid = geometric(a, b, n);
    let times = grid
        .iter()
        .map(|&p| time(parallel, w, p))
        .collect::<Result<Vec<f64>, Error>>()?;
    let k = (0..n)
        .min_by(|&i, &j| times[i].total_cmp(&times[j]))
        .unwrap_or(0);
    let interior = k > 0 && k + 1 < n;
    let p = if interior {
        refine(parallel, w, grid[k - 1], grid[k + 1])
    } else {
        grid[k]
    };
    let t = time(parallel, w, p)?;
    let (lo, hi) = (a.ceil(), b.floor());
    let wholes = [p.floor(), p.ceil()].map(|q| q.clamp(lo.min(hi), hi.max(lo)));
    let (p_whole, time_whole) = wholes
        .iter()
        .map(|&q| (q, parallel.at(w, q)))
        .filter(|(_, t)| t.is_finite())
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .unwrap_or((p, t));
    Ok(MinTime {
        p,
        time: t,
        p_whole,
        time_whole,
        interior,
    })
}

/// The minimum of `T_p` between `lo` and `hi` around a grid minimum: the
/// sign change of the central difference `∂T_p/∂p`, or golden sections if
/// it does not change sign.
fn refine(parallel: &Formula, w: f64, lo: f64, hi: f64) -> f64 {
    let slope = |p: f64| {
        let h = 1e-5 * p;
        (parallel.at(w, p + h) - parallel.at(w, p - h)) / (2.0 * h)
    };
    let (dl, dh) = (slope(lo), slope(hi));
    if dl.is_finite() && dh.is_finite() && dl < 0.0 && dh > 0.0 {
        return narrow(&slope, (lo, dl), (hi, dh));
    }
    let r = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (lo, hi);
    for _ in 0..100 {
        let (c, d) = (b - r * (b - a), a + r * (b - a));
        if parallel.at(w, c) < parallel.at(w, d) {
            b = d;
        } else {
            a = c;
        }
    }
    0.5 * (a + b)
}
