//! The request: the load, the machines (rows with a count), the criterion
//! and the algorithm; and its validation, whole, before any work.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::HeterogeneousInvalid;
use crate::core::domain::count::Count;
use crate::core::domain::error::{Checker, Invalid, Validate};
use crate::core::domain::processing::check_two_lines;

/// The most machines, with counts expanded (the heuristics' limit).
pub const MAX_MACHINES: usize = 10_000;
/// The most machines the exact search, a Pareto front or a comparison
/// takes (its relaxation has a few columns per machine).
pub const MAX_EXACT_MACHINES: usize = 32;
/// The most chunks of the exact search.
pub const MAX_EXACT_CHUNKS: usize = 32;
/// The exact search's time limit when the request sets none, in seconds.
pub const DEFAULT_SECONDS: f64 = 30.0;
/// The exact search's default relative gap (proven optimal).
pub const DEFAULT_GAP: f64 = 1e-9;
/// The most chunks a heuristic may send (every chunk is in the answer).
pub const MAX_HEURISTIC_CHUNKS: f64 = 100_000.0;
/// The most points of a Pareto front.
pub const MAX_POINTS: usize = 200;

/// What to minimise.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Objective {
    /// The makespan `T` (then the least energy among the fastest schedules).
    #[default]
    Makespan,
    /// The energy `E` (then the shortest schedule of the same sequence).
    Energy,
    /// The front of schedules no other beats in both `T` and `E`.
    Pareto,
}

/// How to schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// The branch and bound over sequences, with a proven gap.
    #[default]
    Exact,
    /// Static size chunks: each chunk is its receiver's RAM.
    Ssc,
    /// Guided self-scheduling: chunks shrink with the remaining load.
    Gss,
    /// The best SSC schedule over every sort rule.
    SuperSsc,
    /// The best GSS schedule over every sort rule.
    SuperGss,
    /// Every algorithm with every sort rule, side by side.
    Compare,
}

/// The order in which the heuristics prefer machines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SortRule {
    /// Non-decreasing in-core rate `a1`.
    #[default]
    A1,
    /// Non-decreasing out-of-core rate `a2`.
    A2,
    /// Non-decreasing communication rate `C`.
    Rate,
    /// Non-decreasing communication start-up `O`.
    Overhead,
    /// Non-decreasing wake-up time `S`.
    Startup,
    /// Non-decreasing idle power.
    Idle,
    /// Non-decreasing network power.
    Network,
    /// Non-decreasing computing power.
    Compute,
    /// Non-decreasing wake-up energy `P^wake · S`.
    Wake,
    /// Non-increasing RAM `ρ`.
    Ram,
    /// A random order drawn from `seed`.
    Random,
}

impl SortRule {
    /// Every rule, in the order of the comparison table.
    pub const ALL: [SortRule; 11] = [
        SortRule::A1,
        SortRule::A2,
        SortRule::Rate,
        SortRule::Overhead,
        SortRule::Startup,
        SortRule::Idle,
        SortRule::Network,
        SortRule::Compute,
        SortRule::Wake,
        SortRule::Ram,
        SortRule::Random,
    ];

    /// The rule's name in requests.
    pub fn name(self) -> &'static str {
        match self {
            SortRule::A1 => "a1",
            SortRule::A2 => "a2",
            SortRule::Rate => "rate",
            SortRule::Overhead => "overhead",
            SortRule::Startup => "startup",
            SortRule::Idle => "idle",
            SortRule::Network => "network",
            SortRule::Compute => "compute",
            SortRule::Wake => "wake",
            SortRule::Ram => "ram",
            SortRule::Random => "random",
        }
    }
}

/// The mode a machine waits in, which sets its default wake-up time and
/// sleep power.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Switched on and idle: ready at once, sleeping costs idle power.
    #[default]
    On,
    /// Suspended to RAM.
    Suspend,
    /// Hibernated to disk.
    Hibernate,
    /// Switched off.
    Off,
}

