//! The calculator's entry points, shared by the page (through the binding
//! module) and the command-line tool: one JSON request in, one JSON
//! response out, for any model of the [`registry`].
//!
//! A request names its model by its id in the field `"model"`; each model's
//! first preset is the request its tab opens with (`dlt example <id>`):
//!
//! ```
//! use dlt_calc::api::{run, Request};
//! use dlt_calc::core::solving::progress::Silent;
//!
//! let id = dlt_calc::registry::OPENING;
//! // cannot fail: every model has a preset, the first its tab's default.
//! let text = Request::example(id).unwrap().to_json().to_string();
//! let request = Request::from_json(&text)?;
//! assert!(request.problems().is_empty());
//! let response = run(&request, &mut Silent)?;
//! assert_eq!(response.model(), id);
//! # Ok::<(), dlt_calc::Error>(())
//! ```
//!
//! Every request may also carry `max_seconds`: the computation stops at
//! that time and answers with its best result so far (marked
//! `"completion": "partial"`), or with an error when it has none yet.
//!
//! A request may carry `part` too (a [`Part`], written by `dlt split`): it
//! is then one part of a larger request, and its response carries the same
//! `part`, so that the answers of the parts, solved anywhere, can be joined
//! (see [`crate::sweep`]).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::domain::error::{Error, Invalid};
use crate::core::framework::checker::{under_schedule, Checked};
use crate::core::framework::entry::Entry;
use crate::core::framework::registry::Registry;
use crate::core::presentation::gantt::{Activity, ActivityStyle};
use crate::core::presentation::response::{Completion, Response};
use crate::core::solving::deadline::with_deadline;
use crate::core::solving::lp::LpError;
pub use crate::core::solving::part::Part;
use crate::core::solving::progress::Progress;
use crate::registry;

/// The longest request the calculator reads, in bytes. Far above any real
/// instance (a thousand machine rows is about 100 KB), yet a request with a
/// stray 10 MB value is still read, so that its error names the field.
pub const MAX_REQUEST_BYTES: usize = 32_000_000;
pub use crate::core::solving::deadline::MAX_SECONDS;

/// The time limit kept over a model that stops itself at `seconds` (with
/// its own status), in case one step of it overruns: a little later, so
/// that the model's own answer comes first.
fn backstop(seconds: f64) -> f64 {
    (seconds * 1.5 + 1.0).min(MAX_SECONDS)
}

/// A request: its model and the body, read but not yet checked.
#[derive(Clone)]
pub struct Request {
    model: &'static dyn Entry,
    body: Value,
    max_seconds: Option<f64>,
    part: Option<Part>,
}

