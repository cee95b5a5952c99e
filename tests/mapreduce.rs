//! M8: MapReduce — the closed form, brute force over the mapper orders for
//! one reducer, the verifier against broken schedules, the lower bound
//! against every schedule, and the series against its level.
#![cfg(not(target_arch = "wasm32"))]

mod rng;

use rng::Rng;

use dlt_calc::core::domain::count::Count;
use dlt_calc::core::domain::error::Validate;
use dlt_calc::core::framework::model::Model;
use dlt_calc::core::solving::lp::{Cmp, Problem};
use dlt_calc::core::solving::permutations;
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::models::mapreduce::{
    list_schedule, lower_bound, rotation, verify, Instance, Job, MapReduce, Phase, Series, Shuffle,
    Transfer,
};

/// A random instance: start-ups from nothing to dominant, any `γ`.
fn random(rng: &mut Rng, m: usize, r: usize, l: usize) -> Instance {
    let map = Phase {
        rate: rng.log(-6.0, -3.0),
        unit_startup: if rng.unit() < 0.3 {
            0.0
        } else {
            rng.log(-3.0, 0.0)
        },
    };
    let reduce = Phase {
        rate: rng.log(-6.0, -3.0),
        unit_startup: rng.between(0.0, 0.1),
    };
    Instance {
        load: rng.log(2.0, 9.0),
        mappers: Count::from(m),
        reducers: Count::from(r),
        channels: Count::from(l),
        unit: rng.log(3.0, 7.0),
        startup: if rng.unit() < 0.2 {
            0.0
        } else {
            rng.log(-2.0, 2.0)
        },
        rate: if rng.unit() < 0.1 {
            0.0
        } else {
            rng.log(-7.0, -3.0)
        },
        gamma: rng.log(-2.0, 0.5),
        map,
        reduce,
        series: None,
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300)
}

#[test]
fn one_mapper_one_reducer_is_the_closed_form() {
    let mut rng = Rng(1);
    for _ in 0..100 {
        let i = random(&mut rng, 1, 1, 1);
        i.check().unwrap();
        let j = i.job();
        let v = j.load;
        let expected = (j.startup + j.map * v).max(2.0 * j.startup)
            + j.rate * j.gamma * v
            + j.reduce * j.gamma * v;
        let r = i.solve(&mut Silent).unwrap();
        assert!(
            close(r.makespan, expected, 1e-12),
            "{} vs {expected}",
            r.makespan
        );
        assert!(r.gap <= 1e-9, "gap {}", r.gap);
        assert!(r.verdict.ok);
        assert_eq!(r.transfers.len(), 1);
    }
}

/// The shortest `T` with one reducer receiving in order `order`: one LP.
fn one_order(job: &Job, order: &[usize]) -> f64 {
    let (v, c) = (job.load, job.rate * job.gamma);
    let unit = (job.map + c) * v + job.reducer_ready(0);
    let mut lp = Problem::new();
    let alpha: Vec<_> = (0..job.mappers)
        .map(|_| lp.add_var(0.0, 0.0, f64::INFINITY))
        .collect();
    let last = *order.last().unwrap();
    let start: Vec<_> = order
        .iter()
        .map(|&k| {
            let cost = if k == last { 1.0 } else { 0.0 };
            lp.add_var(cost, 0.0, f64::INFINITY)
        })
        .collect();
    lp.add_constraint(&[(alpha[last], c * v / unit)], Cmp::Ge, 0.0);
    for (i, &k) in order.iter().enumerate() {
        // The piece of mapper k starts after k has mapped ...
        lp.add_constraint(
            &[(start[i], 1.0), (alpha[k], -job.map * v / unit)],
            Cmp::Ge,
            job.mapper_ready(k) / unit,
        );
        // ... and after the previous piece.
        if i > 0 {
            let p = order[i - 1];
            lp.add_constraint(
                &[
                    (start[i], 1.0),
                    (start[i - 1], -1.0),
                    (alpha[p], -c * v / unit),
                ],
                Cmp::Ge,
                0.0,
            );
        }
    }
    lp.add_constraint(&[(start[0], 1.0)], Cmp::Ge, job.reducer_ready(0) / unit);
    let all: Vec<_> = alpha.iter().map(|&a| (a, 1.0)).collect();
    lp.add_constraint(&all, Cmp::Eq, 1.0);
    let s = lp.solve().unwrap();
    (s[start[order.len() - 1]] + c * v / unit * s[alpha[last]]) * unit + job.reduce_time()
}

