//! M7 in the registry: its presets and its answer.

use std::collections::BTreeMap;

use super::instance::{Algorithm, Instance, Machine, Mode, Objective, Originator, Power, SortRule};
use super::Report;
use crate::core::domain::count::Count;
use crate::core::domain::error::Error;
use crate::core::domain::number::number;
use crate::core::framework::calibration::Calibrate;
use crate::core::framework::checker::{Checker, Optimum};
use crate::core::framework::exercise::Template;
use crate::core::framework::maps::Maps;
use crate::core::framework::model::{Former, Identity, Model, Preset};
use crate::core::framework::page::Page;
use crate::core::presentation::form::Form;
use crate::core::presentation::map::{
    Cache, MapParameter, MapQuantity, Measured, Parameter, Quantity, RowParameter,
};
use crate::core::presentation::response::Answer;
use crate::core::solving::progress::{Progress, Silent};

/// M7: heterogeneous machines with sleep modes, time and energy (`[4]`).
#[derive(Debug)]
pub struct Heterogeneous;

/// M7's answer: the report, the Gantt chart with each machine's states, the
/// energy breakdown and the Pareto front.
pub type Output = Answer<Report>;

/// A machine of the presets: processing `a1`, RAM `ram` (so `a2`, `b2` from
/// the reference instance's out-of-core slope ratio), link `rate`, `overhead`.
fn machine(a1: f64, ram: f64, rate: f64, mode: Mode, count: u64, power: [f64; 4]) -> Machine {
    let a2 = a1 * (4.132 / 0.109);
    Machine {
        a1,
        a2,
        b2: -(a2 - a1) * ram,
        rate,
        overhead: 0.075,
        startup: None,
        count: Count(count),
        mode,
        power: Power {
            sleep: None,
            wake: power[0],
            idle: power[1],
            network: power[2],
            compute: power[3],
        },
    }
}

impl Instance {
    /// The small mixed-mode cluster: one machine on, two suspended, one
    /// hibernated; `V = 30 000` MB, `n = 6`.
    pub fn mixed() -> Instance {
        Instance {
            load: 30_000.0,
            chunks: Count(6),
            objective: Objective::Makespan,
            makespan_limit: None,
            energy_limit: None,
            algorithm: Algorithm::Exact,
            sort: SortRule::A1,
            seed: None,
            min_chunk: None,
            originator: Originator {
                idle_power: 50.0,
                network_power: 10.0,
            },
            machines: vec![
                machine(
                    0.109,
                    6739.0,
                    0.005,
                    Mode::On,
                    1,
                    [120.0, 100.0, 20.0, 80.0],
                ),
                machine(
                    0.15,
                    4000.0,
                    0.008,
                    Mode::Suspend,
                    2,
                    [100.0, 80.0, 15.0, 60.0],
                ),
                machine(
                    0.08,
                    8000.0,
                    0.004,
                    Mode::Hibernate,
                    1,
                    [180.0, 150.0, 25.0, 120.0],
                ),
            ],
            points: None,
            gap: None,
            max_seconds: None,
        }
    }

    /// A 100-machine cluster of four kinds, for the heuristics.
    pub fn hundred() -> Instance {
        Instance {
            load: 1_000_000.0,
            chunks: Count(20),
            algorithm: Algorithm::SuperGss,
            machines: vec![
                machine(
                    0.109,
                    6739.0,
                    0.0005,
                    Mode::On,
                    25,
                    [120.0, 100.0, 20.0, 80.0],
                ),
                machine(
                    0.15,
                    4000.0,
                    0.0008,
                    Mode::Suspend,
                    25,
                    [100.0, 80.0, 15.0, 60.0],
                ),
                machine(
                    0.08,
                    8000.0,
                    0.0004,
                    Mode::Hibernate,
                    25,
                    [180.0, 150.0, 25.0, 120.0],
                ),
                machine(0.2, 3000.0, 0.001, Mode::Off, 25, [90.0, 70.0, 10.0, 50.0]),
            ],
            ..Instance::mixed()
        }
    }
}

impl Instance {
    /// M5 with powers: M5's `m` identical machines as one row, woken as
    /// the schedule wants (the fastest schedules are M5's, which wakes them
    /// at 0), with the powers of the mixed preset's first machine. `m`,
    /// `V` and `n` are M5's; its processing, link and start-up too.
    pub fn of_startup(m5: &crate::models::startup::Instance) -> Instance {
        let mut row = Instance::mixed().machines[0].clone();
        row.a1 = m5.a1;
        row.a2 = m5.a2;
        row.b2 = m5.b2;
        row.rate = m5.rate;
        row.overhead = m5.overhead;
        row.startup = Some(m5.startup);
        row.count = m5.machines;
        Instance {
            load: m5.load,
            chunks: m5.chunks,
            machines: vec![row],
            ..Instance::mixed()
        }
    }
}

