//! M2 on the page: the form and the report's layout.

use super::{Energy, Report};
use crate::core::domain::number::count;
use crate::core::presentation::form::{
    Column, Field, Form, Formula as F, Group, Kind, Layout, Rows,
};
use crate::core::presentation::response::Describe;
use crate::core::presentation::view::{cut, gap, number, Block, VerdictLine, ROWS_SHOWN};

/// The M2 tab.
pub fn form() -> Form {
    Form {
        tab: "Linear DLT &amp; energy",
        title: "Linear DLT on a star, one installment, with energy",
        citation: "M2; Drozdowski, DLT from basics to applications",
        sources: &["drozdowski-basics"],
        intro: "The originator sends one chunk <i>α<sub>i</sub></i> to each machine in turn \
            (sending takes <i>S<sub>i</sub> + α<sub>i</sub>C<sub>i</sub></i>, computing \
            <i>A<sub>i</sub>α<sub>i</sub></i>); all machines in use finish together. With \
            start-up times a small load cannot keep many machines busy: the calculator then uses \
            the best prefix of machines and says so. With powers <i>P</i><sub>C</sub>, \
            <i>P</i><sub>N</sub> and the idle reduction <i>k</i> it splits the energy into idle \
            base, network and processors, and over growing <i>m</i> shows energy against \
            schedule length.".into(),
        about: ABOUT,
        groups: vec![
            Group::of(
                "",
                vec![Field::number("V", "load", "Load <i>V</i>")
                    .unit("units")
                    .range("> 0")],
            ),
            Group::optional(
                "Energy (optional):",
                "power",
                vec![
                    Field::number("PC", "power.processor", "<i>P</i><sub>C</sub>")
                        .placeholder("none")
                        .help("power of a computing processor")
                        .unit("W")
                        .range("≥ 0"),
                    Field::number("PN", "power.network", "<i>P</i><sub>N</sub>")
                        .placeholder("none")
                        .help("power of the network while it sends")
                        .unit("W")
                        .range("≥ 0"),
                    Field::number("k", "power.idle_factor", "<i>k</i>")
                        .placeholder("none")
                        .help("an idle machine draws P_C/k")
                        .range("≥ 1"),
                ],
            ),
            Group::of(
                "",
                vec![
                    Field::new(
                        "series",
                        "series",
                        "series over m (the first m machines)",
                        Kind::Check,
                    ),
                    Field::new(
                        "best",
                        "best_order",
                        "try every order (≤ 8 machines)",
                        Kind::Check,
                    ),
                ],
            ),
            Group::of(
                "Choose the machines for:",
                vec![
                    Field::choice("obj", "objective", "the least", &["time", "energy"])
                        .help("time: the fastest set; energy: the set with the least energy (needs the powers)"),
                    Field::new("deadline", "deadline", "finishing by", Kind::Optional)
                        .placeholder("no deadline")
                        .help("with energy: only sets that finish by this time")
                        .unit("s")
                        .range("> 0"),
                ],
            ),
        ],
        rows: Some(Rows {
            path: "machines",
            item: "machine type",
            prefix: "type ",
            caption: "Machines (served top to bottom; count = identical copies)",
            columns: vec![
                Column::startup("1"),
                Column::rate("1"),
                Column::number(
                    "A",
                    "compute",
                    "A",
                    "A",
                    "computing time per load unit A",
                    "1",
                )
                .measured("s/unit", "> 0"),
                Column::number(
                    "n",
                    "count",
                    "count",
                    "count",
                    "identical copies of this machine",
                    "1",
                )
                .measured("", "1 to 10⁶ in all")
                .or_default("1"),
            ],
        }),
        fixed: Vec::new(),
        layout: Layout::Report,
        parts: "",
    }
}

impl Describe for Report {
    fn view(&self) -> Vec<Block> {
        let more = if self.orders_tried > 1 {
            format!(
                "; best of {} sequences (every subset in every order)",
                self.orders_tried
            )
        } else {
            String::new()
        };
        let mut blocks = vec![
            Block::headline(
                "linear-makespan",
                "Shortest schedule: <i>T</i> (s)",
                self.makespan,
                Some(VerdictLine::of("linear-verdict", &self.verdict, &more)),
            ),
            Block::note(
                "",
                format!(
                    "One machine alone: T(1) = {} s; speedup {} with {} of {} machines.",
                    number(self.single),
                    number(self.single / self.makespan),
                    self.active,
                    self.machines
                ),
            ),
        ];
        if let Some(note) = &self.note {
            blocks.push(Block::aside("linear-note", note.clone()));
        }
        if let Some(bound) = self.lower_bound {
            blocks.push(Block::note(
                "linear-bound",
                format!(
                    "Proven lower bound {}: the schedule is at most {} longer than the optimum.",
                    number(bound),
                    gap((self.makespan - bound) / self.makespan)
                ),
            ));
        }
        if !self.skipped.is_empty() {
            blocks.push(self.skipped_table());
        }
        if let Some(e) = &self.energy {
            blocks.push(energy_table(e, self.machines, self.active));
        }
        blocks.push(self.sizes_table());
        if let Some(least) = self.least_energy() {
            let (energy, machines, makespan) = least;
            blocks.push(Block::note(
                "linear-least",
                format!(
                    "Least energy {} J with m = {machines} (T = {} s).",
                    number(energy),
                    number(makespan)
                ),
            ));
        }
        blocks
    }
}

