//! The online heuristics of `[4]`: SSC and GSS under a sort rule.
//!
//! The originator ranks the machines by the sort rule. Whenever the channel
//! is free it sends the next chunk to the best-ranked idle machine (ready
//! and not computing); when none is idle it waits for the first to become
//! so. A sleeping machine is woken so that it is ready when its first send
//! starts, so it is available from its wake-up time `S` on. It stops when
//! the load is exhausted. Chunk sizes:
//!
//! - **SSC** sends each machine its RAM `ρ_i` (never out of core). **End
//!   balancing** (our rule): once the remaining load `R` fits in one
//!   RAM-sized chunk per machine (`R ≤ Σ ρ_i`), it goes out in one last
//!   round. The machines are taken in the order they become free (ties by
//!   rank), each gets an in-core chunk sized so that it finishes at a
//!   common time `F` given the channel before it, and `F` is the least time
//!   at which these chunks hold `R` (found by bisection; a machine that
//!   cannot finish by `F` gets nothing). So the last machines finish
//!   together as far as the channel allows, instead of one machine taking
//!   a last full chunk while the others idle.
//! - **GSS** sends `max{least, min{ρ_i, R/m}}` (at most `R`), where `m` is
//!   the number of machines and `least` the minimum chunk: the request's,
//!   or by default `max(V/(100 m), 10 O_i/C_i)` (the second term only when
//!   `C_i > 0`), the load whose transfer time is ten times the start-up, so
//!   that start-ups stay a small share of the channel's time.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use super::instance::{default_least, SortRule, Worker};
use super::plan::Plan;
use super::sequence::Solved;
use crate::core::presentation::draw::Draw;

/// How a heuristic sizes its chunks.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Sizing {
    /// A RAM each, balanced at the end.
    Ssc,
    /// Guided self-scheduling, with each machine's least chunk.
    Gss(Vec<f64>),
}

impl Sizing {
    /// GSS with the request's least chunk or the default.
    pub fn gss(workers: &[Worker], load: f64, least: Option<f64>) -> Sizing {
        let m = workers.len() as f64;
        let least = workers
            .iter()
            .map(|w| least.unwrap_or_else(|| default_least(load, m, w.overhead, w.rate)))
            .collect();
        Sizing::Gss(least)
    }
}

/// The machines in order of preference under `rule` (ties by index).
pub(crate) fn ranking(workers: &[Worker], rule: SortRule, seed: u64) -> Vec<usize> {
    let mut order: Vec<usize> = (0..workers.len()).collect();
    let key = |w: &Worker| match rule {
        SortRule::A1 => w.a1,
        SortRule::A2 => w.a2,
        SortRule::Rate => w.rate,
        SortRule::Overhead => w.overhead,
        SortRule::Startup => w.startup,
        SortRule::Idle => w.idle,
        SortRule::Network => w.network,
        SortRule::Compute => w.compute,
        SortRule::Wake => w.wake * w.startup,
        SortRule::Ram => -w.ram(),
        SortRule::Random => 0.0,
    };
    if rule == SortRule::Random {
        // Fisher–Yates: the same seed, the same order, natively and in the
        // browser.
        let mut draw = Draw::new(seed);
        for i in (1..order.len()).rev() {
            order.swap(i, draw.below(i + 1));
        }
    } else {
        order.sort_by(|&a, &b| {
            key(&workers[a])
                .total_cmp(&key(&workers[b]))
                .then(a.cmp(&b))
        });
    }
    order
}

/// A time as a heap key (times are finite and non-negative).
fn key(t: f64) -> u64 {
    t.max(0.0).to_bits()
}

/// The heuristic's schedule of `load` with machines preferred in `order`.
pub(crate) fn simulate(workers: &[Worker], load: f64, order: &[usize], sizing: &Sizing) -> Plan {
    let mut plan = Plan {
        sequence: Vec::new(),
        sizes: Vec::new(),
        starts: Vec::new(),
    };
    let m = workers.len();
    let total_ram: f64 = workers.iter().map(Worker::ram).sum();
    // Busy machines by the time they become free, idle ones by rank.
    let mut busy: BinaryHeap<Reverse<(u64, usize)>> = order
        .iter()
        .enumerate()
        .map(|(rank, &i)| Reverse((key(workers[i].startup), rank)))
        .collect();
    let mut free_at: Vec<f64> = order.iter().map(|&i| workers[i].startup).collect();
    let mut idle: BTreeSet<usize> = BTreeSet::new();
    let (mut channel, mut remaining) = (0.0_f64, load);
    while remaining > 1e-12 * load {
        while let Some(&Reverse((t, rank))) = busy.peek() {
            if f64::from_bits(t) > channel {
                break;
            }
            busy.pop();
            idle.insert(rank);
        }
        if sizing == &Sizing::Ssc && remaining <= total_ram {
            last_round(workers, order, &free_at, channel, remaining, &mut plan);
            return plan;
        }
        let Some(rank) = idle.pop_first() else {
            // cannot fail: every machine is idle or busy until a finite time.
            let Reverse((t, _)) = *busy.peek().expect("a busy machine");
            channel = f64::from_bits(t);
            continue;
        };
        let w = &workers[order[rank]];
        let size = match sizing {
            Sizing::Ssc => w.ram(),
            Sizing::Gss(least) => least[order[rank]].max(w.ram().min(remaining / m as f64)),
        };
        let size = if remaining - size <= 1e-12 * load {
            remaining
        } else {
            size
        };
        plan.sequence.push(order[rank]);
        plan.sizes.push(size);
        plan.starts.push(channel);
        channel += w.send(size);
        free_at[rank] = channel + w.time(size);
        busy.push(Reverse((key(free_at[rank]), rank)));
        remaining -= size;
    }
    plan
}

