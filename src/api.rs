//! The calculator's entry points, shared by the page (through the binding
//! module) and the command-line tool: one JSON request in, one JSON
//! response out.
//!
//! A request names its model in the field `"model"`:
//!
//! ```
//! use dlt_calc::api::{run, Request, Response};
//! use dlt_calc::progress::Silent;
//!
//! let request = Request::from_json(r#"{
//!     "model": "hierarchical",
//!     "load": 2,
//!     "processors": [
//!         {"startup": 1, "rate": 1, "levels": [{"intercept": 1, "slope": 1},
//!                                              {"intercept": -9, "slope": 10}]},
//!         {"startup": 1, "rate": 1, "levels": [{"intercept": 1, "slope": 1},
//!                                              {"intercept": -9, "slope": 10}]}
//!     ]
//! }"#)?;
//! let Response::Hierarchical { report, .. } = run(&request, &mut Silent)? else {
//!     unreachable!("a hierarchical request gets a hierarchical response");
//! };
//! assert!((report.makespan - 5.75).abs() < 1e-9);
//! # Ok::<(), dlt_calc::Error>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::chart::LineChart;
use crate::contour::{self, Contour};
use crate::error::Error;
use crate::gantt::Gantt;
use crate::isoefficiency::{self, table::Table, Map};
use crate::progress::Progress;
use crate::{hierarchical, linear, multi_installment, startup};

/// A computation to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case")]
pub enum Request {
    /// M2: linear DLT, one installment, closed form and energy (`[004]`).
    Linear(linear::Instance),
    /// M3: one installment, memory hierarchy, LP (`[003]`).
    Hierarchical(hierarchical::Instance),
    /// M4: equal chunks in round robin (`[003]`).
    MultiInstallment(multi_installment::Instance),
    /// M5: multi-installment with machine start-up and memory hierarchy
    /// (`[000]`).
    Startup(startup::Instance),
    /// M6: the isoefficiency map of M5 (`[000]`), `m` across, `V` up.
    Isoefficiency(isoefficiency::Request),
    /// `[000]` Table 1: `Emax` and `Vmax` per machine count.
    Table1(isoefficiency::Request),
    /// A generalised map (`[004]`): lines of equal value over two parameters.
    Contour(contour::Request),
}

/// The answer to a [`Request`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case")]
pub enum Response {
    /// M2's report and the Gantt chart of its schedule (when small enough).
    Linear {
        report: Box<linear::Report>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gantt: Option<Gantt>,
        #[serde(default)]
        charts: Vec<LineChart>,
    },
    /// M3's report and the Gantt chart of its schedule.
    Hierarchical {
        report: Box<hierarchical::Report>,
        gantt: Gantt,
    },
    /// M4's report and the Gantt chart of its schedule (when small enough).
    MultiInstallment {
        report: Box<multi_installment::Report>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gantt: Option<Gantt>,
        #[serde(default)]
        charts: Vec<LineChart>,
    },
    /// M5's report and the Gantt chart of its best schedule.
    Startup {
        report: Box<startup::Report>,
        gantt: Gantt,
    },
    /// The map and its chart (without overlays; see [`Map::chart`]).
    Isoefficiency {
        map: Box<Map>,
        charts: Vec<LineChart>,
    },
    /// Table 1.
    Table1 { table: Table },
    /// A generalised map and its chart.
    Contour {
        contour: Box<Contour>,
        charts: Vec<LineChart>,
    },
}

impl Response {
    /// The Gantt chart, when the response has one.
    pub fn gantt(&self) -> Option<&Gantt> {
        match self {
            Response::Linear { gantt, .. } | Response::MultiInstallment { gantt, .. } => {
                gantt.as_ref()
            }
            Response::Hierarchical { gantt, .. } | Response::Startup { gantt, .. } => Some(gantt),
            Response::Isoefficiency { .. } | Response::Table1 { .. } | Response::Contour { .. } => {
                None
            }
        }
    }

