//! M6: isoefficiency maps of the M5 model (`[3]`, Section 3).
//!
//! An isoefficiency line joins the points `(m, V)` of equal efficiency
//! `E(m, n, V) = T(1,1,V)/(m T(m,n,V))`. For fixed `m` and `n`, `E(V)` has
//! one maximum `Emax` at `Vmax` and is monotone on both sides (`[3]`), so
//! each level `e` has at most one load below `Vmax` and one above it.
//!
//! **Method**, per machine count (each is independent, so a page can hand
//! machine counts to several workers): a sweep of probes on a geometric
//! grid of loads brackets `Vmax` and every crossing; `Vmax` is narrowed by
//! two probes per step, keeping the side of the larger efficiency, and each
//! crossing by regula falsi (see `search.rs`), both until the bracket is
//! narrower than the load tolerance (1 MB by default). Probes come from
//! [`crate::models::startup::probe::Probe`], which reuses the previous probe's best round robin.
//!
//! **Accuracy.** Every point is the efficiency of a real schedule, so it
//! never overstates `E`; it carries the proven gap of its makespan, and the
//! map states the largest. A level's load is exact to the tolerance for the
//! probe's `E`. Near the top `E(V)` is very flat: a change of `Vmax` by the
//! tolerance changes `Emax` by far less than the probes' gap, so `Emax` is
//! as accurate as its gap says, while `Vmax` itself is only as accurate as
//! the flatness allows (any load whose `E` is within the gap of `Emax` is
//! an equally good answer). Each kept point is then certified to a gap of
//! 1 %: the exact search's root bound first, and for the few points it
//! leaves above that, the search itself within `certify_lps` LPs. When the
//! search finds a better schedule than the probe's, the point takes it, so
//! its `E` can end a little above its level.
//!
//! As in `[3]`: no lines for `m = 1` (`E ≡ 1`), and none for `e < 1` above
//! `Vmax` (they would need idle time inserted on purpose). A level outside
//! the range of `E` over the load range has no point on that side.

mod exercises;
mod model;
pub mod overlay;
pub(crate) mod search;
pub(crate) mod view;

use std::sync::Mutex;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::domain::count::Count;
use crate::core::domain::error::{Checker, Error, Invalid, Validate};
use crate::core::framework::model::hand_out;
use crate::core::presentation::chart::{Axis, Line, LineChart, Style};
use crate::core::solving::parallel;
use crate::core::solving::progress::Progress;
use crate::models::startup::{self, Instance};

pub use model::{IsoefficiencyMap, MapOutput};

use crate::models::startup::probe::{Point, Probe};
use overlay::Overlay;

/// The default efficiency levels: ten below `Vmax` and ten at or above 1
/// above it, up to near the reference instance's `a2/a1 ≈ 37.9`.
pub const DEFAULT_LEVELS: [f64; 12] = [
    0.5, 0.8, 1.0, 2.0, 4.0, 6.0, 10.0, 15.0, 20.0, 25.0, 30.0, 33.0,
];
/// Probes per decade of load in the first sweep: enough to bracket every
/// crossing of the reference map (the lines are at least a factor 1.5
/// apart or on a monotone stretch), few enough for the map to be fast.
const SWEEP_PER_DECADE: usize = 6;
/// The gap to which the exact search certifies each kept point of a map.
pub const CERTIFY_GAP: f64 = 0.01;
/// The default LP budget of that search, per point: the root bound alone
/// leaves about one point in twenty of the reference map above 1 %; this
/// budget brings every one of them to 1 %.
pub const DEFAULT_MAP_CERTIFY_LPS: u64 = 1_000;
/// The widest load range searched: `load_max / load_min` (20 decades, 120
/// sweep probes per machine count).
pub const MAX_LOAD_RATIO: f64 = 1e20;
/// The narrowest load tolerance, relative to `load_max`: a thousand times
/// the floating-point spacing of loads.
pub const RESOLUTION: f64 = 1e3 * f64::EPSILON;
/// The most machine counts in one map.
pub const MAX_COLUMNS: usize = 64;
/// The most levels.
pub const MAX_LEVELS: usize = 64;

