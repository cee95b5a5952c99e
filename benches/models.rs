//! Timings of the models against the targets of their issues, as a table.
//!
//! `cargo bench --bench models` (add `--features minilp` for the second LP
//! backend). Each row is the median of repeated runs within a time budget.

use std::hint::black_box;
use std::time::{Duration, Instant};

use dlt_calc::core::domain::count::Count;
use dlt_calc::core::domain::platform::Processor;
use dlt_calc::core::domain::processing::{Level, ProcessingTime};
use dlt_calc::core::framework::model::Model;
use dlt_calc::core::solving::lp::Backend;
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::models::fit;
use dlt_calc::models::heterogeneous::{self, Algorithm, Mode, Objective, SortRule};
use dlt_calc::models::hierarchical::{self, linear_program_with, optimal_split, Method};
use dlt_calc::models::installments::{self, evaluate, simulate};
use dlt_calc::models::linear;
use dlt_calc::models::mapreduce::{self, MapReduce};
use dlt_calc::models::startup;
use dlt_calc::models::startup::probe::Probe;

/// Median time of `f` over repeated runs within about `budget`.
fn median(budget: Duration, mut f: impl FnMut()) -> Duration {
    let mut times = Vec::new();
    let start = Instant::now();
    while times.len() < 5 || (start.elapsed() < budget && times.len() < 10_000) {
        let t = Instant::now();
        f();
        times.push(t.elapsed());
    }
    times.sort();
    times[times.len() / 2]
}

fn row(name: &str, target: &str, d: Duration) {
    let ms = d.as_secs_f64() * 1e3;
    println!("| {name:<58} | {target:>10} | {ms:>12.4} |");
}

/// `m` two-level machines with slightly different links and speeds.
fn machines(m: usize, rate: f64) -> Vec<Processor> {
    (0..m)
        .map(|i| Processor {
            startup: 1e-3 * (1.0 + (i % 7) as f64 / 7.0),
            rate: rate * (1.0 + i as f64 / m as f64),
            levels: ProcessingTime::new(vec![
                Level::new(0.0, 1e-3 * (1.0 + (i % 3) as f64 / 3.0)),
                Level::new(-9.9e6, 0.1),
            ]),
            cap: None,
        })
        .collect()
}

