//! M3 in the registry: its preset and its answer.

use super::{Instance, Report};
use crate::core::domain::error::Error;
use crate::core::domain::verify::{verify, Rules};
use crate::core::framework::calibration::{with_processors, Calibrate};
use crate::core::framework::checker::{Checker, Measured, Optimum};
use crate::core::framework::exercise::Template;
use crate::core::framework::model::{Former, Identity, Model, Preset};
use crate::core::presentation::form::Form;
use crate::core::presentation::gantt::Gantt;
use crate::core::presentation::response::Answer;
use crate::core::solving::progress::Progress;

/// M3: one installment, memory hierarchy, LP (`[2]`).
#[derive(Debug)]
pub struct Hierarchical;

/// M3's answer: the report and the Gantt chart of its schedule.
pub type Output = Answer<Report>;

impl Model for Hierarchical {
    const ID: Identity = Identity {
        number: Some(3),
        former: Former {
            tag: None,
            tab: "m3",
            prefix: "",
        },
        ..Identity::new("hierarchical", "Memory hierarchy")
    };
    type Request = Instance;
    type Output = Output;

    fn presets() -> Vec<Preset<Instance>> {
        vec![Preset {
            name: "hierarchical",
            label: "[2] worked example: two machines, core 1 + x, out-of-core -9 + 10x, \
                    C = S = 1, V = 2",
            request: Instance::worked_example(),
        }]
    }

    fn solve(request: &Instance, progress: &mut dyn Progress) -> Result<Output, Error> {
        let report = request.solve(progress)?;
        Ok(Answer {
            gantt: Some(Gantt::of(&report.schedule)),
            charts: Vec::new(),
            report: Box::new(report),
        })
    }

    fn checker() -> Option<Checker<Instance, Output>> {
        Some(Checker {
            check: |r, given| {
                let s = given.schedule(&r.processors, 0.0, false)?;
                let rules = Rules::SINGLE_INSTALLMENT;
                Ok(Measured::of(verify(&r.processors, r.load, &s, rules), &s))
            },
            // The optimal split for the order (the best order's, when asked).
            optimum: |o| Optimum {
                makespan: o.report.makespan,
                energy: None,
                proven: true,
            },
        })
    }

    fn form() -> Form {
        super::view::form()
    }

    fn exercises() -> Vec<Template> {
        super::exercises::templates()
    }

    fn calibration() -> Option<Calibrate<Instance>> {
        Some(|calibration| {
            with_processors(
                Instance::worked_example(),
                |i| &mut i.processors,
                |i| &mut i.load,
                calibration,
            )
        })
    }
}