impl Mode {
    /// The wake-up time `S` (s) and the sleep power as a fraction of the
    /// idle power that the mode gives when the row leaves them out. Our own
    /// round figures for a server (`[4]` gives none in the text we have):
    /// suspend-to-RAM resumes in seconds at a few percent of idle power,
    /// hibernation needs a disk read, a cold boot takes minutes.
    pub fn defaults(self) -> (f64, f64) {
        match self {
            Mode::On => (0.0, 1.0),
            Mode::Suspend => (10.0, 0.05),
            Mode::Hibernate => (60.0, 0.01),
            Mode::Off => (120.0, 0.005),
        }
    }
}

/// A machine's powers, in W; receiving and computing are above idle.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Power {
    /// While asleep (default: the mode's fraction of `idle`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sleep: Option<f64>,
    /// While waking up.
    pub wake: f64,
    /// While on and idle.
    pub idle: f64,
    /// Above idle while receiving.
    pub network: f64,
    /// Above idle while computing.
    pub compute: f64,
}

/// A row of the machine table: `count` identical machines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    /// In-core processing time per load unit.
    pub a1: f64,
    /// Out-of-core processing time per load unit.
    pub a2: f64,
    /// Out-of-core intercept (negative).
    pub b2: f64,
    /// Communication time per load unit `C`.
    pub rate: f64,
    /// Communication start-up per message `O`.
    pub overhead: f64,
    /// Wake-up time `S` (default: the mode's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub startup: Option<f64>,
    /// How many such machines (default 1).
    #[serde(default = "one")]
    pub count: Count,
    /// The mode it waits in.
    #[serde(default)]
    pub mode: Mode,
    /// Its powers.
    pub power: Power,
}

fn one() -> Count {
    Count(1)
}

/// The originator's powers, in W.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Originator {
    /// For the whole schedule.
    #[serde(default)]
    pub idle_power: f64,
    /// Above idle while sending.
    #[serde(default)]
    pub network_power: f64,
}

/// An M7 request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// The load `V`.
    pub load: f64,
    /// The most chunks `n` of the exact search.
    pub chunks: Count,
    /// What to minimise.
    #[serde(default)]
    pub objective: Objective,
    /// A bound on the makespan while minimising energy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub makespan_limit: Option<f64>,
    /// A bound on the energy while minimising the makespan.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy_limit: Option<f64>,
    /// How to schedule.
    #[serde(default)]
    pub algorithm: Algorithm,
    /// The heuristics' sort rule.
    #[serde(default)]
    pub sort: SortRule,
    /// The seed of the random sort rule.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Count>,
    /// GSS's least chunk (default `max(V/(100 m), 10 O_i/C_i)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_chunk: Option<f64>,
    /// The originator's powers.
    #[serde(default)]
    pub originator: Originator,
    /// The machine table.
    pub machines: Vec<Machine>,
    /// The points of a Pareto front (default 20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Count>,
    /// The exact search stops once its relative gap is at most this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
    /// The exact search's time limit, in seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_seconds: Option<f64>,
}

/// One machine with its defaults filled in, as the solvers see it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Worker {
    pub a1: f64,
    pub a2: f64,
    pub b2: f64,
    pub rate: f64,
    pub overhead: f64,
    pub startup: f64,
    pub sleep: f64,
    pub wake: f64,
    pub idle: f64,
    pub network: f64,
    pub compute: f64,
    /// The row of the table it comes from.
    pub row: usize,
    /// The first worker with the same parameters and powers: workers of one
    /// class are interchangeable.
    pub class: usize,
}

impl Worker {
    /// `τ(α)`.
    pub fn time(&self, size: f64) -> f64 {
        (self.a1 * size).max(self.a2 * size + self.b2)
    }

    /// The RAM `ρ = b2/(a1 − a2)`, where the two lines meet.
    pub fn ram(&self) -> f64 {
        self.b2 / (self.a1 - self.a2)
    }

    /// Sending `α`: `O + Cα`.
    pub fn send(&self, size: f64) -> f64 {
        self.overhead + self.rate * size
    }

