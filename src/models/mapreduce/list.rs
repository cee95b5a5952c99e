//! The simple schedule of the model reference: equal split, and each mapper,
//! as soon as it has mapped, sends to the reducers in turn whenever it, the
//! reducer and a channel are free.
//!
//! It is an event simulation. At each moment something ends (a mapping, a
//! transfer) the waiting mappers are taken in index order (the earliest
//! started first); each starts a transfer to a free reducer it still owes,
//! while a channel is free. "In turn" can be read four ways, and we try
//! them all and keep the shortest: each mapper goes through the reducers
//! from reducer 0 or from its own `k mod r` (so the mappers do not all
//! queue for reducer 0), and either strictly in that order (waiting for its
//! next reducer) or to the first free one it owes in that order.

use std::cmp::Ordering;
use std::collections::{BTreeSet, BinaryHeap};

use super::shuffle::{Shuffle, Transfer};
use super::Job;

/// A transfer ending: when, its mapper and its reducer; earliest first in
/// a max-heap.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Moment(f64, usize, usize);

impl Eq for Moment {}

impl PartialOrd for Moment {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Moment {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.total_cmp(&self.0)
    }
}

/// Which of `r` items are in a set, 64 to a word.
#[derive(Debug, Clone)]
struct Bits(Vec<u64>);

impl Bits {
    fn full(r: usize) -> Bits {
        let mut words = vec![u64::MAX; r.div_ceil(64)];
        if r % 64 != 0 {
            *words.last_mut().expect("r > 0") = (1u64 << (r % 64)) - 1;
        }
        Bits(words)
    }

    fn empty(r: usize) -> Bits {
        Bits(vec![0; r.div_ceil(64)])
    }

    fn set(&mut self, j: usize) {
        self.0[j / 64] |= 1 << (j % 64);
    }

    fn clear(&mut self, j: usize) {
        self.0[j / 64] &= !(1 << (j % 64));
    }

    fn has(&self, j: usize) -> bool {
        self.0[j / 64] & (1 << (j % 64)) != 0
    }

    fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The first item at or after `from` (cyclically) that is in both sets.
    fn first_common(&self, other: &Bits, from: usize) -> Option<usize> {
        let words = self.0.len();
        let (w0, b0) = (from / 64, from % 64);
        for step in 0..=words {
            let w = (w0 + step) % words;
            let mut both = self.0[w] & other.0[w];
            if step == 0 {
                both &= u64::MAX << b0;
            } else if step == words {
                both &= (1u64 << b0).wrapping_sub(1);
            }
            if both != 0 {
                return Some(w * 64 + both.trailing_zeros() as usize);
            }
        }
        None
    }
}

/// How a mapper takes the reducers in turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    /// From reducer `k mod r` (else from reducer 0).
    pub own_start: bool,
    /// Only its next reducer in order (else the first free one it owes).
    pub strict: bool,
}

/// The equal split, sent as soon as possible: the shortest of the four
/// readings of "in turn".
pub fn list_schedule(job: &Job) -> Shuffle {
    let mut best: Option<Shuffle> = None;
    for own_start in [true, false] {
        for strict in [false, true] {
            let s = list_schedule_with(job, Turn { own_start, strict });
            if best.as_ref().is_none_or(|b| s.makespan < b.makespan) {
                best = Some(s);
            }
        }
    }
    best.expect("four schedules")
}

/// The equal split, sent as soon as possible, each mapper taking the
/// reducers in turn as `turn` says.
pub fn list_schedule_with(job: &Job, turn: Turn) -> Shuffle {
    let (m, r) = (job.mappers, job.reducers);
    let alpha = job.load / m as f64;
    let length = job.transfer_time(alpha);
    let mapped = job.mapper_ready(0) + job.map * alpha;
    let mut owed: Vec<Bits> = vec![Bits::full(r); m];
    let mut left = vec![r; m];
    let mut free = Bits::empty(r);
    let mut waiting: BTreeSet<usize> = BTreeSet::new();
    let mut channels = job.channels;
    let mut moments: BinaryHeap<Moment> = BinaryHeap::new();
    let mut transfers = Vec::with_capacity(m * r);
    let mut next_mapper = 0;
    let mut next_reducer = 0;
    let reducers_ready = |j: usize| job.reducer_ready(j);
    let mapper_done = |k: usize| mapped + k as f64 * job.startup;
    loop {
        let now = [
            (next_mapper < m).then(|| mapper_done(next_mapper)),
            (next_reducer < r).then(|| reducers_ready(next_reducer)),
            moments.peek().map(|t| t.0),
        ]
        .into_iter()
        .flatten()
        .fold(f64::INFINITY, f64::min);
        if now == f64::INFINITY {
            break;
        }
        while next_mapper < m && mapper_done(next_mapper) <= now {
            waiting.insert(next_mapper);
            next_mapper += 1;
        }
        while next_reducer < r && reducers_ready(next_reducer) <= now {
            free.set(next_reducer);
            next_reducer += 1;
        }
        while let Some(&Moment(at, mapper, reducer)) = moments.peek() {
            if at > now {
                break;
            }
            moments.pop();
            channels += 1;
            free.set(reducer);
            if left[mapper] > 0 {
                waiting.insert(mapper);
            }
        }
        let mut started = Vec::new();
        for &k in &waiting {
            if channels == 0 || free.is_empty() {
                break;
            }
            let from = if turn.own_start { k % r } else { 0 };
            let next = if turn.strict {
                // The first reducer it owes in its order, if that one is free.
                owed[k]
                    .first_common(&owed[k], from)
                    .filter(|&j| free.has(j))
            } else {
                owed[k].first_common(&free, from)
            };
            if let Some(j) = next {
                owed[k].clear(j);
                left[k] -= 1;
                free.clear(j);
                channels -= 1;
                started.push(k);
                transfers.push(Transfer {
                    mapper: k,
                    reducer: j,
                    start: now,
                    end: now + length,
                });
                moments.push(Moment(now + length, k, j));
            }
        }
        for k in started {
            waiting.remove(&k);
        }
    }
    Shuffle::finish(job, vec![alpha; m], transfers)
}
