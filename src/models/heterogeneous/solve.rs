//! From a request to a report: runs the algorithm asked for, verifies its
//! schedule and accounts its energy.

use web_time::Instant;

use super::error::HeterogeneousInvalid;
use crate::core::domain::error::{Error, Validate};
use crate::core::domain::verify::Verdict;
use crate::core::framework::model::Model;
use crate::core::presentation::response::Response;
use crate::core::solving::progress::{Progress, Silent};

use super::heuristics::{ranking, simulate, Found, Sizing};
use super::instance::{Algorithm, Instance, Objective, SortRule, DEFAULT_GAP, DEFAULT_SECONDS};
use super::plan::Plan;
use super::report::{Report, Status};
use super::search::{search, Ending, Snapshot, Stop};
use super::sequence::{Frame, Goal, Limits, Solved};
use super::verify::{verify, Claim};

impl Instance {
    pub(crate) fn goal(&self) -> Goal {
        match self.objective {
            Objective::Energy => Goal::Energy,
            Objective::Makespan | Objective::Pareto => Goal::Time,
        }
    }

    fn limits(&self) -> Limits {
        Limits {
            makespan: self.makespan_limit,
            energy: self.energy_limit,
        }
    }

    /// When a search stops: the requested gap, and the request's one
    /// deadline (shared by every search a front or a comparison runs).
    pub(crate) fn stop(&self, frame: &Frame) -> Stop<'static> {
        Stop {
            gap: self.gap.unwrap_or(DEFAULT_GAP),
            deadline: Some(frame.deadline),
            snapshot: None,
        }
    }

    /// One heuristic with one sort rule.
    pub(crate) fn heuristic(&self, frame: &Frame, algorithm: Algorithm, rule: SortRule) -> Found {
        let clock = Instant::now();
        let seed = self.seed.map_or(0, |s| s.0);
        let order = ranking(&frame.workers, rule, seed);
        let (sizing, name) = match algorithm {
            Algorithm::Gss | Algorithm::SuperGss => (
                Sizing::gss(&frame.workers, self.load, self.min_chunk),
                "gss",
            ),
            _ => (Sizing::Ssc, "ssc"),
        };
        let plan = simulate(&frame.workers, self.load, &order, &sizing);
        Found {
            solved: frame.evaluate(plan),
            algorithm: name,
            sort: rule,
            seconds: clock.elapsed().as_secs_f64(),
        }
    }

    /// The best of one heuristic over every sort rule, for `goal`, with
    /// every rule's schedule.
    pub(crate) fn super_heuristic(
        &self,
        frame: &Frame,
        algorithm: Algorithm,
        goal: Goal,
    ) -> (Found, Vec<Found>) {
        let all: Vec<Found> = SortRule::ALL
            .iter()
            .map(|&rule| self.heuristic(frame, algorithm, rule))
            .collect();
        let mut best = all
            .iter()
            .min_by(|a, b| a.solved.value(goal).total_cmp(&b.solved.value(goal)))
            .cloned()
            // cannot fail: there is at least one rule.
            .expect("a sort rule");
        best.algorithm = if best.algorithm == "ssc" {
            "super-ssc"
        } else {
            "super-gss"
        };
        best.seconds = all.iter().map(|f| f.seconds).sum();
        (best, all)
    }

    /// The exact search for `goal` within `limits`, polished (the other
    /// criterion least among ties), with its outcome.
    pub(crate) fn exact(
        &self,
        frame: &Frame,
        goal: Goal,
        limits: Limits,
        known: Vec<Solved>,
        progress: &mut dyn Progress,
        snapshot: Option<&Snapshot>,
    ) -> Result<(Option<Solved>, super::search::Outcome), Error> {
        let n = self.chunks.get();
        // A heuristic's schedule with more than `n` chunks still suggests
        // a sequence: its first `n` machines, solved as an LP.
        let mut seeds = Vec::new();
        let mut tried: Vec<Vec<usize>> = Vec::new();
        for s in known {
            // A schedule outside the limits (a front's previous point) may
            // have one within them on the same sequence.
            let head = if s.plan.sequence.len() <= n {
                if within(&s, limits) {
                    seeds.push(s);
                    continue;
                }
                s.plan.sequence
            } else {
                s.plan.sequence[..n].to_vec()
            };
            if !tried.contains(&head) {
                if let Ok(Some(x)) = frame.solve(&head, goal, limits, false) {
                    seeds.push(x);
                }
                tried.push(head);
            }
        }
        let stop = Stop {
            snapshot,
            ..self.stop(frame)
        };
        let outcome = search(frame, n, goal, limits, seeds, stop, progress)?;
        let polished = match &outcome.best {
            Some(best) => Some(
                frame
                    .solve(&best.plan.sequence, goal, limits, true)?
                    .filter(|p| p.value(goal) <= best.value(goal) * (1.0 + 1e-9) + 1e-300)
                    .unwrap_or_else(|| best.clone()),
            ),
            None => None,
        };
        Ok((polished, outcome))
    }

    /// Solves the request (see the module docs of M7).
    ///
    /// # Errors
    ///
    /// [`Error::Field`] for invalid input or a limit below the least value
    /// (stating it), [`Error::Solver`] if an LP fails, [`Error::Cancelled`]
    /// when cancelled before any schedule was found.
    pub fn solve(&self, progress: &mut dyn Progress) -> Result<Report, Error> {
        self.check()?;
        let clock = Instant::now();
        let frame = Frame::new(self);
        let goal = self.goal();
        let mut report = match (self.objective, self.algorithm) {
            (Objective::Pareto, _) => super::pareto::front(self, &frame, progress)?,
            (_, Algorithm::Exact) => {
                let mut known = Vec::new();
                if self.heuristics_fit() {
                    for algorithm in [Algorithm::SuperGss, Algorithm::SuperSsc] {
                        let (_, all) = self.super_heuristic(&frame, algorithm, goal);
                        known.extend(all.into_iter().map(|f| f.solved));
                    }
                }
                self.exact_report(&frame, known, progress)?.0
            }
            (_, Algorithm::Compare) => super::pareto::compare(self, &frame, progress)?,
            (_, algorithm) => {
                let found = match algorithm {
                    Algorithm::SuperSsc | Algorithm::SuperGss => {
                        self.super_heuristic(&frame, algorithm, goal).0
                    }
                    _ => self.heuristic(&frame, algorithm, self.sort),
                };
                let mut report = self.report(&frame, &found.solved, None);
                report.algorithm = found.algorithm.into();
                report.sort = found.sort.name().into();
                report
            }
        };
        report.seconds = clock.elapsed().as_secs_f64();
        Ok(report)
    }

    /// The fastest single machine's time for the whole load in one chunk,
    /// woken at 0: `min_i S_i + O_i + C_i V + τ_i(V)`, the reference of
    /// speedup and efficiency.
    pub fn single(&self) -> f64 {
        let v = self.load;
        self.workers()
            .iter()
            .map(|w| w.startup + w.send(v) + w.time(v))
            .fold(f64::INFINITY, f64::min)
    }

    /// The best schedule of one sequence (the machine of each chunk, counts
    /// expanded) for the request's objective within its limits, the other
    /// criterion least among ties; `None` when no schedule of the sequence
    /// meets the limits. What a brute force over sequences calls.
    ///
    /// # Errors
    ///
    /// [`Error::Field`] for invalid input, [`Error::Malformed`] for a
    /// machine out of range, [`Error::Solver`] if an LP fails.
    pub fn solve_sequence(&self, sequence: &[usize]) -> Result<Option<Report>, Error> {
        self.check()?;
        let frame = Frame::new(self);
        if let Some(&i) = sequence.iter().find(|&&i| i >= frame.workers.len()) {
            return Err(Error::Malformed(format!(
                "machine {i} is not one of the {} machines",
                frame.workers.len()
            )));
        }
        let solved = frame.solve(sequence, self.goal(), self.limits(), true)?;
        Ok(solved.map(|s| self.report(&frame, &s, None)))
    }

    /// The exact search's report with its schedule, or the error that a
    /// limit is too tight.
    pub(crate) fn exact_report(
        &self,
        frame: &Frame,
        known: Vec<Solved>,
        progress: &mut dyn Progress,
    ) -> Result<(Report, Solved), Error> {
        let goal = self.goal();
        // While it runs, the page sees the best schedule so far.
        let show = |s: &Solved, bound: f64| {
            let mut report = self.report(frame, s, Some(bound));
            report.status = Status::Interrupted;
            let answer = super::view::answer(self, report);
            Response::new(super::Heterogeneous::ID.name, &answer).ok()
        };
        let (best, outcome) =
            self.exact(frame, goal, self.limits(), known, progress, Some(&show))?;
        let Some(best) = best else {
            return Err(match outcome.ending {
                Ending::Complete => self.too_tight(frame)?,
                Ending::Cancelled => Error::Cancelled,
                Ending::Time | Ending::Budget => Error::field(
                    "max_seconds",
                    HeterogeneousInvalid::NotFoundInTime(
                        self.max_seconds.unwrap_or(DEFAULT_SECONDS),
                    )
                    .into(),
                ),
            });
        };
        let status = match outcome.ending {
            Ending::Complete if self.gap.unwrap_or(DEFAULT_GAP) <= DEFAULT_GAP => Status::Optimal,
            Ending::Complete => Status::StoppedAtGap,
            Ending::Time | Ending::Budget => Status::StoppedAtTime,
            Ending::Cancelled => Status::Interrupted,
        };
        // The least energy among all fastest schedules, as the model asks;
        // the least-energy answer breaks ties within its sequence only (a
        // search for the fastest among the least-energy schedules costs as
        // much again as the first and rarely changes anything).
        let (best, more) = match (outcome.ending, goal) {
            (Ending::Complete, Goal::Time) => {
                self.tie_break(frame, goal, self.limits(), best, progress)?
            }
            _ => (best, 0),
        };
        let mut report = self.report(frame, &best, Some(outcome.bound));
        report.status = status;
        report.lps = outcome.lps + more;
        report.nodes = outcome.nodes;
        Ok((report, best))
    }

    /// Among all schedules (not only `best`'s sequence) within `1e-10` of
    /// `best` on `goal`, the best on the other criterion: the least energy
    /// among the fastest, or the fastest among the least-energy ones. A
    /// second search, bounded by the first's value; with its LPs.
    ///
    /// # Errors
    ///
    /// [`Error::Solver`] if an LP fails.
    pub(crate) fn tie_break(
        &self,
        frame: &Frame,
        goal: Goal,
        limits: Limits,
        best: Solved,
        progress: &mut dyn Progress,
    ) -> Result<(Solved, u64), Error> {
        let value = best.value(goal);
        let slack = value * (1.0 + 1e-10) + f64::MIN_POSITIVE;
        let (other, tied) = match goal {
            Goal::Time => (
                Goal::Energy,
                Limits {
                    makespan: Some(slack),
                    ..limits
                },
            ),
            Goal::Energy => (
                Goal::Time,
                Limits {
                    energy: Some(slack),
                    ..limits
                },
            ),
        };
        let n = self.chunks.get();
        let outcome = search(
            frame,
            n,
            other,
            tied,
            vec![best.clone()],
            self.stop(frame),
            progress,
        )?;
        let lps = outcome.lps;
        let better = outcome
            .best
            .filter(|s| s.value(other) < best.value(other) && s.value(goal) <= slack);
        Ok((better.unwrap_or(best), lps))
    }

    /// The error for limits no schedule meets: the limit that is below
    /// its least value, with that value.
    fn too_tight(&self, frame: &Frame) -> Result<Error, Error> {
        let free = Limits::default();
        let mut progress = Silent;
        let fastest = self
            .exact(frame, Goal::Time, free, Vec::new(), &mut progress, None)?
            .0;
        if let (Some(limit), Some(f)) = (self.makespan_limit, &fastest) {
            if limit < f.makespan {
                let invalid = HeterogeneousInvalid::Unattainable {
                    value: limit,
                    least: f.makespan,
                };
                return Ok(Error::field("makespan_limit", invalid.into()));
            }
        }
        let within = Limits {
            makespan: self.makespan_limit,
            energy: None,
        };
        let least = self
            .exact(frame, Goal::Energy, within, Vec::new(), &mut progress, None)?
            .0;
        let minimum = least.map_or(f64::INFINITY, |l| l.energy);
        let value = self.energy_limit.unwrap_or(0.0);
        Ok(Error::field(
            "energy_limit",
            HeterogeneousInvalid::Unattainable {
                value,
                least: minimum,
            }
            .into(),
        ))
    }

    /// The verifier's verdict on a schedule, bound to `n` and the limits
    /// when the exact search made it.
    pub(crate) fn verdict(&self, solved: &Solved, exact: bool) -> Verdict {
        let claim = Claim {
            makespan: solved.makespan,
            energy: solved.energy,
            chunks: exact.then(|| self.chunks.get()),
            makespan_limit: self.makespan_limit.filter(|_| exact),
            energy_limit: self.energy_limit.filter(|_| exact),
        };
        verify(self, &solved.plan, claim)
    }

    /// The report of one schedule, verified, with its energy by state.
    pub(crate) fn report(&self, frame: &Frame, solved: &Solved, bound: Option<f64>) -> Report {
        let plan: &Plan = &solved.plan;
        let exact = bound.is_some();
        let value = solved.value(self.goal());
        let bound = bound.map(|b| b.min(value));
        let mut notes = Vec::new();
        if !exact && plan.sequence.len() > self.chunks.get() {
            notes.push(format!(
                "the heuristic sent {} chunks, more than the exact search's n = {}: that is how a heuristic can beat the exact optimum for n",
                plan.sequence.len(),
                self.chunks.get()
            ));
        }
        Report {
            makespan: solved.makespan,
            energy: solved.energy,
            lower_bound: bound,
            gap: bound.map(|b| {
                if value > 0.0 {
                    (value - b) / value
                } else {
                    0.0
                }
            }),
            status: if exact {
                Status::Optimal
            } else {
                Status::Heuristic
            },
            algorithm: if exact { "exact".into() } else { String::new() },
            sort: String::new(),
            sequence: plan.sequence.clone(),
            sizes: plan.sizes.clone(),
            wake: plan.wakes(&frame.workers),
            energy_parts: frame.energy(plan, solved.makespan),
            schedule: plan.schedule(&frame.workers),
            verdict: self.verdict(solved, exact),
            lps: 0,
            nodes: 0,
            seconds: 0.0,
            front: Vec::new(),
            compare: Vec::new(),
            notes,
            objective: self.objective,
            chunk_limit: self.chunks.get(),
            rows: self.machines.iter().map(|m| m.count.get()).collect(),
        }
    }
}

/// Whether a schedule meets the limits.
fn within(s: &Solved, limits: Limits) -> bool {
    limits.makespan.is_none_or(|t| s.makespan <= t) && limits.energy.is_none_or(|e| s.energy <= e)
}
