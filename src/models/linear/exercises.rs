//! M2 exercises: split a load over three machines so that they finish
//! together, and the speedup of identical machines (`[1]`).

use serde_json::{json, Value};

use super::{Instance, Linear, Report};
use crate::core::domain::error::Error;
use crate::core::domain::number::number;
use crate::core::framework::exercise::{request, with_unit, worth_asking, Answer, Posed, Template};
use crate::core::framework::model::tagged;
use crate::core::presentation::draw::Draw;
use crate::core::solving::progress::Silent;

/// The exercises M2 poses.
pub fn templates() -> Vec<Template> {
    vec![
        Template {
            id: "linear-split",
            title: "Split a load over three machines so they finish together",
            source: "drozdowski-basics",
            make: split,
            by_hand: true,
        },
        Template {
            id: "linear-speedup",
            title: "Speedup of identical machines on a star",
            source: "drozdowski-basics",
            make: speedup,
            by_hand: false,
        },
    ]
}

fn solved(json: &Value) -> Result<Report, Error> {
    request::<Instance>(json)?.solve(&mut Silent)
}

/// The loads of machines that all finish together, from the last one back
/// (`α_i = k_i α_m + l_i`): the closed form students use, written apart
/// from the solver so the tests can compare the two.
pub fn closed_form(machines: &[(f64, f64, f64)], load: f64) -> Vec<f64> {
    let m = machines.len();
    let (mut k, mut l) = (vec![1.0; m], vec![0.0; m]);
    for i in (0..m.saturating_sub(1)).rev() {
        let (s, c, a) = machines[i + 1];
        let ratio = (a + c) / machines[i].2;
        k[i] = k[i + 1] * ratio;
        l[i] = s / machines[i].2 + l[i + 1] * ratio;
    }
    let last = (load - l.iter().sum::<f64>()) / k.iter().sum::<f64>();
    k.iter().zip(&l).map(|(k, l)| k * last + l).collect()
}

/// The most instances drawn in search of one that uses every machine.
const TRIES: usize = 40;

/// Three machines `(S, C, A)` and a load drawn, as a request, solved.
type Drawn = (f64, Vec<(f64, f64, f64)>, Value, Report);

/// Draws a load and three machines and solves them; worth asking when the
/// calculator uses every machine, as the hand calculation does.
fn draw_three(d: &mut Draw) -> Result<(Drawn, bool), Error> {
    let v = d.pick(&[10.0, 20.0, 50.0, 100.0]);
    let machines: Vec<(f64, f64, f64)> = (0..3)
        .map(|_| {
            (
                d.pick(&[0.0, 0.5, 1.0]),
                d.pick(&[0.1, 0.2, 0.5]),
                d.pick(&[1.0, 2.0, 3.0, 4.0]),
            )
        })
        .collect();
    let json = json!({
        "load": v,
        "machines": machines.iter().map(|&(s, c, a)| json!({"startup": s, "rate": c, "compute": a})).collect::<Vec<_>>(),
    });
    let r = solved(&json)?;
    let every = r.active == 3 && closed_form(&machines, v).iter().all(|&x| x > 0.0);
    Ok(((v, machines, json, r), every))
}

/// The worked solution: the equal finish, the loads from the last machine
/// back (or why a machine is left out), and the makespan.
fn split_solution(machines: &[(f64, f64, f64)], v: f64, r: &Report) -> Vec<String> {
    let loads = closed_form(machines, v);
    let all_used = r.active == 3 && loads.iter().all(|&x| x > 0.0);
    let mut solution = vec![
        "Every machine that gets load finishes at the same time <i>T</i>: \
         α<sub><i>i</i></sub><i>A</i><sub><i>i</i></sub> = <i>S</i><sub><i>i</i>+1</sub> + \
         α<sub><i>i</i>+1</sub>(<i>C</i><sub><i>i</i>+1</sub> + <i>A</i><sub><i>i</i>+1</sub>)."
            .to_string(),
    ];
    if all_used {
        solution.extend(derived_loads(machines, v, &loads));
    } else if let Some(note) = &r.note {
        solution.push(format!("Not every machine is worth using here: {note}"));
    }
    solution.push(format!(
        "<i>T</i> = <i>S</i><sub>1</sub> + α<sub>1</sub>(<i>C</i><sub>1</sub> + \
         <i>A</i><sub>1</sub>) = {} (the calculator's split, verified).",
        with_unit(r.makespan, "s")
    ));
    solution
}

