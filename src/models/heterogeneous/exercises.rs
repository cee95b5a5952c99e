//! M7 exercises: which sort rule serves a mixed cluster fastest
//! (`[4]`'s heuristics on a drawn cluster).

use serde_json::{json, Value};

use super::{Heterogeneous, Instance, Report};
use crate::core::domain::error::Error;
use crate::core::domain::number::number;
use crate::core::framework::exercise::{request, with_unit, worth_asking, Answer, Posed, Template};
use crate::core::framework::model::tagged;
use crate::core::presentation::draw::Draw;
use crate::core::solving::progress::Silent;

/// The exercises M7 poses.
pub fn templates() -> Vec<Template> {
    vec![Template {
        id: "heterogeneous-sort-rule",
        title: "Which sort rule serves this cluster fastest?",
        source: "marszalkowski-energy",
        make: sort_rule,
        by_hand: false,
    }]
}

/// The rules offered, with what each puts first.
const RULES: [(&str, &str); 4] = [
    ("a1", "the fastest computer (least a1) first"),
    ("rate", "the fastest link (least C) first"),
    ("wake", "the quickest to wake up first"),
    ("ram", "the largest memory first"),
];

fn solved(json: &Value) -> Result<Report, Error> {
    request::<Instance>(json)?.solve(&mut Silent)
}

/// A drawn cluster: each kind's a1, link rate, memory and mode.
type Cluster = Vec<(f64, f64, f64, &'static str)>;

fn cluster(d: &mut Draw) -> Cluster {
    let modes = ["on", "suspend", "hibernate"];
    (0..6)
        .map(|k| {
            (
                d.pick(&[0.08, 0.1, 0.15]),
                d.pick(&[0.004, 0.005, 0.008]),
                d.pick(&[4000.0, 8000.0, 16000.0]),
                modes[k % 3],
            )
        })
        .collect()
}

fn instance(kinds: &Cluster, rule: &str) -> Value {
    let machines: Vec<Value> = kinds
        .iter()
        .map(|&(a1, rate, ram, mode)| {
            let a2 = 40.0 * a1;
            json!({
                "a1": a1, "a2": a2, "b2": -(a2 - a1) * ram, "rate": rate, "overhead": 0.075,
                "mode": mode, "count": 1,
                "power": {"compute": 80.0, "idle": 100.0, "network": 20.0, "wake": 120.0},
            })
        })
        .collect();
    json!({
        "load": 30000.0, "chunks": 4, "machines": machines, "algorithm": "gss", "sort": rule,
        "originator": {"idle_power": 50.0, "network_power": 10.0},
    })
}

/// The most clusters drawn in search of one where a single rule wins.
const TRIES: usize = 40;

/// Every rule's makespan on the cluster, the rules that give the least,
/// and whether the question is worth asking: one rule wins, by at least
/// 0.5 %.
fn race(kinds: &Cluster) -> Result<(Vec<f64>, Vec<usize>, bool), Error> {
    let times: Vec<f64> = RULES
        .iter()
        .map(|(rule, _)| solved(&instance(kinds, rule)).map(|r| r.makespan))
        .collect::<Result<_, _>>()?;
    let best = times.iter().copied().fold(f64::INFINITY, f64::min);
    let correct: Vec<usize> = (0..RULES.len())
        .filter(|&k| times[k] <= best * (1.0 + 1e-9))
        .collect();
    let unique = correct.len() == 1
        && times.iter().filter(|&&t| t > best * 1.005).count() == RULES.len() - 1;
    Ok((times, correct, unique))
}

/// The cluster's machines as the question lists them.
fn describe(kinds: &Cluster) -> Vec<String> {
    kinds
        .iter()
        .enumerate()
        .map(|(i, &(a1, rate, ram, mode))| {
            format!(
                "<i>P</i><sub>{}</sub>: a1 = {} s/MB, <i>C</i> = {} s/MB, memory {} MB, waits \
                 in mode {mode}",
                i + 1,
                number(a1),
                number(rate),
                number(ram)
            )
        })
        .collect()
}

fn sort_rule(d: &mut Draw) -> Result<Posed, Error> {
    let (kinds, times, correct) = worth_asking(d, TRIES, |d| {
        let kinds = cluster(d);
        let (times, correct, unique) = race(&kinds)?;
        Ok(((kinds, times, correct), unique))
    })?;
    let shown = instance(&kinds, RULES[correct[0]].0);
    let described = describe(&kinds);
    Ok(Posed {
        question: format!(
            "Six machines ({}) get 30 000 MB in at most 4 chunks from the GSS heuristic \
             (guided self-scheduling: each chunk is a share of the load still unsent), sent to \
             the idle machine ranked first by a sort rule. Out of core a machine is 40 times \
             slower. Which rule gives the shortest schedule?",
            described.join("; ")
        ),
        answer: Answer::Choice {
            options: RULES.iter().map(|(_, words)| words.to_string()).collect(),
            correct,
        },
        hints: vec![
            "A machine that waits in hibernate needs a minute or more to wake up; it cannot take \
             the first chunk early."
                .into(),
            "Only four machines get a chunk: the rule decides which four, and a chunk larger than \
             a machine's memory is computed out of core."
                .into(),
            "Try each rule in the calculator's M7 tab (algorithm GSS, objective makespan).".into(),
        ],
        solution: RULES
            .iter()
            .zip(&times)
            .map(|((rule, words), t)| {
                format!("{words} (sort {rule}): makespan {}", with_unit(*t, "s"))
            })
            .collect(),
        request: tagged::<Heterogeneous>(&shown),
    })
}
