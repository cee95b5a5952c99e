//! Speedup against the number of mappers for several `r`, `ℓ` or `γ`
//! (`[1]`'s two figures), and the level it approaches.
//!
//! As `m` grows (start-ups aside) mapping `AV/m` vanishes, but every piece
//! still crosses the network — at least `CγV/min(ℓ, r)` through the
//! channels — and each reducer still reduces `γV/r` in `BγV/r`. So the
//! speedup approaches at most `T_seq / (CγV/min(ℓ, r) + BγV/r)`, and falls
//! again once the start-ups `(m + r)S` weigh: they overtake the mapping
//! time `AV/m` near `m = √(AV/S)`.

use serde::{Deserialize, Serialize};

use super::best::schedule;
use super::{Instance, Job, Series};
use crate::core::domain::count::{Count, MAX_COUNT};
use crate::core::domain::error::{Checker, Error, Invalid};
use crate::core::domain::number::number;
use crate::core::solving::parallel;
use crate::core::solving::progress::Progress;

/// One solve of a series.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SeriesPoint {
    /// Mappers `m`.
    pub mappers: usize,
    /// `T` of the returned schedule.
    pub makespan: f64,
    /// Its proven lower bound.
    pub lower_bound: f64,
    /// `T_seq / T`.
    pub speedup: f64,
    /// `T_seq / lower bound`: no schedule does better.
    pub best_possible: f64,
}

/// One line of a series: a value of the varied parameter.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// `"reducers"` (with `ℓ = r`), `"channels"` or `"gamma"`.
    pub parameter: String,
    /// Its value on this line.
    pub value: f64,
    /// The level the speedup approaches as `m` grows (absent when neither
    /// the shuffle nor the reduce takes time).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<f64>,
    /// The points, by growing `m`.
    pub points: Vec<SeriesPoint>,
}

/// The level the speedup approaches as `m` grows, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Plateau {
    /// `T_seq / (CγV/min(ℓ, r) + BγV/r)` (absent when `C = B = 0`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<f64>,
    /// `CγV/min(ℓ, r)`: the shuffle through the channels.
    pub shuffle: f64,
    /// `BγV/r`: one reducer's work.
    pub reduce: f64,
    /// `(m + r)S` at this `m`.
    pub startups: f64,
    /// `AV/m` at this `m`.
    pub mapping: f64,
    /// `√(AV/S)`: where the start-ups overtake the mapping time (absent
    /// without start-ups).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<f64>,
    /// Which phase bounds the level: `"reduce"` or `"shuffle"`.
    pub bounded_by: String,
    /// The explanation, with the numbers filled in.
    pub text: String,
}

/// The plateau of `job`.
pub fn plateau(job: &Job) -> Plateau {
    let (v, r) = (job.load, job.reducers as f64);
    let shuffle = job.rate * job.gamma * v / job.width as f64;
    let reduce = job.reduce * job.gamma * v / r;
    // Without shuffle or reduce costs nothing but the start-ups limits it.
    let level = (shuffle + reduce > 0.0).then(|| job.sequential() / (shuffle + reduce));
    let startups = (job.mappers + job.reducers) as f64 * job.startup;
    let mapping = job.map * v / job.mappers as f64;
    let turn = (job.startup > 0.0).then(|| (job.map * v / job.startup).sqrt());
    let bounded_by = if reduce >= shuffle {
        "reduce"
    } else {
        "shuffle"
    };
    let mut plateau = Plateau {
        level,
        shuffle,
        reduce,
        startups,
        mapping,
        turn,
        bounded_by: bounded_by.into(),
        text: String::new(),
    };
    plateau.text = plateau.explain(job);
    plateau
}

impl Plateau {
    /// The explanation, with the numbers filled in: what the speedup
    /// approaches and why, then why it falls again.
    fn explain(&self, job: &Job) -> String {
        let (shuffle, reduce, mapping) = (self.shuffle, self.reduce, self.mapping);
        let r = job.reducers as f64;
        let falls = self.falls(job);
        match self.level {
            None => format!(
                "With C = 0 and B = 0 neither the shuffle nor the reduce takes time: as m grows, mapping (AV/m = {} s at m = {}) vanishes and only the start-ups limit the speedup. {falls}",
                number(mapping),
                job.mappers
            ),
            Some(level) => {
                let why = if reduce >= shuffle {
                    format!(
                        "reducing γV/r bounds it: {} × the shuffle's share, so more reducers raise it (≈ {} r here) and a smaller γ lowers both terms",
                        number(reduce / shuffle.max(f64::MIN_POSITIVE)),
                        number(level / r)
                    )
                } else {
                    "the shuffle through the channels bounds it: a wider network (ℓ) or a smaller γ raises it"
                        .to_string()
                };
                format!(
                    "As m grows, mapping (AV/m = {} s at m = {}) vanishes, but the shuffle still takes at least CγV/min(ℓ, r) = {} s and each reducer BγV/r = {} s. So the speedup approaches at most T_seq/(CγV/min(ℓ, r) + BγV/r) = {} s/{} s = {}; {}. {falls}",
                    number(mapping),
                    job.mappers,
                    number(shuffle),
                    number(reduce),
                    number(job.sequential()),
                    number(shuffle + reduce),
                    number(level),
                    why,
                )
            }
        }
    }

