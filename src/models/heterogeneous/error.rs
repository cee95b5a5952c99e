//! The heterogeneous cluster's own kinds of invalid value, behind the
//! shared [`Invalid::Own`](crate::core::domain::error::Invalid::Own).

use std::fmt;

use crate::core::domain::error::Invalid;
use crate::core::domain::number::human as n;

/// What only this model finds wrong with a request.
#[derive(Debug, Clone, PartialEq)]
pub enum HeterogeneousInvalid {
    /// A limit no schedule meets, which only solving can tell: the least
    /// value any schedule attains.
    Unattainable {
        /// The limit given.
        value: f64,
        /// The least value of any schedule.
        least: f64,
    },
    /// A search with limits stopped at its time limit before it found any
    /// schedule that meets them.
    NotFoundInTime(f64),
    /// A machine's wake-up power below its sleep power.
    WakeBelowSleep {
        /// The wake-up power, in W.
        wake: f64,
        /// The sleep power (given, or the mode's share of idle), in W.
        sleep: f64,
    },
}

impl fmt::Display for HeterogeneousInvalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeterogeneousInvalid::Unattainable { value, least } => write!(
                f,
                "cannot be met: {} is below the least value of any schedule, {}",
                n(*value),
                n(*least)
            ),
            HeterogeneousInvalid::WakeBelowSleep { wake, sleep } => write!(
                f,
                "must be at least the sleep power {} W (got {}): waking cannot cost less than \
                 sleeping while the wake-up time startup is above 0 (the sleep power is \
                 power.sleep, or the mode's share of power.idle)",
                n(*sleep),
                n(*wake)
            ),
            HeterogeneousInvalid::NotFoundInTime(seconds) => write!(
                f,
                "allowed no schedule within the limits to be found in {} s; allow more \
                 seconds or loosen the limits",
                n(*seconds)
            ),
        }
    }
}

impl From<HeterogeneousInvalid> for Invalid {
    fn from(kind: HeterogeneousInvalid) -> Invalid {
        Invalid::own(kind)
    }
}
