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

use crate::core::domain::error::{Error, Invalid};
use crate::core::domain::verify::{rules, Verdict, Violation};
use crate::core::framework::checker::{Given, Measured};

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

rules! {
    /// The rules of an M7 schedule ([`verify`]), in the order checked.
    pub enum Rule {
        /// The plan has a machine, a size and a start for every chunk.
        PlanLengths = "plan-lengths",
        /// At most `n` chunks when the schedule is bound to `n`.
        ChunkCount = "chunk-count",
        /// Every chunk goes to a machine of the instance.
        MachineExists = "machine-exists",
        /// Every chunk is sent at a finite time.
        FiniteStart = "finite-start",
        /// Every chunk has a positive finite size.
        PositiveSize = "positive-size",
        /// The chunks add up to the load.
        LoadTotal = "load-total",
        /// The channel carries one chunk at a time.
        Channel = "channel",
        /// A machine's first chunk is sent once it can be awake
        /// (`t_first ≥ S`).
        Ready = "ready",
        /// A machine receives its next chunk only after it has computed
        /// the previous one.
        ReceiveAfterCompute = "receive-after-compute",
        /// The claimed makespan is the last computation's end.
        Makespan = "makespan",
        /// The claimed energy is the integral of the machines' powers.
        Energy = "energy",
        /// The makespan is within the request's limit.
        MakespanLimit = "makespan-limit",
        /// The energy is within the request's limit.
        EnergyLimit = "energy-limit",
    }
}

/// A violation of `rule`, in words.
fn broken(rule: Rule, message: String) -> Violation {
    Violation::new(rule.name(), message)
}

