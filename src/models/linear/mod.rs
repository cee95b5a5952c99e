//! M2: linear DLT on a star, one installment, with the energy model of
//! `[1]`.
//!
//! The originator sends one chunk to each machine in turn; sending `x` to
//! `P_i` takes `S_i + x C_i` and computing it takes `A_i x`. In the optimum
//! all machines in use finish together:
//! `α_i A_i = S_{i+1} + α_{i+1}(A_{i+1} + C_{i+1})`, `Σ α_i = V`.
//!
//! We solve it forward in `O(m)`: every `α_i` is an affine function
//! `a_i α_1 + b_i` of the first machine's load (`a_1 = 1, b_1 = 0`,
//! `a_i = a_{i-1} A_{i-1}/(A_i + C_i)`, `b_i = (b_{i-1} A_{i-1} − S_i)/(A_i + C_i)`),
//! so for every prefix `p` of the machines `α_1 = (V − Σ_{i≤p} b_i)/Σ_{i≤p} a_i`
//! and the makespan `T = S_1 + (C_1 + A_1) α_1`. A prefix is usable when no
//! `α_i` comes out negative (with start-up costs, a small load cannot keep
//! many machines busy); the best usable prefix is the one with the smallest
//! `α_1`, hence the shortest schedule. Working forward avoids the overflow of
//! the backward form `α_i = k_i α_m + l_i`, whose `k_i` grow geometrically.
//!
//! Energy (`[1]`, originator not computing, `k` = idle power reduction):
//! `E_I = T((m+1)P_C + P_N)/k` for the idle base of the originator, the `m`
//! machines and the network; `E_RN = P_N (k−1)/k · Σ(S_i + C_i α_i)` while
//! the network sends; `E_RC = P_C (k−1)/k · (Σ(S_i + C_i α_i) +
//! Σ(S_i + (C_i + A_i) α_i))` while the originator sends and each machine
//! receives and computes. For identical machines this is `[1]`'s
//! `P_C (k−1)/k (2mS + (2C + A)V)`. Machines left unused still idle, so they
//! count in `E_I`.

mod calibrate;
mod energy;
mod exercises;
mod maps;
mod model;
mod plan;
mod solve;
pub mod subset;
mod view;

pub use model::{Linear, Output};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::domain::count::Count;
use crate::core::domain::error::Error;
use crate::core::domain::error::{Checker, Invalid, Validate};
use crate::core::domain::platform::{check_order, Processor};
use crate::core::domain::processing::ProcessingTime;
use crate::core::domain::schedule::{Chunk, Interval, Schedule};
use crate::core::domain::verify::{verify, Rules, Verdict};
use crate::core::framework::checker::{Given, Measured};
use crate::core::presentation::chart::{Axis, Line, LineChart};

/// The most machines an instance may have (after expanding `count`).
pub const MAX_MACHINES: usize = 1_000_000;
/// The most machines for which every activation order is tried.
pub const MAX_ENUMERATED: usize = 8;
/// The most points of the energy series.
pub const MAX_SERIES_POINTS: usize = 400;
/// The most machines a schedule is returned for (the chart and table).
pub const MAX_SCHEDULE: usize = 2_000;

/// A machine with a linear processing time, and how many identical copies
/// of it there are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Machine {
    /// Communication start-up time `S_i`.
    pub startup: f64,
    /// Communication time per load unit `C_i`.
    pub rate: f64,
    /// Computing time per load unit `A_i`.
    pub compute: f64,
    /// Identical copies of this machine (default 1), a whole number (kept
    /// as a number so that a fractional or negative count gets a message).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub count: Count,
}

fn one() -> Count {
    Count(1)
}

fn is_one(n: &Count) -> bool {
    n.0 == 1
}

/// Power parameters of the energy model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Power {
    /// `P_C`: power of an active processor (the originator included).
    pub processor: f64,
    /// `P_N`: power of the active network.
    pub network: f64,
    /// `k`: idle power is `P_C/k` and `P_N/k`.
    pub idle_factor: f64,
}

/// An M2 instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// The load `V`.
    pub load: f64,
    /// The machines, in the order they are served (each `count` times).
    pub machines: Vec<Machine>,
    /// Serving order, as indices into the expanded machine list.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Vec<usize>>,
    /// Try every order (at most [`MAX_ENUMERATED`] machines).
    #[serde(default)]
    pub best_order: bool,
    /// Compute the energy with these powers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<Power>,
    /// Also compute `T(m)` (and energy) for the first `m` machines, for
    /// `m` from 1 up to all of them (logarithmically spaced when many).
    #[serde(default)]
    pub series: bool,
    /// What the set of machines is chosen for.
    #[serde(default, skip_serializing_if = "Objective::is_time")]
    pub objective: Objective,
    /// With the energy objective: the set must finish by this time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadline: Option<f64>,
}

