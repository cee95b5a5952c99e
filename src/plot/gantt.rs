//! The Gantt chart: one row per machine, time across.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::drawing;
use crate::core::error::Error;
use crate::core::gantt::{Activity, ActivityStyle, Gantt};

/// How the chart draws each activity: the shared kinds' styles, then the
/// model's own (the binding module and the command line look it up).
pub type Styles<'a> = &'a dyn Fn(&Activity) -> ActivityStyle;

/// A colour of a style as the backend takes it.
fn rgb((r, g, b): (u8, u8, u8)) -> RGBColor {
    RGBColor(r, g, b)
}

/// Draws `gantt` on `area`: a legend strip on top, the chart below.
///
/// # Errors
///
/// [`Error::Drawing`] if the backend fails.
pub fn draw_gantt<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    gantt: &Gantt,
    styles: Styles,
) -> Result<(), Error> {
    area.fill(&WHITE).map_err(drawing)?;
    let (legend, body) = area.split_vertically(28);
    draw_legend(&legend, gantt, styles)?;

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
            let colour = rgb(styles(&b.activity).colour);
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

/// One swatch and name per legend entry of the activities in the chart.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    gantt: &Gantt,
    styles: Styles,
) -> Result<(), Error> {
    let mut seen: Vec<ActivityStyle> = Vec::new();
    for b in gantt.rows.iter().flat_map(|r| &r.bars) {
        let style = styles(&b.activity);
        if !seen.iter().any(|s| s.legend == style.legend) {
            seen.push(style);
        }
    }
    // Stable: entries of one rank keep the order they first occur in.
    seen.sort_by_key(|s| s.order);
    let mut x = 50;
    for style in seen {
        let name = style.legend;
        area.draw(&Rectangle::new(
            [(x, 8), (x + 14, 22)],
            rgb(style.swatch).filled(),
        ))
        .map_err(drawing)?;
        area.draw(&Text::new(name, (x + 19, 8), ("sans-serif", 14)))
            .map_err(drawing)?;
        x += 30 + 8 * name.len() as i32;
    }
    Ok(())
}
