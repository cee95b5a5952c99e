//! An independent check of a schedule against the rules of its model.
//!
//! The verifier knows nothing about how a schedule was found: it re-derives
//! every duration from the instance and checks every constraint, so a bug in
//! a solver (or in the LP backend) shows up as a rejected schedule instead of
//! a wrong chart. It reports the first violation in words.
//!
//! Tolerance: two times (or loads) are taken as equal when they differ by at
//! most `1e-9 · max(1, makespan, load)` — far below anything a chart or a
//! table shows, far above the LP solver's round-off after scaling.

use serde::{Deserialize, Serialize};

// Violations are sentences: numbers in the one format of messages.
use crate::core::domain::number::human as h;
use crate::core::domain::platform::Processor;
use crate::core::domain::schedule::{Chunk, Schedule};

/// Relative tolerance of every comparison (kept with the schedules, whose
/// idle times round to zero within it).
pub use crate::core::domain::schedule::RELATIVE_TOLERANCE;

/// The verifier's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// True when every constraint holds.
    pub ok: bool,
    /// The absolute tolerance used (time and load units).
    pub tolerance: f64,
    /// The first violated constraint, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub violation: Option<String>,
}

/// The rules a schedule must follow on a star network.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rules {
    /// No machine receives more than one chunk (one installment).
    pub single_installment: bool,
    /// No chunk is sent before this time (machines start up until then).
    pub ready: f64,
    /// A machine receives its next chunk only after it has finished
    /// computing the previous one (no buffering, `[3]`).
    pub receive_after_compute: bool,
}

impl Rules {
    /// One chunk per machine, from time 0 (M2, M3).
    pub const SINGLE_INSTALLMENT: Rules = Rules {
        single_installment: true,
        ready: 0.0,
        receive_after_compute: false,
    };
    /// Many chunks per machine, buffered while it computes (M4).
    pub const BUFFERED: Rules = Rules {
        single_installment: false,
        ready: 0.0,
        receive_after_compute: false,
    };
}

/// Checks `schedule` for distributing `load` over `processors`.
pub fn verify(processors: &[Processor], load: f64, schedule: &Schedule, rules: Rules) -> Verdict {
    let scale = schedule.makespan.abs().max(load.abs()).max(1.0);
    let tolerance = RELATIVE_TOLERANCE * scale;
    let violation = first_violation(processors, load, schedule, rules, tolerance).err();
    Verdict {
        ok: violation.is_none(),
        tolerance,
        violation,
    }
}

/// Every check of [`verify`], in the order the verdict reports them: the
/// first that fails is the violation.
fn first_violation(
    ps: &[Processor],
    load: f64,
    s: &Schedule,
    rules: Rules,
    tol: f64,
) -> Result<(), String> {
    check_shape(ps, s)?;
    let mut total = 0.0;
    let mut latest_end = 0.0_f64;
    for (k, c) in s.chunks.iter().enumerate() {
        check_chunk(ps, s.makespan, rules, tol, k, c)?;
        total += c.size;
        latest_end = latest_end.max(c.compute.end);
    }
    check_totals(load, s.makespan, total, latest_end, tol)?;
    check_channel(s, tol)?;
    check_machines(ps.len(), s, rules, tol)
}

/// The schedule as a whole is one of this instance, with a makespan to
/// compare times against.
fn check_shape(ps: &[Processor], s: &Schedule) -> Result<(), String> {
    if s.machines != ps.len() {
        return Err(format!(
            "the schedule has {} machines but the instance {}",
            s.machines,
            ps.len()
        ));
    }
    if !s.makespan.is_finite() {
        return Err("the makespan is not a finite number".into());
    }
    Ok(())
}

/// Chunk `k` (the `k`-th sent) on its own: each of its numbers against its
/// machine and the rules, so that a broken chunk is named.
fn check_chunk(
    ps: &[Processor],
    makespan: f64,
    rules: Rules,
    tol: f64,
    k: usize,
    c: &Chunk,
) -> Result<(), String> {
    let name = ChunkName {
        k,
        machine: c.machine,
    };
    let p = ps.get(c.machine).ok_or_else(|| {
        format!(
            "chunk {} goes to machine {} which does not exist",
            k + 1,
            c.machine + 1
        )
    })?;
    check_size(&name, p, c, tol)?;
    check_send(&name, p, c, rules, tol)?;
    check_compute(&name, p, c, makespan, tol)
}

/// A chunk as messages name it: written only when a check fails, since
/// the verifier runs on every schedule shown (a map checks a million
/// chunks, and formatting each name took a tenth of its time).
struct ChunkName {
    k: usize,
    machine: usize,
}

impl std::fmt::Display for ChunkName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "chunk {} (to P{})", self.k + 1, self.machine + 1)
    }
}

/// The chunk's numbers are finite and its size fits its machine: the
/// duration checks that follow are only meaningful then.
fn check_size(name: &ChunkName, p: &Processor, c: &Chunk, tol: f64) -> Result<(), String> {
    let numbers = [
        c.size,
        c.send.start,
        c.send.end,
        c.compute.start,
        c.compute.end,
    ];
    if numbers.iter().any(|x| !x.is_finite()) {
        return Err(format!(
            "{name} has a time or size that is not a finite number"
        ));
    }
    if c.size < -tol {
        return Err(format!("{name} has a negative size {}", h(c.size)));
    }
    if let Some(cap) = p.cap {
        if c.size > cap + tol {
            return Err(format!(
                "{name} has size {} above the memory cap {}",
                h(c.size),
                h(cap)
            ));
        }
    }
    Ok(())
}