#[test]
fn one_reducer_matches_brute_force_over_mapper_orders() {
    let mut rng = Rng(2);
    for case in 0..200 {
        let m = rng.upto(5);
        let l = rng.upto(3);
        let i = random(&mut rng, m, 1, l);
        i.check().unwrap();
        let job = i.job();
        let mut best = f64::INFINITY;
        permutations::for_each(m, |order| {
            best = best.min(one_order(&job, order));
            true
        });
        let r = i.solve(&mut Silent).unwrap();
        assert!(r.verdict.ok, "case {case}: {:?}", r.verdict);
        assert!(
            close(r.makespan, best, 1e-7),
            "case {case}: m = {m}: {} vs brute force {best} ({i:?})",
            r.makespan
        );
        assert!(r.gap <= 1e-7, "case {case}: gap {}", r.gap);
        assert!(r.lower_bound <= best * (1.0 + 1e-9), "case {case}");
    }
}

#[test]
fn every_schedule_verifies_and_the_bound_holds() {
    let mut rng = Rng(3);
    for case in 0..400 {
        let (m, r) = (rng.upto(40), rng.upto(12));
        let l = rng.upto(14);
        let i = random(&mut rng, m, r, l);
        i.check().unwrap();
        let job = i.job();
        let bound = lower_bound(&job);
        let list = list_schedule(&job);
        let (rot, _) = rotation(&job).unwrap();
        for (name, s) in [("list", &list), ("rotation", &rot)] {
            let v = verify(&job, l, s);
            assert!(v.ok, "case {case} {name}: {:?} ({i:?})", v.violation);
            assert!(
                bound <= s.makespan * (1.0 + 1e-12),
                "case {case} {name}: bound {bound} above T = {} ({i:?})",
                s.makespan
            );
        }
        let report = i.solve(&mut Silent).unwrap();
        assert!(report.makespan <= list.makespan.min(rot.makespan) * (1.0 + 1e-12));
        assert!(
            (0.0..1.0).contains(&report.gap),
            "case {case}: {}",
            report.gap
        );
        // Speedup never beats the level the series approaches.
        let level = report.plateau.level.unwrap_or(f64::INFINITY);
        assert!(report.speedup <= level * (1.0 + 1e-9), "case {case}");
    }
}

/// A valid schedule to break: `m = 3`, `r = 2`, `ℓ = 2`.
fn small() -> (Job, Shuffle) {
    let i = Instance {
        load: 1e6,
        mappers: Count(3),
        reducers: Count(2),
        channels: Count(2),
        unit: 1e3,
        startup: 1.0,
        rate: 1e-3,
        gamma: 0.5,
        map: Phase {
            rate: 1e-3,
            unit_startup: 0.0,
        },
        reduce: Phase {
            rate: 1e-3,
            unit_startup: 0.0,
        },
        series: None,
    };
    let job = i.job();
    let s = list_schedule(&job);
    assert!(verify(&job, 2, &s).ok);
    (job, s)
}

