//! The framework layer: the [`Model`](model::Model) trait, the type-erased
//! [`Entry`](entry::Entry) the edges walk, the
//! [`Registry`](registry::Registry) the tools over the models reach them
//! through, and what reaches every model through them: calibration from
//! measurements, exercises and request schemas. Uses every layer below it.

pub mod calibration;
pub mod entry;
pub mod exercise;
pub mod model;
pub mod registry;
#[cfg(not(target_arch = "wasm32"))]
pub mod schema;
