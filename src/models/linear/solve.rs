//! Solving an M2 instance: the best set of machines in the given order
//! ([`super::subset`]), or in every order, its loads and schedule, the
//! verifier's verdict, the energy and the series over `m`.

use super::energy as by_energy;
use super::plan::{self, chosen, equal_finish, makespan_of, Chosen, Plan};
use super::subset::{self, Stop};
use super::{
    as_processor, busy_of, energy_of, schedule_of, series_counts, split, Instance, Machine,
    Objective, Power, Report, SeriesPoint, Skipped, MAX_SCHEDULE, MAX_SERIES_POINTS,
};
use crate::core::domain::error::{Error, Invalid, Validate};
use crate::core::domain::platform::Processor;
use crate::core::domain::schedule::Schedule;
use crate::core::domain::verify::{verify, Rules, Verdict};
use crate::core::solving::progress::Progress;

/// The most runs of skipped machines the report explains.
const MAX_EXPLAINED: usize = 20;

/// The best schedule found for machines in one order.
struct Best<'a> {
    chosen: Chosen<'a>,
    /// The equal-finish makespan of the chosen machines.
    makespan: f64,
    /// `None` when proven optimal; otherwise a proven lower bound.
    lower_bound: Option<f64>,
}

impl Instance {
    /// Solves the instance.
    ///
    /// # Errors
    ///
    /// [`Error::Field`] for invalid input, [`Error::Cancelled`] if
    /// `progress` asks to stop, [`Error::Solver`] if no schedule the
    /// verifier accepts can be built.
    pub fn solve(&self, progress: &mut dyn Progress) -> Result<Report, Error> {
        Ok(self.solve_busy(progress)?.0)
    }

    /// [`Instance::solve`], with the channel's and the machines' busy times
    /// of the schedule ([`busy_of`]) from which its energy follows.
    pub(super) fn solve_busy(
        &self,
        progress: &mut dyn Progress,
    ) -> Result<(Report, (f64, f64)), Error> {
        self.check()?;
        let all = self.expanded();
        let (order, best, orders_tried) = self.choose(&all, progress)?;
        let served: Vec<&Machine> = order.iter().map(|&i| all[i]).collect();
        let (sizes, schedule, verdict) = verified(&all, &order, &best.chosen, self.load)?;
        let makespan = schedule.makespan;
        let busy = busy_of(&best.chosen.machines, &sizes);
        let energy = self
            .power
            .map(|p| energy_of(&p, busy.0, busy.1, makespan, all.len()));
        let single = served[0].startup + (served[0].rate + served[0].compute) * self.load;
        let series = if self.series {
            self.series(&served, single, progress)?
        } else {
            Vec::new()
        };
        let skipped = explain(&served, &best.chosen, self.load, makespan);
        let listed = order.iter().enumerate().all(|(k, &i)| k == i);
        let active = best.chosen.machines.len();
        let mut used = best.chosen.positions.clone();
        used.truncate(MAX_SCHEDULE);
        let mut sizes = sizes;
        sizes.truncate(MAX_SCHEDULE);
        let report = Report {
            machines: all.len(),
            order: (!listed).then_some(order),
            active,
            note: note(active, all.len(), best.lower_bound.is_some(), self),
            makespan,
            lower_bound: best.lower_bound,
            single,
            used,
            sizes,
            skipped,
            schedule: (active <= MAX_SCHEDULE).then_some(schedule),
            verdict,
            energy,
            series,
            orders_tried,
        };
        Ok((report, busy))
    }

