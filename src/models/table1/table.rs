//! Table 1 of `[3]`: the maximum efficiency `Emax` and where it is
//! reached, `Vmax`, for each machine count, beside the paper's values.
//!
//! `Vmax` comes from the map's search (sweep, then two probes per step);
//! the probe at `Vmax` is then handed to the exact branch and bound as its
//! starting incumbent, which improves it and proves a bound within an LP
//! budget. At the paper's own `Vmax` the table shows a probe with its
//! tightened gap, so the paper's values can be compared at their own load.

use serde::{Deserialize, Serialize};

use crate::core::domain::count::Count;
use crate::core::domain::error::{Error, Validate};
use crate::core::framework::model::hand_out;
use crate::core::presentation::chart::{Axis, Line, LineChart, Style};
use crate::core::solving::parallel;
use crate::core::solving::progress::Progress;
use crate::models::startup::Status;

use crate::models::isoefficiency::{search, Request};
use crate::models::startup::probe::Probe;

/// `[3]` Table 1 (`n = 20`): `(m, Emax, Vmax)`, computed there with a
/// commercial MIP solver limited to 300 s per solve.
pub const PAPER: [(usize, f64, f64); 19] = [
    (2, 34.2, 134485.0),
    (3, 34.0, 120827.0),
    (4, 33.7, 123329.0),
    (5, 33.4, 105097.0),
    (6, 33.2, 119663.0),
    (7, 32.8, 95748.0),
    (8, 32.4, 106921.0),
    (9, 31.5, 115514.0),
    (10, 30.9, 75048.0),
    (11, 30.4, 81394.0),
    (12, 29.6, 86545.0),
    (13, 28.7, 90457.0),
    (14, 27.7, 94532.0),
    (15, 26.7, 98591.0),
    (16, 25.7, 99460.0),
    (17, 24.8, 100506.0),
    (18, 23.8, 100354.0),
    (19, 22.9, 99708.0),
    (20, 22.1, 102240.0),
];

/// The default LP budget of each certification.
pub const DEFAULT_CERTIFY_LPS: u64 = 100;

/// One certified point: efficiency of the best schedule, the proven bound.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Certified {
    /// The load `V`.
    pub load: f64,
    /// The makespan of the best schedule found.
    pub makespan: f64,
    /// `T(1,1,V)/(m T)` of that schedule.
    pub efficiency: f64,
    /// No schedule at this load is more efficient than this.
    pub efficiency_bound: f64,
    /// `(T − lower bound)/T`.
    pub gap: f64,
    /// How the exact search ended.
    pub status: Status,
    /// Linear programs the search solved.
    pub lps: u64,
}

/// One row: a machine count.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The machine count `m`.
    pub machines: usize,
    /// Ours, at our `Vmax`.
    pub max: Certified,
    /// The paper's `(Emax, Vmax)`, when it has this machine count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper: Option<[f64; 2]>,
    /// Ours at the paper's `Vmax`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_paper_load: Option<Certified>,
}

/// The table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Table {
    /// One row per machine count, in increasing order.
    pub rows: Vec<Row>,
    /// Whether the instance is the paper's (only then are its values shown).
    pub reference: bool,
}

impl Table {
    /// `Emax` against `m`: ours with its proven bound, and the paper's
    /// values for its own instance (`None` for an empty table).
    pub fn chart(&self) -> Option<LineChart> {
        if self.rows.is_empty() {
            return None;
        }
        let at = |f: &dyn Fn(&Row) -> Option<f64>| -> Vec<[f64; 2]> {
            self.rows
                .iter()
                .filter_map(|r| f(r).map(|y| [r.machines as f64, y]))
                .collect()
        };
        let mut lines = vec![
            Line::new("Emax, ours", at(&|r| Some(r.max.efficiency)), true),
            Line::new("proven bound", at(&|r| Some(r.max.efficiency_bound)), false)
                .styled(Style::Dashed),
        ];
        let paper = at(&|r| r.paper.map(|[e, _]| e));
        if self.reference && !paper.is_empty() {
            lines.push(Line::new("Emax, [3] Table 1", paper, true));
        }
        Some(LineChart {
            name: "table1-emax".into(),
            title: "Maximum efficiency Emax against the number of machines m".into(),
            x: Axis::linear("machines m").whole(),
            y: Axis::linear("Emax").pure(),
            lines,
            legend: true,
        })
    }
}