impl std::fmt::Debug for Request {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Request")
            .field("model", &self.model.id().name)
            .field("body", &self.body)
            .field("max_seconds", &self.max_seconds)
            .field("part", &self.part)
            .finish()
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

/// The built-in examples: name, model and what each shows.
pub fn examples() -> Vec<(&'static str, &'static str, &'static str)> {
    registry::all()
        .flat_map(|m| {
            m.presets()
                .into_iter()
                .map(|(name, label, _)| (name, m.id().name, label))
        })
        .collect()
}

/// A tab of the page: its model, form and presets.
#[derive(Debug, Clone, Serialize)]
pub struct Tab {
    /// The model's id: its request tag, the tab's id (every element of the
    /// tab is named after it) and, with a dot, its keys' prefix in a link.
    pub model: &'static str,
    /// Its number in the course (`4` for M4), if it has one.
    pub number: Option<u8>,
    /// The tab's older id and key prefix, read in older links.
    pub former: crate::core::framework::model::Former,
    /// Whether the page opens with this tab.
    pub opens: bool,
    /// The form.
    pub form: crate::core::presentation::form::Form,
    /// The presets' names and labels (the first is the default).
    pub presets: Vec<(&'static str, &'static str)>,
    /// Whether its answers take a schedule of the user's own to check
    /// ([`check_schedule`]).
    pub checks_schedules: bool,
}

/// Every model's tab, in the registry's order.
pub fn tabs() -> Vec<Tab> {
    registry::all()
        .map(|m| Tab {
            model: m.id().name,
            number: m.id().number,
            former: m.id().former,
            opens: m.id().name == registry::OPENING,
            form: m.form(),
            presets: m.presets().into_iter().map(|(n, l, _)| (n, l)).collect(),
            checks_schedules: m.checks_schedules(),
        })
        .collect()
}

/// An exercise a sheet may list: its name, title, the model that poses it
/// and its source (a bibliography key).
#[derive(Debug, Clone, Serialize)]
pub struct ExerciseKind {
    /// The name a sheet lists.
    pub id: &'static str,
    /// One line for the teacher's list.
    pub title: &'static str,
    /// The tag of the model that poses it.
    pub model: &'static str,
    /// Where it comes from.
    pub source: &'static str,
}

/// Every exercise the models pose, in the registry's order.
pub fn exercise_kinds() -> Vec<ExerciseKind> {
    crate::exercises::templates::<registry::Models>()
        .into_iter()
        .map(|(model, t)| ExerciseKind {
            id: t.id,
            title: t.title,
            model,
            source: t.source,
        })
        .collect()
}

/// Checks a typed answer against an exercise's answer (as the sheet's
/// response gives it).
///
/// # Errors
///
/// [`Error::Malformed`] when `answer` is not an exercise's answer.
pub fn check_answer(
    answer: serde_json::Value,
    typed: &str,
) -> Result<crate::core::framework::exercise::Verdict, Error> {
    let answer: crate::core::framework::exercise::Answer =
        serde_json::from_value(answer).map_err(|e| Error::Malformed(e.to_string()))?;
    Ok(crate::core::framework::exercise::check(&answer, typed))
}

/// A row of a model's table after the user changed its `column`, with
/// the cells that change fills in (see [`Column::fills`]).
///
/// # Errors
///
/// [`Error::Field`] for an unknown model.
///
/// [`Column::fills`]: crate::core::presentation::form::Column::fills
pub fn fill_row(
    model: &str,
    column: &str,
    mut row: BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>, Error> {
    entry(model)?.page().fill_row(column, &mut row);
    Ok(row)
}

/// How the Gantt charts of model `model` draw each activity (the shared
/// kinds' styles for a model the registry does not know).
pub fn gantt_styles(model: &str) -> impl Fn(&Activity) -> ActivityStyle {
    let page = registry::find(model).map(|entry| entry.page());
    move |activity| match &page {
        Some(page) => page.activity_style(activity),
        None => activity
            .shared_style()
            .unwrap_or_else(ActivityStyle::unknown),
    }
}

/// Every model's tag, for messages.
fn known() -> String {
    let names: Vec<&str> = registry::all().map(|m| m.id().name).collect();
    names.join(", ")
}

/// The model tagged `name`.
fn entry(name: &str) -> Result<&'static dyn Entry, Error> {
    registry::Models::entry(name, "model")
}

impl Request {
    /// Reads a request from JSON text.
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] when the text is too long or not JSON,
    /// [`Error::Field`] when the model is missing or unknown.
    pub fn from_json(text: &str) -> Result<Request, Error> {
        if text.len() > MAX_REQUEST_BYTES {
            return Err(Error::Malformed(format!(
                "the request is {} bytes long; the limit is {MAX_REQUEST_BYTES}",
                text.len()
            )));
        }
        let value = serde_json::from_str(text).map_err(|e| Error::syntax(text, &e))?;
        Request::from_value(value)
    }

    /// A request from a JSON value (as the page passes it).
    ///
    /// # Errors
    ///
    /// As [`Request::from_json`].
    pub fn from_value(value: Value) -> Result<Request, Error> {
        let Value::Object(mut body) = value else {
            return Err(Error::Malformed("a request must be a JSON object".into()));
        };
        let model = match body.remove("model") {
            Some(Value::String(name)) => entry(&name)?,
            Some(_) | None => {
                let reason = format!("one of {}", known());
                return Err(Error::field("model", Invalid::Needed(reason)));
            }
        };
        let part = take_part(&mut body)?;
        let max_seconds = match body.get("max_seconds") {
            // The model checks its own value (a bad one is its field's
            // error); only a valid one sets the backstop.
            Some(v) if model.id().own_time_limit => v
                .as_f64()
                .filter(|s| *s > 0.0 && *s <= MAX_SECONDS)
                .map(backstop),
            Some(v) => {
                let seconds = v.as_f64().filter(|s| *s > 0.0 && *s <= MAX_SECONDS);
                let invalid = Invalid::OutOfBounds {
                    value: v.as_f64().unwrap_or(f64::NAN),
                    low: 0.0,
                    high: MAX_SECONDS,
                };
                let seconds = seconds.ok_or_else(|| Error::field("max_seconds", invalid))?;
                body.remove("max_seconds");
                Some(seconds)
            }
            None => None,
        };
        Ok(Request {
            model,
            body: Value::Object(body),
            max_seconds,
            part,
        })
    }

