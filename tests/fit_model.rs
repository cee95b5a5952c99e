//! M9 on the command line against independent computations: data sets
//! drawn here from known parameters, written as CSV files, fitted by
//! `dlt fit FILE.csv --compact`, and every value and interval compared with
//! closed forms written here (least squares, the fixed-knee problem at the
//! knee found, the Gauss–Newton covariance, Student's t from its table);
//! the target models' filled requests hold the fitted values and solve.
#![cfg(not(target_arch = "wasm32"))]

mod cli_support;
mod rng;

use cli_support::dlt;
use rng::Rng;
use serde_json::Value;

/// Student's t, 97.5 % quantile, from its printed table.
fn t975(dof: usize) -> f64 {
    match dof {
        4 => 2.776_445,
        10 => 2.228_139,
        11 => 2.200_985,
        20 => 2.085_963,
        21 => 2.079_614,
        _ => panic!("no table entry for {dof} degrees of freedom"),
    }
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u = rng.unit().max(1e-300);
    let v = rng.unit();
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

/// Writes `text` to a file of this test run and returns its path.
fn file(name: &str, text: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// `dlt fit FILE --compact` with more options; the response.
fn fit(name: &str, csv: &str, options: &[&str]) -> Value {
    let path = file(name, csv);
    let mut args = vec!["fit", path.as_str(), "--compact"];
    args.extend_from_slice(options);
    let out = dlt(&args, "");
    assert!(out.success(), "{name}: {}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap()
}

/// `(x, y)` as `size_MB,<y>` CSV rows.
fn csv(y: &str, xs: &[f64], ys: &[f64]) -> String {
    let mut text = format!("size_MB,{y}\n");
    for (x, y) in xs.iter().zip(ys) {
        text += &format!("{x},{y}\n");
    }
    text
}

fn close(got: f64, want: f64, rel: f64) -> bool {
    (got - want).abs() <= rel * want.abs().max(1e-12)
}

/// Asserts an estimate's value, standard error and interval.
fn assert_estimate(what: &str, e: &Value, value: f64, se: f64, dof: usize) {
    let f = |k: &str| e[k].as_f64().unwrap();
    assert!(close(f("value"), value, 1e-9), "{what}: {e} vs {value}");
    assert!(close(f("std_error"), se, 1e-6), "{what}: {e} vs se {se}");
    let half = t975(dof) * se;
    assert!(close(f("low"), value - half, 1e-6), "{what}: {e} low");
    assert!(close(f("high"), value + half, 1e-6), "{what}: {e} high");
}

/// A line through the origin with 3 % noise: `A = Σxy/Σx²`, its standard
/// error `s/√Σx²` with `s² = RSS/(n − 1)`.
#[test]
fn a_line_through_the_origin_is_the_closed_form() {
    let mut rng = Rng(901);
    let xs: Vec<f64> = (1..=12).map(|i| 50.0 * f64::from(i)).collect();
    let ys: Vec<f64> = xs
        .iter()
        .map(|x| 0.25 * x * (1.0 + 0.03 * normal(&mut rng)))
        .collect();
    let json = fit("origin.csv", &csv("time_s", &xs, &ys), &["--shape", "line"]);
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| x * y).sum();
    let sxx: f64 = xs.iter().map(|x| x * x).sum();
    let a = sxy / sxx;
    let rss: f64 = xs.iter().zip(&ys).map(|(x, y)| (y - a * x).powi(2)).sum();
    let se = (rss / 11.0 / sxx).sqrt();
    let line = &json["report"]["computation"][0]["line"];
    assert_estimate("A", &line["slope"], a, se, 11);
    assert!(line["intercept"].is_null());
}

/// A link `t = S + C·size`: the textbook slope and intercept and their
/// standard errors, `n − 2` degrees of freedom.
#[test]
fn a_link_is_the_closed_form_with_its_intervals() {
    let mut rng = Rng(902);
    let xs: Vec<f64> = (0..12).map(|i| 2f64.powi(i)).collect();
    let ys: Vec<f64> = xs
        .iter()
        .map(|x| 0.08 + 0.005 * x + 0.002 * normal(&mut rng))
        .collect();
    let json = fit("link.csv", &csv("time_s", &xs, &ys), &["--as", "transfers"]);
    let n = xs.len() as f64;
    let (mx, my) = (xs.iter().sum::<f64>() / n, ys.iter().sum::<f64>() / n);
    let sxx: f64 = xs.iter().map(|x| (x - mx).powi(2)).sum();
    let sxy: f64 = xs.iter().zip(&ys).map(|(x, y)| (x - mx) * (y - my)).sum();
    let c = sxy / sxx;
    let s = my - c * mx;
    let rss: f64 = xs
        .iter()
        .zip(&ys)
        .map(|(x, y)| (y - s - c * x).powi(2))
        .sum();
    let sigma2 = rss / (n - 2.0);
    let fit = &json["report"]["transfers"][0]["fit"];
    assert_estimate("C", &fit["slope"], c, (sigma2 / sxx).sqrt(), 10);
    let se_s = (sigma2 * (1.0 / n + mx * mx / sxx)).sqrt();
    assert_estimate("S", &fit["intercept"], s, se_s, 10);
    let machine = &json["report"]["calibration"]["machines"][0];
    assert!(close(machine["rate"].as_f64().unwrap(), c, 1e-12));
    assert!(close(machine["latency"].as_f64().unwrap(), s, 1e-12));
}

/// `[3]`'s two levels, `max(a1 α, a2 α + b2)`, sampled twice per load in a
/// shuffled order.
fn two_level_data(seed: u64) -> (Vec<f64>, Vec<f64>) {
    let (a1, a2, b2) = (0.109, 4.132, -27_109.0);
    let mut rng = Rng(seed);
    let mut xs = Vec::new();
    for i in 1..=12 {
        let x = 1000.0 * f64::from(i);
        xs.extend([x, x]);
    }
    for i in (1..xs.len()).rev() {
        xs.swap(i, rng.below(i as u64 + 1) as usize);
    }
    let ys = xs
        .iter()
        .map(|&x| f64::max(a1 * x, a2 * x + b2) * (1.0 + 0.02 * normal(&mut rng)))
        .collect();
    (xs, ys)
}

/// The least-squares `(a1, a2)` and residual sum of squares of the
/// continuous two-level line with its knee held at `r`: `t = a1·min(x, r)
/// + a2·max(x − r, 0)`, two unknowns.
fn at_knee(xs: &[f64], ys: &[f64], r: f64) -> (f64, f64, f64) {
    let (mut p11, mut p12, mut p22, mut q1, mut q2) = (0.0, 0.0, 0.0, 0.0, 0.0);
    for (&x, &y) in xs.iter().zip(ys) {
        let (u, v) = (x.min(r), (x - r).max(0.0));
        p11 += u * u;
        p12 += u * v;
        p22 += v * v;
        q1 += u * y;
        q2 += v * y;
    }
    let det = p11 * p22 - p12 * p12;
    let a1 = (q1 * p22 - q2 * p12) / det;
    let a2 = (p11 * q2 - p12 * q1) / det;
    let rss = xs
        .iter()
        .zip(ys)
        .map(|(&x, &y)| (y - a1 * x.min(r) - a2 * (x - r).max(0.0)).powi(2))
        .sum();
    (a1, a2, rss)
}

/// The inverse of a symmetric 3 × 3 matrix, by cofactors.
fn inverse(m: [[f64; 3]; 3]) -> [[f64; 3]; 3] {
    let c = |i: usize, j: usize| {
        let (r0, r1) = ((i + 1) % 3, (i + 2) % 3);
        let (c0, c1) = ((j + 1) % 3, (j + 2) % 3);
        m[r0][c0] * m[r1][c1] - m[r0][c1] * m[r1][c0]
    };
    let det: f64 = (0..3).map(|j| m[0][j] * c(0, j)).sum();
    let mut inv = [[0.0; 3]; 3];
    for (i, row) in inv.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            *cell = c(j, i) / det;
        }
    }
    inv
}

