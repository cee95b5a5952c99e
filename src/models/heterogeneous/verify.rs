//! An independent check of an M7 schedule and its energy.
//!
//! Given only the instance, the plan (machine, size and send start of each
//! chunk) and the makespan and energy claimed, it re-derives every
//! duration and checks every rule: sizes add up to `V`, sends do not
//! overlap and take `O + Cα`, a machine is ready (`t_first ≥ S`, woken at
//! `t_first − S ≥ 0`) and has finished its previous chunk before the next
//! is sent, at most `n` chunks when the search was bound to `n`, the
//! makespan is the last computation's end. The energy is integrated anew
//! over each machine's timeline (a power on each interval: asleep, waking,
//! on, plus receiving and computing) and must match the claim. Both must
//! be within the request's limits when the schedule was bound to them.
//!
//! Tolerances: times `1e-9 ·` the recomputed makespan, loads `1e-9 · V`,
//! energy `1e-9 ·` the recomputed energy (plus `1e-9 ·` the makespan at
//! the sum of all powers, for round-off in the times).

use crate::core::domain::verify::Verdict;

use super::instance::{Instance, Worker};
use super::plan::Plan;

/// What a solver claims about its schedule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Claim {
    /// The makespan.
    pub makespan: f64,
    /// The energy.
    pub energy: f64,
    /// The most chunks allowed, when the schedule was bound to them.
    pub chunks: Option<usize>,
    /// The request's makespan limit, when the schedule was bound to it.
    pub makespan_limit: Option<f64>,
    /// The request's energy limit, when the schedule was bound to it.
    pub energy_limit: Option<f64>,
}

/// Checks `plan` against `instance` and the `claim`.
pub fn verify(instance: &Instance, plan: &Plan, claim: Claim) -> Verdict {
    let workers = instance.workers();
    let ends = finishes(&workers, plan);
    let makespan = ends.iter().copied().fold(0.0, f64::max);
    let tolerance = 1e-9 * makespan.abs();
    let violation = check(instance, &workers, plan, claim, makespan).err();
    Verdict {
        ok: violation.is_none(),
        tolerance,
        violation,
    }
}

/// When each chunk's computation ends (NaN for a machine out of range).
fn finishes(workers: &[Worker], plan: &Plan) -> Vec<f64> {
    (0..plan
        .sizes
        .len()
        .min(plan.sequence.len())
        .min(plan.starts.len()))
        .map(|j| match workers.get(plan.sequence[j]) {
            Some(w) => {
                let a = plan.sizes[j];
                plan.starts[j] + w.overhead + w.rate * a + (w.a1 * a).max(w.a2 * a + w.b2)
            }
            None => f64::NAN,
        })
        .collect()
}

/// Every rule of the module docs, in turn: the first one broken is the
/// violation.
fn check(
    instance: &Instance,
    workers: &[Worker],
    plan: &Plan,
    claim: Claim,
    makespan: f64,
) -> Result<(), String> {
    check_chunks(workers, plan, claim.chunks, instance.load)?;
    let tol = 1e-9 * makespan;
    check_timeline(workers, plan, tol)?;
    if (claim.makespan - makespan).abs() > tol || !claim.makespan.is_finite() {
        return Err(format!(
            "the makespan is {makespan}, not {}",
            claim.makespan
        ));
    }
    let (energy, energy_tol) = check_energy(instance, workers, plan, claim.energy, makespan)?;
    if let Some(limit) = claim.makespan_limit.filter(|&t| makespan > t + tol) {
        return Err(format!(
            "the makespan {makespan} s exceeds the limit {limit} s"
        ));
    }
    if let Some(limit) = claim.energy_limit.filter(|&e| energy > e + energy_tol) {
        return Err(format!("the energy {energy} J exceeds the limit {limit} J"));
    }
    Ok(())
}

