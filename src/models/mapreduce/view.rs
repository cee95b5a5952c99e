//! M8 on the page: the form, the report's layout and the series' charts.

use super::Report;
use crate::core::presentation::chart::{Axis, Line, LineChart, Style};
use crate::core::presentation::form::{Field, Form, Formula as F, Group, Kind, Layout};
use crate::core::presentation::response::Describe;
use crate::core::presentation::view::{cut, gap, number, Block, VerdictLine, ROWS_SHOWN};

/// The M8 tab.
pub fn form() -> Form {
    let n = |key, path, label, help, unit, range| {
        Field::number(key, path, label)
            .help(help)
            .unit(unit)
            .range(range)
    };
    Form {
        tab: "MapReduce",
        title: "MapReduce as a divisible load",
        citation: "M8; Drozdowski, DLT from basics to applications, part 3",
        sources: &["drozdowski-basics"],
        intro: "<i>m</i> mappers and <i>r</i> reducers are started one after another (every \
            <i>S</i>). Mapper <i>k</i> maps its chunk <i>α<sub>k</sub></i>, then sends \
            <i>γα<sub>k</sub>/r</i> to every reducer; a mapper sends to one reducer at a time, a \
            reducer receives from one mapper at a time, and at most <i>ℓ</i> transfers run at \
            once. Each reducer reduces <i>γV/r</i> once it has every piece. The calculator \
            splits the load with an LP over a pattern of rotating groups (and an equal split sent \
            as soon as possible, keeping the shorter), proves a lower bound, and shows why the \
            speedup levels off as mappers are added."
            .into(),
        about: ABOUT,
        groups: vec![
            Group::of(
                "",
                vec![
                    n("V", "load", "Load <i>V</i>", "the input to map", "B", "> 0"),
                    n("m", "mappers", "<i>m</i>", "mappers", "", "1 to 20 000"),
                    n("r", "reducers", "<i>r</i>", "reducers", "", "1 to 20 000"),
                    n(
                        "l",
                        "channels",
                        "<i>ℓ</i>",
                        "bisection width: transfers at once (above min(r, m) acts as min(r, m))",
                        "",
                        "≥ 1",
                    ),
                    n(
                        "g",
                        "gamma",
                        "<i>γ</i>",
                        "the fraction of its input a mapper emits (above 1 is legal)",
                        "",
                        "> 0",
                    ),
                ],
            ),
            Group::of(
                "",
                vec![
                    n(
                        "S",
                        "startup",
                        "<i>S</i>",
                        "start-up time of each machine",
                        "s",
                        "≥ 0",
                    ),
                    n(
                        "C",
                        "rate",
                        "<i>C</i>",
                        "communication time per byte",
                        "s/B",
                        "≥ 0",
                    ),
                    n("lu", "unit", "<i>lu</i>", "size of a load unit", "B", "> 0"),
                ],
            ),
            Group::of(
                "Map:",
                vec![
                    n(
                        "am",
                        "map.rate",
                        "<i>a</i>",
                        "map time per byte",
                        "s/B",
                        "≥ 0",
                    ),
                    n(
                        "sm",
                        "map.unit_startup",
                        "<i>s</i>",
                        "map start-up per load unit",
                        "s",
                        "≥ 0",
                    ),
                ],
            ),
            Group::of(
                "Reduce:",
                vec![
                    n(
                        "ar",
                        "reduce.rate",
                        "<i>a</i>",
                        "reduce time per byte",
                        "s/B",
                        "≥ 0",
                    ),
                    n(
                        "sr",
                        "reduce.unit_startup",
                        "<i>s</i>",
                        "reduce start-up per load unit",
                        "s",
                        "≥ 0",
                    ),
                ],
            ),
            Group::optional(
                "Speedup against m (optional):",
                "series",
                vec![
                    Field::number("from", "series.from", "m from")
                        .placeholder("none")
                        .range("≥ 1"),
                    Field::number("to", "series.to", "to")
                        .placeholder("none")
                        .range("≥ from"),
                    Field::number("pts", "series.points", "points")
                        .placeholder("none")
                        .range("1 to 100"),
                    Field::new("sr_r", "series.reducers", "lines for r (ℓ = r)", Kind::List)
                        .placeholder("none")
                        .help("one line per number of reducers, with ℓ = r")
                        .range("up to 8 values"),
                    Field::new("sr_l", "series.channels", "for ℓ", Kind::List)
                        .placeholder("none")
                        .help("one line per bisection width")
                        .range("up to 8 values"),
                    Field::new("sr_g", "series.gammas", "for γ", Kind::List)
                        .placeholder("none")
                        .help("one line per output fraction")
                        .range("up to 8 values"),
                ],
            ),
        ],
        rows: None,
        fixed: Vec::new(),
        layout: Layout::Report,
        parts: "",
    }
}

