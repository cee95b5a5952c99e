//! Line charts, linear or logarithmic on either axis.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::drawing;
use crate::core::chart::{Frame, Line, LineChart, Style};
use crate::core::error::Error;

/// Colours of successive lines.
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// Dash and gap lengths of solid lines after the palette's first round
/// (none: solid), so that no two lines look alike.
const ROUNDS: [Option<(u32, u32)>; 3] = [None, Some((9, 3)), Some((2, 3))];

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
    draw_mesh(&mut c, chart, ranges)?;
    let mut drawn = Drawn::default();
    for line in &chart.lines {
        drawn.line(&mut c, chart, line)?;
    }
    let ends = drawn.labels.into_iter().map(|(text, end, colour)| {
        let at = c.backend_coord(&end);
        (text, at, colour)
    });
    place_end_labels(area, ends.collect())?;
    let (xr, yr) = c.plotting_area().get_pixel_range();
    let frame = ([xr.start, xr.end], [yr.start, yr.end]);
    if !chart.legend {
        // The dashed estimates still need saying what they are.
        if !drawn.estimates.is_empty() {
            draw_dashed_key(area, &drawn.estimates, (xr.start, yr.start))?;
        }
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

/// The axes, their ticks and their labels. Whole-number axes (machine
/// counts) get at most one tick per whole number and no label between
/// them, since a fraction of a machine means nothing.
fn draw_mesh<DB, X, Y>(
    c: &mut ChartContext<'_, DB, Cartesian2d<X, Y>>,
    chart: &LineChart,
    ranges: ([f64; 2], [f64; 2]),
) -> Result<(), Error>
where
    DB: DrawingBackend,
    X: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
    Y: Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
{
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
    Ok(())
}

/// A label written at a line's end: its text, the end in data
/// coordinates, and the line's colour.
type EndLabel = (String, (f64, f64), RGBColor);

/// What the lines drawn so far leave to the next ones and to the chart.
#[derive(Default)]
struct Drawn<'a> {
    /// Lines of one name share a colour and one legend entry (a line
    /// broken into pieces, or a result and its bound dashed).
    names: Vec<&'a str>,
    /// The running tops of the stacked bars, by x.
    stack: Vec<(f64, f64)>,
    /// End labels, placed after every line is drawn.
    labels: Vec<EndLabel>,
    /// The dashed lines' own names (their part after their group's), for
    /// the key of a chart without a legend.
    estimates: Vec<String>,
}

impl<'a> Drawn<'a> {
    /// Draws one line (or one series of bars) in its group's colour.
    fn line<DB, CT>(
        &mut self,
        c: &mut ChartContext<'_, DB, CT>,
        chart: &LineChart,
        line: &'a Line,
    ) -> Result<(), Error>
    where
        DB: DrawingBackend,
        CT: CoordTranslate<From = (f64, f64)>,
    {
        let (i, first) = self.slot(line);
        let round = ROUNDS[(i / PALETTE.len()) % ROUNDS.len()];
        if let (Style::Dashed, Some(group)) = (line.style, &line.group) {
            let own = line.name.strip_prefix(group.as_str()).unwrap_or(&line.name);
            let own = own.trim().to_string();
            if !self.estimates.contains(&own) {
                self.estimates.push(own);
            }
        }
        let colour = match line.style {
            Style::Bold => BLACK,
            _ => PALETTE[i % PALETTE.len()],
        };
        let drawable = |&[x, y]: &[f64; 2]| {
            x.is_finite() && y.is_finite() && (!chart.x.log || x > 0.0) && (!chart.y.log || y > 0.0)
        };
        let points: Vec<(f64, f64)> = line
            .points
            .iter()
            .filter(|p| drawable(p))
            .map(|&[x, y]| (x, y))
            .collect();
        let legend = first.then_some(line.name.as_str());
        if line.style == Style::Bar {
            return self.bars(c, &points, colour, legend);
        }
        draw_stroke(c, line, &points, colour, round, legend)?;
        if let (Some(label), Some(&end)) = (&line.label, points.last()) {
            self.labels.push((label.clone(), end, colour));
        }
        Ok(())
    }

    /// The palette slot of `line` and whether it is the first of its name
    /// (which alone gets a legend entry): a line of a group takes the
    /// colour of the group's line.
    fn slot(&mut self, line: &'a Line) -> (usize, bool) {
        let (i, first) = match self.names.iter().position(|n| *n == line.name) {
            Some(i) => (i, false),
            None => {
                self.names.push(&line.name);
                (self.names.len() - 1, true)
            }
        };
        let i = match &line.group {
            Some(group) => self.names.iter().position(|n| n == group).unwrap_or(i),
            None => i,
        };
        (i, first)
    }