/// The two-level fit is the best over a fine grid of knees (never worse),
/// its lines are the fixed-knee least squares at its knee, its standard
/// errors the Gauss–Newton covariance `σ²(JᵀJ)⁻¹` in `(a1, a2, b2)` (the
/// knee's by the delta method), and the same data sorted give the same fit.
#[test]
fn the_two_level_fit_is_the_best_knee_with_its_covariance() {
    let (xs, ys) = two_level_data(903);
    let json = fit(
        "knee.csv",
        &csv("time_s", &xs, &ys),
        &["--shape", "two-level"],
    );
    let knee = &json["report"]["computation"][0]["knee"];
    let v = |k: &str| knee[k]["value"].as_f64().unwrap();
    let (a1, a2, b2, r) = (v("a1"), v("a2"), v("b2"), v("r"));
    let (g1, g2, rss) = at_knee(&xs, &ys, r);
    assert!(close(a1, g1, 1e-7) && close(a2, g2, 1e-7), "{knee}");
    assert!(close(b2, (g1 - g2) * r, 1e-7), "{knee}");
    let best_grid = (0..=11_000)
        .map(|i| at_knee(&xs, &ys, 1000.0 + f64::from(i)).2)
        .fold(f64::INFINITY, f64::min);
    assert!(rss <= best_grid * (1.0 + 1e-12), "{rss} > {best_grid}");
    // Jacobian in (a1, a2, b2): x below the knee for a1, (x, 1) above.
    let mut m = [[0.0; 3]; 3];
    for &x in &xs {
        let g = if x <= r { [x, 0.0, 0.0] } else { [0.0, x, 1.0] };
        for i in 0..3 {
            for j in 0..3 {
                m[i][j] += g[i] * g[j];
            }
        }
    }
    let dof = xs.len() - 3;
    let cov = inverse(m).map(|row| row.map(|c| c * rss / dof as f64));
    assert_estimate("a1", &knee["a1"], a1, cov[0][0].sqrt(), dof);
    assert_estimate("a2", &knee["a2"], a2, cov[1][1].sqrt(), dof);
    assert_estimate("b2", &knee["b2"], b2, cov[2][2].sqrt(), dof);
    let grad = [
        -b2 / (a1 - a2).powi(2),
        b2 / (a1 - a2).powi(2),
        1.0 / (a1 - a2),
    ];
    let var_r: f64 = (0..3)
        .flat_map(|i| (0..3).map(move |j| (i, j)))
        .map(|(i, j)| grad[i] * cov[i][j] * grad[j])
        .sum();
    assert_estimate("r", &knee["r"], r, var_r.sqrt(), dof);
    // Sorted, the same fit.
    let mut pairs: Vec<(f64, f64)> = xs.iter().copied().zip(ys.iter().copied()).collect();
    pairs.sort_by(|p, q| p.0.total_cmp(&q.0));
    let (sx, sy): (Vec<f64>, Vec<f64>) = pairs.into_iter().unzip();
    let sorted = fit(
        "sorted.csv",
        &csv("time_s", &sx, &sy),
        &["--shape", "two-level"],
    );
    let other = &sorted["report"]["computation"][0]["knee"];
    for k in ["a1", "a2", "b2", "r"] {
        let w = other[k]["value"].as_f64().unwrap();
        assert!(close(w, v(k), 1e-9), "{k}: {w} vs {}", v(k));
    }
}