#[test]
fn the_verifier_rejects_every_kind_of_broken_schedule() {
    type Break = fn(&mut Shuffle);
    let cases: &[(&str, Break, &str)] = &[
        ("chunks off", |s| s.sizes[0] *= 1.01, "add up"),
        (
            "a negative chunk",
            |s| {
                s.sizes[0] = -s.sizes[0];
            },
            "has chunk",
        ),
        ("a short transfer", |s| s.transfers[0].end -= 1e-3, "lasts"),
        (
            "sent before mapped",
            |s| {
                let t = &mut s.transfers[0];
                t.start -= 50.0;
                t.end -= 50.0;
            },
            "maps until",
        ),
        (
            "a missing transfer",
            |s| {
                s.transfers.pop();
            },
            "times, not once",
        ),
        (
            "a transfer twice",
            |s| {
                let t = s.transfers[0];
                s.transfers.push(Transfer {
                    start: t.start + 1e4,
                    end: t.end + 1e4,
                    ..t
                });
            },
            "times, not once",
        ),
        (
            "a reducer that does not exist",
            |s| s.transfers[0].reducer = 7,
            "do not exist",
        ),
        (
            "sent at time 0",
            |s| {
                for t in &mut s.transfers {
                    let len = t.end - t.start;
                    t.start = 0.0;
                    t.end = len;
                }
            },
            "maps until",
        ),
        (
            "reduce too early",
            |s| {
                s.reducers[0].start -= 1.0;
                s.reducers[0].end -= 1.0;
            },
            "before its last piece",
        ),
        (
            "reduce too short",
            |s| s.reducers[1].end -= 1.0,
            "reduces for",
        ),
        ("a wrong makespan", |s| s.makespan += 1.0, "makespan"),
    ];
    for (what, broken, expected) in cases {
        let (job, mut s) = small();
        broken(&mut s);
        let v = verify(&job, 2, &s);
        assert!(!v.ok, "{what}: accepted");
        let why = v.violation.unwrap();
        assert!(why.contains(expected), "{what}: {why}");
    }
}

#[test]
fn the_verifier_names_a_reducer_not_ready_and_non_finite_times() {
    // Long start-ups: the reducers are ready long after the mappers map.
    let (mut job, _) = small();
    job.startup = 1000.0;
    let s = list_schedule(&job);
    assert!(verify(&job, 2, &s).ok);
    let mut early = s.clone();
    let t = &mut early.transfers[0];
    let mapped = job.mapper_ready(t.mapper) + job.map * early.sizes[t.mapper];
    let len = t.end - t.start;
    t.start = mapped + 1.0;
    t.end = t.start + len;
    assert!(t.start < job.reducer_ready(t.reducer));
    let why = verify(&job, 2, &early).violation.unwrap();
    assert!(why.contains("is ready only at"), "{why}");
    let mut nan = s.clone();
    nan.reducers[0].start = f64::NAN;
    assert!(verify(&job, 2, &nan)
        .violation
        .unwrap()
        .contains("reduces from NaN"));
    let mut inf = s.clone();
    inf.makespan = f64::INFINITY;
    assert!(!verify(&job, 2, &inf).ok);
    // A schedule of picoseconds is checked as closely as one of seconds.
    let (mut tiny, _) = small();
    tiny.load = 1.0;
    tiny.map = 1e-12;
    tiny.rate = 1e-12;
    tiny.reduce = 1e-12;
    tiny.startup = 0.0;
    let ok = list_schedule(&tiny);
    assert!(verify(&tiny, 2, &ok).ok);
    let mut all_at_zero = ok.clone();
    for t in &mut all_at_zero.transfers {
        let len = t.end - t.start;
        t.start = 0.0;
        t.end = len;
    }
    assert!(!verify(&tiny, 2, &all_at_zero).ok);
}

#[test]
fn the_verifier_rejects_overlaps_and_too_many_channels() {
    let (job, s) = small();
    // Everything at once: a mapper in two transfers at once.
    let mut at_once = s.clone();
    let start = at_once
        .transfers
        .iter()
        .map(|t| t.start)
        .fold(0.0, f64::max);
    for t in &mut at_once.transfers {
        let len = t.end - t.start;
        t.start = start;
        t.end = start + len;
    }
    let why = verify(&job, 2, &at_once).violation.unwrap();
    assert!(why.contains("two transfers at once"), "{why}");
    // A valid schedule checked against a narrower network.
    let why = verify(&job, 1, &s).violation.unwrap();
    assert!(why.contains("bisection width is 1"), "{why}");
    // A reducer receiving two pieces at once.
    let mut shared = s.clone();
    let (a, b) = {
        let to0: Vec<usize> = (0..shared.transfers.len())
            .filter(|&i| shared.transfers[i].reducer == 0)
            .collect();
        (to0[0], to0[1])
    };
    let start = shared.transfers[a].start.max(shared.transfers[b].start);
    for i in [a, b] {
        let len = shared.transfers[i].end - shared.transfers[i].start;
        shared.transfers[i].start = start;
        shared.transfers[i].end = start + len;
    }
    let why = verify(&job, 3, &shared).violation.unwrap();
    assert!(why.contains("two transfers at once"), "{why}");
}