/// SSC's last round: `remaining` in in-core chunks that end together (see
/// the module docs).
fn last_round(
    workers: &[Worker],
    order: &[usize],
    free_at: &[f64],
    channel: f64,
    remaining: f64,
    plan: &mut Plan,
) {
    let round = LastRound::new(workers, order, free_at, channel);
    let sends = round.trimmed(round.finish(remaining), remaining);
    let mut at = channel;
    for (rank, _, size) in sends.into_iter().filter(|s| s.2 > 0.0) {
        let w = &workers[order[rank]];
        let start = at.max(free_at[rank]);
        plan.sequence.push(order[rank]);
        plan.sizes.push(size);
        plan.starts.push(start);
        at = start + w.send(size);
    }
}

/// The machines of SSC's last round, in the order they become free (ties
/// by rank), each to get one in-core chunk after the channel is free.
struct LastRound<'a> {
    workers: &'a [Worker],
    order: &'a [usize],
    free_at: &'a [f64],
    channel: f64,
    /// Ranks in the order they are served.
    queue: Vec<usize>,
}

impl<'a> LastRound<'a> {
    fn new(workers: &'a [Worker], order: &'a [usize], free_at: &'a [f64], channel: f64) -> Self {
        let mut queue: Vec<usize> = (0..order.len()).collect();
        queue.sort_by(|&a, &b| {
            free_at[a]
                .max(channel)
                .total_cmp(&free_at[b].max(channel))
                .then(a.cmp(&b))
        });
        LastRound {
            workers,
            order,
            free_at,
            channel,
            queue,
        }
    }

    /// The chunks (rank, start, size) that all end by `finish`.
    fn sends(&self, finish: f64) -> Vec<(usize, f64, f64)> {
        let mut at = self.channel;
        let mut sends = Vec::new();
        for &rank in &self.queue {
            let w = &self.workers[self.order[rank]];
            let start = at.max(self.free_at[rank]);
            let size = ((finish - start - w.overhead) / (w.rate + w.a1)).min(w.ram());
            if size > 0.0 {
                sends.push((rank, start, size));
                at = start + w.send(size);
            }
        }
        sends
    }

    /// The load the chunks that end by `finish` hold.
    fn held(&self, finish: f64) -> f64 {
        self.sends(finish).iter().map(|s| s.2).sum::<f64>()
    }

    /// The least common finish (to rounding) at which the chunks hold at
    /// least `remaining`: doubled until they do, then bisected.
    fn finish(&self, remaining: f64) -> f64 {
        let channel = self.channel;
        // Doubling from a step that is not lost in `channel`'s rounding; it
        // ends (a few thousand doublings reach any float), and what rounding
        // leaves short of `remaining` goes to the last chunk (`trimmed`).
        let mut step = 1.0_f64.max(channel.abs() * 1e-12);
        let (mut low, mut high) = (channel, channel + step);
        for _ in 0..4096 {
            if self.held(high) >= remaining || !high.is_finite() {
                break;
            }
            step *= 2.0;
            high = channel + step;
        }
        for _ in 0..200 {
            let mid = 0.5 * (low + high);
            if mid <= low || mid >= high {
                break;
            }
            if self.held(mid) < remaining {
                low = mid;
            } else {
                high = mid;
            }
        }
        high
    }

    /// The chunks at `finish` holding `remaining` exactly.
    fn trimmed(&self, finish: f64, remaining: f64) -> Vec<(usize, f64, f64)> {
        // Trim the chunks at `finish` (which hold at least `remaining`) from
        // the last one back.
        let mut sends = self.sends(finish);
        let mut excess = sends.iter().map(|s| s.2).sum::<f64>() - remaining;
        for s in sends.iter_mut().rev() {
            let cut = excess.min(s.2);
            s.2 -= cut;
            excess -= cut;
        }
        // Rounding may leave the RAMs a hair short of `remaining` (their sum
        // in another order): the last chunk takes it.
        if excess < 0.0 {
            match sends.last_mut() {
                Some(last) => last.2 -= excess,
                None => {
                    let first = self.queue[0];
                    sends.push((first, self.channel.max(self.free_at[first]), remaining));
                }
            }
        }
        sends
    }
}

/// A schedule with where it came from.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub solved: Solved,
    pub algorithm: &'static str,
    pub sort: SortRule,
    pub seconds: f64,
}
