//! Generalised maps on the page: the form and the summary.

use super::Contour;
use crate::core::form::{Field, Form, Group, Kind, Layout};
use crate::core::view::{percent, Block};

/// The fields of one axis.
fn axis(axis: &'static str, legend: &'static str) -> Group {
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
            Field::new(kp, parameter, "parameter", Kind::Text),
            Field::number(kf, from, "from"),
            Field::number(kt, to, "to"),
            Field::number(ks, steps, "grid points"),
            Field::new(kl, log, "logarithmic", Kind::Check),
        ],
    )
}

/// The generalised-maps tab.
pub fn form() -> Form {
    Form {
        id: "gmap",
        prefix: "g.",
        tab: "Generalised maps",
        title: "Generalised maps",
        citation: "Drozdowski, DLT from basics to applications, part 5",
        intro: "Lines of equal efficiency, speedup, makespan or energy over any two parameters \
            of a model, the others fixed (edit the model's JSON). The value is computed on a grid \
            and the lines traced by marching squares. Parameters of linear DLT: machines, load, \
            compute (<i>A</i>), rate (<i>C</i>), startup (<i>S</i>), processor_power, \
            network_power, idle_factor (<i>k</i>); of the start-up model: machines, chunks, load, \
            a1, a2, b2, rate, overhead, startup, ram (the usable RAM ρ, set through b2).",
        groups: vec![
            Group::of(
                "Fixed parameters (JSON of the model):",
                vec![Field::new("base", "base", "model", Kind::Json)],
            ),
            axis("x", "Across:"),
            axis("y", "Up:"),
            Group::of(
                "",
                vec![
                    Field::new(
                        "q",
                        "quantity",
                        "quantity (efficiency, speedup, makespan, energy)",
                        Kind::Text,
                    ),
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
        let drawn = self.lines.iter().filter(|l| !l.1.is_empty()).count();
        let left_out = if self.invalid_cells > 0 {
            format!(
                ", {} cells with invalid parameters left out",
                self.invalid_cells
            )
        } else {
            String::new()
        };
        vec![Block::note(
            "gmap-summary",
            format!(
                "{} × {} grid, {drawn} of {} levels drawn{left_out}; largest gap {}.",
                self.x.len(),
                self.y.len(),
                self.lines.len(),
                percent(self.largest_gap)
            ),
        )]
    }
}