    /// Bars at the points, each stacked on the bars drawn before at the
    /// same x (a schedule's parts adding up to its whole).
    fn bars<DB, CT>(
        &mut self,
        c: &mut ChartContext<'_, DB, CT>,
        points: &[(f64, f64)],
        colour: RGBColor,
        legend: Option<&str>,
    ) -> Result<(), Error>
    where
        DB: DrawingBackend,
        CT: CoordTranslate<From = (f64, f64)>,
    {
        let mut bars = Vec::new();
        for &(x, top) in points {
            let base = match self.stack.iter_mut().find(|(sx, _)| *sx == x) {
                Some(entry) => std::mem::replace(&mut entry.1, top),
                None => {
                    self.stack.push((x, top));
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
        if let Some(name) = legend {
            series.label(name).legend(move |(x, y)| {
                Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled())
            });
        }
        Ok(())
    }
}

/// A line through the points, stroked by its style: estimates dashed,
/// and solid lines past the palette's first round dashed by their round
/// so that no two look alike.
fn draw_stroke<DB, CT>(
    c: &mut ChartContext<'_, DB, CT>,
    line: &Line,
    points: &[(f64, f64)],
    colour: RGBColor,
    round: Option<(u32, u32)>,
    legend: Option<&str>,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let width = match line.style {
        Style::Solid => 2,
        Style::Bold => 3,
        Style::Dashed | Style::Bar | Style::Points => 1,
    };
    let style = colour.stroke_width(width);
    let dashes = match (line.style, round) {
        (Style::Dashed, _) => Some((4, 3)),
        (Style::Solid, Some(dashes)) => Some(dashes),
        _ => None,
    };
    let series = match dashes {
        Some((dash, gap)) => c
            .draw_series(DashedLineSeries::new(points.to_vec(), dash, gap, style))
            .map_err(drawing)?,
        None => c
            .draw_series(LineSeries::new(points.to_vec(), style))
            .map_err(drawing)?,
    };
    if let Some(name) = legend {
        series
            .label(name)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], style));
    }
    if line.markers {
        c.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(drawing)?;
    }
    Ok(())
}

/// End labels apart: each moved down (or up) from its line's end (in
/// pixels) until it overlaps no label placed before it, so that lines
/// ending close together stay readable.
fn place_end_labels<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    labels: Vec<(String, (i32, i32), RGBColor)>,
) -> Result<(), Error> {
    let base = area.get_base_pixel();
    let mut placed: Vec<(i32, i32, i32)> = Vec::new();
    for (text, (x, y), colour) in labels {
        let width = 7 * text.chars().count() as i32;
        let free = |y: i32, placed: &[(i32, i32, i32)]| {
            placed.iter().all(|&(px, py, pw)| {
                (y - py).abs() >= LABEL_HEIGHT || x + width < px || px + pw < x
            })
        };
        let y = (0..12)
            .flat_map(|k| [y + k * LABEL_HEIGHT / 2, y - k * LABEL_HEIGHT / 2])
            .find(|&y| free(y, &placed))
            .unwrap_or(y);
        placed.push((x, y, width));
        let font = ("sans-serif", 11).into_font().color(&colour);
        area.draw(&Text::new(text, (x + 2 - base.0, y - 6 - base.1), font))
            .map_err(drawing)?;
    }
    Ok(())
}

/// The key of a chart without a legend: a short grey dash and the names
/// of the dashed estimates, at the plotting area's top left corner
/// (`corner`, in pixels), so that the dashed lines are not taken for
/// results.
fn draw_dashed_key<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    estimates: &[String],
    corner: (i32, i32),
) -> Result<(), Error> {
    let base = area.get_base_pixel();
    let grey = RGBColor(90, 90, 90);
    let text = format!("dashed: {}", estimates.join(", "));
    let (x, y) = (corner.0 + 10 - base.0, corner.1 + 8 - base.1);

    area.draw(&Rectangle::new(
        [
            (x - 4, y - 3),
            (x + 34 + 7 * text.chars().count() as i32, y + 15),
        ],
        WHITE.mix(0.85).filled(),
    ))
    .map_err(drawing)?;
    for dash in 0..4 {
        let from = x + 7 * dash;
        area.draw(&PathElement::new(
            vec![(from, y + 6), (from + 4, y + 6)],
            grey.stroke_width(1),
        ))
        .map_err(drawing)?;
    }
    area.draw(&Text::new(
        text,
        (x + 30, y),
        ("sans-serif", 12).into_font().color(&grey),
    ))
    .map_err(drawing)?;
    Ok(())
}

/// The height of an end label, in pixels.
const LABEL_HEIGHT: i32 = 12;

/// A tick label, written as results are (four significant digits, thin
/// spaces, engineering exponents).
fn short(v: f64) -> String {
    crate::core::number::readable(&crate::core::number::number(v))
}
