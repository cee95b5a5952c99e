//! The generalised maps' presets: the maps the models offer, as requests.

use std::marker::PhantomData;

use super::{AxisRange, Request};
use crate::core::count::Count;
use crate::core::map::{Catalogue, MapAxis, MapPreset};
use crate::core::model::Preset;

impl From<MapAxis> for AxisRange {
    fn from(axis: MapAxis) -> AxisRange {
        AxisRange {
            parameter: axis.parameter.into(),
            from: axis.from,
            to: axis.to,
            steps: Count(axis.steps),
            log: axis.log,
        }
    }
}

/// Every map the catalogue's models offer, as a preset of the map's tab.
pub fn presets<C: Catalogue>() -> Vec<Preset<Request<C>>> {
    C::map_presets().into_iter().map(preset).collect()
}

/// A model's map as a request of the generalised maps.
fn preset<C>(map: MapPreset) -> Preset<Request<C>> {
    Preset {
        name: map.name,
        label: map.label,
        request: Request {
            base: map.base,
            x: map.x.into(),
            y: map.y.into(),
            quantity: map.quantity,
            levels: map.levels,
            rows: None,
            catalogue: PhantomData,
        },
    }
}
