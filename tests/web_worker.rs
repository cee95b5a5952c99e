//! Inside a dedicated Web Worker, as on the page: requests in, responses and
//! field messages out, progress reported through a JS callback.
#![cfg(target_arch = "wasm32")]

use dlt_calc::web;
use js_sys::{Array, Function, Reflect};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_dedicated_worker);

fn get(v: &JsValue, path: &[&str]) -> JsValue {
    path.iter().fold(v.clone(), |v, k| {
        Reflect::get(&v, &JsValue::from_str(k)).unwrap()
    })
}

#[wasm_bindgen_test]
fn solves_the_worked_example_in_a_worker() {
    let request = web::example("hierarchical").unwrap();
    let response = web::run(request, None).unwrap();
    let makespan = get(&response, &["report", "makespan"]).as_f64().unwrap();
    assert!((makespan - 5.75).abs() < 1e-9);
    let sizes: Array = get(&response, &["report", "sizes"]).into();
    assert!((sizes.get(0).as_f64().unwrap() - 1.25).abs() < 1e-9);
    assert_eq!(get(&response, &["report", "verdict", "ok"]), JsValue::TRUE);
}

#[wasm_bindgen_test]
fn reports_progress_and_can_be_cancelled() {
    let request = web::example("hierarchical").unwrap();
    // Six processors, every order: 720 LPs with progress reports.
    let processors: Array = get(&request, &["processors"]).into();
    let p = processors.get(0);
    for _ in 0..4 {
        processors.push(&p);
    }
    Reflect::set(&request, &"best_order".into(), &JsValue::TRUE).unwrap();
    let calls = Array::new();
    let record =
        Function::new_with_args("done, what", "this.push(done); return true;").bind0(&calls);
    let response = web::run(request.clone(), Some(record)).unwrap();
    assert_eq!(
        get(&response, &["report", "orders_tried"]).as_f64(),
        Some(720.0)
    );
    assert!(
        calls.length() >= 10,
        "only {} progress reports",
        calls.length()
    );

    let stop = Function::new_with_args("done, what", "return false;");
    let err = web::run(request, Some(stop)).unwrap_err();
    let message = Reflect::get(&JsValue::from(err), &"message".into()).unwrap();
    assert_eq!(message.as_string().as_deref(), Some("cancelled"));
}

#[wasm_bindgen_test]
fn bad_fields_come_back_as_messages() {
    let request = web::example("hierarchical").unwrap();
    Reflect::set(&request, &"load".into(), &JsValue::from_f64(f64::NAN)).unwrap();
    let list: Array = web::problems(request.clone()).unwrap().into();
    assert_eq!(list.length(), 1);
    assert_eq!(
        get(&list.get(0), &["field"]).as_string().as_deref(),
        Some("load")
    );
    assert_eq!(
        get(&list.get(0), &["message"]).as_string().as_deref(),
        Some("must be a finite number")
    );
    let err = web::run(request, None).unwrap_err();
    let message = Reflect::get(&JsValue::from(err), &"message".into()).unwrap();
    assert_eq!(
        message.as_string().as_deref(),
        Some("load: must be a finite number")
    );

    let list: Array = web::problems(JsValue::from_str("nonsense")).unwrap().into();
    assert!(get(&list.get(0), &["message"])
        .as_string()
        .unwrap()
        .starts_with("malformed input"));
}
