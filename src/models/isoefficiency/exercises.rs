//! Map exercises on `[3]`'s closed-form estimates: the bounds (13) on
//! the efficiency below `Vmax`, and the approximation (15) of an
//! isoefficiency line above it (both by hand; the calculator's exact
//! efficiency is one click away to compare).

use serde_json::Value;

use super::overlay::{approximation, Bounds};
use super::Request;
use crate::core::domain::error::Error;
use crate::core::framework::exercise::{figure, with_unit, Answer, Posed, Template};
use crate::core::framework::model::tagged;
use crate::core::presentation::draw::Draw;
use crate::models::startup::Startup;

/// The exercises the isoefficiency map poses.
pub fn templates() -> Vec<Template> {
    vec![
        Template {
            id: "isoefficiency-bounds",
            title: "Bounds (13) on the efficiency below Vmax",
            source: "drozdowski-singh-marszalkowski",
            make: bound,
            by_hand: false,
        },
        Template {
            id: "isoefficiency-approximation",
            title: "The load of an isoefficiency line above Vmax by approximation (15)",
            source: "drozdowski-singh-marszalkowski",
            make: approximate,
            by_hand: false,
        },
    ]
}

/// The reference machines of `[3]` with at most `n` chunks.
fn reference(chunks: u64) -> Request {
    Request {
        chunks: crate::core::domain::count::Count(chunks),
        ..Request::reference()
    }
}

/// The start-up model's request for the same machines, to compare with
/// the exact efficiency.
fn exact(r: &Request, m: u64, load: f64) -> Result<Value, Error> {
    let instance = r.instance(m as usize, load);
    let json = serde_json::to_value(instance).map_err(|e| Error::Malformed(e.to_string()))?;
    Ok(tagged::<Startup>(&json))
}

const SETTING: &str = "The machines of the isoefficiency-map paper: each is ready \
    <i>S</i> = 25.4 s after it is started; a message of α MB takes <i>O</i> + <i>C</i>α = \
    0.075 + 0.005α s; computing α MB takes max(<i>a</i><sub>1</sub>α, \
    <i>a</i><sub>2</sub>α + <i>b</i><sub>2</sub>) = max(0.109α, 4.132α − 27 109) s.";

/// The bound of (13) asked for (the upper one or the lower): its name,
/// value and denominator, and the denominator's formula for the hint.
fn asked_bound(b: &Bounds, upper: bool) -> (&'static str, f64, f64, &'static str) {
    if upper {
        (
            "upper",
            b.upper(),
            b.upper_denominator,
            "<i>mS</i> + <i>mO</i> + <i>a</i><sub>1</sub><i>V</i>",
        )
    } else {
        (
            "lower",
            b.lower(),
            b.lower_denominator,
            "<i>mS</i> + <i>nmO</i> + <i>mCV</i> + <i>a</i><sub>1</sub><i>V</i>",
        )
    }
}

fn bound(d: &mut Draw) -> Result<Posed, Error> {
    let m = d.pick(&[2_u64, 3, 4]);
    let n = d.pick(&[4_u64, 6, 10]);
    // Below `Vmax`, which is about `n` chunks that just fit in memory
    // (ρ each): (13) assumes every chunk is computed in memory.
    let fill = d.pick(&[0.25, 0.5, 0.75]);
    let upper = d.pick(&[true, false]);
    let r = reference(n);
    let instance = r.instance(m as usize, 0.0);
    let load = (fill * n as f64 * instance.ram() / 1_000.0).round() * 1_000.0;
    let b = Bounds::of(&r, m as usize, load);
    let (low, high, single) = (b.lower(), b.upper(), b.single);
    let v = figure(load);
    let (which, value, denominator, formula) = asked_bound(&b, upper);
    Ok(Posed {
        question: format!(
            "{SETTING} <i>m</i> = {m} machines share <i>V</i> = {v} MB in at most <i>n</i> = \
             {n} chunks. Below <i>V</i><sub>max</sub> the paper bounds the efficiency by (13): \
             (<i>S</i> + <i>O</i> + <i>CV</i> + <i>a′V</i>)/(<i>mS</i> + <i>nmO</i> + \
             <i>mCV</i> + <i>a</i><sub>1</sub><i>V</i>) ≤ <i>E</i> ≤ (<i>S</i> + <i>O</i> + \
             <i>CV</i> + <i>a′V</i>)/(<i>mS</i> + <i>mO</i> + <i>a</i><sub>1</sub><i>V</i>), \
             where <i>a′V</i> is one machine's computing time for the whole load. What is the \
             {which} bound?"
        ),
        answer: Answer::number(&format!("{which} bound on <i>E</i>"), value, ""),
        hints: vec![
            "The numerator is one machine's whole time <i>T</i>(1,1,<i>V</i>): start-up, one \
             message, computing."
                .into(),
            "<i>a′V</i> is the larger of the two computing lines at this load: is the whole \
             load in memory on one machine?"
                .into(),
            format!("The {which} bound's denominator is {formula}."),
        ],
        solution: vec![
            format!(
                "<i>a′V</i> = max(0.109 · {v}, 4.132 · {v} − 27 109) = {} s.",
                with_unit(instance.processing_time().eval(load), "")
            ),
            format!(
                "Numerator: 25.4 + 0.075 + 0.005 · {v} + <i>a′V</i> = {} s.",
                with_unit(single, "")
            ),
            format!("Denominator {formula} = {} s.", with_unit(denominator, "")),
            format!(
                "The {which} bound is {} / {} = {}.",
                with_unit(single, ""),
                with_unit(denominator, ""),
                with_unit(value, "")
            ),
            format!(
                "The calculator's start-up tab (open it) gives the exact efficiency, which \
                 lies between {} and {}.",
                with_unit(low, ""),
                with_unit(high, "")
            ),
        ],
        request: exact(&r, m, load)?,
    })
}

