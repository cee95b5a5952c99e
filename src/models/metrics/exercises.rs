//! M1 exercises: efficiency from a run time formula, the serial fraction
//! of a measured speedup, the scalability laws and the order of an
//! isoefficiency function (`[5]`).

use std::collections::BTreeMap;

use serde_json::json;

use super::analysis::isoefficiency;
use super::formula::Formula;
use super::measured::analyse;
use super::{Measured, Metrics, Range};
use crate::core::domain::error::Error;
use crate::core::domain::number::number;
use crate::core::framework::exercise::{times, with_unit, Answer, Posed, Template};
use crate::core::framework::model::tagged;
use crate::core::presentation::draw::Draw;

/// The exercises M1 poses.
pub fn templates() -> Vec<Template> {
    vec![
        Template {
            id: "metrics-efficiency",
            title: "Efficiency of adding n numbers on p processors",
            source: "grama-2003",
            make: efficiency,
            by_hand: true,
        },
        Template {
            id: "metrics-karp-flatt",
            title: "The serial fraction of a measured speedup (Karp–Flatt)",
            source: "karp-flatt-1990",
            make: karp_flatt,
            by_hand: true,
        },
        Template {
            id: "metrics-amdahl",
            title: "Speedup by Amdahl's and Gustafson's laws",
            source: "grama-2003",
            make: laws,
            by_hand: true,
        },
        Template {
            id: "metrics-isoefficiency",
            title: "The isoefficiency function of a parallel run time",
            source: "grama-2003",
            make: order,
            by_hand: false,
        },
    ]
}

fn formula(text: &str, with_p: bool) -> Result<Formula, Error> {
    Formula::new(text, with_p, &BTreeMap::new()).map_err(Error::Malformed)
}

fn efficiency(d: &mut Draw) -> Result<Posed, Error> {
    let n = d.pick(&[64.0, 256.0, 1024.0, 4096.0]);
    let p = d.pick(&[4.0, 8.0, 16.0, 32.0]);
    let (serial, parallel) = ("n", "n/p + 2*log(p)");
    let ts = formula(serial, false)?.at(n, 1.0);
    let tp = formula(parallel, true)?.at(n, p);
    let e = ts / (p * tp);
    Ok(Posed {
        question: format!(
            "Adding <i>n</i> numbers takes <i>T</i><sub>s</sub> = <i>n</i> steps on one \
             processor and <i>T</i><sub>p</sub> = <i>n</i>/<i>p</i> + 2 log<sub>2</sub> <i>p</i> \
             on <i>p</i> processors. What is the efficiency <i>E</i> for <i>n</i> = {} and \
             <i>p</i> = {}?",
            number(n),
            number(p)
        ),
        answer: Answer::number("efficiency <i>E</i>", e, ""),
        hints: vec![
            "Speedup <i>S</i> = <i>T</i><sub>s</sub>/<i>T</i><sub>p</sub>; efficiency <i>E</i> = \
             <i>S</i>/<i>p</i>."
                .into(),
            "So <i>E</i> = <i>n</i>/(<i>n</i> + 2<i>p</i> log<sub>2</sub> <i>p</i>).".into(),
        ],
        solution: vec![
            format!(
                "<i>T</i><sub>p</sub> = {}/{} + 2 log<sub>2</sub> {} = {}.",
                number(n),
                number(p),
                number(p),
                with_unit(tp, "")
            ),
            format!(
                "<i>S</i> = {} and <i>E</i> = <i>S</i>/<i>p</i> = {}.",
                with_unit(ts / tp, ""),
                with_unit(e, "")
            ),
        ],
        request: tagged::<Metrics>(&json!({
            "serial": serial, "parallel": parallel, "work": n,
            "processors": {"from": 1.0, "to": p.max(64.0)},
        })),
    })
}

