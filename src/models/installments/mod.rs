//! M4: multi-installment processing with equal chunks in round robin
//! (`[2]`, Section 2.2 and Fig. 10).
//!
//! The load is cut into chunks of size `β` (the last one smaller if `β`
//! does not divide `V`), sent one at a time in rounds `P_1 … P_m, P_1 …`.
//! Sending a chunk of size `x` to `P_i` takes `S_i + x C_i`; the channel
//! never waits. A machine receives while it computes (chunks wait in its
//! buffer) and computes its chunks one after the other, each in `t_i(x)`.
//!
//! [`Instance::solve`] evaluates this exactly in `O(m)`: full chunks reach
//! `P_i` every round `R = Σ_j (S_j + β C_j)`, the first at `D_i`, and take
//! `τ_i = t_i(β)` each, so (a deterministic queue) the `j`-th finishes at
//! `D_i + τ_i + j·max(R, τ_i)`; the smaller last chunk is added by hand.
//! [`simulate`] replays the same schedule event by event in `O(n)` and
//! [`schedule`] builds it chunk by chunk for the verifier; the tests check
//! that the three agree.
//!
//! `[2]` also bounds sensible chunk sizes. Multi-installment beats
//! out-of-core processing for large `V` when its time per round and load,
//! `(Σ S_i + β Σ C_i)/(m β)`, is below the out-of-core rate
//! `1/Σ(1/A^h_i2)`: `β > Σ S_i / (m/Σ(1/A^h_i2) − Σ C_i)`; and chunks should
//! fit in core, `β < max swp_i` (the paper's bound; chunks above
//! `min swp_i` already spill on some machine). Its heuristic makes every
//! machine compute for a whole round:
//! `β = max_i (Σ_j S_j − A^l_i1)/(A^l_i2 − Σ_j C_j)`, which only makes sense
//! when numerator and denominator are positive.

mod exercises;
mod model;
mod view;

pub use model::{Installments, Output};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::domain::count::Count;
use crate::core::domain::error::{Checker, Error, Invalid, Validate};
use crate::core::domain::number::human;
use crate::core::domain::platform::{check_processors, Processor};
use crate::core::domain::schedule::{Chunk, Interval, Schedule};
use crate::core::domain::verify::{verify, Rules, Verdict, Violation};
use crate::core::presentation::chart::{Axis, Line, LineChart};
use crate::core::solving::progress::{Progress, Silent};
use crate::models::hierarchical;

/// The most machines.
pub const MAX_PROCESSORS: usize = 1000;
/// The most chunks (beyond this, round-off in `n·β` matters).
pub const MAX_CHUNKS: f64 = 1e12;
/// Schedules up to this many chunks are built and verified chunk by chunk.
pub const MAX_VERIFIED: u64 = 200_000;
/// Schedules up to this many chunks are returned (for the chart).
pub const MAX_SCHEDULE: u64 = 2_000;
/// The most work of a series: points × processors², as each point solves
/// the one-installment LP over every processor (200 points up to 141
/// processors, 2 points with 1000).
pub const MAX_SERIES_WORK: usize = 4_000_000;
/// The most points of the series over `V`.
pub const MAX_SERIES_POINTS: usize = 200;

/// An M4 instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// The load `V`.
    pub load: f64,
    /// The machines, in round-robin order.
    pub processors: Vec<Processor>,
    /// The chunk size `β`; absent: `[2]`'s heuristic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk: Option<f64>,
    /// Also compute processing time against `V`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<Series>,
}

/// The range of loads of the processing-time-vs-`V` series.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Series {
    /// Smallest load.
    pub from: f64,
    /// Largest load.
    pub to: f64,
    /// Number of loads, spaced logarithmically (a whole number).
    pub points: Count,
}

/// `[2]`'s admissible chunk sizes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Admissible {
    /// Smallest chunk that beats out-of-core for large `V` (absent when
    /// none does).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lower: Option<f64>,
    /// `max swp_i`, the paper's upper end (absent without a second level).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upper: Option<f64>,
    /// `min swp_i`: above it some machine computes out of core.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub all_in_core: Option<f64>,
    /// The range in words, with the reason when it is empty or undefined.
    pub explanation: String,
}

/// `[2]`'s heuristic chunk size, or why it does not apply.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Heuristic {
    /// The chunk size, when the heuristic applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk: Option<f64>,
    /// What it means, or why it does not apply.
    pub explanation: String,
}