    /// `T(m)` and `E(m)` for the first `m` served machines, each with its
    /// own best set of machines; `single` is `T(1)`.
    fn series(
        &self,
        served: &[&Machine],
        single: f64,
        progress: &mut dyn Progress,
    ) -> Result<Vec<SeriesPoint>, Error> {
        let counts = series_counts(served.len(), MAX_SERIES_POINTS);
        let all_runs = subset::runs(served);
        let mut points: Vec<SeriesPoint> = Vec::with_capacity(counts.len());
        for (k, &m) in counts.iter().enumerate() {
            if !progress.report(k as f64 / counts.len() as f64, "series over m") {
                return Err(Error::Cancelled);
            }
            // More machines to choose from never make it slower: the last
            // point's makespan bounds this one's.
            let upper = match points.last() {
                Some(p) => p.makespan,
                None => split(&served[..m], self.load).makespan,
            };
            let runs = subset::first(&all_runs, m);
            let (used, makespan, _) = fastest(&served[..m], &runs, self.load, upper, progress)?;
            let energy = self.power.map(|p| {
                let (sending, busy) = plan::busy_times(subset::used(&runs, &used), makespan);
                energy_of(&p, sending, busy, makespan, m).total
            });
            points.push(SeriesPoint {
                machines: m,
                active: used.iter().sum(),
                makespan,
                speedup: single / makespan,
                energy,
            });
        }
        Ok(points)
    }
}

impl Instance {
    /// The serving order, the set of machines for the objective, and how
    /// many orders were tried.
    fn choose<'a>(
        &self,
        all: &[&'a Machine],
        progress: &mut dyn Progress,
    ) -> Result<(Vec<usize>, Best<'a>, usize), Error> {
        if self.best_order {
            let found = best_order(all, self.load, &self.score(all.len()), progress);
            match (found, self.deadline) {
                (Err(Error::Malformed(_)), Some(deadline)) => {
                    let time = |p: &Plan| Some(p.makespan(self.load));
                    let fastest = best_order(all, self.load, &time, progress)?;
                    Err(missed(deadline, fastest.1.makespan))
                }
                (found, _) => found,
            }
        } else {
            let order: Vec<usize> = self
                .order
                .clone()
                .unwrap_or_else(|| (0..all.len()).collect());
            let served: Vec<&Machine> = order.iter().map(|&i| all[i]).collect();
            let best = match (self.objective, self.power) {
                (Objective::Energy, Some(power)) => {
                    self.least_energy(&served, &power, all.len(), progress)?
                }
                _ => best_in_order(&served, self.load, None, progress)?,
            };
            Ok((order, best, 1))
        }
    }

    /// How `best_order` scores a sequence: its makespan, or its energy if
    /// it is feasible and meets the deadline.
    fn score(&self, system: usize) -> impl Fn(&Plan) -> Option<f64> + '_ {
        move |plan: &Plan| match (self.objective, &self.power) {
            (Objective::Energy, Some(power)) => plan
                .energy(self.load, power, system)
                .filter(|(t, _)| self.deadline.is_none_or(|d| *t <= d))
                .map(|(_, e)| e),
            _ => Some(plan.makespan(self.load)),
        }
    }

    /// The set of `served`, in this order, with the least energy by the
    /// deadline.
    fn least_energy<'a>(
        &self,
        served: &[&'a Machine],
        power: &Power,
        system: usize,
        progress: &mut dyn Progress,
    ) -> Result<Best<'a>, Error> {
        let runs = subset::runs(served);
        match by_energy::least(&runs, self.load, power, system, self.deadline) {
            Some(least) => Ok(Best {
                chosen: chosen(&runs, &least.used),
                makespan: least.makespan,
                lower_bound: None,
            }),
            None => {
                let fastest = best_in_order(served, self.load, None, progress)?;
                Err(missed(self.deadline.unwrap_or(0.0), fastest.makespan))
            }
        }
    }
}

/// The loads of `chosen` (machines of `all` served in `order`), their
/// schedule and its verdict: the fast path's loads, or the LP's if the
/// verifier objects to those.
///
/// # Errors
///
/// [`Error::Solver`] if the LP fails, [`Error::Malformed`] if the verifier
/// objects to its loads too.
fn verified(
    all: &[&Machine],
    order: &[usize],
    chosen: &Chosen,
    load: f64,
) -> Result<(Vec<f64>, Schedule, Verdict), Error> {
    let processors: Vec<Processor> = all.iter().map(|m| as_processor(m)).collect();
    let ids: Vec<usize> = chosen.positions.iter().map(|&p| order[p]).collect();
    let attempt = |sizes: Vec<f64>| {
        let schedule = schedule_of(&chosen.machines, &sizes, all.len(), &ids);
        let verdict = verify(&processors, load, &schedule, Rules::SINGLE_INSTALLMENT);
        (sizes, schedule, verdict)
    };
    let makespan = makespan_of(&chosen.machines, load);
    let fast = attempt(plan::loads(&chosen.machines, load, makespan));
    if fast.2.ok {
        return Ok(fast);
    }
    // The fast path's rounding did not hold: the LP decides.
    let slow = attempt(plan::lp_loads(&chosen.machines, load)?);
    if slow.2.ok {
        return Ok(slow);
    }
    let why = slow.2.violation.clone().unwrap_or_default();
    Err(Error::Malformed(format!(
        "no schedule the verifier accepts could be built ({why})"
    )))
}

