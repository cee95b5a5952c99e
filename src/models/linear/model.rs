//! M2 in the registry: its presets and its answer.

use super::{energy_of, Instance, Objective, Report};
use crate::core::domain::count::Count;
use crate::core::domain::error::Error;
use crate::core::framework::calibration::Calibrate;
use crate::core::framework::checker::{Checker, Optimum};
use crate::core::framework::exercise::Template;
use crate::core::framework::maps::Maps;
use crate::core::framework::model::{Former, Identity, Model, Preset};
use crate::core::presentation::form::Form;
use crate::core::presentation::gantt::Gantt;
use crate::core::presentation::map::{
    Cache, MapParameter, MapQuantity, Measured, Parameter, Quantity,
};
use crate::core::presentation::response::Answer;
use crate::core::solving::progress::{Progress, Silent};

/// M2: linear DLT, one installment, closed form and energy (`[1]`).
#[derive(Debug)]
pub struct Linear;

/// M2's answer: the report, the Gantt chart of its schedule (when small
/// enough to draw) and the series' charts.
pub type Output = Answer<Report>;

impl Model for Linear {
    const ID: Identity = Identity {
        number: Some(2),
        former: Former {
            tag: None,
            tab: "m2",
            prefix: "l.",
        },
        ..Identity::new("linear", "Linear DLT & energy")
    };
    type Request = Instance;
    type Output = Output;

    fn presets() -> Vec<Preset<Instance>> {
        vec![
            Preset {
                name: "linear-energy-small",
                label: "[1] energy: the same machines with V = 1e3, m to 30",
                request: Instance::energy_preset(1e3, 30),
            },
            Preset {
                name: "linear-energy-big",
                label: "[1] energy: A = 1, C = 1e-6, S = 100, P_N = 50, P_C = 200, k = 3, \
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

    fn checker() -> Option<Checker<Instance, Output>> {
        Some(Checker {
            check: Instance::check_given,
            // The closed form's optimum for the order and objective.
            optimum: |o| Optimum {
                makespan: o.report.makespan,
                energy: o.report.energy.as_ref().map(|e| e.total),
                proven: o.report.lower_bound.is_none(),
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
        Some(super::calibrate::request)
    }

    fn maps() -> Option<Maps<Instance>> {
        Some(Maps {
            presets: super::maps::presets,
            ..Maps::new(map_parameters, map_quantities, measure)
        })
    }
}

/// The numbers of a request a map may vary, in the order a map sets them.
fn map_parameters() -> Vec<MapParameter<Instance>> {
    // A machine parameter is set on every group, so that a map of a
    // heterogeneous star scales all of it.
    fn every(instance: &mut Instance, set: impl Fn(&mut super::Machine)) {
        instance.machines.iter_mut().for_each(set);
    }
    // Validation makes sure a map varies a power only when there is one.
    fn power(instance: &mut Instance, set: impl Fn(&mut super::Power)) {
        instance.power.iter_mut().for_each(set);
    }
    vec![
        MapParameter {
            about: Parameter::count("machines", "copies of every machine type"),
            set: |i, v| every(i, |g| g.count = Count(v.max(0.0) as u64)),
        },
        MapParameter {
            about: Parameter::real("load", "the load V, in load units").unit("units"),
            set: |i, v| i.load = v,
        },
        MapParameter {
            about: Parameter::real("compute", "computing time per load unit A").unit("s/unit"),
            set: |i, v| every(i, |g| g.compute = v),
        },
        MapParameter {
            about: Parameter::real("rate", "communication time per load unit C").unit("s/unit"),
            set: |i, v| every(i, |g| g.rate = v),
        },
        MapParameter {
            about: Parameter::real("startup", "communication start-up time S").unit("s"),
            set: |i, v| every(i, |g| g.startup = v),
        },
        MapParameter {
            about: Parameter::real("processor_power", "processor power P_C, per time unit")
                .unit("W")
                .needing("power"),
            set: |i, v| power(i, |p| p.processor = v),
        },
        MapParameter {
            about: Parameter::real("network_power", "network power P_N, per time unit")
                .unit("W")
                .needing("power"),
            set: |i, v| power(i, |p| p.network = v),
        },
        MapParameter {
            about: Parameter::real("idle_factor", "idle power reduction k")
                .pure()
                .needing("power"),
            set: |i, v| power(i, |p| p.idle_factor = v),
        },
    ]
}

/// The quantities a map may measure.
fn map_quantities() -> Vec<MapQuantity> {
    vec![
        MapQuantity::always(Quantity::Efficiency),
        MapQuantity::always(Quantity::Speedup),
        MapQuantity::always(Quantity::Makespan),
        MapQuantity {
            quantity: Quantity::Energy,
            needs: Some("power"),
        },
    ]
}

/// A quantity at a valid request, exact (gap 0).
fn measure(request: &Instance, quantity: Quantity, cache: &mut Cache) -> Result<Measured, Error> {
    let (memo, _) = cache.get_or_make(|| Ok(Memo::default()))?;
    let cell = memo.cell(request)?;
    let value = match quantity {
        Quantity::Efficiency => cell.single / (cell.makespan * cell.machines as f64),
        Quantity::Speedup => cell.single / cell.makespan,
        Quantity::Makespan => cell.makespan,
        Quantity::Energy => request.power.map_or(f64::NAN, |p| {
            let (sending, busy) = cell.busy;
            energy_of(&p, sending, busy, cell.makespan, cell.machines).total
        }),
    };
    Ok(Measured { value, gap: 0.0 })
}

/// What a map reads of a solved cell: the rest of its energy follows from
/// the powers ([`energy_of`]).
#[derive(Debug, Clone, Copy)]
struct Cell {
    makespan: f64,
    single: f64,
    machines: usize,
    /// The channel's and the machines' busy times.
    busy: (f64, f64),
}

/// The cells a map has solved, by their request without what does not
/// change the schedule: when the set of machines is chosen for time, the
/// powers only price it, so a map over a power (`[1]`'s energy over the
/// idle factor) solves one schedule per column of a band instead of one
/// per cell. The answers are those of a solve of each cell: the same
/// schedule, and its energy by the same sums.
#[derive(Default)]
struct Memo {
    /// The latest requests solved, oldest first (at most [`MEMO_CELLS`]).
    solved: Vec<(Instance, Cell)>,
}

/// The most requests a map's memo keeps: a band's row of a large grid (a
/// map fills its grid in bands of rows, row after row).
const MEMO_CELLS: usize = 256;

impl Memo {
    /// The cell of `request`, solved or remembered.
    fn cell(&mut self, request: &Instance) -> Result<Cell, Error> {
        if request.objective != Objective::Time {
            return solved(request);
        }
        let key = Instance {
            power: None,
            series: false,
            ..request.clone()
        };
        if let Some((_, cell)) = self.solved.iter().find(|(k, _)| *k == key) {
            return Ok(*cell);
        }
        let cell = solved(&key)?;
        if self.solved.len() == MEMO_CELLS {
            self.solved.remove(0);
        }
        self.solved.push((key, cell));
        Ok(cell)
    }
}

/// The cell of `request`, solved.
fn solved(request: &Instance) -> Result<Cell, Error> {
    let (report, busy) = request.solve_busy(&mut Silent)?;
    Ok(Cell {
        makespan: report.makespan,
        single: report.single,
        machines: report.machines,
        busy,
    })
}
