//! The binding module: the only code that knows about JavaScript. It
//! converts values with serde-wasm-bindgen, calls [`crate::api`], and
//! draws charts on canvases with plotters-canvas. Errors become `JsError`s
//! whose message is the crate's own lowercase text.

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use crate::api::{self, FieldProblem, Request};
use crate::core::domain::error::{shorten, Error};
use crate::core::presentation::chart::{Frame, LineChart};
use crate::core::presentation::gantt::Gantt;
use crate::core::presentation::response::Response;
use crate::core::solving::progress::Progress;
use crate::core::solving::progress::Silent;
use crate::plot::{self, Logical};
use crate::registry;

#[wasm_bindgen(start)]
fn start() {
    console_error_panic_hook::set_once();
}

fn js_error(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// Plain JS objects and arrays, as JSON would give, never `Map`s.
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(js_error)
}

fn request_of(value: JsValue) -> Result<Request, Error> {
    let value: serde_json::Value =
        serde_wasm_bindgen::from_value(value).map_err(|e| Error::Malformed(e.to_string()))?;
    Request::from_value(value)
}

/// Calls `on_progress(done, what)`; a listener that fails or returns
/// anything but `false` lets the computation go on.
fn call_progress(f: &js_sys::Function, done: f64, what: &str) -> bool {
    f.call2(
        &JsValue::NULL,
        &JsValue::from_f64(done),
        &JsValue::from_str(what),
    )
    .map(|r| r.as_bool() != Some(false))
    .unwrap_or(true)
}

/// Progress and partial answers passed on to JavaScript callbacks.
struct Callbacks {
    progress: Option<js_sys::Function>,
    partial: Option<js_sys::Function>,
}

impl Progress for Callbacks {
    fn report(&mut self, done: f64, what: &str) -> bool {
        self.progress
            .as_ref()
            .is_none_or(|f| call_progress(f, done, what))
    }

    fn partial(&mut self, response: &Response) {
        if let (Some(f), Ok(v)) = (&self.partial, to_js(&response.for_page())) {
            // A failing listener must not stop the computation.
            let _ = f.call1(&JsValue::NULL, &v);
        }
    }
}

/// Runs a request (a plain object as in the CLI's JSON) and returns the
/// response object. `on_progress(done, what)` is called now and then during
/// long computations; returning `false` cancels.
#[wasm_bindgen]
pub fn run(request: JsValue, on_progress: Option<js_sys::Function>) -> Result<JsValue, JsError> {
    let request = request_of(request).map_err(js_error)?;
    let mut callbacks = Callbacks {
        progress: on_progress,
        partial: None,
    };
    let response = api::run(&request, &mut callbacks).map_err(js_error)?;
    to_js(&response.for_page())
}

/// Like [`run`], with `on_partial(response)` called with each provisional
/// answer (a map with its first lines, M5's best schedule so far).
#[wasm_bindgen(js_name = runWithPartials)]
pub fn run_with_partials(
    request: JsValue,
    on_progress: js_sys::Function,
    on_partial: js_sys::Function,
) -> Result<JsValue, JsError> {
    let request = request_of(request).map_err(js_error)?;
    let mut callbacks = Callbacks {
        progress: Some(on_progress),
        partial: Some(on_partial),
    };
    let response = api::run(&request, &mut callbacks).map_err(js_error)?;
    to_js(&response.for_page())
}

/// Every invalid field of a request, as `[{field, message}]` (empty when
/// valid). A request that cannot be read at all gives one entry.
#[wasm_bindgen]
pub fn problems(request: JsValue) -> Result<JsValue, JsError> {
    let list = match request_of(request) {
        Ok(r) => r.problems(),
        Err(e) => vec![FieldProblem::from(&e)],
    };
    to_js(&list)
}