/// A map request: the M5 model without `m` and `V`, a range of machine
/// counts, the levels and the search's accuracy.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// In-core processing rate `a1` (time per load unit).
    pub a1: f64,
    /// Out-of-core rate `a2` (time per load unit).
    pub a2: f64,
    /// Out-of-core intercept `b2` (a time, negative).
    pub b2: f64,
    /// Communication rate `C` (time per load unit).
    pub rate: f64,
    /// Communication start-up `O` per message (a time).
    pub overhead: f64,
    /// Machine start-up time `S`.
    pub startup: f64,
    /// Most chunks `n`.
    pub chunks: Count,
    /// Exactly `n` chunks, as in the paper's MIP (default: at most `n`).
    #[serde(default)]
    pub exactly: bool,
    /// The first machine count (at least 2).
    pub machines_from: Count,
    /// The last machine count.
    pub machines_to: Count,
    /// Efficiency levels (positive, any order; drawn sorted).
    #[serde(default = "default_levels")]
    pub levels: Vec<f64>,
    /// Stop narrowing a load when its bracket is narrower than this.
    #[serde(default = "default_tolerance")]
    pub tolerance: f64,
    /// The smallest load searched.
    #[serde(default = "default_load_min")]
    pub load_min: f64,
    /// The largest load searched.
    #[serde(default = "default_load_max")]
    pub load_max: f64,
    /// The LP budget of the exact search that certifies each kept point of
    /// a map to a gap of 1 % (a whole number, default 1000; only points the
    /// root bound leaves above 1 % use it), or each row of Table 1 (default
    /// 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certify_lps: Option<Count>,
}

fn default_levels() -> Vec<f64> {
    DEFAULT_LEVELS.to_vec()
}
fn default_tolerance() -> f64 {
    1.0
}
fn default_load_min() -> f64 {
    1.0
}
fn default_load_max() -> f64 {
    1e7
}

/// A level's load on one side of `Vmax`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Crossing {
    /// The efficiency level `e`.
    pub level: f64,
    /// The probe at the load found (its `efficiency` is within the flatness
    /// of `E` over the tolerance of `level`).
    pub point: Point,
}

/// Everything the map knows about one machine count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Column {
    /// The machine count `m`.
    pub machines: usize,
    /// The probe at `Vmax`.
    pub max: Point,
    /// Crossings below `Vmax`, by level.
    pub below: Vec<Crossing>,
    /// Crossings above `Vmax`, by level (levels of at least 1).
    pub above: Vec<Crossing>,
    /// The largest gap of the points above.
    pub largest_gap: f64,
    /// Probes made for the column.
    pub probes: u64,
    /// Linear programs solved for the column.
    pub lps: u64,
    /// The overlays of `[3]` for this machine count.
    pub overlay: Overlay,
}

impl Column {
    /// Brings the column's figures up to date: the largest gap of its
    /// points, and the probes and LPs spent so far.
    fn tally(&mut self, probe: &Probe) {
        self.largest_gap = self
            .below
            .iter()
            .chain(&self.above)
            .map(|c| c.point.gap)
            .fold(self.max.gap, f64::max);
        self.probes = probe.probes;
        self.lps = probe.lps;
    }
}

/// A map point and where it belongs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Nearest {
    /// The point's machine count `m`.
    pub machines: usize,
    /// `below`, `above` or `max`.
    pub kind: String,
    /// Its efficiency level (for `max`, `Emax`).
    pub level: f64,
    /// The probe at its load.
    pub point: Point,
}

/// A whole map: one column per machine count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Map {
    /// The columns, by machine count.
    pub columns: Vec<Column>,
    /// The levels, sorted.
    pub levels: Vec<f64>,
    /// The request's load tolerance (units of load).
    pub tolerance: f64,
    /// The largest gap of any point of the map.
    pub largest_gap: f64,
}

