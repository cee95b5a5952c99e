//! The experiment the page runs on the visitor's own computer ("Run it on
//! this computer"): a star of Web Workers, an originator and `m` workers,
//! whose work is a pointer chase over each chunk ([`kernel`]). Its
//! computing time per MB rises where a chunk no longer fits in the
//! processor's caches, as \[2\]'s does where a chunk no longer fits in core
//! memory, so M9's fit finds the knee and M3 can be checked against real
//! runs of its own split.
//!
//! The page only orchestrates (workers, timing, drawing); the chase, the
//! calibration's plan, the loads chosen from the fitted knee, the splits
//! to run and the summary of the runs are here ([`plan`]), and the fit,
//! the splits' predictions and the runs check are M9's, M3's and M2's own
//! requests through [`crate::api::run`].

mod exercise;
pub mod kernel;
pub mod plan;
mod reading;
pub mod runs;
pub mod summary;

#[cfg(test)]
mod tests;
