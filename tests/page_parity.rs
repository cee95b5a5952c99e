//! The page answers as the command line does: every preset, computed in
//! the page's wasm (in Node, as the page's workers compute it: split into
//! parts, each part run, the answers joined) and by `dlt solve`, gives the
//! same response, its numbers within the verifier's tolerance and
//! everything else (which fields, how many lines and points, every text)
//! equal.
//!
//! Needs the page's build: `DLT_PAGE=www/pkg` after `make build`; `make
//! test` runs it in its end-to-end lane, where both are built.
#![cfg(not(target_arch = "wasm32"))]

mod cli_support;
mod page_support;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use cli_support::{dlt, dlt_within};
use page_support::{differences, Outcome, Page};
use serde_json::Value;

/// Longest a preset may take in either build (the slowest takes seconds).
const LIMIT: Duration = Duration::from_secs(300);

/// What differs between the two builds' answers to one preset (empty when
/// they agree).
fn compare_preset(name: &str, page: &mut Page) -> Vec<String> {
    let example = dlt(&["example", name], "");
    assert!(example.success(), "dlt example {name}: {}", example.stderr);
    let request: Value = serde_json::from_str(&example.stdout).expect("a preset is JSON");
    let request = request.to_string();
    let cli = dlt_within(&["solve", "--compact", "-"], &request, LIMIT);
    assert!(cli.success(), "dlt solve {name}: {}", cli.status());
    let cli: Value = serde_json::from_str(&cli.stdout).expect("dlt solve writes JSON");
    let answer = page.answer(&request, LIMIT);
    assert!(
        answer.problems.is_empty(),
        "the page marks {name}: {:?}",
        answer.problems
    );
    match answer.run {
        Outcome::Response(response) => differences(&cli, &response, 5),
        other => vec![format!("the page gives no answer: {other:?}")],
    }
}

#[test]
#[ignore = "needs the page's wasm: DLT_PAGE=www/pkg after make build (make test runs it)"]
fn every_preset_answers_the_same_in_the_page() {
    let pkg = page_support::pkg();
    let list = dlt(&["example"], "");
    let names: Vec<&str> = list
        .stdout
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert!(
        names.len() > 30,
        "dlt example lists {} presets",
        names.len()
    );
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let differ = Mutex::new(Vec::new());
    // Two at a time: a preset's `dlt` and another's page share the cores.
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                let mut page = Page::start(&pkg);
                while let Some(name) = names.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let places = compare_preset(name, &mut page);
                    if !places.is_empty() {
                        differ
                            .lock()
                            .unwrap()
                            .push(format!("{name}: {}", places.join("; ")));
                    }
                }
            });
        }
    });
    let differ = differ.into_inner().unwrap();
    println!(
        "the page = dlt solve on {} of {} presets ({:.1} s)",
        names.len() - differ.len(),
        names.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        differ.is_empty(),
        "the page answers {} preset(s) otherwise:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// Numbers agree within the verifier's tolerance, but a derived exponent
/// within its own, wider one (it divides the rounding of two works by the
/// log of two neighbouring processor counts).
#[test]
fn a_derived_exponent_is_compared_within_its_own_tolerance() {
    use serde_json::json;
    let near = 1.0 + 5.0 * page_support::TOLERANCE;
    let exponent = |e: f64| json!({"isoefficiency": [{"exponent": e, "work": 1.0}]});
    assert!(differences(&exponent(2.0), &exponent(2.0 * near), 3).is_empty());
    assert!(!differences(&exponent(2.0), &exponent(2.0 * (1.0 + 1e-7)), 3).is_empty());
    let work = |w: f64| json!({"isoefficiency": [{"exponent": 2.0, "work": w}]});
    assert!(!differences(&work(1.0), &work(near), 3).is_empty());
}
