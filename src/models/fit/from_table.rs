//! An M9 request from one table as people keep it (`dlt fit FILE.csv`):
//! which table it is comes from an option or from its columns, and the
//! other options say how to fit it.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use serde_json::Value;

use super::request::{Check, Examples, Request};
use super::table::{Measurements, Quantity, Table};
use crate::core::domain::count::Count;
use crate::core::domain::error::{Error, Invalid};
use crate::core::framework::calibration::Latency;
use crate::core::framework::json::with_tag;
use crate::core::framework::table::TableInput;
use crate::core::presentation::map::Tagged;

/// The kinds of table a text may be, as the option `as` names them.
pub const KINDS: [&str; 5] = ["computation", "transfers", "energy", "power", "runs"];

/// The options a table takes.
const OPTIONS: [&str; 6] = ["as", "shape", "lines", "noise", "latency-as", "request"];

/// The command line's help for a table, from its options on.
const HELP: &str = "[--as KIND] [--shape SHAPE] [--lines K]
           [--noise absolute|relative|auto] [--latency-as overhead|startup]
           [--request FILE.json] [--csv]
      For a model that reads tables of measurements: a CSV or TSV table
      (any FILE, or -, that does not start with '{') instead of a request.
      Which table it is comes from --as (computation, transfers, energy,
      power, runs) or from its columns: state and power_W are power
      readings, energy_J energies per chunk, size_MB and time_s computing
      times (transfers with --as transfers), run measured runs, which need
      --request FILE.json, the request they were run with. --shape auto,
      line, line-intercept, two-level or lines (--lines K: 2 to 4); --noise
      relative weighs times whose noise is a fraction of the time (auto:
      the one with the lower BIC); --csv prints the fitted parameters, one
      row per machine and parameter.
";

/// A refused option, at its name.
fn option(name: &str, why: String) -> Error {
    Error::field(name, Invalid::Text(why))
}

/// Which table a text is, from its columns: `state` and a power column
/// are power readings, an energy column energies per chunk, a `run` column
/// measured runs, sizes and times computing times.
///
/// # Errors
///
/// A header that cannot be read, or columns that say no kind.
pub fn kind_of(text: &str) -> Result<&'static str, Error> {
    let columns = Table::header(text).map_err(|e| e.at("table"))?;
    let named = |n: &str| columns.iter().any(|(name, _)| name == n);
    let has = |q: Quantity| columns.iter().any(|(_, c)| *c == Some(q));
    if named("run") {
        return Ok("runs");
    }
    if named("state") && has(Quantity::Power) {
        return Ok("power");
    }
    if has(Quantity::Energy) && has(Quantity::Size) {
        return Ok("energy");
    }
    if has(Quantity::Size) && has(Quantity::Time) {
        return Ok("computation");
    }
    let names: Vec<&str> = columns.iter().map(|(n, _)| n.as_str()).collect();
    Err(option(
        "table",
        format!(
            "its columns ({}) are none of the tables fitted: size_MB,time_s (computing \
             times, or transfers with --as transfers), size_MB,energy_J, state,power_W, \
             or run,time_s with a request",
            names.join(", ")
        ),
    ))
}

/// The fit's tables as the command line reads them (`dlt fit FILE.csv`),
/// requests of the model tagged `model` over the registry `C`.
pub struct Tables<C> {
    model: &'static str,
    registry: PhantomData<fn() -> C>,
}

impl<C> Tables<C> {
    /// The tables of model `model`.
    pub fn of(model: &'static str) -> Tables<C> {
        Tables {
            model,
            registry: PhantomData,
        }
    }
}

impl<C> TableInput for Tables<C> {
    fn options(&self) -> &'static [&'static str] {
        &OPTIONS
    }

    fn help(&self) -> &'static str {
        HELP
    }

    fn request(&self, text: &str, options: &BTreeMap<String, String>) -> Result<Value, Error> {
        with_tag(self.model, &request::<C>(text, options)?)
    }
}

/// A request of the one table `text`, with the command line's options.
///
/// # Errors
///
/// An option not taken or not understood, a table whose kind cannot be
/// told, or runs without the request they were measured with.
pub fn request<C>(text: &str, options: &BTreeMap<String, String>) -> Result<Request<C>, Error> {
    if let Some(other) = options.keys().find(|k| !OPTIONS.contains(&k.as_str())) {
        let why = format!("a table takes the options {}", OPTIONS.join(", "));
        return Err(option(other, why));
    }
    let kind =
        match options.get("as") {
            Some(kind) => KINDS.iter().copied().find(|k| k == kind).ok_or_else(|| {
                option("as", format!("`{kind}` is not one of {}", KINDS.join(", ")))
            })?,
            None => kind_of(text)?,
        };
    let mut request = Request {
        transfers: None,
        computation: None,
        shape: parsed(options, "shape")?.unwrap_or_default(),
        lines: parsed::<Count>(options, "lines")?,
        noise: parsed(options, "noise")?.unwrap_or_default(),
        energy: None,
        power: None,
        latency_as: parsed::<Latency>(options, "latency-as")?.unwrap_or_default(),
        validity: None,
        examples: Examples::default(),
        registry: PhantomData,
    };
    let table = Some(Measurements::Csv(text.to_string()));
    match kind {
        "transfers" => request.transfers = table,
        "energy" => request.energy = table,
        "power" => request.power = table,
        "runs" => request.validity = Some(runs(text, options.get("request"))?),
        _ => request.computation = table,
    }
    Ok(request)
}

/// The value of option `name`, read as JSON reads it (a word as a string,
/// a number as a number).
fn parsed<T: serde::de::DeserializeOwned>(
    options: &BTreeMap<String, String>,
    name: &str,
) -> Result<Option<T>, Error> {
    let Some(typed) = options.get(name) else {
        return Ok(None);
    };
    let value = serde_json::from_str::<Value>(typed)
        .ok()
        .filter(Value::is_number)
        .unwrap_or_else(|| Value::String(typed.clone()));
    serde_json::from_value(value)
        .map(Some)
        .map_err(|e| option(name, format!("`{typed}`: {e}")))
}

/// The validity check of measured runs against the request (a JSON
/// request's text) they were run with.
fn runs(text: &str, request: Option<&String>) -> Result<Check, Error> {
    let needed = || {
        option(
            "request",
            "measured runs (a `run` column) are checked against the request they were \
             run with: give it as --request FILE.json with --as runs"
                .into(),
        )
    };
    let request = request.ok_or_else(needed)?;
    let mut fields = match serde_json::from_str::<Value>(request) {
        Ok(Value::Object(fields)) => fields,
        Ok(_) => return Err(option("request", "is not a JSON object".into())),
        Err(e) => return Err(option("request", format!("is not JSON: {e}"))),
    };
    let model = match fields.remove("model") {
        Some(Value::String(model)) => model,
        _ => return Err(option("request", "names no model (its \"model\")".into())),
    };
    fields.remove("max_seconds");
    Ok(Check {
        request: Tagged { model, fields },
        runs: Vec::new(),
        measured: Some(Measurements::Csv(text.to_string())),
    })
}
