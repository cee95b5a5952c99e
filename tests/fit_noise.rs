//! M9's weighted fits, for noise that grows with the time: the weighted
//! closed forms against the tests' own solver, the exact weighted knees
//! against a brute force over fine grids, the relative fit weighing every
//! sample by its own fitted value, its intervals' coverage over 200 seeded
//! repetitions of relative noise (and the unweighted fit's on the same
//! data), the choice `--noise auto` makes, and the refusals.
#![cfg(not(target_arch = "wasm32"))]

mod cli_support;
mod rng;

use cli_support::dlt;
use dlt_calc::models::fit::{
    k_lines_weighted, line_weighted, two_level, two_level_weighted, Axis, Estimate, FitError,
    KneeFit, Origin, Weights,
};
use rng::Rng;
use serde_json::Value;

/// A standard normal deviate (Box–Muller).
fn normal(rng: &mut Rng) -> f64 {
    let u = 1.0 - rng.unit();
    let v = rng.unit();
    (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
}

/// `|got − want| ≤ tol · max(1, |want|)`.
fn close(got: f64, want: f64, tol: f64, what: &str) {
    assert!(
        (got - want).abs() <= tol * want.abs().max(1.0),
        "{what}: got {got}, want {want}"
    );
}

/// The weighted least-squares solution of `X β ≈ y` (weights `w`), by
/// Gauss–Jordan elimination on the normal equations `XᵀWX β = XᵀWy`
/// carried with the identity: `β`, `Σ w r²` and `(XᵀWX)⁻¹`. The tests'
/// own solver, sharing nothing with the crate's.
type Solved = (Vec<f64>, f64, Vec<Vec<f64>>);

fn weighted_least_squares(rows: &[Vec<f64>], y: &[f64], w: &[f64]) -> Option<Solved> {
    let p = rows[0].len();
    let mut a = vec![vec![0.0; 2 * p + 1]; p];
    for ((row, &yi), &wi) in rows.iter().zip(y).zip(w) {
        for i in 0..p {
            for j in 0..p {
                a[i][j] += wi * row[i] * row[j];
            }
            a[i][2 * p] += wi * row[i] * yi;
        }
    }
    for (i, r) in a.iter_mut().enumerate() {
        r[p + i] = 1.0;
    }
    for k in 0..p {
        let piv = (k..p).max_by(|&i, &j| a[i][k].abs().total_cmp(&a[j][k].abs()))?;
        a.swap(k, piv);
        let pivot = a[k].clone();
        let size = pivot[..p].iter().fold(0.0f64, |m, v| m.max(v.abs()));
        if pivot[k].abs() < 1e-12 * size {
            return None;
        }
        for (i, row) in a.iter_mut().enumerate() {
            if i != k {
                let f = row[k] / pivot[k];
                for (r, q) in row[k..].iter_mut().zip(&pivot[k..]) {
                    *r -= f * q;
                }
            }
        }
    }
    let beta: Vec<f64> = (0..p).map(|i| a[i][2 * p] / a[i][i]).collect();
    let inverse = (0..p)
        .map(|i| (0..p).map(|j| a[i][p + j] / a[i][i]).collect())
        .collect();
    let rss = (rows.iter().zip(y).zip(w))
        .map(|((row, yi), wi)| {
            let f: f64 = row.iter().zip(&beta).map(|(r, b)| r * b).sum();
            wi * (yi - f) * (yi - f)
        })
        .sum();
    Some((beta, rss, inverse))
}

/// Student's t, 97.5 % quantile, from its printed table.
fn t975(dof: usize) -> f64 {
    match dof {
        18 => 2.100_922,
        19 => 2.093_024,
        _ => panic!("no table entry for {dof} degrees of freedom"),
    }
}

/// A weighted line, with and without its intercept, is the weighted least
/// squares of the tests' solver: values, and standard errors
/// `σ √((XᵀWX)⁻¹)ᵢᵢ` with `σ² = Σ w r²/(n − p)`.
#[test]
fn a_weighted_line_is_the_textbook_weighted_least_squares() {
    let mut rng = Rng(71);
    let xs: Vec<f64> = (1..=20).map(|i| 10.0 * f64::from(i)).collect();
    let ys: Vec<f64> = (xs.iter())
        .map(|x| (0.3 + 0.02 * x) * (1.0 + 0.05 * normal(&mut rng)))
        .collect();
    let ws: Vec<f64> = (0..20).map(|_| rng.between(0.1, 10.0)).collect();
    for intercept in [false, true] {
        let f = line_weighted(&xs, &ys, intercept, Weights::Given(&ws)).unwrap();
        let rows: Vec<Vec<f64>> = (xs.iter())
            .map(|&x| if intercept { vec![x, 1.0] } else { vec![x] })
            .collect();
        let (beta, rss, inverse) = weighted_least_squares(&rows, &ys, &ws).unwrap();
        let dof = 20 - rows[0].len();
        let sigma = (rss / dof as f64).sqrt();
        let check = |e: &Estimate, i: usize, what: &str| {
            close(e.value, beta[i], 1e-9, what);
            let se = sigma * inverse[i][i].sqrt();
            close(e.std_error, se, 1e-7, what);
            close(e.high - e.value, t975(dof) * se, 1e-5, what);
        };
        check(&f.slope, 0, "slope");
        if intercept {
            check(&f.intercept.unwrap(), 1, "intercept");
        }
        close(f.fit.rss, rss, 1e-9, "Σ w r²");
        close(f.fit.sigma, sigma, 1e-9, "σ");
    }
}

/// `y = c + s x + Σ d_i (x − r_i)₊`.
fn hinge(c: f64, s: f64, knees: &[(f64, f64)], x: f64) -> f64 {
    c + s * x
        + knees
            .iter()
            .map(|&(r, d)| d * (x - r).max(0.0))
            .sum::<f64>()
}

/// A random data set: `n` whole loads in `[1, 100]` (some repeat), times
/// from random lines joined at random knees, with noise relative to the
/// time, and random weights (half the sets `1/y²`).
fn random_set(rng: &mut Rng, n: usize, knees: usize) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let xs: Vec<f64> = (0..n).map(|_| rng.upto(100) as f64).collect();
    let mut at: Vec<(f64, f64)> = (0..knees)
        .map(|_| (rng.between(10.0, 90.0), rng.between(0.2, 3.0)))
        .collect();
    at.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (c, s) = (rng.between(1.0, 20.0), rng.between(0.1, 1.0));
    let noise = rng.between(0.01, 0.2);
    let ys: Vec<f64> = (xs.iter())
        .map(|&x| hinge(c, s, &at, x) * (1.0 + noise * normal(rng)).max(0.05))
        .collect();
    let ws = if rng.unit() < 0.5 {
        ys.iter().map(|y| 1.0 / (y * y)).collect()
    } else {
        (0..n).map(|_| rng.log(-2.0, 2.0)).collect()
    };
    (xs, ys, ws)
}

