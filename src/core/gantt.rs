//! The data of a Gantt chart, computed from a [`Schedule`] outside the
//! drawing code, so it can be tested natively and drawn by any backend.

use serde::{Deserialize, Serialize};

use crate::core::schedule::Schedule;

/// What a machine is doing during a bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Activity {
    /// Starting up (cold start, wake-up, loading the application).
    Startup,
    /// Receiving a chunk from the originator.
    Receive,
    /// Computing at a memory level (0 = in core, 1 = out of core, ...).
    Compute {
        /// The memory level's index (0 = core).
        level: usize,
    },
    /// Waiting with nothing to do.
    Idle,
    /// Mapping its chunk (MapReduce).
    Map,
    /// Sending a piece of its map output to a reducer (`None`: to several
    /// reducers, one after another).
    Send {
        /// The reducer (from 0), which gives the bar its colour.
        to: Option<usize>,
    },
    /// Reducing (MapReduce).
    Reduce,
    /// Asleep in a low-power mode, waiting to be woken.
    Sleep,
    /// Waking up from a low-power mode.
    Wake,
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

/// A whole chart: one row per machine, time from 0 to `horizon`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Gantt {
    /// The rows, top to bottom.
    pub rows: Vec<Row>,
    /// The end of the time axis (the makespan), in time units.
    pub horizon: f64,
}

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
                    activity: Activity::Startup,
                });
            }
            bars.push(Bar {
                start: c.send.start,
                end: c.send.end,
                activity: Activity::Receive,
            });
            bars.push(Bar {
                start: c.compute.start,
                end: c.compute.end,
                activity: Activity::Compute { level: c.level },
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
                activity: Activity::Idle,
            }));
            row.bars.sort_by(|a, b| a.start.total_cmp(&b.start));
        }
        rows.retain(|r| !r.bars.is_empty());
        Gantt { rows, horizon }
    }
}
