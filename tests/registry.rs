//! The registry as the front ends see it: every tab describes its inputs
//! fully, and the generalised maps cover exactly the models that name
//! map parameters.

use dlt_calc::api::{tabs, Request};
use dlt_calc::core::form::Kind;
use dlt_calc::core::map::Catalogue;
use dlt_calc::registry::{all, Models};
use serde_json::json;

/// A number the page asks for says which values it takes, so that a
/// student reads the range before the error.
#[test]
fn every_number_field_states_its_range() {
    for tab in tabs() {
        let numbers = |kind: Kind| matches!(kind, Kind::Number | Kind::Optional);
        for group in &tab.form.groups {
            for field in group.fields.iter().filter(|f| numbers(f.kind)) {
                assert!(!field.range.is_empty(), "{}: {}", tab.model, field.path);
            }
        }
        for column in tab.form.rows.iter().flat_map(|r| &r.columns) {
            assert!(!column.range.is_empty(), "{}: {}", tab.model, column.path);
        }
    }
}

/// The models a map may be drawn for are those that name parameters, and
/// the map's tab lists each one's parameters with its meaning.
#[test]
fn the_generalised_map_lists_every_mapped_model() {
    let mapped = Models::mapped();
    let names: Vec<&str> = mapped.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["linear", "startup", "heterogeneous", "mapreduce"]);
    let intro = tabs()
        .into_iter()
        .find(|t| t.model == "contour")
        .unwrap()
        .form
        .intro;
    for (_, parameters) in &mapped {
        for p in parameters {
            assert!(intro.contains(&format!("<b>{}</b> ({})", p.name, p.meaning)));
        }
    }
    assert_eq!(all().count(), 11);
}

/// A model no map covers, or no model at all, is refused under `base`.
#[test]
fn a_map_of_an_unmapped_model_is_refused_with_the_mapped_ones() {
    for model in ["hierarchical", "contour", "no-such-model"] {
        let mut request = Request::example("contour-startup").unwrap().to_json();
        request["base"]["model"] = json!(model);
        let problems = Request::from_value(request).unwrap().problems();
        let text = format!("{problems:?}");
        assert!(
            text.contains("base.model")
                && text.contains("(linear, startup, heterogeneous, mapreduce)"),
            "{model}: {text}"
        );
    }
}

/// A base's own errors keep their full path under `base`.
#[test]
fn a_bad_value_inside_the_base_is_named_by_its_full_path() {
    let mut request = Request::example("contour-compute-communication")
        .unwrap()
        .to_json();
    request["base"]["machines"][0]["rate"] = json!(-1);
    request["base"]["machines"][0]["count"] = json!(0.5);
    let problems = Request::from_value(request).unwrap().problems();
    let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
    assert!(fields.contains(&"base.machines[0].rate"), "{fields:?}");
    assert!(fields.contains(&"base.machines[0].count"), "{fields:?}");
}

/// Every work a tab cites is in the bibliography, and every work there is
/// cited by some tab.
#[test]
fn every_citation_is_in_the_bibliography() {
    use dlt_calc::core::bibliography::{work, WORKS};
    let mut cited = std::collections::HashSet::new();
    for tab in tabs() {
        assert!(!tab.form.sources.is_empty(), "{} cites nothing", tab.model);
        for key in tab.form.sources {
            assert!(
                work(key).is_some(),
                "{}: {key} is not in the bibliography",
                tab.model
            );
            cited.insert(*key);
        }
    }
    for w in WORKS {
        assert!(cited.contains(w.key), "{} is cited by no tab", w.key);
    }
}

/// Every tab explains itself: an "About the model" panel with at least two
/// formulas, each saying what it gives, in balanced markup.
#[test]
fn every_tab_has_its_formulas() {
    for tab in tabs() {
        assert!(tab.form.about.len() >= 2, "{} has no formulas", tab.model);
        for f in tab.form.about {
            assert!(!f.what.is_empty() && !f.formula.is_empty(), "{}", tab.model);
            for t in ["i", "sub", "sup"] {
                let text = format!("{} {}", f.what, f.formula);
                assert_eq!(
                    text.matches(&format!("<{t}>")).count(),
                    text.matches(&format!("</{t}>")).count(),
                    "{}: <{t}> unbalanced in {text}",
                    tab.model
                );
            }
        }
    }
}