    /// The line charts of the response (none when no series was asked for).
    pub fn charts(&self) -> &[LineChart] {
        match self {
            Response::Linear { charts, .. }
            | Response::MultiInstallment { charts, .. }
            | Response::Isoefficiency { charts, .. }
            | Response::Contour { charts, .. } => charts,
            Response::Hierarchical { .. } | Response::Startup { .. } | Response::Table1 { .. } => {
                &[]
            }
        }
    }

    /// The result as CSV, for the responses that are tables.
    pub fn csv(&self) -> Option<String> {
        match self {
            Response::Isoefficiency { map, .. } => Some(map.csv()),
            Response::Table1 { table } => Some(table.csv()),
            Response::Contour { contour, .. } => Some(contour.csv()),
            _ => None,
        }
    }
}

/// An invalid field and its message, for showing next to the field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FieldProblem {
    /// The field's path in the request, e.g. `processors[0].rate`; empty
    /// when the problem is not about one field.
    pub field: String,
    /// What is wrong, in words.
    pub message: String,
}

impl From<&Error> for FieldProblem {
    fn from(e: &Error) -> FieldProblem {
        match e {
            Error::Field { field, invalid } => FieldProblem {
                field: field.clone(),
                message: invalid.to_string(),
            },
            other => FieldProblem {
                field: String::new(),
                message: other.to_string(),
            },
        }
    }
}

/// The names of the built-in examples, for `example`.
pub const EXAMPLES: &[(&str, &str)] = &[
    (
        "hierarchical",
        "[003] worked example: two machines, core 1 + x, out-of-core -9 + 10x, C = S = 1, V = 2",
    ),
    (
        "linear-energy-big",
        "[004] energy: A = 1, C = 1e-6, S = 100, P_N = 50, P_C = 200, k = 3, V = 1e13, m to 1e6",
    ),
    (
        "linear-energy-small",
        "[004] energy: the same machines with V = 1e3, m to 30",
    ),
    (
        "multi-installment",
        "[003] Fig. 10: m = 10, C = 9.99e-5, S = 1e-3, swp = 1e8, beta = 5 vs heuristic 1e4",
    ),
    (
        "startup",
        "[000] reference instance, m = 2, n = 20, V = 134485 MB (Table 1's Vmax)",
    ),
    (
        "isoefficiency",
        "[000] Figs. 1-2: isoefficiency map of the reference instance, m = 2..20",
    ),
    (
        "isoefficiency-small",
        "[000] reference instance, m = 2..5, levels 1, 10, 30",
    ),
    (
        "table1",
        "[000] Table 1: Emax and Vmax of the reference instance, m = 2..20",
    ),
    (
        "map-compute-communication",
        "[004] linear DLT: efficiency over A and C, m = 10",
    ),
    (
        "map-energy",
        "[004] linear DLT: iso-energy lines over m and the idle factor k",
    ),
    (
        "map-startup",
        "[000] reference instance, m = 8: efficiency over C and V",
    ),
];

