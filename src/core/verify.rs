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

use crate::core::platform::Processor;
use crate::core::schedule::Schedule;

/// Relative tolerance of every comparison.
pub const RELATIVE_TOLERANCE: f64 = 1e-9;

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
    /// computing the previous one (no buffering, `[000]`).
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

fn first_violation(
    ps: &[Processor],
    load: f64,
    s: &Schedule,
    rules: Rules,
    tol: f64,
) -> Result<(), String> {
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
    let mut total = 0.0;
    let mut latest_end = 0.0_f64;
    for (k, c) in s.chunks.iter().enumerate() {
        let name = format!("chunk {} (to P{})", k + 1, c.machine + 1);
        let p = ps.get(c.machine).ok_or_else(|| {
            format!(
                "chunk {} goes to machine {} which does not exist",
                k + 1,
                c.machine + 1
            )
        })?;
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
            return Err(format!("{name} has a negative size {}", c.size));
        }
        if let Some(cap) = p.cap {
            if c.size > cap + tol {
                return Err(format!(
                    "{name} has size {} above the memory cap {cap}",
                    c.size
                ));
            }
        }
        if c.send.start < rules.ready - tol {
            return Err(format!(
                "{name} is sent at {} before the machines are ready at {}",
                c.send.start, rules.ready
            ));
        }
        let send = p.send_time(c.size);
        if (c.send.len() - send).abs() > tol {
            return Err(format!(
                "{name} takes {} to send, but S + C·α = {send}",
                c.send.len()
            ));
        }
        if c.compute.start < c.send.end - tol {
            return Err(format!(
                "{name} is computed from {} before it has arrived at {}",
                c.compute.start, c.send.end
            ));
        }
        let need = p.levels.eval(c.size);
        if c.compute.len() < need - tol {
            return Err(format!(
                "{name} is computed in {} but needs {need}",
                c.compute.len()
            ));
        }
        match p.levels.levels().get(c.level) {
            Some(l) if (l.at(c.size) - need).abs() <= tol => {}
            _ => {
                return Err(format!(
                    "{name} claims memory level {} but level {} is active at size {}",
                    c.level,
                    p.levels.level_at(c.size),
                    c.size
                ))
            }
        }
        if c.compute.end > s.makespan + tol {
            return Err(format!(
                "{name} ends at {} after the makespan {}",
                c.compute.end, s.makespan
            ));
        }
        total += c.size;
        latest_end = latest_end.max(c.compute.end);
    }
    if (total - load).abs() > tol {
        return Err(format!("the chunks add up to {total}, not the load {load}"));
    }
    if (latest_end - s.makespan).abs() > tol {
        return Err(format!(
            "the makespan {} is not when the last machine finishes ({latest_end})",
            s.makespan
        ));
    }
    let mut sends: Vec<_> = s.chunks.iter().enumerate().collect();
    sends.sort_by(|a, b| a.1.send.start.total_cmp(&b.1.send.start));
    for w in sends.windows(2) {
        let ((i, a), (j, b)) = (w[0], w[1]);
        if b.send.start < a.send.end - tol {
            return Err(format!(
                "the channel carries chunks {} and {} at once (from {} to {})",
                i + 1,
                j + 1,
                b.send.start,
                a.send.end
            ));
        }
    }
    // Each machine's chunks, grouped in one pass, in order of computing.
    let mut by_machine: Vec<Vec<usize>> = vec![Vec::new(); ps.len()];
    for (k, c) in s.chunks.iter().enumerate() {
        by_machine[c.machine].push(k);
    }
    for (m, mine) in by_machine.iter_mut().enumerate() {
        if rules.single_installment && mine.len() > 1 {
            return Err(format!(
                "P{} receives {} chunks instead of one",
                m + 1,
                mine.len()
            ));
        }
        mine.sort_by(|&a, &b| {
            s.chunks[a]
                .compute
                .start
                .total_cmp(&s.chunks[b].compute.start)
        });
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
                    b.send.start,
                    w[0] + 1,
                    a.compute.end
                ));
            }
        }
    }
    Ok(())
}
