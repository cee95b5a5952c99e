//! M3: one installment on heterogeneous machines with a memory hierarchy,
//! solved as a linear program (`[2]`, formulation (1)–(4)).
//!
//! The originator sends one chunk `α_i` to each machine in a fixed order,
//! one message at a time; sending takes `S_i + α_i C_i` and computing takes
//! the machine's convex piecewise-linear processing time `t_i(α_i)`. The LP
//! minimizes `Cmax` subject to
//! `Σ_{j ≤ i} (S_j + α_j C_j) + t_i ≤ Cmax`, `t_i ≥ A_ik1 + α_i A_ik2` for
//! every memory level `k`, `Σ α_i = V`, `0 ≤ α_i ≤ B_i`. The lower bounds on
//! `t_i` suffice because `t_i` is convex and only pushes `Cmax` up. We solve
//! the equivalent sparse form with the channel's running time as a variable
//! (`sent_i = sent_{i-1} + S_i + C_i α_i`) and `t_i` eliminated
//! (`sent_i + A_ik1 + A_ik2 α_i ≤ Cmax`), so no row has more than three
//! entries.
//!
//! The LP is solved in scaled units (load as a fraction of `V`, time as a
//! fraction of the equal split's makespan), so instances from `V = 2` to
//! `V = 1e13` give the solver coefficients of similar size.
//!
//! The report also shows what naive linear DLT would predict (`[2]`,
//! Fig. 3): the split computed as if every machine ran at its core rate
//! only, or at its out-of-core rate only, and what that split really takes.

mod error;
mod exercises;
mod model;
mod view;

pub use model::{Hierarchical, Output};
pub use view::{further_level_columns, two_level_columns};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::domain::error::{Checker, Error, Invalid, Validate};
use crate::core::domain::platform::{check_order, check_processors, Processor};
use crate::core::domain::processing::{Level, ProcessingTime};
use crate::core::domain::schedule::{Chunk, Interval, MachineUse, Schedule};
use crate::core::domain::verify::{verify, Rules, Verdict};
use crate::core::solving::progress::Progress;

mod split;

pub use split::{linear_program, linear_program_with, optimal_split, Method, Split};

/// The most processors the LP accepts.
pub const MAX_PROCESSORS: usize = 1000;
/// The most processors for which every order is tried (`8! = 40320` LPs).
pub const MAX_ENUMERATED: usize = 8;

/// An M3 instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// The load `V` to distribute.
    pub load: f64,
    /// The machines `P_1 .. P_m`.
    pub processors: Vec<Processor>,
    /// The order in which the originator serves the machines, as indices
    /// into `processors` (default: as listed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Vec<usize>>,
    /// Try every order and keep the best (at most [`MAX_ENUMERATED`]
    /// machines).
    #[serde(default)]
    pub best_order: bool,
}

/// A split of the load and the makespan some model predicts for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// What the model assumed.
    pub assumption: String,
    /// The load of each machine (indexed like `processors`).
    pub sizes: Vec<f64>,
    /// The makespan the model predicts.
    pub predicted: f64,
    /// The makespan this split really takes under the hierarchical model.
    pub real: f64,
}

/// The answer for an M3 instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The order the machines are served in.
    pub order: Vec<usize>,
    /// The optimal load of each machine (indexed like `processors`).
    pub sizes: Vec<f64>,
    /// The optimal makespan `Cmax`.
    pub makespan: f64,
    /// The optimal schedule.
    pub schedule: Schedule,
    /// How each machine spends it (indexed like `processors`).
    pub usage: Vec<MachineUse>,
    /// The verifier's verdict on it.
    pub verdict: Verdict,
    /// Naive linear DLT's predictions against the real makespans.
    pub comparison: Vec<Prediction>,
    /// How many orders were solved.
    pub orders_tried: usize,
    /// How the optimal split was found.
    pub method: Method,
}

impl Instance {
    /// The worked example of `[2]`: two identical machines, core line
    /// `1 + x`, out-of-core line `−9 + 10x`, `C = S = 1`, `V = 2`.
    pub fn worked_example() -> Instance {
        let machine = Processor {
            startup: 1.0,
            rate: 1.0,
            levels: ProcessingTime::new(vec![Level::new(1.0, 1.0), Level::new(-9.0, 10.0)]),
            cap: None,
        };
        Instance {
            load: 2.0,
            processors: vec![machine.clone(), machine],
            order: None,
            best_order: false,
        }
    }

    fn given_order(&self) -> Vec<usize> {
        self.order
            .clone()
            .unwrap_or_else(|| (0..self.processors.len()).collect())
    }

