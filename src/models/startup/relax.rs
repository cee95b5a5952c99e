//! The bound LP of a search node: a relaxation of every way to complete a
//! sequence prefix ([`Instance::relax`] says what it models and why), and
//! the bounds of the sequences the search's root leaves out.
//!
//! Kept apart from the search ([`super::search`]) because it is the part
//! that holds the model's mathematics: the search only asks it for a bound,
//! the relaxed counts and loads it splits on, and the solved LP it re-uses
//! for the two sides of a split.
//!
//! **What it cannot state**: that at no moment more than `m` chunks are in
//! flight (sent and not yet computed). That is a disjunction ("one of the
//! `m` chunks before this one has been computed"), and every convex
//! consequence of it we tried is already met by the LP's optimum where the
//! rule is broken. On the reference instance with `n = 40` this is the
//! whole gap left at `m = 6..9`: forcing the round robin's machine chains
//! on the last 18 positions closes the root of `m = 9` (0.039 % open
//! without), and branching on the disjunction gains at most a fifth of the
//! gap per level (`docs/startup.md` has the figures).

use crate::core::domain::error::Error;
use crate::core::solving::lp::{Cmp, LpError, Problem, Var, Warm};

use super::{Instance, Solved};

/// How many chunks a node's completions have in all: at most `most`, or
/// exactly `most`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chunks {
    pub most: usize,
    pub exactly: bool,
}

impl Chunks {
    /// The instance's own: at most `n`, or exactly `n` on request.
    pub(crate) fn of(instance: &Instance) -> Chunks {
        Chunks {
            most: instance.chunks.get(),
            exactly: instance.exactly,
        }
    }
}

/// A node's bound LP kept solved ([`Warm`]), with what reading it needs.
#[derive(Clone)]
pub(crate) struct Kept {
    warm: Warm,
    counts: Vec<Var>,
    r: Vec<Var>,
    unit: f64,
    per_chunk: f64,
    /// The cutoff the LP was built for.
    pub(super) cutoff: f64,
}

impl Kept {
    /// The relaxation with machine `i`'s count also in `part` (one row per
    /// side of the box that moved).
    pub(super) fn boxed(
        mut self,
        i: usize,
        part: (f64, f64),
        cutoff: f64,
    ) -> Result<Relaxation, Error> {
        let ki = self.counts[i];
        let mut answer = Ok(());
        let (lo, hi) = self.warm.problem().bounds(ki);
        if part.0 > lo {
            answer = self
                .warm
                .add_constraint(&[(ki, 1.0)], Cmp::Ge, part.0)
                .map(drop);
        }
        if answer.is_ok() && part.1 < hi {
            answer = self
                .warm
                .add_constraint(&[(ki, 1.0)], Cmp::Le, part.1)
                .map(drop);
        }
        match answer {
            Ok(()) => Ok(self.relaxation()),
            Err(LpError::Infeasible) => Ok(Relaxation::pruned(cutoff)),
            Err(e) => Err(e.into()),
        }
    }

    /// The kept LP's optimum in the instance's units.
    fn relaxation(self) -> Relaxation {
        let solution = self.warm.solution();
        Relaxation {
            bound: solution.objective() * self.unit,
            counts: self.counts.iter().map(|&ki| solution[ki]).collect(),
            loads: self
                .r
                .iter()
                .map(|&ri| solution[ri] / self.per_chunk)
                .collect(),
            kept: Some(self),
        }
    }
}

/// The sequences with fewer than `min(m, n)` chunks
/// ([`Instance::short_sequences`]).
pub(crate) struct Short {
    /// The best one solved.
    pub best: Option<Solved>,
    /// A lower bound on all of them.
    pub bound: f64,
    pub lps: u64,
}

/// The bound LP's optimum ([`Instance::relax`]).
pub(crate) struct Relaxation {
    pub bound: f64,
    /// Each machine's relaxed number of chunks after the prefix (empty when
    /// the node is pruned).
    pub counts: Vec<f64>,
    /// Each machine's load after the prefix, in units of the most load a
    /// chunk holds in core.
    pub loads: Vec<f64>,
    /// The LP, solved, for splits of the node's box.
    pub kept: Option<Kept>,
}

