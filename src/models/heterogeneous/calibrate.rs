//! M7 from measured parameters: the mixed cluster's rows with each
//! measured machine's two-level processing time, link and powers. M7's
//! powers above idle are the measured ones less the idle power; a row's
//! sleep power is the one measured in the row's mode.

use super::{Instance, Machine};
use crate::core::domain::count::Count;
use crate::core::framework::calibration::{pair, Calibrated, Calibration, Filler, Fitted};

/// The mixed cluster with the measured numbers put in.
pub fn request(calibration: &Calibration) -> Option<Calibrated<Instance>> {
    let mut request = Instance::mixed();
    let mut filler = Filler::default();
    let several = calibration.machines.len() > 1;
    for (k, row, fit) in pair(&mut request.machines, calibration) {
        if several {
            row.count = Count::from(1);
        }
        fill_row(&format!("machines[{k}]"), row, fit, &mut filler);
    }
    filler.finish(request)
}

/// One machine row.
fn fill_row(field: &str, row: &mut Machine, fit: &Fitted, filler: &mut Filler) {
    if let Some((a1, a2, b2)) = fit.two_level() {
        filler.set(format!("{field}.a1"), &mut row.a1, Some(a1));
        filler.set(format!("{field}.a2"), &mut row.a2, Some(a2));
        filler.set(format!("{field}.b2"), &mut row.b2, Some(b2));
    }
    filler.set(format!("{field}.rate"), &mut row.rate, fit.rate);
    filler.set(
        format!("{field}.overhead"),
        &mut row.overhead,
        fit.overhead(),
    );
    if let Some(startup) = fit.startup() {
        row.startup = Some(startup);
        filler.note(format!("{field}.startup"));
    }
    let power = &fit.power;
    let idle = power.idle.unwrap_or(row.power.idle);
    filler.set(
        format!("{field}.power.idle"),
        &mut row.power.idle,
        power.idle,
    );
    let above = |p: Option<f64>| p.map(|p| (p - idle).max(0.0));
    let compute = above(power.compute);
    filler.set(
        format!("{field}.power.compute"),
        &mut row.power.compute,
        compute,
    );
    let network = above(power.network);
    filler.set(
        format!("{field}.power.network"),
        &mut row.power.network,
        network,
    );
    let mode = serde_json::to_value(row.mode).ok();
    let sleep = mode.and_then(|m| power.sleep.get(m.as_str()?).copied());
    if let Some(sleep) = sleep {
        row.power.sleep = Some(sleep);
        filler.note(format!("{field}.power.sleep"));
    }
}