/// The chunk is sent once the machines are ready, in the time its size
/// takes on the link.
fn check_send(
    name: &ChunkName,
    p: &Processor,
    c: &Chunk,
    rules: Rules,
    tol: f64,
) -> Result<(), String> {
    if c.send.start < rules.ready - tol {
        return Err(format!(
            "{name} is sent at {} before the machines are ready at {}",
            h(c.send.start),
            h(rules.ready)
        ));
    }
    let send = p.send_time(c.size);
    if (c.send.len() - send).abs() > tol {
        return Err(format!(
            "{name} takes {} to send, but S + C·α = {}",
            h(c.send.len()),
            h(send)
        ));
    }
    Ok(())
}

/// The chunk is computed after it has arrived, for as long as its size
/// needs at the memory level it claims, and by the makespan.
fn check_compute(
    name: &ChunkName,
    p: &Processor,
    c: &Chunk,
    makespan: f64,
    tol: f64,
) -> Result<(), String> {
    if c.compute.start < c.send.end - tol {
        return Err(format!(
            "{name} is computed from {} before it has arrived at {}",
            h(c.compute.start),
            h(c.send.end)
        ));
    }
    let need = p.levels.eval(c.size);
    if c.compute.len() < need - tol {
        return Err(format!(
            "{name} is computed in {} but needs {}",
            h(c.compute.len()),
            h(need)
        ));
    }
    match p.levels.levels().get(c.level) {
        Some(l) if (l.at(c.size) - need).abs() <= tol => {}
        _ => {
            return Err(format!(
                "{name} claims memory level {} but level {} is active at size {}",
                c.level,
                p.levels.level_at(c.size),
                h(c.size)
            ))
        }
    }
    if c.compute.end > makespan + tol {
        return Err(format!(
            "{name} ends at {} after the makespan {}",
            h(c.compute.end),
            h(makespan)
        ));
    }
    Ok(())
}

/// The chunks add up to the load (`total`, summed in sending order), and
/// the makespan is when the last of them ends (`latest_end`).
fn check_totals(
    load: f64,
    makespan: f64,
    total: f64,
    latest_end: f64,
    tol: f64,
) -> Result<(), String> {
    if (total - load).abs() > tol {
        return Err(format!(
            "the chunks add up to {}, not the load {}",
            h(total),
            h(load)
        ));
    }
    if (latest_end - makespan).abs() > tol {
        return Err(format!(
            "the makespan {} is not when the last machine finishes ({})",
            h(makespan),
            h(latest_end)
        ));
    }
    Ok(())
}

/// The one channel carries one chunk at a time.
fn check_channel(s: &Schedule, tol: f64) -> Result<(), String> {
    let mut sends: Vec<_> = s.chunks.iter().enumerate().collect();
    sends.sort_by(|a, b| a.1.send.start.total_cmp(&b.1.send.start));
    for w in sends.windows(2) {
        let ((i, a), (j, b)) = (w[0], w[1]);
        if b.send.start < a.send.end - tol {
            return Err(format!(
                "the channel carries chunks {} and {} at once (from {} to {})",
                i + 1,
                j + 1,
                h(b.send.start),
                h(a.send.end)
            ));
        }
    }
    Ok(())
}

/// Each of the `machines` machines receives as many chunks as the rules
/// allow and computes them one at a time.
fn check_machines(machines: usize, s: &Schedule, rules: Rules, tol: f64) -> Result<(), String> {
    // Each machine's chunks in one array, machine after machine (`starts[m]`
    // is where machine `m`'s begin): two allocations whatever the number of
    // machines, where a list per machine cost one each (a map checks
    // schedules of a million machines).
    let mut starts = vec![0usize; machines + 1];
    for c in &s.chunks {
        starts[c.machine + 1] += 1;
    }
    for m in 0..machines {
        starts[m + 1] += starts[m];
    }
    let mut next = starts.clone();
    let mut grouped = vec![0usize; s.chunks.len()];
    for (k, c) in s.chunks.iter().enumerate() {
        grouped[next[c.machine]] = k;
        next[c.machine] += 1;
    }
    for m in 0..machines {
        let mine = &mut grouped[starts[m]..starts[m + 1]];
        if rules.single_installment && mine.len() > 1 {
            return Err(format!(
                "P{} receives {} chunks instead of one",
                m + 1,
                mine.len()
            ));
        }
        // In order of computing (stable: chunks that start together stay
        // in sending order, as before).
        mine.sort_by(|&a, &b| {
            s.chunks[a]
                .compute
                .start
                .total_cmp(&s.chunks[b].compute.start)
        });
        check_machine_order(m, mine, s, rules, tol)?;
    }
    Ok(())
}

/// Machine `m`'s chunks (`mine`, indices in order of computing) do not
/// overlap, and without buffering each arrives after the one before is
/// computed.
fn check_machine_order(
    m: usize,
    mine: &[usize],
    s: &Schedule,
    rules: Rules,
    tol: f64,
) -> Result<(), String> {
    for w in mine.windows(2) {
        let (a, b) = (&s.chunks[w[0]], &s.chunks[w[1]]);
        if b.compute.start < a.compute.end - tol {
            return Err(format!(
                "P{} computes chunks {} and {} at once",
                m + 1,
                w[0] + 1,
                w[1] + 1
            ));
        }
        if rules.receive_after_compute && b.send.start < a.compute.end - tol {
            return Err(format!(
                "P{} receives chunk {} from {} before it has finished computing chunk {} at {}",
                m + 1,
                w[1] + 1,
                h(b.send.start),
                w[0] + 1,
                h(a.compute.end)
            ));
        }
    }
    Ok(())
}
