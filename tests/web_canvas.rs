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
    web::draw_gantt(canvas.clone(), gantt, "hierarchical").unwrap();
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
    web::draw_chart(canvas.clone(), charts.get(0)).unwrap();
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
    let err = web::draw_gantt(canvas, JsValue::from_str("nonsense"), "hierarchical");
    assert!(err.is_err());
}
