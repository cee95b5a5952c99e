//! Best-first branch and bound: the engine of the exact searches (M5's
//! identical machines, M7's heterogeneous ones).
//!
//! A search is a tree whose every node carries a lower bound on every
//! answer in its subtree. The engine keeps the open nodes and always
//! expands the one with the least bound (deeper first among equal bounds,
//! to reach complete answers early); a child whose bound is within the
//! asked gap of the incumbent is dropped, its bound kept. The least bound of
//! the open and dropped nodes is then a lower bound on every answer not yet
//! seen, so the gap is proven at every moment, whenever the search stops:
//! at the gap, at the time limit, at the tree's own budget, or when the
//! caller cancels.
//!
//! A model's [`Tree`] says what a node is, how it is expanded (which may
//! improve the incumbent) and how its best answer so far is shown; the
//! engine owns the order, the stopping rules and the bound.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use web_time::{Duration, Instant};

use crate::core::domain::error::Error;
use crate::core::solving::progress::Progress;

/// A search tree, as the engine sees it.
pub trait Tree {
    /// An open node.
    type Node;

    /// The node's lower bound on every answer in its subtree.
    fn bound(node: &Self::Node) -> f64;

    /// The node's depth (among equal bounds the deepest is expanded first).
    fn depth(node: &Self::Node) -> usize;

    /// The incumbent's value (`∞` while there is none).
    fn incumbent(&self) -> f64;

    /// Expands `node` into its children, each with its bound; may improve
    /// the incumbent. `cutoff` is the value a child must be below to be
    /// worth keeping, as it stood before this expansion.
    ///
    /// # Errors
    ///
    /// The tree's own (an LP that fails).
    fn expand(&mut self, node: Self::Node, cutoff: f64) -> Result<Vec<Self::Node>, Error>;

    /// Whether the tree's own budget (e.g. of LPs) is spent.
    fn spent(&self) -> bool {
        false
    }

    /// The share of the tree's own budget used, in `[0, 1]`, for the
    /// progress bar: a search whose gap stalls while it spends its budget
    /// (LPs) still moves the bar. None by default.
    fn budget_used(&self) -> f64 {
        0.0
    }

    /// Shows the best answer so far with the proven lower bound `bound`, as
    /// a provisional answer (a page keeps it if the search is stopped).
    fn show(&mut self, _bound: f64, _progress: &mut dyn Progress) {}
}

/// When a search stops.
#[derive(Debug, Clone, Copy)]
pub struct Stop {
    /// The relative gap that is good enough.
    pub gap: f64,
    /// The time limit.
    pub deadline: Option<Instant>,
    /// What the progress reports say is being computed.
    pub what: &'static str,
}

/// How far a search is, for a progress bar, from three shares: the orders
/// of magnitude by which the gap has closed of those between the first gap
/// and the gap asked for (a gap falls by orders of magnitude, so `1 − gap`
/// would sit at 99 % from a 1 % gap on), the share of the time limit
/// spent, and the share of the tree's own budget used. The search ends
/// when any of them is full, so what is left is the product of what each
/// leaves: every share moves the bar (the furthest alone sat at the gap's
/// 23 % for seconds while LPs were spent); below 1 until the search ends.
struct Done {
    target: f64,
    first: Option<f64>,
    started: Instant,
    deadline: Option<Instant>,
}

impl Done {
    fn new(stop: &Stop) -> Done {
        Done {
            target: stop.gap.max(1e-9),
            first: None,
            started: Instant::now(),
            deadline: stop.deadline,
        }
    }

    /// The share done with this incumbent and least bound, `budget` of
    /// the tree's own budget used.
    fn at(&mut self, incumbent: f64, least: f64, budget: f64) -> f64 {
        let gap = (incumbent - least) / incumbent.abs();
        let by_gap = if gap.is_finite() && gap > 0.0 {
            let first = *self.first.get_or_insert(gap.max(self.target * 10.0));
            ((first / gap).ln() / (first / self.target).ln()).max(0.0)
        } else if gap.is_finite() {
            1.0
        } else {
            0.0
        };
        let by_time = self.deadline.map_or(0.0, |end| {
            let total = end.saturating_duration_since(self.started).as_secs_f64();
            self.started.elapsed().as_secs_f64() / total.max(1e-9)
        });
        let left = |share: f64| {
            if share.is_finite() {
                1.0 - share.clamp(0.0, 1.0)
            } else {
                1.0
            }
        };
        (1.0 - left(by_gap) * left(by_time) * left(budget)).clamp(0.0, 0.99)
    }
}

