//! Measured platform parameters on their way into the models' requests.
//!
//! A fit of a user's measurements (model M9) ends with numbers about each
//! machine: its transfer rate and latency, its processing-time lines, its
//! powers. Which fields of which model those numbers fill is each model's
//! own knowledge (its [`Calibrate`] capability,
//! [`crate::core::framework::model::Model::calibration`]): the fit hands a
//! [`Calibration`] to every model of the registry and offers the requests
//! that come back, so no list of target models exists anywhere.
//!
//! # Design
//!
//! A target model starts from its default preset and replaces what was
//! measured, recording each value it replaces ([`Change`]: old → new, with
//! units), so the user sees what changed and what still comes from the
//! preset. The preset's load is replaced too, by one at which the fitted
//! parameters matter ([`Calibration::telling_load`]: past the measured
//! knees), since an example's load would leave the measured memory levels
//! unused; the chunk count and whatever else was not measured stay.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::domain::number::{count, human};
use crate::core::domain::platform::Processor;
use crate::core::domain::processing::{Level, ProcessingTime};
use crate::core::framework::json::with_tag;
pub use crate::core::presentation::view::Change;

/// Which cost a transfer fit's intercept is: a cost of every message, or
/// a machine's one-time start-up (`[004]`'s `S` in the one-installment
/// models is the former, sent once).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Latency {
    /// The per-message cost `O` (M5, M7), and `S` of the one-message models.
    #[default]
    Overhead,
    /// The machine's one-time start-up `S` (M5's, M7's wake-up time).
    Startup,
}

/// Powers read per state, in W (each the mean of its readings).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Powers {
    /// While computing, `P_C`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute: Option<f64>,
    /// While transferring, `P_N`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub network: Option<f64>,
    /// While on and idle, `P_C/k`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idle: Option<f64>,
    /// While asleep, by mode (`suspend`, `hibernate`, `off`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sleep: BTreeMap<String, f64>,
}

impl Powers {
    /// The idle factor `k = P_C / P_idle`, when both were read.
    pub fn idle_factor(&self) -> Option<f64> {
        Some(self.compute? / self.idle?)
    }

    /// Whether nothing was read.
    pub fn is_empty(&self) -> bool {
        self.compute.is_none()
            && self.network.is_none()
            && self.idle.is_none()
            && self.sleep.is_empty()
    }
}

/// What the measurements say about one machine, in the calculator's units
/// (MB, s, W); `None` for what was not measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Fitted {
    /// The machine's name in the measurements (empty: the only one).
    pub machine: String,
    /// Transfer time per MB `C`, s/MB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<f64>,
    /// The transfer fit's intercept, s.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency: Option<f64>,
    /// Which cost the intercept is.
    #[serde(default)]
    pub latency_as: Latency,
    /// Computing time per MB of the one-line fit through the origin `A`,
    /// s/MB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute: Option<f64>,
    /// The processing-time lines of the piecewise fit, in-core first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub levels: Option<ProcessingTime>,
    /// Powers per state.
    #[serde(default, skip_serializing_if = "Powers::is_empty")]
    pub power: Powers,
    /// The largest chunk whose computing time was measured, MB: the
    /// fitted lines are known up to here.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub largest: Option<f64>,
}

impl Fitted {
    /// `(a1, a2, b2)` when the piecewise fit has exactly two lines, the
    /// first through the origin: the form M5 and M7 read.
    pub fn two_level(&self) -> Option<(f64, f64, f64)> {
        match self.levels.as_ref()?.levels() {
            [core, out] if core.intercept == 0.0 => Some((core.slope, out.slope, out.intercept)),
            _ => None,
        }
    }

    /// Why the computing fit is not [`Fitted::two_level`]'s form, for a
    /// model that reads only that form and so keeps its preset's levels;
    /// `None` when it is, or when no computing time was measured.
    pub fn not_two_level(&self) -> Option<String> {
        let levels = self.levels.as_ref()?.levels();
        if self.two_level().is_some() {
            return None;
        }
        let form = match levels.len() {
            1 => "one line".to_string(),
            n => format!("{n} lines"),
        };
        let origin = match levels.first() {
            Some(l) if l.intercept != 0.0 => ", the first not through the origin",
            _ => "",
        };
        Some(format!(
            "the fit gave {form}{origin}, and this model reads two levels, the \
             first through the origin"
        ))
    }

    /// The latency when it is a per-message cost.
    pub fn overhead(&self) -> Option<f64> {
        self.latency
            .filter(|_| self.latency_as == Latency::Overhead)
    }

