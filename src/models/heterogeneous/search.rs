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

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use web_time::{Duration, Instant};

use crate::core::error::Error;
use crate::core::progress::Progress;
use crate::core::response::Response;

use super::sequence::{Frame, Goal, Limits, Solved};

/// The whole answer for a best schedule so far and its bound, handed out
/// as a provisional answer (the page shows it while the search runs).
pub(crate) type Snapshot<'a> = dyn Fn(&Solved, f64) -> Option<Response> + 'a;

/// How often a long search hands out its best schedule.
const SNAPSHOT_EVERY: Duration = Duration::from_millis(250);

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

/// Why the search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ending {
    /// Every node was expanded or pruned: the gap is at most the one asked.
    Complete,
    /// The time limit passed.
    Time,
    /// `progress` asked to stop.
    Cancelled,
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

struct Node {
    bound: f64,
    prefix: Vec<usize>,
}

impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Node {}

impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Node {
    /// Least bound first (the heap is a max-heap), deeper first on ties.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .bound
            .total_cmp(&self.bound)
            .then(self.prefix.len().cmp(&other.prefix.len()))
    }
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
    let mut best: Option<Solved> = known
        .into_iter()
        .min_by(|a, b| a.value(goal).total_cmp(&b.value(goal)));
    let mut open = BinaryHeap::new();
    // Criteria are never negative: 0 bounds them when the LP fails.
    let root = frame.relax(&[], n, goal, limits).unwrap_or(0.0);
    let (mut lps, mut nodes) = (1u64, 0u64);
    open.push(Node {
        bound: root,
        prefix: Vec::new(),
    });
    let value = |b: &Option<Solved>| b.as_ref().map_or(f64::INFINITY, |s| s.value(goal));
    let good_enough = |bound: f64, incumbent: f64| bound >= incumbent * (1.0 - stop.gap) - 1e-12 * incumbent.abs();
    let mut ending = Ending::Complete;
    let mut bound = f64::INFINITY;
    // The least bound of the children dropped as good enough: what they
    // hold is only proven above it (with a gap, below the incumbent).
    let mut dropped = f64::INFINITY;
    // The first snapshot shows the starting schedule; later ones a better
    // one, or every second the bound as it rises.
    let (mut shown, mut improved) = (Instant::now(), best.is_some());
    while let Some(node) = open.pop() {
        let incumbent = value(&best);
        if good_enough(node.bound, incumbent) {
            bound = node.bound;
            break;
        }
        if stop.deadline.is_some_and(|d| Instant::now() >= d) {
            ending = Ending::Time;
            bound = node.bound;
            break;
        }
        let gap = if incumbent.is_finite() { (incumbent - node.bound) / incumbent } else { 1.0 };
        if !progress.report((1.0 - gap).clamp(0.0, 0.99), "sequences (best first)") {
            ending = Ending::Cancelled;
            bound = node.bound;
            break;
        }
        nodes += 1;
        if !node.prefix.is_empty() {
            lps += 1;
            // A sequence whose LP fails numerically (parameters 1e30
            // apart) is no candidate; it bounds nothing, so skipping it
            // leaves every bound proven.
            if let Ok(Some(s)) = frame.solve(&node.prefix, goal, limits, false) {
                if s.value(goal) < value(&best) {
                    best = Some(s);
                    improved = true;
                }
            }
            if let (Some(show), Some(b)) = (stop.snapshot, &best) {
                let since = shown.elapsed();
                if improved && since >= SNAPSHOT_EVERY || since >= 4 * SNAPSHOT_EVERY {
                    if let Some(response) = show(b, node.bound.min(dropped)) {
                        progress.partial(&response);
                    }
                    (shown, improved) = (Instant::now(), false);
                }
            }
        }
        if node.prefix.len() < n {
            for i in successors(frame, &node.prefix) {
                let mut prefix = node.prefix.clone();
                prefix.push(i);
                let more = n - prefix.len();
                // Past the deadline, or where the relaxation fails
                // numerically, a child keeps its parent's bound (valid for
                // it too) instead of an LP of its own.
                let late = stop.deadline.is_some_and(|d| Instant::now() >= d);
                let child = if late {
                    node.bound
                } else {
                    lps += 1;
                    frame
                        .relax(&prefix, more, goal, limits)
                        .unwrap_or(node.bound)
                        .max(node.bound)
                };
                if good_enough(child, value(&best)) {
                    dropped = dropped.min(child);
                } else {
                    open.push(Node { bound: child, prefix });
                }
            }
        }
    }
    let incumbent = value(&best);
    let bound = bound.min(dropped).min(incumbent);
    Ok(Outcome {
        best,
        bound,
        ending,
        lps,
        nodes,
    })
}
