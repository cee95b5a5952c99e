//! Running the `dlt` command in tests: input on stdin, a wall-clock limit,
//! and the exit status, output and error text.
// Each test file uses a different part of this module.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What one run of `dlt` gave.
#[derive(Debug)]
pub struct Run {
    /// The exit code; `None` when killed by a signal or at the limit.
    pub code: Option<i32>,
    /// The signal that ended it, if one did (unix only).
    pub signal: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Killed at the wall-clock limit.
    pub timed_out: bool,
    pub seconds: f64,
}

/// Runs `dlt args` with `stdin`, killing it after `limit`.
pub fn dlt_within(args: &[&str], stdin: &str, limit: Duration) -> Run {
    dlt_within_env(args, stdin, limit, &[])
}

/// [`dlt_within`] with environment variables set for `dlt` (e.g.
/// `RAYON_NUM_THREADS`, so that a time-limited run does as much work on
/// any number of cores).
pub fn dlt_within_env(args: &[&str], stdin: &str, limit: Duration, vars: &[(&str, &str)]) -> Run {
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_dlt"))
        .args(args)
        .envs(vars.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the dlt binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    let text = stdin.to_string();
    // Write from a thread: a large input must not block on a full pipe.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let mut out = child.stdout.take().expect("stdout is piped");
    let mut err = child.stderr.take().expect("stderr is piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("dlt can be waited for") {
            break Some(status);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            timed_out = true;
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = writer.join();
    Run {
        code: status.and_then(|s| s.code()),
        signal: status.as_ref().and_then(signal_of),
        stdout: reader.join().unwrap_or_default(),
        stderr: err_reader.join().unwrap_or_default(),
        timed_out,
        seconds: started.elapsed().as_secs_f64(),
    }
}

#[cfg(unix)]
fn signal_of(status: &std::process::ExitStatus) -> Option<i32> {
    use std::os::unix::process::ExitStatusExt;
    status.signal()
}

#[cfg(not(unix))]
fn signal_of(_: &std::process::ExitStatus) -> Option<i32> {
    None
}

impl Run {
    /// Exit status 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }

    /// How it ended, in words.
    pub fn status(&self) -> String {
        if self.timed_out {
            format!("timed out after {:.1} s", self.seconds)
        } else if let Some(code) = self.code {
            format!("exit {code}")
        } else {
            format!("killed by signal {}", self.signal.unwrap_or(-1))
        }
    }
}

/// Runs `dlt args` with `stdin` (at most a minute).
pub fn dlt(args: &[&str], stdin: &str) -> Run {
    dlt_within(args, stdin, Duration::from_secs(60))
}

/// A built-in example as JSON, changed by `edit`.
pub fn example_with(name: &str, edit: impl FnOnce(&mut serde_json::Value)) -> String {
    let run = dlt(&["example", name], "");
    assert_eq!(run.code, Some(0), "example {name}: {}", run.stderr);
    let mut value: serde_json::Value =
        serde_json::from_str(&run.stdout).expect("an example is JSON");
    edit(&mut value);
    value.to_string()
}
