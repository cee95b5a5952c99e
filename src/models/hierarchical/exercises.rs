//! M3 exercises: split a load over two machines with a memory hierarchy,
//! and see what naive linear DLT gets wrong (`[2]`'s worked example with
//! drawn numbers).

use serde_json::{json, Value};

use super::{Hierarchical, Instance, Report};
use crate::core::domain::error::Error;
use crate::core::domain::number::number;
use crate::core::framework::exercise::{request, times, with_unit, Answer, Posed, Template};
use crate::core::framework::model::tagged;
use crate::core::presentation::draw::Draw;
use crate::core::solving::progress::Silent;

/// The exercises M3 poses.
pub fn templates() -> Vec<Template> {
    vec![
        Template {
            id: "hierarchical-two-levels",
            title: "Split a load over two machines that spill to disk",
            source: "drozdowski-wolniewicz-2003",
            make: two_levels,
            by_hand: true,
        },
        Template {
            id: "hierarchical-naive",
            title: "What linear DLT's split really takes with a memory hierarchy",
            source: "drozdowski-wolniewicz-2003",
            make: naive,
            by_hand: false,
        },
    ]
}

/// Two identical machines: core line `a + x`, out-of-core line through the
/// swap point with slope `h`; `S`, `C`, `V` small round numbers.
struct Drawn {
    json: Value,
    a: f64,
    h: f64,
    b: f64,
    swap: f64,
    s: f64,
    c: f64,
    v: f64,
}

fn drawn(d: &mut Draw) -> Drawn {
    let a = d.pick(&[0.0, 1.0, 2.0]);
    let swap = d.pick(&[0.5, 1.0, 1.5]);
    let h = d.pick(&[5.0, 10.0]);
    let b = a + swap - h * swap;
    let s = d.pick(&[0.5, 1.0]);
    let c = d.pick(&[0.5, 1.0]);
    let v = d.pick(&[2.0, 3.0, 4.0]);
    let machine = json!({
        "startup": s, "rate": c,
        "levels": [{"intercept": a, "slope": 1.0}, {"intercept": b, "slope": h}],
    });
    Drawn {
        json: json!({"load": v, "processors": [machine.clone(), machine]}),
        a,
        h,
        b,
        swap,
        s,
        c,
        v,
    }
}

fn solved(p: &Drawn) -> Result<Report, Error> {
    request::<Instance>(&p.json)?.solve(&mut Silent)
}

fn setting(p: &Drawn) -> String {
    format!(
        "Two identical machines <i>P</i><sub>1</sub>, <i>P</i><sub>2</sub> compute <i>x</i> \
         units of load in max({a} + <i>x</i>, {b} + {h}<i>x</i>) s: the first line while the \
         load fits in memory, the second once it spills to disk (they meet at the swap point \
         <i>x</i> = {swap}). Sending <i>x</i> units takes {s} + {cx} s; the originator \
         sends <i>P</i><sub>1</sub>'s chunk, then <i>P</i><sub>2</sub>'s, and the load is \
         <i>V</i> = {v} units.",
        a = number(p.a),
        b = number(p.b).replace('-', "−"),
        h = number(p.h),
        swap = number(p.swap),
        s = number(p.s),
        cx = times(p.c, "<i>x</i>"),
        v = number(p.v),
    )
}

fn split_words(r: &Report, p: &Drawn) -> String {
    let words: Vec<String> = r
        .sizes
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let level = if x > p.swap + 1e-9 {
                "out of core"
            } else {
                "in core"
            };
            format!("α<sub>{}</sub> = {} ({level})", i + 1, with_unit(x, ""))
        })
        .collect();
    words.join(", ")
}