    /// A built-in example by name (see [`examples`]), or by a model's id:
    /// its first preset, the one its tab opens with.
    pub fn example(name: &str) -> Option<Request> {
        let named = registry::all()
            .flat_map(|m| m.presets())
            .find(|(n, _, _)| *n == name);
        let first = || registry::find(name)?.presets().into_iter().next();
        let (_, _, value) = named.or_else(first)?;
        Request::from_value(value).ok()
    }

    /// The model's tag.
    pub fn model(&self) -> &'static str {
        self.model.id().name
    }

    /// The request as JSON (with its tag).
    pub fn to_json(&self) -> Value {
        let mut value = self.body.clone();
        if let Value::Object(fields) = &mut value {
            fields.insert("model".into(), Value::String(self.model.id().name.into()));
            if let Some(s) = self.max_seconds {
                fields.insert("max_seconds".into(), s.into());
            }
            if let Some(part) = &self.part {
                // cannot fail: a part is a plain struct of strings and numbers.
                let part = serde_json::to_value(part).expect("a part is JSON");
                fields.insert("part".into(), part);
            }
        }
        value
    }

    /// The part of a larger request this request is (`dlt split`), if any.
    pub fn part(&self) -> Option<&Part> {
        self.part.as_ref()
    }

    /// The hash of the request's canonical JSON, its part left out: the
    /// `of` of its parts, equal wherever and however it is read.
    pub fn hash(&self) -> String {
        let mut value = self.to_json();
        if let Some(fields) = value.as_object_mut() {
            fields.remove("part");
        }
        crate::core::domain::hash::of_json(&value)
    }

    /// Sets the time limit (the command line's `--max-seconds`), unless
    /// the request has a shorter one.
    pub fn limit_time(&mut self, seconds: f64) {
        let mut limit = seconds;
        if self.model.id().own_time_limit {
            if let Value::Object(fields) = &mut self.body {
                let own = fields.get("max_seconds").and_then(Value::as_f64);
                if own.is_none_or(|s| s > seconds) {
                    fields.insert("max_seconds".into(), seconds.into());
                }
            }
            limit = backstop(seconds);
        }
        self.max_seconds = Some(self.max_seconds.map_or(limit, |s| s.min(limit)));
    }

    /// The parts a page computes apart (empty when the request is one
    /// piece of work), each a whole request.
    ///
    /// # Errors
    ///
    /// The request's first problem.
    pub fn split(&self) -> Result<Vec<Value>, Error> {
        match self.model.parts() {
            Some(parts) => parts.split(self.body.clone()),
            None => self.valid().map(|()| Vec::new()),
        }
    }

    /// The answer to the request from its parts' answers.
    ///
    /// # Errors
    ///
    /// The request's first problem, or a part that is not an answer.
    pub fn join(&self, parts: Vec<Value>) -> Result<Response, Error> {
        match self.model.parts() {
            Some(pieces) => pieces.join(self.body.clone(), parts),
            None => self.valid().and_then(|()| {
                let name = self.model.id().name;
                Err(Error::Malformed(format!("{name} answers are not joined")))
            }),
        }
    }

    /// Whether the request is valid, or its first problem.
    fn valid(&self) -> Result<(), Error> {
        match self.model.problems(self.body.clone()) {
            problems if problems.is_empty() => Ok(()),
            problems => Err(crate::core::framework::json::first(problems)),
        }
    }

    /// Every invalid field of the request (empty when it is valid): the
    /// same checks [`run`] makes before any work.
    pub fn problems(&self) -> Vec<FieldProblem> {
        self.model
            .problems(self.body.clone())
            .iter()
            .map(FieldProblem::from)
            .collect()
    }
}

/// Takes the `part` envelope out of a request body.
fn take_part(body: &mut serde_json::Map<String, Value>) -> Result<Option<Part>, Error> {
    let Some(value) = body.remove("part") else {
        return Ok(None);
    };
    let part: Part = serde_json::from_value(value)
        .map_err(|e| Error::malformed_at("part".into(), e.to_string()))?;
    if part.index >= part.count {
        let (index, len) = (part.index, part.count);
        return Err(Error::field(
            "part.index",
            Invalid::OutOfRange { index, len },
        ));
    }
    if part.pieces.is_some_and(|[from, to]| from >= to) {
        return Err(Error::field("part.pieces", Invalid::Empty));
    }
    Ok(Some(part))
}

