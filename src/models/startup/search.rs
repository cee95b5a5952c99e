//! Best-first branch and bound over communication sequences.
//!
//! A node is a sequence prefix (machines numbered by first use); the root
//! holds the first `min(m, n)` chunks on distinct machines, and shorter
//! sequences are solved apart. A node that branches on the next chunk's
//! machine gets the prefix solved as a complete sequence where its number
//! of chunks allows that (an incumbent candidate); every node has a
//! relaxation of every way to complete it ([`Instance::relax`]), a lower
//! bound for its whole subtree. Nodes whose bound is not below the
//! incumbent are dropped; the global lower bound is the least bound of the
//! open nodes, so the gap is proven at every moment.
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
//!
//! **Splitting on the number of chunks.** With "at most `n` chunks" the
//! relaxation may let a position hold a fraction of a chunk (a tenth of a
//! chunk paying a tenth of `O`), and branching on prefixes removes that
//! only one chunk at a time. So a node with at most `c` chunks in all
//! whose box does not split is split into "exactly `c`", whose positions
//! all hold a chunk, and "at most `c − 1`", which splits again when it is
//! expanded (the two hold every completion). At `n = 40` on the reference
//! instance with `m = 12` at Table 1's `Vmax`, the "exactly 40" side is
//! proven optimal at its root (13 LPs with the round robin's) and the
//! search in about 500 LPs, where without the split it stood at 0.012 %
//! after 10 s.

use crate::core::domain::error::Error;
use crate::core::framework::model::hand_out;
use crate::core::solving::branch::{
    best_first, fractional_count, split_pays, Ended, Ending, Stop, Tree,
};
use crate::core::solving::parallel;
use crate::core::solving::progress::Progress;

use super::relax::{Chunks, Kept, Relaxation};
use super::{Instance, Solved};

/// An open node: a prefix, a box of chunk counts, and its subtree's lower
/// bound.
struct Node {
    bound: f64,
    prefix: Vec<usize>,
    /// How many chunks its completions have in all.
    chunks: Chunks,
    /// The box of each machine's number of chunks after the prefix.
    range: Vec<(f64, f64)>,
    /// The bound LP's relaxed counts and loads.
    counts: Vec<f64>,
    loads: Vec<f64>,
    /// The bound LP kept solved, when the node may split its box.
    kept: Option<Kept>,
}

impl Node {
    /// A node and its bound LP.
    fn new(
        instance: &Instance,
        prefix: Vec<usize>,
        chunks: Chunks,
        range: Vec<(f64, f64)>,
        cutoff: f64,
    ) -> Result<Node, Error> {
        let relaxed = instance.relax_counted(&prefix, chunks, &range, cutoff)?;
        Ok(Node::of(relaxed, prefix, chunks, range))
    }

    fn of(relaxed: Relaxation, prefix: Vec<usize>, chunks: Chunks, range: Vec<(f64, f64)>) -> Node {
        // Only a node that may split needs its LP (a solver's state is
        // much larger than the node).
        let kept = relaxed
            .kept
            .filter(|_| fractional_count(&relaxed.counts, &relaxed.loads).is_some());
        Node {
            bound: relaxed.bound,
            prefix,
            chunks,
            range,
            counts: relaxed.counts,
            loads: relaxed.loads,
            kept,
        }
    }

    /// One side of a split of machine `i`'s box: `part` is its new box.
    /// From the node's kept LP with one row added when the LP was built
    /// for the same cutoff (the same LP as a new one, solved from the
    /// parent's basis), else built anew.
    fn side(
        &self,
        instance: &Instance,
        i: usize,
        part: (f64, f64),
        cutoff: f64,
    ) -> Result<Node, Error> {
        let mut range = self.range.clone();
        range[i] = part;
        let relaxed = match &self.kept {
            Some(kept) if kept.cutoff == cutoff => kept.clone().boxed(i, part, cutoff)?,
            _ => instance.relax_counted(&self.prefix, self.chunks, &range, cutoff)?,
        };
        Ok(Node::of(relaxed, self.prefix.clone(), self.chunks, range))
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
    /// Stopped because the caller asked to.
    pub interrupted: bool,
}

impl Instance {
    /// Best-first branch and bound, stopping at relative gap `gap` or after
    /// `max_lps` linear programs.
    pub(super) fn branch_and_bound(
        &self,
        limits: &Limits,
        start: Option<&[usize]>,
        progress: &mut dyn Progress,
    ) -> Result<Outcome, Error> {
        let (mut search, root, dropped) = Search::start(self, limits, start)?;
        let stop = Stop {
            gap: limits.gap,
            deadline: limits.deadline,
            what: "branch and bound",
        };
        let ended = best_first(&mut search, vec![root], dropped, &stop, progress)?;
        Ok(search.outcome(ended))
    }
}

/// A running branch and bound: the incumbent and the figures it reports;
/// the engine ([`best_first`]) keeps the open nodes.
struct Search<'a> {
    instance: &'a Instance,
    limits: &'a Limits,
    /// When the search started (before the incumbent's first LP).
    clock: web_time::Instant,
    /// The incumbent.
    best: Solved,
    lps: u64,
    nodes: u64,
    /// LPs solved, and seconds since `clock`, when the incumbent was found.
    incumbent_at: u64,
    incumbent_seconds: f64,
}

