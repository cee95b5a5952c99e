//! M1 (`[5]`): the lecture's closed forms, the laws fitted to measured
//! runs, and formulas that are wrong in every way a student may type them.
#![cfg(not(target_arch = "wasm32"))]

use dlt_calc::core::domain::error::Error;
use dlt_calc::models::metrics::{Measured, Metrics, Range, Request};

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * b.abs().max(1e-300)
}

/// Adding `n` numbers: `T_o = 2 p log p`, so at `E = 0.8` (`K = 4`) the
/// isoefficiency function is `W = 8 p log₂ p`, exactly.
#[test]
fn adding_numbers_has_isoefficiency_8_p_log_p() {
    let report = Metrics::adding().solve().unwrap();
    let iso = &report.isoefficiency;
    assert!(iso.points.len() > 100);
    for q in &iso.points {
        let want = 8.0 * q.p * q.p.log2();
        assert!(
            close(q.work, want, 1e-9),
            "p = {}: {} vs {want}",
            q.p,
            q.work
        );
    }
    assert_eq!(iso.order.as_deref(), Some("Θ(p log p)"));
    assert!(iso.missing.is_empty());
    // The curves: S = T_s/T_p, E = S/p, T_o = p T_p − T_s.
    let c = report.curves.iter().find(|c| c.p == 16.0).unwrap();
    let tp = 1024.0 / 16.0 + 2.0 * 4.0;
    assert!(close(c.time, tp, 1e-12) && close(c.speedup, 1024.0 / tp, 1e-12));
    assert!(close(c.efficiency, 1024.0 / tp / 16.0, 1e-12));
    assert!(close(c.overhead, 16.0 * tp - 1024.0, 1e-12));
}

/// With the natural logarithm, `T_p = n/p + 2 ln p` is least at `p = n/2`
/// (`T_min = 2 + 2 ln(n/2)`); with the lecture's `log₂`, at `n ln 2/2`.
#[test]
fn minimum_time_at_n_over_2() {
    let mut request = Metrics::adding();
    request.parallel = "n/p + 2*ln(p)".into();
    let m = request.solve().unwrap().min_time;
    assert!(m.interior);
    assert!(close(m.p, 512.0, 1e-9), "{}", m.p);
    assert!(close(m.time, 2.0 + 2.0 * 512f64.ln(), 1e-12));
    assert_eq!(m.p_whole, 512.0);
    let m = Metrics::adding().solve().unwrap().min_time;
    assert!(close(m.p, 1024.0 * 2f64.ln() / 2.0, 1e-9), "{}", m.p);
    assert!(m.p_whole == 354.0 || m.p_whole == 355.0);
}

/// `T_o = p^{3/2} + p^{3/4} W^{3/4}`: the local exponent tends to 3.
#[test]
fn the_cubic_example_tends_to_p_cubed() {
    let mut previous = 0.0;
    for to in [16.0, 128.0, 1024.0, 1e5] {
        let mut request = Metrics::cubic();
        request.processors = Range { from: 1.0, to };
        let iso = request.solve().unwrap().isoefficiency;
        let exponent = iso.exponent.unwrap();
        assert!(
            exponent > previous - 1e-9 && exponent <= 3.0 + 1e-6,
            "{to}: {exponent}"
        );
        previous = exponent;
    }
    assert!((previous - 3.0).abs() < 1e-3, "{previous}");
}

