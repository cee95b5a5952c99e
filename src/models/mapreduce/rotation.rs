//! The rotating-groups pattern and its LP (`[1]`'s (4)–(7) for our
//! pattern).
//!
//! With `ℓ' = min(ℓ, r, m)`, the mappers in index order form groups of `ℓ'`
//! (the first group takes the remainder). Group `g` sends in `r` rounds of
//! length `L_g` from `s_g`; in round `q` its `p`-th mapper sends to reducer
//! `(p + q) mod r`, so in the first rounds the earliest-ready reducers are
//! served first. The LP, in scaled units (chunks in units of `V/m`, time in
//! units of `(A + Cγ)V/m + (m + r)S`):
//!
//! ```text
//! minimize  s_G + r L_G
//!   (k+1)S + A α_k ≤ s_g          every mapper k of group g
//!   Cγ α_k / r     ≤ L_g
//!   s_g + r L_g    ≤ s_{g+1}
//!   s_1 + q L_1    ≥ ready of the reducers in round q of the first group
//!   Σ α_k = V,  α ≥ 0
//! ```
//!
//! Later groups need no readiness rows: some round of the first group uses
//! the last reducer, so the second group starts after every reducer is
//! ready.
//!
//! # With one reducer, the mapper order is optimal
//!
//! With `r = 1` every group is one mapper and the LP is "the reducer
//! receives the pieces in mapper order". Take any schedule in which the
//! reducer receives from mapper `k` in `[t, t + cα_k]` and next from an
//! earlier-ready mapper `i < k` in `[t', t' + cα_i]` (`c = Cγ`,
//! `t' ≥ t + cα_k`). Give `i` the chunk `α_k + δ` and `k` the chunk
//! `α_i − δ`, with `δ = max(0, (kS + Aα_i − t')/(A + c))`; receive `i`
//! from `t` and then `k` from `max(t + c(α_k + δ), t' + cδ)`. Mapper `i` is
//! done in time: `iS + A(α_k + δ) ≤ t` because
//! `δ ≤ (k−i)S/(A + c) < (k−i)S/A` and `t ≥ kS + Aα_k`. Mapper `k` is done
//! in time: `kS + A(α_i − δ) ≤ t' + cδ` by the choice of `δ` (and
//! `δ ≤ α_i` since `t' ≥ kS`). The pair ends by
//! `max(t + c(α_k + α_i), t' + cα_i) = t' + cα_i` (as `t' ≥ t + cα_k`),
//! when the old pair ended. Nothing else moves and the inversion is gone,
//! so repeating it sorts any optimal schedule into mapper order.

use super::shuffle::{normalised, Shuffle, Transfer};
use super::Job;
use crate::core::domain::error::Error;
use crate::core::solving::lp::{Cmp, Problem, Var};

/// The groups of mappers, as index ranges, first (possibly smaller) group
/// first.
pub fn groups(job: &Job) -> Vec<std::ops::Range<usize>> {
    let (m, l) = (job.mappers, job.channels);
    let first = match m % l {
        0 => l,
        rest => rest,
    };
    let mut ranges = Vec::with_capacity(m / l + 1);
    ranges.push(0..first);
    let mut start = first;
    while start < m {
        ranges.push(start..start + l);
        start += l;
    }
    ranges
}

/// The reducer that the `p`-th mapper of a group serves in round `q`.
pub fn reducer_of(job: &Job, p: usize, q: usize) -> usize {
    (p + q) % job.reducers
}

/// The latest ready time of the reducers served in round `q` by a group of
/// `size` mappers.
fn round_ready(job: &Job, size: usize, q: usize) -> f64 {
    let last = if q + size - 1 < job.reducers {
        q + size - 1
    } else {
        job.reducers - 1
    };
    job.reducer_ready(last)
}