/// The loads derived by hand, each step with its numbers put in: every
/// α<sub>i</sub> through α<sub>3</sub> from the last machine back
/// (α<sub>i</sub> = (S<sub>i+1</sub> + α<sub>i+1</sub>(C<sub>i+1</sub> +
/// A<sub>i+1</sub>))/A<sub>i</sub>), then α<sub>3</sub> from their sum.
fn derived_loads(machines: &[(f64, f64, f64)], v: f64, loads: &[f64]) -> Vec<String> {
    let f = |x: f64| with_unit(x, "");
    let sub = |i: usize| format!("<sub>{}</sub>", i + 1);
    // α_i = k_i α_3 + l_i, from the last machine back.
    let (mut k, mut l) = ([1.0; 3], [0.0; 3]);
    let mut steps = Vec::new();
    for i in (0..2).rev() {
        let (s, c, a) = machines[i + 1];
        let ratio = (c + a) / machines[i].2;
        k[i] = k[i + 1] * ratio;
        l[i] = s / machines[i].2 + l[i + 1] * ratio;
        let next = if i == 1 {
            "α<sub>3</sub>".to_string()
        } else {
            format!("({} + {}α<sub>3</sub>)", f(l[1]), f(k[1]))
        };
        steps.push(format!(
            "α{i1} = (<i>S</i>{i2} + α{i2}(<i>C</i>{i2} + <i>A</i>{i2}))/<i>A</i>{i1} = \
             ({s} + {next}({c} + {a}))/{ai} = {l} + {k}α<sub>3</sub>.",
            i1 = sub(i),
            i2 = sub(i + 1),
            s = f(s),
            c = f(c),
            a = f(a),
            ai = f(machines[i].2),
            l = f(l[i]),
            k = f(k[i]),
        ));
    }
    let (ks, ls): (f64, f64) = (k.iter().sum(), l.iter().sum());
    steps.push(format!(
        "The loads add up to <i>V</i>: {ls} + {ks}α<sub>3</sub> = {v}, so α<sub>3</sub> = \
         ({v} − {ls})/{ks} = {a3}; then α<sub>2</sub> = {a2} and α<sub>1</sub> = {a1}.",
        ls = f(ls),
        ks = f(ks),
        v = number(v),
        a3 = f(loads[2]),
        a2 = f(loads[1]),
        a1 = f(loads[0]),
    ));
    steps
}

