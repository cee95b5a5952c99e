//! The map (M6) and MapReduce (M8) exercises against computations written
//! here: `[3]`'s formulas (13) and (15), the exact efficiency of the
//! start-up model, `[1]`'s sequential time and speedup limit, and a brute
//! force over the split for one reducer.

use dlt_calc::api::{run, Request};
use dlt_calc::core::framework::exercise::{Answer, Posed};
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::models::table1::table::PAPER;
use serde_json::{json, Value};

fn posed(seed: u64, items: &[&str]) -> Vec<Posed> {
    let request = json!({
        "model": "exercises", "title": "test", "seed": seed,
        "items": items.iter().map(|e| json!({"exercise": e})).collect::<Vec<_>>(),
    });
    let response = run(&Request::from_value(request).unwrap(), &mut Silent).unwrap();
    let exercises = serde_json::to_value(response.get("exercises").unwrap()).unwrap();
    exercises
        .as_array()
        .unwrap()
        .iter()
        .map(|e| serde_json::from_value(e.clone()).unwrap())
        .collect()
}

fn value(answer: &Answer) -> f64 {
    match answer {
        Answer::Number { value, .. } => *value,
        Answer::Choice { .. } => panic!("not a number answer"),
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs())
}

fn report(request: &Value) -> Value {
    let response = run(&Request::from_value(request.clone()).unwrap(), &mut Silent).unwrap();
    response.get("report").unwrap().clone()
}

/// (13) written out; the exact efficiency of the start-up model lies
/// between its two sides, and the exercise's answer is one of them.
#[test]
fn m6_bounds_agree_with_13_and_enclose_the_exact_efficiency() {
    for seed in 0..12 {
        let e = &posed(seed, &["isoefficiency-bounds"])[0];
        let f = |k: &str| e.request[k].as_f64().unwrap();
        let (m, n, v) = (f("machines"), f("chunks"), f("load"));
        let single =
            f("startup") + f("overhead") + f("rate") * v + (f("a1") * v).max(f("a2") * v + f("b2"));
        let upper = single / (m * f("startup") + m * f("overhead") + f("a1") * v);
        let lower =
            single / (m * f("startup") + n * m * f("overhead") + m * f("rate") * v + f("a1") * v);
        let answer = value(&e.answer);
        let asked = if e.question.ends_with("upper bound?") {
            upper
        } else {
            assert!(e.question.ends_with("lower bound?"), "seed {seed}");
            lower
        };
        assert!(
            close(answer, asked, 1e-12),
            "seed {seed}: {answer} vs {asked}"
        );
        let exact = report(&e.request)["efficiency"].as_f64().unwrap();
        assert!(
            lower * (1.0 - 1e-9) <= exact && exact <= upper * (1.0 + 1e-9),
            "seed {seed}: {lower} ≤ {exact} ≤ {upper}"
        );
    }
}

/// (15) written out, and the load it gives lies above the paper's `Vmax`
/// for that machine count (where (15) is meant to be used).
#[test]
fn m6_approximation_agrees_with_15_above_vmax() {
    for seed in 0..40 {
        let e = &posed(seed, &["isoefficiency-approximation"])[0];
        let f = |k: &str| e.request[k].as_f64().unwrap();
        let (m, n) = (f("machines"), f("chunks"));
        let level: f64 = e.question.split("<i>e</i> = ").last().unwrap()
            [..e.question.split("<i>e</i> = ").last().unwrap().len() - 1]
            .parse()
            .unwrap();
        let want = (f("b2") * (level * n - 1.0)
            + f("startup") * (level * m - 1.0)
            + f("overhead") * (level * n - 1.0))
            / ((f("rate") + f("a2")) * (1.0 - level));
        assert!(close(value(&e.answer), want, 1e-12), "seed {seed}");
        assert!(close(f("load"), want, 1e-12), "seed {seed}");
        let vmax = PAPER.iter().find(|p| p.0 as f64 == m).unwrap().2;
        assert!(want > vmax, "seed {seed}: I = {want} ≤ Vmax = {vmax}");
    }
}

