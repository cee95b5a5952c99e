//! The Pareto front of time and energy, and the comparison of every
//! algorithm with every sort rule.
//!
//! **Front** (ε-constraint): the fastest schedule (least energy among the
//! fastest) and the least-energy schedule (fastest among those) are its
//! ends; between them the makespan limit is swept over evenly spaced
//! values and, for each, the least energy within it is searched. A point
//! is marked proven when its search closed the gap; points another point
//! beats in both criteria are dropped.

use super::error::HeterogeneousInvalid;
use crate::core::domain::error::Error;
use crate::core::solving::progress::Progress;

use super::heuristics::Found;
use super::instance::{Algorithm, Instance};
use super::report::{Compared, FrontPoint, Report, Status};
use super::search::{Ending, Outcome};
use super::sequence::{Frame, Goal, Limits, Solved};

/// The default number of points of a front.
pub const DEFAULT_POINTS: usize = 20;

/// Scales one step's progress into its share of the whole.
struct Share<'a> {
    inner: &'a mut dyn Progress,
    from: f64,
    width: f64,
}

impl Progress for Share<'_> {
    fn report(&mut self, done: f64, what: &str) -> bool {
        self.inner.report(self.from + self.width * done, what)
    }
}

/// The heuristics' rows (every rule of SSC and GSS, then the two super
/// heuristics) for `goal`.
fn heuristic_rows(instance: &Instance, frame: &Frame, goal: Goal) -> Vec<Found> {
    let mut rows = Vec::new();
    if !instance.heuristics_fit() {
        return rows;
    }
    for algorithm in [Algorithm::SuperSsc, Algorithm::SuperGss] {
        let (best, all) = instance.super_heuristic(frame, algorithm, goal);
        rows.extend(all);
        rows.push(best);
    }
    rows
}

/// The comparison table's rows, with qualities against the table's best.
fn table(instance: &Instance, rows: &[Found], exact: Option<(&Solved, f64)>) -> Vec<Compared> {
    let mut all: Vec<Compared> = rows
        .iter()
        .map(|f| Compared {
            algorithm: f.algorithm.into(),
            sort: f.sort.name().into(),
            makespan: f.solved.makespan,
            energy: f.solved.energy,
            chunks: f.solved.plan.sequence.len(),
            seconds: f.seconds,
            time_quality: 0.0,
            energy_quality: 0.0,
            verified: instance.verdict(&f.solved, false).ok,
        })
        .collect();
    if let Some((s, seconds)) = exact {
        all.insert(
            0,
            Compared {
                algorithm: "exact".into(),
                sort: String::new(),
                makespan: s.makespan,
                energy: s.energy,
                chunks: s.plan.sequence.len(),
                seconds,
                time_quality: 0.0,
                energy_quality: 0.0,
                verified: instance.verdict(s, true).ok,
            },
        );
    }
    let fastest = all.iter().map(|c| c.makespan).fold(f64::INFINITY, f64::min);
    let least = all.iter().map(|c| c.energy).fold(f64::INFINITY, f64::min);
    // Round-off below 1e-12 is no distance (it would show as 2e-14 %).
    let distance = |x: f64, best: f64| {
        let d = if best > 0.0 { x / best - 1.0 } else { 0.0 };
        if d.abs() < 1e-12 {
            0.0
        } else {
            d
        }
    };
    for c in &mut all {
        c.time_quality = distance(c.makespan, fastest);
        c.energy_quality = distance(c.energy, least);
    }
    all
}

/// Every algorithm with every sort rule, and the exact search, for the
/// request's objective; the report shows the exact schedule.
///
/// # Errors
///
/// As [`Instance::solve`].
pub(crate) fn compare(
    instance: &Instance,
    frame: &Frame,
    progress: &mut dyn Progress,
) -> Result<Report, Error> {
    let goal = instance.goal();
    let rows = heuristic_rows(instance, frame, goal);
    let known = rows.iter().map(|f| f.solved.clone()).collect();
    let clock = web_time::Instant::now();
    let (mut report, exact) = instance.exact_report(frame, known, progress)?;
    let seconds = clock.elapsed().as_secs_f64();
    report.compare = table(instance, &rows, Some((&exact, seconds)));
    Ok(report)
}

/// A point found for the front: its schedule, the makespan limit it
/// answers, and whether its search closed the gap.
type Point = (Solved, f64, bool);

/// Whether a search proved its schedule best (closed the gap).
fn proven(outcome: &Outcome) -> bool {
    outcome.ending == Ending::Complete
}

