//! M2 (`[1]`): the closed form against the LP, prefixes, energy.
#![cfg(not(target_arch = "wasm32"))]

use dlt_calc::core::domain::count::Count;
use dlt_calc::core::domain::platform::Processor;
use dlt_calc::core::domain::processing::ProcessingTime;
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::models::hierarchical;
use dlt_calc::models::linear::{split, Instance, Machine, Power};
use proptest::prelude::*;

fn machine(startup: f64, rate: f64, compute: f64) -> Machine {
    Machine {
        startup,
        rate,
        compute,
        count: Count(1),
    }
}

fn instance(load: f64, machines: Vec<Machine>) -> Instance {
    Instance {
        load,
        machines,
        order: None,
        best_order: false,
        power: None,
        series: false,
        objective: Default::default(),
        deadline: None,
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + a.abs().max(b.abs()))
}

#[test]
fn homogeneous_single_machine_and_two() {
    let r = instance(10.0, vec![machine(1.0, 0.5, 2.0)])
        .solve(&mut Silent)
        .unwrap();
    assert!(close(r.makespan, 1.0 + 2.5 * 10.0, 1e-12));
    assert_eq!(r.single, r.makespan);
    // Two machines: α1·A = S + α2(A + C), α1 + α2 = 10.
    let r = instance(10.0, vec![machine(1.0, 0.5, 2.0); 2])
        .solve(&mut Silent)
        .unwrap();
    let a1 = (1.0 + 2.5 * 10.0) / 4.5;
    assert!(close(r.sizes[0], a1, 1e-12) && close(r.sizes[1], 10.0 - a1, 1e-12));
    assert!(close(r.makespan, 1.0 + 2.5 * a1, 1e-12));
    assert!(r.verdict.ok, "{:?}", r.verdict);
}

#[test]
fn a_small_load_uses_a_prefix_and_says_so() {
    let r = instance(1e3, vec![machine(100.0, 1e-6, 1.0); 10])
        .solve(&mut Silent)
        .unwrap();
    assert!(r.active < 10 && r.active > 1, "{} active", r.active);
    assert!(r
        .note
        .as_deref()
        .unwrap()
        .starts_with(&format!("{} of 10 machines receive load", r.active)));
    assert!(r.sizes.iter().all(|&a| a >= 0.0));
    assert!(r.verdict.ok);
    // No other prefix is better.
    for p in 1..=10 {
        let inst = instance(1e3, vec![machine(100.0, 1e-6, 1.0); p]);
        let s = split(&inst.expanded(), 1e3);
        assert!(r.makespan <= s.makespan + 1e-9);
    }
}

#[test]
fn energy_matches_the_slides_formula() {
    let mut inst = Instance::energy_preset(1e13, 50);
    inst.series = false;
    let r = inst.solve(&mut Silent).unwrap();
    assert_eq!(r.active, 50);
    let e = r.energy.unwrap();
    let (m, s, c, a, v) = (50.0, 1e2, 1e-6, 1.0, 1e13);
    let (pc, pn, k) = (200.0, 50.0, 3.0);
    assert!(close(e.idle, r.makespan * ((m + 1.0) * pc + pn) / k, 1e-12));
    assert!(close(e.network, pn * (k - 1.0) / k * (m * s + c * v), 1e-9));
    assert!(close(
        e.processors,
        pc * (k - 1.0) / k * (2.0 * m * s + (2.0 * c + a) * v),
        1e-9
    ));
    assert!(close(e.total, e.idle + e.network + e.processors, 1e-15));
}

fn energies(load: f64, count: usize) -> (Vec<f64>, Vec<f64>) {
    let r = Instance::energy_preset(load, count)
        .solve(&mut Silent)
        .unwrap();
    // T(m) never grows with m.
    assert!(r
        .series
        .windows(2)
        .all(|w| w[1].makespan <= w[0].makespan * (1.0 + 1e-12)));
    let e = r.series.iter().map(|p| p.energy.unwrap()).collect();
    let t = r.series.iter().map(|p| p.makespan).collect();
    (e, t)
}

fn argmin(xs: &[f64]) -> usize {
    (0..xs.len())
        .min_by(|&a, &b| xs[a].total_cmp(&xs[b]))
        .unwrap()
}

/// `[1]`, `V = 1e13`: energy as a function of `T(m)` has a minimum inside
/// the range: more machines first save idle energy, then cost start-ups.
#[test]
fn energy_preset_shows_the_minimum() {
    let (e, _) = energies(1e13, 1_000_000);
    let at = argmin(&e);
    assert!(
        at > 0 && at + 1 < e.len(),
        "minimum at the end ({at} of {})",
        e.len()
    );
    assert!(e[0] > e[at] * 1.01 && e[e.len() - 1] > e[at] * 1.01);
}

/// `[1]`, `V = 1e3`: start-ups dominate; the least energy is one machine,
/// the shortest time needs several, and beyond those more machines only add
/// idle energy.
#[test]
fn small_load_trades_time_for_energy() {
    let (e, t) = energies(1e3, 30);
    assert_eq!(argmin(&e), 0);
    let fastest = argmin(&t);
    assert!(fastest > 0 && t[fastest] < t[0] * 0.6, "{t:?}");
    assert!(e.windows(2).skip(fastest).all(|w| w[1] > w[0]));
}

