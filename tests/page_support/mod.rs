//! The page's wasm run in Node (`tests/page-wasm.mjs`), to hold its
//! answers against the CLI's: what the page marks and what computing a
//! request gives there, and the rules by which two outcomes count as the
//! same.
//!
//! The page's build is named by `DLT_PAGE` (the folder `make build` writes,
//! `www/pkg`); `make test` sets it in its end-to-end lane, where the page
//! is built.
// Each test file uses a different part of this module.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

/// Relative tolerance of numbers compared between the two builds: the
/// verifier's. The page's maths (wasm's `ln`, `exp`, `powf`) may differ
/// from the native ones in the last bits.
pub use dlt_calc::core::domain::verify::RELATIVE_TOLERANCE as TOLERANCE;

/// Response fields that measure the computation (seconds spent), not the
/// answer, so they differ from run to run.
const TIMINGS: &[&str] = &["seconds", "incumbent_seconds"];

/// Fields the page's response has beside the CLI's (`Response::for_page`).
const PAGE_ONLY: &[&str] = &["view", "has_csv"];

/// The folder of the page's wasm (`DLT_PAGE`), checked to hold it.
pub fn pkg() -> PathBuf {
    let dir = std::env::var("DLT_PAGE").unwrap_or_else(|_| {
        panic!(
            "DLT_PAGE is not set: build the page (make build) and run with \
             DLT_PAGE=www/pkg (make test does, in its end-to-end lane)"
        )
    });
    let dir = PathBuf::from(dir);
    let wasm = dir.join("dlt_calc_bg.wasm");
    assert!(wasm.exists(), "{} is missing: make build", wasm.display());
    dir
}

/// The page's wasm in Node, one request at a time.
pub struct Page {
    pkg: PathBuf,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// What Node wrote on standard error (a panic's message) since the
    /// last request.
    stderr: Arc<Mutex<String>>,
}

/// What the page does with a request.
#[derive(Debug)]
pub struct PageAnswer {
    /// The invalid fields it marks: `(field, message)`.
    pub problems: Vec<(String, String)>,
    /// Computing it.
    pub run: Outcome,
}

/// A computation's end.
#[derive(Debug)]
pub enum Outcome {
    /// The response, with the page's own fields left out.
    Response(Value),
    /// An error's message.
    Error(String),
    /// A trap or stack overflow (the worker would be replaced), with what
    /// the panic hook wrote.
    Crash(String),
    /// No answer within the time limit (Node was stopped).
    Timeout,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/page-wasm.mjs")
}

impl Page {
    /// Node with the page's wasm from `pkg` loaded.
    pub fn start(pkg: &Path) -> Page {
        let mut child = Command::new("node")
            .arg(script())
            .arg(pkg)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("node starts (it runs the page's wasm)");
        let stdin = child.stdin.take().expect("stdin is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        let mut err = child.stderr.take().expect("stderr is piped");
        let (send, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            while let Ok(n @ 1..) = err.read(&mut buffer) {
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buffer[..n]));
            }
        });
        Page {
            pkg: pkg.to_path_buf(),
            child,
            stdin,
            lines,
            stderr,
        }
    }

    /// What the page does with `request` (one line of JSON, as the page's
    /// form would send it), within `limit`; after a time-out Node is
    /// started again.
    pub fn answer(&mut self, request: &str, limit: Duration) -> PageAnswer {
        self.stderr.lock().unwrap().clear();
        let sent = writeln!(self.stdin, "{request}").and_then(|()| self.stdin.flush());
        let line = match sent {
            Ok(()) => self.lines.recv_timeout(limit),
            Err(_) => Err(RecvTimeoutError::Disconnected),
        };
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                let said = std::mem::take(&mut *self.stderr.lock().unwrap());
                self.restart();
                let run = match e {
                    RecvTimeoutError::Timeout => Outcome::Timeout,
                    RecvTimeoutError::Disconnected => {
                        Outcome::Crash(format!("node ended: {}", said.lines().last().unwrap_or("")))
                    }
                };
                return PageAnswer {
                    problems: Vec::new(),
                    run,
                };
            }
        };
        let said = std::mem::take(&mut *self.stderr.lock().unwrap());
        read_answer(&line, &said)
    }

    fn restart(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        *self = Page::start(&self.pkg);
    }
}

