//! The Gantt chart's data and its SVG rendering.
#![cfg(not(target_arch = "wasm32"))]

use dlt_calc::api::gantt_styles;
use dlt_calc::core::gantt::{Activity, Gantt, Shade};
use dlt_calc::core::progress::Silent;
use dlt_calc::models::hierarchical::Instance;
use dlt_calc::plot::gantt_svg;
use serde_json::json;

#[test]
fn worked_example_bars() {
    let r = Instance::worked_example().solve(&mut Silent).unwrap();
    let g = Gantt::of(&r.schedule);
    assert_eq!(g.horizon, 5.75);
    let kinds = |i: usize| -> Vec<(Activity, f64, f64)> {
        g.rows[i]
            .bars
            .iter()
            .map(|b| (b.activity.clone(), b.start, b.end))
            .collect()
    };
    assert_eq!(
        kinds(0),
        [
            (Activity::RECEIVE, 0.0, 2.25),
            (Activity::compute(1), 2.25, 5.75)
        ]
    );
    // P2 receives after P1 and computes in core; no idle time at the end.
    let p2 = kinds(1);
    assert_eq!(p2[0].0, Activity::RECEIVE);
    assert_eq!(p2[1].0, Activity::compute(0));
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
        .filter(|b| b.activity == Activity::IDLE)
        .map(|b| b.end - b.start)
        .sum();
    assert!(idle > 1.0, "P1 should wait for P2: {:?}", g.rows[0]);
}

#[test]
fn svg_has_a_bar_per_activity_and_a_legend() {
    let r = Instance::worked_example().solve(&mut Silent).unwrap();
    let styles = gantt_styles("hierarchical");
    let svg = gantt_svg(&Gantt::of(&r.schedule), &styles, 800, 200)
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

/// An activity reads and writes the same JSON whatever its shade: a kind,
/// with a memory level or a receiving machine (`null`: several) beside it.
#[test]
fn activities_keep_their_json() {
    let send = |to| Activity {
        kind: "send".into(),
        shade: Some(Shade::To(to)),
    };
    let cases = [
        (Activity::RECEIVE, json!({"kind": "receive"})),
        (Activity::compute(1), json!({"kind": "compute", "level": 1})),
        (send(Some(3)), json!({"kind": "send", "to": 3})),
        (send(None), json!({"kind": "send", "to": null})),
    ];
    for (activity, want) in cases {
        assert_eq!(serde_json::to_value(&activity).unwrap(), want);
        let back: Activity = serde_json::from_value(want).unwrap();
        assert_eq!(back, activity);
    }
    // Read strictly: a shade that is not a whole number is refused.
    for bad in [
        json!({"kind": "compute", "level": "x"}),
        json!({"kind": "compute", "level": 2.5}),
        json!({"kind": "send", "to": -1}),
        json!({"kind": "compute", "level": 1, "to": 2}),
        json!({"kind": "idle", "colour": "red"}),
    ] {
        assert!(
            serde_json::from_value::<Activity>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}