impl Request {
    /// The reference instance of `[3]`, `m = 2..20`, `n = 20`.
    pub fn reference() -> Request {
        let r = Instance::reference(2, 1.0);
        Request {
            a1: r.a1,
            a2: r.a2,
            b2: r.b2,
            rate: r.rate,
            overhead: r.overhead,
            startup: r.startup,
            chunks: r.chunks,
            exactly: false,
            machines_from: Count(2),
            machines_to: Count(20),
            levels: default_levels(),
            tolerance: default_tolerance(),
            load_min: default_load_min(),
            load_max: default_load_max(),
            certify_lps: None,
        }
    }

    /// The M5 instance with `m` machines at load `V`.
    pub fn instance(&self, machines: usize, load: f64) -> Instance {
        Instance {
            a1: self.a1,
            a2: self.a2,
            b2: self.b2,
            rate: self.rate,
            overhead: self.overhead,
            startup: self.startup,
            machines: Count::from(machines),
            chunks: self.chunks,
            load,
            exactly: self.exactly,
            gap: None,
            max_lps: None,
            max_seconds: None,
        }
    }

    /// The machine counts of the map.
    pub fn machine_counts(&self) -> std::ops::RangeInclusive<usize> {
        self.machines_from.get()..=self.machines_to.get()
    }

    /// The levels, sorted, without repeats.
    pub fn sorted_levels(&self) -> Vec<f64> {
        let mut levels = self.levels.clone();
        levels.sort_by(f64::total_cmp);
        levels.dedup();
        levels
    }

    /// The column of `m` machines (see the module docs).
    ///
    /// # Errors
    ///
    /// [`Error::Field`] for an invalid request, [`Error::Solver`] if an LP
    /// fails, [`Error::Cancelled`] if `progress` asks to stop.
    pub fn column(&self, machines: usize, progress: &mut dyn Progress) -> Result<Column, Error> {
        self.column_after(machines, &[], progress)
    }

    /// The column of `m` machines, handing out the map so far (`done` and
    /// this column's first lines) as it goes.
    fn column_after(
        &self,
        machines: usize,
        done: &[Column],
        progress: &mut dyn Progress,
    ) -> Result<Column, Error> {
        self.check()?;
        let mut probe = Probe::new(&self.instance(machines, 1.0))?;
        let what = format!("m = {machines}: sweep of loads");
        let sweep = {
            let mut report = search::part(progress, 0.0, 0.4, &what);
            search::sweep(
                &mut probe,
                self.load_min,
                self.load_max,
                SWEEP_PER_DECADE,
                &mut report,
            )?
        };
        let max = search::peak(&mut probe, &sweep, self.tolerance)?;
        if !progress.report(0.5, &format!("m = {machines}: levels")) {
            return Err(Error::Cancelled);
        }
        let levels = self.sorted_levels();
        let mut column = Column {
            machines,
            max,
            below: Vec::new(),
            above: Vec::new(),
            largest_gap: max.gap,
            probes: probe.probes,
            lps: probe.lps,
            overlay: Overlay::of(self, machines, max.load, &levels),
        };
        self.find_crossings(&mut column, &mut probe, &sweep, &levels, done, progress)?;
        self.certify_points(&mut column, &mut probe, progress)?;
        column.tally(&probe);
        Ok(column)
    }

    /// Every level's crossings of the column (see [`Request::cross_level`]),
    /// bracketed by the `sweep`; the map so far is handed out before the
    /// first level and after each.
    fn find_crossings(
        &self,
        column: &mut Column,
        probe: &mut Probe,
        sweep: &[Point],
        levels: &[f64],
        done: &[Column],
        progress: &mut dyn Progress,
    ) -> Result<(), Error> {
        let max = column.max;
        // Sweep points on each side, each side in the direction E grows.
        let mut left: Vec<Point> = sweep
            .iter()
            .copied()
            .filter(|p| p.load < max.load)
            .collect();
        left.push(max);
        let mut right: Vec<Point> = sweep
            .iter()
            .copied()
            .filter(|p| p.load > max.load)
            .collect();
        right.insert(0, max);
        self.show_so_far(column, probe, done, progress);
        for (i, &level) in levels.iter().enumerate() {
            if level < max.efficiency {
                self.cross_level(level, probe, (&left, &right), column)?;
            }
            self.show_so_far(column, probe, done, progress);
            let fraction = 0.5 + 0.4 * (i + 1) as f64 / levels.len() as f64;
            if !progress.report(fraction, &format!("m = {}: levels", column.machines)) {
                return Err(Error::Cancelled);
            }
        }
        Ok(())
    }

