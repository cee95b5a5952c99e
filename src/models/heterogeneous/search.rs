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
//! the time limit or when cancelled.

use web_time::Instant;

pub(crate) use crate::core::branch::Ending;
use crate::core::branch::{best_first, Tree};
use crate::core::error::Error;
use crate::core::progress::Progress;
use crate::core::response::Response;

use super::sequence::{Frame, Goal, Limits, Solved};

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

/// A node: the machines of the first chunks, and its subtree's bound.
struct Node {
    bound: f64,
    prefix: Vec<usize>,
}

/// The machines that may take the chunk after `prefix`.
fn successors(frame: &Frame, prefix: &[usize]) -> Vec<usize> {
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
            first
        })
        .collect()
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

impl Tree for Sequences<'_> {
    type Node = Node;

    fn bound(node: &Node) -> f64 {
        node.bound
    }

    fn depth(node: &Node) -> usize {
        node.prefix.len()
    }

    fn incumbent(&self) -> f64 {
        self.best.as_ref().map_or(f64::INFINITY, |s| s.value(self.goal))
    }

    /// The prefix solved as a whole sequence (an incumbent candidate), and
    /// one child per machine that may take the next chunk.
    fn expand(&mut self, node: Node, _cutoff: f64) -> Result<Vec<Node>, Error> {
        let (frame, goal, limits) = (self.frame, self.goal, self.limits);
        if !node.prefix.is_empty() {
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
        let mut children = Vec::new();
        for i in successors(frame, &node.prefix) {
            let mut prefix = node.prefix.clone();
            prefix.push(i);
            let more = self.n - prefix.len();
            // Past the deadline, or where the relaxation fails numerically,
            // a child keeps its parent's bound (valid for it too) instead of
            // an LP of its own.
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            let bound = if late {
                node.bound
            } else {
                self.lps += 1;
                frame
                    .relax(&prefix, more, goal, limits)
                    .unwrap_or(node.bound)
                    .max(node.bound)
            };
            children.push(Node { bound, prefix });
        }
        Ok(children)
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
        lps: 1,
    };
    // Criteria are never negative: 0 bounds them when the LP fails.
    let root = Node {
        bound: frame.relax(&[], n, goal, limits).unwrap_or(0.0),
        prefix: Vec::new(),
    };
    let engine = crate::core::branch::Stop {
        gap: stop.gap,
        deadline: stop.deadline,
        what: "sequences (best first)",
    };
    let ended = best_first(&mut tree, vec![root], f64::INFINITY, &engine, progress)?;
    Ok(Outcome {
        best: tree.best,
        bound: ended.bound,
        ending: ended.ending,
        lps: tree.lps,
        nodes: ended.nodes,
    })
}
