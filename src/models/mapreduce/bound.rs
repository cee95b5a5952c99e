//! A proven lower bound on the shortest `T`.
//!
//! Every reducer reduces `γV/r` in the same time `R = BγV/r` after its last
//! piece, so `T ≥ D + R` where `D` is when the last piece arrives. Three
//! bounds on `D` hold for every split and every shuffle:
//!
//! 1. **The last reducer**: it is ready at `(m+r)S` and receives all of its
//!    `γV/r`, one piece at a time: `D ≥ (m+r)S + CγV/r`.
//! 2. **Each mapper alone**: mapper `k` maps, then sends its `γα_k` one piece
//!    at a time: `D ≥ max_k (k+1)S + (A + Cγ)α_k`, smallest (water-filling)
//!    when every mapper in use ends together.
//! 3. **The tail** (a relaxation: every mapper ready at `S`, which only
//!    helps): sort the mappers by the time they finish mapping, which for
//!    equal ready times is by chunk. The `n` that finish last send all their
//!    data after the first of them finishes (and after the first reducer is
//!    ready at `(m+1)S`) over at most `c_n = min(ℓ', n)` channels:
//!    `D ≥ max(S + Aα_(n), (m+1)S) + Cγ u_n / c_n` with `u_n` the `n` largest
//!    chunks' sum (a row only for a chunk above zero). For a given `D` we
//!    bound the load these rows allow from above by dropping the sorting
//!    (a larger set of vectors): then taking each chunk as large as its row
//!    allows, from the largest down, is optimal, because
//!    `u_n = u_{n-1} + max(0, α_n^max(u_{n-1}))` never falls as `u_{n-1}`
//!    grows (a larger tail shrinks the next chunk by at most what it grew).
//!    The bound is the smallest `D` that allows `V`.
//!
//! Bounds 2 and 3 are found by bisection on `D` to a relative `1e-12`,
//! rounded down.
//!
//! The tail bound lets the data of the tail share the channels freely (a
//! preemptive relaxation that also ignores what the mappers finishing last
//! still owe when an earlier one finishes); on the reference instance it
//! leaves a gap of about 0.2 %, which we believe is mostly the bound's.

use super::Job;

/// A lower bound on `T` for `job`, proven for every split and shuffle.
pub fn lower_bound(job: &Job) -> f64 {
    let reducer =
        job.reducer_ready(job.reducers - 1) + job.rate * job.gamma * job.load / job.reducers as f64;
    let alone = smallest(job, |d| alone_capacity(job, d));
    let tail = smallest(job, |d| tail_capacity(job, d));
    reducer.max(alone).max(tail) + job.reduce_time()
}

/// The smallest `D` (rounded down) at which `capacity(D) ≥ V`.
fn smallest(job: &Job, capacity: impl Fn(f64) -> f64) -> f64 {
    let mut low = 0.0_f64;
    let mut high =
        job.reducer_ready(job.reducers) + (job.map + job.rate * job.gamma) * job.load + 1.0;
    while capacity(high) < job.load {
        high *= 2.0;
        if !high.is_finite() {
            return low;
        }
    }
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high || high - low <= 1e-12 * high {
            break;
        }
        if capacity(mid) >= job.load {
            high = mid;
        } else {
            low = mid;
        }
    }
    low
}

/// The most load the mappers can map and send on their own by `d`.
fn alone_capacity(job: &Job, d: f64) -> f64 {
    let per = job.map + job.rate * job.gamma;
    (0..job.mappers)
        .map(|k| ((d - job.mapper_ready(k)) / per).max(0.0))
        .sum()
}

/// The most load the tail rows allow by `d`.
fn tail_capacity(job: &Job, d: f64) -> f64 {
    let (m, c) = (job.mappers, job.rate * job.gamma);
    let first_reducer = job.reducer_ready(0);
    let mut tail = 0.0_f64;
    for n in 1..=m {
        let channels = n.min(job.channels) as f64;
        let share = c / channels;
        let room = d - share * tail;
        // max(S + Aα, first reducer) + share·α ≤ room
        let by_map = (room - job.startup) / (job.map + share);
        let by_reducer = if share > 0.0 {
            (room - first_reducer) / share
        } else if room >= first_reducer {
            f64::INFINITY
        } else {
            -1.0
        };
        let alpha = by_map.min(by_reducer);
        if alpha > 0.0 {
            tail += alpha;
        }
        if tail >= job.load {
            break;
        }
    }
    tail
}
