//! M5: identical machines with a start-up time, a memory hierarchy and up to
//! `n` load chunks (`[3]`, Section 2): the makespan `T(m, n, V)`.
//!
//! All `m` machines are started at time 0 and are ready at `S`. The
//! originator sends chunks one at a time; a chunk of size `α` takes
//! `O + Cα` to send and `τ(α) = max{a1 α, a2 α + b2}` to compute; a machine
//! computes a chunk only once it has received it whole and receives its
//! next chunk only after it has finished computing. At most `n` chunks are
//! sent (dropping an empty chunk saves its `O`), or exactly `n` on request,
//! as in the paper's MIP.
//!
//! **Method.** For a fixed communication sequence the problem is a linear
//! program ([`Instance::solve_sequence`]). Machines are identical, so
//! sequences equal up to renaming machines are one: machines are numbered in
//! order of first use. An exchange argument (swap what two machines receive
//! from chunk `j` on) shows that some optimal schedule sends each chunk to
//! the machine that became free earliest; an unused machine has been free
//! since `S`, so the first `min(m, n)` chunks go to distinct machines. A
//! best-first branch and bound over sequence prefixes (see `search.rs`)
//! starts from the best round-robin sequence over `k ≤ m` machines and
//! `n' ≤ n` chunks, bounds every prefix by an LP relaxation of all its
//! completions (the remaining chunks in channel order, whoever receives
//! them, plus each machine's remaining load in a relaxed number of chunks),
//! splits a node on a machine's number of remaining chunks where the
//! relaxation makes it fractional, and stops when the gap is proven below
//! the requested one, the LP budget is spent or the time is up; the gap it
//! reports is always proven.
//!
//! **A simple lower bound** (reported when it is the better one). With `k`
//! chunks in all, the channel carries `kO + CV`
//! after `S`; and every machine works without overlap from `S` to `T`
//! (receiving, then computing each chunk), so the machines' total busy
//! time `kO + CV + Σ τ(α_j) ≥ kO + CV + max(a1 V, a2 V + k b2)` is at most
//! `m (T − S)` (`Σ τ ≥ a1 Σ α` and `≥ Σ (a2 α_j + b2)`). Hence
//! `T ≥ S + max(O + CV, min_k (kO + CV + max(a1 V, a2 V + k b2))/m)`, the
//! minimum over the numbers of chunks `k` allowed.

mod calibrate;
mod exercises;
mod maps;
mod relax;
mod search;
mod sequence;

mod model;
pub mod probe;
mod view;

pub use model::{Output, Startup};
pub use view::model_groups;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::domain::count::Count;
use crate::core::domain::error::{Checker, Error, Validate};
use crate::core::domain::platform::Processor;
use crate::core::domain::processing::{check_two_lines, Level, ProcessingTime};
use crate::core::domain::schedule::{MachineUse, Schedule};
use crate::core::domain::verify::{verify, Rules, Verdict};
use crate::core::framework::checker::{Given, Measured};
use crate::core::solving::progress::Progress;

pub use sequence::{LoadLp, Solved};

/// The most machines.
pub const MAX_MACHINES: usize = 64;
/// The most chunks.
pub const MAX_CHUNKS: usize = 64;
/// The default relative gap at which the search stops (proven optimal).
pub const DEFAULT_GAP: f64 = 1e-9;
/// The default budget of linear programs (a few seconds).
pub const DEFAULT_MAX_LPS: u64 = 3_000;

/// An M5 instance (`[3]`'s notation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// In-core processing rate `a1` (time per load unit).
    pub a1: f64,
    /// Out-of-core rate `a2`.
    pub a2: f64,
    /// Out-of-core intercept `b2` (negative).
    pub b2: f64,
    /// Communication rate `C` (time per load unit).
    pub rate: f64,
    /// Communication start-up `O` per message.
    pub overhead: f64,
    /// Machine start-up time `S`.
    pub startup: f64,
    /// Number of machines `m` (a whole number).
    pub machines: Count,
    /// Most chunks `n` (a whole number).
    pub chunks: Count,
    /// The load `V`.
    pub load: f64,
    /// Exactly `n` chunks, as in the paper's MIP (default: at most `n`).
    #[serde(default)]
    pub exactly: bool,
    /// Stop once the relative gap is at most this (default 1e-9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap: Option<f64>,
    /// Stop after this many linear programs (a whole number, default 3000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_lps: Option<Count>,
    /// Stop after this many seconds (default: no time limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_seconds: Option<f64>,
}