impl Request {
    /// Reads a request from JSON.
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] when the text is not JSON or not a request (a
    /// missing, unknown or mistyped field; the message says which).
    pub fn from_json(text: &str) -> Result<Request, Error> {
        serde_json::from_str(text).map_err(|e| Error::Malformed(e.to_string()))
    }

    /// A built-in example by name (see [`EXAMPLES`]).
    pub fn example(name: &str) -> Option<Request> {
        match name {
            "hierarchical" => Some(Request::Hierarchical(
                hierarchical::Instance::worked_example(),
            )),
            "linear-energy-big" => Some(Request::Linear(linear::Instance::energy_preset(
                1e13, 1_000_000,
            ))),
            "linear-energy-small" => {
                Some(Request::Linear(linear::Instance::energy_preset(1e3, 30)))
            }
            "multi-installment" => Some(Request::MultiInstallment(
                multi_installment::Instance::figure_10(),
            )),
            "startup" => Some(Request::Startup(startup::Instance::reference(2, 134_485.0))),
            "isoefficiency" => Some(Request::Isoefficiency(isoefficiency::Request::reference())),
            "isoefficiency-small" => Some(Request::Isoefficiency(isoefficiency::Request {
                machines_to: 5.0,
                levels: vec![1.0, 10.0, 30.0],
                ..isoefficiency::Request::reference()
            })),
            "table1" => Some(Request::Table1(isoefficiency::Request::reference())),
            "map-compute-communication" => Some(Request::Contour(
                contour::Request::compute_vs_communication(),
            )),
            "map-energy" => Some(Request::Contour(contour::Request::energy_vs_idle_factor())),
            "map-startup" => Some(Request::Contour(contour::Request::startup_reference())),
            _ => None,
        }
    }

    /// Every invalid field of the request (empty when it is valid).
    pub fn problems(&self) -> Vec<FieldProblem> {
        let errors = match self {
            Request::Linear(instance) => instance.problems(),
            Request::Hierarchical(instance) => instance.problems(),
            Request::MultiInstallment(instance) => instance.problems(),
            Request::Startup(instance) => instance.problems(),
            Request::Isoefficiency(request) | Request::Table1(request) => request.problems(),
            Request::Contour(request) => request.problems(),
        };
        errors.iter().map(FieldProblem::from).collect()
    }
}

/// Runs a request.
///
/// # Errors
///
/// [`Error::Field`] for an invalid field, [`Error::Solver`] when a solver
/// fails, [`Error::Cancelled`] when `progress` asks to stop.
pub fn run(request: &Request, progress: &mut dyn Progress) -> Result<Response, Error> {
    Ok(match request {
        Request::Linear(instance) => {
            let report = instance.solve(progress)?;
            Response::Linear {
                gantt: report.schedule.as_ref().map(Gantt::of),
                charts: report.charts(),
                report: Box::new(report),
            }
        }
        Request::Hierarchical(instance) => {
            let report = instance.solve(progress)?;
            Response::Hierarchical {
                gantt: Gantt::of(&report.schedule),
                report: Box::new(report),
            }
        }
        Request::MultiInstallment(instance) => {
            let report = instance.solve(progress)?;
            Response::MultiInstallment {
                gantt: report.schedule.as_ref().map(Gantt::of),
                charts: report.charts(),
                report: Box::new(report),
            }
        }
        Request::Startup(instance) => {
            let mut snapshots = Snapshots {
                inner: progress,
                startup: instance.startup,
            };
            let report = instance.solve(&mut snapshots)?;
            Response::Startup {
                gantt: Gantt::with_startup(&report.schedule, instance.startup),
                report: Box::new(report),
            }
        }
        Request::Isoefficiency(request) => {
            let map = request.map(progress)?;
            Response::Isoefficiency {
                charts: vec![map.chart(false)],
                map: Box::new(map),
            }
        }
        Request::Table1(request) => Response::Table1 {
            table: request.table(progress)?,
        },
        Request::Contour(request) => {
            let contour = request.contour(progress)?;
            Response::Contour {
                charts: vec![contour.chart(request)],
                contour: Box::new(contour),
            }
        }
    })
}

/// Passes M5's snapshots on as whole responses (the report and its Gantt
/// chart), so that a page can show the best schedule so far as it would
/// show the final one.
struct Snapshots<'a> {
    inner: &'a mut dyn Progress,
    startup: f64,
}

impl Progress for Snapshots<'_> {
    fn report(&mut self, done: f64, what: &str) -> bool {
        self.inner.report(done, what)
    }

    fn partial(&mut self, value: &serde_json::Value) {
        let Ok(report) = serde_json::from_value::<startup::Report>(value.clone()) else {
            return;
        };
        let response = Response::Startup {
            gantt: Gantt::with_startup(&report.schedule, self.startup),
            report: Box::new(report),
        };
        if let Ok(value) = serde_json::to_value(&response) {
            self.inner.partial(&value);
        }
    }
}
