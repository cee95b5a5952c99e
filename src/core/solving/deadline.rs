//! The time limit of the computation running on this thread, which every
//! LP it solves honours: progress reports alone come between LPs, and one
//! LP over a thousand machines can take seconds.

use std::cell::Cell;

use web_time::{Duration, Instant};

pub use crate::core::domain::error::MAX_SECONDS;

thread_local! {
    /// The end of the computation running on this thread, if it has one.
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// Runs `f` with a deadline that every LP it solves honours, so that even
/// one long LP (a thousand machines) stops at a request's time limit.
/// Progress reports alone cannot: a solver reports between LPs.
pub fn with_deadline<T>(end: Instant, f: impl FnOnce() -> T) -> T {
    within(Some(end), f)
}

/// Runs `f` with the deadline `end` (none: no deadline), put back as it
/// was afterwards even if `f` panics (a thread of a pool runs other
/// computations next).
pub fn within<T>(end: Option<Instant>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            DEADLINE.set(self.0);
        }
    }
    let _restore = Restore(DEADLINE.replace(end));
    f()
}

/// The current deadline, if any (to pass it on to other threads).
pub fn current() -> Option<Instant> {
    DEADLINE.get()
}

/// The time left before the current deadline (zero once it has passed),
/// or `None` without one.
pub fn time_left() -> Option<Duration> {
    DEADLINE
        .get()
        .map(|end| end.saturating_duration_since(Instant::now()))
}