    /// The latency when it is a one-time start-up.
    pub fn startup(&self) -> Option<f64> {
        self.latency.filter(|_| self.latency_as == Latency::Startup)
    }

    /// The first knee of the piecewise fit, MB: where the second line
    /// overtakes the first (the RAM size of `[3]`'s machines).
    pub fn knee(&self) -> Option<f64> {
        let knee = *self.levels.as_ref()?.swap_points().first()?;
        (knee.is_finite() && knee > 0.0).then_some(knee)
    }

    /// A chunk size at which this machine's fit matters: 1.5 times its
    /// knee, so that the chunk spills to the second level, but no larger
    /// than the largest chunk measured when that is past the knee too (a
    /// prediction stays near its data); with no knee, the largest chunk
    /// measured. `None` when no computing time was measured.
    pub fn telling_chunk(&self) -> Option<f64> {
        match (self.knee(), self.largest) {
            (Some(knee), Some(largest)) if largest > knee => Some(largest.min(1.5 * knee)),
            (Some(knee), _) => Some(1.5 * knee),
            (None, largest) => largest.filter(|x| *x > 0.0),
        }
    }
}

/// Every machine's fitted parameters, in the measurements' order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Calibration {
    /// One per machine named in the measurements.
    pub machines: Vec<Fitted>,
}

impl Calibration {
    /// The load at which the fitted parameters matter on a request whose
    /// machine rows hold `counts` machines each (paired with the measured
    /// machines as [`pair`] pairs them), with why in words: each machine's
    /// [`Fitted::telling_chunk`], summed. A model's example load (`V = 2`
    /// units in a worked example) would leave every chunk far below the
    /// measured knees, and the answer would say nothing about the cluster.
    pub fn telling_load(&self, counts: &[usize]) -> Option<(f64, String)> {
        let fits = &self.machines;
        let fit = |k: usize| fits.get(if fits.len() == 1 { 0 } else { k });
        let mut load = 0.0;
        for (k, &count) in counts.iter().enumerate() {
            load += count as f64 * fit(k)?.telling_chunk()?;
        }
        let machines: usize = counts.iter().sum();
        let knees: Vec<f64> = fits.iter().filter_map(Fitted::knee).collect();
        let why = match knees.as_slice() {
            [] => format!(
                "{} × the largest chunk measured (no knee in the measurements)",
                per(machines)
            ),
            [knee] if fit(0)?.telling_chunk() == Some(1.5 * knee) => format!(
                "{} × 1.5 × the fitted knee ({} MB): split equally, each part passes the \
                 knee (a schedule of smaller chunks may still keep every chunk in core)",
                per(machines),
                human(*knee)
            ),
            [knee] => format!(
                "{} × the largest chunk measured, past the fitted knee ({} MB): split \
                 equally, each part passes the knee (a schedule of smaller chunks may \
                 still keep every chunk in core)",
                per(machines),
                human(*knee)
            ),
            _ => format!(
                "1.5 × each machine's fitted knee ({} MB), summed over {}: split by the \
                 knees, each part passes its machine's knee (a schedule of smaller chunks \
                 may still keep every chunk in core)",
                knees
                    .iter()
                    .map(|k| human(*k))
                    .collect::<Vec<_>>()
                    .join(", "),
                per(machines)
            ),
        };
        (load > 0.0 && load.is_finite()).then_some((load, why))
    }
}

/// `n machines`, in words.
fn per(machines: usize) -> String {
    match machines {
        1 => "1 machine".into(),
        n => format!("{} machines", count(n)),
    }
}

/// The calibration capability: a model's default request with the
/// measured parameters put in; `None` when the measurements hold nothing
/// the model reads.
pub type Calibrate<R> = fn(&Calibration) -> Option<Calibrated<R>>;

/// A model's request filled from a [`Calibration`], and what was filled.
#[derive(Debug, Clone, PartialEq)]
pub struct Calibrated<R> {
    /// The model's default preset with the measured numbers put in.
    pub request: R,
    /// What was filled from measurements, old and new values, so the user
    /// sees what changed and what still comes from the preset.
    pub changes: Vec<Change>,
}

impl<R: Serialize> Calibrated<R> {
    /// The filled request of model `model` (titled `title`) as the fit
    /// offers it.
    pub fn offer(&self, model: &str, title: &str) -> Option<Offer> {
        Some(Offer {
            model: model.into(),
            title: title.into(),
            request: with_tag(model, &self.request).ok()?,
            filled: self
                .changes
                .iter()
                .filter(|c| !c.kept())
                .map(|c| c.field.clone())
                .collect(),
            changes: self.changes.clone(),
        })
    }
}

