//! MapReduce's map worth a preset of the generalised maps.

use super::{Instance, MapReduce};
use crate::core::presentation::map::{MapAxis, MapPreset, Quantity, Tagged};

/// `[1]`'s reference: speedup over `m` and `γ` (`r = ℓ = 100`), where the
/// lines bend as `γ` grows: `γ` decides how far mappers pay.
pub fn presets() -> Vec<MapPreset> {
    vec![MapPreset {
        name: "contour-mapreduce",
        label: "[1] MapReduce: speedup over the mappers m and the output fraction γ",
        base: Tagged::of::<MapReduce>(&Instance::reference()),
        x: MapAxis::of("mappers", 10.0, 2000.0, 12, true),
        y: MapAxis::of("gamma", 0.01, 1.0, 10, true),
        quantity: Quantity::Speedup,
        levels: vec![50.0, 100.0, 200.0, 300.0, 500.0, 700.0],
    }]
}