#[test]
fn the_reference_instance() {
    let i = Instance::reference();
    i.check().unwrap();
    let r = i.solve(&mut Silent).unwrap();
    assert!(r.verdict.ok);
    assert_eq!(r.transfers.len(), 100_000);
    assert!(r.gap < 0.01, "gap {}", r.gap);
    // T_seq = 1 + 1.0000625e-5·1e15 + 1.0000625e-5·1e14.
    assert!(close(r.sequential, 1.0 + 1.0000625e10 + 1.0000625e9, 1e-12));
    // The level: T_seq / (CγV/100 + BγV/100) ≈ 1000 = 10 r.
    assert!(
        close(r.plateau.level.unwrap(), 1000.0, 1e-4),
        "{:?}",
        r.plateau.level
    );
    assert_eq!(r.plateau.bounded_by, "reduce");
    assert!(r.plateau.text.contains("speedup approaches at most"));
    assert!(!r.plateau.text.contains("  "), "{}", r.plateau.text);
    assert!(r.speedup > 500.0 && r.speedup < 1000.0, "{}", r.speedup);
}

#[test]
fn the_series_levels_off_below_its_level() {
    let mut i = Instance::reference();
    i.series = Some(Series {
        from: Count(10),
        to: Count(2000),
        points: Count(12),
        reducers: vec![Count(10), Count(100)],
        channels: Vec::new(),
        gammas: vec![0.01, 1.0],
    });
    i.check().unwrap();
    let r = i.solve(&mut Silent).unwrap();
    assert_eq!(r.series.len(), 4);
    for line in &r.series {
        let speedups: Vec<f64> = line.points.iter().map(|p| p.speedup).collect();
        for p in &line.points {
            assert!(p.speedup <= line.level.unwrap() * (1.0 + 1e-9), "{line:?}");
            assert!(p.lower_bound <= p.makespan);
            assert!(p.best_possible >= p.speedup);
        }
        // It grows with m; with γ = 0.1 it ends within reach of its level
        // (with γ = 0.01 mapping still dominates at m = 2000: m ≫ r pays).
        assert!(
            speedups.windows(2).all(|w| w[1] >= w[0] * 0.999),
            "{speedups:?}"
        );
        let last = *speedups.last().unwrap();
        if line.parameter == "reducers" {
            let level = line.level.unwrap();
            assert!(last >= 0.5 * level, "{}: {last} vs {level}", line.value);
        }
    }
    // More reducers, higher level; a smaller γ, higher speedup.
    let level = |p: &str, v: f64| {
        r.series
            .iter()
            .find(|l| l.parameter == p && l.value == v)
            .unwrap()
            .clone()
    };
    assert!(level("reducers", 100.0).level.unwrap() > 5.0 * level("reducers", 10.0).level.unwrap());
    let small = level("gamma", 0.01);
    let big = level("gamma", 1.0);
    assert!(small.points.last().unwrap().speedup > 3.0 * big.points.last().unwrap().speedup);
    // With γ = 1 the shuffle of γV through 100 channels matters: level ≈ r.
    assert!(big.level.unwrap() < 2.0 * 100.0, "{:?}", big.level);
    assert_eq!(r.charts().len(), 2);
}

#[test]
fn presets_validate_and_solve() {
    for p in MapReduce::presets() {
        p.request.check().unwrap();
    }
    let small = MapReduce::presets()
        .into_iter()
        .find(|p| p.name == "mapreduce-small")
        .unwrap();
    let out = MapReduce::solve(&small.request, &mut Silent).unwrap();
    let gantt = out.gantt.unwrap();
    assert_eq!(gantt.rows.len(), 8);
    assert_eq!(gantt.rows[0].label, "map 0");
    assert_eq!(gantt.rows[4].label, "reduce 0");
}

