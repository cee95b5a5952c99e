//! One communication sequence: its linear program and its schedule.
//!
//! For a fixed sequence `s` (chunk `j` goes to machine `s_j`) the MIP of
//! `[3]` becomes a linear program in the send starts `t_j`, the sizes
//! `α_j` and the makespan `T`:
//!
//! ```text
//! minimize T  subject to
//!   t_1 ≥ S                                   (machines ready)
//!   t_j + O + C α_j ≤ t_{j+1}                 (one message at a time)
//!   t_j + O + C α_j + τ(α_j) ≤ t_l            (l: the next chunk of s_j's machine)
//!   t_j + O + C α_j + τ(α_j) ≤ T              (s_j's last chunk)
//!   Σ α_j = V,  α_j ≥ 0
//! ```
//!
//! `τ(α) = max(a1 α, a2 α + b2)` is convex, so each `τ(α_j) ≤ w` is the two
//! rows `a1 α_j ≤ w` and `a2 α_j + b2 ≤ w`. (With `τ_j` as variables and
//! every chunk's own row to `T` the LP has half again as many rows and takes
//! three times as long.) An earlier chunk of a machine is done by `T`
//! through its later ones.
//!
//! It is solved in scaled units (load as a fraction of `V`, time as a
//! fraction of `T(1,1,V)`). The schedule shown is rebuilt from the sizes
//! alone, every message as early as possible, with zero-size chunks left
//! out ("at most `n` chunks", unless exactly `n` are asked for): never
//! longer than the LP's `T`.

use crate::core::domain::error::Error;
use crate::core::domain::schedule::{Chunk, Interval, Schedule};
use crate::core::solving::lp::{Cmp, Problem, Var, Warm};

use super::Instance;

/// A sequence's optimal sizes and makespan.
#[derive(Debug, Clone, PartialEq)]
pub struct Solved {
    /// The machine of every chunk.
    pub sequence: Vec<usize>,
    /// The size of every chunk.
    pub sizes: Vec<f64>,
    /// The makespan of the rebuilt schedule.
    pub makespan: f64,
    /// The LP's optimum `T`. The rebuilt schedule is never longer, and may
    /// be shorter: an optimal point that leaves a chunk empty saves its
    /// overhead, so two optimal points can rebuild to different makespans.
    pub optimum: f64,
}

/// A sequence's LP as built: sizes `x`, and the load variable `λ` when
/// asked for.
struct SequenceLp {
    lp: Problem,
    /// The time unit, `T(1,1,V)`.
    unit: f64,
    x: Vec<Var>,
    share: Option<Var>,
}

/// One sequence's LP kept solved, for that sequence at many loads (a map's
/// probes). Loads are in units of a reference load `V₀` (the first one
/// asked for) and times in `T(1,1,V₀)`; the load enters only as the
/// variable `λ = V/V₀`, so a new load is one changed bound, re-optimised
/// from the previous basis ([`Warm`]). The optimal basis of a sequence
/// changes only where a chunk changes memory level or a constraint becomes
/// tight, so nearby loads take a handful of pivots.
#[derive(Debug, Clone)]
pub struct LoadLp {
    reference: f64,
    /// The time unit, `T(1,1,V₀)`.
    unit: f64,
    warm: Warm,
    x: Vec<Var>,
    share: Var,
}

impl LoadLp {
    /// How far below and above `V₀` a load may be before the LP is built
    /// anew. Below, the LP's numbers shrink towards the solver's absolute
    /// tolerances (at `V₀/18` an optimum was 1.5e-6 off); above, they only
    /// grow, and a sweep of loads mostly climbs.
    const REACH: (f64, f64) = (0.25, 16.0);

    /// The LP of `sequence` built and solved at `instance`'s load.
    ///
    /// # Errors
    ///
    /// [`Error::Solver`] if the LP fails.
    pub fn new(instance: &Instance, sequence: &[usize]) -> Result<LoadLp, Error> {
        let built = instance.sequence_lp(sequence, Some(()));
        // cannot fail: `sequence_lp` adds the share variable `λ` when
        // asked for one, as here.
        let share = built.share.expect("asked for");
        // Solved first with λ free (all sizes 0, a trivial LP), then at
        // λ = 1: the solver holds λ's own bounds, within which it is fixed.
        let mut warm = Warm::new(built.lp)?;
        warm.fix(share, 1.0)?;
        Ok(LoadLp {
            reference: instance.load,
            unit: built.unit,
            warm,
            x: built.x,
            share,
        })
    }

    /// Whether `load` is close enough to `V₀` to be solved from this LP.
    pub fn reaches(&self, load: f64) -> bool {
        let ratio = load / self.reference;
        (Self::REACH.0..=Self::REACH.1).contains(&ratio)
    }

    /// The sequence's optimum at `instance`'s load, as
    /// [`Instance::solve_sequence`] finds it; `instance` is the one this LP
    /// was built for with another load, which the LP must
    /// [reach](LoadLp::reaches).
    ///
    /// # Errors
    ///
    /// [`Error::Solver`] if the LP fails.
    pub fn solve(&mut self, instance: &Instance, sequence: &[usize]) -> Result<Solved, Error> {
        let share = instance.load / self.reference;
        let solution = if self.warm.solution()[self.share] == share {
            self.warm.solution()
        } else {
            self.warm.fix(self.share, share)?
        };
        let sizes: Vec<f64> = self.x.iter().map(|&xi| solution[xi]).collect();
        Ok(instance.solved(sequence, &sizes, solution.objective() * self.unit))
    }
}

