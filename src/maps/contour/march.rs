//! Marching squares: the lines of equal value through a grid.
//!
//! A value within the verifier's tolerance of a level is taken as on it
//! ([`on_level`]): a map may meet a level on a plateau (the efficiency
//! equal to its level all along a border), where the values differ from
//! the level only in their last bits, and those bits differ between builds
//! (wasm's `ln`, `exp` and `powf` are not the native ones). Compared as
//! they come, such values would decide which cells the line crosses, and
//! the page and the command line would draw different lines.

use crate::core::domain::schedule::RELATIVE_TOLERANCE;

/// `value`, or `level` itself when it is within [`RELATIVE_TOLERANCE`] of
/// it (relative to the larger magnitude), so that every build sees it on
/// the level, the side of the values above it.
fn on_level(value: f64, level: f64) -> f64 {
    if (value - level).abs() <= RELATIVE_TOLERANCE * value.abs().max(level.abs()) {
        level
    } else {
        value
    }
}

/// Marching squares: the pieces of the line `value = level`, joined into
/// polylines where consecutive segments meet. Values on the level up to
/// the tolerance count as on it ([`on_level`]).
pub(crate) fn march(
    xs: &[f64],
    ys: &[f64],
    values: &[Vec<Option<f64>>],
    level: f64,
    xlog: bool,
    ylog: bool,
) -> Vec<Vec<[f64; 2]>> {
    let tx = |x: f64| if xlog { x.ln() } else { x };
    let ty = |y: f64| if ylog { y.ln() } else { y };
    let back_x = |u: f64| if xlog { u.exp() } else { u };
    let back_y = |u: f64| if ylog { u.exp() } else { u };
    let mut segments: Vec<[[f64; 2]; 2]> = Vec::new();
    for j in 0..ys.len().saturating_sub(1) {
        for i in 0..xs.len().saturating_sub(1) {
            let corners = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)];
            let Some(v): Option<Vec<f64>> = corners
                .iter()
                .map(|&(a, b)| values[b][a].map(|v| on_level(v, level)))
                .collect()
            else {
                continue;
            };
            // Where the level crosses each edge (corner k to k + 1).
            let mut hits = Vec::with_capacity(4);
            for k in 0..4 {
                let (a, b) = (k, (k + 1) % 4);
                if (v[a] < level) != (v[b] < level) {
                    let t = (level - v[a]) / (v[b] - v[a]);
                    let (pa, pb) = (corners[a], corners[b]);
                    let x = tx(xs[pa.0]) + t * (tx(xs[pb.0]) - tx(xs[pa.0]));
                    let y = ty(ys[pa.1]) + t * (ty(ys[pb.1]) - ty(ys[pa.1]));
                    hits.push([back_x(x), back_y(y)]);
                }
            }
            // Two crossings: one segment; four (a saddle): two, paired by
            // the cell's mean.
            match hits.len() {
                2 => segments.push([hits[0], hits[1]]),
                4 => {
                    let mean = v.iter().sum::<f64>() / 4.0;
                    if (mean < level) == (v[0] < level) {
                        segments.push([hits[0], hits[3]]);
                        segments.push([hits[1], hits[2]]);
                    } else {
                        segments.push([hits[0], hits[1]]);
                        segments.push([hits[2], hits[3]]);
                    }
                }
                _ => {}
            }
        }
    }
    join(segments)
}

/// Joins segments that share end points into polylines.
fn join(segments: Vec<[[f64; 2]; 2]>) -> Vec<Vec<[f64; 2]>> {
    let same = |a: [f64; 2], b: [f64; 2]| {
        (a[0] - b[0]).abs() <= 1e-9 * a[0].abs().max(1e-300)
            && (a[1] - b[1]).abs() <= 1e-9 * a[1].abs().max(1e-300)
    };
    let mut left = segments;
    let mut lines = Vec::new();
    while let Some([a, b]) = left.pop() {
        let mut line = std::collections::VecDeque::from([a, b]);
        loop {
            let (front, back) = (line[0], line[line.len() - 1]);
            let Some(k) = left.iter().position(|s| {
                same(s[0], back) || same(s[1], back) || same(s[0], front) || same(s[1], front)
            }) else {
                break;
            };
            let [p, q] = left.swap_remove(k);
            if same(p, back) {
                line.push_back(q);
            } else if same(q, back) {
                line.push_back(p);
            } else if same(p, front) {
                line.push_front(q);
            } else {
                line.push_front(p);
            }
        }
        lines.push(line.into_iter().collect());
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A plane `f = x + y` has straight level lines `x + y = level`.
    #[test]
    fn marching_squares_traces_a_plane() {
        let xs: Vec<f64> = (0..11).map(|i| i as f64).collect();
        let ys = xs.clone();
        let values: Vec<Vec<Option<f64>>> = ys
            .iter()
            .map(|y| xs.iter().map(|x| Some(x + y)).collect())
            .collect();
        let lines = march(&xs, &ys, &values, 7.5, false, false);
        assert_eq!(lines.len(), 1, "one connected line");
        assert!(lines[0].len() >= 8);
        for p in &lines[0] {
            assert!((p[0] + p[1] - 7.5).abs() < 1e-12, "{p:?} is off the line");
        }
    }

    /// A level met on a plateau traces the same lines whatever the last
    /// bits of the plateau's values: values a few ulps either side of the
    /// level (as two builds' maths give them) are taken as on it.
    #[test]
    fn a_plateau_at_the_level_traces_the_same_lines_in_every_build() {
        let xs: Vec<f64> = (0..6).map(|i| 10f64.powi(i - 6)).collect();
        let ys: Vec<f64> = (0..8).map(|j| f64::from(j) + 1.0).collect();
        // The left half of the grid on the level, the right half below.
        let grid = |bits: &dyn Fn(usize, usize) -> f64| -> Vec<Vec<Option<f64>>> {
            (0..ys.len())
                .map(|j| {
                    (0..xs.len())
                        .map(|i| Some(if i < 3 { 0.1 + bits(i, j) } else { 0.05 }))
                        .collect()
                })
                .collect()
        };
        let exact = march(&xs, &ys, &grid(&|_, _| 0.0), 0.1, true, false);
        assert!(!exact.is_empty(), "the plateau's border is a line");
        for bits in [
            &(|i: usize, j: usize| if (i + j) % 2 == 0 { 1.4e-17 } else { -1.4e-17 })
                as &dyn Fn(usize, usize) -> f64,
            &|i, j| if (i * 3 + j) % 4 == 1 { -2.8e-17 } else { 0.0 },
            &|_, _| -1.4e-17,
        ] {
            assert_eq!(march(&xs, &ys, &grid(bits), 0.1, true, false), exact);
        }
        // Off the level by more than the tolerance, a value is below it.
        let below = march(&xs, &ys, &grid(&|_, _| -1e-6), 0.1, true, false);
        assert!(below.is_empty(), "{below:?}");
    }

    /// Cells without a value break the line.
    #[test]
    fn invalid_cells_break_lines() {
        let xs: Vec<f64> = (0..5).map(|i| i as f64).collect();
        let ys = xs.clone();
        let values: Vec<Vec<Option<f64>>> = ys
            .iter()
            .map(|_| xs.iter().map(|&x| (x != 2.0).then_some(x)).collect())
            .collect();
        assert!(march(&xs, &ys, &values, 1.5, false, false).is_empty());
        assert_eq!(march(&xs, &ys, &values, 0.5, false, false).len(), 1);
    }
}
