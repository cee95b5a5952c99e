//! The validity check (`[004]` §2): measured runs against the models'
//! predictions. The predictions it reads from the schedules' charts are
//! compared with each model's own reported makespan, solved apart through
//! the public entry point with the run's numbers written into the JSON.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use dlt_calc::api::{run, Request};
use dlt_calc::core::presentation::map::Tagged;
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::models::fit::{check, Checked, Run, Validity};
use dlt_calc::registry::Models;
use dlt_calc::Error;
use serde_json::{json, Value};

/// A built-in request, as JSON with its tag.
fn preset(name: &str) -> Value {
    Request::example(name).expect("a preset").to_json()
}

/// `json` with its fields `changes` overwritten.
fn with(json: &Value, changes: &[(&str, Value)]) -> Value {
    let mut json = json.clone();
    for (field, value) in changes {
        json[*field] = value.clone();
    }
    json
}

/// The model's own makespan and the finish time of each machine that
/// computes, read from its report and its chart through the public API.
fn solved(json: &Value) -> (f64, Vec<f64>) {
    let request = Request::from_value(json.clone()).expect("a request");
    let response = run(&request, &mut Silent).expect("solves");
    let makespan = response.get("report").and_then(|r| r["makespan"].as_f64());
    let gantt = response.gantt().expect("a schedule");
    let finish = gantt
        .rows
        .iter()
        .map(|row| {
            let computing = row.bars.iter().filter(|b| b.activity.kind == "compute");
            computing.map(|b| b.end).fold(0.0, f64::max)
        })
        .collect();
    (makespan.expect("a makespan in the report"), finish)
}

/// A run with only its makespan measured.
fn measured(makespan: f64) -> Run {
    Run {
        name: None,
        makespan,
        machines: None,
        set: BTreeMap::new(),
    }
}

/// The check of `runs` against the request `json`.
fn checked(json: &Value, runs: Vec<Run>) -> Result<Checked, Error> {
    let request: Tagged = serde_json::from_value(json.clone()).expect("tagged");
    check::<Models>(&Validity { request, runs }, &mut Silent)
}

fn near(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * b.abs().max(1e-300)
}

#[test]
fn a_run_as_predicted_has_no_error_and_ten_percent_more_has_ten() {
    let json = preset("linear");
    let (makespan, _) = solved(&json);
    let result = checked(&json, vec![measured(makespan), measured(1.1 * makespan)]).expect("ok");
    assert!(near(result.runs[0].predicted, makespan, 1e-12));
    assert!(
        result.runs[0].error.abs() < 1e-12,
        "{}",
        result.runs[0].error
    );
    assert!(
        near(result.runs[1].error, 0.10, 1e-9),
        "{}",
        result.runs[1].error
    );
    assert!(near(result.mean_abs_error, 0.05, 1e-9));
    assert!(near(result.max_abs_error, 0.10, 1e-9));
    assert_eq!(result.runs[1].name, "2");
    assert!(result.machine_mean_abs_error.is_none());
}

#[test]
fn a_run_below_the_prediction_has_a_negative_error() {
    let json = preset("hierarchical");
    let (makespan, _) = solved(&json);
    assert!(near(makespan, 5.75, 1e-12)); // [003]'s worked example
    let result = checked(&json, vec![measured(0.9 * makespan)]).expect("ok");
    assert!(near(result.runs[0].error, -0.10, 1e-9));
    assert!(near(result.mean_abs_error, 0.10, 1e-9));
}

#[test]
fn per_machine_errors_are_each_machines_own() {
    let json = preset("linear");
    let (makespan, finish) = solved(&json);
    assert!(finish.len() >= 2, "{finish:?}");
    let off: Vec<f64> = (0..finish.len()).map(|k| 0.02 * k as f64 - 0.01).collect();
    let times: Vec<f64> = finish
        .iter()
        .zip(&off)
        .map(|(t, e)| t * (1.0 + e))
        .collect();
    let run = Run {
        machines: Some(times),
        ..measured(makespan)
    };
    let result = checked(&json, vec![run]).expect("ok");
    let machines = &result.runs[0].machines;
    assert_eq!(machines.len(), finish.len());
    for (k, m) in machines.iter().enumerate() {
        assert_eq!(m.machine, format!("P{}", k + 1));
        assert!(near(m.predicted, finish[k], 1e-12), "{m:?}");
        assert!((m.error - off[k]).abs() < 1e-9, "{m:?} vs {}", off[k]);
    }
    let largest = off.iter().map(|e| e.abs()).fold(0.0, f64::max);
    let mean = off.iter().map(|e| e.abs()).sum::<f64>() / off.len() as f64;
    assert!((result.machine_max_abs_error.expect("measured") - largest).abs() < 1e-9);
    assert!((result.machine_mean_abs_error.expect("measured") - mean).abs() < 1e-9);
}