/// Where a value goes: the request's field, what it is, its unit.
#[derive(Debug, Clone)]
pub struct At {
    field: String,
    what: String,
    unit: &'static str,
}

/// The field `field`, read as `what`, in `unit`.
pub fn at(field: impl Into<String>, what: impl Into<String>, unit: &'static str) -> At {
    At {
        field: field.into(),
        what: what.into(),
        unit,
    }
}

/// Records what a target model fills, with the values it replaces.
#[derive(Debug, Default)]
pub struct Filler {
    changes: Vec<Change>,
    /// Values a model kept from its preset, with why: shown with the
    /// changes, but nothing measured.
    kept: Vec<Change>,
    /// The fields set to 0 because nothing measured them: changes, but no
    /// measurement, so they alone offer no request.
    unmeasured: Vec<String>,
}

impl Filler {
    /// Sets `*slot` to `value` when measured, noting the change.
    pub fn set(&mut self, at: At, slot: &mut f64, value: Option<f64>) {
        if let Some(value) = value {
            self.record(at, human(*slot), human(value), String::new());
            *slot = value;
        }
    }

    /// Sets `*slot` to 0 when nothing measured it, noting why: a preset's
    /// value (a worked example's link, `[3]`'s start-up) would otherwise
    /// decide a result about the user's machines unseen, where 0 invents
    /// no cost that was not measured.
    pub fn unmeasured(&mut self, at: At, slot: &mut f64, measured: bool, whose: &str) {
        if measured || *slot == 0.0 {
            return;
        }
        let why = format!(
            "not measured, so left out ({whose} {} {} is not your machines'); type yours if \
             they have one",
            human(*slot),
            at.unit
        );
        self.unmeasured.push(at.field.clone());
        self.record(at, human(*slot), "0".into(), why);
        *slot = 0.0;
    }

    /// Sets an optional `*slot` to `value` when measured (a start-up the
    /// preset may not have), noting the change.
    pub fn set_option(&mut self, at: At, slot: &mut Option<f64>, value: Option<f64>) {
        if let Some(value) = value {
            let from = slot.map_or_else(|| "none".into(), human);
            self.record(at, from, human(value), String::new());
            *slot = Some(value);
        }
    }

    /// Sets a processing-time function, noting the change in formulas.
    pub fn set_levels(&mut self, at: At, slot: &mut ProcessingTime, value: ProcessingTime) {
        self.record(at, written(slot), written(&value), String::new());
        *slot = value;
    }

    /// Notes that the preset's `values` (each with its unit) at `at` stay,
    /// and why.
    pub fn keep(&mut self, at: At, values: &[(f64, &str)], why: String) {
        let values: Vec<String> = values
            .iter()
            .map(|(v, unit)| format!("{} {unit}", human(*v)))
            .collect();
        self.kept.push(Change {
            field: at.field,
            what: at.what,
            from: values.join(", "),
            to: values.join(", "),
            unit: String::new(),
            why,
        });
    }

    /// Sets the load where the fitted parameters matter
    /// ([`Calibration::telling_load`]), when computing times were measured.
    pub fn set_load(&mut self, slot: &mut f64, calibration: &Calibration, counts: &[usize]) {
        if let Some((load, why)) = calibration.telling_load(counts) {
            self.record(at("load", "load V", "MB"), human(*slot), human(load), why);
            *slot = load;
        }
    }

    /// Notes a change, with why when the value was chosen.
    fn record(&mut self, at: At, from: String, to: String, why: String) {
        self.changes.push(Change {
            field: at.field,
            what: at.what,
            from,
            to,
            unit: at.unit.into(),
            why,
        });
    }

    /// Whether anything measured was put in (the load alone is not).
    fn measured(&self) -> bool {
        self.changes
            .iter()
            .any(|c| c.field != "load" && !self.unmeasured.contains(&c.field))
    }

    /// The request with what was filled; `None` when nothing measured
    /// was (the measurements say nothing this model reads).
    pub fn finish<R>(mut self, request: R) -> Option<Calibrated<R>> {
        let measured = self.measured();
        self.changes.append(&mut self.kept);
        measured.then_some(Calibrated {
            request,
            changes: self.changes,
        })
    }
}

/// A processing-time function as a formula in `α` (MB), in s.
fn written(time: &ProcessingTime) -> String {
    let line = |l: &Level| match l.intercept {
        0.0 => format!("{}·α", human(l.slope)),
        b if b < 0.0 => format!("{}·α − {}", human(l.slope), human(-b)),
        b => format!("{}·α + {}", human(l.slope), human(b)),
    };
    match time.levels() {
        [one] => line(one),
        levels => format!(
            "max({})",
            levels.iter().map(line).collect::<Vec<_>>().join(", ")
        ),
    }
}

