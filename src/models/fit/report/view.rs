//! M9's answer as the page shows it: a table per kind of measurement,
//! every parameter with its unit and 95 % interval, the requests it fills,
//! and the validity check.

use super::Report;
use crate::core::presentation::response::Describe;
use crate::core::presentation::view::{cut, number, Block, Change};
use crate::models::fit::request::{Noise, Shape, TableUse};
use crate::models::fit::solve::{LevelsFit, PowersFit, TransferFit};
use crate::models::fit::stats::{Estimate, Goodness};
use crate::models::fit::validity::Checked;

/// `value unit [low–high]`.
fn estimate(e: &Estimate, unit: &str) -> String {
    let unit = if unit.is_empty() {
        String::new()
    } else {
        format!(" {unit}")
    };
    format!(
        "{}{unit} [{} – {}]",
        number(e.value),
        number(e.low),
        number(e.high)
    )
}

/// `R² = …, n samples` and the noise assumed: of one size, or relative
/// with its size `σ` (the weighted fit's `σ` is a fraction of the value).
fn goodness(g: &Goodness, noise: Noise) -> String {
    let noise = match noise {
        Noise::Relative => {
            let percent = (10_000.0 * g.sigma).round() / 100.0;
            format!("relative noise σ = {} %", number(percent))
        }
        Noise::Absolute | Noise::Auto => "noise of one size".into(),
    };
    format!("R² = {}, {} samples, {noise}", number(g.r2), g.n)
}

/// The machine's name, or "all" for a table without names.
fn machine(name: &str) -> String {
    if name.is_empty() {
        "all".into()
    } else {
        name.into()
    }
}

fn transfer_row(f: &TransferFit) -> Vec<String> {
    let latency = f
        .fit
        .intercept
        .map_or("0 s (held)".into(), |b| estimate(&b, "s"));
    vec![
        machine(&f.machine),
        estimate(&f.fit.slope, "s/MB"),
        latency,
        goodness(&f.fit.fit, f.noise),
    ]
}

/// The parameters of a levels fit in the form used, `unit` per MB.
fn levels_cells(f: &LevelsFit, unit: &str) -> Vec<String> {
    let per = format!("{unit}/MB");
    let used = match (f.shape, &f.knee, &f.lines) {
        (Shape::TwoLevel, Some(k), _) => format!(
            "a1 = {}; a2 = {}; b2 = {}; knee r = {}",
            estimate(&k.a1, &per),
            estimate(&k.a2, &per),
            estimate(&k.b2, unit),
            estimate(&k.r, "MB")
        ),
        (Shape::Lines, _, Some(l)) => {
            let lines: Vec<String> = l
                .lines
                .iter()
                .map(|line| {
                    let b = line.intercept.map_or("0".into(), |b| number(b.value));
                    format!("{b} + {} α", number(line.slope.value))
                })
                .collect();
            let knees: Vec<String> = l.knees.iter().map(|k| estimate(k, "MB")).collect();
            format!("lines {}; knees {}", lines.join(", "), knees.join(", "))
        }
        _ => {
            let b = f
                .line
                .intercept
                .map_or(String::new(), |b| format!("; B = {}", estimate(&b, unit)));
            format!("A = {}{b}", estimate(&f.line.slope, &per))
        }
    };
    let fit = goodness(f.goodness(), f.noise);
    vec![machine(&f.machine), used, fit, f.note.clone()]
}

fn power_row(p: &PowersFit) -> Vec<String> {
    let mean = |m: &crate::models::fit::stats::Mean| match &m.estimate {
        Some(e) => estimate(e, "W"),
        None => format!("{} W (one reading)", number(m.value)),
    };
    let k = p.fit.k.as_ref().map_or("–".into(), |k| number(k.value));
    let sleep: Vec<String> = p
        .fit
        .sleep
        .iter()
        .map(|s| format!("{} {} (k = {})", s.name, mean(&s.power), number(s.k.value)))
        .collect();
    vec![
        machine(&p.machine),
        mean(&p.fit.compute),
        p.fit.network.as_ref().map_or("–".into(), mean),
        p.fit.idle.as_ref().map_or("–".into(), mean),
        k,
        sleep.join("; "),
    ]
}

