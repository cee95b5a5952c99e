//! The data of a Gantt chart, computed from a [`Schedule`] outside the
//! drawing code, so it can be tested natively and drawn by any backend.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::core::domain::schedule::Schedule;

/// What a machine is doing during a bar: a kind of activity (the shared
/// ones below, or one its model declares, such as a MapReduce job's
/// `map`) and, for a kind drawn in several shades, which one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "Written")]
pub struct Activity {
    /// The kind's name, as a model's `activity_style` (in
    /// `core::framework::page`) knows it.
    pub kind: Cow<'static, str>,
    /// Which shade of the kind, if it has several.
    #[serde(flatten)]
    pub shade: Option<Shade>,
}

/// Which shade of a kind of activity a bar is drawn in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Shade {
    /// A memory level (0 = core, 1 = out of core, ...).
    Level(usize),
    /// The machine a transfer goes to (from 0; `None`: to several, one
    /// after another).
    To(Option<usize>),
    /// Computing out of core, this many times slower than in core, in
    /// hundredths (`100`: as fast; `3800`: 38 times slower), so that a
    /// chunk barely over the core memory looks unlike one far over it.
    #[serde(rename = "slowdown_percent")]
    SlowdownPercent(u32),
}

/// An activity as JSON writes it, read strictly: a `level` or `to` that is
/// not a whole number is an error, not a bar without its shade.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Written {
    kind: String,
    #[serde(default)]
    level: Option<usize>,
    #[serde(default, deserialize_with = "present")]
    to: Option<Option<usize>>,
    #[serde(default)]
    slowdown_percent: Option<u32>,
}

/// A field that is there, `null` or not: `Some(None)` for `null`.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<usize>>, D::Error> {
    Option::<usize>::deserialize(d).map(Some)
}

impl TryFrom<Written> for Activity {
    type Error = String;

    fn try_from(w: Written) -> Result<Activity, String> {
        let shade = match (w.level, w.to, w.slowdown_percent) {
            (Some(level), None, None) => Some(Shade::Level(level)),
            (None, Some(to), None) => Some(Shade::To(to)),
            (None, None, Some(percent)) => Some(Shade::SlowdownPercent(percent)),
            (None, None, None) => None,
            _ => {
                return Err(
                    "an activity has at most one of a level, a receiver and a slowdown".into(),
                )
            }
        };
        Ok(Activity {
            kind: Cow::Owned(w.kind),
            shade,
        })
    }
}

impl Activity {
    /// Starting up (cold start, wake-up, loading the application).
    pub const STARTUP: Activity = Activity::named("startup");
    /// Receiving a chunk from the originator.
    pub const RECEIVE: Activity = Activity::named("receive");
    /// Waiting with nothing to do.
    pub const IDLE: Activity = Activity::named("idle");

    /// A kind of activity drawn in one shade.
    pub const fn named(kind: &'static str) -> Activity {
        Activity {
            kind: Cow::Borrowed(kind),
            shade: None,
        }
    }

    /// Computing at a memory level (0 = in core, 1 = out of core, ...).
    pub const fn compute(level: usize) -> Activity {
        Activity {
            kind: Cow::Borrowed("compute"),
            shade: Some(Shade::Level(level)),
        }
    }

    /// Computing out of core, `percent` hundredths of the in-core time.
    pub const fn slower(percent: u32) -> Activity {
        Activity {
            kind: Cow::Borrowed("compute"),
            shade: Some(Shade::SlowdownPercent(percent)),
        }
    }

    /// How a chart draws one of the shared kinds (`None`: a model's own).
    pub fn shared_style(&self) -> Option<ActivityStyle> {
        let style = |colour, legend, order| ActivityStyle::new(colour, legend, order);
        Some(match (self.kind.as_ref(), self.shade) {
            ("startup", _) => style((153, 112, 171), "start-up", 0),
            ("receive", _) => style((70, 130, 180), "receive", 0),
            ("compute", Some(Shade::Level(0))) => style((46, 139, 87), "compute in core", 1),
            ("compute", Some(Shade::Level(1))) => style((205, 92, 92), "compute out of core", 2),
            ("compute", Some(Shade::SlowdownPercent(p))) => ActivityStyle {
                swatch: slowdown_colour(800),
                ..style(
                    slowdown_colour(p),
                    "compute out of core (darker: slower)",
                    2,
                )
            },
            ("compute", _) => style((139, 26, 26), "compute, deeper level", 3),
            ("idle", _) => style((222, 222, 222), "idle", 100),
            _ => return None,
        })
    }
}

/// The slowdowns (in hundredths) the legend's scale shows.
pub const SLOWDOWN_SCALE: [u32; 4] = [100, 400, 1600, 6400];

/// The red of computing `percent` hundredths of the in-core time: light
/// just over the core memory, darker on a log scale, darkest from 64 times
/// slower.
pub fn slowdown_colour(percent: u32) -> (u8, u8, u8) {
    let t = (f64::from(percent.max(100)) / 100.0).ln() / 64f64.ln();
    let t = t.clamp(0.0, 1.0);
    let mix = |light: f64, dark: f64| (light + t * (dark - light)).round() as u8;
    (mix(244.0, 110.0), mix(180.0, 0.0), mix(180.0, 0.0))
}

/// How a chart draws a kind of activity: its colour, and its entry in the
/// legend (one per legend text, with the swatch's colour).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ActivityStyle {
    /// The bar's colour (red, green, blue).
    pub colour: (u8, u8, u8),
    /// The legend's words for it.
    pub legend: &'static str,
    /// The legend swatch's colour (the bar's, unless the kind has shades
    /// that one swatch stands for).
    pub swatch: (u8, u8, u8),
    /// Where the legend lists it (lower first).
    pub order: u8,
}

