//! The model checked against measured runs (`[1]` §2, *DLT validity*):
//! split the load by the model, run the application with that split,
//! measure the makespan `C^R`, and report the relative error
//! `(C^R − C^T)/C^T` against the predicted `C^T`.
//!
//! Generic over the registry: a request of any model whose answer has a
//! schedule (a Gantt chart) is solved through its entry; the chart's
//! horizon is the predicted makespan and each row's last busy moment a
//! machine's predicted finish time. A run that changes the request's
//! numbers (another load, another machine count) names them as the
//! generalised maps do (`load`, `machines`, `machines[1].rate`) and they
//! are set by the model's own map setters, so no model needs code here.

use std::collections::BTreeMap;
use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::domain::error::{Checker, Error, Invalid, Validate};
use crate::core::framework::entry::Entry;
use crate::core::framework::registry::Registry;
use crate::core::presentation::gantt::{Activity, Gantt};
use crate::core::presentation::map::{
    Cache, MapBase, MapQuantity, Parameter, Quantity, Tagged, Target,
};
use crate::core::solving::progress::Progress;

/// The most runs one check compares.
pub const MAX_RUNS: usize = 1000;
/// The most machines' finish times one run gives.
pub const MAX_MACHINE_TIMES: usize = 100_000;

/// One measured run of the application.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Run {
    /// The run's name in the table (default: its number from 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The measured makespan `C^R` of the whole run, in the request's
    /// time unit (s).
    pub makespan: f64,
    /// Each machine's measured finish time (s), in the order of the
    /// predicted schedule's machines (its Gantt chart's rows, `P1` first).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machines: Option<Vec<f64>>,
    /// The request's numbers this run changed, by the names a map gives
    /// them (`load`, `machines`, `machines[1].rate`), in their units.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub set: BTreeMap<String, f64>,
}

/// A model's request and the runs measured with its split.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Validity {
    /// The request whose predictions are checked, with its `"model"`.
    pub request: Tagged,
    /// The measured runs.
    pub runs: Vec<Run>,
}

impl Validate for Validity {
    fn check_into(&self, c: &mut Checker) {
        if !c.count("runs", self.runs.len(), MAX_RUNS) {
            return;
        }
        for (i, run) in self.runs.iter().enumerate() {
            c.positive(&format!("runs[{i}].makespan"), run.makespan);
            if let Some(times) = &run.machines {
                let field = format!("runs[{i}].machines");
                if c.count(&field, times.len(), MAX_MACHINE_TIMES) {
                    for (k, t) in times.iter().enumerate() {
                        c.positive(&format!("{field}[{k}]"), *t);
                    }
                }
            }
            for (name, value) in &run.set {
                c.finite(&format!("runs[{i}].set.{name}"), *value);
            }
        }
    }
}

/// One machine of a run: measured against predicted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MachineCheck {
    /// The machine's name in the predicted schedule (`P1`).
    pub machine: String,
    /// Its measured finish time, s.
    pub measured: f64,
    /// Its predicted finish time, s.
    pub predicted: f64,
    /// `(measured − predicted)/predicted`, a fraction.
    pub error: f64,
}

/// One run: measured against predicted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunCheck {
    /// The run's name.
    pub name: String,
    /// The numbers it changed.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub set: BTreeMap<String, f64>,
    /// The measured makespan `C^R`, s.
    pub measured: f64,
    /// The predicted makespan `C^T`, s.
    pub predicted: f64,
    /// The model's relative error `(C^R − C^T)/C^T`, a fraction.
    pub error: f64,
    /// Each machine's times, when they were measured.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machines: Vec<MachineCheck>,
}

/// The model's errors over every run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Checked {
    /// The runs, in the order given.
    pub runs: Vec<RunCheck>,
    /// The mean of the runs' absolute relative errors, a fraction.
    pub mean_abs_error: f64,
    /// The largest of them, a fraction.
    pub max_abs_error: f64,
    /// The mean absolute relative error over every measured machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_mean_abs_error: Option<f64>,
    /// The largest absolute relative error of a measured machine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub machine_max_abs_error: Option<f64>,
    /// The fields the fit fills in which the checked request differs from
    /// the fitted one of the same model (`processors[0].levels`): the runs
    /// were checked against other parameters than the fit's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unlike_fit: Vec<String>,
}

/// What can make a run impossible to compare, besides a bad number.
#[derive(Debug, Clone, PartialEq)]
pub enum ValidityProblem {
    /// The model's answer has no single schedule to read a makespan from.
    NoMakespan {
        /// The model's id.
        model: String,
    },
    /// The model predicts no time at all, so no relative error exists.
    ZeroMakespan,
    /// Per-machine times for another number of machines than predicted.
    MachineCount {
        /// The times given.
        given: usize,
        /// The machines of the predicted schedule, by name.
        predicted: Vec<String>,
    },
    /// The run's changes make the request invalid.
    Invalidates(String),
    /// Per-machine times for a schedule too large to draw, whose machines'
    /// times are not kept.
    NotDrawn,
}

