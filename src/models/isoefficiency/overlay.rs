//! The closed-form estimates of `[3]` drawn over a map.
//!
//! Below `Vmax`, the bounds (13):
//! `(S+O+CV+a'V)/(mS+nmO+mCV+a1V) ≤ E ≤ (S+O+CV+a'V)/(mS+mO+a1V)`, where
//! `a'V` is the single machine's true processing time `τ(V)` (so the
//! numerator is `T(1,1,V)`). Both grow with `V`, so each level has one load
//! where a bound equals it; the real line lies between the two.
//!
//! Above `Vmax`, the approximation (15) for `e > 1`:
//! `I(e,m,n) ≈ [b2(en−1) + S(em−1) + O(en−1)] / [(C+a2)(1−e)]`.

use serde::{Deserialize, Serialize};

use super::Request;

/// One of the estimates of `[3]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Estimate {
    /// The upper bound of (13): the least load that can reach a level.
    UpperBound,
    /// The lower bound of (13): a load that surely reaches it.
    LowerBound,
    /// The approximation (15), above `Vmax`.
    Approximation,
}

impl Estimate {
    /// Every estimate, in drawing order.
    pub const ALL: [Estimate; 3] = [
        Estimate::UpperBound,
        Estimate::LowerBound,
        Estimate::Approximation,
    ];

    /// Its name in a chart's legend.
    pub fn name(self) -> &'static str {
        match self {
            Estimate::UpperBound => "(13) upper",
            Estimate::LowerBound => "(13) lower",
            Estimate::Approximation => "(15)",
        }
    }
}

/// The overlay loads of one machine count, by level (`None`: no load in
/// the searched range).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Overlay {
    /// The efficiency levels, in the order of the lists below.
    pub levels: Vec<f64>,
    /// Where the upper bound of (13) reaches the level (the least load
    /// that can have it), below `Vmax`.
    pub upper_bound: Vec<Option<f64>>,
    /// Where the lower bound of (13) reaches it (a load that surely has it).
    pub lower_bound: Vec<Option<f64>>,
    /// The approximation (15) above `Vmax`.
    pub approximation: Vec<Option<f64>>,
}

/// The bounds (13) on the efficiency of `m` machines at load `v`, in
/// parts (a worked solution shows each).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    /// The numerator, one machine's time `T(1,1,V)`.
    pub single: f64,
    /// The upper bound's denominator `mS + mO + a1V`.
    pub upper_denominator: f64,
    /// The lower bound's denominator `mS + nmO + mCV + a1V`.
    pub lower_denominator: f64,
}

impl Bounds {
    /// The bounds of `m` machines of `request` at load `v`.
    pub fn of(request: &Request, machines: usize, v: f64) -> Bounds {
        let r = request;
        let (m, n) = (machines as f64, r.chunks.as_f64());
        Bounds {
            single: r.instance(machines, v).single(),
            upper_denominator: m * r.startup + m * r.overhead + r.a1 * v,
            lower_denominator: m * r.startup + n * m * r.overhead + m * r.rate * v + r.a1 * v,
        }
    }

    /// `E ≤ T(1,1,V)/(mS + mO + a1V)`.
    pub fn upper(&self) -> f64 {
        self.single / self.upper_denominator
    }

    /// `E ≥ T(1,1,V)/(mS + nmO + mCV + a1V)`.
    pub fn lower(&self) -> f64 {
        self.single / self.lower_denominator
    }
}

/// The approximation (15) of the load where `m` machines reach efficiency
/// `e` above `Vmax` (meaningful for `e > 1` only).
pub fn approximation(request: &Request, machines: usize, e: f64) -> f64 {
    let r = request;
    let (m, n) = (machines as f64, r.chunks.as_f64());
    (r.b2 * (e * n - 1.0) + r.startup * (e * m - 1.0) + r.overhead * (e * n - 1.0))
        / ((r.rate + r.a2) * (1.0 - e))
}

impl Overlay {
    /// The overlays of `m` machines, for loads up to `vmax`.
    pub fn of(request: &Request, machines: usize, vmax: f64, levels: &[f64]) -> Overlay {
        let upper = |v: f64| Bounds::of(request, machines, v).upper();
        let lower = |v: f64| Bounds::of(request, machines, v).lower();
        let low = request.load_min.min(vmax);
        Overlay {
            levels: levels.to_vec(),
            upper_bound: levels
                .iter()
                .map(|&e| rising(&upper, e, low, vmax))
                .collect(),
            lower_bound: levels
                .iter()
                .map(|&e| rising(&lower, e, low, vmax))
                .collect(),
            approximation: levels
                .iter()
                .map(|&e| {
                    let v = approximation(request, machines, e);
                    (e > 1.0 && v.is_finite() && v > vmax).then_some(v)
                })
                .collect(),
        }
    }

    /// The load of `estimate` at `level`.
    pub fn load(&self, estimate: Estimate, level: f64) -> Option<f64> {
        let i = self.levels.iter().position(|&e| e == level)?;
        let loads = match estimate {
            Estimate::UpperBound => &self.upper_bound,
            Estimate::LowerBound => &self.lower_bound,
            Estimate::Approximation => &self.approximation,
        };
        loads.get(i).copied().flatten()
    }
}

/// The load in `[low, high]` where the rising function `f` reaches `level`
/// (bisection on `log V`; the functions are cheap).
fn rising(f: &dyn Fn(f64) -> f64, level: f64, low: f64, high: f64) -> Option<f64> {
    if !(f(low) < level && f(high) >= level) {
        return None;
    }
    let (mut a, mut b) = (low.ln(), high.ln());
    for _ in 0..100 {
        let mid = 0.5 * (a + b);
        if f(mid.exp()) < level {
            a = mid;
        } else {
            b = mid;
        }
    }
    Some(b.exp())
}
