//! M9 exercises: a line through three measured points by least squares,
//! the RAM size read off a knee, and a model's relative error against a
//! measured run (`[1]` §2, `[3]`, `[4]`).

use std::collections::BTreeMap;

use serde_json::json;

use super::stats::{line, two_level};
use super::validity::{check, Run, Validity};
use super::Fit;
use crate::core::domain::error::Error;
use crate::core::framework::exercise::{figure, with_unit, Answer, Posed, Template};
use crate::core::framework::model::tagged;
use crate::core::framework::registry::Registry;
use crate::core::presentation::draw::Draw;
use crate::core::presentation::map::Tagged;
use crate::core::solving::progress::Silent;

/// The exercises M9 poses.
pub fn templates<C: Registry>() -> Vec<Template> {
    vec![
        Template {
            id: "fit-line",
            title: "A transfer line through three measured points, by least squares",
            source: "marszalkowski-energy",
            make: line_by_hand::<C>,
            by_hand: true,
        },
        Template {
            id: "fit-knee",
            title: "The RAM size read off a two-level fit's knee",
            source: "drozdowski-singh-marszalkowski",
            make: knee::<C>,
            by_hand: true,
        },
        Template {
            id: "fit-relative-error",
            title: "A model's relative error against a measured run",
            source: "drozdowski-basics",
            make: relative_error::<C>,
            by_hand: true,
        },
    ]
}

/// A refusal of the exercise's own numbers (never, for the numbers drawn).
fn drawn(e: impl std::fmt::Display) -> Error {
    Error::Malformed(format!("an exercise drew numbers its fit refuses: {e}"))
}

/// `x` rounded to `digits` decimals, so that the numbers shown are the
/// numbers fitted.
fn rounded(x: f64, digits: i32) -> f64 {
    let scale = 10f64.powi(digits);
    (x * scale).round() / scale
}

/// Three transfers of 10, 20 and 30 MB (times rounded to the ms, with a
/// little noise), and the latency their least-squares line gives.
fn line_by_hand<C: Registry>(d: &mut Draw) -> Result<Posed, Error> {
    let latency = d.pick(&[0.05, 0.08, 0.1, 0.2]);
    let rate = d.pick(&[0.008, 0.01, 0.012, 0.02]);
    let sizes = [10.0, 20.0, 30.0];
    let times: Vec<f64> = sizes
        .iter()
        .map(|&x| {
            let noise = f64::from(d.pick(&[-2_i8, -1, 0, 1, 2])) * 1e-3;
            rounded(latency + rate * x + noise, 3)
        })
        .collect();
    let fit = line(&sizes, &times, true).map_err(drawn)?;
    let intercept = fit.intercept.ok_or_else(|| drawn("no intercept"))?;
    let pairs: Vec<String> = sizes
        .iter()
        .zip(&times)
        .map(|(x, t)| format!("{} MB in {} s", figure(*x), figure(*t)))
        .collect();
    let csv: String = sizes
        .iter()
        .zip(&times)
        .map(|(x, t)| format!("{x},{t}\n"))
        .collect();
    let mean = times.iter().sum::<f64>() / 3.0;
    Ok(Posed {
        question: format!(
            "Messages to a worker took {}. Fit <i>t</i> = <i>S</i> + <i>C</i>·size by least \
             squares: what is the latency <i>S</i>?",
            pairs.join(", ")
        ),
        answer: Answer::number("latency <i>S</i>", intercept.value, "s"),
        hints: vec![
            "The slope is Σ(<i>x</i> − <i>x̄</i>)(<i>t</i> − <i>t̄</i>) / Σ(<i>x</i> − \
             <i>x̄</i>)²; with sizes 10, 20, 30 MB that is (<i>t</i><sub>3</sub> − \
             <i>t</i><sub>1</sub>)/20."
                .into(),
            "The line passes through the means: <i>S</i> = <i>t̄</i> − <i>C</i>·<i>x̄</i>, \
             <i>x̄</i> = 20 MB."
                .into(),
        ],
        solution: vec![
            format!(
                "<i>C</i> = ({} − {})/20 = {}.",
                figure(times[2]),
                figure(times[0]),
                with_unit(fit.slope.value, "s/MB")
            ),
            format!(
                "<i>t̄</i> = {}, so <i>S</i> = {} − 20·{} = {}.",
                with_unit(mean, "s"),
                figure(mean),
                figure(fit.slope.value),
                with_unit(intercept.value, "s")
            ),
        ],
        request: tagged::<Fit<C>>(&json!({
            "transfers": {"csv": format!("size_MB,time_s\n{csv}")},
        })),
    })
}