/// Why a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The gap is at most the one asked (every node expanded or dropped).
    Complete,
    /// The tree's own budget was spent.
    Budget,
    /// The time limit passed.
    Time,
    /// The caller asked to stop.
    Cancelled,
}

/// How a search ended.
#[derive(Debug, Clone, Copy)]
pub struct Ended {
    /// A lower bound on every answer (at most the incumbent's value).
    pub bound: f64,
    /// Why it stopped.
    pub ending: Ending,
    /// Nodes expanded.
    pub nodes: u64,
}

/// How often the best answer so far is shown while it improves, and at
/// most how long it goes unshown while only the bound rises.
const SHOW_EVERY: Duration = Duration::from_millis(250);
const SHOW_AT_LEAST_EVERY: Duration = Duration::from_secs(1);

/// Whether a bound is close enough to the incumbent: within the relative
/// `gap`, with a slack of `1e-12` relative for rounding (ties).
pub fn good_enough(bound: f64, incumbent: f64, gap: f64) -> bool {
    bound >= incumbent * (1.0 - gap) - 1e-12 * incumbent.abs()
}

/// The machine whose box of chunk counts to split: of those whose relaxed
/// number of remaining chunks `counts[i]` is fractional and whose relaxed
/// load `loads[i]` (in chunks' worth of in-core load) needs the fraction
/// (more than `⌊k⌋` chunks hold, at most `⌈k⌉`), the one furthest from a
/// whole number. Shared by the searches that box chunk counts (M5, M7).
pub fn fractional_count(counts: &[f64], loads: &[f64]) -> Option<usize> {
    let distance = |k: f64| (k - k.round()).abs();
    (0..counts.len().min(loads.len()))
        .filter(|&i| distance(counts[i]) > 1e-6)
        .filter(|&i| loads[i] > counts[i].floor() + 1e-9 && loads[i] <= counts[i].ceil() + 1e-9)
        .max_by(|&a, &b| distance(counts[a]).total_cmp(&distance(counts[b])))
}

/// Whether splitting a node of bound `parent` into two parts of bounds
/// `parts` pays for their LPs: one part is pruned at `cutoff`, or the lesser
/// bound has risen by more than rounding (otherwise the node branches as
/// usual and the two LPs are lost).
pub fn split_pays(parent: f64, parts: [f64; 2], cutoff: f64) -> bool {
    let (least, most) = (parts[0].min(parts[1]), parts[0].max(parts[1]));
    most >= cutoff || least - parent > 1e-6 * (cutoff - parent).abs()
}

/// An open node in the heap: least bound first, deeper first on ties.
struct Open<N> {
    bound: f64,
    depth: usize,
    node: N,
}

impl<N> PartialEq for Open<N> {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl<N> Eq for Open<N> {}

impl<N> PartialOrd for Open<N> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<N> Ord for Open<N> {
    /// The heap is a max-heap: the least bound is the greatest.
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .bound
            .total_cmp(&self.bound)
            .then(self.depth.cmp(&other.depth))
    }
}

fn open<T: Tree>(node: T::Node) -> Open<T::Node> {
    Open {
        bound: T::bound(&node),
        depth: T::depth(&node),
        node,
    }
}

