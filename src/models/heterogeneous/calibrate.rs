//! M7 from measured parameters: the mixed cluster's rows with each
//! measured machine's two-level processing time, link and powers. M7's
//! powers above idle are the measured ones less the idle power; a row's
//! sleep power is the one measured in the row's mode.

use super::{Instance, Machine};
use crate::core::domain::count::Count;
use crate::core::framework::calibration::{at, pair, Calibrated, Calibration, Filler, Fitted};

/// The mixed cluster with the measured numbers put in.
pub fn request(calibration: &Calibration) -> Option<Calibrated<Instance>> {
    let mut request = Instance::mixed();
    let mut filler = Filler::default();
    let several = calibration.machines.len() > 1;
    for (k, row, fit) in pair(&mut request.machines, calibration) {
        if several {
            row.count = Count::from(1);
        }
        fill_row(k, row, fit, &mut filler);
    }
    let counts: Vec<usize> = request.machines.iter().map(|m| m.count.get()).collect();
    filler.set_load(&mut request.load, calibration, &counts);
    filler.finish(request)
}

/// Machine row `k`.
fn fill_row(k: usize, row: &mut Machine, fit: &Fitted, filler: &mut Filler) {
    let here = |name: &str, symbol: &str, unit| {
        at(
            format!("machines[{k}].{name}"),
            format!("row {}: {symbol}", k + 1),
            unit,
        )
    };
    if let Some((a1, a2, b2)) = fit.two_level() {
        filler.set(here("a1", "a1", "s/MB"), &mut row.a1, Some(a1));
        filler.set(here("a2", "a2", "s/MB"), &mut row.a2, Some(a2));
        filler.set(here("b2", "b2", "s"), &mut row.b2, Some(b2));
    } else if let Some(why) = fit.not_two_level() {
        let levels = here("a1", "a1, a2, b2", "");
        let kept = [(row.a1, "s/MB"), (row.a2, "s/MB"), (row.b2, "s")];
        filler.keep(levels, &kept, why);
    }
    filler.set(here("rate", "C", "s/MB"), &mut row.rate, fit.rate);
    filler.set(
        here("overhead", "O", "s"),
        &mut row.overhead,
        fit.overhead(),
    );
    filler.set_option(here("startup", "S", "s"), &mut row.startup, fit.startup());
    let power = &fit.power;
    let idle = power.idle.unwrap_or(row.power.idle);
    let idle_power = here("power.idle", "P_idle", "W");
    filler.set(idle_power, &mut row.power.idle, power.idle);
    let above = |p: Option<f64>| p.map(|p| (p - idle).max(0.0));
    let compute = here("power.compute", "P_C − P_idle", "W");
    filler.set(compute, &mut row.power.compute, above(power.compute));
    let network = here("power.network", "P_N − P_idle", "W");
    filler.set(network, &mut row.power.network, above(power.network));
    let mode = serde_json::to_value(row.mode).ok();
    let sleep = mode.and_then(|m| power.sleep.get(m.as_str()?).copied());
    let asleep = here("power.sleep", "P_sleep", "W");
    filler.set_option(asleep, &mut row.power.sleep, sleep);
}
