//! An independent check of a schedule against the rules of its model.
//!
//! The verifier knows nothing about how a schedule was found: it re-derives
//! every duration from the instance and checks every constraint, so a bug in
//! a solver (or in the LP backend) shows up as a rejected schedule instead of
//! a wrong chart. It names every broken rule ([`Rule`]) with its machine,
//! chunk and amounts, so that a schedule given by hand (`dlt check`) is told
//! all that is wrong with it at once; the first one is also in words.
//!
//! Tolerance: two times (or loads) are taken as equal when they differ by at
//! most `1e-9 · max(1, makespan, load)` — far below anything a chart or a
//! table shows, far above the LP solver's round-off after scaling.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

// Violations are sentences: numbers in the one format of messages.
use crate::core::domain::number::human as h;
use crate::core::domain::platform::Processor;
use crate::core::domain::schedule::{Chunk, Schedule};

/// Relative tolerance of every comparison (kept with the schedules, whose
/// idle times round to zero within it).
pub use crate::core::domain::schedule::RELATIVE_TOLERANCE;

/// An enum of the rules of a verifier, with its list of every variant
/// (`ALL`) and each one's name: a verifier's rules are enumerated from its
/// code, so that a test of every rule cannot miss a new one.
macro_rules! rules {
    ($(#[$meta:meta])* $vis:vis enum $enum:ident {
        $($(#[$doc:meta])* $variant:ident = $name:literal,)*
    }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        $vis enum $enum {
            $($(#[$doc])* $variant,)*
        }

        impl $enum {
            /// Every rule, in the order the verifier checks them.
            pub const ALL: &'static [$enum] = &[$($enum::$variant,)*];

            /// The rule's name, as a verdict's violations give it.
            pub fn name(self) -> &'static str {
                match self {
                    $($enum::$variant => $name,)*
                }
            }
        }
    };
}
pub(crate) use rules;

/// One broken rule: which, where and by how much.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Violation {
    /// The rule's name (e.g. `send-time`).
    pub rule: String,
    /// The machine it concerns (from 0, as in the schedule's chunks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine: Option<usize>,
    /// The chunk it concerns: its place in sending order, from 0.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk: Option<usize>,
    /// The schedule's amount (a time, size or energy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// The amount the rule asks for: the exact value, or the bound it
    /// crosses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected: Option<f64>,
    /// The violation in words (machines and chunks as the message's model
    /// counts them).
    pub message: String,
}

impl Violation {
    /// Rule `rule` broken, in words.
    pub fn new(rule: &str, message: String) -> Violation {
        Violation {
            rule: rule.into(),
            machine: None,
            chunk: None,
            value: None,
            expected: None,
            message,
        }
    }

    /// The violation at `machine`.
    pub fn machine(mut self, machine: usize) -> Violation {
        self.machine = Some(machine);
        self
    }

    /// The violation at chunk `chunk`.
    pub fn chunk(mut self, chunk: usize) -> Violation {
        self.chunk = Some(chunk);
        self
    }

    /// The schedule's `value` against the `expected` one.
    pub fn amounts(mut self, value: f64, expected: f64) -> Violation {
        self.value = Some(value);
        self.expected = Some(expected);
        self
    }
}

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
    /// Every violated constraint, in the order they were checked (empty
    /// when `ok`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub violations: Vec<Violation>,
}

impl Verdict {
    /// The verdict of a check that found `violations`, at `tolerance`.
    pub fn of(violations: Vec<Violation>, tolerance: f64) -> Verdict {
        Verdict {
            ok: violations.is_empty(),
            tolerance,
            violation: violations.first().map(|v| v.message.clone()),
            violations,
        }
    }

    /// The names of the rules broken, each once, in order.
    pub fn rules(&self) -> Vec<&str> {
        let mut names: Vec<&str> = Vec::new();
        for v in &self.violations {
            if !names.contains(&v.rule.as_str()) {
                names.push(&v.rule);
            }
        }
        names
    }
}

rules! {
    /// The rules of a schedule on a star network ([`verify`]); which of the
    /// last three apply is the model's [`Rules`].
    pub enum Rule {
        /// The schedule is of as many machines as the instance.
        MachineCount = "machine-count",
        /// The makespan is a finite number.
        FiniteMakespan = "finite-makespan",
        /// Every chunk goes to a machine of the instance.
        MachineExists = "machine-exists",
        /// Every size and time is a finite number.
        FiniteNumbers = "finite-numbers",
        /// No chunk has a negative size.
        NegativeSize = "negative-size",
        /// No chunk exceeds its machine's memory cap.
        MemoryCap = "memory-cap",
        /// No chunk is sent before the machines are ready (their start-up).
        Ready = "ready",
        /// A chunk takes `S + C·α` to send.
        SendTime = "send-time",
        /// A chunk is computed after it has arrived.
        Arrival = "arrival",
        /// A chunk is computed for as long as its size needs.
        ComputeTime = "compute-time",
        /// A chunk claims the memory level active at its size.
        MemoryLevel = "memory-level",
        /// The chunks add up to the load.
        LoadTotal = "load-total",
        /// The makespan is when the last chunk is computed.
        Makespan = "makespan",
        /// The channel carries one chunk at a time.
        Channel = "channel",
        /// A machine computes one chunk at a time.
        OneAtATime = "one-at-a-time",
        /// A machine receives one chunk (when the rules say so).
        SingleInstallment = "single-installment",
        /// A machine receives its next chunk only after it has computed
        /// the previous one (when the rules say so).
        ReceiveAfterCompute = "receive-after-compute",
    }
}

/// A violation of `rule`, in words.
fn broken(rule: Rule, message: String) -> Violation {
    Violation::new(rule.name(), message)
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
    let violations = violations(processors, load, schedule, rules, tolerance);
    Verdict::of(violations, tolerance)
}

/// Every check of [`verify`], in the order the verdict reports them. A
/// schedule that cannot be read against the instance (another number of
/// machines, a chunk to no machine, a number that is not finite) gets that
/// one violation: the other checks would only be noise then.
fn violations(ps: &[Processor], load: f64, s: &Schedule, rules: Rules, tol: f64) -> Vec<Violation> {
    if let Err(v) = check_shape(ps, s) {
        return vec![v];
    }
    for (k, c) in s.chunks.iter().enumerate() {
        if let Err(v) = check_readable(ps, k, c) {
            return vec![v];
        }
    }
    let mut found = Vec::new();
    let mut total = 0.0;
    let mut latest_end = 0.0_f64;
    for (k, c) in s.chunks.iter().enumerate() {
        // The machine exists: `check_readable` passed.
        let p = &ps[c.machine];
        let name = ChunkName {
            k,
            machine: c.machine,
        };
        check_size(&mut found, &name, p, c, tol);
        check_send(&mut found, &name, p, c, rules, tol);
        check_compute(&mut found, &name, p, c, tol);
        check_end(&mut found, &name, c, s.makespan, tol);
        total += c.size;
        latest_end = latest_end.max(c.compute.end);
    }
    check_totals(&mut found, load, s.makespan, total, latest_end, tol);
    check_channel(&mut found, s, tol);
    check_machines(&mut found, ps.len(), s, rules, tol);
    found
}

/// The schedule as a whole is one of this instance, with a makespan to
/// compare times against.
fn check_shape(ps: &[Processor], s: &Schedule) -> Result<(), Violation> {
    if s.machines != ps.len() {
        let message = format!(
            "the schedule has {} machines but the instance {}",
            s.machines,
            ps.len()
        );
        return Err(broken(Rule::MachineCount, message).amounts(s.machines as f64, ps.len() as f64));
    }
    if !s.makespan.is_finite() {
        let message = "the makespan is not a finite number".into();
        return Err(broken(Rule::FiniteMakespan, message));
    }
    Ok(())
}

/// Chunk `k` (the `k`-th sent) goes to a machine of the instance and its
/// numbers are finite: the other checks are only meaningful then.
fn check_readable(ps: &[Processor], k: usize, c: &Chunk) -> Result<(), Violation> {
    if c.machine >= ps.len() {
        let message = format!(
            "chunk {} goes to machine {} which does not exist",
            k + 1,
            c.machine + 1
        );
        return Err(broken(Rule::MachineExists, message).chunk(k));
    }
    let numbers = [
        c.size,
        c.send.start,
        c.send.end,
        c.compute.start,
        c.compute.end,
    ];
    if numbers.iter().any(|x| !x.is_finite()) {
        let name = ChunkName {
            k,
            machine: c.machine,
        };
        let message = format!("{name} has a time or size that is not a finite number");
        return Err(broken(Rule::FiniteNumbers, message)
            .machine(c.machine)
            .chunk(k));
    }
    Ok(())
}

/// A chunk as messages name it: written only when a check fails, since
/// the verifier runs on every schedule shown (a map checks a million
/// chunks, and formatting each name took a tenth of its time).
struct ChunkName {
    k: usize,
    machine: usize,
}

impl ChunkName {
    /// A violation of `rule` at this chunk, of `value` against `expected`.
    fn broke(&self, rule: Rule, message: String, value: f64, expected: f64) -> Violation {
        broken(rule, message)
            .machine(self.machine)
            .chunk(self.k)
            .amounts(value, expected)
    }
}

impl std::fmt::Display for ChunkName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "chunk {} (to P{})", self.k + 1, self.machine + 1)
    }
}