/// The Pareto front; the report shows its fastest schedule and carries the
/// heuristics' points beside it.
///
/// # Errors
///
/// As [`Instance::solve`].
pub(crate) fn front(
    instance: &Instance,
    frame: &Frame,
    progress: &mut dyn Progress,
) -> Result<Report, Error> {
    let points = instance.points.map_or(DEFAULT_POINTS, |p| p.get());
    let rows = heuristic_rows(instance, frame, Goal::Time);
    let known: Vec<Solved> = rows.iter().map(|f| f.solved.clone()).collect();
    let step = 1.0 / points as f64;
    let (fastest, first, tie_lps) = fast_end(instance, frame, known.clone(), step, progress)?;
    let mut seeds = known;
    seeds.push(fastest.clone());
    let (thrifty, last) = instance.exact(
        frame,
        Goal::Energy,
        Limits::default(),
        seeds,
        &mut Share {
            inner: progress,
            from: step,
            width: step,
        },
        None,
    )?;
    if last.ending == Ending::Cancelled {
        return Err(Error::Cancelled);
    }
    // Out of time before the thrifty end: the front is what there is.
    let thrifty = thrifty.unwrap_or_else(|| fastest.clone());
    let mut found: Vec<Point> = vec![
        (fastest.clone(), fastest.makespan, proven(&first)),
        (thrifty.clone(), thrifty.makespan, proven(&last)),
    ];
    let ends = (&fastest, &thrifty);
    let (lps, nodes) = sweep(instance, frame, ends, points, &mut found, progress)?;
    let front = nondominated(&found, frame);
    let mut report = instance.report(frame, &fastest, Some(first.bound));
    report.status = if proven(&first) {
        Status::Optimal
    } else {
        Status::StoppedAtTime
    };
    if !front.iter().all(|p| p.proven) {
        report.notes.push("the time limit stopped the front before every point was proven optimal; those points are marked".into());
    }
    report.front = front;
    report.compare = table(instance, &rows, None);
    report.lps = first.lps + last.lps + tie_lps + lps;
    report.nodes = first.nodes + last.nodes + nodes;
    Ok(report)
}

/// The front's fast end: the fastest schedule, then the least energy
/// among all fastest schedules (when the search proved the fastest), with
/// the search's outcome and the tie-break's LPs. The front's first share of
/// progress.
fn fast_end(
    instance: &Instance,
    frame: &Frame,
    known: Vec<Solved>,
    step: f64,
    progress: &mut dyn Progress,
) -> Result<(Solved, Outcome, u64), Error> {
    let free = Limits::default();
    let (fastest, first) = instance.exact(
        frame,
        Goal::Time,
        free,
        known,
        &mut Share {
            inner: progress,
            from: 0.0,
            width: step,
        },
        None,
    )?;
    if first.ending == Ending::Cancelled {
        return Err(Error::Cancelled);
    }
    let Some(fastest) = fastest else {
        let seconds = instance
            .max_seconds
            .unwrap_or(super::instance::DEFAULT_SECONDS);
        return Err(Error::field(
            "max_seconds",
            HeterogeneousInvalid::NotFoundInTime(seconds).into(),
        ));
    };
    let (fastest, tie_lps) = match first.ending {
        Ending::Complete => instance.tie_break(
            frame,
            Goal::Time,
            free,
            fastest,
            &mut Share {
                inner: progress,
                from: 0.0,
                width: step,
            },
        )?,
        _ => (fastest, 0),
    };
    Ok((fastest, first, tie_lps))
}

/// The points between the ends (fastest, thrifty): the least energy within
/// each of the evenly spaced makespan limits, added to `found`; the LPs
/// and nodes of their searches.
///
/// The limits are swept from the largest down: the least energy within a
/// limit is also the least within every smaller limit its schedule meets
/// (the least energy only grows as the limit falls), so a proven point
/// answers those limits without a search of its own.
fn sweep(
    instance: &Instance,
    frame: &Frame,
    (fastest, thrifty): (&Solved, &Solved),
    points: usize,
    found: &mut Vec<Point>,
    progress: &mut dyn Progress,
) -> Result<(u64, u64), Error> {
    let (t0, t1) = (fastest.makespan, thrifty.makespan);
    let step = 1.0 / points as f64;
    let (mut lps, mut nodes) = (0, 0);
    let mut previous = thrifty.clone();
    let mut answered: Option<usize> = None;
    for k in (1..points.saturating_sub(1)).rev() {
        let limit = t0 + (t1 - t0) * k as f64 / (points - 1) as f64;
        if limit <= t0 || limit >= t1 {
            continue;
        }
        if let Some(at) = answered.filter(|&at| found[at].0.makespan <= limit) {
            found[at].1 = limit;
            continue;
        }
        let within = Limits {
            makespan: Some(limit),
            energy: None,
        };
        let mut part = Share {
            inner: progress,
            from: (points - k) as f64 * step,
            width: step,
        };
        let seeds = vec![previous.clone(), fastest.clone()];
        let (point, outcome) =
            instance.exact(frame, Goal::Energy, within, seeds, &mut part, None)?;
        lps += outcome.lps;
        nodes += outcome.nodes;
        if outcome.ending == Ending::Cancelled {
            return Err(Error::Cancelled);
        }
        answered = None;
        if let Some(p) = point {
            previous = p.clone();
            found.push((p, limit, proven(&outcome)));
            answered = proven(&outcome).then_some(found.len() - 1);
        }
    }
    Ok((lps, nodes))
}

/// The points no other point beats in both criteria, fastest first, each
/// once: the front as shown.
fn nondominated(found: &[Point], frame: &Frame) -> Vec<FrontPoint> {
    let mut front: Vec<FrontPoint> = found
        .iter()
        .filter(|(a, _, _)| {
            !found.iter().any(|(b, _, _)| {
                b.makespan <= a.makespan
                    && b.energy <= a.energy
                    && (b.makespan < a.makespan || b.energy < a.energy)
            })
        })
        .map(|(s, limit, proven)| FrontPoint {
            makespan: s.makespan,
            energy: s.energy,
            limit: *limit,
            proven: *proven,
            sequence: s.plan.sequence.clone(),
            sizes: s.plan.sizes.clone(),
            schedule: s.plan.schedule(&frame.workers),
        })
        .collect();
    front.sort_by(|a, b| a.makespan.total_cmp(&b.makespan));
    front.dedup_by(|a, b| a.makespan == b.makespan && a.energy == b.energy);
    front
}
