//! The data of a line chart (series against a common pair of axes),
//! computed from a model's report outside the drawing code.

use serde::{Deserialize, Serialize};

/// An axis: its label and whether it is logarithmic.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Axis {
    /// The text along the axis (the quantity and its unit).
    pub label: String,
    /// Logarithmic rather than linear.
    pub log: bool,
    /// The values are whole numbers (machine counts): ticks only at whole
    /// numbers.
    #[serde(default, skip_serializing_if = "is_false")]
    pub whole: bool,
    /// The values are pure numbers (a ratio such as an efficiency, or a
    /// count on a log axis), which have no unit; every other axis names its
    /// unit in its label.
    #[serde(default, skip_serializing_if = "is_false")]
    pub pure: bool,
    /// Names written at the whole numbers `0, 1, …` instead of the numbers
    /// (machines named as in the tables: `originator`, `P1`, `P2·1`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// How a line is stroked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Style {
    /// A plain line: a computed result.
    #[default]
    Solid,
    /// Thicker and black: the line the others are read against.
    Bold,
    /// Thin and dashed: an estimate or a bound, not a computed result.
    Dashed,
    /// A marker at each point and no line between them: measured samples.
    Points,
    /// A bar at each point, stacked on the bar of the previous bar line at
    /// the same `x`: the points are the stack's running totals, so the last
    /// line's bars reach the whole (an energy breakdown).
    Bar,
}

/// One named series of points.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Line {
    /// The name in the legend (and in exported data).
    pub name: String,
    /// The points `[x, y]`, in data coordinates, in drawing order.
    pub points: Vec<[f64; 2]>,
    /// Draw a marker at every point (for a few discrete points).
    pub markers: bool,
    /// How the line is stroked.
    #[serde(default)]
    pub style: Style,
    /// A label written at the line's last point (for charts with too many
    /// lines for a legend).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// The line whose colour it takes (an estimate drawn beside its
    /// level's line); its own name otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    /// Its own colour, `#rrggbb`, for a line that stands for something
    /// drawn in that colour elsewhere (a machine state, as its model's
    /// Gantt chart draws it); the palette's otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
}

/// A chart with a title, two axes and its lines.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineChart {
    /// A short name, also used for export file names.
    pub name: String,
    /// The title above the chart.
    pub title: String,
    /// The horizontal axis.
    pub x: Axis,
    /// The vertical axis.
    pub y: Axis,
    /// The series, drawn in this order.
    pub lines: Vec<Line>,
    /// Draw a legend of the line names.
    #[serde(default = "yes")]
    pub legend: bool,
}

fn yes() -> bool {
    true
}

impl Axis {
    /// A linear axis.
    pub fn linear(label: &str) -> Axis {
        Axis {
            label: label.into(),
            log: false,
            whole: false,
            pure: false,
            names: Vec::new(),
        }
    }

    /// A logarithmic axis.
    pub fn log(label: &str) -> Axis {
        Axis {
            label: label.into(),
            log: true,
            whole: false,
            pure: false,
            names: Vec::new(),
        }
    }

    /// The same axis for pure numbers (a ratio, or a count), which have no
    /// unit.
    pub fn pure(self) -> Axis {
        Axis { pure: true, ..self }
    }

    /// Whether the label names a unit, or the values need none.
    pub fn has_unit(&self) -> bool {
        let named = |open: char, close: char| {
            self.label
                .rfind(open)
                .is_some_and(|i| self.label[i..].contains(close))
        };
        self.whole || self.pure || named('(', ')') || named('[', ']')
    }

    /// The same axis for things named at `0, 1, …` (machines): ticks only
    /// at whole numbers, each written as its name.
    pub fn named(self, names: Vec<String>) -> Axis {
        Axis {
            names,
            ..self.whole().pure()
        }
    }

    /// The same axis for whole numbers (ticks only at whole numbers).
    pub fn whole(self) -> Axis {
        Axis {
            whole: true,
            ..self
        }
    }

    /// Logarithmic when the values are positive and span more than a factor
    /// of 30 (less than that, a log axis has hardly any ticks), else linear.
    pub fn fitting(label: &str, values: impl Iterator<Item = f64>) -> Axis {
        let (lo, hi) = values
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            });
        Axis {
            label: label.into(),
            log: lo > 0.0 && hi / lo > 30.0,
            whole: false,
            pure: false,
            names: Vec::new(),
        }
    }
}

