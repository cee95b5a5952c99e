//! `dlt`: the calculator on the command line. JSON in, JSON out; the same
//! entry points as the page.

use std::collections::BTreeMap;
use std::io::Read;
use std::process::ExitCode;

use dlt_calc::api::{self, examples, FieldProblem, Request};
use dlt_calc::core::framework::entry::Entry;
use dlt_calc::core::presentation::response::Response;
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::plot::{gantt_height, gantt_svg, lines_svg};
use dlt_calc::{registry, sweep};

const HELP_HEAD: &str = "\
dlt - divisible load theory calculator

Usage:
  dlt solve [FILE] [--svg OUT] [--charts DIR] [--csv | --csv-file OUT] [--compact]
      Solve the request in FILE (or standard input when FILE is absent or -)
      and print the response as JSON. --svg writes the Gantt chart to OUT;
      --charts writes every line chart to DIR/<name>.svg; --csv prints
      the result as CSV instead (maps and tables only); --csv-file writes
      the CSV to OUT as well, so one solve gives both.
  dlt VERB [FILE] [--csv] [--charts DIR] [--compact]
      As solve, for a request of the model VERB names (without FILE, that
      model's default example):
";

const HELP_TAIL: &str = "  dlt split [FILE] [--parts N]
      Print the independent parts of the request, one compact request a
      line, each for dlt solve on any machine (a request that does not
      split prints itself). --parts N: at most N parts, each a range of
      the model's own pieces (a map's machine counts, Table 1's rows).
  dlt join FILE [ANSWERS] [--csv | --csv-file OUT] [--compact]
      Join the parts' answers (JSON lines in any order, from ANSWERS or
      standard input) into the response dlt solve FILE prints. Missing or
      failed parts give a response marked \"completion\": \"partial\" with
      \"missing\" (the part numbers, from 0: line n+1 of split) and
      \"failed\" (their errors); an answer of another request is refused.
  dlt check [FILE]
      List every invalid field of the request, one per line; exit 1 if any.
  dlt check [FILE] --schedule SCHEDULE
      Check the schedule in SCHEDULE (JSON, see dlt schema schedule)
      against the request in FILE: print every broken rule (its name,
      machine, chunk and amounts), the schedule's makespan (and energy)
      and its gap to the model's answer, as JSON; exit 1 if a rule is
      broken.
  dlt example [NAME]
      Print a built-in example request; without NAME, list the examples.
      NAME may be a model's id: its default example.
  dlt schema [ID] [--compact]
      Print the JSON Schema (draft 2020-12) of a request of model ID (its
      \"model\" tag), or of a schedule to check with ID schedule;
      without ID, list the IDs with their titles.
  dlt --help | --version

Options of solve and the verbs:
  --max-seconds S   stop after S seconds with the best result so far
                    (marked \"completion\": \"partial\"), or an error when
                    there is none yet; the request's own max_seconds
                    applies too, whichever is shorter
  --answer-errors   for a part of dlt split that fails: print an error
                    answer (its part and the message) for dlt join to
                    report, and exit 0, so a parallel run goes on

A request is a JSON object whose \"model\" field names the model by its id,
e.g. dlt example ID | dlt solve

Exit status: 0 success, 1 invalid input or failed computation (the message
is on standard error), 2 wrong usage.
";

/// The help: the fixed text around the verbs and the tables the models
/// declare.
fn help() -> String {
    let verbs: String = registry::all()
        .filter_map(|m| Some((m.id().command?, m.id().name, m.id().title)))
        .map(|(verb, id, title)| format!("        {verb:<8}{id}: {title}\n"))
        .collect();
    let tables: String = registry::all()
        .filter_map(|m| m.table_input())
        .map(|table| format!("  dlt VERB TABLE.csv {}", table.help()))
        .collect();
    format!("{HELP_HEAD}{verbs}{tables}{HELP_TAIL}")
}

/// The options of the tables of measurements the models read, as `--as`,
/// `--shape` and `--request` in a sentence.
fn table_options() -> String {
    let mut names: Vec<&str> = Vec::new();
    for table in registry::all().filter_map(|m| m.table_input()) {
        let new: Vec<&str> = (table.options().iter().copied())
            .filter(|n| !names.contains(n))
            .collect();
        names.extend(new);
    }
    let written: Vec<String> = names.iter().map(|n| format!("--{n}")).collect();
    match written.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The model whose requests the command-line verb `verb` solves.
fn model_of_verb(verb: &str) -> Option<&'static dyn Entry> {
    registry::all().find(|m| m.id().command == Some(verb))
}

/// `print!` that ends the program quietly when the reader has gone
/// (`dlt example | head`), as a filter does, instead of panicking.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(e) = write!(std::io::stdout().lock(), $($arg)*) {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
            eprintln!("dlt: cannot write the output: {e}");
            std::process::exit(1);
        }
    }};
}

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
    /// `--csv-file`: the CSV written there, the JSON printed.
    csv_file: Option<String>,
    max_seconds: Option<f64>,
    /// `join`'s second file: the parts' answers.
    answers: Option<String>,
    /// `split --parts N`.
    parts: Option<usize>,
    /// `solve --answer-errors`.
    answer_errors: bool,
    /// `check --schedule FILE`: the schedule to check.
    schedule: Option<String>,
    /// The options of a table of measurements (`--shape two-level` as
    /// `shape`), for the model that reads it.
    table: BTreeMap<String, String>,
}

