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

use std::cmp::{Ordering, Reverse};
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
            // cannot fail: `r % 64 != 0` means `r > 0`, so there is a word.
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

    fn count(&self) -> usize {
        self.0.iter().map(|w| w.count_ones() as usize).sum()
    }

    fn has(&self, j: usize) -> bool {
        self.0[j / 64] & (1 << (j % 64)) != 0
    }

    /// The items in the set, in order.
    fn items(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    w * 64 + b
                })
            })
        })
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

impl Turn {
    /// Where mapper `k` starts its turn through `r` reducers.
    fn start(self, k: usize, r: usize) -> usize {
        if self.own_start {
            k % r
        } else {
            0
        }
    }
}

/// For each reducer, the next mapper from a given one that still owes it:
/// a union-find over the mappers per reducer (a mapper that has paid
/// points past itself), so a search skips every mapper that has sent
/// already at almost no cost.
#[derive(Debug)]
struct Owing {
    mappers: usize,
    parent: Vec<u32>,
}

impl Owing {
    fn new(m: usize, r: usize) -> Owing {
        let row = m + 1;
        Owing {
            mappers: m,
            parent: (0..r * row).map(|i| (i % row) as u32).collect(),
        }
    }

    /// The first mapper at or after `k` that owes reducer `j` (`m` if none).
    fn next(&mut self, j: usize, k: usize) -> usize {
        let base = j * (self.mappers + 1);
        let mut x = k;
        while self.parent[base + x] as usize != x {
            let up = self.parent[base + x] as usize;
            self.parent[base + x] = self.parent[base + up];
            x = up;
        }
        x
    }

    /// Mapper `k` has sent to reducer `j`.
    fn paid(&mut self, j: usize, k: usize) {
        self.parent[j * (self.mappers + 1) + k] = (k + 1) as u32;
    }
}

/// How many waiting mappers a moment scans in index order before it looks
/// from the reducers' side.
const SCAN: usize = 64;

/// Adds to `ready` (up to `channels` pairs) the waiting mappers from
/// `from` on in index order, each with the reducer `choose` gives it among
/// `free`, when `first_owing(j, from)` is the first waiting mapper from
/// `from` that owes reducer `j`.
fn pick_by_reducer(
    ready: &mut Vec<(usize, usize)>,
    channels: usize,
    from: usize,
    free: &mut Bits,
    first_owing: &mut dyn FnMut(usize, usize) -> Option<usize>,
    choose: impl Fn(usize, &Bits) -> Option<usize>,
) {
    let mut heap: BinaryHeap<Reverse<(usize, usize)>> = free
        .items()
        .filter_map(|j| first_owing(j, from).map(|k| Reverse((k, j))))
        .collect();
    let mut last = None;
    while ready.len() < channels {
        let Some(Reverse((k, j))) = heap.pop() else {
            break;
        };
        if !free.has(j) {
            continue;
        }
        if last.is_none_or(|l| k > l) {
            // cannot fail: `k` is the first waiting mapper that owes `j`,
            // and `j` is still free: `k` may take at least `j`.
            let taken = choose(k, free).expect("k owes the free reducer j");
            free.clear(taken);
            ready.push((k, taken));
            last = Some(k);
            if taken == j {
                continue;
            }
        }
        // k is taken and j still free: j's next candidate.
        if let Some(next) = first_owing(j, k + 1) {
            heap.push(Reverse((next, j)));
        }
    }
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
    // cannot fail: the loops make four schedules and keep the first.
    best.expect("four schedules")
}

/// The mappers' side of the simulation: what each still owes, which are
/// waiting to send, and how they pick a reducer.
struct Senders {
    turn: Turn,
    reducers: usize,
    /// The reducers each mapper has not sent to yet.
    owed: Vec<Bits>,
    /// How many.
    left: Vec<usize>,
    /// Waiting to send (mapped, not sending, owing), also in index order.
    waiting: Vec<bool>,
    in_order: BTreeSet<usize>,
    /// Strictly in turn: the waiting mappers by the reducer they wait for.
    by_next: Vec<BTreeSet<usize>>,
    /// Else: for each reducer, the mappers that still owe it, so a moment
    /// looks only at the free reducers and, for each, skips at most the
    /// mappers sending or already picked.
    owing: Owing,
}