impl Describe for Report {
    fn view(&self) -> Vec<Block> {
        let proven = if self.gap <= 1e-9 {
            "; proven optimal".to_string()
        } else {
            format!("; at most {} above the optimum", gap(self.gap))
        };
        let mut blocks = vec![
            Block::headline(
                "mapreduce-makespan",
                "Schedule length <i>T</i> (s)",
                self.makespan,
                Some(VerdictLine::of("mapreduce-verdict", &self.verdict, &proven)),
            ),
            Block::note(
                "mapreduce-bound",
                format!(
                    "Proven lower bound {} s (gap {}). {} schedule; the {} gives T = {} s.",
                    number(self.lower_bound),
                    gap(self.gap),
                    match self.pattern.as_str() {
                        "rotation" => "The LP over rotating groups gives the shorter",
                        _ => "The equal split sent as soon as possible gives the shorter",
                    },
                    match self.pattern.as_str() {
                        "rotation" => "equal split sent as soon as possible",
                        _ => "LP over rotating groups",
                    },
                    number(self.other)
                ),
            ),
            Block::note(
                "mapreduce-speedup",
                format!(
                    "One machine: T_seq = S + AV + BγV = {} s; speedup {} with {} mappers, {} \
                     reducers and {} channels in use at most.",
                    number(self.sequential),
                    number(self.speedup),
                    self.sizes.len(),
                    self.reducers.len(),
                    self.channels
                ),
            ),
            Block::aside("mapreduce-plateau", self.plateau.text.clone()),
        ];
        blocks.push(self.sizes_table());
        blocks.push(self.reducers_table());
        if !self.series.is_empty() {
            blocks.push(self.series_table());
        }
        blocks
    }
}

impl Report {
    /// The chunks, mappers with equal chunks in one row, with when they
    /// send.
    fn sizes_table(&self) -> Block {
        let mut sending = vec![(f64::INFINITY, f64::NEG_INFINITY); self.sizes.len()];
        for t in &self.transfers {
            let s = &mut sending[t.mapper];
            *s = (s.0.min(t.start), s.1.max(t.end));
        }
        let runs = runs(&self.sizes, |a, b| same(*a, *b));
        let rows = runs
            .iter()
            .take(ROWS_SHOWN)
            .map(|r| {
                let (from, to) = sending[r.clone()]
                    .iter()
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), s| {
                        (a.min(s.0), b.max(s.1))
                    });
                let when = if from <= to {
                    format!("{} – {}", number(from), number(to))
                } else {
                    "nothing to send".into()
                };
                vec![span("map", r), number(self.sizes[r.start]), when]
            })
            .collect();
        Block::table(
            "mapreduce-sizes",
            "Chunks of the mappers (map 0, map 1, … as on the Gantt chart; equal chunks in one row)",
            &["mappers", "chunk α (B)", "sending (s)"],
            cut(rows, runs.len(), "rows"),
        )
    }

    /// When the reducers reduce, reducers with equal times in one row.
    fn reducers_table(&self) -> Block {
        let runs = runs(&self.reducers, |a, b| {
            same(a.start, b.start) && same(a.end, b.end)
        });
        let rows = runs
            .iter()
            .take(ROWS_SHOWN)
            .map(|r| {
                let i = self.reducers[r.start];
                vec![span("reduce", r), number(i.start), number(i.end)]
            })
            .collect();
        Block::table(
            "mapreduce-reducers",
            "Reducers (reduce 0, reduce 1, …): when each has every piece and reduces",
            &["reducers", "starts (s)", "ends (s)"],
            cut(rows, runs.len(), "rows"),
        )
    }

    fn series_table(&self) -> Block {
        let head: Vec<String> = std::iter::once("m".to_string())
            .chain(self.series.iter().map(line_name))
            .collect();
        let head: Vec<&str> = head.iter().map(String::as_str).collect();
        // Every line has the same values of m; a series stopped early has
        // its last line cut short.
        let longest = self.series.iter().max_by_key(|l| l.points.len());
        let counts: Vec<usize> =
            longest.map_or(Vec::new(), |l| l.points.iter().map(|p| p.mappers).collect());
        let mut rows: Vec<Vec<String>> = counts
            .iter()
            .enumerate()
            .map(|(i, m)| {
                std::iter::once(m.to_string())
                    .chain(
                        self.series
                            .iter()
                            .map(|l| l.points.get(i).map_or("–".into(), |p| number(p.speedup))),
                    )
                    .collect()
            })
            .collect();
        rows.push(
            std::iter::once("level".to_string())
                .chain(
                    self.series
                        .iter()
                        .map(|l| l.level.map_or("none".into(), number)),
                )
                .collect(),
        );
        Block::table(
            "mapreduce-series",
            "Speedup against m (last row: the level it approaches)",
            &head,
            rows,
        )
    }

    /// Speedup against `m`, one chart per varied parameter, each line with
    /// its level dashed.
    pub fn charts(&self) -> Vec<LineChart> {
        let mut charts = Vec::new();
        for parameter in ["reducers", "channels", "gamma", "mappers"] {
            let lines: Vec<&super::Line> = self
                .series
                .iter()
                .filter(|l| l.parameter == parameter)
                .collect();
            if lines.is_empty() {
                continue;
            }
            let markers = lines[0].points.len() <= 40;
            let mut drawn = Vec::new();
            for l in &lines {
                let name = line_name(l);
                let points = l
                    .points
                    .iter()
                    .map(|p| [p.mappers as f64, p.speedup])
                    .collect();
                drawn.push(Line::new(&name, points, markers));
            }
            for l in &lines {
                let Some(y) = l.level else { continue };
                let (first, last) = (l.points[0].mappers, l.points[l.points.len() - 1].mappers);
                let level = vec![[first as f64, y], [last as f64, y]];
                // Same name: same colour, dashed, no second legend entry.
                drawn.push(Line::new(&line_name(l), level, false).styled(Style::Dashed));
            }
            let by = match parameter {
                "reducers" => "r (ℓ = r)",
                "channels" => "ℓ",
                "gamma" => "γ",
                _ => "m",
            };
            let many = lines[0].points.last().is_some_and(|p| p.mappers > 50);
            charts.push(LineChart {
                name: format!("speedup-{parameter}"),
                title: format!("Speedup T_seq/T against mappers m, by {by} (dashed: the level)"),
                x: if many {
                    Axis::log("mappers m").pure()
                } else {
                    Axis::linear("mappers m").whole()
                },
                y: Axis::fitting(
                    "speedup",
                    lines
                        .iter()
                        .flat_map(|l| l.points.iter().map(|p| p.speedup)),
                )
                .pure(),
                lines: drawn,
                legend: true,
            });
        }
        charts
    }
}