impl Request {
    /// Whether the model parameters are `[3]`'s reference instance.
    pub fn is_reference(&self) -> bool {
        let r = Request::reference();
        (
            self.a1,
            self.a2,
            self.b2,
            self.rate,
            self.overhead,
            self.startup,
            self.chunks,
        ) == (r.a1, r.a2, r.b2, r.rate, r.overhead, r.startup, r.chunks)
    }

    fn certify(&self, m: usize, load: f64, start: &[usize], lps: u64) -> Result<Certified, Error> {
        let mut instance = self.instance(m, load);
        instance.gap = Some(1e-9);
        instance.max_lps = Some(Count(lps));
        let report =
            instance.solve_from(Some(start), &mut crate::core::solving::progress::Silent)?;
        Ok(Certified {
            load,
            makespan: report.makespan,
            efficiency: report.efficiency,
            efficiency_bound: report.efficiency_bound,
            gap: report.gap,
            status: report.status,
            lps: report.lps,
        })
    }

    /// The row of `m` machines, certifying with `lps` LPs per point.
    ///
    /// # Errors
    ///
    /// As [`Request::column`].
    pub fn table_row(&self, m: usize, lps: u64, progress: &mut dyn Progress) -> Result<Row, Error> {
        self.check()?;
        let mut probe = Probe::new(&self.instance(m, 1.0))?;
        let what = format!("m = {m}: Vmax");
        let sweep = {
            let mut report = search::part(progress, 0.0, 0.5, &what);
            search::sweep(&mut probe, self.load_min, self.load_max, 3, &mut report)?
        };
        let best = search::peak(&mut probe, &sweep, self.tolerance)?;
        if !progress.report(0.6, &format!("m = {m}: certifying")) {
            return Err(Error::Cancelled);
        }
        let max = self.certify(m, best.load, &best.round_robin(), lps)?;
        let paper = PAPER
            .iter()
            .find(|row| row.0 == m && self.is_reference())
            .map(|row| [row.1, row.2]);
        let at_paper_load = match paper {
            Some([_, v]) => {
                let p = probe.at(v)?;
                let p = probe.tighten(p)?;
                Some(Certified {
                    load: v,
                    makespan: p.makespan,
                    efficiency: p.efficiency,
                    efficiency_bound: p.efficiency_bound,
                    gap: p.gap,
                    status: if p.gap <= 1e-9 {
                        Status::Optimal
                    } else {
                        Status::StoppedAtLimit
                    },
                    lps: 0,
                })
            }
            None => None,
        };
        Ok(Row {
            machines: m,
            max,
            paper,
            at_paper_load,
        })
    }

    /// Table 1 for the request's machine counts.
    ///
    /// # Errors
    ///
    /// As [`Request::column`].
    pub fn table(&self, progress: &mut dyn Progress) -> Result<Table, Error> {
        self.check()?;
        let lps = self.certify_lps.map_or(DEFAULT_CERTIFY_LPS, |l| l.0);
        let counts: Vec<usize> = self.machine_counts().collect();
        let mut done: Vec<Row> = Vec::new();
        let rows = parallel::each(
            &counts,
            |&m, part| self.table_row(m, lps, part),
            progress,
            |_, row, progress| {
                done.push(row.clone());
                done.sort_by_key(|r| r.machines);
                let so_far = Table {
                    rows: done.clone(),
                    reference: self.is_reference(),
                };
                hand_out::<super::Table1>(&super::TableOutput::of(so_far), progress);
            },
        )?;
        Ok(Table {
            rows,
            reference: self.is_reference(),
        })
    }
}

impl Table {
    /// The table as CSV.
    pub fn csv(&self) -> String {
        let mut out = String::from(
            "machines,emax,vmax,makespan,efficiency_bound,gap,status,paper_emax,paper_vmax,e_at_paper_vmax,bound_at_paper_vmax\n",
        );
        for r in &self.rows {
            let status = serde_json::to_value(r.max.status).ok();
            let status = status.as_ref().and_then(|s| s.as_str()).unwrap_or("");
            let [pe, pv] = r.paper.map_or([String::new(), String::new()], |[e, v]| {
                [e.to_string(), v.to_string()]
            });
            let [ae, ab] = r.at_paper_load.map_or([String::new(), String::new()], |c| {
                [c.efficiency.to_string(), c.efficiency_bound.to_string()]
            });
            out += &format!(
                "{},{},{},{},{},{},{status},{pe},{pv},{ae},{ab}\n",
                r.machines,
                r.max.efficiency,
                r.max.load,
                r.max.makespan,
                r.max.efficiency_bound,
                r.max.gap
            );
        }
        out
    }
}
