//! M5's map worth a preset of the generalised maps.

use super::{Instance, Startup};
use crate::core::presentation::map::{MapAxis, MapPreset, Quantity, Tagged};

/// The reference instance: efficiency over `C` and `V` at `m = 8`.
pub fn presets() -> Vec<MapPreset> {
    vec![MapPreset {
        name: "contour-startup",
        label: "[3] reference instance, m = 8: efficiency over C and V",
        base: Tagged::of::<Startup>(&Instance::reference(8, 60_000.0)),
        x: MapAxis::of("rate", 1e-3, 1.0, 16, true),
        y: MapAxis::of("load", 1e3, 1e6, 16, true),
        quantity: Quantity::Efficiency,
        levels: vec![1.0, 2.0, 5.0, 10.0, 20.0, 30.0],
    }]
}
