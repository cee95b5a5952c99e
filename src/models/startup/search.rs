//! Best-first branch and bound over communication sequences.
//!
//! A node is a sequence prefix (machines numbered by first use); the root
//! holds the first `min(m, n)` chunks on distinct machines, and shorter
//! sequences are solved apart. A node that branches on the next chunk's
//! machine gets the prefix solved as a complete sequence (an incumbent
//! candidate); every node has a relaxation of every way to complete it
//! ([`Instance::relax`]), a lower bound for its whole subtree. Nodes whose bound is not below the incumbent are dropped;
//! the global lower bound is the least bound of the open nodes, so the gap
//! is proven at every moment.
//!
//! **Boxes of chunk counts.** A node also holds a box `lo_i ≤ k_i ≤ hi_i`
//! on how many more chunks each machine receives after the prefix, and its
//! bound LP respects it ([`Instance::relax`]). The relaxation treats `k_i`
//! as a real number, and that is where it is weakest when the chunks are
//! about RAM-sized: with `m = 9` at Table 1's `Vmax` it gives four machines
//! 1.7 RAM-sized chunks each after small first chunks, which in truth takes
//! two chunks each, more than the sequence has. So before branching on the
//! next chunk's machine, a node whose LP gives a machine a fractional `k_i`
//! that its relaxed load needs (more than `⌊k_i⌋` in-core chunks hold, at
//! most what `⌈k_i⌉` hold) is split into `k_i ≤ ⌊k_i⌋` and `k_i ≥ ⌈k_i⌉`.
//! Counts are whole, so the two boxes hold every completion of the node.
//! The split is kept when it pays, that is when the smaller of the two
//! bounds rises or one child is pruned; otherwise its two LPs are wasted
//! and the node branches on the next chunk instead. The box follows that
//! branching: the machine that gets the next chunk has one fewer to come.
//! At `m = 9`, `Vmax`, splits alone lift the root bound from 1554.8 s to
//! 1578.4 s (the optimum is 1587.2 s), and the search proves the optimum
//! in about 600 LPs, where without boxes it stopped at a 1.7 % gap after
//! 3000.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::core::error::Error;
use crate::core::lp::{Cmp, Problem, Var};
use crate::core::progress::Progress;

use super::{Instance, Solved};

/// An open node: a prefix, a box of chunk counts, and its subtree's lower
/// bound.
struct Node {
    bound: f64,
    prefix: Vec<usize>,
    /// The box of each machine's number of chunks after the prefix.
    range: Vec<(f64, f64)>,
    /// The bound LP's relaxed counts and loads.
    counts: Vec<f64>,
    loads: Vec<f64>,
}

impl Node {
    /// A node and its bound LP.
    fn new(
        instance: &Instance,
        prefix: Vec<usize>,
        range: Vec<(f64, f64)>,
        cutoff: f64,
    ) -> Result<Node, Error> {
        let relaxed = instance.relax(&prefix, &range, cutoff)?;
        Ok(Node {
            bound: relaxed.bound,
            prefix,
            range,
            counts: relaxed.counts,
            loads: relaxed.loads,
        })
    }
}

/// The machine to split a box on: of those whose relaxed number of
/// remaining chunks is fractional and whose relaxed load needs the fraction
/// (more than `⌊k⌋` in-core chunks hold, at most `⌈k⌉`), the one furthest
/// from a whole number.
fn fractional(counts: &[f64], loads: &[f64]) -> Option<usize> {
    let distance = |k: f64| (k - k.round()).abs();
    (0..counts.len())
        .filter(|&i| distance(counts[i]) > 1e-6)
        .filter(|&i| loads[i] > counts[i].floor() + 1e-9 && loads[i] <= counts[i].ceil() + 1e-9)
        .max_by(|&a, &b| distance(counts[a]).total_cmp(&distance(counts[b])))
}

impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        self.bound == other.bound
    }
}

impl Eq for Node {}

impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Node {
    /// Smallest bound first (a max-heap of reversed bounds); deeper first on
    /// ties, to reach leaves.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .bound
            .total_cmp(&self.bound)
            .then(self.prefix.len().cmp(&other.prefix.len()))
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
}

/// When a search stops.
pub(super) struct Limits {
    /// Relative gap proven small enough.
    pub gap: f64,
    /// Linear programs.
    pub lps: u64,
    /// Wall-clock time (the `web_time` clock also works in the browser).
    pub deadline: Option<web_time::Instant>,
}

/// The outcome of a search.
pub(super) struct Outcome {
    pub best: Solved,
    pub lower_bound: f64,
    pub lps: u64,
    /// Nodes (prefixes) expanded.
    pub nodes: u64,
    /// LPs solved when the final incumbent was found.
    pub incumbent_at: u64,
    /// Seconds the search ran, and until the final incumbent was found.
    pub seconds: f64,
    pub incumbent_seconds: f64,
    pub complete: bool,
    /// Stopped by the deadline.
    pub timed_out: bool,
    /// Stopped because the caller asked to.
    pub interrupted: bool,
}

/// How often a long search shows its best schedule so far (seconds).
const SNAPSHOT_EVERY: f64 = 0.25;

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
    /// most `n − |prefix|` more chunks: an LP every such completion with
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
        debug_assert!(!prefix.is_empty(), "the root holds the first chunk");
        let unit = self.single().max(f64::MIN_POSITIVE);
        let v = self.load;
        let m = self.machines_usize();
        let k = prefix.len();
        let (o, c) = (self.overhead / unit, self.rate * v / unit);
        let (a1, a2, b2) = (self.a1 * v / unit, self.a2 * v / unit, self.b2 / unit);
        let s = self.startup / unit;
        let largest = self.largest_chunk(cutoff) / v;
        let pruned = Relaxation {
            bound: cutoff,
            counts: Vec::new(),
            loads: Vec::new(),
        };
        if !(largest.is_finite() && largest >= 0.0) {
            return Ok(pruned);
        }
        let cap = largest.min(1.0);
        // The most load a chunk holds in core (a fraction of V).
        let per_chunk = cap.min(self.ram() / v).max(f64::MIN_POSITIVE);
        // An optimal schedule of the subtree holds a chunk in every prefix
        // message: without an empty one it is a sequence of another subtree
        // or one with fewer than min(m, n) chunks, which are solved apart
        // ([`Instance::short_sequences`]).
        let held = |j: usize| self.exactly || j < k;
        let mut lp = Problem::new();
        let big_t = lp.add_var(1.0, 0.0, f64::INFINITY);
        // Every message: start t, size x, "holds a chunk" y (the constant 1,
        // no variable, where it is held).
        let messages = self.chunks as usize;
        let msg: Vec<(Var, Var, Option<Var>)> = (0..messages)
            .map(|j| {
                let t = lp.add_var(0.0, s, f64::INFINITY);
                let x = lp.add_var(0.0, 0.0, cap);
                let y = (!held(j)).then(|| lp.add_var(0.0, 0.0, 1.0));
                (t, x, y)
            })
            .collect();
        // f_i: when machine i has finished its prefix work (S if none).
        let f: Vec<_> = (0..m).map(|_| lp.add_var(0.0, s, f64::INFINITY)).collect();
        // end: when the channel has sent the prefix.
        let end = lp.add_var(0.0, s, f64::INFINITY);
        let r: Vec<_> = (0..m).map(|_| lp.add_var(0.0, 0.0, 1.0)).collect();
        let counts: Vec<_> = range
            .iter()
            .map(|&(lo, hi)| lp.add_var(0.0, lo, hi))
            .collect();
        for (j, &(t, x, y)) in msg.iter().enumerate() {
            // The channel: one message after the other; the prefix has been
            // sent at `end`, and the positions follow.
            let next = match j + 1 {
                l if l == k => Some(end),
                l if l < messages => Some(msg[l].0),
                _ => None,
            };
            if let Some(next) = next {
                at_most_zero(&mut lp, &[(t, 1.0), (x, c), (next, -1.0)], (y, o));
            }
            // Computed before its machine's next chunk is sent (a prefix
            // message) or by T (a position): `t + O y + C x + τ ≤ w` with
            // `τ ≥ a1 x` and `τ ≥ a2 x + b2 y`, one row each.
            let before = if j < k {
                let machine = prefix[j];
                match (j + 1..k).find(|&l| prefix[l] == machine) {
                    Some(l) => msg[l].0,
                    None => f[machine],
                }
            } else {
                big_t
            };
            at_most_zero(&mut lp, &[(t, 1.0), (x, c + a1), (before, -1.0)], (y, o));
            at_most_zero(
                &mut lp,
                &[(t, 1.0), (x, c + a2), (before, -1.0)],
                (y, o + b2),
            );
            if let Some(y) = y {
                lp.add_constraint(&[(x, 1.0), (y, -cap)], Cmp::Le, 0.0);
            }
        }
        if let Some(first) = msg.get(k) {
            lp.add_constraint(&[(end, 1.0), (first.0, -1.0)], Cmp::Le, 0.0);
        }
        let positions = &msg[k..];
        // σ_i: when machine i starts receiving its remaining chunks (T if
        // none); it is busy from then on.
        let sigma: Vec<_> = (0..m).map(|_| lp.add_var(0.0, s, f64::INFINITY)).collect();
        for i in 0..m {
            let (ri, ki, si) = (r[i], counts[i], sigma[i]);
            lp.add_constraint(&[(f[i], 1.0), (si, -1.0)], Cmp::Le, 0.0);
            lp.add_constraint(&[(end, 1.0), (si, -1.0)], Cmp::Le, 0.0);
            // In core at best, or out of core with k_i chunks of RAM size.
            lp.add_constraint(
                &[(si, 1.0), (ki, o), (ri, c + a1), (big_t, -1.0)],
                Cmp::Le,
                0.0,
            );
            lp.add_constraint(
                &[(si, 1.0), (ki, o + b2), (ri, c + a2), (big_t, -1.0)],
                Cmp::Le,
                0.0,
            );
            lp.add_constraint(&[(ri, 1.0), (ki, -cap)], Cmp::Le, 0.0);
        }
        // The q smallest σ add up to at least the first q position starts:
        // `q λ − Σ μ_i ≥ Σ_{r<q} t_{k+r}` with `σ_i ≥ λ − μ_i`, `μ ≥ 0`
        // (the LP dual of "the sum of the q smallest").
        for q in 1..=m.min(messages - k) {
            let lambda = lp.add_var(0.0, f64::NEG_INFINITY, f64::INFINITY);
            let mut row = vec![(lambda, q as f64)];
            for &si in &sigma {
                let mu = lp.add_var(0.0, 0.0, f64::INFINITY);
                lp.add_constraint(&[(si, 1.0), (lambda, -1.0), (mu, 1.0)], Cmp::Ge, 0.0);
                row.push((mu, -1.0));
            }
            row.extend(msg[k..k + q].iter().map(|p| (p.0, -1.0)));
            lp.add_constraint(&row, Cmp::Ge, 0.0);
        }
        // The machines' remaining chunks and loads are the positions'.
        let mut count: Vec<_> = counts.iter().map(|&ki| (ki, 1.0)).collect();
        count.extend(positions.iter().filter_map(|p| p.2).map(|y| (y, -1.0)));
        let held_positions = positions.iter().filter(|p| p.2.is_none()).count();
        lp.add_constraint(&count, Cmp::Eq, held_positions as f64);
        let mut load: Vec<_> = r.iter().map(|&ri| (ri, 1.0)).collect();
        load.extend(positions.iter().map(|p| (p.1, -1.0)));
        lp.add_constraint(&load, Cmp::Eq, 0.0);
        let all: Vec<_> = msg.iter().map(|p| (p.1, 1.0)).collect();
        lp.add_constraint(&all, Cmp::Eq, 1.0);
        match lp.solve() {
            Ok(solution) => Ok(Relaxation {
                bound: solution.objective() * unit,
                counts: counts.iter().map(|&ki| solution[ki]).collect(),
                loads: r.iter().map(|&ri| solution[ri] / per_chunk).collect(),
            }),
            Err(crate::core::lp::LpError::Infeasible) => Ok(pruned),
            Err(e) => Err(e.into()),
        }
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
        for j in 1..self.machines_usize().min(self.chunks as usize) {
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
        let first: Vec<usize> = (0..self.machines_usize().min(self.chunks as usize)).collect();
        let short = self.short_sequences(cutoff)?;
        let root = self.prefix_bound(&first, cutoff)?;
        Ok((root.min(short.bound), short.lps + 1))
    }

    /// A lower bound on the makespan with `j` chunks on `j` distinct
    /// machines: each works without overlap from `S` on, receiving and then
    /// computing its chunk, so `j (T − S) ≥ jO + CV + max(a1 V, a2 V + j b2)`.
    fn distinct_bound(&self, j: usize) -> f64 {
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

    /// Best-first branch and bound, stopping at relative gap `gap` or after
    /// `max_lps` linear programs.
    pub(super) fn branch_and_bound(
        &self,
        limits: &Limits,
        start: Option<&[usize]>,
        progress: &mut dyn Progress,
    ) -> Result<Outcome, Error> {
        let (gap, max_lps) = (limits.gap, limits.lps);
        let clock = web_time::Instant::now();
        let m = self.machines_usize();
        let n = self.chunks as usize;
        let mut lps = 0u64;
        let mut nodes = 0u64;
        let mut timed_out = false;
        // Incumbent: the given sequence, else the best round robin (cheap
        // and usually good).
        let (mut best, first_lps) = match start {
            Some(sequence) => (self.solve_sequence(sequence)?, 1),
            None => self.round_robin(&mut crate::core::progress::Silent)?,
        };
        lps += first_lps;
        // The root's subtree holds the sequences with at least min(m, n)
        // chunks; shorter ones put their chunks on distinct machines. The
        // round-robin scan solves them all; after a given start, only those
        // the area bound of `j` busy machines cannot rule out.
        let mut bound_of_dropped = f64::INFINITY;
        if start.is_some() {
            let short = self.short_sequences(best.makespan * (1.0 - gap))?;
            lps += short.lps;
            bound_of_dropped = short.bound;
            if let Some(solved) = short.best.filter(|b| b.makespan < best.makespan) {
                best = solved;
            }
        }
        let mut incumbent_at = lps;
        let mut incumbent_seconds = clock.elapsed().as_secs_f64();
        let mut open = BinaryHeap::new();
        // The root: the first min(m, n) chunks on distinct machines.
        let root = Node::new(
            self,
            (0..m.min(n)).collect(),
            vec![(0.0, f64::INFINITY); m],
            best.makespan,
        )?;
        lps += 1;
        // (A root already at the cutoff ends the loop at once, as proven.)
        open.push(root);
        let mut interrupted = false;
        let mut next_report = lps;
        // The last snapshot's makespan and bound, and when it was taken.
        let mut shown = (f64::NAN, f64::NAN, 0.0);
        while let Some(node) = open.pop() {
            let global = node.bound.min(bound_of_dropped);
            if best.makespan - global <= gap * best.makespan {
                open.push(node);
                break;
            }
            if lps >= max_lps {
                open.push(node);
                break;
            }
            if limits
                .deadline
                .is_some_and(|d| web_time::Instant::now() >= d)
            {
                timed_out = true;
                open.push(node);
                break;
            }
            if lps >= next_report {
                next_report = lps + 32;
                let done = 1.0 - (best.makespan - global) / best.makespan;
                if !progress.report(done.clamp(0.0, 1.0), "branch and bound") {
                    interrupted = true;
                    open.push(node);
                    break;
                }
                // A long search shows its best schedule so far, so that a
                // page keeps it when the search is stopped from outside.
                let now = clock.elapsed().as_secs_f64();
                let changed = (best.makespan, global) != (shown.0, shown.1);
                if changed && now >= shown.2 + SNAPSHOT_EVERY {
                    shown = (best.makespan, global, now);
                    let snapshot = Outcome {
                        best: best.clone(),
                        lower_bound: global.min(best.makespan),
                        lps,
                        nodes,
                        incumbent_at,
                        seconds: now,
                        incumbent_seconds,
                        complete: false,
                        timed_out: false,
                        interrupted: true,
                    };
                    let report = self.report(&snapshot, super::Status::Interrupted);
                    super::model::snapshot(self, report, progress);
                }
            }
            nodes += 1;
            let cutoff = best.makespan * (1.0 - gap);
            // Split the box where a machine's relaxed number of remaining
            // chunks is fractional, if that tightens the bound enough.
            let mut split = None;
            if let Some(i) = fractional(&node.counts, &node.loads) {
                let (lo, hi) = node.range[i];
                let k = node.counts[i];
                let side = |part| {
                    let mut range = node.range.clone();
                    range[i] = part;
                    Node::new(self, node.prefix.clone(), range, best.makespan)
                };
                let (low, high) = (side((lo, k.floor()))?, side((k.ceil(), hi))?);
                lps += 2;
                let (least, most) = (low.bound.min(high.bound), low.bound.max(high.bound));
                if most >= cutoff || least - node.bound > 1e-6 * (cutoff - node.bound) {
                    split = Some(vec![low, high]);
                }
            }
            let children = match split {
                Some(sides) => sides,
                None => {
                    let prefix = node.prefix;
                    // The prefix as a whole sequence (if this many chunks is
                    // allowed and the box holds "no more chunks").
                    let in_box = node.range.iter().all(|&(lo, _)| lo <= 0.0);
                    if in_box && (!self.exactly || prefix.len() == n) {
                        let solved = self.solve_sequence(&prefix)?;
                        lps += 1;
                        if solved.makespan < best.makespan {
                            best = solved;
                            incumbent_at = lps;
                            incumbent_seconds = clock.elapsed().as_secs_f64();
                        }
                    }
                    if prefix.len() == n {
                        continue;
                    }
                    let used = prefix.iter().max().map_or(0, |&u| u + 1);
                    let choices: Vec<usize> = if prefix.len() < m {
                        vec![prefix.len()]
                    } else {
                        (0..m.min(used + 1)).collect()
                    };
                    let mut children = Vec::new();
                    for i in choices {
                        // One of machine i's remaining chunks is now in the
                        // prefix.
                        let (lo, hi) = node.range[i];
                        if hi < 1.0 {
                            continue;
                        }
                        let mut range = node.range.clone();
                        range[i] = ((lo - 1.0).max(0.0), hi - 1.0);
                        let mut child = prefix.clone();
                        child.push(i);
                        children.push(Node::new(self, child, range, best.makespan)?);
                        lps += 1;
                    }
                    children
                }
            };
            for child in children {
                if child.bound < cutoff {
                    open.push(child);
                } else {
                    bound_of_dropped = bound_of_dropped.min(child.bound);
                }
            }
        }
        // Every subtree is either open or was dropped with its bound.
        let open_bound = open.iter().map(|n| n.bound).fold(f64::INFINITY, f64::min);
        let lower_bound = open_bound.min(bound_of_dropped).min(best.makespan);
        Ok(Outcome {
            complete: !interrupted
                && (open.is_empty() || best.makespan - lower_bound <= gap * best.makespan),
            best,
            lower_bound,
            lps,
            nodes,
            incumbent_at,
            seconds: clock.elapsed().as_secs_f64(),
            incumbent_seconds,
            timed_out,
            interrupted,
        })
    }
}
