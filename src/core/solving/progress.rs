//! Progress reports and cancellation for long computations.
//!
//! A solver calls [`Progress::report`] now and then with the fraction done;
//! the caller answers whether to go on. The page forwards reports from its
//! worker to the progress bar; the CLI uses them for its time limit
//! (with [`crate::core::solving::deadline`], which reaches inside LPs).

use crate::core::presentation::response::Response;

/// Receives progress reports; returns `false` to cancel.
pub trait Progress {
    /// `done` is in `[0, 1]`; `what` says what is being computed.
    fn report(&mut self, done: f64, what: &str) -> bool;

    /// A provisional answer, ready before the final one (M5's best schedule
    /// so far, a map column with its first lines), as a whole response of
    /// the running model, so a page can show it as it would show the final
    /// one. Ignored by default.
    fn partial(&mut self, _response: &Response) {}
}

/// Ignores every report and never cancels.
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl Progress for Silent {
    fn report(&mut self, _done: f64, _what: &str) -> bool {
        true
    }
}

impl<F: FnMut(f64, &str) -> bool> Progress for F {
    fn report(&mut self, done: f64, what: &str) -> bool {
        self(done, what)
    }
}
