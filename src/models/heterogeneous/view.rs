//! M7 on the page: the form, the report's layout, the Gantt chart with each
//! machine's states, and the Pareto front.

use super::instance::Objective;
use super::report::{Report, Status};
use super::Instance;
use super::Output;
use crate::core::presentation::chart::{Axis, Line, LineChart, Style};
use crate::core::presentation::form::{
    Column, Field, Form, Formula as F, Group, Kind, Layout, Rows,
};
use crate::core::presentation::gantt::{Activity, ActivityStyle, Bar, Gantt, Row};
use crate::core::presentation::response::Answer;
use crate::core::presentation::response::Describe;
use crate::core::presentation::view::{cut, gap, number, Block, VerdictLine, ROWS_SHOWN};

/// The most machines the Gantt chart draws (the first ones).
const GANTT_ROWS: usize = 24;

/// The M7 tab.
pub fn form() -> Form {
    let n = |key, path, label, help, unit, range| {
        Field::number(key, path, label)
            .help(help)
            .unit(unit)
            .range(range)
    };
    let opt = |key, path, label, help, unit, placeholder| {
        Field::new(key, path, label, Kind::Optional)
            .help(help)
            .unit(unit)
            .placeholder(placeholder)
            .range("> 0")
    };
    let col = |key, path, head, help, unit: &'static str, range, blank| {
        Column::number(key, path, head, head, help, blank).measured(unit, range)
    };
    Form {
        tab: "Heterogeneous & energy",
        title: "Heterogeneous machines with sleep modes: time and energy",
        citation: "M7; Marszałkowski, Drozdowski, Singh 2020",
        sources: &["marszalkowski-energy"],
        intro: "Each machine has its own processing time <i>τ<sub>i</sub>(α) = max{a1<sub>i</sub>α, \
            a2<sub>i</sub>α + b2<sub>i</sub>}</i> (fast in RAM, slow out of core), link \
            <i>O<sub>i</sub> + C<sub>i</sub>α</i>, and waits in a mode (on, suspended, hibernated, \
            off) from which it takes <i>S<sub>i</sub></i> to wake. The originator sends at most \
            <i>n</i> chunks one at a time; a machine is woken as late as its first chunk allows and \
            receives its next chunk once it has computed the previous one. Energy adds each \
            machine's power in each state over time. The exact search proves the fastest (or \
            least-energy) schedule of at most <i>n</i> chunks; SSC and GSS are the online \
            heuristics of the paper, under a processor sort rule."
            .into(),
        about: ABOUT,
        groups: vec![
            Group::of(
                "",
                vec![
                    n("V", "load", "Load <i>V</i>", "the load to process", "MB", "> 0"),
                    n("n", "chunks", "<i>n</i>", "the most chunks of the exact search", "", "1 to 32"),
                    Field::choice("obj", "objective", "Minimise", &["makespan", "energy", "pareto"])
                        .help("the makespan, the energy, or the Pareto front of both"),
                    Field::choice(
                        "alg",
                        "algorithm",
                        "Algorithm",
                        &["exact", "ssc", "gss", "super-ssc", "super-gss", "compare"],
                    )
                    .help("the exact search, a heuristic, or all of them side by side"),
                    Field::choice(
                        "sort",
                        "sort",
                        "Sort rule",
                        &["a1", "a2", "rate", "overhead", "startup", "idle", "network", "compute", "wake", "ram", "random"],
                    )
                    .help("the heuristics' order of preference (ram: largest first, the others smallest first)"),
                ],
            ),
            Group::of(
                "Limits and options:",
                vec![
                    opt("Tl", "makespan_limit", "<i>T</i> ≤", "a makespan limit while minimising energy (exact or compare)", "s", "none"),
                    opt("El", "energy_limit", "<i>E</i> ≤", "an energy limit while minimising the makespan (exact or compare)", "J", "none"),
                    opt("mc", "min_chunk", "least GSS chunk", "GSS's minimum chunk", "MB", "max(V/100m, 10 O/C)"),
                    opt("seed", "seed", "seed", "the random sort rule's seed", "", "0").range("whole, ≥ 0"),
                    opt("pts", "points", "front points", "points of the Pareto front", "", "20").range("2 to 200"),
                    opt("secs", "max_seconds", "time limit", "the time limit of every search of the request", "s", "30").range("> 0, at most a day"),
                ],
            ),
            Group::of(
                "Originator:",
                vec![
                    n("P0i", "originator.idle_power", "idle power", "the originator's power while on", "W", "≥ 0"),
                    n("P0n", "originator.network_power", "network power", "above idle while sending", "W", "≥ 0"),
                ],
            ),
        ],
        rows: Some(Rows {
            path: "machines",
            item: "machine",
            prefix: "P",
            caption: "Machines (a row of count identical machines; choosing a mode fills in its S and sleep power, which you may change; left empty, they are the mode's)",
            columns: vec![
                col("k", "count", "count", "how many such machines", "", "1 to 10 000", "1"),
                Column::choice("mode", "mode", "mode", "the mode it waits in", &["on", "suspend", "hibernate", "off"])
                .measured("", "on, suspend, hibernate or off")
                .filling(),
                col("a1", "a1", "a1", "in-core processing time per MB", "s/MB", "> 0", "0.109"),
                col("a2", "a2", "a2", "out-of-core processing time per MB", "s/MB", "> a1", "4.132"),
                col("b2", "b2", "b2", "out-of-core intercept", "s", "< 0", "-27109"),
                col("C", "rate", "C", "communication time per MB", "s/MB", "≥ 0", "0.005"),
                col("O", "overhead", "O", "communication start-up per message", "s", "≥ 0", "0.075"),
                col("S", "startup", "S", "wake-up time (empty: the mode's: 0, 10, 60, 120 s)", "s", "≥ 0", "")
                    .or_default("by mode"),
                col("Ps", "power.sleep", "P sleep", "power asleep (empty: the mode's share of idle: 100, 5, 1, 0.5 %)", "W", "0 to idle", "")
                    .or_default("by mode"),
                col("Pw", "power.wake", "P wake", "power while waking", "W", "≥ 0", "120"),
                col("Pi", "power.idle", "P idle", "power while on", "W", "≥ 0", "100"),
                col("Pn", "power.network", "P net", "above idle while receiving", "W", "≥ 0", "20"),
                col("Pc", "power.compute", "P comp", "above idle while computing", "W", "≥ 0", "80"),
            ],
        }),
        fixed: Vec::new(),
        layout: Layout::Report,
        parts: "",
    }
}

