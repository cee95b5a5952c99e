//! One request: its schedule (see `best`), the level the speedup
//! approaches, and the series when asked.

use super::best::schedule;
use super::series::{plateau, series};
use super::{Instance, Report};
use crate::core::domain::error::Error;
use crate::core::solving::progress::Progress;

impl Instance {
    /// Solves a request that [`crate::core::domain::error::Validate::check`]
    /// accepted.
    ///
    /// # Errors
    ///
    /// [`Error::Solver`] when no schedule verifies, [`Error::Cancelled`]
    /// when `progress` stops the series.
    pub fn solve(&self, progress: &mut dyn Progress) -> Result<Report, Error> {
        match self.solve_until_stopped(progress)? {
            (report, false) => Ok(report),
            (_, true) => Err(Error::Cancelled),
        }
    }

    /// As [`Instance::solve`], but when `progress` stops the series, the
    /// report with the series so far and `true`.
    ///
    /// # Errors
    ///
    /// [`Error::Solver`] when no schedule verifies.
    pub fn solve_until_stopped(
        &self,
        progress: &mut dyn Progress,
    ) -> Result<(Report, bool), Error> {
        let job = self.job();
        let solved = schedule(&job, self.channels.get())?;
        let makespan = solved.shuffle.makespan;
        let sequential = job.sequential();
        let (series, stopped) = match &self.series {
            Some(s) => series(self, s, progress)?,
            None => (Vec::new(), false),
        };
        let report = Report {
            makespan,
            lower_bound: solved.lower_bound,
            gap: (makespan - solved.lower_bound) / makespan,
            pattern: solved.pattern.into(),
            other: solved.other,
            sequential,
            speedup: sequential / makespan,
            channels: job.channels,
            plateau: plateau(&job),
            sizes: solved.shuffle.sizes,
            transfers: solved.shuffle.transfers,
            reducers: solved.shuffle.reducers,
            verdict: solved.verdict,
            series,
        };
        Ok((report, stopped))
    }
}
