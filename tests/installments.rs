//! M4 (`[2]` Fig. 10): equal chunks in round robin.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use common::two_level_machines;

use dlt_calc::core::domain::count::Count;
use dlt_calc::core::domain::processing::{Level, ProcessingTime};
use dlt_calc::core::domain::verify::{verify, Rules};
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::models::installments::{
    admissible, evaluate, heuristic, schedule, simulate, Instance, Series,
};
use proptest::prelude::*;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn figure_10_heuristic_and_range() {
    let inst = Instance::figure_10();
    let h = heuristic(&inst.processors, &admissible(&inst.processors));
    assert!(close(h.chunk.unwrap(), 1e4, 1e-9), "{h:?}");
    let r = admissible(&inst.processors);
    assert!(close(
        r.lower.unwrap(),
        10.0 * 1e-3 / (0.1 - 10.0 * 9.99e-5),
        1e-12
    ));
    assert!(close(r.upper.unwrap(), 1e8, 1e-12));
    assert!(r.explanation.starts_with("β in ("));
}

#[test]
fn figure_10_series_reproduces_the_paper() {
    let mut inst = Instance::figure_10();
    inst.series = Some(Series {
        from: 1.0,
        to: 1e11,
        points: Count(23),
    }); // every half decade
    let r = inst.solve(&mut Silent).unwrap();
    let at = |v: f64| {
        r.series
            .iter()
            .find(|p| close(p.load, v, 1e-9))
            .unwrap_or_else(|| panic!("no point at {v}"))
    };
    // Below 1e4 one chunk of 1e4 keeps one machine busy: the worst.
    let p = at(1e3);
    assert!(p.heuristic.unwrap() > p.single && p.heuristic.unwrap() > p.given.unwrap());
    // β = 5 beats β = 1e4 below about 1e5 ...
    let p = at(1e4);
    assert!(p.given.unwrap() < p.heuristic.unwrap());
    // ... and both beat out-of-core once the core is full (V > m·swp = 1e9).
    for v in [1e10, 1e11] {
        let p = at(v);
        assert!(
            p.heuristic.unwrap() < p.single && p.given.unwrap() < p.single,
            "{p:?}"
        );
    }
    // In core, one installment (perfect balance, one message each) wins.
    let p = at(1e7);
    assert!(p.single < p.given.unwrap(), "{p:?}");
}

#[test]
fn heuristic_explains_when_it_does_not_apply() {
    let mut ps = Instance::figure_10().processors;
    ps[3].levels = ProcessingTime::new(vec![Level::new(1.0, 1e-3), Level::new(-9.9e6, 0.1)]);
    let h = heuristic(&ps, &admissible(&ps));
    assert!(h.chunk.is_none());
    assert!(
        h.explanation
            .starts_with("does not apply: P4 needs ΣS − A^l_1 > 0"),
        "{}",
        h.explanation
    );

    let mut ps = Instance::figure_10().processors;
    for p in &mut ps {
        p.rate = 2e-4;
    }
    let h = heuristic(&ps, &admissible(&ps));
    assert!(
        h.explanation
            .starts_with("does not apply: P1 needs A^l_2 − ΣC > 0"),
        "{}",
        h.explanation
    );
    let inst = Instance {
        processors: ps,
        chunk: None,
        series: None,
        ..Instance::figure_10()
    };
    let err = inst.solve(&mut Silent).unwrap_err().to_string();
    assert!(
        err.starts_with("chunk: must be given: the heuristic does not apply"),
        "{err}"
    );
}

#[test]
fn a_million_chunks_evaluate_exactly() {
    let mut inst = Instance::figure_10();
    inst.load = 5e6 + 2.5; // 1e6 full chunks and a half one
    inst.series = None;
    let r = inst.solve(&mut Silent).unwrap();
    assert_eq!(r.chunks, 1_000_001);
    assert!(r.verdict.is_none() && r.schedule.is_none());
    let simulated = simulate(&inst.processors, inst.load, 5.0);
    // The replay adds 1e6 send times one by one: its round-off is ~n·ε.
    assert!(
        close(r.makespan, simulated, 1e-9),
        "{} vs {simulated}",
        r.makespan
    );
    assert!(close(
        r.machines.iter().map(|u| u.load).sum::<f64>(),
        inst.load,
        1e-12
    ));
}

