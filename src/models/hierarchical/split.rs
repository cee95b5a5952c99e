//! The optimal split for a fixed sending order: a certified closed form
//! when it applies, the linear program otherwise.
//!
//! **Closed form.** Guess the memory level `k_i` each machine computes at.
//! If every machine finishes exactly at `Cmax`, consecutive machines satisfy
//! `A_i,k1 + A_i,k2 α_i = S_{i+1} + A_{i+1},k1 + (C_{i+1} + A_{i+1},k2) α_{i+1}`,
//! so every `α_i` is an affine function of `α_1` and `Σ α_i = V` fixes it, in
//! `O(m)`. The guess is then replaced by the levels actually active at the
//! resulting loads until it no longer changes.
//!
//! **Certificate.** The split is optimal for the LP when it is feasible
//! (`α ≥ 0`, the guessed levels active, caps respected) and the LP dual has
//! a feasible point that satisfies complementary slackness: multipliers
//! `y_i ≥ 0` of the finishing rows, `Σ y_i = 1`, with
//! `C_j Σ_{i ≥ j} y_i + A_j,k2 y_j = z` for every `j` (stationarity in `α_j`;
//! `z` is the multiplier of `Σ α = V`). Solving backwards from
//! `y_m = z/(C_m + A_m,k2)` gives every `y_j`; all non-negative means proven
//! optimal. When any check fails (a machine should be left idle or finish
//! early, a cap binds, numbers overflow), the LP decides.
//!
//! **LP.** In scaled units (load as a fraction of `V`, time as a fraction of
//! the equal split's makespan), with the channel's running time as a
//! variable (`sent_i = sent_{i-1} + S_i + C_i α_i`) and the processing time
//! eliminated (`sent_i + A_ik1 + A_ik2 α_i ≤ Cmax` for every level `k`), so
//! no row has more than three entries.

use serde::{Deserialize, Serialize};

use super::schedule_of;
use crate::core::domain::error::Error;
use crate::core::domain::platform::Processor;
use crate::core::solving::lp::{Backend, Cmp, Problem};

/// How a split was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Equal finish, proven optimal by a dual certificate.
    CertifiedClosedForm,
    /// The linear program.
    LinearProgram,
}

/// An optimal split and how it was found.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    /// The load of each machine, indexed like the processors.
    pub sizes: Vec<f64>,
    /// How the split was found.
    pub method: Method,
}

/// The optimal load of each machine (indexed like `processors`) when they
/// are served in `order`, and how it was found.
///
/// # Errors
///
/// [`Error::Solver`] if the closed form does not apply and the LP fails.
pub fn optimal_split(processors: &[Processor], load: f64, order: &[usize]) -> Result<Split, Error> {
    if let Some(sizes) = certified_equal_finish(processors, load, order) {
        let method = Method::CertifiedClosedForm;
        return Ok(Split { sizes, method });
    }
    let sizes = linear_program(processors, load, order)?;
    let method = Method::LinearProgram;
    Ok(Split { sizes, method })
}

/// Level guesses tried before giving up on the closed form.
const MAX_ROUNDS: usize = 8;

/// The equal-finish split, if it is provably optimal.
fn certified_equal_finish(ps: &[Processor], load: f64, order: &[usize]) -> Option<Vec<f64>> {
    let m = order.len();
    let mut levels: Vec<usize> = order
        .iter()
        .map(|&i| ps[i].levels.level_at(load / m as f64))
        .collect();
    for _ in 0..MAX_ROUNDS {
        let sizes = equal_finish(ps, load, order, &levels)?;
        let active: Vec<usize> = order
            .iter()
            .zip(&sizes)
            .map(|(&i, &a)| ps[i].levels.level_at(a))
            .collect();
        if active != levels {
            levels = active;
            continue;
        }
        if !dual_feasible(ps, order, &levels) {
            return None;
        }
        let capped = order
            .iter()
            .zip(&sizes)
            .any(|(&i, &a)| ps[i].cap.is_some_and(|b| a > b));
        if capped {
            return None;
        }
        let mut by_machine = vec![0.0; ps.len()];
        for (&i, &a) in order.iter().zip(&sizes) {
            by_machine[i] = a;
        }
        return Some(by_machine);
    }
    None
}