impl Describe for Report {
    fn view(&self) -> Vec<Block> {
        let how = match (self.status, self.gap) {
            (Status::Heuristic, _) => format!("; {} with sort rule {}", self.algorithm, self.sort),
            (Status::Optimal, _) => "; proven optimal for at most n chunks".into(),
            (_, Some(g)) => format!("; at most {} above the optimum", gap(g)),
            _ => String::new(),
        };
        let mut blocks = vec![
            Block::headline(
                "heterogeneous-makespan",
                "Schedule length <i>T</i> (s)",
                self.makespan,
                Some(VerdictLine::of(
                    "heterogeneous-verdict",
                    &self.verdict,
                    &how,
                )),
            ),
            Block::headline(
                "heterogeneous-energy",
                "Energy <i>E</i> (J)",
                self.energy,
                None,
            ),
        ];
        blocks.extend(self.bound_note());
        for (k, note) in self.notes.iter().enumerate() {
            blocks.push(Block::aside(
                &format!("heterogeneous-note-{k}"),
                note.clone(),
            ));
        }
        blocks.push(self.chunks_table());
        blocks.push(self.energy_table());
        if !self.compare.is_empty() {
            blocks.push(self.compare_table());
        }
        if !self.front.is_empty() {
            blocks.push(self.front_table());
        }
        blocks
    }
}

impl Report {
    /// The exact search's proven lower bound: on which objective, in its
    /// unit, for how many chunks.
    fn bound_note(&self) -> Option<Block> {
        let (bound, g) = (self.lower_bound?, self.gap?);
        // A front's searches and a makespan objective bound T; energy, E.
        let of = if self.objective == Objective::Energy {
            format!("the energy: E ≥ {} J", number(bound))
        } else {
            format!("the makespan: T ≥ {} s", number(bound))
        };
        Some(Block::note(
            "heterogeneous-bound",
            format!(
                "Proven lower bound on {of} with at most n = {} chunks (gap {}); {} linear \
                 programs, {} prefixes, {} s.",
                self.chunk_limit,
                gap(g),
                self.lps,
                self.nodes,
                number(self.seconds)
            ),
        ))
    }