/// Three lines (M3's form) on exact data: the lines and knees given back.
#[test]
fn three_lines_on_exact_data_are_given_back() {
    let lines = [(0.0, 0.1), (-2_000.0, 2.1), (-62_000.0, 8.1)];
    let t = |x: f64| {
        lines
            .iter()
            .map(|(b, a)| b + a * x)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let xs: Vec<f64> = (1..=30).map(|i| 500.0 * f64::from(i)).collect();
    let ys: Vec<f64> = xs.iter().map(|&x| t(x)).collect();
    let json = fit(
        "lines.csv",
        &csv("time_s", &xs, &ys),
        &["--shape", "lines", "--lines", "3"],
    );
    let got = &json["report"]["computation"][0]["lines"];
    for (k, (b, a)) in lines.iter().enumerate() {
        let line = &got["lines"][k];
        let slope = line["slope"]["value"].as_f64().unwrap();
        let intercept = line["intercept"]["value"].as_f64().unwrap_or(0.0);
        assert!((slope - a).abs() < 1e-9 * a.max(1.0), "{line}");
        assert!((intercept - b).abs() < 1e-6, "{line}");
    }
    // Knees where neighbouring lines meet: 1 000 MB and 10 000 MB.
    let knees: Vec<f64> = got["knees"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["value"].as_f64().unwrap())
        .collect();
    assert!(close(knees[0], 1_000.0, 1e-9) && close(knees[1], 10_000.0, 1e-9));
}

/// Lines whose first intercept comes out negative (a negative time for no
/// load, which M3 refuses) are fitted again with the first line through
/// the origin: for two lines, exactly `[3]`'s two levels, and the request
/// the fit offers M3 solves.
#[test]
fn lines_with_a_negative_time_at_zero_pass_through_the_origin() {
    let t = |x: f64| (0.1 * x - 0.5).max(2.1 * x - 2_000.0);
    let xs: Vec<f64> = (1..=30).map(|i| 100.0 * f64::from(i)).collect();
    let ys: Vec<f64> = xs.iter().map(|&x| t(x)).collect();
    let data = csv("time_s", &xs, &ys);
    let json = fit("negative.csv", &data, &["--shape", "lines", "--lines", "2"]);
    let fitted = &json["report"]["computation"][0];
    let note = fitted["note"].as_str().unwrap();
    assert!(note.contains("first line through the origin"), "{note}");
    assert!(note.contains("-0.5 s for no load"), "{note}");
    let lines = &fitted["lines"];
    assert!(lines["lines"][0]["intercept"].is_null(), "{lines}");
    let two = fit("negative-two.csv", &data, &["--shape", "two-level"]);
    let knee = &two["report"]["computation"][0]["knee"];
    let value = |v: &Value| v["value"].as_f64().unwrap();
    let pairs = [
        (value(&lines["lines"][0]["slope"]), value(&knee["a1"])),
        (value(&lines["lines"][1]["slope"]), value(&knee["a2"])),
        (value(&lines["lines"][1]["intercept"]), value(&knee["b2"])),
        (value(&lines["knees"][0]), value(&knee["r"])),
    ];
    for (got, want) in pairs {
        assert!(close(got, want, 1e-9), "{got} vs {want}");
    }
    let m3 = &json["report"]["requests"]["hierarchical"];
    assert_eq!(m3["processors"][0]["levels"][0]["intercept"], 0.0);
    let out = dlt(&["solve", "--compact"], &m3.to_string());
    assert!(out.success(), "{}", out.stderr);
}

/// Lines whose slopes do not increase (a step smoothed, as GNU sort's
/// spill) are no maximum of lines: the models get the one line, and the
/// note says so.
#[test]
fn lines_that_are_not_convex_give_the_models_one_line() {
    let t = |x: f64| match x {
        x if x < 1_000.0 => 0.1 * x,
        x if x < 2_000.0 => 100.0 + 2.0 * (x - 1_000.0),
        x => 2_100.0 + 0.5 * (x - 2_000.0),
    };
    let xs: Vec<f64> = (1..=30).map(|i| 100.0 * f64::from(i)).collect();
    let ys: Vec<f64> = xs.iter().map(|&x| t(x)).collect();
    let json = fit(
        "not-convex.csv",
        &csv("time_s", &xs, &ys),
        &["--shape", "lines", "--lines", "3"],
    );
    let fitted = &json["report"]["computation"][0];
    assert_eq!(fitted["lines"]["convex"], false);
    let note = fitted["note"].as_str().unwrap();
    assert!(note.contains("the models get the one line"), "{note}");
    let levels = &json["report"]["requests"]["hierarchical"]["processors"][0]["levels"];
    assert_eq!(levels.as_array().map(Vec::len), Some(1), "{levels}");
    let slope = fitted["line"]["slope"]["value"].as_f64().unwrap();
    assert_eq!(levels[0]["slope"].as_f64(), Some(slope));
    let m3 = &json["report"]["requests"]["hierarchical"];
    assert!(dlt(&["solve", "--compact"], &m3.to_string()).success());
}

/// The runs check reads its own request: the measured preset's is the
/// fit's, so nothing is said; fitted afresh with three lines, the fit's
/// levels differ from the checked request's, and the report names them.
#[test]
fn a_runs_check_against_other_parameters_than_the_fit_says_so() {
    let preset = dlt(&["example", "fit-sqlite"], "").stdout;
    let same = dlt(&["solve", "--compact"], &preset);
    let same: Value = serde_json::from_str(&same.stdout).unwrap();
    assert!(same["report"]["validity"]["unlike_fit"].is_null());
    let mut request: Value = serde_json::from_str(&preset).unwrap();
    request["shape"] = "lines".into();
    request["lines"] = 3.into();
    let other = dlt(&["solve", "--compact"], &request.to_string());
    let other: Value = serde_json::from_str(&other.stdout).unwrap();
    assert_eq!(
        other["report"]["validity"]["unlike_fit"],
        serde_json::json!(["processors[0].levels", "processors[1].levels"])
    );
}

/// Power readings per state: each mean with its `t·s/√n` interval, and
/// the idle factor `k = P_C/P_idle` (`[1]`'s 1.8 from its table's rows).
#[test]
fn powers_are_means_with_their_intervals() {
    let compute = [126.0, 128.5, 127.9, 129.2, 128.0];
    let idle = [70.1, 71.3, 69.8, 70.6, 71.0];
    let mut text = String::from("state,power_W\n");
    for p in compute {
        text += &format!("compute,{p}\n");
    }
    for p in idle {
        text += &format!("idle,{p}\n");
    }
    let json = fit("power.csv", &text, &[]);
    let fitted = &json["report"]["power"][0]["fit"];
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let se = |v: &[f64]| {
        let m = mean(v);
        let s2 = v.iter().map(|x| (x - m).powi(2)).sum::<f64>() / (v.len() - 1) as f64;
        (s2 / v.len() as f64).sqrt()
    };
    assert_estimate(
        "P_C",
        &fitted["compute"]["estimate"],
        mean(&compute),
        se(&compute),
        4,
    );
    assert_estimate(
        "idle",
        &fitted["idle"]["estimate"],
        mean(&idle),
        se(&idle),
        4,
    );
    let k = fitted["k"]["value"].as_f64().unwrap();
    assert!(close(k, mean(&compute) / mean(&idle), 1e-12), "{k}");
}

/// The `--csv` output: one row per parameter, the same numbers as the
/// JSON (within printing), with units.
#[test]
fn the_csv_lists_every_parameter_with_its_unit() {
    let (xs, ys) = two_level_data(904);
    let path = file(
        "knee-csv.csv",
        &csv(
            "time_ms",
            &xs,
            &ys.iter().map(|y| y * 1e3).collect::<Vec<_>>(),
        ),
    );
    let out = dlt(&["fit", &path, "--shape", "two-level", "--csv"], "");
    assert!(out.success(), "{}", out.stderr);
    let mut lines = out.stdout.lines();
    assert_eq!(
        lines.next(),
        Some("machine,parameter,value,unit,std_error,low,high")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let names: Vec<(&str, &str)> = rows.iter().map(|r| (r[1], r[3])).collect();
    assert_eq!(
        names,
        [
            ("computation.a1", "s/MB"),
            ("computation.a2", "s/MB"),
            ("computation.b2", "s"),
            ("computation.r", "MB")
        ]
    );
    // Times in ms are read as seconds: the knee is where it is in s.
    let (.., r_s) = {
        let json = fit(
            "knee-s.csv",
            &csv("time_s", &xs, &ys),
            &["--shape", "two-level"],
        );
        let k = &json["report"]["computation"][0]["knee"];
        ((), k["r"]["value"].as_f64().unwrap())
    };
    let r: f64 = rows[3][2].parse().unwrap();
    assert!(close(r, r_s, 1e-9), "{r} vs {r_s}");
    for row in &rows {
        let [value, low, high]: [f64; 3] = [2, 5, 6].map(|k| row[k].parse().unwrap());
        assert!(low <= value && value <= high, "{row:?}");
    }
}

/// The value at `path` (`machines[1].a1`) of a JSON request.
fn at<'a>(request: &'a Value, path: &str) -> &'a Value {
    let mut here = request;
    for part in path.split('.') {
        let (name, index) = match part.split_once('[') {
            Some((name, rest)) => (name, rest.trim_end_matches(']').parse::<usize>().ok()),
            None => (part, None),
        };
        here = &here[name];
        if let Some(i) = index {
            here = &here[i];
        }
    }
    here
}

