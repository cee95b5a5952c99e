//! One communication sequence (or a prefix of one) as a linear program.
//!
//! For a fixed sequence `s` (chunk `j` to machine `s_j`), in the send
//! starts `t_j`, the sizes `α_j`, the processing times `τ_j` and `T`:
//!
//! ```text
//!   t_j ≥ S_{s_j}                              (ready: woken at t_first − S)
//!   t_j + O + C α_j ≤ t_{j+1}                  (one message at a time)
//!   τ_j ≥ a1 α_j,  τ_j ≥ a2 α_j + b2           (τ is the max of the lines)
//!   t_j + O + C α_j + τ_j ≤ t_l  or  T         (l: s_j's next chunk)
//!   Σ α_j = V
//!   E = T (P0_idle + Σ_used P_idle + Σ_unused P_sleep)
//!     + Σ_used [(P_sleep − P_idle) t_first + (P_wake − P_sleep) S]
//!     + Σ_j [(P_net + P0_net)(O + C α_j) + P_comp τ_j]
//! ```
//!
//! `τ_j` may exceed the true `τ(α_j)` only where that costs nothing: the
//! schedule computes each chunk in its true time, which only ends it
//! earlier. Minimise `T` (with `E ≤ Ē`) or `E` (with `T ≤ T̄`); a tie on the
//! first criterion is broken by a second LP on the other.
//!
//! **The relaxation of a prefix** bounds every sequence that starts with
//! it and has at most `r` more chunks: machine `i` takes load `R_i` in `κ_i`
//! more chunks (`κ_i` real, `Σ κ_i ≤ r`, `R_i ≤ κ_i V`) that take at least
//! `σ_i ≥ max(a1 R_i, a2 R_i + b2 κ_i)` to compute (`τ` summed over chunks),
//! after its prefix work, after the prefix's last send, and after its
//! wake-up `S_i z_i` (`z_i ≥ κ_i/r`, `z_i ≤ 1`) for a machine new to it; the
//! channel carries `Σ O_i κ_i + C_i R_i` after the prefix. A machine new to
//! the prefix costs at least `P_sleep T + (P_wake − P_sleep) S z_i` plus
//! `P_idle − P_sleep` over its relaxed receiving and computing time (it is
//! on from its wake-up to `T`).
//! Every completion is a point of this LP, so its optimum is a bound.
//!
//! Solved in scaled units: loads as fractions of `V`, times of the least
//! time one machine takes for an equal share `V/m`, energies of that time
//! at the sum of all powers.

use crate::core::domain::error::Error;
use crate::core::solving::lp::{Cmp, LpError, Problem, Solution, Var};

use super::energy::EnergyParts;
use super::instance::{Instance, Originator, Worker};
use super::plan::Plan;

/// Which criterion an LP minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Goal {
    /// The makespan.
    Time,
    /// The energy.
    Energy,
}

/// The bounds a schedule must respect on the criterion it does not
/// minimise (and may on the one it does).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(crate) struct Limits {
    pub makespan: Option<f64>,
    pub energy: Option<f64>,
}

/// What the solvers need of an instance, in the units they use.
#[derive(Debug, Clone)]
pub(crate) struct Frame {
    pub workers: Vec<Worker>,
    pub originator: Originator,
    pub load: f64,
    /// The time unit of the LPs.
    unit: f64,
    /// The energy unit of the LPs.
    energy_unit: f64,
    /// When every search of the request stops (its `max_seconds`).
    pub deadline: web_time::Instant,
}

/// A solved sequence: the plan with its makespan and energy.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Solved {
    pub plan: Plan,
    pub makespan: f64,
    pub energy: f64,
}

impl Solved {
    /// The value of `goal`.
    pub fn value(&self, goal: Goal) -> f64 {
        match goal {
            Goal::Time => self.makespan,
            Goal::Energy => self.energy,
        }
    }
}