fn karp_flatt(d: &mut Draw) -> Result<Posed, Error> {
    let t1 = d.pick(&[10.0, 60.0, 120.0]);
    let p = d.pick(&[4.0, 8.0, 16.0]);
    let speedup = d.pick(&[0.5, 0.6, 0.7, 0.8]) * p;
    let runs = [
        Measured { p: 1.0, time: t1 },
        Measured {
            p,
            time: t1 / speedup,
        },
    ];
    let analysis = analyse(&runs, t1);
    let row = analysis
        .karp_flatt
        .first()
        .ok_or_else(|| Error::Malformed("no Karp–Flatt row".into()))?;
    Ok(Posed {
        question: format!(
            "A program runs in {} on one processor and in {} on {} processors. What serial \
             fraction <i>f</i> does the Karp–Flatt metric give?",
            with_unit(t1, "s"),
            with_unit(runs[1].time, "s"),
            number(p)
        ),
        answer: Answer::number("serial fraction <i>f</i>", row.serial_fraction, ""),
        hints: vec![
            "First the measured speedup <i>S</i> = <i>T</i>(1)/<i>T</i>(<i>p</i>).".into(),
            "<i>f</i> = (1/<i>S</i> − 1/<i>p</i>)/(1 − 1/<i>p</i>).".into(),
        ],
        solution: vec![
            format!("<i>S</i> = {}.", with_unit(row.speedup, "")),
            format!(
                "<i>f</i> = (1/{} − 1/{})/(1 − 1/{}) = {}.",
                with_unit(row.speedup, ""),
                number(p),
                number(p),
                with_unit(row.serial_fraction, "")
            ),
        ],
        request: tagged::<Metrics>(&json!({
            "serial": "n", "parallel": "n/p", "work": t1,
            "processors": {"from": 1.0, "to": p},
            "measured": runs.iter().map(|m| json!({"p": m.p, "time": m.time})).collect::<Vec<_>>(),
        })),
    })
}

fn laws(d: &mut Draw) -> Result<Posed, Error> {
    let f = d.pick(&[0.02, 0.05, 0.1, 0.2]);
    let p = d.pick(&[8.0, 16.0, 64.0, 256.0]);
    let amdahl = d.below(2) == 0;
    let (name, value, rule) = if amdahl {
        (
            "Amdahl's law (a fixed problem)",
            1.0 / (f + (1.0 - f) / p),
            "<i>S</i> = 1/(<i>f</i> + (1 − <i>f</i>)/<i>p</i>)",
        )
    } else {
        (
            "Gustafson's law (the problem grows with <i>p</i>, the serial time stays)",
            f + (1.0 - f) * p,
            "<i>S</i> = <i>f</i> + (1 − <i>f</i>)<i>p</i>",
        )
    };
    Ok(Posed {
        question: format!(
            "A program spends a fraction <i>f</i> = {} of its one-processor time in serial \
             code. What speedup does {name} give on <i>p</i> = {} processors?",
            number(f),
            number(p)
        ),
        answer: Answer::number("speedup <i>S</i>", value, ""),
        hints: vec![
            if amdahl {
                "The serial part takes the same time on any number of processors; only the \
                 rest is divided by <i>p</i>."
                    .into()
            } else {
                "On <i>p</i> processors the run takes as long as on one for the original \
                 problem, but does <i>p</i> times the parallel work."
                    .into()
            },
            format!("{rule}."),
        ],
        solution: vec![format!(
            "{rule} = {} (the limit for large <i>p</i> is {}).",
            with_unit(value, ""),
            if amdahl {
                format!("1/<i>f</i> = {}", number(1.0 / f))
            } else {
                "unbounded".into()
            }
        )],
        request: tagged::<Metrics>(&json!({
            "serial": "n", "parallel": format!("{f}*n + (1-{f})*n/p"), "work": 1.0,
            "processors": {"from": 1.0, "to": p},
        })),
    })
}

/// The options offered for an isoefficiency function, as the calculator
/// names orders.
const ORDERS: [&str; 4] = ["Θ(p)", "Θ(p log p)", "Θ(p²)", "Θ(p³)"];

