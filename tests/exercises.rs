//! Exercise sheets: every template draws valid exercises whose answers
//! agree with an independent computation (closed forms, brute force), the
//! same sheet draws the same exercises, and bad sheets are refused field
//! by field.

use dlt_calc::api::{exercise_kinds, run, Request};
use dlt_calc::core::framework::exercise::{check, Answer, Status};
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::exercises::Paper;
use serde_json::{json, Value};

/// Seeds drawn per template.
const SEEDS: u64 = 60;

fn every_kind() -> Vec<&'static str> {
    exercise_kinds().iter().map(|k| k.id).collect()
}

fn sheet(seed: u64, items: &[&str]) -> Value {
    json!({
        "model": "exercises", "title": "test", "seed": seed,
        "items": items.iter().map(|e| json!({"exercise": e})).collect::<Vec<_>>(),
    })
}

fn paper(request: Value) -> Paper {
    let response = run(&Request::from_value(request).unwrap(), &mut Silent).unwrap();
    let mut fields = serde_json::to_value(response.get("exercises").unwrap()).unwrap();
    serde_json::from_value(json!({
        "title": response.get("title").unwrap(),
        "seed": response.get("seed").unwrap(),
        "exercises": fields.take(),
    }))
    .unwrap()
}

/// The calculator's answer to an exercise's own request.
fn report(request: &Value) -> Value {
    let response = run(&Request::from_value(request.clone()).unwrap(), &mut Silent).unwrap();
    response.get("report").unwrap().clone()
}

fn number(answer: &Answer) -> f64 {
    match answer {
        Answer::Number { value, .. } => *value,
        Answer::Choice { .. } => panic!("not a number answer"),
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs())
}

/// Every kind of exercise, for many seeds: a question, hints, a worked
/// solution, a valid request for the calculator, and an answer that its own
/// text checks as right while a value 2 % off does not.
#[test]
fn every_template_draws_sound_exercises() {
    let kinds = every_kind();
    assert!(kinds.len() >= 11, "{kinds:?}");
    for seed in 0..SEEDS {
        let p = paper(sheet(seed, &kinds));
        assert_eq!(p.exercises.len(), kinds.len());
        for e in &p.exercises {
            let what = format!("{} (seed {seed})", e.template);
            assert!(
                !e.posed.question.is_empty() && !e.posed.hints.is_empty(),
                "{what}"
            );
            assert!(!e.posed.solution.is_empty(), "{what}");
            let problems = Request::from_value(e.posed.request.clone())
                .unwrap()
                .problems();
            assert!(problems.is_empty(), "{what}: {problems:?}");
            match &e.posed.answer {
                Answer::Number { value, .. } => {
                    assert!(value.is_finite() && *value > 0.0, "{what}: {value}");
                    let right = check(&e.posed.answer, &format!("{value}"));
                    assert_eq!(right.status, Status::Right, "{what}");
                    let off = check(&e.posed.answer, &format!("{}", value * 1.02));
                    assert_eq!(off.status, Status::Wrong, "{what}");
                    assert!(!off.message.contains(&e.shown), "{what}");
                }
                Answer::Choice { options, correct } => {
                    assert!(!correct.is_empty(), "{what}");
                    assert!(correct.iter().all(|&k| k < options.len()), "{what}");
                    let right = check(&e.posed.answer, &(correct[0] + 1).to_string());
                    assert_eq!(right.status, Status::Right, "{what}");
                }
            }
        }
    }
}

/// The same sheet draws the same exercises; an exercise depends on the
/// seed and its place, not on the other items of the sheet.
#[test]
fn a_sheet_is_the_same_wherever_it_is_drawn() {
    let a = paper(sheet(
        42,
        &[
            "linear-split",
            "hierarchical-two-levels",
            "metrics-efficiency",
        ],
    ));
    let b = paper(sheet(
        42,
        &[
            "linear-split",
            "hierarchical-two-levels",
            "metrics-efficiency",
        ],
    ));
    assert_eq!(a, b);
    let c = paper(sheet(
        42,
        &["linear-split", "installments-beta", "metrics-efficiency"],
    ));
    assert_eq!(a.exercises[0].posed, c.exercises[0].posed);
    assert_eq!(a.exercises[2].posed, c.exercises[2].posed);
    let d = paper(sheet(
        43,
        &[
            "linear-split",
            "hierarchical-two-levels",
            "metrics-efficiency",
        ],
    ));
    assert_ne!(a.exercises, d.exercises);
}

