//! Measured parameters into the models' requests: every model that reads
//! them offers a request that is valid and solves, holds the measured
//! numbers where its fields are, and says which it filled.

use dlt_calc::api::{run, Request};
use dlt_calc::core::domain::processing::{Level, ProcessingTime};
use dlt_calc::core::framework::calibration::{Calibration, Fitted, Latency, Offer, Powers};
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::models::fit;
use dlt_calc::registry::Models;
use serde_json::Value;

/// A machine with everything measured: the reference machine's two levels
/// (`[3]`), a link, powers and a hibernation power.
fn measured(name: &str, rate: f64) -> Fitted {
    let mut power = Powers {
        compute: Some(130.0),
        network: Some(90.0),
        idle: Some(73.0),
        ..Powers::default()
    };
    power.sleep.insert("hibernate".into(), 6.3);
    Fitted {
        machine: name.into(),
        rate: Some(rate),
        latency: Some(0.02),
        latency_as: Latency::Overhead,
        compute: Some(0.02),
        levels: Some(ProcessingTime::new(vec![
            Level::new(0.0, 0.0112),
            Level::new(-135.0, 0.0312),
        ])),
        power,
    }
}

fn offers(calibration: &Calibration) -> Vec<Offer> {
    fit::offers::<Models>(calibration)
}

/// The number at a JSON pointer of an offer's request.
fn at(offer: &Offer, pointer: &str) -> f64 {
    let value = offer.request.pointer(pointer);
    value.and_then(Value::as_f64).unwrap_or_else(|| {
        panic!("{}: no number at {pointer}", offer.model);
    })
}

fn offer<'a>(offers: &'a [Offer], model: &str) -> &'a Offer {
    let found = offers.iter().find(|o| o.model == model);
    found.unwrap_or_else(|| panic!("no offer for {model}"))
}

#[test]
fn the_one_installment_and_multi_installment_models_are_offered() {
    let all = offers(&Calibration {
        machines: vec![measured("", 0.005)],
    });
    let names: Vec<&str> = all.iter().map(|o| o.model.as_str()).collect();
    for model in [
        "linear",
        "hierarchical",
        "installments",
        "startup",
        "heterogeneous",
    ] {
        assert!(names.contains(&model), "{model} missing from {names:?}");
    }
}

#[test]
fn every_offer_is_valid_and_solves() {
    let all = offers(&Calibration {
        machines: vec![measured("a", 0.005), measured("b", 0.008)],
    });
    for offer in &all {
        let request = Request::from_value(offer.request.clone()).expect("tagged");
        assert_eq!(request.problems(), vec![], "{}", offer.model);
        let mut light = offer.request.clone();
        // M5's search and M7's are long at the presets' sizes; a time
        // limit keeps the test short and still solves.
        if let Some(fields) = light.as_object_mut() {
            if fields.contains_key("chunks") {
                fields.insert("max_seconds".into(), 2.0.into());
            }
        }
        let request = Request::from_value(light).expect("tagged");
        assert!(run(&request, &mut Silent).is_ok(), "{}", offer.model);
        assert!(!offer.filled.is_empty(), "{}", offer.model);
    }
}

#[test]
fn measured_numbers_land_in_the_fields_the_models_name() {
    let all = offers(&Calibration {
        machines: vec![measured("", 0.005)],
    });
    let startup = offer(&all, "startup");
    assert_eq!(at(startup, "/a1"), 0.0112);
    assert_eq!(at(startup, "/a2"), 0.0312);
    assert_eq!(at(startup, "/b2"), -135.0);
    assert_eq!(at(startup, "/rate"), 0.005);
    assert_eq!(at(startup, "/overhead"), 0.02);
    let linear = offer(&all, "linear");
    assert_eq!(at(linear, "/machines/0/compute"), 0.02);
    assert_eq!(at(linear, "/power/idle_factor"), 130.0 / 73.0);
    let m3 = offer(&all, "hierarchical");
    assert_eq!(at(m3, "/processors/1/levels/1/slope"), 0.0312);
    let m7 = offer(&all, "heterogeneous");
    assert_eq!(at(m7, "/machines/0/power/compute"), 130.0 - 73.0);
    // The preset's third row waits hibernated.
    assert_eq!(at(m7, "/machines/2/power/sleep"), 6.3);
}

#[test]
fn several_measured_machines_give_one_row_each() {
    let all = offers(&Calibration {
        machines: vec![measured("a", 0.005), measured("b", 0.008)],
    });
    for (model, rows) in [
        ("linear", "/machines"),
        ("hierarchical", "/processors"),
        ("installments", "/processors"),
        ("heterogeneous", "/machines"),
    ] {
        let request = &offer(&all, model).request;
        let count = request
            .pointer(rows)
            .and_then(Value::as_array)
            .map(Vec::len);
        assert_eq!(count, Some(2), "{model}");
    }
    assert_eq!(at(offer(&all, "hierarchical"), "/processors/1/rate"), 0.008);
}

#[test]
fn a_start_up_latency_fills_the_start_up_not_the_message_cost() {
    let mut machine = measured("", 0.005);
    machine.latency_as = Latency::Startup;
    let all = offers(&Calibration {
        machines: vec![machine],
    });
    let startup = offer(&all, "startup");
    assert_eq!(at(startup, "/startup"), 0.02);
    assert!(!startup.filled.contains(&"overhead".to_string()));
}

#[test]
fn nothing_measured_offers_nothing() {
    let none = offers(&Calibration {
        machines: vec![Fitted::default()],
    });
    assert_eq!(none, vec![]);
}

/// Tables of one machine each (a link timed once, a power meter on one
/// node) measure one machine together: the fit's default preset fills M5
/// with its two levels and its link, and M7 with its powers.
#[test]
fn tables_of_one_machine_each_fill_one_machine() {
    let request = Request::example("fit").expect("the fit's preset");
    let response = run(&request, &mut Silent).expect("the preset fits");
    let report = response.get("report").expect("a report");
    let startup = &report["requests"]["startup"];
    for field in ["a1", "a2", "b2", "rate", "overhead"] {
        let filled = report["filled"]["startup"]
            .as_array()
            .expect("filled fields");
        assert!(filled.iter().any(|f| f == field), "M5's {field} not filled");
    }
    let levels = &report["calibration"]["machines"][0]["levels"];
    assert_eq!(startup["a1"], levels[0]["slope"]);
    assert_eq!(startup["b2"], levels[1]["intercept"]);
    let m7 = &report["requests"]["heterogeneous"]["machines"][0]["power"];
    assert!(m7["idle"].as_f64() == Some(73.0), "{m7}");
}