#[test]
fn every_bad_field_has_its_message() {
    let ok = Instance::figure_10;
    let cases: Vec<(Instance, &str)> = vec![
        (
            Instance {
                chunk: Some(0.0),
                ..ok()
            },
            "chunk: must be greater than zero (got 0)",
        ),
        (
            Instance {
                chunk: Some(1e-4),
                ..ok()
            },
            "chunk: asks for too much work: V/β = ",
        ),
        (
            Instance {
                load: f64::INFINITY,
                ..ok()
            },
            "load: must be a finite number",
        ),
        (
            Instance {
                processors: vec![],
                ..ok()
            },
            "processors: must not be empty",
        ),
        (
            Instance {
                series: Some(Series {
                    from: 10.0,
                    to: 1.0,
                    points: Count(5),
                }),
                ..ok()
            },
            "series.to: must be at least 10 (got 1)",
        ),
        (
            Instance {
                series: Some(Series {
                    from: 1.0,
                    to: 10.0,
                    points: Count(1),
                }),
                ..ok()
            },
            "series.points: must be between 2 and 200 (got 1)",
        ),
        (
            Instance {
                series: Some(Series {
                    from: -1.0,
                    to: 10.0,
                    points: Count(5),
                }),
                ..ok()
            },
            "series.from: must be greater than zero",
        ),
    ];
    for (inst, want) in cases {
        let err = inst.solve(&mut Silent).expect_err(want).to_string();
        assert!(err.starts_with(want), "got {err:?}, want {want:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// The O(m) closed form, the event replay and the stored schedule agree,
    /// and the verifier accepts the schedule.
    #[test]
    fn closed_form_replay_and_schedule_agree(ps in two_level_machines(6), load in 0.1..500.0f64, beta in 0.05..40.0f64) {
        let e = evaluate(&ps, load, beta);
        let sim = simulate(&ps, load, beta);
        let s = schedule(&ps, load, beta);
        prop_assert!(close(e.makespan, sim, 1e-9), "closed form {} vs replay {}", e.makespan, sim);
        prop_assert!(close(e.makespan, s.makespan, 1e-9));
        prop_assert_eq!(e.chunks as usize, s.chunks.len());
        let v = verify(&ps, load, &s, Rules::BUFFERED);
        prop_assert!(v.ok, "{:?}", v);
        for (i, u) in e.machines.iter().enumerate() {
            let mine: f64 = s.chunks.iter().filter(|c| c.machine == i).map(|c| c.size).sum();
            prop_assert!(close(u.load, mine, 1e-9));
        }
    }
}

/// Large counts are written one way in a result: the preset's 200 million
/// chunks read `200 000 000` in its note, its verdict and its table (the
/// page's reading of numbers leaves them so), never `200000000` beside
/// `200·10⁶`.
#[test]
fn large_counts_have_one_notation() {
    use dlt_calc::api::{run, Request};
    use dlt_calc::core::domain::number::{human, readable};
    let response = run(&Request::example("installments").unwrap(), &mut Silent).unwrap();
    let page = response.for_page();
    let text = page["view"].to_string();
    let chunks = human(2e8);
    assert!(
        !text.contains("200000000") && !text.contains("·10⁶ chunk"),
        "{text}"
    );
    let view = page["view"].as_array().unwrap();
    let note = view
        .iter()
        .find(|b| b["id"] == "installments-chunk")
        .unwrap();
    let note = note["text"].as_str().unwrap();
    assert!(note.contains(&format!("{chunks} chunks")), "{note}");
    assert_eq!(readable(note), note, "the page rewrites the count");
    let verdict = view[0]["verdict"]["text"].as_str().unwrap();
    assert!(verdict.contains(&format!("({chunks} chunks")), "{verdict}");
    let table = view
        .iter()
        .find(|b| b["id"] == "installments-machines")
        .unwrap();
    assert_eq!(table["rows"][0][1], human(2e7));
}