/// The distinct loads, ascending.
fn distinct(xs: &[f64]) -> Vec<f64> {
    let mut u = xs.to_vec();
    u.sort_by(f64::total_cmp);
    u.dedup();
    u
}

/// `count` knees evenly over `[low, high]`, and every load in it.
fn grid(u: &[f64], low: f64, high: f64, count: usize) -> Vec<f64> {
    let mut g: Vec<f64> = (0..=count)
        .map(|i| low + (high - low) * i as f64 / count as f64)
        .collect();
    g.extend(u.iter().filter(|&&x| x >= low && x <= high));
    g.sort_by(f64::total_cmp);
    g
}

/// `Σ w r²` of the continuous fit with the knees held at `knees`, by the
/// tests' own solver.
fn rss_at(xs: &[f64], ys: &[f64], ws: &[f64], knees: &[f64], origin: bool) -> Option<f64> {
    let rows: Vec<Vec<f64>> = xs
        .iter()
        .map(|&x| {
            let mut row = if origin { vec![x] } else { vec![1.0, x] };
            row.extend(knees.iter().map(|&r| (x - r).max(0.0)));
            row
        })
        .collect();
    weighted_least_squares(&rows, ys, ws).map(|(_, rss, _)| rss)
}

#[test]
fn the_weighted_two_level_fit_is_never_worse_than_a_fine_grid_of_knees() {
    let mut rng = Rng(72);
    for set in 0..25 {
        let (xs, ys, ws) = random_set(&mut rng, 12 + set * 2, 1);
        let f = two_level_weighted(&xs, &ys, Origin::Through, Weights::Given(&ws)).unwrap();
        let u = distinct(&xs);
        let best = grid(&u, u[0], u[u.len() - 2], 4000)
            .into_iter()
            .filter(|&r| u.iter().filter(|&&x| x > r).count() >= 2)
            .filter_map(|r| rss_at(&xs, &ys, &ws, &[r], true))
            .fold(f64::INFINITY, f64::min);
        let scale: f64 = ys.iter().zip(&ws).map(|(y, w)| w * y * y).sum();
        assert!(
            f.fit.rss <= best * (1.0 + 1e-9) + 1e-12 * scale,
            "set {set}: exact {} > grid {best}",
            f.fit.rss
        );
        let at_knee = rss_at(&xs, &ys, &ws, &[f.r.value], true).unwrap();
        close(f.fit.rss, at_knee, 1e-7, "Σ w r² at the knee");
    }
}

