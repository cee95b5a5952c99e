//! M3 (`[2]`): the worked example's numbers, brute force on small cases,
//! and every bad field's message.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use dlt_calc::core::domain::error::Validate;
use dlt_calc::core::domain::platform::Processor;
use dlt_calc::core::domain::processing::{Level, ProcessingTime};
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::models::hierarchical::{schedule_of, Instance};
use dlt_calc::Error;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

#[test]
fn worked_example_matches_the_paper() {
    let r = Instance::worked_example().solve(&mut Silent).unwrap();
    assert!(r.verdict.ok, "{:?}", r.verdict);
    assert!(
        close(r.sizes[0], 1.25, 1e-9) && close(r.sizes[1], 0.75, 1e-9),
        "{:?}",
        r.sizes
    );
    assert!(close(r.makespan, 5.75, 1e-12));
    // P1 computes out of core, P2 in core; both finish together.
    assert_eq!(r.schedule.chunks[0].level, 1);
    assert_eq!(r.schedule.chunks[1].level, 0);
    assert!(close(r.schedule.chunks[1].compute.end, 5.75, 1e-12));
    // P1 starts at once and never idles; P2 starts when P1's chunk is sent.
    let [p1, p2] = &r.usage[..] else { panic!() };
    assert_eq!(
        (p1.chunks, p1.start, p1.computing, p1.idle),
        (1, 0.0, 3.5, 0.0)
    );
    assert!(
        close(p2.start, 2.25, 1e-12) && close(p2.computing, 1.75, 1e-12) && p2.idle.abs() < 1e-12
    );
}

#[test]
fn naive_linear_dlt_predictions_match_the_paper() {
    let r = Instance::worked_example().solve(&mut Silent).unwrap();
    let [core, disk] = &r.comparison[..] else {
        panic!("two predictions expected, got {:?}", r.comparison)
    };
    assert!(close(core.sizes[0], 5.0 / 3.0, 1e-9) && close(core.sizes[1], 1.0 / 3.0, 1e-9));
    assert!(close(core.predicted, 13.0 / 3.0, 1e-9)); // ≈ 4.333
    assert!(close(core.real, 31.0 / 3.0, 1e-9)); // ≈ 10.333
    assert!(close(disk.sizes[0], 23.0 / 21.0, 1e-9)); // ≈ 1.095
    assert!(close(disk.predicted, 13.047619047619047, 1e-9));
    assert!(close(disk.real, 5.904761904761905, 1e-9));
}

fn machine(startup: f64, rate: f64, core: (f64, f64), disk: (f64, f64)) -> Processor {
    Processor {
        startup,
        rate,
        levels: ProcessingTime::new(vec![Level::new(core.0, core.1), Level::new(disk.0, disk.1)]),
        cap: None,
    }
}

fn instance(load: f64, processors: Vec<Processor>) -> Instance {
    Instance {
        load,
        processors,
        order: None,
        best_order: false,
    }
}

/// For two machines the makespan is a convex function of `α_1`: a ternary
/// search finds its minimum to round-off.
#[test]
fn two_machines_equal_a_ternary_search() {
    let cases = [
        (
            2.0,
            machine(1.0, 1.0, (1.0, 1.0), (-9.0, 10.0)),
            machine(1.0, 1.0, (1.0, 1.0), (-9.0, 10.0)),
        ),
        (
            50.0,
            machine(0.5, 0.2, (0.0, 1.0), (-20.0, 3.0)),
            machine(2.0, 0.1, (0.3, 0.5), (-40.0, 8.5)),
        ),
        (
            1e6,
            machine(10.0, 1e-3, (0.0, 1e-2), (-9e3, 1.0)),
            machine(1.0, 2e-3, (5.0, 2e-2), (-1e3, 0.5)),
        ),
        (
            0.01,
            machine(0.0, 0.0, (0.0, 1.0), (-1.0, 2.0)),
            machine(0.0, 3.0, (0.0, 1.0), (-1.0, 2.0)),
        ),
    ];
    for (load, a, b) in cases {
        let inst = instance(load, vec![a, b]);
        let r = inst.solve(&mut Silent).unwrap();
        assert!(r.verdict.ok);
        let makespan = |x: f64| schedule_of(&inst.processors, &[0, 1], &[x, load - x]).makespan;
        let (mut lo, mut hi) = (0.0, load);
        for _ in 0..200 {
            let (m1, m2) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
            if makespan(m1) <= makespan(m2) {
                hi = m2;
            } else {
                lo = m1;
            }
        }
        let best = makespan((lo + hi) / 2.0);
        assert!(
            close(r.makespan, best, 1e-8),
            "V = {load}: LP {} vs search {best}",
            r.makespan
        );
    }
}

