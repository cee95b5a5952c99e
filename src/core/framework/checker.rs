//! The checker capability: a schedule given by hand (a student's split, a
//! heuristic's, another tool's answer) checked against a request's rules,
//! with its makespan (and energy), and its distance from the optimum the
//! model proves for the same request.
//!
//! The given schedule is one format for every model whose answer is a
//! chunked schedule on a star: each chunk's machine and size in sending
//! order, and optionally its times, which otherwise are the earliest the
//! model's rules allow (so a split alone is checked as the model would
//! run it, and a full schedule, such as `dlt solve`'s, as it is).

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::domain::error::{Checker as Problems, Error, Invalid, Validate};
use crate::core::domain::number::human as number;
use crate::core::domain::platform::Processor;
use crate::core::domain::schedule::{Chunk, Interval, Schedule};
use crate::core::domain::verify::{Verdict, Violation, RELATIVE_TOLERANCE};
use crate::core::framework::json::{first, output, typed};
use crate::core::presentation::view::percent;

/// The most chunks a given schedule may have.
pub const MAX_GIVEN_CHUNKS: usize = 100_000;

/// One chunk of a given schedule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GivenChunk {
    /// The receiving machine, from 0 (machines with a count expanded, in
    /// the request's order).
    pub machine: usize,
    /// Its size `α`, in load units.
    pub size: f64,
    /// When it is sent (default: as early as the channel, the machine and
    /// the rules allow, for as long as `S + Cα`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send: Option<Interval>,
    /// When it is computed (default: from its arrival, or once its machine
    /// is free, for as long as its size needs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compute: Option<Interval>,
    /// The memory level it is computed at, 0 for the core (default: the
    /// level active at its size).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<usize>,
}

/// A schedule to check: its chunks in sending order, and optionally its
/// makespan (default: when its last chunk is computed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Given {
    /// The chunks, in the order they are sent.
    pub chunks: Vec<GivenChunk>,
    /// The makespan the schedule claims.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub makespan: Option<f64>,
}

impl Validate for Given {
    fn check_into(&self, c: &mut Problems) {
        c.count("chunks", self.chunks.len(), MAX_GIVEN_CHUNKS);
    }
}

impl Given {
    /// Every chunk's machine is one of the `machines`.
    ///
    /// # Errors
    ///
    /// [`Invalid::OutOfRange`] at the first chunk's `machine` that is not.
    pub fn machines_within(&self, machines: usize) -> Result<(), Error> {
        match self.chunks.iter().position(|c| c.machine >= machines) {
            Some(k) => {
                let index = self.chunks[k].machine;
                let invalid = Invalid::OutOfRange {
                    index,
                    len: machines,
                };
                Err(Error::field(format!("chunks[{k}].machine"), invalid))
            }
            None => Ok(()),
        }
    }

    /// The schedule on `ps`, each time not given the earliest allowed: the
    /// channel free and the machines ready at `ready`; `wait`: a machine
    /// receives only once it has computed its previous chunk.
    ///
    /// # Errors
    ///
    /// As [`Given::machines_within`].
    pub fn schedule(&self, ps: &[Processor], ready: f64, wait: bool) -> Result<Schedule, Error> {
        self.machines_within(ps.len())?;
        let mut channel = ready;
        let mut free = vec![ready; ps.len()];
        let mut chunks = Vec::with_capacity(self.chunks.len());
        for g in &self.chunks {
            let p = &ps[g.machine];
            let start = if wait {
                channel.max(free[g.machine])
            } else {
                channel
            };
            let send = g.send.unwrap_or(Interval {
                start,
                end: start + p.send_time(g.size),
            });
            let from = send.end.max(free[g.machine]);
            let compute = g.compute.unwrap_or(Interval {
                start: from,
                end: from + p.levels.eval(g.size),
            });
            channel = channel.max(send.end);
            free[g.machine] = free[g.machine].max(compute.end);
            chunks.push(Chunk {
                machine: g.machine,
                size: g.size,
                send,
                compute,
                level: g.level.unwrap_or_else(|| p.levels.level_at(g.size)),
            });
        }
        let mut schedule = Schedule::new(ps.len(), chunks);
        if let Some(makespan) = self.makespan {
            schedule.makespan = makespan;
        }
        Ok(schedule)
    }
}

/// A given schedule as the model measured it.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// The verifier's verdict.
    pub verdict: Verdict,
    /// Its makespan (when its last chunk is computed).
    pub makespan: f64,
    /// Its energy, where the model has one.
    pub energy: Option<f64>,
}

impl Measured {
    /// The `verdict` on `schedule`, of no energy.
    pub fn of(verdict: Verdict, schedule: &Schedule) -> Measured {
        Measured {
            verdict,
            makespan: schedule.makespan,
            energy: None,
        }
    }
}

