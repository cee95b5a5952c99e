//! M2 from measured parameters: the energy preset's machines with their
//! measured links and one-line computing rates, and the measured powers.
//! M2's computing time is one line through the origin, so it reads the
//! one-line fit even when the data support two levels.

use super::{Instance, Power};
use crate::core::domain::count::Count;
use crate::core::framework::calibration::{pair, Calibrated, Calibration, Filler};

/// The energy preset with the measured numbers put in.
pub fn request(calibration: &Calibration) -> Option<Calibrated<Instance>> {
    let mut request = Instance::energy_preset(1e3, 30);
    let mut filler = Filler::default();
    let several = calibration.machines.len() > 1;
    for (k, row, fit) in pair(&mut request.machines, calibration) {
        if several {
            // One row per measured machine: how many of each there are is
            // the user's to say.
            row.count = Count::from(1);
        }
        filler.set(format!("machines[{k}].rate"), &mut row.rate, fit.rate);
        filler.set(
            format!("machines[{k}].startup"),
            &mut row.startup,
            fit.latency,
        );
        filler.set(
            format!("machines[{k}].compute"),
            &mut row.compute,
            fit.compute,
        );
    }
    if let Some(fit) = calibration.machines.first() {
        let powers = &fit.power;
        let power = request.power.get_or_insert(Power {
            processor: 0.0,
            network: 0.0,
            idle_factor: 1.0,
        });
        filler.set("power.processor", &mut power.processor, powers.compute);
        filler.set("power.network", &mut power.network, powers.network);
        filler.set(
            "power.idle_factor",
            &mut power.idle_factor,
            powers.idle_factor(),
        );
    }
    filler.finish(request)
}