/// Whether `name` is an option of a table of measurements of a model.
fn is_table_option(name: &str) -> bool {
    let mut tables = registry::all().filter_map(|m| m.table_input());
    tables.any(|table| table.options().contains(&name))
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
        csv_file: None,
        max_seconds: None,
        answers: None,
        parts: None,
        answer_errors: false,
        schedule: None,
        table: BTreeMap::new(),
    };
    while let Some(arg) = parser.next().map_err(usage)? {
        match arg {
            Short('h') | Long("help") => {
                say!("{}", help());
                return Ok(None);
            }
            Short('V') | Long("version") => {
                say!("dlt {}\n", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            Long("svg") => args.svg = Some(parser.value()?.string().map_err(usage)?),
            Long("charts") => args.charts = Some(parser.value()?.string().map_err(usage)?),
            Long("compact") => args.compact = true,
            Long("csv") => args.csv = true,
            Long("csv-file") => args.csv_file = Some(parser.value()?.string().map_err(usage)?),
            Long("answer-errors") => args.answer_errors = true,
            Long("schedule") => args.schedule = Some(parser.value()?.string().map_err(usage)?),
            Long("max-seconds") => args.max_seconds = Some(max_seconds(&mut parser)?),
            Long("parts") => args.parts = Some(parts(&mut parser)?),
            Long(name) if is_table_option(name) => {
                let name = name.to_string();
                let value = parser.value()?.string().map_err(usage)?;
                args.table.insert(name, value);
            }
            Value(v) if args.command.is_empty() => args.command = v.string().map_err(usage)?,
            Value(v) if args.file.is_none() => args.file = Some(v.string().map_err(usage)?),
            Value(v) if args.command == "join" && args.answers.is_none() => {
                args.answers = Some(v.string().map_err(usage)?);
            }
            other => return Err(usage(other.unexpected())),
        }
    }
    complete(args).map(Some)
}

/// The arguments, once they name a command and ask for one CSV at most.
fn complete(args: Args) -> Result<Args, Failure> {
    if args.command.is_empty() {
        let verbs: Vec<&str> = registry::all().filter_map(|m| m.id().command).collect();
        return Err(usage(format!(
            "missing command: solve, {}, split, join, check, example or schema",
            verbs.join(", ")
        )));
    }
    if args.csv && args.csv_file.is_some() {
        return Err(usage(
            "--csv prints the CSV instead of the JSON, --csv-file writes it beside: give one",
        ));
    }
    Ok(args)
}

/// The value of `--max-seconds`.
fn max_seconds(parser: &mut lexopt::Parser) -> Result<f64, Failure> {
    use lexopt::ValueExt;
    let text = parser.value()?.string().map_err(usage)?;
    text.parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0 && *s <= api::MAX_SECONDS)
        .ok_or_else(|| {
            usage(format!(
                "--max-seconds must be a number of seconds above 0 and at most {}",
                api::MAX_SECONDS
            ))
        })
}

