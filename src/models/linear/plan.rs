//! From the chosen machines to loads that the verifier accepts.
//!
//! The equal-finish loads follow from the makespan `T`, machine by machine
//! (`α = (r − S)/(A + C)`, `r ← (r − S)ρ`), which is well conditioned where
//! the affine form in the first machine's load is not (loads a billion
//! times apart cancel catastrophically). What rounding leaves of `V − Σα`
//! goes to the machine whose finish it moves least. Should the schedule
//! still fail the verifier, the loads come from an LP over the same
//! machines; should that fail too, the error says so.

use super::subset::Run;
use super::Machine;
use crate::core::domain::error::Error;
use crate::core::solving::lp::{Cmp, Problem};

/// The machines a schedule uses, in serving order.
#[derive(Debug, Clone, PartialEq)]
pub struct Chosen<'a> {
    /// The machines.
    pub machines: Vec<&'a Machine>,
    /// Their positions in the serving order.
    pub positions: Vec<usize>,
}

/// The first `used[i]` copies of each run.
pub fn chosen<'a>(runs: &[Run<'a>], used: &[usize]) -> Chosen<'a> {
    let mut out = Chosen {
        machines: Vec::new(),
        positions: Vec::new(),
    };
    let mut start = 0;
    for (run, &n) in runs.iter().zip(used) {
        out.machines.extend(std::iter::repeat_n(run.machine, n));
        out.positions.extend(start..start + n);
        start += run.count;
    }
    out
}

/// A set of machines (a suffix of the order, built from the back), as
/// affine functions of the time left at its first machine.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    /// The load it processes per unit of time left (`ℓ = g + s r`).
    pub(super) s: f64,
    /// The load at no time left (not positive: start-ups).
    pub(super) g: f64,
    /// The time left after its last machine, `e₁ r + e₀`.
    pub(super) end: (f64, f64),
    /// Its machines' busy time `Σ r_u = b₁ r + b₀`.
    pub(super) busy: (f64, f64),
}

impl Plan {
    /// No machine.
    pub const EMPTY: Plan = Plan {
        s: 0.0,
        g: 0.0,
        end: (1.0, 0.0),
        busy: (0.0, 0.0),
    };

    /// The set with `m` served before it.
    pub fn after(self, m: &Machine) -> Plan {
        let share = 1.0 / (m.compute + m.rate);
        let rho = m.compute * share;
        let s = share + rho * self.s;
        Plan {
            s,
            g: self.g - m.startup * s,
            end: (self.end.0 * rho, self.end.1 - self.end.0 * m.startup * rho),
            busy: (
                1.0 + self.busy.0 * rho,
                self.busy.1 - self.busy.0 * m.startup * rho,
            ),
        }
    }

    /// Its equal-finish makespan for `load` (every machine used, loads
    /// possibly negative).
    pub fn makespan(&self, load: f64) -> f64 {
        (load - self.g) / self.s
    }
}

/// The equal-finish makespan of `machines`, all used, for `load`.
pub fn makespan_of(machines: &[&Machine], load: f64) -> f64 {
    let plan = machines.iter().rev().fold(Plan::EMPTY, |p, m| p.after(m));
    plan.makespan(load)
}

/// The equal-finish makespan of `machines` (all used) for `load`, and
/// whether every load is positive.
pub fn equal_finish(machines: &[&Machine], load: f64) -> (f64, bool) {
    let makespan = makespan_of(machines, load);
    let positive = loads_at(machines, makespan).iter().all(|&a| a > 0.0);
    (makespan, positive)
}

/// The equal-finish loads when every machine finishes at `makespan`.
fn loads_at(machines: &[&Machine], makespan: f64) -> Vec<f64> {
    let mut left = makespan;
    machines
        .iter()
        .map(|m| {
            let alpha = (left - m.startup) / (m.compute + m.rate);
            left = (left - m.startup) * m.compute / (m.compute + m.rate);
            alpha
        })
        .collect()
}

/// The channel's busy time `Σ(S + Cα)` and the machines' `Σ(S + (C+A)α)`
/// when every machine finishes at `makespan` (for the energy, without the
/// loads: `(C + A)α = r − S` where `r` is the time left at the machine).
pub fn busy_times<'a>(machines: impl Iterator<Item = &'a Machine>, makespan: f64) -> (f64, f64) {
    let (mut left, mut sending, mut busy) = (makespan, 0.0, 0.0);
    for m in machines {
        let next = (left - m.startup) * m.compute / (m.compute + m.rate);
        sending += left - next;
        busy += left;
        left = next;
    }
    (sending, busy)
}

/// Equal-finish loads for `makespan` that add up to `load`: what rounding
/// leaves goes to the machine whose finish (and the later ones') it moves
/// least.
pub fn loads(machines: &[&Machine], load: f64, makespan: f64) -> Vec<f64> {
    let mut sizes: Vec<f64> = loads_at(machines, makespan)
        .into_iter()
        .map(|a| a.max(0.0))
        .collect();
    let n = machines.len();
    let moves = |k: usize| {
        let m = machines[k];
        m.compute + m.rate + m.rate * (n - k - 1) as f64
    };
    let steadiest = (0..n).min_by(|&i, &j| moves(i).total_cmp(&moves(j)));
    if let Some(k) = steadiest {
        let rest: f64 = sizes
            .iter()
            .enumerate()
            .filter(|&(i, _)| i != k)
            .map(|(_, a)| a)
            .sum();
        sizes[k] = (load - rest).max(0.0);
    }
    sizes
}

/// The loads from an LP over the same machines: minimise `T` subject to
/// every machine finishing by `T`, sends back to back.
///
/// # Errors
///
/// [`Error::Solver`] when the LP fails.
pub fn lp_loads(machines: &[&Machine], load: f64) -> Result<Vec<f64>, Error> {
    let mut lp = Problem::new();
    let makespan = lp.add_var(1.0, 0.0, f64::INFINITY);
    let alphas: Vec<_> = machines
        .iter()
        .map(|_| lp.add_var(0.0, 0.0, f64::INFINITY))
        .collect();
    let mut startups = 0.0;
    for (k, m) in machines.iter().enumerate() {
        startups += m.startup;
        // Σ_{v≤k} (S_v + C_v α_v) + A_k α_k ≤ T
        let mut terms: Vec<_> = machines[..=k]
            .iter()
            .zip(&alphas)
            .map(|(v, &a)| (a, v.rate))
            .collect();
        terms[k].1 += m.compute;
        terms.push((makespan, -1.0));
        lp.add_constraint(&terms, Cmp::Le, -startups);
    }
    let all: Vec<_> = alphas.iter().map(|&a| (a, 1.0)).collect();
    lp.add_constraint(&all, Cmp::Eq, load);
    let solution = lp.solve().map_err(Error::Solver)?;
    Ok(alphas
        .iter()
        .map(|a| solution.values()[a.index()].max(0.0))
        .collect())
}
