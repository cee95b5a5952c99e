//! Hostile requests against the `dlt` command, as a black box.
//!
//! Every case takes a preset (`dlt example NAME`, round robin over all of
//! them), changes one to three fields anywhere in its JSON tree (inside
//! arrays and nested objects too) to something hostile — zero, negatives,
//! subnormals, huge and out-of-range numbers, NaN and infinities as raw tokens
//! and as strings, fractions where whole numbers are expected, wrong types,
//! missing and unknown fields, long strings, empty and huge arrays, another
//! model tag — and runs `dlt check` and `dlt solve` on it, each under a
//! wall-clock limit. It then requires that
//!
//! - both exit 0 or 1 (no panic, abort, signal, usage error or time-out);
//! - a failure is one short line on standard error (at most 300 characters)
//!   that names a changed field: its path such as `machines[0].rate`, a
//!   container of it such as `processors[0].levels`, a field it is compared
//!   with (`a2` for `a1`), or, in a JSON-level error, the field's name;
//! - a solved request's response holds finite numbers only (no `null` where
//!   the presets' responses have a number, no "NaN" or "inf" strings), and
//!   every `verdict` in it is ok;
//! - `check` and `solve` agree: `check` passes exactly when `solve` succeeds
//!   (a computation that fails after a passing check is reported too);
//! - with `DLT_PAGE` (the page's build, `www/pkg`), the page's wasm, run in
//!   Node as the page runs it (`tests/page-wasm.mjs`) on the request as the
//!   page would send it, does what `dlt` does with that request (the same
//!   but for a token that is not JSON, which the page sends as the text
//!   its form sends, and which `dlt` is then given too): it marks the fields `check` lists (none when `check`
//!   passes), and answers as `solve` does (its numbers within the
//!   verifier's tolerance) or refuses with an error of the same kind about
//!   the same field; it never crashes or hangs.
//!
//! The maps (presets `isoefficiency*`, `table1`, `contour-*`) and the largest
//! linear preset are shrunk first (one machine count, two levels, 3 × 3
//! grids), so a case takes well under a second unless something is wrong.
//! Every failure is collected and printed with what reproduces it, then
//! summarised by kind; the test fails at the end with their count.
//!
//! Environment: `DLT_FUZZ_SEED` (the run's seed, decimal or `0x` hex),
//! `DLT_FUZZ_CASES` (how many cases, default 200), `DLT_FUZZ_ONLY` (run only
//! this case of the run, to reproduce one), `DLT_FUZZ_TIMEOUT` (seconds per
//! command, default 20, or 45 in a debug build), `DLT_FUZZ_JOBS` (cases run
//! at once, default 2), `DLT_PAGE` (above). One case per run (chosen by the
//! seed) sends a 10 MB string. `make fuzz` runs 5000 cases against a
//! release build (`make fuzz PAGE=1`: in the page's wasm too).
#![cfg(not(target_arch = "wasm32"))]

mod cli_support;
mod page_support;
mod rng;

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use cli_support::{dlt_within, Run};
use page_support::{differences, error_kind, Outcome, Page, PageAnswer};
use proptest::prelude::Rng;
use proptest::test_runner::{RngAlgorithm, TestRng};
use rng::Rng as SplitMix64;
use serde_json::{json, Value};

const DEFAULT_SEED: u64 = 0x00D1_7F00_2024_0001;
const DEFAULT_CASES: usize = 200;
/// Longest acceptable error message (one line on standard error).
const MAX_MESSAGE: usize = 300;
/// How much of a request a failure report shows.
const SHOWN: usize = 500;
/// How many times `dlt`'s time limit the page gets for a request.
const PAGE_SLOWER: u32 = 4;
/// The name of the unknown field the generator adds.
const EXTRA: &str = "fuzz_extra";
/// How much an array of copies may add to a request, in bytes.
const MAX_GROWTH: usize = 4 << 20;
/// Placeholders for raw tokens that are not JSON values (`NaN`, `1e999`):
/// the request is serialized with these strings, then they are replaced.
const RAW_MARK: &str = "@@dlt-fuzz-raw-";
/// Response fields where `null` is an answer: a grid cell where the
/// combination is invalid, and a level a map's bound does not reach.
const NULL_BY_DESIGN: &[&str] = &[".contour.values[]", ".map.columns[].overlay."];

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    match std::env::var(name) {
        Ok(text) => text
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("{name}={text:?} is not a valid value")),
        Err(_) => default,
    }
}

fn seed_from_env() -> u64 {
    match std::env::var("DLT_FUZZ_SEED") {
        Ok(text) => {
            let text = text.trim();
            match text.strip_prefix("0x") {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => text.parse(),
            }
            .unwrap_or_else(|_| panic!("DLT_FUZZ_SEED={text:?} is not a number"))
        }
        Err(_) => DEFAULT_SEED,
    }
}

// ---------------------------------------------------------------------------
// Random choices

/// The random source of one case: ChaCha seeded from the run's seed and the
/// case number, so any case can be replayed on its own.
struct Gen(TestRng);

impl Gen {
    fn new(seed: u64, case: usize) -> Gen {
        // SplitMix64 spreads the two numbers over ChaCha's 32-byte key.
        let mut spread = SplitMix64(seed ^ (case as u64).wrapping_mul(0xD1B5_4A32_D192_ED03));
        let mut bytes = [0u8; 32];
        for chunk in bytes.chunks_mut(8) {
            chunk.copy_from_slice(&spread.next().to_le_bytes());
        }
        Gen(TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
    }

    fn below(&mut self, n: usize) -> usize {
        (self.0.next_u64() % n.max(1) as u64) as usize
    }

    fn percent(&mut self, p: usize) -> bool {
        self.below(100) < p
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

// ---------------------------------------------------------------------------
// Paths in a JSON tree

#[derive(Clone, Debug, PartialEq)]
enum Step {
    Key(String),
    Index(usize),
}

/// `machines[0].rate`, the way the calculator names fields.
fn show_path(path: &[Step]) -> String {
    let mut text = String::new();
    for step in path {
        match step {
            Step::Key(key) => {
                if !text.is_empty() {
                    text.push('.');
                }
                text.push_str(key);
            }
            Step::Index(i) => {
                let _ = write!(text, "[{i}]");
            }
        }
    }
    text
}

/// Every node below the root, parents before children.
fn all_paths(value: &Value) -> Vec<Vec<Step>> {
    fn walk(value: &Value, path: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    path.push(Step::Key(key.clone()));
                    out.push(path.clone());
                    walk(child, path, out);
                    path.pop();
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    path.push(Step::Index(i));
                    out.push(path.clone());
                    walk(child, path, out);
                    path.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, &mut Vec::new(), &mut out);
    out
}

fn node_mut<'a>(mut value: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    for step in path {
        value = match step {
            Step::Key(key) => value.as_object_mut()?.get_mut(key)?,
            Step::Index(i) => value.as_array_mut()?.get_mut(*i)?,
        };
    }
    Some(value)
}

fn is_tag(path: &[Step]) -> bool {
    matches!(path.last(), Some(Step::Key(key)) if key == "model")
}

// ---------------------------------------------------------------------------
// Mutations

/// What a mutation puts in place of a node.
#[derive(Clone, Debug)]
enum Hostile {
    /// Any JSON value (numbers, strings, wrong types).
    Value(Value),
    /// A token serde_json does not take as a number (`NaN`, `1e999`).
    Raw(&'static str),
    /// The field (or array element) is removed.
    Delete,
    /// An unknown field is added to this object.
    Extra,
    /// A string of this many characters.
    Text(usize),
    /// An array of this many entries (copies of the node or of its entries).
    Many(usize),
}

struct Mutation {
    path: Vec<Step>,
    hostile: Hostile,
}

impl Mutation {
    /// The path whose name an error should mention.
    fn field(&self) -> Vec<Step> {
        let mut path = self.path.clone();
        if let Hostile::Extra = self.hostile {
            path.push(Step::Key(EXTRA.into()));
        }
        path
    }

