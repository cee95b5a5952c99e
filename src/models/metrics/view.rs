//! M1 on the page: the form and the report's layout.

use super::Report;
use crate::core::presentation::form::{
    Column, Field, Form, Formula as F, Group, Kind, Layout, Rows,
};
use crate::core::presentation::response::Describe;
use crate::core::presentation::view::{number, Block};

/// The M1 tab.
pub fn form() -> Form {
    Form {
        tab: "Metrics &amp; isoefficiency",
        title: "Speedup, efficiency, cost, isoefficiency and the scalability laws",
        citation: "M1; Grama, Gupta, Karypis &amp; Kumar, lecture 7; Karp &amp; Flatt; Sun &amp; Rover; Gunther",
        sources: &["grama-2003", "karp-flatt-1990", "sun-rover-1994", "sun-chen-wu-2005", "gunther-2007"],
        intro: "Type the serial time <i>T<sub>s</sub></i>(<i>W</i>) and the parallel time \
            <i>T<sub>p</sub></i>(<i>W</i>, <i>p</i>) as formulas (+ − * / ^, parentheses, \
            <b>log</b> base 2 as in the lecture, <b>ln</b>, log10, sqrt, exp, abs, pi, e; \
            <i>n</i> is another name for <i>W</i>; named constants as <i>t_s</i> = 5, \
            <i>t_w</i> = 2). As in the lecture, <code>2 log p</code> is 2·log(<i>p</i>): a \
            function needs no parentheses around one number or name (with its power: \
            <code>log p^2</code> is log(<i>p</i>²)), and a product needs no <code>*</code> \
            (<code>2p</code>, <code>t_w n</code>), which binds as <code>*</code> does: \
            <code>n/p log p</code> is (<i>n</i>/<i>p</i>)·log <i>p</i>, <code>n/2p</code> is \
            (<i>n</i>/2)·<i>p</i> (write <code>n/(2p)</code>). The \
            calculator draws speedup, efficiency and cost against <i>p</i>, solves the \
            isoefficiency curve <i>T<sub>s</sub></i>(<i>W</i>) = <i>K</i> <i>T<sub>o</sub></i>(<i>W</i>, \
            <i>p</i>), <i>K</i> = <i>E</i>/(1 − <i>E</i>), for <i>W</i> at every <i>p</i>, finds the \
            <i>p</i> of the least parallel time, and, from measured run times, the Karp–Flatt \
            serial fraction and the fits of Amdahl's law and the universal scalability law."
            .into(),
        about: ABOUT,
        groups: vec![
            Group::of(
                "",
                vec![
                    Field::new("Ts", "serial", "<i>T<sub>s</sub></i>(<i>W</i>) =", Kind::Text)
                        .help("the serial time, a formula in W (or n)")
                        .unit("s"),
                    Field::new("Tp", "parallel", "<i>T<sub>p</sub></i>(<i>W</i>, <i>p</i>) =", Kind::Text)
                        .help("the parallel time, a formula in W (or n) and p; log is base 2")
                        .unit("s"),
                ],
            ),
            Group::of(
                "",
                vec![Field::new("const", "constants", "constants", Kind::Json)
                    .placeholder("t_s = 1e-5, t_w = 2e-8")
                    .help(
                        "named numbers the formulas use: name = value pairs separated by \
                         commas (t_s = 1e-5, t_w = 2e-8), or JSON ({\"t_s\": 1e-5})",
                    )],
            ),
            Group::of(
                "",
                vec![
                    Field::number("W", "work", "work <i>W</i>").range("> 0"),
                    Field::number("from", "processors.from", "<i>p</i> from").range("1 to 10¹²"),
                    Field::number("to", "processors.to", "to").range("from … 10¹²"),
                    Field::new("E", "efficiency", "isoefficiency at <i>E</i> =", Kind::Optional)
                        .placeholder("0.8")
                        .range("between 0 and 1"),
                ],
            ),
            Group::optional(
                "Least T_p over p (default: the range above):",
                "minimize_over",
                vec![
                    Field::number("mfrom", "minimize_over.from", "from")
                        .placeholder("as above")
                        .range("1 to 10¹²"),
                    Field::number("mto", "minimize_over.to", "to")
                        .placeholder("as above")
                        .range("from … 10¹²"),
                ],
            ),
            Group::optional(
                "Isospeed (optional): configurations (p, W) and (p′, W′):",
                "isospeed",
                vec![
                    Field::number("ip", "isospeed.p", "<i>p</i>").placeholder("none").range("> 0"),
                    Field::number("iw", "isospeed.work", "<i>W</i>").placeholder("none").range("> 0"),
                    Field::number("ip2", "isospeed.p2", "<i>p′</i>").placeholder("none").range("> 0"),
                    Field::number("iw2", "isospeed.work2", "<i>W′</i>").placeholder("none").range("> 0"),
                ],
            ),
        ],
        rows: Some(Rows {
            path: "measured",
            item: "measured run",
            prefix: "R",
            caption: "Measured runs (optional; p = 1 is the reference when given)",
            columns: vec![
                Column::number("p", "p", "<i>p</i>", "processors", "processors of the run", "1")
                    .measured("", "≥ 1"),
                Column::number("t", "time", "time", "run time", "its run time", "1")
                    .measured("s", "> 0"),
            ],
        }),
        fixed: Vec::new(),
        layout: Layout::Report,
        parts: "",
    }
}

