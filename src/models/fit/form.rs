//! M9 on the page: a text area per table of measurements, how to fit
//! them, and the runs to check a model against.

use crate::core::presentation::form::{Field, Form, Formula, Group, Kind, Layout};

/// How the parameters are found, for "About the model".
const ABOUT: &[Formula] = &[
    Formula::new(
        "transfers",
        "<i>t</i> = <i>O</i> + <i>C</i>·size (or <i>S</i> + <i>C</i>·size)",
    ),
    Formula::new("one level", "<i>t</i> = <i>A</i>α"),
    Formula::new(
        "two levels (RAM <i>r</i>)",
        "<i>t</i> = max(<i>a</i><sub>1</sub>α, <i>a</i><sub>2</sub>α + <i>b</i><sub>2</sub>), \
         <i>r</i> = <i>b</i><sub>2</sub>/(<i>a</i><sub>1</sub> − <i>a</i><sub>2</sub>)",
    ),
    Formula::new(
        "relative noise (weighted)",
        "minimise Σ ((<i>t</i> − <i>t̂</i>)/<i>t̂</i>)², <i>t̂</i> the fitted time",
    ),
    Formula::new(
        "idle factor",
        "<i>k</i> = <i>P<sub>C</sub></i>/<i>P</i><sub>idle</sub>",
    ),
    Formula::new(
        "the model's relative error",
        "(<i>C<sup>R</sup></i> − <i>C<sup>T</sup></i>)/<i>C<sup>T</sup></i>",
    ),
];

/// One table's text area, left out of the request when empty.
fn table(
    field: &'static str,
    key: &'static str,
    legend: &'static str,
    help: &'static str,
) -> Group {
    let (path, example, example_key) = match field {
        "transfers" => ("transfers.csv", "examples.transfers", "tr-ex"),
        "computation" => ("computation.csv", "examples.computation", "comp-ex"),
        "energy" => ("energy.csv", "examples.energy", "en-ex"),
        _ => ("power.csv", "examples.power", "pow-ex"),
    };
    // A preset's table is marked an example; editing the table makes it
    // the user's own, and the page then leaves the other examples out.
    let example = Field::new(example_key, example, "example", Kind::Check)
        .help(
            "a preset's example table: left out of the fit as soon as any table is your own \
             (editing a table makes it yours; untick to fit an example with your tables)",
        )
        .cleared_by(key);
    Group::optional(
        legend,
        field,
        vec![
            Field::new(key, path, "CSV or TSV", Kind::Csv).help(help),
            example,
        ],
    )
}

/// The tab; `targets` are the models whose requests a validity check
/// may take from their tabs.
pub fn form(targets: Vec<&'static str>) -> Form {
    let mut groups = tables();
    groups.push(fit_group());
    groups.push(validity_group(targets));
    Form {
        tab: "Fit",
        title: "From measurements to parameters",
        citation: "M9; Drozdowski, DLT from basics to applications §2; Marszałkowski et al.",
        sources: &[
            "drozdowski-basics",
            "drozdowski-singh-marszalkowski",
            "marszalkowski-energy",
        ],
        intro: "Paste or upload what you measured on your cluster, with the unit in each \
            column's header: transfer times of messages of several sizes, computing times of \
            chunks below and above RAM, power readings per state. Each is fitted by least \
            squares with a 95 % interval for every parameter; computing times by the exact \
            two-level fit max(<i>a</i><sub>1</sub>α, <i>a</i><sub>2</sub>α + \
            <i>b</i><sub>2</sub>), whose knee is the RAM size. The fitted numbers fill the \
            other tabs' requests; measured runs check a model's predicted makespan."
            .into(),
        about: ABOUT,
        groups,
        rows: None,
        fixed: Vec::new(),
        layout: Layout::Report,
        parts: "",
    }
}

/// The tables' text areas.
fn tables() -> Vec<Group> {
    vec![
        table(
            "computation",
            "comp",
            "Computing times:",
            "size_MB,time_s (and machine); units in the headers: size_GB, time_ms…",
        ),
        table(
            "transfers",
            "tr",
            "Transfer times:",
            "size_MB,time_s (and machine): one message each",
        ),
        table(
            "power",
            "pow",
            "Power readings:",
            "state,power_W (and machine); states compute, network, idle, suspend, hibernate, off",
        ),
        table(
            "energy",
            "en",
            "Energy per chunk:",
            "size_MB,energy_J (and machine)",
        ),
    ]
}

/// How to fit.
fn fit_group() -> Group {
    Group::of(
        "Fit:",
        vec![
            Field::choice(
                "shape",
                "shape",
                "computing time",
                &["auto", "line", "line-intercept", "two-level", "lines"],
            )
            .help("auto: two levels when a knee lowers BIC, else one line through the origin"),
            Field::new("lines", "lines", "lines", Kind::Optional)
                .placeholder("3")
                .range("2 to 4")
                .help("for the lines shape: M3's form with this many lines"),
            Field::choice("noise", "noise", "noise", &["absolute", "relative", "auto"]).help(
                "absolute: of one size; relative: a fraction of each time (weighted fit); \
                 auto: the one with the lower BIC",
            ),
            Field::choice(
                "lat",
                "latency_as",
                "transfer intercept is",
                &["overhead", "startup"],
            )
            .help("overhead O: a cost of every message (M5, M7); startup S: once per machine"),
            Field::new("log", "log", "log axes", Kind::View)
                .help("draw the measurements and fits on logarithmic axes (points at 0 left out)"),
        ],
    )
}

/// The runs to check a model's predictions against.
fn validity_group(targets: Vec<&'static str>) -> Group {
    Group::optional(
        "Measured runs (validity):",
        "validity",
        vec![
            Field::new(
                "vreq",
                "validity.request",
                "the model's request",
                Kind::Json,
            )
            .help("take the inputs of a tab, or edit the JSON")
            .from_tabs(targets),
            Field::new("runs", "validity.measured.csv", "runs", Kind::Csv)
                .help("run,time_s (and load_MB, or machine for each machine's finish time)"),
        ],
    )
}