    fn chunks_table(&self) -> Block {
        let rows = self
            .schedule
            .chunks
            .iter()
            .take(ROWS_SHOWN)
            .map(|c| {
                vec![
                    self.machine_name(c.machine),
                    number(c.size),
                    format!("{} – {}", number(c.send.start), number(c.send.end)),
                    format!("{} – {}", number(c.compute.start), number(c.compute.end)),
                    if c.level == 0 {
                        "in core".into()
                    } else {
                        "out of core".into()
                    },
                ]
            })
            .collect();
        Block::table(
            "heterogeneous-chunks",
            "Chunks in sending order (machines by their row of the table, from 1, and copy: P2·1)",
            &[
                "machine",
                "size (MB)",
                "received (s)",
                "computed (s)",
                "memory",
            ],
            cut(rows, self.schedule.chunks.len(), "chunks"),
        )
    }

    fn energy_table(&self) -> Block {
        let p = &self.energy_parts;
        let row = |name: String, e: &super::Parts| {
            vec![
                name,
                number(e.sleep),
                number(e.wake),
                number(e.idle),
                number(e.network),
                number(e.compute),
                number(e.total()),
            ]
        };
        let mut rows = vec![row("originator".into(), &p.originator)];
        rows.extend(
            p.machines
                .iter()
                .enumerate()
                .take(ROWS_SHOWN)
                .map(|(i, e)| row(self.machine_name(i), e)),
        );
        let mut rows = cut(rows, p.machines.len() + 1, "machines");
        rows.push(row("all".into(), &p.sum));
        Block::table(
            "heterogeneous-energy-parts",
            "Energy by state (J): idle is the power while on; receive and computing draw above it",
            &[
                "",
                "asleep",
                "waking",
                "idle",
                "receive",
                "computing",
                "total",
            ],
            rows,
        )
    }

    fn compare_table(&self) -> Block {
        let rows = self
            .compare
            .iter()
            .map(|c| {
                vec![
                    if c.sort.is_empty() {
                        c.algorithm.clone()
                    } else {
                        format!("{} ({})", c.algorithm, c.sort)
                    },
                    number(c.makespan),
                    number(c.energy),
                    if c.algorithm != "exact" && c.chunks > self.chunk_limit {
                        format!("{} (more than n)", c.chunks)
                    } else {
                        c.chunks.to_string()
                    },
                    format!("{} %", number(100.0 * c.time_quality)),
                    format!("{} %", number(100.0 * c.energy_quality)),
                    number(c.seconds),
                    if c.verified {
                        "yes".into()
                    } else {
                        "no".into()
                    },
                ]
            })
            .collect();
        let caption = format!(
            "Every algorithm and sort rule: quality is the distance from the best makespan and \
             the least energy of the table. The exact search sends at most n = {} chunks; a \
             heuristic that sends more may beat it",
            self.chunk_limit
        );
        Block::table(
            "heterogeneous-compare",
            &caption,
            &[
                "algorithm (sort rule)",
                "T (s)",
                "E (J)",
                "chunks",
                "T above best",
                "E above least",
                "runtime (s)",
                "verified",
            ],
            rows,
        )
    }

    /// The front, with each point's makespan above the fastest point's:
    /// the page reads `T` at four digits, where points a fraction of a
    /// second apart would look equal and so dominated.
    fn front_table(&self) -> Block {
        let fastest = self
            .front
            .iter()
            .map(|p| p.makespan)
            .fold(f64::INFINITY, f64::min);
        let rows = self
            .front
            .iter()
            .map(|p| {
                vec![
                    number(p.makespan),
                    number(p.makespan - fastest),
                    number(p.energy),
                    number(p.limit),
                    p.sequence
                        .iter()
                        .map(|&i| self.machine_name(i))
                        .collect::<Vec<_>>()
                        .join(" "),
                    if p.proven {
                        "proven".into()
                    } else {
                        "not proven".into()
                    },
                ]
            })
            .collect();
        let caption = format!(
            "Pareto front: the least energy within each makespan limit, by the exact search with \
             at most n = {} chunks (a heuristic that sends more chunks may lie below it)",
            self.chunk_limit
        );
        Block::table(
            "heterogeneous-front",
            &caption,
            &[
                "T (s)",
                "T above the fastest (s)",
                "E (J)",
                "limit (s)",
                "sequence",
                "optimality",
            ],
            rows,
        )
    }
}

/// The answer of `instance` for `report`: with its Gantt chart and charts.
pub(crate) fn answer(instance: &Instance, report: Report) -> Output {
    Answer {
        gantt: Some(gantt(instance, &report)),
        charts: charts(&report),
        report: Box::new(report),
    }
}

