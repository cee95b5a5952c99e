//! Placing a chart's legend and end labels in pixels, from the lines'
//! pixel points: the legend in the first corner of the plot where it hides
//! no point and no line (else in a band under the chart), each end label
//! near its line's end where it overlaps no other label and the legend,
//! always inside the plot.

use super::looks::Look;
use super::text::{text_height, text_width, Fonts, Rect};
use crate::core::presentation::chart::{Frame, LineChart, Style};

/// A label written beside a point of its line, in its box (the page
/// reads these from a drawn chart's canvas, see the binding module).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EndLabel {
    /// The text.
    pub text: String,
    /// Its box (the text starts at the top left).
    pub rect: Rect,
    /// The index of its line in the chart (for its colour).
    pub line: usize,
    /// The point of its line it is written beside (a few pixels from its
    /// box, see [`LABEL_GAP`]): the line's end, else a point back along the
    /// line, or its start, where the end had no room.
    pub anchor: (i32, i32),
    /// The line's end (its last drawable point).
    pub end: (i32, i32),
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

/// The space between a label and the point of its line it is written
/// beside, in pixels (one more above and below, where a line's stroke
/// spreads): a label's box is at most `LABEL_GAP + 2` pixels from it.
pub const LABEL_GAP: i32 = 3;

/// The step, in pixels along a line, between the points a label may be
/// moved to when its line's end has no room.
const ALONG: f64 = 4.0;

/// A label to place: its text, its line's index, and the line's drawable
/// points in pixels, its end last.
#[derive(Debug, Clone, PartialEq)]
pub struct Wanted {
    /// The words.
    pub text: String,
    /// The index of its line in the chart.
    pub line: usize,
    /// The line's points in pixels (the piece that carries the label).
    pub points: Vec<(i32, i32)>,
}

/// Labels' boxes, each written beside a point of its own line: its end if
/// there is room there (right of it, else above or below it), else a
/// point a little back along the line, else its start (its other end),
/// else any point along it with room. A box lies inside `plot`, overlaps
/// no other label and nothing in `taken`, and crosses none of `lines`
/// where such a place exists. Every label gets its chance at its end
/// before any is moved along its line. A label with no place anywhere
/// along its line is left out (the pointer read-out still names the
/// line): never stacked away from its line.
pub fn place_labels(
    wanted: Vec<Wanted>,
    plot: &Rect,
    taken: &[Rect],
    lines: &[Vec<(i32, i32)>],
    size: u32,
) -> Vec<EndLabel> {
    let h = text_height(size);
    let spots: Vec<Vec<Spot>> = wanted
        .iter()
        .map(|want| spots(&want.points, text_width(&want.text, size) + 2, h))
        .collect();
    let mut chosen: Vec<Option<Spot>> = vec![None; wanted.len()];
    // Each tier for every label before the next: clear of every line at
    // the end, near it, at the start, anywhere; then over other lines.
    let tiers = [
        Tier::End,
        Tier::EndSlid,
        Tier::AroundEnd,
        Tier::NearEnd,
        Tier::Start,
        Tier::Far,
        Tier::Over,
    ];
    for tier in tiers {
        for (k, want) in wanted.iter().enumerate() {
            if chosen[k].is_some() {
                continue;
            }
            let own = std::slice::from_ref(&want.points);
            let others = if tier == Tier::Over { own } else { lines };
            let free = |r: &Rect| {
                r.inside(plot)
                    && !taken.iter().any(|t| t.overlaps(r))
                    && !chosen.iter().flatten().any(|c| c.rect.overlaps(r))
                    && !crosses(r, others)
            };
            chosen[k] = spots[k]
                .iter()
                .find(|s| (tier == Tier::Over || s.tier == tier) && free(&s.rect))
                .copied();
        }
    }
    wanted
        .into_iter()
        .zip(chosen)
        .filter_map(|(want, spot)| {
            let spot = spot?;
            Some(EndLabel {
                rect: spot.rect,
                anchor: spot.anchor,
                end: *want.points.last()?,
                text: want.text,
                line: want.line,
            })
        })
        .collect()
}