/// The LP of a sequence or prefix, with handles on its variables.
struct Program {
    lp: Problem,
    big_t: Var,
    t: Vec<Var>,
    x: Vec<Var>,
    /// The energy as `Σ coef·var + constant` (scaled).
    energy: Vec<(Var, f64)>,
    constant: f64,
    /// In a relaxation, each machine new to the prefix: "it is woken".
    woken: Vec<Option<Var>>,
    /// In a relaxation, each machine's further chunks and load.
    further: Vec<Option<(Var, Var)>>,
}

/// Which machines new to a prefix the completions of a search node use
/// (bit `i` for machine `i`): the search splits on them where the
/// relaxation wakes a machine only in part.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Uses {
    /// Machines every completion uses.
    pub forced: u64,
    /// Machines no completion uses.
    pub barred: u64,
    /// Each machine's box `(least, most)` of further chunks (none: any).
    pub counts: Vec<(f64, f64)>,
}

impl Uses {
    /// Machine `i`'s box of further chunks.
    pub fn count_box(&self, i: usize) -> (f64, f64) {
        self.counts.get(i).copied().unwrap_or((0.0, f64::INFINITY))
    }

    /// The least and most further chunks of machine `i`, its box with its
    /// use: forced takes at least one, barred none (the least may exceed
    /// the most: then no completion fits).
    pub fn chunks_of(&self, i: usize) -> (f64, f64) {
        let (lo, hi) = self.count_box(i);
        let least = if self.forces(i) { lo.max(1.0) } else { lo };
        let most = if self.bars(i) { 0.0 } else { hi };
        (least, most)
    }

    pub fn forces(&self, i: usize) -> bool {
        self.forced >> i & 1 == 1
    }

    pub fn bars(&self, i: usize) -> bool {
        self.barred >> i & 1 == 1
    }
}

/// A relaxation's optimum.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Relaxed {
    /// The bound, in the goal's units (infinite when no completion fits).
    pub bound: f64,
    /// Each machine's relaxed "it is woken" `z` (0 for the machines of the
    /// prefix, and when the LP failed).
    pub woken: Vec<f64>,
    /// Each machine's relaxed number of further chunks, and its further
    /// load in its in-core chunks (RAMs) (0 when the LP failed).
    pub counts: Vec<f64>,
    pub loads: Vec<f64>,
}

impl Frame {
    /// The frame of a checked instance.
    pub fn new(instance: &Instance) -> Frame {
        let workers = instance.workers();
        let v = instance.load;
        // About the makespan (one machine's time for an equal share), so
        // that the LPs' tolerances are small against it: the single
        // machine's time, far out of core, left some answers 1e-6 off.
        let share = v / workers.len().max(1) as f64;
        let unit = workers
            .iter()
            .map(|w| w.startup + w.send(share) + w.time(share))
            .fold(f64::INFINITY, f64::min)
            .max(f64::MIN_POSITIVE);
        let o = instance.originator;
        let power: f64 = o.idle_power
            + o.network_power
            + workers
                .iter()
                .map(|w| w.sleep + w.wake + w.idle + w.network + w.compute)
                .sum::<f64>();
        let seconds = instance
            .max_seconds
            .unwrap_or(super::instance::DEFAULT_SECONDS);
        Frame {
            workers,
            originator: o,
            load: v,
            unit,
            // With no power at all every energy is 0: any unit will do.
            energy_unit: if unit * power > 0.0 {
                unit * power
            } else {
                1.0
            },
            deadline: web_time::Instant::now() + web_time::Duration::from_secs_f64(seconds),
        }
    }

    /// The energy of a plan, by state.
    pub fn energy(&self, plan: &Plan, makespan: f64) -> EnergyParts {
        EnergyParts::of(&self.workers, &self.originator, plan, makespan)
    }

