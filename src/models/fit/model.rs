//! M9 in the registry: its presets, its form and its answer.

use std::marker::PhantomData;

use serde_json::{json, Value};

use super::data::{
    DataSet, CLUSTER, NETWORK_000, POWER_004, SORT_COMPUTE, SORT_LINK, SORT_RUNS, SQLITE_COMPUTE,
    SQLITE_LINK, SQLITE_RUNS, TWO_LEVEL_000,
};
use super::from_table::Tables;
use super::report::{fit_tables, tables, targets, Report};
use super::request::{Check, Examples, Noise, Request, Shape};
use super::table::{Measurements, Quantity, Table};
use crate::core::domain::error::Error;
use crate::core::framework::calibration::Latency;
use crate::core::framework::exercise::Template;
use crate::core::framework::model::{Identity, Model, Preset};
use crate::core::framework::page::Page;
use crate::core::framework::registry::Registry;
use crate::core::framework::table::TableInput;
use crate::core::presentation::chart::{Axis, LineChart};
use crate::core::presentation::form::Form;
use crate::core::presentation::map::Tagged;
use crate::core::presentation::response::Answer;
use crate::core::solving::progress::Progress;

/// M9: the models' parameters from a user's measurements, and the models
/// checked against measured runs (`[1]` §2, `[4]`, `[3]`), over the
/// registry `C`.
#[derive(Debug)]
pub struct Fit<C>(PhantomData<C>);

/// M9's answer: the report and its charts.
pub type Output = Answer<Report>;

/// A request of the tables given, everything else by default.
fn request<C>(tables: &[(&str, &DataSet)]) -> Request<C> {
    let mut request = Request {
        transfers: None,
        computation: None,
        shape: Shape::Auto,
        lines: None,
        noise: Noise::Absolute,
        energy: None,
        power: None,
        latency_as: Latency::Overhead,
        validity: None,
        examples: Examples::default(),
        registry: PhantomData,
    };
    // A preset's tables are examples: a table the user gives in their
    // place sends them out of the fit (`Request::uses`).
    for (field, data) in tables {
        let table = Some(Measurements::Csv(data.csv.to_string()));
        match *field {
            "transfers" => (request.transfers, request.examples.transfers) = (table, true),
            "computation" => (request.computation, request.examples.computation) = (table, true),
            _ => (request.power, request.examples.power) = (table, true),
        }
    }
    request
}

/// M2's energy preset with four measured runs, each 9 to 13 % slower than
/// the model predicts (what `[1]` reports for LZW on an IBM SP2); the runs
/// as a table, as the page's form takes them.
fn validity<C>() -> Request<C> {
    let linear = json!({
        "load": 1000.0,
        "machines": [{"startup": 100.0, "rate": 1e-6, "compute": 1.0, "count": 30}],
    });
    let base = Tagged {
        model: "linear".into(),
        fields: linear.as_object().cloned().unwrap_or_default(),
    };
    let runs = "run,load_MB,time_s\n\
                V = 1000,1000,545\n\
                V = 2000,2000,772.2\n\
                V = 5000,5000,1155\n\
                V = 10000,10000,1640\n";
    Request {
        validity: Some(Check {
            request: base,
            runs: Vec::new(),
            measured: Some(Measurements::Csv(runs.into())),
        }),
        ..request(&[])
    }
}

/// A real experiment of `python3 -m harness loop` (`docs/real-run.md`): its
/// computing and link tables, fitted for relative noise as the loop fits
/// them, and the runs of M3's split checked against the M3 request the
/// loop solved, which came from the same tables (kept here as it was, so
/// the check shows the error the experiment measured).
struct Experiment {
    compute: DataSet,
    link: DataSet,
    runs: DataSet,
    /// The largest load run (each run sets its own).
    load: f64,
    /// One worker as the loop's fit made it (`fit.json` of the loop).
    worker: Worker,
}

/// A fitted worker: computing `max(a1 α, a2 α + b2)` s, its link
/// `startup + rate α` s.
struct Worker {
    a1: f64,
    a2: f64,
    b2: f64,
    rate: f64,
    startup: f64,
}

/// SQLite loading lines into an indexed table: a knee as `[3]` has it,
/// only the part of the index beyond the page cache is slow.
const SQLITE: Experiment = Experiment {
    compute: SQLITE_COMPUTE,
    link: SQLITE_LINK,
    runs: SQLITE_RUNS,
    load: 50.96,
    worker: Worker {
        a1: 0.01962738333333334,
        a2: 0.04577359326952846,
        b2: -0.19034504531417845,
        rate: 0.010032816978653812,
        startup: 0.00021387751543348096,
    },
};

/// GNU sort with gzip-compressed spills: a step at the budget, which the
/// continuous two levels have to bridge.
const SORT: Experiment = Experiment {
    compute: SORT_COMPUTE,
    link: SORT_LINK,
    runs: SORT_RUNS,
    load: 67.51,
    worker: Worker {
        a1: 0.006076180555555556,
        a2: 0.15870375027697778,
        b2: -1.471975150916692,
        rate: 0.009999789509023235,
        startup: 0.00035998429429282,
    },
};

