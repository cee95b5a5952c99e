//! Measured parameters into the models' requests: every model that reads
//! them offers a request that is valid and solves, holds the measured
//! numbers where its fields are, says what it changed (old → new, with
//! units), sets its load past the measured knees, and never takes a number
//! from a preset's example table once a table is the user's own.

use dlt_calc::api::{run, Request};
use dlt_calc::core::domain::processing::{Level, ProcessingTime};
use dlt_calc::core::framework::calibration::{Calibration, Change, Fitted, Latency, Offer, Powers};
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
        largest: None,
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

/// The change an offer notes for its load.
fn load_change(offer: &Offer) -> &Change {
    let found = offer.changes.iter().find(|c| c.field == "load");
    found.unwrap_or_else(|| panic!("{}: the load did not change", offer.model))
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

/// The knee of [`measured`]'s two levels, 135/(0.0312 − 0.0112) MB.
const KNEE: f64 = 6_750.0;

/// Every target's load is where the fit matters: each machine's chunk
/// 1.5 times its knee, or the largest chunk measured when that is past the
/// knee (a prediction stays near its data); the change says why.
#[test]
fn the_load_is_set_past_the_measured_knees() {
    let mut machine = measured("", 0.005);
    let all = offers(&Calibration {
        machines: vec![machine.clone()],
    });
    let m3 = offer(&all, "hierarchical");
    let processors = m3.request["processors"].as_array().map_or(0, Vec::len) as f64;
    let load = at(m3, "/load");
    assert!(
        (load - processors * 1.5 * KNEE).abs() < 1e-6 * load,
        "{load}"
    );
    let change = load_change(m3);
    assert_eq!(
        (change.what.as_str(), change.unit.as_str()),
        ("load V", "MB")
    );
    assert!(
        change.why.contains("1.5 × the fitted knee (6750 MB)"),
        "{}",
        change.why
    );
    // M4's series of loads is around that load, not Fig. 10's 1 to 10¹¹.
    let m4 = offer(&all, "installments");
    let load = at(m4, "/load");
    let series = (at(m4, "/series/from"), at(m4, "/series/to"));
    assert_eq!(series, (load / 100.0, load * 100.0));
    let said = m4.changes.iter().find(|c| c.field == "series");
    assert!(said.is_some_and(|c| c.unit == "MB"), "{:?}", m4.changes);
    // M2's rows hold 30 machines of the measured kind.
    let linear = offer(&all, "linear");
    let count = at(linear, "/machines/0/count");
    assert!((at(linear, "/load") - count * 1.5 * KNEE).abs() < 1e-6);

    machine.largest = Some(8_000.0);
    let all = offers(&Calibration {
        machines: vec![machine.clone()],
    });
    let startup = offer(&all, "startup");
    assert_eq!(at(startup, "/load"), 2.0 * 8_000.0);
    let change = load_change(startup);
    assert!(
        change
            .why
            .contains("the largest chunk measured, past the fitted knee"),
        "{}",
        change.why
    );
    // No knee: the largest chunk measured.
    machine.levels = None;
    let all = offers(&Calibration {
        machines: vec![machine],
    });
    let m3 = offer(&all, "hierarchical");
    assert_eq!(at(m3, "/load"), processors * 8_000.0);
    let change = load_change(m3);
    assert!(
        change.why.contains("the largest chunk measured"),
        "{}",
        change.why
    );
}

/// Each change holds the preset's value, the fitted one and the unit, and
/// names the value as the model's notation does, not by a JSON path.
#[test]
fn every_change_says_old_and_new_values_with_units() {
    let all = offers(&Calibration {
        machines: vec![measured("", 0.005)],
    });
    let startup = offer(&all, "startup");
    let a1 = startup
        .changes
        .iter()
        .find(|c| c.field == "a1")
        .expect("a1");
    assert_eq!(
        (a1.what.as_str(), a1.to.as_str(), a1.unit.as_str()),
        ("a1", "0.0112", "s/MB")
    );
    assert_eq!(a1.from, "0.109", "[3]'s reference machine");
    let m3 = offer(&all, "hierarchical");
    let time = m3
        .changes
        .iter()
        .find(|c| c.field == "processors[0].levels")
        .expect("levels");
    assert_eq!(time.what, "P1: time of α MB");
    assert_eq!(time.to, "max(0.0112·α, 0.0312·α − 135)");
    for offer in &all {
        let fields: Vec<&String> = offer.changes.iter().map(|c| &c.field).collect();
        assert_eq!(
            fields,
            offer.filled.iter().collect::<Vec<_>>(),
            "{}",
            offer.model
        );
        for c in &offer.changes {
            assert!(
                !c.what.contains('.') && !c.what.contains('['),
                "{}: {}",
                offer.model,
                c.what
            );
            assert!(
                !c.from.is_empty() && !c.to.is_empty(),
                "{}: {}",
                offer.model,
                c.what
            );
        }
    }
}

/// The fit's default preset with its computing table typed over by the
/// user (here: the preset's own numbers, no longer marked an example).
fn own_computation(examples: Value) -> Value {
    let mut request = Request::example("fit").expect("the fit's preset").to_json();
    request["examples"] = examples;
    request
}

/// A preset's example tables are left out once any table is the user's,
/// and the report says which were fitted; a preset alone is fitted whole.
#[test]
fn example_tables_are_left_out_once_a_table_is_the_users() {
    let fitted = |request: Value| {
        let request = Request::from_value(request).expect("a fit request");
        let response = run(&request, &mut Silent).expect("it fits");
        response.get("report").cloned().expect("a report")
    };
    let preset = fitted(own_computation(serde_json::json!({
        "computation": true, "transfers": true, "power": true
    })));
    let machine = &preset["calibration"]["machines"][0];
    assert!(
        machine["rate"].is_number() && machine["power"].is_object(),
        "{machine}"
    );
    let mixed = fitted(own_computation(
        serde_json::json!({"transfers": true, "power": true}),
    ));
    let machine = &mixed["calibration"]["machines"][0];
    assert!(
        machine.get("rate").is_none(),
        "the example link was fitted: {machine}"
    );
    assert!(
        machine.get("power").is_none(),
        "the example powers were read: {machine}"
    );
    assert!(machine["levels"].is_array());
    let uses: Vec<(String, bool, bool)> = mixed["tables"]
        .as_array()
        .expect("the tables said")
        .iter()
        .map(|t| {
            let name = t["table"].as_str().unwrap_or_default().to_string();
            (name, t["example"] == true, t["used"] == true)
        })
        .collect();
    let want = [
        ("transfers", true, false),
        ("computation", false, true),
        ("power", true, false),
    ];
    assert_eq!(uses, want.map(|(n, e, u)| (n.to_string(), e, u)));
    // No model is offered a rate or a power it could only have from an example.
    let startup = &mixed["changes"]["startup"];
    let fields: Vec<&str> = startup
        .as_array()
        .expect("M5 changed")
        .iter()
        .filter_map(|c| c["field"].as_str())
        .collect();
    assert!(
        !fields.contains(&"rate") && !fields.contains(&"overhead"),
        "{fields:?}"
    );
    // Nor keeps a preset's unseen: the example's link (M3) and [3]'s
    // start-up (M5) would rule the result, so they are left out, saying so.
    let requests = &mixed["requests"];
    let rows = requests["hierarchical"]["processors"].as_array();
    for p in rows.expect("M3's rows") {
        assert_eq!(p["rate"].as_f64(), Some(0.0), "{p}");
        assert_eq!(p["startup"].as_f64(), Some(0.0), "{p}");
    }
    assert_eq!(requests["startup"]["startup"].as_f64(), Some(0.0));
    for model in ["hierarchical", "startup"] {
        let said = mixed["changes"][model].to_string();
        assert!(
            said.contains("not measured, so left out"),
            "{model}: {said}"
        );
    }
}

/// A fit that is not two levels through the origin (one line, no knee
/// seen) leaves M5's and M7's two levels as the preset has them, and says
/// so among the changes, without counting them as filled.
#[test]
fn two_level_models_say_why_they_keep_the_presets_levels() {
    let mut one_line = measured("", 0.005);
    one_line.levels = Some(ProcessingTime::new(vec![Level::new(0.0, 0.02)]));
    let all = offers(&Calibration {
        machines: vec![one_line],
    });
    for (model, field) in [("startup", "a1"), ("heterogeneous", "machines[0].a1")] {
        let offer = offer(&all, model);
        let kept = offer.changes.iter().find(|c| c.field == field);
        let kept = kept.unwrap_or_else(|| panic!("{model}: no note on {field}"));
        assert!(kept.kept(), "{model}: {kept:?}");
        assert!(
            kept.why.contains("the fit gave one line"),
            "{model}: {}",
            kept.why
        );
        assert!(kept.from.contains("s/MB"), "{model}: {}", kept.from);
        assert!(!offer.filled.contains(&field.to_string()), "{model}");
    }
    assert_eq!(
        at(offer(&all, "startup"), "/a1"),
        0.109,
        "[3]'s reference machine"
    );
}