    /// Why the speedup falls again at large `m`: the start-ups grow with
    /// it, and overtake the mapping time near `m = √(AV/S)`.
    fn falls(&self, job: &Job) -> String {
        format!(
            "It falls again as the start-ups (m + r)S grow ({} at m = {}){}.",
            number(self.startups),
            job.mappers,
            self.turn.map_or(String::new(), |t| format!(
                "; they overtake the mapping time near m = √(AV/S) = {}",
                number(t.round())
            ))
        )
    }
}

/// The values of `m`: `points` spaced geometrically from `from` to `to`
/// (whole, without repeats).
pub fn mapper_counts(s: &Series) -> Vec<usize> {
    let (from, to, n) = (s.from.get(), s.to.get(), s.points.get());
    if n <= 1 || from == to {
        return vec![to];
    }
    let ratio = (to as f64 / from as f64).powf(1.0 / (n - 1) as f64);
    let mut counts: Vec<usize> = (0..n)
        .map(|i| ((from as f64) * ratio.powi(i as i32)).round() as usize)
        .map(|m| m.clamp(from, to))
        .collect();
    counts.push(to);
    counts.sort_unstable();
    counts.dedup();
    counts
}

/// The request of each line, with its parameter and value.
fn lines(instance: &Instance, s: &Series) -> Vec<(&'static str, f64, Instance)> {
    let base = Instance {
        series: None,
        ..instance.clone()
    };
    let mut lines = Vec::new();
    for &r in &s.reducers {
        let mut i = base.clone();
        i.reducers = r;
        i.channels = r;
        lines.push(("reducers", r.as_f64(), i));
    }
    for &l in &s.channels {
        let mut i = base.clone();
        i.channels = l;
        lines.push(("channels", l.as_f64(), i));
    }
    for &g in &s.gammas {
        let mut i = base.clone();
        i.gamma = g;
        lines.push(("gamma", g, i));
    }
    if lines.is_empty() {
        lines.push(("mappers", instance.mappers.as_f64(), base));
    }
    lines
}

/// The request once per line of its series (each with that line's value
/// alone), for a series computed in parts; none for a series of one line.
pub fn parts(instance: &Instance) -> Vec<Instance> {
    let Some(s) = &instance.series else {
        return Vec::new();
    };
    let only = |reducers: &[Count], channels: &[Count], gammas: &[f64]| Instance {
        series: Some(Series {
            reducers: reducers.to_vec(),
            channels: channels.to_vec(),
            gammas: gammas.to_vec(),
            ..s.clone()
        }),
        ..instance.clone()
    };
    let mut parts: Vec<Instance> = Vec::new();
    parts.extend(s.reducers.iter().map(|r| only(&[*r], &[], &[])));
    parts.extend(s.channels.iter().map(|l| only(&[], &[*l], &[])));
    parts.extend(s.gammas.iter().map(|g| only(&[], &[], &[*g])));
    if parts.len() < 2 {
        parts.clear();
    }
    parts
}

/// Every line of the series, with progress and cancel; `true` with the
/// lines so far (those cut short included, when not empty) when `progress`
/// said stop. The lines are independent: natively they run on every core
/// ([`parallel::each`]), with the results of one thread.
///
/// # Errors
///
/// The solver's errors.
pub fn series(
    instance: &Instance,
    s: &Series,
    progress: &mut dyn Progress,
) -> Result<(Vec<Line>, bool), Error> {
    let counts = mapper_counts(s);
    let lines = lines(instance, s);
    let computed = parallel::each(
        &lines,
        |(parameter, value, request), progress| line(parameter, *value, request, &counts, progress),
        progress,
        |_, _, _| {},
    )?;
    let stopped = computed.iter().any(|(_, stopped)| *stopped);
    let out = computed
        .into_iter()
        .map(|(line, _)| line)
        .filter(|line| !line.points.is_empty())
        .collect();
    Ok((out, stopped))
}