    /// A short label of the kind of value, for the summary.
    fn label(&self) -> String {
        match &self.hostile {
            Hostile::Value(v) => short_json(v, 40),
            Hostile::Raw(token) => format!("raw {token}"),
            Hostile::Delete => "deleted".into(),
            Hostile::Extra => format!("unknown field {EXTRA}"),
            Hostile::Text(n) => format!("string of {n} chars"),
            Hostile::Many(n) => format!("array of {n}"),
        }
    }

    fn describe(&self) -> String {
        let path = show_path(&self.path);
        let path = if path.is_empty() { "(root)" } else { &path };
        match &self.hostile {
            Hostile::Delete => format!("{path} deleted"),
            Hostile::Extra => format!("{path} gets \"{EXTRA}\": 1"),
            _ => format!("{path} = {}", self.label()),
        }
    }
}

fn short_json(value: &Value, max: usize) -> String {
    let text = value.to_string();
    if text.len() <= max {
        text
    } else {
        format!("{}… ({} chars)", cut(&text, max), text.len())
    }
}

fn cut(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn numbers() -> Vec<Value> {
    vec![
        json!(0),
        json!(0.0),
        json!(-0.0),
        json!(-1),
        json!(-1e-300),
        json!(1e-308),
        json!(5e-324),
        json!(1e-12),
        json!(1e308),
        json!(-1e308),
        json!(1e12),
        json!(1000000000000u64),
        json!(1e18),
        json!(1.5e18),
        json!(1e19),
        json!(u64::MAX),
        json!(i64::MIN),
        json!(2.5),
        json!(0.5),
        json!(1),
        json!(65),
    ]
}

const RAW: &[&str] = &[
    "NaN",
    "-NaN",
    "Infinity",
    "-Infinity",
    "1e999",
    "-1e999",
    "1e-999",
];

fn strings() -> Vec<Value> {
    ["NaN", "Infinity", "-inf", "inf", "1e999", "x", "", "2"]
        .iter()
        .map(|s| json!(s))
        .collect()
}

fn wrong_types() -> Vec<Value> {
    vec![
        json!(true),
        json!(false),
        Value::Null,
        json!([]),
        json!({}),
        json!([1, 2]),
        json!({"a": 1}),
    ]
}

fn tags() -> Vec<Hostile> {
    let mut out: Vec<Hostile> = [
        "linear",
        "hierarchical",
        "installments",
        "startup",
        "isoefficiency",
        "table1",
        "contour",
        "Linear",
        "",
        "nope",
    ]
    .iter()
    .map(|t| Hostile::Value(json!(t)))
    .collect();
    out.extend([
        Hostile::Value(json!(5)),
        Hostile::Value(Value::Null),
        Hostile::Value(json!(["linear"])),
        Hostile::Delete,
        Hostile::Raw("NaN"),
    ]);
    out
}

/// Formulas in the lecture's notation (functions without parentheses,
/// products by juxtaposition), read or refused, never misread into a NaN.
const NOTATION: &[&str] = &[
    "n/p + 2 log p",
    "2p + n/p",
    "n log n / p^2 + log p^3",
    "(n)(p) / p^2",
    "2 log log p + n/p",
    "sqrt n p / p^2",
    "log 2p",
    "p 2",
    "log",
    "log -p",
    "2(",
    "np",
    "2 log p^2^0.5 + n/p",
];

/// A mutation only M1 gets, of the checks its measured runs, constants and
/// formulas make: a repeated processor count with another time, isospeed
/// speeds of the wrong count, constants typed as `name = value` (its own,
/// or broken), a formula in the lecture's notation.
fn metrics_mutation(gen: &mut Gen, request: &Value) -> Option<Mutation> {
    let key = |k: &str| vec![Step::Key(k.into())];
    request.get("parallel")?;
    let measured = request.get("measured").and_then(Value::as_array);
    match gen.below(4) {
        0 if measured.is_some_and(|m| !m.is_empty()) => {
            let mut runs = measured?.clone();
            let copy = another_time(&runs[gen.below(runs.len())]);
            runs.push(copy);
            Some(Mutation {
                path: key("measured"),
                hostile: Hostile::Value(Value::Array(runs)),
            })
        }
        1 => {
            let (n, n2) = (gen.below(6) + 1, gen.below(6) + 1);
            let isospeed = json!({"p": 4, "work": 1000, "p2": 6, "work2": 2000,
                "speeds": vec![1.0; n], "speeds2": vec![2.0; n2]});
            Some(Mutation {
                path: key("isospeed"),
                hostile: Hostile::Value(isospeed),
            })
        }
        2 => {
            let own = request
                .get("constants")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let pairs: Vec<String> = own.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            let first = own.keys().next().cloned().unwrap_or_else(|| "t_s".into());
            let texts = [
                pairs.join(", "),
                pairs.join("; "),
                format!("{first} 5"),
                format!("{first} = five"),
                format!("{first} = 1, {first} = 2"),
                format!("{first} = 1e999"),
                "{\"t_s\": ".into(),
            ];
            let text = gen.pick(&texts).clone();
            Some(Mutation {
                path: key("constants"),
                hostile: Hostile::Value(json!(text)),
            })
        }
        _ => {
            let text = *gen.pick(NOTATION);
            Some(Mutation {
                path: key("parallel"),
                hostile: Hostile::Value(json!(text)),
            })
        }
    }
}

/// A measured run with its time half as long again, in whatever form the
/// run has: an object `{"p", "time"}`, an array `[p, time]` (serde reads a
/// struct from either), or anything an earlier mutation of the case left
/// there (a number, a string, `null`, a shorter array), which is copied as
/// it is, a repeated entry being as hostile.
fn another_time(run: &Value) -> Value {
    let longer = |time: &Value| json!(time.as_f64().unwrap_or(1.0) * 1.5);
    let mut copy = run.clone();
    match &mut copy {
        Value::Object(fields) => {
            let time = longer(fields.get("time").unwrap_or(&Value::Null));
            fields.insert("time".into(), time);
        }
        Value::Array(items) if items.len() >= 2 => items[1] = longer(&items[1]),
        _ => {}
    }
    copy
}

/// Chooses one mutation of the request (which is not changed yet).
fn choose(gen: &mut Gen, request: &Value) -> Option<Mutation> {
    let paths = all_paths(request);
    if paths.is_empty() {
        return None;
    }
    // Only M1's requests roll for its mutations, so the others' cases stay.
    if request.get("parallel").is_some() && gen.percent(30) {
        if let Some(mutation) = metrics_mutation(gen, request) {
            return Some(mutation);
        }
    }
    // The model tag (or the base's) now and then.
    if gen.percent(7) {
        let tag_paths: Vec<_> = paths.iter().filter(|p| is_tag(p)).cloned().collect();
        if !tag_paths.is_empty() {
            let path = gen.pick(&tag_paths).clone();
            let hostile = gen.pick(&tags()).clone();
            return Some(Mutation { path, hostile });
        }
    }
    // An unknown field in any object, the root included.
    if gen.percent(6) {
        let mut objects: Vec<Vec<Step>> = vec![Vec::new()];
        objects.extend(paths.iter().filter(|p| is_object_at(request, p)).cloned());
        let path = gen.pick(&objects).clone();
        return Some(Mutation {
            path,
            hostile: Hostile::Extra,
        });
    }
    // A field, each kind of field (its path without indices) as likely as
    // another, so the top-level fields are not drowned by array entries.
    let mut kinds = BTreeMap::<String, Vec<Vec<Step>>>::new();
    for path in paths.iter().filter(|p| !is_tag(p)) {
        kinds
            .entry(index_free(path))
            .or_default()
            .push(path.clone());
    }
    let kinds: Vec<_> = kinds.into_values().collect();
    // Nothing but the tag is left (earlier mutations deleted the rest).
    if kinds.is_empty() {
        return None;
    }
    let path = {
        let members = gen.pick(&kinds);
        gen.pick(members)
    }
    .clone();
    // A table of measurements (M9's CSV text): a bad cell, a number at the
    // edge of the range, a ragged row, or thousands of rows.
    if let Some(Value::String(text)) = lookup(request, &path) {
        if text.contains('\n') && gen.percent(70) {
            let hostile = Hostile::Value(Value::String(table_mutation(gen, text)));
            return Some(Mutation { path, hostile });
        }
    }
    // Weights (percent) of numbers, raw tokens, strings, wrong types,
    // deletion, a 1 MB string, an empty array and a huge array, by the kind
    // of node: numbers get mostly numbers, arrays mostly arrays.
    let weights: [usize; 8] = match lookup(request, &path) {
        Some(Value::Number(_)) => [50, 15, 8, 10, 7, 3, 3, 4],
        Some(Value::Array(_)) => [12, 6, 6, 15, 10, 3, 20, 28],
        Some(Value::Object(_)) => [20, 10, 10, 30, 20, 4, 3, 3],
        _ => [20, 10, 25, 20, 12, 8, 2, 3],
    };
    let mut roll = gen.below(weights.iter().sum());
    let mut choice = 0;
    while roll >= weights[choice] {
        roll -= weights[choice];
        choice += 1;
    }
    let hostile = match choice {
        0 => Hostile::Value(gen.pick(&numbers()).clone()),
        1 => Hostile::Raw(RAW[gen.below(RAW.len())]),
        2 => Hostile::Value(gen.pick(&strings()).clone()),
        3 => Hostile::Value(gen.pick(&wrong_types()).clone()),
        4 => Hostile::Delete,
        5 => Hostile::Text(1 << 20),
        6 => Hostile::Value(json!([])),
        _ => Hostile::Many(*gen.pick(&[1000, 3000, 5000])),
    };
    // Thousands of copies of a node that already holds a long string or a
    // huge array would make a request of gigabytes: fewer copies then.
    let hostile = match (hostile, lookup(request, &path)) {
        (Hostile::Many(n), Some(node)) => {
            let entry = match node {
                Value::Array(items) if !items.is_empty() => node.to_string().len() / items.len(),
                _ => node.to_string().len(),
            };
            Hostile::Many(n.min(MAX_GROWTH / entry.max(1)).max(2))
        }
        (hostile, _) => hostile,
    };
    Some(Mutation { path, hostile })
}

/// Cells a table of measurements should refuse or fit without NaN.
const CELLS: [&str; 16] = [
    "", "NaN", "nan", "inf", "-inf", "abc", "-1", "0", "1e400", "1e-400", "1e-300", "1e300",
    "1e29", "1e-29", "4.9e-324", "1,5",
];

/// `text` (CSV with a header) with one hostile change: a cell replaced, a
/// cell dropped or added (a ragged row), a row repeated thousands of
/// times, the rows removed, or the header's unit removed.
fn table_mutation(gen: &mut Gen, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let data: Vec<usize> = (0..lines.len())
        .filter(|&i| !lines[i].starts_with('#') && !lines[i].trim().is_empty())
        .skip(1)
        .collect();
    let Some(&row) = data.get(gen.below(data.len().max(1))) else {
        return String::new();
    };
    let delimiter = if lines[row].contains('\t') { '\t' } else { ',' };
    let mut cells: Vec<String> = lines[row].split(delimiter).map(str::to_string).collect();
    match gen.below(6) {
        0 | 1 => {
            let k = gen.below(cells.len());
            cells[k] = gen.pick(&CELLS).to_string();
        }
        2 => {
            cells.pop();
        }
        3 => cells.push("7".into()),
        4 => {
            let copies = vec![lines[row].clone(); 5000];
            lines.splice(row..=row, copies);
            return lines.join("\n");
        }
        _ => {
            let first = lines
                .iter()
                .position(|l| !l.starts_with('#') && !l.trim().is_empty())
                .unwrap_or(0);
            lines[first] = lines[first].replace("_s", "").replace("_MB", "");
            return lines.join("\n");
        }
    }
    lines[row] = cells.join(&delimiter.to_string());
    lines.join("\n")
}

fn lookup<'a>(mut value: &'a Value, path: &[Step]) -> Option<&'a Value> {
    for step in path {
        value = match step {
            Step::Key(key) => value.get(key)?,
            Step::Index(i) => value.get(*i)?,
        };
    }
    Some(value)
}

fn is_object_at(value: &Value, path: &[Step]) -> bool {
    matches!(lookup(value, path), Some(Value::Object(_)))
}

/// Applies a mutation; raw tokens become placeholders listed in `raws`.
fn apply(request: &mut Value, mutation: &Mutation, raws: &mut Vec<&'static str>) {
    let (parent_path, last) = match mutation.path.split_last() {
        Some((last, parent)) => (parent, Some(last)),
        None => (&[][..], None),
    };
    match &mutation.hostile {
        Hostile::Delete => {
            let parent = node_mut(request, parent_path).expect("the parent exists");
            match (parent, last) {
                (Value::Object(map), Some(Step::Key(key))) => {
                    map.remove(key);
                }
                (Value::Array(items), Some(Step::Index(i))) => {
                    items.remove(*i);
                }
                _ => unreachable!("a deleted node has a parent"),
            }
        }
        Hostile::Extra => {
            let node = node_mut(request, &mutation.path).expect("the object exists");
            node.as_object_mut()
                .expect("an object")
                .insert(EXTRA.into(), json!(1));
        }
        other => {
            // A field the preset leaves out (M1's `isospeed`) is added.
            if let (Some(Value::Object(map)), Some(Step::Key(key))) =
                (node_mut(request, parent_path), last)
            {
                map.entry(key.clone()).or_insert(Value::Null);
            }
            let node = node_mut(request, &mutation.path).expect("the node exists");
            let new = match other {
                Hostile::Value(v) => v.clone(),
                Hostile::Raw(token) => {
                    raws.push(token);
                    Value::String(format!("{RAW_MARK}{}@@", raws.len() - 1))
                }
                Hostile::Text(n) => Value::String("x".repeat(*n)),
                Hostile::Many(n) => {
                    let items: Vec<Value> = match &*node {
                        Value::Array(items) if !items.is_empty() => {
                            items.iter().cycle().take(*n).cloned().collect()
                        }
                        Value::Array(_) => vec![json!(1.0); *n],
                        single => vec![single.clone(); *n],
                    };
                    Value::Array(items)
                }
                Hostile::Delete | Hostile::Extra => unreachable!(),
            };
            *node = new;
        }
    }
}

fn serialize(request: &Value, raws: &[&str]) -> String {
    let mut text = request.to_string();
    for (i, token) in raws.iter().enumerate() {
        text = text.replace(&format!("\"{RAW_MARK}{i}@@\""), token);
    }
    text
}

/// The request as shown in a report: long strings abbreviated, then cut.
fn shown_request(request: &Value, raws: &[&str]) -> String {
    fn abbreviate(value: &mut Value) {
        match value {
            Value::String(s) if s.len() > 40 => {
                *s = format!("{}…({} chars)", cut(s, 8), s.len());
            }
            Value::Array(items) if items.len() > 20 => {
                let n = items.len();
                items.truncate(3);
                items.push(json!(format!("…({n} entries)")));
                items.iter_mut().for_each(abbreviate);
            }
            Value::Array(items) => items.iter_mut().for_each(abbreviate),
            Value::Object(map) => map.values_mut().for_each(abbreviate),
            _ => {}
        }
    }
    let mut shown = request.clone();
    abbreviate(&mut shown);
    let text = serialize(&shown, raws);
    if text.len() <= SHOWN {
        text
    } else {
        format!("{}… ({} chars)", cut(&text, SHOWN), text.len())
    }
}

/// Makes the heavy presets cheap before they are mutated: one machine count,
/// two levels, 3 × 3 grids, a thousand linear machines.
fn shrink(name: &str, request: &mut Value) {
    if name.contains("isoefficiency") || name.contains("table1") {
        request["machines_to"] = request["machines_from"].clone();
        request["levels"] = json!([1.0, 10.0]);
    }
    if name.starts_with("contour-") {
        for axis in ["x", "y"] {
            request[axis]["steps"] = json!(3.0);
            if request[axis]["parameter"] == "machines" || request[axis]["parameter"] == "mappers" {
                request[axis]["to"] = json!(100.0);
            }
        }
    }
    if name.starts_with("mapreduce") && request["series"].is_object() {
        request["series"]["to"] = json!(64.0);
        request["series"]["points"] = json!(6.0);
    }
    if name.starts_with("heterogeneous") {
        request["max_seconds"] = json!(5.0);
        if request["objective"] == "pareto" {
            request["points"] = json!(3.0);
        }
    }
    if let Some(machines) = request.get_mut("machines").and_then(Value::as_array_mut) {
        for machine in machines {
            if machine["count"].as_f64().is_some_and(|c| c > 1000.0) {
                machine["count"] = json!(1000.0);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Running the command

/// Runs `dlt COMMAND` on the request in `file` (passed as the file argument,
/// or on standard input as `-` when `stdin`), killing it after `timeout`.
fn dlt(command: &str, file: &Path, stdin: bool, timeout: Duration) -> Run {
    let path = file.to_string_lossy().into_owned();
    let mut args = vec![command];
    if command == "solve" {
        args.push("--compact");
    }
    let text = if stdin {
        args.push("-");
        std::fs::read_to_string(file).expect("the request file")
    } else {
        args.push(&path);
        String::new()
    };
    dlt_within(&args, &text, timeout)
}

/// Every preset (`dlt example`), shrunk, by name.
fn shrunk_presets() -> Vec<(String, Value)> {
    let list = dlt_text(&["example"]);
    let names: Vec<String> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect();
    assert!(!names.is_empty(), "dlt example lists no presets");
    names
        .into_iter()
        .map(|name| {
            let mut request: Value =
                serde_json::from_str(&dlt_text(&["example", &name])).expect("a preset is JSON");
            shrink(&name, &mut request);
            (name, request)
        })
        .collect()
}

fn dlt_text(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_dlt"))
        .args(args)
        .output()
        .expect("dlt runs");
    assert!(out.status.success(), "dlt {args:?}: {:?}", out.status);
    String::from_utf8(out.stdout).expect("UTF-8")
}

// ---------------------------------------------------------------------------
// Judging the outcome

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Kind {
    Crash,
    Timeout,
    UsageError,
    UnnamedField,
    LongMessage,
    MalformedMessage,
    NonFinite,
    VerdictNotOk,
    CheckOkSolveRejects,
    CheckOkSolveFails,
    CheckFailsSolveOk,
    PageCrash,
    PageTimeout,
    PageMarksOtherwise,
    PageAnswersOtherwise,
}

impl Kind {
    fn title(self) -> &'static str {
        match self {
            Kind::Crash => "crash (panic, abort or signal)",
            Kind::Timeout => "no answer within the time limit",
            Kind::UsageError => "usage error (exit 2) for a well-formed invocation",
            Kind::UnnamedField => "error does not name the changed field",
            Kind::LongMessage => "error message longer than 300 characters",
            Kind::MalformedMessage => "error is not one line starting with `dlt: `",
            Kind::NonFinite => "non-finite or missing number in the response",
            Kind::VerdictNotOk => "a verdict in the response is not ok",
            Kind::CheckOkSolveRejects => "check says ok, solve rejects a field",
            Kind::CheckOkSolveFails => "check says ok, the computation fails",
            Kind::CheckFailsSolveOk => "check rejects, solve succeeds",
            Kind::PageCrash => "the page's wasm crashes (a trap or a stack overflow)",
            Kind::PageTimeout => "the page's wasm gives no answer within the time limit",
            Kind::PageMarksOtherwise => "the page marks other fields than dlt check",
            Kind::PageAnswersOtherwise => "the page's answer or error is not dlt solve's",
        }
    }
}

struct Failure {
    case: usize,
    preset: String,
    command: &'static str,
    kind: Kind,
    detail: String,
    mutations: Vec<String>,
    request: String,
}

/// Numbers and nulls seen in the presets' responses, by model and by path
/// with array indices dropped: a `null` is suspect where the presets have a
/// number and never a `null`, and it is not one of the places where `null`
/// is an answer ([`NULL_BY_DESIGN`]).
#[derive(Default)]
struct Baseline {
    numbers: HashMap<String, HashSet<String>>,
    nulls: HashMap<String, HashSet<String>>,
}

fn index_free(path: &[Step]) -> String {
    let mut text = String::new();
    for step in path {
        match step {
            Step::Key(key) => {
                text.push('.');
                text.push_str(key);
            }
            Step::Index(_) => text.push_str("[]"),
        }
    }
    text
}

fn leaves(value: &Value, path: &mut Vec<Step>, visit: &mut dyn FnMut(&[Step], &Value)) {
    visit(path, value);
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                path.push(Step::Key(key.clone()));
                leaves(child, path, visit);
                path.pop();
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                path.push(Step::Index(i));
                leaves(child, path, visit);
                path.pop();
            }
        }
        _ => {}
    }
}

impl Baseline {
    fn learn(&mut self, response: &Value) {
        let model = response["model"].to_string();
        let numbers = self.numbers.entry(model.clone()).or_default();
        let nulls = self.nulls.entry(model).or_default();
        leaves(response, &mut Vec::new(), &mut |path, v| match v {
            Value::Number(_) => {
                numbers.insert(index_free(path));
            }
            Value::Null => {
                nulls.insert(index_free(path));
            }
            _ => {}
        });
    }