/// `[1]`'s job from an M8 request: `(V, A, B, γ, S, C, r, ℓ)`.
fn job(r: &Value) -> [f64; 8] {
    let f = |v: &Value| v.as_f64().unwrap();
    let unit = f(&r["unit"]);
    [
        f(&r["load"]),
        f(&r["map"]["rate"]) + f(&r["map"]["unit_startup"]) / unit,
        f(&r["reduce"]["rate"]) + f(&r["reduce"]["unit_startup"]) / unit,
        f(&r["gamma"]),
        f(&r["startup"]),
        f(&r["rate"]),
        f(&r["reducers"]),
        f(&r["channels"]),
    ]
}

#[test]
fn m8_sequential_time_and_plateau_agree_with_their_formulas() {
    for seed in 0..40 {
        let p = posed(seed, &["mapreduce-sequential", "mapreduce-plateau"]);
        let [v, a, b, g, s, _, _, _] = job(&p[0].request);
        assert!(close(value(&p[0].answer), s + a * v + b * g * v, 1e-12));
        let [v, a, b, g, s, c, r, l] = job(&p[1].request);
        let want = (s + a * v + b * g * v) / (c * g * v / l.min(r) + b * g * v / r);
        assert!(close(value(&p[1].answer), want, 1e-12), "seed {seed}");
    }
}

/// One reducer, one channel: for a split `α`, mapper `k` finishes at
/// `(k+1)S + Aα_k`; the reducer (ready at `(m+1)S`) takes the pieces one
/// at a time, in the order they are ready (optimal for one channel), then
/// reduces everything.
fn one_reducer_time(alpha: &[f64], [v, a, b, g, s, c, _, _]: [f64; 8]) -> f64 {
    let m = alpha.len();
    let mut ready: Vec<(f64, f64)> = alpha
        .iter()
        .enumerate()
        .map(|(k, &x)| ((k + 1) as f64 * s + a * x, c * g * x))
        .collect();
    ready.sort_by(|x, y| x.0.total_cmp(&y.0));
    let mut t = (m + 1) as f64 * s;
    for (at, send) in ready {
        if send > 0.0 {
            t = t.max(at) + send;
        }
    }
    t + b * g * v
}

/// The best split of `m ≤ 3` mappers on a grid, refined around its best
/// point: a brute force independent of the calculator's LP.
fn brute_force(m: usize, job: [f64; 8]) -> f64 {
    let v = job[0];
    let time = |shares: &[f64]| {
        let mut alpha: Vec<f64> = shares.iter().map(|x| x * v).collect();
        alpha.push(v * (1.0 - shares.iter().sum::<f64>()));
        one_reducer_time(&alpha, job)
    };
    let (mut best, mut at) = (f64::INFINITY, vec![0.0; m - 1]);
    let (mut centre, mut width) = (vec![0.5; m - 1], 1.0);
    for _ in 0..30 {
        let steps = 40;
        let mut grid = vec![vec![]];
        for &c in &centre {
            grid = grid
                .into_iter()
                .flat_map(|p: Vec<f64>| {
                    (0..=steps).map(move |i| {
                        let mut q = p.clone();
                        q.push((c - width / 2.0 + width * i as f64 / steps as f64).clamp(0.0, 1.0));
                        q
                    })
                })
                .collect();
        }
        for shares in grid {
            if shares.iter().sum::<f64>() <= 1.0 {
                let t = time(&shares);
                if t < best {
                    (best, at) = (t, shares);
                }
            }
        }
        centre = at.clone();
        width /= 4.0;
    }
    best
}

#[test]
fn m8_one_reducer_agrees_with_a_brute_force_over_the_split() {
    let mut checked = 0;
    for seed in 0..40 {
        let e = &posed(seed, &["mapreduce-one-reducer"])[0];
        let m = e.request["mappers"].as_u64().unwrap() as usize;
        if m > 3 {
            continue;
        }
        let job = job(&e.request);
        let [v, a, b, g, s, ..] = job;
        let best = brute_force(m, job);
        let speedup = (s + a * v + b * g * v) / best;
        assert!(
            close(value(&e.answer), speedup, 1e-6),
            "seed {seed}: {} vs brute force {speedup}",
            value(&e.answer)
        );
        checked += 1;
    }
    assert!(checked >= 10, "{checked}");
}
