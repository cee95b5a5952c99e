//! Line charts, linear or logarithmic on either axis, painted where
//! [`layout`] put every part.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::drawing;
use super::layout::{layout, pixel_lines, Layout};
use super::looks::{marker_points, Look, Marker};
use super::place::Legend;
use crate::core::domain::error::Error;
use crate::core::presentation::chart::{LineChart, Style};

/// The least distance between two markers along a line, in pixels.
const MARKER_SPACING: i32 = 36;

/// A colour as the backend takes it.
fn rgb((r, g, b): (u8, u8, u8)) -> RGBColor {
    RGBColor(r, g, b)
}

/// Draws `chart` on `area`; returns where everything was placed (`None`:
/// the chart has nothing to draw).
///
/// # Errors
///
/// [`Error::Drawing`] if the backend fails.
pub fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &LineChart,
) -> Result<Option<Layout>, Error> {
    area.fill(&WHITE).map_err(drawing)?;
    let (width, height) = area.dim_in_pixel();
    let Some(layout) = layout(chart, width, height) else {
        area.draw(&Text::new("nothing to draw", (20, 20), ("sans-serif", 14)))
            .map_err(drawing)?;
        return Ok(None);
    };
    draw_title(area, &layout)?;
    let f = &layout.frame;
    let ([x0, x1], [y0, y1]) = (f.x, f.y);
    match (f.x_log, f.y_log) {
        (false, false) => draw(area, chart, &layout, x0..x1, y0..y1),
        (true, false) => draw(area, chart, &layout, (x0..x1).log_scale(), y0..y1),
        (false, true) => draw(area, chart, &layout, x0..x1, (y0..y1).log_scale()),
        (true, true) => draw(
            area,
            chart,
            &layout,
            (x0..x1).log_scale(),
            (y0..y1).log_scale(),
        ),
    }?;
    draw_markers(area, chart, &layout)?;
    for label in &layout.labels {
        let colour = rgb(layout.looks[label.line].colour);
        let font = TextStyle::from(("sans-serif", layout.fonts.label).into_font()).color(&colour);
        area.draw(&Text::new(
            label.text.clone(),
            (label.rect.x0 + 1, label.rect.y0),
            font.pos(Pos::new(HPos::Left, VPos::Top)),
        ))
        .map_err(drawing)?;
    }
    if let Some(legend) = &layout.legend {
        draw_legend(area, legend, layout.fonts.legend)?;
    }
    Ok(Some(layout))
}

/// The title's lines, centred at the top.
fn draw_title<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    layout: &Layout,
) -> Result<(), Error> {
    let size = layout.fonts.title;
    let line_height = super::text::text_height(size);
    for (k, line) in layout.title.iter().enumerate() {
        let font = TextStyle::from(("sans-serif", size).into_font())
            .pos(Pos::new(HPos::Center, VPos::Top));
        let at = (
            layout.size.0 as i32 / 2,
            layout.fonts.margin + k as i32 * line_height,
        );
        area.draw(&Text::new(line.clone(), at, font))
            .map_err(drawing)?;
    }
    Ok(())
}

