//! M5 from measured parameters. M5's cluster is homogeneous, so it reads
//! the first measured machine: its two-level processing time, its link,
//! and its latency as the per-message cost `O` or the start-up `S`.

use super::Instance;
use crate::core::framework::calibration::{at, Calibrated, Calibration, Filler};

/// The reference instance with the first machine's measured numbers.
pub fn request(calibration: &Calibration) -> Option<Calibrated<Instance>> {
    let fit = calibration.machines.first()?;
    let mut request = Instance::reference(2, 134_485.0);
    let mut filler = Filler::default();
    if let Some((a1, a2, b2)) = fit.two_level() {
        filler.set(at("a1", "a1", "s/MB"), &mut request.a1, Some(a1));
        filler.set(at("a2", "a2", "s/MB"), &mut request.a2, Some(a2));
        filler.set(at("b2", "b2", "s"), &mut request.b2, Some(b2));
    } else if let Some(why) = fit.not_two_level() {
        let levels = at("a1", "a1, a2, b2", "");
        let kept = [
            (request.a1, "s/MB"),
            (request.a2, "s/MB"),
            (request.b2, "s"),
        ];
        filler.keep(levels, &kept, why);
    }
    filler.set(at("rate", "C", "s/MB"), &mut request.rate, fit.rate);
    let overhead = at("overhead", "O", "s");
    filler.set(overhead, &mut request.overhead, fit.overhead());
    let startup = at("startup", "S", "s");
    filler.set(startup, &mut request.startup, fit.startup());
    // [3]'s start-up of 25.4 s would be nearly all of a measured cluster's
    // makespan (T = 25.73 s for 0.33 s of work from the SQLite tables).
    let startup = at("startup", "S", "s");
    filler.unmeasured(
        startup,
        &mut request.startup,
        fit.startup().is_some(),
        "[3]'s",
    );
    // M5's cluster is the first measured machine, m times.
    let first = Calibration {
        machines: vec![fit.clone()],
    };
    let machines = request.machines.get();
    filler.set_load(&mut request.load, &first, &[machines]);
    filler.finish(request)
}
