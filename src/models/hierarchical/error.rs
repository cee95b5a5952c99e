//! The memory hierarchy model's own kind of invalid value, behind the
//! shared [`Invalid::Own`](crate::core::domain::error::Invalid::Own).

use std::fmt;

use crate::core::domain::error::Invalid;
use crate::core::domain::number::human as n;

/// The memory caps cannot hold the whole load.
#[derive(Debug, Clone, PartialEq)]
pub struct ExceedsCaps {
    /// The load `V`, in units of load.
    pub load: f64,
    /// The sum of the machines' caps, in units of load.
    pub total_cap: f64,
}

impl fmt::Display for ExceedsCaps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot be held by the processors: it is {} but the memory caps add up to {}",
            n(self.load),
            n(self.total_cap)
        )
    }
}

impl From<ExceedsCaps> for Invalid {
    fn from(kind: ExceedsCaps) -> Invalid {
        Invalid::own(kind)
    }
}
