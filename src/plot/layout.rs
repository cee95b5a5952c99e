//! Where every part of a line chart goes, decided from its data and the
//! canvas size before anything is drawn: the title's lines, the margins,
//! the ticks, the plotting area, the legend's box and the end labels'
//! boxes. The drawing code only paints what this decides, so the decisions
//! are tested natively.

use plotters::coord::ranged1d::{BoldPoints, Ranged};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::{IntoLogRange, LogCoord};

use super::looks::{looks, Look};
use super::place::{
    band_height, in_band, in_corner, legend_entries, place_labels, EndLabel, Legend, Wanted,
};
pub use super::text::Fonts;
use super::text::{shortened, text_height, text_width, wrap, Rect};
use super::ticks::tick_labels;
use crate::core::presentation::chart::{Axis, Frame, LineChart, Style};

/// The ticks of one axis: values and their labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Ticks {
    /// How many ticks plotters is asked for.
    pub hint: usize,
    /// The tick values plotters draws for that hint.
    pub values: Vec<f64>,
    /// Their labels (empty between whole numbers of a count axis).
    pub labels: Vec<String>,
}

impl Ticks {
    /// The label at tick value `v` (empty when `v` is no tick): the
    /// nearest tick's, if it is `v` up to rounding (relative to `v` on a
    /// log axis's many magnitudes, to the axis's largest value for a zero).
    pub fn label_of(&self, v: f64) -> String {
        let scale = self.values.iter().fold(0.0_f64, |m, t| m.max(t.abs()));
        let nearest = self
            .values
            .iter()
            .enumerate()
            .min_by(|a, b| (a.1 - v).abs().total_cmp(&(b.1 - v).abs()));
        match nearest {
            Some((i, t))
                if (t - v).abs() <= 1e-9 * scale.min(v.abs().max(t.abs()).max(1e-300) * 1e3) =>
            {
                self.labels[i].clone()
            }
            _ => String::new(),
        }
    }

    /// The widest label, in pixels at `size`.
    fn widest(&self, size: u32) -> i32 {
        self.labels
            .iter()
            .map(|l| text_width(l, size))
            .max()
            .unwrap_or(0)
    }
}

/// Everything placed: the drawing paints exactly this.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    /// Canvas size in pixels.
    pub size: (u32, u32),
    /// Font sizes and margin.
    pub fonts: Fonts,
    /// The title, in lines, centred at the top.
    pub title: Vec<String>,
    /// The axes' descriptions, shortened to their axis's length.
    pub descs: (String, String),
    /// Margins around the chart: left, right, top, bottom.
    pub margins: (i32, i32, i32, i32),
    /// Height of the x label area and width of the y label area.
    pub label_areas: (i32, i32),
    /// The plotting area and the data ranges it shows.
    pub frame: Frame,
    /// The ticks across and up.
    pub ticks: (Ticks, Ticks),
    /// Each line's look, in the chart's order.
    pub looks: Vec<Look>,
    /// The legend, if the chart has one (or dashed lines to explain).
    pub legend: Option<Legend>,
    /// Labels, each in its box beside a point of its line (in placing
    /// order: the bold line's first).
    pub labels: Vec<EndLabel>,
}

impl Layout {
    /// The plotting area as a box.
    pub fn plot(&self) -> Rect {
        let f = &self.frame;
        Rect {
            x0: f.px[0],
            y0: f.py[0],
            x1: f.px[1],
            y1: f.py[1],
        }
    }
}

