//! Best-first branch and bound over communication sequences.
//!
//! A node is a sequence prefix (machines numbered by first use); the root
//! holds the first `min(m, n)` chunks on distinct machines, and shorter
//! sequences are solved apart. Each node gets two LPs: the prefix as a
//! complete sequence (an incumbent candidate), and a relaxation of every
//! way to complete it ([`Instance::prefix_bound`]), a lower bound for its
//! whole subtree. Nodes whose bound is not below the incumbent are dropped;
//! the global lower bound is the least bound of the open nodes, so the gap
//! is proven at every moment.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::error::Error;
use crate::lp::{Cmp, Problem, Var};
use crate::progress::Progress;

use super::{Instance, Solved};

/// An open node: a prefix and its subtree's lower bound.
struct Node {
    bound: f64,
    prefix: Vec<usize>,
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
}

impl Instance {
    /// A lower bound on the makespan of every completion of `prefix` with at
    /// most `n − |prefix|` more chunks: an LP every such completion with
    /// `T ≤ cutoff` satisfies, so its optimum bounds them all.
    ///
    /// **Messages.** The prefix's messages are modelled as in the sequence
    /// LP; the remaining ones in the order they are sent ("positions"),
    /// whoever receives them: each starts after the one before has been sent
    /// and is computed by `T`. This is what makes late chunks small, as in
    /// the real schedules: the channel serialises them. Every message `j`
    /// has `y_j ∈ [0, 1]`, "it holds a chunk", and costs `O y_j`, so a
    /// completion with fewer chunks (or a prefix whose last chunks are
    /// empty) is a point too: the bound of a node also covers the shorter
    /// sequences above it.
    ///
    /// **Machines.** Each machine `i` receives `R_i` more load in `k_i`
    /// (relaxed) chunks after it has finished its prefix work at `f_i` and
    /// after the prefix has been sent:
    /// `T ≥ f_i + O k_i + C R_i + max(a1 R_i, a2 R_i + b2 k_i)`,
    /// `T ≥ end + O k_i + (C + a1) R_i`; `Σ k_i = Σ y_p` and `Σ R_i = Σ α_p`
    /// over the positions.
    ///
    /// **Cutoff.** Only completions with `T ≤ cutoff` (the incumbent's
    /// makespan) matter: a subtree without one cannot improve the incumbent.
    /// In such a completion no chunk is larger than `α_max`, the largest
    /// chunk a machine can receive and compute between `S` and `cutoff`
    /// (`O + Cα + τ(α) ≤ cutoff − S`), so `α_j ≤ α_max y_j` and
    /// `R_i ≤ α_max k_i`. This stops the relaxation from spreading the load
    /// over every machine in fractions of a chunk. When the cut leaves no
    /// point, the bound is `cutoff` itself (the node is pruned).
    pub(crate) fn prefix_bound(&self, prefix: &[usize], cutoff: f64) -> Result<f64, Error> {
        debug_assert!(!prefix.is_empty(), "the root holds the first chunk");
        let unit = self.single().max(f64::MIN_POSITIVE);
        let v = self.load;
        let m = self.machines_usize();
        let k = prefix.len();
        let (o, c) = (self.overhead / unit, self.rate * v / unit);
        let (a1, a2, b2) = (self.a1 * v / unit, self.a2 * v / unit, self.b2 / unit);
        let s = self.startup / unit;
        let largest = self.largest_chunk(cutoff) / v;
        if !(largest.is_finite() && largest >= 0.0) {
            return Ok(cutoff);
        }
        let cap = largest.min(1.0);
        // Below the root, an optimal schedule in the subtree holds a chunk in
        // every prefix message (an empty one would only cost its O); only
        // the root also stands for the shorter sequences above it.
        let root = k <= m.min(self.chunks as usize);
        let held = |j: usize| {
            if self.exactly || (j < k && !root) {
                1.0
            } else {
                0.0
            }
        };
        let mut lp = Problem::new();
        let big_t = lp.add_var(1.0, 0.0, f64::INFINITY);
        // Every message: start t, size x, "holds a chunk" y, compute time τ.
        let messages = self.chunks as usize;
        let msg: Vec<[Var; 4]> = (0..messages)
            .map(|j| {
                let t = lp.add_var(0.0, s, f64::INFINITY);
                let x = lp.add_var(0.0, 0.0, cap);
                let y = lp.add_var(0.0, held(j), 1.0);
                let tau = lp.add_var(0.0, 0.0, f64::INFINITY);
                [t, x, y, tau]
            })
            .collect();
        // f_i: when machine i has finished its prefix work (S if none).
        let f: Vec<_> = (0..m).map(|_| lp.add_var(0.0, s, f64::INFINITY)).collect();
        // end: when the channel has sent the prefix.
        let end = lp.add_var(0.0, s, f64::INFINITY);
        let r: Vec<_> = (0..m).map(|_| lp.add_var(0.0, 0.0, 1.0)).collect();
        let counts: Vec<_> = (0..m)
            .map(|_| lp.add_var(0.0, 0.0, f64::INFINITY))
            .collect();
        for (j, &[t, x, y, tau]) in msg.iter().enumerate() {
            // The channel: one message after the other; the prefix has been
            // sent at `end`, and the positions follow.
            let sent = [(t, 1.0), (y, o), (x, c)];
            let next = match j + 1 {
                l if l == k => Some(end),
                l if l < messages => Some(msg[l][0]),
                _ => None,
            };
            if let Some(next) = next {
                lp.add_constraint(&[sent[0], sent[1], sent[2], (next, -1.0)], Cmp::Le, 0.0);
            }
            let done = [sent[0], sent[1], sent[2], (tau, 1.0)];
            let before = |w: Var| [done[0], done[1], done[2], done[3], (w, -1.0)];
            lp.add_constraint(&before(big_t), Cmp::Le, 0.0);
            if j < k {
                let machine = prefix[j];
                let free = match (j + 1..k).find(|&l| prefix[l] == machine) {
                    Some(l) => msg[l][0],
                    None => f[machine],
                };
                lp.add_constraint(&before(free), Cmp::Le, 0.0);
            }
            lp.add_constraint(&[(tau, 1.0), (x, -a1)], Cmp::Ge, 0.0);
            lp.add_constraint(&[(tau, 1.0), (x, -a2), (y, -b2)], Cmp::Ge, 0.0);
            lp.add_constraint(&[(x, 1.0), (y, -cap)], Cmp::Le, 0.0);
        }
        if let Some(first) = msg.get(k) {
            lp.add_constraint(&[(end, 1.0), (first[0], -1.0)], Cmp::Le, 0.0);
        }
        let positions = &msg[k..];
        for i in 0..m {
            let (ri, ki) = (r[i], counts[i]);
            // In core at best, or out of core with k_i chunks of RAM size.
            lp.add_constraint(
                &[(f[i], 1.0), (ki, o), (ri, c + a1), (big_t, -1.0)],
                Cmp::Le,
                0.0,
            );
            lp.add_constraint(
                &[(f[i], 1.0), (ki, o + b2), (ri, c + a2), (big_t, -1.0)],
                Cmp::Le,
                0.0,
            );
            lp.add_constraint(
                &[(end, 1.0), (ki, o), (ri, c + a1), (big_t, -1.0)],
                Cmp::Le,
                0.0,
            );
            lp.add_constraint(&[(ri, 1.0), (ki, -cap)], Cmp::Le, 0.0);
        }
        // The machines' remaining chunks and loads are the positions'.
        let mut count: Vec<_> = counts.iter().map(|&ki| (ki, 1.0)).collect();
        count.extend(positions.iter().map(|p| (p[2], -1.0)));
        lp.add_constraint(&count, Cmp::Eq, 0.0);
        let mut load: Vec<_> = r.iter().map(|&ri| (ri, 1.0)).collect();
        load.extend(positions.iter().map(|p| (p[1], -1.0)));
        lp.add_constraint(&load, Cmp::Eq, 0.0);
        let all: Vec<_> = msg.iter().map(|p| (p[1], 1.0)).collect();
        lp.add_constraint(&all, Cmp::Eq, 1.0);
        match lp.solve() {
            Ok(solution) => Ok(solution.objective() * unit),
            Err(crate::lp::LpError::Infeasible) => Ok(cutoff),
            Err(e) => Err(e.into()),
        }
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
            None => self.round_robin(&mut crate::progress::Silent)?,
        };
        lps += first_lps;
        // The root's subtree holds the sequences with more than min(m, n)
        // chunks; shorter ones put their chunks on distinct machines. The
        // round-robin scan solves them all; after a given start, only those
        // the area bound of `j` busy machines cannot rule out.
        let mut bound_of_dropped = f64::INFINITY;
        if start.is_some() && !self.exactly {
            for j in 1..m.min(n) {
                let bound = self.distinct_bound(j);
                if bound >= best.makespan * (1.0 - gap) {
                    bound_of_dropped = bound_of_dropped.min(bound);
                } else {
                    let solved = self.solve_sequence(&(0..j).collect::<Vec<_>>())?;
                    lps += 1;
                    if solved.makespan < best.makespan {
                        best = solved;
                    }
                }
            }
        }
        let mut incumbent_at = lps;
        let mut incumbent_seconds = clock.elapsed().as_secs_f64();
        let mut open = BinaryHeap::new();
        // The root: the first min(m, n) chunks on distinct machines.
        open.push(Node {
            bound: 0.0,
            prefix: (0..m.min(n)).collect(),
        });
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
            if lps % 32 == 0 {
                let done = 1.0 - (best.makespan - global) / best.makespan;
                if !progress.report(done.clamp(0.0, 1.0), "branch and bound") {
                    return Err(Error::Cancelled);
                }
            }
            let prefix = node.prefix;
            nodes += 1;
            // The prefix as a whole sequence (if this many chunks is allowed).
            if !self.exactly || prefix.len() == n {
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
            for i in choices {
                let mut child = prefix.clone();
                child.push(i);
                let bound = self.prefix_bound(&child, best.makespan)?;
                lps += 1;
                if bound < best.makespan * (1.0 - gap) {
                    open.push(Node {
                        bound,
                        prefix: child,
                    });
                } else {
                    bound_of_dropped = bound_of_dropped.min(bound);
                }
            }
        }
        // Every subtree is either open or was dropped with its bound.
        let open_bound = open.iter().map(|n| n.bound).fold(f64::INFINITY, f64::min);
        let lower_bound = open_bound.min(bound_of_dropped).min(best.makespan);
        Ok(Outcome {
            complete: open.is_empty() || best.makespan - lower_bound <= gap * best.makespan,
            best,
            lower_bound,
            lps,
            nodes,
            incumbent_at,
            seconds: clock.elapsed().as_secs_f64(),
            incumbent_seconds,
            timed_out,
        })
    }
}
