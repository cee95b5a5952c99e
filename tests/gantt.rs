//! The Gantt chart's data and its SVG rendering.
#![cfg(not(target_arch = "wasm32"))]

use dlt_calc::api::gantt_styles;
use dlt_calc::core::presentation::gantt::{Activity, Gantt, Shade};
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::models::hierarchical::Instance;
use dlt_calc::plot::{gantt_svg, Slot};
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
        "time (s)",
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
        (
            Activity::slower(250),
            json!({"kind": "compute", "slowdown_percent": 250}),
        ),
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
        json!({"kind": "compute", "level": 1, "slowdown_percent": 200}),
        json!({"kind": "compute", "slowdown_percent": 1.5}),
        json!({"kind": "idle", "colour": "red"}),
    ] {
        assert!(
            serde_json::from_value::<Activity>(bad.clone()).is_err(),
            "{bad}"
        );
    }
}

/// M8's reference job has 1000 mappers and 100 reducers; the chart shows
/// the first and last of each and says how many it leaves out, where.
#[test]
fn the_mapreduce_gantt_marks_its_gaps_with_the_count() {
    let request = dlt_calc::api::Request::example("mapreduce").unwrap();
    let value = request.to_json();
    let (mappers, reducers) = (
        value["mappers"].as_u64().unwrap() as usize,
        value["reducers"].as_u64().unwrap() as usize,
    );
    let response = dlt_calc::api::run(&request, &mut Silent).unwrap();
    let gantt = response.gantt().unwrap();
    let shown = |prefix: &str| {
        gantt
            .rows
            .iter()
            .filter(|r| r.label.starts_with(prefix))
            .count()
    };
    let hidden_mappers = mappers - shown("map ");
    let hidden_reducers = reducers - shown("reduce ");
    assert_eq!(hidden_mappers, 976);
    let words = |n: usize, noun: &str| format!("… {n} {noun} not shown");
    let slots = dlt_calc::plot::slots(gantt);
    let gap_at = |text: &str| slots.iter().position(|s| *s == Slot::Gap(text.into()));
    let m = gap_at(&words(hidden_mappers, "mappers")).expect("the mappers' gap is marked");
    let r = gap_at(&words(hidden_reducers, "reducers")).expect("the reducers' gap is marked");
    // Each mark sits between the rows it separates (map 11 | map 988,
    // reduce 7 | reduce 92).
    let label = |k: usize| match &slots[k] {
        Slot::Row(i) => gantt.rows[*i].label.clone(),
        Slot::Gap(g) => g.clone(),
    };
    assert_eq!(
        (label(m - 1), label(m + 1)),
        ("map 11".into(), "map 988".into())
    );
    assert_eq!(
        (label(r - 1), label(r + 1)),
        ("reduce 7".into(), "reduce 92".into())
    );
    let styles = gantt_styles("mapreduce");
    let height = dlt_calc::plot::gantt_height(gantt, &styles, 900);
    let svg = gantt_svg(gantt, &styles, 900, height).unwrap();
    assert!(
        svg.contains(&words(976, "mappers")),
        "the SVG says nothing of the gap"
    );
}

/// A schedule of two chunks out of core: one barely over the core memory
/// (its time 1.0001 times the in-core time), one far over (20 times).
fn two_chunks_out_of_core() -> dlt_calc::core::domain::schedule::Schedule {
    use dlt_calc::core::domain::schedule::{Chunk, Interval, Schedule};
    let chunk = |machine: usize, slowdown: f64| Chunk {
        machine,
        size: 10.0,
        send: Interval {
            start: 0.0,
            end: 1.0,
        },
        compute: Interval {
            start: 1.0,
            end: 1.0 + 2.0 * 10.0 * slowdown,
        },
        level: 1,
    };
    Schedule {
        machines: 2,
        chunks: vec![chunk(0, 1.0001), chunk(1, 20.0)],
        makespan: 1.0 + 2.0 * 10.0 * 20.0,
    }
}

/// How dark a colour looks (0 black, 255 white).
fn lightness((r, g, b): (u8, u8, u8)) -> f64 {
    0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b)
}

#[test]
fn m5_shades_a_chunk_by_how_far_out_of_core_it_is() {
    let gantt = Gantt::with_slowdowns(&two_chunks_out_of_core(), 0.0, 2.0);
    let styles = gantt_styles("startup");
    let compute = |row: usize| {
        let bar = gantt.rows[row]
            .bars
            .iter()
            .find(|b| b.activity.kind == "compute")
            .unwrap();
        (bar.activity.clone(), styles(&bar.activity))
    };
    let (barely, barely_style) = compute(0);
    let (far, far_style) = compute(1);
    assert_eq!(barely.shade, Some(Shade::SlowdownPercent(100)));
    assert_eq!(far.shade, Some(Shade::SlowdownPercent(2000)));
    assert_ne!(barely_style.colour, far_style.colour);
    assert!(
        lightness(far_style.colour) + 60.0 < lightness(barely_style.colour),
        "{:?} is not darker than {:?}",
        far_style.colour,
        barely_style.colour
    );
    // One legend entry for both, and a scale of slowdowns beside it.
    assert_eq!(barely_style.legend, far_style.legend);
    let svg = gantt_svg(&gantt, &styles, 900, 200).unwrap();
    for text in ["slowdown:", "×1", "×4", "×16", "≥ ×64"] {
        assert!(
            svg.contains(&format!(">{text}<")) || svg.contains(&format!("\n{text}\n")),
            "missing {text}"
        );
    }
    for (r, g, b) in [barely_style.colour, far_style.colour] {
        assert!(svg.contains(&format!("#{r:02X}{g:02X}{b:02X}")));
    }
    // Without the in-core rate the chunks keep their level's one shade.
    let plain = Gantt::of(&two_chunks_out_of_core());
    assert!(plain
        .rows
        .iter()
        .flat_map(|r| &r.bars)
        .any(|b| b.activity == Activity::compute(1)));
}

/// A chart with a horizon no axis can show is drawn, not a hang or a panic.
#[test]
fn an_extreme_horizon_is_drawn() {
    let r = Instance::worked_example().solve(&mut Silent).unwrap();
    let styles = gantt_styles("hierarchical");
    for horizon in [f64::INFINITY, f64::MAX, 0.0, -1.0] {
        let mut g = Gantt::of(&r.schedule);
        g.horizon = horizon;
        assert!(gantt_svg(&g, &styles, 360, 200)
            .unwrap()
            .starts_with("<svg"));
    }
}