/// Up to this many mappers the LP has a column per mapper; above, every
/// mapper of a group gets the same chunk and the split is found by
/// [`equal_in_groups`] (the LP restricted to equal chunks per group, solved
/// exactly without an LP solver).
pub const LP_MAPPERS: usize = 64;

/// The rotating-groups schedule with its split, and a time the shuffle
/// provably cannot end before when `r = 1` (the pattern is then optimal).
///
/// # Errors
///
/// None today (an LP that fails leaves the exact one-chunk-per-group
/// split); kept fallible for patterns to come.
pub fn rotation(job: &Job) -> Result<(Shuffle, f64), Error> {
    let groups = groups(job);
    let (sizes, floor) = equal_in_groups(job, &groups);
    let mut best = timed(job, &groups, sizes);
    if job.mappers <= LP_MAPPERS {
        // An LP the solver cannot take (coefficients far apart) leaves the
        // one-chunk-per-group split, which is never worse than nothing.
        if let Ok(sizes) = per_mapper(job, &groups) {
            let lp = timed(job, &groups, sizes);
            if lp.makespan < best.makespan {
                best = lp;
            }
        }
    }
    Ok((best, floor))
}

/// The split with the same chunk for every mapper of a group, and the end
/// of the shuffle found (rounded down: a lower bound for this split).
///
/// For a deadline `E` we take the groups from the last: each gets the
/// largest chunk with which it maps and sends by the deadline (and its
/// rounds start after their reducers are ready), and its start is the next
/// group's deadline; the least `E` that carries `V` is found by bisection.
/// Taking the most for the later group is optimal: if `F(t)` is the load the
/// groups before can carry by `t`, then `F'(t) ≤ n/(Cγ)` for groups of at
/// most `n` mappers (by induction: a group's chunk grows by `1/(A + Cγ)` per
/// unit of deadline and moves its start by `A/(A + Cγ)`, so
/// `F' ≤ n/(A + Cγ) + (n/(Cγ))·A/(A + Cγ) = n/(Cγ)`), so giving `δ` less to a
/// group of `n` frees `Cγδ` of time worth at most `nδ` before it. (The
/// readiness of the first rounds can bind with a steeper slope; there the
/// split is still valid, only perhaps not the best of the pattern.)
pub fn equal_in_groups(job: &Job, groups: &[std::ops::Range<usize>]) -> (Vec<f64>, f64) {
    let send = job.rate * job.gamma;
    let r = job.reducers as f64;
    let carry = |deadline: f64, loads: &mut Vec<f64>| -> f64 {
        let mut t = deadline;
        let mut total = 0.0;
        for (g, range) in groups.iter().enumerate().rev() {
            let n = range.len();
            let last_ready = job.mapper_ready(range.end - 1);
            let mut alpha = (t - last_ready) / (job.map + send);
            // Round q starts at t − (r − q)·L with L = sendα/r.
            for q in 0..job.reducers {
                let ready = round_ready(job, n, q);
                let room = t - ready;
                let bound = if send > 0.0 {
                    room * r / ((r - q as f64) * send)
                } else if room >= 0.0 {
                    f64::INFINITY
                } else {
                    -1.0
                };
                alpha = alpha.min(bound);
                if q + n >= job.reducers {
                    // Later rounds serve the last reducer too: no tighter.
                    break;
                }
            }
            let alpha = alpha.max(0.0);
            loads[g] = alpha;
            total += n as f64 * alpha;
            t -= send * alpha;
        }
        total
    };
    let mut loads = vec![0.0; groups.len()];
    let mut low = 0.0_f64;
    let mut high = job.reducer_ready(job.reducers)
        + (job.map + send) * job.load
        + job.mapper_ready(job.mappers);
    while carry(high, &mut loads) < job.load && high.is_finite() {
        high *= 2.0;
    }
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if mid <= low || mid >= high || high - low <= 1e-13 * high {
            break;
        }
        if carry(mid, &mut loads) >= job.load {
            high = mid;
        } else {
            low = mid;
        }
    }
    carry(high, &mut loads);
    let mut sizes = vec![0.0; job.mappers];
    for (range, &alpha) in groups.iter().zip(&loads) {
        sizes[range.clone()].fill(alpha);
    }
    (normalised(sizes, job.load), low)
}