#[test]
fn runs_of_other_loads_are_predicted_at_their_loads() {
    loads_are_predicted_at_their_loads("linear");
    // M3 is not mapped, but its load is set by name all the same (the
    // measured sort preset's runs at five loads against one request).
    loads_are_predicted_at_their_loads("hierarchical");
}

/// Runs of `model`'s preset at three loads, each predicted at its own.
fn loads_are_predicted_at_their_loads(model: &str) {
    let json = preset(model);
    let loads = [500.0, 2000.0, 8000.0];
    let errors = [0.05, -0.03, 0.12];
    let mut runs = Vec::new();
    let mut expected = Vec::new();
    for (load, error) in loads.iter().zip(errors) {
        let (makespan, _) = solved(&with(&json, &[("load", json!(load))]));
        expected.push(makespan);
        runs.push(Run {
            name: Some(format!("V = {load} units")),
            set: BTreeMap::from([("load".to_string(), *load)]),
            ..measured(makespan * (1.0 + error))
        });
    }
    let result = checked(&json, runs).expect("ok");
    for (k, run) in result.runs.iter().enumerate() {
        assert!(near(run.predicted, expected[k], 1e-12), "{run:?}");
        assert!((run.error - errors[k]).abs() < 1e-9, "{run:?}");
        assert_eq!(run.set["load"], loads[k]);
    }
    // Different loads, different predictions: the change was applied.
    assert!(
        expected[0] < expected[1] && expected[1] < expected[2],
        "{expected:?}"
    );
    assert!(near(
        result.mean_abs_error,
        (0.05 + 0.03 + 0.12) / 3.0,
        1e-9
    ));
    assert!(near(result.max_abs_error, 0.12, 1e-9));
}

/// A small request of the start-up model: few chunks, so it solves fast.
fn small_startup() -> Value {
    with(
        &preset("startup"),
        &[("chunks", json!(4)), ("load", json!(20000.0))],
    )
}

#[test]
fn every_model_with_a_schedule_is_checked() {
    let cases = [
        ("linear", preset("linear")),
        ("hierarchical", preset("hierarchical")),
        ("startup", small_startup()),
        ("heterogeneous", preset("heterogeneous")),
    ];
    for (what, json) in cases {
        let (makespan, finish) = solved(&json);
        let run = Run {
            machines: Some(finish.iter().map(|t| t * 0.97).collect()),
            ..measured(makespan * 1.05)
        };
        let result = checked(&json, vec![run]).unwrap_or_else(|e| panic!("{what}: {e}"));
        let r = &result.runs[0];
        assert!(
            near(r.predicted, makespan, 1e-9),
            "{what}: {} vs {makespan}",
            r.predicted
        );
        assert!((r.error - 0.05).abs() < 1e-9, "{what}: {}", r.error);
        assert_eq!(r.machines.len(), finish.len(), "{what}");
        assert!(
            r.machines.iter().all(|m| (m.error + 0.03).abs() < 1e-9),
            "{what}: {r:?}"
        );
    }
}

#[test]
fn the_machine_count_of_a_run_changes_the_prediction() {
    let json = small_startup();
    let (two, _) = solved(&json);
    let (three, _) = solved(&with(&json, &[("machines", json!(3))]));
    let run = Run {
        set: BTreeMap::from([("machines".to_string(), 3.0)]),
        ..measured(three)
    };
    let result = checked(&json, vec![measured(two), run]).expect("ok");
    assert!(near(result.runs[1].predicted, three, 1e-9));
    assert!(result.max_abs_error < 1e-9, "{result:?}");
    assert!(three < two, "{three} !< {two}");
}

