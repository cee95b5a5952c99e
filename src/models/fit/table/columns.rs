//! The types of a table of measurements (its quantities, columns and
//! groups), apart from the readers that make one, which need them.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::error::{Place, TableError};

/// The most measurements (rows) a table may have.
pub const MAX_ROWS: usize = 1_000_000;

/// What a numeric column measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Quantity {
    /// A chunk's or a message's size, in MB.
    Size,
    /// A duration, in s.
    Time,
    /// An energy, in J.
    Energy,
    /// A power, in W.
    Power,
}

impl Quantity {
    /// Every quantity, in the order the hints list them.
    pub const ALL: [Quantity; 4] = [
        Quantity::Size,
        Quantity::Time,
        Quantity::Energy,
        Quantity::Power,
    ];

    /// The calculator's unit for it.
    pub fn unit(self) -> &'static str {
        self.units()[0].0
    }

    /// The units a header may give, with their factor to [`Quantity::unit`]
    /// (compared without regard to case: no two differ only by it).
    pub fn units(self) -> &'static [(&'static str, f64)] {
        match self {
            Quantity::Size => &[("MB", 1.0), ("GB", 1e3), ("kB", 1e-3), ("B", 1e-6)],
            Quantity::Time => &[
                ("s", 1.0),
                ("ms", 1e-3),
                ("us", 1e-6),
                ("µs", 1e-6),
                ("ns", 1e-9),
                ("min", 60.0),
                ("h", 3600.0),
            ],
            Quantity::Energy => &[("J", 1.0), ("kJ", 1e3), ("Wh", 3600.0), ("kWh", 3.6e6)],
            Quantity::Power => &[("W", 1.0), ("kW", 1e3)],
        }
    }

    /// The column names that mean it (the first is the usual one).
    pub fn names(self) -> &'static [&'static str] {
        match self {
            Quantity::Size => &["size", "load", "alpha"],
            Quantity::Time => &["time"],
            Quantity::Energy => &["energy"],
            Quantity::Power => &["power"],
        }
    }

    /// Headers that would do for a column called `name`: `time_s, time_ms
    /// or time_us`.
    pub fn hint(self, name: &str) -> String {
        let units: Vec<String> = self.units()[..3.min(self.units().len())]
            .iter()
            .map(|(u, _)| format!("{name}_{u}"))
            .collect();
        match units.as_slice() {
            [one] => one.clone(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
            [] => name.to_string(),
        }
    }

    /// Whether zero is a possible reading (an energy, a power) or only a
    /// positive value makes sense (a time, a size).
    pub fn zero_allowed(self) -> bool {
        matches!(self, Quantity::Energy | Quantity::Power)
    }

    /// The quantity a column name means, if any.
    pub fn of_name(name: &str) -> Option<Quantity> {
        Quantity::ALL
            .into_iter()
            .find(|q| q.names().contains(&name))
    }
}

/// The text columns a table may have: the machine a sample was measured
/// on, the state of a power reading, the run a validity row belongs to,
/// and the application measured.
pub const TEXT_COLUMNS: [&str; 4] = ["machine", "state", "run", "application"];

/// A column's values, converted.
#[derive(Debug, Clone, PartialEq)]
pub enum Values {
    /// Numbers in the quantity's unit.
    Numbers(Vec<f64>),
    /// Texts, trimmed.
    Texts(Vec<String>),
}

/// One column of a table.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The header as the user wrote it, for messages.
    pub header: String,
    /// Its name without a unit (`time`, `machine`).
    pub name: String,
    /// What it measures (`None` for a text column).
    pub quantity: Option<Quantity>,
    /// Its values, one per row, in the calculator's unit.
    pub values: Values,
}

/// A table of measurements, converted and checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// The columns, in the order given.
    pub columns: Vec<Column>,
    /// Where each row was in the input, for messages about a sample.
    pub places: Vec<Place>,
}

/// The samples measured on one machine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The machine's name (empty when the table has no `machine` column).
    pub machine: String,
    /// Its rows, in the table's order (indices into every column).
    pub rows: Vec<usize>,
}

impl Group {
    /// The group's values of a column.
    pub fn pick(&self, values: &[f64]) -> Vec<f64> {
        self.rows
            .iter()
            .filter_map(|&i| values.get(i).copied())
            .collect()
    }
}

impl Table {
    /// The number of rows (measurements).
    pub fn rows(&self) -> usize {
        self.places.len()
    }

    /// The column of a quantity, if the table has it.
    pub fn column(&self, quantity: Quantity) -> Option<&Column> {
        self.columns.iter().find(|c| c.quantity == Some(quantity))
    }

    /// The values of a quantity (in its unit), if the table has it.
    pub fn numbers(&self, quantity: Quantity) -> Option<&[f64]> {
        match &self.column(quantity)?.values {
            Values::Numbers(v) => Some(v),
            Values::Texts(_) => None,
        }
    }

    /// The texts of a text column (`machine`), if the table has it.
    pub fn texts(&self, name: &str) -> Option<&[String]> {
        let column = self.columns.iter().find(|c| c.name == name)?;
        match &column.values {
            Values::Texts(v) => Some(v),
            Values::Numbers(_) => None,
        }
    }

    /// The values of a quantity that `needed_by` (a fit, in words) needs.
    ///
    /// # Errors
    ///
    /// [`TableError::Missing`] when the table has no such column.
    pub fn require(&self, quantity: Quantity, needed_by: &str) -> Result<&[f64], TableError> {
        self.numbers(quantity).ok_or_else(|| {
            let name = quantity.names()[0];
            TableError::Missing {
                column: name.into(),
                needed_by: needed_by.into(),
                hint: quantity.hint(name),
            }
        })
    }

    /// The texts of a text column that `needed_by` needs.
    ///
    /// # Errors
    ///
    /// [`TableError::Missing`] when the table has no such column.
    pub fn require_texts(&self, name: &str, needed_by: &str) -> Result<&[String], TableError> {
        self.texts(name).ok_or_else(|| TableError::Missing {
            column: name.into(),
            needed_by: needed_by.into(),
            hint: format!("a column headed `{name}`"),
        })
    }

    /// The rows of each machine, in the order the machines first appear
    /// (one group of every row when there is no `machine` column).
    pub fn groups(&self) -> Vec<Group> {
        let Some(machines) = self.texts("machine") else {
            let rows = (0..self.rows()).collect();
            return vec![Group {
                machine: String::new(),
                rows,
            }];
        };
        let mut index: BTreeMap<&str, usize> = BTreeMap::new();
        let mut groups: Vec<Group> = Vec::new();
        for (row, machine) in machines.iter().enumerate() {
            let at = *index.entry(machine).or_insert_with(|| {
                groups.push(Group {
                    machine: machine.clone(),
                    rows: Vec::new(),
                });
                groups.len() - 1
            });
            groups[at].rows.push(row);
        }
        groups
    }

    /// Where row `row` (from 0, as the fits index samples) was in the
    /// input, for a message about that sample.
    pub fn place(&self, row: usize) -> Option<Place> {
        self.places.get(row).copied()
    }
}

/// A cell of a table given as JSON: a number, or a text (a machine's name,
/// or a number the page kept as typed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Cell {
    /// A number, in the unit its column's header names.
    Number(f64),
    /// A text.
    Text(String),
}
