//! M2 in the registry: its presets and its answer.

use super::{Instance, Report};
use crate::core::error::Error;
use crate::core::form::Form;
use crate::core::gantt::Gantt;
use crate::core::model::{Model, Preset};
use crate::core::progress::Progress;
use crate::core::response::Answer;

/// M2: linear DLT, one installment, closed form and energy (`[004]`).
#[derive(Debug)]
pub struct Linear;

/// M2's answer: the report, the Gantt chart of its schedule (when small
/// enough to draw) and the series' charts.
pub type Output = Answer<Report>;

impl Model for Linear {
    const NAME: &'static str = "linear";
    const TITLE: &'static str = "Linear DLT & energy";
    type Request = Instance;
    type Output = Output;

    fn presets() -> Vec<Preset<Instance>> {
        vec![
            Preset {
                name: "linear-energy-small",
                label: "[004] energy: the same machines with V = 1e3, m to 30",
                request: Instance::energy_preset(1e3, 30),
            },
            Preset {
                name: "linear-energy-big",
                label: "[004] energy: A = 1, C = 1e-6, S = 100, P_N = 50, P_C = 200, k = 3, \
                        V = 1e13, m to 1e6",
                request: Instance::energy_preset(1e13, 1_000_000),
            },
        ]
    }

    fn solve(request: &Instance, progress: &mut dyn Progress) -> Result<Output, Error> {
        let report = request.solve(progress)?;
        Ok(Answer {
            gantt: report.schedule.as_ref().map(Gantt::of),
            charts: report.charts(),
            report: Box::new(report),
        })
    }

    fn form() -> Form {
        super::view::form()
    }
}