/// Loads (in serving order) with which every machine finishes at the same
/// time at its given level; `None` if any comes out negative or non-finite.
fn equal_finish(
    ps: &[Processor],
    load: f64,
    order: &[usize],
    levels: &[usize],
) -> Option<Vec<f64>> {
    // α_k = a_k α_1 + b_k
    let mut coef = Vec::with_capacity(order.len());
    let (mut a, mut b) = (1.0_f64, 0.0_f64);
    coef.push((a, b));
    for k in 1..order.len() {
        let prev = ps[order[k - 1]].levels.levels()[levels[k - 1]];
        let p = &ps[order[k]];
        let line = p.levels.levels()[levels[k]];
        let denominator = p.rate + line.slope;
        a = a * prev.slope / denominator;
        b = (prev.intercept + prev.slope * b - p.startup - line.intercept) / denominator;
        coef.push((a, b));
    }
    let (sum_a, sum_b) = coef
        .iter()
        .fold((0.0, 0.0), |(sa, sb), (a, b)| (sa + a, sb + b));
    let alpha_1 = (load - sum_b) / sum_a;
    let sizes: Vec<f64> = coef.iter().map(|(a, b)| a * alpha_1 + b).collect();
    let tol = 1e-12 * load;
    if sizes.iter().all(|x| x.is_finite() && *x >= -tol) {
        Some(sizes.iter().map(|x| x.max(0.0)).collect())
    } else {
        None
    }
}

/// Do non-negative multipliers certify the equal-finish split?
fn dual_feasible(ps: &[Processor], order: &[usize], levels: &[usize]) -> bool {
    // With z = 1: y_j = (1 − C_j Y_{j+1}) / (C_j + A_j,k2), Y_j = y_j + Y_{j+1}.
    let mut tail = 0.0;
    for k in (0..order.len()).rev() {
        let p = &ps[order[k]];
        let slope = p.levels.levels()[levels[k]].slope;
        let y = (1.0 - p.rate * tail) / (p.rate + slope);
        if !y.is_finite() || y < 0.0 {
            return false;
        }
        tail += y;
    }
    tail > 0.0
}

/// The split by the M3 linear program alone (see the module docs), for
/// comparison with [`optimal_split`].
///
/// # Errors
///
/// [`Error::Solver`] if the LP fails.
pub fn linear_program(
    processors: &[Processor],
    load: f64,
    order: &[usize],
) -> Result<Vec<f64>, Error> {
    linear_program_with(processors, load, order, Backend::default())
}

/// [`linear_program`] with a chosen LP backend (for benchmarks and
/// differential tests).
///
/// # Errors
///
/// [`Error::Solver`] if the LP fails.
pub fn linear_program_with(
    processors: &[Processor],
    load: f64,
    order: &[usize],
    backend: Backend,
) -> Result<Vec<f64>, Error> {
    let m = processors.len();
    // Time unit: the makespan of an equal split, so the optimum is near 1.
    let unit = schedule_of(processors, order, &vec![load / m as f64; m])
        .makespan
        .max(f64::MIN_POSITIVE);
    let mut lp = Problem::new();
    let cmax = lp.add_var(1.0, 0.0, f64::INFINITY);
    let x: Vec<_> = processors
        .iter()
        .map(|p| lp.add_var(0.0, 0.0, p.cap.map_or(f64::INFINITY, |b| b / load)))
        .collect();
    let mut previous = None;
    for &i in order {
        let p = &processors[i];
        let sent = lp.add_var(0.0, 0.0, f64::INFINITY);
        let mut row = vec![(sent, 1.0), (x[i], -load * p.rate / unit)];
        if let Some(prev) = previous {
            row.push((prev, -1.0));
        }
        lp.add_constraint(&row, Cmp::Eq, p.startup / unit);
        for level in p.levels.levels() {
            lp.add_constraint(
                &[(sent, 1.0), (x[i], load * level.slope / unit), (cmax, -1.0)],
                Cmp::Le,
                -level.intercept / unit,
            );
        }
        previous = Some(sent);
    }
    let all: Vec<_> = x.iter().map(|&v| (v, 1.0)).collect();
    lp.add_constraint(&all, Cmp::Eq, 1.0);
    let solution = lp.solve_with(backend)?;
    let fractions: Vec<f64> = x.iter().map(|&v| solution[v].max(0.0)).collect();
    let sum: f64 = fractions.iter().sum();
    Ok(fractions.iter().map(|f| load * f / sum).collect())
}