/// Three machines: no point of a fine grid of splits beats the LP.
#[test]
fn three_machines_no_grid_split_is_better() {
    let inst = instance(
        30.0,
        vec![
            machine(1.0, 0.3, (0.0, 1.0), (-12.0, 5.0)),
            machine(0.5, 0.6, (0.5, 0.8), (-20.0, 4.0)),
            machine(2.0, 0.1, (0.0, 1.5), (-8.0, 9.0)),
        ],
    );
    let r = inst.solve(&mut Silent).unwrap();
    assert!(r.verdict.ok);
    let steps = 300;
    let mut best = f64::INFINITY;
    for i in 0..=steps {
        for j in 0..=steps - i {
            let (a, b) = (
                30.0 * i as f64 / steps as f64,
                30.0 * j as f64 / steps as f64,
            );
            let s = schedule_of(&inst.processors, &[0, 1, 2], &[a, b, 30.0 - a - b]);
            best = best.min(s.makespan);
        }
    }
    assert!(
        r.makespan <= best + 1e-9,
        "LP {} worse than grid {best}",
        r.makespan
    );
    assert!(
        best - r.makespan < 0.1,
        "grid {best} far above LP {}",
        r.makespan
    );
}

#[test]
fn best_order_is_no_worse_than_any_given_order() {
    let ps = vec![
        machine(3.0, 0.5, (0.0, 1.0), (-12.0, 5.0)),
        machine(0.5, 0.1, (0.5, 2.0), (-20.0, 4.0)),
        machine(1.0, 0.9, (0.0, 0.7), (-8.0, 9.0)),
    ];
    let mut inst = instance(20.0, ps);
    inst.best_order = true;
    let best = inst.solve(&mut Silent).unwrap();
    assert_eq!(best.orders_tried, 6);
    assert!(best.verdict.ok);
    for order in [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ] {
        let mut given = inst.clone();
        given.best_order = false;
        given.order = Some(order.to_vec());
        let r = given.solve(&mut Silent).unwrap();
        assert!(r.verdict.ok);
        assert!(
            best.makespan <= r.makespan + 1e-9,
            "{order:?}: {} < {}",
            r.makespan,
            best.makespan
        );
    }
}

#[test]
fn best_order_can_be_cancelled() {
    let ps: Vec<_> = (0..6)
        .map(|i| machine(1.0 + i as f64, 0.1, (0.0, 1.0), (-10.0, 3.0)))
        .collect();
    let mut inst = instance(40.0, ps);
    inst.best_order = true;
    let mut stop = |_done: f64, _what: &str| false;
    assert_eq!(inst.solve(&mut stop), Err(Error::Cancelled));
}

#[test]
fn memory_caps_are_respected() {
    let mut inst = Instance::worked_example();
    inst.processors[0].cap = Some(1.0);
    let r = inst.solve(&mut Silent).unwrap();
    assert!(r.verdict.ok);
    assert!(r.sizes[0] <= 1.0 + 1e-9);
    assert!(r.makespan >= 5.75 - 1e-9);
}

#[test]
fn every_bad_field_has_its_message() {
    let ok = Instance::worked_example;
    let cases: Vec<(Instance, &str)> = vec![
        (
            Instance { load: 0.0, ..ok() },
            "load: must be greater than zero (got 0)",
        ),
        (
            Instance {
                load: f64::NAN,
                ..ok()
            },
            "load: must be a finite number",
        ),
        (
            Instance {
                load: 1e300,
                ..ok()
            },
            "load: is too large",
        ),
        (
            Instance {
                processors: vec![],
                ..ok()
            },
            "processors: must not be empty",
        ),
        (
            {
                let mut i = ok();
                i.processors[1].startup = -1.0;
                i
            },
            "processors[1].startup: must not be negative (got -1)",
        ),
        (
            {
                let mut i = ok();
                i.processors[0].rate = f64::INFINITY;
                i
            },
            "processors[0].rate: must be a finite number",
        ),
        (
            {
                let mut i = ok();
                i.processors[0].cap = Some(0.0);
                i
            },
            "processors[0].cap: must be greater than zero",
        ),
        (
            {
                let mut i = ok();
                i.processors[0].levels = ProcessingTime::new(vec![
                    Level {
                        intercept: 0.0,
                        slope: 10.0,
                    },
                    Level {
                        intercept: -9.0,
                        slope: 1.0,
                    },
                ]);
                i
            },
            "processors[0].levels[1].slope: must be slower than the level above it",
        ),
        (
            {
                let mut i = ok();
                i.processors[0].levels = ProcessingTime::new(vec![]);
                i
            },
            "processors[0].levels: must not be empty",
        ),
        (
            {
                let mut i = ok();
                i.order = Some(vec![0, 0]);
                i
            },
            "order: must list every processor exactly once",
        ),
        (
            {
                let mut i = ok();
                i.order = Some(vec![0, 2]);
                i
            },
            "order[1]: refers to entry 2, but there are only 2",
        ),
        (
            {
                let mut i = ok();
                i.processors = vec![i.processors[0].clone(); 9];
                i.best_order = true;
                i
            },
            "best_order: has too many entries (9, the limit is 8)",
        ),
        (
            {
                let mut i = ok();
                i.processors[0].cap = Some(0.5);
                i.processors[1].cap = Some(1.0);
                i
            },
            "load: cannot be held by the processors: it is 2 but the memory caps add up to 1.5",
        ),
    ];
    for (inst, want) in cases {
        let err = inst.solve(&mut Silent).expect_err(want).to_string();
        assert!(err.starts_with(want), "got {err:?}, want {want:?}");
        assert_eq!(inst.problems().first().map(|e| e.to_string()), Some(err));
    }
}