impl Line {
    /// A series; points with a non-finite coordinate (or, on a log axis, a
    /// non-positive one) are dropped by the drawing code.
    pub fn new(name: &str, points: Vec<[f64; 2]>, markers: bool) -> Line {
        Line {
            name: name.into(),
            points,
            markers,
            style: Style::Solid,
            label: None,
            group: None,
            colour: None,
        }
    }

    /// The same line in the colour of line `name`.
    pub fn in_group(self, name: &str) -> Line {
        Line {
            group: Some(name.into()),
            ..self
        }
    }

    /// The same line in the colour `(r, g, b)`.
    pub fn coloured(self, (r, g, b): (u8, u8, u8)) -> Line {
        Line {
            colour: Some(format!("#{r:02x}{g:02x}{b:02x}")),
            ..self
        }
    }

    /// Its own colour as `(r, g, b)`, if it has a readable one.
    pub fn own_colour(&self) -> Option<(u8, u8, u8)> {
        let hex = self.colour.as_deref()?.strip_prefix('#')?;
        let byte = |k: usize| u8::from_str_radix(hex.get(k..k + 2)?, 16).ok();
        match hex.len() {
            6 => Some((byte(0)?, byte(2)?, byte(4)?)),
            _ => None,
        }
    }

    /// The same line drawn in `style`.
    pub fn styled(self, style: Style) -> Line {
        Line { style, ..self }
    }
}

impl LineChart {
    /// The range of all drawable points, per axis: `([x0, x1], [y0, y1])`,
    /// or `None` when there is nothing to draw.
    pub fn bounds(&self) -> Option<([f64; 2], [f64; 2])> {
        let ok = |v: f64, log: bool| v.is_finite() && (!log || v > 0.0);
        let mut b: Option<([f64; 2], [f64; 2])> = None;
        for [x, y] in self.lines.iter().flat_map(|l| l.points.iter().copied()) {
            if !ok(x, self.x.log) || !ok(y, self.y.log) {
                continue;
            }
            let ([x0, x1], [y0, y1]) = b.unwrap_or(([x, x], [y, y]));
            b = Some(([x0.min(x), x1.max(x)], [y0.min(y), y1.max(y)]));
        }
        b
    }
}

/// Where a chart's data landed on its canvas: the plotting area in pixels
/// and the data range it shows. The page turns a pointer position into data
/// coordinates with [`Frame::value_at`] (no arithmetic in JavaScript).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// Left and right pixel of the plotting area.
    pub px: [i32; 2],
    /// Top and bottom pixel.
    pub py: [i32; 2],
    /// The data range shown across, left to right.
    pub x: [f64; 2],
    /// The data range shown up, bottom to top.
    pub y: [f64; 2],
    /// The horizontal axis is logarithmic.
    pub x_log: bool,
    /// The vertical axis is logarithmic.
    pub y_log: bool,
}

impl Frame {
    /// The data coordinates at pixel `(px, py)`, or `None` outside the
    /// plotting area.
    pub fn value_at(&self, px: f64, py: f64) -> Option<[f64; 2]> {
        let along = |p: f64, [a, b]: [i32; 2]| (p - a as f64) / (b - a).max(1) as f64;
        let (tx, ty) = (along(px, self.px), 1.0 - along(py, self.py));
        if !(0.0..=1.0).contains(&tx) || !(0.0..=1.0).contains(&ty) {
            return None;
        }
        let at = |t: f64, [lo, hi]: [f64; 2], log: bool| {
            if log {
                lo * (hi / lo).powf(t)
            } else {
                lo + t * (hi - lo)
            }
        };
        Some([at(tx, self.x, self.x_log), at(ty, self.y, self.y_log)])
    }

    /// The pixel of data point `(x, y)` (outside the plotting area for a
    /// point outside the ranges shown): the inverse of [`Frame::value_at`].
    pub fn pixel_at(&self, x: f64, y: f64) -> (i32, i32) {
        let along = |v: f64, [lo, hi]: [f64; 2], log: bool| {
            if log {
                (v / lo).ln() / (hi / lo).ln()
            } else {
                (v - lo) / (hi - lo)
            }
        };
        let place = |t: f64, [a, b]: [i32; 2]| {
            let t = if t.is_finite() {
                t.clamp(-10.0, 10.0)
            } else {
                0.0
            };
            (f64::from(a) + t * f64::from(b - a)).round() as i32
        };
        let tx = along(x, self.x, self.x_log);
        let ty = 1.0 - along(y, self.y, self.y_log);
        (place(tx, self.px), place(ty, self.py))
    }
}
