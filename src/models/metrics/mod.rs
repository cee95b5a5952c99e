//! M1: the classic performance metrics of a parallel program (`[5]`),
//! from a serial time `T_s(W)` and a parallel time `T_p(W, p)` the user
//! types as formulas.
//!
//! At a work `W`: speedup `S = T_s/T_p`, efficiency `E = S/p`, cost
//! `p T_p` and overhead `T_o = p T_p − T_s` over a range of `p`. The
//! isoefficiency curve `W(p)` keeps `E` fixed: `T_s(W) = K T_o(W, p)`,
//! `K = E/(1 − E)`, solved for `W` at each `p` by a safeguarded root finder
//! on `log W` (`analysis`); its local slope `d log W/d log p` gives the
//! order of growth. The `p` minimising `T_p` comes from the sign change of
//! the derivative `∂T_p/∂p` (central differences). From measured times: the Karp–Flatt
//! serial fraction, the universal scalability law fitted by least squares,
//! and Amdahl's and Gustafson's laws for the fitted serial fraction
//! (`measured`).

mod analysis;
mod constants;
mod error;
mod exercises;
mod formula;
mod measured;
mod model;
mod postfix;
mod view;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use formula::Formula;
pub use model::{Metrics, Output};

use crate::core::domain::error::{Checker, Error, Invalid, Validate};
use error::{FormulaProblem, RunsProblem};

/// The most processors of a range.
pub const MAX_PROCESSORS: f64 = 1e12;
/// The most measured points.
pub const MAX_MEASURED: usize = 10_000;
/// The most named constants.
pub const MAX_CONSTANTS: usize = 64;

/// A range of processor counts.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Range {
    /// The first count.
    pub from: f64,
    /// The last count.
    pub to: f64,
}

/// One measured run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Measured {
    /// Processors.
    pub p: f64,
    /// Its run time, in seconds.
    pub time: f64,
}

/// Two configurations compared by the isospeed metrics.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Isospeed {
    /// Processors of the first configuration.
    pub p: f64,
    /// Its work.
    pub work: f64,
    /// Processors of the second.
    pub p2: f64,
    /// Its work, which keeps the speed per processor.
    pub work2: f64,
    /// The marked (benchmarked) speed of every node of the first system,
    /// for isospeed-e.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub speeds: Vec<f64>,
    /// The same for the second.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub speeds2: Vec<f64>,
}

/// An M1 request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// `T_s(W)`, in `W` (or `n`).
    pub serial: String,
    /// `T_p(W, p)`.
    pub parallel: String,
    /// Named numbers the formulas may use (`t_s`, `t_w`): a JSON object,
    /// or a text of `name = value` pairs separated by commas
    /// (`"t_s = 5, t_w = 2"`).
    #[serde(
        default,
        skip_serializing_if = "BTreeMap::is_empty",
        deserialize_with = "constants::read"
    )]
    #[schemars(with = "ConstantsSchema")]
    pub constants: BTreeMap<String, f64>,
    /// The work `W` of the curves.
    pub work: f64,
    /// The processor counts of the curves and the isoefficiency curve.
    pub processors: Range,
    /// The efficiency the isoefficiency curve keeps (default 0.8).
    #[serde(default = "default_efficiency")]
    pub efficiency: f64,
    /// Where `T_p` is minimised (default: `processors`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minimize_over: Option<Range>,
    /// Measured run times.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub measured: Vec<Measured>,
    /// Two configurations to compare by isospeed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isospeed: Option<Isospeed>,
}

/// The forms the constants take, for the request's schema.
#[derive(JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)] // Only its schema is used: `constants::read` reads the field.
enum ConstantsSchema {
    /// Named numbers (`{"t_s": 5, "t_w": 2}`).
    Object(BTreeMap<String, f64>),
    /// `name = value` pairs separated by commas (`t_s = 5, t_w = 2`).
    Text(String),
}

fn default_efficiency() -> f64 {
    0.8
}

impl Request {
    /// The compiled formulas.
    ///
    /// # Errors
    ///
    /// [`Error::Field`] naming the formula, what is wrong and where.
    pub fn formulas(&self) -> Result<(Formula, Formula), Error> {
        let serial = Formula::new(&self.serial, false, &self.constants)
            .map_err(|why| Error::field("serial", FormulaProblem(why).into()))?;
        let parallel = Formula::new(&self.parallel, true, &self.constants)
            .map_err(|why| Error::field("parallel", FormulaProblem(why).into()))?;
        Ok((serial, parallel))
    }

