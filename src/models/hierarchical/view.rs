//! M3 on the page: the form and the report's layout.

use super::{Method, Report};
use crate::core::presentation::form::{
    Column, Field, Form, Formula as F, Group, Kind, Layout, Rows,
};
use crate::core::presentation::response::Describe;
use crate::core::presentation::view::{
    cut, interval, memory, number, Block, VerdictLine, ROWS_SHOWN,
};

/// The columns of a machine with a core and an out-of-core level (also
/// M4's; [`further_level_columns`] add up to two more levels).
pub fn two_level_columns(blank: [&'static str; 6]) -> Vec<Column> {
    let [s, c, l1, l2, h1, h2] = blank;
    vec![
        Column::startup(s),
        Column::rate(c),
        Column::number(
            "l1",
            "levels[0].intercept",
            "A<sup>l</sup><sub>1</sub>",
            "core intercept",
            "core line intercept",
            l1,
        )
        .measured("s", "≥ 0"),
        Column::number(
            "l2",
            "levels[0].slope",
            "A<sup>l</sup><sub>2</sub>",
            "core slope",
            "core line slope (time per unit in core)",
            l2,
        )
        .measured("s/unit", "> 0"),
        Column::number(
            "h1",
            "levels[1].intercept",
            "A<sup>h</sup><sub>1</sub>",
            "out-of-core intercept",
            "out-of-core line intercept (leave both empty for a machine with its core level only)",
            h1,
        )
        .measured("s", "any; the line must take over above the core's")
        .part_of("levels[1]"),
        Column::number(
            "h2",
            "levels[1].slope",
            "A<sup>h</sup><sub>2</sub>",
            "out-of-core slope",
            "out-of-core line slope (time per unit on disk)",
            h2,
        )
        .measured("s/unit", "above the core slope")
        .part_of("levels[1]"),
    ]
}

/// The optional third and fourth levels' columns, last in a row so that a
/// link written before them reads as it did (cells are by position): M3's
/// general form `max_k (A_k1 + α A_k2)` takes up to four lines, as the fit
/// gives them, so that none is dropped when a fit opens here.
pub fn further_level_columns() -> Vec<Column> {
    // (key, path, head, label, hover, unit, range, the level it is part of)
    let intercept = "any; the line must take over above the one before";
    let slope = "above the slope before";
    [
        (
            "h31",
            "levels[2].intercept",
            "A<sup>(3)</sup><sub>1</sub>",
            "level 3 intercept",
            "third line's intercept (optional: leave both empty for two levels)",
            "s",
            intercept,
            "levels[2]",
        ),
        (
            "h32",
            "levels[2].slope",
            "A<sup>(3)</sup><sub>2</sub>",
            "level 3 slope",
            "third line's slope (time per unit past the second swap point)",
            "s/unit",
            slope,
            "levels[2]",
        ),
        (
            "h41",
            "levels[3].intercept",
            "A<sup>(4)</sup><sub>1</sub>",
            "level 4 intercept",
            "fourth line's intercept (optional: leave both empty for three levels)",
            "s",
            intercept,
            "levels[3]",
        ),
        (
            "h42",
            "levels[3].slope",
            "A<sup>(4)</sup><sub>2</sub>",
            "level 4 slope",
            "fourth line's slope (time per unit past the third swap point)",
            "s/unit",
            slope,
            "levels[3]",
        ),
    ]
    .into_iter()
    .map(|(key, path, head, label, hover, unit, range, level)| {
        Column::number(key, path, head, label, hover, "")
            .measured(unit, range)
            .part_of(level)
            .folds_with("level")
    })
    .collect()
}

/// The M3 tab.
pub fn form() -> Form {
    let mut columns = two_level_columns(["1", "1", "1", "1", "-9", "10"]);
    columns.push(
        Column::number(
            "cap",
            "cap",
            "cap <i>B</i>",
            "cap",
            "memory cap B (optional)",
            "",
        )
        .measured("units", "> 0")
        .or_default("none"),
    );
    columns.extend(further_level_columns());
    Form {
        tab: "Memory hierarchy",
        title: "Hierarchical memory, one installment",
        citation: "M3; Drozdowski &amp; Wolniewicz 2003",
        sources: &["drozdowski-wolniewicz-2003"],
        intro: "The originator sends one chunk <i>α<sub>i</sub></i> to each processor in turn; \
            sending takes <i>S<sub>i</sub> + α<sub>i</sub>C<sub>i</sub></i>. A processor computes \
            its chunk in time max(<i>A<sup>l</sup><sub>1</sub> + αA<sup>l</sup><sub>2</sub></i>, \
            <i>A<sup>h</sup><sub>1</sub> + αA<sup>h</sup><sub>2</sub></i>): the core line while the \
            chunk fits in memory, the out-of-core line beyond the swap point. A linear program (or \
            a closed form with an optimality certificate) finds the split with the shortest \
            schedule.".into(),
        about: ABOUT,
        groups: vec![
            Group::of(
                "",
                vec![Field::number("V", "load", "Load <i>V</i>")
                    .unit("units")
                    .range("> 0, at most the caps' sum")],
            ),
            Group::of(
                "",
                vec![Field::new(
                    "best",
                    "best_order",
                    "try every order (≤ 8 processors)",
                    Kind::Check,
                )],
            ),
        ],
        rows: Some(Rows {
            path: "processors",
            item: "processor",
            prefix: "P",
            caption: "Processors (served top to bottom)",
            columns,
        }),
        fixed: Vec::new(),
        layout: Layout::Report,
        parts: "",
    }
}

impl Describe for Report {
    fn view(&self) -> Vec<Block> {
        let how = match self.method {
            Method::CertifiedClosedForm => "closed form, proven optimal by a dual certificate",
            Method::LinearProgram => "linear program",
        };
        let more = if self.orders_tried > 1 {
            format!("; best of {} orders", self.orders_tried)
        } else {
            String::new()
        };
        let verdict = VerdictLine::of("hierarchical-verdict", &self.verdict, &more);
        let rows = self
            .schedule
            .chunks
            .iter()
            .take(ROWS_SHOWN)
            .map(|c| {
                let idle = self.usage.get(c.machine).map_or(0.0, |u| u.idle);
                vec![
                    format!("P{}", c.machine + 1),
                    number(c.size),
                    memory(c.level),
                    interval(&c.send),
                    interval(&c.compute),
                    number(idle),
                ]
            })
            .collect();
        let total = self.schedule.chunks.len();
        let mut blocks = vec![
            Block::headline(
                "hierarchical-makespan",
                "Shortest schedule: <i>C</i><sub>max</sub> (s)",
                self.makespan,
                Some(verdict),
            ),
            Block::aside("", format!("Found by the {how}.")),
            Block::table(
                "hierarchical-chunks",
                "Optimal split",
                &[
                    "processor",
                    "α (units)",
                    "memory",
                    "send (s)",
                    "compute (s)",
                    "idle (s)",
                ],
                cut(rows, total, "processors"),
            ),
        ];
        if !self.comparison.is_empty() {
            blocks.push(comparison(self));
        }
        blocks
    }
}

/// Linear DLT's predictions beside what its splits really take.
fn comparison(report: &Report) -> Block {
    let rows = report
        .comparison
        .iter()
        .map(|p| {
            let shown: Vec<String> = p.sizes.iter().take(8).map(|&a| number(a)).collect();
            let more = if p.sizes.len() > 8 { ", …" } else { "" };
            vec![
                p.assumption.clone(),
                format!("({}{more})", shown.join(", ")),
                number(p.predicted),
                number(p.real),
            ]
        })
        .collect();
    Block::table(
        "hierarchical-comparison",
        "What linear DLT would predict for its own split, and what that split really takes",
        &[
            "assumption",
            "split α (units)",
            "predicted Cmax (s)",
            "real Cmax (s)",
        ],
        rows,
    )
}

/// The formulas of the "About the model" panel.
const ABOUT: &[F] = &[
    F::new("processing time with a memory hierarchy (convex, piecewise linear)", "<i>t<sub>i</sub></i>(<i>x</i>) = max<sub><i>k</i></sub>(<i>A</i><sub><i>ik</i>1</sub> + <i>xA</i><sub><i>ik</i>2</sub>); the swap point is where the lines meet"),
    F::new("the linear program", "minimize <i>C</i><sub>max</sub> subject to Σ<sub><i>j</i>≤<i>i</i></sub>(<i>S<sub>j</sub></i> + <i>α<sub>j</sub>C<sub>j</sub></i>) + <i>t<sub>i</sub></i> ≤ <i>C</i><sub>max</sub>, <i>t<sub>i</sub></i> ≥ <i>A</i><sub><i>ik</i>1</sub> + <i>α<sub>i</sub>A</i><sub><i>ik</i>2</sub> for every level <i>k</i>, Σ<i>α<sub>i</sub></i> = <i>V</i>, <i>α<sub>i</sub></i> ≥ 0"),
    F::new("optional memory caps", "<i>α<sub>i</sub></i> ≤ <i>B<sub>i</sub></i>"),
    F::new("worked example (two machines, 1 + <i>x</i> and −9 + 10<i>x</i>, <i>C</i> = <i>S</i> = 1, <i>V</i> = 2)", "<i>α</i> = (1.25, 0.75), <i>C</i><sub>max</sub> = 5.75; a core-only model predicts 4.333 for a split that really takes 10.33"),
];
