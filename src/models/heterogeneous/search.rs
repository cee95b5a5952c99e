//! The exact search: best-first branch and bound over sequence prefixes.
//!
//! A node is a prefix (the machines of the first chunks). Its bound is the
//! relaxation of every sequence that starts with it and has at most `n`
//! chunks (`sequence.rs`); the node with the least bound is expanded next:
//! its prefix is solved as a complete sequence (an incumbent candidate),
//! then each machine that may take the next chunk becomes a child. A
//! machine may, unless it is the first unused one of its class (machines
//! with identical parameters and powers are interchangeable: numbering them
//! in order of first use loses nothing). The least bound of the open nodes
//! is a lower bound on every schedule not yet seen, so the gap is proven at
//! every moment; the search stops when it is below the requested gap, at
//! the time limit or when cancelled (the engine is `core::solving::branch`).
//!
//! **Splitting on a machine's use.** The relaxation wakes a machine new to
//! the prefix in part (`z = κ/r` of its wake-up time and energy), which is
//! where it is weakest: a sliver of a chunk on a hibernated machine costs a
//! sliver of its wake-up. Before branching on the next chunk, a node whose
//! relaxation wakes a class of identical machines in part is split into
//! "one of them is used" (its first unused machine must take a chunk: `z =
//! 1`) and "none of them is" (barred from the subtree); identical machines
//! being interchangeable, every completion is on one side. The split is
//! kept when it pays (one side pruned or the lesser bound risen). On the
//! bench's four different machines (`n = 6`) it took the slowest proof
//! from 2 642 LPs to 263, and a 20-point front that took 16.8 s to 0.2 s.
//!
//! **Boxes of chunk counts**, as M5's: a node also bounds how many more
//! chunks each machine takes; where the relaxation gives a machine a
//! fractional count that its load needs (more than `⌊k⌋` RAMs, at most
//! `⌈k⌉`), the node is split into `k ≤ ⌊k⌋` and `k ≥ ⌈k⌉`; branching on
//! the next chunk takes one from its machine's box. This is where the
//! makespan relaxation is weakest when chunks are about RAM-sized: on the
//! preset it took the fastest proof (with its tie search) from 2 026 LPs to
//! 120, and its 20-point front from 5.1 s to 0.3 s.

use web_time::Instant;

use crate::core::domain::error::Error;
use crate::core::presentation::response::Response;
pub(crate) use crate::core::solving::branch::Ending;
use crate::core::solving::branch::{best_first, fractional_count, split_pays, Tree};
use crate::core::solving::parallel;
use crate::core::solving::progress::Progress;

use super::sequence::{Frame, Goal, Limits, Solved, Uses};

/// The whole answer for a best schedule so far and its bound, handed out
/// as a provisional answer (the page shows it while the search runs).
pub(crate) type Snapshot<'a> = dyn Fn(&Solved, f64) -> Option<Response> + 'a;

/// When the search stops, and what it shows meanwhile.
#[derive(Clone, Copy)]
pub(crate) struct Stop<'a> {
    /// The relative gap that is good enough.
    pub gap: f64,
    /// The time limit.
    pub deadline: Option<Instant>,
    /// Makes the provisional answers (none: the search shows none).
    pub snapshot: Option<&'a Snapshot<'a>>,
}

/// What the search found and proved.
#[derive(Debug, Clone)]
pub(crate) struct Outcome {
    /// The best schedule (none when no schedule meets the limits).
    pub best: Option<Solved>,
    /// A lower bound on the goal over every schedule of at most `n` chunks.
    pub bound: f64,
    pub ending: Ending,
    pub lps: u64,
    pub nodes: u64,
}

/// A node: the machines of the first chunks, which machines new to them
/// its completions use, and its subtree's bound.
struct Node {
    bound: f64,
    prefix: Vec<usize>,
    uses: Uses,
    /// The relaxation's "woken" of each machine, its further chunks and
    /// its further load in RAMs.
    woken: Vec<f64>,
    counts: Vec<f64>,
    loads: Vec<f64>,
    /// Whether the prefix was solved as a sequence (by a node with the same
    /// prefix that was split).
    solved: bool,
}

/// The machines that may take the chunk after `prefix`: those of the
/// prefix, and the first unused one of each class that is not barred.
fn successors(frame: &Frame, prefix: &[usize], uses: &Uses) -> Vec<usize> {
    let m = frame.workers.len();
    let mut used = vec![false; m];
    for &i in prefix {
        used[i] = true;
    }
    let mut opened = vec![false; m];
    (0..m)
        .filter(|&i| {
            let class = frame.workers[i].class;
            if used[i] {
                return true;
            }
            let first = !opened[class];
            opened[class] = true;
            first && !uses.bars(i)
        })
        .collect()
}

