//! The one door to linear programming.
//!
//! Models build a [`Problem`] here and never see a solver's own types, so the
//! backend can be swapped or compared without touching them. The default
//! backend is `microlp`; with the cargo feature `minilp`, the archived
//! `minilp` crate can be run on the same problems (`Backend::Minilp`) for
//! differential tests and benchmarks.
//!
//! No solver panic escapes on native targets: a panic inside a backend is
//! caught and reported as [`LpError::Failed`]. (WebAssembly aborts on panic,
//! which is why only `microlp`, which reports numerical trouble as errors, is
//! used in the browser.) Every number is checked for finiteness before the
//! backend sees it, and every answer is checked against the constraints as
//! written before it is returned.
//!
//! # Example
//!
//! ```
//! use dlt_calc::core::solving::lp::{Cmp, Problem};
//!
//! // minimize x + y subject to x + 2y >= 4, x - y = 1, x, y >= 0
//! let mut lp = Problem::new();
//! let x = lp.add_var(1.0, 0.0, f64::INFINITY);
//! let y = lp.add_var(1.0, 0.0, f64::INFINITY);
//! lp.add_constraint(&[(x, 1.0), (y, 2.0)], Cmp::Ge, 4.0);
//! lp.add_constraint(&[(x, 1.0), (y, -1.0)], Cmp::Eq, 1.0);
//! let solution = lp.solve()?;
//! assert!((solution.objective() - 3.0).abs() < 1e-9);
//! assert!((solution[x] - 2.0).abs() < 1e-9);
//! # Ok::<(), dlt_calc::core::solving::lp::LpError>(())
//! ```

use std::ops::Index;

mod warm;
pub use warm::Warm;

/// A variable of a [`Problem`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Var(usize);

impl Var {
    /// The variable's position in the order it was added.
    pub fn index(self) -> usize {
        self.0
    }
}

/// The sense of a constraint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cmp {
    /// `lhs <= rhs`
    Le,
    /// `lhs >= rhs`
    Ge,
    /// `lhs == rhs`
    Eq,
}

/// Which solver runs a problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Backend {
    /// `microlp`, the maintained fork of `minilp`.
    #[default]
    Microlp,
    /// The archived `minilp 0.2.2` (cargo feature `minilp`).
    #[cfg(feature = "minilp")]
    Minilp,
}

pub use crate::core::domain::lp_error::LpError;

#[derive(Debug, Clone)]
struct Column {
    cost: f64,
    lower: f64,
    upper: f64,
}

#[derive(Debug, Clone)]
struct Row {
    terms: Vec<(Var, f64)>,
    cmp: Cmp,
    rhs: f64,
}

/// A linear program to minimize.
#[derive(Debug, Clone, Default)]
pub struct Problem {
    columns: Vec<Column>,
    rows: Vec<Row>,
}

/// An optimal point of a [`Problem`]; index it with a [`Var`].
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    objective: f64,
    values: Vec<f64>,
}

impl Solution {
    /// The minimum of the objective.
    pub fn objective(&self) -> f64 {
        self.objective
    }

    /// Every variable's value, in the order the variables were added.
    pub fn values(&self) -> &[f64] {
        &self.values
    }
}

impl Index<Var> for Solution {
    type Output = f64;
    fn index(&self, var: Var) -> &f64 {
        &self.values[var.0]
    }
}

/// Absolute feasibility tolerance of the answer check, relative to the size
/// of each row's terms.
const FEASIBILITY: f64 = 1e-7;

impl Problem {
    /// An empty minimization problem.
    pub fn new() -> Problem {
        Problem::default()
    }

    /// The number of variables.
    pub fn num_vars(&self) -> usize {
        self.columns.len()
    }

    /// The number of constraints.
    pub fn num_constraints(&self) -> usize {
        self.rows.len()
    }