/// Equal to twelve digits.
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * a.abs().max(b.abs())
}

/// The runs of consecutive equal items, as index ranges.
fn runs<T>(items: &[T], equal: impl Fn(&T, &T) -> bool) -> Vec<std::ops::Range<usize>> {
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match runs.last_mut() {
            Some(r) if equal(&items[r.start], item) => r.end = i + 1,
            _ => runs.push(i..i + 1),
        }
    }
    runs
}

/// `map 3` or `map 0–99`: machines named as on the Gantt chart.
fn span(what: &str, r: &std::ops::Range<usize>) -> String {
    if r.len() == 1 {
        format!("{what} {}", r.start)
    } else {
        format!("{what} {}–{}", r.start, r.end - 1)
    }
}

/// A line's name: `r = 100`, `ℓ = 10`, `γ = 0.1`.
fn line_name(l: &super::Line) -> String {
    let symbol = match l.parameter.as_str() {
        "reducers" => "r",
        "channels" => "ℓ",
        "gamma" => "γ",
        _ => "m",
    };
    format!("{symbol} = {}", number(l.value))
}

/// The formulas of the "About the model" panel.
const ABOUT: &[F] = &[
    F::new("time per byte of mapping and of reducing", "<i>A</i> = <i>a</i><sub>map</sub> + <i>s</i><sub>map</sub>/<i>lu</i>, <i>B</i> = <i>a</i><sub>red</sub> + <i>s</i><sub>red</sub>/<i>lu</i>"),
    F::new("mapper <i>k</i> (from 0)", "ready at (<i>k</i> + 1)<i>S</i>, maps α<sub><i>k</i></sub> until (<i>k</i> + 1)<i>S</i> + <i>A</i>α<sub><i>k</i></sub>, then sends γα<sub><i>k</i></sub>/<i>r</i> to every reducer in <i>C</i>γα<sub><i>k</i></sub>/<i>r</i> each, at most ℓ transfers at once"),
    F::new("reducer <i>j</i>", "ready at (<i>m</i> + <i>j</i> + 1)<i>S</i>; reduces γ<i>V</i>/<i>r</i> in <i>B</i>γ<i>V</i>/<i>r</i> once it has every piece"),
    F::new("one machine does everything", "<i>T</i><sub>seq</sub> = <i>S</i> + <i>AV</i> + <i>B</i>γ<i>V</i>; speedup <i>T</i><sub>seq</sub>/<i>T</i>"),
    F::new("the speedup more mappers approach, before the start-ups (<i>m</i> + <i>r</i>)<i>S</i> pull it down", "<i>T</i><sub>seq</sub>/(<i>C</i>γ<i>V</i>/min(ℓ, <i>r</i>) + <i>B</i>γ<i>V</i>/<i>r</i>)"),
    F::new("how sure the answer is", "<i>T</i> ≥ <i>D</i> + <i>B</i>γ<i>V</i>/<i>r</i> (<i>D</i> bounds the last arrival); gap = (<i>T</i> − bound)/<i>T</i>, 0 with one reducer"),
];