/// One line of the series; `true` when `progress` said stop (the line then
/// holds the points done).
fn line(
    parameter: &str,
    value: f64,
    request: &Instance,
    counts: &[usize],
    progress: &mut dyn Progress,
) -> Result<(Line, bool), Error> {
    let total: f64 = counts.iter().map(|&m| m as f64).sum();
    let mut done = 0.0;
    let mut line = Line {
        parameter: parameter.into(),
        value,
        level: None,
        points: Vec::with_capacity(counts.len()),
    };
    for &m in counts {
        let what = format!("series: {parameter} = {}, m = {m}", number(value));
        if !progress.report(done / total, &what) {
            return Ok((line, true));
        }
        let mut i = request.clone();
        i.mappers = Count::from(m);
        let job = i.job();
        line.level = plateau(&job).level;
        let solved = schedule(&job, i.channels.get())?;
        let sequential = job.sequential();
        line.points.push(SeriesPoint {
            mappers: m,
            makespan: solved.shuffle.makespan,
            lower_bound: solved.lower_bound,
            speedup: sequential / solved.shuffle.makespan,
            best_possible: sequential / solved.lower_bound,
        });
        done += m as f64;
    }
    Ok((line, false))
}

/// A series is valid when every one of its requests is, and its work is
/// bounded.
pub fn check(instance: &Instance, s: &Series, c: &mut Checker) {
    check_fields(s, c);
    if c.is_clean() {
        check_lines(instance, s, c);
    }
}

/// The series' own fields: the range of `m`, the points, and each line's
/// value, at most [`super::MAX_SERIES_LINES`] lines of each kind.
fn check_fields(s: &Series, c: &mut Checker) {
    let from = s.from.get();
    c.whole("series.from", s.from, 1, super::MAX_MAPPERS);
    c.whole("series.to", s.to, from.max(1), super::MAX_MAPPERS);
    c.whole("series.points", s.points, 1, super::MAX_SERIES_POINTS);
    for (field, len) in [
        ("series.reducers", s.reducers.len()),
        ("series.channels", s.channels.len()),
        ("series.gammas", s.gammas.len()),
    ] {
        if len > super::MAX_SERIES_LINES {
            let invalid = Invalid::TooMany {
                count: len,
                limit: super::MAX_SERIES_LINES,
            };
            c.fail(field, invalid);
        }
    }
    for (i, &r) in s.reducers.iter().enumerate() {
        c.whole(&format!("series.reducers[{i}]"), r, 1, super::MAX_REDUCERS);
    }
    for (i, &l) in s.channels.iter().enumerate() {
        c.whole_up_to(&format!("series.channels[{i}]"), l, 1, MAX_COUNT);
    }
    for (i, &g) in s.gammas.iter().enumerate() {
        c.positive(&format!("series.gammas[{i}]"), g);
    }
}

/// Every line is a valid request at its fewest and its most mappers (the
/// first problem is reported as the line's), and the series' schedules
/// stay within [`super::MAX_SERIES_WORK`] mapper-reducer pairs in all.
fn check_lines(instance: &Instance, s: &Series, c: &mut Checker) {
    let to = s.to.get();
    let counts = mapper_counts(s);
    let mut work = 0usize;
    for (parameter, value, request) in lines(instance, s) {
        let field = match parameter {
            "reducers" => "series.reducers",
            "channels" => "series.channels",
            "gamma" => "series.gammas",
            _ => "series.to",
        };
        for &m in [counts[0], to].iter() {
            let mut at = request.clone();
            at.mappers = Count::from(m);
            let problems = crate::core::domain::error::Validate::problems(&at);
            if let Some(problem) = problems.into_iter().next() {
                let why = format!(
                    "with {parameter} = {} and m = {m}: {problem}",
                    number(value)
                );
                c.fail(field, Invalid::Unreadable(why));
                return;
            }
        }
        let r = request.reducers.get();
        work = work.saturating_add(counts.iter().map(|&m| m * (r + 8)).sum::<usize>());
    }
    if work > super::MAX_SERIES_WORK {
        let why = format!(
            "the series solves {} schedules with {work} mapper-reducer pairs in all, the limit \
             is {}; use fewer points, fewer lines or fewer mappers",
            counts.len(),
            super::MAX_SERIES_WORK
        );
        c.fail("series", Invalid::TooMuchWork(why));
    }
}