/// All machines finishing together, solved from the last machine back:
/// the closed form of M2, computed here from the exercise's request.
fn m2_closed_form(request: &Value) -> (Vec<f64>, f64) {
    let v = request["load"].as_f64().unwrap();
    let mut machines = Vec::new();
    for m in request["machines"].as_array().unwrap() {
        let count = m["count"].as_f64().unwrap_or(1.0) as usize;
        for _ in 0..count {
            let f = |k: &str| m[k].as_f64().unwrap();
            machines.push((f("startup"), f("rate"), f("compute")));
        }
    }
    // α_i A_i = S_{i+1} + α_{i+1}(C_{i+1} + A_{i+1}): α_i = k_i α_m + l_i.
    let n = machines.len();
    let (mut k, mut l) = (vec![1.0; n], vec![0.0; n]);
    for i in (0..n - 1).rev() {
        let (s, c, a) = machines[i + 1];
        k[i] = k[i + 1] * (a + c) / machines[i].2;
        l[i] = s / machines[i].2 + l[i + 1] * (a + c) / machines[i].2;
    }
    let last = (v - l.iter().sum::<f64>()) / k.iter().sum::<f64>();
    let loads: Vec<f64> = k.iter().zip(&l).map(|(k, l)| k * last + l).collect();
    let (s, c, a) = machines[0];
    let makespan = s + loads[0] * (c + a);
    (loads, makespan)
}

/// M2: wherever every machine gets load, the answer is the closed form's.
#[test]
fn m2_answers_agree_with_the_closed_form() {
    let mut compared = 0;
    for seed in 0..SEEDS {
        let p = paper(sheet(seed, &["linear-split", "linear-speedup"]));
        let split = &p.exercises[0].posed;
        let (loads, makespan) = m2_closed_form(&split.request);
        let used = report(&split.request)["active"].as_u64().unwrap();
        if used == 3 && loads.iter().all(|&x| x > 0.0) {
            assert!(close(number(&split.answer), makespan, 1e-9), "seed {seed}");
            compared += 1;
        } else {
            // Leaving a machine out is faster than the closed form's
            // split over all three.
            assert!(number(&split.answer) <= makespan + 1e-9, "seed {seed}");
        }
        let speedup = &p.exercises[1].posed;
        let (loads, makespan) = m2_closed_form(&speedup.request);
        assert!(loads.iter().all(|&x| x > 0.0), "seed {seed}");
        let m = &speedup.request["machines"][0];
        let one = m["startup"].as_f64().unwrap()
            + (m["rate"].as_f64().unwrap() + m["compute"].as_f64().unwrap())
                * speedup.request["load"].as_f64().unwrap();
        assert!(
            close(number(&speedup.answer), one / makespan, 1e-9),
            "seed {seed}"
        );
    }
    // Draws are repeated until all three machines are worth using.
    assert_eq!(compared, SEEDS);
}