#[test]
fn bad_requests_name_their_field() {
    type Edit = fn(&mut Instance);
    let cases: &[(&str, Edit)] = &[
        ("load", |i| i.load = -1.0),
        ("mappers", |i| i.mappers = Count(0)),
        ("reducers", |i| i.reducers = Count(0)),
        ("channels", |i| i.channels = Count(0)),
        ("gamma", |i| i.gamma = 0.0),
        ("unit", |i| i.unit = 0.0),
        ("map.rate", |i| {
            i.map.rate = 0.0;
            i.map.unit_startup = 0.0;
        }),
        ("reduce.unit_startup", |i| i.reduce.unit_startup = f64::NAN),
        ("mappers", |i| {
            i.mappers = Count(10_000);
            i.reducers = Count(100);
        }),
        ("load", |i| i.load = 1e305),
    ];
    for (field, broken) in cases {
        let mut i = Instance::reference();
        broken(&mut i);
        let problems = i.problems();
        assert!(
            problems.iter().any(|p| p.field_path() == Some(field)),
            "{field}: {problems:?}"
        );
    }
    // ℓ above min(r, m) is legal: it acts as min(ℓ, r, m).
    let mut i = Instance::reference();
    i.channels = Count(1 << 40);
    i.check().unwrap();
    assert_eq!(i.job().channels, 100);
}

#[test]
#[cfg(not(target_arch = "wasm32"))] // one thread: rayon, native only
fn a_stopped_series_keeps_its_lines_so_far() {
    let mut i = MapReduce::presets()
        .into_iter()
        .find(|p| p.name == "mapreduce-reducers")
        .unwrap()
        .request;
    if let Some(s) = i.series.as_mut() {
        s.to = Count(200);
        s.points = Count(10);
    }
    let mut calls = 0;
    let mut stop_after_15 = |_: f64, _: &str| {
        calls += 1;
        calls <= 15
    };
    // One line after the other, as in the page (natively the lines share
    // the cores, and when they stop depends on the clock).
    let one_thread = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let (report, stopped) = one_thread
        .install(|| i.solve_until_stopped(&mut stop_after_15))
        .unwrap();
    assert!(stopped);
    let points: usize = report.series.iter().map(|l| l.points.len()).sum();
    assert_eq!(points, 15);
    assert_eq!(report.series.len(), 2);
    // The tables and charts take a line cut short.
    use dlt_calc::core::presentation::response::Describe;
    assert!(!report.view().is_empty());
    assert_eq!(report.charts().len(), 1);
    assert!(matches!(
        i.solve(&mut |_: f64, _: &str| false),
        Err(dlt_calc::core::domain::error::Error::Cancelled)
    ));
}

/// On every core, a series stopped early keeps, for each line, a prefix
/// of the line computed to the end.
#[test]
fn a_series_stopped_on_every_core_keeps_prefixes_of_its_lines() {
    let mut i = MapReduce::presets()
        .into_iter()
        .find(|p| p.name == "mapreduce-gamma")
        .unwrap()
        .request;
    if let Some(s) = i.series.as_mut() {
        s.to = Count(400);
        s.points = Count(12);
    }
    let clock = std::time::Instant::now();
    let (whole, stopped) = i.solve_until_stopped(&mut Silent).unwrap();
    let whole_time = clock.elapsed();
    assert!(!stopped);
    let clock = std::time::Instant::now();
    let quarter = whole_time / 4;
    let mut briefly = |_: f64, _: &str| clock.elapsed() < quarter;
    let (cut, stopped) = i.solve_until_stopped(&mut briefly).unwrap();
    assert!(stopped, "the series ended within a quarter of its time");
    for line in &cut.series {
        let full = whole
            .series
            .iter()
            .find(|l| l.value == line.value)
            .expect("a line of the whole series");
        assert!(line.points.len() <= full.points.len());
        assert_eq!(line.points[..], full.points[..line.points.len()]);
    }
}