    /// Its parameters and powers, bit for bit: equal keys, interchangeable
    /// workers.
    fn key(&self) -> [u64; 11] {
        [
            self.a1,
            self.a2,
            self.b2,
            self.rate,
            self.overhead,
            self.startup,
            self.sleep,
            self.wake,
            self.idle,
            self.network,
            self.compute,
        ]
        .map(f64::to_bits)
    }
}

impl Machine {
    /// The wake-up time, the row's or its mode's.
    pub fn wake_time(&self) -> f64 {
        self.startup.unwrap_or(self.mode.defaults().0)
    }

    /// The sleep power, the row's or its mode's share of idle.
    pub fn sleep_power(&self) -> f64 {
        self.power
            .sleep
            .unwrap_or(self.mode.defaults().1 * self.power.idle)
    }
}

impl Instance {
    /// The machines with counts expanded in place.
    pub(crate) fn workers(&self) -> Vec<Worker> {
        let mut workers: Vec<Worker> = Vec::new();
        // The first worker of each set of parameters and powers.
        let mut classes: std::collections::HashMap<[u64; 11], usize> = Default::default();
        for (row, m) in self.machines.iter().enumerate() {
            for _ in 0..m.count.get() {
                let mut w = Worker {
                    a1: m.a1,
                    a2: m.a2,
                    b2: m.b2,
                    rate: m.rate,
                    overhead: m.overhead,
                    startup: m.wake_time(),
                    sleep: m.sleep_power(),
                    wake: m.power.wake,
                    idle: m.power.idle,
                    network: m.power.network,
                    compute: m.power.compute,
                    row,
                    class: workers.len(),
                };
                w.class = *classes.entry(w.key()).or_insert(w.class);
                workers.push(w);
            }
        }
        workers
    }

    /// The number of machines, counts expanded (saturating).
    pub fn machine_count(&self) -> usize {
        self.machines
            .iter()
            .fold(0usize, |n, m| n.saturating_add(m.count.get()))
    }

    /// Whether both heuristics send few enough chunks to be run (the exact
    /// search and a front start from them only then).
    pub(crate) fn heuristics_fit(&self) -> bool {
        self.heuristic_chunks(true, true) <= MAX_HEURISTIC_CHUNKS
    }

    /// An upper bound on the chunks SSC and/or GSS send: SSC's chunks are
    /// at least the smallest RAM (its last round adds at most one per
    /// machine); each GSS chunk is at least `max(least, min(ρ, R/m))` with
    /// the smallest `least` and `ρ` of the machines, counted step by step.
    pub(crate) fn heuristic_chunks(&self, ssc: bool, gss: bool) -> f64 {
        let m = self.machine_count().max(1) as f64;
        let v = self.load;
        let ram = self.smallest_ram().map_or(f64::INFINITY, |(_, ram)| ram);
        let mut most: f64 = 0.0;
        if ssc {
            most = most.max(v / ram + m);
        }
        if gss {
            let least = match self.min_chunk {
                Some(c) => c,
                None => self
                    .machines
                    .iter()
                    .map(|x| default_least(v, m, x.overhead, x.rate))
                    .fold(f64::INFINITY, f64::min),
            };
            let (mut left, mut count) = (v, 0.0);
            while left > 1e-12 * v && count <= MAX_HEURISTIC_CHUNKS {
                left -= least.max(ram.min(left / m));
                count += 1.0;
            }
            most = most.max(count);
        }
        most
    }
}

impl Instance {
    /// The machine row with the smallest RAM `ρ = b2/(a1 − a2)` (the
    /// load where its second line takes over) and that RAM: it bounds the
    /// heuristics' chunks from below, so a count of chunks too large for
    /// want of RAM is that row's fault.
    fn smallest_ram(&self) -> Option<(usize, f64)> {
        self.machines
            .iter()
            .map(|x| x.b2 / (x.a1 - x.a2))
            .enumerate()
            .fold(None, |best, (i, ram)| match best {
                Some((_, least)) if least <= ram => best,
                _ => Some((i, ram)),
            })
    }

