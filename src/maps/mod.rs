//! Maps over the models' parameters: the isoefficiency map and Table 1 of
//! the start-up model, and generalised maps of any quantity over any two
//! parameters.

pub mod contour;
pub mod isoefficiency;