/// Karp–Flatt from a table, by the formula; a growing `f` is said to be
/// rising overhead.
#[test]
fn karp_flatt_on_a_table() {
    let mut request = Metrics::adding();
    request.measured = [(1.0, 100.0), (2.0, 52.0), (4.0, 28.0), (8.0, 20.0)]
        .map(|(p, time)| Measured { p, time })
        .to_vec();
    let report = request.solve().unwrap();
    let rows = &report.karp_flatt;
    assert_eq!(rows.len(), 3, "no row for p = 1");
    for (row, (p, time)) in rows.iter().zip([(2.0, 52.0), (4.0, 28.0), (8.0, 20.0)]) {
        let s: f64 = 100.0 / time;
        let f = (1.0 / s - 1.0 / p) / (1.0 - 1.0 / p);
        assert!(close(row.serial_fraction, f, 1e-12));
    }
    assert!(report.karp_flatt_trend.unwrap().contains("grows"));
    // Without p = 1, the speedups are against T_s(W) = 1024.
    request.measured.remove(0);
    let rows = request.solve().unwrap().karp_flatt;
    assert!(close(rows[0].speedup, 1024.0 / 52.0, 1e-12));
}

/// The universal scalability law recovers the `σ, κ, λ` its data came from.
#[test]
fn usl_recovers_known_parameters() {
    for (sigma, kappa, lambda) in [(0.04, 0.0015, 0.5), (0.1, 0.0, 2.0), (0.0, 0.002, 1.0)] {
        let mut request = Metrics::contention();
        request.measured = [1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0, 32.0]
            .map(|p: f64| Measured {
                p,
                time: (1.0 + sigma * (p - 1.0) + kappa * p * (p - 1.0)) / (lambda * p),
            })
            .to_vec();
        let usl = request.solve().unwrap().usl.unwrap();
        assert!(
            (usl.sigma - sigma).abs() < 1e-6,
            "σ {} vs {sigma}",
            usl.sigma
        );
        assert!(
            (usl.kappa - kappa).abs() < 1e-7,
            "κ {} vs {kappa}",
            usl.kappa
        );
        assert!(
            close(usl.lambda, lambda, 1e-6),
            "λ {} vs {lambda}",
            usl.lambda
        );
        assert_eq!(usl.peak.is_some(), kappa > 0.0, "{usl:?}");
    }
}

/// Isospeed: `Ψ = p′W/(pW′)`, and isospeed-e with the marked speeds.
#[test]
fn isospeed_and_isospeed_e() {
    let mut request = Metrics::adding();
    request.isospeed = Some(dlt_calc::models::metrics::Isospeed {
        p: 4.0,
        work: 1000.0,
        p2: 16.0,
        work2: 5000.0,
        speeds: vec![1.0, 1.0, 2.0, 2.0],
        speeds2: vec![1.0; 16],
    });
    let s = request.solve().unwrap().isospeed.unwrap();
    assert!(close(s.psi, 16.0 * 1000.0 / (4.0 * 5000.0), 1e-12));
    assert!(close(
        s.psi_e.unwrap(),
        16.0 * 1000.0 / (6.0 * 5000.0),
        1e-12
    ));
}

fn field_error(request: &Request) -> (String, String) {
    match request.solve() {
        Err(Error::Field { field, invalid }) => (field, invalid.to_string()),
        other => panic!("not a field error: {other:?}"),
    }
}

/// Bad formulas name the field, what is wrong and where; never a NaN.
#[test]
fn bad_formulas_are_named_with_their_position() {
    let cases = [
        ("parallel", "n/foo(p)", "unknown function `foo` at 3"),
        ("parallel", "n/p + q", "unknown name `q` at 7"),
        ("serial", "n*p", "depends on W only: `p` at 3"),
        (
            "parallel",
            "n/p - 100",
            "is not a positive time at W = 1024, p = ",
        ),
        (
            "parallel",
            "n/(p - 1)",
            "is not a positive time at W = 1024, p = 1 (got infinity)",
        ),
        ("parallel", "(n/p", "the parenthesis at 1 is not closed"),
    ];
    for (field, text, want) in cases {
        let mut request = Metrics::adding();
        match field {
            "serial" => request.serial = text.into(),
            _ => request.parallel = text.into(),
        }
        let (got_field, message) = field_error(&request);
        assert_eq!(got_field, field, "{text}");
        assert!(message.starts_with(want), "{text}: {message}");
    }
}