impl Senders {
    fn new(m: usize, r: usize, turn: Turn) -> Senders {
        Senders {
            turn,
            reducers: r,
            owed: vec![Bits::full(r); m],
            left: vec![r; m],
            waiting: vec![false; m],
            in_order: BTreeSet::new(),
            by_next: vec![BTreeSet::new(); if turn.strict { r } else { 0 }],
            owing: if turn.strict {
                Owing::new(0, 0)
            } else {
                Owing::new(m, r)
            },
        }
    }

    /// Where mapper `k` starts its turn through the reducers.
    fn first(&self, k: usize) -> usize {
        self.turn.start(k, self.reducers)
    }

    /// The reducer mapper `k` sends to next when strictly in turn.
    fn next(&self, k: usize) -> usize {
        (self.first(k) + self.reducers - self.left[k]) % self.reducers
    }

    /// Mapper `k` waits to send.
    fn wait(&mut self, k: usize) {
        self.waiting[k] = true;
        self.in_order.insert(k);
        if self.turn.strict {
            let j = self.next(k);
            self.by_next[j].insert(k);
        }
    }

    /// Mapper `k` starts sending to reducer `j`.
    fn send(&mut self, k: usize, j: usize) {
        if self.turn.strict {
            self.by_next[j].remove(&k);
        } else {
            self.owing.paid(j, k);
        }
        self.waiting[k] = false;
        self.in_order.remove(&k);
        self.owed[k].clear(j);
        self.left[k] -= 1;
    }

    /// The pairs to start now, at most `channels`: the waiting mappers in
    /// index order, each taking a reducer of `free` it may take; `mapped`
    /// mappers have mapped so far.
    /// (Into `ready`, reused from moment to moment.)
    fn pick(
        &mut self,
        free: &Bits,
        channels: usize,
        mapped: usize,
        ready: &mut Vec<(usize, usize)>,
    ) {
        ready.clear();
        if self.turn.strict {
            self.pick_strictly(free, channels, ready);
        } else {
            self.pick_first_free(free, channels, mapped, ready);
        }
    }

    /// From whichever side is shorter: the free reducers (each with the
    /// first mapper waiting for it) or the waiting mappers in index order
    /// (each with the reducer it waits for); the same pairs either way.
    fn pick_strictly(&self, free: &Bits, channels: usize, ready: &mut Vec<(usize, usize)>) {
        if free.count() <= self.in_order.len() {
            for j in free.items() {
                if let Some(&k) = self.by_next[j].first() {
                    ready.push((k, j));
                }
            }
            ready.sort_unstable();
            ready.truncate(channels);
        } else {
            let mut free_now = free.clone();
            for &k in &self.in_order {
                if ready.len() == channels {
                    break;
                }
                let j = self.next(k);
                if free_now.has(j) {
                    free_now.clear(j);
                    ready.push((k, j));
                }
            }
        }
    }

    /// The first waiting mappers in index order (usually one of them takes
    /// what is free), then from the free reducers, each with its first
    /// waiting mapper after those that still owes it, smallest first (the
    /// same choices, without scanning every mapper).
    fn pick_first_free(
        &mut self,
        free: &Bits,
        channels: usize,
        mapped: usize,
        ready: &mut Vec<(usize, usize)>,
    ) {
        let mut free_now = free.clone();
        let mut scanned_to = 0;
        let mut scanned_all = true;
        for (i, &k) in self.in_order.iter().enumerate() {
            if ready.len() == channels || free_now.count() == 0 {
                break;
            }
            if i == SCAN {
                scanned_all = false;
                break;
            }
            if let Some(j) = self.owed[k].first_common(&free_now, self.first(k)) {
                free_now.clear(j);
                ready.push((k, j));
            }
            scanned_to = k + 1;
        }
        if !scanned_all {
            let Senders {
                owing,
                waiting,
                owed,
                ..
            } = self;
            let (turn, r) = (self.turn, self.reducers);
            let mut first_owing = |j, from| {
                let mut k = owing.next(j, from);
                while k < mapped && !waiting[k] {
                    k = owing.next(j, k + 1);
                }
                (k < mapped).then_some(k)
            };
            let choose = |k: usize, free: &Bits| owed[k].first_common(free, turn.start(k, r));
            pick_by_reducer(
                ready,
                channels,
                scanned_to,
                &mut free_now,
                &mut first_owing,
                choose,
            );
        }
    }
}