impl Relaxation {
    /// The answer for a node whose completions cannot beat `cutoff`: the
    /// bound is the cutoff itself, so the search drops the node.
    fn pruned(cutoff: f64) -> Relaxation {
        Relaxation {
            bound: cutoff,
            counts: Vec::new(),
            loads: Vec::new(),
            kept: None,
        }
    }
}

/// The instance's numbers as the bound LP sees them: times in units of
/// `T(1,1,V)` and loads as fractions of `V`, so that the LP is well scaled
/// whatever the instance's units.
struct Scaled {
    /// The time unit, `T(1,1,V)` (seconds, or whatever the instance uses).
    unit: f64,
    /// `O`, `C V`, `a1 V`, `a2 V`, `b2` and `S`, in that unit.
    o: f64,
    c: f64,
    a1: f64,
    a2: f64,
    b2: f64,
    s: f64,
    /// The largest chunk a completion within the cutoff holds, at most `V`
    /// (a fraction of `V`).
    cap: f64,
    /// The most load a chunk holds in core (a fraction of `V`).
    per_chunk: f64,
}

impl Scaled {
    /// Whether every chunk the cap allows runs in core: the out-of-core
    /// line `a2 α + b2` is then nowhere above `a1 α` on `[0, cap]`, so its
    /// rows follow from the in-core ones and are left out (a smaller LP).
    fn in_core(&self) -> bool {
        self.b2 <= 0.0 && (self.a2 - self.a1) * self.cap + self.b2 <= 0.0
    }

    /// The scaled numbers, or `None` when no chunk fits before `cutoff`
    /// (the node is pruned).
    fn of(instance: &Instance, cutoff: f64) -> Option<Scaled> {
        let unit = instance.single().max(f64::MIN_POSITIVE);
        let v = instance.load;
        let largest = instance.largest_chunk(cutoff) / v;
        if !(largest.is_finite() && largest >= 0.0) {
            return None;
        }
        let cap = largest.min(1.0);
        Some(Scaled {
            unit,
            o: instance.overhead / unit,
            c: instance.rate * v / unit,
            a1: instance.a1 * v / unit,
            a2: instance.a2 * v / unit,
            b2: instance.b2 / unit,
            s: instance.startup / unit,
            cap,
            per_chunk: cap.min(instance.ram() / v).max(f64::MIN_POSITIVE),
        })
    }
}

/// The bound LP of [`Instance::relax`] while it is built: one type for the
/// variables the groups of rows share, so that each group is a step of its
/// own (see [`Instance::relax`] for the model).
struct BoundLp {
    lp: Problem,
    scaled: Scaled,
    /// The prefix's length: messages `0..k` are the prefix's, the rest
    /// are positions.
    k: usize,
    /// The makespan `T`.
    big_t: Var,
    /// Every message: start `t`, size `x`, "holds a chunk" `y` (no variable,
    /// the constant 1, where it is held).
    msg: Vec<(Var, Var, Option<Var>)>,
    /// `f_i`: when machine `i` has finished its prefix work (`S` if none).
    f: Vec<Var>,
    /// When the channel has sent the prefix.
    end: Var,
    /// `R_i`: machine `i`'s load after the prefix.
    r: Vec<Var>,
    /// `k_i`: machine `i`'s relaxed number of chunks after the prefix.
    counts: Vec<Var>,
    /// `σ_i`: when machine `i` starts receiving its remaining chunks (`T`
    /// if none); it is busy from then on.
    sigma: Vec<Var>,
}

impl BoundLp {
    /// The LP's variables, with `T` as the objective, always in this order
    /// (the solver's pivots, and so the bound's last digits, may depend on
    /// it).
    fn new(
        instance: &Instance,
        k: usize,
        chunks: Chunks,
        range: &[(f64, f64)],
        scaled: Scaled,
    ) -> BoundLp {
        let m = instance.machines_usize();
        let s = scaled.s;
        // An optimal schedule of the subtree holds a chunk in every prefix
        // message: without an empty one it is a sequence of another subtree
        // or one with fewer than min(m, n) chunks, which are solved apart
        // ([`Instance::short_sequences`]). On an "exactly" side every
        // position holds one too: fewer chunks are the other side's.
        let held = |j: usize| chunks.exactly || j < k;
        let mut lp = Problem::new();
        let big_t = lp.add_var(1.0, 0.0, f64::INFINITY);
        let msg = (0..chunks.most)
            .map(|j| {
                let t = lp.add_var(0.0, s, f64::INFINITY);
                let x = lp.add_var(0.0, 0.0, scaled.cap);
                let y = (!held(j)).then(|| lp.add_var(0.0, 0.0, 1.0));
                (t, x, y)
            })
            .collect();
        let f = (0..m).map(|_| lp.add_var(0.0, s, f64::INFINITY)).collect();
        let end = lp.add_var(0.0, s, f64::INFINITY);
        let r = (0..m).map(|_| lp.add_var(0.0, 0.0, 1.0)).collect();
        let counts = range
            .iter()
            .map(|&(lo, hi)| lp.add_var(0.0, lo, hi))
            .collect();
        let sigma = (0..m).map(|_| lp.add_var(0.0, s, f64::INFINITY)).collect();
        BoundLp {
            lp,
            scaled,
            k,
            big_t,
            msg,
            f,
            end,
            r,
            counts,
            sigma,
        }
    }

