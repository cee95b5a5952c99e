//! `dlt split` and `dlt join`: a request's parts, each solved by its own
//! `dlt solve` process, join into exactly the response `dlt solve` gives
//! the whole request (JSON and CSV, byte for byte: no model's response has
//! a timing field to take out), for every preset of the registry that
//! splits; missing, failed and foreign answers are named.
#![cfg(not(target_arch = "wasm32"))]

mod cli_support;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use cli_support::{dlt, Run};
use dlt_calc::api::{examples, Request};
use serde_json::Value;

/// A preset of at most this many parts is solved whole in a debug build
/// in a few seconds; the larger ones (the reference map, Table 1, the
/// generalised maps) are checked whole by the release test.
const SMALL: usize = 4;

/// Every preset whose request splits into two parts or more, with its
/// model and number of parts.
fn splitting_presets() -> Vec<(&'static str, &'static str, usize)> {
    let presets: Vec<_> = examples()
        .into_iter()
        .filter_map(|(name, model, _)| {
            // cannot fail: every preset is a valid request.
            let request = Request::example(name).expect("a preset reads");
            let parts = request.split().expect("a preset splits").len();
            (parts >= 2).then_some((name, model, parts))
        })
        .collect();
    assert!(!presets.is_empty(), "no preset splits");
    presets
}

/// The splitting preset of fewest parts of every model that splits, cut
/// to a debug build's size ([`small`]; the first of equals: the models
/// list their cheapest first), with its number of parts.
fn one_per_model() -> Vec<(&'static str, usize)> {
    let mut chosen: Vec<(&str, &str, usize)> = Vec::new();
    for (name, model, _) in splitting_presets() {
        // cannot fail: a preset cut smaller is still a valid request.
        let request = Request::from_value(small(name)).expect("a small preset reads");
        let parts = request.split().expect("a small preset splits").len();
        match chosen.iter_mut().find(|(_, m, _)| *m == model) {
            Some(best) if parts < best.2 => *best = (name, model, parts),
            Some(_) => {}
            None => chosen.push((name, model, parts)),
        }
    }
    chosen
        .into_iter()
        .map(|(name, _, parts)| (name, parts))
        .collect()
}

/// The preset with a map's grid cut to at most 9 by 9 points (still three
/// bands of rows, so still in parts) and a series to 5 points per line,
/// for a debug build; the release test checks the presets as they are.
fn small(name: &str) -> Value {
    let text = dlt(&["example", name], "").stdout;
    let mut request: Value = serde_json::from_str(&text).expect("a preset is JSON");
    for (pointer, most) in [("/x/steps", 9), ("/y/steps", 9), ("/series/points", 5)] {
        if let Some(steps) = request.pointer_mut(pointer) {
            *steps = steps.as_u64().unwrap_or(most).min(most).into();
        }
    }
    request
}

/// The preset's request in a file of its own (`dlt join` reads it there,
/// the answers on standard input).
fn request_file(name: &str) -> (PathBuf, String) {
    let text = dlt(&["example", name], "").stdout;
    file_of(name, text)
}

/// [`small`] in a file of its own.
fn small_request_file(name: &str) -> (PathBuf, String) {
    file_of(name, small(name).to_string())
}

/// `text` in a file of its own.
fn file_of(name: &str, text: String) -> (PathBuf, String) {
    // One file per call: the tests run at the same time, and remove theirs.
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let unique = format!("dlt-split-{}-{call}-{name}.json", std::process::id());
    let path = std::env::temp_dir().join(unique);
    // cannot fail: the temporary folder is writable.
    std::fs::write(&path, &text).expect("the request is written");
    (path, text)
}

/// Runs `dlt args` and checks it succeeded.
fn ok(args: &[&str], stdin: &str) -> String {
    let run = dlt(args, stdin);
    assert!(
        run.success(),
        "dlt {args:?}: {}: {}",
        run.status(),
        run.stderr
    );
    run.stdout
}

/// Solves every part in its own `dlt solve --compact` process, two at a
/// time (as `xargs -P 2` would); the answers in the parts' order.
fn solve_parts(parts: &[&str], extra: &[&str]) -> Vec<String> {
    let mut answers = vec![String::new(); parts.len()];
    for (pair, out) in parts.chunks(2).zip(answers.chunks_mut(2)) {
        std::thread::scope(|s| {
            for (part, answer) in pair.iter().zip(out.iter_mut()) {
                s.spawn(move || {
                    let args: Vec<&str> = ["solve", "--compact"]
                        .iter()
                        .chain(extra)
                        .copied()
                        .collect();
                    *answer = ok(&args, part);
                });
            }
        });
    }
    answers
}