/// M3: the answer is the least makespan over a fine grid of splits (brute
/// force on the two machines' finishing times), and the naive split's real
/// time is its makespan under the real processing times.
#[test]
fn m3_answers_agree_with_brute_force() {
    for seed in 0..SEEDS {
        let p = paper(sheet(
            seed,
            &["hierarchical-two-levels", "hierarchical-naive"],
        ));
        let e = &p.exercises[0].posed;
        let r = &e.request;
        let v = r["load"].as_f64().unwrap();
        let m = &r["processors"][0];
        let (s, c) = (m["startup"].as_f64().unwrap(), m["rate"].as_f64().unwrap());
        let lv = |k: usize, x: f64| {
            let l = &m["levels"][k];
            l["intercept"].as_f64().unwrap() + l["slope"].as_f64().unwrap() * x
        };
        let t = |x: f64| lv(0, x).max(lv(1, x));
        let finish = |a1: f64| {
            let a2 = v - a1;
            let p1 = s + c * a1 + t(a1);
            let p2 = s + c * a1 + s + c * a2 + t(a2);
            p1.max(p2)
        };
        let steps = 200_000;
        let best = (0..=steps)
            .map(|i| finish(v * i as f64 / steps as f64))
            .fold(f64::INFINITY, f64::min);
        assert!(
            close(number(&e.answer), best, 1e-4),
            "seed {seed}: {} vs {best}",
            number(&e.answer)
        );
        assert!(number(&e.answer) <= best + 1e-9, "seed {seed}");

        let naive = &p.exercises[1].posed;
        let response = report(&naive.request);
        let sizes: Vec<f64> = response["comparison"][0]["sizes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_f64().unwrap())
            .collect();
        let m = &naive.request["processors"][0];
        let (s, c) = (m["startup"].as_f64().unwrap(), m["rate"].as_f64().unwrap());
        let lv = |k: usize, x: f64| {
            let l = &m["levels"][k];
            l["intercept"].as_f64().unwrap() + l["slope"].as_f64().unwrap() * x
        };
        let t = |x: f64| lv(0, x).max(lv(1, x));
        let real =
            (s + c * sizes[0] + t(sizes[0])).max(2.0 * s + c * (sizes[0] + sizes[1]) + t(sizes[1]));
        assert!(close(number(&naive.answer), real, 1e-9), "seed {seed}");
    }
}

/// M1 and M4: the formulas, written here from the exercise's request.
#[test]
fn m1_and_m4_answers_agree_with_their_formulas() {
    for seed in 0..SEEDS {
        let p = paper(sheet(
            seed,
            &[
                "metrics-karp-flatt",
                "metrics-amdahl",
                "metrics-isoefficiency",
                "installments-beta",
                "metrics-efficiency",
            ],
        ));
        // Karp–Flatt from the measured runs.
        let runs = p.exercises[0].posed.request["measured"]
            .as_array()
            .unwrap()
            .clone();
        let (t1, tp) = (
            runs[0]["time"].as_f64().unwrap(),
            runs[1]["time"].as_f64().unwrap(),
        );
        let procs = runs[1]["p"].as_f64().unwrap();
        let s = t1 / tp;
        let f = (1.0 / s - 1.0 / procs) / (1.0 - 1.0 / procs);
        assert!(
            close(number(&p.exercises[0].posed.answer), f, 1e-9),
            "seed {seed}"
        );

        // Amdahl or Gustafson, from the request's serial share.
        let e = &p.exercises[1].posed;
        let parallel = e.request["parallel"].as_str().unwrap();
        let share: f64 = parallel.split('*').next().unwrap().parse().unwrap();
        let procs = e.request["processors"]["to"].as_f64().unwrap();
        let want = if e.question.contains("Amdahl") {
            1.0 / (share + (1.0 - share) / procs)
        } else {
            share + (1.0 - share) * procs
        };
        assert!(close(number(&e.answer), want, 1e-12), "seed {seed}");

        // The order of T_o = p T_p − n for each family of T_p.
        let e = &p.exercises[2].posed;
        let parallel = e.request["parallel"].as_str().unwrap();
        let want = if parallel.ends_with("p^2") {
            "Θ(p³)"
        } else if parallel.ends_with("*p") {
            "Θ(p²)"
        } else if parallel.contains("log") {
            "Θ(p log p)"
        } else {
            "Θ(p)"
        };
        assert_eq!(e.answer.text(), want, "seed {seed}: {parallel}");

        // β = (m S − A1)/(A2 − m C).
        let e = &p.exercises[3].posed;
        let list = e.request["processors"].as_array().unwrap();
        let m = list.len() as f64;
        let q = &list[0];
        let level = &q["levels"][0];
        let beta = (m * q["startup"].as_f64().unwrap() - level["intercept"].as_f64().unwrap())
            / (level["slope"].as_f64().unwrap() - m * q["rate"].as_f64().unwrap());
        assert!(close(number(&e.answer), beta, 1e-12), "seed {seed}");

        // E = n / (n + 2 p log₂ p), p read from the question.
        let e = &p.exercises[4].posed;
        let n = e.request["work"].as_f64().unwrap();
        let tail = e.question.split("<i>p</i> = ").last().unwrap();
        let procs: f64 = tail.trim_end_matches('?').parse().unwrap();
        let want = n / (n + 2.0 * procs * procs.log2());
        assert!(close(number(&e.answer), want, 1e-12), "seed {seed}");
    }
}

/// M5: one machine's time, from the request's parameters by the formula;
/// the efficiency from the calculator's own answer to the request.
#[test]
fn m5_answers_agree_with_the_formula_and_the_calculator() {
    for seed in 0..20 {
        let p = paper(sheet(seed, &["startup-single", "startup-efficiency"]));
        let e = &p.exercises[0].posed;
        let f = |k: &str| e.request[k].as_f64().unwrap();
        let v = f("load");
        let want =
            f("startup") + f("overhead") + f("rate") * v + (f("a1") * v).max(f("a2") * v + f("b2"));
        assert!(close(number(&e.answer), want, 1e-12), "seed {seed}");
        let e = &p.exercises[1].posed;
        let r = report(&e.request);
        assert_eq!(r["status"], "optimal", "seed {seed}");
        let m = e.request["machines"].as_f64().unwrap();
        let want = r["single"].as_f64().unwrap() / (m * r["makespan"].as_f64().unwrap());
        assert!(close(number(&e.answer), want, 1e-9), "seed {seed}");
    }
}

/// M4 and M7 choices: the option marked right is the fastest of the
/// calculator's answers to the alternatives.
#[test]
fn choice_answers_name_the_fastest_option() {
    for seed in 0..20 {
        let p = paper(sheet(
            seed,
            &["installments-which-faster", "heterogeneous-sort-rule"],
        ));
        let e = &p.exercises[0].posed;
        let time = |chunk: f64| {
            let mut r = e.request.clone();
            r["chunk"] = json!(chunk);
            report(&r)["makespan"].as_f64().unwrap()
        };
        let small = e.request["chunk"].as_f64().unwrap();
        let (a, b) = (time(small), time(1e4));
        let want = if close(a, b, 1e-3) {
            2
        } else if a < b {
            0
        } else {
            1
        };
        assert_eq!(
            e.answer,
            Answer::Choice {
                options: match &e.answer {
                    Answer::Choice { options, .. } => options.clone(),
                    Answer::Number { .. } => unreachable!(),
                },
                correct: vec![want]
            },
            "seed {seed}"
        );

        let e = &p.exercises[1].posed;
        let Answer::Choice { correct, .. } = &e.answer else {
            panic!()
        };
        let times: Vec<f64> = ["a1", "rate", "wake", "ram"]
            .iter()
            .map(|rule| {
                let mut r = e.request.clone();
                r["sort"] = json!(rule);
                report(&r)["makespan"].as_f64().unwrap()
            })
            .collect();
        let best = times.iter().copied().fold(f64::INFINITY, f64::min);
        for (k, t) in times.iter().enumerate() {
            assert_eq!(
                correct.contains(&k),
                *t <= best * (1.0 + 1e-9),
                "seed {seed}: {times:?}"
            );
        }
    }
}

/// A sheet with unknown exercises, no exercises, a fractional seed or a
/// long title is refused with every problem named by its field.
#[test]
fn bad_sheets_are_refused_field_by_field() {
    let cases: Vec<(Value, &str, &str)> = vec![
        (
            sheet(1, &["linear-split", "no-such"]),
            "items[1].exercise",
            "must name an exercise: \"no-such\" is not one (metrics-efficiency",
        ),
        (sheet(1, &[]), "items", "must not be empty"),
        (
            json!({"model": "exercises", "seed": 1.5, "items": [{"exercise": "linear-split"}]}),
            "seed",
            "whole",
        ),
        (
            json!({"model": "exercises", "seed": -1, "items": [{"exercise": "linear-split"}]}),
            "seed",
            "",
        ),
        (
            json!({"model": "exercises", "title": "x".repeat(300), "seed": 1, "items": [{"exercise": "linear-split"}]}),
            "title",
            "300",
        ),
        (sheet(1, &["linear-split"; 41]), "items", "41"),
    ];
    for (request, field, words) in cases {
        let problems = match Request::from_value(request.clone()) {
            Ok(r) => r.problems(),
            Err(e) => panic!("{request}: {e}"),
        };
        let hit = problems.iter().find(|p| p.field == field);
        assert!(
            hit.is_some_and(|p| p.message.contains(words)),
            "{field}: {problems:?}"
        );
    }
}

/// The answer key lists every exercise with its answer.
#[test]
fn the_answer_key_is_a_csv_of_every_answer() {
    let request = sheet(5, &["hierarchical-two-levels", "metrics-isoefficiency"]);
    let response = run(&Request::from_value(request.clone()).unwrap(), &mut Silent).unwrap();
    let csv = response.csv().unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "number,exercise,question,answer,unit,tolerance");
    assert_eq!(lines.len(), 3);
    assert!(
        lines[1].starts_with("1,hierarchical-two-levels,") && lines[1].contains(",s,0.005"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].starts_with("2,metrics-isoefficiency,") && lines[2].contains("Θ(p"),
        "{}",
        lines[2]
    );
    assert!(!csv.contains("<i>"), "{csv}");
}