    /// Problems of a successful response: suspect nulls, non-finite strings,
    /// verdicts that are not ok.
    fn judge(&self, response: &Value) -> Vec<(Kind, String)> {
        let model = response["model"].to_string();
        let empty = HashSet::new();
        let numbers = self.numbers.get(&model).unwrap_or(&empty);
        let nulls = self.nulls.get(&model).unwrap_or(&empty);
        let mut found = Vec::new();
        let mut nulls_at = BTreeMap::<String, usize>::new();
        leaves(response, &mut Vec::new(), &mut |path, v| match v {
            Value::Null => {
                let key = index_free(path);
                if numbers.contains(&key)
                    && !nulls.contains(&key)
                    && !NULL_BY_DESIGN.iter().any(|p| key.starts_with(p))
                {
                    *nulls_at.entry(show_path(path)).or_default() += 1;
                }
            }
            // A machine's name and a sheet's title are the user's text
            // echoed back (a table may name a machine "inf"), not a number
            // written as a word.
            Value::String(s)
                if !show_path(path).ends_with(".machine") && show_path(path) != "title" =>
            {
                let lower = s.trim().to_ascii_lowercase();
                let bare = lower.trim_start_matches(['-', '+']);
                if ["nan", "inf", "infinity"].contains(&bare) {
                    found.push((Kind::NonFinite, format!("{} = {s:?}", show_path(path))));
                }
            }
            Value::Number(n) if n.as_f64().is_none_or(|x| !x.is_finite()) => {
                found.push((Kind::NonFinite, format!("{} = {n}", show_path(path))));
            }
            Value::Object(map) => {
                if let Some(verdict @ Value::Object(_)) = map.get("verdict") {
                    if verdict["ok"] != true {
                        found.push((
                            Kind::VerdictNotOk,
                            format!("{}.verdict = {}", show_path(path), short_json(verdict, 200)),
                        ));
                    }
                }
            }
            _ => {}
        });
        if !nulls_at.is_empty() {
            let n = nulls_at.len();
            let some: Vec<_> = nulls_at.keys().take(5).cloned().collect();
            found.push((
                Kind::NonFinite,
                format!(
                    "null where the presets have a number, at {n} place(s): {}",
                    some.join(", ")
                ),
            ));
        }
        found
    }
}

/// A changed field, as an error should name it.
struct Changed {
    path: Vec<Step>,
    /// The model tag (any message about the model or its fields will do).
    tag: bool,
    /// The field names inside the node before it changed (a replaced object
    /// may be reported as missing one of them).
    inner: Vec<String>,
}

fn keys_in(value: &Value) -> Vec<String> {
    let mut keys = Vec::new();
    leaves(value, &mut Vec::new(), &mut |path, _| {
        if let Some(Step::Key(key)) = path.last() {
            keys.push(key.clone());
        }
    });
    keys
}

/// Whether an error message names one of the changed fields: its path, a
/// container of it (`processors[0].levels` for a slope), something inside
/// it (for a replaced object or array), a sibling (a relation such as
/// `a2` above `a1`), or, in a JSON-level error, its name or one inside it.
fn names_field(message: &str, changed: &[Changed]) -> bool {
    let body = message
        .trim()
        .strip_prefix("dlt: ")
        .unwrap_or(message.trim());
    let serde = body.starts_with("malformed input:");
    let (head, rest) = match body.split_once(": ") {
        Some((head, rest)) if !serde => (head, rest),
        _ => ("", body),
    };
    changed.iter().any(|c| {
        let path = &c.path;
        let full = show_path(path);
        if c.tag {
            return has_word(body, "model")
                || body.contains("unknown variant")
                || body.contains("unknown field")
                || body.contains("missing field");
        }
        let name = path.iter().rev().find_map(|s| match s {
            Step::Key(k) => Some(k.as_str()),
            Step::Index(_) => None,
        });
        if serde {
            return body.contains(&full)
                || name.is_some_and(|n| has_word(body, n))
                || c.inner
                    .iter()
                    .any(|k| body.contains(&format!("field `{k}`")));
        }
        let related = parse_path(head).is_some_and(|named| {
            let n = named.len().min(path.len());
            let parent = &path[..path.len().saturating_sub(1)];
            n > 0
                // A container of the field, the field, or inside it.
                && (named[..n] == path[..n]
                    // A relation with a sibling, or with something inside a
                    // sibling (`levels[1].slope` against `levels[0]`).
                    || named.len() == path.len() && named[..n - 1] == path[..n - 1]
                    || !parent.is_empty() && named.starts_with(parent))
        });
        related || has_word(rest, &full) || name.is_some_and(|n| has_word(rest, n))
    })
}

/// `machines[0].rate` as steps (`None` if it is not a path).
fn parse_path(text: &str) -> Option<Vec<Step>> {
    if text.is_empty() || text.contains(char::is_whitespace) {
        return None;
    }
    let mut steps = Vec::new();
    for part in text.split('.') {
        let (key, mut indices) = part
            .split_once('[')
            .map_or((part, ""), |(k, rest)| (k, rest));
        if key.is_empty() {
            return None;
        }
        steps.push(Step::Key(key.to_string()));
        while !indices.is_empty() {
            let (index, rest) = indices.split_once(']')?;
            steps.push(Step::Index(index.parse().ok()?));
            indices = rest.strip_prefix('[').unwrap_or(rest);
        }
    }
    Some(steps)
}

/// `word` occurs in `text` between characters that cannot be part of a name.
fn has_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    let part = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(part) && !after.is_some_and(part)
    })
}

