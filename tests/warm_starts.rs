//! Warm starts against cold starts: an LP edited and re-optimised from its
//! previous basis has the optimum of the same LP solved from scratch.

mod rng;

use dlt_calc::core::domain::count::Count;
use dlt_calc::core::solving::lp::{Cmp, LpError, Problem, Var, Warm};
use dlt_calc::models::startup::{Instance, LoadLp};
use rng::Rng;

/// A random LP, most often feasible: minimise a positive cost over a box,
/// subject to covering rows `A x ≥ b` with `A ≥ 0` and a few mixed-sign
/// rows.
fn random_problem(rng: &mut Rng) -> (Problem, Vec<Var>) {
    let mut lp = Problem::new();
    let n = rng.upto(8) + 1;
    let vars: Vec<Var> = (0..n)
        .map(|_| lp.add_var(rng.between(0.1, 5.0), 0.0, rng.between(1.0, 10.0)))
        .collect();
    for _ in 0..rng.upto(6) {
        let terms = some_of(rng, &vars, 0.7, (0.0, 3.0));
        lp.add_constraint(&terms, Cmp::Ge, rng.between(0.0, 2.0));
    }
    for _ in 0..rng.below(3) {
        let terms: Vec<(Var, f64)> = vars.iter().map(|&v| (v, rng.between(-2.0, 2.0))).collect();
        lp.add_constraint(&terms, Cmp::Le, rng.between(1.0, 20.0));
    }
    (lp, vars)
}

/// Each variable with probability `share`, with a coefficient in `range`.
fn some_of(rng: &mut Rng, vars: &[Var], share: f64, range: (f64, f64)) -> Vec<(Var, f64)> {
    let mut terms = Vec::new();
    for &v in vars {
        if rng.unit() < share {
            terms.push((v, rng.between(range.0, range.1)));
        }
    }
    terms
}

/// The outcome of one edit, comparable between the two paths.
fn outcome(result: Result<&dlt_calc::core::solving::lp::Solution, LpError>) -> Result<f64, String> {
    match result {
        Ok(solution) => Ok(solution.objective()),
        Err(LpError::Infeasible) => Err("infeasible".into()),
        Err(LpError::Unbounded) => Err("unbounded".into()),
        Err(e) => panic!("an LP failed: {e}"),
    }
}

/// 400 random LPs, each edited six times (a row added or a variable
/// fixed): the warm path and the cold one agree on every optimum or on its
/// absence, and most warm edits are solved from the basis.
#[test]
fn edited_lps_have_the_optimum_of_a_cold_solve() {
    let mut rng = Rng(18);
    let (mut compared, mut restarted, mut edits) = (0, 0, 0);
    for case in 0..400 {
        let (lp, vars) = random_problem(&mut rng);
        let (mut warm, mut cold) = match (Warm::new(lp.clone()), Warm::cold(lp)) {
            (Ok(warm), Ok(cold)) => (warm, cold),
            (Err(LpError::Infeasible), Err(LpError::Infeasible)) => continue,
            (w, c) => panic!("case {case}: {w:?} vs {c:?}"),
        };
        for edit in 0..6 {
            let var = vars[rng.below(vars.len() as u64) as usize];
            let (w, c) = if rng.unit() < 0.5 {
                let (lo, hi) = warm.problem().bounds(var);
                let value = rng.between(lo, hi.min(lo + 10.0));
                (outcome(warm.fix(var, value)), outcome(cold.fix(var, value)))
            } else {
                let terms = some_of(&mut rng, &vars, 0.5, (-1.0, 3.0));
                let cmp = [Cmp::Le, Cmp::Ge, Cmp::Eq][rng.below(3) as usize];
                let rhs = rng.between(-1.0, 6.0);
                (
                    outcome(warm.add_constraint(&terms, cmp, rhs)),
                    outcome(cold.add_constraint(&terms, cmp, rhs)),
                )
            };
            edits += 1;
            match (&w, &c) {
                (Ok(a), Ok(b)) => {
                    assert!(
                        (a - b).abs() <= 1e-7 * (1.0 + b.abs()),
                        "case {case}, edit {edit}: warm {a} vs cold {b}"
                    );
                    compared += 1;
                }
                _ => assert_eq!(w, c, "case {case}, edit {edit}"),
            }
            if w.is_err() {
                break;
            }
        }
        restarted += warm.solves().0;
        assert_eq!(cold.solves().0, 0, "the cold path never restarts");
    }
    eprintln!("{compared} optima compared over {edits} edits; {restarted} warm solves");
    assert!(compared > 1000, "too few feasible edits: {compared}");
    assert!(
        restarted * 10 > edits * 8,
        "{restarted} of {edits} edits restarted"
    );
}

