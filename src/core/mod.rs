//! What every model shares: processing times, the platform, schedules and
//! their verifier, the LP adapter, errors, progress and chart data.

pub mod bibliography;
pub mod branch;
pub mod calibration;
pub mod chart;
pub mod count;
pub mod deadline;
pub mod draw;
pub mod entry;
pub mod error;
pub mod exercise;
pub mod form;
pub mod gantt;
pub mod hash;
pub mod lp;
pub mod map;
pub mod model;
pub mod number;
pub mod parallel;
pub mod part;
pub mod permutations;
pub mod platform;
pub mod processing;
pub mod progress;
pub mod response;
pub mod schedule;
#[cfg(not(target_arch = "wasm32"))]
pub mod schema;
pub mod verify;
pub mod view;
