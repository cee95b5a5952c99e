//! M9's charts, computed from the report: each kind's measured points with
//! the fitted lines (the knee and its interval marked), the residuals, and
//! the validity check's predicted against measured makespans.

use super::Report;
use crate::core::presentation::chart::{Axis, Line, LineChart, Style};
use crate::models::fit::request::Shape;
use crate::models::fit::solve::LevelsFit;
use crate::models::fit::validity::Checked;

/// The most samples a chart draws per machine (every `k`-th beyond).
pub const MAX_DRAWN: usize = 2000;

/// Every `k`-th of `points`, so that at most [`MAX_DRAWN`] remain.
fn thinned(points: Vec<[f64; 2]>) -> Vec<[f64; 2]> {
    let step = points.len().div_ceil(MAX_DRAWN).max(1);
    points.into_iter().step_by(step).collect()
}

/// Measured samples as points.
fn samples(name: &str, points: Vec<[f64; 2]>) -> Line {
    Line::new(name, thinned(points), true).styled(Style::Points)
}

/// The fitted function of `fit` from 0 to `top`, through its knees.
fn fitted(fit: &LevelsFit, top: f64) -> Vec<[f64; 2]> {
    let (lines, knees): (Vec<(f64, f64)>, Vec<f64>) = match (fit.shape, &fit.knee, &fit.lines) {
        (Shape::TwoLevel, Some(k), _) => (
            vec![
                (k.b1.map_or(0.0, |b| b.value), k.a1.value),
                (k.b2.value, k.a2.value),
            ],
            vec![k.r.value],
        ),
        (Shape::Lines, _, Some(l)) => (
            l.lines
                .iter()
                .map(|line| (line.intercept.map_or(0.0, |b| b.value), line.slope.value))
                .collect(),
            l.knees.iter().map(|k| k.value).collect(),
        ),
        _ => (
            vec![(
                fit.line.intercept.map_or(0.0, |b| b.value),
                fit.line.slope.value,
            )],
            Vec::new(),
        ),
    };
    let at = |k: usize, x: f64| lines[k].0 + lines[k].1 * x;
    let mut points = vec![[0.0, at(0, 0.0)]];
    for (k, &x) in knees.iter().enumerate() {
        points.push([x, at(k, x)]);
    }
    points.push([top, at(lines.len() - 1, top)]);
    points
}

/// A vertical mark at `x` from 0 to `height`.
fn mark(name: &str, x: f64, height: f64, style: Style) -> Line {
    Line::new(name, vec![[x, 0.0], [x, height]], false).styled(style)
}

/// A computing or energy chart: points, fitted lines, knees.
fn levels_chart(
    id: &str,
    title: &str,
    y: &str,
    fits: &[LevelsFit],
    xy: &[Vec<[f64; 2]>],
) -> LineChart {
    let mut lines = Vec::new();
    for (fit, points) in fits.iter().zip(xy) {
        let who = if fit.machine.is_empty() {
            String::new()
        } else {
            format!("{}: ", fit.machine)
        };
        let top = points.iter().map(|p| p[0]).fold(0.0, f64::max);
        let height = points.iter().map(|p| p[1]).fold(0.0, f64::max);
        lines.push(samples(&format!("{who}measured"), points.clone()));
        lines.push(Line::new(&format!("{who}fit"), fitted(fit, top), false));
        if let (Shape::TwoLevel, Some(k)) = (fit.shape, &fit.knee) {
            let knee = format!("{who}knee r (memory full)");
            lines.push(mark(&knee, k.r.value, height, Style::Bold));
            let interval = format!("{who}knee's 95 % interval");
            lines.push(mark(&interval, k.r.low, height, Style::Dashed));
            let mut high = mark(&interval, k.r.high, height, Style::Dashed);
            high.group = Some(interval);
            lines.push(high);
        }
    }
    LineChart {
        name: id.into(),
        title: title.into(),
        x: Axis::linear("chunk size α (MB)"),
        y: Axis::linear(y),
        lines,
        legend: true,
    }
}

