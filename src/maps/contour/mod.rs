//! Generalised maps (`[004]`): lines of equal efficiency, speedup, makespan
//! or energy over any two parameters of a model, the others fixed.
//!
//! The quantity is computed on a grid (linear or geometric per axis) and
//! the lines are traced by marching squares, interpolating linearly inside
//! each cell (in `log` of the coordinate on a logarithmic axis). A cell with
//! an invalid parameter combination (e.g. `a2 ≤ a1`) has no value, and no
//! line crosses it. The start-up model (M5) is evaluated with the map
//! probe of [`crate::maps::isoefficiency::probe`] (the hint carries from cell to
//! cell), so every value carries its proven gap; the linear model (M2) is
//! exact.

use serde::{Deserialize, Serialize};

mod march;
mod model;
mod view;

pub use model::{GeneralisedMap, Output};

use crate::core::chart::{Axis, Line, LineChart};
use crate::core::count::Count;
use crate::core::error::{Checker, Error, Invalid, Validate, INNER_PATH};
use crate::core::model::hand_out;
use crate::core::progress::Progress;
use crate::maps::isoefficiency::probe::Probe;
use crate::models::{linear, startup};
use march::march;

/// The most grid steps per axis.
pub const MAX_STEPS: usize = 200;
/// The most grid cells of a map of the start-up model (each cell is a
/// search of its own; about ten minutes at the reference instance).
pub const MAX_STARTUP_CELLS: usize = 10_000;
/// Seconds between two partial maps handed out while the grid fills.
const PARTIAL_EVERY: f64 = 0.5;

/// The model a map is drawn for, with its fixed parameters.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "model", rename_all = "kebab-case")]
pub enum Base {
    /// M2, linear DLT.
    Linear(linear::Instance),
    /// M5, machines with a start-up time and a memory hierarchy.
    Startup(startup::Instance),
}

/// What the lines join points of equal value of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Quantity {
    /// `T(1,1,V)/(m T)`.
    Efficiency,
    /// `T(1,1,V)/T`.
    Speedup,
    /// The makespan `T`, in time units.
    Makespan,
    /// M2 with a power model only.
    Energy,
}

/// One axis: a parameter and its range.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AxisRange {
    /// The parameter's name (see [`Base::parameters`]).
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

/// A generalised map request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The model and the parameters the axes do not vary.
    pub base: Base,
    /// The horizontal axis.
    pub x: AxisRange,
    /// The vertical axis.
    pub y: AxisRange,
    /// What is mapped.
    pub quantity: Quantity,
    /// The values of `quantity` to draw a line at.
    pub levels: Vec<f64>,
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

/// Read by hand rather than as a tagged enum, which would lose the path of
/// a bad value inside the base (`base.machines[0].startup` would read
/// `base.startup`): the inner path travels in the message, marked with
/// [`crate::core::error::INNER_PATH`], and the reader joins the two.
impl<'de> Deserialize<'de> for Base {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Base, D::Error> {
        use serde::de::Error as _;
        let mut value = serde_json::Value::deserialize(d)?;
        let model = value
            .as_object_mut()
            .and_then(|o| o.remove("model"))
            .ok_or_else(|| D::Error::missing_field("model"))?;
        fn inner<T: serde::de::DeserializeOwned, E: serde::de::Error>(
            value: serde_json::Value,
        ) -> Result<T, E> {
            serde_path_to_error::deserialize(value).map_err(|e| {
                let path = e.path().to_string();
                E::custom(format!("{INNER_PATH}{path} {}", e.into_inner()))
            })
        }
        match model.as_str() {
            Some("linear") => inner(value).map(Base::Linear),
            Some("startup") => inner(value).map(Base::Startup),
            _ => Err(D::Error::custom(
                "the model must be \"linear\" or \"startup\"".to_string(),
            )),
        }
    }
}

/// A parameter an axis of a generalised map can vary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parameter {
    /// The number of machines (M2: of every machine group).
    Machines,
    /// M5's most chunks `n`.
    Chunks,
    /// The load `V`.
    Load,
    /// M5's in-core time per unit.
    A1,
    /// M5's out-of-core time per unit.
    A2,
    /// M5's out-of-core intercept.
    B2,
    /// Communication time per unit `C` (M2: of every group).
    Rate,
    /// M5's message overhead `O`.
    Overhead,
    /// Start-up time `S` (M2: of every group).
    Startup,
    /// M5's usable RAM `ρ = b2/(a1 − a2)`, set through `b2`.
    Ram,
    /// M2's computing time per unit `A` of every group.
    Compute,
    /// M2's processor power `P_C`.
    ProcessorPower,
    /// M2's network power `P_N`.
    NetworkPower,
    /// M2's idle factor `k`.
    IdleFactor,
}