/// `[3]`'s two levels with round numbers, and the knee of their exact
/// two-level fit.
fn knee<C: Registry>(d: &mut Draw) -> Result<Posed, Error> {
    let a1 = d.pick(&[0.1, 0.12, 0.15, 0.2]);
    let a2 = d.pick(&[2.0, 3.0, 4.0, 5.0]);
    let b2 = -d.pick(&[6000.0, 8000.0, 10_000.0, 27_000.0]);
    let r = b2 / (a1 - a2);
    let sizes: Vec<f64> = [0.25, 0.5, 0.75, 1.5, 2.0, 2.5]
        .iter()
        .map(|f: &f64| (f * r).round())
        .collect();
    let times: Vec<f64> = sizes
        .iter()
        .map(|&x| rounded((a1 * x).max(a2 * x + b2), 6))
        .collect();
    let fit = two_level(&sizes, &times).map_err(drawn)?;
    let csv: String = sizes
        .iter()
        .zip(&times)
        .map(|(x, t)| format!("{x},{t}\n"))
        .collect();
    Ok(Posed {
        question: format!(
            "A machine's computing time fits <i>t</i>(α) = max(<i>a</i><sub>1</sub>α, \
             <i>a</i><sub>2</sub>α + <i>b</i><sub>2</sub>) with <i>a</i><sub>1</sub> = {} \
             s/MB, <i>a</i><sub>2</sub> = {} s/MB and <i>b</i><sub>2</sub> = {} s. From which \
             chunk size <i>r</i> does it compute out of core (its RAM size)?",
            figure(a1),
            figure(a2),
            figure(b2)
        ),
        answer: Answer::number("RAM size <i>r</i>", fit.r.value, "MB"),
        hints: vec![
            "Below the knee the in-core line is the larger one, above it the out-of-core \
             line."
                .into(),
            "At the knee the two lines meet: <i>a</i><sub>1</sub><i>r</i> = \
             <i>a</i><sub>2</sub><i>r</i> + <i>b</i><sub>2</sub>."
                .into(),
        ],
        solution: vec![format!(
            "<i>r</i> = <i>b</i><sub>2</sub>/(<i>a</i><sub>1</sub> − <i>a</i><sub>2</sub>) = \
             {}/({} − {}) = {}.",
            figure(b2),
            figure(a1),
            figure(a2),
            with_unit(fit.r.value, "MB")
        )],
        request: tagged::<Fit<C>>(&json!({
            "computation": {"csv": format!("size_MB,time_s\n{csv}")},
            "shape": "two-level",
        })),
    })
}

/// A run of M2 measured a few per cent slower than the model predicts,
/// and its relative error `(C^R − C^T)/C^T`.
fn relative_error<C: Registry>(d: &mut Draw) -> Result<Posed, Error> {
    let load = d.pick(&[500.0, 1000.0, 2000.0, 5000.0]);
    let count = d.pick(&[4_u32, 8, 16, 30]);
    let slower = d.pick(&[0.04, 0.07, 0.09, 0.12, 0.15]);
    let base = json!({
        "load": load,
        "machines": [{"startup": 10.0, "rate": 0.01, "compute": 1.0, "count": count}],
    });
    let request = Tagged {
        model: "linear".into(),
        fields: base.as_object().cloned().unwrap_or_default(),
    };
    let (predicted, _) = checked::<C>(&request, 1.0)?;
    let model = rounded(predicted, 2);
    let measured = rounded(model * (1.0 + slower), 1);
    let error = checked::<C>(&request, measured)?.1 * 100.0;
    Ok(Posed {
        question: format!(
            "M2 predicts a makespan <i>C</i><sup>T</sup> = {model} s for {} MB on {count} \
             workers; the run with its split took <i>C</i><sup>R</sup> = {measured} s. What \
             is the model's relative error, in per cent?",
            figure(load)
        ),
        answer: Answer::Number {
            asked: "relative error".into(),
            value: error,
            unit: "%".into(),
            tolerance: 0.01,
        },
        hints: vec![
            "The relative error is (<i>C</i><sup>R</sup> − <i>C</i><sup>T</sup>) / \
             <i>C</i><sup>T</sup>: positive when the run is slower than predicted."
                .into(),
        ],
        solution: vec![format!(
            "({measured} − {model})/{model} = {}.",
            with_unit(error, "%")
        )],
        request: tagged::<Fit<C>>(&json!({
            "validity": {"request": tagged_linear(&base), "runs": [
                {"name": "measured", "makespan": measured}
            ]},
        })),
    })
}

/// The validity check of one run of `request` measured at `makespan`:
/// the predicted makespan and the relative error.
fn checked<C: Registry>(request: &Tagged, makespan: f64) -> Result<(f64, f64), Error> {
    let run = Run {
        name: Some("measured".into()),
        makespan,
        machines: None,
        set: BTreeMap::new(),
    };
    let validity = Validity {
        request: request.clone(),
        runs: vec![run],
    };
    let checked = check::<C>(&validity, &mut Silent)?;
    let first = checked.runs.first();
    Ok((
        first.map_or(0.0, |r| r.predicted),
        first.map_or(0.0, |r| r.error),
    ))
}

/// M2's request with its tag, as a validity check carries it.
fn tagged_linear(base: &serde_json::Value) -> serde_json::Value {
    let mut base = base.clone();
    if let Some(fields) = base.as_object_mut() {
        fields.insert("model".into(), "linear".into());
    }
    base
}
