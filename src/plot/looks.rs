//! How each line of a chart looks, decided from the chart's data: every
//! name (a map's level) its own colour and marker, computed lines solid,
//! estimates and bounds dashed and thin (a style no computed line has).

use crate::core::presentation::chart::{LineChart, Style};

/// Colours of successive names (red, green, blue).
pub const PALETTE: [(u8, u8, u8); 10] = [
    (31, 119, 180),
    (214, 39, 40),
    (44, 160, 44),
    (148, 103, 189),
    (255, 127, 14),
    (140, 86, 75),
    (227, 119, 194),
    (23, 190, 207),
    (188, 189, 34),
    (127, 127, 127),
];

/// The colour of the bold line the others are read against.
pub const BLACK: (u8, u8, u8) = (0, 0, 0);

/// A marker's shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Marker {
    /// A filled circle.
    Circle,
    /// A filled square.
    Square,
    /// A filled triangle, point up.
    Triangle,
    /// A cross.
    Cross,
}

/// Markers of the palette's later rounds: the first round has none (or
/// circles, for lines of a few discrete points).
const ROUNDS: [Marker; 3] = [Marker::Square, Marker::Triangle, Marker::Cross];

/// How one line is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Look {
    /// The stroke's (and markers') colour.
    pub colour: (u8, u8, u8),
    /// Stroke width in pixels.
    pub width: u32,
    /// Dash and gap lengths in pixels; `None`: solid.
    pub dash: Option<(u32, u32)>,
    /// The marker drawn along the line, if any.
    pub marker: Option<Marker>,
    /// Markers at every point (a few discrete points), else spaced along
    /// the line.
    pub every_point: bool,
    /// The line is the first of its name, and so has the legend entry.
    pub first: bool,
}

/// The look of every line of `chart`, in order. Lines of one name share a
/// look (a line in pieces); a line of a group takes its group's colour and
/// marker; names beyond the palette's ten colours get a marker per round,
/// so no two names look alike (up to 40 names).
pub fn looks(chart: &LineChart) -> Vec<Look> {
    let mut names: Vec<&str> = Vec::new();
    let mut out = Vec::with_capacity(chart.lines.len());
    for line in &chart.lines {
        let first = !names.contains(&line.name.as_str());
        if first {
            names.push(&line.name);
        }
        let own = names.iter().position(|n| *n == line.name).unwrap_or(0);
        let slot = line
            .group
            .as_deref()
            .and_then(|g| names.iter().position(|n| *n == g))
            .unwrap_or(own);
        let round = slot / PALETTE.len();
        let marker = match round {
            0 => line.markers.then_some(Marker::Circle),
            r => Some(ROUNDS[(r - 1) % ROUNDS.len()]),
        };
        let colour = line.own_colour().unwrap_or(PALETTE[slot % PALETTE.len()]);
        let look = match line.style {
            Style::Bold => Look::solid(BLACK, 3, None),
            Style::Dashed => Look {
                dash: Some((5, 3)),
                ..Look::solid(colour, 1, None)
            },
            Style::Solid => Look::solid(colour, 2, marker),
            Style::Bar => Look::solid(colour, 1, None),
            // Measured samples: markers only, no stroke.
            Style::Points => Look {
                width: 0,
                ..Look::solid(colour, 0, Some(marker.unwrap_or(Marker::Circle)))
            },
        };
        out.push(Look {
            every_point: line.markers || line.style == Style::Points,
            first,
            ..look
        });
    }
    out
}

impl Look {
    /// A solid stroke.
    fn solid(colour: (u8, u8, u8), width: u32, marker: Option<Marker>) -> Look {
        Look {
            colour,
            width,
            dash: None,
            marker,
            every_point: false,
            first: true,
        }
    }
}

/// Which of the pixel points `points` of a line carry a marker: every one
/// for a line of discrete points, else points at least `spacing` pixels
/// from the previous marker (a line's first point always).
pub fn marker_points(points: &[(i32, i32)], every: bool, spacing: i32) -> Vec<(i32, i32)> {
    if every {
        return points.to_vec();
    }
    let mut out: Vec<(i32, i32)> = Vec::new();
    for &p in points {
        let far = out.last().is_none_or(|&(x, y)| {
            let (dx, dy) = (i64::from(p.0 - x), i64::from(p.1 - y));
            dx * dx + dy * dy >= i64::from(spacing) * i64::from(spacing)
        });
        if far {
            out.push(p);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::presentation::chart::{Axis, Line};

    /// Twelve levels, each drawn below and above, with an estimate each:
    /// twelve distinct looks, the same for a level's two lines, and the
    /// estimates dashed in their level's colour.
    #[test]
    fn twelve_levels_look_distinct_and_estimates_dashed() {
        let mut lines = Vec::new();
        for level in 0..12 {
            let name = format!("{level}");
            let line = |y: f64| Line::new(&name, vec![[0.0, y], [1.0, y]], false);
            lines.push(line(1.0));
            lines.push(line(2.0));
            lines.push(
                Line::new(&format!("{name} (15)"), vec![[0.0, 3.0], [1.0, 3.0]], false)
                    .in_group(&name)
                    .styled(Style::Dashed),
            );
        }
        let chart = LineChart {
            name: "map".into(),
            title: "map".into(),
            x: Axis::linear("m").whole(),
            y: Axis::log("V (MB)"),
            lines,
            legend: false,
        };
        let looks = looks(&chart);
        let levels: Vec<Look> = looks.chunks(3).map(|l| l[0]).collect();
        for (i, a) in levels.iter().enumerate() {
            assert!(levels[i + 1..]
                .iter()
                .all(|b| (a.colour, a.marker) != (b.colour, b.marker)));
        }
        for three in looks.chunks(3) {
            assert_eq!(
                (three[0].colour, three[0].marker),
                (three[1].colour, three[1].marker)
            );
            assert_eq!(three[2].colour, three[0].colour);
            assert!(three[0].dash.is_none() && three[2].dash.is_some());
        }
    }

    #[test]
    fn markers_are_spaced_along_a_line() {
        let points: Vec<(i32, i32)> = (0..100).map(|x| (x * 4, 10)).collect();
        let marked = marker_points(&points, false, 36);
        assert_eq!(marked.first(), Some(&(0, 10)));
        assert!(marked.windows(2).all(|p| p[1].0 - p[0].0 >= 36));
        assert_eq!(marker_points(&points, true, 36).len(), 100);
    }
}