    /// A plan's makespan and energy, computed from its own times.
    pub fn evaluate(&self, plan: Plan) -> Solved {
        let makespan = plan.makespan(&self.workers);
        let energy = self.energy(&plan, makespan).total();
        Solved {
            plan,
            makespan,
            energy,
        }
    }

    /// The rows of a sequence (chunk `j` to machine `prefix[j]`); with
    /// `more = Some(r)`, those of its relaxation with up to `r` more chunks
    /// that use the machines as `uses` says.
    fn program(&self, prefix: &[usize], more: Option<usize>, uses: &Uses) -> Program {
        let (u, ws) = (self.unit, &self.workers);
        let k = prefix.len();
        let mut lp = Problem::new();
        let big_t = lp.add_var(0.0, 0.0, f64::INFINITY);
        let t: Vec<Var> = prefix
            .iter()
            .map(|&i| lp.add_var(0.0, ws[i].startup / u, f64::INFINITY))
            .collect();
        let x: Vec<Var> = (0..k).map(|_| lp.add_var(0.0, 0.0, 1.0)).collect();
        let tau: Vec<Var> = (0..k)
            .map(|_| lp.add_var(0.0, 0.0, f64::INFINITY))
            .collect();
        let mut p = Program {
            lp,
            big_t,
            t,
            x,
            energy: Vec::new(),
            constant: 0.0,
            woken: vec![None; ws.len()],
            further: vec![None; ws.len()],
        };
        let last = self.prefix_rows(&mut p, prefix, &tau);
        let mut total: Vec<(Var, f64)> = p.x.iter().map(|&xi| (xi, 1.0)).collect();
        if let Some(r) = more.filter(|&r| r > 0) {
            let last_chunk = |i: usize| last[i].map(|j| (p.t[j], p.x[j], tau[j]));
            let own: Vec<_> = (0..ws.len()).map(last_chunk).collect();
            self.relaxation_rows(&mut p, prefix, &own, r, uses, &mut total);
        }
        p.lp.add_constraint(&total, Cmp::Eq, 1.0);
        p
    }

    /// The prefix's rows: each chunk is sent after the one before, takes
    /// at least its machine's time `τ_j` (the larger of the two lines), and
    /// is done before its machine's next chunk (or `T`). Its energy: each
    /// chunk's sending and computing, each machine's wake-up when first
    /// used, and every machine's power over `T`, on if used, else asleep.
    /// Returns each machine's last chunk of the prefix.
    fn prefix_rows(&self, p: &mut Program, prefix: &[usize], tau: &[Var]) -> Vec<Option<usize>> {
        let (u, v, eu) = (self.unit, self.load, self.energy_unit);
        let ws = &self.workers;
        let o0 = &self.originator;
        let (t, x, big_t) = (&p.t, &p.x, p.big_t);
        let k = prefix.len();
        let mut used = vec![false; ws.len()];
        let mut last: Vec<Option<usize>> = vec![None; ws.len()];
        for j in 0..k {
            let w = &ws[prefix[j]];
            let (o, c) = (w.overhead / u, w.rate * v / u);
            let (a1, a2, b2) = (w.a1 * v / u, w.a2 * v / u, w.b2 / u);
            if j + 1 < k {
                p.lp.add_constraint(&[(t[j], 1.0), (x[j], c), (t[j + 1], -1.0)], Cmp::Le, -o);
            }
            p.lp.add_constraint(&[(x[j], a1), (tau[j], -1.0)], Cmp::Le, 0.0);
            p.lp.add_constraint(&[(x[j], a2), (tau[j], -1.0)], Cmp::Le, -b2);
            let next = (j + 1..k)
                .find(|&l| prefix[l] == prefix[j])
                .map_or(big_t, |l| t[l]);
            let row = [(t[j], 1.0), (x[j], c), (tau[j], 1.0), (next, -1.0)];
            p.lp.add_constraint(&row, Cmp::Le, -o);
            last[prefix[j]] = Some(j);
            let net = w.network + o0.network_power;
            p.energy.push((x[j], net * w.rate * v / eu));
            p.energy.push((tau[j], w.compute * u / eu));
            p.constant += net * w.overhead / eu;
            if !used[prefix[j]] {
                used[prefix[j]] = true;
                p.energy.push((t[j], (w.sleep - w.idle) * u / eu));
                p.constant += (w.wake - w.sleep) * w.startup / eu;
            }
        }
        let on: f64 = o0.idle_power
            + ws.iter()
                .zip(&used)
                .map(|(w, &u)| if u { w.idle } else { w.sleep })
                .sum::<f64>();
        p.energy.push((big_t, on * u / eu));
        last
    }