/// What the set of machines is chosen for.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Objective {
    /// The shortest schedule.
    #[default]
    Time,
    /// The least energy (needs `power`), by the deadline if one is given.
    Energy,
}

impl Objective {
    fn is_time(&self) -> bool {
        *self == Objective::Time
    }
}

/// Energy and its parts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Energy {
    /// `E_I`: idle base of everything for the whole schedule.
    pub idle: f64,
    /// `E_RN`: network above idle.
    pub network: f64,
    /// `E_RC`: processors above idle.
    pub processors: f64,
    /// `E = E_I + E_RN + E_RC`.
    pub total: f64,
}

/// One point of the series over the number of machines.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SeriesPoint {
    /// Machines in the system (the first `machines` of the list).
    pub machines: usize,
    /// How many of them receive load.
    pub active: usize,
    /// `T(m)`.
    pub makespan: f64,
    /// Speedup `T(1)/T(m)`.
    pub speedup: f64,
    /// Energy, when powers were given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy: Option<f64>,
}

/// The answer for an M2 instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// Machines in the system.
    pub machines: usize,
    /// The serving order (indices into the expanded list), when it is not
    /// the listed order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Vec<usize>>,
    /// How many machines receive load.
    pub active: usize,
    /// Why fewer machines than available are used, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// The shortest makespan `T` (of the verified schedule).
    pub makespan: f64,
    /// A proven lower bound on `T` when the search could not prove its
    /// answer optimal (absent: proven optimal).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<f64>,
    /// The positions in the serving order of the machines that receive load
    /// (only the first [`MAX_SCHEDULE`]).
    pub used: Vec<usize>,
    /// The machines left out, run by run, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<Skipped>,
    /// `T(1) = S_1 + (C_1 + A_1)V` with the first machine alone.
    pub single: f64,
    /// The load of each machine in `used`.
    pub sizes: Vec<f64>,
    /// The schedule, when at most [`MAX_SCHEDULE`] machines are active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Schedule>,
    /// The verifier's verdict (on the full schedule).
    pub verdict: Verdict,
    /// Energy, when powers were given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy: Option<Energy>,
    /// `T(m)` and energy for growing `m`, when asked for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<SeriesPoint>,
    /// How many serving orders were tried (with "best order": every
    /// sequence of distinct machines, each a subset in an order).
    pub orders_tried: usize,
}

/// Consecutive machines of the serving order that receive no load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skipped {
    /// The first one's position in the serving order.
    pub from: usize,
    /// The last one's.
    pub to: usize,
    /// Why, in words.
    pub reason: String,
}

/// The optimal split over a prefix of machines in a given order.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    /// How many machines (from the front of the order) receive load.
    pub active: usize,
    /// Their loads, in serving order.
    pub sizes: Vec<f64>,
    /// The makespan.
    pub makespan: f64,
    /// Machines left out because their share would underflow to nothing.
    pub negligible: bool,
}

/// The best prefix split of `load` over `machines` served in this order, in
/// `O(m)`.
pub fn split(machines: &[&Machine], load: f64) -> Split {
    let first = machines[0];
    let (mut a, mut b) = (1.0_f64, 0.0_f64);
    let (mut sum_a, mut sum_b, mut need) = (0.0, 0.0, 0.0_f64);
    let mut best = (load, 1);
    let mut negligible = false;
    for (i, m) in machines.iter().enumerate() {
        if i > 0 {
            let prev = machines[i - 1];
            let denominator = m.compute + m.rate;
            a = a * prev.compute / denominator;
            b = (b * prev.compute - m.startup) / denominator;
            // A share this small is no share: the machine and all after it
            // would get less than 1e-300 of the load.
            if a < 1e-300 {
                negligible = true;
                break;
            }
        }
        sum_a += a;
        sum_b += b;
        need = need.max(-b / a);
        let alpha_1 = (load - sum_b) / sum_a;
        if alpha_1 >= need && alpha_1 < best.0 {
            best = (alpha_1, i + 1);
        }
    }
    let (alpha_1, active) = best;
    // Recompute the loads of the chosen prefix with the recurrence itself.
    let mut sizes = Vec::with_capacity(active);
    let mut alpha = alpha_1;
    sizes.push(alpha);
    for i in 1..active {
        let (prev, m) = (machines[i - 1], machines[i]);
        alpha = ((alpha * prev.compute - m.startup) / (m.compute + m.rate)).max(0.0);
        sizes.push(alpha);
    }
    Split {
        active,
        makespan: first.startup + (first.rate + first.compute) * alpha_1,
        sizes,
        negligible: negligible && active == machines.len(),
    }
}