/// One case's request, changed, and what changed in it.
struct Case {
    request: Value,
    /// The raw tokens of its placeholders ([`RAW_MARK`]).
    raws: Vec<&'static str>,
    mutations: Vec<Mutation>,
    changed: Vec<Changed>,
}

/// Case `case` of the run `seed`: one to three mutations of `original`,
/// the first the run's 10 MB string when `huge`.
fn generate(seed: u64, case: usize, huge: bool, original: &Value) -> Case {
    let mut gen = Gen::new(seed, case);
    let mut request = original.clone();
    let count = match gen.below(10) {
        0..=5 => 1,
        6..=8 => 2,
        _ => 3,
    };
    let mut mutations = Vec::new();
    let mut changed = Vec::new();
    let mut raws = Vec::new();
    for _ in 0..count {
        let mutation = if huge && mutations.is_empty() {
            // The run's one 10 MB string, in any field but the tag.
            let fields: Vec<_> = all_paths(&request)
                .into_iter()
                .filter(|p| !is_tag(p))
                .collect();
            Mutation {
                path: gen.pick(&fields).clone(),
                hostile: Hostile::Text(10 << 20),
            }
        } else {
            match choose(&mut gen, &request) {
                Some(mutation) => mutation,
                None => break,
            }
        };
        changed.push(Changed {
            path: mutation.field(),
            tag: is_tag(&mutation.path),
            inner: lookup(&request, &mutation.path)
                .map(keys_in)
                .unwrap_or_default(),
        });
        apply(&mut request, &mutation, &mut raws);
        mutations.push(mutation);
    }
    Case {
        request,
        raws,
        mutations,
        changed,
    }
}

