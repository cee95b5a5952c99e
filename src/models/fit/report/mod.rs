//! M9's answer: every fit, the calibration they make, the target models'
//! requests filled from it, and the validity check.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::domain::error::Error;
use crate::core::domain::processing::{Level, ProcessingTime};
use crate::core::domain::verify::RELATIVE_TOLERANCE;
use crate::core::framework::calibration::{Calibration, Change, Fitted, Offer, Powers};
use crate::core::framework::registry::Registry;
use crate::core::presentation::map::Tagged;
use crate::core::solving::progress::Progress;
use crate::models::fit::request::{Request, Shape, TableUse};
use crate::models::fit::solve::{levels, powers, transfers, LevelsFit, PowersFit, TransferFit};
use crate::models::fit::table::{Quantity, Table};
use crate::models::fit::validity::{check, Checked};

mod charts;
mod export;
mod view;

/// Every fit of a request, and where its numbers go.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The links, one per machine.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub transfers: Vec<TransferFit>,
    /// The computing times, one per machine.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub computation: Vec<LevelsFit>,
    /// The energies per chunk, one per machine.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub energy: Vec<LevelsFit>,
    /// The powers per state, one per machine.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub power: Vec<PowersFit>,
    /// The fitted parameters per machine, in the calculator's units.
    pub calibration: Calibration,
    /// The target models' requests filled from the calibration, by model
    /// id, each ready for `dlt solve`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub requests: BTreeMap<String, Value>,
    /// For each target model, its fields filled from measurements (the
    /// others are its default preset's).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub filled: BTreeMap<String, Vec<String>>,
    /// For each target model, what its fields were and what they are.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub changes: BTreeMap<String, Vec<Change>>,
    /// The models' titles, for buttons.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub titles: BTreeMap<String, String>,
    /// The model checked against measured runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validity: Option<Checked>,
    /// The tables given: the user's or examples, fitted or left out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tables: Vec<TableUse>,
}

/// The requests the registry's models fill from `calibration`, in course
/// order: each model knows which of its fields a measurement fills.
pub fn offers<C: Registry>(calibration: &Calibration) -> Vec<Offer> {
    let entries = C::entries().into_iter();
    entries.filter_map(|m| m.calibrated(calibration)).collect()
}

/// The models that read measured parameters at all.
pub fn targets<C: Registry>() -> Vec<&'static str> {
    let everything = Calibration::everything();
    let entries = C::entries().into_iter();
    let reading = entries.filter(|m| m.calibrated(&everything).is_some());
    reading.map(|m| m.id().name).collect()
}

/// The request's tables, each read once, by field.
///
/// # Errors
///
/// A table's first problem, at its field.
pub fn tables<C>(request: &Request<C>) -> Result<BTreeMap<&'static str, Table>, Error> {
    let mut tables = BTreeMap::new();
    for (name, _, _) in crate::models::fit::request::TABLES {
        if let Some(table) = request.table(name)? {
            tables.insert(name, table);
        }
    }
    Ok(tables)
}

/// Fits every table of `request` (read once by [`tables`], so that the
/// charts can use them too without reading a million rows again) and
/// checks its runs.
///
/// # Errors
///
/// A table or a fit the data do not allow, at the table's field; the
/// validity check's errors under `validity`.
pub fn fit_tables<C: Registry>(
    request: &Request<C>,
    tables: &BTreeMap<&'static str, Table>,
    progress: &mut dyn Progress,
) -> Result<Report, Error> {
    let mut report = Report {
        transfers: Vec::new(),
        computation: Vec::new(),
        energy: Vec::new(),
        power: Vec::new(),
        calibration: Calibration::default(),
        requests: BTreeMap::new(),
        filled: BTreeMap::new(),
        changes: BTreeMap::new(),
        titles: BTreeMap::new(),
        validity: None,
        tables: request.table_uses(),
    };
    if let Some(table) = tables.get("transfers") {
        report.transfers = transfers(table, request.noise)?;
    }
    if let Some(table) = tables.get("computation") {
        report.computation = levels(request, "computation", table, Quantity::Time)?;
    }
    if let Some(table) = tables.get("energy") {
        report.energy = levels(request, "energy", table, Quantity::Energy)?;
    }
    if let Some(table) = tables.get("power") {
        report.power = powers(table)?;
    }
    report.calibration = calibration(&report, request);
    if let Some(table) = tables.get("computation") {
        largest_chunks(&mut report.calibration, table);
    }
    for offer in offers::<C>(&report.calibration) {
        report.titles.insert(offer.model.clone(), offer.title);
        report.filled.insert(offer.model.clone(), offer.filled);
        report.changes.insert(offer.model.clone(), offer.changes);
        report.requests.insert(offer.model, offer.request);
    }
    if let Some(validity) = request.validity()? {
        let mut checked = check::<C>(&validity, progress).map_err(under_validity)?;
        checked.unlike_fit = unlike_fit(&report, &validity.request);
        report.validity = Some(checked);
    }
    Ok(report)
}

/// The fields the fit fills for `checked`'s model in which `checked`
/// differs from the fitted request (numbers to 1e-9, [`same`]): the runs
/// check reads its own request, which a fit done afresh (another shape,
/// other tables) does not change.
fn unlike_fit(report: &Report, checked: &Tagged) -> Vec<String> {
    let (Some(fitted), Some(fields)) = (
        report.requests.get(&checked.model),
        report.filled.get(&checked.model),
    ) else {
        return Vec::new();
    };
    let checked = Value::Object(checked.fields.clone());
    let pointer = |path: &str| {
        format!(
            "/{}",
            path.replace('[', "/").replace(']', "").replace('.', "/")
        )
    };
    fields
        .iter()
        .filter(|f| f.as_str() != "load")
        .filter(|f| !same(fitted.pointer(&pointer(f)), checked.pointer(&pointer(f))))
        .cloned()
        .collect()
}

