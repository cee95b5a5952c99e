//! M5 on the page: the form and the report's layout.

use super::{Report, Status};
use crate::core::presentation::form::{Field, Form, Formula as F, Group, Kind, Layout};
use crate::core::presentation::response::Describe;
use crate::core::presentation::view::{
    gap, interval, memory, number, percent, seconds, Block, VerdictLine, ROWS_SHOWN,
};

/// The fields of the start-up model's processing time and network (also
/// the maps'), with `chunks` among them when `with_chunks`.
pub fn model_groups(with_chunks: bool) -> Vec<Group> {
    let mut network = vec![
        Field::number("C", "rate", "<i>C</i>")
            .help("communication time per load unit")
            .unit("s/MB")
            .range("≥ 0"),
        Field::number("O", "overhead", "<i>O</i>")
            .help("time to start one message")
            .unit("s")
            .range("≥ 0"),
        Field::number("S", "startup", "<i>S</i>")
            .help("machine start-up time")
            .unit("s")
            .range("≥ 0"),
    ];
    if with_chunks {
        network.push(Field::number("n", "chunks", "chunks <i>n</i>").range("1 to 64"));
    }
    vec![
        Group::of(
            "τ(α) = max{a<sub>1</sub>α, a<sub>2</sub>α + b<sub>2</sub>}:",
            vec![
                Field::number("a1", "a1", "<i>a</i><sub>1</sub>")
                    .help("in-core time per unit")
                    .unit("s/MB")
                    .range("> 0"),
                Field::number("a2", "a2", "<i>a</i><sub>2</sub>")
                    .help("out-of-core time per unit")
                    .unit("s/MB")
                    .range("above a1"),
                Field::number("b2", "b2", "<i>b</i><sub>2</sub>")
                    .help("out-of-core intercept")
                    .unit("s")
                    .range("< 0"),
            ],
        ),
        Group::of("", network),
    ]
}

/// The M5 tab.
pub fn form() -> Form {
    let mut groups = model_groups(false);
    groups.push(Group::of(
        "",
        vec![
            Field::number("m", "machines", "machines <i>m</i>").range("1 to 64"),
            Field::number("n", "chunks", "chunks <i>n</i>").range("1 to 64"),
            Field::number("V", "load", "load <i>V</i>")
                .unit("MB")
                .range("> 0"),
        ],
    ));
    groups.push(Group::of(
        "Search:",
        vec![
            Field::new("gap", "gap", "stop at gap", Kind::Optional)
                .placeholder("1e-9")
                .help("stop when the proven relative gap is this small")
                .range("0 to below 1"),
            Field::new("lps", "max_lps", "LP budget", Kind::Optional)
                .placeholder("3000")
                .help("the most linear programs the search solves; the round robins it starts from (one per machine and chunk count, up to m·n LPs) are solved in full and count towards it")
                .range("1 to 10⁸"),
            Field::new("secs", "max_seconds", "time limit", Kind::Optional)
                .placeholder("none")
                .unit("s")
                .range("> 0, at most 86400"),
            Field::new(
                "exactly",
                "exactly",
                "exactly n chunks (as the paper's MIP; default: at most n)",
                Kind::Check,
            ),
        ],
    ));
    Form {
        tab: "Start-up &amp; installments",
        title: "Multi-installment with machine start-up",
        citation: "M5; Drozdowski, Singh &amp; Marszałkowski, isoefficiency maps",
        sources: &["drozdowski-singh-marszalkowski"],
        intro: "Identical machines start up for <i>S</i>, then receive up to <i>n</i> chunks, one \
            message at a time (<i>O</i> + <i>Cα</i> each), and compute each in τ(α) = \
            max{<i>a</i><sub>1</sub>α, <i>a</i><sub>2</sub>α + <i>b</i><sub>2</sub>}: in core up \
            to the usable RAM ρ = <i>b</i><sub>2</sub>/(<i>a</i><sub>1</sub> − \
            <i>a</i><sub>2</sub>), far slower beyond. A machine receives its next chunk only \
            after computing the previous one. For each communication sequence the best sizes \
            come from a linear program; a branch and bound over sequences proves how far from \
            optimal the answer can be (the gap), and stops when it is proven optimal or its LP \
            budget is spent."
            .into(),
        about: ABOUT,
        groups,
        rows: None,
        fixed: Vec::new(),
        layout: Layout::Report,
        parts: "",
    }
}

impl Report {
    /// What the search's status means, with its figures.
    pub fn status_text(&self) -> String {
        let (lps, secs) = (self.lps, seconds(self.seconds));
        let bound = format!(
            "proven lower bound {}, gap {}",
            number(self.lower_bound),
            gap(self.gap)
        );
        match self.status {
            Status::Optimal => format!(
                "Proven optimal (branch and bound, {lps} LPs, {} nodes, {secs}; best found at \
                 LP {}, after {}).",
                self.nodes,
                self.incumbent_at_lp,
                seconds(self.incumbent_seconds)
            ),
            Status::StoppedAtGap => {
                format!("Stopped at the requested gap after {lps} LPs ({secs}): {bound}.")
            }
            Status::StoppedAtLimit => format!(
                "Stopped at the LP budget ({lps} LPs, {secs}): {bound}; not proven optimal."
            ),
            Status::StoppedAtTime => format!(
                "Stopped at the time limit ({lps} LPs, {secs}): {bound}; not proven optimal."
            ),
            Status::Interrupted => format!(
                "Best schedule so far ({lps} LPs, {secs}; the search was interrupted or is \
                 still running): {bound}; not proven optimal."
            ),
        }
    }
}