/// The layout of `chart` on a `width × height` canvas, or `None` when it
/// has no drawable point.
pub fn layout(chart: &LineChart, width: u32, height: u32) -> Option<Layout> {
    let (xs, ys) = ranges(chart)?;
    let fonts = Fonts::for_width(width);
    let m = fonts.margin;
    let title = wrap(&chart.title, fonts.title, width as i32 - 2 * m, 3);
    let top = m + title.len() as i32 * text_height(fonts.title) + 6;
    let looks = looks(chart);
    let mut sheet = Sheet {
        chart,
        fonts,
        size: (width as i32, height as i32),
        top,
        band: 0,
        ranges: (xs, ys),
    };
    let mut frame = sheet.frame();
    let labels = end_label_texts(chart);
    if let Some(x1) = room_for_labels(&frame, &labels, fonts.label) {
        sheet.ranges.0[1] = x1;
        frame = sheet.frame();
    }
    let entries = legend_entries(chart, &looks);
    let mut legend = in_corner(
        entries.clone(),
        &frame.0,
        &pixel_lines(chart, &frame.0),
        fonts,
    );
    if legend.is_none() && !entries.is_empty() {
        sheet.band = band_height(&entries, width as i32, fonts);
        frame = sheet.frame();
        legend = Some(in_band(entries, sheet.size, fonts));
    }
    let (frame, ticks, margins, areas) = frame;
    let plot = Rect::at(
        frame.px[0],
        frame.py[0],
        frame.px[1] - frame.px[0],
        frame.py[1] - frame.py[0],
    );
    let taken: Vec<Rect> = legend.iter().map(|l| l.frame).collect();
    let placed = placed_labels(chart, labels, &frame, &plot, &taken, fonts.label);
    Some(Layout {
        size: (width, height),
        fonts,
        title,
        descs: sheet.descs(&plot),
        margins,
        label_areas: areas,
        frame,
        ticks,
        looks,
        legend,
        labels: placed,
    })
}

/// The labels placed beside their lines in `plot`, off the boxes `taken`.
fn placed_labels(
    chart: &LineChart,
    labels: Vec<(String, [f64; 2], usize)>,
    frame: &Frame,
    plot: &Rect,
    taken: &[Rect],
    size: u32,
) -> Vec<EndLabel> {
    let lines = pixel_lines(chart, frame);
    let mut wanted: Vec<Wanted> = labels
        .into_iter()
        .map(|(text, _, line)| Wanted {
            text,
            line,
            points: lines[line].clone(),
        })
        .collect();
    // The bold line the others are read against (a map's MAX) is placed
    // first, so that it keeps its end.
    wanted.sort_by_key(|w| chart.lines[w.line].style != Style::Bold);
    place_labels(wanted, plot, taken, &lines, size)
}

/// The frame, ticks, margins and label areas computed together.
type Framed = (Frame, (Ticks, Ticks), (i32, i32, i32, i32), (i32, i32));

/// What the frame is computed from.
struct Sheet<'a> {
    chart: &'a LineChart,
    fonts: Fonts,
    size: (i32, i32),
    /// The top margin (under the title).
    top: i32,
    /// The height of a legend band under the chart (0: none).
    band: i32,
    ranges: ([f64; 2], [f64; 2]),
}

impl Sheet<'_> {
    /// The plotting area: the label areas sized to the ticks' labels, and
    /// as many ticks across as fit.
    fn frame(&self) -> Framed {
        let f = self.fonts;
        let (w, h) = self.size;
        let x_area = text_height(f.tick) + 8 + text_height(f.axis) + 4;
        let bottom = f.margin + self.band;
        let plot_h = (h - self.top - bottom - x_area).max(20);
        let line = text_height(f.tick);
        let y_ticks = fitting(&self.chart.y, self.ranges.1, plot_h, &|_| line);
        let y_area = y_ticks.widest(f.tick) + 12 + text_height(f.axis) + 4;
        let x_ticks = fitting(&self.chart.x, self.ranges.0, w - f.margin - y_area, &|l| {
            text_width(l, f.tick)
        });
        let right = f.margin.max(x_ticks.widest(f.tick) / 2 + 2);
        let frame = Frame {
            px: [f.margin + y_area, w - right],
            py: [self.top, h - bottom - x_area],
            x: self.ranges.0,
            y: self.ranges.1,
            x_log: self.chart.x.log,
            y_log: self.chart.y.log,
        };
        let margins = (f.margin, right, self.top, bottom);
        (frame, (x_ticks, y_ticks), margins, (x_area, y_area))
    }

    /// The axes' descriptions, shortened to fit along their axes.
    fn descs(&self, plot: &Rect) -> (String, String) {
        let size = self.fonts.axis;
        (
            shortened(
                &self.chart.x.label,
                size,
                plot.width() + plot.x0 - self.fonts.margin,
            ),
            shortened(&self.chart.y.label, size, plot.height()),
        )
    }
}

