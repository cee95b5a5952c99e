//! Measured runs read from a table, for the validity check: one row per
//! run (`run,time_s`, optionally `load_MB`), or one row per machine of a
//! run (`run,machine,time_s`): each machine's finish time, in the order of
//! the predicted schedule's machines (`P1` first), and the run's makespan
//! the latest of them unless a row of machine `all` gives it.

use std::collections::BTreeMap;

use super::columns::{Quantity, Table};
use super::error::{Place, TableError};
use crate::models::fit::validity::Run;

/// The machine name of a row that gives a whole run's makespan.
pub const WHOLE_RUN: &str = "all";

/// What `runs` needs the table for, in messages.
const NEEDED_BY: &str = "the validity check";

/// One run being read: its rows' times and load.
#[derive(Default)]
struct Reading {
    whole: Option<f64>,
    machines: Vec<f64>,
    load: Option<(f64, Place)>,
}

/// The runs of a table, in the order they first appear.
///
/// # Errors
///
/// A missing `run` or `time` column, a run whose rows give different loads,
/// or a run with two whole-run rows, naming the row.
pub fn runs(table: &Table) -> Result<Vec<Run>, TableError> {
    let names = table.require_texts("run", NEEDED_BY)?;
    let times = table.require(Quantity::Time, NEEDED_BY)?;
    let machines = table.texts("machine");
    let loads = table.numbers(Quantity::Size);
    let mut order: Vec<String> = Vec::new();
    let mut readings: BTreeMap<&str, Reading> = BTreeMap::new();
    for (row, (name, time)) in names.iter().zip(times).enumerate() {
        let place = table.place(row).unwrap_or(Place::Entry(row));
        let reading = readings.entry(name).or_insert_with(|| {
            order.push(name.clone());
            Reading::default()
        });
        match machines.map(|m| m[row].as_str()) {
            Some(m) if !m.eq_ignore_ascii_case(WHOLE_RUN) => reading.machines.push(*time),
            _ if reading.whole.is_some() => return Err(twice(table, name, place)),
            _ => reading.whole = Some(*time),
        }
        if let Some(load) = loads.map(|l| l[row]) {
            match reading.load {
                Some((first, _)) if first != load => {
                    return Err(mixed(table, name, place, first, load))
                }
                Some(_) => {}
                None => reading.load = Some((load, place)),
            }
        }
    }
    Ok(order
        .into_iter()
        .map(|name| {
            let reading = readings.remove(name.as_str()).unwrap_or_default();
            run(name, reading)
        })
        .collect())
}

/// The run of a reading.
fn run(name: String, reading: Reading) -> Run {
    let latest = reading.machines.iter().copied().fold(0.0, f64::max);
    let set = match reading.load {
        Some((load, _)) => BTreeMap::from([("load".to_string(), load)]),
        None => BTreeMap::new(),
    };
    Run {
        name: Some(name),
        makespan: reading.whole.unwrap_or(latest),
        machines: (!reading.machines.is_empty()).then_some(reading.machines),
        set,
    }
}

/// The header of a quantity's column, for a message.
fn header(table: &Table, quantity: Quantity) -> String {
    table
        .column(quantity)
        .map_or_else(|| quantity.names()[0].to_string(), |c| c.header.clone())
}

/// A run with two rows that each give its whole makespan.
fn twice(table: &Table, name: &str, row: Place) -> TableError {
    let column = header(table, Quantity::Time);
    TableError::Unreadable {
        row: Some(row),
        why: format!(
            "run `{name}` already has its makespan in column `{column}`: give one row \
             without a machine (or of machine `{WHOLE_RUN}`) per run"
        ),
    }
}

/// A run whose rows give different loads.
fn mixed(table: &Table, name: &str, row: Place, first: f64, load: f64) -> TableError {
    let column = header(table, Quantity::Size);
    let n = crate::core::domain::number::number;
    TableError::Unreadable {
        row: Some(row),
        why: format!(
            "column `{column}`: run `{name}` has the load {} MB on its first row, {} MB here",
            n(first),
            n(load)
        ),
    }
}
