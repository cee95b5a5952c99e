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
use crate::core::domain::verify::{rules, Verdict, Violation, RELATIVE_TOLERANCE};

rules! {
    /// The rules of a MapReduce schedule ([`verify`]), in the order checked.
    pub enum Rule {
        /// A chunk for every mapper and an interval for every reducer.
        Shape = "shape",
        /// Every chunk is a finite number, not negative.
        ChunkSize = "chunk-size",
        /// The chunks add up to the load.
        LoadTotal = "load-total",
        /// The makespan and the reduces are finite times.
        FiniteTimes = "finite-times",
        /// Every transfer names a mapper and a reducer that exist.
        TransferEnds = "transfer-ends",
        /// A transfer lasts `Cγα/r`.
        TransferLength = "transfer-length",
        /// A mapper sends after it has mapped its chunk.
        Mapped = "mapped",
        /// A reducer receives once it is ready.
        ReducerReady = "reducer-ready",
        /// Each mapper with load sends to each reducer exactly once.
        ServedOnce = "served-once",
        /// A mapper sends one piece at a time.
        MapperOneAtATime = "mapper-one-at-a-time",
        /// A reducer receives one piece at a time.
        ReducerOneAtATime = "reducer-one-at-a-time",
        /// At most `ℓ` transfers run at once (the bisection width).
        Bisection = "bisection",
        /// A reducer reduces after its last piece and its start-up.
        ReduceAfter = "reduce-after",
        /// A reducer reduces for `BγV/r`.
        ReduceLength = "reduce-length",
        /// The makespan is when the last reducer ends.
        Makespan = "makespan",
    }
}

/// A violation of `rule`, in words.
fn broken(rule: Rule, message: String) -> Violation {
    Violation::new(rule.name(), message)
}

/// Checks `shuffle` for `job`, with the bisection width `channels` as given
/// in the request. Machines in the violations are mappers or reducers as
/// the rule says, from 0.
pub fn verify(job: &Job, channels: usize, shuffle: &Shuffle) -> Verdict {
    let time = RELATIVE_TOLERANCE * lower_bound(job);
    Verdict::of(violations(job, channels, shuffle, time), time)
}

/// Every rule, in turn. A schedule that cannot be read (of another shape,
/// with a chunk or a time that is not a number, a transfer between
/// machines that do not exist) gets that one violation.
fn violations(job: &Job, channels: usize, s: &Shuffle, tol: f64) -> Vec<Violation> {
    if let Err(v) = readable(job, s) {
        return vec![v];
    }
    let mut found = Vec::new();
    split(&mut found, job, s);
    for t in &s.transfers {
        transfer(&mut found, job, s, t, tol);
    }
    served(&mut found, job, s);
    let (m, r) = (job.mappers, job.reducers);
    let mapper = (Rule::MapperOneAtATime, "mapper");
    one_at_a_time(&mut found, &s.transfers, m, |t| t.mapper, mapper, tol);
    let reducer = (Rule::ReducerOneAtATime, "reducer");
    one_at_a_time(&mut found, &s.transfers, r, |t| t.reducer, reducer, tol);
    bisection(&mut found, &s.transfers, channels, tol);
    reduces(&mut found, job, s, tol);
    found
}

/// The schedule's shape is the job's, its chunks and times are numbers
/// and its transfers are between machines of the job.
fn readable(job: &Job, s: &Shuffle) -> Result<(), Violation> {
    if s.sizes.len() != job.mappers || s.reducers.len() != job.reducers {
        let message = format!(
            "the schedule has {} chunks and {} reducers, not {} and {}",
            s.sizes.len(),
            s.reducers.len(),
            job.mappers,
            job.reducers
        );
        return Err(broken(Rule::Shape, message));
    }
    if let Some((k, a)) = (s.sizes.iter().enumerate()).find(|(_, a)| !a.is_finite() || **a < 0.0) {
        let message = format!("mapper {k} has chunk {a}");
        return Err(broken(Rule::ChunkSize, message).machine(k).amounts(*a, 0.0));
    }
    finite(s)?;
    let outside = |t: &&Transfer| t.mapper >= job.mappers || t.reducer >= job.reducers;
    if let Some(t) = s.transfers.iter().find(outside) {
        let message = format!(
            "a transfer names mapper {} and reducer {}, which do not exist",
            t.mapper, t.reducer
        );
        return Err(broken(Rule::TransferEnds, message));
    }
    Ok(())
}

