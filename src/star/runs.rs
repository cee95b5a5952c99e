//! The runs of the experiment: each load's M3 split, M2 split and equal
//! split, in an order that rotates between loads, and the runs check's
//! requests (M9's validity check of each model against its own runs).

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::core::domain::error::Error;

/// The splits run, in the names the page and the tables use.
pub const SPLITS: [&str; 3] = ["hierarchical", "linear", "equal"];

/// One load with M3's and M2's answers for it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Solved {
    /// The total load, MB.
    pub load: f64,
    /// M3's answer at this load.
    pub hierarchical: Value,
    /// M2's answer at this load.
    pub linear: Value,
}

/// What the runs step reads.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunsInput {
    /// The number of workers.
    pub machines: usize,
    /// How many times each split of each load runs.
    pub run_repeat: usize,
    /// The loads solved.
    pub solved: Vec<Solved>,
}

/// One run to make: chunks to send in this order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Planned {
    /// The run's name (`V12.5-1`), as the runs tables name it.
    pub name: String,
    /// `hierarchical`, `linear` or `equal`.
    pub split: String,
    /// The total load, MB.
    pub load: f64,
    /// The repetition, from 1.
    pub rep: usize,
    /// `[worker (0-based), size MB]` in the order sent.
    pub chunks: Vec<(usize, f64)>,
    /// The model's predicted makespan, s (none for the equal split).
    pub predicted: Option<f64>,
}

/// The chunks of a solved request's schedule in the order sent, and its
/// makespan.
fn chunks_of(answer: &Value, machines: usize) -> Result<(Vec<(usize, f64)>, f64), Error> {
    let schedule = &answer["report"]["schedule"];
    let makespan = schedule["makespan"].as_f64();
    let list = schedule["chunks"].as_array();
    let (Some(makespan), Some(list)) = (makespan, list) else {
        return Err(Error::Malformed(format!(
            "the answer of model {} has no schedule of chunks to run",
            answer["model"]
        )));
    };
    let mut chunks = Vec::new();
    for c in list {
        let machine = c["machine"].as_u64().map(|m| m as usize);
        let size = c["size"].as_f64();
        match (machine, size) {
            (Some(k), Some(s)) if k < machines && s.is_finite() => {
                if s > 0.0 {
                    chunks.push((k, s));
                }
            }
            _ => {
                return Err(Error::Malformed(format!(
                    "a chunk of the schedule is not a worker of {machines} and a size: {c}"
                )))
            }
        }
    }
    Ok((chunks, makespan))
}

/// Every run, each load's splits in an order that rotates between loads and
/// repetitions, so that none always runs first.
pub fn runs(input: &RunsInput) -> Result<Vec<Planned>, Error> {
    let m = input.machines;
    if m == 0 {
        return Err(Error::Malformed("the runs need at least one worker".into()));
    }
    let mut all = Vec::new();
    for (i, solved) in input.solved.iter().enumerate() {
        let m3 = chunks_of(&solved.hierarchical, m)?;
        let m2 = chunks_of(&solved.linear, m)?;
        let equal = (0..m).map(|k| (k, solved.load / m as f64)).collect();
        let plans = [(m3.0, Some(m3.1)), (m2.0, Some(m2.1)), (equal, None)];
        for rep in 1..=input.run_repeat {
            let shift = (i + rep - 1) % SPLITS.len();
            for j in 0..SPLITS.len() {
                let k = (shift + j) % SPLITS.len();
                all.push(Planned {
                    name: format!("V{}-{rep}", solved.load),
                    split: SPLITS[k].into(),
                    load: solved.load,
                    rep,
                    chunks: plans[k].0.clone(),
                    predicted: plans[k].1,
                });
            }
        }
    }
    Ok(all)
}

/// One run as made: its makespan and each worker's finish.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Made {
    /// The run's name.
    pub name: String,
    /// Its split.
    pub split: String,
    /// The total load, MB.
    pub load: f64,
    /// The makespan: the latest end of a chunk's computation, s from the
    /// first send's start.
    pub makespan: f64,
    /// `[worker, size MB, computing s]` of every chunk.
    #[serde(default)]
    pub chunks: Vec<(usize, f64, f64)>,
}

/// What the checks step reads.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChecksInput {
    /// The fit request of the calibration (its tables are fitted again with
    /// the check, so that the Fit tab shows both).
    pub fit: Value,
    /// M3's request, at any load (each run sets its own).
    pub hierarchical: Value,
    /// M2's request, likewise.
    pub linear: Value,
    /// The runs made.
    pub runs: Vec<Made>,
}

/// The runs check of each model, and the runs table of every split.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Checks {
    /// M9's request: the calibration and M3's runs against M3's request.
    pub hierarchical: Value,
    /// The same for M2.
    pub linear: Value,
    /// `split,run,load_MB,time_s` of every run, the equal splits included.
    pub table: String,
    /// Each model's runs as `dlt fit --as runs` reads them
    /// (`runs-hierarchical.csv`, `runs-linear.csv`).
    pub tables: Vec<(String, String)>,
}

/// The runs of `split` as `dlt fit` reads them: `run,load_MB,time_s`.
fn runs_table(runs: &[Made], split: &str) -> String {
    let mut text =
        format!("# makespans of {split}'s split, run on the page's workers\nrun,load_MB,time_s\n");
    for r in runs.iter().filter(|r| r.split == split) {
        text.push_str(&format!("{},{},{}\n", r.name, r.load, r.makespan));
    }
    text
}

/// The fit request with the runs check of one model.
fn check(fit: &Value, request: &Value, runs: &[Made], split: &str) -> Value {
    let mut check = fit.clone();
    check["validity"] = json!({
        "request": request,
        "measured": {"csv": runs_table(runs, split)},
    });
    check
}

/// The checks of M3's and M2's runs, and every run as one table.
pub fn checks(input: &ChecksInput) -> Result<Checks, Error> {
    let mut table = String::from("split,run,load_MB,time_s\n");
    for r in &input.runs {
        table.push_str(&format!(
            "{},{},{},{}\n",
            r.split, r.name, r.load, r.makespan
        ));
    }
    Ok(Checks {
        hierarchical: check(&input.fit, &input.hierarchical, &input.runs, "hierarchical"),
        linear: check(&input.fit, &input.linear, &input.runs, "linear"),
        table,
        tables: ["hierarchical", "linear"]
            .map(|split| (format!("runs-{split}.csv"), runs_table(&input.runs, split)))
            .to_vec(),
    })
}
