//! What can be wrong with a table of measurements, as the fit's own kind
//! of invalid value behind the shared [`Invalid::Own`]: each names the
//! column and the row as the user sees them, so a pasted table can be
//! fixed line by line.

use std::fmt;

use crate::core::domain::error::{Error, Invalid};

/// The magnitudes a measurement may have in the calculator's units (zero
/// aside): squares and sums of a million of them stay far from overflow
/// and underflow.
pub const RANGE: (f64, f64) = (1e-30, 1e30);

/// Where a cell is, as the user sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// A line of a CSV or TSV text, from 1 (the header is line 1), so that
    /// an editor's line number finds it.
    Line(usize),
    /// An entry of a JSON list of rows or of a column's values, from 0 as
    /// JSON indexes it.
    Entry(usize),
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Line(n) => write!(f, "row {n}"),
            Place::Entry(i) => write!(f, "entry [{i}]"),
        }
    }
}

/// Why a table of measurements cannot be read.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum TableError {
    /// Nothing but white space.
    Empty,
    /// A header and no measurement under it.
    HeaderOnly,
    /// A column the calculator does not know (the known ones listed).
    UnknownColumn {
        /// The header as written.
        column: String,
        /// The names the calculator reads.
        known: String,
    },
    /// A numeric column whose header gives no unit.
    NoUnit {
        /// The header as written.
        column: String,
        /// Headers that would do, e.g. `time_s or time_ms`.
        hint: String,
    },
    /// A unit the calculator does not know for the column's quantity.
    UnknownUnit {
        /// The header as written.
        column: String,
        /// The unit as written.
        unit: String,
        /// Headers that would do.
        hint: String,
    },
    /// Two columns of one quantity (`time_s` and `time_ms`), or one name twice.
    Duplicate {
        /// The second header.
        column: String,
        /// The first header of the same quantity.
        first: String,
    },
    /// A cell of a numeric column that is not a number.
    NotNumber {
        /// The column's header.
        column: String,
        /// The cell's row.
        row: Place,
        /// The cell as written.
        text: String,
    },
    /// NaN or infinite (or out of the calculator's range once converted).
    NotFinite {
        /// The column's header.
        column: String,
        /// The cell's row.
        row: Place,
        /// The cell as written.
        text: String,
    },
    /// A magnitude outside `RANGE` (10⁻³⁰ to 10³⁰), where sums of squares
    /// over a million rows would overflow or vanish.
    OutOfRange {
        /// The column's header.
        column: String,
        /// The cell's row.
        row: Place,
        /// The cell as written.
        text: String,
        /// The column's unit.
        unit: &'static str,
    },
    /// Zero or below where only a positive value makes sense (a time, a size).
    NotPositive {
        /// The column's header.
        column: String,
        /// The cell's row.
        row: Place,
        /// The value in the column's own unit.
        value: f64,
    },
    /// Below zero where it makes no sense (an energy, a power).
    Negative {
        /// The column's header.
        column: String,
        /// The cell's row.
        row: Place,
        /// The value in the column's own unit.
        value: f64,
    },
    /// A cell of a text column that is empty.
    EmptyText {
        /// The column's header.
        column: String,
        /// The cell's row.
        row: Place,
    },
    /// A row with more or fewer cells than the header.
    Ragged {
        /// The row.
        row: Place,
        /// Its number of cells.
        found: usize,
        /// The header's number of columns.
        expected: usize,
    },
    /// More rows than the calculator reads.
    TooManyRows {
        /// The most rows read.
        limit: usize,
    },
    /// A column a fit needs is not there.
    Missing {
        /// What the column is called, e.g. `time`.
        column: String,
        /// What needs it, e.g. `the two-level fit`.
        needed_by: String,
        /// Headers that would do.
        hint: String,
    },
    /// The text is not CSV the reader understands (a quote left open, bytes
    /// that are not UTF-8).
    Unreadable {
        /// Where, if known.
        row: Option<Place>,
        /// The reader's words.
        why: String,
    },
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::Empty => {
                write!(f, "the table is empty: give a header row and measurements")
            }
            TableError::HeaderOnly => {
                write!(f, "the table has a header but no measurements under it")
            }
            TableError::UnknownColumn { column, known } => {
                write!(
                    f,
                    "column `{column}` is not one the calculator reads ({known})"
                )
            }
            TableError::NoUnit { column, hint } => {
                write!(f, "column `{column}` has no unit: write {hint}")
            }
            TableError::UnknownUnit { column, unit, hint } => {
                write!(f, "column `{column}`: unknown unit `{unit}`: write {hint}")
            }
            TableError::OutOfRange {
                column,
                row,
                text,
                unit,
            } => write!(
                f,
                "{row}, column `{column}`: \"{text}\" is out of the range a fit computes with \
                 ({:e} to {:e} {unit}; write the column in another unit)",
                RANGE.0, RANGE.1
            ),
            TableError::Duplicate { column, first } => write!(
                f,
                "column `{column}` repeats column `{first}`: keep one column per quantity"
            ),
            _ => self.fmt_cell(f),
        }
    }
}

impl TableError {
    /// The message of a problem with a cell, a row or the whole table.
    fn fmt_cell(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = crate::core::domain::number::number;
        match self {
            TableError::NotNumber { column, row, text } => write!(
                f,
                "{row}, column `{column}`: \"{text}\" is not a number (decimals with a point: 0.5)"
            ),
            TableError::NotFinite { column, row, text } => {
                write!(
                    f,
                    "{row}, column `{column}`: \"{text}\" is not a finite number"
                )
            }
            TableError::NotPositive { column, row, value } => write!(
                f,
                "{row}, column `{column}`: must be greater than zero (got {})",
                n(*value)
            ),
            TableError::Negative { column, row, value } => write!(
                f,
                "{row}, column `{column}`: must not be negative (got {})",
                n(*value)
            ),
            TableError::EmptyText { column, row } => {
                write!(f, "{row}, column `{column}`: is empty")
            }
            TableError::Ragged {
                row,
                found,
                expected,
            } => write!(
                f,
                "{row} has {found} cells, but the header has {expected} columns"
            ),
            TableError::TooManyRows { limit } => {
                write!(f, "the table has more than {limit} rows, the limit")
            }
            TableError::Missing {
                column,
                needed_by,
                hint,
            } => write!(
                f,
                "column `{column}` is missing: {needed_by} needs it ({hint})"
            ),
            TableError::Unreadable {
                row: Some(row),
                why,
            } => write!(f, "{row}: {why}"),
            TableError::Unreadable { row: None, why } => {
                write!(f, "the table cannot be read: {why}")
            }
            _ => Ok(()),
        }
    }

    /// The problem as the crate's error, at the request's field `field`
    /// that holds the table (a row's path for JSON rows is in the message).
    pub fn at(self, field: &str) -> Error {
        Error::field(field, Invalid::from(self))
    }
}

impl std::error::Error for TableError {}

impl From<TableError> for Invalid {
    fn from(kind: TableError) -> Invalid {
        Invalid::own(kind)
    }
}