    /// Each message is sent after the one before and computed in time: a
    /// prefix message before its machine's next chunk is sent, a position
    /// by `T`. The positions follow the prefix on the channel.
    fn add_message_rows(&mut self, prefix: &[usize]) {
        let Scaled {
            o,
            c,
            a1,
            a2,
            b2,
            cap,
            ..
        } = self.scaled;
        let (k, messages) = (self.k, self.msg.len());
        let in_core = self.scaled.in_core();
        for (j, &(t, x, y)) in self.msg.iter().enumerate() {
            // The channel: one message after the other; the prefix has been
            // sent at `end`, and the positions follow.
            let next = match j + 1 {
                l if l == k => Some(self.end),
                l if l < messages => Some(self.msg[l].0),
                _ => None,
            };
            if let Some(next) = next {
                at_most_zero(&mut self.lp, &[(t, 1.0), (x, c), (next, -1.0)], (y, o));
            }
            // Computed before its machine's next chunk is sent (a prefix
            // message) or by T (a position): `t + O y + C x + τ ≤ w` with
            // `τ ≥ a1 x` and `τ ≥ a2 x + b2 y`, one row each (the second
            // left out where every chunk runs in core).
            let before = if j < k {
                let machine = prefix[j];
                match (j + 1..k).find(|&l| prefix[l] == machine) {
                    Some(l) => self.msg[l].0,
                    None => self.f[machine],
                }
            } else {
                self.big_t
            };
            let lp = &mut self.lp;
            at_most_zero(lp, &[(t, 1.0), (x, c + a1), (before, -1.0)], (y, o));
            if !in_core {
                at_most_zero(lp, &[(t, 1.0), (x, c + a2), (before, -1.0)], (y, o + b2));
            }
            if let Some(y) = y {
                lp.add_constraint(&[(x, 1.0), (y, -cap)], Cmp::Le, 0.0);
            }
        }
        if let Some(first) = self.msg.get(k) {
            let row = [(self.end, 1.0), (first.0, -1.0)];
            self.lp.add_constraint(&row, Cmp::Le, 0.0);
        }
    }

    /// Each machine receives its remaining load after its prefix work and
    /// after the prefix has been sent, and is busy with it until `T`.
    fn add_machine_rows(&mut self) {
        let Scaled {
            o,
            c,
            a1,
            a2,
            b2,
            cap,
            ..
        } = self.scaled;
        let in_core = self.scaled.in_core();
        let (big_t, end) = (self.big_t, self.end);
        for i in 0..self.sigma.len() {
            let (ri, ki, si) = (self.r[i], self.counts[i], self.sigma[i]);
            let lp = &mut self.lp;
            lp.add_constraint(&[(self.f[i], 1.0), (si, -1.0)], Cmp::Le, 0.0);
            lp.add_constraint(&[(end, 1.0), (si, -1.0)], Cmp::Le, 0.0);
            // In core at best, or out of core with k_i chunks of RAM size
            // (left out where every chunk runs in core).
            lp.add_constraint(
                &[(si, 1.0), (ki, o), (ri, c + a1), (big_t, -1.0)],
                Cmp::Le,
                0.0,
            );
            if !in_core {
                lp.add_constraint(
                    &[(si, 1.0), (ki, o + b2), (ri, c + a2), (big_t, -1.0)],
                    Cmp::Le,
                    0.0,
                );
            }
            lp.add_constraint(&[(ri, 1.0), (ki, -cap)], Cmp::Le, 0.0);
        }
    }