/// The most ticks (at most 10) on `axis` over `range` whose labels, each
/// `extent(label)` pixels along an axis `length` pixels long, stand apart.
fn fitting(axis: &Axis, range: [f64; 2], length: i32, extent: &dyn Fn(&str) -> i32) -> Ticks {
    let along = |v: f64| {
        let [lo, hi] = range;
        let t = if axis.log {
            (v / lo).ln() / (hi / lo).ln()
        } else {
            (v - lo) / (hi - lo)
        };
        t * f64::from(length)
    };
    let mut hint = 10;
    loop {
        let t = ticks(axis, range, hint);
        let shown: Vec<(f64, i32)> = t
            .values
            .iter()
            .zip(&t.labels)
            .filter(|(_, l)| !l.is_empty())
            .map(|(v, l)| (along(*v), extent(l)))
            .collect();
        let apart = shown
            .windows(2)
            .all(|p| (p[1].0 - p[0].0).abs() >= f64::from(p[0].1 + p[1].1) / 2.0 + 8.0);
        if apart || hint <= 2 {
            return t;
        }
        hint -= 1;
    }
}

/// The ticks plotters draws on `axis` over `range` for `hint`, with their
/// labels (whole-number axes: labels at whole numbers only).
pub fn ticks(axis: &Axis, [lo, hi]: [f64; 2], hint: usize) -> Ticks {
    let hint = if axis.whole && !axis.log {
        hint.min(((hi.floor() - lo.ceil()).max(0.0) as usize + 1).clamp(2, 10))
    } else {
        hint
    };
    let values = if axis.log {
        let coord: LogCoord<f64> = (lo..hi).log_scale().into();
        coord.key_points(BoldPoints(hint))
    } else {
        RangedCoordf64::from(lo..hi).key_points(BoldPoints(hint))
    };
    let mut labels = tick_labels(&values, axis.log);
    if axis.whole {
        for (label, v) in labels.iter_mut().zip(&values) {
            if (v - v.round()).abs() > 1e-9 {
                label.clear();
            } else if !axis.names.is_empty() {
                let k = v.round();
                let name = (k >= 0.0).then(|| axis.names.get(k as usize)).flatten();
                *label = name.cloned().unwrap_or_default();
            }
        }
    }
    Ticks {
        hint,
        values,
        labels,
    }
}

/// The most decades a log axis spans, and the largest magnitude a linear
/// one reaches: beyond, plotters' tick search does not end (the points
/// outside are clipped; such values come only from extreme inputs).
const MOST_DECADES: f64 = 250.0;
const LARGEST: f64 = 1e306;

/// `range` cut to what an axis can show.
fn drawable_span([lo, hi]: [f64; 2], log: bool) -> [f64; 2] {
    if log {
        [lo.max(hi / 10f64.powf(MOST_DECADES)), hi]
    } else {
        [lo.clamp(-LARGEST, LARGEST), hi.clamp(-LARGEST, LARGEST)]
    }
}

/// Widens a degenerate range so the axis has some extent, and pads every
/// range a little so no line is drawn on an axis.
fn widen([lo, hi]: [f64; 2], log: bool) -> [f64; 2] {
    let padded = padded([lo, hi], log);
    if padded.iter().all(|v| v.is_finite()) && (!log || padded[0] > 0.0) {
        padded
    } else {
        // Values near the ends of the floating-point range: no room to pad.
        [lo, hi]
    }
}

/// The range padded (possibly beyond the floating-point range).
fn padded([lo, hi]: [f64; 2], log: bool) -> [f64; 2] {
    match (hi > lo, log) {
        (true, true) => {
            let pad = (hi / lo).powf(0.03);
            [lo / pad, hi * pad]
        }
        (true, false) => {
            let pad = (hi - lo) * 0.04;
            [lo - pad, hi + pad]
        }
        (false, true) => [lo / 2.0, hi * 2.0],
        (false, false) => {
            let pad = lo.abs().max(1.0) * 0.5;
            [lo - pad, hi + pad]
        }
    }
}

/// The data ranges shown: the points' ranges padded; bars stand on zero
/// and are a whole step wide.
pub fn ranges(chart: &LineChart) -> Option<([f64; 2], [f64; 2])> {
    let (xs, ys) = chart.bounds()?;
    let (xs, ys) = (
        drawable_span(xs, chart.x.log),
        drawable_span(ys, chart.y.log),
    );
    let ([x0, x1], [y0, y1]) = (widen(xs, chart.x.log), widen(ys, chart.y.log));
    let bars = chart.lines.iter().any(|l| l.style == Style::Bar);
    if bars && !chart.x.log && !chart.y.log {
        return Some(([xs[0] - 0.6, xs[1] + 0.6], [0.0, y1.max(0.0)]));
    }
    Some(([x0, x1], [y0, y1]))
}