/// Searches `tree` from `roots`, best first, until `stop`. `dropped` is a
/// lower bound on the answers the roots leave out (`∞` when none).
///
/// # Errors
///
/// The tree's, from [`Tree::expand`].
pub fn best_first<T: Tree>(
    tree: &mut T,
    roots: Vec<T::Node>,
    mut dropped: f64,
    stop: &Stop,
    progress: &mut dyn Progress,
) -> Result<Ended, Error> {
    let mut heap: BinaryHeap<Open<T::Node>> = roots.into_iter().map(open::<T>).collect();
    let (mut nodes, mut ending) = (0u64, Ending::Complete);
    // Shown: when, and the incumbent then (a new one is shown sooner).
    let (mut shown_at, mut shown) = (Instant::now(), f64::NAN);
    let mut bound = f64::INFINITY;
    let mut done = Done::new(stop);
    while let Some(next) = heap.pop() {
        let least = next.bound.min(dropped);
        let incumbent = tree.incumbent();
        bound = least;
        if good_enough(least, incumbent, stop.gap) {
            break;
        }
        ending = if tree.spent() {
            Ending::Budget
        } else if stop.deadline.is_some_and(|d| Instant::now() >= d) {
            Ending::Time
        } else {
            if progress.report(done.at(incumbent, least, tree.budget_used()), stop.what) {
                Ending::Complete
            } else {
                Ending::Cancelled
            }
        };
        if ending != Ending::Complete {
            break;
        }
        let since = shown_at.elapsed();
        let improved = incumbent != shown && incumbent.is_finite();
        if improved && since >= SHOW_EVERY || since >= SHOW_AT_LEAST_EVERY {
            tree.show(least, progress);
            (shown_at, shown) = (Instant::now(), incumbent);
        }
        nodes += 1;
        let cutoff = incumbent * (1.0 - stop.gap);
        let children = tree.expand(next.node, cutoff)?;
        let incumbent = tree.incumbent();
        for child in children {
            let child = open::<T>(child);
            if good_enough(child.bound, incumbent, stop.gap) {
                dropped = dropped.min(child.bound);
            } else {
                heap.push(child);
            }
        }
        bound = f64::INFINITY;
    }
    Ok(Ended {
        bound: bound.min(dropped).min(tree.incumbent()),
        ending,
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A closing gap moves the bar by orders of magnitude: it does not sit
    /// at 99 % once the gap is below 1 %, and it grows as the gap closes.
    #[test]
    fn progress_follows_the_gap_by_orders_of_magnitude() {
        let stop = Stop {
            gap: 1e-9,
            deadline: None,
            what: "test",
        };
        let mut done = Done::new(&stop);
        let shares: Vec<f64> = [1e-1, 1e-2, 1e-4, 1e-6, 1e-8]
            .iter()
            .map(|gap| done.at(100.0, 100.0 * (1.0 - gap), 0.0))
            .collect();
        assert!(shares.windows(2).all(|w| w[0] < w[1]), "{shares:?}");
        assert!(
            shares[1] < 0.2 && shares[2] < 0.5 && shares[4] < 0.99,
            "{shares:?}"
        );
        assert_eq!(done.at(100.0, 100.0, 0.0), 0.99);
        assert_eq!(Done::new(&stop).at(f64::INFINITY, 1.0, 0.0), 0.0);
    }

    /// A gap that stalls while the budget is spent: the bar follows the
    /// budget (it sat at the gap's share while LPs rose).
    #[test]
    fn progress_follows_the_budget_when_the_gap_stalls() {
        let stop = Stop {
            gap: 1e-9,
            deadline: None,
            what: "test",
        };
        let mut done = Done::new(&stop);
        done.at(100.0, 80.0, 0.0);
        let stalled = done.at(100.0, 90.0, 0.0);
        let shares: Vec<f64> = [0.1, 0.4, 0.7, 1.0]
            .iter()
            .map(|&used| done.at(100.0, 90.0, used))
            .collect();
        assert!(stalled > 0.0 && stalled < 0.5, "{stalled}");
        // What is left is what the gap leaves times what the budget leaves.
        for (share, used) in shares.iter().zip([0.1, 0.4, 0.7]) {
            let want = 1.0 - (1.0 - stalled) * (1.0 - used);
            assert!((share - want).abs() < 1e-12, "{shares:?}");
        }
        assert!(shares.windows(2).all(|w| w[0] < w[1]), "{shares:?}");
        assert_eq!(shares[3], 0.99, "below 1 until the search ends");
        assert_eq!(done.at(100.0, 90.0, f64::NAN), stalled);
    }
}
