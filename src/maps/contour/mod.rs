//! Generalised maps (`[1]`): lines of equal efficiency, speedup, makespan
//! or energy over any two parameters of any model that names them
//! ([`crate::core::framework::maps::Maps`]), the others fixed.
//!
//! The quantity is computed on a grid (linear or geometric per axis) and
//! the lines are traced by marching squares, interpolating linearly inside
//! each cell (in `log` of the coordinate on a logarithmic axis). A cell with
//! an invalid parameter combination (e.g. `a2 ≤ a1`) has no value, and no
//! line crosses it. The map knows no model: it reads its base through a
//! [`Registry`], sets parameters by position and asks the
//! model for values, which carry their proven gap (0 for exact models; the
//! start-up model's probe hint carries from cell to cell through the
//! [`Cache`]).

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

mod border;
mod mapped;
mod march;
mod model;
mod presets;
mod split;
mod view;

pub use mapped::{base, map_presets, mapped};
pub use model::{GeneralisedMap, Output};

use crate::core::domain::count::Count;
use crate::core::domain::error::{shorten, Checker, Error, Invalid, Validate};
use crate::core::framework::model::hand_out;
use crate::core::framework::registry::Registry;
use crate::core::presentation::chart::{Axis, Line, LineChart};
pub use crate::core::presentation::map::Quantity;
use crate::core::presentation::map::{Cache, MapBase, Tagged, Target};
use crate::core::solving::parallel;
use crate::core::solving::progress::Progress;
use crate::plot::ticks::tick_labels;
use march::march;

/// The most grid steps per axis.
pub const MAX_STEPS: usize = 200;
/// Seconds between two partial maps handed out while the grid fills.
const PARTIAL_EVERY: f64 = 0.5;

/// One axis: a parameter and its range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AxisRange {
    /// The parameter's name (one of the base model's map parameters).
    pub parameter: String,
    /// The first value, in the parameter's unit.
    pub from: f64,
    /// The last value, in the parameter's unit.
    pub to: f64,
    /// Grid points along the axis (a whole number, 2 to 200).
    pub steps: Count,
    /// Geometric spacing and a logarithmic axis.
    #[serde(default)]
    pub log: bool,
}

/// A generalised map request, its base read through the registry `R`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound = "")]
pub struct Request<R> {
    /// The model (its `"model"` tag) and the parameters the axes do not
    /// vary.
    pub base: Tagged,
    /// The horizontal axis.
    pub x: AxisRange,
    /// The vertical axis.
    pub y: AxisRange,
    /// What is mapped.
    pub quantity: Quantity,
    /// The values of `quantity` to draw a line at.
    pub levels: Vec<f64>,
    /// Only these rows of the grid (a part of a map split in bands of
    /// rows, for `dlt split`); absent: every row.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<split::Rows>,
    /// Where the base's model is found.
    #[serde(skip)]
    pub registry: PhantomData<fn() -> R>,
}

/// The computed grid and its lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Contour {
    /// The grid's coordinates across.
    pub x: Vec<f64>,
    /// The grid's coordinates up.
    pub y: Vec<f64>,
    /// `values[j][i]` at `(x[i], y[j])`; `None` where the parameters are
    /// invalid.
    pub values: Vec<Vec<Option<f64>>>,
    /// Per level, the line pieces (each a polyline).
    pub lines: Vec<(f64, Vec<Vec<[f64; 2]>>)>,
    /// The largest proven relative gap of a value (0 for exact models).
    pub largest_gap: f64,
    /// Cells without a value.
    pub invalid_cells: usize,
}

impl AxisRange {
    /// The grid coordinates.
    pub fn values(&self, whole: bool) -> Vec<f64> {
        let n = self.steps.get();
        let mut out: Vec<f64> = (0..n)
            .map(|i| {
                let t = i as f64 / (n - 1) as f64;
                let v = if self.log {
                    self.from * (self.to / self.from).powf(t)
                } else {
                    self.from + (self.to - self.from) * t
                };
                if whole {
                    v.round()
                } else {
                    v
                }
            })
            .collect();
        out.dedup();
        out
    }