/// The chunk's size is not negative and fits its machine.
fn check_size(found: &mut Vec<Violation>, name: &ChunkName, p: &Processor, c: &Chunk, tol: f64) {
    if c.size < -tol {
        let message = format!("{name} has a negative size {}", h(c.size));
        found.push(name.broke(Rule::NegativeSize, message, c.size, 0.0));
    }
    if let Some(cap) = p.cap.filter(|&cap| c.size > cap + tol) {
        let message = format!(
            "{name} has size {} above the memory cap {}",
            h(c.size),
            h(cap)
        );
        found.push(name.broke(Rule::MemoryCap, message, c.size, cap));
    }
}

/// The chunk is sent once the machines are ready, in the time its size
/// takes on the link.
fn check_send(
    found: &mut Vec<Violation>,
    name: &ChunkName,
    p: &Processor,
    c: &Chunk,
    rules: Rules,
    tol: f64,
) {
    if c.send.start < rules.ready - tol {
        let message = format!(
            "{name} is sent at {} before the machines are ready at {}",
            h(c.send.start),
            h(rules.ready)
        );
        found.push(name.broke(Rule::Ready, message, c.send.start, rules.ready));
    }
    let send = p.send_time(c.size);
    if (c.send.len() - send).abs() > tol {
        let message = format!(
            "{name} takes {} to send, but S + C·α = {}",
            h(c.send.len()),
            h(send)
        );
        found.push(name.broke(Rule::SendTime, message, c.send.len(), send));
    }
}