#[allow(clippy::too_many_arguments)]
fn one_case(
    seed: u64,
    case: usize,
    huge: bool,
    presets: &[(String, Value)],
    baseline: &Baseline,
    dir: &Path,
    timeout: Duration,
    page: Option<&mut Page>,
) -> Vec<Failure> {
    let (preset, original) = &presets[case % presets.len()];
    let Case {
        request,
        raws,
        mutations,
        changed,
    } = generate(seed, case, huge, original);
    let text = serialize(&request, &raws);
    let file = dir.join(format!("case-{case}.json"));
    std::fs::write(&file, &text).expect("a temporary file");
    let stdin = case % 2 == 1;
    let check = dlt("check", &file, stdin, timeout);
    let solve = dlt("solve", &file, stdin, timeout);
    let _ = std::fs::remove_file(&file);

    let check_ok = check.code == Some(0);
    let mut found: Vec<(&'static str, Kind, String)> = Vec::new();
    found.extend(judge_exit("check", &check, &changed, true));
    // After a passing check, a failing solve is reported as such below.
    found.extend(judge_exit("solve", &solve, &changed, !check_ok));
    let solve_ok = solve.code == Some(0);
    // Only solving can tell that a limit is below the least value, or that
    // a search found nothing within its limits in its time.
    let solved_out = ["cannot be met: ", "allowed no schedule within the limits"]
        .iter()
        .any(|m| solve.stderr.contains(m));
    if check_ok && solve.code == Some(1) && !solved_out {
        let message = solve.stderr.trim();
        let field = message
            .strip_prefix("dlt: ")
            .and_then(|m| m.split_once(": "))
            .is_some_and(|(head, _)| parse_path(head).is_some());
        found.push((
            "solve",
            if field {
                Kind::CheckOkSolveRejects
            } else {
                Kind::CheckOkSolveFails
            },
            short_text(message, 200),
        ));
    }
    if check.code == Some(1) && solve_ok {
        found.push((
            "check",
            Kind::CheckFailsSolveOk,
            short_text(&format!("{}{}", check.stdout, check.stderr), 200),
        ));
    }
    if check_ok && check.stdout.trim() != "ok" {
        found.push((
            "check",
            Kind::MalformedMessage,
            format!("exit 0 without `ok`: {}", short_text(&check.stdout, 200)),
        ));
    }
    if solve_ok {
        match serde_json::from_str::<Value>(&solve.stdout) {
            Ok(response) => {
                for (kind, detail) in baseline.judge(&response) {
                    found.push(("solve", kind, detail));
                }
            }
            Err(e) => found.push((
                "solve",
                Kind::NonFinite,
                format!(
                    "the response is not JSON ({e}): {}",
                    short_text(&solve.stdout, 200)
                ),
            )),
        }
    }
    if let Some(page) = page {
        // The page runs a map's parts one after the other here (the page
        // has a worker for each), in wasm, which is slower.
        let sent = page_request(&request, &raws);
        let answer = page.answer(&sent, timeout * PAGE_SLOWER);
        let limit = request.get("max_seconds").and_then(Value::as_f64);
        if sent == text {
            found.extend(judge_page(&check, &solve, &answer, limit));
        } else {
            // A token that is not JSON reaches the page as text, a request
            // of its own: `dlt` is given that one too.
            let file = dir.join(format!("case-{case}-page.json"));
            std::fs::write(&file, &sent).expect("a temporary file");
            let check = dlt("check", &file, true, timeout);
            let solve = dlt("solve", &file, true, timeout);
            let _ = std::fs::remove_file(&file);
            found.extend(judge_page(&check, &solve, &answer, limit));
        }
    }
    found
        .into_iter()
        .map(|(command, kind, detail)| Failure {
            case,
            preset: preset.clone(),
            command,
            kind,
            detail,
            mutations: mutations.iter().map(Mutation::describe).collect(),
            request: shown_request(&request, &raws),
        })
        .collect()
}

/// The request as the page sends it: JSON, a raw token (`NaN`, `1e999`)
/// becoming what the page's form makes of the same text typed in a number
/// field (`num` in www/js/form.js): the number when it is a finite one
/// (`1e-999` is 0), else the text as typed, which the core names.
fn page_request(request: &Value, raws: &[&str]) -> String {
    let mut text = request.to_string();
    for (i, token) in raws.iter().enumerate() {
        let typed = match token.parse::<f64>() {
            Ok(v) if v.is_finite() => json!(v),
            _ => json!(token),
        };
        text = text.replace(&format!("\"{RAW_MARK}{i}@@\""), &typed.to_string());
    }
    text
}

/// Whether the page does what the CLI does with a request: marks the same
/// fields as `dlt check` (or none), and computes the same response as
/// `dlt solve` (numbers within the verifier's tolerance) or fails with an
/// error of the same kind about the same field. A page that crashes or
/// hangs is a failure whatever the CLI does. A page that stopped at the
/// request's own time limit (`limit`, its `max_seconds`) where `dlt`
/// finished is allowed only when `dlt` took more than
/// [`PAGE_STOPPED_SHARE`] of that limit ([`stopped_in_time`]).
fn judge_page(
    check: &Run,
    solve: &Run,
    page: &PageAnswer,
    limit: Option<f64>,
) -> Vec<(&'static str, Kind, String)> {
    let mut found = Vec::new();
    match &page.run {
        Outcome::Crash(what) => found.push(("page", Kind::PageCrash, short_text(what, 200))),
        Outcome::Timeout => found.push(("page", Kind::PageTimeout, "no answer".into())),
        _ => {}
    }
    if check.timed_out || check.code.is_none_or(|c| c > 1) {
        return found;
    }
    let cli_marks: Vec<(String, String)> = match check.code {
        Some(0) => Vec::new(),
        _ => check.stdout.lines().map(error_kind).collect(),
    };
    let page_marks: Vec<(String, String)> = page
        .problems
        .iter()
        .map(|(field, message)| match field.as_str() {
            "" => error_kind(message),
            _ => ("field".into(), field.clone()),
        })
        .collect();
    if cli_marks != page_marks {
        found.push((
            "page",
            Kind::PageMarksOtherwise,
            format!("dlt check: {cli_marks:?}, the page: {page_marks:?}"),
        ));
    }
    if solve.timed_out || solve.code.is_none_or(|c| c > 1) {
        return found;
    }
    if stopped_in_time(solve, page, limit) {
        return found;
    }
    let differs = match (solve.code, &page.run) {
        (Some(0), Outcome::Response(answer)) => {
            let cli: Value = serde_json::from_str(&solve.stdout).unwrap_or_default();
            let places = differences(&cli, answer, 3);
            (!places.is_empty()).then(|| format!("the answers differ at {}", places.join("; ")))
        }
        (Some(1), Outcome::Error(message)) => {
            let (cli, page) = (error_kind(&solve.stderr), error_kind(message));
            (cli != page).then(|| {
                format!(
                    "dlt solve: {}; the page: {}",
                    short_text(solve.stderr.trim(), 120),
                    short_text(message, 120)
                )
            })
        }
        (_, Outcome::Crash(_) | Outcome::Timeout) => None,
        (Some(0), Outcome::Error(message)) => Some(format!(
            "dlt solve answers, the page fails: {}",
            short_text(message, 160)
        )),
        _ => Some(format!(
            "dlt solve fails ({}), the page answers",
            short_text(solve.stderr.trim(), 160)
        )),
    };
    found.extend(differs.map(|d| ("page", Kind::PageAnswersOtherwise, d)));
    found
}

/// The share of a request's time limit beyond which `dlt`'s run may take
/// the page's wasm past that limit: the page is up to [`PAGE_SLOWER`]
/// times slower, so a search `dlt` ends in more than a quarter of the
/// limit may not end there in time.
const PAGE_STOPPED_SHARE: f64 = 1.0 / PAGE_SLOWER as f64;

/// Whether the page stopped at the request's time limit (no schedule found
/// in time, or a search stopped at its time) where `dlt`, taking more
/// than [`PAGE_STOPPED_SHARE`] of that limit, finished: a distinct,
/// allowed outcome of a slower build, not a difference in the answer.
fn stopped_in_time(solve: &Run, page: &PageAnswer, limit: Option<f64>) -> bool {
    let Some(limit) = limit.filter(|l| l.is_finite() && *l > 0.0) else {
        return false;
    };
    let stopped = match &page.run {
        Outcome::Error(message) => {
            message.contains("allowed no schedule within the limits to be found in")
        }
        Outcome::Response(answer) => {
            let text = answer.to_string();
            text.contains("\"stopped-at-time\"") && !solve.stdout.contains("\"stopped-at-time\"")
        }
        _ => false,
    };
    stopped && solve.seconds > PAGE_STOPPED_SHARE * limit
}

/// A message with its particulars blanked, to count messages of one kind
/// once: the field it starts with becomes `<field>`, quoted text `"…"`,
/// numbers `N`.
fn shape(text: &str) -> String {
    let mut line = text.lines().next().unwrap_or("");
    let mut out = String::new();
    if let Some(rest) = line.strip_prefix("dlt: ") {
        out.push_str("dlt: ");
        line = rest;
    }
    if let Some((head, rest)) = line.split_once(": ") {
        if parse_path(head).is_some() {
            out.push_str("<field>: ");
            line = rest;
        }
    }
    let mut chars = line.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        if c == '"' || c == '`' {
            for d in chars.by_ref() {
                if d == c {
                    break;
                }
            }
            out.push(c);
            out.push('…');
            out.push(c);
        } else if c.is_ascii_digit() && !(prev.is_ascii_alphanumeric() || prev == '_') {
            while chars
                .peek()
                .is_some_and(|d| d.is_ascii_digit() || matches!(d, '.' | 'e' | 'E' | '+' | '-'))
            {
                chars.next();
            }
            out.push('N');
        } else {
            out.push(c);
        }
        prev = c;
        if out.len() > 160 {
            out.push('…');
            break;
        }
    }
    out
}

