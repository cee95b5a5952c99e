//! M2 from measured parameters: the energy preset's machines with their
//! measured links and one-line computing rates, and the measured powers.
//! M2's computing time is one line through the origin, so it reads the
//! one-line fit even when the data support two levels.

use super::{Instance, Power};
use crate::core::domain::count::Count;
use crate::core::framework::calibration::{at, pair, Calibrated, Calibration, Filler};

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
        let field = |name: &str| format!("machines[{k}].{name}");
        let what = |symbol: &str| format!("row {}: {symbol}", k + 1);
        let rate = at(field("rate"), what("C"), "s/MB");
        filler.set(rate, &mut row.rate, fit.rate);
        let startup = at(field("startup"), what("S"), "s");
        filler.set(startup, &mut row.startup, fit.latency);
        let compute = at(field("compute"), what("A"), "s/MB");
        filler.set(compute, &mut row.compute, fit.compute);
    }
    let counts: Vec<usize> = request.machines.iter().map(|m| m.count.get()).collect();
    filler.set_load(&mut request.load, calibration, &counts);
    if let Some(fit) = calibration.machines.first() {
        let powers = &fit.power;
        let power = request.power.get_or_insert(Power {
            processor: 0.0,
            network: 0.0,
            idle_factor: 1.0,
        });
        let processor = at("power.processor", "P_C", "W");
        filler.set(processor, &mut power.processor, powers.compute);
        let network = at("power.network", "P_N", "W");
        filler.set(network, &mut power.network, powers.network);
        let idle = at("power.idle_factor", "idle factor k", "");
        filler.set(idle, &mut power.idle_factor, powers.idle_factor());
    }
    filler.finish(request)
}
