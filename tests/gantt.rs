//! The Gantt chart's data and its SVG rendering.
#![cfg(not(target_arch = "wasm32"))]

use dlt_calc::core::gantt::{Activity, Gantt};
use dlt_calc::core::progress::Silent;
use dlt_calc::models::hierarchical::Instance;
use dlt_calc::plot::gantt_svg;

#[test]
fn worked_example_bars() {
    let r = Instance::worked_example().solve(&mut Silent).unwrap();
    let g = Gantt::of(&r.schedule);
    assert_eq!(g.horizon, 5.75);
    let kinds = |i: usize| -> Vec<(Activity, f64, f64)> {
        g.rows[i]
            .bars
            .iter()
            .map(|b| (b.activity, b.start, b.end))
            .collect()
    };
    assert_eq!(
        kinds(0),
        [
            (Activity::Receive, 0.0, 2.25),
            (Activity::Compute { level: 1 }, 2.25, 5.75)
        ]
    );
    // P2 receives after P1 and computes in core; no idle time at the end.
    let p2 = kinds(1);
    assert_eq!(p2[0].0, Activity::Receive);
    assert_eq!(p2[1].0, Activity::Compute { level: 0 });
    assert_eq!(p2.len(), 2);
    assert_eq!(g.rows[1].label, "P2");
}

#[test]
fn idle_time_is_drawn() {
    let mut inst = Instance::worked_example();
    inst.processors[0].cap = Some(0.2);
    inst.processors[1].cap = Some(1.8);
    let r = inst.solve(&mut Silent).unwrap();
    let g = Gantt::of(&r.schedule);
    let idle: f64 = g.rows[0]
        .bars
        .iter()
        .filter(|b| b.activity == Activity::Idle)
        .map(|b| b.end - b.start)
        .sum();
    assert!(idle > 1.0, "P1 should wait for P2: {:?}", g.rows[0]);
}

#[test]
fn svg_has_a_bar_per_activity_and_a_legend() {
    let r = Instance::worked_example().solve(&mut Silent).unwrap();
    let svg = gantt_svg(&Gantt::of(&r.schedule), 800, 200)
        .unwrap()
        .replace('\n', "");
    for colour in ["#4682B4", "#2E8B57", "#CD5C5C"] {
        assert!(svg.contains(colour), "missing {colour}");
    }
    for name in [
        "receive",
        "compute in core",
        "compute out of core",
        "P1",
        "P2",
        "time",
    ] {
        assert!(svg.contains(&format!(">{name}<")), "missing label {name}");
    }
}
