//! M9's report as CSV (`dlt fit FILE.csv --csv`): one row per machine and
//! fitted parameter, each with its unit, standard error and 95 % interval,
//! for a spreadsheet or a script; measured runs add their measured and
//! predicted makespans and the relative error (a fraction).

use super::Report;
use crate::models::fit::request::Shape;
use crate::models::fit::solve::LevelsFit;
use crate::models::fit::stats::Estimate;
use crate::models::fit::stats::{Factor, Mean};

/// The CSV's header.
pub const HEADER: [&str; 7] = [
    "machine",
    "parameter",
    "value",
    "unit",
    "std_error",
    "low",
    "high",
];

/// One row: the value, and its error and interval when it has them.
struct Row {
    machine: String,
    parameter: String,
    value: f64,
    unit: String,
    estimate: Option<Estimate>,
}

/// The rows of one machine's parameters, as they are pushed.
struct Rows<'a> {
    rows: &'a mut Vec<Row>,
    machine: String,
}

impl Rows<'_> {
    fn push(&mut self, parameter: &str, unit: &str, value: f64, estimate: Option<Estimate>) {
        self.rows.push(Row {
            machine: self.machine.clone(),
            parameter: parameter.to_string(),
            value,
            unit: unit.to_string(),
            estimate,
        });
    }

    fn estimate(&mut self, parameter: &str, unit: &str, e: &Estimate) {
        self.push(parameter, unit, e.value, Some(*e));
    }

    fn mean(&mut self, parameter: &str, m: &Mean) {
        self.push(parameter, "W", m.value, m.estimate);
    }

    fn factor(&mut self, parameter: &str, k: &Factor) {
        self.push(parameter, "", k.value, k.estimate);
    }
}

/// A table's rows for machine `name` (`all` when the table names none).
fn rows_of<'a>(rows: &'a mut Vec<Row>, name: &str) -> Rows<'a> {
    let machine = if name.is_empty() { "all" } else { name };
    Rows {
        rows,
        machine: machine.to_string(),
    }
}

/// The parameters of a computing or energy fit in the form used (`table`
/// prefixes their names, `unit` is per chunk).
fn levels(rows: &mut Vec<Row>, table: &str, unit: &str, f: &LevelsFit) {
    let mut out = rows_of(rows, &f.machine);
    let per = format!("{unit}/MB");
    let name = |p: &str| format!("{table}.{p}");
    match (f.shape, &f.knee, &f.lines) {
        (Shape::TwoLevel, Some(k), _) => {
            out.estimate(&name("a1"), &per, &k.a1);
            if let Some(b1) = &k.b1 {
                out.estimate(&name("b1"), unit, b1);
            }
            out.estimate(&name("a2"), &per, &k.a2);
            out.estimate(&name("b2"), unit, &k.b2);
            out.estimate(&name("r"), "MB", &k.r);
        }
        (Shape::Lines, _, Some(l)) => {
            for (i, line) in l.lines.iter().enumerate() {
                out.estimate(&name(&format!("A{}", i + 1)), &per, &line.slope);
                if let Some(b) = &line.intercept {
                    out.estimate(&name(&format!("B{}", i + 1)), unit, b);
                }
            }
            for (i, knee) in l.knees.iter().enumerate() {
                out.estimate(&name(&format!("knee{}", i + 1)), "MB", knee);
            }
        }
        _ => {
            out.estimate(&name("A"), &per, &f.line.slope);
            if let Some(b) = &f.line.intercept {
                out.estimate(&name("B"), unit, b);
            }
        }
    }
}

/// Every fitted parameter of the report, machine by machine.
fn rows(report: &Report) -> Vec<Row> {
    let mut rows = Vec::new();
    for f in &report.transfers {
        let mut out = rows_of(&mut rows, &f.machine);
        out.estimate("transfers.C", "s/MB", &f.fit.slope);
        match &f.fit.intercept {
            Some(b) => out.estimate("transfers.latency", "s", b),
            None => out.push("transfers.latency", "s", 0.0, None),
        }
    }
    for f in &report.computation {
        levels(&mut rows, "computation", "s", f);
    }
    for f in &report.energy {
        levels(&mut rows, "energy", "J", f);
    }
    for p in &report.power {
        let mut out = rows_of(&mut rows, &p.machine);
        out.mean("power.P_C", &p.fit.compute);
        if let Some(n) = &p.fit.network {
            out.mean("power.P_N", n);
        }
        if let Some(idle) = &p.fit.idle {
            out.mean("power.idle", idle);
        }
        if let Some(k) = &p.fit.k {
            out.factor("power.k", k);
        }
        for mode in &p.fit.sleep {
            out.mean(&format!("power.{}", mode.name), &mode.power);
            out.factor(&format!("power.k_{}", mode.name), &mode.k);
        }
    }
    if let Some(checked) = &report.validity {
        let mut out = rows_of(&mut rows, "");
        for run in &checked.runs {
            let name = |what: &str| format!("validity.{}.{what}", run.name);
            out.push(&name("measured"), "s", run.measured, None);
            out.push(&name("predicted"), "s", run.predicted, None);
            out.push(&name("error"), "", run.error, None);
        }
    }
    rows
}

/// A number as a spreadsheet reads it back exactly: plain, or with an
/// exponent when far from 1 (`6.8e-16`, not sixteen zeros).
fn cell(x: f64) -> String {
    if x == 0.0 || (1e-4..1e15).contains(&x.abs()) {
        x.to_string()
    } else {
        format!("{x:e}")
    }
}

/// The report's parameters as CSV text (empty cells where a parameter has
/// no interval).
pub fn csv(report: &Report) -> String {
    let mut out = csv::Writer::from_writer(Vec::new());
    let mut lines = vec![HEADER.map(String::from).to_vec()];
    for row in rows(report) {
        let (std_error, low, high) = match row.estimate {
            Some(e) => (
                e.std_error.to_string(),
                e.low.to_string(),
                e.high.to_string(),
            ),
            None => Default::default(),
        };
        lines.push(vec![
            row.machine,
            row.parameter,
            cell(row.value),
            row.unit,
            std_error,
            low,
            high,
        ]);
    }
    for line in lines {
        // Writing to a vector in memory cannot fail.
        let _ = out.write_record(&line);
    }
    let bytes = out.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}