impl Instance {
    /// The optimum for one sequence (machine of every chunk, in order).
    ///
    /// # Errors
    ///
    /// [`Error::Solver`] if the LP fails.
    pub fn solve_sequence(&self, sequence: &[usize]) -> Result<Solved, Error> {
        let built = self.sequence_lp(sequence, None);
        let solution = built.lp.solve()?;
        let fractions: Vec<f64> = built.x.iter().map(|&xi| solution[xi]).collect();
        Ok(self.solved(sequence, &fractions, solution.objective() * built.unit))
    }

    /// The sequence's solved schedule from its LP's sizes (in any unit):
    /// rescaled to add up to `V` exactly, then rebuilt.
    fn solved(&self, sequence: &[usize], sizes: &[f64], optimum: f64) -> Solved {
        let v = self.load;
        let fractions: Vec<f64> = sizes.iter().map(|x| x.max(0.0)).collect();
        let sum: f64 = fractions.iter().sum();
        let sizes: Vec<f64> = fractions.iter().map(|f| v * f / sum).collect();
        let makespan = self.schedule(sequence, &sizes).makespan;
        Solved {
            sequence: sequence.to_vec(),
            sizes,
            makespan,
            optimum,
        }
    }

    /// The sequence's LP (see the module docs), scaled to this instance's
    /// load. With `share`, the load row is `Σ α_j = λ` with a variable `λ`
    /// (fixed at 1 here): the same LP then serves other loads by fixing `λ`
    /// at `V/V₀` ([`LoadLp`]); without, it is `Σ α_j = 1`.
    fn sequence_lp(&self, sequence: &[usize], share: Option<()>) -> SequenceLp {
        let unit = self.single().max(f64::MIN_POSITIVE);
        let v = self.load;
        let mut lp = Problem::new();
        let big_t = lp.add_var(1.0, 0.0, f64::INFINITY);
        let k = sequence.len();
        let t: Vec<_> = (0..k)
            .map(|j| {
                let lower = if j == 0 { self.startup / unit } else { 0.0 };
                lp.add_var(0.0, lower, f64::INFINITY)
            })
            .collect();
        let most = if share.is_some() { f64::INFINITY } else { 1.0 };
        let x: Vec<_> = (0..k).map(|_| lp.add_var(0.0, 0.0, most)).collect();
        let (o, c) = (self.overhead / unit, self.rate * v / unit);
        let (a1, a2, b2) = (self.a1 * v / unit, self.a2 * v / unit, self.b2 / unit);
        for j in 0..k {
            if j + 1 < k {
                lp.add_constraint(&[(t[j], 1.0), (x[j], c), (t[j + 1], -1.0)], Cmp::Le, -o);
            }
            // Done before the machine's next chunk is sent, or else by T
            // (an earlier chunk is then done by T through the later ones).
            let next = (j + 1..k)
                .find(|&l| sequence[l] == sequence[j])
                .map_or(big_t, |l| t[l]);
            lp.add_constraint(&[(t[j], 1.0), (x[j], c + a1), (next, -1.0)], Cmp::Le, -o);
            lp.add_constraint(
                &[(t[j], 1.0), (x[j], c + a2), (next, -1.0)],
                Cmp::Le,
                -o - b2,
            );
        }
        let mut all: Vec<_> = x.iter().map(|&xi| (xi, 1.0)).collect();
        let share = share.map(|()| lp.add_var(0.0, 0.0, f64::INFINITY));
        let rhs = match share {
            Some(lambda) => {
                all.push((lambda, -1.0));
                0.0
            }
            None => 1.0,
        };
        lp.add_constraint(&all, Cmp::Eq, rhs);
        SequenceLp { lp, unit, x, share }
    }

    /// The schedule of a sequence with given sizes: every message as early
    /// as the channel and its machine allow; zero-size chunks are left out
    /// unless exactly `n` chunks are asked for.
    pub fn schedule(&self, sequence: &[usize], sizes: &[f64]) -> Schedule {
        let time = self.processing_time();
        let mut channel = self.startup;
        let mut free = vec![self.startup; self.machines_usize()];
        let mut chunks = Vec::with_capacity(sizes.len());
        for (&machine, &size) in sequence.iter().zip(sizes) {
            if size <= 0.0 && !self.exactly {
                continue;
            }
            let start = channel.max(free[machine]);
            let send = Interval {
                start,
                end: start + self.overhead + self.rate * size,
            };
            channel = send.end;
            let compute = Interval {
                start: send.end,
                end: send.end + time.eval(size),
            };
            free[machine] = compute.end;
            chunks.push(Chunk {
                machine,
                size,
                send,
                compute,
                level: time.level_at(size),
            });
        }
        Schedule::new(self.machines_usize(), chunks)
    }
}
