//! The LP adapter: both backends agree on random LPs, or one of them says it
//! failed — never two different answers. Run with `--features minilp`.
#![cfg(all(not(target_arch = "wasm32"), feature = "minilp"))]

use dlt_calc::core::solving::lp::{Backend, Cmp, LpError, Problem};
use proptest::prelude::*;

/// A random LP: `(costs, bounds, rows)`.
fn lp_strategy() -> impl Strategy<Value = Problem> {
    (1usize..6, 1usize..6).prop_flat_map(|(n, m)| {
        let cols = prop::collection::vec((-5.0..5.0f64, prop::option::of(0.5..20.0f64)), n);
        let rows = prop::collection::vec(
            (
                prop::collection::vec(-10.0..10.0f64, n),
                0u8..3,
                -20.0..20.0f64,
            ),
            m,
        );
        (cols, rows).prop_map(|(cols, rows)| {
            let mut lp = Problem::new();
            let vars: Vec<_> = cols
                .iter()
                .map(|(c, ub)| lp.add_var(*c, 0.0, ub.unwrap_or(f64::INFINITY)))
                .collect();
            for (coefs, cmp, rhs) in rows {
                let terms: Vec<_> = vars.iter().copied().zip(coefs).collect();
                let cmp = [Cmp::Le, Cmp::Ge, Cmp::Eq][cmp as usize];
                lp.add_constraint(&terms, cmp, rhs);
            }
            lp
        })
    })
}

/// What the two backends said about one LP, each pair the test accepts
/// named (anything else is two different answers and fails).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    /// Both found an optimum, the same to 1e-6.
    SameOptimum,
    /// Both found no point.
    BothInfeasible,
    /// Both found the objective unbounded.
    BothUnbounded,
    /// `microlp` found the objective unbounded; `minilp 0.2.2` cannot say
    /// so and returns an incomplete answer, which the adapter reports as a
    /// failure.
    UnboundedMinilpFails,
    /// One found an optimum (checked by the adapter against every row), the
    /// other no point: only on a numerically borderline problem.
    Borderline,
    /// One of them reported a numerical failure otherwise.
    OneFailed,
}

/// Compares the backends on `lp`: the named outcome, or why they disagree.
fn compare(lp: &Problem) -> Result<Outcome, String> {
    let a = lp.solve_with(Backend::Microlp);
    let b = lp.solve_with(Backend::Minilp);
    match (&a, &b) {
        (Ok(x), Ok(y)) => {
            let (p, q) = (x.objective(), y.objective());
            if (p - q).abs() <= 1e-6 * (1.0 + p.abs()) {
                Ok(Outcome::SameOptimum)
            } else {
                Err(format!("objectives {p} vs {q}"))
            }
        }
        (Err(LpError::Infeasible), Err(LpError::Infeasible)) => Ok(Outcome::BothInfeasible),
        (Err(LpError::Unbounded), Err(LpError::Unbounded)) => Ok(Outcome::BothUnbounded),
        (Ok(x), Err(LpError::Infeasible)) | (Err(LpError::Infeasible), Ok(x))
            if x.objective().is_finite() =>
        {
            Ok(Outcome::Borderline)
        }
        (Err(LpError::Unbounded), Err(LpError::Failed(_))) => Ok(Outcome::UnboundedMinilpFails),
        (Err(LpError::Failed(_)), _) | (_, Err(LpError::Failed(_))) => Ok(Outcome::OneFailed),
        _ => Err(format!("microlp {a:?}, minilp {b:?}")),
    }
}

/// 400 random LPs (from a fixed seed): every pair of answers is one of the
/// named outcomes, and the comparison is not empty: most LPs are solved or
/// refused alike, and each common kind of agreement is seen.
#[test]
fn backends_agree_or_one_fails() {
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    use std::cell::RefCell;
    use std::collections::BTreeMap;

    let tally: RefCell<BTreeMap<Outcome, usize>> = RefCell::new(BTreeMap::new());
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut runner = TestRunner::new_with_rng(Config::with_cases(400), rng);
    runner
        .run(&lp_strategy(), |lp| {
            let outcome = compare(&lp).map_err(TestCaseError::fail)?;
            *tally.borrow_mut().entry(outcome).or_default() += 1;
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let tally = tally.into_inner();
    println!("outcomes of 400 random LPs: {tally:?}");
    let count = |o: Outcome| tally.get(&o).copied().unwrap_or(0);
    assert_eq!(tally.values().sum::<usize>(), 400, "{tally:?}");
    assert!(count(Outcome::SameOptimum) >= 100, "{tally:?}");
    assert!(count(Outcome::BothInfeasible) >= 100, "{tally:?}");
    assert!(count(Outcome::UnboundedMinilpFails) >= 10, "{tally:?}");
    // Failures and borderline answers are rare.
    let rare = count(Outcome::OneFailed) + count(Outcome::Borderline);
    assert!(rare <= 8, "{tally:?}");
}

/// `minilp 0.2.2` misreads huge finite bounds; the adapter passes infinity.
#[test]
fn huge_bounds_do_not_fool_minilp() {
    for backend in [Backend::Microlp, Backend::Minilp] {
        let mut lp = Problem::new();
        let x = lp.add_var(1.0, -1e30, 1e30);
        let y = lp.add_var(1.0, 0.0, f64::MAX);
        lp.add_constraint(&[(x, 1.0), (y, 1.0)], Cmp::Ge, 3.0);
        lp.add_constraint(&[(x, 1.0)], Cmp::Ge, 1.0);
        let s = lp.solve_with(backend).unwrap();
        assert!(
            (s.objective() - 3.0).abs() < 1e-9,
            "{backend:?}: {}",
            s.objective()
        );
    }
}

/// The M3 worked example's LP solved by both backends gives the same split.
#[test]
fn both_backends_solve_the_worked_example() {
    // minimize Cmax: 1 + 1 + a + t1 <= C ... written out directly.
    for backend in [Backend::Microlp, Backend::Minilp] {
        let mut lp = Problem::new();
        let c = lp.add_var(1.0, 0.0, f64::INFINITY);
        let a = [
            lp.add_var(0.0, 0.0, f64::INFINITY),
            lp.add_var(0.0, 0.0, f64::INFINITY),
        ];
        let t = [
            lp.add_var(0.0, f64::NEG_INFINITY, f64::INFINITY),
            lp.add_var(0.0, f64::NEG_INFINITY, f64::INFINITY),
        ];
        lp.add_constraint(&[(a[0], 1.0), (t[0], 1.0), (c, -1.0)], Cmp::Le, -1.0);
        lp.add_constraint(
            &[(a[0], 1.0), (a[1], 1.0), (t[1], 1.0), (c, -1.0)],
            Cmp::Le,
            -2.0,
        );
        for i in 0..2 {
            lp.add_constraint(&[(a[i], 1.0), (t[i], -1.0)], Cmp::Le, -1.0);
            lp.add_constraint(&[(a[i], 10.0), (t[i], -1.0)], Cmp::Le, 9.0);
        }
        lp.add_constraint(&[(a[0], 1.0), (a[1], 1.0)], Cmp::Eq, 2.0);
        let s = lp.solve_with(backend).unwrap();
        assert!((s.objective() - 5.75).abs() < 1e-9, "{backend:?}");
        assert!((s[a[0]] - 1.25).abs() < 1e-9, "{backend:?}");
    }
}