fn short_text(text: &str, max: usize) -> String {
    if text.len() <= max {
        text.to_string()
    } else {
        format!("{}… ({} chars)", cut(text, max), text.len())
    }
}

/// Exit status and error message of one command.
fn judge_exit(
    command: &'static str,
    run: &Run,
    changed: &[Changed],
    must_name: bool,
) -> Vec<(&'static str, Kind, String)> {
    let mut found = Vec::new();
    let stderr = run.stderr.trim_end();
    let tail = || short_text(stderr, 200);
    match run.code {
        _ if run.timed_out => {
            found.push((command, Kind::Timeout, run.status()));
            return found;
        }
        Some(0) => return found,
        Some(1) => {}
        Some(2) => {
            found.push((command, Kind::UsageError, tail()));
            return found;
        }
        _ => {
            // The panic or abort message, without the backtrace.
            let what: Vec<&str> = stderr
                .lines()
                .take_while(|l| !l.starts_with("stack backtrace") && !l.starts_with("note: "))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            let what = short_text(&what.join(" "), 200);
            found.push((command, Kind::Crash, format!("{}: {what}", run.status())));
            return found;
        }
    }
    if stderr.len() > MAX_MESSAGE {
        found.push((command, Kind::LongMessage, short_text(stderr, 120)));
    }
    if stderr.lines().count() != 1 || !stderr.starts_with("dlt: ") {
        found.push((command, Kind::MalformedMessage, tail()));
    }
    // `check` lists the invalid fields on standard output, one per line.
    let mut messages: Vec<String> = vec![stderr.to_string()];
    if command == "check" {
        for line in run.stdout.lines() {
            if line.len() > MAX_MESSAGE {
                found.push((command, Kind::LongMessage, short_text(line, 120)));
            }
            messages.push(format!("dlt: {line}"));
        }
    }
    if must_name && !messages.iter().any(|m| names_field(m, changed)) {
        let shown = if command == "check" && !run.stdout.trim().is_empty() {
            format!("{} / {}", short_text(run.stdout.trim(), 200), tail())
        } else {
            tail()
        };
        found.push((command, Kind::UnnamedField, shown));
    }
    found
}