/// `[1]`'s LP (4)–(7) for the pattern, with a column per mapper.
fn per_mapper(job: &Job, groups: &[std::ops::Range<usize>]) -> Result<Vec<f64>, Error> {
    let (m, r) = (job.mappers as f64, job.reducers as f64);
    let unit = job.load / m;
    let time = (job.map + job.rate * job.gamma) * unit + (m + r) * job.startup;
    let mut lp = Problem::new();
    let alpha: Vec<Var> = (0..job.mappers)
        .map(|_| lp.add_var(0.0, 0.0, f64::INFINITY))
        .collect();
    let last = groups.len() - 1;
    let mut starts = Vec::with_capacity(groups.len());
    let mut lengths = Vec::with_capacity(groups.len());
    for g in 0..groups.len() {
        let end_cost = if g == last { 1.0 } else { 0.0 };
        starts.push(lp.add_var(end_cost, 0.0, f64::INFINITY));
        lengths.push(lp.add_var(end_cost * r, 0.0, f64::INFINITY));
    }
    let map = job.map * unit / time;
    let send = job.rate * job.gamma * unit / r / time;
    for (g, range) in groups.iter().enumerate() {
        for k in range.clone() {
            let ready = job.mapper_ready(k) / time;
            lp.add_constraint(&[(alpha[k], map), (starts[g], -1.0)], Cmp::Le, -ready);
            if send > 0.0 {
                lp.add_constraint(&[(alpha[k], send), (lengths[g], -1.0)], Cmp::Le, 0.0);
            }
        }
        if g < last {
            lp.add_constraint(
                &[(starts[g], 1.0), (lengths[g], r), (starts[g + 1], -1.0)],
                Cmp::Le,
                0.0,
            );
        }
    }
    let first = groups[0].len();
    for q in 0..job.reducers {
        let ready = round_ready(job, first, q) / time;
        lp.add_constraint(&[(starts[0], 1.0), (lengths[0], q as f64)], Cmp::Ge, ready);
    }
    let all: Vec<(Var, f64)> = alpha.iter().map(|&a| (a, 1.0)).collect();
    lp.add_constraint(&all, Cmp::Eq, m);
    let solution = lp.solve()?;
    let sizes = alpha.iter().map(|&a| solution[a] * unit).collect();
    Ok(normalised(sizes, job.load))
}

/// The earliest times of the pattern for chunks `sizes`: each round starts
/// when the previous one has ended, its mappers have mapped and its
/// reducers are ready, and lasts as long as its largest piece.
pub fn timed(job: &Job, groups: &[std::ops::Range<usize>], sizes: Vec<f64>) -> Shuffle {
    let mut transfers = Vec::with_capacity(job.mappers * job.reducers);
    let mut clock = 0.0_f64;
    for range in groups {
        let mapped = range
            .clone()
            .map(|k| job.mapper_ready(k) + job.map * sizes[k])
            .fold(0.0, f64::max);
        let length = range
            .clone()
            .map(|k| job.transfer_time(sizes[k]))
            .fold(0.0, f64::max);
        clock = clock.max(mapped);
        for q in 0..job.reducers {
            let start = clock.max(round_ready(job, range.len(), q));
            for (p, k) in range.clone().enumerate() {
                if sizes[k] > 0.0 {
                    transfers.push(Transfer {
                        mapper: k,
                        reducer: reducer_of(job, p, q),
                        start,
                        end: start + job.transfer_time(sizes[k]),
                    });
                }
            }
            clock = start + length;
        }
    }
    Shuffle::finish(job, sizes, transfers)
}