fn main() {
    let budget = Duration::from_millis(700);
    // `cargo bench --bench models -- fits`: M9's rows only.
    if std::env::args().any(|a| a == "fits") {
        fits(budget);
        return;
    }
    println!(
        "| {:<58} | {:>10} | {:>12} |",
        "benchmark", "target", "median [ms]"
    );
    println!("|{}|{}|{}|", "-".repeat(60), "-".repeat(12), "-".repeat(14));

    // M2: the closed form over 10 000 machines.
    let inst = linear::Instance {
        load: 1e13,
        machines: vec![linear::Machine {
            startup: 1e2,
            rate: 1e-6,
            compute: 1.0,
            count: Count(10_000),
        }],
        order: None,
        best_order: false,
        power: None,
        series: false,
        objective: Default::default(),
        deadline: None,
    };
    let all = inst.expanded();
    row(
        "M2 closed form, m = 10 000",
        "< 1 ms",
        median(budget, || {
            black_box(linear::split(black_box(&all), 1e13));
        }),
    );
    row(
        "M2 whole solve with schedule and verifier, m = 10 000",
        "",
        median(budget, || {
            black_box(inst.solve(&mut Silent).unwrap());
        }),
    );

    // M2: the best set of machines (issue: exact for 16 machines in
    // ≤ 100 ms, one group of 10⁶ in ≤ 10 ms, the [1] series as fast as
    // the best prefix was).
    let sixteen = linear::Instance {
        load: 500.0,
        machines: (0..16)
            .map(|i| {
                let x = i as f64;
                linear::Machine {
                    startup: (x * 7.3) % 40.0,
                    rate: 0.01 + (x * 0.37) % 1.5,
                    compute: 0.05 + (x * 1.9) % 4.0,
                    count: Count(1),
                }
            })
            .collect(),
        ..inst.clone()
    };
    row(
        "M2 best subset, 16 heterogeneous machines, whole solve",
        "≤ 100 ms",
        median(budget, || {
            black_box(sixteen.solve(&mut Silent).unwrap());
        }),
    );
    let million = linear::Instance {
        machines: vec![linear::Machine {
            count: Count(1_000_000),
            ..inst.machines[0].clone()
        }],
        ..inst.clone()
    };
    let all = million.expanded();
    let runs = linear::subset::runs(&all);
    let upper = linear::split(&all, 1e13).makespan;
    row(
        "M2 best subset search, one group of 10⁶ machines, V = 1e13",
        "≤ 10 ms",
        median(budget, || {
            black_box(linear::subset::best(&runs, 1e13, upper, &mut || true).unwrap());
        }),
    );
    row(
        "M2 whole solve, 10⁶ machines (416 221 used), schedule verified",
        "",
        median(budget, || {
            black_box(million.solve(&mut Silent).unwrap());
        }),
    );
    let series = linear::Instance::energy_preset(1e13, 1_000_000);
    row(
        "M2 [1] preset V = 1e13, m to 10⁶, series of 331 points",
        "≤ 970 ms",
        median(budget, || {
            black_box(series.solve(&mut Silent).unwrap());
        }),
    );

    // M1: a full report, 1 024 processors, 200 isoefficiency points, a
    // measured table with the USL fit (issue: ≤ 50 ms).
    let metrics = dlt_calc::models::metrics::Metrics::matrix_vector();
    let metrics = dlt_calc::models::metrics::Request {
        processors: dlt_calc::models::metrics::Range {
            from: 1.0,
            to: 1024.0,
        },
        ..metrics
    };
    let points = metrics.solve().unwrap().isoefficiency.points.len();
    row(
        &format!("M1 full report, p = 1..1024, {points} isoefficiency points, USL fit"),
        "≤ 50 ms",
        median(budget, || {
            black_box(metrics.solve().unwrap());
        }),
    );

    // M3: 100 machines, two memory levels.
    let order: Vec<usize> = (0..100).collect();
    for (label, rate) in [("fast links", 1e-6), ("slow links", 1e-3)] {
        let ps = machines(100, rate);
        let method = optimal_split(&ps, 1e9, &order).unwrap().method;
        let name = format!(
            "M3 split, m = 100, {label} ({})",
            match method {
                Method::CertifiedClosedForm => "certified closed form",
                Method::LinearProgram => "LP",
            }
        );
        row(
            &name,
            "few ms",
            median(budget, || {
                black_box(optimal_split(&ps, 1e9, &order).unwrap());
            }),
        );
        row(
            &format!("M3 LP alone, m = 100, {label}, microlp"),
            "",
            median(budget, || {
                black_box(linear_program_with(&ps, 1e9, &order, Backend::Microlp).unwrap());
            }),
        );
        #[cfg(feature = "minilp")]
        row(
            &format!("M3 LP alone, m = 100, {label}, minilp"),
            "",
            median(budget, || {
                black_box(linear_program_with(&ps, 1e9, &order, Backend::Minilp).unwrap());
            }),
        );
    }
    let inst = hierarchical::Instance {
        load: 1e9,
        processors: machines(100, 1e-6),
        order: None,
        best_order: false,
    };
    row(
        "M3 whole solve (+ 2 naive splits, verifier), m = 100",
        "",
        median(budget, || {
            black_box(inst.solve(&mut Silent).unwrap());
        }),
    );

    // M5: the reference instance of [3] at Table 1's Vmax, to a proof of
    // optimality (default budget) and to a certified gap of 1 %.
    for (m, v) in [
        (2, 134_485.0),
        (9, 115_514.0),
        (10, 75_048.0),
        (20, 102_240.0),
    ] {
        for gap in [None, Some(0.01)] {
            let inst = startup::Instance {
                gap,
                ..startup::Instance::reference(m, v)
            };
            let r = inst.solve(&mut Silent).unwrap();
            let name = format!(
                "M5 reference, m = {m}, n = 20, asked gap {} ({:?}, gap {:.2} %, {} LPs)",
                gap.map_or("optimal".into(), |g| format!("{} %", g * 100.0)),
                r.status,
                r.gap * 100.0,
                r.lps
            );
            row(
                &name,
                "",
                median(budget, || {
                    black_box(inst.solve(&mut Silent).unwrap());
                }),
            );
        }
    }
    // LPs per second: a round robin's sequence LP (m = 10, n = 20) built and
    // solved anew, against the same LP kept and re-optimised at a load 1 %
    // away (as consecutive probes of a map; alternating between two loads).
    let sequence: Vec<usize> = (0..20).map(|j| j % 10).collect();
    let near = startup::Instance::reference(10, 100_000.0);
    let far = startup::Instance::reference(10, 101_000.0);
    row(
        "M5 sequence LP (m = 10, n = 20, V = 1e5), built and solved anew",
        "",
        median(budget, || {
            black_box(near.solve_sequence(&sequence).unwrap());
        }),
    );
    let mut kept = startup::LoadLp::new(&near, &sequence).unwrap();
    let mut flip = false;
    row(
        "the same LP kept, re-optimised at a load 1 % away (warm start)",
        "",
        median(budget, || {
            flip = !flip;
            let at = if flip { &far } else { &near };
            black_box(kept.solve(at, &sequence).unwrap());
        }),
    );
    // One map probe (best round robin by climbing from the previous probe's,
    // then the root bound), as the isoefficiency map evaluates E: along a
    // sweep of loads, so the hint is warm as in a map.
    for m in [2, 10, 20] {
        let template = startup::Instance::reference(m, 1.0);
        let loads: Vec<f64> = (0..48).map(|i| 10f64.powf(3.0 + i as f64 / 16.0)).collect();
        let mut probe = Probe::new(&template).unwrap();
        let mut gaps: Vec<f64> = Vec::new();
        let mut times: Vec<Duration> = Vec::new();
        for &load in &loads {
            let t = Instant::now();
            let p = probe.at(load).unwrap();
            gaps.push(probe.certify(p, 0.01, 2_000).unwrap().gap);
            times.push(t.elapsed());
        }
        times.sort();
        let d = times[times.len() / 2];
        gaps.sort_by(f64::total_cmp);
        let within = gaps.iter().filter(|&&g| g <= 0.01).count() as f64 / gaps.len() as f64;
        let name = format!(
            "M5 map evaluation at gap <= 1 % (probe, root bound, search of <= 2000 LPs), m = {m}, n = 20, V = 1e3..1e6 ({:.0} % reach 1 %, largest gap {:.2} %)",
            within * 100.0,
            gaps[gaps.len() - 1] * 100.0
        );
        row(&name, "20 ms median", d);
    }
    // Every n <= 8 at reference rates: m = 2..20, n = 2..8, six loads from
    // 0.1 RAM to 30 m n / 8 RAM each; the slowest one is timed again.
    let ram = startup::Instance::reference(1, 1.0).ram();
    let mut slowest = (Duration::ZERO, startup::Instance::reference(2, 1.0));
    let (mut cases, mut optimal) = (0, 0);
    for m in 2..=20 {
        for n in 2..=8 {
            for i in 0..6 {
                let top = 30.0 * (m * n) as f64 / 8.0;
                let load = ram * 0.1 * (top / 0.1).powf(i as f64 / 5.0);
                let inst = startup::Instance {
                    chunks: Count::from(n),
                    ..startup::Instance::reference(m, load)
                };
                let t = Instant::now();
                let r = inst.solve(&mut Silent).unwrap();
                let d = t.elapsed();
                cases += 1;
                optimal += usize::from(r.status == startup::Status::Optimal);
                if d > slowest.0 {
                    slowest = (d, inst);
                }
            }
        }
    }
    let small = slowest.1;
    row(
        &format!(
            "M5 exact, slowest of {cases} cases n <= 8, m <= 20 ({optimal} proven optimal): m = {}, n = {}, V = {:.0}",
            small.machines, small.chunks, small.load
        ),
        "< 1 s",
        median(budget, || {
            black_box(small.solve(&mut Silent).unwrap());
        }),
    );

    // M4: a million chunks.
    let fig = installments::Instance::figure_10();
    let load = 5e6;
    row(
        "M4 exact evaluation, 10^6 chunks (closed form)",
        "< 100 ms",
        median(budget, || {
            black_box(evaluate(&fig.processors, black_box(load), 5.0));
        }),
    );
    row(
        "M4 event-by-event replay, 10^6 chunks",
        "< 100 ms",
        median(budget, || {
            black_box(simulate(&fig.processors, black_box(load), 5.0));
        }),
    );
    row(
        "M4 Fig. 10 series (45 loads, M3 LP + 2 chunk sizes each)",
        "",
        median(budget, || {
            black_box(
                installments::Instance {
                    load: 1e3,
                    ..fig.clone()
                }
                .solve(&mut Silent)
                .unwrap(),
            );
        }),
    );

    mapreduce_rows(budget);
    heterogeneous_rows(budget);
}