// ---------------------------------------------------------------------------

#[test]
fn hostile_requests() {
    let seed = seed_from_env();
    let cases: usize = env_or("DLT_FUZZ_CASES", DEFAULT_CASES);
    let only: Option<usize> = std::env::var("DLT_FUZZ_ONLY")
        .ok()
        .map(|_| env_or("DLT_FUZZ_ONLY", 0));
    // A debug build of `dlt` is about ten times slower: the largest valid
    // requests (a thousand machines) take half a minute there.
    let default_timeout = if cfg!(debug_assertions) { 45.0 } else { 20.0 };
    let timeout = Duration::from_secs_f64(env_or("DLT_FUZZ_TIMEOUT", default_timeout));
    let jobs: usize = env_or("DLT_FUZZ_JOBS", 2).max(1);
    // With DLT_PAGE, every case goes through the page's wasm too.
    let pkg = std::env::var_os("DLT_PAGE").map(|_| page_support::pkg());
    let started = Instant::now();

    let dir = std::env::temp_dir().join(format!("dlt-fuzz-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");

    // Every preset, shrunk, and what its response looks like.
    let presets = shrunk_presets();
    let mut baseline = Baseline::default();
    let mut failures = Vec::new();
    for (name, request) in &presets {
        let file = dir.join(format!("preset-{name}.json"));
        std::fs::write(&file, request.to_string()).expect("a temporary file");
        let run = dlt("solve", &file, false, timeout);
        let _ = std::fs::remove_file(&file);
        match serde_json::from_str::<Value>(&run.stdout) {
            Ok(response) if run.code == Some(0) => baseline.learn(&response),
            _ => failures.push(Failure {
                case: usize::MAX,
                preset: name.clone(),
                command: "solve",
                kind: if run.timed_out {
                    Kind::Timeout
                } else {
                    Kind::Crash
                },
                detail: format!(
                    "the unchanged preset fails: {}: {}",
                    run.status(),
                    short_text(run.stderr.trim(), 200)
                ),
                mutations: Vec::new(),
                request: short_text(&request.to_string(), SHOWN),
            }),
        }
    }

    let huge_case = (seed % cases.max(1) as u64) as usize;
    let todo: Vec<usize> = match only {
        Some(case) => vec![case],
        None => (0..cases).collect(),
    };
    let next = AtomicUsize::new(0);
    let finished = AtomicUsize::new(0);
    let found = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(todo.len()).max(1) {
            scope.spawn(|| {
                let mut page = pkg.as_deref().map(Page::start);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&case) = todo.get(i) else { break };
                    let out = one_case(
                        seed,
                        case,
                        case == huge_case,
                        &presets,
                        &baseline,
                        &dir,
                        timeout,
                        page.as_mut(),
                    );
                    let mut found = found.lock().unwrap();
                    found.extend(out);
                    // A long run says how far it is.
                    let done = finished.fetch_add(1, Ordering::Relaxed) + 1;
                    if done % 500 == 0 {
                        let seconds = started.elapsed().as_secs_f64();
                        println!(
                            "dlt fuzz: {done} of {} cases, {} failure(s), {:.1} cases/s",
                            todo.len(),
                            found.len(),
                            done as f64 / seconds
                        );
                    }
                }
            });
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    failures.extend(found.into_inner().unwrap());
    failures.sort_by_key(|f| (f.case, f.command, f.kind));

    let seconds = started.elapsed().as_secs_f64();
    println!(
        "dlt fuzz: seed {seed:#x}, {} case(s), {} preset(s), {seconds:.1} s ({:.1} cases/s), \
         {} failure(s){}",
        todo.len(),
        presets.len(),
        todo.len() as f64 / seconds,
        failures.len(),
        if pkg.is_some() {
            ", each case also in the page's wasm"
        } else {
            ""
        }
    );
    if failures.is_empty() {
        return;
    }
    for f in &failures {
        let case = if f.case == usize::MAX {
            "preset".to_string()
        } else {
            format!("case {}", f.case)
        };
        println!(
            "\n[{}] seed {seed:#x} {case} ({}), dlt {}\n  {}\n  changed: {}\n  request: {}\n  replay: DLT_FUZZ_SEED={seed:#x} DLT_FUZZ_CASES={cases} DLT_FUZZ_ONLY={}",
            f.kind.title(),
            f.preset,
            f.command,
            f.detail,
            if f.mutations.is_empty() { "nothing".into() } else { f.mutations.join("; ") },
            f.request,
            f.case,
        );
    }
    // One line per distinct message (numbers, indices and quoted text
    // blanked), with how often it came and a case that shows it.
    let mut classes = BTreeMap::<(Kind, &str, String), (usize, usize, String)>::new();
    for f in &failures {
        let key = (f.kind, f.command, shape(&f.detail));
        let entry = classes
            .entry(key)
            .or_insert_with(|| (0, f.case, f.mutations.join("; ")));
        entry.0 += 1;
    }
    let mut kinds = BTreeMap::<Kind, usize>::new();
    for f in &failures {
        *kinds.entry(f.kind).or_default() += 1;
    }
    println!("\nsummary by kind:");
    for (kind, n) in &kinds {
        println!("  {n:5}  {}", kind.title());
    }
    println!("\ndistinct messages ({}):", classes.len());
    for ((kind, command, what), (n, case, change)) in &classes {
        println!(
            "  {n:4} × {} | dlt {command} | {what}\n         e.g. case {case}: {}",
            kind.title(),
            short_text(change, 160)
        );
    }
    panic!(
        "{} failure(s) in {} case(s) with seed {seed:#x} (see above)",
        failures.len(),
        todo.len()
    );
}