/// How good the answer is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Proven optimal (relative gap at most 1e-9).
    Optimal,
    /// Stopped at the requested gap.
    StoppedAtGap,
    /// Stopped at the LP budget; the gap bounds the distance to the optimum.
    StoppedAtLimit,
    /// Stopped at the time limit; the gap bounds the distance to the optimum.
    StoppedAtTime,
    /// Interrupted: cancelled by the caller, or a snapshot of a search still
    /// running ([`crate::core::solving::progress::Progress::partial`]); the gap bounds the
    /// distance to the optimum.
    Interrupted,
}

/// The answer for an M5 instance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// The best makespan found, `T(m, n, V)`.
    pub makespan: f64,
    /// A proven lower bound on the optimal makespan.
    pub lower_bound: f64,
    /// `(T − bound)/T`.
    pub gap: f64,
    /// Why the search stopped, and so how good the answer is.
    pub status: Status,
    /// The machine of every chunk of the best schedule (empty chunks left out).
    pub sequence: Vec<usize>,
    /// The chunk sizes of the best schedule.
    pub sizes: Vec<f64>,
    /// `T(1,1,V) = S + O + CV + τ(V)`.
    pub single: f64,
    /// `T(1,1,V)/T`.
    pub speedup: f64,
    /// `T(1,1,V)/(m T)`.
    pub efficiency: f64,
    /// The largest efficiency any schedule can have (from the bound).
    pub efficiency_bound: f64,
    /// Linear programs solved.
    pub lps: u64,
    /// Sequence prefixes expanded by the search.
    pub nodes: u64,
    /// Linear programs solved when the final best schedule was found (the
    /// rest went into proving the bound).
    pub incumbent_at_lp: u64,
    /// Seconds the search ran.
    pub seconds: f64,
    /// Seconds until the final best schedule was found.
    pub incumbent_seconds: f64,
    /// The best schedule, rebuilt from `sizes`.
    pub schedule: Schedule,
    /// How each machine spends it.
    pub usage: Vec<MachineUse>,
    /// The verifier's verdict on it.
    pub verdict: Verdict,
}

impl Instance {
    /// The reference instance of `[3]` (`ρ ≈ 6739` MB) with `m` machines,
    /// `n = 20` chunks and load `V`.
    pub fn reference(machines: usize, load: f64) -> Instance {
        Instance {
            a1: 0.109,
            a2: 4.132,
            b2: -27109.0,
            rate: 0.005,
            overhead: 0.075,
            startup: 25.4,
            machines: Count::from(machines),
            chunks: Count(20),
            load,
            exactly: false,
            gap: None,
            max_lps: None,
            max_seconds: None,
        }
    }

    pub(crate) fn machines_usize(&self) -> usize {
        self.machines.get()
    }

    /// The processing-time function `τ` as memory levels.
    pub fn processing_time(&self) -> ProcessingTime {
        ProcessingTime::new(vec![Level::new(0.0, self.a1), Level::new(self.b2, self.a2)])
    }

    /// The usable RAM `ρ = b2/(a1 − a2)`, where the two lines meet.
    pub fn ram(&self) -> f64 {
        self.b2 / (self.a1 - self.a2)
    }

    /// `T(1,1,V)`: one machine, one chunk.
    pub fn single(&self) -> f64 {
        let v = self.load;
        self.startup + self.overhead + self.rate * v + (self.a1 * v).max(self.a2 * v + self.b2)
    }