#[test]
fn best_order_is_no_worse_than_given_orders() {
    let ms = vec![
        machine(3.0, 0.9, 1.0),
        machine(0.1, 0.1, 3.0),
        machine(1.0, 0.5, 0.5),
        machine(2.0, 0.2, 2.0),
    ];
    let mut inst = instance(20.0, ms);
    inst.best_order = true;
    let best = inst.solve(&mut Silent).unwrap();
    // Every sequence of distinct machines: 4 + 12 + 24 + 24.
    assert_eq!(best.orders_tried, 64);
    assert!(best.verdict.ok);
    dlt_calc::core::solving::permutations::for_each(4, |order| {
        let mut given = inst.clone();
        given.best_order = false;
        given.order = Some(order.to_vec());
        let r = given.solve(&mut Silent).unwrap();
        assert!(best.makespan <= r.makespan + 1e-12);
        true
    });
}

#[test]
fn every_bad_field_has_its_message() {
    let ok = || instance(10.0, vec![machine(1.0, 1.0, 1.0)]);
    let cases: Vec<(Instance, &str)> = vec![
        (
            Instance { load: -1.0, ..ok() },
            "load: must be greater than zero (got -1)",
        ),
        (
            Instance {
                machines: vec![],
                ..ok()
            },
            "machines: must not be empty",
        ),
        (
            instance(1.0, vec![machine(-1.0, 1.0, 1.0)]),
            "machines[0].startup: must not be negative",
        ),
        (
            instance(1.0, vec![machine(1.0, f64::NAN, 1.0)]),
            "machines[0].rate: must be a finite number",
        ),
        (
            instance(1.0, vec![machine(1.0, 1.0, 0.0)]),
            "machines[0].compute: must be greater than zero",
        ),
        (
            instance(
                1.0,
                vec![Machine {
                    count: Count(0),
                    ..machine(1.0, 1.0, 1.0)
                }],
            ),
            "machines[0].count: must be between 1 and 1\u{202f}000\u{202f}000 (got 0)",
        ),
        (
            instance(
                1.0,
                vec![
                    Machine {
                        count: Count(600_000),
                        ..machine(1.0, 1.0, 1.0)
                    };
                    2
                ],
            ),
            "machines: has too many entries (1\u{202f}200\u{202f}000, the limit is 1\u{202f}000\u{202f}000)",
        ),
        (
            Instance {
                best_order: true,
                ..instance(
                    1.0,
                    vec![Machine {
                        count: Count(9),
                        ..machine(1.0, 1.0, 1.0)
                    }],
                )
            },
            "best_order: has too many entries (9, the limit is 8)",
        ),
        (
            Instance {
                power: Some(Power {
                    processor: 1.0,
                    network: 1.0,
                    idle_factor: 0.5,
                }),
                ..ok()
            },
            "power.idle_factor: must be at least 1 (got 0.5)",
        ),
        (
            Instance {
                power: Some(Power {
                    processor: -1.0,
                    network: 1.0,
                    idle_factor: 2.0,
                }),
                ..ok()
            },
            "power.processor: must not be negative",
        ),
        (
            Instance {
                order: Some(vec![1]),
                ..ok()
            },
            "order[0]: refers to entry 1, but there are only 1",
        ),
        (
            // The model uses a deadline, with the energy objective only.
            Instance {
                deadline: Some(10.0),
                ..ok()
            },
            "deadline: is used only with the energy objective, where it bounds the length of \
             the least-energy schedule; the objective here is time",
        ),
    ];
    for (inst, want) in cases {
        let err = inst.solve(&mut Silent).expect_err(want).to_string();
        assert!(err.starts_with(want), "got {err:?}, want {want:?}");
    }
}

/// Machines served fastest link first, the order of linear DLT.
fn machines() -> impl Strategy<Value = Vec<Machine>> {
    prop::collection::vec(
        (0.0..5.0f64, 0.0..2.0f64, 0.05..5.0f64).prop_map(|(s, c, a)| machine(s, c, a)),
        1..7,
    )
    .prop_map(|mut ms| {
        ms.sort_by(|a, b| a.rate.total_cmp(&b.rate));
        ms
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The closed form equals the M3 LP (one memory level, no intercept) on
    /// the machines it uses, and never loses to the LP on all of them
    /// (which must pay every start-up).
    #[test]
    fn closed_form_equals_the_lp(ms in machines(), load in 0.1..200.0f64) {
        let r = instance(load, ms.clone()).solve(&mut Silent).unwrap();
        prop_assert!(r.verdict.ok, "{:?}", r.verdict);
        let lp = |used: &[usize]| {
            let processors = used
                .iter()
                .map(|&i| &ms[i])
                .map(|m| Processor {
                    startup: m.startup,
                    rate: m.rate,
                    levels: ProcessingTime::linear(m.compute),
                    cap: None,
                })
                .collect();
            let inst = hierarchical::Instance { load, processors, order: None, best_order: false };
            inst.solve(&mut Silent).unwrap().makespan
        };
        let chosen = lp(&r.used);
        prop_assert!(close(r.makespan, chosen, 1e-7), "closed form {} vs LP {}", r.makespan, chosen);
        let all: Vec<usize> = (0..ms.len()).collect();
        prop_assert!(r.makespan <= lp(&all) * (1.0 + 1e-7));
    }
}
