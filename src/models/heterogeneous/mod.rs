//! M7: heterogeneous machines that wait in sleep modes, scheduled for time
//! or energy (`[4]`, as read in the model reference).
//!
//! Each worker has M5's parameters of its own (`τ_i(α) = max{a1_i α,
//! a2_i α + b2_i}`, link `O_i + C_i α`) and a wake-up time `S_i` set by the
//! mode it waits in; it is woken at a time of the schedule's choosing and
//! must be ready before its first chunk is sent. At most `n` chunks go out
//! one at a time; a machine receives its next chunk only after it has
//! computed the previous one. Energy adds each machine's power in each
//! state over time (sleeping, waking, idle, plus receiving and computing
//! above idle) and the originator's idle and network power
//! (`energy.rs`).
//!
//! **Method.** A fixed communication sequence is a small LP for either
//! criterion, with a bound on the other (`sequence.rs`). The exact search
//! (`search.rs`) is a best-first branch and bound over sequence prefixes
//! with an LP relaxation of every completion as the bound; machines with
//! identical parameters and powers are interchangeable, no others are. The
//! heuristics (`heuristics.rs`) simulate the originator online: SSC sends
//! RAM-sized chunks, GSS guided self-scheduling chunks, to the best-ranked
//! idle machine under a sort rule. Every schedule, from either, goes
//! through the same energy accounting and an independent verifier
//! (`verify.rs`).
//!
//! **Wake times.** Sleeping costs no more than idling (`P^sleep ≤ P^idle`),
//! so a machine is always woken as late as its first send allows: `w_i =
//! t_first − S_i`. That is the least-energy choice for any fixed send times,
//! so it loses nothing.

mod calibrate;
mod energy;
mod error;
mod exercises;
mod heuristics;
mod instance;
mod maps;
mod model;
mod pareto;
mod plan;
mod report;
mod search;
mod sequence;
mod solve;
mod verify;
mod view;

pub use energy::{EnergyParts, Parts};
pub use instance::{
    Algorithm, Instance, Machine, Mode, Objective, Originator, Power, SortRule, MAX_EXACT_CHUNKS,
    MAX_EXACT_MACHINES, MAX_MACHINES,
};
pub use model::{Heterogeneous, Output};
pub use plan::{Plan, Wake};
pub use report::{Compared, FrontPoint, Report, Status};
pub use verify::{verify, Claim, Rule};