    /// The field a heuristic's chunk count is too large because of: the
    /// machine row of the smallest RAM when SSC's chunks (at least that
    /// RAM) alone are too many, or when GSS's chunks are sized by that RAM
    /// (it is above the least chunk); else `min_chunk` when given, else
    /// `load`.
    fn chunks_fault(&self, ssc: bool) -> String {
        let m = self.machine_count().max(1) as f64;
        let least = self.min_chunk.unwrap_or_else(|| {
            self.machines
                .iter()
                .map(|x| default_least(self.load, m, x.overhead, x.rate))
                .fold(f64::INFINITY, f64::min)
        });
        match self.smallest_ram() {
            Some((i, ram))
                if (ssc && self.load / ram + m > MAX_HEURISTIC_CHUNKS) || ram >= least =>
            {
                format!("machines[{i}]")
            }
            _ if self.min_chunk.is_some() => "min_chunk".into(),
            _ => "load".into(),
        }
    }
}

/// GSS's default least chunk on a machine with link `O + Cα`, for `load`
/// over `machines` machines: `max(V/(100 m), 10 O/C)` (the second term only
/// when `C > 0`). It lives with the instance because the check of a
/// request bounds the heuristics' chunks with it, as GSS sizes them.
pub(crate) fn default_least(load: f64, machines: f64, overhead: f64, rate: f64) -> f64 {
    let amortized = if rate > 0.0 {
        10.0 * overhead / rate
    } else {
        0.0
    };
    (load / (100.0 * machines)).max(amortized)
}

impl Validate for Instance {
    fn check_into(&self, c: &mut Checker) {
        c.positive("load", self.load);
        c.whole("chunks", self.chunks, 1, MAX_EXACT_CHUNKS);
        if c.count("machines", self.machines.len(), MAX_MACHINES) {
            self.check_machines(c);
        }
        c.non_negative("originator.idle_power", self.originator.idle_power);
        c.non_negative("originator.network_power", self.originator.network_power);
        self.check_limits(c);
        if let Some(least) = self.min_chunk {
            c.positive("min_chunk", least);
        }
        if let Some(points) = self.points {
            c.whole("points", points, 2, MAX_POINTS);
        }
        if let Some(gap) = self.gap {
            c.gap("gap", gap);
        }
        if let Some(seconds) = self.max_seconds {
            c.seconds("max_seconds", seconds);
        }
        // The exact search and the front start from the heuristics only
        // when they send few enough chunks; a request for a heuristic must.
        let heuristic = self.algorithm != Algorithm::Exact;
        if c.is_clean() && heuristic {
            self.check_heuristic_chunks(c);
        }
    }
}

impl Instance {
    /// Each row of the machine table, and their count: at most
    /// [`MAX_MACHINES`] in all, and [`MAX_EXACT_MACHINES`] for the exact
    /// search, a front or a comparison (a few LP columns per machine).
    fn check_machines(&self, c: &mut Checker) {
        for (i, m) in self.machines.iter().enumerate() {
            check_machine(c, i, m);
        }
        let total = self.machine_count();
        if total > MAX_MACHINES {
            let invalid = Invalid::TooMany {
                count: total,
                limit: MAX_MACHINES,
            };
            c.fail("machines", invalid);
        }
        let exact = self.algorithm == Algorithm::Exact
            || self.algorithm == Algorithm::Compare
            || self.objective == Objective::Pareto;
        if exact && total > MAX_EXACT_MACHINES && total <= MAX_MACHINES {
            let total = crate::core::domain::number::count(total);
            let why = if self.objective == Objective::Pareto {
                // Whatever the algorithm: the heuristics only add points.
                format!(
                    "a Pareto front always runs the exact search, which takes at most \
                     {MAX_EXACT_MACHINES} machines (here {total}); use fewer machines, or \
                     objective makespan or energy with a heuristic"
                )
            } else {
                format!(
                    "the exact search takes at most {MAX_EXACT_MACHINES} machines (here \
                     {total}); choose ssc, gss, super-ssc or super-gss"
                )
            };
            c.fail("machines", Invalid::TooMuchWork(why));
        }
    }

