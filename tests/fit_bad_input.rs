//! M9's bad input (issue item 7), each case twice: through `dlt fit -`
//! reading the table from standard input, and through the library's
//! `api::run` with the table in a request. Every message must name the
//! column (and the row, for a bad cell); none may be a fit.
#![cfg(not(target_arch = "wasm32"))]

mod cli_support;

use cli_support::dlt;
use dlt_calc::api::{run, Request};
use dlt_calc::core::solving::progress::Silent;
use serde_json::{json, Value};

/// A computing-time table in a request, with `shape`.
fn request(csv: &str, shape: &str) -> Value {
    json!({"model": "fit", "computation": {"csv": csv}, "shape": shape})
}

/// The library's message for the table, or its answer.
fn library(csv: &str, shape: &str) -> Result<Value, String> {
    let request = Request::from_value(request(csv, shape)).map_err(|e| e.to_string())?;
    run(&request, &mut Silent)
        .map(|r| serde_json::to_value(&r).unwrap())
        .map_err(|e| e.to_string())
}

/// The command line's message for the table (exit 1), or its answer.
fn command(csv: &str, shape: &str) -> Result<Value, String> {
    let out = dlt(&["fit", "-", "--shape", shape, "--compact"], csv);
    match out.code {
        Some(0) => Ok(serde_json::from_str(&out.stdout).unwrap()),
        Some(1) => Err(out.stderr),
        other => panic!("exit {other:?}: {}", out.stderr),
    }
}

/// Both refuse `csv`, with every one of `words` in the message.
fn refused(csv: &str, shape: &str, words: &[&str]) {
    for (way, got) in [
        ("library", library(csv, shape)),
        ("cli", command(csv, shape)),
    ] {
        let message = got.err().unwrap_or_else(|| panic!("{way} fitted {csv:?}"));
        for word in words {
            assert!(message.contains(word), "{way}: {message:?} lacks {word:?}");
        }
    }
}

#[test]
fn fewer_points_than_parameters() {
    let words = [
        "`size_MB`",
        "`time_s`",
        "1 samples are too few for 2 parameters",
    ];
    refused("size_MB,time_s\n100,1\n", "line-intercept", &words);
    let words = ["2 samples are too few for 3 parameters", "`time_s`"];
    refused("size_MB,time_s\n100,1\n200,2\n", "two-level", &words);
}

#[test]
fn all_loads_equal() {
    let words = ["`size_MB`", "every x is 100", "two different loads"];
    refused("size_MB,time_s\n100,1\n100,2\n100,3\n", "auto", &words);
    refused("size_MB,time_s\n100,1\n100,2\n100,3\n", "line", &words);
}

#[test]
fn negative_or_zero_times() {
    let words = ["row 3", "column `time_s`", "greater than zero (got -2)"];
    refused("size_MB,time_s\n100,1\n200,-2\n300,3\n", "auto", &words);
    let words = ["row 4", "column `time_ms`", "greater than zero (got 0)"];
    refused("size_MB,time_ms\n100,1\n200,2\n300,0\n", "auto", &words);
}

#[test]
fn not_a_number_and_text() {
    let words = ["row 3", "column `time_s`", "\"NaN\" is not a finite number"];
    refused("size_MB,time_s\n100,1\n200,NaN\n300,3\n", "auto", &words);
    let words = ["row 2", "column `size_MB`", "\"abc\" is not a number"];
    refused("size_MB,time_s\nabc,1\n200,2\n300,3\n", "auto", &words);
    let words = [
        "row 3",
        "column `size_MB`",
        "\"1e400\" is not a finite number",
    ];
    refused("size_MB,time_s\n100,1\n1e400,2\n300,3\n", "auto", &words);
}

/// Magnitudes whose squares vanish or overflow are refused with the
/// range, not fitted into NaN.
#[test]
fn numbers_out_of_range() {
    let words = ["row 2", "column `size_MB`", "out of the range", "1e-30"];
    refused(
        "size_MB,time_s\n1e-300,2\n2e-300,3\n3e-300,4\n",
        "auto",
        &words,
    );
    let words = ["row 4", "column `time_s`", "out of the range", "1e30"];
    refused("size_MB,time_s\n1,2\n2,3\n3,1e200\n", "auto", &words);
}

#[test]
fn a_flat_series() {
    let words = ["`time_s`", "every y is 1", "flat series"];
    refused("size_MB,time_s\n100,1\n200,1\n300,1\n", "auto", &words);
}