    /// The term of `T_p` whose `p·term` is the largest part of `T_o` at
    /// `(w, p)`, beside the term whose `p·term` is `T_s(W)` (the work).
    fn dominant_term(&self, serial: &Formula, w: f64, p: f64) -> Option<String> {
        let terms = formula::terms(&self.parallel);
        let ts = serial.at(w, 1.0);
        let parts: Vec<(String, f64)> = terms
            .iter()
            .map(|(sign, text)| {
                let f = Formula::new(text, true, &self.constants).ok()?;
                Some((text.clone(), sign * p * f.at(w, p)))
            })
            .collect::<Option<_>>()?;
        let work = parts
            .iter()
            .position(|(_, c)| (c - ts).abs() <= 1e-9 * ts)?;
        let overhead: f64 = parts
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != work)
            .map(|(_, (_, c))| c)
            .sum();
        let (text, c) = parts
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != work)
            .map(|(_, part)| part)
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        (overhead > 0.0).then(|| {
            format!(
                "the term {text} of T_p gives {:.0} % of T_o at p = {}",
                100.0 * c / overhead,
                crate::core::domain::number::number(p)
            )
        })
    }

    /// The range `T_p` is minimised over.
    pub fn minimize_range(&self) -> Range {
        self.minimize_over.unwrap_or(self.processors)
    }
}

/// Checks a processor range at `path`.
fn check_range(c: &mut Checker, path: &str, r: &Range) {
    let from = c.finite(&format!("{path}.from"), r.from);
    let to = c.finite(&format!("{path}.to"), r.to);
    if from && !(1.0..=MAX_PROCESSORS).contains(&r.from) {
        let invalid = Invalid::OutOfBounds {
            value: r.from,
            low: 1.0,
            high: MAX_PROCESSORS,
        };
        c.fail(format!("{path}.from"), invalid);
    } else if from && to && !(r.from..=MAX_PROCESSORS).contains(&r.to) {
        let invalid = Invalid::OutOfBounds {
            value: r.to,
            low: r.from,
            high: MAX_PROCESSORS,
        };
        c.fail(format!("{path}.to"), invalid);
    }
}

impl Validate for Request {
    fn check_into(&self, c: &mut Checker) {
        if self.constants.is_empty() || c.count("constants", self.constants.len(), MAX_CONSTANTS) {
            for (name, &value) in &self.constants {
                let field = format!("constants.{name}");
                c.finite(&field, value);
                if let Some(why) = formula::unfit_constant_name(name) {
                    c.fail(field, FormulaProblem(why).into());
                }
            }
        }
        if let Err(Error::Field { field, invalid }) = self.formulas() {
            c.fail(field, invalid);
        }
        c.positive("work", self.work);
        check_range(c, "processors", &self.processors);
        if let Some(r) = &self.minimize_over {
            check_range(c, "minimize_over", r);
        }
        if c.finite("efficiency", self.efficiency)
            && !(self.efficiency > 0.0 && self.efficiency < 1.0)
        {
            let invalid = Invalid::OutOfBounds {
                value: self.efficiency,
                low: 0.0,
                high: 1.0,
            };
            c.fail("efficiency", invalid);
        }
        check_measured(c, &self.measured);
        if c.is_clean() {
            if let Err(e) = self.check_times() {
                c.push(e);
            }
        }
        if let Some(s) = &self.isospeed {
            check_isospeed(c, s);
        }
    }
}

/// The measured runs: at most [`MAX_MEASURED`], each on at least one
/// processor in a positive time, one run per processor count. Repeated
/// counts are refused rather than merged: which of two times to keep (the
/// mean, the least) is the experimenter's choice, and two Karp–Flatt rows
/// for one `p` would contradict each other.
fn check_measured(c: &mut Checker, measured: &[Measured]) {
    if !(measured.is_empty() || c.count("measured", measured.len(), MAX_MEASURED)) {
        return;
    }
    let mut first_of: BTreeMap<u64, usize> = BTreeMap::new();
    for (i, m) in measured.iter().enumerate() {
        let field = format!("measured[{i}].p");
        if c.finite(&field, m.p) && m.p < 1.0 {
            let invalid = Invalid::BelowMinimum {
                value: m.p,
                minimum: 1.0,
            };
            c.fail(field, invalid);
        } else if m.p.is_finite() {
            // p ≥ 1 here, so equal counts have equal bits.
            if let Some(first) = first_of.insert(m.p.to_bits(), i) {
                let why = format!(
                    "repeats p = {} of run R{} (measured[{first}]): give one time per \
                     processor count (the mean of repeated runs, say); repeated counts are \
                     refused, not merged",
                    crate::core::domain::number::human(m.p),
                    first + 1
                );
                first_of.insert(m.p.to_bits(), first);
                c.fail(field, RunsProblem(why).into());
            }
        }
        c.positive(&format!("measured[{i}].time"), m.time);
    }
}