/// The chunk each machine gets in a target's load: 1.5 times the fitted
/// knee, or the largest chunk measured when that is past the knee but
/// smaller (`Fitted::telling_chunk`).
fn telling_chunk(json: &Value, sizes: &[f64]) -> f64 {
    let knee = &json["report"]["computation"][0]["knee"];
    let number = |name: &str| knee[name]["value"].as_f64().unwrap_or(f64::NAN);
    let r = -number("b2") / (number("a2") - number("a1"));
    let largest = sizes.iter().copied().fold(0.0, f64::max);
    if largest > r {
        largest.min(1.5 * r)
    } else {
        1.5 * r
    }
}

/// The fitted values each filled field may hold, by the field's last name.
fn expected(json: &Value, field: &str) -> Vec<Value> {
    let report = &json["report"];
    let link = &report["transfers"][0]["fit"];
    let knee = &report["computation"][0]["knee"];
    let value = |v: &Value| v["value"].clone();
    let levels = serde_json::json!([
        {"intercept": 0.0, "slope": knee["a1"]["value"]},
        {"intercept": knee["b2"]["value"], "slope": knee["a2"]["value"]},
    ]);
    let name = field.rsplit('.').next().unwrap();
    match name {
        "rate" => vec![value(&link["slope"])],
        "startup" | "overhead" => vec![value(&link["intercept"])],
        "a1" | "a2" | "b2" => vec![value(&knee[name])],
        "levels" => vec![levels],
        "compute" => vec![value(&report["computation"][0]["line"]["slope"])],
        _ => panic!("no expectation for {field}"),
    }
}