#[test]
fn a_knee_with_no_points_on_one_side() {
    let words = ["`size_MB`", "2 lines need 3 different loads", "have 2"];
    refused(
        "size_MB,time_s\n100,1\n100,2\n200,3\n200,4\n",
        "two-level",
        &words,
    );
    let words = ["`size_MB`", "3 lines need 6 different loads", "have 4"];
    let csv = "size_MB,time_s\n100,1\n100,1.1\n200,2\n200,2.1\n300,4\n300,4.1\n400,8\n400,8.2\n";
    for (way, got) in [
        ("library", library(csv, "lines")),
        ("cli", command(csv, "lines")),
    ] {
        let message = got.err().unwrap_or_else(|| panic!("{way} fitted"));
        assert!(
            words.iter().all(|w| message.contains(w)),
            "{way}: {message}"
        );
    }
}

#[test]
fn empty_header_only_ragged_and_no_unit() {
    refused("", "auto", &["empty"]);
    refused("\n\n", "auto", &["empty"]);
    refused(
        "size_MB,time_s\n",
        "auto",
        &["a header but no measurements"],
    );
    let words = ["row 3 has 3 cells", "the header has 2 columns"];
    refused("size_MB,time_s\n1,2\n2,3,4\n", "auto", &words);
    let words = ["column `time` has no unit: write time_s"];
    refused("size_MB,time\n1,2\n2,3\n", "auto", &words);
}

/// Loads in any order, measured more than once: the fit is the sorted
/// table's.
#[test]
fn unsorted_and_repeated_loads_are_the_sorted_fit() {
    let shuffled = "size_MB,time_s\n300,3.2\n100,1.1\n200,2.0\n100,0.9\n300,2.9\n200,2.1\n";
    let sorted = "size_MB,time_s\n100,1.1\n100,0.9\n200,2.0\n200,2.1\n300,3.2\n300,2.9\n";
    for way in [library, command] {
        let a = way(shuffled, "line-intercept").unwrap();
        let b = way(sorted, "line-intercept").unwrap();
        let line = |v: &Value| v["report"]["computation"][0]["line"].clone();
        for part in ["slope", "intercept"] {
            let (x, y) = (&line(&a)[part]["value"], &line(&b)[part]["value"]);
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            assert!(
                (x - y).abs() <= 1e-12 * y.abs().max(1.0),
                "{part}: {x} vs {y}"
            );
        }
    }
}

/// A million rows are fitted; one more is refused with the limit.
#[test]
fn a_million_rows_and_one_more() {
    let mut csv = String::with_capacity(20_000_000);
    csv += "size_MB,time_s\n";
    for i in 0..1_000_000u32 {
        let x = f64::from(1 + i % 1000);
        csv += &format!("{x},{}\n", 0.5 * x + f64::from(i % 7) * 1e-3);
    }
    let fitted = command(&csv, "line").unwrap();
    let n = &fitted["report"]["computation"][0]["line"]["fit"]["n"];
    assert_eq!(n, 1_000_000);
    csv += "5,2.5\n";
    let words = ["more than 1000000 rows, the limit"];
    refused(&csv, "line", &words);
}

/// Measured runs need the request they were run with.
#[test]
fn runs_without_their_request() {
    let out = dlt(&["fit", "-"], "run,time_s\n1,30\n2,31\n");
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(out.stderr.contains("--request FILE.json"), "{}", out.stderr);
    let out = dlt(&["fit", "-", "--as", "power"], "size_MB,time_s\n1,2\n2,3\n");
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(
        out.stderr.contains("column `power` is missing"),
        "{}",
        out.stderr
    );
}

/// The table's options: a wrong value is named, an option of a table with
/// a JSON request is a usage error, and a verb whose model reads no tables
/// says so.
#[test]
fn table_options_are_checked() {
    let csv = "size_MB,time_s\n1,2\n2,3\n3,5\n";
    let cases: [(&[&str], i32, &str); 6] = [
        (
            &["--as", "speed"],
            1,
            "as: `speed` is not one of computation, transfers",
        ),
        (&["--shape", "knee"], 1, "shape: `knee`: unknown variant"),
        (&["--lines", "9"], 1, "lines: must be between 2 and 4"),
        (&["--noise", "loud"], 1, "noise: `loud`: unknown variant"),
        (&["--latency-as", "both"], 1, "latency-as: `both`"),
        (&["--as", "runs"], 1, "--request FILE.json"),
    ];
    for (options, code, words) in cases {
        let mut args = vec!["fit", "-"];
        args.extend_from_slice(options);
        let out = dlt(&args, csv);
        assert_eq!(out.code, Some(code), "{options:?}: {}", out.stderr);
        assert!(out.stderr.contains(words), "{options:?}: {}", out.stderr);
    }
    let request = json!({"model": "fit", "computation": {"csv": csv}}).to_string();
    let out = dlt(&["fit", "-", "--shape", "line"], &request);
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(
        out.stderr.contains("not to a JSON request"),
        "{}",
        out.stderr
    );
    let out = dlt(&["map", "-"], csv);
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(
        out.stderr.contains("reads a JSON request, not a table"),
        "{}",
        out.stderr
    );
}
