//! M4 from measured parameters: figure 10's machines with their measured
//! links and processing-time lines.

use super::Instance;
use crate::core::calibration::{fill_processors, Calibrated, Calibration, Filler};

/// Figure 10's request with the measured numbers put in.
pub fn request(calibration: &Calibration) -> Option<Calibrated<Instance>> {
    let mut request = Instance::figure_10();
    let mut filler = Filler::default();
    fill_processors(
        "processors",
        &mut request.processors,
        calibration,
        &mut filler,
    );
    filler.finish(request)
}