/// A sheet that names its exercises as they were first published
/// (`m<number>-…`, before every model had one id) is read, and draws the
/// same numbers: a teacher's shared sheet keeps its exercises.
#[test]
fn exercises_named_as_first_published_draw_the_same_numbers() {
    let old = [
        "m1-efficiency",
        "m3-two-levels",
        "m4-beta",
        "m6-bounds",
        "m8-plateau",
    ];
    let new = [
        "metrics-efficiency",
        "hierarchical-two-levels",
        "installments-beta",
        "isoefficiency-bounds",
        "mapreduce-plateau",
    ];
    let paper = |items: &[&str]| {
        let request = Request::from_value(sheet(11, items)).unwrap();
        assert!(request.problems().is_empty(), "{items:?}");
        serde_json::to_value(run(&request, &mut Silent).unwrap()).unwrap()
    };
    assert_eq!(paper(&old), paper(&new));
    assert_eq!(
        paper(&old)["exercises"][1]["template"],
        "hierarchical-two-levels"
    );
}

/// The tour sheet as it was published (seed 2026, its exercises in their
/// first order and names) draws the numbers it always drew: answers pinned
/// from the calculator before the exercises were renamed.
#[test]
fn the_published_tour_keeps_its_numbers() {
    let items = [
        "m2-split",
        "m2-speedup",
        "m3-two-levels",
        "m3-naive",
        "m4-beta",
        "m4-which-faster",
        "m5-single",
        "m5-efficiency",
        "m7-sort-rule",
        "m1-efficiency",
        "m1-karp-flatt",
        "m1-amdahl",
        "m1-isoefficiency",
        "m8-sequential",
        "m8-plateau",
        "m8-one-reducer",
        "m6-bounds",
        "m6-approximation",
    ];
    let paper = run(
        &Request::from_value(sheet(2026, &items)).unwrap(),
        &mut Silent,
    )
    .unwrap();
    let paper = serde_json::to_value(paper).unwrap();
    let pinned = [
        (0, "linear-split", 37.112831858407084),
        (1, "linear-speedup", 3.486851990984221),
        (2, "hierarchical-two-levels", 5.714285714285714),
        (17, "isoefficiency-approximation", 255516.14092337442),
    ];
    for (k, id, value) in pinned {
        let exercise = &paper["exercises"][k];
        assert_eq!(exercise["template"], id);
        let got = exercise["answer"]["value"].as_f64().unwrap();
        assert!(
            (got - value).abs() <= 1e-12 * value,
            "{id}: {got} vs {value}"
        );
    }
}