    /// One level's loads: below `Vmax`, the last rise through the level
    /// before the maximum (in `left`); above it, for levels of at least 1,
    /// the first fall through it after the maximum (in `right`). Each is
    /// narrowed by regula falsi from the bracket the sweep gives.
    fn cross_level(
        &self,
        level: f64,
        probe: &mut Probe,
        (left, right): (&[Point], &[Point]),
        column: &mut Column,
    ) -> Result<(), Error> {
        if let Some(w) = left
            .windows(2)
            .rev()
            .find(|w| w[0].efficiency < level && w[1].efficiency >= level)
        {
            let point = search::crossing(probe, w[0], w[1], level, self.tolerance)?;
            column.below.push(Crossing { level, point });
        }
        if level >= 1.0 {
            if let Some(w) = right
                .windows(2)
                .find(|w| w[0].efficiency >= level && w[1].efficiency < level)
            {
                let point = search::crossing(probe, w[0], w[1], level, self.tolerance)?;
                column.above.push(Crossing { level, point });
            }
        }
        Ok(())
    }

    /// Hands out the map so far: the columns `done` and this one's lines
    /// up to now (gaps not yet tightened), so that a page draws them while
    /// the rest is computed.
    fn show_so_far(
        &self,
        column: &Column,
        probe: &Probe,
        done: &[Column],
        progress: &mut dyn Progress,
    ) {
        let mut partial = column.clone();
        partial.tally(probe);
        let mut columns = done.to_vec();
        columns.push(partial);
        hand_out::<IsoefficiencyMap>(&MapOutput::of(Map::new(columns, self)), progress);
    }

    /// Proven gaps of the kept points: the root bound, then, where that
    /// leaves more than `CERTIFY_GAP`, the exact search with a budget.
    fn certify_points(
        &self,
        column: &mut Column,
        probe: &mut Probe,
        progress: &mut dyn Progress,
    ) -> Result<(), Error> {
        let lps = self.certify_lps.map_or(DEFAULT_MAP_CERTIFY_LPS, |l| l.0);
        column.max = probe.certify(column.max, CERTIFY_GAP, lps)?;
        let machines = column.machines;
        let kept = column.below.len() + column.above.len();
        let points = column.below.iter_mut().chain(column.above.iter_mut());
        for (j, c) in points.enumerate() {
            let done = 0.9 + 0.1 * j as f64 / kept as f64;
            if !progress.report(done, &format!("m = {machines}: certifying")) {
                return Err(Error::Cancelled);
            }
            c.point = probe.certify(c.point, CERTIFY_GAP, lps)?;
        }
        Ok(())
    }

    /// The whole map: its columns on every core natively
    /// ([`parallel::each`]), one after the other in the page's worker.
    ///
    /// # Errors
    ///
    /// As [`Request::column`].
    pub fn map(&self, progress: &mut dyn Progress) -> Result<Map, Error> {
        self.check()?;
        let counts: Vec<usize> = self.machine_counts().collect();
        // The columns done so far, for the partial maps handed out.
        let done = Mutex::new(Vec::<Column>::new());
        let so_far = || done.lock().unwrap_or_else(|e| e.into_inner()).clone();
        let columns = parallel::each(
            &counts,
            |&m, part| self.column_after(m, &so_far(), part),
            progress,
            |_, column, progress| {
                let mut columns = so_far();
                columns.push(column.clone());
                columns.sort_by_key(|c| c.machines);
                *done.lock().unwrap_or_else(|e| e.into_inner()) = columns.clone();
                hand_out::<IsoefficiencyMap>(&MapOutput::of(Map::new(columns, self)), progress);
            },
        )?;
        Ok(Map::new(columns, self))
    }
}

