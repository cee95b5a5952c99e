//! Solved problems that are edited and solved again from their optimal
//! basis.
//!
//! A search solves many LPs that differ from one already solved by one row
//! or one fixed variable; a map solves the same LP at many loads. The dual
//! simplex restarted from the previous optimum then needs a few pivots
//! where a cold solve needs dozens. [`Warm`] keeps the solver's state beside
//! the problem as written, so every answer is still checked against the
//! constraints, and falls back to a cold solve of the edited problem when
//! the restart fails numerically (it never returns a worse answer than a
//! cold solve, only a slower one). [`Warm::cold`] gives the same interface
//! with every edit solved from scratch: the reference for differential
//! tests and benchmarks.
//!
//! # Example
//!
//! ```
//! use dlt_calc::core::solving::lp::{Cmp, Problem, Warm};
//!
//! // minimize x + y subject to x + y >= v, x - y = 1, for several v
//! let mut lp = Problem::new();
//! let x = lp.add_var(1.0, 0.0, f64::INFINITY);
//! let y = lp.add_var(1.0, 0.0, f64::INFINITY);
//! let v = lp.add_var(0.0, 0.0, f64::INFINITY);
//! lp.add_constraint(&[(x, 1.0), (y, 1.0), (v, -1.0)], Cmp::Ge, 0.0);
//! lp.add_constraint(&[(x, 1.0), (y, -1.0)], Cmp::Eq, 1.0);
//! let mut warm = Warm::new(lp)?;
//! assert!((warm.solution().objective() - 1.0).abs() < 1e-9);
//! warm.fix(v, 4.0)?;
//! assert!((warm.solution().objective() - 4.0).abs() < 1e-9);
//! warm.fix(v, 10.0)?;
//! assert!((warm.solution()[x] - 5.5).abs() < 1e-9);
//! warm.add_constraint(&[(y, 1.0)], Cmp::Ge, 6.0)?;
//! assert!((warm.solution().objective() - 13.0).abs() < 1e-9);
//! assert_eq!(warm.solves(), (3, 1));
//! # Ok::<(), dlt_calc::core::solving::lp::LpError>(())
//! ```

use std::fmt;

use super::{guard, microlp_backend, Cmp, LpError, Problem, Solution, Var};

/// The solver's state at an optimum, ready for an edit.
#[derive(Clone)]
struct Engine {
    solution: microlp::Solution,
    vars: Vec<microlp::Variable>,
}

/// A solved [`Problem`] that can be edited and solved again (see the
/// module docs). Cloning it clones the solver's state, so two children of
/// one search node can both start from it.
#[derive(Clone)]
pub struct Warm {
    problem: Problem,
    solution: Solution,
    /// `None` for [`Warm::cold`], and after an edit the solver could not
    /// finish: the next edit then solves from scratch.
    engine: Option<Engine>,
    /// Whether edits may restart from the basis.
    restart: bool,
    /// The bounds, as added, of every variable fixed since.
    added: Vec<(Var, (f64, f64))>,
    /// A variable last fixed outside its bounds as added: the problem is
    /// infeasible until it is fixed within them again.
    bad_fix: Option<Var>,
    /// Edits solved from the basis, and those solved from scratch.
    warm_solves: u64,
    cold_solves: u64,
}

impl fmt::Debug for Warm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Warm")
            .field("problem", &self.problem)
            .field("solution", &self.solution)
            .field("restart", &self.restart)
            .finish_non_exhaustive()
    }
}

/// A time limit that has passed ends an edit before it starts: the solver
/// keeps the limit its problem was built with, not the current one.
fn out_of_time() -> Result<(), LpError> {
    match crate::core::solving::deadline::time_left() {
        Some(left) if left.is_zero() => Err(LpError::TimeLimit),
        _ => Ok(()),
    }
}

impl Warm {
    /// Solves `problem` and keeps the solver's state for edits.
    ///
    /// # Errors
    ///
    /// As [`Problem::solve`].
    pub fn new(problem: Problem) -> Result<Warm, LpError> {
        Warm::start(problem, true)
    }

    /// Solves `problem`; every later edit is solved from scratch, exactly
    /// as [`Problem::solve`] would (the cold-start path).
    ///
    /// # Errors
    ///
    /// As [`Problem::solve`].
    pub fn cold(problem: Problem) -> Result<Warm, LpError> {
        Warm::start(problem, false)
    }

    fn start(problem: Problem, restart: bool) -> Result<Warm, LpError> {
        let mut warm = Warm {
            solution: Solution {
                objective: f64::NAN,
                values: Vec::new(),
            },
            problem,
            engine: None,
            restart,
            added: Vec::new(),
            bad_fix: None,
            warm_solves: 0,
            cold_solves: 0,
        };
        warm.resolve()?;
        Ok(warm)
    }

    /// The current optimum (checked against the problem as edited).
    pub fn solution(&self) -> &Solution {
        &self.solution
    }