/// Pairs a request's machine rows with the measured machines. One
/// measured machine (no `machine` column) fills every row, so a preset's
/// cluster becomes a cluster of the measured machine; several make the rows
/// one per measured machine, in order (new rows copies of the first).
pub fn pair<'a, T: Clone>(
    rows: &'a mut Vec<T>,
    calibration: &'a Calibration,
) -> impl Iterator<Item = (usize, &'a mut T, &'a Fitted)> {
    let fits = &calibration.machines;
    if fits.len() > 1 {
        if let Some(template) = rows.first().cloned() {
            rows.resize(fits.len(), template);
        }
    }
    let one = fits.len() == 1;
    rows.iter_mut()
        .enumerate()
        .filter_map(move |(k, row)| Some((k, row, fits.get(if one { 0 } else { k })?)))
}

/// `request` (a model's default) with its machine rows of the shared
/// [`Processor`] kind (a link and a processing-time function each, in the
/// request's `processors`, which `rows` finds) filled from `calibration`,
/// and its load (which `load` finds) set where the fit matters: all a
/// model of such rows needs (M3, M4).
pub fn with_processors<R>(
    mut request: R,
    rows: fn(&mut R) -> &mut Vec<Processor>,
    load: fn(&mut R) -> &mut f64,
    calibration: &Calibration,
) -> Option<Calibrated<R>> {
    let mut filler = Filler::default();
    let processors = rows(&mut request);
    fill_processors("processors", processors, calibration, &mut filler);
    let counts = vec![1; processors.len()];
    filler.set_load(load(&mut request), calibration, &counts);
    filler.finish(request)
}

/// Fills machine rows of the shared [`Processor`] kind under `field`
/// (rows named P1, P2, … as the models' tables name them).
fn fill_processors(
    field: &str,
    rows: &mut Vec<Processor>,
    calibration: &Calibration,
    filler: &mut Filler,
) {
    for (k, row, fit) in pair(rows, calibration) {
        let p = k + 1;
        let rate = at(format!("{field}[{k}].rate"), format!("P{p}: C"), "s/MB");
        filler.set(rate, &mut row.rate, fit.rate);
        let startup = at(format!("{field}[{k}].startup"), format!("P{p}: S"), "s");
        filler.set(startup, &mut row.startup, fit.latency);
        // No transfer measured: the example's link would take most of the
        // makespan (9 001 s of 13 520 s for a computing table alone).
        let rate = at(format!("{field}[{k}].rate"), format!("P{p}: C"), "s/MB");
        filler.unmeasured(rate, &mut row.rate, fit.rate.is_some(), "the example's");
        let startup = at(format!("{field}[{k}].startup"), format!("P{p}: S"), "s");
        filler.unmeasured(
            startup,
            &mut row.startup,
            fit.latency.is_some(),
            "the example's",
        );
        let levels = (fit.levels.clone()).or_else(|| fit.compute.map(ProcessingTime::linear));
        if let Some(levels) = levels {
            let time = at(
                format!("{field}[{k}].levels"),
                format!("P{p}: time of α MB"),
                "s",
            );
            filler.set_levels(time, &mut row.levels, levels);
        }
    }
}

/// A model's filled request as the fit offers it: tagged JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Offer {
    /// The target model's id.
    pub model: String,
    /// Its title, for the page's button.
    pub title: String,
    /// The request, with its `"model"` tag, ready for `dlt solve`.
    pub request: serde_json::Value,
    /// The fields filled from measurements.
    pub filled: Vec<String>,
    /// What they were and what they are.
    pub changes: Vec<Change>,
}

impl Calibration {
    /// One machine with every parameter measured (`[3]`'s reference
    /// machine, a link, powers and a hibernation power): what finds every
    /// model that reads measurements.
    pub fn everything() -> Calibration {
        let mut power = Powers {
            compute: Some(130.0),
            network: Some(90.0),
            idle: Some(73.0),
            ..Powers::default()
        };
        power.sleep.insert("hibernate".into(), 6.3);
        power.sleep.insert("suspend".into(), 3.0);
        Calibration {
            machines: vec![Fitted {
                machine: String::new(),
                rate: Some(0.005),
                latency: Some(0.075),
                latency_as: Latency::Overhead,
                compute: Some(0.109),
                levels: Some(ProcessingTime::new(vec![
                    Level::new(0.0, 0.109),
                    Level::new(-27_109.0, 4.132),
                ])),
                power,
                largest: Some(20_000.0),
            }],
        }
    }
}
