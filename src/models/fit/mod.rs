//! M9: from a user's own measurements to the models' parameters, and the
//! models' predictions checked against measured runs (`[004]` §2).

pub mod columns;
pub mod data;
pub mod runs;
pub mod table;
pub mod table_error;
mod table_text;
pub mod validity;
