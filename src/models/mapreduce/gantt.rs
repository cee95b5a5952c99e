//! M8's Gantt chart: mappers (start-up, map, each send coloured by its
//! reducer), then reducers (start-up, receiving, reduce), the first and
//! last rows of each when there are many.

use super::{Instance, Job, Report};
use crate::core::gantt::{Activity, Bar, Gantt, Row};

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

/// The Gantt chart: mappers (start-up, map, each send coloured by its
/// reducer), then reducers (start-up, receiving, reduce).
pub fn gantt(request: &Instance, report: &Report) -> Gantt {
    let job = request.job();
    let horizon = report.makespan;
    let mappers = shown(job.mappers, MAPPER_ROWS);
    let reducers = shown(job.reducers, REDUCER_ROWS);
    let (mut sends, mut receives) = transfer_bars(&job, report);
    let startup = |ready: f64| Bar {
        start: ready - job.startup,
        end: ready,
        activity: Activity::Startup,
    };
    let mut rows = Vec::new();
    for k in mappers {
        let ready = job.mapper_ready(k);
        let mut bars = vec![
            startup(ready),
            Bar {
                start: ready,
                end: ready + job.map * report.sizes[k],
                activity: Activity::Map,
            },
        ];
        bars.extend(merged(std::mem::take(&mut sends[k]), horizon));
        rows.push(Row {
            label: format!("M{k}"),
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
            activity: Activity::Reduce,
        });
        rows.push(Row {
            label: format!("R{j}"),
            bars,
        });
    }
    for row in &mut rows {
        row.bars.retain(|b| b.end > b.start);
    }
    Gantt { rows, horizon }
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
            activity: Activity::Send { to },
        });
        receives[t.reducer].push(Bar {
            start: t.start,
            end: t.end,
            activity: Activity::Receive,
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