/// Both machines' finishing times with the split's numbers put in, by
/// hand: `S + Cα₁ + t(α₁)` and `S + Cα₁ + S + Cα₂ + t(α₂)`, with
/// `t(x) = max(a + x, b + hx)`.
fn finish_times(r: &Report, p: &Drawn) -> String {
    let t = |x: f64| (p.a + x).max(p.b + p.h * x);
    let f = |x: f64| with_unit(x, "");
    let (a1, a2) = (
        r.sizes.first().copied().unwrap_or(0.0),
        r.sizes.get(1).copied().unwrap_or(0.0),
    );
    let first = p.s + p.c * a1;
    let second = first + p.s + p.c * a2;
    format!(
        "With t(<i>x</i>) = max({a} + <i>x</i>, {b} + {h}<i>x</i>): <i>P</i><sub>1</sub> \
         finishes at {s} + {c}·{a1} + t({a1}) = {first} + {t1} = {end1} s, and \
         <i>P</i><sub>2</sub> at {first} + {s} + {c}·{a2} + t({a2}) = {second} + {t2} = {end2} s.",
        a = number(p.a),
        b = number(p.b).replace('-', "−"),
        h = number(p.h),
        s = number(p.s),
        c = number(p.c),
        a1 = f(a1),
        a2 = f(a2),
        first = f(first),
        second = f(second),
        t1 = f(t(a1)),
        t2 = f(t(a2)),
        end1 = f(first + t(a1)),
        end2 = f(second + t(a2)),
    )
}

fn two_levels(d: &mut Draw) -> Result<Posed, Error> {
    let p = drawn(d);
    let r = solved(&p)?;
    Ok(Posed {
        question: format!(
            "{} Split the load so that the schedule is as short as possible. What is its \
             makespan <i>C</i><sub>max</sub>?",
            setting(&p)
        ),
        answer: Answer::number("makespan <i>C</i><sub>max</sub>", r.makespan, "s"),
        hints: vec![
            "In the shortest schedule both machines finish at the same time.".into(),
            format!(
                "<i>P</i><sub>1</sub> finishes at {s} + {c1} + t(α<sub>1</sub>), \
                 <i>P</i><sub>2</sub> at {s} + {c1} + {s} + {c2} + t(α<sub>2</sub>), with \
                 α<sub>1</sub> + α<sub>2</sub> = {v}.",
                s = number(p.s),
                c1 = times(p.c, "α<sub>1</sub>"),
                c2 = times(p.c, "α<sub>2</sub>"),
                v = number(p.v)
            ),
            format!(
                "Guess which chunks exceed the swap point {} and use the out-of-core line for \
                 them; then check the guess.",
                number(p.swap)
            ),
        ],
        solution: vec![
            format!("The best split: {}.", split_words(&r, &p)),
            finish_times(&r, &p),
            format!(
                "Both machines finish at <i>C</i><sub>max</sub> = {} (the calculator's LP, \
                 verified).",
                with_unit(r.makespan, "s")
            ),
        ],
        request: tagged::<Hierarchical>(&p.json),
    })
}

fn naive(d: &mut Draw) -> Result<Posed, Error> {
    let p = drawn(d);
    let r = solved(&p)?;
    let core = r
        .comparison
        .first()
        .ok_or_else(|| Error::Malformed("no core-only prediction".into()))?;
    Ok(Posed {
        question: format!(
            "{} Linear DLT that assumes the machines always compute in memory (time {a} + \
             <i>x</i>) splits the load as α = ({}) and predicts a makespan of {}. How long does \
             that split really take?",
            setting(&p),
            core.sizes
                .iter()
                .map(|&x| with_unit(x, ""))
                .collect::<Vec<_>>()
                .join(", "),
            with_unit(core.predicted, "s"),
            a = number(p.a),
        ),
        answer: Answer::number("real makespan of that split", core.real, "s"),
        hints: vec![
            "Keep the split; only the processing times change.".into(),
            format!(
                "A chunk above the swap point {} is computed on the out-of-core line.",
                number(p.swap)
            ),
            "The makespan is the later of the two machines' finishing times.".into(),
        ],
        solution: vec![
            format!(
                "With the real processing times the split takes {} (predicted {}).",
                with_unit(core.real, "s"),
                with_unit(core.predicted, "s")
            ),
            format!(
                "The best split for the real machines, {}, takes {}.",
                split_words(&r, &p),
                with_unit(r.makespan, "s")
            ),
        ],
        request: tagged::<Hierarchical>(&p.json),
    })
}