impl Describe for Report {
    fn view(&self) -> Vec<Block> {
        let mut blocks = vec![Block::headline(
            "metrics-min",
            "Least parallel time <i>T<sub>p</sub></i> (s)",
            self.min_time.time,
            None,
        )];
        blocks.push(self.min_time_note());
        blocks.push(self.isoefficiency_note());
        blocks.extend(self.cost_optimal_note());
        blocks.push(self.curves_table());
        blocks.extend(self.curves_note());
        blocks.extend(self.measured_blocks());
        blocks.extend(self.isospeed_note());
        blocks
    }
}

impl Report {
    /// Where the least parallel time is: inside the range (with the
    /// nearest whole number of processors) or at an end, where it would
    /// still fall.
    fn min_time_note(&self) -> Block {
        let m = &self.min_time;
        Block::note(
            "metrics-min-note",
            if m.interior {
                format!(
                    "At p = {} (∂T_p/∂p = 0); with a whole number of processors p = {}, T_p = {} s. \
                     T_s = {} s.",
                    number(m.p),
                    number(m.p_whole),
                    number(m.time_whole),
                    number(self.serial_time)
                )
            } else {
                format!(
                    "At p = {}, an end of the range: T_p still falls (or rises) there. T_s = {} s.",
                    number(m.p),
                    number(self.serial_time)
                )
            },
        )
    }

    /// The least cost-optimal time, when there is one.
    fn cost_optimal_note(&self) -> Option<Block> {
        let c = self.cost_optimal.as_ref()?;
        Some(Block::note(
            "metrics-cost-optimal",
            format!(
                "Least cost-optimal time: with W = {} the efficiency stays at least {} up to \
                 p = {}, where T_p = {} s (the lecture's Ω(W/f⁻¹(W))).",
                number(self.work),
                number(self.isoefficiency.efficiency),
                number(c.p),
                number(c.time)
            ),
        ))
    }

    /// The curves' last point read out: efficiency through the overhead.
    fn curves_note(&self) -> Option<Block> {
        let c = self.curves.last()?;
        Some(Block::note(
            "metrics-curves-note",
            format!(
                "At p = {}: S = {}, E = {} = 1/(1 + T_o/T_s) with the overhead T_o = p·T_p − \
                 T_s = {} s, {} of the cost p·T_p.",
                number(c.p),
                number(c.speedup),
                number(c.efficiency),
                number(c.overhead),
                crate::core::presentation::view::percent(c.overhead / c.cost)
            ),
        ))
    }

    /// The isospeed of the two configurations, when asked for.
    fn isospeed_note(&self) -> Option<Block> {
        let s = self.isospeed.as_ref()?;
        let e = s.psi_e.map_or(String::new(), |v| {
            format!("; isospeed-e ψ(C, C′) = {}", number(v))
        });
        Some(Block::note(
            "metrics-isospeed",
            format!(
                "Isospeed Ψ(p, p′) = p′W/(pW′) = {}{e} (1: the speed per processor is kept, \
                 perfectly scalable; below 1: the larger system needs more work per \
                 processor).",
                number(s.psi)
            ),
        ))
    }

    /// The isoefficiency curve in a sentence.
    fn isoefficiency_note(&self) -> Block {
        let iso = &self.isoefficiency;
        let k = iso.efficiency / (1.0 - iso.efficiency);
        let mut text = match (&iso.order, iso.points.last()) {
            (Some(order), Some(last)) => format!(
                "Isoefficiency at E = {} (K = {}): W must grow as {order} to keep the efficiency; \
                 at p = {} it takes W = {} (local exponent {}). Along the curve p·T_p/T_s = 1/E \
                 = {}: cost-optimal.",
                number(iso.efficiency),
                number(k),
                number(last.p),
                number(last.work),
                iso.exponent.map_or("–".into(), |e| format!("{e:.3}")),
                number(1.0 / iso.efficiency)
            ),
            _ => "No isoefficiency point in the range (at p = 1 there is no overhead).".into(),
        };
        if let Some(dominant) = &iso.dominant {
            text += &format!(" Overhead: {dominant}.");
        }
        for why in iso.missing.iter().take(3) {
            text += &format!(" {why}.");
        }
        Block::note("metrics-iso", text)
    }

