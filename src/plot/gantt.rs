//! The Gantt chart: one row per machine, time across. What is shown (the
//! rows, the marks where machines are left out, the legend's entries in
//! rows) is decided by the pure functions below; the drawing paints it.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::drawing;
use super::layout::{ticks, Ticks};
use super::text::{text_height, text_width, Fonts};
use crate::core::domain::error::Error;
use crate::core::presentation::chart::Axis;
use crate::core::presentation::gantt::{
    slowdown_colour, Activity, ActivityStyle, Gantt, Shade, SLOWDOWN_SCALE, TIME_UNIT,
};

/// How the chart draws each activity: the shared kinds' styles, then the
/// model's own (the binding module and the command line look it up).
pub type Styles<'a> = &'a dyn Fn(&Activity) -> ActivityStyle;

/// A colour: red, green, blue.
type Rgb = (u8, u8, u8);

/// A colour of a style as the backend takes it.
fn rgb((r, g, b): (u8, u8, u8)) -> RGBColor {
    RGBColor(r, g, b)
}

/// One row of the chart, top to bottom: a machine's, or a mark where
/// machines are left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slot {
    /// The gantt's row of this index.
    Row(usize),
    /// The words of a gap (`… 976 mappers not shown`).
    Gap(String),
}

/// The chart's rows top to bottom, with a mark at every gap.
pub fn slots(gantt: &Gantt) -> Vec<Slot> {
    let mut out = Vec::with_capacity(gantt.rows.len() + gantt.gaps.len());
    for i in 0..=gantt.rows.len() {
        for gap in gantt.gaps.iter().filter(|g| g.before == i) {
            out.push(Slot::Gap(format!(
                "… {} {} not shown",
                gap.hidden, gap.noun
            )));
        }
        if i < gantt.rows.len() {
            out.push(Slot::Row(i));
        }
    }
    out
}

/// One legend item: a swatch (if any) and words, at its top left pixel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The swatch's colour; `None`: words only.
    pub swatch: Option<(u8, u8, u8)>,
    /// The words.
    pub text: String,
    /// The item's top left pixel.
    pub at: (i32, i32),
}

/// The height of a legend row.
const LEGEND_ROW: i32 = 22;

/// The legend's items in rows across a canvas `width` pixels wide (one
/// per legend text of the activities drawn, then the slowdown scale when
/// chunks are shaded by it), and the legend's height.
pub fn legend_items(gantt: &Gantt, styles: Styles, width: i32, font: u32) -> (Vec<Item>, i32) {
    let bars = || gantt.rows.iter().flat_map(|r| &r.bars);
    let mut seen: Vec<ActivityStyle> = Vec::new();
    for b in bars() {
        let style = styles(&b.activity);
        if !seen.iter().any(|s| s.legend == style.legend) {
            seen.push(style);
        }
    }
    // Stable: entries of one rank keep the order they first occur in.
    seen.sort_by_key(|s| s.order);
    let mut words: Vec<(Option<Rgb>, String)> = seen
        .iter()
        .map(|s| (Some(s.swatch), s.legend.to_string()))
        .collect();
    let shaded = bars().any(|b| matches!(b.activity.shade, Some(Shade::SlowdownPercent(_))));
    if shaded {
        words.push((None, "slowdown:".into()));
        for (k, p) in SLOWDOWN_SCALE.iter().enumerate() {
            let last = if k + 1 == SLOWDOWN_SCALE.len() {
                "≥ "
            } else {
                ""
            };
            words.push((Some(slowdown_colour(*p)), format!("{last}×{}", p / 100)));
        }
    }
    let (mut x, mut y, mut items) = (8, 6, Vec::new());
    for (swatch, text) in words {
        let w = i32::from(swatch.is_some()) * 19 + text_width(&text, font) + 12;
        if x > 8 && x + w > width - 8 {
            x = 8;
            y += LEGEND_ROW;
        }
        items.push(Item {
            swatch,
            text,
            at: (x, y),
        });
        x += w;
    }
    (items, y + LEGEND_ROW)
}

/// The height in pixels a chart of `gantt` needs on a canvas `width`
/// pixels wide: its legend's rows, 40 pixels per row (and per gap mark) and
/// the time axis.
pub fn gantt_height(gantt: &Gantt, styles: Styles, width: u32) -> u32 {
    let fonts = Fonts::for_width(width);
    let legend = legend_items(gantt, styles, width as i32, fonts.legend).1;
    let rows = slots(gantt).len().max(1) as u32;
    legend.max(0) as u32 + 40 * rows.min(1000) + 80
}

/// The time ticks across a plot `plot_width` pixels wide.
fn time_ticks(horizon: f64, plot_width: i32, font: u32) -> Ticks {
    let axis = Axis::linear(&format!("time ({TIME_UNIT})"));
    let mut hint = 10;
    loop {
        let t = ticks(&axis, [0.0, horizon], hint);
        let wide = t
            .labels
            .iter()
            .map(|l| text_width(l, font))
            .max()
            .unwrap_or(0);
        if hint <= 2 || t.values.len() as i32 * (wide + 12) <= plot_width {
            return t;
        }
        hint -= 1;
    }
}