/// Runs a request; the response of a part carries its part.
///
/// # Errors
///
/// [`Error::Field`] for an invalid field, [`Error::Solver`] when a solver
/// fails, [`Error::Cancelled`] when `progress` asks to stop,
/// [`Error::TimeLimit`] when the time limit came before any result.
pub fn run(request: &Request, progress: &mut dyn Progress) -> Result<Response, Error> {
    let response = run_limited(request, progress)?;
    Ok(match &request.part {
        // cannot fail: a part is a plain struct of strings and numbers.
        Some(part) => response.with_field("part", serde_json::to_value(part).expect("JSON")),
        None => response,
    })
}

/// Checks a schedule given by hand (JSON text, a
/// [`Given`](crate::core::framework::checker::Given)) against the request:
/// every broken rule with its machine, chunk and amounts, the schedule's
/// makespan (and energy), and its distance from the model's own answer:
/// `answer` (a response to the same request, as the page holds it), or
/// else solved for the check.
///
/// # Errors
///
/// The request's or the schedule's first problem (the schedule's fields
/// under `schedule.`), a model whose answers are not such schedules, or
/// the solver's error.
pub fn check_schedule(
    request: &Request,
    schedule: &str,
    answer: Option<Value>,
    progress: &mut dyn Progress,
) -> Result<Checked, Error> {
    let given: Value =
        serde_json::from_str(schedule).map_err(|e| under_schedule(Error::syntax(schedule, &e)))?;
    let body = request.body.clone();
    let checked = request.model.check_schedule(body, given, answer, progress);
    checked.unwrap_or_else(|| {
        let models: Vec<&str> = (registry::all().filter(|m| m.checks_schedules()))
            .map(|m| m.id().name)
            .collect();
        Err(Error::Malformed(format!(
            "model {} has no schedule to check; these have: {}",
            request.model(),
            models.join(", ")
        )))
    })
}

/// Solves the request, or the group of its pieces its part names (each
/// piece as its own request, on every core, then joined).
fn solve(request: &Request, progress: &mut dyn Progress) -> Result<Response, Error> {
    let Some([from, to]) = request.part.as_ref().and_then(|p| p.pieces) else {
        return request.model.run(request.body.clone(), progress);
    };
    let pieces = request.split()?;
    let pieces = pieces.get(from..to).ok_or_else(|| {
        let (index, len) = (to - 1, pieces.len());
        Error::field("part.pieces", Invalid::OutOfRange { index, len })
    })?;
    let answer = |piece: &Value, progress: &mut dyn Progress| {
        let piece = Request::from_value(piece.clone())?;
        let response = piece.model.run(piece.body, progress)?;
        serde_json::to_value(&response).map_err(|e| Error::Malformed(e.to_string()))
    };
    let answers = crate::core::solving::parallel::each(pieces, answer, progress, |_, _, _| {})?;
    request.join(answers)
}

/// Runs a request under its time limit, if it has one.
fn run_limited(request: &Request, progress: &mut dyn Progress) -> Result<Response, Error> {
    let Some(seconds) = request.max_seconds else {
        return solve(request, progress);
    };
    let limit = web_time::Duration::try_from_secs_f64(seconds.clamp(0.0, MAX_SECONDS))
        .unwrap_or(web_time::Duration::ZERO);
    let end = web_time::Instant::now() + limit;
    let mut limited = Deadline {
        inner: progress,
        end,
        expired: false,
        last: None,
    };
    let result = with_deadline(end, || solve(request, &mut limited));
    let expired = limited.expired || web_time::Instant::now() >= end;
    match result {
        // Told to stop, the model still answered: with what it had.
        Ok(response) if limited.expired => Ok(response.with_completion(Completion::Partial)),
        Err(Error::Cancelled | Error::Solver(LpError::TimeLimit)) if expired => {
            match limited.last {
                Some(partial) => Ok(partial.with_completion(Completion::Partial)),
                None => Err(Error::TimeLimit(seconds)),
            }
        }
        other => other,
    }
}

/// Stops a computation at its time limit, keeping its latest partial
/// answer to return instead.
struct Deadline<'a> {
    inner: &'a mut dyn Progress,
    end: web_time::Instant,
    expired: bool,
    last: Option<Response>,
}

impl Progress for Deadline<'_> {
    fn report(&mut self, done: f64, what: &str) -> bool {
        if web_time::Instant::now() >= self.end {
            self.expired = true;
            return false;
        }
        self.inner.report(done, what)
    }

    fn partial(&mut self, response: &Response) {
        self.last = Some(response.clone());
        self.inner.partial(response);
    }
}