/// M8: the reference instance, its parts, and `[1]`'s series.
fn mapreduce_rows(budget: Duration) {
    let reference = mapreduce::Instance::reference();
    let job = reference.job();
    row(
        "M8 reference (m = 1000, r = 100): whole solve, with gap",
        "<= 1000 ms",
        median(budget, || {
            black_box(reference.solve(&mut Silent).unwrap());
        }),
    );
    row(
        "M8 reference: rotating-groups LP and times",
        "",
        median(budget, || {
            black_box(mapreduce::rotation(&job).unwrap());
        }),
    );
    row(
        "M8 reference: equal split sent as soon as possible",
        "",
        median(budget, || {
            black_box(mapreduce::list_schedule(&job));
        }),
    );
    row(
        "M8 reference: lower bound",
        "",
        median(budget, || {
            black_box(mapreduce::lower_bound(&job));
        }),
    );
    for name in ["mapreduce-reducers", "mapreduce-gamma"] {
        let preset = MapReduce::presets()
            .into_iter()
            .find(|p| p.name == name)
            .expect("preset");
        row(
            &format!("M8 series {name} (40 m x 4 lines)"),
            "<= 10 s page",
            median(budget, || {
                black_box(preset.request.solve(&mut Silent).unwrap());
            }),
        );
    }
}

