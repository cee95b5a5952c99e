//! Text sizes and boxes in pixels, estimated without a font: placement is
//! decided before drawing (and natively, in tests), so it uses widths a
//! little wider than a sans-serif font's, never narrower.

/// A box in pixels: `x0 ≤ x < x1`, `y0 ≤ y < y1`, `y` down.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Rect {
    /// Left.
    pub x0: i32,
    /// Top.
    pub y0: i32,
    /// Right (outside).
    pub x1: i32,
    /// Bottom (outside).
    pub y1: i32,
}

impl Rect {
    /// The box at `(x, y)` (top left) of `w × h` pixels.
    pub fn at(x: i32, y: i32, w: i32, h: i32) -> Rect {
        Rect {
            x0: x,
            y0: y,
            x1: x + w,
            y1: y + h,
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> i32 {
        self.x1 - self.x0
    }

    /// Height in pixels.
    pub fn height(&self) -> i32 {
        self.y1 - self.y0
    }

    /// Whether the two boxes share a pixel.
    pub fn overlaps(&self, other: &Rect) -> bool {
        self.x0 < other.x1 && other.x0 < self.x1 && self.y0 < other.y1 && other.y0 < self.y1
    }

    /// Whether this box lies within `outer`.
    pub fn inside(&self, outer: &Rect) -> bool {
        self.x0 >= outer.x0 && self.x1 <= outer.x1 && self.y0 >= outer.y0 && self.y1 <= outer.y1
    }

    /// Whether the pixel `(x, y)` lies in the box.
    pub fn contains(&self, (x, y): (i32, i32)) -> bool {
        (self.x0..self.x1).contains(&x) && (self.y0..self.y1).contains(&y)
    }

    /// The same box moved by `(dx, dy)`.
    pub fn moved(&self, dx: i32, dy: i32) -> Rect {
        Rect::at(self.x0 + dx, self.y0 + dy, self.width(), self.height())
    }

    /// The box moved the least to lie within `outer` (its top left corner
    /// inside when it is larger).
    pub fn within(&self, outer: &Rect) -> Rect {
        let dx = (outer.x1 - self.x1).min(0).max(outer.x0 - self.x0);
        let dy = (outer.y1 - self.y1).min(0).max(outer.y0 - self.y0);
        self.moved(dx, dy)
    }

    /// Whether the segment from `a` to `b` passes through one of the box's
    /// pixels (taken as points), computed exactly by clipping the segment
    /// to the box: fast enough to try a label at many places.
    pub fn cut_by(&self, a: (i32, i32), b: (i32, i32)) -> bool {
        let (ax, ay) = (f64::from(a.0), f64::from(a.1));
        let (dx, dy) = (f64::from(b.0 - a.0), f64::from(b.1 - a.1));
        let (x0, x1) = (f64::from(self.x0), f64::from(self.x1 - 1));
        let (y0, y1) = (f64::from(self.y0), f64::from(self.y1 - 1));
        let (mut t0, mut t1) = (0.0_f64, 1.0_f64);
        for (p, q) in [(-dx, ax - x0), (dx, x1 - ax), (-dy, ay - y0), (dy, y1 - ay)] {
            if p == 0.0 {
                if q < 0.0 {
                    return false;
                }
            } else if p < 0.0 {
                t0 = t0.max(q / p);
            } else {
                t1 = t1.min(q / p);
            }
        }
        t0 <= t1
    }

    /// Whether the segment from `a` to `b` passes through the box (checked
    /// every pixel along it).
    pub fn meets_segment(&self, a: (i32, i32), b: (i32, i32)) -> bool {
        let steps = (b.0 - a.0).abs().max((b.1 - a.1).abs()).max(1);
        (0..=steps).any(|k| {
            let t = f64::from(k) / f64::from(steps);
            let x = f64::from(a.0) + t * f64::from(b.0 - a.0);
            let y = f64::from(a.1) + t * f64::from(b.1 - a.1);
            self.contains((x.round() as i32, y.round() as i32))
        })
    }
}

/// Font sizes and spacing, by canvas width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fonts {
    /// The title's.
    pub title: u32,
    /// Tick labels'.
    pub tick: u32,
    /// The axes' descriptions'.
    pub axis: u32,
    /// End labels'.
    pub label: u32,
    /// The legend's.
    pub legend: u32,
    /// The margin around the chart, in pixels.
    pub margin: i32,
}

/// Canvases narrower than this (a phone) get smaller fonts and margins.
const NARROW: u32 = 600;

impl Fonts {
    /// The sizes for a canvas `width` pixels wide.
    pub fn for_width(width: u32) -> Fonts {
        if width < NARROW {
            Fonts {
                title: 13,
                tick: 11,
                axis: 12,
                label: 11,
                legend: 11,
                margin: 6,
            }
        } else {
            Fonts {
                title: 16,
                tick: 12,
                axis: 13,
                label: 11,
                legend: 12,
                margin: 12,
            }
        }
    }
}

/// The width of `text` at font size `size` (pixels): per character, an
/// upper bound of a sans-serif font's advance (narrow letters, digits,
/// wide letters).
pub fn text_width(text: &str, size: u32) -> i32 {
    let em: f64 =
        text.chars()
            .map(|c| match c {
                'i' | 'j' | 'l' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | '·' | ' '
                | '\u{2009}' => 0.32,
                'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '-' | 'I' => 0.4,
                'm' | 'w' | 'M' | 'W' | '—' | '…' => 0.92,
                '⁰'..='⁹' | '¹' | '²' | '³' | '⁻' => 0.42,
                c if c.is_uppercase() => 0.74,
                _ => 0.6,
            })
            .sum();
    (em * f64::from(size)).ceil() as i32
}

/// The height of a line of text at font size `size` (pixels).
pub fn text_height(size: u32) -> i32 {
    (f64::from(size) * 1.2).ceil() as i32
}

/// `text` broken at spaces into lines no wider than `width` pixels at
/// `size`, at most `most` lines; the last line is shortened with `…` when
/// the words do not fit (a single word too long is shortened too).
pub fn wrap(text: &str, size: u32, width: i32, most: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ').filter(|w| !w.is_empty()) {
        match lines.last_mut() {
            Some(line) if text_width(&format!("{line} {word}"), size) <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    if lines.len() > most {
        let rest = lines.split_off(most - 1).join(" ");
        lines.push(rest);
    }
    for line in &mut lines {
        *line = shortened(line, size, width);
    }
    lines
}

/// `text`, or its start and `…`, no wider than `width` at `size`.
pub fn shortened(text: &str, size: u32, width: i32) -> String {
    if text_width(text, size) <= width {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    (0..chars.len())
        .rev()
        .map(|n| format!("{}…", chars[..n].iter().collect::<String>().trim_end()))
        .find(|t| text_width(t, size) <= width)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boxes_overlap_only_when_they_share_a_pixel() {
        let a = Rect::at(0, 0, 10, 10);
        assert!(a.overlaps(&Rect::at(9, 9, 5, 5)));
        assert!(!a.overlaps(&Rect::at(10, 0, 5, 5)));
        assert_eq!(
            Rect::at(95, -3, 10, 10).within(&Rect::at(0, 0, 100, 50)),
            Rect::at(90, 0, 10, 10)
        );
        assert!(a.meets_segment((-5, 5), (20, 5)));
        assert!(!a.meets_segment((-5, 20), (20, 20)));
    }

    #[test]
    fn a_long_title_wraps_and_every_line_fits() {
        let title = "Isoefficiency map: load V for efficiency e, by machine count";
        let lines = wrap(title, 13, 300, 3);
        assert!(lines.len() >= 2, "{lines:?}");
        assert!(lines.iter().all(|l| text_width(l, 13) <= 300));
        assert_eq!(lines.join(" "), title);
        let cut = wrap(title, 13, 120, 2);
        assert_eq!(cut.len(), 2);
        assert!(cut[1].ends_with('…'), "{cut:?}");
        assert!(cut.iter().all(|l| text_width(l, 13) <= 120));
    }
}
