//! The generalised maps' presets: the maps the models offer, as requests.

use std::marker::PhantomData;

use super::map_presets;
use super::{AxisRange, Request};
use crate::core::domain::count::Count;
use crate::core::framework::model::Preset;
use crate::core::framework::registry::Registry;
use crate::core::presentation::map::{MapAxis, MapPreset};

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

/// Every map the registry's models offer, as a preset of the map's tab.
pub fn presets<R: Registry>() -> Vec<Preset<Request<R>>> {
    map_presets::<R>().into_iter().map(preset).collect()
}

/// A model's map as a request of the generalised maps.
fn preset<R>(map: MapPreset) -> Preset<Request<R>> {
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
            registry: PhantomData,
        },
    }
}