/// The axes and the lines, on the plotting area the layout decided.
fn draw<DB, X, Y>(
    area: &DrawingArea<DB, Shift>,
    chart: &LineChart,
    layout: &Layout,
    x: X,
    y: Y,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    X: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    Y: plotters::coord::ranged1d::AsRangedCoord<Value = f64>,
    X::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
    Y::CoordDescType: plotters::coord::ranged1d::ValueFormatter<f64>,
{
    let (left, right, top, bottom) = layout.margins;
    let (x_area, y_area) = layout.label_areas;
    let mut c = ChartBuilder::on(area)
        .margin_left(left)
        .margin_right(right)
        .margin_top(top)
        .margin_bottom(bottom)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(x, y)
        .map_err(drawing)?;
    // The layout placed labels and the legend against this area.
    let (xr, yr) = c.plotting_area().get_pixel_range();
    let f = &layout.frame;
    if [xr.start, xr.end, yr.start, yr.end] != [f.px[0], f.px[1], f.py[0], f.py[1]] {
        return Err(Error::Drawing(format!(
            "the plotting area {xr:?} × {yr:?} is not the one laid out, {:?} × {:?}",
            f.px, f.py
        )));
    }
    let (xt, yt) = &layout.ticks;
    let fonts = layout.fonts;
    c.configure_mesh()
        .x_desc(layout.descs.0.as_str())
        .y_desc(layout.descs.1.as_str())
        .x_labels(xt.hint)
        .y_labels(yt.hint)
        .x_label_formatter(&|v| xt.label_of(*v))
        .y_label_formatter(&|v| yt.label_of(*v))
        .label_style(("sans-serif", fonts.tick))
        .axis_desc_style(("sans-serif", fonts.axis))
        .draw()
        .map_err(drawing)?;
    draw_all(&mut c, chart, layout)
}

/// Every line (or series of bars) in its look.
fn draw_all<DB, CT>(
    c: &mut ChartContext<'_, DB, CT>,
    chart: &LineChart,
    layout: &Layout,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let mut stack: Vec<(f64, f64)> = Vec::new();
    for (line, look) in chart.lines.iter().zip(&layout.looks) {
        let points: Vec<(f64, f64)> = line
            .points
            .iter()
            .filter(|p| super::layout::drawable(chart, p))
            .map(|&[x, y]| (x, y))
            .collect();
        if line.style == Style::Bar {
            draw_bars(c, &points, look, &mut stack)?;
        } else if look.width > 0 {
            draw_stroke(c, &points, look)?;
        }
    }
    Ok(())
}

/// Bars at the points, each stacked on the bars drawn before at the same
/// x (a schedule's parts adding up to its whole).
fn draw_bars<DB, CT>(
    c: &mut ChartContext<'_, DB, CT>,
    points: &[(f64, f64)],
    look: &Look,
    stack: &mut Vec<(f64, f64)>,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let (mut bars, mut outlines) = (Vec::new(), Vec::new());
    for &(x, top) in points {
        let base = match stack.iter_mut().find(|(sx, _)| *sx == x) {
            Some(entry) => std::mem::replace(&mut entry.1, top),
            None => {
                stack.push((x, top));
                0.0
            }
        };
        if top > base {
            let corners = [(x - 0.35, base), (x + 0.35, top)];
            bars.push(Rectangle::new(corners, rgb(look.colour).filled()));
            // Outlined as the Gantt chart's bars are, so that a pale state
            // (idle) stands out from the background.
            outlines.push(Rectangle::new(corners, BLACK.mix(0.35)));
        }
    }
    c.draw_series(bars).map_err(drawing)?;
    c.draw_series(outlines).map_err(drawing)?;
    Ok(())
}

/// A line through the points, stroked in its look.
fn draw_stroke<DB, CT>(
    c: &mut ChartContext<'_, DB, CT>,
    points: &[(f64, f64)],
    look: &Look,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let style = rgb(look.colour).stroke_width(look.width);
    match look.dash {
        Some((dash, gap)) => c
            .draw_series(DashedLineSeries::new(points.to_vec(), dash, gap, style))
            .map_err(drawing)?,
        None => c
            .draw_series(LineSeries::new(points.to_vec(), style))
            .map_err(drawing)?,
    };
    Ok(())
}

/// The lines' markers, spaced along each line (every point of a line of
/// discrete points).
fn draw_markers<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &LineChart,
    layout: &Layout,
) -> Result<(), Error> {
    let pixels = pixel_lines(chart, &layout.frame);
    for (points, look) in pixels.iter().zip(&layout.looks) {
        let Some(marker) = look.marker else {
            continue;
        };
        for p in marker_points(points, look.every_point, MARKER_SPACING) {
            draw_marker(area, marker, p, rgb(look.colour))?;
        }
    }
    Ok(())
}

/// One marker centred at pixel `p`.
fn draw_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    marker: Marker,
    (x, y): (i32, i32),
    colour: RGBColor,
) -> Result<(), Error> {
    let fill = colour.filled();
    match marker {
        Marker::Circle => area.draw(&Circle::new((x, y), 3, fill)),
        Marker::Square => area.draw(&Rectangle::new([(x - 3, y - 3), (x + 3, y + 3)], fill)),
        Marker::Triangle => area.draw(&Polygon::new(
            vec![(x, y - 4), (x - 4, y + 3), (x + 4, y + 3)],
            fill,
        )),
        Marker::Cross => area.draw(&PathElement::new(
            vec![
                (x - 4, y - 4),
                (x + 4, y + 4),
                (x, y),
                (x + 4, y - 4),
                (x - 4, y + 4),
            ],
            colour.stroke_width(2),
        )),
    }
    .map_err(drawing)
}

/// The legend's box and entries.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    legend: &Legend,
    size: u32,
) -> Result<(), Error> {
    let r = legend.frame;
    area.draw(&Rectangle::new(
        [(r.x0, r.y0), (r.x1, r.y1)],
        WHITE.mix(0.9).filled(),
    ))
    .map_err(drawing)?;
    area.draw(&Rectangle::new(
        [(r.x0, r.y0), (r.x1, r.y1)],
        BLACK.mix(0.3),
    ))
    .map_err(drawing)?;
    let h = super::text::text_height(size);
    for e in &legend.entries {
        let (x, y) = e.at;
        let mid = y + h / 2;
        let colour = rgb(e.look.colour);
        if e.bar {
            area.draw(&Rectangle::new(
                [(x, mid - 5), (x + 16, mid + 5)],
                colour.filled(),
            ))
            .map_err(drawing)?;
        } else {
            draw_swatch(area, &e.look, (x, mid))?;
        }
        let font =
            TextStyle::from(("sans-serif", size).into_font()).pos(Pos::new(HPos::Left, VPos::Top));
        area.draw(&Text::new(e.text.clone(), (x + 22, y), font))
            .map_err(drawing)?;
    }
    Ok(())
}

/// A short stroke in a line's look, with its marker, from `(x, y)`.
fn draw_swatch<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    look: &Look,
    (x, y): (i32, i32),
) -> Result<(), Error> {
    let style = rgb(look.colour).stroke_width(look.width);
    let pieces: Vec<(i32, i32)> = match look.dash {
        _ if look.width == 0 => Vec::new(),
        Some((dash, gap)) => (0..18)
            .step_by((dash + gap) as usize)
            .map(|from| (from, (from + dash as i32).min(18)))
            .collect(),
        None => vec![(0, 18)],
    };
    for (a, b) in pieces {
        area.draw(&PathElement::new(vec![(x + a, y), (x + b, y)], style))
            .map_err(drawing)?;
    }
    if let Some(marker) = look.marker {
        draw_marker(area, marker, (x + 9, y), rgb(look.colour))?;
    }
    Ok(())
}
