//! The checker of a schedule given by hand (`dlt check --schedule`): each
//! model's own answer, given back, is accepted with no gap; the same
//! chunks without their times are timed as the model would and accepted;
//! a broken one is rejected with the rule, the machine, the chunk and the
//! amounts named; bad input gets a message naming its field.
#![cfg(not(target_arch = "wasm32"))]

mod cli_support;

use dlt_calc::api::{check_schedule, run, Request};
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::registry;
use serde_json::{json, Value};

/// The models whose answers are chunked schedules on a star.
const CHECKED: [&str; 5] = [
    "linear",
    "hierarchical",
    "installments",
    "startup",
    "heterogeneous",
];

/// Model `model`'s default example and the schedule of its answer.
fn example_and_schedule(model: &str) -> (Request, Value) {
    let mut json = Request::example(model)
        .expect("every model has a default example")
        .to_json();
    if model == "installments" {
        // Ten chunks of 10⁸, without the series: a schedule small enough
        // to be in the answer.
        json["chunk"] = json!(1e8);
        json.as_object_mut().unwrap().remove("series");
    }
    let request = Request::from_value(json).unwrap();
    let response = serde_json::to_value(run(&request, &mut Silent).unwrap()).unwrap();
    let schedule = ["/schedule", "/report/schedule"]
        .iter()
        .find_map(|p| response.pointer(p).filter(|s| s.is_object()))
        .unwrap_or_else(|| panic!("{model}: no schedule in {response:#}"))
        .clone();
    (request, schedule)
}

/// The schedule's chunks as a given schedule, with their times or not.
fn given(schedule: &Value, times: bool) -> Value {
    let chunks: Vec<Value> = (schedule["chunks"].as_array().unwrap().iter())
        .map(|c| {
            let mut g = json!({"machine": c["machine"], "size": c["size"]});
            if times {
                g["send"] = c["send"].clone();
            }
            g
        })
        .collect();
    json!({ "chunks": chunks })
}

#[test]
fn exactly_the_schedule_models_check_schedules() {
    let checking: Vec<&str> = (registry::all().filter(|m| m.checks_schedules()))
        .map(|m| m.id().name)
        .collect();
    assert_eq!(checking, CHECKED);
}

#[test]
fn each_models_own_answer_is_accepted_at_no_gap() {
    for model in CHECKED {
        let (request, schedule) = example_and_schedule(model);
        for times in [true, false] {
            let text = given(&schedule, times).to_string();
            let c = check_schedule(&request, &text, None, &mut Silent).unwrap();
            assert!(c.ok && c.violations.is_empty(), "{model} {times}: {c:?}");
            assert!(c.gap.abs() < 1e-9, "{model} {times}: gap {}", c.gap);
            assert_eq!(c.energy.is_some(), c.optimum_energy.is_some(), "{model}");
        }
    }
}

#[test]
fn the_full_schedule_of_dlt_solve_is_read_as_it_is() {
    // `dlt solve`'s schedule (its `machines` and `makespan` aside) is a
    // given schedule, compute intervals and levels included.
    let (request, schedule) = example_and_schedule("hierarchical");
    let given = json!({"chunks": schedule["chunks"], "makespan": schedule["makespan"]});
    let c = check_schedule(&request, &given.to_string(), None, &mut Silent).unwrap();
    assert!(c.ok, "{c:?}");
    assert!(c.proven && c.gap.abs() < 1e-12);
}

#[test]
fn a_slower_split_is_valid_with_its_gap() {
    for model in ["linear", "hierarchical"] {
        let (request, schedule) = example_and_schedule(model);
        let mut g = given(&schedule, false);
        // Move a tenth of the first chunk to the last: still the whole
        // load, timed as the model would, but no longer optimal.
        let chunks = g["chunks"].as_array_mut().unwrap();
        let moved = chunks[0]["size"].as_f64().unwrap() / 10.0;
        let last = chunks.len() - 1;
        chunks[0]["size"] = json!(chunks[0]["size"].as_f64().unwrap() - moved);
        chunks[last]["size"] = json!(chunks[last]["size"].as_f64().unwrap() + moved);
        let c = check_schedule(&request, &g.to_string(), None, &mut Silent).unwrap();
        assert!(c.ok, "{model}: {c:?}");
        assert!(c.gap > 1e-6, "{model}: gap {}", c.gap);
        assert!((c.makespan - c.optimum * (1.0 + c.gap)).abs() < 1e-9 * c.makespan);
    }
}

#[test]
fn a_broken_schedule_names_each_rule_with_its_amounts() {
    let (request, schedule) = example_and_schedule("hierarchical");
    let mut g = given(&schedule, true);
    // The first chunk takes 0.5 less to send than `S + Cα`, and the load
    // is 0.25 short.
    let size = g["chunks"][0]["size"].as_f64().unwrap();
    g["chunks"][0]["size"] = json!(size - 0.25);
    let c = check_schedule(&request, &g.to_string(), None, &mut Silent).unwrap();
    assert!(!c.ok);
    let rules: Vec<&str> = c.violations.iter().map(|v| v.rule.as_str()).collect();
    assert!(rules.contains(&"send-time"), "{rules:?}");
    assert!(rules.contains(&"load-total"), "{rules:?}");
    let send = c.violations.iter().find(|v| v.rule == "send-time").unwrap();
    assert_eq!(
        (send.machine, send.chunk),
        (
            Some(schedule["chunks"][0]["machine"].as_u64().unwrap() as usize),
            Some(0)
        )
    );
    let (value, expected) = (send.value.unwrap(), send.expected.unwrap());
    assert!((value - expected).abs() > 1e-3, "{send:?}");
    let total = c
        .violations
        .iter()
        .find(|v| v.rule == "load-total")
        .unwrap();
    assert!(
        (total.expected.unwrap() - total.value.unwrap() - 0.25).abs() < 1e-9,
        "{total:?}"
    );
}

