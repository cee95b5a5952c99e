//! The experiment's outcome: the table of runs (M3, M2, equal split), the
//! errors M9's runs check found, how well each calibration (one worker
//! alone, every worker at once) predicts the runs' chunks, and a reading
//! of it all in plain words.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::runs::Made;
use crate::core::domain::error::Error;
use crate::core::framework::exercise::Posed;

/// The fits and checks the summary reads.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SummaryInput {
    /// The number of workers.
    pub machines: usize,
    /// The fitted knee, MB per worker (none: one line).
    #[serde(default)]
    pub knee: Option<f64>,
    /// M9's answers with the runs check of M3 and of M2.
    pub hierarchical: Value,
    /// See `hierarchical`.
    pub linear: Value,
    /// M9's answer for every worker computing at once, if measured.
    #[serde(default)]
    pub together: Option<Value>,
    /// Every run made.
    pub runs: Vec<Made>,
    /// The browser's timer resolution, s.
    pub timer: f64,
}

/// One load and repetition: the three splits side by side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// The run's name (`V12.5-1`).
    pub name: String,
    /// The total load, MB.
    pub load: f64,
    /// Whether each worker's mean share is past the knee.
    pub past_knee: bool,
    /// M3's split, MB per worker in the order sent.
    pub m3_split: Vec<f64>,
    /// M3's split: measured, predicted makespan (s), relative error.
    pub m3: Option<[f64; 3]>,
    /// M2's split, likewise.
    pub m2: Option<[f64; 3]>,
    /// The equal split's measured makespan, s.
    pub equal: Option<f64>,
    /// The equal split's makespan over M3's.
    pub equal_over_m3: Option<f64>,
}

/// How well a calibration predicts the computing time of the runs' chunks.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Chunks {
    /// The mean of measured over fitted computing times.
    pub ratio: f64,
    /// The mean |measured − fitted| / fitted.
    pub mean_abs_error: f64,
}

/// The experiment's outcome.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// The rows, by load and repetition.
    pub rows: Vec<Row>,
    /// M3's mean |error| over its runs (M9's runs check).
    pub m3_error: f64,
    /// M2's.
    pub m2_error: f64,
    /// The same past the knee only.
    pub m3_error_past: Option<f64>,
    /// See `m3_error_past`.
    pub m2_error_past: Option<f64>,
    /// The mean of the equal split's makespan over M3's, past the knee.
    pub equal_over_m3_past: Option<f64>,
    /// The fitted computing levels, `[intercept s, slope s/MB]`.
    pub levels: Vec<[f64; 2]>,
    /// The one-worker calibration against the runs' chunks.
    pub alone: Option<Chunks>,
    /// The all-workers calibration against the runs' chunks.
    pub together: Option<Chunks>,
    /// The table of runs as CSV.
    pub csv: String,
    /// The reading in plain words, one paragraph each.
    pub reading: Vec<String>,
    /// Exercises on this experiment's own numbers.
    pub exercises: Vec<Posed>,
}

/// The levels M3 got from a fit: `[intercept, slope]`, in-core first.
fn levels_of(fit: &Value) -> Vec<[f64; 2]> {
    let levels = fit["report"]["requests"]["hierarchical"]["processors"][0]["levels"].as_array();
    levels
        .into_iter()
        .flatten()
        .filter_map(|l| Some([l["intercept"].as_f64()?, l["slope"].as_f64()?]))
        .collect()
}

/// A run's name with its measured and predicted makespans (s) and error.
type Checked = (String, [f64; 3]);

/// `(name, [measured, predicted, error])` of a runs check's answer, and its
/// mean |error|.
fn checked(answer: &Value, model: &str) -> Result<(Vec<Checked>, f64), Error> {
    let validity = &answer["report"]["validity"];
    let mean = validity["mean_abs_error"]
        .as_f64()
        .ok_or_else(|| Error::Malformed(format!("the runs check of {model} gave no mean error")))?;
    let runs = validity["runs"].as_array().into_iter().flatten();
    let rows = runs
        .filter_map(|r| {
            let name = r["name"].as_str()?.to_string();
            Some((
                name,
                [
                    r["measured"].as_f64()?,
                    r["predicted"].as_f64()?,
                    r["error"].as_f64()?,
                ],
            ))
        })
        .collect();
    Ok((rows, mean))
}