    /// The relaxation's rows for up to `r` more chunks (see the module
    /// docs): every machine's further chunks, after the prefix's last send
    /// and after its own last chunk of the prefix (`own[i]`: its send
    /// start, size and time) or its wake-up; all of them within `r` chunks
    /// and carried by the channel by `T`. Their loads join `total`.
    fn relaxation_rows(
        &self,
        p: &mut Program,
        prefix: &[usize],
        own: &[Option<(Var, Var, Var)>],
        r: usize,
        uses: &Uses,
        total: &mut Vec<(Var, f64)>,
    ) {
        let (u, v, eu) = (self.unit, self.load, self.energy_unit);
        let ws = &self.workers;
        let k = prefix.len();
        let channel: Vec<(Var, f64)> = match k {
            0 => Vec::new(),
            _ => {
                let w = &ws[prefix[k - 1]];
                vec![(p.t[k - 1], 1.0), (p.x[k - 1], w.rate * v / u)]
            }
        };
        let channel_o = if k > 0 {
            ws[prefix[k - 1]].overhead / u
        } else {
            0.0
        };
        let mut carried = channel.clone();
        let mut counts = Vec::with_capacity(ws.len());
        for (i, w) in ws.iter().enumerate() {
            let (o, c) = (w.overhead / u, w.rate * v / u);
            let (count, share, busy) = self.further_chunks(p, i, r, uses);
            total.push((share, 1.0));
            counts.push((count, 1.0));
            let work = [(count, o), (share, c), (busy, 1.0), (p.big_t, -1.0)];
            let mut after_channel = channel.clone();
            after_channel.extend(work);
            p.lp.add_constraint(&after_channel, Cmp::Le, -channel_o);
            match own[i] {
                Some((t, x, tau)) => {
                    let mut after_own = vec![(t, 1.0), (x, c), (tau, 1.0)];
                    after_own.extend(work);
                    p.lp.add_constraint(&after_own, Cmp::Le, -o);
                }
                None => self.wake_rows(p, i, r, uses, work),
            }
            carried.extend([(count, o), (share, c)]);
            let net = w.network + self.originator.network_power;
            p.energy.extend([
                (count, net * w.overhead / eu),
                (share, net * w.rate * v / eu),
                (busy, w.compute * u / eu),
            ]);
        }
        p.lp.add_constraint(&counts, Cmp::Le, r as f64);
        carried.push((p.big_t, -1.0));
        p.lp.add_constraint(&carried, Cmp::Le, -channel_o);
    }

    /// Machine `i`'s further chunks in a relaxation with up to `r` more:
    /// their number `κ`, their load `R` (at most `κ` whole loads) and their
    /// computing time `σ`, at least either line's time for `R` in `κ`
    /// chunks.
    fn further_chunks(&self, p: &mut Program, i: usize, r: usize, uses: &Uses) -> (Var, Var, Var) {
        let (u, v) = (self.unit, self.load);
        let w = &self.workers[i];
        // A barred machine takes nothing more; a forced one at least a
        // chunk (and as many as its box says).
        let (least, most) = uses.chunks_of(i);
        let share = p.lp.add_var(0.0, 0.0, if most < 1.0 { 0.0 } else { 1.0 });
        let count = p.lp.add_var(0.0, least, most.min(r as f64));
        p.further[i] = Some((count, share));
        let busy = p.lp.add_var(0.0, 0.0, f64::INFINITY);
        p.lp.add_constraint(&[(share, 1.0), (count, -1.0)], Cmp::Le, 0.0);
        p.lp.add_constraint(&[(share, w.a1 * v / u), (busy, -1.0)], Cmp::Le, 0.0);
        let out = [(share, w.a2 * v / u), (count, w.b2 / u), (busy, -1.0)];
        p.lp.add_constraint(&out, Cmp::Le, 0.0);
        (count, share, busy)
    }