/// The end labels' texts, the last drawable point of their line, and the
/// line's index.
fn end_label_texts(chart: &LineChart) -> Vec<(String, [f64; 2], usize)> {
    chart
        .lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let end = line.points.iter().rev().find(|p| drawable(chart, p))?;
            Some((line.label.clone()?, *end, i))
        })
        .collect()
}

/// Whether a point can be drawn on the chart's axes.
pub fn drawable(chart: &LineChart, &[x, y]: &[f64; 2]) -> bool {
    x.is_finite() && y.is_finite() && (!chart.x.log || x > 0.0) && (!chart.y.log || y > 0.0)
}

/// The right end of the x range that leaves room for the widest end label
/// right of the rightmost line end, if that room is at most a third of
/// the plot (else the labels go inside, over the lines).
fn room_for_labels(
    framed: &Framed,
    labels: &[(String, [f64; 2], usize)],
    size: u32,
) -> Option<f64> {
    let frame = &framed.0;
    let plot_w = f64::from(frame.px[1] - frame.px[0]);
    let need = labels
        .iter()
        .map(|(text, [x, y], _)| {
            let end = frame.pixel_at(*x, *y).0;
            text_width(text, size) + 6 - (frame.px[1] - end)
        })
        .max()
        .filter(|&n| n > 0)?;
    let share = f64::from(need) / plot_w;
    if share > 1.0 / 3.0 {
        return None;
    }
    let [lo, hi] = frame.x;
    let grow = 1.0 / (1.0 - share);
    Some(if frame.x_log {
        lo * (hi / lo).powf(grow)
    } else {
        lo + (hi - lo) * grow
    })
}

/// Every line's drawable points in pixels, in the chart's order.
pub fn pixel_lines(chart: &LineChart, frame: &Frame) -> Vec<Vec<(i32, i32)>> {
    chart
        .lines
        .iter()
        .map(|line| {
            line.points
                .iter()
                .filter(|p| drawable(chart, p))
                .map(|&[x, y]| frame.pixel_at(x, y))
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On a log axis over twelve decades every tick has its own label.
    #[test]
    fn each_tick_of_a_log_axis_has_its_own_label() {
        let t = ticks(&Axis::log("t (s)"), [1e-3, 1e9], 10);
        for (v, label) in t.values.iter().zip(&t.labels) {
            assert_eq!(&t.label_of(*v), label);
        }
        let mut distinct = t.labels.clone();
        distinct.dedup();
        assert_eq!(distinct.len(), t.values.len(), "{:?}", t.labels);
        assert_eq!(t.label_of(0.0011), "");
        let lin = ticks(&Axis::linear("x (s)"), [-1.0, 1.0], 5);
        assert_eq!(lin.label_of(0.0), "0");
    }

    /// Values at the ends of the floating-point range are laid out and
    /// drawn, not a panic or an endless loop.
    #[test]
    fn extreme_values_are_laid_out() {
        use crate::core::presentation::chart::Line;
        let cases = [
            (Axis::log("x (s)"), vec![[1e-300, 1e-300], [1e300, 1e300]]),
            (
                Axis::linear("x (s)"),
                vec![[-1e308, -1e308], [1e308, 1e308]],
            ),
            (Axis::linear("x (s)"), vec![[5.0, 5.0]]),
            (
                Axis::log("x (s)"),
                vec![[f64::MIN_POSITIVE, 1.0], [f64::MAX, 2.0]],
            ),
        ];
        for (axis, points) in cases {
            let chart = LineChart {
                name: "t".into(),
                title: "t".into(),
                x: axis.clone(),
                y: axis,
                lines: vec![Line::new("a", points, true)],
                legend: true,
            };
            for (w, h) in [(900, 560), (260, 120)] {
                let laid = layout(&chart, w, h).expect("a drawable point");
                assert!(laid
                    .frame
                    .x
                    .iter()
                    .chain(&laid.frame.y)
                    .all(|v| v.is_finite()));
                crate::plot::lines_svg(&chart, w, h).unwrap();
            }
        }
    }
}