/// A link and a two-level machine in one request: M2, M3, M4, M5 and M7
/// each get the fitted numbers in the fields they say they filled, and
/// each filled request solves, also through the issue's pipe
/// (`.report.requests.startup` to `dlt solve`).
#[test]
fn the_filled_requests_hold_the_fitted_values_and_solve() {
    let (xs, ys) = two_level_data(905);
    let mut rng = Rng(906);
    let sizes: Vec<f64> = (0..10).map(|i| 2f64.powi(i)).collect();
    let times: Vec<f64> = sizes
        .iter()
        .map(|x| 0.05 + 0.004 * x + 0.001 * normal(&mut rng).abs())
        .collect();
    let request = serde_json::json!({
        "model": "fit",
        "computation": {"csv": csv("time_s", &xs, &ys)},
        "transfers": {"csv": csv("time_s", &sizes, &times)},
        "shape": "two-level",
    });
    let path = file("both.json", &request.to_string());
    let out = dlt(&["fit", &path, "--compact"], "");
    assert!(out.success(), "{}", out.stderr);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    let requests = json["report"]["requests"].as_object().unwrap();
    for model in [
        "linear",
        "hierarchical",
        "installments",
        "startup",
        "heterogeneous",
    ] {
        let filled = json["report"]["filled"][model].as_array().unwrap();
        assert!(!filled.is_empty(), "{model}");
        // M4's series of loads and M7's row count are chosen for the fit,
        // not fitted values.
        // So is a cost set to 0 because nothing measured it.
        let changes = json["report"]["changes"][model].as_array().unwrap();
        let unmeasured =
            |f: &str| (changes.iter()).any(|c| c["field"] == f && c["to"] == "0" && c["why"] != "");
        let fitted = |f: &&str| !f.ends_with("series") && !f.ends_with("length") && !unmeasured(f);
        for field in filled.iter().filter_map(Value::as_str).filter(fitted) {
            let got = at(&requests[model], field);
            if field == "load" {
                let per = telling_chunk(&json, &xs);
                let machines = got.as_f64().unwrap_or(f64::NAN) / per;
                let whole = (machines - machines.round()).abs() < 1e-9 * machines;
                assert!(
                    whole && machines >= 1.0,
                    "{model}.load: {got}, chunks of {per}"
                );
                continue;
            }
            let want = expected(&json, field);
            assert!(want.contains(got), "{model}.{field}: {got} not in {want:?}");
        }
        let solved = dlt(&["solve", "--compact"], &requests[model].to_string());
        assert!(solved.success(), "{model}: {}", solved.stderr);
    }
}

