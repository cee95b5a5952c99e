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
//! A target model starts from its default preset and replaces only what
//! was measured, saying which fields it filled; the rest (the load, the
//! chunk count, whatever was not measured) keeps the preset's values, and
//! the user sees which.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::domain::platform::Processor;
use crate::core::domain::processing::ProcessingTime;
use crate::core::framework::json::with_tag;

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

    /// The latency when it is a per-message cost.
    pub fn overhead(&self) -> Option<f64> {
        self.latency
            .filter(|_| self.latency_as == Latency::Overhead)
    }

    /// The latency when it is a one-time start-up.
    pub fn startup(&self) -> Option<f64> {
        self.latency.filter(|_| self.latency_as == Latency::Startup)
    }
}

/// Every machine's fitted parameters, in the measurements' order.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Calibration {
    /// One per machine named in the measurements.
    pub machines: Vec<Fitted>,
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
    /// The fields filled from measurements (`machines[1].rate`), so the
    /// user sees what still comes from the preset.
    pub filled: Vec<String>,
}

impl<R: Serialize> Calibrated<R> {
    /// The filled request of model `model` (titled `title`) as the fit
    /// offers it.
    pub fn offer(&self, model: &str, title: &str) -> Option<Offer> {
        Some(Offer {
            model: model.into(),
            title: title.into(),
            request: with_tag(model, &self.request).ok()?,
            filled: self.filled.clone(),
        })
    }
}

/// Records field names as a target model fills them.
#[derive(Debug, Default)]
pub struct Filler {
    filled: Vec<String>,
}

impl Filler {
    /// Sets `*slot` to `value` when measured, noting `field`.
    pub fn set(&mut self, field: impl Into<String>, slot: &mut f64, value: Option<f64>) {
        if let Some(value) = value {
            *slot = value;
            self.filled.push(field.into());
        }
    }

    /// Notes a field filled by hand.
    pub fn note(&mut self, field: impl Into<String>) {
        self.filled.push(field.into());
    }

    /// The request with what was filled; `None` when nothing was (the
    /// measurements say nothing this model reads).
    pub fn finish<R>(self, request: R) -> Option<Calibrated<R>> {
        (!self.filled.is_empty()).then_some(Calibrated {
            request,
            filled: self.filled,
        })
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
/// request's `processors`, which `rows` finds) filled from `calibration`:
/// all a model of such rows needs (M3, M4).
pub fn with_processors<R>(
    mut request: R,
    rows: fn(&mut R) -> &mut Vec<Processor>,
    calibration: &Calibration,
) -> Option<Calibrated<R>> {
    let mut filler = Filler::default();
    fill_processors("processors", rows(&mut request), calibration, &mut filler);
    filler.finish(request)
}

/// Fills machine rows of the shared [`Processor`] kind under `field`.
fn fill_processors(
    field: &str,
    rows: &mut Vec<Processor>,
    calibration: &Calibration,
    filler: &mut Filler,
) {
    for (k, row, fit) in pair(rows, calibration) {
        filler.set(format!("{field}[{k}].rate"), &mut row.rate, fit.rate);
        filler.set(
            format!("{field}[{k}].startup"),
            &mut row.startup,
            fit.latency,
        );
        let levels = (fit.levels.clone()).or_else(|| fit.compute.map(ProcessingTime::linear));
        if let Some(levels) = levels {
            row.levels = levels;
            filler.note(format!("{field}[{k}].levels"));
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
                    crate::core::domain::processing::Level::new(0.0, 0.109),
                    crate::core::domain::processing::Level::new(-27_109.0, 4.132),
                ])),
                power,
            }],
        }
    }
}