impl Instance {
    /// `[1]`'s energy preset: identical machines, `A = 1, C = 1e−6,
    /// S = 1e2, P_N = 50, P_C = 200, k = 3`, with `count` machines and load
    /// `load` (the slides use `1e13` and `1e3`).
    pub fn energy_preset(load: f64, count: usize) -> Instance {
        Instance {
            load,
            machines: vec![Machine {
                startup: 1e2,
                rate: 1e-6,
                compute: 1.0,
                count: Count::from(count),
            }],
            order: None,
            best_order: false,
            power: Some(Power {
                processor: 200.0,
                network: 50.0,
                idle_factor: 3.0,
            }),
            series: true,
            objective: Objective::Time,
            deadline: None,
        }
    }

    /// The machine list with every `count` expanded.
    pub fn expanded(&self) -> Vec<&Machine> {
        self.machines
            .iter()
            .flat_map(|m| std::iter::repeat_n(m, m.count.get()))
            .collect()
    }
}

/// `1..=n` when short, else about `limit` logarithmically spaced counts from
/// 1 to `n` (always including both).
pub fn series_counts(n: usize, limit: usize) -> Vec<usize> {
    if n <= limit {
        return (1..=n).collect();
    }
    let mut counts: Vec<usize> = (0..limit)
        .map(|k| ((n as f64).powf(k as f64 / (limit - 1) as f64)).round() as usize)
        .collect();
    counts.dedup();
    if counts.last() != Some(&n) {
        counts.push(n);
    }
    counts
}

impl Instance {
    /// A schedule given by hand checked against M2's rules (one chunk per
    /// machine), with its energy when the request has powers: the time on
    /// the link and the time receiving or computing, as the model counts
    /// them.
    ///
    /// # Errors
    ///
    /// A chunk to a machine that does not exist, at its field.
    pub(crate) fn check_given(&self, given: &Given) -> Result<Measured, Error> {
        let all = self.expanded();
        let processors: Vec<Processor> = all.iter().map(|m| as_processor(m)).collect();
        let s = given.schedule(&processors, 0.0, false)?;
        let verdict = verify(&processors, self.load, &s, Rules::SINGLE_INSTALLMENT);
        let sending: f64 = s.chunks.iter().map(|c| c.send.len()).sum();
        let busy: f64 = sending + s.chunks.iter().map(|c| c.compute.len()).sum::<f64>();
        let energy =
            (self.power.as_ref()).map(|p| energy_of(p, sending, busy, s.makespan, all.len()));
        Ok(Measured {
            energy: energy.map(|e| e.total),
            ..Measured::of(verdict, &s)
        })
    }
}

/// The channel's busy time `Σ(S + Cα)` and the machines'
/// `Σ(S + (C+A)α)` of a schedule of `active` machines with loads `sizes`:
/// with its makespan, all its energy needs ([`energy_of`]), so that a map
/// whose cells differ only in the powers solves each schedule once.
fn busy_of(active: &[&Machine], sizes: &[f64]) -> (f64, f64) {
    let sending: f64 = active
        .iter()
        .zip(sizes)
        .map(|(m, a)| m.startup + m.rate * a)
        .sum();
    let receiving_and_computing: f64 = active
        .iter()
        .zip(sizes)
        .map(|(m, a)| m.startup + (m.rate + m.compute) * a)
        .sum();
    (sending, receiving_and_computing)
}

/// The energy from the channel's busy time `Σ(S + Cα)` and the machines'
/// `Σ(S + (C+A)α)`.
fn energy_of(
    p: &Power,
    sending: f64,
    receiving_and_computing: f64,
    makespan: f64,
    system: usize,
) -> Energy {
    let k = p.idle_factor;
    let idle = makespan * ((system as f64 + 1.0) * p.processor + p.network) / k;
    let network = p.network * (k - 1.0) / k * sending;
    let processors = p.processor * (k - 1.0) / k * (sending + receiving_and_computing);
    Energy {
        idle,
        network,
        processors,
        total: idle + network + processors,
    }
}

/// A linear machine as a general one, for the verifier.
fn as_processor(m: &Machine) -> Processor {
    Processor {
        startup: m.startup,
        rate: m.rate,
        levels: ProcessingTime::linear(m.compute),
        cap: None,
    }
}

/// The schedule of the active prefix: back-to-back sends, computing on
/// arrival. `order[k]` is the index of the `k`-th served machine.
fn schedule_of(active: &[&Machine], sizes: &[f64], machines: usize, order: &[usize]) -> Schedule {
    let mut clock = 0.0;
    let chunks: Vec<Chunk> = active
        .iter()
        .zip(sizes)
        .zip(order)
        .map(|((m, &size), &machine)| {
            let send = Interval {
                start: clock,
                end: clock + m.startup + m.rate * size,
            };
            clock = send.end;
            Chunk {
                machine,
                size,
                send,
                compute: Interval {
                    start: send.end,
                    end: send.end + m.compute * size,
                },
                level: 0,
            }
        })
        .collect();
    Schedule::new(machines, chunks)
}