impl Parameter {
    /// Every parameter and its name in a request.
    const NAMES: [(Parameter, &'static str); 14] = [
        (Parameter::Machines, "machines"),
        (Parameter::Chunks, "chunks"),
        (Parameter::Load, "load"),
        (Parameter::A1, "a1"),
        (Parameter::A2, "a2"),
        (Parameter::B2, "b2"),
        (Parameter::Rate, "rate"),
        (Parameter::Overhead, "overhead"),
        (Parameter::Startup, "startup"),
        (Parameter::Ram, "ram"),
        (Parameter::Compute, "compute"),
        (Parameter::ProcessorPower, "processor_power"),
        (Parameter::NetworkPower, "network_power"),
        (Parameter::IdleFactor, "idle_factor"),
    ];

    /// The parameter named `name`.
    pub fn named(name: &str) -> Option<Parameter> {
        Self::NAMES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(p, _)| *p)
    }

    /// Its name in a request.
    pub fn name(self) -> &'static str {
        Self::NAMES
            .iter()
            .find(|(p, _)| *p == self)
            .map_or("", |(_, n)| n)
    }
}

impl Base {
    /// The parameters an axis can vary, and whether each is a whole number.
    pub fn parameters(&self) -> &'static [(Parameter, bool)] {
        use Parameter::*;
        match self {
            Base::Startup(_) => &[
                (Machines, true),
                (Chunks, true),
                (Load, false),
                (A1, false),
                (A2, false),
                (B2, false),
                (Rate, false),
                (Overhead, false),
                (Startup, false),
                (Ram, false),
            ],
            Base::Linear(l) if l.power.is_some() => &[
                (Machines, true),
                (Load, false),
                (Compute, false),
                (Rate, false),
                (Startup, false),
                (ProcessorPower, false),
                (NetworkPower, false),
                (IdleFactor, false),
            ],
            Base::Linear(_) => &[
                (Machines, true),
                (Load, false),
                (Compute, false),
                (Rate, false),
                (Startup, false),
            ],
        }
    }

    /// The parameter named `name`, if this base has it.
    pub fn parameter(&self, name: &str) -> Option<(Parameter, bool)> {
        let p = Parameter::named(name)?;
        self.parameters().iter().copied().find(|(q, _)| *q == p)
    }

    /// Sets `parameter` (a machine parameter of M2 on every group); false
    /// when this base has no such parameter (validation rules that out).
    fn set(&mut self, parameter: Parameter, value: f64) -> bool {
        use Parameter::*;
        match self {
            Base::Startup(s) => {
                let field = match parameter {
                    // Grid values of whole parameters are rounded.
                    Machines => {
                        s.machines = Count(value.max(0.0) as u64);
                        return true;
                    }
                    Chunks => {
                        s.chunks = Count(value.max(0.0) as u64);
                        return true;
                    }
                    Load => &mut s.load,
                    A1 => &mut s.a1,
                    A2 => &mut s.a2,
                    B2 => &mut s.b2,
                    Rate => &mut s.rate,
                    Overhead => &mut s.overhead,
                    Startup => &mut s.startup,
                    // The usable RAM ρ = b2/(a1 − a2), through b2 (set after
                    // the other axis, so a1 and a2 are final).
                    Ram => {
                        s.b2 = value * (s.a1 - s.a2);
                        return true;
                    }
                    Compute | ProcessorPower | NetworkPower | IdleFactor => return false,
                };
                *field = value;
                true
            }
            Base::Linear(l) => match parameter {
                Load => {
                    l.load = value;
                    true
                }
                Machines | Compute | Rate | Startup => {
                    for g in &mut l.machines {
                        match parameter {
                            Machines => g.count = Count(value.max(0.0) as u64),
                            Compute => g.compute = value,
                            Rate => g.rate = value,
                            _ => g.startup = value,
                        }
                    }
                    true
                }
                ProcessorPower | NetworkPower | IdleFactor => {
                    let Some(power) = l.power.as_mut() else {
                        return false;
                    };
                    match parameter {
                        ProcessorPower => power.processor = value,
                        NetworkPower => power.network = value,
                        _ => power.idle_factor = value,
                    }
                    true
                }
                Chunks | A1 | A2 | B2 | Overhead | Ram => false,
            },
        }
    }

    fn problems(&self) -> Vec<Error> {
        match self {
            Base::Startup(s) => s.problems(),
            Base::Linear(l) => l.problems(),
        }
    }
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

    fn check_into(&self, c: &mut Checker, prefix: &str, base: &Base) {
        let known = base.parameters();
        let power = matches!(
            Parameter::named(&self.parameter),
            Some(Parameter::ProcessorPower | Parameter::NetworkPower | Parameter::IdleFactor)
        );
        if power && matches!(base, Base::Linear(l) if l.power.is_none()) {
            let why = format!("the axis {prefix} varies {}", self.parameter);
            c.fail("base.power", Invalid::Needed(why));
        } else if base.parameter(&self.parameter).is_none() {
            let names: Vec<&str> = known.iter().map(|(p, _)| p.name()).collect();
            let invalid = Invalid::UnknownParameter {
                name: crate::core::error::shorten(&self.parameter),
                known: names.join(", "),
            };
            c.fail(format!("{prefix}.parameter"), invalid);
        }
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
    }
}