/// The two configurations of an isospeed comparison, and their marked
/// speeds: both or neither, since isospeed-e compares the two.
fn check_isospeed(c: &mut Checker, s: &Isospeed) {
    for (path, value) in [
        ("p", s.p),
        ("work", s.work),
        ("p2", s.p2),
        ("work2", s.work2),
    ] {
        c.positive(&format!("isospeed.{path}"), value);
    }
    for (path, speeds) in [("speeds", &s.speeds), ("speeds2", &s.speeds2)] {
        if speeds.is_empty() || c.count(&format!("isospeed.{path}"), speeds.len(), MAX_MEASURED) {
            for (i, &v) in speeds.iter().enumerate() {
                c.positive(&format!("isospeed.{path}[{i}]"), v);
            }
        }
    }
    for (path, speeds, p, which) in [
        ("speeds", &s.speeds, s.p, "first"),
        ("speeds2", &s.speeds2, s.p2, "second"),
    ] {
        if !speeds.is_empty() && p.is_finite() && speeds.len() as f64 != p {
            let why = format!(
                "lists {} marked speeds, but the {which} system has p = {} processors: give \
                 one speed per processor",
                speeds.len(),
                crate::core::domain::number::human(p)
            );
            c.fail(format!("isospeed.{path}"), RunsProblem(why).into());
        }
    }
    if s.speeds.is_empty() != s.speeds2.is_empty() {
        let why = "isospeed-e compares the marked speeds of both systems".to_string();
        let path = if s.speeds.is_empty() {
            "speeds"
        } else {
            "speeds2"
        };
        c.fail(format!("isospeed.{path}"), Invalid::Needed(why));
    }
}

/// The metrics at one processor count.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// Processors.
    pub p: f64,
    /// `T_p`, in seconds.
    pub time: f64,
    /// `S = T_s/T_p`.
    pub speedup: f64,
    /// `E = S/p`.
    pub efficiency: f64,
    /// `p T_p`, in processor-seconds.
    pub cost: f64,
    /// `T_o = p T_p − T_s`, in seconds.
    pub overhead: f64,
}

/// The isoefficiency curve.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Isoefficiency {
    /// The efficiency kept.
    pub efficiency: f64,
    /// `(p, W)` where the efficiency is `efficiency`.
    pub points: Vec<IsoPoint>,
    /// `d log W/d log p` at the largest `p`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exponent: Option<f64>,
    /// The order of growth in words (`Θ(p log p)`, `≈ p^2.93`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<String>,
    /// Which term of `T_p` gives most of the overhead `T_o` at the largest
    /// `p`, in words (when `T_p` is a sum with a term `T_s/p`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dominant: Option<String>,
    /// Processor counts with no such `W`, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// A point of the isoefficiency curve.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct IsoPoint {
    /// Processors.
    pub p: f64,
    /// The work that keeps the efficiency.
    pub work: f64,
}

/// The least `T_p`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MinTime {
    /// The real `p` of the minimum (an end of the range when `T_p` keeps
    /// falling).
    pub p: f64,
    /// `T_p` there, in seconds.
    pub time: f64,
    /// The best whole `p`.
    pub p_whole: f64,
    /// `T_p` there.
    pub time_whole: f64,
    /// Whether the minimum is inside the range (else at an end).
    pub interior: bool,
}

/// The least time among cost-optimal runs of the given work: at the most
/// processors whose isoefficiency work is at most `W`
/// (`Ω(W/f⁻¹(W))` in the lecture).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CostOptimal {
    /// The processors: where the isoefficiency curve reaches `W`.
    pub p: f64,
    /// `T_p(W, p)` there, in seconds.
    pub time: f64,
}

/// A row of the Karp–Flatt table.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct KarpFlatt {
    /// Processors.
    pub p: f64,
    /// The measured speedup.
    pub speedup: f64,
    /// `f = (1/S − 1/p)/(1 − 1/p)`.
    pub serial_fraction: f64,
}

/// The universal scalability law fitted to the measured throughputs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Usl {
    /// `λ`: the throughput of one processor, per second.
    pub lambda: f64,
    /// `σ`: contention.
    pub sigma: f64,
    /// `κ`: coherency.
    pub kappa: f64,
    /// The `p` of the largest throughput (none when `κ = 0`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak: Option<f64>,
    /// The root mean square of the throughput residuals, relative to the
    /// largest measured throughput.
    pub residual: f64,
}

