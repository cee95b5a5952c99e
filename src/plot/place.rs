//! Placing a chart's legend and end labels in pixels, from the lines'
//! pixel points: the legend in the first corner of the plot where it hides
//! no point and no line (else in a band under the chart), each end label
//! near its line's end where it overlaps no other label and the legend,
//! always inside the plot.

use super::looks::Look;
use super::text::{text_height, text_width, Fonts, Rect};
use crate::core::presentation::chart::{Frame, LineChart, Style};

/// A label written at a line's end, in its box.
#[derive(Debug, Clone, PartialEq)]
pub struct EndLabel {
    /// The text.
    pub text: String,
    /// Its box (the text starts at the top left).
    pub rect: Rect,
    /// The index of its line in the chart (for its colour).
    pub line: usize,
}

/// One legend entry: a swatch in the line's look and the text.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The words.
    pub text: String,
    /// The swatch's look.
    pub look: Look,
    /// A bar swatch (a filled box) rather than a stroke.
    pub bar: bool,
    /// The entry's top left pixel.
    pub at: (i32, i32),
}

/// The legend: its box and entries.
#[derive(Debug, Clone, PartialEq)]
pub struct Legend {
    /// The box, drawn with a white background.
    pub frame: Rect,
    /// The entries, placed.
    pub entries: Vec<Entry>,
}

/// The space between the plot's edge and an inside legend.
const INSET: i32 = 4;
/// A swatch's width and the space after it.
const SWATCH: i32 = 22;

/// The legend's entries (not yet placed): the chart's names, or, for a
/// chart without a legend, what its dashed lines are.
pub fn legend_entries(chart: &LineChart, looks: &[Look]) -> Vec<Entry> {
    let entry = |text: &str, look: Look, bar: bool| Entry {
        text: text.to_string(),
        look,
        bar,
        at: (0, 0),
    };
    if chart.legend {
        return chart
            .lines
            .iter()
            .zip(looks)
            .filter(|(l, look)| look.first && !l.name.is_empty())
            .map(|(l, look)| entry(&l.name, *look, l.style == Style::Bar))
            .collect();
    }
    let grey = (90, 90, 90);
    let mut out = Vec::new();
    for (line, look) in chart.lines.iter().zip(looks) {
        let (Style::Dashed, Some(group)) = (line.style, &line.group) else {
            continue;
        };
        let own = line.name.strip_prefix(group.as_str()).unwrap_or(&line.name);
        let text = format!("estimate {}", own.trim());
        if !out.iter().any(|e: &Entry| e.text == text) {
            out.push(entry(
                &text,
                Look {
                    colour: grey,
                    ..*look
                },
                false,
            ));
        }
    }
    if let Some(solid) = looks.iter().find(|l| l.dash.is_none() && l.width == 2) {
        if !out.is_empty() {
            let look = Look {
                colour: grey,
                marker: None,
                ..*solid
            };
            out.insert(0, entry("computed", look, false));
        }
    }
    out
}

/// The height of a legend row at `fonts.legend`.
fn row(fonts: Fonts) -> i32 {
    text_height(fonts.legend) + 3
}

/// The legend in the first corner of `frame`'s plot (upper right, upper
/// left, lower right, lower left) where its box meets no line of `points`,
/// or `None` when every corner hides data.
pub fn in_corner(
    mut entries: Vec<Entry>,
    frame: &Frame,
    points: &[Vec<(i32, i32)>],
    fonts: Fonts,
) -> Option<Legend> {
    let text = entries
        .iter()
        .map(|e| text_width(&e.text, fonts.legend))
        .max()?;
    let (w, h) = (8 + SWATCH + text + 6, entries.len() as i32 * row(fonts) + 6);
    let [l, r] = frame.px;
    let [t, b] = frame.py;
    let corners = [
        (r - INSET - w, t + INSET),
        (l + INSET, t + INSET),
        (r - INSET - w, b - INSET - h),
        (l + INSET, b - INSET - h),
    ];
    let frame = corners
        .iter()
        .map(|&(x, y)| Rect::at(x, y, w, h))
        .find(|rect| rect.x0 >= l && rect.y0 >= t && !hides(rect, points))?;
    for (k, e) in entries.iter_mut().enumerate() {
        e.at = (frame.x0 + 6, frame.y0 + 4 + k as i32 * row(fonts));
    }
    Some(Legend { frame, entries })
}

/// Whether `rect` covers a point or a piece of a line.
pub fn hides(rect: &Rect, points: &[Vec<(i32, i32)>]) -> bool {
    let grown = Rect {
        x0: rect.x0 - 3,
        y0: rect.y0 - 3,
        x1: rect.x1 + 3,
        y1: rect.y1 + 3,
    };
    points.iter().any(|line| match line.as_slice() {
        [single] => grown.contains(*single),
        _ => line.windows(2).any(|s| grown.meets_segment(s[0], s[1])),
    })
}

/// The height of a band under the chart holding `entries` in rows across
/// a canvas `width` pixels wide.
pub fn band_height(entries: &[Entry], width: i32, fonts: Fonts) -> i32 {
    let rows = flow(entries, width - 2 * fonts.margin, fonts).1;
    rows * row(fonts) + 8
}

/// Each entry's offset in a band `width` pixels wide, and the number of
/// rows.
fn flow(entries: &[Entry], width: i32, fonts: Fonts) -> (Vec<(i32, i32)>, i32) {
    let (mut x, mut rows, mut at) = (0, 1, Vec::new());
    for e in entries {
        let w = SWATCH + text_width(&e.text, fonts.legend) + 14;
        if x > 0 && x + w > width {
            x = 0;
            rows += 1;
        }
        at.push((x, (rows - 1) * row(fonts)));
        x += w;
    }
    (at, rows)
}