impl Describe for Report {
    fn view(&self) -> Vec<Block> {
        let at_most = if self.status == Status::Optimal {
            String::new()
        } else {
            format!(" (at most {})", number(self.efficiency_bound))
        };
        let rows = self
            .schedule
            .chunks
            .iter()
            .take(ROWS_SHOWN)
            .enumerate()
            .map(|(j, c)| {
                vec![
                    (j + 1).to_string(),
                    format!("P{}", c.machine + 1),
                    number(c.size),
                    self.memory_of(c),
                    interval(&c.send),
                    interval(&c.compute),
                ]
            })
            .collect();
        vec![
            Block::headline(
                "startup-makespan",
                "Shortest schedule found: <i>T</i>(<i>m</i>, <i>n</i>, <i>V</i>) (s)",
                self.makespan,
                Some(VerdictLine::of("startup-verdict", &self.verdict, "")),
            ),
            Block::note("startup-status", self.status_text()),
            Block::note(
                "startup-efficiency",
                format!(
                    "Efficiency E = T(1,1,V)/(m·T) = {}{at_most}; speedup {}; T(1,1,V) = {} s.{}",
                    number(self.efficiency),
                    number(self.speedup),
                    number(self.single),
                    self.superlinear()
                ),
            ),
            Block::table(
                "startup-chunks",
                "Chunks in sending order",
                &[
                    "chunk",
                    "machine",
                    "α (MB)",
                    "memory",
                    "send (s)",
                    "compute (s)",
                ],
                rows,
            ),
        ]
    }
}

impl Report {
    /// Why an efficiency above 1 is no error, said beside it: one machine
    /// alone computes the whole load out of core, the `m` machines compute
    /// their chunks in core.
    fn superlinear(&self) -> String {
        if self.efficiency <= 1.0 {
            return String::new();
        }
        let chunks = &self.schedule.chunks;
        let in_core = chunks.iter().filter(|c| c.level == 0).count();
        format!(
            " E > 1, superlinear: one machine alone computes the whole load V out of core, \
             many times slower per MB, while here {in_core} of the {} chunks fit in the \
             machines' memory and compute in core.",
            chunks.len()
        )
    }

    /// The in-core time per MB, read from a chunk computed in core (none
    /// when every chunk is out of core).
    fn in_core_rate(&self) -> Option<f64> {
        let c = self
            .schedule
            .chunks
            .iter()
            .find(|c| c.level == 0 && c.size > 0.0)?;
        Some((c.compute.end - c.compute.start) / c.size)
    }

    /// A chunk's memory, and for one out of core how much slower than in
    /// core it computes: a chunk just over the usable RAM computes out of
    /// core but hardly slower (`0.00707 % slower`), which the Gantt chart
    /// shades as its lightest (×1), not as a fault.
    fn memory_of(&self, c: &crate::core::domain::schedule::Chunk) -> String {
        match self.in_core_rate() {
            Some(rate) if c.level >= 1 && rate * c.size > 0.0 => {
                let slowdown = (c.compute.end - c.compute.start) / (rate * c.size);
                let how = if slowdown < 1.01 {
                    format!(
                        "just over the usable RAM: {} slower than in core",
                        percent(slowdown - 1.0)
                    )
                } else {
                    format!("×{} the in-core time", number(round3(slowdown)))
                };
                format!("{} ({how})", memory(c.level))
            }
            _ => memory(c.level),
        }
    }
}

/// `x` to three significant digits.
fn round3(x: f64) -> f64 {
    format!("{x:.2e}").parse().unwrap_or(x)
}

/// The formulas of the "About the model" panel.
const ABOUT: &[F] = &[
    F::new("computing a chunk of <i>α</i>; the usable memory", "τ(α) = max{<i>a</i><sub>1</sub>α, <i>a</i><sub>2</sub>α + <i>b</i><sub>2</sub>}, ρ = <i>b</i><sub>2</sub>/(<i>a</i><sub>1</sub> − <i>a</i><sub>2</sub>)"),
    F::new("sending a chunk; a machine is ready", "<i>O</i> + <i>C</i>α, at <i>S</i>"),
    F::new("one machine, one chunk", "<i>T</i>(1,1,<i>V</i>) = <i>S</i> + <i>O</i> + <i>CV</i> + max{<i>a</i><sub>1</sub><i>V</i>, <i>a</i><sub>2</sub><i>V</i> + <i>b</i><sub>2</sub>}"),
    F::new("efficiency (above 1 when <i>m</i> machines stay in memory and one would not; at most about <i>a</i><sub>2</sub>/<i>a</i><sub>1</sub>)", "<i>E</i>(<i>m</i>,<i>n</i>,<i>V</i>) = <i>T</i>(1,1,<i>V</i>)/(<i>m</i> · <i>T</i>(<i>m</i>,<i>n</i>,<i>V</i>))"),
    F::new("for one sequence of receivers, a linear program", "minimize <i>T</i> over α<sub><i>j</i></sub>, send times <i>t<sub>j</sub></i> and τ<sub><i>j</i></sub> ≥ <i>a</i><sub>1</sub>α<sub><i>j</i></sub>, τ<sub><i>j</i></sub> ≥ <i>a</i><sub>2</sub>α<sub><i>j</i></sub> + <i>b</i><sub>2</sub>; a machine's next chunk waits for the true τ of its previous one"),
    F::new("how sure the answer is", "gap = (<i>T</i> − lower bound)/<i>T</i>; 0 means proven optimal"),
];