/// Measured runs against M2 (`--as runs --request`): each run's predicted
/// makespan is M2's own answer at the run's load (`dlt solve`), and its
/// error `(C^R − C^T)/C^T`; the CSV lists all three.
#[test]
fn runs_are_checked_against_the_models_own_answer() {
    let example = dlt(&["example", "linear"], "").stdout;
    let request = file("m2.json", &example);
    let runs = file("runs.csv", "run,load_MB,time_s\nA,1000,600\nB,2000,900\n");
    let out = dlt(
        &["fit", &runs, "--as", "runs", "--request", &request, "--csv"],
        "",
    );
    assert!(out.success(), "{}", out.stderr);
    let cells: Vec<Vec<String>> = out
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    let value = |name: &str| -> f64 {
        let row = cells.iter().find(|r| r[1] == name).unwrap();
        row[2].parse().unwrap()
    };
    for (run, load, measured) in [("A", 1000.0, 600.0), ("B", 2000.0, 900.0)] {
        let mut m2: Value = serde_json::from_str(&example).unwrap();
        m2["load"] = serde_json::json!(load);
        let solved = dlt(&["solve", "--compact"], &m2.to_string());
        assert!(solved.success(), "{}", solved.stderr);
        let answer: Value = serde_json::from_str(&solved.stdout).unwrap();
        let makespan = answer["report"]["makespan"].as_f64().unwrap();
        let predicted = value(&format!("validity.{run}.predicted"));
        assert!(
            close(predicted, makespan, 1e-9),
            "{run}: {predicted} vs {makespan}"
        );
        let error = value(&format!("validity.{run}.error"));
        assert!(
            close(error, (measured - makespan) / makespan, 1e-9),
            "{run}: {error}"
        );
        assert!(close(
            value(&format!("validity.{run}.measured")),
            measured,
            0.0
        ));
    }
}

