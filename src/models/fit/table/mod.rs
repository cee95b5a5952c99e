//! Tables of measurements as people have them: CSV or TSV pasted from a
//! spreadsheet or a script (header row, columns in any order, the unit in
//! each header), or the same rows in JSON. Every number is converted to the
//! calculator's units (MB, s, J, W) once, here, so the fits never see a
//! unit; every refusal names the column and the row as the user sees them.
//!
//! Headers: `size_MB` (or `load_…`, `alpha_…`: the chunk's size), `time_s`,
//! `energy_J`, `power_W`, with the units of [`Quantity::units`]; `time [s]`
//! and `time (s)` are read as `time_s`. Text columns: `machine` (one table
//! calibrates a heterogeneous cluster, [`Table::groups`]), `state` (of a
//! power reading), `run` (of a measured run) and `application`. Sizes are
//! decimal (1 GB = 1000 MB). A line of a CSV text that starts with `#` is
//! a comment.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

mod columns;
mod error;
mod runs;
mod text;

pub use columns::{Cell, Group, Quantity, Table, Values, MAX_ROWS};
pub use error::{Place, TableError};
pub use runs::runs;

impl Table {
    /// Reads a CSV or TSV text (the delimiter found from the header:
    /// comma, tab or semicolon).
    ///
    /// # Errors
    ///
    /// The first problem, naming its column and row.
    pub fn from_text(text: &str) -> Result<Table, TableError> {
        text::read(text)
    }

    /// The columns a CSV or TSV text's header names (name without unit,
    /// and quantity of a numeric column), its rows left unread.
    ///
    /// # Errors
    ///
    /// An empty text, or a header the calculator cannot read.
    pub fn header(text: &str) -> Result<Vec<(String, Option<Quantity>)>, TableError> {
        text::header(text)
    }
}

/// Measurements as a request carries them: a CSV or TSV text as pasted or
/// uploaded, or the same rows as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Measurements {
    /// CSV or TSV text with a header row (`size_MB,time_s`).
    Csv(String),
    /// One object per measurement, keyed by header
    /// (`[{"size_MB": 100, "time_s": 10.9}]`).
    Rows(Vec<BTreeMap<String, Cell>>),
    /// One list of values per header (`{"size_MB": [100, 200],
    /// "time_s": [10.9, 21.8]}`), compact for many samples.
    Columns(BTreeMap<String, Vec<Cell>>),
}

impl Measurements {
    /// The table, converted and checked.
    ///
    /// # Errors
    ///
    /// The first problem, naming its column and row.
    pub fn table(&self) -> Result<Table, TableError> {
        match self {
            Measurements::Csv(text) => Table::from_text(text),
            Measurements::Rows(rows) => text::from_rows(rows),
            Measurements::Columns(columns) => text::from_columns(columns),
        }
    }
}
