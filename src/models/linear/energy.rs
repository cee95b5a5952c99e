//! The set of machines with the least energy (`[1]`: energy has a minimum
//! in the number of machines), optionally finishing by a deadline.
//!
//! Energy is not monotone in the makespan, so the hulls of
//! [`super::subset`] do not apply: every set is tried. Along a set, with
//! `r` the time left at its first machine, the load `g + s r`, the time
//! left after its last machine `e₁ r + e₀` and the machines' busy time
//! `Σ r_u = b₁ r + b₀` are all affine in `r`, and serving one more machine
//! in front maps each affinely, so a depth-first walk from the back costs a
//! few operations per set. A set is feasible when its last machine's load
//! is not negative (the time left after it is `≥ 0`; every earlier load is
//! then positive too). Its energy at `T = (V − g)/s` is
//! `E = T((m+1)P_C + P_N)/k + P_N(k−1)/k · σ + P_C(k−1)/k · (σ + Σ r_u)`,
//! `σ = T − (e₁T + e₀)` the channel's busy time.

use super::plan::Plan;
use super::subset::Run;
use super::Power;

/// The most sets the search tries (the `[1]` preset's 10⁶ copies fit).
pub const MAX_SETS: u64 = 1 << 20;

impl Plan {
    /// Its makespan for `load`, and its energy when every load is
    /// non-negative.
    pub fn energy(&self, load: f64, power: &Power, system: usize) -> Option<(f64, f64)> {
        if self.s <= 0.0 {
            return None;
        }
        let t = self.makespan(load);
        let left = self.end.0 * t + self.end.1;
        if !(left >= 0.0 && t.is_finite()) {
            return None;
        }
        let k = power.idle_factor;
        let sending = t - left;
        let busy = self.busy.0 * t + self.busy.1;
        let idle = t * ((system as f64 + 1.0) * power.processor + power.network) / k;
        let active = (k - 1.0) / k * (power.network * sending + power.processor * (sending + busy));
        Some((t, idle + active))
    }
}

/// How many sets of copies of `runs` there are (saturating).
pub fn sets(runs: &[Run]) -> u64 {
    runs.iter()
        .fold(1u64, |n, r| n.saturating_mul(r.count as u64 + 1))
        .saturating_sub(1)
}

/// The least energy.
#[derive(Debug, Clone, PartialEq)]
pub struct Least {
    /// Copies used of each run.
    pub used: Vec<usize>,
    /// Its makespan.
    pub makespan: f64,
    /// Its energy.
    pub energy: f64,
}

/// The set of copies of `runs` with the least energy among those that
/// finish by `deadline`; `None` when none does.
pub fn least(
    runs: &[Run],
    load: f64,
    power: &Power,
    system: usize,
    deadline: Option<f64>,
) -> Option<Least> {
    let mut walk = Walk {
        runs,
        load,
        power,
        system,
        deadline: deadline.unwrap_or(f64::INFINITY),
        used: vec![0; runs.len()],
        best: None,
    };
    walk.from(runs.len(), Plan::EMPTY);
    walk.best
}

/// The depth-first walk over the copies of each run, from the back.
struct Walk<'w, 'a> {
    runs: &'w [Run<'a>],
    load: f64,
    power: &'w Power,
    system: usize,
    deadline: f64,
    used: Vec<usize>,
    best: Option<Least>,
}

impl Walk<'_, '_> {
    /// Every choice for the runs before `end`, given the plan after them.
    fn from(&mut self, end: usize, plan: Plan) {
        let Some(i) = end.checked_sub(1) else {
            self.consider(plan);
            return;
        };
        let run = self.runs[i];
        let mut plan = plan;
        for copies in 0..=run.count {
            if copies > 0 {
                plan = plan.after(run.machine);
            }
            self.used[i] = copies;
            self.from(i, plan);
        }
        self.used[i] = 0;
    }

    fn consider(&mut self, plan: Plan) {
        let Some((t, e)) = plan.energy(self.load, self.power, self.system) else {
            return;
        };
        let better = self.best.as_ref().is_none_or(|b| e < b.energy);
        if t <= self.deadline && better {
            self.best = Some(Least {
                used: self.used.clone(),
                makespan: t,
                energy: e,
            });
        }
    }
}