    /// Adds a variable with objective coefficient `cost` and bounds
    /// `lower ..= upper` (use infinities for free sides).
    pub fn add_var(&mut self, cost: f64, lower: f64, upper: f64) -> Var {
        self.columns.push(Column { cost, lower, upper });
        Var(self.columns.len() - 1)
    }

    /// Changes a variable's objective coefficient, so one problem can be
    /// solved for several objectives in turn (time, then energy).
    pub fn set_cost(&mut self, var: Var, cost: f64) {
        self.columns[var.0].cost = cost;
    }

    /// A variable's objective coefficient.
    pub fn cost(&self, var: Var) -> f64 {
        self.columns[var.0].cost
    }

    /// A variable's bounds as added.
    pub fn bounds(&self, var: Var) -> (f64, f64) {
        let c = &self.columns[var.0];
        (c.lower, c.upper)
    }

    /// Adds the constraint `Σ coef·var  cmp  rhs` (a variable named twice
    /// counts with the sum of its coefficients).
    pub fn add_constraint(&mut self, terms: &[(Var, f64)], cmp: Cmp, rhs: f64) {
        let mut merged: Vec<(Var, f64)> = Vec::with_capacity(terms.len());
        for &(var, coef) in terms {
            match merged.iter_mut().find(|(v, _)| *v == var) {
                Some(term) => term.1 += coef,
                None => merged.push((var, coef)),
            }
        }
        self.rows.push(Row {
            terms: merged,
            cmp,
            rhs,
        });
    }

    /// Solves with the default backend.
    ///
    /// # Errors
    ///
    /// [`LpError::Infeasible`] or [`LpError::Unbounded`] when the problem
    /// has no optimum, [`LpError::NotFinite`] for a NaN or misplaced
    /// infinity, [`LpError::Failed`] when the backend fails or its answer
    /// does not satisfy the problem.
    pub fn solve(&self) -> Result<Solution, LpError> {
        self.solve_with(Backend::default())
    }

    /// Solves with the given backend. Errors as for [`Problem::solve`].
    pub fn solve_with(&self, backend: Backend) -> Result<Solution, LpError> {
        self.check_finite()?;
        let solution = guard(|| match backend {
            Backend::Microlp => microlp_backend::solve(self),
            #[cfg(feature = "minilp")]
            Backend::Minilp => minilp_backend::solve(self),
        })?;
        self.check_answer(&solution)?;
        Ok(solution)
    }

    fn check_finite(&self) -> Result<(), LpError> {
        for (j, c) in self.columns.iter().enumerate() {
            if !c.cost.is_finite() {
                return Err(LpError::NotFinite(format!("the cost of variable {j}")));
            }
            if c.lower.is_nan() || c.lower == f64::INFINITY {
                return Err(LpError::NotFinite(format!(
                    "the lower bound of variable {j}"
                )));
            }
            if c.upper.is_nan() || c.upper == f64::NEG_INFINITY {
                return Err(LpError::NotFinite(format!(
                    "the upper bound of variable {j}"
                )));
            }
        }
        for (i, r) in self.rows.iter().enumerate() {
            if !r.rhs.is_finite() {
                return Err(LpError::NotFinite(format!(
                    "the right-hand side of row {i}"
                )));
            }
            for (v, a) in &r.terms {
                if !a.is_finite() {
                    return Err(LpError::NotFinite(format!(
                        "the coefficient of variable {} in row {i}",
                        v.0
                    )));
                }
                if v.0 >= self.columns.len() {
                    return Err(LpError::Failed(format!(
                        "row {i} uses unknown variable {}",
                        v.0
                    )));
                }
            }
        }
        Ok(())
    }