/// The plan's chunks themselves, before any time is read: a size and a
/// start for each, at most `n` of them when bound to `n`, each to a machine
/// that exists, of a positive size at a finite start, and the sizes add up
/// to the load `v`.
fn check_chunks(
    workers: &[Worker],
    plan: &Plan,
    chunks: Option<usize>,
    v: f64,
) -> Result<(), String> {
    let k = plan.sequence.len();
    if plan.sizes.len() != k || plan.starts.len() != k {
        return Err("the plan's lists differ in length".into());
    }
    if let Some(n) = chunks {
        if k > n {
            return Err(format!("{k} chunks are sent, more than n = {n}"));
        }
    }
    for j in 0..k {
        if plan.sequence[j] >= workers.len() {
            return Err(format!(
                "chunk {j} goes to machine {}, which does not exist",
                plan.sequence[j]
            ));
        }
        if !(plan.sizes[j].is_finite() && plan.sizes[j] > 0.0) {
            return Err(format!(
                "chunk {j} has size {} (must be positive)",
                plan.sizes[j]
            ));
        }
        if !plan.starts[j].is_finite() {
            return Err(format!("chunk {j} starts at {}", plan.starts[j]));
        }
    }
    let total: f64 = plan.sizes.iter().sum();
    if (total - v).abs() > 1e-9 * v {
        return Err(format!("the chunks add up to {total}, not the load {v}"));
    }
    Ok(())
}

/// The sends in time, within `tol`: one message at a time on the channel,
/// and each to a machine that is ready (its first) or has computed its
/// previous chunk.
fn check_timeline(workers: &[Worker], plan: &Plan, tol: f64) -> Result<(), String> {
    let mut channel = f64::NEG_INFINITY;
    let mut done: Vec<Option<f64>> = vec![None; workers.len()];
    for j in 0..plan.sequence.len() {
        let (i, a, start) = (plan.sequence[j], plan.sizes[j], plan.starts[j]);
        let w = &workers[i];
        if start < channel - tol {
            return Err(format!(
                "chunk {j} is sent at {start} while chunk {} is still being sent (until {channel})",
                j - 1
            ));
        }
        match done[i] {
            None if start < w.startup - tol => {
                return Err(format!(
                    "machine {i} gets chunk {j} at {start}, before it can be ready (wake-up {})",
                    w.startup
                ));
            }
            Some(end) if start < end - tol => {
                return Err(format!("machine {i} gets chunk {j} at {start} while it computes its previous chunk (until {end})"));
            }
            _ => {}
        }
        channel = start + w.overhead + w.rate * a;
        done[i] = Some(channel + (w.a1 * a).max(w.a2 * a + w.b2));
    }
    Ok(())
}

/// The energy integrated anew against the claimed `energy`; the energy and
/// its tolerance, which also has round-off in the times at every power.
fn check_energy(
    instance: &Instance,
    workers: &[Worker],
    plan: &Plan,
    claimed: f64,
    makespan: f64,
) -> Result<(f64, f64), String> {
    let energy = integrate(instance, workers, plan, makespan);
    let power: f64 = instance.originator.idle_power
        + instance.originator.network_power
        + workers
            .iter()
            .map(|w| w.sleep + w.wake + w.idle + w.network + w.compute)
            .sum::<f64>();
    let energy_tol = 1e-9 * (energy.abs() + power * makespan);
    let close = (claimed - energy).abs() <= energy_tol;
    if !close || !claimed.is_finite() {
        return Err(format!("the energy is {energy} J, not {claimed} J"));
    }
    Ok((energy, energy_tol))
}

/// The energy, as the integral of each machine's power over its timeline.
fn integrate(instance: &Instance, workers: &[Worker], plan: &Plan, makespan: f64) -> f64 {
    // (machine or none for the originator, from, to, power)
    let mut spans: Vec<(f64, f64, f64)> = Vec::new();
    spans.push((0.0, makespan, instance.originator.idle_power));
    let mut first = vec![f64::NAN; workers.len()];
    for j in (0..plan.sequence.len()).rev() {
        first[plan.sequence[j]] = plan.starts[j];
    }
    for (w, &t) in workers.iter().zip(&first) {
        if t.is_nan() {
            spans.push((0.0, makespan, w.sleep));
        } else {
            let woken = (t - w.startup).max(0.0);
            spans.push((0.0, woken, w.sleep));
            spans.push((woken, woken + w.startup, w.wake));
            spans.push((woken + w.startup, makespan, w.idle));
        }
    }
    for j in 0..plan.sequence.len() {
        let w = &workers[plan.sequence[j]];
        let a = plan.sizes[j];
        let received = plan.starts[j] + w.overhead + w.rate * a;
        let computed = received + (w.a1 * a).max(w.a2 * a + w.b2);
        spans.push((
            plan.starts[j],
            received,
            w.network + instance.originator.network_power,
        ));
        spans.push((received, computed, w.compute));
    }
    spans.iter().map(|(from, to, p)| p * (to - from)).sum()
}
