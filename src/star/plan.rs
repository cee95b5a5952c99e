//! The loop of the experiment, as the real-run harness's `loop` runs it
//! (`docs/real-run.md`), in steps the page's originator calls between its
//! measurements: the sizes to calibrate, the calibration's tables and M9
//! requests, the loads chosen from the fitted knee, the runs to make, the
//! runs check's requests, and the summary with its reading in words.
//!
//! Every step is JSON in, JSON out ([`step`]), so the page only moves data
//! between the workers, the clock and these functions.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::core::domain::error::{Error, Invalid};
use crate::core::presentation::draw::Draw;

pub use super::reading::finish;
pub use super::summary::{summary, Summary};

/// The experiment's size: the default (about a minute on two cores) or the
/// tiny one of the tests (seconds; its numbers mean nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Size {
    /// Chunks of 0.5 to 32 MB, three repetitions.
    Default,
    /// Chunks of 0.2 to 2.4 MB, two repetitions: the pipeline, not the machine.
    Tiny,
}

/// What the originator asks for to start.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanInput {
    /// The experiment's size.
    pub size: Size,
    /// The seed of the shuffles (and of the chunks).
    pub seed: u64,
    /// The emulated link rate, MB/s (default: the size's).
    #[serde(default)]
    pub rate: Option<f64>,
}

/// The calibration's measurements in the order to make them, and the runs'
/// settings.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Plan {
    /// The emulated link rate, MB/s.
    pub rate: f64,
    /// Message sizes of the link's calibration, MB, in measuring order.
    pub link: Vec<f64>,
    /// Chunk sizes of the computing calibration, MB, in measuring order.
    pub compute: Vec<f64>,
    /// The distinct computing sizes, ascending.
    pub sizes: Vec<f64>,
    /// How many times each split of each load is run.
    pub run_repeat: usize,
    /// The per-worker loads, as multiples of the fitted knee.
    pub factors: Vec<f64>,
}

/// The fastest emulated link accepted, MB/s: beyond it the pacing is below
/// a browser timer's resolution for every size measured.
pub const MAX_RATE: f64 = 100_000.0;

/// The plan of an experiment: each repetition of the sizes shuffled on its
/// own, so that a drift of the machine does not become a trend in size.
pub fn plan(input: &PlanInput) -> Result<Plan, Error> {
    let (link, sizes, repeat, run_repeat, rate) = match input.size {
        Size::Default => (
            vec![0.1, 0.5, 1.0, 2.0, 4.0, 8.0],
            vec![
                0.5, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0, 32.0,
            ],
            3,
            2,
            100.0,
        ),
        Size::Tiny => (
            vec![0.05, 0.2, 0.5],
            vec![0.2, 0.3, 0.5, 0.8, 1.2, 1.6, 2.4],
            2,
            1,
            200.0,
        ),
    };
    let rate = input.rate.unwrap_or(rate);
    if !(rate.is_finite() && rate > 0.0 && rate <= MAX_RATE) {
        return Err(Error::field(
            "rate",
            Invalid::OutOfBounds {
                value: rate,
                low: 0.0,
                high: MAX_RATE,
            },
        ));
    }
    let mut draw = Draw::new(input.seed);
    Ok(Plan {
        rate,
        link: shuffled(&link, repeat, &mut draw),
        compute: shuffled(&sizes, repeat, &mut draw),
        sizes,
        run_repeat,
        factors: vec![0.35, 0.7, 1.5, 2.5, 3.5],
    })
}

/// `repeat` copies of `sizes`, each in its own random order.
fn shuffled(sizes: &[f64], repeat: usize, draw: &mut Draw) -> Vec<f64> {
    let mut all = Vec::with_capacity(sizes.len() * repeat);
    for _ in 0..repeat {
        let mut one = sizes.to_vec();
        for i in (1..one.len()).rev() {
            one.swap(i, draw.below(i + 1));
        }
        all.extend(one);
    }
    all
}