#[test]
fn weighted_three_lines_are_never_worse_than_a_fine_grid_of_knee_pairs() {
    let mut rng = Rng(73);
    for set in 0..8 {
        let (xs, ys, ws) = random_set(&mut rng, 20 + set * 3, 2);
        let f = k_lines_weighted(&xs, &ys, 3, Origin::Free, Weights::Given(&ws)).unwrap();
        let u = distinct(&xs);
        let below = |r: f64| u.iter().filter(|&&x| x <= r).count();
        let g = grid(&u, u[1], u[u.len() - 3], 120);
        let mut best = f64::INFINITY;
        for (i, &r1) in g.iter().enumerate() {
            for &r2 in &g[i + 1..] {
                if below(r1) >= 2 && below(r2) >= below(r1) + 2 && u.len() >= below(r2) + 2 {
                    if let Some(rss) = rss_at(&xs, &ys, &ws, &[r1, r2], false) {
                        best = best.min(rss);
                    }
                }
            }
        }
        let scale: f64 = ys.iter().zip(&ws).map(|(y, w)| w * y * y).sum();
        assert!(
            f.fit.rss <= best * (1.0 + 1e-9) + 1e-12 * scale,
            "set {set}: exact {} > grid {best}",
            f.fit.rss
        );
    }
}

/// Two-level times `max(a1 x, a2 x + b2)` with noise `noise` of each time.
fn relative_data(rng: &mut Rng, n: usize, noise: f64) -> (Vec<f64>, Vec<f64>) {
    let (a1, a2, r) = (0.05, 0.5, 100.0);
    let xs: Vec<f64> = (0..n).map(|_| rng.between(30.0, 300.0)).collect();
    let ys = (xs.iter())
        .map(|&x| (a1 * x).max(a2 * x - (a2 - a1) * r) * (1.0 + noise * normal(rng)))
        .collect();
    (xs, ys)
}

/// The relative fit is the exact weighted fit for the weights `1/ŷ²` of
/// its own fitted values: weighing by them again changes nothing.
#[test]
fn a_relative_fit_weighs_every_sample_by_its_own_fitted_value() {
    let mut rng = Rng(74);
    for _ in 0..20 {
        let (xs, ys) = relative_data(&mut rng, 30, 0.05);
        let f = two_level_weighted(&xs, &ys, Origin::Through, Weights::Relative).unwrap();
        let own = |residuals: &[f64]| -> Vec<f64> {
            let fitted = ys.iter().zip(residuals).map(|(y, r)| y - r);
            fitted.map(|v| 1.0 / (v * v)).collect()
        };
        let ws = own(&f.fit.residuals);
        let g = two_level_weighted(&xs, &ys, Origin::Through, Weights::Given(&ws)).unwrap();
        for (a, b, what) in [(f.a1, g.a1, "a1"), (f.a2, g.a2, "a2"), (f.b2, g.b2, "b2")] {
            close(a.value, b.value, 1e-8, what);
            close(a.std_error, b.std_error, 1e-6, what);
        }
        close(f.r.value, g.r.value, 1e-8, "r");
        // A link: one line with an intercept.
        let ys: Vec<f64> = (xs.iter())
            .map(|x| (2.0 + 0.3 * x) * (1.0 + 0.05 * normal(&mut rng)))
            .collect();
        let l = line_weighted(&xs, &ys, true, Weights::Relative).unwrap();
        let fitted = ys.iter().zip(&l.fit.residuals).map(|(y, r)| y - r);
        let ws: Vec<f64> = fitted.map(|v| 1.0 / (v * v)).collect();
        let m = line_weighted(&xs, &ys, true, Weights::Given(&ws)).unwrap();
        close(l.slope.value, m.slope.value, 1e-8, "slope");
        let (b, c) = (l.intercept.unwrap(), m.intercept.unwrap());
        close(b.value, c.value, 1e-8, "intercept");
    }
}