/// The chunk is computed after it has arrived, for as long as its size
/// needs at the memory level it claims.
fn check_compute(found: &mut Vec<Violation>, name: &ChunkName, p: &Processor, c: &Chunk, tol: f64) {
    if c.compute.start < c.send.end - tol {
        let message = format!(
            "{name} is computed from {} before it has arrived at {}",
            h(c.compute.start),
            h(c.send.end)
        );
        found.push(name.broke(Rule::Arrival, message, c.compute.start, c.send.end));
    }
    let need = p.levels.eval(c.size);
    if c.compute.len() < need - tol {
        let message = format!(
            "{name} is computed in {} but needs {}",
            h(c.compute.len()),
            h(need)
        );
        found.push(name.broke(Rule::ComputeTime, message, c.compute.len(), need));
    }
    match p.levels.levels().get(c.level) {
        Some(l) if (l.at(c.size) - need).abs() <= tol => {}
        _ => {
            let active = p.levels.level_at(c.size);
            let message = format!(
                "{name} claims memory level {} but level {active} is active at size {}",
                c.level,
                h(c.size)
            );
            let v = name.broke(Rule::MemoryLevel, message, c.level as f64, active as f64);
            found.push(v);
        }
    }
}

/// The chunk is computed by the makespan.
fn check_end(found: &mut Vec<Violation>, name: &ChunkName, c: &Chunk, makespan: f64, tol: f64) {
    if c.compute.end > makespan + tol {
        let message = format!(
            "{name} ends at {} after the makespan {}",
            h(c.compute.end),
            h(makespan)
        );
        found.push(name.broke(Rule::Makespan, message, makespan, c.compute.end));
    }
}