/// How one machine spends the schedule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct MachineUse {
    /// Chunks it computes.
    pub chunks: u64,
    /// Load it computes.
    pub load: f64,
    /// Time it spends computing.
    pub busy: f64,
    /// When it finishes.
    pub finish: f64,
}

/// One point of the processing time vs `V` series.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct SeriesPoint {
    /// The load `V`, in units of load.
    pub load: f64,
    /// One installment, out of core when needed (the M3 LP).
    pub single: f64,
    /// Multi-installment with the heuristic `β`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heuristic: Option<f64>,
    /// Multi-installment with the given `β`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub given: Option<f64>,
}

/// The answer for an M4 instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The chunk size used.
    pub chunk: f64,
    /// Whether it was given or came from the heuristic.
    pub chunk_from_heuristic: bool,
    /// Number of chunks.
    pub chunks: u64,
    /// The makespan, exact.
    pub makespan: f64,
    /// Each machine's share.
    pub machines: Vec<MachineUse>,
    /// The admissible range of `β`.
    pub admissible: Admissible,
    /// The heuristic `β`.
    pub heuristic: Heuristic,
    /// The schedule, when at most [`MAX_SCHEDULE`] chunks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule: Option<Schedule>,
    /// The verifier's verdict, when at most [`MAX_VERIFIED`] chunks.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// Processing time vs `V`, when asked for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<SeriesPoint>,
}

impl Instance {
    /// `[2]` Fig. 10: ten identical machines, `C = 9.99e−5, S = 1e−3`,
    /// core `0 + 1e−3 x`, out-of-core `−9.9e6 + 0.1 x` (swap point `1e8`),
    /// heuristic `β = 1e4`; the series compares with `β = 5`.
    pub fn figure_10() -> Instance {
        use crate::core::domain::processing::{Level, ProcessingTime};
        let machine = Processor {
            startup: 1e-3,
            rate: 9.99e-5,
            levels: ProcessingTime::new(vec![Level::new(0.0, 1e-3), Level::new(-9.9e6, 0.1)]),
            cap: None,
        };
        Instance {
            load: 1e9,
            processors: vec![machine; 10],
            chunk: Some(5.0),
            series: Some(Series {
                from: 1.0,
                to: 1e11,
                points: Count(45),
            }),
        }
    }

    /// Evaluates the schedule, checks it, and computes the series.
    ///
    /// # Errors
    ///
    /// [`Error::Field`] for invalid input, [`Error::Solver`] if an LP of the
    /// series fails, [`Error::Cancelled`] if `progress` asks to stop.
    pub fn solve(&self, progress: &mut dyn Progress) -> Result<Report, Error> {
        self.check()?;
        let admissible = admissible(&self.processors);
        let heuristic = heuristic(&self.processors, &admissible);
        let (chunk, chunk_from_heuristic) = match (self.chunk, heuristic.chunk) {
            (Some(beta), _) => (beta, false),
            (None, Some(beta)) => (beta, true),
            // Rejected by `check` above, with this message.
            (None, None) => {
                let why = format!("the heuristic {}", heuristic.explanation);
                return Err(Error::field("chunk", Invalid::Needed(why)));
            }
        };
        let eval = evaluate(&self.processors, self.load, chunk);
        let verdict = (eval.chunks <= MAX_VERIFIED).then(|| {
            let s = schedule(&self.processors, self.load, chunk);
            let mut v = verify(&self.processors, self.load, &s, Rules::BUFFERED);
            if v.ok && (s.makespan - eval.makespan).abs() > v.tolerance {
                let message = format!(
                    "the closed form gives makespan {} but the schedule {}",
                    eval.makespan, s.makespan
                );
                let broken = Violation::new("closed-form", message);
                v = Verdict::of(vec![broken.amounts(eval.makespan, s.makespan)], v.tolerance);
            }
            v
        });
        let schedule =
            (eval.chunks <= MAX_SCHEDULE).then(|| schedule(&self.processors, self.load, chunk));
        let series = match &self.series {
            Some(s) => self.series(s, heuristic.chunk, progress)?,
            None => Vec::new(),
        };
        Ok(Report {
            chunk,
            chunk_from_heuristic,
            chunks: eval.chunks,
            makespan: eval.makespan,
            machines: eval.machines,
            admissible,
            heuristic,
            schedule,
            verdict,
            series,
        })
    }