/// M7: the exact search on four machines and six chunks, the heuristics on
/// a thousand machines, and a Pareto front.
fn heterogeneous_rows(budget: Duration) {
    let mixed = heterogeneous::Instance::mixed();
    row(
        "M7 mixed preset (m = 4, n = 6): proven fastest",
        "<= 1000 ms",
        median(budget, || {
            black_box(mixed.solve(&mut Silent).unwrap());
        }),
    );
    let thrifty = heterogeneous::Instance {
        objective: Objective::Energy,
        ..mixed.clone()
    };
    row(
        "M7 mixed preset: proven least energy",
        "<= 1000 ms",
        median(budget, || {
            black_box(thrifty.solve(&mut Silent).unwrap());
        }),
    );
    // Four different machines drawn from the preset's rows, at loads from
    // a half to three times their RAM: the slowest proof.
    let mut slowest = Duration::ZERO;
    for k in 0..12 {
        let mut instance = mixed.clone();
        instance.machines[1].count = Count(1);
        let mut fourth = instance.machines[1].clone();
        fourth.a1 *= 1.0 + 0.1 * (k % 4) as f64;
        fourth.a2 *= 1.0 + 0.1 * (k % 4) as f64;
        fourth.rate *= 1.0 + 0.2 * (k % 3) as f64;
        instance.machines.push(fourth);
        instance.load = 22_000.0 * [0.5, 1.0, 2.0, 3.0][k % 4];
        instance.objective = if k % 2 == 0 {
            Objective::Makespan
        } else {
            Objective::Energy
        };
        let t = Instant::now();
        let r = black_box(instance.solve(&mut Silent).unwrap());
        assert_eq!(r.status, heterogeneous::Status::Optimal);
        slowest = slowest.max(t.elapsed());
    }
    row(
        "M7 m = 4 different, n = 6, 12 instances: slowest proof",
        "<= 1000 ms",
        slowest,
    );
    // Random clusters of four machines drawn from the preset's rows
    // (speeds, links and idle powers perturbed, any mode), loads from 0.3
    // to 3 times their RAM: the slowest proof of either criterion, and the
    // slowest 20-point front.
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut unit = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let modes = [Mode::On, Mode::Suspend, Mode::Hibernate, Mode::Off];
    let (mut proof, mut front) = (Duration::ZERO, Duration::ZERO);
    for k in 0..24 {
        let mut instance = mixed.clone();
        instance.machines = (0..4)
            .map(|_| {
                let mut m = mixed.machines[(unit() * 3.0) as usize].clone();
                let f = 0.7 + 0.8 * unit();
                m.count = Count(1);
                m.a1 *= f;
                m.a2 *= f;
                m.rate *= 0.5 + 1.5 * unit();
                m.mode = modes[(unit() * 4.0) as usize];
                m.power.idle *= 0.7 + 0.6 * unit();
                m
            })
            .collect();
        let ram: f64 = instance.machines.iter().map(|m| m.b2 / (m.a1 - m.a2)).sum();
        instance.load = ram * (0.3 + 2.7 * unit());
        for objective in [Objective::Makespan, Objective::Energy] {
            let one = heterogeneous::Instance {
                objective,
                ..instance.clone()
            };
            let t = Instant::now();
            black_box(one.solve(&mut Silent).unwrap());
            proof = proof.max(t.elapsed());
        }
        if k % 2 == 0 {
            let pareto = heterogeneous::Instance {
                objective: Objective::Pareto,
                ..instance
            };
            let t = Instant::now();
            black_box(pareto.solve(&mut Silent).unwrap());
            front = front.max(t.elapsed());
        }
    }
    row(
        "M7 24 random clusters of 4, n = 6: slowest proof (either criterion)",
        "<= 1000 ms",
        proof,
    );
    row(
        "M7 12 random clusters of 4, n = 6: slowest 20-point front",
        "<= 10 s",
        front,
    );
    let mut big = heterogeneous::Instance::hundred();
    for m in &mut big.machines {
        m.count = Count(250);
    }
    big.load = 5e7;
    big.min_chunk = Some(5e3);
    for algorithm in [Algorithm::Ssc, Algorithm::Gss] {
        let request = heterogeneous::Instance {
            algorithm,
            sort: SortRule::Ram,
            ..big.clone()
        };
        let chunks = request.solve(&mut Silent).unwrap().sequence.len();
        row(
            &format!("M7 {algorithm:?}, 1000 machines, {chunks} chunks, one sort rule"),
            "<= 100 ms",
            median(budget, || {
                black_box(request.solve(&mut Silent).unwrap());
            }),
        );
    }
    let front = heterogeneous::Instance {
        objective: Objective::Pareto,
        ..mixed
    };
    row(
        "M7 Pareto front, 20 points, m = 4, n = 6",
        "<= 10 s",
        median(budget, || {
            black_box(front.solve(&mut Silent).unwrap());
        }),
    );
    fits(budget);
}