/// Where no work reaches the efficiency (it does not depend on `W`), each
/// `p` says so instead of giving a number.
#[test]
fn no_isoefficiency_solution_is_said() {
    let mut request = Metrics::adding();
    request.parallel = "2*n/p".into();
    let iso = request.solve().unwrap().isoefficiency;
    assert!(iso.points.is_empty());
    assert!(
        iso.missing[0].starts_with("p = 2: no W"),
        "{:?}",
        iso.missing
    );
    assert!(iso.order.is_none() && iso.exponent.is_none());
}

/// The term of `T_p` that makes the overhead is named: for adding numbers
/// `2 log p` (all of `T_o`), for edge detection the communication term.
#[test]
fn the_dominant_overhead_term_is_named() {
    let iso = Metrics::adding().solve().unwrap().isoefficiency;
    assert!(
        iso.dominant
            .as_deref()
            .unwrap()
            .starts_with("the term 2 log p of T_p gives 100 %"),
        "{:?}",
        iso.dominant
    );
    let iso = Metrics::edge_detection().solve().unwrap().isoefficiency;
    assert!(
        iso.dominant
            .as_deref()
            .unwrap()
            .starts_with("the term 2(t_s + t_w n) of T_p gives 100 %"),
        "{:?}",
        iso.dominant
    );
    // One term: nothing to say.
    assert!(Metrics::cubic()
        .solve()
        .unwrap()
        .isoefficiency
        .dominant
        .is_none());
}

/// Amdahl's and Gustafson's laws for the fitted `f`, over the measured range.
#[test]
fn the_laws_follow_the_fitted_fraction() {
    let report = Metrics::matrix_vector().solve().unwrap();
    let f = report.amdahl_fraction.unwrap();
    let last = report.laws.last().unwrap();
    assert_eq!(last.p, 64.0);
    assert!(close(last.amdahl, 1.0 / (f + (1.0 - f) / 64.0), 1e-12));
    assert!(close(last.gustafson, f + (1.0 - f) * 64.0, 1e-12));
    assert!(last.usl.is_some());
}

/// The least cost-optimal time: adding `n = 1024` numbers keeps `E ≥ 0.8`
/// up to the `p` with `8 p log₂ p = 1024`.
#[test]
fn the_least_cost_optimal_time() {
    let report = Metrics::adding().solve().unwrap();
    let c = report.cost_optimal.unwrap();
    assert!((8.0 * c.p * c.p.log2() - 1024.0).abs() < 1.0, "p = {}", c.p);
    assert!(close(c.time, 1024.0 / c.p + 2.0 * c.p.log2(), 1e-12));
    let mut small = Metrics::adding();
    small.work = 10.0;
    assert!(small.solve().unwrap().cost_optimal.is_none());
}

/// `dlt check` and `solve` agree: a time that is not positive somewhere
/// is found by the check, before any work (the fuzz harness's cases).
#[test]
fn times_that_are_not_positive_are_found_by_the_check() {
    use dlt_calc::core::domain::error::Validate;
    let mut negative = Metrics::edge_detection();
    negative.constants.insert("t_c".into(), -1.0);
    let mut infinite = Metrics::adding();
    infinite.serial = "1e999".into();
    for (request, field) in [(negative, "serial"), (infinite, "serial")] {
        let problems = request.problems();
        assert_eq!(
            problems.first().and_then(|e| e.field_path()),
            Some(field),
            "{problems:?}"
        );
    }
}

/// Runs far slower with more processors (a speedup near 0): Amdahl's
/// fraction stays a fraction and every law's curve stays finite (fuzz case:
/// a run time of 1e18).
#[test]
fn amdahl_fraction_stays_a_fraction() {
    let mut request = Metrics::matrix_vector();
    request.measured[2].time = 1e18;
    let report = request.solve().unwrap();
    let f = report.amdahl_fraction.unwrap();
    assert!((0.0..=1.0).contains(&f), "{f}");
    assert!(report
        .laws
        .iter()
        .all(|l| l.amdahl.is_finite() && l.gustafson.is_finite()));
}