/// `dlt join FILE` with `answers` on standard input.
fn join(file: &Path, answers: &str, extra: &[&str]) -> Run {
    // cannot fail: the file name was made from UTF-8 parts.
    let file = file.to_str().expect("a UTF-8 path");
    let args: Vec<&str> = ["join", file].iter().chain(extra).copied().collect();
    dlt(&args, answers)
}

/// What `dlt solve` gives the whole request, as JSON and as CSV (or the
/// refusal of a CSV: exit code, output, message), solved once for every
/// way the request is split: `--csv-file` writes the CSV beside the JSON.
struct Whole {
    json: String,
    csv: (Option<i32>, String, String),
}

impl Whole {
    /// Solves `text` whole once, for the JSON and the CSV.
    fn of(text: &str) -> Whole {
        let (path, _) = file_of("whole.csv", String::new());
        let file = path.to_str().expect("a UTF-8 path");
        let run = dlt(&["solve", "--csv-file", file], text);
        let csv = std::fs::read_to_string(&path).unwrap_or_default();
        let _ = std::fs::remove_file(&path);
        if run.success() {
            return Whole {
                json: run.stdout,
                csv: (run.code, csv, String::new()),
            };
        }
        // No CSV form: the refusal is what `--csv` says; the JSON is solved
        // apart.
        Whole {
            json: ok(&["solve"], text),
            csv: (run.code, run.stdout, run.stderr),
        }
    }
}

/// Splits the preset in each way `splits` says (its natural parts, or
/// `--parts N`), solves the parts apart, and checks the joins against the
/// direct solve: in order, shuffled and duplicated, as CSV, with one part
/// missing and resumed. The direct solve is made once for all the splits.
fn check_whole(name: &str, splits: &[&[&str]]) {
    let whole = Whole::of(&dlt(&["example", name], "").stdout);
    for split_args in splits {
        check_file(name, request_file(name), split_args, &whole);
    }
}

/// [`check_whole`] on the request in `file`, whose direct solve is `whole`.
fn check_file(name: &str, (file, text): (PathBuf, String), split_args: &[&str], whole: &Whole) {
    let args: Vec<&str> = ["split"].iter().chain(split_args).copied().collect();
    let split = ok(&args, &text);
    let parts: Vec<&str> = split.lines().collect();
    let answers = solve_parts(&parts, &[]);
    let direct = &whole.json;
    let all = answers.concat();
    let joined = join(&file, &all, &[]);
    assert!(joined.success(), "{name}: {}", joined.stderr);
    assert_eq!(
        &joined.stdout, direct,
        "{name} {split_args:?}: join differs from solve"
    );
    // Shuffled (reversed, then every other) and duplicated.
    let mut shuffled: Vec<&String> = answers.iter().rev().collect();
    shuffled.extend(answers.iter().step_by(2));
    let shuffled: String = shuffled.into_iter().map(String::as_str).collect();
    assert_eq!(
        &join(&file, &shuffled, &[]).stdout,
        direct,
        "{name}: shuffled"
    );
    // The same CSV, or the same refusal for a result without one.
    let csv = &whole.csv;
    let joined_csv = join(&file, &shuffled, &["--csv"]);
    assert_eq!(
        (&joined_csv.code, &joined_csv.stdout, &joined_csv.stderr),
        (&csv.0, &csv.1, &csv.2),
        "{name}: CSV"
    );
    // One part missing, then resumed by solving only that part.
    let last = answers.len() - 1;
    let partial = join(&file, &answers[..last].concat(), &["--compact"]);
    let value: Value = serde_json::from_str(&partial.stdout).expect("JSON");
    assert_eq!(value["completion"], "partial", "{name}");
    assert_eq!(value["missing"], serde_json::json!([last]), "{name}");
    let resumed = answers[..last].concat() + &solve_parts(&parts[last..], &[]).concat();
    assert_eq!(
        &join(&file, &resumed, &[]).stdout,
        direct,
        "{name}: resumed"
    );
    let _ = std::fs::remove_file(file);
}

#[test]
fn small_presets_join_to_their_solve() {
    let presets: Vec<_> = one_per_model()
        .into_iter()
        .filter(|(_, parts)| *parts <= SMALL)
        .collect();
    assert!(
        !presets.is_empty(),
        "no splitting preset of at most {SMALL} parts"
    );
    for (name, _) in presets {
        let whole = Whole::of(&small(name).to_string());
        for split_args in [&[][..], &["--parts", "2"]] {
            check_file(name, small_request_file(name), split_args, &whole);
        }
    }
}