/// Which side of `Vmax`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Below,
    Above,
}

/// Step lines through `(m, V)` cells: level across `[m − ½, m + ½]`, broken
/// where a machine count has no point; the last piece carries the label.
fn steps(name: &str, cells: &[(usize, f64)], style: Style, labelled: bool) -> Vec<Line> {
    let mut runs: Vec<Vec<[f64; 2]>> = Vec::new();
    let mut last: Option<usize> = None;
    for &(m, v) in cells {
        let cell = [[m as f64 - 0.5, v], [m as f64 + 0.5, v]];
        match runs.last_mut() {
            Some(run) if last.is_some_and(|l| l + 1 == m) => run.extend(cell),
            _ => runs.push(cell.to_vec()),
        }
        last = Some(m);
    }
    let count = runs.len();
    runs.into_iter()
        .enumerate()
        .map(|(i, points)| {
            let mut line = Line::new(name, points, false).styled(style);
            if labelled && i + 1 == count {
                line.label = Some(name.to_string());
            }
            line
        })
        .collect()
}

impl Map {
    /// A map from its columns (computed anywhere, in any order).
    pub fn new(mut columns: Vec<Column>, request: &Request) -> Map {
        columns.sort_by_key(|c| c.machines);
        let largest_gap = columns.iter().map(|c| c.largest_gap).fold(0.0, f64::max);
        Map {
            columns,
            levels: request.sorted_levels(),
            tolerance: request.tolerance,
            largest_gap,
        }
    }

    /// The map as a chart: `m` across (steps), `V` up (logarithmic), one
    /// line per level and side, the `MAX` line, and optionally the overlays.
    pub fn chart(&self, overlays: bool) -> LineChart {
        let mut lines = Vec::new();
        let level_name = |e: f64| format!("{}", (e * 1e6).round() / 1e6);
        for &level in &self.levels {
            for side in [Side::Below, Side::Above] {
                let cells: Vec<(usize, f64)> = self
                    .columns
                    .iter()
                    .filter_map(|c| {
                        let list = if side == Side::Below {
                            &c.below
                        } else {
                            &c.above
                        };
                        list.iter()
                            .find(|x| x.level == level)
                            .map(|x| (c.machines, x.point.load))
                    })
                    .collect();
                lines.extend(steps(&level_name(level), &cells, Style::Solid, true));
            }
        }
        let max: Vec<(usize, f64)> = self
            .columns
            .iter()
            .map(|c| (c.machines, c.max.load))
            .collect();
        lines.extend(steps("MAX", &max, Style::Bold, true));
        if overlays {
            for &level in &self.levels {
                for estimate in overlay::Estimate::ALL {
                    let cells: Vec<(usize, f64)> = self
                        .columns
                        .iter()
                        .filter_map(|c| c.overlay.load(estimate, level).map(|v| (c.machines, v)))
                        .collect();
                    let group = level_name(level);
                    let name = format!("{group} {}", estimate.name());
                    let drawn = steps(&name, &cells, Style::Dashed, false);
                    lines.extend(drawn.into_iter().map(|l| l.in_group(&group)));
                }
            }
        }
        LineChart {
            name: "isoefficiency-map".into(),
            title: "Isoefficiency map: load V for efficiency e, by machine count".into(),
            x: Axis::linear("machines m").whole(),
            y: Axis::log("load V (MB)"),
            lines,
            legend: false,
        }
    }

