//! Linear DLT's maps worth a preset of the generalised maps.

use super::{Instance, Linear};
use crate::core::presentation::map::{MapAxis, MapPreset, Quantity, Tagged};

/// `[1]`'s maps: efficiency over `A` and `C`, energy over `m` and `k`.
pub fn presets() -> Vec<MapPreset> {
    vec![compute_vs_communication(), energy_vs_idle_factor()]
}

/// `[1]`'s `A` vs `C` map of linear DLT: efficiency of 10 machines.
fn compute_vs_communication() -> MapPreset {
    let mut base = Instance::energy_preset(1e6, 10);
    base.series = false;
    base.power = None;
    base.machines[0].startup = 1.0;
    MapPreset {
        name: "contour-compute-communication",
        label: "[1] linear DLT: efficiency over A and C, m = 10",
        base: Tagged::of::<Linear>(&base),
        x: MapAxis::of("compute", 1e-6, 1e-2, 25, true),
        y: MapAxis::of("rate", 1e-7, 1e-3, 25, true),
        quantity: Quantity::Efficiency,
        levels: vec![0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9, 0.95],
    }
}

/// `[1]`'s iso-energy map: energy over the idle power factor `k` and
/// the machine count `m`.
fn energy_vs_idle_factor() -> MapPreset {
    let mut base = Instance::energy_preset(1e13, 1000);
    base.series = false;
    MapPreset {
        name: "contour-energy",
        label: "[1] linear DLT: iso-energy lines over m and the idle factor k",
        base: Tagged::of::<Linear>(&base),
        x: MapAxis::of("machines", 10.0, 1e6, 30, true),
        y: MapAxis::of("idle_factor", 1.0, 10.0, 19, false),
        quantity: Quantity::Energy,
        levels: vec![2.2e15, 2.5e15, 3e15, 4e15, 5e15, 6e15, 8e15],
    }
}