/// A row of a model's table (`{column: text}`) after the user changed
/// `column`, with the cells that change fills in (a mode its wake-up time
/// and sleep power).
#[wasm_bindgen(js_name = fillRow)]
pub fn fill_row(model: &str, column: &str, row: JsValue) -> Result<JsValue, JsError> {
    let row = from_js(row)?;
    to_js(&api::fill_row(model, column, row).map_err(js_error)?)
}

/// A built-in example request by name.
#[wasm_bindgen]
pub fn example(name: &str) -> Result<JsValue, JsError> {
    let request =
        Request::example(name).ok_or_else(|| js_error(format!("no example named {name:?}")))?;
    to_js(&request.to_json())
}

fn from_js<T: serde::de::DeserializeOwned>(value: JsValue) -> Result<T, JsError> {
    serde_wasm_bindgen::from_value(value).map_err(js_error)
}

/// Draws on `canvas` laid out at `width × height` CSS pixels, its drawing
/// buffer `ratio` device pixels per CSS pixel (the screen's
/// `devicePixelRatio`, times the page's text scale), so that a chart is as
/// sharp as the screen and the same size on every screen.
fn on_canvas(
    canvas: HtmlCanvasElement,
    (width, height): (u32, u32),
    ratio: f64,
    draw: impl FnOnce(
        &plotters::drawing::DrawingArea<Logical<CanvasBackend>, plotters::coord::Shift>,
    ) -> Result<(), Error>,
) -> Result<(), JsError> {
    let ((w, h), (sx, sy)) = plot::buffer_size((width, height), ratio);
    canvas.set_width(w);
    canvas.set_height(h);
    let context: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into().ok())
        .ok_or_else(|| js_error("the canvas has no 2d context"))?;
    context
        .set_transform(sx, 0.0, 0.0, sy, 0.0, 0.0)
        .map_err(|_| js_error("the canvas cannot be scaled"))?;
    let inner = CanvasBackend::with_canvas_object(canvas)
        .ok_or_else(|| js_error("the canvas has no 2d context"))?;
    let size = (width.max(1), height.max(1));
    let root = Logical { inner, size }.into_drawing_area();
    draw(&root).map_err(js_error)?;
    root.present().map_err(|e| js_error(plot::drawing(e)))
}

/// Draws a Gantt chart (a response's `gantt`) of model `model` on a canvas
/// laid out at `width × height` CSS pixels, at `ratio` device pixels per
/// CSS pixel.
#[wasm_bindgen(js_name = drawGantt)]
pub fn draw_gantt(
    canvas: HtmlCanvasElement,
    gantt: JsValue,
    model: &str,
    width: u32,
    height: u32,
    ratio: f64,
) -> Result<(), JsError> {
    let gantt: Gantt = from_js(gantt)?;
    let styles = api::gantt_styles(model);
    on_canvas(canvas, (width, height), ratio, |area| {
        plot::draw_gantt(area, &gantt, &styles)
    })
}

/// The height in CSS pixels a Gantt chart of model `model` needs at
/// `width` CSS pixels.
#[wasm_bindgen(js_name = ganttHeight)]
pub fn gantt_height(gantt: JsValue, model: &str, width: u32) -> Result<u32, JsError> {
    let gantt: Gantt = from_js(gantt)?;
    let styles = api::gantt_styles(model);
    Ok(plot::gantt_height(&gantt, &styles, width))
}

/// A Gantt chart of model `model` as an SVG document (for export).
#[wasm_bindgen(js_name = ganttSvg)]
pub fn gantt_svg(gantt: JsValue, model: &str, width: u32, height: u32) -> Result<String, JsError> {
    let gantt: Gantt = from_js(gantt)?;
    let styles = api::gantt_styles(model);
    plot::gantt_svg(&gantt, &styles, width, height).map_err(js_error)
}

