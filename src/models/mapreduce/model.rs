//! M8 in the registry: its presets and its answer.

use super::{Instance, Report, Series};
use crate::core::domain::count::Count;
use crate::core::domain::error::Error;
use crate::core::framework::exercise::Template;
use crate::core::framework::maps::Maps;
use crate::core::framework::model::{hand_out, Former, Identity, Model, Preset};
use crate::core::framework::page::Page;
use crate::core::framework::parts::Parts;
use crate::core::presentation::form::Form;
use crate::core::presentation::map::{
    Cache, MapParameter, MapQuantity, Measured, Parameter, Quantity,
};
use crate::core::presentation::response::Answer;
use crate::core::solving::progress::{Progress, Silent};

/// M8: MapReduce as a divisible load (`[1]`).
#[derive(Debug)]
pub struct MapReduce;

/// M8's answer: the report, the Gantt chart of its schedule and the
/// series' charts.
pub type Output = Answer<Report>;

/// `[1]`'s series of speedup against `m` (1 to 2000, 40 values).
fn series(reducers: Vec<u64>, gammas: Vec<f64>) -> Instance {
    Instance {
        series: Some(Series {
            from: Count(1),
            to: Count(2000),
            points: Count(40),
            reducers: reducers.into_iter().map(Count).collect(),
            channels: Vec::new(),
            gammas,
        }),
        ..Instance::reference()
    }
}

impl Model for MapReduce {
    const ID: Identity = Identity {
        number: Some(8),
        former: Former {
            tag: None,
            tab: "m8",
            prefix: "mr.",
        },
        ..Identity::new("mapreduce", "MapReduce")
    };
    type Request = Instance;
    type Output = Output;

    fn presets() -> Vec<Preset<Instance>> {
        let small = Instance {
            load: 1e9,
            mappers: Count(4),
            reducers: Count(4),
            channels: Count(2),
            ..Instance::reference()
        };
        vec![
            Preset {
                name: "mapreduce",
                label: "[1] reference: V = 1 PB, m = 1000, r = ℓ = 100, γ = 0.1",
                request: Instance::reference(),
            },
            Preset {
                name: "mapreduce-small",
                label: "[1]'s shuffle figure: m = r = 4, ℓ = 2, V = 1 GB",
                request: small,
            },
            Preset {
                name: "mapreduce-reducers",
                label: "[1] speedup against m for r = ℓ = 10, 50, 100, 200",
                request: series(vec![10, 50, 100, 200], Vec::new()),
            },
            Preset {
                name: "mapreduce-gamma",
                label: "[1] speedup against m for γ = 0.01, 0.1, 0.5, 1 (r = ℓ = 100)",
                request: series(Vec::new(), vec![0.01, 0.1, 0.5, 1.0]),
            },
        ]
    }

    /// A series stopped (cancel, time limit) hands out the lines it has as
    /// a provisional answer before it reports the stop.
    fn solve(request: &Instance, progress: &mut dyn Progress) -> Result<Output, Error> {
        let (report, stopped) = request.solve_until_stopped(progress)?;
        let output = Answer {
            gantt: Some(super::gantt::gantt(request, &report)),
            charts: report.charts(),
            report: Box::new(report),
        };
        if stopped {
            hand_out::<MapReduce>(&output, progress);
            return Err(Error::Cancelled);
        }
        Ok(output)
    }

    fn form() -> Form {
        super::view::form()
    }

    fn exercises() -> Vec<Template> {
        super::exercises::templates()
    }

    /// Each cell solves an LP with a column per mapper and simulates `m·r`
    /// transfers.
    fn maps() -> Option<Maps<Instance>> {
        Some(Maps {
            presets: super::maps::presets,
            max_cells: 2_500,
            ..Maps::new(map_parameters, map_quantities, measure)
        })
    }

    /// A series in parts: one line each (every part also solves the
    /// request's own schedule, which the join keeps once).
    fn parts() -> Option<Parts<Instance, Output>> {
        Some(Parts {
            split: super::series::parts,
            join,
        })
    }

    fn page() -> Page<Output> {
        Page {
            activity_style: super::gantt::style,
            ..Page::default()
        }
    }
}

/// The series' lines from its parts, with the request's own schedule once.
fn join(request: &Instance, parts: Vec<Output>) -> Result<Output, Error> {
    let mut parts = parts.into_iter();
    let Some(first) = parts.next() else {
        return Err(Error::Malformed("a series joins at least one part".into()));
    };
    let mut report = *first.report;
    report.series.extend(parts.flat_map(|p| p.report.series));
    Ok(Answer {
        gantt: Some(super::gantt::gantt(request, &report)),
        charts: report.charts(),
        report: Box::new(report),
    })
}

/// The numbers of a request a map may vary, in the order a map sets them.
fn map_parameters() -> Vec<MapParameter<Instance>> {
    vec![
        MapParameter {
            about: Parameter::count("mappers", "mappers m"),
            set: |i, v| i.mappers = Count(v.max(0.0) as u64),
        },
        MapParameter {
            about: Parameter::count("reducers", "reducers r (and ℓ = r)"),
            set: |i, v| {
                i.reducers = Count(v.max(0.0) as u64);
                i.channels = i.reducers;
            },
        },
        MapParameter {
            about: Parameter::count("channels", "bisection width ℓ"),
            set: |i, v| i.channels = Count(v.max(0.0) as u64),
        },
        MapParameter {
            about: Parameter::real("load", "the load V, in bytes").unit("B"),
            set: |i, v| i.load = v,
        },
        MapParameter {
            about: Parameter::real("gamma", "the fraction γ of its input a mapper emits").pure(),
            set: |i, v| i.gamma = v,
        },
        MapParameter {
            about: Parameter::real("startup", "start-up time S of each machine, s").unit("s"),
            set: |i, v| i.startup = v,
        },
        MapParameter {
            about: Parameter::real("rate", "communication time C, s per byte").unit("s/B"),
            set: |i, v| i.rate = v,
        },
    ]
}

/// The quantities a map may measure.
fn map_quantities() -> Vec<MapQuantity> {
    vec![
        MapQuantity::always(Quantity::Efficiency),
        MapQuantity::always(Quantity::Speedup),
        MapQuantity::always(Quantity::Makespan),
    ]
}

/// A quantity at a valid request (its series left out), with the
/// schedule's proven gap.
fn measure(request: &Instance, quantity: Quantity, _: &mut Cache) -> Result<Measured, Error> {
    let plain = Instance {
        series: None,
        ..request.clone()
    };
    let report = plain.solve(&mut Silent)?;
    let machines = (request.mappers.0 + request.reducers.0) as f64;
    let value = match quantity {
        Quantity::Efficiency => report.speedup / machines,
        Quantity::Speedup => report.speedup,
        Quantity::Makespan => report.makespan,
        Quantity::Energy => f64::NAN,
    };
    Ok(Measured {
        value,
        gap: report.gap,
    })
}
