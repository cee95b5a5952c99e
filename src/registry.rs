//! The list of models. The command line, the page's binding module and the
//! maps walk it; a model that is not listed does not exist for them, and
//! one that is needs nothing else outside its folder. The models list
//! themselves in [`crate::models`] (a `mod` line and a registry line each);
//! those over every model (the fit of measurements, generalised maps,
//! exercise sheets) are listed here.

use serde_json::Value;

use crate::core::domain::error::{Error, Invalid};
use crate::core::framework::calibration::{Calibration, Offer, Targets};
use crate::core::framework::entry::{Entry, Registered};
use crate::core::framework::exercise::{Shelf, Template};
use crate::core::presentation::map::{Catalogue, MapBase, MapPreset, Parameter};
use crate::exercises::ExerciseSheet;
use crate::maps::contour::GeneralisedMap;
use crate::models::fit::Fit;

pub use crate::core::framework::entry::Lookup;

/// What reads the other models through the registry, so that it cannot be
/// listed with them in [`crate::models`] (the list would name itself): the
/// fit of measurements (M9, which fills the other models' requests), the
/// generalised maps and the exercise sheets.
static MAPS: &[&dyn Entry] = &[
    &Registered::<Fit<Models>>::NEW,
    &Registered::<GeneralisedMap<Models>>::NEW,
    &Registered::<ExerciseSheet<Models>>::NEW,
];

/// The model whose tab the page opens with: the worked example a course
/// starts from, small enough to check by hand.
pub const OPENING: &str = "hierarchical";

/// Every model and map in the order a course takes them (by their number,
/// M1 to M8; the tools over every model after them), which is the order of
/// the page's tabs, `dlt example` and the docs.
pub fn all() -> impl Iterator<Item = &'static dyn Entry> {
    let mut entries: Vec<&'static dyn Entry> =
        crate::models::LIST.iter().chain(MAPS).copied().collect();
    // Stable: entries of one number keep the lists' order.
    entries.sort_by_key(|e| e.number().unwrap_or(u8::MAX));
    entries.into_iter()
}

/// The model with this id, or with this older request tag (so that saved
/// requests keep working).
pub fn find(name: &str) -> Option<&'static dyn Entry> {
    all()
        .find(|m| m.name() == name)
        .or_else(|| all().find(|m| m.former().tag == Some(name)))
}

/// The registry as the generalised maps see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Models;

impl Shelf for Models {
    fn templates() -> Vec<(&'static str, Template)> {
        all()
            .flat_map(|m| m.exercises().into_iter().map(move |t| (m.name(), t)))
            .collect()
    }

    fn number(model: &str) -> Option<u8> {
        find(model)?.number()
    }
}

impl Catalogue for Models {
    fn base(name: &str, fields: Value) -> Result<Box<dyn MapBase>, Vec<Error>> {
        match find(name).filter(|m| !m.map_parameters().is_empty()) {
            Some(model) => model.map_base(fields),
            None => {
                let known: Vec<&str> = Self::mapped().into_iter().map(|(n, _)| n).collect();
                let invalid = Invalid::UnknownModel {
                    name: crate::core::domain::error::shorten(name),
                    known: known.join(", "),
                };
                Err(vec![Error::field("model", invalid)])
            }
        }
    }

    fn map_presets() -> Vec<MapPreset> {
        all().flat_map(|m| m.map_presets()).collect()
    }

    fn mapped() -> Vec<(&'static str, Vec<Parameter>)> {
        all()
            .map(|m| (m.name(), m.map_parameters()))
            .filter(|(_, p)| !p.is_empty())
            .collect()
    }
}

impl Targets for Models {
    fn offers(calibration: &Calibration) -> Vec<Offer> {
        all().filter_map(|m| m.calibrated(calibration)).collect()
    }

    fn targets() -> Vec<&'static str> {
        let everything = Calibration::everything();
        all()
            .filter(|m| m.calibrated(&everything).is_some())
            .map(|m| m.name())
            .collect()
    }
}

impl crate::models::fit::Directory for Models {
    fn entries() -> Vec<&'static dyn Entry> {
        all().collect()
    }
}