    /// The machines share the channel: the `q` smallest `σ` add up to at
    /// least the first `q` position starts, written as
    /// `q λ − Σ μ_i ≥ Σ_{r<q} t_{k+r}` with `σ_i ≥ λ − μ_i`, `μ ≥ 0` (the
    /// LP dual of "the sum of the q smallest").
    fn add_channel_share_rows(&mut self) {
        let k = self.k;
        let m = self.sigma.len();
        for q in 1..=m.min(self.msg.len() - k) {
            let lp = &mut self.lp;
            let lambda = lp.add_var(0.0, f64::NEG_INFINITY, f64::INFINITY);
            let mut row = vec![(lambda, q as f64)];
            for &si in &self.sigma {
                let mu = lp.add_var(0.0, 0.0, f64::INFINITY);
                lp.add_constraint(&[(si, 1.0), (lambda, -1.0), (mu, 1.0)], Cmp::Ge, 0.0);
                row.push((mu, -1.0));
            }
            row.extend(self.msg[k..k + q].iter().map(|p| (p.0, -1.0)));
            lp.add_constraint(&row, Cmp::Ge, 0.0);
        }
    }

    /// The work sent from each position on fits in the machines' time
    /// after it (see [`Instance::relax`]): for `q = min(m, positions from
    /// p on)`, `Σ_{p' ≥ p} (O y + C x + τ) ≤ Σ_{r<q} (T − t_{p+r})`, one row
    /// per line of `τ` (`τ ≥ a1 x`, `τ ≥ a2 x + b2 y`), the in-core one
    /// alone where every chunk fits in RAM.
    fn add_work_after_rows(&mut self) {
        let Scaled {
            o, c, a1, a2, b2, ..
        } = self.scaled;
        let (k, n, m) = (self.k, self.msg.len(), self.sigma.len());
        let lines = [(c + a1, o), (c + a2, o + b2)];
        let lines = &lines[..if self.scaled.in_core() { 1 } else { 2 }];
        for p in k..n {
            let q = m.min(n - p);
            for &(slope, fixed) in lines {
                let mut row: Vec<(Var, f64)> = Vec::with_capacity(2 * (n - p) + q + 1);
                let mut held = 0.0;
                for &(_, x, y) in &self.msg[p..] {
                    row.push((x, slope));
                    match y {
                        Some(y) => row.push((y, fixed)),
                        None => held += fixed,
                    }
                }
                row.push((self.big_t, -(q as f64)));
                row.extend(self.msg[p..p + q].iter().map(|msg| (msg.0, 1.0)));
                self.lp.add_constraint(&row, Cmp::Le, -held);
            }
        }
    }

    /// The machines' remaining chunks and loads are the positions', and
    /// the messages carry the whole load.
    fn add_balance_rows(&mut self) {
        let positions = &self.msg[self.k..];
        let mut count: Vec<_> = self.counts.iter().map(|&ki| (ki, 1.0)).collect();
        count.extend(positions.iter().filter_map(|p| p.2).map(|y| (y, -1.0)));
        let held_positions = positions.iter().filter(|p| p.2.is_none()).count();
        self.lp
            .add_constraint(&count, Cmp::Eq, held_positions as f64);
        let mut load: Vec<_> = self.r.iter().map(|&ri| (ri, 1.0)).collect();
        load.extend(positions.iter().map(|p| (p.1, -1.0)));
        self.lp.add_constraint(&load, Cmp::Eq, 0.0);
        let all: Vec<_> = self.msg.iter().map(|p| (p.1, 1.0)).collect();
        self.lp.add_constraint(&all, Cmp::Eq, 1.0);
    }

    /// The optimum in the instance's units, with each machine's relaxed
    /// count and load (in chunks' worth of in-core load) for the split of
    /// boxes; an infeasible LP prunes the node at `cutoff`.
    fn solve(self, cutoff: f64) -> Result<Relaxation, Error> {
        match Warm::new(self.lp) {
            Ok(warm) => Ok(Kept {
                warm,
                counts: self.counts,
                r: self.r,
                unit: self.scaled.unit,
                per_chunk: self.scaled.per_chunk,
                cutoff,
            }
            .relaxation()),
            Err(crate::core::solving::lp::LpError::Infeasible) => Ok(Relaxation::pruned(cutoff)),
            Err(e) => Err(e.into()),
        }
    }
}