/// The model's own answer to the request, to compare with.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Optimum {
    /// Its makespan.
    pub makespan: f64,
    /// Its energy, where the model has one.
    pub energy: Option<f64>,
    /// Whether it is proven optimal (false: the model's best found, or a
    /// schedule of the request's own settings, such as M4's chunk size).
    pub proven: bool,
}

/// How a model checks a given schedule.
pub struct Checker<R, O> {
    /// The schedule measured and verified against the request.
    pub check: fn(&R, &Given) -> Result<Measured, Error>,
    /// The makespan and energy of the model's answer.
    pub optimum: fn(&O) -> Optimum,
}

/// The checker's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checked {
    /// The check in words, for the page.
    pub summary: String,
    /// The model checked against.
    pub model: String,
    /// True when the schedule breaks no rule.
    pub ok: bool,
    /// Every broken rule, with its machine, chunk and amounts.
    #[serde(default)]
    pub violations: Vec<Violation>,
    /// The schedule's makespan.
    pub makespan: f64,
    /// The schedule's energy, where the model has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy: Option<f64>,
    /// The model's answer's makespan.
    pub optimum: f64,
    /// The model's answer's energy, where the model has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub optimum_energy: Option<f64>,
    /// Whether the answer is proven optimal.
    pub proven: bool,
    /// `(makespan − optimum) / optimum`: how much longer the schedule is.
    pub gap: f64,
    /// The same of the energies, where the model has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub energy_gap: Option<f64>,
}

/// Checks the schedule `given` against the request `body` (the tag
/// removed) of the model named `model`, against the model's `answer` to
/// the request when it is at hand (the page's result), or else against
/// what `solve` answers. Generic over the request and answer types, not
/// over `Model`, so that the model trait (which names this capability)
/// and this file do not depend on each other.
///
/// # Errors
///
/// The request's first problem, the schedule's (its field paths under
/// `schedule.`), or the solver's error.
pub fn check<R, O>(
    checker: &Checker<R, O>,
    model: &str,
    body: Value,
    given: Value,
    answer: Option<Value>,
    solve: impl FnOnce(&R) -> Result<O, Error>,
) -> Result<Checked, Error>
where
    R: DeserializeOwned + Validate,
    O: DeserializeOwned,
{
    let request = typed::<R>(body).map_err(first)?;
    let given = typed::<Given>(given).map_err(|e| under_schedule(first(e)))?;
    let measured = (checker.check)(&request, &given).map_err(under_schedule)?;
    let answer = match answer {
        Some(answer) => output::<O>(answer)?,
        None => solve(&request)?,
    };
    let optimum = (checker.optimum)(&answer);
    let relative = |x: f64, best: f64| (x - best) / best;
    let gap = relative(measured.makespan, optimum.makespan);
    Ok(Checked {
        summary: summary(&measured, &optimum, gap),
        model: model.into(),
        ok: measured.verdict.ok,
        violations: measured.verdict.violations,
        makespan: measured.makespan,
        energy: measured.energy,
        optimum: optimum.makespan,
        optimum_energy: optimum.energy,
        proven: optimum.proven,
        gap,
        energy_gap: (measured.energy.zip(optimum.energy)).map(|(e, b)| relative(e, b)),
    })
}

/// The check in words: valid or the rules broken, the makespan and its
/// distance from the answer's.
fn summary(measured: &Measured, optimum: &Optimum, gap: f64) -> String {
    let verdict = if measured.verdict.ok {
        "valid".to_string()
    } else {
        let rules = measured.verdict.rules();
        let n = measured.verdict.violations.len();
        format!("not valid: {n} violation(s) of {}", rules.join(", "))
    };
    let of = if optimum.proven {
        "the proven optimum"
    } else {
        "the model's answer"
    };
    // Round-off of an equal makespan is no distance.
    let distance = if gap.abs() <= RELATIVE_TOLERANCE {
        "0 % above".to_string()
    } else if gap > 0.0 {
        format!("{} above", percent(gap))
    } else {
        format!("{} below", percent(-gap))
    };
    format!(
        "{verdict}; makespan {}, {distance} {of} {}",
        number(measured.makespan),
        number(optimum.makespan)
    )
}

/// `error` of the given schedule, its field under `schedule.`.
pub fn under_schedule(error: Error) -> Error {
    match error {
        Error::Field { field, invalid } => Error::field(format!("schedule.{field}"), invalid),
        Error::Malformed(message) => Error::Malformed(format!("schedule: {message}")),
        other => other,
    }
}

/// The JSON Schema (draft 2020-12) of a given schedule (`dlt schema
/// schedule`). Native only, as the requests' schemas.
#[cfg(not(target_arch = "wasm32"))]
pub fn schema() -> Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(Given)).unwrap_or_default();
    if let Some(fields) = schema.as_object_mut() {
        fields.insert(
            "title".into(),
            Value::from("a schedule to check (dlt check --schedule)"),
        );
    }
    schema
}
