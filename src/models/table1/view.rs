//! The Table 1 tab, and the table beside the paper's.

use super::Table;
use crate::core::presentation::form::{Field, Form, Formula as F, Group, Kind, Layout};
use crate::core::presentation::view::{gap, number, Block};
use crate::models::isoefficiency::view::map_groups;

/// The Table 1 tab.
pub fn table_form() -> Form {
    let mut groups = map_groups();
    groups.push(Group::of(
        "",
        vec![
            Field::new("lps", "certify_lps", "LP budget per row", Kind::Optional)
                .placeholder("100")
                .range("1 to 10⁸"),
            Field::new("exactly", "exactly", "exactly n chunks", Kind::Check),
        ],
    ));
    Form {
        tab: "Table 1",
        title: "Maximum efficiency per machine count",
        citation: "Table 1 of the isoefficiency-map paper",
        sources: &["drozdowski-singh-marszalkowski"],
        intro: "For each <i>m</i>: the load <i>V</i><sub>max</sub> of the largest efficiency, \
            found as for the map, then improved and certified by the exact branch and bound \
            within an LP budget. The paper's values were computed with a commercial MIP solver \
            limited to 300 s per solve; for the reference instance they are shown alongside, \
            with our efficiency at the paper's own <i>V</i><sub>max</sub>."
            .into(),
        about: ABOUT_TABLE,
        groups,
        rows: None,
        fixed: vec![("levels", serde_json::json!([1.0]))],
        layout: Layout::PooledTable,
        parts: "machine counts",
    }
}

impl Table {
    /// The table beside the paper's.
    pub fn view(&self) -> Vec<Block> {
        let status = |s: &super::table::Certified| {
            serde_json::to_value(s.status)
                .ok()
                .and_then(|v| v.as_str().map(|t| t.replace('-', " ")))
                .unwrap_or_default()
        };
        let rows = self
            .rows
            .iter()
            .map(|r| {
                let [pe, pv] = r.paper.map_or([String::new(), String::new()], |[e, v]| {
                    [number(e), number(v)]
                });
                let at = r.at_paper_load.map_or(String::new(), |c| {
                    format!(
                        "{} (≤ {})",
                        number(c.efficiency),
                        number(c.efficiency_bound)
                    )
                });
                vec![
                    r.machines.to_string(),
                    number(r.max.efficiency),
                    number(r.max.load),
                    number(r.max.makespan),
                    number(r.max.efficiency_bound),
                    gap(r.max.gap),
                    status(&r.max),
                    pe,
                    pv,
                    at,
                ]
            })
            .collect();
        vec![Block::table(
            "table1-maxima",
            "Maximum efficiency per machine count: ours (certified by the exact search within \
             its LP budget) beside [3] Table 1",
            &[
                "m",
                "Emax",
                "Vmax (MB)",
                "T (s)",
                "E at most",
                "gap",
                "status",
                "[3] Emax",
                "[3] Vmax (MB)",
                "ours at [3] Vmax",
            ],
            rows,
        )]
    }
}

/// The formulas of the "About the model" panel.
const ABOUT_TABLE: &[F] = &[
    F::new("the largest efficiency of <i>m</i> machines", "<i>E</i><sub>max</sub>(<i>m</i>) = max<sub><i>V</i></sub> <i>E</i>(<i>m</i>,<i>n</i>,<i>V</i>), reached at <i>V</i><sub>max</sub>"),
    F::new("efficiency", "<i>E</i>(<i>m</i>,<i>n</i>,<i>V</i>) = <i>T</i>(1,1,<i>V</i>)/(<i>m</i> · <i>T</i>(<i>m</i>,<i>n</i>,<i>V</i>))"),
    F::new("certified", "an upper bound on <i>E</i> at that <i>V</i><sub>max</sub>, from the exact search's lower bound on <i>T</i>; gap = (bound − <i>E</i>)/bound"),
];
