//! A map in parts: bands of grid rows, each a request of its own, so that
//! a big map runs on many machines (`dlt split`) and its answers join into
//! the map the whole request gives, to the last bit.
//!
//! A part is the request with [`Rows`] set. It fills only those rows and
//! leaves the others without values; the join takes, cell by cell, the
//! value a part has. The parts are the bands the whole map is filled by
//! (with their own caches), so a model that carries a hint from cell to
//! cell (M5's probe) gives each cell the same value either way.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Contour, Request, BAND_ROWS};
use crate::core::domain::count::Count;
use crate::core::domain::error::{Checker, Invalid};
use crate::core::framework::registry::Registry;

/// Grid rows `from` up to (not including) `to`, counted from the first
/// `y` value; `from` a multiple of the band height (4).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rows {
    /// The first row.
    pub from: Count,
    /// The row after the last.
    pub to: Count,
}

impl Rows {
    /// Records why the rows cannot be a part of a grid of `steps` rows.
    pub(super) fn check_into(&self, c: &mut Checker, steps: u64) {
        let (from, to) = (self.from.0, self.to.0);
        if from % BAND_ROWS as u64 != 0 {
            let why = format!("a part starts at a multiple of {BAND_ROWS} rows");
            c.fail("rows.from", Invalid::Needed(why));
        }
        if to <= from || to > steps {
            let (value, low, high) = (to as f64, from as f64 + 1.0, steps as f64);
            c.fail("rows.to", Invalid::OutOfBounds { value, low, high });
        }
    }
}

/// The bands of rows `(from, to)` a grid of `height` rows is filled by:
/// all of them, or those inside `rows`.
pub(super) fn bands(height: usize, rows: Option<Rows>) -> Vec<(usize, usize)> {
    let (first, last) = rows.map_or((0, height), |r| (r.from.0 as usize, r.to.0 as usize));
    (first.min(height)..last.min(height))
        .step_by(BAND_ROWS)
        .map(|from| (from, (from + BAND_ROWS).min(last).min(height)))
        .collect()
}

impl<R: Registry> Request<R> {
    /// One request per band of rows; none for a map of one band (or one
    /// whose base is invalid: it is refused whole).
    pub fn parts(&self) -> Vec<Request<R>> {
        let Ok(base) = self.base() else {
            return Vec::new();
        };
        let parameters = base.parameters();
        let Some(y) = crate::core::presentation::map::Target::of(&parameters, &self.y.parameter)
        else {
            return Vec::new();
        };
        let height = self.y.values(parameters[y.parameter].whole).len();
        let bands = bands(height, None);
        if bands.len() < 2 {
            return Vec::new();
        }
        let part = |(from, to): (usize, usize)| Request {
            rows: Some(Rows {
                from: Count::from(from),
                to: Count::from(to),
            }),
            ..self.clone()
        };
        bands.into_iter().map(part).collect()
    }

    /// The grid of the whole map from its parts' grids (those ready so
    /// far: rows no part filled stay without values).
    pub fn joined(&self, parts: Vec<Contour>) -> Option<Contour> {
        let mut parts = parts.into_iter();
        let mut grid = parts.next()?;
        for part in parts {
            for (row, filled) in grid.values.iter_mut().zip(part.values) {
                for (cell, value) in row.iter_mut().zip(filled) {
                    *cell = cell.or(value);
                }
            }
            grid.largest_gap = grid.largest_gap.max(part.largest_gap);
            grid.invalid_cells += part.invalid_cells;
        }
        self.trace(&mut grid);
        Some(grid)
    }
}