/// The error of a deadline no set of machines meets.
fn missed(deadline: f64, fastest: f64) -> Error {
    Error::field(
        "deadline",
        Invalid::BelowMinimum {
            value: deadline,
            minimum: fastest,
        },
    )
}

/// The best set of `served` kept in this order: the exact search, or the
/// best prefix with a proven bound when the search is too large. `upper`
/// is the makespan of some schedule of these machines (the best prefix's
/// when not given).
fn best_in_order<'a>(
    served: &[&'a Machine],
    load: f64,
    upper: Option<f64>,
    progress: &mut dyn Progress,
) -> Result<Best<'a>, Error> {
    let upper = upper.unwrap_or_else(|| split(served, load).makespan);
    let runs = subset::runs(served);
    let (used, makespan, lower_bound) = fastest(served, &runs, load, upper, progress)?;
    Ok(Best {
        chosen: chosen(&runs, &used),
        makespan,
        lower_bound,
    })
}

/// The copies of each of `runs` (the runs of `served`) that make the
/// fastest schedule, its makespan, and a proven lower bound when the search
/// was cut short by its size or time limit (the best prefix is used then);
/// `upper` is the makespan of
/// some schedule of these machines.
fn fastest(
    served: &[&Machine],
    runs: &[subset::Run],
    load: f64,
    upper: f64,
    progress: &mut dyn Progress,
) -> Result<(Vec<usize>, f64, Option<f64>), Error> {
    let mut go_on = || progress.report(0.0, "choosing machines");
    let prefix = |lower_bound| {
        let prefix = split(served, load);
        (
            subset::prefix_use(runs, prefix.active),
            prefix.makespan,
            lower_bound,
        )
    };
    match subset::best(runs, load, upper * (1.0 + 1e-9), &mut go_on) {
        Ok(choice) if choice.makespan <= upper => Ok((choice.used, choice.makespan, None)),
        // Rounding made the search's best no better than the bound's.
        Ok(_) => Ok(prefix(None)),
        // A time limit (the only way a search is asked to stop: the page
        // cancels by ending its worker) returns what a size limit does.
        Err(Stop::Size | Stop::Asked) => Ok(prefix(Some(lower_bound(served, load)))),
    }
}

/// A lower bound on the makespan: without start-ups, a plan takes
/// `V/s_P`, and the largest `s_P` over the plans follows machine by machine
/// from the back (the map `s ↦ 1/(A+C) + ρs` grows with `s`).
fn lower_bound(served: &[&Machine], load: f64) -> f64 {
    let s = served.iter().rev().fold(0.0_f64, |s, m| {
        let with = 1.0 / (m.compute + m.rate) + m.compute / (m.compute + m.rate) * s;
        s.max(with)
    });
    load / s
}

/// The enumeration of every order of every subset of the machines, built
/// from the back (the machine served last first) so that each sequence
/// extends the plan of the one before.
struct OrderSearch<'s, 'a> {
    all: &'s [&'a Machine],
    /// A plan's score (makespan or energy; `None`: not allowed).
    score: &'s dyn Fn(&Plan) -> Option<f64>,
    /// The machines of the current sequence, last served first.
    sequence: Vec<usize>,
    /// The lowest score so far and its serving order.
    best: (f64, Vec<usize>),
    /// The sequences scored.
    tried: usize,
}