/// The Gantt chart: each machine asleep, waking, receiving, computing (in
/// or out of core) and idle; an unused machine sleeps throughout.
pub fn gantt(instance: &Instance, report: &Report) -> Gantt {
    let workers = instance.workers();
    let mut chart = Gantt::with_startup(&report.schedule, 0.0);
    let horizon = report.makespan;
    let mut rows: Vec<Row> = Vec::new();
    let mut used = chart.rows.drain(..);
    for (i, w) in workers.iter().enumerate().take(GANTT_ROWS) {
        let label = report.machine_name(i);
        let wake = report.wake.iter().find(|k| k.machine == i);
        let mut bars = Vec::new();
        match wake {
            Some(k) => {
                if k.at > 0.0 {
                    bars.push(Bar {
                        start: 0.0,
                        end: k.at,
                        activity: SLEEP,
                    });
                }
                if w.startup > 0.0 {
                    bars.push(Bar {
                        start: k.at,
                        end: k.ready,
                        activity: WAKE,
                    });
                }
                if let Some(row) = used.find(|r| r.label == format!("P{}", i + 1)) {
                    bars.extend(row.bars);
                }
            }
            None => bars.push(Bar {
                start: 0.0,
                end: horizon,
                activity: SLEEP,
            }),
        }
        rows.push(Row { label, bars });
    }
    Gantt {
        rows,
        horizon,
        gaps: Vec::new(),
    }
}

/// The energy breakdown as stacked bars (the originator, then the machines,
/// at most 40), and the Pareto front with the heuristics' points.
pub fn charts(report: &Report) -> Vec<LineChart> {
    let mut charts = vec![energy_chart(report)];
    if !report.front.is_empty() {
        charts.push(front_chart(report));
    }
    charts
}

/// Each machine's energy, by state, stacked: each state named and
/// coloured as the Gantt chart draws it ([`state_style`]), computing split
/// in and out of core when a chunk is computed out of core; machines named
/// as in the tables.
fn energy_chart(report: &Report) -> LineChart {
    let p = &report.energy_parts;
    let parts: Vec<&super::Parts> = std::iter::once(&p.originator)
        .chain(p.machines.iter().take(40))
        .collect();
    // The share of each one's computing time in core (the originator: none).
    let in_core: Vec<f64> = std::iter::once(1.0)
        .chain((0..parts.len() - 1).map(|i| in_core_share(report, i)))
        .collect();
    let split = in_core.iter().any(|&s| s < 1.0);
    let states: Vec<Activity> = STATES
        .into_iter()
        .filter(|a| split || *a != Activity::compute(1))
        .collect();
    let mut tops = vec![0.0; parts.len()];
    let lines = states
        .iter()
        .map(|state| {
            let points = parts
                .iter()
                .zip(&in_core)
                .zip(tops.iter_mut())
                .enumerate()
                .map(|(x, ((e, share), top))| {
                    *top += state_energy(e, state, if split { *share } else { 1.0 });
                    [x as f64, *top]
                })
                .collect();
            let style = state_style(state);
            Line::new(style.legend, points, false)
                .styled(Style::Bar)
                .coloured(style.colour)
        })
        .collect();
    let names = std::iter::once("originator".to_string())
        .chain((0..parts.len() - 1).map(|i| report.machine_name(i)))
        .collect();
    LineChart {
        name: "energy".into(),
        title: "Energy by state: the originator and each machine (idle: the power while on)".into(),
        x: Axis::linear("machine").named(names),
        y: Axis::linear("energy (J)"),
        lines,
        legend: true,
    }
}

/// The states of a machine, in the order the energy chart stacks them,
/// each as the activity the Gantt chart draws it as: the one table both
/// charts take a state's name and colour from.
const STATES: [Activity; 6] = [
    SLEEP,
    WAKE,
    Activity::IDLE,
    Activity::RECEIVE,
    Activity::compute(0),
    Activity::compute(1),
];

/// How both charts draw a state: the shared kinds' style or the
/// cluster's own, as the Gantt chart looks it up.
pub fn state_style(state: &Activity) -> ActivityStyle {
    state
        .shared_style()
        .or_else(|| style(state))
        .unwrap_or_else(ActivityStyle::unknown)
}

/// The energy of `e` in `state`; computing split by `in_core`, the share
/// of computing time in core (`P^comp` is one power in and out of core).
fn state_energy(e: &super::Parts, state: &Activity, in_core: f64) -> f64 {
    match STATES.iter().position(|s| s == state) {
        Some(0) => e.sleep,
        Some(1) => e.wake,
        Some(2) => e.idle,
        Some(3) => e.network,
        Some(4) => e.compute * in_core,
        Some(5) => e.compute * (1.0 - in_core),
        _ => 0.0,
    }
}

