//! The `dlt` command: JSON in, JSON out, clear errors and exit codes.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn dlt(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_dlt"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn solves_the_worked_example() {
    let example = dlt(&["example", "hierarchical"], "");
    assert!(example.status.success());
    let out = dlt(&["solve"], &text(&example.stdout));
    assert!(out.status.success(), "{}", text(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["model"], "hierarchical");
    let report = &json["report"];
    assert!((report["makespan"].as_f64().unwrap() - 5.75).abs() < 1e-9);
    assert!((report["sizes"][0].as_f64().unwrap() - 1.25).abs() < 1e-9);
    assert!((report["sizes"][1].as_f64().unwrap() - 0.75).abs() < 1e-9);
    assert_eq!(report["verdict"]["ok"], true);
    assert_eq!(json["gantt"]["rows"].as_array().unwrap().len(), 2);
}

#[test]
fn every_example_solves_and_is_verified() {
    let list = text(&dlt(&["example"], "").stdout);
    let names: Vec<&str> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names.len(), 5, "{list}");
    for name in names {
        let request = text(&dlt(&["example", name], "").stdout);
        let out = dlt(&["solve", "--compact"], &request);
        assert!(out.status.success(), "{name}: {}", text(&out.stderr));
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let verdict = &json["report"]["verdict"];
        assert!(
            verdict.is_null() || verdict["ok"] == true,
            "{name}: {verdict}"
        );
    }
}

#[test]
fn writes_the_gantt_chart_as_svg() {
    let dir = std::env::temp_dir().join(format!("dlt-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("gantt.svg");
    let example = text(&dlt(&["example", "hierarchical"], "").stdout);
    let out = dlt(
        &["solve", "-", "--compact", "--svg", svg.to_str().unwrap()],
        &example,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().count(), 1);
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("compute out of core"));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_input_names_the_field_and_exits_1() {
    let bad = r#"{"model": "hierarchical", "load": -2, "processors": [
        {"startup": 1, "rate": 1, "levels": [{"intercept": 1, "slope": 1}]}]}"#;
    let out = dlt(&["solve"], bad);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "dlt: load: must be greater than zero (got -2)\n"
    );
    assert!(out.stdout.is_empty());

    let out = dlt(&["check"], bad);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).starts_with("load: must be greater than zero"));
}

#[test]
fn malformed_json_is_explained() {
    let cases = [
        ("{", "dlt: malformed input: EOF while parsing an object"),
        (
            r#"{"model": "nope"}"#,
            "dlt: malformed input: unknown variant `nope`",
        ),
        (
            r#"{"model": "hierarchical", "load": 2}"#,
            "dlt: malformed input: missing field `processors`",
        ),
        (
            r#"{"model": "hierarchical", "load": 2, "processors": [], "colour": 1}"#,
            "dlt: malformed input: unknown field `colour`",
        ),
    ];
    for (input, want) in cases {
        let out = dlt(&["solve"], input);
        assert_eq!(out.status.code(), Some(1), "{input}");
        assert!(
            text(&out.stderr).starts_with(want),
            "{input}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn usage_errors_exit_2_and_help_works() {
    let out = dlt(&["frobnicate"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("unknown command \"frobnicate\""));
    let out = dlt(&[], "");
    assert_eq!(out.status.code(), Some(2));
    let out = dlt(&["--help"], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("dlt solve [FILE]"));
    let out = dlt(&["example"], "");
    assert!(text(&out.stdout).starts_with("hierarchical"));
    let out = dlt(&["example", "nope"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = dlt(&["solve", "/no/such/file.json"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).starts_with("dlt: cannot read /no/such/file.json"));
}
