//! Charts, drawn with plotters on any backend: a canvas in the page (see the
//! binding module) or an SVG string natively. Each chart has its own module
//! and draws data computed elsewhere; nothing here does mathematics.

mod gantt;
pub mod layout;
mod lines;
mod logical;
pub mod looks;
pub mod place;
pub mod text;
pub mod ticks;

pub use gantt::{draw_gantt, gantt_height, legend_items, slots, Item, Slot, Styles};
pub use lines::draw_lines;
pub use logical::{buffer_size, Logical};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::core::domain::error::Error;
use crate::core::presentation::chart::LineChart;
use crate::core::presentation::gantt::Gantt;

/// Turns a plotters error into ours.
pub(crate) fn drawing<E: std::error::Error + Send + Sync>(
    e: plotters::drawing::DrawingAreaErrorKind<E>,
) -> Error {
    Error::Drawing(e.to_string())
}

/// An SVG document of `width × height` pixels drawn by `draw`.
fn svg(
    width: u32,
    height: u32,
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<(), Error>,
) -> Result<String, Error> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        draw(&root)?;
        root.present().map_err(drawing)?;
    }
    Ok(svg)
}

/// The Gantt chart as an SVG document of `width × height` pixels, its
/// activities drawn in `styles`.
///
/// # Errors
///
/// [`Error::Drawing`] if plotters cannot lay the chart out.
pub fn gantt_svg(gantt: &Gantt, styles: Styles, width: u32, height: u32) -> Result<String, Error> {
    svg(width, height, |area| draw_gantt(area, gantt, styles))
}

/// A line chart as an SVG document of `width × height` pixels.
///
/// # Errors
///
/// [`Error::Drawing`] if plotters cannot lay the chart out.
pub fn lines_svg(chart: &LineChart, width: u32, height: u32) -> Result<String, Error> {
    svg(width, height, |area| draw_lines(area, chart).map(|_| ()))
}