/// The calibration as measured: `[size_MB, time_s]` rows.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Calibrated {
    /// The emulated link rate, MB/s.
    pub rate: f64,
    /// Transfers: from a send's start to the worker's acknowledgement.
    pub link: Vec<[f64; 2]>,
    /// One worker computing alone.
    pub alone: Vec<[f64; 2]>,
    /// Every worker computing at once (each worker's rows), if measured.
    #[serde(default)]
    pub together: Vec<[f64; 2]>,
}

/// The tables `dlt fit` reads, and the fit requests of the calibrations.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FitRequests {
    /// `link.csv`, `compute-alone.csv` and (when measured) `compute-together.csv`.
    pub tables: Vec<(String, String)>,
    /// M9's request for the one-worker calibration.
    pub alone: Value,
    /// M9's request for the all-workers calibration, if measured.
    pub together: Option<Value>,
}

/// A table of `size_MB,time_s` with its comments.
fn table(comments: &[String], rows: &[[f64; 2]]) -> String {
    let mut text: String = comments.iter().map(|c| format!("# {c}\n")).collect();
    text.push_str("size_MB,time_s\n");
    for [size, time] in rows {
        text.push_str(&format!("{size},{time}\n"));
    }
    text
}

/// The emulated link, as every table says it.
fn link_comment(rate: f64) -> String {
    format!(
        "link: emulated, paced by the page's originator at {rate} MB/s (a message of n MB \
         leaves n/{rate} s after its send began), between Web Workers of one browser"
    )
}

/// M9's request for a computing table and the link's, as the loop fits
/// them: two levels when BIC prefers them, the noise model chosen by BIC.
fn fit_request(link: &str, compute: &str) -> Value {
    json!({
        "model": "fit",
        "transfers": {"csv": link},
        "computation": {"csv": compute},
        "shape": "auto",
        "noise": "auto",
    })
}

/// The calibration's tables and fit requests.
pub fn fit_requests(c: &Calibrated) -> Result<FitRequests, Error> {
    for (name, rows) in [("link", &c.link), ("alone", &c.alone)] {
        if rows.len() < 3 {
            return Err(Error::field(
                name,
                Invalid::Text(format!(
                    "too few measurements to fit ({} rows; at least 3)",
                    rows.len()
                )),
            ));
        }
    }
    let chase = "work: a pointer chase over the chunk (each 4-byte entry the index of the \
                 next), in the page's WebAssembly"
        .to_string();
    let link = table(
        &[
            link_comment(c.rate),
            "time: from the send's start to the worker's acknowledgement".into(),
        ],
        &c.link,
    );
    let alone = table(
        &[
            chase.clone(),
            "time: the chase on one worker, the others idle".into(),
        ],
        &c.alone,
    );
    let mut tables = vec![
        ("link.csv".to_string(), link.clone()),
        ("compute-alone.csv".to_string(), alone.clone()),
    ];
    let together = (!c.together.is_empty()).then(|| {
        let text = table(
            &[
                chase,
                "time: the chase on each worker, every worker computing at once".into(),
            ],
            &c.together,
        );
        tables.push(("compute-together.csv".to_string(), text.clone()));
        fit_request(&link, &text)
    });
    Ok(FitRequests {
        tables,
        alone: fit_request(&link, &alone),
        together,
    })
}

/// What the loads step reads: the fit's answer and the experiment.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadsInput {
    /// M9's request that gave `fit`.
    pub request: Value,
    /// M9's answer.
    pub fit: Value,
    /// The number of workers.
    pub machines: usize,
    /// The computing sizes measured, MB.
    pub sizes: Vec<f64>,
    /// The per-worker loads as multiples of the knee.
    pub factors: Vec<f64>,
}

/// The loads to run and the requests that predict them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Loads {
    /// The fit's request again with one line, when its two levels were not
    /// convex (no slower level past the knee): the page fits again.
    pub refit: Option<Value>,
    /// The fitted knee `r`, MB (none when one line was kept).
    pub knee: Option<f64>,
    /// The total loads, MB.
    pub loads: Vec<f64>,
    /// M3's request (`hierarchical`) for `machines` workers alike.
    pub hierarchical: Value,
    /// M2's request (`linear`) for `machines` workers alike.
    pub linear: Value,
}