/// The error of a check that must fail, as `field: message`.
fn refused(json: &Value, runs: Vec<Run>) -> String {
    match checked(json, runs) {
        Ok(result) => panic!("accepted: {result:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn bad_checks_are_refused_with_their_field() {
    let linear = preset("linear");
    let (makespan, finish) = solved(&linear);
    let set = |name: &str, value: f64| Run {
        set: BTreeMap::from([(name.to_string(), value)]),
        ..measured(makespan)
    };
    let machines = |times: Vec<f64>| Run {
        machines: Some(times),
        ..measured(makespan)
    };
    let count = format!(
        "gives 1 finish times, but the predicted schedule has {} machines",
        finish.len()
    );
    let count_words = ["runs[0].machines", count.as_str(), "P1, P2"];
    let cases: Vec<(&str, Value, Vec<Run>, &[&str])> = vec![
        ("no runs", linear.clone(), vec![], &["runs", "empty"]),
        (
            "zero time",
            linear.clone(),
            vec![measured(makespan), measured(0.0)],
            &["runs[1].makespan", "greater than zero"],
        ),
        (
            "negative time",
            linear.clone(),
            vec![measured(-3.0)],
            &["runs[0].makespan"],
        ),
        (
            "infinite time",
            linear.clone(),
            vec![measured(f64::INFINITY)],
            &["runs[0].makespan", "finite"],
        ),
        (
            "negative machine time",
            linear.clone(),
            vec![machines(vec![-1.0; finish.len()])],
            &["runs[0].machines[0]"],
        ),
        (
            "too few machine times",
            linear.clone(),
            vec![machines(vec![1.0])],
            &count_words,
        ),
        (
            "unknown parameter",
            linear.clone(),
            vec![set("speed", 2.0)],
            &["runs[0].set.speed", "load"],
        ),
        (
            "an invalid change",
            linear.clone(),
            vec![set("load", -5.0)],
            &["runs[0].set", "makes the request invalid", "load"],
        ),
        (
            "a machine row that is not there",
            linear.clone(),
            vec![set("machines[7].rate", 1.0)],
            &["runs[0].set.machines[7].rate"],
        ),
        (
            "an unmapped model varies its load only",
            preset("hierarchical"),
            vec![set("rate", 3.0)],
            &["runs[0].set.rate", "load"],
        ),
        (
            "unknown model",
            json!({"model": "kettle"}),
            vec![measured(1.0)],
            &["request.model", "kettle"],
        ),
        (
            "a model without a schedule",
            preset("metrics"),
            vec![measured(1.0)],
            &["request.model", "no schedule"],
        ),
        (
            "an invalid request",
            with(&linear, &[("load", json!(-1.0))]),
            vec![measured(1.0)],
            &["request.load"],
        ),
    ];
    for (what, json, runs, words) in cases {
        let message = refused(&json, runs);
        for word in words {
            assert!(message.contains(word), "{what}: {message:?} lacks {word:?}");
        }
    }
}

#[test]
fn a_check_reads_and_writes_json() {
    let text = json!({
        "request": preset("hierarchical"),
        "runs": [{"name": "first", "makespan": 6.0, "machines": [5.0, 6.0]}],
    });
    let validity: Validity = serde_json::from_value(text.clone()).expect("reads");
    assert_eq!(serde_json::to_value(&validity).expect("writes"), text);
    let result = check::<Models>(&validity, &mut Silent).expect("ok");
    assert!(near(result.runs[0].error, 6.0 / 5.75 - 1.0, 1e-12));
    let unknown = json!({"request": preset("hierarchical"), "runs": [], "extra": 1});
    assert!(serde_json::from_value::<Validity>(unknown).is_err());
    let typo =
        json!({"request": preset("hierarchical"), "runs": [{"makespan": 1.0, "machine": [1.0]}]});
    assert!(serde_json::from_value::<Validity>(typo).is_err());
}

#[test]
fn runs_are_read_from_a_table() {
    use dlt_calc::models::fit::{runs, Table};
    let json = preset("linear");
    let (small, _) = solved(&with(&json, &[("load", json!(500.0))]));
    let (big, _) = solved(&with(&json, &[("load", json!(2000.0))]));
    let text = format!(
        "run,load_GB,time_ms\nsmall,0.5,{}\nbig,2,{}\n",
        small * 1e3 * 1.02,
        big * 1e3 * 0.99
    );
    let table = Table::from_text(&text).expect("reads");
    let measured = runs(&table).expect("runs");
    assert_eq!(measured.len(), 2);
    assert_eq!(measured[1].set["load"], 2000.0);
    let result = checked(&json, measured).expect("ok");
    assert_eq!(result.runs[0].name, "small");
    assert!((result.runs[0].error - 0.02).abs() < 1e-9, "{result:?}");
    assert!((result.runs[1].error + 0.01).abs() < 1e-9, "{result:?}");

    // One row per machine: the makespan is the latest, unless a row of `all` gives it.
    let json = preset("hierarchical");
    let (makespan, finish) = solved(&json);
    let text = format!(
        "run,machine,time_s\nr1,P1,{}\nr2,P1,{}\nr1,P2,{}\nr2,all,{}\nr2,P2,{}\n",
        finish[0] * 1.1,
        finish[0],
        finish[1] * 1.1,
        makespan * 1.2,
        finish[1]
    );
    let runs = runs(&Table::from_text(&text).expect("reads")).expect("runs");
    let result = checked(&json, runs).expect("ok");
    let r1 = &result.runs[0];
    assert_eq!(r1.name, "r1");
    assert!(
        (r1.measured - finish[0].max(finish[1]) * 1.1).abs() < 1e-9,
        "{r1:?}"
    );
    assert!(
        r1.machines.iter().all(|m| (m.error - 0.1).abs() < 1e-9),
        "{r1:?}"
    );
    assert!((result.runs[1].error - 0.2).abs() < 1e-9, "{result:?}");
    assert!(result.runs[1].machines.iter().all(|m| m.error.abs() < 1e-9));
}

#[test]
fn a_table_of_runs_that_does_not_add_up_is_refused_with_its_row() {
    use dlt_calc::models::fit::{runs, Table};
    let cases: [(&str, &[&str]); 4] = [
        ("size_MB,time_s\n1,2\n", &["`run` is missing", "validity"]),
        ("run,size_MB\na,2\n", &["`time` is missing", "time_s"]),
        (
            "run,machine,load_MB,time_s\na,P1,1,2\nb,P1,1,2\na,P2,3,2\n",
            &["row 4", "`load_MB`", "`a`", "1 MB", "3 MB"],
        ),
        ("run,time_s\na,1\na,2\n", &["row 3", "`a`", "one row"]),
    ];
    for (text, words) in cases {
        let table = Table::from_text(text).expect("reads");
        let message = runs(&table).expect_err(text).to_string();
        for word in words {
            assert!(message.contains(word), "{text}: {message:?} lacks {word:?}");
        }
    }
}

#[test]
fn a_schedule_too_large_to_draw_still_has_its_makespan() {
    let machine = json!({"compute": 1.0, "count": 3000, "rate": 1e-6, "startup": 1e-3});
    let json = with(
        &preset("linear"),
        &[
            ("machines", json!([machine])),
            ("load", json!(1e7)),
            ("series", json!(false)),
        ],
    );
    json.get("power")
        .expect("the preset has powers, which stay");
    let request = Request::from_value(json.clone()).expect("a request");
    let response = run(&request, &mut Silent).expect("solves");
    assert!(response.gantt().is_none(), "drawn: pick more machines");
    let makespan = response.get("report").and_then(|r| r["makespan"].as_f64());
    let makespan = makespan.expect("a makespan");
    let result = checked(&json, vec![measured(makespan * 1.04)]).expect("ok");
    assert!(near(result.runs[0].predicted, makespan, 1e-9));
    assert!((result.runs[0].error - 0.04).abs() < 1e-9);
    let per_machine = Run {
        machines: Some(vec![1.0; 3000]),
        ..measured(makespan)
    };
    let message = refused(&json, vec![per_machine]);
    assert!(
        message.contains("runs[0].machines") && message.contains("too large to draw"),
        "{message}"
    );
}

#[test]
fn a_long_list_of_predicted_machines_is_shortened() {
    use dlt_calc::models::fit::ValidityProblem;
    let predicted: Vec<String> = (1..=10).map(|k| format!("P{k}")).collect();
    let problem = ValidityProblem::MachineCount {
        given: 1,
        predicted,
    };
    assert_eq!(
        problem.to_string(),
        "gives 1 finish times, but the predicted schedule has 10 machines (P1, P2, P3, …, P10)"
    );
}

#[test]
fn the_check_names_no_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/models/fit/validity.rs");
    let text = std::fs::read_to_string(path).expect("the source is there");
    let all = dlt_calc::registry::all();
    let ids: Vec<&str> = all
        .flat_map(|e| [Some(e.id().name), e.id().former.tag])
        .flatten()
        .collect();
    assert!(ids.contains(&"linear"), "{ids:?}");
    for id in ids {
        for quoted in ['"', '\'', '`'].map(|q| format!("{q}{id}{q}")) {
            assert!(!text.contains(&quoted), "validity.rs names {quoted}");
        }
        assert!(
            !text.contains(&format!("models::{id}")),
            "validity.rs uses models::{id}"
        );
    }
}
