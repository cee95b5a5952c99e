//! Whole numbers of things: machines, chunks, grid points, LP budgets.

use std::borrow::Cow;
use std::fmt;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

/// Starts the message of a count that cannot be read, so that the reader
/// can stand in for it and still check every other field.
pub const UNREADABLE_COUNT: &str = "\u{2}";

/// The largest count read: every whole number up to it is exact in a
/// JavaScript number, so the page and the command line read alike.
pub const MAX_COUNT: u64 = 1 << 53;

/// A whole number of things, read from any JSON number that is whole (`2`
/// or `2.0`, as the page sends it). Its range is checked with the request
/// ([`crate::core::domain::error::Checker::whole`]), so a count out of range gets
/// the same message wherever it comes from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(transparent)]
pub struct Count(pub u64);

impl Count {
    /// The count as an index bound (saturating; checked counts are small).
    pub fn get(self) -> usize {
        usize::try_from(self.0).unwrap_or(usize::MAX)
    }

    /// The count as a number, for arithmetic with times and loads.
    pub fn as_f64(self) -> f64 {
        self.0 as f64
    }
}

impl From<usize> for Count {
    fn from(n: usize) -> Count {
        Count(n as u64)
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

struct CountVisitor;

impl CountVisitor {
    fn refuse<E: de::Error>(why: String) -> E {
        E::custom(format!("{UNREADABLE_COUNT}{why}"))
    }
}

impl Visitor<'_> for CountVisitor {
    type Value = Count;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a whole number")
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Count, E> {
        if v > MAX_COUNT {
            let v = crate::core::domain::number::human(v as f64);
            return Err(Self::refuse(format!("is too large (got {v})")));
        }
        Ok(Count(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Count, E> {
        match u64::try_from(v) {
            Ok(v) => self.visit_u64(v),
            Err(_) => Err(Self::refuse(format!(
                "must not be negative (got {})",
                crate::core::domain::number::human(v as f64)
            ))),
        }
    }

    /// JSON has no NaN: the page's unreadable number arrives as `null`.
    fn visit_unit<E: de::Error>(self) -> Result<Count, E> {
        Err(Self::refuse("must be a finite number".into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Count, E> {
        let shown = crate::core::domain::number::human(v);
        if !v.is_finite() {
            Err(Self::refuse("must be a finite number".into()))
        } else if v.fract() != 0.0 {
            Err(Self::refuse(format!(
                "must be a whole number (got {shown})"
            )))
        } else if v < 0.0 {
            Err(Self::refuse(format!("must not be negative (got {shown})")))
        } else if v > MAX_COUNT as f64 {
            Err(Self::refuse(format!("is too large (got {shown})")))
        } else {
            Ok(Count(v as u64))
        }
    }
}

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        d.deserialize_any(CountVisitor)
    }
}

/// Written by hand as the reader is: any JSON number that is whole (JSON
/// Schema counts `2.0` as an integer too) from 0 to [`MAX_COUNT`]; no text,
/// no `null`.
impl JsonSchema for Count {
    fn schema_name() -> Cow<'static, str> {
        "Count".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "integer",
            "minimum": 0,
            "maximum": MAX_COUNT,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_whole_numbers_however_written() {
        for (text, want) in [
            ("2", 2),
            ("2.0", 2),
            ("0", 0),
            ("9007199254740992", 1 << 53),
        ] {
            assert_eq!(
                serde_json::from_str::<Count>(text).unwrap(),
                Count(want),
                "{text}"
            );
        }
        for text in [
            "2.5",
            "-1",
            "-1.0",
            "1e300",
            "18446744073709551615",
            "\"2\"",
            "null",
            "[]",
        ] {
            assert!(serde_json::from_str::<Count>(text).is_err(), "{text}");
        }
    }
}