/// Sets a parameter on every machine row: a map of a mixed cluster scales
/// all of it.
fn every(instance: &mut Instance, set: impl Fn(&mut Machine)) {
    instance.machines.iter_mut().for_each(set);
}

/// Sets the wake-up time of every row waiting in `mode`: a map over one
/// mode's wake-up leaves the other modes' machines as they are.
fn in_mode(instance: &mut Instance, mode: Mode, startup: f64) {
    let rows = instance.machines.iter_mut().filter(|m| m.mode == mode);
    rows.for_each(|m| m.startup = Some(startup));
}

impl Model for Heterogeneous {
    const ID: Identity = Identity {
        number: Some(7),
        former: Former {
            tag: None,
            tab: "m7",
            prefix: "h.",
        },
        own_time_limit: true,
        ..Identity::new("heterogeneous", "Heterogeneous & energy")
    };
    type Request = Instance;
    type Output = Output;

    fn presets() -> Vec<Preset<Instance>> {
        vec![
            Preset {
                name: "heterogeneous",
                label: "[4] a small mixed-mode cluster (on, 2 × suspend, hibernate), n = 6: proven fastest",
                request: Instance::mixed(),
            },
            Preset {
                name: "heterogeneous-energy",
                label: "the same cluster: least energy within T ≤ 1100 s",
                request: Instance {
                    objective: Objective::Energy,
                    makespan_limit: Some(1100.0),
                    ..Instance::mixed()
                },
            },
            Preset {
                name: "heterogeneous-pareto",
                label: "the same cluster: the time–energy Pareto front (20 points) with the heuristics",
                request: Instance {
                    objective: Objective::Pareto,
                    ..Instance::mixed()
                },
            },
            Preset {
                name: "heterogeneous-compare",
                label: "the same cluster: SSC and GSS with every sort rule against the exact search",
                request: Instance {
                    algorithm: Algorithm::Compare,
                    ..Instance::mixed()
                },
            },
            Preset {
                name: "heterogeneous-100",
                label: "100 machines of four kinds in four modes: super-GSS, V = 10⁶ MB",
                request: Instance::hundred(),
            },
        ]
    }

    fn solve(request: &Instance, progress: &mut dyn Progress) -> Result<Output, Error> {
        Ok(super::view::answer(request, request.solve(progress)?))
    }

    fn form() -> Form {
        super::view::form()
    }

    fn exercises() -> Vec<Template> {
        super::exercises::templates()
    }

    fn calibration() -> Option<Calibrate<Instance>> {
        Some(super::calibrate::request)
    }

    /// A machine parameter is set on every row, so a map of a mixed cluster
    /// scales all of it; a cell is a search of its own (or eleven heuristic
    /// runs).
    fn maps() -> Option<Maps<Instance>> {
        Some(Maps {
            presets: super::maps::presets,
            row_parameters: map_row_parameters,
            max_cells: 2_500,
            ..Maps::new(map_parameters, map_quantities, measure)
        })
    }

    fn checker() -> Option<Checker<Instance, Output>> {
        Some(Checker {
            check: super::verify::check_given,
            optimum: |o| Optimum {
                makespan: o.report.makespan,
                energy: Some(o.report.energy),
                proven: o.report.status == super::Status::Optimal,
            },
        })
    }

    fn page() -> Page<Output> {
        Page {
            fill_row,
            activity_style: super::view::style,
            ..Page::default()
        }
    }
}

/// A mode chosen in a row fills in its wake-up time and its sleep
/// power (the mode's share of the row's idle power, when that is a
/// number); the user may then change either.
fn fill_row(column: &str, row: &mut BTreeMap<String, String>) {
    let mode = row.get("mode").cloned().map(serde_json::Value::String);
    let Some(Ok(mode)) = mode.map(serde_json::from_value::<Mode>) else {
        return;
    };
    if column != "mode" {
        return;
    }
    let (startup, share) = mode.defaults();
    row.insert("S".into(), number(startup));
    let idle = row.get("Pi").and_then(|p| p.trim().parse::<f64>().ok());
    if let Some(idle) = idle.filter(|p| p.is_finite() && *p >= 0.0) {
        row.insert("Ps".into(), number(share * idle));
    }
}

/// Every number of one machine row (`machines[k].rate`), so that a map
/// varies one group of a mixed cluster.
fn map_row_parameters() -> Vec<RowParameter<Instance>> {
    let row = row_parameter;
    let count = RowParameter::<Instance> {
        about: Parameter::count("count", "machines in the row").in_rows("machines"),
        set: |i, k, v| i.machines[k].count = Count(v.max(0.0) as u64),
    };
    let mut rows = vec![
        count,
        row(
            "a1",
            "in-core processing time per MB, s/MB",
            "s/MB",
            |i, k, v| i.machines[k].a1 = v,
        ),
        row(
            "a2",
            "out-of-core processing time per MB, s/MB",
            "s/MB",
            |i, k, v| i.machines[k].a2 = v,
        ),
        row("b2", "out-of-core intercept, s", "s", |i, k, v| {
            i.machines[k].b2 = v
        }),
        row(
            "rate",
            "communication time per MB, s/MB",
            "s/MB",
            |i, k, v| i.machines[k].rate = v,
        ),
        row("overhead", "communication start-up, s", "s", |i, k, v| {
            i.machines[k].overhead = v
        }),
        row("wake_time", "wake-up time S, s", "s", |i, k, v| {
            i.machines[k].startup = Some(v)
        }),
    ];
    rows.extend(power_rows());
    rows
}