impl Request {
    /// `[004]`'s `A` vs `C` map of linear DLT: efficiency of 10 machines.
    pub fn compute_vs_communication() -> Request {
        let mut base = linear::Instance::energy_preset(1e6, 10);
        base.series = false;
        base.power = None;
        base.machines[0].startup = 1.0;
        Request {
            base: Base::Linear(base),
            x: AxisRange {
                parameter: "compute".into(),
                from: 1e-6,
                to: 1e-2,
                steps: Count(25),
                log: true,
            },
            y: AxisRange {
                parameter: "rate".into(),
                from: 1e-7,
                to: 1e-3,
                steps: Count(25),
                log: true,
            },
            quantity: Quantity::Efficiency,
            levels: vec![0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95],
        }
    }

    /// `[004]`'s iso-energy map: energy over the idle power factor `k` and
    /// the machine count `m`.
    pub fn energy_vs_idle_factor() -> Request {
        let mut base = linear::Instance::energy_preset(1e13, 1000);
        base.series = false;
        Request {
            base: Base::Linear(base),
            x: AxisRange {
                parameter: "machines".into(),
                from: 10.0,
                to: 1e6,
                steps: Count(30),
                log: true,
            },
            y: AxisRange {
                parameter: "idle_factor".into(),
                from: 1.0,
                to: 10.0,
                steps: Count(19),
                log: false,
            },
            quantity: Quantity::Energy,
            levels: vec![2.2e15, 2.5e15, 3e15, 4e15, 5e15, 6e15, 8e15],
        }
    }

    /// The M5 reference instance: efficiency over `a1` and `C` at `m = 8`.
    pub fn startup_reference() -> Request {
        Request {
            base: Base::Startup(startup::Instance::reference(8, 60_000.0)),
            x: AxisRange {
                parameter: "rate".into(),
                from: 1e-3,
                to: 1.0,
                steps: Count(16),
                log: true,
            },
            y: AxisRange {
                parameter: "load".into(),
                from: 1e3,
                to: 1e6,
                steps: Count(16),
                log: true,
            },
            quantity: Quantity::Efficiency,
            levels: vec![1.0, 2.0, 5.0, 10.0, 20.0, 30.0],
        }
    }

    /// Computes the grid and traces the lines.
    ///
    /// # Errors
    ///
    /// [`Error::Field`] for an invalid request, [`Error::Solver`] if an LP
    /// fails, [`Error::Cancelled`] if `progress` asks to stop.
    pub fn contour(&self, progress: &mut dyn Progress) -> Result<Contour, Error> {
        self.check()?;
        let whole = |p: &str| self.base.parameter(p).is_some_and(|(_, w)| w);
        let xs = self.x.values(whole(&self.x.parameter));
        let ys = self.y.values(whole(&self.y.parameter));
        let mut grid = Contour {
            values: vec![vec![None; xs.len()]; ys.len()],
            x: xs,
            y: ys,
            lines: Vec::new(),
            largest_gap: 0.0,
            invalid_cells: 0,
        };
        let mut probe: Option<Probe> = None;
        let clock = web_time::Instant::now();
        let mut shown = f64::NEG_INFINITY;
        for j in 0..grid.y.len() {
            self.row(&mut grid, j, &mut probe, progress)?;
            // The map so far, now and then: what a time limit returns.
            let now = clock.elapsed().as_secs_f64();
            if now >= shown + PARTIAL_EVERY && j + 1 < grid.y.len() {
                shown = now;
                let mut so_far = grid.clone();
                self.trace(&mut so_far);
                hand_out::<GeneralisedMap>(&Output::of(self, so_far), progress);
            }
        }
        self.trace(&mut grid);
        Ok(grid)
    }