/// The energy and its parts; the idle base counts every machine of the
/// system (`[1]`'s `(m + 1)P_C/k`), those left out too, which the caption
/// says when some are.
fn energy_table(e: &Energy, machines: usize, active: usize) -> Block {
    let caption = if active < machines {
        format!(
            "Energy: the idle base counts all {} machines and the originator, the {} \
             left out included (they are on, idle, for T)",
            count(machines),
            count(machines - active)
        )
    } else {
        "Energy".to_string()
    };
    let rows = [
        ("idle base E_I", e.idle),
        ("network above idle E_RN", e.network),
        ("processors above idle E_RC", e.processors),
        ("total E", e.total),
    ]
    .iter()
    .map(|(part, value)| vec![part.to_string(), number(*value)])
    .collect();
    Block::table("linear-energy", &caption, &["part", "energy (J)"], rows)
}

impl Report {
    /// The loads of the machines in use, in serving order.
    fn sizes_table(&self) -> Block {
        let rows = self
            .sizes
            .iter()
            .zip(&self.used)
            .take(ROWS_SHOWN)
            .map(|(&a, &p)| vec![format!("P{}", self.machine_at(p) + 1), number(a)])
            .collect();
        Block::table(
            "linear-sizes",
            "Loads of the machines in use, in serving order",
            &["machine", "α (units)"],
            cut(rows, self.active, "machines"),
        )
    }

    /// The machine (in the listed, expanded numbering) served at position
    /// `p`.
    fn machine_at(&self, p: usize) -> usize {
        self.order
            .as_ref()
            .and_then(|o| o.get(p).copied())
            .unwrap_or(p)
    }

    /// The machines left out and why.
    fn skipped_table(&self) -> Block {
        let rows = self
            .skipped
            .iter()
            .map(|s| {
                let (from, to) = (self.machine_at(s.from) + 1, self.machine_at(s.to) + 1);
                let which = if s.from == s.to {
                    format!("P{from}")
                } else {
                    format!("P{from} … P{to} ({} machines)", s.to - s.from + 1)
                };
                vec![which, s.reason.clone()]
            })
            .collect();
        Block::table(
            "linear-skipped",
            "Machines left out (no message, no start-up), and why",
            &["machines", "why"],
            rows,
        )
    }

    /// The point of the series with the least energy: energy, machines and
    /// makespan (`[1]`: energy has a minimum in the number of machines).
    pub fn least_energy(&self) -> Option<(f64, usize, f64)> {
        self.series
            .iter()
            .filter_map(|p| p.energy.map(|e| (e, p.machines, p.makespan)))
            .min_by(|a, b| a.0.total_cmp(&b.0))
    }
}

/// The formulas of the "About the model" panel.
const ABOUT: &[F] = &[
    F::new("sending <i>x</i> to <i>P<sub>i</sub></i>, computing it", "<i>S<sub>i</sub></i> + <i>xC<sub>i</sub></i>, <i>A<sub>i</sub>x</i> (results are not returned)"),
    F::new("all machines used finish together", "<i>α<sub>i</sub>A<sub>i</sub></i> = <i>S</i><sub><i>i</i>+1</sub> + <i>α</i><sub><i>i</i>+1</sub>(<i>A</i><sub><i>i</i>+1</sub> + <i>C</i><sub><i>i</i>+1</sub>), Σ<i>α<sub>i</sub></i> = <i>V</i>"),
    F::new("solved from the last machine back", "<i>α<sub>i</sub></i> = <i>k<sub>i</sub>α<sub>m</sub></i> + <i>l<sub>i</sub></i>, <i>α<sub>m</sub></i> = (<i>V</i> − Σ<i>l<sub>i</sub></i>)/Σ<i>k<sub>i</sub></i>"),
    F::new("makespan", "<i>T</i> = <i>S</i><sub>1</sub> + <i>α</i><sub>1</sub>(<i>C</i><sub>1</sub> + <i>A</i><sub>1</sub>); one machine: <i>T</i>(1) = <i>S</i> + (<i>C</i> + <i>A</i>)<i>V</i>"),
    F::new("when the load is too small for every machine", "a negative <i>α</i> means a machine is not worth its start-up: the calculator finds the best subset in the given order"),
    F::new("energy (idle power divided by <i>k</i>)", "<i>E</i> = <i>T</i>(<i>m</i>)((<i>m</i> + 1)<i>P<sub>C</sub></i> + <i>P<sub>N</sub></i>)/<i>k</i> + <i>P<sub>N</sub></i>(<i>k</i> − 1)/<i>k</i> · (<i>mS</i> + <i>CV</i>) + <i>P<sub>C</sub></i>(<i>k</i> − 1)/<i>k</i> · (2<i>mS</i> + (2<i>C</i> + <i>A</i>)<i>V</i>)"),
];