/// Every time of the schedule is a finite number.
fn finite(s: &Shuffle) -> Result<(), Violation> {
    if !s.makespan.is_finite() {
        let message = format!("the makespan is {}", s.makespan);
        return Err(broken(Rule::FiniteTimes, message));
    }
    if let Some((j, i)) = s
        .reducers
        .iter()
        .enumerate()
        .find(|(_, i)| !i.start.is_finite() || !i.end.is_finite())
    {
        let message = format!("reducer {j} reduces from {} to {}", i.start, i.end);
        return Err(broken(Rule::FiniteTimes, message).machine(j));
    }
    if let Some(t) = (s.transfers.iter()).find(|t| !t.start.is_finite() || !t.end.is_finite()) {
        let message = format!(
            "the transfer from mapper {} to reducer {} runs from {} to {}",
            t.mapper, t.reducer, t.start, t.end
        );
        return Err(broken(Rule::FiniteTimes, message));
    }
    Ok(())
}

/// The chunks add up to `V`.
fn split(found: &mut Vec<Violation>, job: &Job, s: &Shuffle) {
    let tol = RELATIVE_TOLERANCE * job.load;
    let total: f64 = s.sizes.iter().sum();
    if (total - job.load).abs() > tol {
        let message = format!(
            "the chunks add up to {}, not the load {}",
            number(total),
            number(job.load)
        );
        found.push(broken(Rule::LoadTotal, message).amounts(total, job.load));
    }
}

/// A transfer lasts as its piece needs, after its mapper has mapped and its
/// reducer is ready.
fn transfer(found: &mut Vec<Violation>, job: &Job, s: &Shuffle, t: &Transfer, tol: f64) {
    let length = job.transfer_time(s.sizes[t.mapper]);
    if ((t.end - t.start) - length).abs() > tol {
        let message = format!(
            "the transfer from mapper {} to reducer {} lasts {}, not Cγα/r = {}",
            t.mapper,
            t.reducer,
            number(t.end - t.start),
            number(length)
        );
        let v = broken(Rule::TransferLength, message).machine(t.mapper);
        found.push(v.amounts(t.end - t.start, length));
    }
    let mapped = s.mapped(job, t.mapper);
    if t.start < mapped - tol {
        let message = format!(
            "mapper {} sends at {} but maps until {}",
            t.mapper,
            number(t.start),
            number(mapped)
        );
        let v = broken(Rule::Mapped, message).machine(t.mapper);
        found.push(v.amounts(t.start, mapped));
    }
    let ready = job.reducer_ready(t.reducer);
    if t.start < ready - tol {
        let message = format!(
            "reducer {} receives at {} but is ready only at {}",
            t.reducer,
            number(t.start),
            number(ready)
        );
        let v = broken(Rule::ReducerReady, message).machine(t.reducer);
        found.push(v.amounts(t.start, ready));
    }
}

/// Each mapper with load sends to each reducer once (a mapper without load
/// may send its empty pieces or not).
fn served(found: &mut Vec<Violation>, job: &Job, s: &Shuffle) {
    let (m, r) = (job.mappers, job.reducers);
    let mut served = vec![0u32; m * r];
    for t in &s.transfers {
        served[t.mapper * r + t.reducer] += 1;
    }
    for k in 0..m {
        for j in 0..r {
            let times = served[k * r + j];
            if !(times == 1 || (times == 0 && s.sizes[k] == 0.0)) {
                let message = format!("mapper {k} sends to reducer {j} {times} times, not once");
                let v = broken(Rule::ServedOnce, message).machine(k);
                found.push(v.amounts(f64::from(times), 1.0));
            }
        }
    }
}

