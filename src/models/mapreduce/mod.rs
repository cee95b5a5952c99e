//! M8: MapReduce as a divisible load (`[1]`, part 3).
//!
//! `m` mappers and `r` reducers, all identical and distinct, are started
//! one after another by the originator, mappers first: mapper `k`
//! (numbered from 0) is ready at `(k+1)S`, reducer `j` at `(m+j+1)S`.
//! Mapper `k` maps its chunk `α_k` (`Σ α_k = V`) in `A α_k`, with
//! `A = a_map + s_map/lu` (the start-up of every load unit spread over the
//! load), then sends `γα_k/r` to *every* reducer, each transfer taking
//! `Cγα_k/r` without interruption: a mapper sends to one reducer at a time,
//! a reducer receives from one mapper at a time, and at most `ℓ` transfers
//! run at once (the bisection width; `ℓ` above `min(r, m)` acts as
//! `min(ℓ, r, m)`, since no more transfers can ever run at once). A reducer
//! reduces its `γV/r` in `B γV/r` (`B = a_red + s_red/lu`) once it has every
//! piece; `T` is when the last reducer ends. This is exactly the reading of
//! `[1]`'s outline in the model reference.
//!
//! # The shuffle pattern
//!
//! `[1]` fixes a pattern of communication intervals and gets the split
//! from an LP (its (4)–(7)); the pattern is ours. We use **rotating
//! groups** ([`rotation`]): with `ℓ' = min(ℓ, r, m)` channels, the mappers
//! in index order form groups of `ℓ'` (the first group takes the remainder,
//! so the small early chunks waste the channels, not the large late ones).
//! Group `g` owns the network for `r` rounds of equal length `L_g`; in round
//! `q` its `p`-th mapper sends to reducer `(p + q) mod r`. In every round the
//! group's mappers are distinct and so are their reducers, at most `ℓ'`
//! transfers run, and after `r` rounds each mapper has served each reducer
//! once. The LP chooses every `α_k`, `L_g` and group start `s_g`:
//! `(k+1)S + Aα_k ≤ s_g` (mapped before its group sends),
//! `Cγα_k/r ≤ L_g`, `s_g + rL_g ≤ s_{g+1}`, the rounds of the first group
//! start after their reducers are ready, `Σα = V`; minimize the end of the
//! last round. Up to 64 mappers it is solved as written; always (and alone
//! above 64) we also solve it with one chunk per group exactly and in
//! `O(G r)` per step of a bisection, without an LP solver (the proof is in
//! [`rotation`]'s module), and keep the shorter schedule.
//!
//! Why it is good: once the first group starts, all `ℓ'` channels are busy
//! until the shuffle ends, and the LP staggers the chunks so that each group
//! finishes mapping as the previous group's shuffle ends — the shuffle
//! overlaps the mapping, as in the fluid optimum. Its losses: the first
//! group sends nothing before its last mapper is done; within a group the
//! round length is the largest piece's; and the shuffle cannot begin before
//! the first reducer is ready at `(m+1)S`. A sliding window (one mapper
//! joining and one leaving each round) would let the shuffle start
//! earlier, but its last `ℓ' − 1` rounds run with fewer than `ℓ'` transfers
//! and every mapper's deadline comes earlier than in its group, so rigid
//! groups are the better of the two. Where the pattern is weakest is with
//! start-ups that are large against the mapping time, where mappers of one
//! group would rather have different chunks: up to 64 mappers the LP with a
//! column per mapper gives them that. With `r = 1` the pattern is
//! every mapper sending in index order, which is **optimal** (the exchange
//! argument in [`rotation`]), so the reported gap is zero.
//!
//! We also evaluate the simple schedule of the model reference
//! ([`list_schedule`]: equal split, each mapper as it finishes sends to the reducers in turn
//! whenever it, the reducer and a channel are free) and return the shorter.
//!
//! # The lower bound
//!
//! [`lower_bound`] proves `T ≥ D + BγV/r`, where `D` bounds when the last piece
//! arrives, as the largest of: the last reducer ready then receiving all
//! its `γV/r` (`(m+r)S + CγV/r`); every mapper mapping then sending its own
//! data alone (a water-filling over the staggered ready times); and a
//! tail bound over the mappers sorted by finishing time, with every mapper
//! ready at `S`: the `n` mappers that finish last must send all their data
//! after the first of them finishes (and after `(m+1)S`), over at most
//! `min(ℓ', n)` channels.
//!
//! Speedup is `T_seq / T` with `T_seq = S + AV + BγV` (one machine does
//! everything, no shuffle). As `m` grows the speedup tends to at most
//! `T_seq / (CγV/min(ℓ, r) + BγV/r)`, then falls as the start-ups `(m+r)S`
//! grow (the report's `plateau` says it with the numbers filled in).

