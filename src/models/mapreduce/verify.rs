//! An independent check of a MapReduce schedule.
//!
//! It knows nothing of the patterns: it re-derives every duration from the
//! request and checks the split, every transfer (its length, that its
//! mapper has mapped and its reducer is ready), that each mapper sends and
//! each reducer receives one piece at a time, that at most `ℓ` transfers run
//! at once, that each mapper with load serves each reducer exactly once,
//! and that each reducer reduces for `BγV/r` after its last piece and its
//! start-up, the last one ending at `T`.
//!
//! Tolerance: times agree when they differ by at most `1e-9` of the job's
//! proven lower bound on `T` (a scale that the schedule being checked
//! cannot stretch), loads when they differ by at most `1e-9 · V`; no
//! absolute floor, so a schedule of picoseconds is checked as closely as
//! one of days.

use super::shuffle::{Shuffle, Transfer};
use super::{lower_bound, Job};
// Violations are sentences: numbers in the one format of messages.
use crate::core::domain::number::human as number;
use crate::core::domain::verify::{Verdict, RELATIVE_TOLERANCE};

/// Checks `shuffle` for `job`, with the bisection width `channels` as given
/// in the request.
pub fn verify(job: &Job, channels: usize, shuffle: &Shuffle) -> Verdict {
    let time = RELATIVE_TOLERANCE * lower_bound(job);
    let verdict = |violation: Option<String>| Verdict {
        ok: violation.is_none(),
        tolerance: time,
        violation,
    };
    verdict(first_violation(job, channels, shuffle, time).err())
}

fn first_violation(job: &Job, channels: usize, s: &Shuffle, tol: f64) -> Result<(), String> {
    split(job, s)?;
    finite(s)?;
    let (m, r) = (job.mappers, job.reducers);
    let mut served = vec![0u32; m * r];
    for t in &s.transfers {
        transfer(job, s, t, tol)?;
        served[t.mapper * r + t.reducer] += 1;
    }
    for k in 0..m {
        for j in 0..r {
            // A mapper without load may send its empty pieces or not.
            let times = served[k * r + j];
            let ok = times == 1 || (times == 0 && s.sizes[k] == 0.0);
            if !ok {
                return Err(format!(
                    "mapper {k} sends to reducer {j} {times} times, not once"
                ));
            }
        }
    }
    one_at_a_time(&s.transfers, m, |t| t.mapper, "mapper", tol)?;
    one_at_a_time(&s.transfers, r, |t| t.reducer, "reducer", tol)?;
    bisection(&s.transfers, channels, tol)?;
    reduces(job, s, tol)
}

/// Every time of the schedule is a finite number.
fn finite(s: &Shuffle) -> Result<(), String> {
    if !s.makespan.is_finite() {
        return Err(format!("the makespan is {}", s.makespan));
    }
    if let Some((j, i)) = s
        .reducers
        .iter()
        .enumerate()
        .find(|(_, i)| !i.start.is_finite() || !i.end.is_finite())
    {
        return Err(format!("reducer {j} reduces from {} to {}", i.start, i.end));
    }
    Ok(())
}

/// The chunks are finite, not negative, and add up to `V`.
fn split(job: &Job, s: &Shuffle) -> Result<(), String> {
    if s.sizes.len() != job.mappers || s.reducers.len() != job.reducers {
        return Err(format!(
            "the schedule has {} chunks and {} reducers, not {} and {}",
            s.sizes.len(),
            s.reducers.len(),
            job.mappers,
            job.reducers
        ));
    }
    let tol = RELATIVE_TOLERANCE * job.load;
    if let Some((k, a)) = s
        .sizes
        .iter()
        .enumerate()
        .find(|(_, a)| !a.is_finite() || **a < 0.0)
    {
        return Err(format!("mapper {k} has chunk {a}"));
    }
    let total: f64 = s.sizes.iter().sum();
    if (total - job.load).abs() > tol {
        return Err(format!(
            "the chunks add up to {}, not the load {}",
            number(total),
            number(job.load)
        ));
    }
    Ok(())
}