/// The value of `--parts`.
fn parts(parser: &mut lexopt::Parser) -> Result<usize, Failure> {
    use lexopt::ValueExt;
    let text = parser.value()?.string().map_err(usage)?;
    text.parse::<usize>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| usage("--parts must be a whole number above 0"))
}

impl From<lexopt::Error> for Failure {
    fn from(e: lexopt::Error) -> Failure {
        usage(e)
    }
}

fn read_request(file: Option<&str>) -> Result<Request, Failure> {
    Request::from_json(&read_text(file)?).map_err(input)
}

fn read_text(file: Option<&str>) -> Result<String, Failure> {
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
    Ok(text)
}

fn print_json<T: serde::Serialize>(value: &T, compact: bool) -> Result<(), Failure> {
    let text = if compact {
        serde_json::to_string(value)
    } else {
        serde_json::to_string_pretty(value)
    }
    .map_err(input)?;
    say!("{text}\n");
    Ok(())
}

fn run() -> Result<(), Failure> {
    let Some(args) = parse_args()? else {
        return Ok(());
    };
    match args.command.as_str() {
        "solve" => solve(&args, None),
        "split" => split(&args),
        "join" => join(&args),
        "check" => check(&args),
        "example" => example(&args),
        // The schemas are native only (the wasm module leaves them out).
        #[cfg(not(target_arch = "wasm32"))]
        "schema" => schema(&args),
        verb => match model_of_verb(verb) {
            Some(model) => solve(&args, Some((model.id().name, model.id().name))),
            None => Err(usage(format!("unknown command {verb:?}"))),
        },
    }
}

/// Solves the request (for a model's verb: of the model `wanted.0`, the
/// example `wanted.1` without a file) and prints or writes what was asked.
fn solve(args: &Args, wanted: Option<(&str, &str)>) -> Result<(), Failure> {
    if !args.table.is_empty() && wanted.is_none() {
        let verb = registry::all().find(|m| m.table_input().is_some());
        let verb = verb.and_then(|m| m.id().command).unwrap_or("VERB");
        return Err(usage(format!(
            "{} are options of a model's verb reading a table (dlt {verb} FILE.csv)",
            table_options()
        )));
    }
    let mut request = match (wanted, args.file.as_deref()) {
        (Some((_, example)), None) => Request::example(example)
            .ok_or_else(|| input(format!("the built-in example {example:?} is missing")))?,
        (None, file) if args.answer_errors => {
            let text = read_text(file)?;
            return solve_part(args, &text);
        }
        (Some((model, _)), file) => verb_request(args, model, file)?,
        (None, file) => read_request(file)?,
    };
    if let Some((model, _)) = wanted.filter(|(m, _)| *m != request.model()) {
        return Err(input(format!(
            "{} needs a request of model {model:?}, not {:?}",
            args.command,
            request.model()
        )));
    }
    if let Some(seconds) = args.max_seconds {
        request.limit_time(seconds);
    }
    let response = api::run(&request, &mut Silent).map_err(input)?;
    print_response(args, &response)
}