    /// The point nearest to `(m, V)`: the column of the nearest machine
    /// count, the point nearest in `log V` (for showing values under the
    /// pointer).
    pub fn nearest(&self, machines: f64, load: f64) -> Option<Nearest> {
        let column = self.columns.iter().min_by(|a, b| {
            (a.machines as f64 - machines)
                .abs()
                .total_cmp(&(b.machines as f64 - machines).abs())
        })?;
        if (column.machines as f64 - machines).abs() > 0.5 || load <= 0.0 {
            return None;
        }
        let candidates = column
            .below
            .iter()
            .map(|c| (c.level, "below", c.point))
            .chain(column.above.iter().map(|c| (c.level, "above", c.point)))
            .chain(std::iter::once((column.max.efficiency, "max", column.max)));
        candidates
            .min_by(|a, b| {
                (a.2.load / load)
                    .ln()
                    .abs()
                    .total_cmp(&(b.2.load / load).ln().abs())
            })
            .map(|(level, kind, point)| Nearest {
                machines: column.machines,
                kind: kind.into(),
                level,
                point,
            })
    }

    /// The map as CSV: one row per point (`kind` is `below`, `above` or
    /// `max`), with its probe's numbers.
    pub fn csv(&self) -> String {
        let mut out = String::from("machines,kind,level,load,efficiency,makespan,gap\n");
        for c in &self.columns {
            let rows = c
                .below
                .iter()
                .map(|x| ("below", x.level, x.point))
                .chain(c.above.iter().map(|x| ("above", x.level, x.point)))
                .chain(std::iter::once(("max", c.max.efficiency, c.max)));
            for (kind, level, p) in rows {
                out += &format!(
                    "{},{kind},{level},{},{},{},{}\n",
                    c.machines, p.load, p.efficiency, p.makespan, p.gap
                );
            }
        }
        out
    }
}

impl Validate for Request {
    fn check_into(&self, c: &mut Checker) {
        // The model's own fields, as M5 checks them (m and V are ours).
        for e in self.instance(2, 1.0).problems() {
            if let Error::Field { field, invalid } = e {
                c.fail(field, invalid);
            }
        }
        let from = c.whole(
            "machines_from",
            self.machines_from,
            2,
            startup::MAX_MACHINES,
        );
        if c.whole("machines_to", self.machines_to, 2, startup::MAX_MACHINES)
            && from
            && self.machines_to < self.machines_from
        {
            let invalid = Invalid::BelowMinimum {
                value: self.machines_to.as_f64(),
                minimum: self.machines_from.as_f64(),
            };
            c.fail("machines_to", invalid);
        }
        if c.count("levels", self.levels.len(), MAX_LEVELS) {
            for (i, &e) in self.levels.iter().enumerate() {
                c.positive(&format!("levels[{i}]"), e);
            }
        }
        self.check_loads(c);
        if let Some(lps) = self.certify_lps {
            c.whole("certify_lps", lps, 1, 100_000_000);
        }
    }
}

impl Request {
    /// The range of loads the searches sweep, and the tolerance they
    /// bracket a crossing to: a range the sweep can probe decade by
    /// decade, and a tolerance the floating-point loads can meet.
    fn check_loads(&self, c: &mut Checker) {
        let tolerance = c.positive("tolerance", self.tolerance);
        let low = c.positive("load_min", self.load_min);
        let high = c.positive("load_max", self.load_max);
        if high && low && self.load_max <= self.load_min {
            let invalid = Invalid::BelowMinimum {
                value: self.load_max,
                minimum: self.load_min,
            };
            c.fail("load_max", invalid);
        } else if high && low && self.load_max > self.load_min * MAX_LOAD_RATIO {
            // The sweep probes every decade between the two.
            let invalid = Invalid::OutOfBounds {
                value: self.load_max,
                low: self.load_min,
                high: self.load_min * MAX_LOAD_RATIO,
            };
            c.fail("load_max", invalid);
        }
        // A bracket of loads near load_max cannot be narrower than the
        // floating-point spacing there: the searches would never stop.
        let resolution = RESOLUTION * self.load_max;
        if tolerance && high && self.tolerance < resolution {
            let minimum = resolution;
            let invalid = Invalid::BelowMinimum {
                value: self.tolerance,
                minimum,
            };
            c.fail("tolerance", invalid);
        }
    }
}
