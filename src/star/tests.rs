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

/// M9, M3 or M2's answer to `request`, as the page gets it.
fn solve(request: &Value) -> Value {
    let request = crate::api::Request::from_value(request.clone()).unwrap();
    let response = crate::api::run(&request, &mut crate::core::solving::progress::Silent).unwrap();
    response.for_page()
}

/// A machine with a knee at 8 MB: 2 ms/MB in cache, 20 ms/MB past it.
fn machine(size: f64) -> f64 {
    (0.002 * size).max(0.02 * size - 0.144)
}

/// The whole loop through the real M9, M3 and M2, on a machine that computes
/// exactly as its two levels say and a link of 100 MB/s: the knee is found,
/// every run of M3's split is predicted within a hair, and M3's split beats
/// the equal one past the knee.
#[test]
fn the_loop_finds_the_knee_of_an_exact_machine_and_predicts_its_runs() {
    let plan = step("plan", json!({"size": "default", "seed": 3})).unwrap();
    let rows = |key: &str, time: &dyn Fn(f64) -> f64| -> Vec<Value> {
        plan[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| json!([s, time(s.as_f64().unwrap())]))
            .collect()
    };
    let link = rows("link", &|s| 0.0002 + s / 100.0);
    let alone = rows("compute", &|s| machine(s) * 1.0001);
    let input = json!({"rate": 100.0, "link": link, "alone": alone});
    let requests = step("fit-requests", input).unwrap();
    let fit = solve(&requests["alone"]);
    let input = json!({"request": requests["alone"], "fit": fit, "machines": 2,
        "sizes": plan["sizes"], "factors": plan["factors"]});
    let loads = step("loads", input).unwrap();
    let knee = loads["knee"].as_f64().unwrap();
    assert!((knee - 8.0).abs() < 0.05, "knee {knee}");
    let solved: Vec<Value> = loads["loads"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let at = |name: &str| {
                let mut r = loads[name].clone();
                r["load"] = v.clone();
                solve(&r)
            };
            json!({"load": v, "hierarchical": at("hierarchical"), "linear": at("linear")})
        })
        .collect();
    let input = json!({"machines": 2, "run_repeat": 1, "solved": solved});
    let planned = step("runs", input).unwrap();
    let made: Vec<Value> = planned
        .as_array()
        .unwrap()
        .iter()
        .map(run_exactly)
        .collect();
    let input = json!({"fit": requests["alone"], "hierarchical": loads["hierarchical"],
        "linear": loads["linear"], "runs": made});
    let checks = step("checks", input).unwrap();
    let input = json!({"machines": 2, "knee": knee, "hierarchical": solve(&checks["hierarchical"]),
        "linear": solve(&checks["linear"]), "runs": made, "timer": 1e-6});
    let s = step("summary", input).unwrap();
    assert!(s["m3_error"].as_f64().unwrap() < 0.01, "{}", s["m3_error"]);
    assert!(s["m2_error_past"].as_f64().unwrap() > s["m3_error_past"].as_f64().unwrap());
    assert!(s["equal_over_m3_past"].as_f64().unwrap() > 1.0);
    assert_eq!(s["exercises"].as_array().unwrap().len(), 2);
}

/// A run on the exact machine and link: chunks sent one after another,
/// each computed once it has arrived.
fn run_exactly(planned: &Value) -> Value {
    let mut clock = 0.0;
    let mut makespan = 0.0f64;
    let mut chunks = Vec::new();
    for c in planned["chunks"].as_array().unwrap() {
        let (k, size) = (c[0].as_u64().unwrap(), c[1].as_f64().unwrap());
        clock += 0.0002 + size / 100.0;
        makespan = makespan.max(clock + machine(size));
        chunks.push(json!([k, size, machine(size)]));
    }
    json!({"name": planned["name"], "split": planned["split"], "load": planned["load"],
        "makespan": makespan, "chunks": chunks})
}