/// A constant named like a variable, a built-in number or a function, or
/// with a name no formula can write, is refused by its name: it would be
/// silently shadowed or unusable (`{"e": 100}` kept Euler's e).
#[test]
fn constants_that_formulas_cannot_read_as_themselves_are_refused() {
    use dlt_calc::core::domain::error::Validate;
    let cases = [
        ("e", "is Euler's number e"),
        ("E", "is Euler's number e"),
        ("pi", "is the number π"),
        ("p", "is a variable of the formulas (p)"),
        ("W", "is a variable of the formulas (W)"),
        ("n", "is a variable of the formulas (n)"),
        ("log", "is the function log"),
        ("sqrt", "is the function sqrt"),
        ("", "must be a name a formula can write"),
        ("t s", "must be a name a formula can write"),
        ("2x", "must be a name a formula can write"),
    ];
    for (name, want) in cases {
        let mut request = Metrics::adding();
        request.constants.insert(name.into(), 100.0);
        let problems = request.problems();
        let field = format!("constants.{name}");
        let hit = problems
            .iter()
            .find(|p| p.field_path() == Some(field.as_str()));
        let message = hit.map(|p| p.invalid().unwrap().to_string());
        assert!(
            message.as_deref().is_some_and(|m| m.starts_with(want)),
            "{name:?}: {problems:?}"
        );
    }
    let mut fine = Metrics::adding();
    fine.constants.insert("t_s".into(), 5.0);
    assert!(fine.problems().is_empty());
}

/// Powers read from the right in a request's formula, as in mathematics:
/// `2^3^2` is 512.
#[test]
fn powers_read_from_the_right() {
    let mut request = Metrics::adding();
    request.serial = "W * 2^3^2".into();
    request.parallel = "W * 2^3^2 / p".into();
    let report = request.solve().unwrap();
    let first = &report.curves[0];
    assert!(close(first.cost, 512.0 * request.work, 1e-12), "{first:?}");
}

/// The presets' labels show their formulas in the lecture's notation
/// (`T_p = n/p + 2 log p`), and typed in as shown they are the presets'
/// formulas: the same `T_p` (or `T_o = p T_p − T_s`) at every point tried.
#[test]
fn the_presets_formulas_type_in_as_their_labels_show() {
    use dlt_calc::models::metrics::Formula;
    let mut tried = 0;
    for (name, _, label) in dlt_calc::api::examples() {
        let Some(request) = dlt_calc::api::Request::example(name) else {
            continue;
        };
        if request.model() != "metrics" {
            continue;
        }
        let mut json = request.to_json();
        json.as_object_mut().unwrap().remove("model");
        let request: Request = serde_json::from_value(json).unwrap();
        for (mark, overhead) in [("T_p = ", false), ("T_o = ", true)] {
            let Some((_, rest)) = label.split_once(mark) else {
                continue;
            };
            let typed = rest.split([',', ':']).next().unwrap().trim();
            let typed = Formula::new(typed, true, &request.constants)
                .unwrap_or_else(|e| panic!("{name}: {typed:?} does not type in: {e}"));
            let serial = Formula::new(&request.serial, false, &request.constants).unwrap();
            let parallel = Formula::new(&request.parallel, true, &request.constants).unwrap();
            for (w, p) in [(1024.0, 2.0), (4096.0, 64.0), (1e6, 1000.0), (7.0, 3.0)] {
                let want = if overhead {
                    p * parallel.at(w, p) - serial.at(w, 1.0)
                } else {
                    parallel.at(w, p)
                };
                let got = typed.at(w, p);
                assert!(
                    close(got, want, 1e-12),
                    "{name}: {got} vs {want} at W = {w}, p = {p}"
                );
            }
            tried += 1;
        }
    }
    assert!(tried >= 4, "only {tried} formulas in the labels");
}

