//! M5 exercises on `[3]`'s reference machines: one machine's time with a
//! memory hierarchy (by hand), and the efficiency of the fastest
//! multi-installment schedule (with the calculator).

use serde_json::{json, Value};

use super::{Instance, Report, Startup};
use crate::core::domain::error::Error;
use crate::core::domain::number::number;
use crate::core::framework::exercise::{request, with_unit, Answer, Posed, Template};
use crate::core::framework::model::tagged;
use crate::core::presentation::draw::Draw;
use crate::core::solving::progress::Silent;

/// The exercises M5 poses.
pub fn templates() -> Vec<Template> {
    vec![
        Template {
            id: "startup-single",
            title: "One machine's time for a load that may spill to disk",
            source: "drozdowski-singh-marszalkowski",
            make: single,
            by_hand: false,
        },
        Template {
            id: "startup-efficiency",
            title: "Efficiency of the fastest multi-installment schedule",
            source: "drozdowski-singh-marszalkowski",
            make: efficiency,
            by_hand: false,
        },
    ]
}

/// The reference machines of `[3]`, with `m`, `n` and `V` given.
fn reference(m: u64, n: u64, load: f64) -> Value {
    json!({
        "a1": 0.109, "a2": 4.132, "b2": -27109.0, "rate": 0.005, "overhead": 0.075,
        "startup": 25.4, "machines": m, "chunks": n, "load": load,
    })
}

fn solved(json: &Value) -> Result<Report, Error> {
    request::<Instance>(json)?.solve(&mut Silent)
}

const SETTING: &str = "Machines of the isoefficiency-map paper: each is ready \
    <i>S</i> = 25.4 s after it is started; sending α MB takes 0.075 + 0.005α s; computing α MB \
    takes max(0.109α, 4.132α − 27 109) s (in memory up to about 6 739 MB, then out of core).";

fn single(d: &mut Draw) -> Result<Posed, Error> {
    let load = d.pick(&[2000.0, 5000.0, 10_000.0, 20_000.0, 50_000.0]);
    let json = reference(1, 1, load);
    let r = solved(&json)?;
    let core = 0.109 * load;
    let out = 4.132 * load - 27_109.0;
    Ok(Posed {
        question: format!(
            "{SETTING} One machine gets the whole load <i>V</i> = {} MB in one chunk. How long \
             does it take, from the start to the end of computing, <i>T</i>(1,1,<i>V</i>)?",
            number(load)
        ),
        answer: Answer::number("<i>T</i>(1,1,<i>V</i>)", r.single, "s"),
        hints: vec![
            "The machine is ready at <i>S</i>; then the chunk is sent, then computed.".into(),
            "The computing time is the larger of the two lines: which one is larger at this \
             load?"
                .into(),
        ],
        solution: vec![
            format!(
                "Sending: 0.075 + 0.005 · {} = {} s.",
                number(load),
                with_unit(0.075 + 0.005 * load, "")
            ),
            format!(
                "Computing: max({}, {}) = {} s ({}).",
                with_unit(core, ""),
                with_unit(out, ""),
                with_unit(core.max(out), ""),
                if out > core {
                    "out of core"
                } else {
                    "in memory"
                }
            ),
            format!(
                "<i>T</i>(1,1,<i>V</i>) = 25.4 + sending + computing = {}.",
                with_unit(r.single, "s")
            ),
        ],
        request: tagged::<Startup>(&json),
    })
}

fn efficiency(d: &mut Draw) -> Result<Posed, Error> {
    let m = d.pick(&[2_u64, 3, 4]);
    let n = d.pick(&[4_u64, 6]);
    let load = d.pick(&[20_000.0, 50_000.0, 100_000.0]);
    let json = reference(m, n, load);
    let r = solved(&json)?;
    Ok(Posed {
        question: format!(
            "{SETTING} <i>m</i> = {m} machines share <i>V</i> = {} MB, sent in at most \
             <i>n</i> = {n} chunks, one message at a time (a machine takes its next chunk only \
             after computing the previous one). Find the fastest schedule with the calculator: \
             what is its efficiency <i>e</i> = <i>T</i>(1,1,<i>V</i>)/(<i>m</i> · \
             <i>T</i>(<i>m</i>,<i>n</i>,<i>V</i>))?",
            number(load)
        ),
        answer: Answer::number("efficiency <i>e</i>", r.efficiency, ""),
        hints: vec![
            "Open the start-up tab with these numbers; it proves the schedule it finds optimal."
                .into(),
            "<i>T</i>(1,1,<i>V</i>) is one machine with the whole load in one chunk.".into(),
            "An efficiency above 1 is no error: split over several machines, every chunk may \
             fit in memory, while one machine alone computes out of core."
                .into(),
        ],
        solution: vec![
            format!("<i>T</i>(1,1,<i>V</i>) = {}.", with_unit(r.single, "s")),
            format!(
                "The fastest schedule: <i>T</i>({m},{n},<i>V</i>) = {} (proven gap {}).",
                with_unit(r.makespan, "s"),
                crate::core::presentation::view::gap(r.gap)
            ),
            format!(
                "<i>e</i> = {} / ({m} · {}) = {}.",
                with_unit(r.single, ""),
                with_unit(r.makespan, ""),
                with_unit(r.efficiency, "")
            ),
        ],
        request: tagged::<Startup>(&json),
    })
}
