//! Random machines for the property tests of several models.

use dlt_calc::core::domain::platform::Processor;
use dlt_calc::core::domain::processing::{Level, ProcessingTime};
use proptest::prelude::*;

/// Between `1` and `max - 1` two-level machines: start-up in `0..3`, rate
/// in `0..1`, core line `a1 + a2 x`, and an out-of-core line `ratio` times
/// steeper that meets it at the swap point `swp`.
pub fn two_level_machines(max: usize) -> impl Strategy<Value = Vec<Processor>> {
    prop::collection::vec(
        (
            0.0..3.0f64,
            0.0..1.0f64,
            0.0..2.0f64,
            0.05..3.0f64,
            0.5..30.0f64,
            1.5..20.0f64,
        )
            .prop_map(|(s, c, a1, a2, swp, ratio)| {
                let h2 = a2 * ratio;
                Processor {
                    startup: s,
                    rate: c,
                    levels: ProcessingTime::new(vec![
                        Level::new(a1, a2),
                        Level::new(a1 + swp * (a2 - h2), h2),
                    ]),
                    cap: None,
                }
            }),
        1..max,
    )
}