#[test]
fn problems_lists_every_invalid_field() {
    let mut inst = Instance::worked_example();
    inst.load = -2.0;
    inst.processors[0].rate = -1.0;
    inst.processors[1].levels = ProcessingTime::new(vec![Level::new(0.0, f64::NAN)]);
    let fields: Vec<_> = inst
        .problems()
        .iter()
        .map(|e| e.field_path().unwrap().to_string())
        .collect();
    assert_eq!(
        fields,
        [
            "load",
            "processors[0].rate",
            "processors[1].levels[0].slope"
        ]
    );
}

mod properties {
    use super::common::two_level_machines;
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The verifier accepts the optimum, and no equal split nor naive
        /// linear DLT split beats it under the true model.
        #[test]
        fn optimum_is_verified_and_never_beaten(ps in two_level_machines(7), load in 0.01..300.0f64) {
            let inst = instance(load, ps);
            let r = inst.solve(&mut Silent).unwrap();
            prop_assert!(r.verdict.ok, "{:?}", r.verdict);
            let m = inst.processors.len();
            let order: Vec<usize> = (0..m).collect();
            let equal = schedule_of(&inst.processors, &order, &vec![load / m as f64; m]).makespan;
            prop_assert!(r.makespan <= equal * (1.0 + 1e-7), "LP {} vs equal split {}", r.makespan, equal);
            for p in &r.comparison {
                prop_assert!(r.makespan <= p.real * (1.0 + 1e-7), "LP {} vs {}: {}", r.makespan, p.assumption, p.real);
            }
        }
    }
}

mod closed_form {
    use super::common::two_level_machines;
    use super::*;
    use dlt_calc::models::hierarchical::{linear_program, optimal_split, Method, Split};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// The certified closed form never differs from the LP.
        #[test]
        fn equals_the_lp(ps in two_level_machines(9), load in 0.01..500.0f64, sorted in any::<bool>()) {
            let mut order: Vec<usize> = (0..ps.len()).collect();
            if sorted {
                order.sort_by(|&a, &b| ps[a].rate.total_cmp(&ps[b].rate));
            }
            let Split { sizes: fast, method } = optimal_split(&ps, load, &order).unwrap();
            let lp = linear_program(&ps, load, &order).unwrap();
            let t_fast = schedule_of(&ps, &order, &fast).makespan;
            let t_lp = schedule_of(&ps, &order, &lp).makespan;
            prop_assert!(close(t_fast, t_lp, 1e-7), "{:?} {} vs LP {}", method, t_fast, t_lp);
            if method == Method::CertifiedClosedForm {
                prop_assert!(t_fast <= t_lp * (1.0 + 1e-9));
            }
        }
    }

    /// The closed form does the work on typical instances (links sorted).
    #[test]
    fn applies_to_the_worked_example_and_sorted_links() {
        let r = Instance::worked_example().solve(&mut Silent).unwrap();
        assert_eq!(r.method, Method::CertifiedClosedForm);
        let ps: Vec<_> = (0..100)
            .map(|i| {
                machine(
                    1e-3,
                    1e-6 * (1.0 + i as f64 / 50.0),
                    (0.0, 1e-3),
                    (-9.9e6, 0.1),
                )
            })
            .collect();
        let method = optimal_split(&ps, 1e9, &(0..100).collect::<Vec<_>>())
            .unwrap()
            .method;
        assert_eq!(method, Method::CertifiedClosedForm);
    }
}
