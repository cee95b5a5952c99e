//! The loop's steps on hand-made answers of M9, M3 and M2.

use serde_json::{json, Value};

use super::plan::{step, PlanInput, Size};
use super::runs::Made;

fn fit(shape: &str, r: f64, convex: bool) -> Value {
    let level = |b: f64, a: f64| json!({"intercept": b, "slope": a});
    json!({"model": "fit", "report": {
    "computation": [{"shape": shape, "knee": {"r": {"value": r}, "convex": convex}}],
    "requests": {
        "hierarchical": {"model": "hierarchical", "load": 1.0, "processors": [
            {"levels": [level(0.0, 0.002), level(-0.144, 0.02)], "rate": 0.01, "startup": 0.001}]},
        "linear": {"model": "linear", "load": 1.0, "series": true,
            "machines": [{"compute": 0.01, "count": 30, "rate": 0.01, "startup": 0.001}]},
    }}})
}

fn loads(fit: Value) -> Value {
    let input = json!({"request": {"model": "fit", "shape": "auto"}, "fit": fit, "machines": 2,
        "sizes": [0.5, 32.0], "factors": [0.35, 0.7, 1.5, 2.5, 3.5]});
    step("loads", input).unwrap()
}

#[test]
fn each_repetition_of_the_plan_is_every_size_once() {
    let plan = super::plan::plan(&PlanInput {
        size: Size::Default,
        seed: 5,
        rate: None,
    })
    .unwrap();
    let n = plan.sizes.len();
    assert_eq!(plan.compute.len(), 3 * n);
    for rep in plan.compute.chunks(n) {
        let mut sorted = rep.to_vec();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(sorted, plan.sizes);
    }
    assert_ne!(plan.compute[..n], plan.compute[n..2 * n], "not shuffled");
    let bad = step("plan", json!({"size": "tiny", "seed": 1, "rate": -3.0}));
    assert!(bad.unwrap_err().to_string().contains("rate"));
}

#[test]
fn loads_come_from_the_knee_within_the_sizes_and_requests_cover_every_worker() {
    let out = loads(fit("two-level", 8.0, true));
    // 2 × (0.35, 0.7, 1.5) × 8, then 2.5 and 3.5 × 8 capped at 32/1.7 per worker.
    let top = (2.0 * 32.0 / 1.7 * 1000.0_f64).round() / 1000.0;
    assert_eq!(out["loads"], json!([5.6, 11.2, 24.0, top]));
    assert_eq!(out["knee"], json!(8.0));
    assert_eq!(
        out["hierarchical"]["processors"].as_array().unwrap().len(),
        2
    );
    assert_eq!(out["linear"]["machines"][0]["count"], json!(2));
    assert!(out["refit"].is_null());
}

#[test]
fn a_knee_whose_second_level_is_not_slower_asks_for_one_line() {
    let out = loads(fit("two-level", 8.0, false));
    assert_eq!(out["refit"]["shape"], json!("line"));
    assert_eq!(out["loads"], json!([]));
    // One line: loads around the middle of the sizes (their geometric mean, 4 MB).
    let out = loads(fit("line", 0.0, true));
    assert!(out["knee"].is_null());
    assert_eq!(out["loads"][0], json!(2.8));
}

fn answer(sizes: &[(u64, f64)], makespan: f64) -> Value {
    let chunks: Vec<Value> = sizes
        .iter()
        .map(|&(k, s)| json!({"machine": k, "size": s}))
        .collect();
    json!({"model": "x", "report": {"schedule": {"chunks": chunks, "makespan": makespan}}})
}

