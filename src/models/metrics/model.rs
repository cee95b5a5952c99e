//! M1 in the registry: the lecture's examples as presets, the answer and
//! its charts.

use std::collections::BTreeMap;

use super::{Measured, Range, Report, Request};
use crate::core::domain::error::Error;
use crate::core::framework::exercise::Template;
use crate::core::framework::model::{Former, Identity, Model, Preset};
use crate::core::presentation::chart::{Axis, Line, LineChart, Style};
use crate::core::presentation::form::Form;
use crate::core::presentation::response::Answer;
use crate::core::solving::progress::Progress;

/// M1: speedup, efficiency, cost, isoefficiency, Karp–Flatt and the
/// scalability laws (`[5]`).
#[derive(Debug)]
pub struct Metrics;

/// M1's answer: the report and its charts.
pub type Output = Answer<Report>;

/// A request with the common defaults.
fn request(serial: &str, parallel: &str, work: f64, to: f64) -> Request {
    Request {
        serial: serial.into(),
        parallel: parallel.into(),
        constants: BTreeMap::new(),
        work,
        processors: Range { from: 1.0, to },
        efficiency: 0.8,
        minimize_over: None,
        measured: Vec::new(),
        isospeed: None,
    }
}

/// Times "measured" from a formula, to four significant digits.
fn measured(time: impl Fn(f64) -> f64, ps: &[f64]) -> Vec<Measured> {
    ps.iter()
        .map(|&p| {
            let t = time(p);
            let digits = 10f64.powf(3.0 - t.log10().floor());
            Measured {
                p,
                time: (t * digits).round() / digits,
            }
        })
        .collect()
}

impl Metrics {
    /// `[5]`'s adding of `n` numbers: `T_p = n/p + 2 log p`.
    pub fn adding() -> Request {
        request("n", "n/p + 2 log p", 1024.0, 1024.0)
    }

    /// `[5]`'s edge detection on an `n × n` image.
    pub fn edge_detection() -> Request {
        Request {
            constants: BTreeMap::from([
                ("t_c".to_string(), 1e-9),
                ("t_s".to_string(), 1e-5),
                ("t_w".to_string(), 1e-8),
            ]),
            ..request("9 t_c n^2", "9 t_c n^2/p + 2(t_s + t_w n)", 4096.0, 1024.0)
        }
    }

    /// `[5]`'s `T_o = p^(3/2) + p^(3/4) W^(3/4)`: isoefficiency `Θ(p³)`.
    pub fn cubic() -> Request {
        request("W", "(W + p^(3/2) + p^(3/4) W^(3/4))/p", 1e6, 1024.0)
    }

    /// `[5]`'s matrix–vector product on a hypercube, with run times that
    /// show a rising serial fraction.
    pub fn matrix_vector() -> Request {
        let constants = BTreeMap::from([
            ("t_c".to_string(), 1e-8),
            ("t_s".to_string(), 2e-5),
            ("t_w".to_string(), 4e-8),
        ]);
        let n = 2048.0;
        let time = |p: f64| 1e-8 * n * n / p + 2e-5 * p.log2() + 4e-8 * n;
        Request {
            constants,
            measured: measured(time, &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]),
            ..request("t_c n^2", "t_c n^2/p + t_s log p + t_w n", n, 64.0)
        }
    }

    /// Measured times of a program with contention and coherency costs:
    /// the universal scalability law finds its peak.
    pub fn contention() -> Request {
        let time = |p: f64| (1.0 + 0.04 * (p - 1.0) + 0.0015 * p * (p - 1.0)) / (0.5 * p);
        let ps = [1.0, 2.0, 4.0, 8.0, 12.0, 16.0, 24.0, 32.0, 48.0, 64.0];
        Request {
            measured: measured(time, &ps),
            ..request(
                "2*W",
                "2*W/p + 0.08*W*(1 - 1/p) + 0.003*W*(p - 1)",
                1.0,
                64.0,
            )
        }
    }
}

impl Model for Metrics {
    const ID: Identity = Identity {
        number: Some(1),
        former: Former {
            tag: None,
            tab: "m1",
            prefix: "m.",
        },
        ..Identity::new("metrics", "Metrics & isoefficiency")
    };
    type Request = Request;
    type Output = Output;

    fn presets() -> Vec<Preset<Request>> {
        vec![
            Preset {
                name: "metrics-adding",
                label: "[5] adding n numbers: T_p = n/p + 2 log p, isoefficiency Θ(p log p)",
                request: Metrics::adding(),
            },
            Preset {
                name: "metrics-edge",
                label: "[5] edge detection on an n×n image: T_p = 9 t_c n^2/p + 2(t_s + t_w n)",
                request: Metrics::edge_detection(),
            },
            Preset {
                name: "metrics-cubic",
                label: "[5] T_o = p^(3/2) + p^(3/4) W^(3/4): isoefficiency Θ(p³)",
                request: Metrics::cubic(),
            },
            Preset {
                name: "metrics-karp-flatt",
                label: "[5] matrix–vector product: T_p = t_c n^2/p + t_s log p + t_w n, measured times, rising serial fraction",
                request: Metrics::matrix_vector(),
            },
            Preset {
                name: "metrics-usl",
                label: "measured throughput with contention: the universal scalability law's peak",
                request: Metrics::contention(),
            },
        ]
    }

    fn solve(request: &Request, _progress: &mut dyn Progress) -> Result<Output, Error> {
        let report = request.solve()?;
        Ok(Answer {
            gantt: None,
            charts: report.charts(),
            report: Box::new(report),
        })
    }