    /// The machine every chunk runs on, as the verifier sees it.
    fn processors(&self) -> Vec<Processor> {
        let p = Processor {
            startup: self.overhead,
            rate: self.rate,
            levels: self.processing_time(),
            cap: None,
        };
        vec![p; self.machines_usize()]
    }

    /// A schedule given by hand checked against M5's rules: machines
    /// ready at `S`, no chunk received before the previous one is computed.
    ///
    /// # Errors
    ///
    /// A chunk to a machine that does not exist, at its field.
    pub(crate) fn check_given(&self, given: &Given) -> Result<Measured, Error> {
        let processors = self.processors();
        let s = given.schedule(&processors, self.startup, true)?;
        let rules = Rules {
            single_installment: false,
            ready: self.startup,
            receive_after_compute: true,
        };
        Ok(Measured::of(verify(&processors, self.load, &s, rules), &s))
    }

    /// The numbers of chunks allowed.
    fn chunk_counts(&self) -> std::ops::RangeInclusive<usize> {
        let n = self.chunks.get();
        if self.exactly {
            n..=n
        } else {
            1..=n
        }
    }

    /// The least total busy time of the machines with `k` chunks:
    /// `kO + CV + max(a1 V, a2 V + k b2)` (see the module docs).
    pub(crate) fn busy_time(&self, k: usize) -> f64 {
        let (v, k) = (self.load, k as f64);
        k * self.overhead + self.rate * v + (self.a1 * v).max(self.a2 * v + k * self.b2)
    }

    /// The lower bound of the module docs.
    pub fn lower_bound(&self) -> f64 {
        let (v, m) = (self.load, self.machines.as_f64());
        let area = self
            .chunk_counts()
            .map(|k| self.busy_time(k) / m)
            .fold(f64::INFINITY, f64::min);
        let first = *self.chunk_counts().start() as f64;
        let channel = first * self.overhead + self.rate * v;
        self.startup + channel.max(area)
    }

    /// Solves the instance (see the module docs for the method).
    ///
    /// # Errors
    ///
    /// [`Error::Field`] for invalid input, [`Error::Solver`] if an LP fails,
    /// [`Error::Cancelled`] if `progress` asks to stop before the branch and
    /// bound has started (after that, the best schedule so far is returned
    /// with [`Status::Interrupted`]). A long search also hands `progress`
    /// snapshots of its best schedule ([`Progress::partial`], a [`Report`]
    /// with [`Status::Interrupted`]) every quarter of a second.
    pub fn solve(&self, progress: &mut dyn Progress) -> Result<Report, Error> {
        self.solve_from(None, progress)
    }

    /// Solves the instance starting from a known good sequence (machine of
    /// every chunk, at most `n` chunks, each machine below `m`) instead of
    /// the round-robin scan: how a map search certifies a probe.
    ///
    /// # Errors
    ///
    /// As [`Instance::solve`]; [`Error::Malformed`] for a starting sequence
    /// that does not fit the instance.
    pub fn solve_from(
        &self,
        start: Option<&[usize]>,
        progress: &mut dyn Progress,
    ) -> Result<Report, Error> {
        self.check()?;
        if let Some(s) = start {
            let (m, n) = (self.machines_usize(), self.chunks.get());
            let fits = !s.is_empty() && s.len() <= n && s.iter().all(|&i| i < m);
            if !fits || (self.exactly && s.len() != n) {
                return Err(Error::Malformed(format!(
                    "a starting sequence needs 1 to {n} chunks on machines 0 to {}",
                    m - 1
                )));
            }
        }
        let gap = self.gap.unwrap_or(DEFAULT_GAP);
        let max_lps = self.max_lps.map_or(DEFAULT_MAX_LPS, |l| l.0);
        let limits = search::Limits {
            gap,
            lps: max_lps,
            deadline: self
                .max_seconds
                .map(|s| web_time::Instant::now() + web_time::Duration::from_secs_f64(s.min(1e9))),
        };
        let outcome = self.branch_and_bound(&limits, start, progress)?;
        let status = match (outcome.complete, gap <= DEFAULT_GAP, outcome.timed_out) {
            _ if outcome.interrupted => Status::Interrupted,
            (true, true, _) => Status::Optimal,
            (true, false, _) => Status::StoppedAtGap,
            (false, _, true) => Status::StoppedAtTime,
            (false, _, false) => Status::StoppedAtLimit,
        };
        Ok(self.report(&outcome, status))
    }