fn split(d: &mut Draw) -> Result<Posed, Error> {
    // By hand a student solves "all finish together" for all three
    // machines; with start-ups that may not be the fastest schedule (the
    // calculator may leave a machine out), so such draws are drawn again.
    let (v, machines, json, r) = worth_asking(d, TRIES, draw_three)?;
    let table: Vec<String> = machines
        .iter()
        .enumerate()
        .map(|(i, &(s, c, a))| {
            format!(
                "<i>P</i><sub>{}</sub>: <i>S</i> = {}, <i>C</i> = {}, <i>A</i> = {}",
                i + 1,
                number(s),
                number(c),
                number(a)
            )
        })
        .collect();
    let solution = split_solution(&machines, v, &r);
    Ok(Posed {
        question: format!(
            "The originator sends one chunk to each of three machines, in the order \
             <i>P</i><sub>1</sub>, <i>P</i><sub>2</sub>, <i>P</i><sub>3</sub>, one message at a \
             time. Sending <i>x</i> units to <i>P</i><sub><i>i</i></sub> takes \
             <i>S</i><sub><i>i</i></sub> + <i>C</i><sub><i>i</i></sub><i>x</i> s and computing \
             them takes <i>A</i><sub><i>i</i></sub><i>x</i> s ({}). Split <i>V</i> = {} units so \
             that the work ends as early as possible. What is the makespan <i>T</i>?",
            table.join("; "),
            number(v)
        ),
        answer: Answer::number("makespan <i>T</i>", r.makespan, "s"),
        hints: vec![
            "In the fastest schedule all machines that get load stop computing at the same \
             time."
                .into(),
            "So α<sub>1</sub><i>A</i><sub>1</sub> = <i>S</i><sub>2</sub> + \
             α<sub>2</sub>(<i>C</i><sub>2</sub> + <i>A</i><sub>2</sub>) and \
             α<sub>2</sub><i>A</i><sub>2</sub> = <i>S</i><sub>3</sub> + \
             α<sub>3</sub>(<i>C</i><sub>3</sub> + <i>A</i><sub>3</sub>): write α<sub>1</sub> \
             and α<sub>2</sub> through α<sub>3</sub>."
                .into(),
            "The loads add up to <i>V</i>; then <i>T</i> = <i>S</i><sub>1</sub> + \
             α<sub>1</sub>(<i>C</i><sub>1</sub> + <i>A</i><sub>1</sub>)."
                .into(),
        ],
        solution,
        request: tagged::<Linear>(&json),
    })
}

fn speedup(d: &mut Draw) -> Result<Posed, Error> {
    // As for the split: drawn again until every machine is worth using.
    let (m, s, c, a, v, json, r) = worth_asking(d, TRIES, |d| {
        let count = d.pick(&[2_u64, 3, 4, 5]);
        let (s, c, a) = (
            d.pick(&[0.0, 1.0]),
            d.pick(&[0.1, 0.2, 0.5]),
            d.pick(&[1.0, 2.0]),
        );
        let v = d.pick(&[10.0, 100.0]);
        let json = json!({
            "load": v,
            "machines": [{"startup": s, "rate": c, "compute": a, "count": count}],
        });
        let r = solved(&json)?;
        let every = r.active as u64 == count;
        Ok(((count as f64, s, c, a, v, json, r), every))
    })?;
    let value = r.single / r.makespan;
    Ok(Posed {
        question: format!(
            "{m} identical machines receive one chunk each from the originator, one message at \
             a time: sending <i>x</i> units takes {s} + {c}<i>x</i> s and computing them \
             {a}<i>x</i> s. With the load <i>V</i> = {v} split so that all finish together, \
             what is the speedup <i>T</i>(1)/<i>T</i>({m}) over one machine alone?",
            m = number(m),
            s = number(s),
            c = number(c),
            a = number(a),
            v = number(v)
        ),
        answer: Answer::number("speedup", value, ""),
        hints: vec![
            "One machine alone takes <i>T</i>(1) = <i>S</i> + (<i>C</i> + <i>A</i>)<i>V</i>."
                .into(),
            "With all finishing together, α<sub><i>i</i>+1</sub> = (α<sub><i>i</i></sub><i>A</i> \
             − <i>S</i>)/(<i>C</i> + <i>A</i>): each chunk is a fixed fraction of the one before \
             (less a start-up)."
                .into(),
        ],
        solution: vec![
            format!("<i>T</i>(1) = {}.", with_unit(r.single, "s")),
            format!(
                "<i>T</i>({}) = {} with loads ({}).",
                number(m),
                with_unit(r.makespan, "s"),
                r.sizes
                    .iter()
                    .map(|&x| with_unit(x, ""))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!("Speedup = {}.", with_unit(value, "")),
        ],
        request: tagged::<Linear>(&json),
    })
}
