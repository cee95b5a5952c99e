//! The models, one folder each. A model is declared once below (its
//! folder's `mod` line) and listed once in [`LIST`] (its registry line).

use crate::core::framework::entry::{Entry, Registered};

pub mod fit;
pub mod heterogeneous;
pub mod hierarchical;
pub mod installments;
pub mod isoefficiency;
pub mod linear;
pub mod mapreduce;
pub mod metrics;
pub mod startup;
pub mod table1;

/// Every model, in course order (the registry sorts by each model's
/// number, so a line's place here only matters among models of one number).
pub static LIST: &[&dyn Entry] = &[
    &Registered::<metrics::Metrics>::NEW,
    &Registered::<linear::Linear>::NEW,
    &Registered::<hierarchical::Hierarchical>::NEW,
    &Registered::<installments::Installments>::NEW,
    &Registered::<startup::Startup>::NEW,
    &Registered::<isoefficiency::IsoefficiencyMap>::NEW,
    &Registered::<table1::Table1>::NEW,
    &Registered::<heterogeneous::Heterogeneous>::NEW,
    &Registered::<mapreduce::MapReduce>::NEW,
];