    /// The metrics at every `p` of the curves (at most a few hundred, so
    /// the table and its CSV hold them all); the caption says when the
    /// counts are a geometric sample of the range.
    fn curves_table(&self) -> Block {
        let rows = self
            .curves
            .iter()
            .map(|c| {
                [c.p, c.time, c.speedup, c.efficiency, c.cost, c.overhead]
                    .iter()
                    .map(|&v| number(v))
                    .collect()
            })
            .collect();
        let (first, last) = match (self.curves.first(), self.curves.last()) {
            (Some(a), Some(b)) => (a.p, b.p),
            _ => (1.0, 1.0),
        };
        let every = (last - first + 1.0) as usize == self.curves.len();
        let caption = if every {
            format!(
                "Over p at the given W: every p from {} to {}",
                number(first),
                number(last)
            )
        } else {
            format!(
                "Over p at the given W: {} processor counts from {} to {}, spaced geometrically \
                 (a sample of the range)",
                self.curves.len(),
                number(first),
                number(last)
            )
        };
        Block::table(
            "metrics-curves",
            &caption,
            &[
                "p",
                "T_p [s]",
                "S",
                "E",
                "cost p·T_p [s]",
                "overhead T_o [s]",
            ],
            rows,
        )
    }

    /// The Karp–Flatt table and the fitted laws.
    fn measured_blocks(&self) -> Vec<Block> {
        let mut blocks = Vec::new();
        if self.karp_flatt.is_empty() {
            return blocks;
        }
        let rows = self
            .karp_flatt
            .iter()
            .map(|r| {
                vec![
                    number(r.p),
                    number(r.speedup),
                    format!("{:.5}", r.serial_fraction),
                ]
            })
            .collect();
        blocks.push(Block::table(
            "metrics-karp-flatt",
            "Karp–Flatt serial fraction of the measured runs",
            &["p", "speedup S", "serial fraction f"],
            rows,
        ));
        if let Some(t) = &self.karp_flatt_trend {
            blocks.push(Block::note("metrics-trend", t.clone()));
        }
        if let Some(u) = &self.usl {
            let peak = u.peak.map_or("no peak (κ = 0)".into(), |p| {
                format!("the throughput peaks at p ≈ {}", number(p))
            });
            blocks.push(Block::note(
                "metrics-usl",
                format!(
                    "Universal scalability law: λ = {} per s, σ = {} (contention), κ = {} \
                     (coherency); {peak}; residual {:.2} % of the largest throughput.",
                    number(u.lambda),
                    number(u.sigma),
                    number(u.kappa),
                    u.residual * 100.0
                ),
            ));
        }
        blocks
    }
}

/// The formulas of the "About the model" panel.
const ABOUT: &[F] = &[
    F::new("speedup, efficiency, cost", "<i>S</i> = <i>T<sub>s</sub></i>/<i>T<sub>p</sub></i>, <i>E</i> = <i>S</i>/<i>p</i>, <i>C</i> = <i>p</i><i>T<sub>p</sub></i> (cost-optimal when <i>pT<sub>p</sub></i> = Θ(<i>T<sub>s</sub></i>))"),
    F::new("overhead", "<i>T<sub>o</sub></i> = <i>pT<sub>p</sub></i> − <i>T<sub>s</sub></i>, so <i>E</i> = 1/(1 + <i>T<sub>o</sub></i>/<i>T<sub>s</sub></i>)"),
    F::new("isoefficiency (work that keeps <i>E</i> fixed as <i>p</i> grows)", "<i>T<sub>s</sub></i>(<i>W</i>) = <i>K</i> <i>T<sub>o</sub></i>(<i>W</i>, <i>p</i>), <i>K</i> = <i>E</i>/(1 − <i>E</i>)"),
    F::new("Karp–Flatt serial fraction of a measured speedup", "<i>f</i> = (1/<i>S</i> − 1/<i>p</i>)/(1 − 1/<i>p</i>)"),
    F::new("Amdahl (fixed size), Gustafson (scaled size)", "<i>S</i> = 1/(<i>f</i> + (1 − <i>f</i>)/<i>p</i>), <i>S</i> = <i>f</i> + (1 − <i>f</i>)<i>p</i>"),
    F::new("universal scalability law (fitted by least squares)", "<i>X</i>(<i>p</i>) = λ<i>p</i>/(1 + σ(<i>p</i> − 1) + κ<i>p</i>(<i>p</i> − 1))"),
    F::new("isospeed; isospeed-e with marked speeds <i>C</i> = Σ<i>C<sub>i</sub></i>", "ψ(<i>p</i>, <i>p′</i>) = <i>p′W</i>/(<i>pW′</i>), ψ(<i>C</i>, <i>C′</i>) = <i>C′W</i>/(<i>CW′</i>)"),
    F::new("fastest processor count", "d<i>T<sub>p</sub></i>/d<i>p</i> = 0 (adding <i>n</i> numbers: <i>p</i> = <i>n</i>/2, <i>T</i><sub>min</sub> = 2 log <i>n</i>)"),
];
