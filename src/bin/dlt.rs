//! `dlt`: the calculator on the command line. JSON in, JSON out; the same
//! entry points as the page.

use std::io::{Read, Write};
use std::process::ExitCode;

use dlt_calc::api::{self, Request, EXAMPLES};
use dlt_calc::plot::{gantt_svg, lines_svg};
use dlt_calc::progress::Silent;

const HELP: &str = "\
dlt - divisible load theory calculator

Usage:
  dlt solve [FILE] [--svg OUT] [--charts DIR] [--compact]
      Solve the request in FILE (or standard input when FILE is absent or -)
      and print the response as JSON. --svg writes the Gantt chart to OUT;
      --charts writes every line chart to DIR/<name>.svg; --csv prints
      the result as CSV (maps and tables only).
  dlt map [FILE] [--csv] [--charts DIR] [--compact]
      The isoefficiency map of the M5 request in FILE (model
      \"isoefficiency\"); without FILE, the reference map of [000]
      (m = 2..20). --csv prints one row per point instead of JSON.
  dlt table [FILE] [--csv] [--compact]
      [000] Table 1 (model \"table1\"); without FILE, for the reference
      instance, beside the paper's values.
  dlt check [FILE]
      List every invalid field of the request, one per line; exit 1 if any.
  dlt example [NAME]
      Print a built-in example request; without NAME, list the examples.
  dlt --help | --version

A request is a JSON object whose \"model\" field names the model, e.g.
  dlt example hierarchical | dlt solve

Exit status: 0 success, 1 invalid input or failed computation (the message
is on standard error), 2 wrong usage.
";

/// What went wrong, and with which exit status.
enum Failure {
    Usage(String),
    Input(String),
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(msg)) => {
            eprintln!("dlt: {msg}\n(see dlt --help)");
            ExitCode::from(2)
        }
        Err(Failure::Input(msg)) => {
            eprintln!("dlt: {msg}");
            ExitCode::from(1)
        }
    }
}

fn usage(e: impl std::fmt::Display) -> Failure {
    Failure::Usage(e.to_string())
}

fn input(e: impl std::fmt::Display) -> Failure {
    Failure::Input(e.to_string())
}

struct Args {
    command: String,
    file: Option<String>,
    svg: Option<String>,
    charts: Option<String>,
    compact: bool,
    csv: bool,
}

fn parse_args() -> Result<Option<Args>, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_env();
    let mut args = Args {
        command: String::new(),
        file: None,
        svg: None,
        charts: None,
        compact: false,
        csv: false,
    };
    while let Some(arg) = parser.next().map_err(usage)? {
        match arg {
            Short('h') | Long("help") => {
                print!("{HELP}");
                return Ok(None);
            }
            Short('V') | Long("version") => {
                println!("dlt {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            Long("svg") => args.svg = Some(parser.value()?.string().map_err(usage)?),
            Long("charts") => args.charts = Some(parser.value()?.string().map_err(usage)?),
            Long("compact") => args.compact = true,
            Long("csv") => args.csv = true,
            Value(v) if args.command.is_empty() => args.command = v.string().map_err(usage)?,
            Value(v) if args.file.is_none() => args.file = Some(v.string().map_err(usage)?),
            other => return Err(usage(other.unexpected())),
        }
    }
    if args.command.is_empty() {
        return Err(usage(
            "missing command: solve, map, table, check or example",
        ));
    }
    Ok(Some(args))
}

impl From<lexopt::Error> for Failure {
    fn from(e: lexopt::Error) -> Failure {
        usage(e)
    }
}

fn read_request(file: Option<&str>) -> Result<Request, Failure> {
    let text = match file {
        None | Some("-") => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| input(format!("cannot read standard input: {e}")))?;
            s
        }
        Some(path) => {
            std::fs::read_to_string(path).map_err(|e| input(format!("cannot read {path}: {e}")))?
        }
    };
    Request::from_json(&text).map_err(input)
}

fn print_json<T: serde::Serialize>(value: &T, compact: bool) -> Result<(), Failure> {
    let text = if compact {
        serde_json::to_string(value)
    } else {
        serde_json::to_string_pretty(value)
    }
    .map_err(input)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}").map_err(input)
}

fn run() -> Result<(), Failure> {
    let Some(args) = parse_args()? else {
        return Ok(());
    };
    match args.command.as_str() {
        "solve" | "map" | "table" => {
            let request = match (args.command.as_str(), args.file.as_deref()) {
                ("map", None) => Request::example("isoefficiency").expect("a built-in example"),
                ("table", None) => Request::example("table1").expect("a built-in example"),
                (_, file) => read_request(file)?,
            };
            let wanted = match args.command.as_str() {
                "map" => Some("isoefficiency"),
                "table" => Some("table1"),
                _ => None,
            };
            let model = serde_json::to_value(&request).map_err(input)?["model"].clone();
            if let Some(want) = wanted.filter(|&w| model != w) {
                return Err(input(format!(
                    "{} needs a request of model {want:?}, not {model}",
                    args.command
                )));
            }
            let response = api::run(&request, &mut Silent).map_err(input)?;
            if let Some(path) = &args.svg {
                let gantt = response
                    .gantt()
                    .ok_or_else(|| input("this result has no Gantt chart (too many chunks)"))?;
                let svg =
                    gantt_svg(gantt, 900, 120 + 40 * gantt.rows.len() as u32).map_err(input)?;
                std::fs::write(path, svg)
                    .map_err(|e| input(format!("cannot write {path}: {e}")))?;
            }
            if let Some(dir) = &args.charts {
                std::fs::create_dir_all(dir)
                    .map_err(|e| input(format!("cannot create {dir}: {e}")))?;
                for chart in response.charts() {
                    let svg = lines_svg(chart, 900, 560).map_err(input)?;
                    let path = std::path::Path::new(dir).join(format!("{}.svg", chart.name));
                    std::fs::write(&path, svg)
                        .map_err(|e| input(format!("cannot write {}: {e}", path.display())))?;
                }
            }
            if args.csv {
                let csv = response
                    .csv()
                    .ok_or_else(|| input("this result has no CSV form (maps and tables have)"))?;
                print!("{csv}");
                return Ok(());
            }
            print_json(&response, args.compact)
        }
        "check" => {
            let request = read_request(args.file.as_deref())?;
            let problems = request.problems();
            for p in &problems {
                println!("{}: {}", p.field, p.message);
            }
            if problems.is_empty() {
                println!("ok");
                Ok(())
            } else {
                Err(input(format!("{} invalid field(s)", problems.len())))
            }
        }
        "example" => match args.file.as_deref() {
            None => {
                for (name, what) in EXAMPLES {
                    println!("{name:14} {what}");
                }
                Ok(())
            }
            Some(name) => {
                let request = Request::example(name)
                    .ok_or_else(|| usage(format!("no example named {name:?}")))?;
                print_json(&request, args.compact)
            }
        },
        other => Err(usage(format!("unknown command {other:?}"))),
    }
}
