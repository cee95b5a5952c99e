//! The Gantt chart: one row per machine, time across.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::drawing;
use crate::core::error::Error;
use crate::core::gantt::{Activity, Gantt};

const RECEIVE: RGBColor = RGBColor(70, 130, 180);
const IN_CORE: RGBColor = RGBColor(46, 139, 87);
const OUT_OF_CORE: RGBColor = RGBColor(205, 92, 92);
const DEEPER: RGBColor = RGBColor(139, 26, 26);
const IDLE: RGBColor = RGBColor(222, 222, 222);
const STARTUP: RGBColor = RGBColor(153, 112, 171);
const MAP: RGBColor = RGBColor(46, 139, 87);
const REDUCE: RGBColor = RGBColor(218, 165, 32);
const SEND_MANY: RGBColor = RGBColor(112, 128, 144);
const SLEEP: RGBColor = RGBColor(176, 196, 222);
const WAKE: RGBColor = RGBColor(255, 165, 79);
/// The colours of transfers, by reducer (cycling): distinct hues that are
/// none of the other activities' colours.
const REDUCERS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(214, 39, 40),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(188, 189, 34),
];

/// The colour and legend name of an activity.
fn style(activity: Activity) -> (RGBColor, &'static str) {
    match activity {
        Activity::Startup => (STARTUP, "start-up"),
        Activity::Receive => (RECEIVE, "receive"),
        Activity::Compute { level: 0 } => (IN_CORE, "compute in core"),
        Activity::Compute { level: 1 } => (OUT_OF_CORE, "compute out of core"),
        Activity::Compute { .. } => (DEEPER, "compute, deeper level"),
        Activity::Idle => (IDLE, "idle"),
        Activity::Map => (MAP, "map"),
        Activity::Send { to: Some(j) } => (REDUCERS[j % REDUCERS.len()], "send (colour: reducer)"),
        Activity::Send { to: None } => (SEND_MANY, "send to reducers"),
        Activity::Reduce => (REDUCE, "reduce"),
        Activity::Sleep => (SLEEP, "asleep"),
        Activity::Wake => (WAKE, "waking"),
    }
}

/// Draws `gantt` on `area`: a legend strip on top, the chart below.
///
/// # Errors
///
/// [`Error::Drawing`] if the backend fails.
pub fn draw_gantt<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    gantt: &Gantt,
) -> Result<(), Error> {
    area.fill(&WHITE).map_err(drawing)?;
    let (legend, body) = area.split_vertically(28);
    draw_legend(&legend, gantt)?;

    let rows = gantt.rows.len().max(1);
    let horizon = if gantt.horizon > 0.0 {
        gantt.horizon
    } else {
        1.0
    };
    let top = rows as f64 - 0.5;
    let mut chart = ChartBuilder::on(&body)
        .margin_right(16)
        .margin_bottom(4)
        .x_label_area_size(36)
        .y_label_area_size(44)
        .build_cartesian_2d(0.0..horizon, -0.5..top)
        .map_err(drawing)?;
    let label = |y: &f64| {
        let r = y.round();
        if (y - r).abs() > 1e-6 || r < 0.0 {
            return String::new();
        }
        let row = rows - 1 - r as usize;
        gantt
            .rows
            .get(row)
            .map_or(String::new(), |r| r.label.clone())
    };
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(rows.min(40))
        .y_label_formatter(&label)
        .x_desc("time")
        .axis_desc_style(("sans-serif", 14))
        .label_style(("sans-serif", 13))
        .draw()
        .map_err(drawing)?;

    for (i, row) in gantt.rows.iter().enumerate() {
        let y = (rows - 1 - i) as f64;
        let bars = row.bars.iter().map(|b| {
            let (colour, _) = style(b.activity);
            Rectangle::new([(b.start, y - 0.35), (b.end, y + 0.35)], colour.filled())
        });
        chart.draw_series(bars).map_err(drawing)?;
        let outlines = row
            .bars
            .iter()
            .map(|b| Rectangle::new([(b.start, y - 0.35), (b.end, y + 0.35)], BLACK.mix(0.35)));
        chart.draw_series(outlines).map_err(drawing)?;
    }
    Ok(())
}

/// One swatch and name per activity that occurs in the chart.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    gantt: &Gantt,
) -> Result<(), Error> {
    let mut seen: Vec<Activity> = Vec::new();
    for b in gantt.rows.iter().flat_map(|r| &r.bars) {
        let key = match b.activity {
            Activity::Compute { level } if level > 1 => Activity::Compute { level: 2 },
            Activity::Send { to: Some(_) } => Activity::Send { to: Some(0) },
            other => other,
        };
        if !seen.contains(&key) {
            seen.push(key);
        }
    }
    seen.sort_by_key(|a| match a {
        Activity::Sleep => 0,
        Activity::Wake => 0,
        Activity::Startup => 0,
        Activity::Receive => 0,
        Activity::Compute { level } => 1 + level,
        Activity::Map => 1,
        Activity::Send { .. } => 2,
        Activity::Reduce => 3,
        Activity::Idle => 100,
    });
    let mut x = 50;
    for activity in seen {
        let (colour, name) = style(activity);
        area.draw(&Rectangle::new([(x, 8), (x + 14, 22)], colour.filled()))
            .map_err(drawing)?;
        area.draw(&Text::new(name, (x + 19, 8), ("sans-serif", 14)))
            .map_err(drawing)?;
        x += 30 + 8 * name.len() as i32;
    }
    Ok(())
}