/// The scalability laws at one `p`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LawPoint {
    /// Processors.
    pub p: f64,
    /// Amdahl's speedup `1/(f + (1 − f)/p)` for the fitted `f`.
    pub amdahl: f64,
    /// Gustafson's scaled speedup `f + (1 − f)p`.
    pub gustafson: f64,
    /// The fitted USL's speedup `X(p)/X(1)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usl: Option<f64>,
}

/// The isospeed metrics.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct IsospeedResult {
    /// `Ψ = p' W/(p W')`.
    pub psi: f64,
    /// `ψ = C' W/(C W')` with the marked speeds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub psi_e: Option<f64>,
}

/// The answer of an M1 request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The work `W` of the curves.
    pub work: f64,
    /// `T_s(W)`, in seconds.
    pub serial_time: f64,
    /// The metrics over the processor range.
    pub curves: Vec<CurvePoint>,
    /// The isoefficiency curve.
    pub isoefficiency: Isoefficiency,
    /// The least `T_p` over `minimize_over`.
    pub min_time: MinTime,
    /// The least time of a cost-optimal run of `W` (none when `W` is below
    /// the isoefficiency curve's first point).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost_optimal: Option<CostOptimal>,
    /// The Karp–Flatt table of the measured runs.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub karp_flatt: Vec<KarpFlatt>,
    /// What the serial fraction says, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub karp_flatt_trend: Option<String>,
    /// Amdahl's serial fraction fitted to the measured speedups.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub amdahl_fraction: Option<f64>,
    /// The universal scalability law fitted to the measured runs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usl: Option<Usl>,
    /// Amdahl's, Gustafson's and the USL's speedups over the measured range.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub laws: Vec<LawPoint>,
    /// The isospeed metrics.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub isospeed: Option<IsospeedResult>,
}

impl Request {
    /// `T_s(W)`, checked to be a positive time.
    fn serial_time(&self, serial: &Formula) -> Result<f64, Error> {
        let t = serial.at(self.work, 1.0);
        if t.is_finite() && t > 0.0 {
            Ok(t)
        } else {
            let why = format!(
                "is not a positive time at W = {} (got {}{})",
                crate::core::domain::number::human(self.work),
                crate::core::domain::number::human(t),
                serial.with_constants()
            );
            Err(Error::field("serial", FormulaProblem(why).into()))
        }
    }

    /// The times the report needs, each a positive finite number: the same
    /// evaluations as [`Request::solve`], so that a checked request solves.
    fn check_times(&self) -> Result<(), Error> {
        let (serial, parallel) = self.formulas()?;
        let serial_time = self.serial_time(&serial)?;
        analysis::curves(&parallel, serial_time, self.work, self.processors)?;
        analysis::min_time(&parallel, self.work, self.minimize_range())?;
        Ok(())
    }

    /// Computes the report.
    ///
    /// # Errors
    ///
    /// [`Error::Field`] for an invalid request or a formula that is not a
    /// positive finite time somewhere it is needed (naming the `p`).
    pub fn solve(&self) -> Result<Report, Error> {
        self.check()?;
        let (serial, parallel) = self.formulas()?;
        let serial_time = self.serial_time(&serial)?;
        let curves = analysis::curves(&parallel, serial_time, self.work, self.processors)?;
        let mut isoefficiency =
            analysis::isoefficiency(&serial, &parallel, self.efficiency, self.processors);
        isoefficiency.dominant = isoefficiency
            .points
            .last()
            .and_then(|q| self.dominant_term(&serial, q.work, q.p));
        let min_time = analysis::min_time(&parallel, self.work, self.minimize_range())?;
        let cost_optimal = analysis::cost_optimal(&isoefficiency.points, self.work)
            .map(|p| CostOptimal {
                p,
                time: parallel.at(self.work, p),
            })
            .filter(|c| c.time.is_finite() && c.time > 0.0);
        let measured = measured::analyse(&self.measured, serial_time);
        Ok(Report {
            work: self.work,
            serial_time,
            curves,
            isoefficiency,
            min_time,
            cost_optimal,
            karp_flatt: measured.karp_flatt,
            karp_flatt_trend: measured.trend,
            amdahl_fraction: measured.amdahl,
            usl: measured.usl,
            laws: measured.laws,
            isospeed: self.isospeed.as_ref().map(measured::isospeed),
        })
    }
}
