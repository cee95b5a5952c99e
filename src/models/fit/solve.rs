//! The fits of a request's tables, machine by machine, and the
//! calibration they give the target models.

use serde::{Deserialize, Serialize};

use super::request::{Noise, Request, Shape, TABLES};
use super::stats::{
    k_lines_weighted, line_weighted, spread, states, two_level_weighted, FitError, Goodness,
    KneeFit, LineFit, LinesFit, Origin, PowerFit, Preferred, State, Weights,
};
use super::table::{Group, Quantity, Table};
use crate::core::domain::error::{Checker, Error, Invalid};
use crate::core::domain::number::human;
use crate::core::framework::registry::Registry;

/// A transfer fit of one machine's link: `t = latency + C x`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TransferFit {
    /// The machine (empty: the table names none).
    pub machine: String,
    /// The line; its intercept is the latency (absent when held at zero).
    pub fit: LineFit,
    /// The noise the fit assumed (absent: absolute).
    #[serde(default, skip_serializing_if = "Noise::is_absolute")]
    pub noise: Noise,
    /// Why the intercept is held at zero, if it is, and why the noise
    /// model when it was chosen.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub note: String,
}

/// A computing (or energy) fit of one machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LevelsFit {
    /// The machine (empty: the table names none).
    pub machine: String,
    /// The form used: one line, two levels or `k` lines.
    pub shape: Shape,
    /// The one-line fit (through the origin, or with an intercept for
    /// `line-intercept`), always made, to compare.
    pub line: LineFit,
    /// The two-level fit, when tried and determined.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knee: Option<KneeFit>,
    /// The `k`-line fit, for the `lines` shape.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<LinesFit>,
    /// The noise the fits assumed (absent: absolute).
    #[serde(default, skip_serializing_if = "Noise::is_absolute")]
    pub noise: Noise,
    /// What the data support, in words.
    pub note: String,
}

impl LevelsFit {
    /// How well the form used fits.
    pub fn goodness(&self) -> &Goodness {
        match (self.shape, &self.knee, &self.lines) {
            (Shape::TwoLevel, Some(k), _) => &k.fit,
            (Shape::Lines, _, Some(l)) => &l.fit,
            _ => &self.line.fit,
        }
    }
}

/// The power fit of one machine.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PowersFit {
    /// The machine (empty: the table names none).
    pub machine: String,
    /// The means per state and the factors.
    pub fit: PowerFit,
}

/// A fit's refusal, at the table's field, naming the machine and the
/// columns fitted (`x` the sizes, `y` the quantity `y`).
fn refused(field: &str, table: &Table, y: Quantity, machine: &str, e: FitError) -> Error {
    let header = |q| table.column(q).map_or(String::new(), |c| c.header.clone());
    let columns = if y == Quantity::Power {
        format!("column `{}`", header(y))
    } else {
        format!(
            "columns `{}` (x) and `{}` (y)",
            header(Quantity::Size),
            header(y)
        )
    };
    let text = if machine.is_empty() {
        format!("{columns}: {e}")
    } else {
        format!("machine `{machine}`, {columns}: {e}")
    };
    Error::field(field, Invalid::Text(text))
}

/// `(x, y)` of a group: the sizes and the quantity `y`.
fn samples(table: &Table, group: &Group, y: Quantity) -> (Vec<f64>, Vec<f64>) {
    let pick = |q| group.pick(table.numbers(q).unwrap_or_default());
    (pick(Quantity::Size), pick(y))
}

/// The transfer fits, one per machine, with the request's noise. A
/// negative intercept (a link measured with too few small messages) is
/// held at zero: a latency is never negative.
///
/// # Errors
///
/// A fit the samples do not allow, naming the machine.
pub fn transfers(table: &Table, noise: Noise) -> Result<Vec<TransferFit>, Error> {
    let mut fits = Vec::new();
    for group in table.groups() {
        let (x, t) = samples(table, &group, Quantity::Time);
        let fail = |e| refused("transfers", table, Quantity::Time, &group.machine, e);
        let fit = |noise| transfer(&x, &t, group.machine.clone(), noise);
        let fit = match noise {
            Noise::Auto => choose(fit(Noise::Absolute), fit(Noise::Relative), |f| &f.fit.fit),
            noise => fit(noise),
        };
        fits.push(fit.map_err(fail)?);
    }
    Ok(fits)
}