/// The chunks add up to the load (`total`, summed in sending order), and
/// the makespan is when the last of them ends (`latest_end`; a makespan
/// before it has been named at the chunks that end later).
fn check_totals(
    found: &mut Vec<Violation>,
    load: f64,
    makespan: f64,
    total: f64,
    latest_end: f64,
    tol: f64,
) {
    if (total - load).abs() > tol {
        let message = format!(
            "the chunks add up to {}, not the load {}",
            h(total),
            h(load)
        );
        found.push(broken(Rule::LoadTotal, message).amounts(total, load));
    }
    if latest_end < makespan - tol {
        let message = format!(
            "the makespan {} is not when the last machine finishes ({})",
            h(makespan),
            h(latest_end)
        );
        found.push(broken(Rule::Makespan, message).amounts(makespan, latest_end));
    }
}

/// The one channel carries one chunk at a time.
fn check_channel(found: &mut Vec<Violation>, s: &Schedule, tol: f64) {
    let mut sends: Vec<_> = s.chunks.iter().enumerate().collect();
    sends.sort_by(|a, b| a.1.send.start.total_cmp(&b.1.send.start));
    for w in sends.windows(2) {
        let ((i, a), (j, b)) = (w[0], w[1]);
        if b.send.start < a.send.end - tol {
            let message = format!(
                "the channel carries chunks {} and {} at once (from {} to {})",
                i + 1,
                j + 1,
                h(b.send.start),
                h(a.send.end)
            );
            let v = broken(Rule::Channel, message)
                .machine(b.machine)
                .chunk(j)
                .amounts(b.send.start, a.send.end);
            found.push(v);
        }
    }
}

/// Each of the `machines` machines receives as many chunks as the rules
/// allow and computes them one at a time.
fn check_machines(
    found: &mut Vec<Violation>,
    machines: usize,
    s: &Schedule,
    rules: Rules,
    tol: f64,
) {
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
            let message = format!("P{} receives {} chunks instead of one", m + 1, mine.len());
            let v = broken(Rule::SingleInstallment, message).machine(m);
            found.push(v.amounts(mine.len() as f64, 1.0));
        }
        // In order of computing (stable: chunks that start together stay
        // in sending order, as before).
        mine.sort_by(|&a, &b| {
            s.chunks[a]
                .compute
                .start
                .total_cmp(&s.chunks[b].compute.start)
        });
        check_machine_order(found, m, mine, s, rules, tol);
    }
}

/// Machine `m`'s chunks (`mine`, indices in order of computing) do not
/// overlap, and without buffering each arrives after the one before is
/// computed.
fn check_machine_order(
    found: &mut Vec<Violation>,
    m: usize,
    mine: &[usize],
    s: &Schedule,
    rules: Rules,
    tol: f64,
) {
    for w in mine.windows(2) {
        let (a, b) = (&s.chunks[w[0]], &s.chunks[w[1]]);
        if b.compute.start < a.compute.end - tol {
            let message = format!(
                "P{} computes chunks {} and {} at once",
                m + 1,
                w[0] + 1,
                w[1] + 1
            );
            let v = broken(Rule::OneAtATime, message).machine(m).chunk(w[1]);
            found.push(v.amounts(b.compute.start, a.compute.end));
        }
        if rules.receive_after_compute && b.send.start < a.compute.end - tol {
            let message = format!(
                "P{} receives chunk {} from {} before it has finished computing chunk {} at {}",
                m + 1,
                w[1] + 1,
                h(b.send.start),
                w[0] + 1,
                h(a.compute.end)
            );
            let v = broken(Rule::ReceiveAfterCompute, message)
                .machine(m)
                .chunk(w[1]);
            found.push(v.amounts(b.send.start, a.compute.end));
        }
    }
}