mod best;
mod bound;
mod exercises;
mod gantt;
mod list;
mod maps;
mod model;
mod rotation;
mod series;
mod shuffle;
mod solve;
mod verify;
mod view;

pub use bound::lower_bound;
pub use list::{list_schedule, list_schedule_with, Turn};
pub use model::{MapReduce, Output};
pub use rotation::rotation;
pub use series::{Line, Plateau, SeriesPoint};
pub use shuffle::{Shuffle, Transfer};
pub use verify::{verify, Rule};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::core::domain::count::Count;
use crate::core::domain::error::{Checker, Invalid, Validate};
use crate::core::domain::schedule::Interval;
use crate::core::domain::verify::Verdict;

/// The most mappers (each is a column of the LP).
pub const MAX_MAPPERS: usize = 20_000;
/// The most reducers.
pub const MAX_REDUCERS: usize = 20_000;
/// The most shuffle transfers (`m·r`) of one schedule (each is in the
/// answer: 500 000 are about 40 MB of JSON).
pub const MAX_TRANSFERS: usize = 500_000;
/// The most values of `m` in a series.
pub const MAX_SERIES_POINTS: usize = 100;
/// The most lines of one series chart.
pub const MAX_SERIES_LINES: usize = 8;
/// The most work of a whole series, in mapper-reducer pairs summed over
/// every solve (each solve simulates and checks `m·r` transfers).
pub const MAX_SERIES_WORK: usize = 10_000_000;

/// The cost of one phase (map or reduce) per load unit.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Phase {
    /// Computing time per byte (per unit of load), `a`.
    pub rate: f64,
    /// Start-up time of each load unit of size `lu`, `s`.
    pub unit_startup: f64,
}

/// The series of speedup against `m`: one chart per list given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Series {
    /// The smallest number of mappers.
    pub from: Count,
    /// The largest number of mappers.
    pub to: Count,
    /// How many values of `m`, spaced geometrically from `from` to `to`.
    pub points: Count,
    /// A line per number of reducers, with `ℓ = r` as in `[1]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reducers: Vec<Count>,
    /// A line per bisection width `ℓ`, with the request's `r`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub channels: Vec<Count>,
    /// A line per output fraction `γ`, with the request's `r` and `ℓ`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gammas: Vec<f64>,
}

/// An M8 request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Instance {
    /// The load `V` (bytes in the presets).
    pub load: f64,
    /// Mappers `m`.
    pub mappers: Count,
    /// Reducers `r`.
    pub reducers: Count,
    /// Bisection width `ℓ`: the most transfers at once.
    pub channels: Count,
    /// The size of a load unit `lu`.
    pub unit: f64,
    /// Start-up time of each machine `S`.
    pub startup: f64,
    /// Communication time per unit of load `C`.
    pub rate: f64,
    /// The fraction `γ` of its input a mapper emits.
    pub gamma: f64,
    /// The map phase.
    pub map: Phase,
    /// The reduce phase.
    pub reduce: Phase,
    /// Speedup against `m` for several `r`, `ℓ` or `γ`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<Series>,
}

/// The numbers of a valid request that the schedules use.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Job {
    /// `V`.
    pub load: f64,
    /// `m`.
    pub mappers: usize,
    /// `r`.
    pub reducers: usize,
    /// `ℓ' = min(ℓ, r, m)`: the transfers that can run at once.
    pub channels: usize,
    /// `min(ℓ, r)`: the transfers that could run at once with any number
    /// of mappers (what bounds the shuffle as `m` grows).
    pub width: usize,
    /// `S`.
    pub startup: f64,
    /// `C`.
    pub rate: f64,
    /// `γ`.
    pub gamma: f64,
    /// `A = a_map + s_map/lu`, map time per unit of load.
    pub map: f64,
    /// `B = a_red + s_red/lu`, reduce time per unit of load.
    pub reduce: f64,
}

impl Job {
    /// When mapper `k` (from 0) is ready: `(k+1)S`.
    pub fn mapper_ready(&self, k: usize) -> f64 {
        (k + 1) as f64 * self.startup
    }

    /// When reducer `j` (from 0) is ready: `(m+j+1)S`.
    pub fn reducer_ready(&self, j: usize) -> f64 {
        (self.mappers + j + 1) as f64 * self.startup
    }

    /// The size of each piece a mapper with chunk `alpha` sends: `γα/r`.
    pub fn piece(&self, alpha: f64) -> f64 {
        self.gamma * alpha / self.reducers as f64
    }

    /// How long each transfer of a mapper with chunk `alpha` takes.
    pub fn transfer_time(&self, alpha: f64) -> f64 {
        self.rate * self.piece(alpha)
    }