    /// Solves the instance: the optimal split (in the given order, or the
    /// best order), its verified schedule, and naive DLT's predictions.
    ///
    /// # Errors
    ///
    /// [`Error::Field`] for invalid input, [`Error::Solver`] if the LP
    /// fails, [`Error::Cancelled`] if `progress` asks to stop.
    pub fn solve(&self, progress: &mut dyn Progress) -> Result<Report, Error> {
        self.check()?;
        let (order, Split { sizes, method }, orders_tried) = if self.best_order {
            self.best_split(progress)?
        } else {
            let order = self.given_order();
            let split = optimal_split(&self.processors, self.load, &order)?;
            (order, split, 1)
        };
        let schedule = schedule_of(&self.processors, &order, &sizes);
        let verdict = verify(
            &self.processors,
            self.load,
            &schedule,
            Rules::SINGLE_INSTALLMENT,
        );
        let comparison = self.naive_predictions(&order)?;
        Ok(Report {
            makespan: schedule.makespan,
            usage: schedule.usage(),
            order,
            sizes,
            schedule,
            verdict,
            comparison,
            orders_tried,
            method,
        })
    }

    /// Tries every order and keeps the shortest.
    fn best_split(&self, progress: &mut dyn Progress) -> Result<(Vec<usize>, Split, usize), Error> {
        let total: usize = (1..=self.processors.len()).product();
        let mut best: Option<(f64, Vec<usize>, Split)> = None;
        let mut tried = 0;
        let mut outcome = Ok(());
        crate::core::solving::permutations::for_each(self.processors.len(), |order| {
            let split = match optimal_split(&self.processors, self.load, order) {
                Ok(split) => split,
                Err(e) => {
                    outcome = Err(e);
                    return false;
                }
            };
            let makespan = schedule_of(&self.processors, order, &split.sizes).makespan;
            tried += 1;
            if best.as_ref().is_none_or(|b| makespan < b.0) {
                best = Some((makespan, order.to_vec(), split));
            }
            if tried % 64 == 0 && !progress.report(tried as f64 / total as f64, "trying orders") {
                outcome = Err(Error::Cancelled);
            }
            outcome.is_ok()
        });
        outcome?;
        // cannot fail: `for_each` visits at least one order, and its split was solved.
        let (_, order, split) = best.expect("at least one order was solved");
        Ok((order, split, tried))
    }

    /// Linear DLT's view: every machine computes at its core rate only, or
    /// at its slowest (out-of-core) rate only, with no start-up cost.
    fn naive_predictions(&self, order: &[usize]) -> Result<Vec<Prediction>, Error> {
        if self.processors.iter().all(|p| p.levels.levels().len() < 2) {
            return Ok(Vec::new());
        }
        /// The one rate naive DLT assumes for a machine.
        type Rate = fn(&ProcessingTime) -> f64;
        let variants: [(&str, Rate); 2] = [
            ("in-core only (linear DLT at the core rate)", |f| {
                f.levels()[0].slope
            }),
            ("out-of-core only (linear DLT at the slowest rate)", |f| {
                f.levels()[f.levels().len() - 1].slope
            }),
        ];
        variants
            .iter()
            .map(|(assumption, rate)| {
                let naive: Vec<Processor> = self
                    .processors
                    .iter()
                    .map(|p| Processor {
                        levels: ProcessingTime::linear(rate(&p.levels)),
                        ..p.clone()
                    })
                    .collect();
                let sizes = optimal_split(&naive, self.load, order)?.sizes;
                Ok(Prediction {
                    assumption: (*assumption).to_string(),
                    predicted: schedule_of(&naive, order, &sizes).makespan,
                    real: schedule_of(&self.processors, order, &sizes).makespan,
                    sizes,
                })
            })
            .collect()
    }
}

/// The schedule of a split: chunks sent back to back in `order`, each
/// computed as soon as it has arrived, for its true processing time.
pub fn schedule_of(processors: &[Processor], order: &[usize], sizes: &[f64]) -> Schedule {
    let mut clock = 0.0;
    let chunks: Vec<Chunk> = order
        .iter()
        .map(|&i| {
            let p = &processors[i];
            let size = sizes[i];
            let send = Interval {
                start: clock,
                end: clock + p.send_time(size),
            };
            clock = send.end;
            Chunk {
                machine: i,
                size,
                send,
                compute: Interval {
                    start: send.end,
                    end: send.end + p.levels.eval(size),
                },
                level: p.levels.level_at(size),
            }
        })
        .collect();
    Schedule::new(processors.len(), chunks)
}

impl Validate for Instance {
    fn check_into(&self, c: &mut Checker) {
        c.positive("load", self.load);
        check_processors("processors", &self.processors, MAX_PROCESSORS, c);
        let m = self.processors.len();
        if let Some(order) = &self.order {
            check_order("order", order, m, c);
        }
        if self.best_order && m > MAX_ENUMERATED {
            let invalid = Invalid::TooMany {
                count: m,
                limit: MAX_ENUMERATED,
            };
            c.fail("best_order", invalid);
        }
        if c.is_clean() {
            let caps: Option<Vec<f64>> = self.processors.iter().map(|p| p.cap).collect();
            if let Some(caps) = caps {
                let total_cap: f64 = caps.iter().sum();
                if total_cap < self.load {
                    let load = self.load;
                    c.fail("load", error::ExceedsCaps { load, total_cap }.into());
                }
            }
        }
    }
}
