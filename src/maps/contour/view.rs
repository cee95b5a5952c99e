//! Generalised maps on the page: the form and the summary.

use super::Contour;
use crate::core::domain::schedule::RELATIVE_TOLERANCE;
use crate::core::presentation::form::{Field, Form, Formula as F, Group, Kind, Layout};
use crate::core::presentation::map::Parameter;
use crate::core::presentation::view::{gap, number, Block};

/// The fields of one axis.
fn axis(axis: &'static str, legend: &'static str, suggestions: Vec<(String, String)>) -> Group {
    let [parameter, from, to, steps, log] = match axis {
        "x" => ["x.parameter", "x.from", "x.to", "x.steps", "x.log"],
        _ => ["y.parameter", "y.from", "y.to", "y.steps", "y.log"],
    };
    let [kp, kf, kt, ks, kl] = match axis {
        "x" => ["xp", "xfrom", "xto", "xsteps", "xlog"],
        _ => ["yp", "yfrom", "yto", "ysteps", "ylog"],
    };
    Group::of(
        legend,
        vec![
            Field::new(kp, parameter, "parameter", Kind::Text)
                .help("a parameter of the model, listed above")
                .suggesting(suggestions),
            Field::number(kf, from, "from")
                .help("in the parameter's unit")
                .range("> 0 on a logarithmic axis"),
            Field::number(kt, to, "to")
                .help("in the parameter's unit")
                .range("above from"),
            Field::number(ks, steps, "grid points").range("2 to 200"),
            Field::new(kl, log, "logarithmic", Kind::Check),
        ],
    )
}

/// Every parameter a map may vary, as an axis names it (a row's parameter
/// on the first row), with its meaning, unit and models.
fn suggestions(mapped: &[(&str, Vec<Parameter>)]) -> Vec<(String, String)> {
    let mut list: Vec<(String, String, Vec<&str>)> = Vec::new();
    for (model, parameters) in mapped {
        for p in parameters {
            let value = match p.row_of {
                Some(table) => format!("{table}[0].{}", p.name),
                None => p.name.to_string(),
            };
            match list.iter_mut().find(|(v, ..)| *v == value) {
                Some((_, _, models)) => models.push(model),
                None => list.push((value, p.meaning.to_string(), vec![model])),
            }
        }
    }
    list.into_iter()
        .map(|(value, meaning, models)| (value, format!("{meaning} ({})", models.join(", "))))
        .collect()
}

/// The idea, and the parameters of every model a map may be drawn for.
fn intro(mapped: &[(&str, Vec<Parameter>)]) -> String {
    let mut text = String::from(
        "Lines of equal efficiency, speedup, makespan or energy over any two parameters of a \
         model, the others fixed: as in the model's own tab (<i>Take the inputs of</i> it), or as JSON. The value is computed on a grid and \
         the lines traced by marching squares.",
    );
    for (model, parameters) in mapped {
        let names: Vec<String> = parameters
            .iter()
            .map(|p| format!("<b>{}</b> ({})", p.written(), p.meaning))
            .collect();
        text += &format!(" Parameters of <i>{model}</i>: {}.", names.join(", "));
    }
    text
}

/// The generalised-maps tab, for the models in `mapped`.
pub fn form(mapped: &[(&'static str, Vec<Parameter>)]) -> Form {
    let offered = suggestions(mapped);
    Form {
        tab: "Generalised maps",
        title: "Generalised maps",
        citation: "Drozdowski, DLT from basics to applications, part 5",
        sources: &["drozdowski-basics", "drozdowski-singh-marszalkowski"],
        intro: intro(mapped).into(),
        about: ABOUT,
        groups: vec![
            Group::of(
                "Fixed parameters: a tab's inputs, or its request as JSON:",
                vec![Field::new("base", "base", "the request (JSON)", Kind::Json)
                    .help("take the inputs of a tab (edit them there), or edit the JSON")
                    .from_tabs(mapped.iter().map(|(name, _)| *name).collect())],
            ),
            axis("x", "Across:", offered.clone()),
            axis("y", "Up:", offered),
            Group::of(
                "",
                vec![
                    Field::choice(
                        "q",
                        "quantity",
                        "quantity",
                        &["efficiency", "speedup", "makespan", "energy"],
                    )
                    .help("what the lines are drawn of; energy needs the model's powers"),
                    Field::new("levels", "levels", "levels", Kind::List),
                ],
            ),
        ],
        rows: None,
        fixed: Vec::new(),
        layout: Layout::Report,
        parts: "",
    }
}

impl Contour {
    /// The grid's summary.
    pub fn view(&self) -> Vec<Block> {
        let drawn = self.drawn();
        let on_edge: Vec<String> = drawn
            .iter()
            .zip(&self.lines)
            .filter(|((level, kept), (_, traced))| {
                kept.is_empty() && (!traced.is_empty() || self.touches(*level))
            })
            .map(|((level, _), _)| number(*level))
            .collect();
        let on_edge = match on_edge.as_slice() {
            [] => String::new(),
            [one] => format!(" (level {one} is met only along the grid's edge, not drawn)"),
            many => format!(
                " (levels {} are met only along the grid's edge, not drawn)",
                many.join(", ")
            ),
        };
        let drawn = drawn.iter().filter(|l| !l.1.is_empty()).count();
        let left_out = if self.invalid_cells > 0 {
            format!(
                ", {} cells with invalid parameters left out",
                self.invalid_cells
            )
        } else {
            String::new()
        };
        vec![Block::note(
            "contour-summary",
            format!(
                "{} × {} grid, {drawn} of {} levels drawn{on_edge}{left_out}; largest gap {}.",
                self.x.len(),
                self.y.len(),
                self.lines.len(),
                gap(self.largest_gap)
            ),
        )]
    }

    /// Whether a cell's value is on `level` (within the tolerance that
    /// marching squares takes as on it): a level met on a plateau along the
    /// grid's edge traces no line, yet is met, and the summary says so.
    fn touches(&self, level: f64) -> bool {
        self.values
            .iter()
            .flatten()
            .flatten()
            .any(|&v| (v - level).abs() <= RELATIVE_TOLERANCE * v.abs().max(level.abs()))
    }
}

/// The formulas of the "About the model" panel.
const ABOUT: &[F] = &[
    F::new("a generalised isoline of level <i>c</i>", "the points (<i>X</i>, <i>Y</i>) with <i>Q</i>(<i>X</i>, <i>Y</i>) = <i>c</i>, every other parameter fixed"),
    F::new("how it is traced", "<i>Q</i> on a grid (logarithmic for loads and rates), then marching squares with linear interpolation along cell edges"),
    F::new("quantities", "efficiency, speedup <i>T</i>(1)/<i>T</i>, makespan <i>T</i>, or energy <i>E</i> of the model's fastest schedule"),
];