/// The equal split, sent as soon as possible, each mapper taking the
/// reducers in turn as `turn` says.
pub fn list_schedule_with(job: &Job, turn: Turn) -> Shuffle {
    let (m, r) = (job.mappers, job.reducers);
    let alpha = job.load / m as f64;
    let length = job.transfer_time(alpha);
    let mut senders = Senders::new(m, r, turn);
    let mut clock = Clock::new(job, alpha);
    let mut transfers = Vec::with_capacity(m * r);
    let mut ready = Vec::new();
    while let Some(now) = clock.next() {
        for k in clock.arrivals(now, &senders.left) {
            senders.wait(k);
        }
        senders.pick(&clock.free, clock.channels, clock.next_mapper, &mut ready);
        for &(k, j) in &ready {
            senders.send(k, j);
            clock.start(k, j, now + length);
            transfers.push(Transfer {
                mapper: k,
                reducer: j,
                start: now,
                end: now + length,
            });
        }
    }
    Shuffle::finish(job, vec![alpha; m], transfers)
}

/// The shuffle's events: mappers done mapping, reducers ready, transfers
/// ending; and what is free between them (reducers and channels).
struct Clock<'j> {
    job: &'j Job,
    /// When the first mapper has mapped its chunk; each next one a start-up
    /// later.
    mapped: f64,
    /// The next mapper to finish mapping.
    next_mapper: usize,
    /// The next reducer to become ready.
    next_reducer: usize,
    /// The transfers under way, by their end.
    moments: BinaryHeap<Moment>,
    /// The reducers ready and not receiving.
    free: Bits,
    /// The channels not in use.
    channels: usize,
}

impl<'j> Clock<'j> {
    fn new(job: &'j Job, alpha: f64) -> Self {
        Clock {
            job,
            mapped: job.mapper_ready(0) + job.map * alpha,
            next_mapper: 0,
            next_reducer: 0,
            moments: BinaryHeap::new(),
            free: Bits::empty(job.reducers),
            channels: job.channels,
        }
    }

    /// When mapper `k` has mapped its chunk.
    fn mapper_done(&self, k: usize) -> f64 {
        self.mapped + k as f64 * self.job.startup
    }

    /// The time of the next event (`None`: the shuffle is over).
    fn next(&self) -> Option<f64> {
        let (m, r) = (self.job.mappers, self.job.reducers);
        let now = [
            (self.next_mapper < m).then(|| self.mapper_done(self.next_mapper)),
            (self.next_reducer < r).then(|| self.job.reducer_ready(self.next_reducer)),
            self.moments.peek().map(|t| t.0),
        ]
        .into_iter()
        .flatten()
        .fold(f64::INFINITY, f64::min);
        (now != f64::INFINITY).then_some(now)
    }

    /// Everything that happens by `now`: the reducers ready are free, and
    /// each ended transfer frees its channel and reducer. The mappers that
    /// start waiting to send: those that have mapped, then those whose
    /// transfer ended and that still owe (`left`) a reducer.
    fn arrivals(&mut self, now: f64, left: &[usize]) -> Vec<usize> {
        let (m, r) = (self.job.mappers, self.job.reducers);
        let mut woke = Vec::new();
        while self.next_mapper < m && self.mapper_done(self.next_mapper) <= now {
            woke.push(self.next_mapper);
            self.next_mapper += 1;
        }
        while self.next_reducer < r && self.job.reducer_ready(self.next_reducer) <= now {
            self.free.set(self.next_reducer);
            self.next_reducer += 1;
        }
        while let Some(&Moment(at, mapper, reducer)) = self.moments.peek() {
            if at > now {
                break;
            }
            self.moments.pop();
            self.channels += 1;
            self.free.set(reducer);
            if left[mapper] > 0 {
                woke.push(mapper);
            }
        }
        woke
    }

    /// Mapper `k` sends to reducer `j` until `end`, on a channel of its own.
    fn start(&mut self, k: usize, j: usize, end: f64) {
        self.free.clear(j);
        self.channels -= 1;
        self.moments.push(Moment(end, k, j));
    }
}
