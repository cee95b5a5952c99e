//! The framework layer: the [`Model`](model::Model) trait, the type-erased
//! [`Entry`](entry::Entry) the edges walk, and what reaches every model
//! through them: calibration from measurements, exercises and request
//! schemas. Uses every layer below it.

pub mod calibration;
pub mod entry;
pub mod exercise;
pub mod model;
#[cfg(not(target_arch = "wasm32"))]
pub mod schema;