/// How often, in 200 seeded repetitions of two-level data with noise a
/// fraction `noise` of each time, each true parameter lies in its 95 %
/// interval, `[a1, a2, b2, r]`: the relative fit's, then the unweighted
/// fit's on the same data.
fn coverage(seed: u64, n: usize, noise: f64) -> ([usize; 4], [usize; 4]) {
    let (a1, a2, r) = (0.05, 0.5, 100.0);
    let b2 = -(a2 - a1) * r;
    let mut rng = Rng(seed);
    let (mut weighted, mut plain) = ([0; 4], [0; 4]);
    let count = |hits: &mut [usize; 4], f: &KneeFit| {
        for (hit, (e, truth)) in hits
            .iter_mut()
            .zip([(f.a1, a1), (f.a2, a2), (f.b2, b2), (f.r, r)])
        {
            *hit += usize::from(e.covers(truth));
        }
    };
    for _ in 0..200 {
        let (xs, ys) = relative_data(&mut rng, n, noise);
        let f = two_level_weighted(&xs, &ys, Origin::Through, Weights::Relative).unwrap();
        count(&mut weighted, &f);
        count(&mut plain, &two_level(&xs, &ys).unwrap());
    }
    (weighted, plain)
}

#[test]
fn relative_noise_is_covered_by_the_relative_fits_intervals() {
    for (seed, n, noise) in [(81, 25, 0.05), (82, 40, 0.03), (83, 200, 0.03)] {
        let (weighted, plain) = coverage(seed, n, noise);
        println!(
            "n = {n}, noise {} % of the time: a1, a2, b2, r covered {weighted:?} of 200 \
             (relative fit), {plain:?} (unweighted fit)",
            100.0 * noise
        );
        // 95 % intervals on both sides: 180 or more hits (not too narrow)
        // and 197 or fewer (not too wide: at a true 95 %, 198 or more hits
        // of 200 has a probability of 0.23 %).
        assert!(
            weighted.iter().all(|&h| (180..=197).contains(&h)),
            "coverage {weighted:?} of 200"
        );
    }
}

/// A link `t = O + C x` timed with noise a fraction of each time,
/// messages of 1 to 1000 MB as the network preset: how often `C` and `O`
/// lie in their 95 % intervals, relative fit then unweighted fit.
fn link_coverage(seed: u64, noise: f64) -> ([usize; 2], [usize; 2]) {
    let (c, o) = (0.005, 0.075);
    let sizes = [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0];
    let mut rng = Rng(seed);
    let (mut weighted, mut plain) = ([0; 2], [0; 2]);
    for _ in 0..200 {
        let xs: Vec<f64> = sizes.iter().flat_map(|&x| [x; 3]).collect();
        let ys: Vec<f64> = (xs.iter())
            .map(|&x| (o + c * x) * (1.0 + noise * normal(&mut rng)))
            .collect();
        for (hits, weights) in [
            (&mut weighted, Weights::Relative),
            (&mut plain, Weights::Unit),
        ] {
            let f = line_weighted(&xs, &ys, true, weights).unwrap();
            hits[0] += usize::from(f.slope.covers(c));
            hits[1] += usize::from(f.intercept.unwrap().covers(o));
        }
    }
    (weighted, plain)
}

#[test]
fn a_links_relative_noise_is_covered_by_the_relative_fits_intervals() {
    let (weighted, plain) = link_coverage(84, 0.03);
    println!(
        "link, 30 messages, noise 3 % of the time: C, O covered {weighted:?} of 200 \
         (relative fit), {plain:?} (unweighted fit)"
    );
    // As above: neither too narrow nor too wide.
    assert!(
        weighted.iter().all(|&h| (180..=197).contains(&h)),
        "coverage {weighted:?} of 200"
    );
}

#[test]
fn bad_weights_have_their_typed_errors() {
    let xs: Vec<f64> = (1..=8).map(f64::from).collect();
    let ys: Vec<f64> = xs.iter().map(|x| 2.0 * x + 1.0).collect();
    let with = |i: usize, value: f64| {
        let mut w = vec![1.0; 8];
        w[i] = value;
        w
    };
    let short = [1.0; 7];
    let fit = |ws: &[f64]| line_weighted(&xs, &ys, true, Weights::Given(ws)).map(drop);
    assert_eq!(
        fit(&short),
        Err(FitError::Weights {
            samples: 8,
            weights: 7
        })
    );
    let nan = with(3, f64::NAN);
    let not_finite = FitError::NotFinite {
        index: 3,
        axis: Axis::Weight,
    };
    assert_eq!(fit(&nan), Err(not_finite.clone()));
    let zero = with(2, 0.0);
    let message = fit(&zero).unwrap_err().to_string();
    assert_eq!(
        message,
        "sample 2: the weight is 0, but weights must be positive"
    );
    let knee = two_level_weighted(&xs, &ys, Origin::Through, Weights::Given(&nan));
    assert_eq!(knee.map(drop), Err(not_finite));
}