/// A note when the runs were checked against other parameters than the
/// fit's (`Checked::unlike_fit`).
fn unlike_fit(c: &Checked) -> Option<Block> {
    (!c.unlike_fit.is_empty()).then(|| {
        Block::note(
            "fit-validity-unlike",
            format!(
                "These runs are checked against the request in the runs' request field, which \
                 differs from the fit above in {}: to check the fit, open its model with the \
                 fitted parameters and press \"Check these inputs against measured runs\" there.",
                c.unlike_fit.join(", ")
            ),
        )
    })
}

/// The validity table and its summary.
fn validity_blocks(c: &Checked) -> Vec<Block> {
    let pct = |e: f64| format!("{} %", number(100.0 * e));
    let rows = c
        .runs
        .iter()
        .map(|r| {
            let set: Vec<String> = r
                .set
                .iter()
                .map(|(k, v)| match k.as_str() {
                    // A runs table's loads are in MB (`load_MB`).
                    "load" => format!("{k} = {} MB", number(*v)),
                    _ => format!("{k} = {}", number(*v)),
                })
                .collect();
            vec![
                r.name.clone(),
                set.join(", "),
                format!("{} s", number(r.measured)),
                format!("{} s", number(r.predicted)),
                pct(r.error),
            ]
        })
        .collect();
    let head = [
        "run",
        "changed",
        "measured C^R",
        "predicted C^T",
        "(C^R − C^T)/C^T",
    ];
    let mut blocks: Vec<Block> = unlike_fit(c).into_iter().collect();
    blocks.extend([
        Block::note(
            "fit-validity-summary",
            format!(
                "The model's relative error over {} runs: mean {} of its magnitude, largest {}.",
                c.runs.len(),
                pct(c.mean_abs_error),
                pct(c.max_abs_error)
            ),
        ),
        Block::table(
            "fit-validity",
            "Measured runs against the model",
            &head,
            rows,
        ),
    ]);
    if let (Some(mean), Some(max)) = (c.machine_mean_abs_error, c.machine_max_abs_error) {
        let text = format!(
            "Per machine: mean error {} of its magnitude, largest {}.",
            pct(mean),
            pct(max)
        );
        blocks.push(Block::aside("fit-validity-machines", text));
    }
    blocks
}

impl Describe for Report {
    fn view(&self) -> Vec<Block> {
        let mut blocks = Vec::new();
        if !self.transfers.is_empty() {
            let rows = self.transfers.iter().map(transfer_row).collect();
            let head = ["machine", "C (rate)", "latency", "fit"];
            let caption = "Transfers: t = latency + C·size, 95 % intervals";
            blocks.push(Block::table("fit-transfers", caption, &head, rows));
        }
        for (id, fits, unit, what) in [
            ("fit-computation", &self.computation, "s", "Computing time"),
            ("fit-energy", &self.energy, "J", "Energy per chunk"),
        ] {
            if fits.is_empty() {
                continue;
            }
            let rows = fits.iter().map(|f| levels_cells(f, unit)).collect();
            let caption = format!("{what} against the chunk size α (MB), 95 % intervals");
            let head = ["machine", "parameters", "fit", "the data say"];
            blocks.push(Block::table(
                id,
                &caption,
                &head,
                cut(rows, fits.len(), "machines"),
            ));
        }
        if !self.power.is_empty() {
            let rows = self.power.iter().map(power_row).collect();
            let head = [
                "machine",
                "P_C",
                "P_N",
                "idle",
                "k = P_C/idle",
                "sleep modes",
            ];
            let caption = "Power per state (mean and 95 % interval)";
            blocks.push(Block::table("fit-power", caption, &head, rows));
        }
        let tables = self.tables_text();
        if !tables.is_empty() {
            blocks.push(Block::note("fit-tables", tables.clone()));
        }
        blocks.extend(self.requests_block());
        blocks.extend(self.open_blocks(&tables));
        if let Some(c) = &self.validity {
            blocks.extend(validity_blocks(c));
        }
        blocks
    }