/// The exercise tab cites exactly the works its exercises come from.
#[test]
fn the_exercise_tab_cites_the_sources_of_its_exercises() {
    let tab = dlt_calc::api::tabs()
        .into_iter()
        .find(|t| t.model == "exercises")
        .unwrap();
    let mut sources: Vec<&str> = exercise_kinds().iter().map(|k| k.source).collect();
    sources.sort_unstable();
    sources.dedup();
    let mut cited = tab.form.sources.to_vec();
    cited.sort_unstable();
    assert_eq!(cited, sources);
}

/// The answer key writes each answer at the calculator's ten significant
/// digits (`1.8928`), never a float's noise (`1.8927999999999998`), and
/// the number it writes is the answer.
#[test]
fn the_answer_key_has_no_float_noise() {
    let kinds = every_kind();
    let request = sheet(11, &kinds);
    let paper = paper(request);
    let key = paper.key();
    for (line, e) in key.lines().skip(1).zip(&paper.exercises) {
        let Answer::Number { value, .. } = &e.posed.answer else {
            continue;
        };
        // The answer is the fourth cell from the end: answer, unit, tolerance.
        let cells: Vec<&str> = line.rsplitn(4, ',').collect();
        let shown = cells[2];
        let digits = shown
            .split(['e', 'E'])
            .next()
            .unwrap()
            .chars()
            .filter(char::is_ascii_digit)
            .collect::<String>();
        assert!(digits.trim_matches('0').len() <= 10, "{line}");
        let read: f64 = shown.parse().unwrap_or_else(|_| panic!("{line}"));
        assert!(close(read, *value, 1e-9), "{line}: {read} vs {value}");
    }
}