/// The knee of the computing fit when it kept two levels, and whether its
/// second level is slower (convex): `(knee, convex)`.
fn knee_of(fit: &Value) -> (Option<f64>, bool) {
    let entries = fit["report"]["computation"].as_array();
    for entry in entries.into_iter().flatten() {
        if entry["shape"] == "two-level" {
            let knee = &entry["knee"];
            return (knee["r"]["value"].as_f64(), knee["convex"] == true);
        }
    }
    (None, true)
}

/// The loads from the fitted knee (as the harness's loop): per worker 0.35 and
/// 0.7 times `r` and 1.5, 2.5, 3.5 times it, within the measured sizes (the
/// first worker gets up to about 1.7 times the mean).
pub fn loads(input: &LoadsInput) -> Result<Loads, Error> {
    let (knee, convex) = knee_of(&input.fit);
    if !convex {
        let mut refit = input.request.clone();
        refit["shape"] = json!("line");
        return Ok(Loads {
            refit: Some(refit),
            knee,
            loads: Vec::new(),
            hierarchical: Value::Null,
            linear: Value::Null,
        });
    }
    let (low, high) = input
        .sizes
        .iter()
        .fold((f64::INFINITY, 0.0f64), |(l, h), &s| (l.min(s), h.max(s)));
    if input.machines == 0 || !(low > 0.0 && high > low) {
        return Err(Error::Malformed(
            "the loads need at least one worker and two measured sizes".into(),
        ));
    }
    let within = knee.filter(|&r| low < r && r < high);
    let centre = within.unwrap_or((low * high).sqrt());
    let top = high / 1.7;
    let m = input.machines as f64;
    let mut loads: Vec<f64> = input
        .factors
        .iter()
        .map(|f| (m * (f * centre).min(top) * 1000.0).round() / 1000.0)
        .collect();
    loads.sort_by(f64::total_cmp);
    loads.dedup();
    let (hierarchical, linear) = requests_of(&input.fit, input.machines)?;
    Ok(Loads {
        refit: None,
        knee,
        loads,
        hierarchical,
        linear,
    })
}

/// M3's and M2's requests the fit filled, for `machines` workers alike.
fn requests_of(fit: &Value, machines: usize) -> Result<(Value, Value), Error> {
    let requests = &fit["report"]["requests"];
    let (m3, m2) = (&requests["hierarchical"], &requests["linear"]);
    let processor = &m3["processors"][0];
    let machine = &m2["machines"][0];
    if processor.is_null() || machine.is_null() {
        return Err(Error::Malformed(
            "the fit filled no hierarchical or linear request".into(),
        ));
    }
    let mut m3 = m3.clone();
    m3["processors"] = json!(vec![processor.clone(); machines]);
    m3["model"] = json!("hierarchical");
    let mut one = machine.clone();
    one["count"] = json!(machines);
    let m2 = json!({"model": "linear", "load": m2["load"], "machines": [one]});
    Ok((m3, m2))
}

/// The step `name` of the loop on `input`: `plan`, `fit-requests`,
/// `loads`, `runs`, `checks` or `summary`.
pub fn step(name: &str, input: Value) -> Result<Value, Error> {
    fn read<T: serde::de::DeserializeOwned>(input: Value) -> Result<T, Error> {
        serde_json::from_value(input).map_err(|e| Error::Malformed(e.to_string()))
    }
    fn write<T: Serialize>(value: &T) -> Result<Value, Error> {
        serde_json::to_value(value).map_err(|e| Error::Malformed(e.to_string()))
    }
    match name {
        "plan" => write(&plan(&read(input)?)?),
        "fit-requests" => write(&fit_requests(&read(input)?)?),
        "loads" => write(&loads(&read(input)?)?),
        "runs" => write(&super::runs::runs(&read(input)?)?),
        "checks" => write(&super::runs::checks(&read(input)?)?),
        "summary" => write(&finish(&read(input)?)?),
        other => Err(Error::Malformed(format!(
            "no step of the experiment is named {other:?}"
        ))),
    }
}