/// Draws `gantt` on `area`: a legend on top, the chart below.
///
/// # Errors
///
/// [`Error::Drawing`] if the backend fails.
pub fn draw_gantt<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    gantt: &Gantt,
    styles: Styles,
) -> Result<(), Error> {
    area.fill(&WHITE).map_err(drawing)?;
    let (width, _) = area.dim_in_pixel();
    let fonts = Fonts::for_width(width);
    let (items, legend_height) = legend_items(gantt, styles, width as i32, fonts.legend);
    draw_legend(area, &items, fonts.legend)?;
    let (_, body) = area.split_vertically(legend_height);
    let slots = slots(gantt);
    let n = slots.len().max(1);
    // A horizon plotters cannot tick (none, or beyond 10³⁰⁶) is drawn as 1.
    let horizon = if gantt.horizon > 0.0 && gantt.horizon <= 1e306 {
        gantt.horizon
    } else {
        1.0
    };
    let label_width = gantt
        .rows
        .iter()
        .map(|r| text_width(&r.label, fonts.tick))
        .max()
        .unwrap_or(0)
        + 14;
    let right = 16;
    let x_ticks = time_ticks(horizon, width as i32 - label_width - right, fonts.tick);
    let mut chart = ChartBuilder::on(&body)
        .margin_right(right)
        .margin_bottom(4)
        .x_label_area_size(text_height(fonts.tick) + text_height(fonts.axis) + 12)
        .y_label_area_size(label_width)
        .build_cartesian_2d(0.0..horizon, -0.5..n as f64 - 0.5)
        .map_err(drawing)?;
    let label = |y: &f64| slot_label(gantt, &slots, *y);
    chart
        .configure_mesh()
        .disable_y_mesh()
        .y_labels(n.min(60))
        .y_label_formatter(&label)
        .x_labels(x_ticks.hint)
        .x_label_formatter(&|v| x_ticks.label_of(*v))
        .x_desc(format!("time ({TIME_UNIT})"))
        .axis_desc_style(("sans-serif", fonts.axis))
        .label_style(("sans-serif", fonts.tick))
        .draw()
        .map_err(drawing)?;
    draw_slots(&mut chart, gantt, &slots, styles, fonts)
}

/// The row label at slot coordinate `y` (slots counted from the bottom).
fn slot_label(gantt: &Gantt, slots: &[Slot], y: f64) -> String {
    let r = y.round();
    if (y - r).abs() > 1e-6 || r < 0.0 || r as usize >= slots.len() {
        return String::new();
    }
    match &slots[slots.len() - 1 - r as usize] {
        Slot::Row(i) => gantt.rows[*i].label.clone(),
        Slot::Gap(_) => "⋮".into(),
    }
}

/// Each machine's bars, and each gap's words.
fn draw_slots<DB, CT>(
    chart: &mut ChartContext<'_, DB, CT>,
    gantt: &Gantt,
    slots: &[Slot],
    styles: Styles,
    fonts: Fonts,
) -> Result<(), Error>
where
    DB: DrawingBackend,
    CT: CoordTranslate<From = (f64, f64)>,
{
    let n = slots.len();
    for (k, slot) in slots.iter().enumerate() {
        let y = (n - 1 - k) as f64;
        let row = match slot {
            Slot::Row(i) => &gantt.rows[*i],
            Slot::Gap(words) => {
                let font = TextStyle::from(("sans-serif", fonts.tick).into_font())
                    .color(&RGBColor(90, 90, 90))
                    .pos(Pos::new(HPos::Left, VPos::Center));
                chart
                    .draw_series(std::iter::once(Text::new(words.clone(), (0.0, y), font)))
                    .map_err(drawing)?;
                continue;
            }
        };
        let bars = row.bars.iter().map(|b| {
            let colour = rgb(styles(&b.activity).colour);
            Rectangle::new([(b.start, y - 0.35), (b.end, y + 0.35)], colour.filled())
        });
        chart.draw_series(bars).map_err(drawing)?;
        let outlines = row
            .bars
            .iter()
            .map(|b| Rectangle::new([(b.start, y - 0.35), (b.end, y + 0.35)], BLACK.mix(0.35)));
        chart.draw_series(outlines).map_err(drawing)?;
    }
    Ok(())
}

/// The legend's items.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    items: &[Item],
    font: u32,
) -> Result<(), Error> {
    for item in items {
        let (mut x, y) = item.at;
        if let Some(colour) = item.swatch {
            area.draw(&Rectangle::new(
                [(x, y + 2), (x + 14, y + 16)],
                rgb(colour).filled(),
            ))
            .map_err(drawing)?;
            x += 19;
        }
        let style = TextStyle::from(("sans-serif", font).into_font())
            .pos(Pos::new(HPos::Left, VPos::Center));
        area.draw(&Text::new(item.text.clone(), (x, y + 9), style))
            .map_err(drawing)?;
    }
    Ok(())
}