/// The residuals of the fits used, against the chunk size.
fn residuals_chart(fits: &[LevelsFit], xy: &[Vec<[f64; 2]>]) -> LineChart {
    let lines = fits
        .iter()
        .zip(xy)
        .map(|(fit, points)| {
            let goodness = match (fit.shape, &fit.knee, &fit.lines) {
                (Shape::TwoLevel, Some(k), _) => &k.fit,
                (Shape::Lines, _, Some(l)) => &l.fit,
                _ => &fit.line.fit,
            };
            let residuals = points
                .iter()
                .zip(&goodness.residuals)
                .map(|(p, r)| [p[0], *r])
                .collect();
            let name = if fit.machine.is_empty() {
                "residual"
            } else {
                &fit.machine
            };
            samples(name, residuals)
        })
        .collect();
    LineChart {
        name: "fit-residuals".into(),
        title: "Residuals of the computing fit (measured − fitted)".into(),
        x: Axis::linear("chunk size α (MB)"),
        y: Axis::linear("residual (s)"),
        lines,
        legend: true,
    }
}

/// Predicted against measured makespans, with the ±10 % band.
fn validity_chart(c: &Checked) -> LineChart {
    let points: Vec<[f64; 2]> = c.runs.iter().map(|r| [r.predicted, r.measured]).collect();
    let top = points.iter().flat_map(|p| [p[0], p[1]]).fold(0.0, f64::max) * 1.05;
    // Two pieces of one dashed line: one legend entry for the band.
    let band =
        |f: f64| Line::new("±10 %", vec![[0.0, 0.0], [top, f * top]], false).styled(Style::Dashed);
    LineChart {
        name: "fit-validity".into(),
        title: "Measured against predicted makespan".into(),
        x: Axis::linear("predicted C^T (s)"),
        y: Axis::linear("measured C^R (s)"),
        lines: vec![
            Line::new("measured = predicted", vec![[0.0, 0.0], [top, top]], false)
                .styled(Style::Bold),
            band(1.1),
            band(0.9),
            samples("runs", points),
        ],
        legend: true,
    }
}

impl Report {
    /// The charts of the fits; `points(field)` gives each machine's
    /// measured `(size, y)` of a table, in the fits' order.
    pub fn charts(&self, points: &dyn Fn(&str) -> Vec<Vec<[f64; 2]>>) -> Vec<LineChart> {
        let mut charts = Vec::new();
        if !self.transfers.is_empty() {
            let xy = points("transfers");
            let mut lines = Vec::new();
            for (f, p) in self.transfers.iter().zip(&xy) {
                let top = p.iter().map(|p| p[0]).fold(0.0, f64::max);
                let b = f.fit.intercept.map_or(0.0, |b| b.value);
                let name = |what: &str| {
                    if f.machine.is_empty() {
                        what.to_string()
                    } else {
                        format!("{}: {what}", f.machine)
                    }
                };
                lines.push(samples(&name("measured"), p.clone()));
                let fitted = vec![[0.0, b], [top, b + f.fit.slope.value * top]];
                lines.push(Line::new(&name("fit"), fitted, false));
            }
            charts.push(LineChart {
                name: "fit-transfers".into(),
                title: "Transfer time against message size".into(),
                x: Axis::linear("message size (MB)"),
                y: Axis::linear("time (s)"),
                lines,
                legend: true,
            });
        }
        if !self.computation.is_empty() {
            let xy = points("computation");
            let title = "Computing time against chunk size";
            charts.push(levels_chart(
                "fit-computation",
                title,
                "time (s)",
                &self.computation,
                &xy,
            ));
            charts.push(residuals_chart(&self.computation, &xy));
        }
        if !self.energy.is_empty() {
            let xy = points("energy");
            let title = "Energy per chunk against chunk size";
            charts.push(levels_chart(
                "fit-energy",
                title,
                "energy (J)",
                &self.energy,
                &xy,
            ));
        }
        if let Some(c) = &self.validity {
            charts.push(validity_chart(c));
        }
        charts
    }
}