/// The request a model's verb reads from `file`: a JSON request, or a
/// table of measurements (CSV or TSV, anything not starting with `{`)
/// that the model makes a request of with the table's options.
fn verb_request(args: &Args, model: &str, file: Option<&str>) -> Result<Request, Failure> {
    let text = read_text(file)?;
    if text.trim_start().starts_with('{') {
        if !args.table.is_empty() {
            return Err(usage(format!(
                "{} apply to a table (CSV or TSV), not to a JSON request",
                table_options()
            )));
        }
        return Request::from_json(&text).map_err(input);
    }
    let mut options = args.table.clone();
    if let Some(path) = options.get("request").cloned() {
        options.insert("request".into(), read_text(Some(&path))?);
    }
    let entry = registry::find(model).ok_or_else(|| input(format!("no model named {model:?}")))?;
    let table = entry.table_input().ok_or_else(|| {
        input(format!(
            "dlt {} reads a JSON request, not a table of measurements",
            args.command
        ))
    })?;
    let value = table.request(&text, &options).map_err(input)?;
    Request::from_value(value).map_err(input)
}

/// Solves a request read as `text` and prints its response; a part that
/// fails gets an error answer (its part and the message) for `dlt join`
/// to report, printed like a response, and the exit status 0.
fn solve_part(args: &Args, text: &str) -> Result<(), Failure> {
    let solved = Request::from_json(text).and_then(|mut request| {
        if let Some(seconds) = args.max_seconds {
            request.limit_time(seconds);
        }
        api::run(&request, &mut Silent)
    });
    match solved {
        Ok(response) => print_response(args, &response),
        Err(e) => match sweep::error_answer(text, &e) {
            Some(answer) => {
                eprintln!("dlt: {e}");
                print_json(&answer, args.compact)
            }
            None => Err(input(e)),
        },
    }
}

/// Prints or writes what was asked of a response.
fn print_response(args: &Args, response: &Response) -> Result<(), Failure> {
    if let Some(path) = &args.svg {
        write_gantt(response, path)?;
    }
    if let Some(dir) = &args.charts {
        write_charts(response, dir)?;
    }
    print_csv_or_json(args, response.csv(), &response)
}

/// Prints the CSV (`--csv`), or writes it (`--csv-file`) and prints the
/// JSON; the CSV is `None` for a result that has no CSV form.
fn print_csv_or_json(
    args: &Args,
    csv: Option<&str>,
    json: &impl serde::Serialize,
) -> Result<(), Failure> {
    if args.csv || args.csv_file.is_some() {
        let csv = csv.ok_or_else(|| input("this result has no CSV form (maps and tables have)"))?;
        let Some(path) = &args.csv_file else {
            say!("{csv}");
            return Ok(());
        };
        std::fs::write(path, csv).map_err(|e| input(format!("cannot write {path}: {e}")))?;
    }
    print_json(json, args.compact)
}

fn write_gantt(response: &Response, path: &str) -> Result<(), Failure> {
    let gantt = response
        .gantt()
        .ok_or_else(|| input("this result has no Gantt chart (too many chunks)"))?;
    let styles = api::gantt_styles(response.model());
    let height = gantt_height(gantt, &styles, 900);
    let svg = gantt_svg(gantt, &styles, 900, height).map_err(input)?;
    std::fs::write(path, svg).map_err(|e| input(format!("cannot write {path}: {e}")))
}

