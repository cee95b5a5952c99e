//! An M9 request: the user's tables of measurements, each optional, and
//! how to fit them. Every table is read and checked whole before any fit.

use std::marker::PhantomData;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::table::{runs, Measurements, Quantity, Table, TableError};
use super::validity::{Run, Validity};
use crate::core::domain::count::Count;
use crate::core::domain::error::{Checker, Error, Invalid, Validate};
use crate::core::framework::calibration::Latency;
use crate::core::framework::registry::Registry;
use crate::core::presentation::map::Tagged;

/// The form fitted to computing times.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// Two levels when the data support a knee (by BIC), else one line
    /// through the origin.
    #[default]
    Auto,
    /// One line through the origin, `t = A α`.
    Line,
    /// One line with an intercept, `t = A α + B`.
    LineIntercept,
    /// `[3]`'s two levels, `t = max(a1 α, a2 α + b2)`.
    TwoLevel,
    /// M3's `k` lines, `t = max_k (A_k1 + α A_k2)` ([`Request::lines`]).
    Lines,
}

/// The noise the fits of times and energies assume, which sets how they
/// weigh their samples (`stats/weights.rs`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Noise {
    /// Noise of one size over the whole range: ordinary least squares.
    #[default]
    Absolute,
    /// Noise a fixed fraction of the value (a few per cent of each time):
    /// least squares weighted by `1/ŷ²`, `ŷ` the fitted value.
    Relative,
    /// For each machine, the one whose fit has the lower BIC (the Gaussian
    /// likelihoods of the two, the same number of parameters).
    Auto,
}

impl Noise {
    /// Whether this is the default, left out of the JSON.
    pub fn is_absolute(&self) -> bool {
        *self == Noise::Absolute
    }
}

/// A model's request and the runs measured with its split.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Check {
    /// The request whose predictions are checked, with its `"model"`.
    pub request: Tagged,
    /// The runs, given one by one.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<Run>,
    /// The runs as a table: `run,time_s` (and `load_MB`, or `machine` for
    /// each machine's finish time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measured: Option<Measurements>,
}

/// What the user measured, and how to fit it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, bound = "")]
pub struct Request<C> {
    /// Transfer times: `size_MB,time_s` (and `machine`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transfers: Option<Measurements>,
    /// Computing times: `size_MB,time_s` (and `machine`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub computation: Option<Measurements>,
    /// The form fitted to computing times (and energies).
    #[serde(default)]
    pub shape: Shape,
    /// The lines of the `lines` shape, 2 to 4 (default 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<Count>,
    /// The noise the computing, energy and transfer fits assume:
    /// `absolute` (of one size, default), `relative` (a fraction of the
    /// value) or `auto` (per machine, the one with the lower BIC).
    #[serde(default, skip_serializing_if = "Noise::is_absolute")]
    pub noise: Noise,
    /// Energy per chunk: `size_MB,energy_J` (and `machine`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy: Option<Measurements>,
    /// Power readings: `state,power_W` (and `machine`); states `compute`,
    /// `network`, `idle`, or a sleep mode (`suspend`, `hibernate`, `off`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<Measurements>,
    /// Which cost a transfer fit's intercept is: `overhead` (per message,
    /// default) or `startup` (once per machine).
    #[serde(default)]
    pub latency_as: Latency,
    /// Measured runs to check a model's predictions against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validity: Option<Check>,
    /// The tables that are a preset's examples rather than measurements of
    /// the user's: left out as soon as any table is the user's own, so that
    /// no model gets a number from data nobody measured.
    #[serde(default, skip_serializing_if = "Examples::is_none")]
    pub examples: Examples,
    /// Where the target models are found.
    #[serde(skip)]
    pub registry: PhantomData<fn() -> C>,
}

/// Which tables of a request are examples (a preset's), by table.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Examples {
    /// The transfer times are an example.
    #[serde(default, skip_serializing_if = "is_false")]
    pub transfers: bool,
    /// The computing times are an example.
    #[serde(default, skip_serializing_if = "is_false")]
    pub computation: bool,
    /// The energies are an example.
    #[serde(default, skip_serializing_if = "is_false")]
    pub energy: bool,
    /// The power readings are an example.
    #[serde(default, skip_serializing_if = "is_false")]
    pub power: bool,
}

impl Examples {
    /// Whether table `name` is an example.
    pub fn has(&self, name: &str) -> bool {
        match name {
            "transfers" => self.transfers,
            "computation" => self.computation,
            "energy" => self.energy,
            "power" => self.power,
            _ => false,
        }
    }

    /// Whether no table is (left out of the JSON).
    pub fn is_none(&self) -> bool {
        *self == Examples::default()
    }
}

/// For serde: a `false` flag is left out.
fn is_false(flag: &bool) -> bool {
    !flag
}

/// Where a table given in a request came from, and whether it is fitted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableUse {
    /// The table's field (`computation`).
    pub table: String,
    /// A preset's example rather than the user's own.
    pub example: bool,
    /// Fitted (an example is not, once any table is the user's own).
    pub used: bool,
}

