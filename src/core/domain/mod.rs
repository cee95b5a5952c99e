//! The domain layer: the objects of divisible load theory and the numbers
//! they are made of. Uses nothing else of `core`.
//!
//! Processing times (one or more memory levels), the platform (machines,
//! links), schedules and their independent verifier; errors and the limits
//! every request shares; number formats, counts, hashes and the
//! bibliography that every citation points into.

pub mod bibliography;
pub mod count;
pub mod error;
pub mod hash;
pub mod lp_error;
pub mod number;
pub mod platform;
pub mod processing;
pub mod schedule;
pub mod verify;