/// The machine new to `node`'s prefix to split on: the first unused one of
/// the class whose relaxed wake-up is furthest from whole (its "woken"
/// summed over the class's unused machines), if any is fractional.
fn fractional(frame: &Frame, node: &Node) -> Option<(usize, u64)> {
    let m = frame.workers.len();
    let mut used = vec![false; m];
    for &i in &node.prefix {
        used[i] = true;
    }
    // Per class: its first unused machine, all its unused ones, their z.
    let mut classes: Vec<(usize, u64, f64)> = Vec::new();
    for i in (0..m).filter(|&i| !used[i] && !node.uses.bars(i)) {
        let class = frame.workers[i].class;
        match classes
            .iter_mut()
            .find(|c| frame.workers[c.0].class == class)
        {
            Some(c) => {
                c.1 |= 1 << i;
                c.2 += node.woken[i];
            }
            None => classes.push((i, 1 << i, node.woken[i])),
        }
    }
    let distance = |z: f64| z.min(1.0 - z);
    classes
        .into_iter()
        .filter(|&(first, _, z)| !node.uses.forces(first) && distance(z) > 1e-6)
        .max_by(|a, b| distance(a.2).total_cmp(&distance(b.2)))
        .map(|(first, all, _)| (first, all))
}

/// The sequences of at most `n` chunks, as the engine searches them.
struct Sequences<'a> {
    frame: &'a Frame,
    n: usize,
    goal: Goal,
    limits: Limits,
    deadline: Option<Instant>,
    snapshot: Option<&'a Snapshot<'a>>,
    best: Option<Solved>,
    lps: u64,
}

impl Sequences<'_> {
    /// Nodes and their relaxations, solved on every core natively; past
    /// the deadline, or where a relaxation fails numerically, a node keeps
    /// `parent`'s bound (valid for it too) instead of an LP of its own.
    fn nodes(&mut self, kids: Vec<(Vec<usize>, Uses)>, parent: f64, solved: bool) -> Vec<Node> {
        let late = self.deadline.is_some_and(|d| Instant::now() >= d);
        if !late {
            self.lps += kids.len() as u64;
        }
        let (frame, n, goal, limits) = (self.frame, self.n, self.goal, self.limits);
        let m = frame.workers.len();
        parallel::map(&kids, |(prefix, uses)| {
            let more = n - prefix.len();
            let relaxed = (!late)
                .then(|| frame.relax(prefix, more, uses, goal, limits).ok())
                .flatten();
            let (bound, woken, counts, loads) = match relaxed {
                Some(r) => (r.bound.max(parent), r.woken, r.counts, r.loads),
                None => (parent, vec![0.0; m], vec![0.0; m], vec![0.0; m]),
            };
            Node {
                bound,
                prefix: prefix.clone(),
                uses: uses.clone(),
                woken,
                counts,
                loads,
                solved,
            }
        })
    }

    /// The node's two sides where the relaxation wakes a class's machine
    /// in part: it is used (its first unused machine forced) or not (every
    /// unused machine of the class barred). Every completion is on one
    /// side (identical machines are interchangeable). Kept when it pays:
    /// one side pruned, or the lesser bound risen.
    fn split(&mut self, node: &Node, cutoff: f64) -> Option<Vec<Node>> {
        let (first, class) = fractional(self.frame, node)?;
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let used = Uses {
            forced: node.uses.forced | 1 << first,
            ..node.uses.clone()
        };
        let unused = Uses {
            barred: node.uses.barred | class,
            ..node.uses.clone()
        };
        let sides = self.nodes(
            vec![(node.prefix.clone(), used), (node.prefix.clone(), unused)],
            node.bound,
            true,
        );
        let pays = split_pays(node.bound, [sides[0].bound, sides[1].bound], cutoff);
        pays.then_some(sides)
    }

    /// The node's two boxes where a machine's relaxed number of further
    /// chunks is fractional and its relaxed load needs the fraction (more
    /// than `⌊k⌋` RAMs, at most `⌈k⌉`): `k ≤ ⌊k⌋` or `k ≥ ⌈k⌉`, as M5's.
    fn split_count(&mut self, node: &Node, cutoff: f64) -> Option<Vec<Node>> {
        let counts = &node.counts;
        let i = fractional_count(counts, &node.loads)?;
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let m = self.frame.workers.len();
        let (lo, hi) = node.uses.count_box(i);
        let side = |part| {
            let mut uses = node.uses.clone();
            uses.counts = (0..m).map(|j| uses.count_box(j)).collect();
            uses.counts[i] = part;
            uses
        };
        let (low, high) = (side((lo, counts[i].floor())), side((counts[i].ceil(), hi)));
        let sides = self.nodes(
            vec![(node.prefix.clone(), low), (node.prefix.clone(), high)],
            node.bound,
            true,
        );
        let pays = split_pays(node.bound, [sides[0].bound, sides[1].bound], cutoff);
        pays.then_some(sides)
    }
}

