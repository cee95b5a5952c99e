//! M4 in the registry: its preset and its answer.

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

/// M4: equal chunks in round robin (`[2]`).
#[derive(Debug)]
pub struct Installments;

/// M4's answer: the report, the Gantt chart (when few enough chunks) and
/// the series' charts.
pub type Output = Answer<Report>;

impl Model for Installments {
    const ID: Identity = Identity {
        number: Some(4),
        former: Former {
            tag: Some("multi-installment"),
            tab: "m4",
            prefix: "mi.",
        },
        ..Identity::new("installments", "Multi-installment")
    };
    type Request = Instance;
    type Output = Output;

    fn presets() -> Vec<Preset<Instance>> {
        vec![Preset {
            name: "installments",
            label: "[2] Fig. 10: m = 10, C = 9.99e-5, S = 1e-3, swp = 1e8, beta = 5 vs \
                    heuristic 1e4",
            request: Instance::figure_10(),
        }]
    }

    fn solve(request: &Instance, progress: &mut dyn Progress) -> Result<Output, Error> {
        let report = request.solve(progress)?;
        Ok(Answer {
            gantt: report.schedule.as_ref().map(Gantt::of),
            charts: report.charts(),
            report: Box::new(report),
        })
    }

    fn checker() -> Option<Checker<Instance, Output>> {
        Some(Checker {
            check: |r, given| {
                let s = given.schedule(&r.processors, 0.0, false)?;
                let rules = Rules::BUFFERED;
                Ok(Measured::of(verify(&r.processors, r.load, &s, rules), &s))
            },
            // The schedule of the request's chunk size, not an optimum.
            optimum: |o| Optimum {
                makespan: o.report.makespan,
                energy: None,
                proven: false,
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
                Instance::figure_10(),
                |i| &mut i.processors,
                |i| &mut i.load,
                calibration,
            )
        })
    }
}
