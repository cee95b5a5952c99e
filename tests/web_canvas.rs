//! In a real browser page: the binding module solves the worked example and
//! draws its Gantt chart on a canvas, in the chart's colours.
#![cfg(target_arch = "wasm32")]

use dlt_calc::web;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

wasm_bindgen_test_configure!(run_in_browser);

fn canvas() -> HtmlCanvasElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    canvas.set_width(600);
    canvas.set_height(200);
    document.body().unwrap().append_child(&canvas).unwrap();
    canvas
}

/// How many pixels have exactly this colour.
fn count(canvas: &HtmlCanvasElement, rgb: [u8; 3]) -> usize {
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let data = ctx
        .get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64)
        .unwrap()
        .data();
    data.chunks(4).filter(|p| p[..3] == rgb).count()
}

#[wasm_bindgen_test]
fn draws_the_worked_example_gantt_chart() {
    let request = web::example("hierarchical").unwrap();
    let response = web::run(request, None).unwrap();
    let gantt = js_sys::Reflect::get(&response, &"gantt".into()).unwrap();
    let canvas = canvas();
    assert_eq!(count(&canvas, [46, 139, 87]), 0);
    web::draw_gantt(canvas.clone(), gantt, "hierarchical", 600, 200, 1.0).unwrap();
    // Receive (steel blue), in core (sea green), out of core (indian red).
    for rgb in [[70, 130, 180], [46, 139, 87], [205, 92, 92]] {
        assert!(count(&canvas, rgb) > 300, "too few pixels of {rgb:?}");
    }
}

#[wasm_bindgen_test]
fn draws_the_figure_10_series_on_log_axes() {
    let request = web::example("installments").unwrap();
    let response = web::run(request, None).unwrap();
    let charts: js_sys::Array = js_sys::Reflect::get(&response, &"charts".into())
        .unwrap()
        .into();
    assert_eq!(charts.length(), 1);
    let canvas = canvas();
    web::draw_chart(canvas.clone(), charts.get(0), 600, 200, 1.0).unwrap();
    // The first two lines' colours.
    for rgb in [[31, 119, 180], [214, 39, 40]] {
        assert!(count(&canvas, rgb) > 200, "too few pixels of {rgb:?}");
    }
    let svg = web::chart_svg(charts.get(0), 600, 400).unwrap();
    assert!(svg.starts_with("<svg"));
}

#[wasm_bindgen_test]
fn a_bad_response_is_an_error_not_a_panic() {
    let canvas = canvas();
    let err = web::draw_gantt(
        canvas,
        JsValue::from_str("nonsense"),
        "hierarchical",
        600,
        200,
        1.0,
    );
    assert!(err.is_err());
}

/// Where the pixels of a colour are: their count and the rightmost and
/// lowest pixel holding it.
fn extent(canvas: &HtmlCanvasElement, rgb: [u8; 3]) -> (usize, u32, u32) {
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let (w, h) = (canvas.width(), canvas.height());
    let data = ctx
        .get_image_data(0.0, 0.0, w as f64, h as f64)
        .unwrap()
        .data();
    let mut out = (0, 0, 0);
    for (i, p) in data.chunks(4).enumerate() {
        if p[..3] == rgb {
            let (x, y) = (i as u32 % w, i as u32 / w);
            out = (out.0 + 1, out.1.max(x), out.2.max(y));
        }
    }
    out
}

/// On a screen of `devicePixelRatio` 2 (and at this screen's own ratio) a
/// chart's drawing buffer is its CSS size times the ratio, and the chart
/// fills it: drawn sharper, not smaller in a corner of the buffer.
#[wasm_bindgen_test]
fn charts_are_drawn_at_the_device_pixel_ratio() {
    let request = web::example("hierarchical").unwrap();
    let response = web::run(request, None).unwrap();
    let gantt = js_sys::Reflect::get(&response, &"gantt".into()).unwrap();
    let canvas = canvas();
    canvas.style().set_property("width", "300px").unwrap();
    let shown = canvas.get_bounding_client_rect().width();
    assert_eq!(shown, 300.0);
    let screen = web_sys::window().unwrap().device_pixel_ratio();
    for ratio in [screen, 2.0] {
        web::draw_gantt(
            canvas.clone(),
            gantt.clone(),
            "hierarchical",
            300,
            150,
            ratio,
        )
        .unwrap();
        assert_eq!(canvas.width(), (300.0 * ratio).round() as u32);
        assert_eq!(canvas.height(), (150.0 * ratio).round() as u32);
    }
    // At 2×: four times the pixels of each colour as at 1×, reaching the
    // far side of the buffer.
    let green = [46, 139, 87];
    let (twice, right, _) = extent(&canvas, green);
    web::draw_gantt(canvas.clone(), gantt, "hierarchical", 300, 150, 1.0).unwrap();
    assert_eq!(canvas.width(), 300);
    let (once, right_once, _) = extent(&canvas, green);
    assert!(once > 100, "{once} green pixels at 1×");
    let more = twice as f64 / once as f64;
    assert!((3.0..5.0).contains(&more), "{twice} vs {once} green pixels");
    assert!(
        right > 300 && right.abs_diff(2 * right_once) <= 3,
        "{right} vs {right_once}"
    );
}

/// A line chart's frame is in CSS pixels whatever the ratio, so the
/// pointer reads the same values on every screen.
#[wasm_bindgen_test]
fn a_chart_frame_is_in_css_pixels() {
    let request = web::example("installments").unwrap();
    let response = web::run(request, None).unwrap();
    let charts: js_sys::Array = js_sys::Reflect::get(&response, &"charts".into())
        .unwrap()
        .into();
    let canvas = canvas();
    let once = web::draw_chart(canvas.clone(), charts.get(0), 400, 300, 1.0).unwrap();
    let twice = web::draw_chart(canvas.clone(), charts.get(0), 400, 300, 2.0).unwrap();
    assert_eq!(canvas.width(), 800);
    let px = |f: &JsValue| js_sys::JSON::stringify(&js_sys::Reflect::get(f, &"px".into()).unwrap());
    assert_eq!(px(&once).unwrap(), px(&twice).unwrap());
}