    /// Re-checks a backend's answer against the problem as written, so a
    /// wrong answer is an error rather than a wrong schedule.
    fn check_answer(&self, s: &Solution) -> Result<(), LpError> {
        if s.values.len() != self.columns.len() || !s.objective.is_finite() {
            return Err(LpError::Failed(
                "the solver returned an incomplete answer".into(),
            ));
        }
        for (j, (c, x)) in self.columns.iter().zip(&s.values).enumerate() {
            let tol = FEASIBILITY * (1.0 + x.abs());
            if !x.is_finite() || *x < c.lower - tol || *x > c.upper + tol {
                return Err(LpError::Failed(format!(
                    "variable {j} = {x} is outside its bounds"
                )));
            }
        }
        for (i, r) in self.rows.iter().enumerate() {
            let mut lhs = 0.0;
            let mut scale = r.rhs.abs();
            for (v, a) in &r.terms {
                let t = a * s.values[v.0];
                lhs += t;
                scale += t.abs();
            }
            let tol = FEASIBILITY * (1.0 + scale);
            let ok = match r.cmp {
                Cmp::Le => lhs <= r.rhs + tol,
                Cmp::Ge => lhs >= r.rhs - tol,
                Cmp::Eq => (lhs - r.rhs).abs() <= tol,
            };
            if !ok {
                return Err(LpError::Failed(format!(
                    "the answer violates row {i} ({lhs} vs {})",
                    r.rhs
                )));
            }
        }
        Ok(())
    }
}

/// Runs a backend, turning a panic into [`LpError::Failed`] on native
/// targets (wasm aborts on panic; only `microlp`, which does not panic on
/// numerical trouble, runs there).
fn guard<T>(run: impl FnOnce() -> Result<T, LpError>) -> Result<T, LpError> {
    #[cfg(not(target_arch = "wasm32"))]
    return std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
        .map_err(|panic| LpError::Failed(format!("solver panicked: {}", panic_text(&panic))))?;
    #[cfg(target_arch = "wasm32")]
    run()
}

#[cfg(not(target_arch = "wasm32"))]
fn panic_text(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".into()
    }
}

mod microlp_backend {
    use super::{Cmp, LpError, Problem, Solution};
    use microlp::{ComparisonOp, OptimizationDirection, Variable};

    /// The problem in `microlp`'s terms, with its time limit set from the
    /// computation's deadline; `Err(TimeLimit)` when none is left.
    pub(super) fn build(p: &Problem) -> Result<(microlp::Problem, Vec<Variable>), LpError> {
        let mut lp = microlp::Problem::new(OptimizationDirection::Minimize);
        let vars: Vec<_> = p
            .columns
            .iter()
            .map(|c| lp.add_var(c.cost, (c.lower, c.upper)))
            .collect();
        for r in &p.rows {
            let terms: Vec<_> = r.terms.iter().map(|(v, a)| (vars[v.0], *a)).collect();
            lp.add_constraint(terms.as_slice(), op(r.cmp), r.rhs);
        }
        if let Some(left) = crate::core::solving::deadline::time_left() {
            if left.is_zero() {
                return Err(LpError::TimeLimit);
            }
            lp.set_time_limit(left);
        }
        Ok((lp, vars))
    }

    pub(super) fn op(cmp: Cmp) -> ComparisonOp {
        match cmp {
            Cmp::Le => ComparisonOp::Le,
            Cmp::Ge => ComparisonOp::Ge,
            Cmp::Eq => ComparisonOp::Eq,
        }
    }

    /// The solver's optimum from what a solve or an edit returned.
    pub(super) fn optimum(
        outcome: Result<microlp::SolveOutcome, microlp::Error>,
    ) -> Result<microlp::Solution, LpError> {
        let outcome = outcome.map_err(|e| match e {
            microlp::Error::Infeasible => LpError::Infeasible,
            microlp::Error::Unbounded => LpError::Unbounded,
            other => LpError::Failed(other.to_string()),
        })?;
        outcome
            .into_solution()
            .map_err(|_| match crate::core::solving::deadline::time_left() {
                Some(_) => LpError::TimeLimit,
                None => LpError::Failed("the solve was interrupted".into()),
            })
    }

