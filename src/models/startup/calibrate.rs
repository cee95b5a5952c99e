//! M5 from measured parameters. M5's cluster is homogeneous, so it reads
//! the first measured machine: its two-level processing time, its link,
//! and its latency as the per-message cost `O` or the start-up `S`.

use super::Instance;
use crate::core::framework::calibration::{Calibrated, Calibration, Filler};

/// The reference instance with the first machine's measured numbers.
pub fn request(calibration: &Calibration) -> Option<Calibrated<Instance>> {
    let fit = calibration.machines.first()?;
    let mut request = Instance::reference(2, 134_485.0);
    let mut filler = Filler::default();
    if let Some((a1, a2, b2)) = fit.two_level() {
        filler.set("a1", &mut request.a1, Some(a1));
        filler.set("a2", &mut request.a2, Some(a2));
        filler.set("b2", &mut request.b2, Some(b2));
    }
    filler.set("rate", &mut request.rate, fit.rate);
    filler.set("overhead", &mut request.overhead, fit.overhead());
    filler.set("startup", &mut request.startup, fit.startup());
    filler.finish(request)
}
