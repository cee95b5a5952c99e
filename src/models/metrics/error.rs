//! The metrics' own kind of invalid value, behind the shared
//! [`Invalid::Own`](crate::core::domain::error::Invalid::Own).

use std::fmt;

use crate::core::domain::error::Invalid;

/// A formula that cannot be read or evaluated: what is wrong and where, in
/// words.
#[derive(Debug, Clone, PartialEq)]
pub struct FormulaProblem(pub String);

impl fmt::Display for FormulaProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<FormulaProblem> for Invalid {
    fn from(kind: FormulaProblem) -> Invalid {
        Invalid::own(kind)
    }
}

/// Measured runs or isospeed configurations that contradict each other:
/// what is wrong, naming the other entry.
#[derive(Debug, Clone, PartialEq)]
pub struct RunsProblem(pub String);

impl fmt::Display for RunsProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<RunsProblem> for Invalid {
    fn from(kind: RunsProblem) -> Invalid {
        Invalid::own(kind)
    }
}