/// Words when the fit misses its largest samples all one way: the last
/// four or more residuals by size (at least a fifth of the samples) of one
/// sign, the largest of them 5 % or more of its prediction. A model
/// filled from such a fit errs there the same way (the SQLite tables:
/// every residual positive past 40 MB, 15 % at 64 MB), which R² hides.
fn largest_off(x: &[f64], t: &[f64], residuals: &[f64], unit: &str) -> Option<String> {
    let mut order: Vec<usize> = (0..x.len().min(residuals.len())).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
    let last = *order.last()?;
    let sign = residuals[last].signum();
    let run = order
        .iter()
        .rev()
        .take_while(|&&k| residuals[k].signum() == sign)
        .count();
    if run < 4 {
        return None;
    }
    let (from, n) = (order[order.len() - run], order.len());
    let relative = |k: usize| residuals[k] / (t[k] - residuals[k]);
    let worst = order[n - run..]
        .iter()
        .copied()
        .max_by(|&a, &b| relative(a).abs().total_cmp(&relative(b).abs()))?;
    let off = relative(worst).abs();
    if 5 * run < n || off < 0.05 || !off.is_finite() {
        return None;
    }
    let way = if sign > 0.0 {
        "under-predicts"
    } else {
        "over-predicts"
    };
    Some(format!(
        "it {way} the largest sizes: the {run} largest, from {} MB up, are all {} the fit, \
         by up to {} % ({} {unit} at {} MB); a model filled from it errs the same way there",
        human(x[from]),
        if sign > 0.0 { "above" } else { "below" },
        human((off * 1000.0).round() / 10.0),
        human(residuals[worst].abs()),
        human(x[worst])
    ))
}

/// One link's line under one noise model.
fn transfer(x: &[f64], t: &[f64], machine: String, noise: Noise) -> Result<TransferFit, FitError> {
    let weights = weights(noise);
    let mut fit = line_weighted(x, t, true, weights)?;
    let mut note = String::new();
    if fit.intercept.is_some_and(|b| b.value < 0.0) {
        fit = line_weighted(x, t, false, weights)?;
        note = "the intercept came out negative, so it is held at zero (measure \
                smaller messages to see the latency)"
            .into();
    }
    Ok(TransferFit {
        machine,
        fit,
        noise,
        note,
    })
}

/// The weights of a noise model (`auto` is decided before).
fn weights(noise: Noise) -> Weights<'static> {
    match noise {
        Noise::Relative => Weights::Relative,
        Noise::Absolute | Noise::Auto => Weights::Unit,
    }
}

/// A fit under either noise model, whichever has the lower BIC (the
/// absolute one on a tie), the choice and both figures added to its note.
fn choose<F: Noted>(
    absolute: Result<F, FitError>,
    relative: Result<F, FitError>,
    goodness: impl Fn(&F) -> &Goodness,
) -> Result<F, FitError> {
    let (absolute, relative) = match (absolute, relative) {
        (Ok(a), Ok(r)) => (a, r),
        (Ok(one), Err(_)) | (Err(_), Ok(one)) => return Ok(one),
        (Err(e), Err(_)) => return Err(e),
    };
    let (a, r) = (goodness(&absolute).bic, goodness(&relative).bic);
    let (mut chosen, words) = if r < a {
        let words = format!("relative noise: BIC {r:.1} against {a:.1} for noise of one size");
        (relative, words)
    } else {
        let words = format!("noise of one size: BIC {a:.1} against {r:.1} for relative noise");
        (absolute, words)
    };
    let note = chosen.note();
    if note.is_empty() {
        *note = words;
    } else {
        *note = format!("{note}; {words}");
    }
    Ok(chosen)
}

/// A fit with a note in words.
trait Noted {
    fn note(&mut self) -> &mut String;
}

impl Noted for TransferFit {
    fn note(&mut self) -> &mut String {
        &mut self.note
    }
}

impl Noted for LevelsFit {
    fn note(&mut self) -> &mut String {
        &mut self.note
    }
}