/// A transfer lasts as its piece needs, after its mapper has mapped and its
/// reducer is ready.
fn transfer(job: &Job, s: &Shuffle, t: &Transfer, tol: f64) -> Result<(), String> {
    if t.mapper >= job.mappers || t.reducer >= job.reducers {
        return Err(format!(
            "a transfer names mapper {} and reducer {}, which do not exist",
            t.mapper, t.reducer
        ));
    }
    let length = job.transfer_time(s.sizes[t.mapper]);
    if !t.start.is_finite() || !t.end.is_finite() || ((t.end - t.start) - length).abs() > tol {
        return Err(format!(
            "the transfer from mapper {} to reducer {} lasts {}, not Cγα/r = {}",
            t.mapper,
            t.reducer,
            number(t.end - t.start),
            number(length)
        ));
    }
    let mapped = s.mapped(job, t.mapper);
    if t.start < mapped - tol {
        return Err(format!(
            "mapper {} sends at {} but maps until {}",
            t.mapper,
            number(t.start),
            number(mapped)
        ));
    }
    let ready = job.reducer_ready(t.reducer);
    if t.start < ready - tol {
        return Err(format!(
            "reducer {} receives at {} but is ready only at {}",
            t.reducer,
            number(t.start),
            number(ready)
        ));
    }
    Ok(())
}

/// No machine (`who` of each transfer) takes part in two transfers at once.
fn one_at_a_time(
    transfers: &[Transfer],
    machines: usize,
    who: impl Fn(&Transfer) -> usize,
    kind: &str,
    tol: f64,
) -> Result<(), String> {
    let mut by: Vec<Vec<&Transfer>> = vec![Vec::new(); machines];
    for t in transfers {
        by[who(t)].push(t);
    }
    for (i, list) in by.iter_mut().enumerate() {
        list.sort_by(|a, b| a.start.total_cmp(&b.start));
        for pair in list.windows(2) {
            if pair[1].start < pair[0].end - tol {
                return Err(format!(
                    "{kind} {i} is in two transfers at once, at {}",
                    number(pair[1].start)
                ));
            }
        }
    }
    Ok(())
}

/// At most `channels` transfers run at once (transfers shorter than the
/// tolerance take no channel).
fn bisection(transfers: &[Transfer], channels: usize, tol: f64) -> Result<(), String> {
    let long: Vec<&Transfer> = transfers.iter().filter(|t| t.end - t.start > tol).collect();
    let mut starts: Vec<f64> = long.iter().map(|t| t.start).collect();
    let mut ends: Vec<f64> = long.iter().map(|t| t.end).collect();
    starts.sort_by(f64::total_cmp);
    ends.sort_by(f64::total_cmp);
    let mut ended = 0;
    for (started, &at) in starts.iter().enumerate() {
        while ended < ends.len() && ends[ended] <= at + tol {
            ended += 1;
        }
        let running = started + 1 - ended;
        if running > channels {
            return Err(format!(
                "{running} transfers run at once at {}, the bisection width is {channels}",
                number(at)
            ));
        }
    }
    Ok(())
}

/// Each reducer reduces `BγV/r` after its start-up and its last piece; the
/// last one ends at `T`.
fn reduces(job: &Job, s: &Shuffle, tol: f64) -> Result<(), String> {
    let mut last: Vec<f64> = (0..job.reducers).map(|j| job.reducer_ready(j)).collect();
    for t in &s.transfers {
        last[t.reducer] = last[t.reducer].max(t.end);
    }
    let length = job.reduce_time();
    let mut end = 0.0_f64;
    for (j, (i, &after)) in s.reducers.iter().zip(&last).enumerate() {
        if i.start < after - tol {
            return Err(format!(
                "reducer {j} reduces from {} before its last piece or start-up at {}",
                number(i.start),
                number(after)
            ));
        }
        if ((i.end - i.start) - length).abs() > tol {
            return Err(format!(
                "reducer {j} reduces for {}, not BγV/r = {}",
                number(i.end - i.start),
                number(length)
            ));
        }
        end = end.max(i.end);
    }
    if (end - s.makespan).abs() > tol {
        return Err(format!(
            "the makespan is {}, but the last reducer ends at {}",
            number(s.makespan),
            number(end)
        ));
    }
    Ok(())
}