/// Adds the row `terms + coef·y ≤ 0`, where `y` is a message's "holds a
/// chunk": a variable, or the constant 1 (`None`).
fn at_most_zero(lp: &mut Problem, terms: &[(Var, f64)], (y, coef): (Option<Var>, f64)) {
    match y {
        Some(y) => {
            let mut all = terms.to_vec();
            all.push((y, coef));
            lp.add_constraint(&all, Cmp::Le, 0.0);
        }
        None => lp.add_constraint(terms, Cmp::Le, -coef),
    }
}

impl Instance {
    /// [`Instance::relax`] without a box: the bound alone.
    pub(crate) fn prefix_bound(&self, prefix: &[usize], cutoff: f64) -> Result<f64, Error> {
        let free = vec![(0.0, f64::INFINITY); self.machines_usize()];
        Ok(self.relax(prefix, &free, cutoff)?.bound)
    }

    /// A lower bound on the makespan of every completion of `prefix` with at
    /// most `n − |prefix|` more chunks (exactly that many on request; a
    /// search's nodes also ask for other counts, [`Instance::relax_counted`]):
    /// an LP every such completion with
    /// `T ≤ cutoff` satisfies, so its optimum bounds them all. Returns the
    /// bound and, for the split of boxes, each machine's relaxed count and
    /// load.
    ///
    /// **Messages.** The prefix's messages are modelled as in the sequence
    /// LP; the remaining ones in the order they are sent ("positions"),
    /// whoever receives them: each starts after the one before has been sent
    /// and is computed by `T`. This is what makes late chunks small, as in
    /// the real schedules: the channel serialises them. A position has
    /// `y_p ∈ [0, 1]`, "it holds a chunk", and costs `O y_p`, so completions
    /// with fewer chunks are points too. Every prefix message holds a chunk
    /// (`y = 1`): a schedule with an empty one is, without it, a sequence of
    /// another subtree or one with fewer than `min(m, n)` chunks, which the
    /// search solves apart ([`Instance::short_sequences`]).
    ///
    /// **Machines.** Each machine `i` receives `R_i` more load in `k_i`
    /// (relaxed) chunks from `σ_i` on, after it has finished its prefix work
    /// (`σ_i ≥ f_i`) and after the prefix has been sent (`σ_i ≥ end`), and is
    /// busy receiving and computing them until
    /// `T ≥ σ_i + O k_i + C R_i + max(a1 R_i, a2 R_i + b2 k_i)`;
    /// `Σ k_i = Σ y_p` and `Σ R_i = Σ α_p` over the positions. A machine that
    /// receives nothing more has `σ_i = T`.
    ///
    /// **Machines share the channel.** The machines that receive more start
    /// at distinct positions, and `T` is at least any position's start, so
    /// for every `q` up to the number of positions the `q` smallest `σ_i` add
    /// up to at least the first `q` position starts (give each machine that
    /// receives nothing a position of its own). Without this the relaxation
    /// lets every machine start its remaining load right at `end`; with it
    /// the root gap of the reference instance with `m = 10` at `V = 10⁴` goes
    /// from 1.1 % to 0.02 %. "The sum of the `q` smallest" is written through
    /// its LP dual, `m + 1` variables and rows per `q`.
    ///
    /// **Work after a position.** The chunks sent from position `p` on
    /// are received and computed between their sends and `T`, one after
    /// the other on each machine, by machines that start at distinct
    /// positions from `p` on: their work (`O + Cα + τ(α)` each) is at most
    /// `Σ_{r<q} (T − t_{p+r})` with `q = min(m, positions from p on)`.
    /// The machine rows alone let each
    /// machine be busy from its first remaining chunk on, however late the
    /// load follows; with these rows the root gap of `m = 12, n = 40` at
    /// Table 1's `Vmax` goes from 0.97 % to 0.03 %, and of `m = 20, n = 64`
    /// from 2.9 % to 0.11 %.
    ///
    /// **Cutoff.** Only completions with `T ≤ cutoff` (the incumbent's
    /// makespan) matter: a subtree without one cannot improve the incumbent.
    /// In such a completion no chunk is larger than `α_max`, the largest
    /// chunk a machine can receive and compute between `S` and `cutoff`
    /// (`O + Cα + τ(α) ≤ cutoff − S`), so `α_j ≤ α_max y_j` and
    /// `R_i ≤ α_max k_i`. This stops the relaxation from spreading the load
    /// over every machine in fractions of a chunk. When the cut leaves no
    /// point, the bound is `cutoff` itself (the node is pruned).
    ///
    /// **Boxes.** `range[i]` bounds `k_i`; only completions in which machine
    /// `i` receives that many more chunks are bounded. An empty box makes
    /// the LP infeasible, and the bound is `cutoff`.
    pub(crate) fn relax(
        &self,
        prefix: &[usize],
        range: &[(f64, f64)],
        cutoff: f64,
    ) -> Result<Relaxation, Error> {
        self.relax_counted(prefix, Chunks::of(self), range, cutoff)
    }

