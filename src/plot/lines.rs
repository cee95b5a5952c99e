//! Line charts, linear or logarithmic on either axis.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::drawing;
use crate::core::chart::{Frame, LineChart, Style};
use crate::core::error::Error;

/// Colours of successive lines.
const PALETTE: [RGBColor; 5] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
];

/// Widens a degenerate range so the axis has some extent.
fn widen([lo, hi]: [f64; 2], log: bool) -> [f64; 2] {
    if hi > lo {
        if log {
            [lo, hi]
        } else {
            let pad = (hi - lo) * 0.04;
            [lo - pad, hi + pad]
        }
    } else if log {
        [lo / 2.0, hi * 2.0]
    } else {
        let pad = lo.abs().max(1.0) * 0.5;
        [lo - pad, hi + pad]
    }
}

/// Draws `chart` on `area`.
///
/// # Errors
///
/// [`Error::Drawing`] if the backend fails.
pub fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &LineChart,
) -> Result<Option<Frame>, Error> {
    area.fill(&WHITE).map_err(drawing)?;
    let Some((xs, ys)) = chart.bounds() else {
        area.draw(&Text::new("nothing to draw", (20, 20), ("sans-serif", 14)))
            .map_err(drawing)?;
        return Ok(None);
    };
    let ([x0, x1], [y0, mut y1]) = (widen(xs, chart.x.log), widen(ys, chart.y.log));
    // Bars stand on zero, and a bar is a whole step wide.
    let bars = chart.lines.iter().any(|l| l.style == Style::Bar);
    let (x0, x1, y0) = if bars && !chart.x.log && !chart.y.log {
        y1 = y1.max(0.0);
        (xs[0] - 0.6, xs[1] + 0.6, 0.0)
    } else {
        (x0, x1, y0)
    };
    // One code path per combination of axis kinds: plotters types them.
    let (px, py) = match (chart.x.log, chart.y.log) {
        (false, false) => draw(area, chart, x0..x1, y0..y1, ([x0, x1], [y0, y1])),
        (true, false) => draw(
            area,
            chart,
            (x0..x1).log_scale(),
            y0..y1,
            ([x0, x1], [y0, y1]),
        ),
        (false, true) => draw(
            area,
            chart,
            x0..x1,
            (y0..y1).log_scale(),
            ([x0, x1], [y0, y1]),
        ),
        (true, true) => draw(
            area,
            chart,
            (x0..x1).log_scale(),
            (y0..y1).log_scale(),
            ([x0, x1], [y0, y1]),
        ),
    }?;
    Ok(Some(Frame {
        px,
        py,
        x: [x0, x1],
        y: [y0, y1],
        x_log: chart.x.log,
        y_log: chart.y.log,
    }))
}

