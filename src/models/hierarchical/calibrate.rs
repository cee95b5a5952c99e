//! M3 from measured parameters: the worked example's machines with their
//! measured links and processing-time lines (any number of levels).

use super::Instance;
use crate::core::calibration::{fill_processors, Calibrated, Calibration, Filler};

/// The worked example with the measured numbers put in.
pub fn request(calibration: &Calibration) -> Option<Calibrated<Instance>> {
    let mut request = Instance::worked_example();
    let mut filler = Filler::default();
    fill_processors(
        "processors",
        &mut request.processors,
        calibration,
        &mut filler,
    );
    filler.finish(request)
}
