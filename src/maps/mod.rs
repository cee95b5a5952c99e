//! Maps generic over the models: any quantity a model measures, over any
//! two of its parameters.

pub mod contour;
