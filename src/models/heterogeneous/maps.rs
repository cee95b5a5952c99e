//! M7's maps worth a preset of the generalised maps.

use super::{Heterogeneous, Instance, Objective};
use crate::core::domain::count::Count;
use crate::core::presentation::map::{MapAxis, MapPreset, Quantity, Tagged};
use crate::models::startup;

/// The 100-machine cluster's iso-energy lines, and M5's machines with
/// powers.
pub fn presets() -> Vec<MapPreset> {
    vec![cluster_energy(), startup_energy()]
}

/// The least energy of the 100-machine cluster's mix (four kinds in four
/// modes, super-GSS by energy) over the number of machines of each kind
/// and the load.
fn cluster_energy() -> MapPreset {
    let base = Instance {
        objective: Objective::Energy,
        ..Instance::hundred()
    };
    MapPreset {
        name: "contour-heterogeneous-energy",
        label: "M7 iso-energy: least energy (super-GSS) over machines of each kind and V",
        base: Tagged::of::<Heterogeneous>(&base),
        x: MapAxis::of("machines", 1.0, 40.0, 40, false),
        y: MapAxis::of("load", 1e4, 1e6, 25, true),
        quantity: Quantity::Energy,
        levels: vec![3e5, 5e5, 1e6, 2e6, 5e6, 1e7, 2e7],
    }
}

/// M5 with powers: the energy of the fastest schedule of the reference
/// machines (`n = 6`) over their number and the load, where using more
/// machines costs more idle power than it saves in time.
fn startup_energy() -> MapPreset {
    let m5 = startup::Instance {
        chunks: Count(6),
        ..startup::Instance::reference(4, 1e5)
    };
    MapPreset {
        name: "contour-startup-energy",
        label: "M5 with powers: energy of the fastest schedule over m and V (n = 6)",
        base: Tagged::of::<Heterogeneous>(&Instance::of_startup(&m5)),
        x: MapAxis::of("machines", 1.0, 8.0, 8, false),
        y: MapAxis::of("load", 1e3, 1e6, 10, true),
        quantity: Quantity::Energy,
        levels: vec![1e5, 3e5, 1e6, 3e6, 1e7, 3e7, 1e8, 3e8],
    }
}