fn write_charts(response: &Response, dir: &str) -> Result<(), Failure> {
    std::fs::create_dir_all(dir).map_err(|e| input(format!("cannot create {dir}: {e}")))?;
    for chart in response.charts() {
        let svg = lines_svg(chart, 900, 560).map_err(input)?;
        let path = std::path::Path::new(dir).join(format!("{}.svg", chart.name));
        std::fs::write(&path, svg)
            .map_err(|e| input(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

/// Prints the parts of the request, one compact request a line.
fn split(args: &Args) -> Result<(), Failure> {
    let request = read_request(args.file.as_deref())?;
    let parts = sweep::split(&request, args.parts).map_err(input)?;
    for part in parts {
        say!("{part}\n");
    }
    Ok(())
}

/// Joins the parts' answers into the whole request's response, printed as
/// `solve` prints it; says on standard error which parts are missing.
fn join(args: &Args) -> Result<(), Failure> {
    let (file, answers) = (args.file.as_deref(), args.answers.as_deref());
    if file.is_none_or(|f| f == "-") && answers.is_none_or(|a| a == "-") {
        return Err(usage(
            "join reads the request from FILE and the answers from ANSWERS or standard input",
        ));
    }
    let request = read_request(file)?;
    let joined = sweep::join(&request, &read_text(answers)?).map_err(input)?;
    if !joined.missing.is_empty() {
        let list: Vec<String> = joined.missing.iter().map(usize::to_string).collect();
        eprintln!("dlt: parts missing or failed: {}", list.join(" "));
    }
    print_csv_or_json(args, joined.csv.as_deref(), &joined.json)
}

/// Lists every invalid field: the same checks `solve` makes first; with
/// `--schedule`, checks that schedule against the request.
fn check(args: &Args) -> Result<(), Failure> {
    if let Some(path) = &args.schedule {
        return check_schedule(args, path);
    }
    let text = read_text(args.file.as_deref())?;
    let problems = match Request::from_json(&text) {
        Ok(request) => request.problems(),
        Err(e) => vec![FieldProblem::from(&e)],
    };
    for p in &problems {
        if p.field.is_empty() {
            say!("{}\n", p.message);
        } else {
            say!("{}: {}\n", p.field, p.message);
        }
    }
    if problems.is_empty() {
        say!("ok\n");
        Ok(())
    } else {
        Err(input(format!("{} invalid field(s)", problems.len())))
    }
}

/// Checks the schedule in `path` against the request and prints the
/// answer; a broken rule is a failure, after the answer.
fn check_schedule(args: &Args, path: &str) -> Result<(), Failure> {
    if path == "-" && args.file.as_deref().is_none_or(|f| f == "-") {
        return Err(usage(
            "check reads the request from FILE and the schedule from SCHEDULE: one may be -",
        ));
    }
    let request = read_request(args.file.as_deref())?;
    let schedule = read_text(Some(path))?;
    let checked = api::check_schedule(&request, &schedule, None, &mut Silent).map_err(input)?;
    print_json(&checked, args.compact)?;
    match checked.violations.len() {
        0 => Ok(()),
        n => Err(input(format!("the schedule breaks {n} rule(s)"))),
    }
}

fn example(args: &Args) -> Result<(), Failure> {
    match args.file.as_deref() {
        None => {
            let all = examples();
            let width = all
                .iter()
                .map(|(n, _, _)| n.chars().count())
                .max()
                .unwrap_or(0);
            for (name, _, what) in all {
                say!("{name:width$} {what}\n");
            }
            Ok(())
        }
        Some(name) => {
            let request = Request::example(name)
                .ok_or_else(|| usage(format!("no example named {name:?}")))?;
            print_json(&request.to_json(), args.compact)
        }
    }
}

/// The schema of a model's requests, for editors and other tools that
/// write requests; without an ID, the IDs it takes.
#[cfg(not(target_arch = "wasm32"))]
fn schema(args: &Args) -> Result<(), Failure> {
    use dlt_calc::registry;
    if args.file.as_deref() == Some("schedule") {
        return print_json(&dlt_calc::core::framework::checker::schema(), args.compact);
    }
    let Some(name) = args.file.as_deref() else {
        let width = registry::all()
            .map(|m| m.id().name.len())
            .max()
            .unwrap_or(0);
        for m in registry::all() {
            say!("{:width$}  {}\n", m.id().name, m.id().title);
        }
        return Ok(());
    };
    let entry = registry::find(name)
        .ok_or_else(|| usage(format!("no model named {name:?} (dlt schema lists them)")))?;
    print_json(&entry.schema(), args.compact)
}
