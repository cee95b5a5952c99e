//! A scheduling and performance calculator for divisible load theory (DLT).
//!
//! A root machine (the originator) sends pieces of a divisible load to worker
//! machines over a network; each worker computes fast while its piece fits in
//! core memory and far slower once it spills to disk. The calculator finds
//! the fastest schedule, checks it with an independent
//! [verifier](crate::core::domain::verify), and describes it as data a chart can
//! draw ([`gantt`](crate::core::presentation::gantt)).
//!
//! The crate is laid out as the architecture; imports only go down:
//! - [`core`]: what every model shares and that names no model, in four
//!   layers, each using only those before it: [`domain`](core::domain)
//!   (numbers, errors, processing times, the platform, schedules and their
//!   verifier), [`presentation`](core::presentation) (forms, views, charts
//!   and responses, as data), [`solving`](core::solving) (the LP adapter,
//!   branch and bound, time limits, progress) and
//!   [`framework`](core::framework) (the
//!   [`Model`](crate::core::framework::model::Model) trait and what reaches
//!   the models through it);
//! - [`models`]: one folder per model, whole (request, validation, solver,
//!   report, presets, tab, exercises), the isoefficiency map, Table 1 and
//!   the fit of measurements among them;
//! - [`maps`]: the generalised maps, over any model that declares map
//!   parameters; [`exercises`]: exercise sheets over every model;
//! - [`registry`]: the one list of models that the edges walk;
//! - thin edges: [`api`] (JSON in, JSON out), [`sweep`] (a request split
//!   over many machines and joined), the binding module `web` (wasm only),
//!   the CLI `dlt`, and [`plot`] (drawing).
//!
//! The models and solvers are plain Rust, used the same way by the native
//! command-line tool `dlt` and, compiled to WebAssembly, by the page. The
//! entry point for both is [`api::run`].
//!
//! ```
//! use dlt_calc::models::hierarchical::Instance;
//! use dlt_calc::core::solving::progress::Silent;
//!
//! let report = Instance::worked_example().solve(&mut Silent)?;
//! assert!((report.sizes[0] - 1.25).abs() < 1e-9);
//! assert!((report.makespan - 5.75).abs() < 1e-9);
//! assert!(report.verdict.ok);
//! # Ok::<(), dlt_calc::Error>(())
//! ```
//!
//! The same instance as a JSON request, as the page and `dlt solve` take
//! it (see [`api`]):
//!
//! ```
//! use dlt_calc::api::{run, Request};
//! use dlt_calc::core::solving::progress::Silent;
//!
//! let request = Request::from_json(r#"{
//!     "model": "hierarchical",
//!     "load": 2,
//!     "processors": [
//!         {"startup": 1, "rate": 1, "levels": [{"intercept": 1, "slope": 1},
//!                                              {"intercept": -9, "slope": 10}]},
//!         {"startup": 1, "rate": 1, "levels": [{"intercept": 1, "slope": 1},
//!                                              {"intercept": -9, "slope": 10}]}
//!     ]
//! }"#)?;
//! let response = run(&request, &mut Silent)?;
//! let makespan = response.get("report").unwrap()["makespan"].as_f64().unwrap();
//! assert!((makespan - 5.75).abs() < 1e-9);
//! # Ok::<(), dlt_calc::Error>(())
//! ```

#![warn(missing_docs)]
// The unit tests run natively (`cargo test`). `wasm-pack test` builds them
// for wasm32 as well (its `cargo build --tests` takes every test target),
// where none would run: built there, the crate is empty, which saves a
// compile of the whole library (≈ 30 s of CPU) in every `make test`.
#![cfg(not(all(test, target_arch = "wasm32")))]

pub mod api;
pub mod core;
pub mod exercises;
pub mod maps;
pub mod models;
pub mod plot;
pub mod registry;
pub mod star;
pub mod sweep;

#[cfg(target_arch = "wasm32")]
pub mod web;

pub use crate::core::domain::error::Error;