/// Draws a line chart (one of a response's `charts`) on a canvas laid out
/// at `width × height` CSS pixels, at `ratio` device pixels per CSS pixel;
/// returns its frame in CSS pixels (for [`chart_value_at`]), or `null`
/// when nothing was drawn. The canvas's `data-labels` attribute is set to
/// the labels drawn, as [`chart_labels`] gives them (for tests and tools
/// that check the picture).
#[wasm_bindgen(js_name = drawChart)]
pub fn draw_chart(
    canvas: HtmlCanvasElement,
    chart: JsValue,
    width: u32,
    height: u32,
    ratio: f64,
) -> Result<JsValue, JsError> {
    let chart: LineChart = from_js(chart)?;
    let mut laid = None;
    on_canvas(canvas.clone(), (width, height), ratio, |area| {
        laid = plot::draw_lines(area, &chart)?;
        Ok(())
    })?;
    let labels = laid.as_ref().map_or(&[][..], |l| &l.labels[..]);
    let json = serde_json::to_string(labels).map_err(js_error)?;
    canvas
        .set_attribute("data-labels", &json)
        .map_err(|_| js_error("the canvas takes no attribute"))?;
    to_js(&laid.map(|l| l.frame))
}

/// The labels of a line chart laid out at `width × height` CSS pixels, in
/// CSS pixels: `[{text, line, rect: {x0, y0, x1, y1}, anchor: [x, y],
/// end: [x, y]}]`, each label's box `rect` written beside the point
/// `anchor` of line `line` (the line's `end`, or a point back along the
/// line when the end had no room). Labels with no room are left out.
#[wasm_bindgen(js_name = chartLabels)]
pub fn chart_labels(chart: JsValue, width: u32, height: u32) -> Result<JsValue, JsError> {
    let chart: LineChart = from_js(chart)?;
    let labels = plot::layout::layout(&chart, width, height).map_or_else(Vec::new, |l| l.labels);
    to_js(&labels)
}

/// The data coordinates `[x, y]` at a pixel of a drawn chart, or `null`
/// outside its plotting area.
#[wasm_bindgen(js_name = chartValueAt)]
pub fn chart_value_at(frame: JsValue, px: f64, py: f64) -> Result<JsValue, JsError> {
    let frame: Frame = from_js(frame)?;
    to_js(&frame.value_at(px, py))
}

/// Every tab of the page: `[{model, form, presets}]`, in the registry's
/// order (the page builds its tabs and forms from these).
#[wasm_bindgen]
pub fn tabs() -> Result<JsValue, JsError> {
    to_js(&api::tabs())
}

/// Every exercise a sheet may list: `[{id, title, model, source}]`.
#[wasm_bindgen(js_name = exerciseKinds)]
pub fn exercise_kinds() -> Result<JsValue, JsError> {
    to_js(&api::exercise_kinds())
}

/// Checks a typed answer against an exercise's `answer` (from a sheet's
/// response): `{status: "right" | "wrong" | "unreadable", message}`.
#[wasm_bindgen(js_name = checkAnswer)]
pub fn check_answer(answer: JsValue, typed: &str) -> Result<JsValue, JsError> {
    let answer: serde_json::Value = from_js(answer)?;
    to_js(&api::check_answer(answer, typed).map_err(js_error)?)
}

/// The parts of a request a page computes apart, one per worker (an empty
/// list when it is one piece of work).
#[wasm_bindgen]
pub fn split(request: JsValue) -> Result<JsValue, JsError> {
    let request = request_of(request).map_err(js_error)?;
    to_js(&request.split().map_err(js_error)?)
}

/// The answer to a request from the answers to its parts (all, or those
/// ready so far), as [`run`] would give it.
#[wasm_bindgen]
pub fn join(request: JsValue, parts: JsValue) -> Result<JsValue, JsError> {
    let request = request_of(request).map_err(js_error)?;
    let parts: Vec<serde_json::Value> = from_js(parts)?;
    to_js(&request.join(parts).map_err(js_error)?.for_page())
}