    /// A machine new to the prefix is woken (`z`, at least `κ/r`) before
    /// its further chunks `work` start, and pays for it: the wake-up once,
    /// and idle power above sleep while it receives and computes.
    fn wake_rows(&self, p: &mut Program, i: usize, r: usize, uses: &Uses, work: [(Var, f64); 4]) {
        let (u, v, eu) = (self.unit, self.load, self.energy_unit);
        let w = &self.workers[i];
        let [(count, _), (share, _), (busy, _), _] = work;
        // Used for sure (forced, or boxed to a chunk).
        let least = if uses.chunks_of(i).0 >= 1.0 { 1.0 } else { 0.0 };
        let woken = p.lp.add_var(0.0, least, 1.0);
        p.woken[i] = Some(woken);
        let need = [(woken, r as f64), (count, -1.0)];
        p.lp.add_constraint(&need, Cmp::Ge, 0.0);
        // A wake-up far beyond any schedule would only upset the LP's
        // numbers; a smaller coefficient gives a weaker bound, still a bound.
        let mut after_wake = vec![(woken, (w.startup / u).min(1e6))];
        after_wake.extend(work);
        p.lp.add_constraint(&after_wake, Cmp::Le, 0.0);
        // Waking costs `(P_wake − P_sleep) S` once (at least `z` of it), and
        // from then on the machine draws at least idle power while it
        // receives and computes: `P_idle − P_sleep` more than asleep.
        let on = w.idle - w.sleep;
        p.energy.extend([
            (woken, (w.wake - w.sleep) * w.startup / eu),
            (count, on * w.overhead / eu),
            (share, on * w.rate * v / eu),
            (busy, on * u / eu),
        ]);
    }

    /// Adds the limits to a program and sets its objective to `goal`.
    fn aim(&self, p: &mut Program, goal: Goal, limits: Limits) {
        if let Some(tmax) = limits.makespan {
            p.lp.add_constraint(&[(p.big_t, 1.0)], Cmp::Le, tmax / self.unit);
        }
        if let Some(emax) = limits.energy {
            let rhs = emax / self.energy_unit - p.constant;
            p.lp.add_constraint(&p.energy, Cmp::Le, rhs);
        }
        match goal {
            Goal::Time => p.lp.set_cost(p.big_t, 1.0),
            Goal::Energy => {
                for &(var, coef) in &p.energy {
                    let cost = p.lp.cost(var) + coef;
                    p.lp.set_cost(var, cost);
                }
            }
        }
    }