/// The legend in a band under the chart (`size`: the canvas's).
pub fn in_band(mut entries: Vec<Entry>, size: (i32, i32), fonts: Fonts) -> Legend {
    let m = fonts.margin;
    let height = band_height(&entries, size.0, fonts);
    let frame = Rect::at(m, size.1 - m - height, size.0 - 2 * m, height);
    let (at, _) = flow(&entries, size.0 - 2 * m, fonts);
    for (e, (x, y)) in entries.iter_mut().zip(at) {
        e.at = (frame.x0 + 4 + x, frame.y0 + 4 + y);
    }
    Legend { frame, entries }
}

/// End labels' boxes: each near its line's end (`end`, in data
/// coordinates), right of it or, failing that, left; moved up or down until
/// it overlaps no label placed before it and nothing in `taken`; always
/// within `plot`. A label with no free place anywhere is left out (the
/// pointer read-out still names the line).
pub fn place_labels(
    labels: Vec<(String, (i32, i32), usize)>,
    plot: &Rect,
    taken: &[Rect],
    size: u32,
) -> Vec<EndLabel> {
    let h = text_height(size);
    let mut placed: Vec<EndLabel> = Vec::new();
    for (text, (ex, ey), line) in labels {
        let w = text_width(&text, size) + 2;
        let free = |r: &Rect, placed: &[EndLabel]| {
            r.inside(plot)
                && !taken.iter().any(|t| t.overlaps(r))
                && !placed.iter().any(|p| p.rect.overlaps(r))
        };
        let steps = plot.height() / (h / 2).max(1) + 1;
        let found = (0..4)
            .flat_map(|shift| {
                let x = ex + 4 - shift * (w + 8);
                (0..=steps)
                    .flat_map(move |k| [k, -k])
                    .map(move |k| Rect::at(x, ey - h / 2 + k * (h / 2), w, h).within(plot))
            })
            .find(|r| free(r, &placed));
        if let Some(rect) = found {
            placed.push(EndLabel { text, rect, line });
        }
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::presentation::chart::{Axis, Line};

    fn frame() -> Frame {
        Frame {
            px: [100, 500],
            py: [50, 350],
            x: [0.0, 10.0],
            y: [0.0, 10.0],
            x_log: false,
            y_log: false,
        }
    }

    /// Three labels at one line end: stacked apart, all inside the plot.
    #[test]
    fn labels_at_one_end_are_stacked_apart_inside_the_plot() {
        let plot = Rect::at(100, 50, 400, 300);
        let labels = (0..3).map(|i| (format!("33.{i}"), (498, 52), i)).collect();
        let placed = place_labels(labels, &plot, &[], 11);
        assert_eq!(placed.len(), 3);
        for (i, a) in placed.iter().enumerate() {
            assert!(a.rect.inside(&plot), "{a:?}");
            assert!(placed[i + 1..].iter().all(|b| !a.rect.overlaps(&b.rect)));
        }
    }

    /// A label is kept off a taken box (the legend), and left out when
    /// there is no room at all.
    #[test]
    fn labels_avoid_the_legend_and_are_left_out_without_room() {
        let plot = Rect::at(0, 0, 100, 40);
        let legend = Rect::at(50, 0, 50, 20);
        let placed = place_labels(vec![("MAX".into(), (90, 5), 0)], &plot, &[legend], 11);
        assert!(!placed[0].rect.overlaps(&legend));
        let tiny = Rect::at(0, 0, 10, 10);
        assert!(place_labels(vec![("MAX".into(), (5, 5), 0)], &tiny, &[], 11).is_empty());
    }

    /// A line across the upper right corner sends the legend to the upper
    /// left; lines everywhere send it under the chart.
    #[test]
    fn the_legend_goes_to_the_emptiest_corner_or_under_the_chart() {
        let chart = |lines: Vec<Line>| LineChart {
            name: "t".into(),
            title: "t".into(),
            x: Axis::linear("x (s)"),
            y: Axis::linear("y (s)"),
            lines,
            legend: true,
        };
        let rising = Line::new("rising", vec![[0.0, 0.0], [10.0, 10.0]], false);
        let c = chart(vec![rising.clone()]);
        let looks = crate::plot::looks::looks(&c);
        let f = frame();
        let points = vec![vec![f.pixel_at(0.0, 0.0), f.pixel_at(10.0, 10.0)]];
        let legend = in_corner(
            legend_entries(&c, &looks),
            &f,
            &points,
            Fonts::for_width(900),
        );
        let legend = legend.unwrap();
        assert_eq!(legend.frame.x0, 100 + INSET, "{legend:?}");
        assert!(!hides(&legend.frame, &points));
        let falling = Line::new("falling", vec![[0.0, 10.0], [10.0, 0.0]], false);
        let c = chart(vec![rising, falling]);
        let looks = crate::plot::looks::looks(&c);
        let points = vec![
            points[0].clone(),
            vec![f.pixel_at(0.0, 10.0), f.pixel_at(10.0, 0.0)],
        ];
        let entries = legend_entries(&c, &looks);
        assert!(in_corner(entries.clone(), &f, &points, Fonts::for_width(900)).is_none());
        let band = in_band(entries, (600, 400), Fonts::for_width(600));
        assert!(band.frame.y0 > 350 && band.frame.y1 <= 400, "{band:?}");
    }
}