impl<'a> Search<'a> {
    /// The incumbent (the given sequence, else the best round robin: cheap
    /// and usually good), the root node, and the least bound of the short
    /// sequences a given start leaves out (`∞` when none).
    fn start(
        instance: &'a Instance,
        limits: &'a Limits,
        start: Option<&[usize]>,
    ) -> Result<(Search<'a>, Node, f64), Error> {
        let clock = web_time::Instant::now();
        let m = instance.machines_usize();
        let n = instance.chunks.get();
        let mut cut = false;
        let (mut best, mut lps) = match start {
            Some(sequence) => (instance.solve_sequence(sequence)?, 1),
            // The scan stops at the time limit with the best so far.
            None => instance.round_robin(&mut |_: f64, _: &str| {
                let on = limits.deadline.is_none_or(|d| web_time::Instant::now() < d);
                cut |= !on;
                on
            })?,
        };
        // The root's subtree holds the sequences with at least min(m, n)
        // chunks; shorter ones put their chunks on distinct machines. The
        // round-robin scan solves them all, unless the time limit cut it:
        // then each is bounded by the area of its `j` busy machines
        // (without this a cut scan of 64 machines was reported optimal).
        // After a given start, those that bound cannot rule out are solved.
        let mut dropped = f64::INFINITY;
        if cut && !instance.exactly {
            dropped = (1..m.min(n))
                .map(|j| instance.distinct_bound(j))
                .fold(f64::INFINITY, f64::min);
        }
        if start.is_some() {
            let short = instance.short_sequences(best.makespan * (1.0 - limits.gap))?;
            lps += short.lps;
            dropped = short.bound;
            if let Some(solved) = short.best.filter(|b| b.makespan < best.makespan) {
                best = solved;
            }
        }
        // The root: the first min(m, n) chunks on distinct machines. (A
        // root already at the cutoff ends the search at once, as proven.)
        let root = Node::new(
            instance,
            (0..m.min(n)).collect(),
            Chunks::of(instance),
            vec![(0.0, f64::INFINITY); m],
            best.makespan,
        )?;
        let search = Search {
            instance,
            limits,
            clock,
            best,
            lps: lps + 1,
            nodes: 0,
            incumbent_at: lps,
            incumbent_seconds: clock.elapsed().as_secs_f64(),
        };
        Ok((search, root, dropped))
    }

    /// The node's two boxes, where a machine's relaxed number of remaining
    /// chunks is fractional, if that tightens the bound enough (see the
    /// module docs); `None` to branch on the next chunk instead.
    fn split(&mut self, node: &Node, cutoff: f64) -> Result<Option<Vec<Node>>, Error> {
        let Some(i) = fractional_count(&node.counts, &node.loads) else {
            return Ok(None);
        };
        let (lo, hi) = node.range[i];
        let k = node.counts[i];
        let (instance, incumbent) = (self.instance, self.best.makespan);
        let parts = [(lo, k.floor()), (k.ceil(), hi)];
        let sides = self.nodes(&parts, |&part| node.side(instance, i, part, incumbent))?;
        let pays = split_pays(node.bound, [sides[0].bound, sides[1].bound], cutoff);
        Ok(pays.then_some(sides))
    }

    /// A node with at most `c` chunks in all, `c` more than its prefix,
    /// split into exactly `c` and at most `c − 1` (see the module docs).
    /// Tried after the split of boxes: at a map's 1 % gap, boxes close the
    /// gap at the root, and an "exactly c" side first would dive through
    /// prefixes (the reference map took 7.8 s instead of 2.6 s on one
    /// thread).
    fn split_count(&mut self, node: &Node) -> Result<Option<Vec<Node>>, Error> {
        let Chunks { most, exactly } = node.chunks;
        if exactly || most <= node.prefix.len() {
            return Ok(None);
        }
        let (instance, cutoff) = (self.instance, self.best.makespan);
        let counts = [(most, true), (most - 1, false)];
        let sides = self.nodes(&counts, |&(most, exactly)| {
            let chunks = Chunks { most, exactly };
            let (prefix, range) = (node.prefix.clone(), node.range.clone());
            Node::new(instance, prefix, chunks, range, cutoff)
        })?;
        Ok(Some(sides))
    }