/// Where along its line a label is tried, in the order tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tier {
    /// Right of the line's end.
    End,
    /// Right of the line's end, slid up or down a little.
    EndSlid,
    /// Above, below or left of the line's end.
    AroundEnd,
    /// Back along the line, up to [`NEAR_END`] pixels from the end.
    NearEnd,
    /// At the line's start (its other end).
    Start,
    /// Anywhere else along the line.
    Far,
    /// Anywhere along the line, over other lines.
    Over,
}

/// A box a label may take beside a point of its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Spot {
    /// The point of the line.
    anchor: (i32, i32),
    /// The box.
    rect: Rect,
    /// How far along the line it is.
    tier: Tier,
}

/// The boxes a `w × h` label of the line through `points` may take, best
/// first, each beside a point of the line: around its end (right of it
/// first), around points every [`ALONG`] pixels back along it, and around
/// its start (left of it first).
fn spots(points: &[(i32, i32)], w: i32, h: i32) -> Vec<Spot> {
    let g = LABEL_GAP;
    let boxes = |p, from_start| boxes_around(p, w, h, from_start);
    // Beside an end, a box may also slide up or down as long as the end
    // stays level with its text.
    let slid = |(x, y): (i32, i32), dx: i32| {
        (1..=(h / 2 - 2) / 2)
            .flat_map(move |k| [k, -k].map(|d| Rect::at(x + dx, y - h / 2 + 2 * d, w, h)))
    };
    let mut out = Vec::new();
    for (k, (anchor, along)) in along_back(points).into_iter().enumerate() {
        let tier = match k {
            0 => Tier::End,
            _ if along <= NEAR_END => Tier::NearEnd,
            _ => Tier::Far,
        };
        let mut around = boxes(anchor, false).map(|rect| Spot { anchor, rect, tier });
        if k == 0 {
            // Right of the end first, then slid, then around it.
            out.push(around[0]);
            let tier = Tier::EndSlid;
            out.extend(slid(anchor, g).map(|rect| Spot { anchor, rect, tier }));
            around.iter_mut().for_each(|s| s.tier = Tier::AroundEnd);
            out.extend_from_slice(&around[1..]);
        } else {
            out.extend(around);
        }
    }
    if let (Some(&anchor), true) = (points.first(), points.len() > 1) {
        let tier = Tier::Start;
        out.extend(boxes(anchor, true).map(|rect| Spot { anchor, rect, tier }));
        out.extend(slid(anchor, -g - w).map(|rect| Spot { anchor, rect, tier }));
    }
    out
}

/// The boxes of a `w × h` label around point `(x, y)` of its line: right
/// of it first, or left of it first at the line's start.
fn boxes_around((x, y): (i32, i32), w: i32, h: i32, from_start: bool) -> [Rect; 6] {
    let g = LABEL_GAP;
    let right = Rect::at(x + g, y - h / 2, w, h);
    let left = Rect::at(x - g - w, y - h / 2, w, h);
    let (above, below) = (y - g - h, y + g + 1);
    let (above_left, below_left) = (Rect::at(x - w, above, w, h), Rect::at(x - w, below, w, h));
    let (above_right, below_right) = (Rect::at(x + 1, above, w, h), Rect::at(x + 1, below, w, h));
    if from_start {
        [
            left,
            above_right,
            below_right,
            above_left,
            below_left,
            right,
        ]
    } else {
        [
            right,
            above_left,
            below_left,
            above_right,
            below_right,
            left,
        ]
    }
}

/// How far back from its line's end a label is tried before the line's
/// start, in pixels.
const NEAR_END: f64 = 80.0;