/// The share of machine `i`'s computing time spent in core (1 when it
/// computes nothing).
fn in_core_share(report: &Report, i: usize) -> f64 {
    let (mut core, mut all) = (0.0, 0.0);
    for c in report.schedule.chunks.iter().filter(|c| c.machine == i) {
        let t = c.compute.end - c.compute.start;
        all += t;
        if c.level == 0 {
            core += t;
        }
    }
    if all > 0.0 {
        core / all
    } else {
        1.0
    }
}

/// The Pareto front with the heuristics' points.
fn front_chart(report: &Report) -> LineChart {
    let front: Vec<[f64; 2]> = report
        .front
        .iter()
        .map(|p| [p.makespan, p.energy])
        .collect();
    let mut lines = vec![Line::new(
        "exact front (least E within each T)",
        front,
        true,
    )];
    for name in ["super-ssc", "super-gss"] {
        let runs: Vec<&super::Compared> = report
            .compare
            .iter()
            .filter(|c| c.algorithm == name)
            .collect();
        let points: Vec<[f64; 2]> = runs.iter().map(|c| [c.makespan, c.energy]).collect();
        // Why a heuristic's point may lie below the exact front.
        let most = runs.iter().map(|c| c.chunks).max().unwrap_or(0);
        let label = if most > report.chunk_limit {
            format!(
                "{name} ({most} chunks, more than the front's n = {})",
                report.chunk_limit
            )
        } else {
            name.to_string()
        };
        lines.push(Line::new(&label, points, true));
    }
    LineChart {
        name: "pareto".into(),
        title: "Time against energy: the Pareto front and the heuristics".into(),
        x: Axis::linear("makespan T (s)"),
        y: Axis::linear("energy E (J)"),
        lines,
        legend: true,
    }
}

/// The formulas of the "About the model" panel.
const ABOUT: &[F] = &[
    F::new("machine <i>i</i>: computing, sending, ready", "τ<sub><i>i</i></sub>(α) = max{<i>a</i>1<sub><i>i</i></sub>α, <i>a</i>2<sub><i>i</i></sub>α + <i>b</i>2<sub><i>i</i></sub>}, <i>O<sub>i</sub></i> + <i>C<sub>i</sub></i>α, woken at <i>w<sub>i</sub></i> and ready at <i>w<sub>i</sub></i> + <i>S<sub>i</sub></i>"),
    F::new("energy of a machine used", "<i>P</i><sup>sleep</sup><i>w<sub>i</sub></i> + <i>P</i><sup>wake</sup><i>S<sub>i</sub></i> + <i>P</i><sup>idle</sup>(<i>T</i> − <i>w<sub>i</sub></i> − <i>S<sub>i</sub></i>) + Σ<sub>its chunks</sub>[<i>P</i><sup>net</sup>(<i>O<sub>i</sub></i> + <i>C<sub>i</sub></i>α<sub><i>j</i></sub>) + <i>P</i><sup>comp</sup>τ<sub><i>i</i></sub>(α<sub><i>j</i></sub>)]"),
    F::new("a machine unused; the originator", "<i>P</i><sup>sleep</sup><i>T</i>; <i>P</i><sup>idle</sup><sub>0</sub><i>T</i> + <i>P</i><sup>net</sup><sub>0</sub>Σ<sub><i>j</i></sub>(<i>O<sub>j</sub></i> + <i>C<sub>j</sub></i>α<sub><i>j</i></sub>)"),
    F::new("heuristics' chunks", "SSC: ρ<sub><i>i</i></sub>; GSS: max{minimum chunk, min{ρ<sub><i>i</i></sub>, remaining/<i>m</i>}}"),
    F::new("Pareto front (ε-constraint)", "least <i>E</i> subject to <i>T</i> ≤ <i>T̄</i>, for limits <i>T̄</i> from the slowest to the fastest"),
];

/// Asleep in a low-power mode, waiting to be woken.
const SLEEP: Activity = Activity::named("sleep");
/// Waking up from a low-power mode.
const WAKE: Activity = Activity::named("wake");

/// How the chart draws a cluster's own activities: sleeping and waking.
pub fn style(activity: &Activity) -> Option<ActivityStyle> {
    Some(match activity.kind.as_ref() {
        "sleep" => ActivityStyle::new((176, 196, 222), "asleep", 0),
        "wake" => ActivityStyle::new((255, 165, 79), "waking", 0),
        _ => return None,
    })
}