    /// How long each reducer reduces: `BγV/r`.
    pub fn reduce_time(&self) -> f64 {
        self.reduce * self.gamma * self.load / self.reducers as f64
    }

    /// `T_seq = S + AV + BγV`: one machine maps and reduces everything.
    pub fn sequential(&self) -> f64 {
        self.startup + self.map * self.load + self.reduce * self.gamma * self.load
    }
}

impl Instance {
    /// The numbers the schedules use, from a request that
    /// [`Validate::check`] accepted.
    pub fn job(&self) -> Job {
        let (m, r) = (self.mappers.get(), self.reducers.get());
        Job {
            load: self.load,
            mappers: m,
            reducers: r,
            channels: self.channels.get().min(r).min(m).max(1),
            width: self.channels.get().min(r).max(1),
            startup: self.startup,
            rate: self.rate,
            gamma: self.gamma,
            map: self.map.rate + self.map.unit_startup / self.unit,
            reduce: self.reduce.rate + self.reduce.unit_startup / self.unit,
        }
    }

    /// `[1]`'s reference: `V = 1e15` bytes, `lu = 16e6`, `m = 1000`,
    /// `r = ℓ = 100`, `S = 1 s`, `C = 1e−6 s/B`, `γ = 0.1`,
    /// `a = 1e−5 s/B` and `s = 1e−2 s` per load unit for both phases.
    pub fn reference() -> Instance {
        let phase = Phase {
            rate: 1e-5,
            unit_startup: 1e-2,
        };
        Instance {
            load: 1e15,
            mappers: Count(1000),
            reducers: Count(100),
            channels: Count(100),
            unit: 16e6,
            startup: 1.0,
            rate: 1e-6,
            gamma: 0.1,
            map: phase,
            reduce: phase,
            series: None,
        }
    }
}

/// The answer for an M8 request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Report {
    /// `T`: when the last reducer ends.
    pub makespan: f64,
    /// A proven lower bound on the shortest `T`.
    pub lower_bound: f64,
    /// `(T − lower bound)/T`.
    pub gap: f64,
    /// Which schedule was returned: `"rotation"` (the LP over rotating
    /// groups) or `"list"` (the equal split, sent as soon as possible).
    pub pattern: String,
    /// The other schedule's `T`, for comparison.
    pub other: f64,
    /// The load of each mapper.
    pub sizes: Vec<f64>,
    /// `T_seq = S + AV + BγV`.
    pub sequential: f64,
    /// `T_seq / T`.
    pub speedup: f64,
    /// The transfers that run at once at most: `min(ℓ, r, m)`.
    pub channels: usize,
    /// Every shuffle transfer of a nonzero piece.
    pub transfers: Vec<Transfer>,
    /// When each reducer reduces.
    pub reducers: Vec<Interval>,
    /// The verifier's verdict on the schedule.
    pub verdict: Verdict,
    /// The level the speedup approaches as `m` grows, and why.
    pub plateau: Plateau,
    /// Speedup against `m`, when asked for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<Line>,
}

impl Validate for Instance {
    fn check_into(&self, c: &mut Checker) {
        c.positive("load", self.load);
        c.whole("mappers", self.mappers, 1, MAX_MAPPERS);
        c.whole("reducers", self.reducers, 1, MAX_REDUCERS);
        c.whole("channels", self.channels, 1, usize::MAX);
        c.positive("unit", self.unit);
        c.non_negative("startup", self.startup);
        c.non_negative("rate", self.rate);
        c.positive("gamma", self.gamma);
        for (name, phase) in [("map", &self.map), ("reduce", &self.reduce)] {
            c.non_negative(&format!("{name}.rate"), phase.rate);
            c.non_negative(&format!("{name}.unit_startup"), phase.unit_startup);
        }
        if !c.is_clean() {
            return;
        }
        let transfers = self.mappers.get().saturating_mul(self.reducers.get());
        if transfers > MAX_TRANSFERS {
            use crate::core::domain::number::count;
            let (m, r) = (self.mappers.get(), self.reducers.get());
            let why = format!(
                "{} mappers × {} reducers is {} transfers, the limit is {}",
                count(m),
                count(r),
                count(transfers),
                count(MAX_TRANSFERS)
            );
            // On the count that is further above what fits with the other.
            let field = if r > m { "reducers" } else { "mappers" };
            c.fail(field, Invalid::TooMuchWork(why));
        }
        let job = self.job();
        if job.map <= 0.0 {
            let why = "map.rate or map.unit_startup must be above zero: mapping takes time";
            c.fail("map.rate", Invalid::Needed(why.into()));
        }
        if let Some(series) = &self.series {
            series::check(self, series, c);
        }
    }
}