/// A parallel time `n/p + c·g(p)` drawn: the formula, as the question
/// shows it, and its overhead `T_o` for the solution.
fn draw_parallel_time(d: &mut Draw) -> (String, String, String) {
    let c = d.pick(&[1.0, 2.0, 5.0, 10.0]);
    let (parallel, shown, overhead) = match d.below(4) {
        0 => (
            format!("n/p + {c}"),
            format!("<i>n</i>/<i>p</i> + {}", number(c)),
            times(c, "<i>p</i>"),
        ),
        1 => (
            format!("n/p + {c}*log(p)"),
            format!(
                "<i>n</i>/<i>p</i> + {}",
                times(c, "log<sub>2</sub> <i>p</i>")
            ),
            format!("{} log<sub>2</sub> <i>p</i>", times(c, "<i>p</i>")),
        ),
        2 => (
            format!("n/p + {c}*p"),
            format!("<i>n</i>/<i>p</i> + {}", times(c, "<i>p</i>")),
            format!("{}²", times(c, "<i>p</i>")),
        ),
        _ => (
            format!("n/p + {c}*p^2"),
            format!("<i>n</i>/<i>p</i> + {}²", times(c, "<i>p</i>")),
            format!("{}³", times(c, "<i>p</i>")),
        ),
    };
    (parallel, shown, overhead)
}

/// The order of the isoefficiency function of `T_s = n` and `parallel`
/// as the calculator finds it (`E = 0.8`, `p` from 2 to 10⁴), and which
/// of [`ORDERS`] it is: the answer comes from the calculator, not a table.
fn isoefficiency_order(parallel: &str) -> Result<(String, usize), Error> {
    let range = Range { from: 2.0, to: 1e4 };
    let curve = isoefficiency(&formula("n", false)?, &formula(parallel, true)?, 0.8, range);
    let found = curve
        .order
        .ok_or_else(|| Error::Malformed(format!("no order for {parallel}")))?;
    let correct = ORDERS
        .iter()
        .position(|o| *o == found)
        .ok_or_else(|| Error::Malformed(format!("order {found} is not an option")))?;
    Ok((found, correct))
}

fn order(d: &mut Draw) -> Result<Posed, Error> {
    let (parallel, shown, overhead) = draw_parallel_time(d);
    let (found, correct) = isoefficiency_order(&parallel)?;
    Ok(Posed {
        question: format!(
            "A parallel algorithm does work <i>W</i> = <i>n</i> (<i>T</i><sub>s</sub> = \
             <i>n</i>) and runs in <i>T</i><sub>p</sub> = {shown} on <i>p</i> processors. How \
             fast must <i>W</i> grow with <i>p</i> to keep the efficiency fixed (its \
             isoefficiency function)?"
        ),
        answer: Answer::Choice {
            options: ORDERS.iter().map(|s| s.to_string()).collect(),
            correct: vec![correct],
        },
        hints: vec![
            "The overhead is <i>T</i><sub>o</sub> = <i>p T</i><sub>p</sub> − \
             <i>T</i><sub>s</sub>."
                .into(),
            "Fixed efficiency <i>E</i> needs <i>W</i> = <i>K T</i><sub>o</sub>(<i>W</i>, \
             <i>p</i>) with <i>K</i> = <i>E</i>/(1 − <i>E</i>)."
                .into(),
        ],
        solution: vec![
            format!("<i>T</i><sub>o</sub> = <i>p T</i><sub>p</sub> − <i>n</i> = {overhead}."),
            format!(
                "<i>W</i> = <i>K</i> · {overhead}, so the isoefficiency function is {found} (the \
                 calculator's curve for <i>E</i> = 0.8 from <i>p</i> = 2 to 10⁴ agrees)."
            ),
        ],
        request: tagged::<Metrics>(&json!({
            "serial": "n", "parallel": parallel, "work": 1024.0,
            "processors": {"from": 1.0, "to": 1024.0},
        })),
    })
}
