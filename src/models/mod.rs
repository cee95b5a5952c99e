//! The models, one folder each.

pub mod hierarchical;
pub mod linear;
pub mod multi_installment;
pub mod startup;
