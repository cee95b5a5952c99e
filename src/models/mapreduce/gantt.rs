//! M8's Gantt chart: mappers (start-up, map, each send coloured by its
//! reducer), then reducers (start-up, receiving, reduce), the first and
//! last rows of each when there are many.

use super::{Instance, Job, Report};
use crate::core::presentation::gantt::{Activity, ActivityStyle, Bar, Gantt, Gap, Row, Shade};

/// Mapping a chunk.
const MAP: Activity = Activity::named("map");
/// Reducing the received pieces.
const REDUCE: Activity = Activity::named("reduce");

/// Sending a piece of map output to reducer `to` (`None`: to several
/// reducers, one after another).
fn send(to: Option<usize>) -> Activity {
    Activity {
        kind: "send".into(),
        shade: Some(Shade::To(to)),
    }
}

/// The colours of transfers, by reducer (cycling): distinct hues that are
/// none of the other activities' colours.
const REDUCERS: [(u8, u8, u8); 8] = [
    (31, 119, 180),
    (255, 127, 14),
    (148, 103, 189),
    (214, 39, 40),
    (23, 190, 207),
    (140, 86, 75),
    (227, 119, 194),
    (188, 189, 34),
];

/// How the chart draws a job's own activities: each send in its reducer's
/// colour, so that the shuffle's pattern shows.
pub fn style(activity: &Activity) -> Option<ActivityStyle> {
    Some(match (activity.kind.as_ref(), activity.shade) {
        ("map", _) => ActivityStyle::new((46, 139, 87), "map", 1),
        ("reduce", _) => ActivityStyle::new((218, 165, 32), "reduce", 3),
        ("send", Some(Shade::To(Some(j)))) => ActivityStyle {
            swatch: REDUCERS[0],
            ..ActivityStyle::new(REDUCERS[j % REDUCERS.len()], "send (colour: reducer)", 2)
        },
        ("send", _) => ActivityStyle::new((112, 128, 144), "send to reducers", 2),
        _ => return None,
    })
}

/// The most mapper rows and reducer rows the chart draws (the first and the
/// last halves when there are more).
const MAPPER_ROWS: usize = 24;
const REDUCER_ROWS: usize = 16;
/// Above this many reducers a mapper's sends are drawn as one bar.
const COLOURED_SENDS: usize = 64;

/// The rows to draw out of `n`: all, or the first and last `most/2`.
fn shown(n: usize, most: usize) -> Vec<usize> {
    if n <= most {
        (0..n).collect()
    } else {
        (0..most / 2).chain(n - most / 2..n).collect()
    }
}

/// The gap in `n` machines drawn as the first and last `most/2` (rows from
/// `first_row`), if there is one.
fn gap(n: usize, most: usize, first_row: usize, noun: &str) -> Option<Gap> {
    (n > most).then(|| Gap {
        before: first_row + most / 2,
        hidden: n - most / 2 * 2,
        noun: noun.into(),
    })
}

/// The Gantt chart: mappers (start-up, map, each send coloured by its
/// reducer), then reducers (start-up, receiving, reduce).
pub fn gantt(request: &Instance, report: &Report) -> Gantt {
    let job = request.job();
    let horizon = report.makespan;
    let mappers = shown(job.mappers, MAPPER_ROWS);
    let mapper_rows = mappers.len();
    let reducers = shown(job.reducers, REDUCER_ROWS);
    let (mut sends, mut receives) = transfer_bars(&job, report);
    let startup = |ready: f64| Bar {
        start: ready - job.startup,
        end: ready,
        activity: Activity::STARTUP,
    };
    let mut rows = Vec::new();
    for k in mappers {
        let ready = job.mapper_ready(k);
        let mut bars = vec![
            startup(ready),
            Bar {
                start: ready,
                end: ready + job.map * report.sizes[k],
                activity: MAP,
            },
        ];
        bars.extend(merged(std::mem::take(&mut sends[k]), horizon));
        rows.push(Row {
            label: format!("map {k}"),
            bars,
        });
    }
    for j in reducers {
        let mut bars = vec![startup(job.reducer_ready(j))];
        bars.extend(merged(std::mem::take(&mut receives[j]), horizon));
        let reduce = report.reducers[j];
        bars.push(Bar {
            start: reduce.start,
            end: reduce.end,
            activity: REDUCE,
        });
        rows.push(Row {
            label: format!("reduce {j}"),
            bars,
        });
    }
    for row in &mut rows {
        row.bars.retain(|b| b.end > b.start);
    }
    let gaps = [
        gap(job.mappers, MAPPER_ROWS, 0, "mappers"),
        gap(job.reducers, REDUCER_ROWS, mapper_rows, "reducers"),
    ];
    Gantt {
        rows,
        horizon,
        gaps: gaps.into_iter().flatten().collect(),
    }
}

/// Each transfer twice: a send on its mapper's row (coloured by its
/// reducer when there are few) and a reception on its reducer's.
fn transfer_bars(job: &Job, report: &Report) -> (Vec<Vec<Bar>>, Vec<Vec<Bar>>) {
    let mut sends: Vec<Vec<Bar>> = vec![Vec::new(); job.mappers];
    let mut receives: Vec<Vec<Bar>> = vec![Vec::new(); job.reducers];
    for t in &report.transfers {
        let to = (job.reducers <= COLOURED_SENDS).then_some(t.reducer);
        sends[t.mapper].push(Bar {
            start: t.start,
            end: t.end,
            activity: send(to),
        });
        receives[t.reducer].push(Bar {
            start: t.start,
            end: t.end,
            activity: Activity::RECEIVE,
        });
    }
    (sends, receives)
}

/// `bars` by start, with back-to-back bars of the same activity joined
/// (a reducer's receptions, a mapper's sends when not coloured).
fn merged(mut bars: Vec<Bar>, horizon: f64) -> Vec<Bar> {
    bars.sort_by(|a, b| a.start.total_cmp(&b.start));
    let gap = 1e-9 * horizon.max(1.0);
    let mut out: Vec<Bar> = Vec::with_capacity(bars.len());
    for b in bars {
        match out.last_mut() {
            Some(last) if last.activity == b.activity && b.start - last.end <= gap => {
                last.end = last.end.max(b.end);
            }
            _ => out.push(b),
        }
    }
    out
}