    fn series(
        &self,
        s: &Series,
        heuristic: Option<f64>,
        progress: &mut dyn Progress,
    ) -> Result<Vec<SeriesPoint>, Error> {
        let count = s.points.get();
        let mut points = Vec::with_capacity(count);
        for k in 0..count {
            if !progress.report(k as f64 / count as f64, "processing time vs V") {
                return Err(Error::Cancelled);
            }
            let load = s.from * (s.to / s.from).powf(k as f64 / (count - 1) as f64);
            let single = hierarchical::Instance {
                load,
                processors: self.processors.clone(),
                order: None,
                best_order: false,
            }
            .solve(&mut Silent)?
            .makespan;
            let multi = |beta: f64| {
                (load / beta <= MAX_CHUNKS).then(|| evaluate(&self.processors, load, beta).makespan)
            };
            points.push(SeriesPoint {
                load,
                single,
                heuristic: heuristic.and_then(multi),
                given: self.chunk.and_then(multi),
            });
        }
        Ok(points)
    }
}

/// The exact outcome of a round-robin schedule.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// Chunks sent (all of size `β` but the last).
    pub chunks: u64,
    /// When the last machine finishes.
    pub makespan: f64,
    /// How each machine spends the schedule.
    pub machines: Vec<MachineUse>,
}

/// Number of chunks and the size of the last one.
fn cut(load: f64, beta: f64) -> (u64, f64) {
    let n = (load / beta).ceil().max(1.0);
    let last = load - (n - 1.0) * beta;
    // Round-off can leave a sliver or an overshoot: fold it into the last.
    if last <= beta * 1e-12 && n > 1.0 {
        (n as u64 - 1, load - (n - 2.0) * beta)
    } else {
        (n as u64, last)
    }
}

/// The makespan and each machine's share, in `O(m)` (see the module docs).
pub fn evaluate(ps: &[Processor], load: f64, beta: f64) -> Evaluation {
    let m = ps.len() as u64;
    let (n, last) = cut(load, beta);
    let round: f64 = ps.iter().map(|p| p.send_time(beta)).sum();
    let mut offset = 0.0; // D_i: when P_i's first full chunk has arrived
    let (last_round, last_machine) = ((n - 1) / m, ((n - 1) % m) as usize);
    let mut machines = Vec::with_capacity(ps.len());
    for (i, p) in ps.iter().enumerate() {
        offset += p.send_time(beta);
        let tau = p.levels.eval(beta);
        // Full chunks this machine gets: rounds 0 .. full-1.
        let count = n / m + u64::from((i as u64) < n % m);
        let full = if i == last_machine { count - 1 } else { count };
        let mut finish = if full > 0 {
            offset + tau + (full - 1) as f64 * round.max(tau)
        } else {
            0.0
        };
        let mut busy = full as f64 * tau;
        let mut share = full as f64 * beta;
        if i == last_machine {
            // Its last chunk is the load's last: sent after every full one.
            // `offset` already counts this machine's own full send.
            let before = offset - p.send_time(beta);
            let arrival = last_round as f64 * round + before + p.send_time(last);
            let t = p.levels.eval(last);
            finish = finish.max(arrival) + t;
            busy += t;
            share += last;
        }
        machines.push(MachineUse {
            chunks: count,
            load: share,
            busy,
            finish,
        });
    }
    let makespan = machines.iter().map(|u| u.finish).fold(0.0, f64::max);
    Evaluation {
        chunks: n,
        makespan,
        machines,
    }
}

/// The chunks of the round-robin schedule, one by one, in sending order:
/// the channel sends back to back, each machine computes its chunks in
/// arrival order as soon as it is free.
fn chunks(ps: &[Processor], load: f64, beta: f64) -> impl Iterator<Item = Chunk> + '_ {
    let (n, last) = cut(load, beta);
    let mut channel = 0.0;
    let mut free = vec![0.0_f64; ps.len()];
    (0..n).map(move |k| {
        let machine = (k % ps.len() as u64) as usize;
        let p = &ps[machine];
        let size = if k + 1 == n { last } else { beta };
        let send = Interval {
            start: channel,
            end: channel + p.send_time(size),
        };
        channel = send.end;
        let start = free[machine].max(send.end);
        free[machine] = start + p.levels.eval(size);
        Chunk {
            machine,
            size,
            send,
            compute: Interval {
                start,
                end: free[machine],
            },
            level: p.levels.level_at(size),
        }
    })
}