/// Two measured runs on the same `p` are refused (not merged), naming the
/// run that came first; they would give two Karp–Flatt rows for one `p`.
#[test]
fn measured_runs_repeating_a_processor_count_are_refused() {
    let mut request = Metrics::matrix_vector();
    let repeated = Measured {
        p: 4.0,
        time: request.measured[2].time * 1.1,
    };
    request.measured.push(repeated);
    let (field, message) = field_error(&request);
    assert_eq!(field, format!("measured[{}].p", request.measured.len() - 1));
    assert!(
        message.starts_with("repeats p = 4 of run R3 (measured[2])")
            && message.contains("refused, not merged"),
        "{message}"
    );
}

/// Isospeed-e's marked speeds are one per processor of each system.
#[test]
fn isospeed_speeds_are_one_per_processor() {
    let mut request = Metrics::adding();
    request.isospeed = Some(dlt_calc::models::metrics::Isospeed {
        p: 4.0,
        work: 1000.0,
        p2: 16.0,
        work2: 5000.0,
        speeds: vec![1.0, 1.0, 2.0],
        speeds2: vec![1.0; 16],
    });
    let (field, message) = field_error(&request);
    assert_eq!(field, "isospeed.speeds");
    assert!(
        message.starts_with("lists 3 marked speeds, but the first system has p = 4 processors"),
        "{message}"
    );
}

/// The constants box takes `t_s = 5, t_w = 2` as well as JSON; what it
/// cannot read says what to write, never "invalid type: null".
#[test]
fn constants_typed_as_name_value_pairs_are_read() {
    use dlt_calc::api::Request as Any;
    let mut json = serde_json::to_value(Metrics::edge_detection()).unwrap();
    json["constants"] = "t_c = 1e-9, t_s = 1e-5; t_w: 1e-8".into();
    let typed: Request = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(typed, Metrics::edge_detection());
    json["model"] = "metrics".into();
    let problem = |json: &serde_json::Value| {
        let problems = Any::from_value(json.clone()).unwrap().problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].field, "constants");
        problems[0].message.clone()
    };
    for (text, said) in [
        ("t_s 5", "cannot read `t_s 5`: write name = value pairs"),
        (
            "t_s = 1e-5, t_w = two",
            "the value of `t_w`, `two`, is not a number",
        ),
    ] {
        json["constants"] = text.into();
        let message = problem(&json);
        assert!(message.starts_with(said), "{text}: {message}");
    }
    json["constants"] = serde_json::Value::Null;
    let message = problem(&json);
    assert!(
        message.contains("name = value pairs") && !message.contains("expected a map"),
        "{message}"
    );
}

/// The table over `p` shows (and so exports) a row for every `p` of the
/// curves, and says when those are a sample of the range.
#[test]
fn the_curves_table_shows_every_p() {
    use dlt_calc::core::presentation::response::Describe;
    use dlt_calc::core::presentation::view::Block;
    for (to, sample) in [(64.0, false), (1e6, true)] {
        let mut request = Metrics::adding();
        request.processors.to = to;
        let report = request.solve().unwrap();
        let table = report.view().into_iter().find_map(|b| match b {
            Block::Table {
                id, caption, rows, ..
            } if id == "metrics-curves" => Some((caption, rows)),
            _ => None,
        });
        let (caption, rows) = table.expect("a table over p");
        assert_eq!(rows.len(), report.curves.len(), "{caption}");
        assert!(rows.len() > 50 || !sample);
        assert_eq!(
            caption.contains("a sample of the range"),
            sample,
            "{caption}"
        );
        let last = rows.last().unwrap();
        assert_eq!(last[0].parse::<f64>().unwrap(), to);
    }
}