/// Checks `plan` against `instance` and the `claim`.
pub fn verify(instance: &Instance, plan: &Plan, claim: Claim) -> Verdict {
    let workers = instance.workers();
    let ends = finishes(&workers, plan);
    let makespan = ends.iter().copied().fold(0.0, f64::max);
    let tolerance = 1e-9 * makespan.abs();
    Verdict::of(check(instance, &workers, plan, claim, makespan), tolerance)
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

/// Every rule of the module docs, in turn. A plan that cannot be read
/// (lists of different lengths, a chunk to no machine or at no time) gets
/// that one violation: nothing else can be computed of it.
fn check(
    instance: &Instance,
    workers: &[Worker],
    plan: &Plan,
    claim: Claim,
    makespan: f64,
) -> Vec<Violation> {
    if let Err(v) = readable(workers, plan) {
        return vec![v];
    }
    let mut found = Vec::new();
    check_chunks(&mut found, plan, claim.chunks, instance.load);
    let tol = 1e-9 * makespan;
    check_timeline(&mut found, workers, plan, tol);
    if (claim.makespan - makespan).abs() > tol || !claim.makespan.is_finite() {
        let message = format!("the makespan is {makespan}, not {}", claim.makespan);
        found.push(broken(Rule::Makespan, message).amounts(claim.makespan, makespan));
    }
    let (energy, energy_tol) =
        check_energy(&mut found, instance, workers, plan, claim.energy, makespan);
    if let Some(limit) = claim.makespan_limit.filter(|&t| makespan > t + tol) {
        let message = format!("the makespan {makespan} s exceeds the limit {limit} s");
        found.push(broken(Rule::MakespanLimit, message).amounts(makespan, limit));
    }
    if let Some(limit) = claim.energy_limit.filter(|&e| energy > e + energy_tol) {
        let message = format!("the energy {energy} J exceeds the limit {limit} J");
        found.push(broken(Rule::EnergyLimit, message).amounts(energy, limit));
    }
    found
}

/// A machine, a size and a start for each chunk, each machine one that
/// exists and each start a finite time.
fn readable(workers: &[Worker], plan: &Plan) -> Result<(), Violation> {
    let k = plan.sequence.len();
    if plan.sizes.len() != k || plan.starts.len() != k {
        return Err(broken(
            Rule::PlanLengths,
            "the plan's lists differ in length".into(),
        ));
    }
    for j in 0..k {
        let i = plan.sequence[j];
        if i >= workers.len() {
            let message = format!("chunk {j} goes to machine {i}, which does not exist");
            return Err(broken(Rule::MachineExists, message).chunk(j));
        }
        if !plan.starts[j].is_finite() {
            let message = format!("chunk {j} starts at {}", plan.starts[j]);
            return Err(broken(Rule::FiniteStart, message).machine(i).chunk(j));
        }
    }
    Ok(())
}

/// The plan's chunks themselves, before any time is read: at most `n` of
/// them when bound to `n`, each of a positive size, and the sizes add up to
/// the load `v`.
fn check_chunks(found: &mut Vec<Violation>, plan: &Plan, chunks: Option<usize>, v: f64) {
    let k = plan.sequence.len();
    if let Some(n) = chunks.filter(|&n| k > n) {
        let message = format!("{k} chunks are sent, more than n = {n}");
        found.push(broken(Rule::ChunkCount, message).amounts(k as f64, n as f64));
    }
    for j in 0..k {
        let a = plan.sizes[j];
        if !(a.is_finite() && a > 0.0) {
            let message = format!("chunk {j} has size {a} (must be positive)");
            let violation = broken(Rule::PositiveSize, message);
            found.push(violation.machine(plan.sequence[j]).chunk(j).amounts(a, 0.0));
        }
    }
    let total: f64 = plan.sizes.iter().sum();
    if (total - v).abs() > 1e-9 * v {
        let message = format!("the chunks add up to {total}, not the load {v}");
        found.push(broken(Rule::LoadTotal, message).amounts(total, v));
    }
}

/// The sends in time, within `tol`: one message at a time on the channel,
/// and each to a machine that is ready (its first) or has computed its
/// previous chunk.
fn check_timeline(found: &mut Vec<Violation>, workers: &[Worker], plan: &Plan, tol: f64) {
    let mut channel = f64::NEG_INFINITY;
    let mut done: Vec<Option<f64>> = vec![None; workers.len()];
    for j in 0..plan.sequence.len() {
        let (i, a, start) = (plan.sequence[j], plan.sizes[j], plan.starts[j]);
        let w = &workers[i];
        let at = |rule, message| broken(rule, message).machine(i).chunk(j);
        if start < channel - tol {
            let message = format!(
                "chunk {j} is sent at {start} while chunk {} is still being sent (until {channel})",
                j - 1
            );
            found.push(at(Rule::Channel, message).amounts(start, channel));
        }
        match done[i] {
            None if start < w.startup - tol => {
                let message = format!(
                    "machine {i} gets chunk {j} at {start}, before it can be ready (wake-up {})",
                    w.startup
                );
                found.push(at(Rule::Ready, message).amounts(start, w.startup));
            }
            Some(end) if start < end - tol => {
                let message = format!("machine {i} gets chunk {j} at {start} while it computes its previous chunk (until {end})");
                found.push(at(Rule::ReceiveAfterCompute, message).amounts(start, end));
            }
            _ => {}
        }
        channel = start + w.overhead + w.rate * a;
        done[i] = Some(channel + (w.a1 * a).max(w.a2 * a + w.b2));
    }
}

/// The energy integrated anew against the claimed `energy`; the energy and
/// its tolerance, which also has round-off in the times at every power.
fn check_energy(
    found: &mut Vec<Violation>,
    instance: &Instance,
    workers: &[Worker],
    plan: &Plan,
    claimed: f64,
    makespan: f64,
) -> (f64, f64) {
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
        let message = format!("the energy is {energy} J, not {claimed} J");
        found.push(broken(Rule::Energy, message).amounts(claimed, energy));
    }
    (energy, energy_tol)
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

/// A schedule given by hand checked against M7's rules and the request's
/// bounds (`n` chunks, the makespan and energy limits). M7 computes each
/// chunk as soon as it arrives: only the send's start of a given chunk is
/// read (by default the earliest the channel and its machine allow), and
/// a given computing interval or memory level is refused.
///
/// # Errors
///
/// A chunk to a machine that does not exist, or with times M7 does not
/// read, at its field.
pub(crate) fn check_given(instance: &Instance, given: &Given) -> Result<Measured, Error> {
    let workers = instance.workers();
    given.machines_within(workers.len())?;
    let unread = given
        .chunks
        .iter()
        .enumerate()
        .find_map(|(k, c)| match (c.compute, c.level) {
            (Some(_), _) => Some(format!("chunks[{k}].compute")),
            (_, Some(_)) => Some(format!("chunks[{k}].level")),
            _ => None,
        });
    if let Some(field) = unread {
        let why = "a chunk is computed as soon as it arrives, in the model's time";
        return Err(Error::field(field, Invalid::Unused(why)));
    }
    let plan = given_plan(&workers, given);
    let makespan = finishes(&workers, &plan).into_iter().fold(0.0, f64::max);
    let energy = integrate(instance, &workers, &plan, makespan);
    let claim = Claim {
        makespan: given.makespan.unwrap_or(makespan),
        energy,
        chunks: Some(instance.chunks.get()),
        makespan_limit: instance.makespan_limit,
        energy_limit: instance.energy_limit,
    };
    Ok(Measured {
        verdict: verify(instance, &plan, claim),
        makespan,
        energy: Some(energy),
    })
}

/// The plan of `given`: each send at its given start, or as early as the
/// channel and its machine (ready at `S`, done with its chunk) allow.
fn given_plan(workers: &[Worker], given: &Given) -> Plan {
    let mut channel = 0.0_f64;
    let mut free: Vec<f64> = workers.iter().map(|w| w.startup).collect();
    let mut starts = Vec::with_capacity(given.chunks.len());
    for c in &given.chunks {
        let w = &workers[c.machine];
        let start = c.send.map_or(channel.max(free[c.machine]), |i| i.start);
        channel = start + w.send(c.size);
        free[c.machine] = channel + w.time(c.size);
        starts.push(start);
    }
    Plan {
        sequence: given.chunks.iter().map(|c| c.machine).collect(),
        sizes: given.chunks.iter().map(|c| c.size).collect(),
        starts,
    }
}