/// The computing or energy fits (`field` names the table, `y` the
/// quantity), one per machine, in the request's shape.
///
/// # Errors
///
/// A fit the samples do not allow, naming the machine.
pub fn levels<C>(
    request: &Request<C>,
    field: &str,
    table: &Table,
    y: Quantity,
) -> Result<Vec<LevelsFit>, Error> {
    let mut fits = Vec::new();
    for group in table.groups() {
        let (x, t) = samples(table, &group, y);
        let fail = |e| refused(field, table, y, &group.machine, e);
        // One load measured gives a line through the origin, but nothing
        // shows the time grows linearly: refused like a line with an
        // intercept.
        if x.len() > 1 {
            spread(&x).map_err(fail)?;
        }
        let fit = |noise| one_machine(request, &x, &t, group.machine.clone(), noise, y.unit());
        let fit = match request.noise {
            Noise::Auto => choose(fit(Noise::Absolute), fit(Noise::Relative), |f| f.goodness()),
            noise => fit(noise),
        };
        let mut fit = fit.map_err(fail)?;
        if let Some(words) = largest_off(&x, &t, &fit.goodness().residuals, y.unit()) {
            fit.note = if fit.note.is_empty() {
                words
            } else {
                format!("{}; {words}", fit.note)
            };
        }
        fits.push(fit);
    }
    Ok(fits)
}

/// One machine's fit in the request's shape, under one noise model.
fn one_machine<C>(
    request: &Request<C>,
    x: &[f64],
    t: &[f64],
    machine: String,
    noise: Noise,
    unit: &str,
) -> Result<LevelsFit, FitError> {
    let shape = request.shape;
    let weights = weights(noise);
    let line = line_weighted(x, t, shape == Shape::LineIntercept, weights)?;
    let mut fit = LevelsFit {
        machine,
        shape,
        line,
        knee: None,
        lines: None,
        noise,
        note: String::new(),
    };
    match shape {
        Shape::Line | Shape::LineIntercept => fit.note = "one line, as asked".into(),
        Shape::Lines => {
            let k = request.line_count();
            fit.note = format!("{k} lines, as asked");
            fit.lines = Some(lines(x, t, k, weights, unit, &mut fit.note)?);
        }
        Shape::TwoLevel => {
            let knee = two_level_weighted(x, t, Origin::Through, weights)?;
            fit.note = knee_note(&knee);
            fit.knee = Some(knee);
        }
        Shape::Auto => auto(&mut fit, x, t, weights)?,
    }
    Ok(fit)
}

/// `k` lines in M3's form, each with its own intercept; but when the
/// first comes out below zero (a negative time for no load, which M3
/// refuses, as a small start-up cost often does within its noise), the
/// exact fit with the first line through the origin instead, said in
/// `note`.
fn lines(
    x: &[f64],
    t: &[f64],
    k: usize,
    weights: Weights,
    unit: &str,
    note: &mut String,
) -> Result<LinesFit, FitError> {
    let mut fit = k_lines_weighted(x, t, k, Origin::Free, weights)?;
    if let Some(c) = fit.lines[0].intercept.filter(|c| c.value < 0.0) {
        *note += &format!(
            "; the first line through the origin (with an intercept of its own it \
             gave {} {unit} for no load, a negative time M3 refuses)",
            crate::core::domain::number::number(c.value)
        );
        fit = k_lines_weighted(x, t, k, Origin::Through, weights)?;
    }
    if !fit.convex {
        *note += "; the slopes do not increase, so the lines are no maximum of lines \
                  (no memory level seen): the models get the one line";
    }
    Ok(fit)
}

/// The two levels when the data support them, else the one line.
fn auto(fit: &mut LevelsFit, x: &[f64], t: &[f64], weights: Weights) -> Result<(), FitError> {
    match two_level_weighted(x, t, Origin::Through, weights) {
        Ok(knee) => {
            fit.note = knee_note(&knee);
            if knee.preferred == Preferred::TwoLevel {
                fit.shape = Shape::TwoLevel;
            } else {
                fit.shape = Shape::Line;
            }
            fit.knee = Some(knee);
        }
        // Too few distinct loads for two levels, or none bend: one line.
        Err(
            FitError::KneeSide { .. } | FitError::Undetermined { .. } | FitError::TooFew { .. },
        ) => {
            fit.shape = Shape::Line;
            fit.note = "one line: the data cannot place a knee".into();
        }
        Err(e) => return Err(e),
    }
    Ok(())
}

