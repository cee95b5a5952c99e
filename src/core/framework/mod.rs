//! The framework layer: the [`Model`](model::Model) trait and its
//! capabilities (one module each: [`maps`], [`parts`], [`calibration`],
//! [`table`], [`page`], [`checker`]), the type-erased [`Entry`](entry::Entry) the edges
//! walk, the [`Registry`](registry::Registry) the tools over the models
//! reach them through, and what reaches every model: exercises and request
//! schemas. Uses every layer below it.

pub mod calibration;
pub mod checker;
pub mod entry;
pub mod exercise;
pub mod json;
pub mod maps;
pub mod model;
pub mod page;
pub mod parts;
pub mod registry;
#[cfg(not(target_arch = "wasm32"))]
pub mod schema;
pub mod table;
