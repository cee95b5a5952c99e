//! Best-first branch and bound over communication sequences.
//!
//! A node is a sequence prefix (machines numbered by first use, the first
//! `min(m, n)` chunks on distinct machines). Each node gets two LPs: the
//! prefix as a complete sequence (an incumbent candidate), and a relaxation
//! of every way to complete it ([`Instance::prefix_bound`]), a lower bound
//! for its whole subtree. Nodes whose bound is not below the incumbent are
//! dropped; the global lower bound is the least bound of the open nodes, so
//! the gap is proven at every moment.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use crate::error::Error;
use crate::lp::{Cmp, Problem};
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
    pub complete: bool,
    /// Stopped by the deadline.
    pub timed_out: bool,
}

impl Instance {
    /// A lower bound on the makespan of every completion of `prefix` with at
    /// most `n − |prefix|` more chunks: the prefix's own LP, plus for every
    /// machine `i` a remaining load `R_i` in `k_i ≥ 0` (relaxed) chunks, sent
    /// after the prefix and computed after the machine's prefix work:
    /// `T ≥ f_i + O k_i + C R_i + max(a1 R_i, a2 R_i + b2 k_i)`,
    /// `T ≥ end + O k_i + (C + a1) R_i` (its chunks come after the prefix's
    /// messages), `T ≥ end + O Σk + C ΣR` (the channel), `R_i ≤ V k_i`,
    /// `Σ k_i ≤ n − |prefix|`, `Σ α + Σ R = V`. Every completion is a point of
    /// this LP, so its optimum bounds them all.
    ///
    /// **Cutoff.** Only completions with `T ≤ cutoff` (the incumbent's
    /// makespan) matter: a subtree without one cannot improve the incumbent.
    /// In such a completion no chunk is larger than `α_max`, the largest
    /// chunk a machine can receive and compute between `S` and `cutoff`
    /// (`O + Cα + τ(α) ≤ cutoff − S`), so `α_j ≤ α_max` and `R_i ≤ α_max k_i`.
    /// This is what stops the relaxation from spreading the remaining load
    /// over every machine in fractions of a chunk. When the cut leaves no
    /// point, the bound is `cutoff` itself (the node is pruned).
    pub(crate) fn prefix_bound(&self, prefix: &[usize], cutoff: f64) -> Result<f64, Error> {
        let unit = self.single().max(f64::MIN_POSITIVE);
        let v = self.load;
        let m = self.machines_usize();
        let k = prefix.len();
        let (o, c) = (self.overhead / unit, self.rate * v / unit);
        let (a1, a2, b2) = (self.a1 * v / unit, self.a2 * v / unit, self.b2 / unit);
        let s = self.startup / unit;
        let mut lp = Problem::new();
        let big_t = lp.add_var(1.0, 0.0, f64::INFINITY);
        let t: Vec<_> = (0..k)
            .map(|j| lp.add_var(0.0, if j == 0 { s } else { 0.0 }, f64::INFINITY))
            .collect();
        let largest = self.largest_chunk(cutoff) / v;
        if !(largest.is_finite() && largest >= 0.0) {
            return Ok(cutoff);
        }
        let x: Vec<_> = (0..k)
            .map(|_| lp.add_var(0.0, 0.0, largest.min(1.0)))
            .collect();
        let tau: Vec<_> = (0..k)
            .map(|_| lp.add_var(0.0, 0.0, f64::INFINITY))
            .collect();
        // f_i: when machine i has finished its prefix work (S if none).
        let f: Vec<_> = (0..m).map(|_| lp.add_var(0.0, s, f64::INFINITY)).collect();
        // end: when the channel has sent the prefix.
        let end = lp.add_var(0.0, s, f64::INFINITY);
        let r: Vec<_> = (0..m).map(|_| lp.add_var(0.0, 0.0, 1.0)).collect();
        let chunks: Vec<_> = (0..m)
            .map(|_| lp.add_var(0.0, 0.0, f64::INFINITY))
            .collect();
        for j in 0..k {
            let sent = [(t[j], 1.0), (x[j], c)];
            if j + 1 < k {
                lp.add_constraint(&[sent[0], sent[1], (t[j + 1], -1.0)], Cmp::Le, -o);
            } else {
                lp.add_constraint(&[sent[0], sent[1], (end, -1.0)], Cmp::Le, -o);
            }
            let done = [sent[0], sent[1], (tau[j], 1.0)];
            lp.add_constraint(&[done[0], done[1], done[2], (big_t, -1.0)], Cmp::Le, -o);
            match (j + 1..k).find(|&l| prefix[l] == prefix[j]) {
                Some(l) => {
                    lp.add_constraint(&[done[0], done[1], done[2], (t[l], -1.0)], Cmp::Le, -o)
                }
                None => lp.add_constraint(
                    &[done[0], done[1], done[2], (f[prefix[j]], -1.0)],
                    Cmp::Le,
                    -o,
                ),
            }
            lp.add_constraint(&[(tau[j], 1.0), (x[j], -a1)], Cmp::Ge, 0.0);
            lp.add_constraint(&[(tau[j], 1.0), (x[j], -a2)], Cmp::Ge, b2);
        }
        let mut channel = vec![(end, 1.0), (big_t, -1.0)];
        for i in 0..m {
            let (ri, ki) = (r[i], chunks[i]);
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
            lp.add_constraint(&[(ri, 1.0), (ki, -largest.min(1.0))], Cmp::Le, 0.0);
            channel.extend([(ki, o), (ri, c)]);
        }
        lp.add_constraint(&channel, Cmp::Le, 0.0);
        let left = (self.chunks as usize - k) as f64;
        let all_k: Vec<_> = chunks.iter().map(|&ki| (ki, 1.0)).collect();
        lp.add_constraint(&all_k, Cmp::Le, left);
        let all: Vec<_> = x.iter().chain(&r).map(|&xi| (xi, 1.0)).collect();
        lp.add_constraint(&all, Cmp::Eq, 1.0);
        match lp.solve() {
            Ok(solution) => Ok(solution.objective() * unit),
            Err(crate::lp::LpError::Infeasible) => Ok(cutoff),
            Err(e) => Err(e.into()),
        }
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
        let mut incumbent_at = lps;
        let mut open = BinaryHeap::new();
        open.push(Node {
            bound: 0.0,
            prefix: vec![0],
        });
        let mut bound_of_dropped = f64::INFINITY;
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
            timed_out,
        })
    }
}
