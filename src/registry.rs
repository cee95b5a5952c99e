//! The list of models. The command line, the page's binding module and the
//! tools over the models walk it; a model that is not listed does not exist
//! for them, and one that is needs nothing else outside its folder. The
//! models list themselves in [`crate::models`] (a `mod` line and a registry
//! line each); the tools over every model (the fit of measurements,
//! generalised maps, exercise sheets) are listed here, over [`Models`].

use crate::core::framework::entry::{Entry, Registered};
use crate::core::framework::registry::Registry;
use crate::exercises::ExerciseSheet;
use crate::maps::contour::GeneralisedMap;
use crate::models::fit::Fit;

pub use crate::core::framework::page::Lookup;

/// What reads the other models through the registry, so that it cannot be
/// listed with them in [`crate::models`] (the list would name itself): the
/// fit of measurements (M9, which fills the other models' requests), the
/// generalised maps and the exercise sheets.
static TOOLS: &[&dyn Entry] = &[
    &Registered::<Fit<Models>>::NEW,
    &Registered::<GeneralisedMap<Models>>::NEW,
    &Registered::<ExerciseSheet<Models>>::NEW,
];

/// The model whose tab the page opens with: the worked example a course
/// starts from, small enough to check by hand.
pub const OPENING: &str = "hierarchical";

/// Every model and tool in the order a course takes them (by their number,
/// M1 to M9; the tools without one after them), which is the order of the
/// page's tabs, `dlt example` and the docs.
pub fn all() -> impl Iterator<Item = &'static dyn Entry> {
    Models::entries().into_iter()
}

/// The model with this id, or with this older request tag (so that saved
/// requests keep working).
pub fn find(name: &str) -> Option<&'static dyn Entry> {
    Models::find(name)
}

/// The registry as the tools over the models see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Models;

impl Registry for Models {
    fn entries() -> Vec<&'static dyn Entry> {
        let mut entries: Vec<&'static dyn Entry> =
            crate::models::LIST.iter().chain(TOOLS).copied().collect();
        // Stable: entries of one number keep the lists' order.
        entries.sort_by_key(|e| e.id().number.unwrap_or(u8::MAX));
        entries
    }
}