/// The points of a line from its end back to its start, every [`ALONG`]
/// pixels of its length (and at every corner), with their distance from
/// the end along the line.
fn along_back(points: &[(i32, i32)]) -> Vec<((i32, i32), f64)> {
    let mut out: Vec<((i32, i32), f64)> = points.last().map(|&p| (p, 0.0)).into_iter().collect();
    let mut gone = 0.0;
    for s in points.windows(2).rev() {
        let ((x1, y1), (x0, y0)) = (s[1], s[0]);
        let length = f64::from(x1 - x0).hypot(f64::from(y1 - y0));
        let steps = (length / ALONG).ceil().max(1.0) as i32;
        for k in 1..=steps {
            let t = f64::from(k) / f64::from(steps);
            let at = |a: i32, b: i32| (f64::from(a) + t * f64::from(b - a)).round() as i32;
            out.push(((at(x1, x0), at(y1, y0)), gone + t * length));
        }
        gone += length;
    }
    out
}

/// Whether `rect` meets a piece of one of `lines` (or one of their single
/// points).
fn crosses(rect: &Rect, lines: &[Vec<(i32, i32)>]) -> bool {
    lines.iter().any(|line| match line.as_slice() {
        [single] => rect.contains(*single),
        _ => line.windows(2).any(|s| rect.cut_by(s[0], s[1])),
    })
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

    /// A label wanted at the end of a line through `points`.
    fn wanted(text: &str, line: usize, points: Vec<(i32, i32)>) -> Wanted {
        Wanted {
            text: text.into(),
            line,
            points,
        }
    }

    /// Three lines ending at one point: the first label at the end, the
    /// others beside their own lines, apart and inside the plot, none
    /// stacked away from its line.
    #[test]
    fn labels_at_one_end_stay_on_their_lines_apart_inside_the_plot() {
        let plot = Rect::at(100, 50, 400, 300);
        let lines: Vec<Vec<(i32, i32)>> = (0..3)
            .map(|i| vec![(150 + 50 * i, 300 - 100 * i), (400, 200)])
            .collect();
        let labels = (0..3)
            .map(|i| wanted(&format!("33.{i}"), i, lines[i].clone()))
            .collect();
        let placed = place_labels(labels, &plot, &[], &lines, 11);
        assert_eq!(placed.len(), 3);
        for (i, a) in placed.iter().enumerate() {
            assert!(a.rect.inside(&plot), "{a:?}");
            assert!(placed[i + 1..].iter().all(|b| !a.rect.overlaps(&b.rect)));
            let near = Rect {
                x0: a.rect.x0 - LABEL_GAP - 2,
                y0: a.rect.y0 - LABEL_GAP - 2,
                x1: a.rect.x1 + LABEL_GAP + 2,
                y1: a.rect.y1 + LABEL_GAP + 2,
            };
            assert!(near.contains(a.anchor), "{a:?}");
            let line = &lines[a.line];
            assert!(line
                .windows(2)
                .any(|s| Rect::at(a.anchor.0 - 1, a.anchor.1 - 1, 3, 3).cut_by(s[0], s[1])));
        }
        assert_eq!(placed[0].anchor, (400, 200));
        assert_eq!(placed[0].rect.x0, 400 + LABEL_GAP);
    }

    /// A label is kept off a taken box (the legend), and left out when
    /// there is no room at all.
    #[test]
    fn labels_avoid_the_legend_and_are_left_out_without_room() {
        let plot = Rect::at(0, 0, 100, 40);
        let legend = Rect::at(50, 0, 50, 20);
        let line = vec![(10, 5), (90, 5)];
        let placed = place_labels(
            vec![wanted("MAX", 0, line.clone())],
            &plot,
            &[legend],
            &[line],
            11,
        );
        assert!(!placed[0].rect.overlaps(&legend));
        let tiny = Rect::at(0, 0, 10, 10);
        let line = vec![(1, 5), (5, 5)];
        let none = place_labels(
            vec![wanted("MAX", 0, line.clone())],
            &tiny,
            &[],
            &[line],
            11,
        );
        assert!(none.is_empty());
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
