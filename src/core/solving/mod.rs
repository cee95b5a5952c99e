//! The solving layer: the machinery the models' solvers share. Uses the
//! domain and presentation layers (a solver hands back partial answers).
//!
//! The LP adapter over the solver crates, branch and bound, time limits
//! that reach inside an LP, progress and cancellation, the pool that runs
//! independent pieces of work, permutations, and the parts of a request
//! that is split for several machines.

pub mod branch;
pub mod deadline;
pub mod lp;
pub mod parallel;
pub mod part;
pub mod permutations;
pub mod progress;