impl OrderSearch<'_, '_> {
    /// Scores every sequence that puts a machine not in `used` in front of
    /// the current one (whose plan is `plan`), and their extensions.
    fn grow(&mut self, plan: Plan, used: u32) {
        for i in 0..self.all.len() {
            if used & (1 << i) != 0 {
                continue;
            }
            let plan = plan.after(self.all[i]);
            self.sequence.push(i);
            self.tried += 1;
            match (self.score)(&plan) {
                // Built from the back: the serving order is reversed.
                Some(score) if score < self.best.0 => {
                    self.best = (score, self.sequence.iter().rev().copied().collect());
                }
                _ => {}
            }
            self.grow(plan, used | (1 << i));
            self.sequence.pop();
        }
    }
}

/// Every order of at most [`super::MAX_ENUMERATED`] machines with every
/// subset: the sequences are built from the back as plans, each scored by
/// `score` (its makespan, or its energy; `None`: not allowed); the lowest
/// wins.
fn best_order<'a>(
    all: &[&'a Machine],
    load: f64,
    score: &dyn Fn(&Plan) -> Option<f64>,
    progress: &mut dyn Progress,
) -> Result<(Vec<usize>, Best<'a>, usize), Error> {
    let mut search = OrderSearch {
        all,
        score,
        sequence: Vec::new(),
        best: (f64::INFINITY, Vec::new()),
        tried: 0,
    };
    if !progress.report(0.0, "trying orders") {
        return Err(Error::Cancelled);
    }
    search.grow(Plan::EMPTY, 0);
    let (_, sequence) = search.best;
    if sequence.is_empty() {
        return Err(Error::Malformed(
            "no order of the machines qualifies".into(),
        ));
    }
    let mut order = sequence.clone();
    order.extend((0..all.len()).filter(|i| !sequence.contains(i)));
    let machines: Vec<&Machine> = sequence.iter().map(|&i| all[i]).collect();
    let makespan = makespan_of(&machines, load);
    let best = Best {
        chosen: Chosen {
            positions: (0..machines.len()).collect(),
            machines,
        },
        makespan,
        lower_bound: None,
    };
    Ok((order, best, search.tried))
}

/// The sentence under the makespan.
fn note(active: usize, machines: usize, bounded: bool, instance: &Instance) -> Option<String> {
    if bounded {
        return Some(format!(
            "{active} of {machines} machines receive load: the best prefix of the order. The \
             search over every subset stopped at its size or time limit, so this is not \
             proven optimal."
        ));
    }
    let within = if instance.best_order {
        "every subset in every order"
    } else {
        "every subset kept in the serving order"
    };
    match instance.objective {
        Objective::Energy => Some(format!(
            "{active} of {machines} machines receive load: this set has the least energy of \
             {within}{}.",
            instance.deadline.map_or(String::new(), |d| format!(
                " that finish by {}",
                crate::core::domain::number::number(d)
            ))
        )),
        Objective::Time => (active < machines).then(|| {
            format!(
                "{active} of {machines} machines receive load: this set is proven the fastest \
                 of {within}."
            )
        }),
    }
}

/// Why the machines left out are left out: for each run of them (the
/// first [`MAX_EXPLAINED`]), what serving its first machine too would do.
fn explain(served: &[&Machine], chosen: &Chosen, load: f64, makespan: f64) -> Vec<Skipped> {
    let mut out = Vec::new();
    let mut k = 0; // chosen machines before position p
    let mut p = 0;
    while p < served.len() && out.len() < MAX_EXPLAINED {
        if chosen.positions.get(k) == Some(&p) {
            k += 1;
            p += 1;
            continue;
        }
        let end = chosen.positions.get(k).copied().unwrap_or(served.len());
        let mut with = chosen.machines.clone();
        with.insert(k, served[p]);
        let (t, positive) = equal_finish(&with, load);
        let reason = if positive && t.is_finite() {
            format!(
                "serving it too, all finishing together, would take {} (+{:.3} %): its \
                 start-up and channel time cost more than its share saves",
                crate::core::domain::number::number(t),
                (t / makespan - 1.0) * 100.0
            )
        } else {
            "serving it too would leave some machine a negative share: the load is too small \
             to keep it busy as well"
                .to_string()
        };
        out.push(Skipped {
            from: p,
            to: end - 1,
            reason,
        });
        p = end;
    }
    out
}