impl Drop for Page {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An answer line of `page-wasm.mjs`.
fn read_answer(line: &str, stderr: &str) -> PageAnswer {
    let value: Value = serde_json::from_str(line).expect("page-wasm.mjs writes JSON");
    let problems = value["problems"]
        .as_array()
        .map(|list| {
            list.iter()
                .map(|p| {
                    let text = |k: &str| p[k].as_str().unwrap_or_default().to_string();
                    (text("field"), text("message"))
                })
                .collect()
        })
        .unwrap_or_default();
    let run = &value["run"];
    let run = if let Some(Value::Object(fields)) = run.get("response") {
        let mut fields = fields.clone();
        for key in PAGE_ONLY {
            fields.remove(*key);
        }
        Outcome::Response(Value::Object(fields))
    } else if let Some(message) = run["error"].as_str() {
        Outcome::Error(message.to_string())
    } else {
        let panic = stderr
            .lines()
            .find(|l| l.contains("panicked"))
            .unwrap_or_default();
        let trap = run["crash"].as_str().unwrap_or("no answer");
        Outcome::Crash(format!("{trap} {panic}").trim().to_string())
    };
    PageAnswer { problems, run }
}

/// What an error is, as both builds write it (`Error`'s `Display`): its
/// kind, and the field it names for a field's error.
pub fn error_kind(message: &str) -> (String, String) {
    let message = message.trim();
    let body = message.strip_prefix("dlt: ").unwrap_or(message);
    let kinds = [
        ("malformed input:", "malformed"),
        ("the LP solver failed", "solver"),
        ("cancelled", "cancelled"),
        ("the time limit of", "time limit"),
        ("the chart could not be drawn", "drawing"),
    ];
    if let Some((_, kind)) = kinds.iter().find(|(start, _)| body.starts_with(start)) {
        return ((*kind).to_string(), String::new());
    }
    match body.split_once(": ") {
        Some((head, _)) if !head.contains(char::is_whitespace) => {
            ("field".into(), head.to_string())
        }
        _ => ("other".into(), String::new()),
    }
}

/// Two numbers equal within [`TOLERANCE`] of the larger.
pub fn same_number(x: f64, y: f64) -> bool {
    same_within(x, y, TOLERANCE)
}

/// Two numbers equal within `tolerance` of the larger.
fn same_within(x: f64, y: f64, tolerance: f64) -> bool {
    x == y || (x - y).abs() <= tolerance * x.abs().max(y.abs())
}

/// Relative tolerance of a derived exponent (M1's isoefficiency
/// `exponent`, `ln(W_v/W_u)/ln(p_v/p_u)` over the curve's last two
/// points): the rounding of each `W` (within [`TOLERANCE`]) is divided by
/// `ln(p_v/p_u)`, about 0.01 between neighbouring processor counts near
/// 100, so the exponent carries a hundred times that rounding, and one
/// more factor ten of margin.
pub const EXPONENT_TOLERANCE: f64 = 1e-8;

/// Response fields that are derived exponents ([`EXPONENT_TOLERANCE`]).
const EXPONENTS: &[&str] = &[".exponent"];

/// Where two responses differ (at most `most` places, as `path: a ≠ b`):
/// the same fields and entries, equal strings and booleans, numbers equal
/// within [`TOLERANCE`] ([`same_number`]; derived exponents within
/// [`EXPONENT_TOLERANCE`]), timings left out.
pub fn differences(a: &Value, b: &Value, most: usize) -> Vec<String> {
    let mut out = Vec::new();
    compare(a, b, &mut String::new(), &mut out, most);
    out
}

fn compare(a: &Value, b: &Value, path: &mut String, out: &mut Vec<String>, most: usize) {
    if out.len() >= most {
        return;
    }
    let shown = |v: &Value| {
        let text = v.to_string();
        match text.char_indices().nth(80) {
            Some((end, _)) => format!("{}…", &text[..end]),
            None => text,
        }
    };
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            let tolerance = if EXPONENTS.iter().any(|e| path.ends_with(e)) {
                EXPONENT_TOLERANCE
            } else {
                TOLERANCE
            };
            if !same_within(x, y, tolerance) {
                out.push(format!("{path}: {x:e} ≠ {y:e}"));
            }
        }
        (Value::Array(xs), Value::Array(ys)) if xs.len() == ys.len() => {
            for (i, (x, y)) in xs.iter().zip(ys).enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                compare(x, y, path, out, most);
                path.truncate(len);
            }
        }
        (Value::Array(xs), Value::Array(ys)) => {
            out.push(format!("{path}: {} entries ≠ {}", xs.len(), ys.len()));
        }
        (Value::Object(xs), Value::Object(ys)) => {
            let keys: std::collections::BTreeSet<&String> = xs.keys().chain(ys.keys()).collect();
            for key in keys {
                if TIMINGS.contains(&key.as_str()) {
                    continue;
                }
                let len = path.len();
                path.push('.');
                path.push_str(key);
                match (xs.get(key), ys.get(key)) {
                    (Some(x), Some(y)) => compare(x, y, path, out, most),
                    (x, y) => out.push(format!(
                        "{path}: {} ≠ {}",
                        x.map_or("absent".into(), shown),
                        y.map_or("absent".into(), shown)
                    )),
                }
                path.truncate(len);
            }
        }
        _ if a == b => {}
        _ => out.push(format!("{path}: {} ≠ {}", shown(a), shown(b))),
    }
}
