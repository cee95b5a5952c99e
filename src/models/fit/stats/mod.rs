//! The statistics of M9, apart from where the numbers come from: plain
//! functions from slices of `f64` to typed fits, each parameter with a
//! standard error and a 95 % interval. Nothing here reads a table or knows
//! a model.
//!
//! - [`line()`]: least squares `y = A x` or `y = A x + B`, the textbook
//!   closed forms.
//! - [`two_level`]: `[3]`'s `max(a1 α, a2 α + b2)`, the continuous
//!   two-piece fit with an unknown knee `r = b2/(a1 − a2)` (the RAM size),
//!   and [`k_lines`], M3's form with `k` lines. Both are exact, not an
//!   optimiser that may stop in a local minimum: every gap between sorted
//!   loads is tried in closed form (Hudson 1966, see `piecewise.rs`).
//! - [`states`]: power readings per state → `P_C`, `P_N`, the idle factor
//!   `k` and each sleep mode's factor (`[1]`, `[4]`).
//!
//! Inputs are checked first (`check.rs`); every refusal is a [`FitError`]
//! naming the sample's 0-based index.

mod check;
mod error;
mod estimate;
mod knee;
mod linalg;
mod line;
mod moments;
mod piecewise;
mod power;
mod student;
mod weights;

pub use check::spread;
pub use error::{Axis, FitError};
pub use estimate::{Estimate, Goodness};
pub use knee::{two_level, two_level_weighted, two_level_with, KneeFit, Preferred};
pub use line::{line, line_weighted, LineFit};
pub use piecewise::{k_lines, k_lines_weighted, k_lines_with, LinesFit, Origin};
pub use power::{states, Factor, Mean, PowerFit, State};
pub use student::t_975;
pub use weights::Weights;