    fn form() -> Form {
        super::view::form()
    }

    fn exercises() -> Vec<Template> {
        super::exercises::templates()
    }
}

impl Report {
    /// Speedup, efficiency and cost against `p`; the isoefficiency curve;
    /// the serial fraction and the scalability laws over the runs.
    pub fn charts(&self) -> Vec<LineChart> {
        let mut charts = Vec::new();
        let wide = self.curves.last().is_some_and(|c| c.p > 64.0);
        let px = |label: &str| {
            if wide {
                Axis::log(label).pure()
            } else {
                Axis::linear(label).whole()
            }
        };
        let curve = |f: &dyn Fn(&super::CurvePoint) -> f64| -> Vec<[f64; 2]> {
            self.curves.iter().map(|c| [c.p, f(c)]).collect()
        };
        let ideal: Vec<[f64; 2]> = self.curves.iter().map(|c| [c.p, c.p]).collect();
        charts.push(LineChart {
            name: "speedup".into(),
            title: "Speedup S = T_s/T_p against p".into(),
            x: px("processors p"),
            y: px("speedup S"),
            lines: vec![
                Line::new("S", curve(&|c| c.speedup), false),
                Line::new("ideal S = p", ideal, false).styled(Style::Dashed),
            ],
            legend: true,
        });
        charts.push(LineChart {
            name: "efficiency".into(),
            title: "Efficiency E = S/p against p".into(),
            x: px("processors p"),
            y: Axis::linear("efficiency E").pure(),
            lines: vec![Line::new("E", curve(&|c| c.efficiency), false)],
            legend: false,
        });
        charts.push(LineChart {
            name: "cost".into(),
            title: "Cost p·T_p against p (cost-optimal: it stays Θ(T_s))".into(),
            x: px("processors p"),
            y: Axis::fitting("cost p·T_p [s]", self.curves.iter().map(|c| c.cost)),
            lines: vec![
                Line::new("p·T_p", curve(&|c| c.cost), false),
                Line::new("T_s", curve(&|_| self.serial_time), false).styled(Style::Dashed),
            ],
            legend: true,
        });
        charts.extend(self.isoefficiency_chart());
        charts.extend(self.measured_charts());
        charts
    }

    /// `W(p)` on log–log axes with reference slopes through its first point.
    fn isoefficiency_chart(&self) -> Option<LineChart> {
        let points = &self.isoefficiency.points;
        let first = points.first()?;
        let w: Vec<[f64; 2]> = points.iter().map(|q| [q.p, q.work]).collect();
        let mut lines = vec![Line::new("W(p)", w, points.len() <= 30).styled(Style::Bold)];
        let lg = |p: f64| p.log2().max(1e-9);
        let references: [(&str, &dyn Fn(f64) -> f64); 4] = [
            ("∝ p", &|p| p),
            ("∝ p log p", &|p| p * lg(p)),
            ("∝ p²", &|p| p * p),
            ("∝ p³", &|p| p * p * p),
        ];
        for (name, f) in references {
            let scale = first.work / f(first.p);
            let line = points.iter().map(|q| [q.p, scale * f(q.p)]).collect();
            lines.push(Line::new(name, line, false).styled(Style::Dashed));
        }
        Some(LineChart {
            name: "isoefficiency".into(),
            title: format!(
                "Isoefficiency: the work W that keeps E = {} as p grows",
                self.isoefficiency.efficiency
            ),
            x: Axis::log("processors p").pure(),
            y: Axis::log("work W").pure(),
            lines,
            legend: true,
        })
    }

    /// The serial fraction, and the measured speedups with the laws.
    fn measured_charts(&self) -> Vec<LineChart> {
        let mut charts = Vec::new();
        if self.karp_flatt.is_empty() {
            return charts;
        }
        let f: Vec<[f64; 2]> = self
            .karp_flatt
            .iter()
            .map(|r| [r.p, r.serial_fraction])
            .collect();
        charts.push(LineChart {
            name: "karp-flatt".into(),
            title: "Karp–Flatt serial fraction f against p".into(),
            x: Axis::linear("processors p").whole(),
            y: Axis::linear("serial fraction f").pure(),
            lines: vec![Line::new("f", f, true)],
            legend: false,
        });
        let measured: Vec<[f64; 2]> = self.karp_flatt.iter().map(|r| [r.p, r.speedup]).collect();
        let mut lines = vec![Line::new("measured", measured, true)];
        if let Some(f) = self.amdahl_fraction {
            let amdahl = self.laws.iter().map(|l| [l.p, l.amdahl]).collect();
            let gustafson = self.laws.iter().map(|l| [l.p, l.gustafson]).collect();
            lines.push(Line::new(&format!("Amdahl, f = {f:.4}"), amdahl, false));
            lines.push(Line::new("Gustafson (scaled)", gustafson, false).styled(Style::Dashed));
        }
        if self.usl.is_some() {
            let usl = self
                .laws
                .iter()
                .filter_map(|l| l.usl.map(|u| [l.p, u]))
                .collect();
            lines.push(Line::new("USL fit", usl, false));
        }
        charts.push(LineChart {
            name: "laws".into(),
            title: "Measured speedup and the scalability laws".into(),
            x: Axis::linear("processors p").whole(),
            y: Axis::linear("speedup").pure(),
            lines,
            legend: true,
        });
        charts
    }
}