/// The model that gave a response, and the response without its tag.
fn answer_of(
    response: JsValue,
) -> Result<
    (
        &'static dyn crate::core::framework::entry::Entry,
        serde_json::Value,
    ),
    JsError,
> {
    let value: serde_json::Value = from_js(response)?;
    let model = value
        .get("model")
        .and_then(|m| m.as_str())
        .ok_or_else(|| js_error("a response must name its model"))?;
    let entry = registry::find(model)
        .ok_or_else(|| js_error(format!("no model named {:?}", shorten(model))))?;
    Ok((entry, value))
}

/// Checks a schedule of the user's own (JSON text) against `request` and
/// the `answer` shown for it: every broken rule, the schedule's makespan
/// (and energy), its distance from the answer, and all of it in words.
#[wasm_bindgen(js_name = checkSchedule)]
pub fn check_schedule(
    request: JsValue,
    schedule: &str,
    answer: JsValue,
) -> Result<JsValue, JsError> {
    let request = request_of(request).map_err(js_error)?;
    let answer: serde_json::Value = from_js(answer)?;
    let checked = api::check_schedule(&request, schedule, Some(answer), &mut Silent);
    to_js(&checked.map_err(js_error)?)
}

/// A response's charts drawn with the page's view options (e.g. the map's
/// overlays), without computing anything again.
#[wasm_bindgen]
pub fn charts(response: JsValue, options: JsValue) -> Result<JsValue, JsError> {
    let (entry, value) = answer_of(response)?;
    let options: serde_json::Value = from_js(options)?;
    to_js(&entry.page().charts(value, &options).map_err(js_error)?)
}

/// The read-out of one answer under the pointer: built once per answer, so
/// that moving the pointer reads no JSON.
#[wasm_bindgen]
pub struct Pointer {
    lookup: registry::Lookup,
}

#[wasm_bindgen]
impl Pointer {
    /// The read-out of `response`.
    #[wasm_bindgen(constructor)]
    pub fn new(response: JsValue) -> Result<Pointer, JsError> {
        let (entry, value) = answer_of(response)?;
        let lookup = entry.page().lookup(value).map_err(js_error)?;
        Ok(Pointer { lookup })
    }

    /// What lies at chart coordinates `(x, y)`, in words, or `undefined`.
    pub fn at(&self, x: f64, y: f64) -> Option<String> {
        (self.lookup)(x, y)
    }
}

/// A response (of any model, e.g. Table 1's rows joined from several
/// workers) as CSV, or `null` for responses that are not tables.
#[wasm_bindgen(js_name = responseCsv)]
pub fn response_csv(response: JsValue) -> Result<Option<String>, JsError> {
    let (entry, value) = answer_of(response)?;
    entry.page().csv(value).map_err(js_error)
}

/// A line chart as an SVG document (for export).
#[wasm_bindgen(js_name = chartSvg)]
pub fn chart_svg(chart: JsValue, width: u32, height: u32) -> Result<String, JsError> {
    let chart: LineChart = from_js(chart)?;
    plot::lines_svg(&chart, width, height).map_err(js_error)
}

/// The works the tabs cite, in the order of the page's bibliography.
#[wasm_bindgen]
pub fn bibliography() -> Result<JsValue, JsError> {
    to_js(&crate::core::domain::bibliography::WORKS)
}

/// The build's identity (a hash of its sources, set by `make build`; `dev`
/// otherwise): the page keeps long answers per build, so a new build never
/// shows an older one's.
#[wasm_bindgen(js_name = buildId)]
pub fn build_id() -> String {
    option_env!("DLT_BUILD").unwrap_or("dev").to_string()
}

/// `text` with its numbers written for reading (four significant digits,
/// thin spaces, engineering exponents); see [`crate::core::domain::number::readable`].
#[wasm_bindgen]
pub fn readable(text: &str) -> String {
    crate::core::domain::number::readable(text)
}

/// The calculator's version.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