    /// The least value of `goal` over every sequence that starts with
    /// `prefix`, has at most `more` chunks after it and uses the machines
    /// new to it as `uses` says, within `limits` (infinity when there is
    /// none), in the goal's own units; with each machine's relaxed "woken".
    ///
    /// # Errors
    ///
    /// [`Error::Solver`] if the LP fails other than by infeasibility.
    pub fn relax(
        &self,
        prefix: &[usize],
        more: usize,
        uses: &Uses,
        goal: Goal,
        limits: Limits,
    ) -> Result<Relaxed, Error> {
        let m = self.workers.len();
        let none = |bound| Relaxed {
            bound,
            woken: vec![0.0; m],
            counts: vec![0.0; m],
            loads: vec![0.0; m],
        };
        // Forced machines and boxes need more chunks than there are, or a
        // box is empty: no completion.
        let least: f64 = (0..m).map(|i| uses.chunks_of(i).0).sum();
        let empty = (0..m).any(|i| uses.chunks_of(i).0 > uses.chunks_of(i).1);
        if least > more as f64 || empty {
            return Ok(none(f64::INFINITY));
        }
        let mut p = self.program(prefix, Some(more), uses);
        self.aim(&mut p, goal, limits);
        match p.lp.solve() {
            Ok(s) => Ok(Relaxed {
                bound: match goal {
                    Goal::Time => s.objective() * self.unit,
                    Goal::Energy => (s.objective() + p.constant) * self.energy_unit,
                },
                woken: p.woken.iter().map(|z| z.map_or(0.0, |z| s[z])).collect(),
                counts: p
                    .further
                    .iter()
                    .map(|f| f.map_or(0.0, |f| s[f.0]))
                    .collect(),
                loads: (p.further.iter().zip(&self.workers))
                    .map(|(f, w)| f.map_or(0.0, |f| s[f.1] * self.load / w.ram()))
                    .collect(),
            }),
            Err(LpError::Infeasible) => Ok(none(f64::INFINITY)),
            Err(e) => Err(Error::Solver(e)),
        }
    }

    /// The best schedule of one sequence for `goal` within `limits`, the
    /// other criterion least among those that tie (`None` when no
    /// schedule of the sequence meets the limits). With `polish` off, the
    /// tie is not broken (one LP instead of two).
    ///
    /// # Errors
    ///
    /// [`Error::Solver`] if an LP fails other than by infeasibility.
    pub fn solve(
        &self,
        sequence: &[usize],
        goal: Goal,
        limits: Limits,
        polish: bool,
    ) -> Result<Option<Solved>, Error> {
        let mut p = self.program(sequence, None, &Uses::default());
        self.aim(&mut p, goal, limits);
        let first = match p.lp.solve() {
            Ok(s) => s,
            Err(LpError::Infeasible) => return Ok(None),
            Err(e) => return Err(Error::Solver(e)),
        };
        let unpolished = self.schedule(sequence, &p, &first);
        if !polish {
            return Ok(Some(unpolished));
        }
        let best = first.objective();
        let mut q = self.program(sequence, None, &Uses::default());
        let slack = 1e-9 * best.abs().max(1e-300);
        let tie = match goal {
            Goal::Time => Limits {
                makespan: Some((best + slack) * self.unit),
                ..limits
            },
            Goal::Energy => Limits {
                energy: Some((best + p.constant + slack) * self.energy_unit),
                ..limits
            },
        };
        let other = match goal {
            Goal::Time => Goal::Energy,
            Goal::Energy => Goal::Time,
        };
        self.aim(&mut q, other, tie);
        // A failing tie-break keeps the first answer: it is optimal; so
        // does one that lost more than the slack on the first criterion
        // (the LPs' tolerance, against the plan's own times).
        let polished = q.lp.solve().ok().map(|s| self.schedule(sequence, &q, &s));
        let value = unpolished.value(goal);
        Ok(Some(
            polished
                .filter(|s| s.value(goal) <= value + 1e-9 * value.abs())
                .unwrap_or(unpolished),
        ))
    }

    /// The schedule of an LP's solution, settled and evaluated on its own
    /// times.
    fn schedule(&self, sequence: &[usize], p: &Program, solution: &Solution) -> Solved {
        let fractions: Vec<f64> = p.x.iter().map(|&x| solution[x].max(0.0)).collect();
        let sum: f64 = fractions.iter().sum::<f64>().max(f64::MIN_POSITIVE);
        let plan = Plan {
            sequence: sequence.to_vec(),
            sizes: fractions.iter().map(|f| self.load * f / sum).collect(),
            starts: p.t.iter().map(|&t| solution[t] * self.unit).collect(),
        };
        self.evaluate(plan.without_empty().settled(&self.workers))
    }
}