impl ActivityStyle {
    /// A kind drawn in `colour` and listed as `legend` at `order`.
    pub const fn new(colour: (u8, u8, u8), legend: &'static str, order: u8) -> ActivityStyle {
        ActivityStyle {
            colour,
            legend,
            swatch: colour,
            order,
        }
    }

    /// How a chart draws a kind no model declares: grey, under its name.
    pub fn unknown() -> ActivityStyle {
        ActivityStyle::new((128, 128, 128), "other", 200)
    }
}

/// One bar of the chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bar {
    /// When it starts, in time units.
    pub start: f64,
    /// When it ends, in time units.
    pub end: f64,
    /// What the machine does meanwhile.
    pub activity: Activity,
}

/// One machine's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The machine's name on the chart (`P1`, `P2`, ...).
    pub label: String,
    /// Its bars, by start time.
    pub bars: Vec<Bar>,
}

/// Machines left out of a chart between two of its rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gap {
    /// The index of the row after the gap.
    pub before: usize,
    /// How many machines are not shown there.
    pub hidden: usize,
    /// What they are, in the plural (`mappers`).
    pub noun: String,
}

/// A whole chart: one row per machine, time from 0 to `horizon`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gantt {
    /// The rows, top to bottom.
    pub rows: Vec<Row>,
    /// The end of the time axis (the makespan), in time units.
    pub horizon: f64,
    /// Where machines are left out (a chart of many machines shows the
    /// first and the last).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub gaps: Vec<Gap>,
}

/// The unit of a chart's times: every model's times are in seconds, as its
/// tables say.
pub const TIME_UNIT: &str = "s";

/// Gaps shorter than this fraction of the makespan are not drawn as idle.
const MIN_IDLE: f64 = 1e-9;

impl Gantt {
    /// The chart of `schedule`: receive and compute bars for every chunk,
    /// and idle bars for the gaps between a machine's first reception and
    /// the end of the schedule. Machines that receive nothing get no row
    /// (a model that leaves machines unused says so in its report).
    pub fn of(schedule: &Schedule) -> Gantt {
        Gantt::with_startup(schedule, 0.0)
    }

    /// As [`Gantt::of`], for machines that start up from 0 to `ready`.
    pub fn with_startup(schedule: &Schedule, ready: f64) -> Gantt {
        Gantt::built(schedule, ready, None)
    }

    /// As [`Gantt::with_startup`], each chunk computed out of core shaded by
    /// how much slower it is than in core at `in_core_rate` (time per load
    /// unit).
    pub fn with_slowdowns(schedule: &Schedule, ready: f64, in_core_rate: f64) -> Gantt {
        Gantt::built(schedule, ready, Some(in_core_rate))
    }

    /// The chart, out-of-core chunks shaded by their slowdown when the
    /// in-core rate is given.
    fn built(schedule: &Schedule, ready: f64, in_core_rate: Option<f64>) -> Gantt {
        let horizon = schedule.makespan;
        let min_gap = MIN_IDLE * horizon.max(1.0);
        let mut rows: Vec<Row> = (0..schedule.machines)
            .map(|i| Row {
                label: format!("P{}", i + 1),
                bars: Vec::new(),
            })
            .collect();
        for c in &schedule.chunks {
            let bars = &mut rows[c.machine].bars;
            if ready > 0.0 && bars.is_empty() {
                bars.push(Bar {
                    start: 0.0,
                    end: ready,
                    activity: Activity::STARTUP,
                });
            }
            bars.push(Bar {
                start: c.send.start,
                end: c.send.end,
                activity: Activity::RECEIVE,
            });
            bars.push(Bar {
                start: c.compute.start,
                end: c.compute.end,
                activity: compute_activity(c, in_core_rate),
            });
        }
        for row in rows.iter_mut().filter(|r| !r.bars.is_empty()) {
            row.bars.sort_by(|a, b| a.start.total_cmp(&b.start));
            let mut idle = Vec::new();
            let mut busy_until = row.bars.first().map_or(horizon, |b| b.start);
            for b in &row.bars {
                if b.start - busy_until > min_gap {
                    idle.push((busy_until, b.start));
                }
                busy_until = busy_until.max(b.end);
            }
            if horizon - busy_until > min_gap {
                idle.push((busy_until, horizon));
            }
            row.bars.extend(idle.into_iter().map(|(start, end)| Bar {
                start,
                end,
                activity: Activity::IDLE,
            }));
            row.bars.sort_by(|a, b| a.start.total_cmp(&b.start));
        }
        rows.retain(|r| !r.bars.is_empty());
        Gantt {
            rows,
            horizon,
            gaps: Vec::new(),
        }
    }
}

/// A chunk's computing: at its level, or out of core shaded by its
/// slowdown against `in_core_rate` when that is given.
fn compute_activity(
    chunk: &crate::core::domain::schedule::Chunk,
    in_core_rate: Option<f64>,
) -> Activity {
    let in_core = in_core_rate.map(|rate| rate * chunk.size);
    match in_core {
        Some(t) if chunk.level >= 1 && t > 0.0 => {
            let slowdown = (chunk.compute.end - chunk.compute.start) / t;
            let percent = (slowdown * 100.0).round().clamp(100.0, f64::from(u32::MAX));
            Activity::slower(percent as u32)
        }
        _ => Activity::compute(chunk.level),
    }
}