/// Writes `text` to a file of this test run and returns its path.
fn file(name: &str, text: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

/// `dlt fit FILE --compact` with more options: its standard output.
fn fit_text(path: &str, options: &[&str]) -> String {
    let mut args = vec!["fit", path, "--compact"];
    args.extend_from_slice(options);
    let out = dlt(&args, "");
    assert!(out.success(), "{path}: {}", out.stderr);
    out.stdout
}

/// The report of `dlt fit FILE --compact` with more options.
fn report(path: &str, options: &[&str]) -> Value {
    let json: Value = serde_json::from_str(&fit_text(path, options)).unwrap();
    json["report"].clone()
}

/// `auto` takes the relative fit for times with relative noise (the
/// built-in synthetic tables have 3 %) and the unweighted one for noise of
/// one size, and says why; `absolute` is the default, to the byte.
#[test]
fn auto_chooses_the_noise_the_data_have() {
    let mut rng = Rng(85);
    let mut relative = String::from("size_MB,time_s\n");
    let mut absolute = relative.clone();
    for i in 2..=41 {
        let x = 10.0 * f64::from(i);
        let t = (0.05 * x).max(0.5 * x - 45.0);
        relative += &format!("{x},{}\n", t * (1.0 + 0.03 * normal(&mut rng)));
        absolute += &format!("{x},{}\n", t + 0.3 * normal(&mut rng));
    }
    let (relative, absolute) = (
        file("relative.csv", &relative),
        file("absolute.csv", &absolute),
    );
    let r = report(&relative, &["--noise", "auto"]);
    let fit = &r["computation"][0];
    assert_eq!(fit["noise"], "relative", "{fit}");
    assert!(fit["note"]
        .as_str()
        .unwrap()
        .contains("relative noise: BIC"));
    let a = report(&absolute, &["--noise", "auto"]);
    let fit = &a["computation"][0];
    assert!(fit.get("noise").is_none(), "{fit}");
    assert!(fit["note"]
        .as_str()
        .unwrap()
        .contains("noise of one size: BIC"));
    for path in [&relative, &absolute] {
        assert_eq!(
            fit_text(path, &["--noise", "absolute"]),
            fit_text(path, &[])
        );
    }
}

/// The presets' data with relative noise: the in-core slope `a1` of `[3]`'s
/// reference machine (0.109 s/MB) gets an interval a tenth as wide, and
/// the link's latency (0.075 s) is found to within its interval.
#[test]
fn the_presets_relative_noise_gives_tight_intervals() {
    let data = |name: &str| {
        let set = dlt_calc::models::fit::data::find(name).unwrap();
        file(&format!("{name}.csv"), set.csv)
    };
    let two_level = data("fit-two-level-000");
    let a1 = |options: &[&str]| report(&two_level, options)["computation"][0]["knee"]["a1"].clone();
    let width = |e: &Value| e["high"].as_f64().unwrap() - e["low"].as_f64().unwrap();
    let (plain, weighted) = (a1(&[]), a1(&["--noise", "relative"]));
    println!("a1: unweighted {plain}, relative {weighted}");
    assert!(
        width(&weighted) < width(&plain) / 10.0,
        "{weighted} against {plain}"
    );
    assert!(
        weighted["low"].as_f64().unwrap() <= 0.109 && 0.109 <= weighted["high"].as_f64().unwrap()
    );
    assert_eq!(
        report(&two_level, &["--noise", "auto"])["computation"][0]["noise"],
        "relative"
    );
    let network = data("fit-network-000");
    let link = report(&network, &["--as", "transfers", "--noise", "relative"]);
    let latency = &link["transfers"][0]["fit"]["intercept"];
    println!("latency: relative {latency}");
    assert_eq!(link["transfers"][0]["noise"], "relative");
    assert!(
        latency["low"].as_f64().unwrap() <= 0.075 && 0.075 <= latency["high"].as_f64().unwrap()
    );
}