/// The numbers of a request a map may vary, in the order a map sets them.
fn map_parameters() -> Vec<MapParameter<Instance>> {
    let real = |name, meaning, unit, set| MapParameter {
        about: Parameter::real(name, meaning).unit(unit),
        set,
    };
    let suspend = "wake-up time S of every suspended machine, s";
    let hibernate = "wake-up time S of every hibernated machine, s";
    let off = "wake-up time S of every machine switched off, s";
    let compute = "computing power above idle of every machine, W";
    vec![
        MapParameter {
            about: Parameter::count("machines", "copies of every machine row"),
            set: |i, v| every(i, |m| m.count = Count(v.max(0.0) as u64)),
        },
        real("load", "the load V, MB", "MB", |i, v| i.load = v),
        MapParameter {
            about: Parameter::count("chunks", "the exact search's most chunks n"),
            set: |i, v| i.chunks = Count(v.max(0.0) as u64),
        },
        real(
            "wake_time",
            "wake-up time S of every machine, s",
            "s",
            |i, v| every(i, |m| m.startup = Some(v)),
        ),
        real("wake_time_suspend", suspend, "s", |i, v| {
            in_mode(i, Mode::Suspend, v)
        }),
        real("wake_time_hibernate", hibernate, "s", |i, v| {
            in_mode(i, Mode::Hibernate, v)
        }),
        real("wake_time_off", off, "s", |i, v| in_mode(i, Mode::Off, v)),
        real(
            "rate",
            "communication time C of every machine, s/MB",
            "s/MB",
            |i, v| every(i, |m| m.rate = v),
        ),
        real(
            "overhead",
            "communication start-up O of every machine, s",
            "s",
            |i, v| every(i, |m| m.overhead = v),
        ),
        real(
            "idle_power",
            "idle power of every machine, W",
            "W",
            |i, v| every(i, |m| m.power.idle = v),
        ),
        real("compute_power", compute, "W", |i, v| {
            every(i, |m| m.power.compute = v)
        }),
    ]
}

/// The quantities a map may measure.
fn map_quantities() -> Vec<MapQuantity> {
    vec![
        MapQuantity::always(Quantity::Energy),
        MapQuantity::always(Quantity::Makespan),
        MapQuantity::always(Quantity::Speedup),
        MapQuantity::always(Quantity::Efficiency),
    ]
}

/// The request's algorithm and objective decide the schedule; the gap
/// is the exact search's (a heuristic's value is exact for it: 0).
fn measure(request: &Instance, quantity: Quantity, _: &mut Cache) -> Result<Measured, Error> {
    let report = request.solve(&mut Silent)?;
    let single = request.single();
    let m = request.machine_count() as f64;
    let value = match quantity {
        Quantity::Energy => report.energy,
        Quantity::Makespan => report.makespan,
        Quantity::Speedup => single / report.makespan,
        Quantity::Efficiency => single / (m * report.makespan),
    };
    Ok(Measured {
        value,
        gap: report.gap.unwrap_or(0.0),
    })
}

/// A number of one machine row (`machines[k].name`), in `unit`.
fn row_parameter(
    name: &'static str,
    meaning: &'static str,
    unit: &'static str,
    set: fn(&mut Instance, usize, f64),
) -> RowParameter<Instance> {
    RowParameter {
        about: Parameter::real(name, meaning)
            .unit(unit)
            .in_rows("machines"),
        set,
    }
}

/// The powers of one machine row, in W.
fn power_rows() -> Vec<RowParameter<Instance>> {
    let row = row_parameter;
    vec![
        row("sleep_power", "power asleep, W", "W", |i, k, v| {
            i.machines[k].power.sleep = Some(v)
        }),
        row("wake_power", "power while waking, W", "W", |i, k, v| {
            i.machines[k].power.wake = v
        }),
        row("idle_power", "idle power, W", "W", |i, k, v| {
            i.machines[k].power.idle = v
        }),
        row(
            "network_power",
            "above idle while receiving, W",
            "W",
            |i, k, v| i.machines[k].power.network = v,
        ),
        row(
            "compute_power",
            "above idle while computing, W",
            "W",
            |i, k, v| i.machines[k].power.compute = v,
        ),
    ]
}
