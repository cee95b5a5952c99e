//! M5 in the registry: its preset and its answer, also as the snapshots a
//! long search hands out.

use super::{Instance, Report};
use crate::core::error::Error;
use crate::core::form::Form;
use crate::core::gantt::Gantt;
use crate::core::model::{Model, Preset};
use crate::core::progress::Progress;
use crate::core::response::Answer;

/// M5: multi-installment with machine start-up and memory hierarchy
/// (`[000]`).
#[derive(Debug)]
pub struct Startup;

/// M5's answer: the report and the Gantt chart of its best schedule.
pub type Output = Answer<Report>;

/// The answer of `instance` for `report`: the Gantt chart shows each
/// machine's start-up.
pub fn answer(instance: &Instance, report: Report) -> Output {
    Answer {
        gantt: Some(Gantt::with_startup(&report.schedule, instance.startup)),
        charts: Vec::new(),
        report: Box::new(report),
    }
}

impl Model for Startup {
    const NAME: &'static str = "startup";
    const TITLE: &'static str = "Start-up & installments";
    const OWN_TIME_LIMIT: bool = true;
    type Request = Instance;
    type Output = Output;

    fn presets() -> Vec<Preset<Instance>> {
        vec![Preset {
            name: "startup",
            label: "[000] reference instance, m = 2, n = 20, V = 134485 MB (Table 1's Vmax)",
            request: Instance::reference(2, 134_485.0),
        }]
    }

    fn solve(request: &Instance, progress: &mut dyn Progress) -> Result<Output, Error> {
        let report = request.solve(progress)?;
        Ok(answer(request, report))
    }

    fn form() -> Form {
        super::view::form()
    }
}