    /// Computes row `j` of the grid, in serpentine order so that the
    /// probe's hint moves to a neighbour cell.
    fn row(
        &self,
        grid: &mut Contour,
        j: usize,
        probe: &mut Option<Probe>,
        progress: &mut dyn Progress,
    ) -> Result<(), Error> {
        let (width, height) = (grid.x.len(), grid.y.len());
        let order: Vec<usize> = if j % 2 == 0 {
            (0..width).collect()
        } else {
            (0..width).rev().collect()
        };
        for (k, i) in order.into_iter().enumerate() {
            let done = (j * width + k) as f64 / (width * height) as f64;
            if !progress.report(done, "grid of the map") {
                return Err(Error::Cancelled);
            }
            let mut base = self.base.clone();
            let mut axes = [
                (self.base.parameter(&self.x.parameter), grid.x[i]),
                (self.base.parameter(&self.y.parameter), grid.y[j]),
            ];
            axes.sort_by_key(|(p, _)| p.is_some_and(|(p, _)| p == Parameter::Ram));
            let mut set = true;
            for (p, v) in axes {
                set &= p.is_some_and(|(p, _)| base.set(p, v));
            }
            if !set || !base.problems().is_empty() {
                grid.invalid_cells += 1;
                continue;
            }
            let (value, gap) = self.value(&base, probe)?;
            grid.largest_gap = grid.largest_gap.max(gap);
            grid.values[j][i] = value.is_finite().then_some(value);
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

    /// The quantity at one valid cell, and its proven gap.
    fn value(&self, base: &Base, probe: &mut Option<Probe>) -> Result<(f64, f64), Error> {
        match base {
            Base::Startup(s) => {
                let p = match probe {
                    Some(p) => {
                        p.retarget(s)?;
                        p
                    }
                    None => probe.insert(Probe::new(s)?),
                };
                let point = p.at(s.load)?;
                let value = match self.quantity {
                    Quantity::Efficiency => point.efficiency,
                    Quantity::Speedup => point.efficiency * s.machines.as_f64(),
                    _ => point.makespan,
                };
                Ok((value, point.gap))
            }
            Base::Linear(l) => {
                let report = l.solve(&mut crate::core::progress::Silent)?;
                let value = match self.quantity {
                    Quantity::Efficiency => {
                        report.single / (report.makespan * report.machines as f64)
                    }
                    Quantity::Speedup => report.single / report.makespan,
                    Quantity::Makespan => report.makespan,
                    Quantity::Energy => report.energy.map_or(f64::NAN, |e| e.total),
                };
                Ok((value, 0.0))
            }
        }
    }
}

impl Contour {
    /// The lines as a chart.
    pub fn chart(&self, request: &Request) -> LineChart {
        let name = |e: f64| format!("{e}");
        let lines = self
            .lines
            .iter()
            .flat_map(|(level, pieces)| {
                let count = pieces.len();
                pieces.iter().enumerate().map(move |(i, piece)| {
                    let mut line = Line::new(&name(*level), piece.clone(), false);
                    if i + 1 == count {
                        line.label = Some(name(*level));
                    }
                    line
                })
            })
            .collect();
        let axis = |a: &AxisRange| {
            if a.log {
                Axis::log(&a.parameter)
            } else {
                Axis::linear(&a.parameter)
            }
        };
        let quantity = serde_json::to_value(request.quantity).ok();
        let quantity = quantity
            .as_ref()
            .and_then(|q| q.as_str())
            .unwrap_or("value");
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

impl Validate for Request {
    fn check_into(&self, c: &mut Checker) {
        for e in self.base.problems() {
            if let Error::Field { field, invalid } = e {
                // The axes' parameters are replaced: their base value is moot.
                c.fail(format!("base.{field}"), invalid);
            }
        }
        self.x.check_into(c, "x", &self.base);
        self.y.check_into(c, "y", &self.base);
        // Each cell of a start-up map is a search: bound the whole grid.
        let cells = self.x.steps.0.saturating_mul(self.y.steps.0);
        if matches!(self.base, Base::Startup(_)) && cells > MAX_STARTUP_CELLS as u64 {
            let invalid = Invalid::TooMany {
                count: usize::try_from(cells).unwrap_or(usize::MAX),
                limit: MAX_STARTUP_CELLS,
            };
            c.fail("y.steps", invalid);
        }
        let energy = matches!(&self.base, Base::Linear(l) if l.power.is_some());
        if self.quantity == Quantity::Energy && !energy {
            c.fail(
                "quantity",
                Invalid::Unused("energy needs the linear model with a power model"),
            );
        }
        if c.count("levels", self.levels.len(), 64) {
            for (i, &e) in self.levels.iter().enumerate() {
                c.finite(&format!("levels[{i}]"), e);
            }
        }
    }
}