/// The measured presets give again the figures `docs/real-run.md`
/// reports for them: the knee their fit found and M3's mean error over
/// their runs (the loop's own `dlt fit --as runs`).
#[test]
fn the_measured_presets_give_the_documented_knee_and_error() {
    for (preset, knee, error) in [("fit-sqlite", 7.3, 0.079), ("fit-sort", 9.6, 0.194)] {
        let request = dlt(&["example", preset], "");
        assert!(request.success(), "{preset}: {}", request.stderr);
        let out = dlt(&["solve", "--compact"], &request.stdout);
        assert!(out.success(), "{preset}: {}", out.stderr);
        let answer: Value = serde_json::from_str(&out.stdout).unwrap();
        let report = &answer["report"];
        let r = report["computation"][0]["knee"]["r"]["value"]
            .as_f64()
            .unwrap();
        let mean = report["validity"]["mean_abs_error"].as_f64().unwrap();
        assert!(
            (r - knee).abs() < 0.05,
            "{preset}: knee {r} MB, documented {knee}"
        );
        assert!(
            (mean - error).abs() < 0.0005,
            "{preset}: error {mean}, documented {error}"
        );
        assert_eq!(
            report["validity"]["runs"].as_array().map(Vec::len),
            Some(10)
        );
    }
}
