//! The presentation layer: what an answer looks like, as plain data that
//! the CLI prints and the page draws. Uses only the domain layer.
//!
//! Forms (fields, units, help), views (the report's blocks), line charts,
//! Gantt charts, maps' grids and the response every front end reads, and
//! the seeded drawing of random numbers that exercises share.

pub mod chart;
pub mod draw;
pub mod form;
pub mod gantt;
pub mod map;
pub mod response;
pub mod view;
