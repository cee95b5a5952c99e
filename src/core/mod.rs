//! What every model shares, in four layers. Each layer may use the layers
//! listed before it and nothing above it (`tests/import_circles.rs`
//! checks this), so the domain can be read and tested without any solver,
//! and the framework can change without touching the mathematics.
//!
//! - [`domain`]: numbers, counts and errors; processing times, the
//!   platform, schedules and their verifier.
//! - [`presentation`]: what an answer looks like, as data: forms, views,
//!   charts, Gantt charts, maps' grids and the response every front end
//!   reads. No drawing: that is `plot` and the page.
//! - [`solving`]: the LP adapter, branch and bound, time limits,
//!   progress and the pool that runs independent pieces of work.
//! - [`framework`]: the [`Model`](framework::model::Model) trait and what
//!   reaches the models through it (the type-erased entries, calibration,
//!   exercises, schemas).

pub mod domain;
pub mod framework;
pub mod presentation;
pub mod solving;