impl Report {
    /// The series as charts: energy against schedule length (`[1]`), and
    /// speedup against the number of machines.
    pub fn charts(&self) -> Vec<LineChart> {
        if self.series.is_empty() {
            return Vec::new();
        }
        let markers = self.series.len() <= 60;
        let mut charts = Vec::new();
        let energy: Vec<[f64; 2]> = self
            .series
            .iter()
            .filter_map(|p| p.energy.map(|e| [p.makespan, e]))
            .collect();
        if let Some(min) = energy.iter().copied().min_by(|a, b| a[1].total_cmp(&b[1])) {
            charts.push(LineChart {
                name: "energy".into(),
                title: "Energy E against schedule length T(m), m growing".into(),
                x: Axis::fitting("schedule length T(m) (s)", energy.iter().map(|p| p[0])),
                y: Axis::fitting("energy E (J)", energy.iter().map(|p| p[1])),
                lines: vec![
                    Line::new("E(T(m))", energy, markers),
                    Line::new("least energy", vec![min], true),
                ],
                legend: true,
            });
        }
        let many = self.series.last().is_some_and(|p| p.machines > 100);
        charts.push(LineChart {
            name: "speedup".into(),
            title: "Speedup T(1)/T(m)".into(),
            x: if many {
                Axis::log("machines m").pure()
            } else {
                Axis::linear("machines m").whole()
            },
            y: Axis::linear("speedup").pure(),
            lines: vec![Line::new(
                "speedup",
                self.series
                    .iter()
                    .map(|p| [p.machines as f64, p.speedup])
                    .collect(),
                markers,
            )],
            legend: true,
        });
        charts
    }
}

impl Instance {
    /// The energy objective needs powers; a deadline needs the energy
    /// objective.
    fn check_objective(&self, c: &mut Checker) {
        if self.objective == Objective::Energy && self.power.is_none() {
            c.fail("power", Invalid::Needed("the objective is energy".into()));
        }
        if let Some(deadline) = self.deadline {
            if self.objective != Objective::Energy {
                c.fail(
                    "deadline",
                    Invalid::UsedOnly(
                        "with the energy objective, where it bounds the length of the \
                         least-energy schedule; the objective here is time (the fastest set)",
                    ),
                );
            } else {
                c.positive("deadline", deadline);
            }
        }
    }

    /// Choosing by energy tries every set: bound their number.
    fn check_sets(&self, c: &mut Checker) {
        let all = self.expanded();
        let served: Vec<&Machine> = match &self.order {
            Some(order) => order.iter().filter_map(|&i| all.get(i).copied()).collect(),
            None => all,
        };
        let sets = energy::sets(&subset::runs(&served));
        if sets > energy::MAX_SETS {
            let why = format!(
                "the energy objective tries every set of machines: {sets} here, the limit is \
                 {}; use fewer copies or fewer distinct machines",
                energy::MAX_SETS
            );
            c.fail("objective", Invalid::TooMuchWork(why));
        }
    }
}

impl Validate for Instance {
    fn check_into(&self, c: &mut Checker) {
        c.positive("load", self.load);
        if c.count("machines", self.machines.len(), MAX_MACHINES) {
            let mut total = 0usize;
            for (i, m) in self.machines.iter().enumerate() {
                c.non_negative(&format!("machines[{i}].startup"), m.startup);
                c.non_negative(&format!("machines[{i}].rate"), m.rate);
                c.positive(&format!("machines[{i}].compute"), m.compute);
                if c.whole(&format!("machines[{i}].count"), m.count, 1, MAX_MACHINES) {
                    total = total.saturating_add(m.count.get());
                }
            }
            if !c.is_clean() {
                return;
            }
            if total > MAX_MACHINES {
                let invalid = Invalid::TooMany {
                    count: total,
                    limit: MAX_MACHINES,
                };
                c.fail("machines", invalid);
                return;
            }
            if let Some(order) = &self.order {
                check_order("order", order, total, c);
            }
            if self.best_order && total > MAX_ENUMERATED {
                let invalid = Invalid::TooMany {
                    count: total,
                    limit: MAX_ENUMERATED,
                };
                c.fail("best_order", invalid);
            } else if self.objective == Objective::Energy && !self.best_order {
                self.check_sets(c);
            }
        }
        self.check_objective(c);
        if let Some(p) = &self.power {
            c.non_negative("power.processor", p.processor);
            c.non_negative("power.network", p.network);
            if c.finite("power.idle_factor", p.idle_factor) && p.idle_factor < 1.0 {
                c.fail(
                    "power.idle_factor",
                    Invalid::BelowMinimum {
                        value: p.idle_factor,
                        minimum: 1.0,
                    },
                );
            }
        }
    }
}
