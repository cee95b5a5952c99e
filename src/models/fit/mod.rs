//! M9: from a user's own measurements to the models' parameters, and the
//! models' predictions checked against measured runs (`[1]` §2).
//!
//! The mathematics: plain functions from slices of `f64` to typed fits,
//! each parameter with a standard error and a 95 % interval.
//!
//! - [`line`](line::line): least squares `y = A x` or `y = A x + B`, the
//!   textbook closed forms.
//! - [`two_level`](knee::two_level): `[3]`'s `max(a1 α, a2 α + b2)`, the
//!   continuous two-piece fit with an unknown knee `r = b2/(a1 − a2)` (the
//!   RAM size), and [`k_lines`](piecewise::k_lines), M3's form with `k`
//!   lines. Both are exact, not an optimiser that may stop in a local
//!   minimum: every gap between sorted loads is tried in closed form
//!   (Hudson 1966, see [`piecewise`]).
//! - [`states`](power::states): power readings per state → `P_C`, `P_N`,
//!   the idle factor `k` and each sleep mode's factor (`[1]`, `[4]`).
//!
//! Inputs are checked first ([`check`]); every refusal is a
//! [`FitError`](error::FitError) naming the sample's 0-based index.
//!
//! The measurements: [`table`] reads them as people have them (CSV or TSV
//! with units in the headers, or JSON rows), [`data`] holds the data sets
//! from the seeds, and [`validity`] checks a model's predictions against
//! measured runs.

pub mod charts;
pub mod check;
pub mod columns;
pub mod data;
pub mod error;
pub mod estimate;
mod exercises;
pub mod export;
mod form;
pub mod from_table;
pub mod knee;
mod linalg;
pub mod line;
mod model;
mod moments;
pub mod piecewise;
pub mod power;
pub mod report;
pub mod request;
pub mod runs;
pub mod solve;
pub mod student;
pub mod table;
pub mod table_error;
mod table_text;
pub mod validity;
mod view;

pub use model::{Fit, Output};