/// The same schedule replayed chunk by chunk in `O(n)` without storing it:
/// the makespan.
pub fn simulate(ps: &[Processor], load: f64, beta: f64) -> f64 {
    chunks(ps, load, beta).fold(0.0, |t, c| t.max(c.compute.end))
}

/// The whole schedule, chunk by chunk.
pub fn schedule(ps: &[Processor], load: f64, beta: f64) -> Schedule {
    Schedule::new(ps.len(), chunks(ps, load, beta).collect())
}

/// Each machine's first swap point and out-of-core slope (its last
/// level's); `None` when a machine has a single level, and so neither.
fn out_of_core(ps: &[Processor]) -> Option<Vec<(f64, f64)>> {
    let out_of_core: Vec<(f64, f64)> = ps
        .iter()
        .filter_map(|p| {
            let swap = p.levels.swap_points().first().copied()?;
            Some((swap, p.levels.levels().last()?.slope))
        })
        .collect();
    (out_of_core.len() == ps.len()).then_some(out_of_core)
}

/// `[2]`'s admissible range of `β`.
pub fn admissible(ps: &[Processor]) -> Admissible {
    let m = ps.len() as f64;
    let Some(out_of_core) = out_of_core(ps) else {
        return Admissible {
            lower: None,
            upper: None,
            all_in_core: None,
            explanation: "some machine has a single memory level, so there is no out-of-core \
                          mode to beat and no swap point to stay below"
                .into(),
        };
    };
    let swaps = out_of_core.iter().map(|&(swap, _)| swap);
    let upper = swaps.clone().fold(f64::NEG_INFINITY, f64::max);
    let all_in_core = swaps.fold(f64::INFINITY, f64::min);
    let startups: f64 = ps.iter().map(|p| p.startup).sum();
    let rates: f64 = ps.iter().map(|p| p.rate).sum();
    let speed: f64 = out_of_core.iter().map(|&(_, slope)| 1.0 / slope).sum();
    let denominator = m / speed - rates;
    if denominator <= 0.0 {
        return Admissible {
            lower: None,
            upper: Some(upper),
            all_in_core: Some(all_in_core),
            explanation: format!(
                "no chunk size beats out-of-core processing for large loads: sending one load \
                 unit to every machine (ΣC = {}) already takes longer than computing m \
                 units out of core (m/Σ(1/A^h_2) = {})",
                human(rates),
                human(m / speed)
            ),
        };
    }
    let lower = startups / denominator;
    let explanation = if lower < upper {
        format!(
            "β in ({}, {}): larger than this, multi-installment beats out-of-core for large \
             loads; smaller than max swp, chunks fit in core (below min swp = {} they fit on \
             every machine)",
            human(lower),
            human(upper),
            human(all_in_core)
        )
    } else {
        format!(
            "empty: beating out-of-core needs β > {}, but chunks that large no longer fit in \
             core (max swp = {})",
            human(lower),
            human(upper)
        )
    };
    Admissible {
        lower: Some(lower),
        upper: Some(upper),
        all_in_core: Some(all_in_core),
        explanation,
    }
}

/// `[2]`'s heuristic `β`, eq. (5) generalised.
/// `range` is [`admissible`]`(ps)`, to say when the heuristic falls outside it.
pub fn heuristic(ps: &[Processor], range: &Admissible) -> Heuristic {
    let startups: f64 = ps.iter().map(|p| p.startup).sum();
    let rates: f64 = ps.iter().map(|p| p.rate).sum();
    let mut best = f64::NEG_INFINITY;
    for (i, p) in ps.iter().enumerate() {
        let core = p.levels.levels()[0];
        let numerator = startups - core.intercept;
        let denominator = core.slope - rates;
        if numerator <= 0.0 {
            return Heuristic {
                chunk: None,
                explanation: format!(
                    "does not apply: P{} needs ΣS − A^l_1 > 0, but the start-ups of a round \
                     (ΣS = {}) do not exceed its computing start-up A^l_1 = {}: \
                     messages arrive faster than it can start on them and load piles up \
                     in its buffer; choose β yourself",
                    i + 1,
                    human(startups),
                    human(core.intercept)
                ),
            };
        }
        if denominator <= 0.0 {
            return Heuristic {
                chunk: None,
                explanation: format!(
                    "does not apply: P{} needs A^l_2 − ΣC > 0, but its core rate A^l_2 = {} \
                     s/unit does not exceed ΣC = {} s/unit: the machines together compute faster than \
                     the channel can feed them, so some idle time is unavoidable; choose β \
                     yourself",
                    i + 1,
                    human(core.slope),
                    human(rates)
                ),
            };
        }
        best = best.max(numerator / denominator);
    }
    let mut explanation = format!(
        "β = max_i (ΣS − A^l_i1)/(A^l_i2 − ΣC) = {}: every machine computes for the whole \
         time the originator needs to send one round",
        human(best)
    );
    let below = range.lower.is_some_and(|lo| best <= lo);
    let above = range.upper.is_some_and(|hi| best >= hi);
    if below || above {
        explanation.push_str("; note that it lies outside the admissible range");
    }
    Heuristic {
        chunk: Some(best),
        explanation,
    }
}