/// Draws, and returns the plotting area's pixel range `([left, right],
/// [top, bottom])`.
fn draw<DB, X, Y>(
    area: &DrawingArea<DB, Shift>,
    chart: &LineChart,
    x: X,
    y: Y,
    ranges: ([f64; 2], [f64; 2]),
) -> Result<([i32; 2], [i32; 2]), Error>
where
    DB: DrawingBackend,
    X: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    Y: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    X::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
    Y::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let mut c = ChartBuilder::on(area)
        .caption(&chart.title, ("sans-serif", 16))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d(x, y)
        .map_err(drawing)?;
    // Whole-number axes (machine counts): at most one tick per whole
    // number, and no label between them.
    let ticks = |axis: &crate::core::chart::Axis, [lo, hi]: [f64; 2]| {
        if axis.whole && !axis.log {
            ((hi.floor() - lo.ceil()).max(0.0) as usize + 1).clamp(2, 10)
        } else {
            10
        }
    };
    let label = |whole: bool, v: f64| {
        if whole && (v - v.round()).abs() > 1e-9 {
            String::new()
        } else {
            short(v)
        }
    };
    let (x_whole, y_whole) = (chart.x.whole, chart.y.whole);
    c.configure_mesh()
        .x_desc(chart.x.label.as_str())
        .y_desc(chart.y.label.as_str())
        .x_labels(ticks(&chart.x, ranges.0))
        .y_labels(ticks(&chart.y, ranges.1))
        .x_label_formatter(&|v| label(x_whole, *v))
        .y_label_formatter(&|v| label(y_whole, *v))
        .label_style(("sans-serif", 12))
        .axis_desc_style(("sans-serif", 13))
        .draw()
        .map_err(drawing)?;
    let drawable = |&[x, y]: &[f64; 2]| {
        x.is_finite() && y.is_finite() && (!chart.x.log || x > 0.0) && (!chart.y.log || y > 0.0)
    };
    // Lines of one name share a colour and one legend entry (a line broken
    // into pieces, or a result and its bound dashed).
    let mut names: Vec<&str> = Vec::new();
    // The running tops of the stacked bars, by x.
    let mut stack: Vec<(f64, f64)> = Vec::new();
    for line in &chart.lines {
        let (i, first) = match names.iter().position(|n| *n == line.name) {
            Some(i) => (i, false),
            None => {
                names.push(&line.name);
                (names.len() - 1, true)
            }
        };
        let colour = match line.style {
            Style::Bold => BLACK,
            _ => PALETTE[i % PALETTE.len()],
        };
        let points: Vec<(f64, f64)> = line
            .points
            .iter()
            .filter(|p| drawable(p))
            .map(|&[x, y]| (x, y))
            .collect();
        if line.style == Style::Bar {
            let mut bars = Vec::new();
            for &(x, top) in &points {
                let base = match stack.iter_mut().find(|(sx, _)| *sx == x) {
                    Some(entry) => std::mem::replace(&mut entry.1, top),
                    None => {
                        stack.push((x, top));
                        0.0
                    }
                };
                if top > base {
                    bars.push(Rectangle::new(
                        [(x - 0.35, base), (x + 0.35, top)],
                        colour.filled(),
                    ));
                }
            }
            let series = c.draw_series(bars).map_err(drawing)?;
            if first {
                series.label(line.name.as_str()).legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled())
                });
            }
            continue;
        }
        let width = match line.style {
            Style::Solid => 2,
            Style::Bold => 3,
            Style::Dashed | Style::Bar => 1,
        };
        let style = colour.stroke_width(width);
        let series = match line.style {
            Style::Dashed => c
                .draw_series(DashedLineSeries::new(points.clone(), 4, 3, style))
                .map_err(drawing)?,
            _ => c
                .draw_series(LineSeries::new(points.clone(), style))
                .map_err(drawing)?,
        };
        if first {
            series
                .label(line.name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], style));
        }
        if line.markers {
            c.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
                .map_err(drawing)?;
        }
        if let (Some(label), Some(&end)) = (&line.label, points.last()) {
            let text = Text::new(
                label.clone(),
                end,
                ("sans-serif", 11).into_font().color(&colour),
            );
            c.draw_series(std::iter::once(text)).map_err(drawing)?;
        }
    }
    let (xr, yr) = c.plotting_area().get_pixel_range();
    let frame = ([xr.start, xr.end], [yr.start, yr.end]);
    if !chart.legend {
        return Ok(frame);
    }
    c.configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(drawing)?;
    Ok(frame)
}

/// A tick label: plain for moderate magnitudes, scientific otherwise.
fn short(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 {
        "0".into()
    } else if (1e-3..1e5).contains(&a) {
        format!("{}", (v * 1e4).round() / 1e4)
    } else {
        // 1.250e15 → 1.25e15
        let text = format!("{v:.3e}");
        let (mantissa, exponent) = text.split_once('e').unwrap_or((&text, "0"));
        let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
        format!("{mantissa}e{exponent}")
    }
}