/// `n` timings of a two-level machine (knee at 6 739 MB, as `[3]`'s
/// reference instance), loads spread over 100–20 000 MB, 2 % noise.
fn timings(n: usize) -> (Vec<f64>, Vec<f64>) {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut unit = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let (a1, a2, r) = (0.0102, 0.0867, 6739.0);
    let xs: Vec<f64> = (0..n).map(|_| 100.0 + 19_900.0 * unit()).collect();
    let ys = xs
        .iter()
        .map(|&x| (a1 * x).max(a2 * x - (a2 - a1) * r) * (1.0 + 0.04 * (unit() - 0.5)))
        .collect();
    (xs, ys)
}

/// M9: the exact piecewise fits with their intervals (issue 31: 10⁵
/// samples within 100 ms).
fn fits(budget: Duration) {
    for (n, target) in [(100_000, "≤ 100 ms"), (1_000_000, "")] {
        let (xs, ys) = timings(n);
        row(
            &format!("M9 two-level fit with intervals, {n} samples"),
            target,
            median(budget, || {
                black_box(fit::two_level(black_box(&xs), black_box(&ys)).unwrap());
            }),
        );
    }
    // The whole request as `dlt fit FILE.csv` makes it: reading the CSV
    // text, the fit, its intervals, the filled requests and the charts.
    let (xs, ys) = timings(100_000);
    let mut csv = String::from("size_MB,time_s\n");
    for (x, y) in xs.iter().zip(&ys) {
        csv += &format!("{x:.3},{y:.4}\n");
    }
    let body = serde_json::json!({"model": "fit", "computation": {"csv": csv}});
    let request = dlt_calc::api::Request::from_value(body).unwrap();
    row(
        "M9 whole request through api::run: 10⁵-row CSV read, two-level fit, intervals, charts",
        "≤ 100 ms",
        median(budget, || {
            black_box(dlt_calc::api::run(black_box(&request), &mut Silent).unwrap());
        }),
    );
    let (xs, ys) = timings(2_000);
    row(
        "M9 three-line fit with intervals, 2 000 distinct loads",
        "",
        median(budget, || {
            black_box(fit::k_lines(&xs, &ys, 3).unwrap());
        }),
    );
}
