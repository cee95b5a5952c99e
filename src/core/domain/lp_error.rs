//! Why a linear program has no answer.
//!
//! The LP adapter lives in the solving layer, but [`Error`] carries its
//! failures, so the type sits here beside [`Error`] and the adapter
//! re-exports it: the domain layer names nothing above it.
//!
//! [`Error`]: crate::core::domain::error::Error

use std::fmt;

/// Why a problem has no answer.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum LpError {
    /// No point satisfies every constraint.
    Infeasible,
    /// The objective decreases without limit.
    Unbounded,
    /// A coefficient, bound or right-hand side is NaN or infinite where it
    /// must be finite.
    NotFinite(String),
    /// The backend failed numerically (or panicked), or returned a point that
    /// violates the problem.
    Failed(String),
    /// The time limit of the computation came first
    /// ([`crate::core::solving::deadline::with_deadline`]).
    TimeLimit,
}

impl fmt::Display for LpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LpError::Infeasible => write!(f, "the linear program is infeasible"),
            LpError::Unbounded => write!(f, "the linear program is unbounded"),
            LpError::NotFinite(what) => write!(f, "{what} is not a finite number"),
            LpError::Failed(msg) => write!(f, "numerical failure: {msg}"),
            LpError::TimeLimit => write!(f, "the time limit was reached"),
        }
    }
}

impl std::error::Error for LpError {}
