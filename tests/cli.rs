//! The `dlt` command: JSON in, JSON out, clear errors and exit codes.
#![cfg(not(target_arch = "wasm32"))]

mod cli_support;

use cli_support::dlt;

#[test]
fn solves_the_worked_example() {
    let example = dlt(&["example", "hierarchical"], "");
    assert!(example.success());
    let out = dlt(&["solve"], &example.stdout.clone());
    assert!(out.success(), "{}", out.stderr.clone());
    let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["model"], "hierarchical");
    let report = &json["report"];
    assert!((report["makespan"].as_f64().unwrap() - 5.75).abs() < 1e-9);
    assert!((report["sizes"][0].as_f64().unwrap() - 1.25).abs() < 1e-9);
    assert!((report["sizes"][1].as_f64().unwrap() - 0.75).abs() < 1e-9);
    assert_eq!(report["verdict"]["ok"], true);
    assert_eq!(json["gantt"]["rows"].as_array().unwrap().len(), 2);
}

/// The presets whose answers have no schedule to verify: the metrics, the
/// fit and the generalised maps (no schedule), the exercise sheets, and
/// M4's figure (more chunks than it verifies, `MAX_VERIFIED`, as its page
/// says).
fn unverified(name: &str) -> bool {
    let prefix = |p: &str| name == p || name.starts_with(&format!("{p}-"));
    let no_schedule = ["metrics", "fit", "contour", "exercises"];
    no_schedule.into_iter().any(prefix) || name == "installments"
}

#[test]
fn every_example_solves_and_is_verified() {
    let list = dlt(&["example"], "").stdout;
    let names: Vec<&str> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    // Every preset of every model, each listed once.
    let presets: usize = dlt_calc::registry::all().map(|m| m.presets().len()).sum();
    assert_eq!(names.len(), presets, "{list}");
    assert!(names.len() >= 36, "{list}");
    // Maps take seconds to minutes in a debug build: checked, not solved
    // (the map tests solve them in release mode).
    let heavy = [
        "isoefficiency",
        "isoefficiency-small",
        "table1",
        "contour-energy",
        "contour-startup",
        "mapreduce-reducers",
        "mapreduce-gamma",
        "contour-mapreduce",
        "heterogeneous-pareto",
        "contour-heterogeneous-energy",
        "contour-startup-energy",
    ];
    let mut verified = 0;
    for name in names {
        let request = dlt(&["example", name], "").stdout;
        if heavy.contains(&name) {
            let out = dlt(&["check"], &request);
            assert!(out.success(), "{name}: {}", out.stdout.clone());
            continue;
        }
        let out = dlt(&["solve", "--compact"], &request);
        assert!(out.success(), "{name}: {}", out.stderr.clone());
        let json: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        // Every answer with a schedule carries the verifier's verdict, and
        // it is "ok": a missing verdict fails as a rejected one does.
        let verdict = &json["report"]["verdict"];
        if unverified(name) {
            assert!(verdict.is_null(), "{name}: a verdict, listed as none");
        } else {
            assert_eq!(verdict["ok"], true, "{name}: {verdict}");
            verified += 1;
        }
    }
    assert!(verified >= 10, "only {verified} verified schedules");
}

