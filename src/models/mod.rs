//! The models, one folder each. A model is declared once below (its folder)
//! and listed once in [`LIST`] (the registry line).

use crate::core::entry::{Entry, Registered};

pub mod heterogeneous;
pub mod hierarchical;
pub mod installments;
pub mod linear;
pub mod mapreduce;
pub mod metrics;
pub mod startup;

/// Every model, in the order of the page's tabs (before the maps).
pub static LIST: &[&dyn Entry] = &[
    &Registered::<linear::Linear>::NEW,
    &Registered::<hierarchical::Hierarchical>::NEW,
    &Registered::<installments::MultiInstallment>::NEW,
    &Registered::<startup::Startup>::NEW,
    &Registered::<heterogeneous::Heterogeneous>::NEW,
    &Registered::<metrics::Metrics>::NEW,
    &Registered::<mapreduce::MapReduce>::NEW,
];