impl fmt::Display for ValidityProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ValidityProblem::NoMakespan { model } => write!(
                f,
                "the answer of model {model:?} has no schedule (Gantt chart) to read a \
                 makespan from: check a request that computes one schedule"
            ),
            ValidityProblem::ZeroMakespan => {
                write!(
                    f,
                    "the model predicts a makespan of 0 s: there is no relative error"
                )
            }
            ValidityProblem::MachineCount { given, predicted } => {
                let names = match predicted.as_slice() {
                    [first @ .., last] if predicted.len() > 6 => {
                        format!("{}, …, {last}", first[..3].join(", "))
                    }
                    all => all.join(", "),
                };
                write!(
                    f,
                    "gives {given} finish times, but the predicted schedule has {} machines ({names})",
                    predicted.len()
                )
            }
            ValidityProblem::Invalidates(why) => {
                write!(f, "makes the request invalid: {why}")
            }
            ValidityProblem::NotDrawn => write!(
                f,
                "cannot be compared: the predicted schedule is too large to draw, so its \
                 machines' finish times are not kept (compare the makespan only)"
            ),
        }
    }
}

impl From<ValidityProblem> for Invalid {
    fn from(kind: ValidityProblem) -> Invalid {
        Invalid::own(kind)
    }
}

/// The predicted makespan and each machine's predicted finish time.
#[derive(Debug, Clone, PartialEq)]
pub struct Prediction {
    /// The makespan `C^T`, s.
    pub makespan: f64,
    /// Each machine's name and finish time (its last busy moment), s;
    /// `None` when the answer does not draw its schedule.
    pub machines: Option<Vec<(String, f64)>>,
}

impl Prediction {
    /// The prediction a schedule's chart shows.
    pub fn of(gantt: &Gantt) -> Prediction {
        let machines = gantt
            .rows
            .iter()
            .map(|row| {
                let busy = row.bars.iter().filter(|b| b.activity != Activity::IDLE);
                let finish = busy.map(|b| b.end).fold(0.0, f64::max);
                (row.label.clone(), finish)
            })
            .collect();
        Prediction {
            makespan: gantt.horizon,
            machines: Some(machines),
        }
    }
}

/// `(measured − predicted)/predicted`.
fn relative(measured: f64, predicted: f64) -> f64 {
    (measured - predicted) / predicted
}

/// The errors of the request, their paths inside the check's `request`.
fn inside_request(errors: Vec<Error>) -> Error {
    let first = crate::core::framework::json::first(errors);
    match first {
        Error::Field { field, invalid } => Error::field(format!("request.{field}"), invalid),
        other => other,
    }
}

/// The first problem of the checked request itself (its model, its
/// fields), so that checking a request finds what solving it would.
pub fn request_problem<R: Registry>(validity: &Validity) -> Option<Error> {
    let entry = match R::entry(&validity.request.model, "request.model") {
        Ok(entry) => entry,
        Err(e) => return Some(e),
    };
    let mut fields = validity.request.fields.clone();
    if !entry.id().own_time_limit {
        fields.remove("max_seconds");
    }
    entry.base(Value::Object(fields)).err().map(inside_request)
}

/// The targets a run's changes name, checked against the base.
fn targets(base: &dyn MapBase, run: &Run, i: usize) -> Result<Vec<(Target, f64)>, Error> {
    let parameters = base.parameters();
    let known = || {
        let names: Vec<String> = parameters.iter().map(Parameter::written).collect();
        if names.is_empty() {
            "none: this model's numbers are not varied by name".to_string()
        } else {
            names.join(", ")
        }
    };
    let mut settings = Vec::new();
    for (name, value) in &run.set {
        let field = format!("runs[{i}].set.{name}");
        let Some(target) = Target::of(&parameters, name) else {
            let invalid = Invalid::UnknownParameter {
                name: crate::core::domain::error::shorten(name),
                known: known(),
            };
            return Err(Error::field(field, invalid));
        };
        if let (Some(k), Some(table)) = (target.row, parameters[target.parameter].row_of) {
            let len = base.rows(table);
            if k >= len {
                return Err(Error::field(field, Invalid::OutOfRange { index: k, len }));
            }
        }
        settings.push((target, *value));
    }
    Ok(settings)
}