/// Whether two JSON values are equal, numbers to the verifier's relative
/// tolerance.
fn same(a: Option<&Value>, b: Option<&Value>) -> bool {
    match (a, b) {
        (Some(Value::Number(x)), Some(Value::Number(y))) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            (x - y).abs() <= RELATIVE_TOLERANCE * x.abs().max(y.abs())
        }
        (Some(Value::Array(x)), Some(Value::Array(y))) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(Some(x), Some(y)))
        }
        (Some(Value::Object(x)), Some(Value::Object(y))) => {
            x.len() == y.len() && x.iter().all(|(k, v)| same(Some(v), y.get(k)))
        }
        (a, b) => a == b,
    }
}

/// Each machine's largest chunk measured, from the computing table: where
/// the target models' loads may go (`Fitted::telling_chunk`).
fn largest_chunks(calibration: &mut Calibration, table: &Table) {
    let sizes = table.numbers(Quantity::Size).unwrap_or_default();
    let groups = table.groups();
    for fitted in &mut calibration.machines {
        let group = find(&groups, &fitted.machine, |g| &g.machine);
        let largest = group.map(|g| g.pick(sizes).into_iter().fold(0.0, f64::max));
        fitted.largest = largest.filter(|x| *x > 0.0);
    }
}

/// The validity check's errors, under the request's `validity`.
fn under_validity(e: Error) -> Error {
    crate::models::fit::request::under("validity", e)
}

/// Every table's machine names, in the report's order of tables.
fn named(report: &Report) -> [Vec<&str>; 3] {
    [
        report
            .transfers
            .iter()
            .map(|f| f.machine.as_str())
            .collect(),
        report
            .computation
            .iter()
            .map(|f| f.machine.as_str())
            .collect(),
        report.power.iter().map(|f| f.machine.as_str()).collect(),
    ]
}

/// The machines of the cluster: those of the tables that name several, in
/// the order first named; else the one machine, named as the computing
/// table (or the first table) names it.
fn machines(report: &Report) -> Vec<String> {
    let tables = named(report);
    let mut names: Vec<String> = Vec::new();
    for name in tables.iter().filter(|t| t.len() > 1).flatten() {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    }
    if names.is_empty() {
        let [transfers, computation, power] = &tables;
        let first = computation.iter().chain(transfers).chain(power).next();
        names.push(first.map_or(String::new(), |n| n.to_string()));
    }
    names
}

/// Every machine's parameters. A table of one machine (or none named)
/// measured every machine alike: a link timed once, a power meter on one
/// node, stand for all.
fn calibration<C>(report: &Report, request: &Request<C>) -> Calibration {
    let machines = machines(report)
        .into_iter()
        .map(|name| {
            let mut fitted = Fitted {
                machine: name.clone(),
                latency_as: request.latency_as,
                ..Fitted::default()
            };
            if let Some(t) = find(&report.transfers, &name, |f| &f.machine) {
                fitted.rate = Some(t.fit.slope.value);
                fitted.latency = Some(t.fit.intercept.map_or(0.0, |b| b.value));
            }
            if let Some(c) = find(&report.computation, &name, |f| &f.machine) {
                fitted.compute = Some(c.line.slope.value).filter(|_| c.line.intercept.is_none());
                fitted.levels = processing_time(c);
            }
            if let Some(p) = find(&report.power, &name, |f| &f.machine) {
                fitted.power = powers_of(p);
            }
            fitted
        })
        .collect();
    Calibration { machines }
}

/// The fit of machine `name` in a table's fits: its own, or the table's
/// only one.
fn find<'a, T>(fits: &'a [T], name: &str, machine: impl Fn(&T) -> &String) -> Option<&'a T> {
    match fits {
        [only] => Some(only),
        _ => fits.iter().find(|f| machine(f) == name),
    }
}

/// The processing-time lines of the shape used, in-core first. Lines whose
/// slopes do not increase are no maximum of lines (no memory level the
/// models know): the models get the one line, as the fit's note says.
fn processing_time(fit: &LevelsFit) -> Option<ProcessingTime> {
    let levels = match (fit.shape, &fit.knee, &fit.lines) {
        (Shape::TwoLevel, Some(k), _) if k.convex => vec![
            Level::new(k.b1.map_or(0.0, |b| b.value), k.a1.value),
            Level::new(k.b2.value, k.a2.value),
        ],
        (Shape::Lines, _, Some(lines)) if lines.convex => lines
            .lines
            .iter()
            .map(|l| Level::new(l.intercept.map_or(0.0, |b| b.value), l.slope.value))
            .collect(),
        _ => vec![Level::new(
            fit.line.intercept.map_or(0.0, |b| b.value),
            fit.line.slope.value,
        )],
    };
    Some(ProcessingTime::new(levels))
}

/// The powers a model reads.
fn powers_of(p: &PowersFit) -> Powers {
    Powers {
        compute: Some(p.fit.compute.value),
        network: p.fit.network.as_ref().map(|m| m.value),
        idle: p.fit.idle.as_ref().map(|m| m.value),
        sleep: p
            .fit
            .sleep
            .iter()
            .map(|s| (s.name.clone(), s.power.value))
            .collect(),
    }
}