/// The mean of some values, none when there are none.
fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (sum, n) = values
        .into_iter()
        .fold((0.0, 0), |(s, n), v| (s + v, n + 1));
    (n > 0).then(|| sum / n as f64)
}

/// The runs' chunks against a calibration's levels.
fn chunks_against(runs: &[Made], levels: &[[f64; 2]]) -> Option<Chunks> {
    let fitted = |size: f64| {
        levels
            .iter()
            .map(|[b, a]| b + a * size)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let pairs: Vec<(f64, f64)> = runs
        .iter()
        .flat_map(|r| r.chunks.iter())
        .map(|&(_, size, time)| (time, fitted(size)))
        .filter(|&(_, f)| f > 0.0)
        .collect();
    Some(Chunks {
        ratio: mean(pairs.iter().map(|(t, f)| t / f))?,
        mean_abs_error: mean(pairs.iter().map(|(t, f)| ((t - f) / f).abs()))?,
    })
}

/// The table's rows: each M3 run beside M2's and the equal split's of the
/// same name.
fn rows(input: &SummaryInput, m3: &[Checked], m2: &[Checked]) -> Vec<Row> {
    let m = input.machines.max(1) as f64;
    let find = |list: &[Checked], name: &str| list.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    let made = |split: &str, name: &str| {
        input
            .runs
            .iter()
            .find(|r| r.split == split && r.name == name)
    };
    let mut rows = Vec::new();
    for run in input.runs.iter().filter(|r| r.split == "hierarchical") {
        let m3 = find(m3, &run.name);
        let equal = made("equal", &run.name).map(|r| r.makespan);
        rows.push(Row {
            name: run.name.clone(),
            load: run.load,
            past_knee: input.knee.is_some_and(|r| run.load / m > r),
            m3_split: run.chunks.iter().map(|c| c.1).collect(),
            m3,
            m2: find(m2, &run.name),
            equal,
            equal_over_m3: equal.zip(m3).map(|(e, m3)| e / m3[0]),
        });
    }
    rows.sort_by(|a, b| a.load.total_cmp(&b.load).then(a.name.cmp(&b.name)));
    rows
}

/// The table of runs as CSV.
fn csv(rows: &[Row]) -> String {
    let mut text = String::from(
        "run,load_MB,past_knee,m3_split_MB,m3_measured_s,m3_predicted_s,m3_error,\
         m2_measured_s,m2_predicted_s,m2_error,equal_s,equal_over_m3\n",
    );
    let cell = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    for r in rows {
        let split: Vec<String> = r.m3_split.iter().map(|s| format!("{s:.3}")).collect();
        let three = |v: Option<[f64; 3]>, i: usize| cell(v.map(|v| v[i]));
        text.push_str(&format!(
            "{},{},{},{},{},{},{},{},{},{},{},{}\n",
            r.name,
            r.load,
            r.past_knee,
            split.join("/"),
            three(r.m3, 0),
            three(r.m3, 1),
            three(r.m3, 2),
            three(r.m2, 0),
            three(r.m2, 1),
            three(r.m2, 2),
            cell(r.equal),
            cell(r.equal_over_m3),
        ));
    }
    text
}

/// The experiment's outcome from its checks and runs, without its
/// reading and exercises ([`super::reading::finish`] adds them).
pub fn summary(input: &SummaryInput) -> Result<Summary, Error> {
    let (m3, m3_error) = checked(&input.hierarchical, "M3")?;
    let (m2, m2_error) = checked(&input.linear, "M2")?;
    let rows = rows(input, &m3, &m2);
    let past =
        |pick: fn(&Row) -> Option<f64>| mean(rows.iter().filter(|r| r.past_knee).filter_map(pick));
    let levels = levels_of(&input.hierarchical);
    let together = input.together.as_ref().map(levels_of);
    let summary = Summary {
        m3_error,
        m2_error,
        m3_error_past: past(|r| r.m3.map(|v| v[2].abs())),
        m2_error_past: past(|r| r.m2.map(|v| v[2].abs())),
        equal_over_m3_past: past(|r| r.equal_over_m3),
        alone: chunks_against(&input.runs, &levels),
        together: together.and_then(|l| chunks_against(&input.runs, &l)),
        levels,
        csv: csv(&rows),
        rows,
        reading: Vec::new(),
        exercises: Vec::new(),
    };
    Ok(summary)
}