#[test]
fn runs_rotate_the_splits_and_refuse_a_chunk_for_no_worker() {
    let solved = |load: f64| {
        json!({"load": load, "hierarchical": answer(&[(0, 0.6 * load), (1, 0.4 * load)], 1.0),
               "linear": answer(&[(1, 0.5 * load), (0, 0.5 * load)], 2.0)})
    };
    let input = json!({"machines": 2, "run_repeat": 2, "solved": [solved(10.0), solved(20.0)]});
    let runs = step("runs", input).unwrap();
    let splits: Vec<&str> = runs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["split"].as_str().unwrap())
        .collect();
    assert_eq!(runs.as_array().unwrap().len(), 12);
    assert_eq!(splits[..3], ["hierarchical", "linear", "equal"]);
    assert_eq!(splits[3..6], ["linear", "equal", "hierarchical"]);
    assert_eq!(splits[6..9], ["linear", "equal", "hierarchical"]);
    assert_eq!(runs[0]["chunks"], json!([[0, 6.0], [1, 4.0]]));
    assert_eq!(runs[2]["chunks"], json!([[0, 5.0], [1, 5.0]]));
    assert_eq!(runs[0]["name"], json!("V10-1"));
    let bad = json!({"machines": 1, "run_repeat": 1, "solved": [solved(10.0)]});
    assert!(step("runs", bad).is_err());
}

fn made(split: &str, name: &str, load: f64, makespan: f64) -> Made {
    Made {
        name: name.into(),
        split: split.into(),
        load,
        makespan,
        chunks: vec![
            (0, load / 2.0, makespan * 0.9),
            (1, load / 2.0, makespan * 0.9),
        ],
    }
}

fn checked(runs: &[(&str, f64, f64)], levels: Value) -> Value {
    let list: Vec<Value> = runs
        .iter()
        .map(|&(n, measured, predicted)| {
            json!({"name": n, "measured": measured, "predicted": predicted,
                   "error": (measured - predicted) / predicted})
        })
        .collect();
    let mean = list
        .iter()
        .map(|r| r["error"].as_f64().unwrap().abs())
        .sum::<f64>()
        / list.len() as f64;
    json!({"report": {"validity": {"runs": list, "mean_abs_error": mean},
        "requests": {"hierarchical": {"processors": [{"levels": levels, "rate": 0.01, "startup": 0.0}]}}}})
}

#[test]
fn the_summary_puts_each_load_s_splits_side_by_side_and_compares_past_the_knee() {
    let runs = vec![
        made("hierarchical", "V4-1", 4.0, 0.1),
        made("linear", "V4-1", 4.0, 0.12),
        made("equal", "V4-1", 4.0, 0.1),
        made("hierarchical", "V40-1", 40.0, 1.0),
        made("linear", "V40-1", 40.0, 1.2),
        made("equal", "V40-1", 40.0, 1.1),
    ];
    let levels = json!([{"intercept": 0.0, "slope": 0.02}]);
    let m3 = checked(&[("V4-1", 0.1, 0.1), ("V40-1", 1.0, 0.8)], levels.clone());
    let m2 = checked(&[("V4-1", 0.12, 0.1), ("V40-1", 1.2, 1.0)], levels);
    let input = json!({"machines": 2, "knee": 8.0, "hierarchical": m3, "linear": m2,
        "runs": runs, "timer": 1e-4});
    let s = step("summary", input).unwrap();
    assert_eq!(s["rows"].as_array().unwrap().len(), 2);
    assert_eq!(s["rows"][0]["past_knee"], json!(false));
    assert_eq!(s["rows"][1]["past_knee"], json!(true));
    assert!((s["equal_over_m3_past"].as_f64().unwrap() - 1.1).abs() < 1e-12);
    assert!((s["m3_error_past"].as_f64().unwrap() - 0.25).abs() < 1e-12);
    // Every chunk took 0.9 of its run's makespan, fitted 0.02 s/MB: 90 × makespan / load,
    // 2.25, 2.7, 2.25 at 4 MB and 2.25, 2.7, 2.475 at 40 MB.
    assert!((s["alone"]["ratio"].as_f64().unwrap() - 2.4375).abs() < 1e-12);
    let reading = s["reading"].as_array().unwrap();
    assert!(reading
        .iter()
        .any(|p| p.as_str().unwrap().contains("1.100 times")));
    assert!(reading
        .iter()
        .any(|p| p.as_str().unwrap().contains("clock ticks")));
    assert!(s["csv"]
        .as_str()
        .unwrap()
        .starts_with("run,load_MB,past_knee"));
    assert!(step("summary", json!({})).is_err());
}

#[test]
fn an_unknown_step_is_named() {
    let e = step("fly", json!({})).unwrap_err();
    assert!(e.to_string().contains("\"fly\""), "{e}");
}
