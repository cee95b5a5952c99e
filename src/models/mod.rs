//! The models, one folder each. A model is listed once, below: the line
//! declares its folder and puts it in the registry.

use crate::core::entry::{Entry, Registered};

/// Declares each model's folder and lists the model, in the page's order.
macro_rules! models {
    ($($folder:ident :: $model:ident),* $(,)?) => {
        $(pub mod $folder;)*

        /// Every model, in the order of the page's tabs (before the maps).
        pub static LIST: &[&dyn Entry] = &[$(&Registered::<$folder::$model>::NEW),*];
    };
}

models! {
    linear::Linear,
    hierarchical::Hierarchical,
    multi_installment::MultiInstallment,
    startup::Startup,
    heterogeneous::Heterogeneous,
    metrics::Metrics,
    mapreduce::MapReduce,
}