    /// Checks the axis against the base's parameters (when the base is
    /// readable); the parameter's position among them.
    fn check_into(
        &self,
        c: &mut Checker,
        prefix: &str,
        base: Option<&dyn MapBase>,
    ) -> Option<Target> {
        let at = base.and_then(|b| self.parameter_of(c, prefix, b));
        let from = c.finite(&format!("{prefix}.from"), self.from);
        let to = c.finite(&format!("{prefix}.to"), self.to);
        if self.log {
            if from {
                c.positive(&format!("{prefix}.from"), self.from);
            }
            if to {
                c.positive(&format!("{prefix}.to"), self.to);
            }
        }
        if from && to && self.to <= self.from {
            let invalid = Invalid::BelowMinimum {
                value: self.to,
                minimum: self.from,
            };
            c.fail(format!("{prefix}.to"), invalid);
        }
        c.whole(&format!("{prefix}.steps"), self.steps, 2, MAX_STEPS);
        at
    }

    /// What the axis sets among the base's parameters, if it names one (of
    /// a row the base has) and the base has what it needs.
    fn parameter_of(&self, c: &mut Checker, prefix: &str, base: &dyn MapBase) -> Option<Target> {
        let known = base.parameters();
        let Some(at) = Target::of(&known, &self.parameter) else {
            let names: Vec<String> = known.iter().map(|p| p.written()).collect();
            let invalid = Invalid::UnknownParameter {
                name: shorten(&self.parameter),
                known: names.join(", "),
            };
            c.fail(format!("{prefix}.parameter"), invalid);
            return None;
        };
        let about = known[at.parameter];
        if let (Some(table), Some(k)) = (about.row_of, at.row) {
            let rows = base.rows(table);
            if k >= rows {
                let invalid = Invalid::UnknownParameter {
                    name: shorten(&self.parameter),
                    known: format!(
                        "the base's {table} are rows 0 to {}",
                        rows.saturating_sub(1)
                    ),
                };
                c.fail(format!("{prefix}.parameter"), invalid);
                return None;
            }
        }
        match about.needs {
            Some(needs) if !base.has(needs) => {
                let why = format!("the axis {prefix} varies {}", self.parameter);
                c.fail(format!("base.{needs}"), Invalid::Needed(why));
                None
            }
            _ => Some(at),
        }
    }
}

impl<R: Registry> Request<R> {
    /// The base, read through the registry.
    ///
    /// # Errors
    ///
    /// Every problem of the base, with paths under `base`.
    pub fn base(&self) -> Result<Box<dyn MapBase>, Vec<Error>> {
        let fields = serde_json::Value::Object(self.base.fields.clone());
        base::<R>(&self.base.model, fields).map_err(|problems| {
            let under_base = |e: Error| match e {
                Error::Field { field, invalid } => Error::Field {
                    field: format!("base.{field}"),
                    invalid,
                },
                other => other,
            };
            problems.into_iter().map(under_base).collect()
        })
    }

    /// Computes the grid and traces the lines.
    ///
    /// # Errors
    ///
    /// [`Error::Field`] for an invalid request, [`Error::Solver`] if a
    /// solver fails, [`Error::Cancelled`] if `progress` asks to stop.
    pub fn contour(&self, progress: &mut dyn Progress) -> Result<Contour, Error> {
        self.check()?;
        let base = self.base().map_err(first)?;
        let parameters = base.parameters();
        let at = |name: &str| Target::of(&parameters, name);
        let (Some(x), Some(y)) = (at(&self.x.parameter), at(&self.y.parameter)) else {
            return Err(Error::Malformed("an axis lost its parameter".into()));
        };
        let xs = self.x.values(parameters[x.parameter].whole);
        let ys = self.y.values(parameters[y.parameter].whole);
        let mut grid = Contour {
            values: vec![vec![None; xs.len()]; ys.len()],
            x: xs,
            y: ys,
            lines: Vec::new(),
            largest_gap: 0.0,
            invalid_cells: 0,
        };
        // Bands of rows, each filled by itself (its own cache, serpentine
        // order), so that they can run on every core with the results of
        // one thread.
        let bands = split::bands(grid.y.len(), self.rows);
        let (xs, ys) = (grid.x.clone(), grid.y.clone());
        let fill = |&(from, to): &(usize, usize), progress: &mut dyn Progress| {
            let mut cells = Cells {
                base: base.as_ref(),
                axes: [x, y],
                cache: Cache::default(),
            };
            let mut band = Band {
                from,
                values: vec![vec![None; xs.len()]; to - from],
                largest_gap: 0.0,
                invalid_cells: 0,
            };
            for (j, &y) in ys.iter().enumerate().take(to).skip(from) {
                self.row(&xs, y, j, &mut band, &mut cells, progress)?;
            }
            Ok(band)
        };
        let clock = web_time::Instant::now();
        let mut shown = f64::NEG_INFINITY;
        // Every band is handed over here once, in both paths.
        parallel::each(&bands, fill, progress, |_, band, progress| {
            band.merge_into(&mut grid);
            // The map so far, now and then: what a time limit returns.
            let now = clock.elapsed().as_secs_f64();
            if now >= shown + PARTIAL_EVERY {
                shown = now;
                let mut so_far = grid.clone();
                self.trace(&mut so_far);
                hand_out::<GeneralisedMap<R>>(&Output::of(self, so_far), progress);
            }
        })?;
        self.trace(&mut grid);
        Ok(grid)
    }