    /// The node's prefix solved as a whole sequence (an incumbent
    /// candidate) where the box and the number of chunks allow it, and one
    /// child per machine the next chunk can go to.
    fn branch(&mut self, node: Node) -> Result<Vec<Node>, Error> {
        let m = self.instance.machines_usize();
        let Chunks { most: n, exactly } = node.chunks;
        let prefix = node.prefix;
        // The prefix as a whole sequence (if this many chunks is allowed
        // and the box holds "no more chunks").
        let in_box = node.range.iter().all(|&(lo, _)| lo <= 0.0);
        if in_box && (!exactly || prefix.len() == n) {
            let solved = self.instance.solve_sequence(&prefix)?;
            self.lps += 1;
            if solved.makespan < self.best.makespan {
                self.best = solved;
                self.incumbent_at = self.lps;
                self.incumbent_seconds = self.clock.elapsed().as_secs_f64();
            }
        }
        if prefix.len() == n {
            return Ok(Vec::new());
        }
        // Machines are numbered by first use: the next chunk goes to a
        // machine already used or to the first unused one.
        let used = prefix.iter().max().map_or(0, |&u| u + 1);
        let choices = if prefix.len() < m {
            prefix.len()..prefix.len() + 1
        } else {
            0..m.min(used + 1)
        };
        // One of machine i's remaining chunks is now in the prefix: its
        // box loses one. The children's LPs are solved on every core.
        let kids: Vec<usize> = choices.filter(|&i| node.range[i].1 >= 1.0).collect();
        let (instance, cutoff) = (self.instance, self.best.makespan);
        self.nodes(&kids, |&i| {
            let (lo, hi) = node.range[i];
            let mut range = node.range.clone();
            range[i] = ((lo - 1.0).max(0.0), hi - 1.0);
            let mut child = prefix.clone();
            child.push(i);
            Node::new(instance, child, node.chunks, range, cutoff)
        })
    }

    /// One node per item, their LPs solved on every core natively
    /// ([`parallel::map`]) and counted; the first error, if any.
    fn nodes<I: Sync>(
        &mut self,
        items: &[I],
        node: impl Fn(&I) -> Result<Node, Error> + Sync,
    ) -> Result<Vec<Node>, Error> {
        let nodes = parallel::map(items, node);
        self.lps += items.len() as u64;
        nodes.into_iter().collect()
    }

    /// The outcome: every subtree was expanded, dropped with its bound or
    /// left open, and the engine's bound is the least of those bounds.
    fn outcome(self, ended: Ended) -> Outcome {
        Outcome {
            complete: ended.ending == Ending::Complete,
            lower_bound: ended.bound.min(self.best.makespan),
            best: self.best,
            lps: self.lps,
            nodes: self.nodes,
            incumbent_at: self.incumbent_at,
            seconds: self.clock.elapsed().as_secs_f64(),
            incumbent_seconds: self.incumbent_seconds,
            timed_out: ended.ending == Ending::Time,
            interrupted: ended.ending == Ending::Cancelled,
        }
    }
}

impl Tree for Search<'_> {
    type Node = Node;

    fn bound(node: &Node) -> f64 {
        node.bound
    }

    fn depth(node: &Node) -> usize {
        node.prefix.len()
    }

    fn incumbent(&self) -> f64 {
        self.best.makespan
    }

    /// Splits the node's box where that pays, else its number of chunks
    /// ("at most c" into "exactly c" and "at most c − 1"), else branches on
    /// the next chunk's machine.
    fn expand(&mut self, node: Node, cutoff: f64) -> Result<Vec<Node>, Error> {
        self.nodes += 1;
        if let Some(sides) = self.split(&node, cutoff)? {
            return Ok(sides);
        }
        match self.split_count(&node)? {
            Some(sides) => Ok(sides),
            None => self.branch(node),
        }
    }

    fn spent(&self) -> bool {
        self.lps >= self.limits.lps
    }

    fn budget_used(&self) -> f64 {
        self.lps as f64 / self.limits.lps.max(1) as f64
    }

    /// The best schedule so far as a whole answer, so that a page keeps it
    /// when the search is stopped from outside.
    fn show(&mut self, bound: f64, progress: &mut dyn Progress) {
        let snapshot = Outcome {
            best: self.best.clone(),
            lower_bound: bound.min(self.best.makespan),
            lps: self.lps,
            nodes: self.nodes,
            incumbent_at: self.incumbent_at,
            seconds: self.clock.elapsed().as_secs_f64(),
            incumbent_seconds: self.incumbent_seconds,
            complete: false,
            timed_out: false,
            interrupted: true,
        };
        let report = self.instance.report(&snapshot, super::Status::Interrupted);
        hand_out::<super::Startup>(&super::model::answer(self.instance, report), progress);
    }
}