    /// The problem as edited.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// How many solves restarted from a basis, and how many started from
    /// scratch (the first solve included).
    pub fn solves(&self) -> (u64, u64) {
        (self.warm_solves, self.cold_solves)
    }

    /// Fixes `var` at `value` (replacing any earlier fix; its bounds as
    /// added must hold `value`) and solves again.
    ///
    /// # Errors
    ///
    /// As [`Problem::solve`]; [`LpError::NotFinite`] for a NaN or infinite
    /// `value`. After an error the problem keeps the edit, and the next
    /// edit is solved from scratch.
    pub fn fix(&mut self, var: Var, value: f64) -> Result<&Solution, LpError> {
        if !value.is_finite() {
            return Err(LpError::NotFinite(format!(
                "the value of variable {}",
                var.0
            )));
        }
        out_of_time()?;
        let column = &mut self.problem.columns[var.0];
        let (lower, upper) = match self.added.iter().find(|(v, _)| *v == var) {
            Some(&(_, bounds)) => bounds,
            None => {
                self.added.push((var, (column.lower, column.upper)));
                (column.lower, column.upper)
            }
        };
        // A fix replaces an earlier one but stays within the bounds as
        // added; one outside leaves the problem infeasible (its column as
        // it was) until the variable is fixed within them again.
        if value < lower || value > upper {
            self.bad_fix = Some(var);
            self.engine = None;
            return Err(LpError::Infeasible);
        }
        column.lower = value;
        column.upper = value;
        if self.bad_fix == Some(var) {
            self.bad_fix = None;
        }
        if self.bad_fix.is_some() {
            return Err(LpError::Infeasible);
        }
        let restarted = self.engine.take().map(|engine| {
            guard(|| {
                let solution =
                    microlp_backend::optimum(engine.solution.fix_var(engine.vars[var.0], value))?;
                Ok(Engine {
                    solution,
                    vars: engine.vars,
                })
            })
        });
        self.finish(restarted)
    }

    /// Adds the row `Σ coef·var  cmp  rhs` and solves again.
    ///
    /// # Errors
    ///
    /// As [`Warm::fix`].
    pub fn add_constraint(
        &mut self,
        terms: &[(Var, f64)],
        cmp: Cmp,
        rhs: f64,
    ) -> Result<&Solution, LpError> {
        out_of_time()?;
        self.problem.add_constraint(terms, cmp, rhs);
        self.problem.check_finite()?;
        if self.bad_fix.is_some() {
            self.engine = None;
            return Err(LpError::Infeasible);
        }
        // cannot fail: `add_constraint` has just pushed the row.
        let row = self.problem.rows.last().expect("the row just added");
        let restarted = self.engine.take().map(|engine| {
            let terms: Vec<_> = row
                .terms
                .iter()
                .map(|(v, a)| (engine.vars[v.0], *a))
                .collect();
            guard(|| {
                let solution = microlp_backend::optimum(engine.solution.add_constraint(
                    terms.as_slice(),
                    microlp_backend::op(row.cmp),
                    row.rhs,
                ))?;
                Ok(Engine {
                    solution,
                    vars: engine.vars,
                })
            })
        });
        self.finish(restarted)
    }

    /// Takes a restarted solve's answer if it is optimal and checks out;
    /// otherwise solves the edited problem from scratch. A restart that
    /// finds the problem infeasible is confirmed from scratch (a restart
    /// may misjudge a point that was feasible only to the tolerances; a
    /// search prunes on it); one that finds it unbounded is believed, and
    /// one that runs out of time ends the edit.
    fn finish(&mut self, restarted: Option<Result<Engine, LpError>>) -> Result<&Solution, LpError> {
        match restarted {
            Some(Ok(engine)) => {
                let solution = microlp_backend::read(&engine.solution, &engine.vars);
                if self.problem.check_answer(&solution).is_ok() {
                    self.warm_solves += 1;
                    self.solution = solution;
                    self.engine = Some(engine);
                    return Ok(&self.solution);
                }
            }
            Some(Err(e @ (LpError::Unbounded | LpError::TimeLimit))) => {
                self.warm_solves += 1;
                return Err(e);
            }
            Some(Err(_)) | None => {}
        }
        self.resolve()?;
        Ok(&self.solution)
    }

    /// Solves the problem as edited from scratch.
    fn resolve(&mut self) -> Result<(), LpError> {
        self.problem.check_finite()?;
        self.cold_solves += 1;
        if !self.restart {
            self.solution = self.problem.solve()?;
            return Ok(());
        }
        let engine = guard(|| {
            let (lp, vars) = microlp_backend::build(&self.problem)?;
            let solution = microlp_backend::optimum(lp.solve())?;
            Ok(Engine { solution, vars })
        })?;
        let solution = microlp_backend::read(&engine.solution, &engine.vars);
        self.problem.check_answer(&solution)?;
        self.solution = solution;
        self.engine = Some(engine);
        Ok(())
    }
}