fn approximate(d: &mut Draw) -> Result<Posed, Error> {
    let m = d.pick(&[4_u64, 8, 12, 16, 20]);
    // Levels of the map's default list, so that its dashed line is there.
    let e = d.pick(&[2.0, 4.0, 10.0, 15.0]);
    let n = 20;
    let r = reference(n);
    let load = approximation(&r, m as usize, e);
    let b2 = r.b2 * (e * n as f64 - 1.0);
    let s = r.startup * (e * m as f64 - 1.0);
    let o = r.overhead * (e * n as f64 - 1.0);
    let below = (r.rate + r.a2) * (1.0 - e);
    Ok(Posed {
        question: format!(
            "{SETTING} <i>m</i> = {m} machines, at most <i>n</i> = {n} chunks. Above \
             <i>V</i><sub>max</sub> the isoefficiency line of level <i>e</i> is approximated by \
             (15): <i>I</i>(<i>e</i>,<i>m</i>,<i>n</i>) ≈ [<i>b</i><sub>2</sub>(<i>en</i> − 1) \
             + <i>S</i>(<i>em</i> − 1) + <i>O</i>(<i>en</i> − 1)] / [(<i>C</i> + \
             <i>a</i><sub>2</sub>)(1 − <i>e</i>)]. By (15), at which load does the \
             efficiency fall to <i>e</i> = {}?",
            figure(e)
        ),
        answer: Answer::number("load <i>I</i>(<i>e</i>,<i>m</i>,<i>n</i>)", load, "MB"),
        hints: vec![
            "Above <i>V</i><sub>max</sub> the load no longer fits in memory: the parallel \
             time grows with <i>a</i><sub>2</sub>, and the efficiency falls."
                .into(),
            "<i>b</i><sub>2</sub> is negative and so is 1 − <i>e</i> for <i>e</i> > 1: the \
             quotient is positive."
                .into(),
        ],
        solution: vec![
            format!(
                "<i>b</i><sub>2</sub>(<i>en</i> − 1) = −27 109 · {} = {} s.",
                figure(e * n as f64 - 1.0),
                with_unit(b2, "")
            ),
            format!(
                "<i>S</i>(<i>em</i> − 1) = 25.4 · {} = {} s; <i>O</i>(<i>en</i> − 1) = {} s.",
                figure(e * m as f64 - 1.0),
                with_unit(s, ""),
                with_unit(o, "")
            ),
            format!(
                "(<i>C</i> + <i>a</i><sub>2</sub>)(1 − <i>e</i>) = 4.137 · ({}) = {} s/MB.",
                figure(1.0 - e),
                with_unit(below, "")
            ),
            format!(
                "<i>I</i> ≈ {} / {} = {}. The map tab draws this estimate as a dashed line \
                 (show the overlays); the start-up tab gives the exact efficiency there.",
                with_unit(b2 + s + o, ""),
                with_unit(below, ""),
                with_unit(load, "MB")
            ),
        ],
        request: exact(&r, m, load)?,
    })
}