    /// Computes row `j` (at `y`) of a band, in serpentine order so that
    /// what the model caches moves to a neighbour cell. Asks `progress`
    /// before every cell: a cell may take a whole search, so a cancel or a
    /// time limit need not wait for the row.
    fn row(
        &self,
        xs: &[f64],
        y: f64,
        j: usize,
        band: &mut Band,
        cells: &mut Cells,
        progress: &mut dyn Progress,
    ) -> Result<(), Error> {
        let (width, height) = (xs.len(), band.values.len());
        let order: Vec<usize> = if j % 2 == 0 {
            (0..width).collect()
        } else {
            (0..width).rev().collect()
        };
        for (k, i) in order.into_iter().enumerate() {
            let done = ((j - band.from) * width + k) as f64 / (height * width) as f64;
            if !progress.report(done, "grid of the map") {
                return Err(Error::Cancelled);
            }
            let settings = [(cells.axes[0], xs[i]), (cells.axes[1], y)];
            match cells
                .base
                .measure_at(&settings, self.quantity, &mut cells.cache)?
            {
                Some(m) => {
                    band.largest_gap = band.largest_gap.max(m.gap);
                    band.values[j - band.from][i] = m.value.is_finite().then_some(m.value);
                }
                None => band.invalid_cells += 1,
            }
        }
        Ok(())
    }

    /// Traces every level's lines through the grid's values.
    fn trace(&self, grid: &mut Contour) {
        grid.lines = self
            .levels
            .iter()
            .map(|&level| {
                let lines = march(
                    &grid.x,
                    &grid.y,
                    &grid.values,
                    level,
                    self.x.log,
                    self.y.log,
                );
                (level, lines)
            })
            .collect();
    }
}

/// Rows of the grid filled by one piece of work.
const BAND_ROWS: usize = 4;

/// Some rows of the grid, filled.
struct Band {
    /// The first row's index.
    from: usize,
    values: Vec<Vec<Option<f64>>>,
    largest_gap: f64,
    invalid_cells: usize,
}

impl Band {
    /// Writes the band's rows into the grid.
    fn merge_into(&self, grid: &mut Contour) {
        for (k, row) in self.values.iter().enumerate() {
            grid.values[self.from + k].clone_from(row);
        }
        grid.largest_gap = grid.largest_gap.max(self.largest_gap);
        grid.invalid_cells += self.invalid_cells;
    }
}

/// What fills the grid: the base, the positions of the axes' parameters
/// and the model's cache.
struct Cells<'a> {
    base: &'a dyn MapBase,
    axes: [Target; 2],
    cache: Cache,
}

/// The first of a request's problems (there is at least one).
fn first(problems: Vec<Error>) -> Error {
    let fallback = || Error::Malformed("the base is invalid".into());
    problems.into_iter().next().unwrap_or_else(fallback)
}

