//! M5 in the registry: its preset and its answer, also as the snapshots a
//! long search hands out.

use super::probe::Probe;
use super::{Instance, Report};
use crate::core::domain::count::Count;
use crate::core::domain::error::Error;
use crate::core::framework::calibration::Calibrate;
use crate::core::framework::checker::{Checker, Optimum};
use crate::core::framework::exercise::Template;
use crate::core::framework::maps::Maps;
use crate::core::framework::model::{Former, Identity, Model, Preset};
use crate::core::presentation::form::Form;
use crate::core::presentation::gantt::Gantt;
use crate::core::presentation::map::{
    Cache, MapParameter, MapQuantity, Measured, Parameter, Quantity,
};
use crate::core::presentation::response::Answer;
use crate::core::solving::progress::Progress;

/// M5: multi-installment with machine start-up and memory hierarchy
/// (`[3]`).
#[derive(Debug)]
pub struct Startup;

/// M5's answer: the report and the Gantt chart of its best schedule.
pub type Output = Answer<Report>;

/// The answer of `instance` for `report`: the Gantt chart shows each
/// machine's start-up, and each chunk out of core shaded by how much
/// slower than in core it computes.
pub fn answer(instance: &Instance, report: Report) -> Output {
    let gantt = Gantt::with_slowdowns(&report.schedule, instance.startup, instance.a1);
    Answer {
        gantt: Some(gantt),
        charts: Vec::new(),
        report: Box::new(report),
    }
}

impl Model for Startup {
    const ID: Identity = Identity {
        number: Some(5),
        former: Former {
            tag: None,
            tab: "m5",
            prefix: "s.",
        },
        own_time_limit: true,
        ..Identity::new("startup", "Start-up & installments")
    };
    type Request = Instance;
    type Output = Output;

    fn presets() -> Vec<Preset<Instance>> {
        vec![Preset {
            name: "startup",
            label: "[3] reference instance, m = 2, n = 20, V = 134485 MB (Table 1's Vmax)",
            request: Instance::reference(2, 134_485.0),
        }]
    }

    fn solve(request: &Instance, progress: &mut dyn Progress) -> Result<Output, Error> {
        let report = request.solve(progress)?;
        Ok(answer(request, report))
    }

    fn checker() -> Option<Checker<Instance, Output>> {
        Some(Checker {
            check: Instance::check_given,
            optimum: |o| Optimum {
                makespan: o.report.makespan,
                energy: None,
                proven: o.report.status == super::Status::Optimal,
            },
        })
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

    /// Each cell of a map is a search of its own: about ten minutes for
    /// this many at the reference instance.
    fn maps() -> Option<Maps<Instance>> {
        Some(Maps {
            presets: super::maps::presets,
            max_cells: 10_000,
            ..Maps::new(map_parameters, map_quantities, measure)
        })
    }
}

/// The numbers of a request a map may vary, in the order a map sets them.
fn map_parameters() -> Vec<MapParameter<Instance>> {
    let real = |name, meaning, unit, set| MapParameter {
        about: Parameter::real(name, meaning).unit(unit),
        set,
    };
    vec![
        MapParameter {
            about: Parameter::count("machines", "machines m"),
            set: |i, v| i.machines = Count(v.max(0.0) as u64),
        },
        MapParameter {
            about: Parameter::count("chunks", "most chunks n"),
            set: |i, v| i.chunks = Count(v.max(0.0) as u64),
        },
        real("load", "the load V (MB in the presets)", "MB", |i, v| {
            i.load = v
        }),
        real(
            "a1",
            "in-core time per load unit a1 (s/MB)",
            "s/MB",
            |i, v| i.a1 = v,
        ),
        real(
            "a2",
            "out-of-core time per load unit a2 (s/MB)",
            "s/MB",
            |i, v| i.a2 = v,
        ),
        real("b2", "out-of-core intercept b2 (s)", "s", |i, v| i.b2 = v),
        real(
            "rate",
            "communication time per load unit C (s/MB)",
            "s/MB",
            |i, v| i.rate = v,
        ),
        real(
            "overhead",
            "time to start one message O (s)",
            "s",
            |i, v| i.overhead = v,
        ),
        real("startup", "machine start-up time S (s)", "s", |i, v| {
            i.startup = v
        }),
        // Last, so that a1 and a2 are final when ρ = b2/(a1 − a2) sets b2.
        real(
            "ram",
            "usable RAM ρ = b2/(a1 − a2) (MB), through b2",
            "MB",
            |i, v| i.b2 = v * (i.a1 - i.a2),
        ),
    ]
}

/// The quantities a map may measure.
fn map_quantities() -> Vec<MapQuantity> {
    [Quantity::Efficiency, Quantity::Speedup, Quantity::Makespan]
        .into_iter()
        .map(MapQuantity::always)
        .collect()
}

/// The map probe ([`Probe`]) rather than the full search: its hint
/// carries from cell to cell, and its gap is proven.
fn measure(request: &Instance, quantity: Quantity, cache: &mut Cache) -> Result<Measured, Error> {
    let (probe, fresh) = cache.get_or_make(|| Probe::new(request))?;
    if !fresh {
        probe.retarget(request)?;
    }
    let point = probe.at(request.load)?;
    let value = match quantity {
        Quantity::Efficiency => point.efficiency,
        Quantity::Speedup => point.efficiency * request.machines.as_f64(),
        Quantity::Makespan => point.makespan,
        Quantity::Energy => {
            return Err(Error::Malformed("the start-up model has no energy".into()))
        }
    };
    Ok(Measured {
        value,
        gap: point.gap,
    })
}