#[test]
fn writes_the_gantt_chart_as_svg() {
    let dir = std::env::temp_dir().join(format!("dlt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("gantt.svg");
    let example = dlt(&["example", "hierarchical"], "").stdout;
    let out = dlt(
        &["solve", "-", "--compact", "--svg", svg.to_str().unwrap()],
        &example,
    );
    assert!(out.success(), "{}", out.stderr.clone());
    assert_eq!(out.stdout.clone().lines().count(), 1);
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("compute out of core"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_input_names_the_field_and_exits_1() {
    let bad = r#"{"model": "hierarchical", "load": -2, "processors": [
        {"startup": 1, "rate": 1, "levels": [{"intercept": 1, "slope": 1}]}]}"#;
    let out = dlt(&["solve"], bad);
    assert_eq!(out.code, Some(1));
    assert_eq!(
        out.stderr.clone(),
        "dlt: load: must be greater than zero (got -2)\n"
    );
    assert!(out.stdout.is_empty());

    let out = dlt(&["check"], bad);
    assert_eq!(out.code, Some(1));
    assert!(out
        .stdout
        .clone()
        .starts_with("load: must be greater than zero"));
}

#[test]
fn malformed_json_is_explained() {
    let cases = [
        ("{", "dlt: malformed input: EOF while parsing an object"),
        (
            r#"{"model": "nope"}"#,
            "dlt: model: must name a model: \"nope\" is not one",
        ),
        (
            r#"{"model": "hierarchical", "load": 2}"#,
            "dlt: processors: must be given",
        ),
        (
            r#"{"model": "hierarchical", "load": 2, "processors": [], "colour": 1}"#,
            "dlt: colour: unknown field `colour`",
        ),
    ];
    for (input, want) in cases {
        let out = dlt(&["solve"], input);
        assert_eq!(out.code, Some(1), "{input}");
        assert!(
            out.stderr.clone().starts_with(want),
            "{input}: {}",
            out.stderr.clone()
        );
    }
}

#[test]
fn usage_errors_exit_2_and_help_works() {
    let out = dlt(&["frobnicate"], "");
    assert_eq!(out.code, Some(2));
    assert!(out
        .stderr
        .clone()
        .contains("unknown command \"frobnicate\""));
    let out = dlt(&[], "");
    assert_eq!(out.code, Some(2));
    let out = dlt(&["--help"], "");
    assert!(out.success());
    assert!(out.stdout.clone().contains("dlt solve [FILE]"));
    let out = dlt(&["example"], "");
    assert!(out.stdout.clone().starts_with("metrics-adding"));
    let out = dlt(&["example", "nope"], "");
    assert_eq!(out.code, Some(2));
    let out = dlt(&["solve", "/no/such/file.json"], "");
    assert_eq!(out.code, Some(1));
    assert!(out
        .stderr
        .clone()
        .starts_with("dlt: cannot read /no/such/file.json"));
}

/// `dlt map` and `dlt table` print CSV for a small request, and refuse a
/// request of another model.
#[test]
fn map_and_table_print_csv() {
    let small = r#"{"model": "isoefficiency", "a1": 0.109, "a2": 4.132, "b2": -27109,
        "rate": 0.005, "overhead": 0.075, "startup": 25.4, "chunks": 6,
        "machines_from": 2, "machines_to": 2, "levels": [10], "load_max": 1e6}"#;
    let dir = std::env::temp_dir().join(format!("dlt-cli-map-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("map.json");
    std::fs::write(&file, small).unwrap();
    let out = dlt(&["map", file.to_str().unwrap(), "--csv"], "");
    assert!(out.success(), "{}", out.stderr.clone());
    let csv = out.stdout.clone();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "machines,kind,level,load,efficiency,makespan,gap");
    assert_eq!(lines.len(), 4, "{csv}");
    assert!(lines[1].starts_with("2,below,10,") && lines[2].starts_with("2,above,10,"));
    assert!(lines[3].starts_with("2,max,"));

    let table = small.replace("isoefficiency", "table1");
    std::fs::write(&file, &table).unwrap();
    let out = dlt(&["table", file.to_str().unwrap(), "--csv"], "");
    assert!(out.success(), "{}", out.stderr.clone());
    assert!(out.stdout.clone().starts_with("machines,emax,vmax,"));

    let out = dlt(&["map", file.to_str().unwrap()], "");
    assert_eq!(out.code, Some(1));
    assert!(out
        .stderr
        .clone()
        .contains("map needs a request of model \"isoefficiency\""));
    let out = dlt(
        &["solve", "--csv"],
        &dlt(&["example", "startup"], "").stdout,
    );
    assert_eq!(out.code, Some(1));
    std::fs::remove_dir_all(dir).unwrap();
}

/// `--csv-file` writes what `--csv` prints and prints the JSON `solve`
/// prints: one solve for both. With `--csv` it is a usage error; for a
/// result without a CSV form, the same error as `--csv`.
#[test]
fn csv_file_writes_the_csv_beside_the_json() {
    let request = dlt(&["example", "isoefficiency-small"], "").stdout;
    let path = std::env::temp_dir().join(format!("dlt-cli-csv-file-{}.csv", std::process::id()));
    let file = path.to_str().expect("a UTF-8 path");
    let both = dlt(&["solve", "--compact", "--csv-file", file], &request);
    assert!(both.success(), "{}", both.stderr);
    let written = std::fs::read_to_string(&path).expect("the CSV is written");
    assert_eq!(written, dlt(&["solve", "--csv"], &request).stdout);
    assert_eq!(both.stdout, dlt(&["solve", "--compact"], &request).stdout);
    let _ = std::fs::remove_file(&path);

    let clash = dlt(&["solve", "--csv", "--csv-file", file], &request);
    assert_eq!(clash.code, Some(2), "{}", clash.stderr);
    assert!(clash.stderr.contains("give one"), "{}", clash.stderr);
    let startup = dlt(&["example", "startup"], "").stdout;
    let refused = dlt(&["solve", "--csv-file", file], &startup);
    assert_eq!(refused.code, Some(1));
    assert_eq!(refused.stderr, dlt(&["solve", "--csv"], &startup).stderr);
    assert!(
        !path.exists(),
        "nothing is written for a result without a CSV form"
    );
}

/// A request saved under a model's older tag still solves, answered under
/// the model's id, and gives the same answer as under the id.
#[test]
fn an_older_request_tag_still_solves() {
    let example = dlt(&["example", "installments"], "").stdout;
    let older = example.replacen("\"installments\"", "\"multi-installment\"", 1);
    assert_ne!(older, example);
    let now = dlt(&["solve", "--compact"], &example);
    let then = dlt(&["solve", "--compact"], &older);
    assert!(then.success(), "{}", then.stderr.clone());
    let strip = |text: &str| {
        let mut json: serde_json::Value = serde_json::from_str(text).unwrap();
        json["report"].as_object_mut().map(|r| r.remove("seconds"));
        json
    };
    assert_eq!(strip(&then.stdout), strip(&now.stdout));
    assert_eq!(strip(&then.stdout)["model"], "installments");
    let verbs = dlt(&["--help"], "").stdout;
    assert!(verbs.contains("map     isoefficiency") && verbs.contains("table   table1"));
}

/// A reader that has gone (`dlt example | head -1`) ends `dlt` quietly, as
/// a filter ends, not with a panic's backtrace.
#[test]
fn a_closed_pipe_ends_dlt_quietly() {
    use std::process::{Command, Stdio};
    for args in [
        &["example"][..],
        &["example", "metrics"][..],
        &["schema"][..],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_dlt"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("dlt runs");
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("dlt ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {stderr}");
    }
}