/// The tables' fields, with the columns each needs and why.
pub const TABLES: [(&str, &[Quantity], &str); 4] = [
    (
        "transfers",
        &[Quantity::Size, Quantity::Time],
        "the transfer fit",
    ),
    (
        "computation",
        &[Quantity::Size, Quantity::Time],
        "the computing fit",
    ),
    (
        "energy",
        &[Quantity::Size, Quantity::Energy],
        "the energy fit",
    ),
    ("power", &[Quantity::Power], "the power fit"),
];

/// The most lines of the `lines` shape.
pub const MAX_LINES: u64 = 4;

impl<C> Request<C> {
    /// The table of field `name` (one of [`TABLES`]).
    pub fn measurements(&self, name: &str) -> Option<&Measurements> {
        match name {
            "transfers" => self.transfers.as_ref(),
            "computation" => self.computation.as_ref(),
            "energy" => self.energy.as_ref(),
            "power" => self.power.as_ref(),
            _ => None,
        }
    }

    /// Whether table `name` is fitted: given, and the user's own or an
    /// example among examples only (a preset looked at as it is).
    pub fn uses(&self, name: &str) -> bool {
        let given = |n: &str| self.measurements(n).is_some();
        let own = TABLES
            .iter()
            .any(|(n, _, _)| given(n) && !self.examples.has(n));
        given(name) && !(own && self.examples.has(name))
    }

    /// Every table given, where it came from and whether it is fitted.
    pub fn table_uses(&self) -> Vec<TableUse> {
        let given = TABLES
            .iter()
            .filter(|(name, _, _)| self.measurements(name).is_some());
        given
            .map(|(name, _, _)| TableUse {
                table: (*name).into(),
                example: self.examples.has(name),
                used: self.uses(name),
            })
            .collect()
    }

    /// The table of field `name`, read and checked for its columns; `None`
    /// when it is not given or is an example left out.
    ///
    /// # Errors
    ///
    /// The table's first problem, at its field.
    pub fn table(&self, name: &str) -> Result<Option<Table>, Error> {
        let Some(measurements) = self.measurements(name).filter(|_| self.uses(name)) else {
            return Ok(None);
        };
        let (_, needed, by) = TABLES
            .iter()
            .find(|(n, _, _)| *n == name)
            .copied()
            .unwrap_or((name, &[], "the fit"));
        let table = measurements.table().map_err(|e| e.at(name))?;
        for &quantity in needed {
            table.require(quantity, by).map_err(|e| e.at(name))?;
        }
        if name == "power" {
            table.require_texts("state", by).map_err(|e| e.at(name))?;
        }
        Ok(Some(table))
    }

    /// The lines of the `lines` shape.
    pub fn line_count(&self) -> usize {
        self.lines.map_or(3, |k| k.get())
    }

    /// The validity check with its runs gathered (the table's after the
    /// listed ones).
    ///
    /// # Errors
    ///
    /// The runs table's first problem.
    pub fn validity(&self) -> Result<Option<Validity>, Error> {
        let Some(check) = &self.validity else {
            return Ok(None);
        };
        let mut all = check.runs.clone();
        if let Some(measured) = &check.measured {
            let field = "validity.measured";
            let table = measured.table().map_err(|e| e.at(field))?;
            all.extend(runs(&table).map_err(|e: TableError| e.at(field))?);
        }
        Ok(Some(Validity {
            request: check.request.clone(),
            runs: all,
        }))
    }
}

impl<C: Registry> Validate for Request<C> {
    fn check_into(&self, c: &mut Checker) {
        let given = TABLES
            .iter()
            .filter(|(name, _, _)| self.measurements(name).is_some())
            .count();
        if given == 0 && self.validity.is_none() {
            let why = "a table of measurements (transfers, computation, energy or power) \
                       or measured runs (validity)";
            c.fail("computation", Invalid::Needed(why.into()));
        }
        for (name, _, _) in TABLES {
            if let Err(e) = self.table(name) {
                c.push(e);
            }
        }
        if let Some(k) = self.lines {
            c.whole("lines", k, 2, MAX_LINES as usize);
        }
        if c.is_clean() {
            self.check_fits(c);
        }
        match self.validity() {
            Err(e) => c.push(e),
            Ok(Some(validity)) => {
                let mut inner = Checker::default();
                validity.check_into(&mut inner);
                if let Some(e) = super::validity::request_problem::<C>(&validity) {
                    inner.push(e);
                }
                for e in inner.into_errors() {
                    c.push(under("validity", e));
                }
            }
            Ok(None) => {}
        }
    }
}

/// An error of a part of the request, its path under `field`.
pub fn under(field: &str, e: Error) -> Error {
    match e {
        Error::Field {
            field: inner,
            invalid,
        } => Error::field(format!("{field}.{inner}"), invalid),
        other => other,
    }
}
