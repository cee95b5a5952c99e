//! M4 in the registry: its preset and its answer.

use super::{Instance, Report};
use crate::core::domain::error::Error;
use crate::core::domain::number::human;
use crate::core::domain::verify::{verify, Rules};
use crate::core::framework::calibration::{with_processors, Calibrate, Calibrated, Change};
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
            let mut calibrated = with_processors(
                Instance::figure_10(),
                |i| &mut i.processors,
                |i| &mut i.load,
                calibration,
            )?;
            around_the_load(&mut calibrated);
            Some(calibrated)
        })
    }
}

/// The series of loads moved to 1/100 to 100 times the load set from the
/// fit: Fig. 10's loads (up to 10¹¹) say nothing of a measured cluster's
/// job of a few hundred MB.
fn around_the_load(calibrated: &mut Calibrated<Instance>) {
    let load = calibrated.request.load;
    let Some(series) = calibrated.request.series.as_mut() else {
        return;
    };
    let range = |from: f64, to: f64| format!("{} – {}", human(from), human(to));
    let was = range(series.from, series.to);
    (series.from, series.to) = (load / 100.0, load * 100.0);
    calibrated.changes.push(Change {
        field: "series".into(),
        what: "loads of the series".into(),
        from: was,
        to: range(series.from, series.to),
        unit: "MB".into(),
        why: "1/100 to 100 × the load V".into(),
    });
}