impl Tree for Sequences<'_> {
    type Node = Node;

    fn bound(node: &Node) -> f64 {
        node.bound
    }

    fn depth(node: &Node) -> usize {
        node.prefix.len()
    }

    fn incumbent(&self) -> f64 {
        self.best
            .as_ref()
            .map_or(f64::INFINITY, |s| s.value(self.goal))
    }

    /// The prefix solved as a whole sequence (an incumbent candidate);
    /// then the node split on a machine's use where that pays, or one
    /// child per machine that may take the next chunk.
    fn expand(&mut self, node: Node, cutoff: f64) -> Result<Vec<Node>, Error> {
        let (frame, goal, limits) = (self.frame, self.goal, self.limits);
        if !node.prefix.is_empty() && !node.solved {
            self.lps += 1;
            // A sequence whose LP fails numerically (parameters 1e30
            // apart) is no candidate; it bounds nothing, so skipping it
            // leaves every bound proven.
            if let Ok(Some(s)) = frame.solve(&node.prefix, goal, limits, false) {
                if s.value(goal) < self.incumbent() {
                    self.best = Some(s);
                }
            }
        }
        if node.prefix.len() >= self.n {
            return Ok(Vec::new());
        }
        if let Some(sides) = self.split(&node, cutoff) {
            return Ok(sides);
        }
        if let Some(sides) = self.split_count(&node, cutoff) {
            return Ok(sides);
        }
        let mut kids = Vec::new();
        for i in successors(frame, &node.prefix, &node.uses) {
            // Machine i takes one of its further chunks now, and is no
            // longer new.
            let (lo, hi) = node.uses.count_box(i);
            if hi < 1.0 {
                continue;
            }
            let mut uses = Uses {
                forced: node.uses.forced & !(1 << i),
                ..node.uses.clone()
            };
            if !uses.counts.is_empty() {
                uses.counts[i] = ((lo - 1.0).max(0.0), hi - 1.0);
            }
            let mut prefix = node.prefix.clone();
            prefix.push(i);
            kids.push((prefix, uses));
        }
        Ok(self.nodes(kids, node.bound, false))
    }

    fn show(&mut self, bound: f64, progress: &mut dyn Progress) {
        if let (Some(show), Some(best)) = (self.snapshot, &self.best) {
            if let Some(response) = show(best, bound) {
                progress.partial(&response);
            }
        }
    }
}

/// The best schedule of at most `n` chunks for `goal` within `limits`,
/// starting from the best of `known` (schedules of at most `n` chunks that
/// meet the limits).
///
/// # Errors
///
/// [`Error::Solver`] if an LP fails.
pub(crate) fn search(
    frame: &Frame,
    n: usize,
    goal: Goal,
    limits: Limits,
    known: Vec<Solved>,
    stop: Stop,
    progress: &mut dyn Progress,
) -> Result<Outcome, Error> {
    let best = known
        .into_iter()
        .min_by(|a, b| a.value(goal).total_cmp(&b.value(goal)));
    let mut tree = Sequences {
        frame,
        n,
        goal,
        limits,
        deadline: stop.deadline,
        snapshot: stop.snapshot,
        best,
        lps: 0,
    };
    // Criteria are never negative: 0 bounds them when the LP fails.
    let root = tree.nodes(vec![(Vec::new(), Uses::default())], 0.0, true);
    let engine = crate::core::solving::branch::Stop {
        gap: stop.gap,
        deadline: stop.deadline,
        what: "sequences (best first)",
    };
    let ended = best_first(&mut tree, root, f64::INFINITY, &engine, progress)?;
    Ok(Outcome {
        best: tree.best,
        bound: ended.bound,
        ending: ended.ending,
        lps: tree.lps,
        nodes: ended.nodes,
    })
}