/// Solves the base with a run's changes and reads its prediction.
fn predict(
    entry: &dyn Entry,
    base: &dyn MapBase,
    run: &Run,
    i: usize,
    progress: &mut dyn Progress,
) -> Result<Prediction, Error> {
    let settings = targets(base, run, i)?;
    let body = base.request_at(&settings).map_err(|errors| {
        let first = crate::core::framework::json::first(errors);
        let why = ValidityProblem::Invalidates(first.to_string());
        Error::field(format!("runs[{i}].set"), why.into())
    })?;
    let response = entry.run(body, progress)?;
    let prediction = match response.gantt() {
        Some(gantt) => Prediction::of(gantt),
        None => undrawn(entry, base, &settings)?,
    };
    if !(prediction.makespan.is_finite() && prediction.makespan > 0.0) {
        return Err(Error::field(
            format!("runs[{i}].makespan"),
            ValidityProblem::ZeroMakespan.into(),
        ));
    }
    Ok(prediction)
}

/// The makespan of a request whose answer draws no schedule (one too
/// large to draw), as the model measures it for a map; no machine's time.
fn undrawn(
    entry: &dyn Entry,
    base: &dyn MapBase,
    settings: &[(Target, f64)],
) -> Result<Prediction, Error> {
    let no_makespan = || {
        let model = entry.id().name.to_string();
        Error::field(
            "request.model",
            ValidityProblem::NoMakespan { model }.into(),
        )
    };
    let makespan = MapQuantity::always(Quantity::Makespan);
    if !base.quantities().contains(&makespan) {
        return Err(no_makespan());
    }
    let measured = base.measure_at(settings, Quantity::Makespan, &mut Cache::default())?;
    let makespan = measured.ok_or_else(no_makespan)?.value;
    Ok(Prediction {
        makespan,
        machines: None,
    })
}

/// One run's comparison with its prediction.
fn compare(run: &Run, i: usize, prediction: &Prediction) -> Result<RunCheck, Error> {
    let mut machines = Vec::new();
    if let Some(times) = &run.machines {
        let field = format!("runs[{i}].machines");
        let Some(predicted) = &prediction.machines else {
            return Err(Error::field(field, ValidityProblem::NotDrawn.into()));
        };
        if times.len() != predicted.len() {
            let problem = ValidityProblem::MachineCount {
                given: times.len(),
                predicted: predicted.iter().map(|(n, _)| n.clone()).collect(),
            };
            return Err(Error::field(field, problem.into()));
        }
        for (measured, (machine, predicted)) in times.iter().zip(predicted) {
            if *predicted <= 0.0 {
                return Err(Error::field(field, ValidityProblem::ZeroMakespan.into()));
            }
            machines.push(MachineCheck {
                machine: machine.clone(),
                measured: *measured,
                predicted: *predicted,
                error: relative(*measured, *predicted),
            });
        }
    }
    Ok(RunCheck {
        name: run.name.clone().unwrap_or_else(|| (i + 1).to_string()),
        set: run.set.clone(),
        measured: run.makespan,
        predicted: prediction.makespan,
        error: relative(run.makespan, prediction.makespan),
        machines,
    })
}

/// The mean and the largest of absolute values (`None` for none).
fn mean_max(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (mut sum, mut max, mut n) = (0.0, 0.0f64, 0usize);
    for v in values {
        sum += v.abs();
        max = max.max(v.abs());
        n += 1;
    }
    (n > 0).then(|| (sum / n as f64, max))
}

/// Compares every run with the model's prediction.
///
/// # Errors
///
/// The first invalid field (of the check or, under `request.`, of the
/// model's request), a model whose answer has no schedule, per-machine
/// times that do not match the predicted machines, or the solver's error.
pub fn check<R: Registry>(
    validity: &Validity,
    progress: &mut dyn Progress,
) -> Result<Checked, Error> {
    validity.check()?;
    let entry = R::entry(&validity.request.model, "request.model")?;
    let mut fields = validity.request.fields.clone();
    if !entry.id().own_time_limit {
        // The front ends' time limit, not a field of the model's request.
        fields.remove("max_seconds");
    }
    let base = entry.base(Value::Object(fields)).map_err(inside_request)?;
    let mut runs = Vec::with_capacity(validity.runs.len());
    for (i, run) in validity.runs.iter().enumerate() {
        let prediction = predict(entry, base.as_ref(), run, i, progress)?;
        runs.push(compare(run, i, &prediction)?);
    }
    let (mean_abs_error, max_abs_error) =
        mean_max(runs.iter().map(|r| r.error)).unwrap_or((0.0, 0.0));
    let machine = mean_max(runs.iter().flat_map(|r| r.machines.iter().map(|m| m.error)));
    Ok(Checked {
        mean_abs_error,
        max_abs_error,
        machine_mean_abs_error: machine.map(|(mean, _)| mean),
        machine_max_abs_error: machine.map(|(_, max)| max),
        runs,
        unlike_fit: Vec::new(),
    })
}
