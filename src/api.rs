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
//! let Response::Hierarchical { report, .. } = run(&request, &mut Silent)?;
//! assert!((report.makespan - 5.75).abs() < 1e-9);
//! # Ok::<(), dlt_calc::Error>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::gantt::Gantt;
use crate::hierarchical;
use crate::progress::Progress;

/// A computation to run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case")]
pub enum Request {
    /// M3: one installment, memory hierarchy, LP (`[003]`).
    Hierarchical(hierarchical::Instance),
}

/// The answer to a [`Request`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "model", rename_all = "kebab-case")]
pub enum Response {
    /// M3's report and the Gantt chart of its schedule.
    Hierarchical {
        report: Box<hierarchical::Report>,
        gantt: Gantt,
    },
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
pub const EXAMPLES: &[(&str, &str)] = &[(
    "hierarchical",
    "[003] worked example: two machines, core 1 + x, out-of-core -9 + 10x, C = S = 1, V = 2",
)];

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
            _ => None,
        }
    }

    /// Every invalid field of the request (empty when it is valid).
    pub fn problems(&self) -> Vec<FieldProblem> {
        let errors = match self {
            Request::Hierarchical(instance) => instance.problems(),
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
    match request {
        Request::Hierarchical(instance) => {
            let report = instance.solve(progress)?;
            let gantt = Gantt::of(&report.schedule);
            Ok(Response::Hierarchical {
                report: Box::new(report),
                gantt,
            })
        }
    }
}