#[test]
fn m5s_and_m7s_own_rules_are_named() {
    // M5: the first chunk sent at 0, before the machines are ready.
    let (request, schedule) = example_and_schedule("startup");
    let mut g = given(&schedule, false);
    g["chunks"][0]["send"] = json!({"start": 0.0, "end": schedule["chunks"][0]["send"]["end"].as_f64().unwrap() - schedule["chunks"][0]["send"]["start"].as_f64().unwrap()});
    let c = check_schedule(&request, &g.to_string(), None, &mut Silent).unwrap();
    let rules: Vec<&str> = c.violations.iter().map(|v| v.rule.as_str()).collect();
    assert!(rules.contains(&"ready"), "{c:?}");
    // M7: every chunk sent at 0: the channel carries them at once.
    let (request, schedule) = example_and_schedule("heterogeneous");
    let mut g = given(&schedule, false);
    for chunk in g["chunks"].as_array_mut().unwrap() {
        chunk["send"] = json!({"start": 0.0, "end": 0.0});
    }
    let c = check_schedule(&request, &g.to_string(), None, &mut Silent).unwrap();
    assert!(!c.ok && c.energy.is_some(), "{c:?}");
    let rules: Vec<&str> = c.violations.iter().map(|v| v.rule.as_str()).collect();
    assert!(rules.contains(&"channel"), "{rules:?}");
}

#[test]
fn bad_schedules_get_a_message_naming_the_field() {
    let request = Request::example("hierarchical").unwrap();
    let cases = [
        (r#"{"chunks": []}"#, "schedule.chunks: must not be empty"),
        (
            r#"{"chunks": [{"machine": 9, "size": 1}]}"#,
            "schedule.chunks[0].machine: refers to entry 9",
        ),
        (r#"{"chunks": [{"machine": 0}]}"#, "schedule.chunks[0].size"),
        (
            r#"{"chunks": [{"machine": 0, "size": "big"}]}"#,
            "schedule.chunks[0].size",
        ),
        (
            r#"{"chunks": [{"machine": 0, "size": 1, "colour": 2}]}"#,
            "colour",
        ),
        (
            r#"{"chunks": [{"machine": 0, "size": 1, "send": {"start": 0}}]}"#,
            "schedule.chunks[0].send",
        ),
        (r#"{"chunks": [{"machine": 0, "size": 1},]}"#, "schedule"),
    ];
    for (text, want) in cases {
        let e = check_schedule(&request, text, None, &mut Silent)
            .unwrap_err()
            .to_string();
        assert!(e.contains(want), "{text}: {e:?}, want {want:?}");
        assert!(e.starts_with(|c: char| c.is_lowercase()), "{e}");
    }
    let m7 = Request::example("heterogeneous").unwrap();
    let text = r#"{"chunks": [{"machine": 0, "size": 1, "level": 0}]}"#;
    let e = check_schedule(&m7, text, None, &mut Silent)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("schedule.chunks[0].level: is not used by this model"),
        "{e}"
    );
    let fit = Request::example("mapreduce").unwrap();
    let e = check_schedule(&fit, r#"{"chunks": []}"#, None, &mut Silent)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("model mapreduce has no schedule to check; these have: linear"),
        "{e}"
    );
}

#[test]
fn dlt_check_prints_the_answer_and_fails_on_a_broken_rule() {
    let (request, schedule) = example_and_schedule("hierarchical");
    let dir = std::env::temp_dir().join(format!("dlt-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("schedule.json");
    let request = request.to_json().to_string();
    let limit = std::time::Duration::from_secs(60);

    std::fs::write(&path, given(&schedule, false).to_string()).unwrap();
    let file = path.to_str().unwrap();
    let run = cli_support::dlt_within(&["check", "-", "--schedule", file], &request, limit);
    assert!(run.success(), "{}", run.stderr);
    let answer: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(answer["ok"], json!(true));
    assert!(answer["gap"].as_f64().unwrap().abs() < 1e-9);

    let mut broken = given(&schedule, false);
    broken["chunks"][0]["size"] = json!(-1.0);
    std::fs::write(&path, broken.to_string()).unwrap();
    let run = cli_support::dlt_within(&["check", "-", "--schedule", file], &request, limit);
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("the schedule breaks"), "{}", run.stderr);
    let answer: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(answer["violations"][0]["rule"], json!("negative-size"));

    let run = cli_support::dlt_within(&["schema", "schedule"], "", limit);
    let schema: Value = serde_json::from_str(&run.stdout).unwrap();
    assert!(schema["properties"]["chunks"].is_object(), "{schema}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_answer_at_hand_is_compared_with_not_solved_again() {
    // The page checks against the result it shows: a response given as
    // the answer is read, whatever the request would give now.
    let (request, schedule) = example_and_schedule("hierarchical");
    let mut answer = serde_json::to_value(run(&request, &mut Silent).unwrap()).unwrap();
    let at = ["/makespan", "/report/makespan"]
        .into_iter()
        .find(|p| answer.pointer(p).is_some())
        .unwrap();
    let makespan = answer.pointer(at).unwrap().as_f64().unwrap();
    *answer.pointer_mut(at).unwrap() = json!(makespan / 2.0);
    let text = given(&schedule, false).to_string();
    let c = check_schedule(&request, &text, Some(answer), &mut Silent).unwrap();
    assert!(c.ok && (c.gap - 1.0).abs() < 1e-9, "{c:?}");
    assert!(c.summary.starts_with("valid; makespan "), "{}", c.summary);
    assert!(
        c.summary.contains("100 % above the proven optimum"),
        "{}",
        c.summary
    );
}