/// Every splitting preset, the reference map included: in release mode
/// (`make test` runs it in the quick-release profile with `--include-ignored`;
/// by hand: `cargo test --release --test split_join -- --ignored`).
#[test]
#[ignore]
fn every_splitting_preset_joins_to_its_solve() {
    // Two presets at a time: each runs at most two `dlt` at once, and the
    // test is the longest of the suite, so it would otherwise run alone
    // at the end of it.
    let presets = splitting_presets();
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                while let Some((name, _, parts)) = presets.get(next.fetch_add(1, Ordering::Relaxed))
                {
                    let half = (parts / 2).max(2).to_string();
                    check_whole(name, &[&[], &["--parts", &half]]);
                }
            });
        }
    });
}

/// A part made to fail the same way for every model: a field no request
/// type knows (unknown fields are refused).
fn failing(part: &str) -> String {
    let mut value: Value = serde_json::from_str(part).expect("a part is JSON");
    value["no_such_field"] = Value::Bool(true);
    value.to_string()
}

#[test]
fn missing_failed_and_foreign_answers_are_named() {
    let presets = one_per_model();
    for (i, (name, _)) in presets.iter().enumerate() {
        let (file, text) = small_request_file(name);
        let split = ok(&["split"], &text);
        let parts: Vec<&str> = split.lines().collect();
        let count = &parts.len();
        assert!(*count >= 3, "{name}: {count} parts");
        // Part 0 answered, part 1 failed, the others not solved yet.
        let answer = solve_parts(&parts[..1], &[]).concat();
        let failed = ok(
            &["solve", "--compact", "--answer-errors"],
            &failing(parts[1]),
        );
        let error: Value = serde_json::from_str(&failed).expect("an error answer is JSON");
        assert_eq!(error["part"]["index"], 1, "{name}: {failed}");
        let run = join(&file, &format!("{failed}{answer}{answer}"), &["--compact"]);
        assert!(run.success(), "{name}: {}", run.stderr);
        let value: Value = serde_json::from_str(&run.stdout).expect("JSON");
        assert_eq!(value["completion"], "partial", "{name}");
        let missing: Vec<usize> = (1..*count).collect();
        assert_eq!(value["missing"], serde_json::json!(missing), "{name}");
        assert_eq!(value["failed"][0]["index"], 1, "{name}");
        let message = value["failed"][0]["error"].as_str().unwrap_or_default();
        assert!(message.contains("no_such_field"), "{name}: {message}");
        assert!(
            run.stderr.contains("parts missing or failed: 1 2"),
            "{}",
            run.stderr
        );
        // The answer belongs to this request, not to the next preset's.
        let (other, _) = request_file(presets[(i + 1) % presets.len()].0);
        if presets.len() > 1 {
            let refused = join(&other, &format!("\n{answer}"), &[]);
            assert_eq!(refused.code, Some(1), "{name}: {}", refused.stdout);
            assert!(refused.stderr.contains("line 2"), "{}", refused.stderr);
            assert!(
                refused.stderr.contains("another request"),
                "{}",
                refused.stderr
            );
        }
        let _ = std::fs::remove_file(file);
    }
}

#[test]
fn a_request_that_does_not_split_is_its_own_part() {
    let (name, _, _) = examples()
        .into_iter()
        // cannot fail: every preset is a valid request.
        .find(|(name, _, _)| {
            Request::example(name)
                .expect("a preset")
                .split()
                .expect("splits")
                .is_empty()
        })
        .expect("a preset that does not split");
    let (file, text) = request_file(name);
    let split = ok(&["split", "--parts", "3"], &text);
    assert_eq!(split.lines().count(), 1, "{split}");
    let part: Value = serde_json::from_str(&split).expect("JSON");
    assert_eq!(part["part"]["count"], 1);
    let answer = ok(&["solve", "--compact"], &split);
    assert_eq!(join(&file, &answer, &[]).stdout, ok(&["solve"], &text));
    let none = join(&file, "", &["--compact"]);
    assert!(none.stdout.contains(r#""missing":[0]"#), "{}", none.stdout);
    let _ = std::fs::remove_file(file);
}

#[test]
fn an_answer_that_is_not_a_part_is_refused() {
    let (file, text) = request_file(splitting_presets()[0].0);
    let run = join(&file, &text, &[]);
    assert_eq!(run.code, Some(1));
    assert!(
        run.stderr.contains("line 1 is not the answer to a part"),
        "{}",
        run.stderr
    );
    let usage = dlt(&["join"], "");
    assert_eq!(usage.code, Some(2), "{}", usage.stderr);
    let _ = std::fs::remove_file(file);
}