/// A random M5 instance (the ranges of the model tests).
fn random_instance(rng: &mut Rng) -> Instance {
    let a1 = rng.between(0.05, 1.0);
    let a2 = a1 * rng.between(2.0, 40.0);
    let rho = rng.between(100.0, 5000.0);
    let m = rng.upto(5);
    let n = rng.upto(12);
    Instance {
        a1,
        a2,
        b2: rho * (a1 - a2),
        rate: [0.0, rng.between(1e-4, 0.05), rng.between(0.5, 5.0)][rng.below(3) as usize],
        overhead: [0.0, rng.between(0.01, 5.0)][rng.below(2) as usize],
        startup: [0.0, rng.between(0.1, 50.0)][rng.below(2) as usize],
        machines: Count::from(m),
        chunks: Count::from(n),
        load: rho * rng.log(-1.0, 2.5),
        exactly: rng.unit() < 0.3,
        gap: None,
        max_lps: None,
        max_seconds: None,
    }
}

/// 300 random instances, each with a random sequence solved at eight
/// loads (each within a factor 4 of the last, all within the kept LP's
/// reach): the kept LP's optimum is that of the sequence LP built anew at
/// that load.
#[test]
fn a_sequence_kept_across_loads_has_the_optimum_of_a_new_lp() {
    let mut rng = Rng(1818);
    let (mut compared, mut worst) = (0, 0f64);
    for case in 0..300 {
        let instance = random_instance(&mut rng);
        let m = instance.machines.get();
        let sequence: Vec<usize> = (0..instance.chunks.get())
            .map(|_| rng.below(m as u64) as usize)
            .collect();
        let mut kept = LoadLp::new(&instance, &sequence).expect("a sequence LP");
        let mut load = instance.load;
        for step in 0..8 {
            let next = load * rng.log(-0.6, 0.6);
            if !kept.reaches(next) {
                continue;
            }
            load = next;
            let at = Instance {
                load,
                ..instance.clone()
            };
            let warm = kept.solve(&at, &sequence).expect("the kept LP");
            let cold = at.solve_sequence(&sequence).expect("a new LP");
            // The optima agree to the LP's tolerance. That is 1e-7 relative
            // to the size of a row's terms, and out of core (`a2 α + b2`
            // with `a2 α ≈ −b2`) the terms are far larger than `T`: over
            // 62 000 loads of six more seeds the optima differed by at most
            // 1.6e-5 and a rebuilt schedule (a real one, the makespan a
            // probe uses) exceeded its LP's `T` by at most 2.1e-5, a cold
            // LP's by up to 2e-6. The rebuilt schedules may also differ
            // where the LP has several optimal points.
            assert!(
                (warm.optimum - cold.optimum).abs() <= 1e-4 * cold.optimum,
                "case {case}, step {step}, V = {load}: kept {} vs new {}",
                warm.optimum,
                cold.optimum
            );
            worst = worst.max((warm.optimum - cold.optimum).abs() / cold.optimum);
            assert!(warm.makespan <= warm.optimum * (1.0 + 1e-4));
            let total: f64 = warm.sizes.iter().sum();
            assert!((total - load).abs() <= 1e-9 * load, "the sizes add up to V");
            compared += 1;
        }
    }
    eprintln!("{compared} loads compared, largest relative difference {worst:e}");
    assert!(compared > 1500, "{compared} loads compared");
}

/// A variable fixed outside its bounds leaves the problem infeasible, on
/// both paths, until it is fixed within them again: a row added meanwhile
/// does not make it feasible.
#[test]
fn a_fix_outside_the_bounds_stays_infeasible_until_undone() {
    for make in [Warm::new, Warm::cold] {
        let mut lp = Problem::new();
        let x = lp.add_var(1.0, 0.0, 1.0);
        let y = lp.add_var(1.0, 0.0, 10.0);
        lp.add_constraint(&[(x, 1.0), (y, 1.0)], Cmp::Ge, 2.0);
        let mut warm = make(lp).unwrap();
        assert_eq!(outcome(warm.fix(x, 5.0)), Err("infeasible".into()));
        assert_eq!(
            outcome(warm.add_constraint(&[(y, 1.0)], Cmp::Le, 9.0)),
            Err("infeasible".into())
        );
        assert_eq!(outcome(warm.fix(y, 3.0)), Err("infeasible".into()));
        let back = warm.fix(x, 0.5).unwrap();
        assert!(
            (back.objective() - 3.5).abs() < 1e-9,
            "{}",
            back.objective()
        );
        assert!((back.values()[0] - 0.5).abs() < 1e-9);
    }
}

/// An edit under a time limit that has passed stops at once, as a new LP
/// does (the solver keeps the limit its problem was built with).
#[test]
fn an_edit_after_the_time_limit_stops() {
    use dlt_calc::core::solving::deadline::with_deadline;
    use web_time::{Duration, Instant};
    let mut lp = Problem::new();
    let x = lp.add_var(1.0, 0.0, 10.0);
    lp.add_constraint(&[(x, 1.0)], Cmp::Ge, 1.0);
    let mut warm = Warm::new(lp.clone()).unwrap();
    let past = Instant::now() - Duration::from_millis(1);
    with_deadline(past, || {
        assert!(matches!(lp.solve(), Err(LpError::TimeLimit)));
        assert!(matches!(warm.fix(x, 3.0), Err(LpError::TimeLimit)));
        assert!(matches!(
            warm.add_constraint(&[(x, 1.0)], Cmp::Le, 5.0),
            Err(LpError::TimeLimit)
        ));
    });
    assert!((warm.fix(x, 3.0).unwrap().objective() - 3.0).abs() < 1e-9);
}