    /// The fitted parameters, one row per machine and parameter.
    fn csv(&self) -> Option<String> {
        Some(super::export::csv(self))
    }
}

impl Report {
    /// One "Open in …" button per fitted model; each carries the note on
    /// which tables were the user's, so the target tab can say it too.
    fn open_blocks(&self, tables: &str) -> Vec<Block> {
        self.requests
            .iter()
            .map(|(model, request)| {
                let title = self
                    .titles
                    .get(model)
                    .map_or(model.as_str(), String::as_str);
                Block::Open {
                    id: format!("fit-open-{model}"),
                    label: format!("Open in {title} with the fitted parameters"),
                    request: request.clone(),
                    changes: Change::grouped(
                        self.changes.get(model).map_or(&[][..], Vec::as_slice),
                    ),
                    note: tables.to_string(),
                    back: "Check these inputs against measured runs (in the Fit tab)".into(),
                }
            })
            .collect()
    }

    /// Which tables were fitted, in words: the user's own, or a preset's
    /// examples, and the examples left out.
    fn tables_text(&self) -> String {
        fn name(t: &TableUse) -> &str {
            match t.table.as_str() {
                "transfers" => "transfer times",
                "computation" => "computing times",
                "energy" => "energies",
                "power" => "power readings",
                other => other,
            }
        }
        let list = |ts: Vec<&TableUse>| ts.into_iter().map(name).collect::<Vec<_>>().join(", ");
        let used: Vec<&TableUse> = self.tables.iter().filter(|t| t.used).collect();
        let out: Vec<&TableUse> = self.tables.iter().filter(|t| !t.used).collect();
        if used.is_empty() {
            return String::new();
        }
        let whose = if used.iter().all(|t| t.example) {
            "the preset's examples"
        } else {
            "yours"
        };
        let mut text = format!("Fitted from {} ({whose})", list(used));
        if !out.is_empty() {
            text += &format!(
                "; left out: {} (examples of the preset, not yours: untick “example” \
                 beside a table to fit it with yours)",
                list(out)
            );
        }
        text + "."
    }

    /// Which models the fitted parameters fill, and with what.
    fn requests_block(&self) -> Option<Block> {
        if self.requests.is_empty() {
            return None;
        }
        let rows = self
            .requests
            .keys()
            .map(|model| {
                let title = self.titles.get(model).cloned().unwrap_or_default();
                let changes = self.changes.get(model).map_or(&[][..], Vec::as_slice);
                let values: Vec<String> = Change::grouped(changes).iter().map(changed).collect();
                vec![model.clone(), title, values.join("; ")]
            })
            .collect();
        let caption = "The fitted parameters in each model's default request, the \
                       preset's value → the fitted one (the other numbers are the \
                       preset's): open it in its tab, or take report.requests.<model> \
                       from the JSON to dlt solve";
        let head = ["model", "tab", "changed from the preset"];
        Some(Block::table("fit-requests", caption, &head, rows))
    }
}

/// A change as the table of target models says it: `what from → to unit`,
/// or `what kept at from: why` for a value the model kept from its preset.
fn changed(c: &Change) -> String {
    if c.kept() {
        return format!("{} kept at {}: {}", c.what, c.from, c.why);
    }
    let unit = if c.unit.is_empty() {
        String::new()
    } else {
        format!(" {}", c.unit)
    };
    format!("{} {} → {}{unit}", c.what, c.from, c.to)
}
