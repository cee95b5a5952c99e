//! M4 on the page: the form and the report's layout.

use super::Report;
use crate::core::domain::number::human;
use crate::core::presentation::form::{Field, Form, Formula as F, Group, Kind, Layout, Rows};
use crate::core::presentation::response::Describe;
use crate::core::presentation::view::{cut, number, Block, VerdictLine, ROWS_SHOWN};
use crate::models::hierarchical::{further_level_columns, two_level_columns};

/// The M4 tab.
pub fn form() -> Form {
    Form {
        tab: "Multi-installment",
        title: "Multi-installment with equal chunks",
        citation: "M4; Drozdowski &amp; Wolniewicz 2003",
        sources: &["drozdowski-wolniewicz-2003"],
        intro: "The load is cut into chunks of size <i>β</i> sent round robin; each machine \
            computes its chunks one after the other, in core when <i>β</i> is below its swap \
            point. The calculator evaluates the schedule exactly, gives the admissible range of \
            <i>β</i> and the paper's heuristic choice (or says why it does not apply), and \
            compares processing time against load with one installment."
            .into(),
        about: ABOUT,
        groups: vec![
            Group::of(
                "",
                vec![
                    Field::number("V", "load", "Load <i>V</i>")
                        .unit("units")
                        .range("> 0"),
                    Field::new("beta", "chunk", "Chunk <i>β</i>", Kind::Optional)
                        .placeholder("heuristic")
                        .unit("units")
                        .range("> 0, at least V/10¹²"),
                ],
            ),
            Group::optional(
                "Series over V (optional):",
                "series",
                vec![
                    Field::number("from", "series.from", "from")
                        .placeholder("none")
                        .unit("units")
                        .range("> 0"),
                    Field::number("to", "series.to", "to")
                        .placeholder("none")
                        .unit("units")
                        .range("above from"),
                    Field::number("points", "series.points", "points")
                        .placeholder("none")
                        .range("2 to 200"),
                ],
            ),
        ],
        rows: Some(Rows {
            path: "processors",
            item: "processor",
            prefix: "P",
            caption: "Processors (served round robin, top to bottom)",
            columns: [
                two_level_columns(["1e-3", "9.99e-5", "0", "1e-3", "-9.9e6", "0.1"]),
                further_level_columns(),
            ]
            .concat(),
        }),
        fixed: Vec::new(),
        layout: Layout::Report,
        parts: "",
    }
}

impl Describe for Report {
    fn view(&self) -> Vec<Block> {
        let source = if self.chunk_from_heuristic {
            "heuristic"
        } else {
            "given"
        };
        vec![
            Block::headline(
                "installments-makespan",
                "Processing time: <i>C</i><sub>max</sub> (s)",
                self.makespan,
                Some(self.verdict_line()),
            ),
            Block::note(
                "installments-chunk",
                format!(
                    "β = {} ({source}), {} chunk{}.",
                    number(self.chunk),
                    human(self.chunks as f64),
                    if self.chunks == 1 { "" } else { "s" }
                ),
            ),
            Block::note(
                "installments-heuristic",
                format!("Heuristic: {}.", self.heuristic.explanation),
            ),
            Block::note(
                "installments-admissible",
                format!("Admissible β: {}.", self.admissible.explanation),
            ),
            self.machines_table(),
        ]
    }
}

impl Report {
    /// The verifier's verdict; without one (too many chunks to list), how
    /// the makespan was evaluated instead.
    fn verdict_line(&self) -> VerdictLine {
        match &self.verdict {
            Some(v) => VerdictLine::of("installments-verdict", v, ""),
            None => VerdictLine {
                id: "installments-verdict".into(),
                ok: true,
                text: format!(
                    " ({} chunks: evaluated exactly in closed form; checked chunk by chunk up \
                     to {} chunks)",
                    human(self.chunks as f64),
                    human(super::MAX_VERIFIED as f64)
                ),
            },
        }
    }

    /// Each machine's chunks, load, computing time and finish.
    fn machines_table(&self) -> Block {
        let rows = self
            .machines
            .iter()
            .take(ROWS_SHOWN)
            .enumerate()
            .map(|(i, u)| {
                vec![
                    format!("P{}", i + 1),
                    human(u.chunks as f64),
                    number(u.load),
                    number(u.busy),
                    number(u.finish),
                ]
            })
            .collect();
        Block::table(
            "installments-machines",
            "Machines",
            &[
                "processor",
                "chunks",
                "load (units)",
                "computing (s)",
                "finishes (s)",
            ],
            cut(rows, self.machines.len(), "machines"),
        )
    }
}

/// The formulas of the "About the model" panel.
const ABOUT: &[F] = &[
    F::new("time per unit of load of one round of <i>m</i> chunks of size <i>β</i>", "(Σ<i>S<sub>i</sub></i> + <i>β</i>Σ<i>C<sub>i</sub></i>)/(<i>mβ</i>)"),
    F::new("out-of-core rate of one installment", "1/Σ(1/<i>A</i><sup><i>h</i></sup><sub><i>i</i>2</sub>)"),
    F::new("chunk sizes where rounds beat out-of-core", "<i>β</i> ∈ (Σ<i>S<sub>i</sub></i>/(<i>m</i>/Σ(1/<i>A</i><sup><i>h</i></sup><sub><i>i</i>2</sub>) − Σ<i>C<sub>i</sub></i>), max swp<sub><i>i</i></sub>); identical machines: (<i>mS</i>/(<i>A</i><sup><i>h</i></sup><sub>2</sub> − <i>mC</i>), swp)"),
    F::new("a machine computes for a whole round (identical machines)", "<i>β</i> = (<i>mS</i> − <i>A</i><sup><i>l</i></sup><sub>1</sub>)/(<i>A</i><sup><i>l</i></sup><sub>2</sub> − <i>mC</i>), when both are positive"),
];
