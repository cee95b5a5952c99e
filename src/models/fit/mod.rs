//! M9: from a user's own measurements to the models' parameters, and the
//! models' predictions checked against measured runs (`[1]` §2).
//!
//! In three parts that know nothing of one another:
//!
//! - `stats/`, the statistics: plain functions from slices of `f64` to
//!   typed fits, each parameter with a standard error and a 95 % interval:
//!   [`line()`], [`two_level`] (`[3]`'s `max(a1 α, a2 α + b2)` with an
//!   unknown knee, the RAM size), [`k_lines`] (M3's form), all exact
//!   (Hudson 1966) and weighted as well ([`Weights`]: noise relative to
//!   the time), and [`states`] (power readings per state). Every refusal
//!   is a [`FitError`] naming the sample's 0-based index.
//! - `table/`, the measurements as people have them: CSV or TSV with
//!   units in the headers, or JSON rows ([`Table`], [`Measurements`]), and
//!   measured runs ([`runs`]); [`data`] holds the data sets from the seeds.
//! - `report/`, the answer: every fit, the calibration and the filled
//!   requests ([`Report`]), its view, charts and CSV.
//!
//! Between them: the request (`request.rs`, `from_table.rs` for one CSV
//! table), the fits machine by machine (`solve.rs`), and the check of a
//! model's predictions against measured runs ([`check`]).

pub mod data;
mod exercises;
mod form;
mod from_table;
mod model;
mod report;
mod request;
mod solve;
mod stats;
mod table;
mod validity;

pub use model::{Fit, Output};
pub use report::{offers, Report};
pub use stats::{
    k_lines, k_lines_weighted, k_lines_with, line, line_weighted, states, t_975, two_level,
    two_level_weighted, two_level_with, Axis, Estimate, FitError, Goodness, KneeFit, LineFit,
    LinesFit, Origin, PowerFit, Preferred, State, Weights,
};
pub use table::{runs, Measurements, Place, Quantity, Table, TableError, Values, MAX_ROWS};
pub use validity::{check, Checked, Run, Validity, ValidityProblem};
