//! The map and Table 1 on the page: forms, layouts, the read-out under
//! the pointer.

use super::{Map, Request};
use crate::core::domain::count::Count;
use crate::core::presentation::form::{Field, Form, Formula as F, Group, Kind, Layout};
use crate::core::presentation::view::{gap, number, Block};
use crate::models::startup::model_groups;

/// The fields the map and Table 1 share.
pub(crate) fn map_groups() -> Vec<Group> {
    let mut groups = model_groups(true);
    groups.push(Group::of(
        "",
        vec![
            Field::number("from", "machines_from", "machines <i>m</i> from").range("2 to 64"),
            Field::number("to", "machines_to", "to").range("2 to 64"),
            Field::number("vmin", "load_min", "loads from")
                .unit("MB")
                .range("> 0"),
            Field::number("vmax", "load_max", "to")
                .unit("MB")
                .range("above the first, at most 10²⁰ times it"),
            Field::number("tol", "tolerance", "load tolerance")
                .help("a load bracket narrower than this stops narrowing")
                .unit("MB")
                .range("> 0"),
        ],
    ));
    groups
}

/// The map tab.
pub fn map_form() -> Form {
    let mut groups = map_groups();
    groups.push(Group::of(
        "",
        vec![
            Field::new("levels", "levels", "efficiency levels", Kind::List).range("each > 0"),
            Field::new("lps", "certify_lps", "LP budget per point", Kind::Optional)
                .placeholder("1000")
                .range("1 to 10⁸"),
            Field::new("exactly", "exactly", "exactly n chunks", Kind::Check),
            Field::new(
                "overlays",
                "overlays",
                "show the estimates (13) and (15) of [3]",
                Kind::View,
            ),
        ],
    ));
    Form {
        tab: "Isoefficiency map",
        title: "Isoefficiency map",
        citation: "M6; Drozdowski, Singh &amp; Marszałkowski, isoefficiency maps",
        sources: &["drozdowski-singh-marszalkowski", "drozdowski-basics"],
        intro: "Each line joins the loads <i>V</i> at which <i>m</i> machines reach efficiency \
            <i>e</i> = <i>T</i>(1,1,<i>V</i>)/(<i>m·T</i>(<i>m</i>,<i>n</i>,<i>V</i>)) in the \
            start-up model; <i>m</i> is discrete, so lines are steps. For every <i>m</i> the \
            efficiency has one maximum (the line MAX); each level has one load below it and, for \
            <i>e</i> ≥ 1, one above. Loads are found to the tolerance by probing the best \
            round-robin schedule, and every point carries its proven gap. Machine counts are \
            shared among one worker per core, and lines appear as they are computed. The dashed \
            estimates are the bounds (13) below MAX and the approximation (15) above it."
            .into(),
        about: ABOUT_MAP,
        groups,
        rows: None,
        fixed: Vec::new(),
        layout: Layout::PooledMap,
        parts: "machine counts",
    }
}

/// One request per machine count, for the page's workers.
pub fn per_machine_count(request: &Request) -> Vec<Request> {
    request
        .machine_counts()
        .map(|m| Request {
            machines_from: Count::from(m),
            machines_to: Count::from(m),
            ..request.clone()
        })
        .collect()
}

impl Map {
    /// The summary and the table of columns.
    pub fn view(&self) -> Vec<Block> {
        let rows = self
            .columns
            .iter()
            .map(|c| {
                vec![
                    c.machines.to_string(),
                    number(c.max.efficiency),
                    number(c.max.load),
                    number(c.max.efficiency_bound),
                    gap(c.largest_gap),
                    c.below.len().to_string(),
                    c.above.len().to_string(),
                    c.lps.to_string(),
                ]
            })
            .collect();
        vec![
            Block::note(
                "isoefficiency-summary",
                format!(
                    "{} machine counts, {} levels; largest gap of any point {}.",
                    self.columns.len(),
                    self.levels.len(),
                    gap(self.largest_gap)
                ),
            ),
            Block::table(
                "isoefficiency-columns",
                "Per machine count: MAX line, its proven bound, and the number of points found",
                &[
                    "m",
                    "Emax",
                    "Vmax (MB)",
                    "E at most",
                    "largest gap",
                    "lines below",
                    "lines above",
                    "LPs",
                ],
                rows,
            ),
        ]
    }

    /// What is under the pointer at `(m, V)`: the nearest point, in words.
    pub fn point_text(&self, machines: f64, load: f64) -> Option<String> {
        let near = self.nearest(machines, load)?;
        let which = if near.kind == "max" {
            "MAX".to_string()
        } else {
            format!("line {}, {} Vmax", number(near.level), near.kind)
        };
        Some(format!(
            "m = {}, V = {}: E = {} ({which}; gap {})",
            near.machines,
            number(near.point.load),
            number(near.point.efficiency),
            gap(near.point.gap)
        ))
    }
}

/// The formulas of the "About the model" panel.
const ABOUT_MAP: &[F] = &[
    F::new("efficiency of the start-up model", "<i>E</i>(<i>m</i>,<i>n</i>,<i>V</i>) = <i>T</i>(1,1,<i>V</i>)/(<i>m</i> · <i>T</i>(<i>m</i>,<i>n</i>,<i>V</i>))"),
    F::new("an isoefficiency line of level <i>e</i>", "the loads <i>V</i> with <i>E</i>(<i>m</i>,<i>n</i>,<i>V</i>) = <i>e</i>, one below <i>V</i><sub>max</sub> and (for <i>e</i> ≥ 1) one above, found by bisection to the tolerance"),
    F::new("the bounds (13), below <i>V</i><sub>max</sub>", "(<i>S</i> + <i>O</i> + <i>CV</i> + <i>a′V</i>)/(<i>mS</i> + <i>nmO</i> + <i>mCV</i> + <i>a</i><sub>1</sub><i>V</i>) ≤ <i>E</i> ≤ (<i>S</i> + <i>O</i> + <i>CV</i> + <i>a′V</i>)/(<i>mS</i> + <i>mO</i> + <i>a</i><sub>1</sub><i>V</i>), <i>a′V</i> = max{<i>a</i><sub>1</sub><i>V</i>, <i>a</i><sub>2</sub><i>V</i> + <i>b</i><sub>2</sub>}"),
    F::new("the approximation (15), above <i>V</i><sub>max</sub>", "<i>I</i>(<i>e</i>,<i>m</i>,<i>n</i>) ≈ [<i>b</i><sub>2</sub>(<i>en</i> − 1) + <i>S</i>(<i>em</i> − 1) + <i>O</i>(<i>en</i> − 1)]/[(<i>C</i> + <i>a</i><sub>2</sub>)(1 − <i>e</i>)]"),
];