/// No machine (`who` of each transfer) takes part in two transfers at
/// once; `(rule, kind)`: the rule broken then and the machine's kind.
fn one_at_a_time(
    found: &mut Vec<Violation>,
    transfers: &[Transfer],
    machines: usize,
    who: impl Fn(&Transfer) -> usize,
    (rule, kind): (Rule, &str),
    tol: f64,
) {
    let mut by: Vec<Vec<&Transfer>> = vec![Vec::new(); machines];
    for t in transfers {
        by[who(t)].push(t);
    }
    for (i, list) in by.iter_mut().enumerate() {
        list.sort_by(|a, b| a.start.total_cmp(&b.start));
        for pair in list.windows(2) {
            if pair[1].start < pair[0].end - tol {
                let message = format!(
                    "{kind} {i} is in two transfers at once, at {}",
                    number(pair[1].start)
                );
                let v = broken(rule, message).machine(i);
                found.push(v.amounts(pair[1].start, pair[0].end));
            }
        }
    }
}

/// At most `channels` transfers run at once (transfers shorter than the
/// tolerance take no channel); named once, where the most run.
fn bisection(found: &mut Vec<Violation>, transfers: &[Transfer], channels: usize, tol: f64) {
    let long: Vec<&Transfer> = transfers.iter().filter(|t| t.end - t.start > tol).collect();
    let mut starts: Vec<f64> = long.iter().map(|t| t.start).collect();
    let mut ends: Vec<f64> = long.iter().map(|t| t.end).collect();
    starts.sort_by(f64::total_cmp);
    ends.sort_by(f64::total_cmp);
    let mut ended = 0;
    let mut most: Option<(usize, f64)> = None;
    for (started, &at) in starts.iter().enumerate() {
        while ended < ends.len() && ends[ended] <= at + tol {
            ended += 1;
        }
        let running = started + 1 - ended;
        if running > channels && most.is_none_or(|(n, _)| running > n) {
            most = Some((running, at));
        }
    }
    if let Some((running, at)) = most {
        let message = format!(
            "{running} transfers run at once at {}, the bisection width is {channels}",
            number(at)
        );
        found.push(broken(Rule::Bisection, message).amounts(running as f64, channels as f64));
    }
}

/// Each reducer reduces `BγV/r` after its start-up and its last piece; the
/// last one ends at `T`.
fn reduces(found: &mut Vec<Violation>, job: &Job, s: &Shuffle, tol: f64) {
    let mut last: Vec<f64> = (0..job.reducers).map(|j| job.reducer_ready(j)).collect();
    for t in &s.transfers {
        last[t.reducer] = last[t.reducer].max(t.end);
    }
    let length = job.reduce_time();
    let mut end = 0.0_f64;
    for (j, (i, &after)) in s.reducers.iter().zip(&last).enumerate() {
        if i.start < after - tol {
            let message = format!(
                "reducer {j} reduces from {} before its last piece or start-up at {}",
                number(i.start),
                number(after)
            );
            let v = broken(Rule::ReduceAfter, message).machine(j);
            found.push(v.amounts(i.start, after));
        }
        if ((i.end - i.start) - length).abs() > tol {
            let message = format!(
                "reducer {j} reduces for {}, not BγV/r = {}",
                number(i.end - i.start),
                number(length)
            );
            let v = broken(Rule::ReduceLength, message).machine(j);
            found.push(v.amounts(i.end - i.start, length));
        }
        end = end.max(i.end);
    }
    if (end - s.makespan).abs() > tol {
        let message = format!(
            "the makespan is {}, but the last reducer ends at {}",
            number(s.makespan),
            number(end)
        );
        found.push(broken(Rule::Makespan, message).amounts(s.makespan, end));
    }
}