    /// [`Instance::relax`] for the completions with `chunks` chunks in all
    /// (at most `chunks.most ≥ |prefix|`, or exactly that many).
    pub(super) fn relax_counted(
        &self,
        prefix: &[usize],
        chunks: Chunks,
        range: &[(f64, f64)],
        cutoff: f64,
    ) -> Result<Relaxation, Error> {
        debug_assert!(!prefix.is_empty(), "the root holds the first chunk");
        debug_assert!(prefix.len() <= chunks.most);
        let Some(scaled) = Scaled::of(self, cutoff) else {
            return Ok(Relaxation::pruned(cutoff));
        };
        let mut bound = BoundLp::new(self, prefix.len(), chunks, range, scaled);
        bound.add_message_rows(prefix);
        bound.add_machine_rows();
        bound.add_channel_share_rows();
        bound.add_work_after_rows();
        bound.add_balance_rows();
        bound.solve(cutoff)
    }

    /// The sequences the root's subtree leaves out: those with fewer than
    /// `min(m, n)` chunks, which go to distinct machines (none when exactly
    /// `n` chunks are asked for). Each is solved unless the area bound of its
    /// busy machines is at least `cutoff`; the result holds the best one
    /// solved and the least bound of those left unsolved.
    pub(crate) fn short_sequences(&self, cutoff: f64) -> Result<Short, Error> {
        let mut short = Short {
            best: None,
            bound: f64::INFINITY,
            lps: 0,
        };
        if self.exactly {
            return Ok(short);
        }
        for j in 1..self.machines_usize().min(self.chunks.get()) {
            let bound = self.distinct_bound(j);
            if bound >= cutoff {
                short.bound = short.bound.min(bound);
                continue;
            }
            let solved = self.solve_sequence(&(0..j).collect::<Vec<_>>())?;
            short.lps += 1;
            short.bound = short.bound.min(solved.makespan);
            if short
                .best
                .as_ref()
                .is_none_or(|b| solved.makespan < b.makespan)
            {
                short.best = Some(solved);
            }
        }
        Ok(short)
    }

    /// A lower bound on the makespan of every schedule that could beat
    /// `cutoff`: the root's bound and the sequences it leaves out. Returns
    /// it and the LPs it took.
    ///
    /// # Errors
    ///
    /// [`Error::Solver`] if an LP fails.
    pub(crate) fn root_bound(&self, cutoff: f64) -> Result<(f64, u64), Error> {
        let first: Vec<usize> = (0..self.machines_usize().min(self.chunks.get())).collect();
        let short = self.short_sequences(cutoff)?;
        let root = self.prefix_bound(&first, cutoff)?;
        Ok((root.min(short.bound), short.lps + 1))
    }

    /// A lower bound on the makespan with `j` chunks on `j` distinct
    /// machines: each works without overlap from `S` on, receiving and then
    /// computing its chunk, so `j (T − S) ≥ jO + CV + max(a1 V, a2 V + j b2)`.
    pub(super) fn distinct_bound(&self, j: usize) -> f64 {
        self.startup + self.busy_time(j) / j as f64
    }

    /// The largest chunk any schedule with makespan at most `cutoff` can
    /// hold: `O + Cα + max(a1 α, a2 α + b2) ≤ cutoff − S`.
    pub(crate) fn largest_chunk(&self, cutoff: f64) -> f64 {
        let room = cutoff - self.startup - self.overhead;
        if room < 0.0 {
            return -1.0;
        }
        let in_core = room / (self.rate + self.a1);
        let out_of_core = (room - self.b2) / (self.rate + self.a2);
        in_core.min(out_of_core)
    }
}