    /// The report of a search's outcome: the schedule rebuilt from the best
    /// sizes, verified, with its bound and the search's figures.
    fn report(&self, outcome: &search::Outcome, status: Status) -> Report {
        let best = &outcome.best;
        let schedule = self.schedule(&best.sequence, &best.sizes);
        let kept: Vec<(usize, f64)> = best
            .sequence
            .iter()
            .zip(&best.sizes)
            .filter(|(_, &a)| a > 0.0 || self.exactly)
            .map(|(&i, &a)| (i, a))
            .collect();
        let rules = Rules {
            single_installment: false,
            ready: self.startup,
            receive_after_compute: true,
        };
        let verdict = verify(&self.processors(), self.load, &schedule, rules);
        let makespan = schedule.makespan;
        let lower_bound = outcome.lower_bound.max(self.lower_bound()).min(makespan);
        let single = self.single();
        Report {
            makespan,
            lower_bound,
            gap: (makespan - lower_bound) / makespan,
            status,
            sequence: kept.iter().map(|p| p.0).collect(),
            sizes: kept.iter().map(|p| p.1).collect(),
            single,
            speedup: single / makespan,
            efficiency: single / (self.machines.as_f64() * makespan),
            efficiency_bound: single / (self.machines.as_f64() * lower_bound),
            lps: outcome.lps,
            nodes: outcome.nodes,
            incumbent_at_lp: outcome.incumbent_at,
            seconds: outcome.seconds,
            incumbent_seconds: outcome.incumbent_seconds,
            usage: schedule.usage(),
            schedule,
            verdict,
        }
    }

    /// The best round robin over `p ≤ m` machines with `k ≤ n` chunks; when
    /// `progress` asks to stop (a time limit), the best of those solved so
    /// far.
    pub(crate) fn round_robin(&self, progress: &mut dyn Progress) -> Result<(Solved, u64), Error> {
        let m = self.machines_usize();
        let counts: Vec<usize> = self.chunk_counts().collect();
        let total = (m * counts.len()) as f64;
        let mut best: Option<Solved> = None;
        let mut lps = 0;
        for p in 1..=m {
            for &k in &counts {
                if k < p && !self.exactly {
                    continue;
                }
                let sequence: Vec<usize> = (0..k).map(|j| j % p).collect();
                let solved = self.solve_sequence(&sequence)?;
                lps += 1;
                if best.as_ref().is_none_or(|b| solved.makespan < b.makespan) {
                    best = Some(solved);
                }
                if !progress.report(lps as f64 / total, "round-robin sequences") {
                    return best.map(|b| (b, lps)).ok_or(Error::Cancelled);
                }
            }
        }
        // cannot fail: `p = 1` takes every allowed number of chunks, and a
        // checked instance allows at least one.
        Ok((best.expect("at least one sequence"), lps))
    }
}

impl Validate for Instance {
    fn check_into(&self, c: &mut Checker) {
        check_two_lines(c, "", self.a1, self.a2, self.b2);
        c.non_negative("rate", self.rate);
        c.non_negative("overhead", self.overhead);
        c.non_negative("startup", self.startup);
        c.whole("machines", self.machines, 1, MAX_MACHINES);
        c.whole("chunks", self.chunks, 1, MAX_CHUNKS);
        c.positive("load", self.load);
        if let Some(gap) = self.gap {
            c.gap("gap", gap);
        }
        if let Some(lps) = self.max_lps {
            c.whole("max_lps", lps, 1, 100_000_000);
        }
        if let Some(seconds) = self.max_seconds {
            c.seconds("max_seconds", seconds);
        }
    }
}