/// What a two-level fit says, in words.
fn knee_note(knee: &KneeFit) -> String {
    let mut words = match knee.preferred {
        Preferred::TwoLevel => "two levels: the knee lowers BIC".to_string(),
        Preferred::OneLine => "one line: a knee does not lower BIC enough".to_string(),
    };
    if !knee.knee_inside {
        words += "; the knee lies at the smallest load measured (measure smaller loads)";
    }
    if !knee.convex {
        words += "; the second line is not slower than the first (no memory spill seen): \
                  the models get the one line";
    }
    words
}

/// A power reading's state, from the words people write.
pub fn state(word: &str) -> State {
    let w = word.trim().to_lowercase();
    match w.as_str() {
        "compute" | "computing" | "busy" | "load" | "active" => State::Compute,
        "network" | "send" | "sending" | "transfer" | "communication" | "receive" => State::Network,
        "idle" | "on" => State::Idle,
        "hibernate" | "hibernation" | "hibernated" | "s4" => State::Sleep("hibernate".into()),
        "suspend" | "suspended" | "standby" | "sleep" | "s3" => State::Sleep("suspend".into()),
        "off" | "soft-off" | "s5" => State::Sleep("off".into()),
        _ => State::Sleep(w),
    }
}

/// The power fits, one per machine.
///
/// # Errors
///
/// A machine without computing readings, naming it.
pub fn powers(table: &Table) -> Result<Vec<PowersFit>, Error> {
    let watts = table.numbers(Quantity::Power).unwrap_or_default();
    let words = table.texts("state").unwrap_or_default();
    let mut fits = Vec::new();
    for group in table.groups() {
        let readings: Vec<(State, f64)> = group
            .rows
            .iter()
            .filter_map(|&i| Some((state(words.get(i)?), *watts.get(i)?)))
            .collect();
        let fail = |e| refused("power", table, Quantity::Power, &group.machine, e);
        let fit = states(&readings).map_err(fail)?;
        fits.push(PowersFit {
            machine: group.machine,
            fit,
        });
    }
    Ok(fits)
}

/// Here, beside the fits, rather than beside the request's other checks
/// (`request.rs`), which this file's fits read.
impl<C: Registry> Request<C> {
    /// Fits every table as solving does, recording each table's refusal
    /// (too few samples for the shape, every load the same, no knee the
    /// data can place): only a fit can tell what its data allow, and a
    /// check that passes must mean that solving does too. The fits are
    /// linear in the rows, as reading the tables is.
    pub(super) fn check_fits(&self, c: &mut Checker) {
        for (name, _, _) in TABLES {
            let Ok(Some(table)) = self.table(name) else {
                continue;
            };
            let fitted = match name {
                "transfers" => transfers(&table, self.noise).map(drop),
                "computation" => levels(self, name, &table, Quantity::Time).map(drop),
                "energy" => levels(self, name, &table, Quantity::Energy).map(drop),
                _ => powers(&table).map(drop),
            };
            if let Err(e) = fitted {
                c.push(e);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::largest_off;

    /// The largest samples all above the fit by 10 % are said, with where
    /// and how much; residuals of both signs there, or small ones, are not.
    #[test]
    fn a_fit_that_misses_its_largest_samples_one_way_says_so() {
        let x: Vec<f64> = (1..=20).map(|k| 4.0 * f64::from(k)).collect();
        let predicted: Vec<f64> = x.iter().map(|x| 0.1 * x).collect();
        let residuals: Vec<f64> = (0..20)
            .map(|k| match k {
                0..=14 => 0.001 * if k % 2 == 0 { -1.0 } else { 1.0 },
                _ => 0.015 * x[k],
            })
            .collect();
        let t: Vec<f64> = predicted
            .iter()
            .zip(&residuals)
            .map(|(p, r)| p + r)
            .collect();
        let said = largest_off(&x, &t, &residuals, "s").expect("said");
        assert!(
            said.contains("under-predicts") && said.contains("from 64 MB up"),
            "{said}"
        );
        assert!(said.contains("by up to 15 %"), "{said}");
        let mixed: Vec<f64> = residuals
            .iter()
            .enumerate()
            .map(|(k, r)| if k == 17 { -r } else { *r })
            .collect();
        assert_eq!(largest_off(&x, &t, &mixed, "s"), None);
        let small: Vec<f64> = residuals.iter().map(|r| r / 10.0).collect();
        assert_eq!(largest_off(&x, &t, &small, "s"), None);
    }
}