    /// Our [`Solution`] of the solver's.
    pub(super) fn read(solution: &microlp::Solution, vars: &[Variable]) -> Solution {
        Solution {
            objective: solution.objective(),
            values: vars.iter().map(|v| solution.var_value(*v)).collect(),
        }
    }

    pub(super) fn solve(p: &Problem) -> Result<Solution, LpError> {
        let (lp, vars) = build(p)?;
        let solution = optimum(lp.solve())?;
        Ok(read(&solution, &vars))
    }
}

#[cfg(feature = "minilp")]
mod minilp_backend {
    use super::{Cmp, LpError, Problem, Solution};
    use minilp::{ComparisonOp, OptimizationDirection};

    /// `minilp` misreads huge finite bounds; infinities are what it expects.
    fn bound(x: f64) -> f64 {
        if x.abs() >= 1e30 {
            x.signum() * f64::INFINITY
        } else {
            x
        }
    }

    pub(super) fn solve(p: &Problem) -> Result<Solution, LpError> {
        let mut lp = minilp::Problem::new(OptimizationDirection::Minimize);
        let vars: Vec<_> = p
            .columns
            .iter()
            .map(|c| lp.add_var(c.cost, (bound(c.lower), bound(c.upper))))
            .collect();
        for r in &p.rows {
            let terms: Vec<_> = r.terms.iter().map(|(v, a)| (vars[v.0], *a)).collect();
            let op = match r.cmp {
                Cmp::Le => ComparisonOp::Le,
                Cmp::Ge => ComparisonOp::Ge,
                Cmp::Eq => ComparisonOp::Eq,
            };
            lp.add_constraint(terms.as_slice(), op, r.rhs);
        }
        let solution = lp.solve().map_err(|e| match e {
            minilp::Error::Infeasible => LpError::Infeasible,
            minilp::Error::Unbounded => LpError::Unbounded,
        })?;
        Ok(Solution {
            objective: solution.objective(),
            values: vars.iter().map(|v| *solution.var_value(*v)).collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn infeasible_and_unbounded_are_reported() {
        let mut lp = Problem::new();
        let x = lp.add_var(1.0, 0.0, 1.0);
        lp.add_constraint(&[(x, 1.0)], Cmp::Ge, 2.0);
        assert_eq!(lp.solve(), Err(LpError::Infeasible));

        let mut lp = Problem::new();
        let x = lp.add_var(-1.0, 0.0, f64::INFINITY);
        lp.add_constraint(&[(x, 1.0)], Cmp::Ge, 2.0);
        assert_eq!(lp.solve(), Err(LpError::Unbounded));
    }

    #[test]
    fn non_finite_numbers_never_reach_the_backend() {
        let mut lp = Problem::new();
        let x = lp.add_var(f64::NAN, 0.0, 1.0);
        lp.add_constraint(&[(x, 1.0)], Cmp::Ge, 0.5);
        assert!(matches!(lp.solve(), Err(LpError::NotFinite(_))));

        let mut lp = Problem::new();
        let x = lp.add_var(1.0, 0.0, 1.0);
        lp.add_constraint(&[(x, f64::INFINITY)], Cmp::Ge, 0.5);
        assert!(matches!(lp.solve(), Err(LpError::NotFinite(_))));

        let mut lp = Problem::new();
        let x = lp.add_var(1.0, f64::INFINITY, 1.0);
        lp.add_constraint(&[(x, 1.0)], Cmp::Ge, 0.5);
        assert!(matches!(lp.solve(), Err(LpError::NotFinite(_))));
    }

    #[test]
    fn free_variables_use_infinite_bounds() {
        let mut lp = Problem::new();
        let x = lp.add_var(1.0, f64::NEG_INFINITY, f64::INFINITY);
        lp.add_constraint(&[(x, 1.0)], Cmp::Ge, -3.0);
        let s = lp.solve().unwrap();
        assert!((s[x] + 3.0).abs() < 1e-9);
    }
}