impl Report {
    /// Processing time against load, log–log (`[2]` Fig. 10).
    pub fn charts(&self) -> Vec<LineChart> {
        if self.series.is_empty() {
            return Vec::new();
        }
        let line = |name: String, f: &dyn Fn(&SeriesPoint) -> Option<f64>| {
            let points = self
                .series
                .iter()
                .filter_map(|p| f(p).map(|t| [p.load, t]))
                .collect();
            Line::new(&name, points, false)
        };
        let mut lines = vec![line(
            "one installment (out of core when needed)".into(),
            &|p| Some(p.single),
        )];
        if let Some(beta) = self.heuristic.chunk {
            lines.push(line(format!("β = {} (heuristic)", human(beta)), &|p| {
                p.heuristic
            }));
        }
        if !self.chunk_from_heuristic {
            lines.push(line(format!("β = {} (given)", human(self.chunk)), &|p| {
                p.given
            }));
        }
        vec![LineChart {
            name: "time-vs-load".into(),
            title: "Processing time against load".into(),
            x: Axis::log("load V (units)"),
            y: Axis::log("processing time Cmax (s)"),
            lines,
            legend: true,
        }]
    }
}

impl Validate for Instance {
    fn check_into(&self, c: &mut Checker) {
        c.positive("load", self.load);
        check_processors("processors", &self.processors, MAX_PROCESSORS, c);
        for (i, p) in self.processors.iter().enumerate() {
            if p.cap.is_some() {
                let reason = "every machine receives equal chunks until the load is used up";
                c.fail(format!("processors[{i}].cap"), Invalid::Unused(reason));
            }
        }
        if let Some(beta) = self.chunk {
            if c.positive("chunk", beta) && self.load.is_finite() && self.load / beta > MAX_CHUNKS {
                // In chunks, not entries, and as floats: a count above 2³²
                // must read the same in the page's 32-bit WebAssembly.
                let chunks = (self.load / beta).round();
                let (chunks, most) = (human(chunks), human(MAX_CHUNKS));
                let why =
                    format!("V/β = {chunks} chunks, more than {most}; give a larger chunk size");
                c.fail("chunk", Invalid::TooMuchWork(why));
            }
        }
        if let Some(s) = &self.series {
            let ok = c.positive("series.from", s.from) & c.positive("series.to", s.to);
            if ok && s.to <= s.from {
                let invalid = Invalid::BelowMinimum {
                    value: s.to,
                    minimum: s.from,
                };
                c.fail("series.to", invalid);
            }
            // Each point solves the one-installment LP over every processor.
            let m = self.processors.len().max(1);
            if c.whole("series.points", s.points, 2, MAX_SERIES_POINTS)
                && s.points.get().saturating_mul(m * m) > MAX_SERIES_WORK
            {
                let points = s.points.get();
                let processors = ((MAX_SERIES_WORK / points) as f64).sqrt().floor();
                let fewer = (MAX_SERIES_WORK / (m * m)).max(2);
                let why = format!(
                    "a series of {points} points solves the one-installment LP over all {m} \
                     processors at each point; with {points} points give at most {processors} \
                     processors, or with {m} processors at most {fewer} points"
                );
                c.fail("processors", Invalid::TooMuchWork(why));
            }
        }
        if c.is_clean() && self.chunk.is_none() {
            let h = heuristic(&self.processors, &admissible(&self.processors));
            if h.chunk.is_none() {
                c.fail(
                    "chunk",
                    Invalid::Needed(format!("the heuristic {}", h.explanation)),
                );
            }
        }
    }
}