    /// The makespan and energy limits: positive, and only where a search
    /// reads them (a front sweeps the makespan limit itself, and the
    /// heuristics take none).
    fn check_limits(&self, c: &mut Checker) {
        let heuristic = matches!(
            self.algorithm,
            Algorithm::Ssc | Algorithm::Gss | Algorithm::SuperSsc | Algorithm::SuperGss
        );
        for (field, limit) in [
            ("makespan_limit", self.makespan_limit),
            ("energy_limit", self.energy_limit),
        ] {
            let Some(limit) = limit else { continue };
            if self.objective == Objective::Pareto {
                let why = "with objective makespan or energy: a Pareto front (objective pareto) sweeps the makespan limit itself";
                c.fail(field, Invalid::UsedOnly(why));
            } else if heuristic {
                let why = "by the exact search (algorithm exact or compare): the heuristics (ssc, gss, super-ssc, super-gss) take no limits";
                c.fail(field, Invalid::UsedOnly(why));
            } else {
                c.positive(field, limit);
            }
        }
    }

    /// The heuristics the request runs send at most
    /// [`MAX_HEURISTIC_CHUNKS`] chunks: every chunk is in the answer.
    fn check_heuristic_chunks(&self, c: &mut Checker) {
        let ssc = matches!(
            self.algorithm,
            Algorithm::Ssc | Algorithm::SuperSsc | Algorithm::Compare
        ) || self.objective == Objective::Pareto;
        let gss = ssc && self.algorithm == Algorithm::Compare
            || matches!(self.algorithm, Algorithm::Gss | Algorithm::SuperGss)
            || self.objective == Objective::Pareto;
        let chunks = self.heuristic_chunks(ssc, gss);
        if chunks > MAX_HEURISTIC_CHUNKS {
            c.fail(
                self.chunks_fault(ssc),
                Invalid::TooMuchWork(format!(
                    "a heuristic would send up to {} chunks (load over the smallest chunk), \
                     more than {}; use a smaller load, larger RAM or a larger min_chunk",
                    crate::core::domain::number::human(chunks.round()),
                    crate::core::domain::number::human(MAX_HEURISTIC_CHUNKS)
                )),
            );
        }
    }
}

/// The checks of one row of the machine table.
fn check_machine(c: &mut Checker, i: usize, m: &Machine) {
    let at = |f: &str| format!("machines[{i}].{f}");
    check_two_lines(c, &at(""), m.a1, m.a2, m.b2);
    c.non_negative(&at("rate"), m.rate);
    c.non_negative(&at("overhead"), m.overhead);
    if let Some(s) = m.startup {
        c.non_negative(&at("startup"), s);
    }
    c.whole(&at("count"), m.count, 1, MAX_MACHINES);
    let p = &m.power;
    c.non_negative(&at("power.wake"), p.wake);
    let idle = c.non_negative(&at("power.idle"), p.idle);
    c.non_negative(&at("power.network"), p.network);
    c.non_negative(&at("power.compute"), p.compute);
    // Waking costs at least as much as sleeping: otherwise using a machine
    // would pay for itself, and an empty chunk would count as a use.
    let sleep = m.sleep_power();
    if m.wake_time() > 0.0 && p.wake.is_finite() && sleep.is_finite() && p.wake < sleep {
        let invalid = HeterogeneousInvalid::WakeBelowSleep {
            wake: p.wake,
            sleep,
        };
        c.fail(at("power.wake"), invalid.into());
    }
    if let Some(sleep) = p.sleep {
        if c.non_negative(&at("power.sleep"), sleep) && idle && sleep > p.idle {
            let invalid = Invalid::OutOfBounds {
                value: sleep,
                low: 0.0,
                high: p.idle,
            };
            c.fail(at("power.sleep"), invalid);
        }
    }
}
