//! The registry as the tools over the models see it: the fit of
//! measurements (which fills the other models' requests and checks their
//! predictions), the generalised maps and the exercise sheets each reach
//! the other models through this one trait, so that none of them names a
//! model, and the list that names them all (`crate::registry`) can list
//! these tools too.
//!
//! # Design
//!
//! A tool over the registry is a [`Model`](super::model::Model) like any
//! other, generic over a `R: Registry` that the list instantiates: its
//! functions are associated functions (no value to carry the registry),
//! and its request type is checked by `Validate`, which takes no
//! argument, so the registry is a type. What each tool asks of the
//! models (maps, calibration, exercises) is read from the entries in the
//! tool's own folder.

use crate::core::domain::error::{shorten, Error, Invalid};
use crate::core::framework::entry::Entry;

/// Every model, for the tools over them: a marker type (the copies and
/// comparisons that a tool's request derives need its traits).
pub trait Registry: std::fmt::Debug + Clone + PartialEq + Sync + 'static {
    /// Every model and tool, in course order.
    fn entries() -> Vec<&'static dyn Entry>;

    /// The model with this id, or with this older request tag (so that
    /// saved requests keep working).
    fn find(name: &str) -> Option<&'static dyn Entry> {
        let all = Self::entries();
        let by_id = all.iter().find(|e| e.id().name == name);
        let by_tag = || all.iter().find(|e| e.id().former.tag == Some(name));
        by_id.or_else(by_tag).copied()
    }

    /// The model tagged `name`, or an error at `field` that lists the ids
    /// there are.
    ///
    /// # Errors
    ///
    /// [`Invalid::UnknownModel`] at `field`.
    fn entry(name: &str, field: &str) -> Result<&'static dyn Entry, Error> {
        Self::find(name).ok_or_else(|| {
            let known: Vec<&str> = Self::entries().iter().map(|e| e.id().name).collect();
            let invalid = Invalid::UnknownModel {
                name: shorten(name),
                known: known.join(", "),
            };
            Error::field(field, invalid)
        })
    }
}