/// A right answer's message says what was read and the tolerance, without
/// a second "right" (the page says "Right — " before it).
#[test]
fn a_right_answer_is_said_once() {
    let answer = Answer::number("makespan", 34.34, "s");
    let v = check(&answer, "34.34");
    assert_eq!(v.status, Status::Right);
    assert!(
        !v.message.to_lowercase().starts_with("right"),
        "{}",
        v.message
    );
    assert!(
        v.message.starts_with("34.34 s, within 0.5 % of the answer"),
        "{}",
        v.message
    );
    let v = check(&answer, "1.75e301");
    assert!(
        v.message.contains("·10²⁹⁹×") && !v.message.contains("e+"),
        "{}",
        v.message
    );
}

/// A fraction is read where a number is expected, as a result is often
/// worked out by hand (`64/65` for an efficiency), with or without its
/// unit; a fraction by zero is no number.
#[test]
fn a_fraction_is_read_as_its_value() {
    let efficiency = Answer::number("efficiency", 64.0 / 65.0, "");
    for typed in ["64/65", "64 / 65", "128/130"] {
        assert_eq!(check(&efficiency, typed).status, Status::Right, "{typed}");
    }
    assert_eq!(check(&efficiency, "65/64").status, Status::Wrong);
    let v = check(&efficiency, "64/0");
    assert_eq!(v.status, Status::Unreadable);
    assert!(v.message.contains("64/65"), "{}", v.message);
    let makespan = Answer::number("makespan", 2.5, "s");
    assert_eq!(check(&makespan, "5/2 s").status, Status::Right);
}

/// The M2 split's worked solution derives the loads: each α through α₃
/// with the machines' numbers put in, then α₃ from their sum; its numbers
/// agree with the closed form.
#[test]
fn the_split_solution_derives_the_loads() {
    for seed in 1..6 {
        let paper = paper(sheet(seed, &["linear-split"]));
        let e = &paper.exercises[0];
        let steps = &e.posed.solution;
        let text = steps.join("\n");
        assert!(
            text.contains("α<sub>2</sub> = (<i>S</i><sub>3</sub>"),
            "{text}"
        );
        assert!(
            text.contains("α<sub>1</sub> = (<i>S</i><sub>2</sub>"),
            "{text}"
        );
        assert!(text.contains("The loads add up to <i>V</i>"), "{text}");
        let (loads, _) = m2_closed_form(&e.posed.request);
        let shown = dlt_calc::core::framework::exercise::with_unit(loads[2], "");
        assert!(
            text.contains("α<sub>3</sub> = (") && text.contains(&shown),
            "{text} lacks {shown}"
        );
    }
}