// ---------------------------------------------------------------------------
// The generator itself

/// Cases of `make fuzz` (its FUZZ_CASES).
const MAKE_FUZZ_CASES: usize = 5000;

/// Every preset with M1's measured runs in the other forms a request may
/// give them: as arrays `[p, time]` (serde reads a struct from a sequence
/// too), and as what earlier mutations of a case may leave in their place.
fn in_every_form(presets: &[(String, Value)]) -> Vec<(String, Value)> {
    let mut out = presets.to_vec();
    for (name, request) in presets {
        let Some(runs) = request.get("measured").and_then(Value::as_array) else {
            continue;
        };
        let as_arrays = runs
            .iter()
            .map(|r| match r {
                Value::Object(_) => json!([r["p"], r["time"]]),
                other => other.clone(),
            })
            .collect();
        let left_over = vec![json!(4), json!("x"), Value::Null, json!([2]), json!({})];
        for (form, runs) in [("runs as arrays", as_arrays), ("odd runs", left_over)] {
            let mut changed = request.clone();
            changed["measured"] = Value::Array(runs);
            out.push((format!("{name} ({form})"), changed));
        }
    }
    out
}

/// The generator builds mutations of every preset of every model, and of
/// M1's presets with their measured runs in every form (each of M1's own
/// four kinds of mutation among them), without panicking: only requests
/// are built, no `dlt` runs. (`make fuzz` once stopped at its own
/// generator, which took a run for an object where a case had left an
/// array.)
#[test]
fn the_generator_mutates_every_preset_in_every_form() {
    let presets = in_every_form(&shrunk_presets());
    assert!(
        presets
            .iter()
            .any(|(name, _)| name.ends_with("(runs as arrays)")),
        "no preset has measured runs to give as arrays"
    );
    for (name, request) in &presets {
        for case in 0..64 {
            let built = generate(DEFAULT_SEED, case, false, request);
            assert!(
                !built.mutations.is_empty(),
                "{name}: case {case} changed nothing"
            );
            serde_json::from_str::<Value>(&page_request(&built.request, &built.raws))
                .unwrap_or_else(|e| panic!("{name}: case {case}: the page's request: {e}"));
        }
        if request.get("parallel").is_none() {
            continue;
        }
        let mut kinds = BTreeSet::new();
        for case in 0..64 {
            let mut gen = Gen::new(DEFAULT_SEED, case);
            let mutation = metrics_mutation(&mut gen, request).expect("an M1 request");
            apply(&mut request.clone(), &mutation, &mut Vec::new());
            kinds.insert(show_path(&mutation.path));
        }
        let has_runs = request["measured"]
            .as_array()
            .is_some_and(|r| !r.is_empty());
        let want: BTreeSet<String> = ["measured", "isospeed", "constants", "parallel"]
            .into_iter()
            .filter(|k| has_runs || *k != "measured")
            .map(String::from)
            .collect();
        assert_eq!(kinds, want, "{name}: M1's kinds of mutation");
    }
}

/// A repeated run gets a time half as long again in either form; anything
/// else is repeated as it is.
#[test]
fn a_repeated_run_takes_another_time_in_either_form() {
    assert_eq!(
        another_time(&json!({"p": 4, "time": 2.0})),
        json!({"p": 4, "time": 3.0})
    );
    assert_eq!(another_time(&json!([4, 2.0])), json!([4, 3.0]));
    for odd in [json!([4]), json!(7), json!("x"), Value::Null, json!({})] {
        let expected = match &odd {
            Value::Object(_) => json!({"time": 1.5}),
            _ => odd.clone(),
        };
        assert_eq!(another_time(&odd), expected);
    }
}

/// Every case of `make fuzz`'s default run is built (the one that stopped
/// it among them), without running `dlt`.
#[test]
fn every_case_of_make_fuzz_is_built() {
    let presets = shrunk_presets();
    let huge_case = (DEFAULT_SEED % MAKE_FUZZ_CASES as u64) as usize;
    for case in 0..MAKE_FUZZ_CASES {
        let (name, request) = &presets[case % presets.len()];
        let built = generate(DEFAULT_SEED, case, case == huge_case, request);
        assert!(
            !built.mutations.is_empty(),
            "{name}: case {case} changed nothing"
        );
    }
}

/// A page stopped at the request's time limit is allowed only when `dlt`
/// took more than its share of that limit, and only with a limit.
#[test]
fn a_page_stopped_at_the_time_limit_is_allowed_only_after_a_long_cli_run() {
    let solve = |seconds: f64| Run {
        code: Some(1),
        signal: None,
        stdout: String::new(),
        stderr: "dlt: makespan_limit: cannot be met: 1 is below the least value of any schedule, 2"
            .into(),
        timed_out: false,
        seconds,
    };
    let page = PageAnswer {
        problems: Vec::new(),
        run: Outcome::Error(
            "allowed no schedule within the limits to be found in 5 s; allow more seconds".into(),
        ),
    };
    assert!(stopped_in_time(&solve(2.0), &page, Some(5.0)));
    assert!(!stopped_in_time(&solve(1.0), &page, Some(5.0)));
    assert!(!stopped_in_time(&solve(2.0), &page, None));
    let answered = PageAnswer {
        problems: Vec::new(),
        run: Outcome::Error("makespan_limit: cannot be met".into()),
    };
    assert!(!stopped_in_time(&solve(4.0), &answered, Some(5.0)));
}
