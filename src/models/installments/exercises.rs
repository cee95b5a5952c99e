//! M4 exercises: the heuristic chunk size, and which chunk size is faster
//! at a given load (`[2]`, Fig. 10).

use serde_json::{json, Value};

use super::{Installments, Instance, Report};
use crate::core::domain::error::Error;
use crate::core::domain::number::number;
use crate::core::framework::exercise::{count, request, with_unit, Answer, Posed, Template};
use crate::core::framework::model::tagged;
use crate::core::presentation::draw::Draw;
use crate::core::solving::progress::Silent;

/// The exercises M4 poses.
pub fn templates() -> Vec<Template> {
    vec![
        Template {
            id: "installments-beta",
            title: "The chunk size that keeps every machine busy for a round",
            source: "drozdowski-wolniewicz-2003",
            make: beta,
            by_hand: true,
        },
        Template {
            id: "installments-which-faster",
            title: "Which chunk size is faster at this load?",
            source: "drozdowski-wolniewicz-2003",
            make: which_faster,
            by_hand: false,
        },
    ]
}

fn solved(json: &Value) -> Result<Report, Error> {
    request::<Instance>(json)?.solve(&mut Silent)
}

/// `m` identical machines: core line `a1 + a2 x`, out-of-core slope 0.1
/// from the swap point `1e8`.
fn machines(m: usize, s: f64, c: f64, a1: f64, a2: f64) -> Vec<Value> {
    let swap = 1e8;
    let h2 = 0.1;
    let h1 = a1 + a2 * swap - h2 * swap;
    let machine = json!({
        "startup": s, "rate": c,
        "levels": [{"intercept": a1, "slope": a2}, {"intercept": h1, "slope": h2}],
    });
    vec![machine; m]
}

fn beta(d: &mut Draw) -> Result<Posed, Error> {
    let m = d.pick(&[4, 5, 8, 10]);
    let s = d.pick(&[1e-3, 2e-3, 5e-3]);
    let c = d.pick(&[1e-5, 2e-5, 5e-5]);
    let a2 = d.pick(&[1e-3, 2e-3]);
    let json = json!({"load": 1e5, "processors": machines(m, s, c, 0.0, a2)});
    let r = solved(&json)?;
    let value = r
        .heuristic
        .chunk
        .ok_or_else(|| Error::Malformed(r.heuristic.explanation.clone()))?;
    let mf = m as f64;
    Ok(Posed {
        question: format!(
            "{m} identical machines receive the load in equal chunks of size β, round after \
             round (<i>P</i><sub>1</sub> … <i>P</i><sub>{m}</sub>, then again). Sending a chunk \
             takes <i>S</i> + <i>C</i>β with <i>S</i> = {s} s and <i>C</i> = {c} s per unit; a \
             machine computes in memory at <i>A</i><sup>l</sup><sub>2</sub> = {a2} s per unit \
             (<i>A</i><sup>l</sup><sub>1</sub> = 0). Which β makes a machine compute for exactly \
             as long as the originator needs to send one round?",
            s = number(s),
            c = number(c),
            a2 = number(a2),
        ),
        answer: Answer::number("chunk size β", value, "units"),
        hints: vec![
            format!(
                "One round sends {m} chunks: it takes {m}(<i>S</i> + <i>C</i>β)."
            ),
            "A chunk is computed in <i>A</i><sup>l</sup><sub>1</sub> + \
             <i>A</i><sup>l</sup><sub>2</sub>β; set the two equal and solve for β."
                .into(),
        ],
        solution: vec![
            format!(
                "β = (<i>m S</i> − <i>A</i><sup>l</sup><sub>1</sub>)/(<i>A</i><sup>l</sup><sub>2</sub> \
                 − <i>m C</i>) = ({} − 0)/({} − {}) = {}.",
                number(mf * s),
                number(a2),
                number(mf * c),
                with_unit(value, "units")
            ),
            format!(
                "At <i>V</i> = 10⁵ units that gives {} and a makespan of {}.",
                count(r.chunks, "chunk"),
                with_unit(r.makespan, "s")
            ),
        ],
        request: tagged::<Installments>(&json),
    })
}

fn which_faster(d: &mut Draw) -> Result<Posed, Error> {
    let exponent = d.pick(&[3, 5, 7, 9]);
    let load = 10f64.powi(exponent);
    let small = d.pick(&[5.0, 50.0]);
    let big = 1e4;
    let processors = machines(10, 1e-3, 9.99e-5, 0.0, 1e-3);
    let with = |chunk: f64| json!({"load": load, "processors": processors, "chunk": chunk});
    let (a, b) = (solved(&with(small))?, solved(&with(big))?);
    let options = vec![
        format!("β = {}", number(small)),
        "β = 10⁴".to_string(),
        "the same (within 0.1 %)".to_string(),
    ];
    let close = (a.makespan - b.makespan).abs() <= 1e-3 * a.makespan.min(b.makespan);
    let correct = if close {
        vec![2]
    } else if a.makespan < b.makespan {
        vec![0]
    } else {
        vec![1]
    };
    Ok(Posed {
        question: format!(
            "Ten identical machines as in Fig. 10 of the out-of-core paper: sending a chunk of \
             β units takes 0.001 + 0.0000999β s, computing it 0.001β s in memory (up to the swap \
             point 10⁸ units) and far slower beyond. The load <i>V</i> = 10<sup>{exponent}</sup> \
             units is sent in equal chunks, round robin. Which chunk size finishes first: β = {} \
             or β = 10⁴?",
            number(small)
        ),
        answer: Answer::Choice { options, correct },
        hints: vec![
            "Small chunks pay the start-up <i>S</i> = 0.001 s many times; the channel may not \
             keep up with the machines."
                .into(),
            "Compare the time to send one round of ten chunks with the time a machine needs to \
             compute one chunk; whichever is longer sets the pace."
                .into(),
            "For a small load, large chunks leave machines without work.".into(),
        ],
        solution: vec![
            format!(
                "β = {}: {}, makespan {}.",
                number(small),
                count(a.chunks, "chunk"),
                with_unit(a.makespan, "s")
            ),
            format!(
                "β = 10⁴: {}, makespan {}.",
                count(b.chunks, "chunk"),
                with_unit(b.makespan, "s")
            ),
        ],
        request: tagged::<Installments>(&with(small)),
    })
}