/// The fit preset of a measured experiment.
fn measured<C>(experiment: &Experiment) -> Request<C> {
    let Worker {
        a1,
        a2,
        b2,
        rate,
        startup,
    } = experiment.worker;
    let worker = json!({
        "levels": [{"intercept": 0.0, "slope": a1}, {"intercept": b2, "slope": a2}],
        "rate": rate,
        "startup": startup,
    });
    let m3 = json!({
        "best_order": false,
        "load": experiment.load,
        "processors": [worker.clone(), worker],
    });
    let base = Tagged {
        model: "hierarchical".into(),
        fields: m3.as_object().cloned().unwrap_or_default(),
    };
    Request {
        noise: Noise::Auto,
        validity: Some(Check {
            request: base,
            runs: Vec::new(),
            measured: Some(Measurements::Csv(experiment.runs.csv.into())),
        }),
        ..request(&[
            ("computation", &experiment.compute),
            ("transfers", &experiment.link),
        ])
    }
}

impl<C: Registry> Model for Fit<C> {
    const ID: Identity = Identity {
        number: Some(9),
        command: Some("fit"),
        ..Identity::new("fit", "Fit to measurements")
    };
    type Request = Request<C>;
    type Output = Output;

    fn presets() -> Vec<Preset<Request<C>>> {
        let preset = |name, label, request| Preset {
            name,
            label,
            request,
        };
        vec![
            preset(
                "fit",
                "synthetic timings of [3]'s reference machine and link, and [1]'s measured \
                 power table: every fit, and the models they fill",
                request(&[
                    ("computation", &TWO_LEVEL_000),
                    ("transfers", &NETWORK_000),
                    ("power", &POWER_004),
                ]),
            ),
            preset(
                "fit-sqlite",
                "measured: SQLite 3.40.1 loading lines into an indexed table (page cache \
                 8 MiB) on a 2-core AMD EPYC virtual machine, Linux 6.18, 2026-11-28: its \
                 computing and link times, and 10 runs of M3's split against M3's prediction",
                measured(&SQLITE),
            ),
            preset(
                "fit-sort",
                "measured: GNU sort 9.1 (-S 16M, spilled runs gzip-compressed) on a 2-core \
                 Intel Xeon virtual machine, Linux 6.18, 2026-11-28: its computing and link \
                 times, and 10 runs of M3's split against M3's prediction",
                measured(&SORT),
            ),
            preset(
                "fit-two-level-000",
                TWO_LEVEL_000.label,
                request(&[("computation", &TWO_LEVEL_000)]),
            ),
            preset(
                "fit-network-000",
                NETWORK_000.label,
                request(&[("transfers", &NETWORK_000)]),
            ),
            preset(
                "fit-power-004",
                POWER_004.label,
                request(&[("power", &POWER_004)]),
            ),
            preset(
                "fit-cluster",
                CLUSTER.label,
                request(&[("computation", &CLUSTER)]),
            ),
            preset(
                "fit-validity",
                "synthetic runs of M2's energy preset at four loads, 9–13 % slower than \
                 predicted (as [1] reports for LZW on an IBM SP2)",
                validity(),
            ),
        ]
    }

    fn solve(request: &Request<C>, progress: &mut dyn Progress) -> Result<Output, Error> {
        let tables = tables(request)?;
        let report = fit_tables(request, &tables, progress)?;
        let points = |field: &str| points(tables.get(field), field);
        Ok(Answer {
            charts: report.charts(&points),
            gantt: None,
            report: Box::new(report),
        })
    }

    fn form() -> Form {
        super::form::form(targets::<C>())
    }

    fn exercises() -> Vec<Template> {
        super::exercises::templates::<C>()
    }

    fn table_input() -> Option<Box<dyn TableInput>> {
        Some(Box::new(Tables::<C>::of(Self::ID.name)))
    }

    /// Log axes when the view asks (`{"log": true}`), without the points
    /// a log axis cannot show.
    fn page() -> Page<Output> {
        Page {
            charts: |output, options| {
                if options.get("log").and_then(Value::as_bool) != Some(true) {
                    return output.charts.clone();
                }
                output.charts.iter().map(logarithmic).collect()
            },
            ..Page::default()
        }
    }
}

/// A chart on log axes: points at or below zero left out.
fn logarithmic(chart: &LineChart) -> LineChart {
    let mut chart = chart.clone();
    if chart.name == "fit-residuals" {
        return chart;
    }
    chart.x = Axis::log(&chart.x.label);
    chart.y = Axis::log(&chart.y.label);
    for line in &mut chart.lines {
        line.points.retain(|p| p[0] > 0.0 && p[1] > 0.0);
    }
    chart.lines.retain(|l| !l.points.is_empty());
    chart
}

/// Each machine's measured `(size, y)` of a table (read once, for the
/// fits and the charts), in the fits' order.
fn points(table: Option<&Table>, field: &str) -> Vec<Vec<[f64; 2]>> {
    let Some(table) = table else {
        return Vec::new();
    };
    let y = match field {
        "energy" => Quantity::Energy,
        _ => Quantity::Time,
    };
    let xs = table.numbers(Quantity::Size).unwrap_or_default();
    let ys = table.numbers(y).unwrap_or_default();
    table
        .groups()
        .iter()
        .map(|g| {
            let at = |i: usize| Some([*xs.get(i)?, *ys.get(i)?]);
            g.rows.iter().filter_map(|&i| at(i)).collect()
        })
        .collect()
}