impl Contour {
    /// The lines as a chart.
    pub fn chart<R: Registry>(&self, request: &Request<R>) -> LineChart {
        let name = |e: f64| format!("{e}");
        let lines = self
            .drawn()
            .into_iter()
            .flat_map(|(level, pieces)| {
                let count = pieces.len();
                pieces.into_iter().enumerate().map(move |(i, piece)| {
                    let mut line = Line::new(&name(level), piece, false);
                    if i + 1 == count {
                        // Written as the axes' ticks are: `5·10⁶`, not `5000000`.
                        line.label = tick_labels(&[level], false).pop();
                    }
                    line
                })
            })
            .collect();
        let parameters = request.base().map(|b| b.parameters()).unwrap_or_default();
        let axis = |a: &AxisRange| {
            let about = Target::of(&parameters, &a.parameter).map(|t| parameters[t.parameter]);
            let unit = about.map_or("", |p| p.unit);
            let label = if unit.is_empty() {
                a.parameter.clone()
            } else {
                format!("{} ({unit})", a.parameter)
            };
            let axis = if a.log {
                Axis::log(&label)
            } else {
                Axis::linear(&label)
            };
            match about {
                Some(p) if p.whole || p.pure => axis.pure(),
                _ => axis,
            }
        };
        let quantity = request.quantity.name();
        LineChart {
            name: format!("map-{}-{}", request.x.parameter, request.y.parameter),
            title: format!(
                "Lines of equal {quantity} over {} and {}",
                request.x.parameter, request.y.parameter
            ),
            x: axis(&request.x),
            y: axis(&request.y),
            lines,
            legend: false,
        }
    }

    /// Per level, the pieces a chart draws: the traced ones without their
    /// segments along the grid's edges (see the `border` module).
    pub fn drawn(&self) -> Vec<(f64, Vec<Vec<[f64; 2]>>)> {
        self.lines
            .iter()
            .map(|(level, pieces)| (*level, border::off_edges(pieces, &self.x, &self.y)))
            .collect()
    }

    /// The grid as CSV: `x,y,value` per cell (empty value where invalid).
    pub fn csv(&self) -> String {
        let mut out = String::from("x,y,value\n");
        for (j, row) in self.values.iter().enumerate() {
            for (i, v) in row.iter().enumerate() {
                let v = v.map_or(String::new(), |v| v.to_string());
                out += &format!("{},{},{v}\n", self.x[i], self.y[j]);
            }
        }
        out
    }
}

impl<R: Registry> Validate for Request<R> {
    fn check_into(&self, c: &mut Checker) {
        // The axes' parameters are replaced, but a bad base value is still
        // named: the user typed it.
        let base = match self.base() {
            Ok(base) => Some(base),
            Err(problems) => {
                problems.into_iter().for_each(|e| c.push(e));
                None
            }
        };
        let base = base.as_deref();
        self.x.check_into(c, "x", base);
        self.y.check_into(c, "y", base);
        if let Some(base) = base {
            self.check_work(c, base);
        }
        if let Some(rows) = self.rows {
            rows.check_into(c, self.y.steps.0);
        }
        if c.count("levels", self.levels.len(), 64) {
            for (i, &e) in self.levels.iter().enumerate() {
                c.finite(&format!("levels[{i}]"), e);
            }
        }
    }
}

impl<R: Registry> Request<R> {
    /// The grid's size against the model's limit, and the quantity
    /// against what the model measures.
    fn check_work(&self, c: &mut Checker, base: &dyn MapBase) {
        let cells = self.x.steps.0.saturating_mul(self.y.steps.0);
        if cells > base.max_cells() as u64 {
            let invalid = Invalid::TooMany {
                count: usize::try_from(cells).unwrap_or(usize::MAX),
                limit: base.max_cells(),
            };
            c.fail("y.steps", invalid);
        }
        let offered = base.quantities();
        match offered.iter().find(|q| q.quantity == self.quantity) {
            Some(q) => {
                if let Some(needs) = q.needs.filter(|n| !base.has(n)) {
                    let why = format!("the map measures {}", self.quantity.name());
                    c.fail(format!("base.{needs}"), Invalid::Needed(why));
                }
            }
            None => {
                let known: Vec<&str> = offered.iter().map(|q| q.quantity.name()).collect();
                let invalid = Invalid::UnknownQuantity {
                    name: self.quantity.name().into(),
                    known: known.join(", "),
                };
                c.fail("quantity", invalid);
            }
        }
    }
}
