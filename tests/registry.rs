//! The registry as the front ends see it, walked whole (no model is named
//! here): one id per model, every tab describes its inputs fully, and the
//! generalised maps cover exactly the models that name map parameters.

use dlt_calc::api::{gantt_styles, run, tabs, Request};
use dlt_calc::core::framework::entry::Entry;
use dlt_calc::core::presentation::form::Kind;
use dlt_calc::core::solving::progress::Silent;
use dlt_calc::maps::contour::mapped;
use dlt_calc::registry::{all, Models};
use serde_json::{json, Value};

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

/// The registry's entry whose presets map another model (a `base`): the
/// generalised maps.
fn generalised_map() -> &'static dyn Entry {
    all()
        .find(|e| e.presets().iter().any(|(_, _, r)| r.get("base").is_some()))
        .expect("the registry has a map over its models")
}

/// The models a map may be drawn for are those that name parameters, and
/// the map's tab lists each one's parameters with its meaning.
#[test]
fn the_generalised_map_lists_every_mapped_model() {
    let mapped = mapped::<Models>();
    let names: Vec<&str> = mapped.iter().map(|(n, _)| *n).collect();
    let naming: Vec<&str> = all()
        .filter(|e| e.maps().is_some())
        .map(|e| e.id().name)
        .collect();
    assert_eq!(names, naming);
    assert!(names.len() >= 2, "{names:?}");
    let intro = generalised_map().form().intro;
    for (_, parameters) in &mapped {
        for p in parameters {
            assert!(intro.contains(&format!("<b>{}</b> ({})", p.name, p.meaning)));
        }
    }
}

/// A model no map covers, the map itself, or no model at all, is refused
/// under `base`, with the models a map covers.
#[test]
fn a_map_of_an_unmapped_model_is_refused_with_the_mapped_ones() {
    let map = generalised_map();
    let unmapped = all().find(|e| e.maps().is_none() && e.id().name != map.id().name);
    let mapped: Vec<&str> = mapped::<Models>().into_iter().map(|(n, _)| n).collect();
    let known = format!("({})", mapped.join(", "));
    let (_, _, preset) = &map.presets()[0];
    for model in [unmapped.unwrap().id().name, map.id().name, "no-such-model"] {
        let mut request = preset.clone();
        request["base"]["model"] = json!(model);
        let problems = Request::from_value(request).unwrap().problems();
        let text = format!("{problems:?}");
        assert!(
            text.contains("base.model") && text.contains(&known),
            "{model}: {text}"
        );
    }
}

/// The first number in `value` (depth first), as its path below `at` and
/// a pointer to it.
fn first_number(value: &mut Value, at: String) -> Option<(String, &mut Value)> {
    if value.is_number() {
        return Some((at, value));
    }
    match value {
        Value::Object(fields) => fields
            .iter_mut()
            .filter(|(k, _)| *k != "model")
            .find_map(|(k, v)| first_number(v, format!("{at}.{k}"))),
        Value::Array(items) => items
            .iter_mut()
            .enumerate()
            .find_map(|(i, v)| first_number(v, format!("{at}[{i}]"))),
        _ => None,
    }
}

/// A base's own errors keep their full path under `base`, for every map
/// preset: text where its first number was is named by that number's path.
#[test]
fn a_bad_value_inside_the_base_is_named_by_its_full_path() {
    for (name, _, mut request) in generalised_map().presets() {
        let (path, number) = first_number(&mut request["base"], "base".into()).unwrap();
        *number = json!("oops");
        let problems = Request::from_value(request).unwrap().problems();
        let fields: Vec<&str> = problems.iter().map(|p| p.field.as_str()).collect();
        assert!(
            fields.contains(&path.as_str()),
            "{name}: {path} in {fields:?}"
        );
    }
}

/// One id names each model everywhere: its tag, its tab (whose keys start
/// with the id and a dot in a link), its presets (`<id>` or `<id>-…`) and
/// its exercises (`<id>-…`); `dlt example <id>` is its tab's default, and
/// the older names it declares lead to it.
#[test]
fn one_id_names_each_model_everywhere() {
    for entry in all() {
        let id = entry.id().name;
        let own = |name: &str| name == id || name.starts_with(&format!("{id}-"));
        let presets = entry.presets();
        assert!(!presets.is_empty(), "{id} has no preset");
        for (name, _, request) in &presets {
            assert!(own(name), "{id}: preset {name}");
            assert_eq!(request["model"], id, "{name}");
            assert!(Request::from_value(request.clone())
                .unwrap()
                .problems()
                .is_empty());
        }
        let default = Request::example(id).unwrap().to_json();
        assert_eq!(default, presets[0].2, "dlt example {id}");
        for template in entry.exercises() {
            assert!(
                own(template.id) && template.id != id,
                "{id}: {}",
                template.id
            );
        }
        if let Some(tag) = entry.id().former.tag {
            assert_eq!(dlt_calc::registry::find(tag).unwrap().id().name, id);
        }
    }
    let ids: Vec<&str> = all().map(|e| e.id().name).collect();
    let unique: std::collections::BTreeSet<&str> = ids.iter().copied().collect();
    assert_eq!(unique.len(), ids.len(), "{ids:?}");
    // A model's verb on the command line is its own, and no built-in's.
    let verbs: Vec<&str> = all().filter_map(|e| e.id().command).collect();
    let distinct: std::collections::BTreeSet<&str> = verbs.iter().copied().collect();
    assert_eq!(distinct.len(), verbs.len(), "{verbs:?}");
    for verb in verbs {
        assert!(
            !["solve", "check", "example", "schema"].contains(&verb),
            "{verb}"
        );
    }
}

/// Every model has its number in the course, which orders the registry
/// (a model without one would be listed after the tools over every model),
/// and the page's tabs follow the registry.
#[test]
fn the_registry_is_in_course_order() {
    for entry in dlt_calc::models::LIST {
        assert!(
            entry.id().number.is_some(),
            "{} has no course number",
            entry.id().name
        );
    }
    let tabs: Vec<&str> = tabs().iter().map(|t| t.model).collect();
    let ids: Vec<&str> = all().map(|e| e.id().name).collect();
    assert_eq!(tabs, ids);
}

/// Every work a tab cites is in the bibliography, and every work there is
/// cited by some tab.
#[test]
fn every_citation_is_in_the_bibliography() {
    use dlt_calc::core::domain::bibliography::{work, WORKS};
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

/// Every preset answers (within two seconds: a long search gives its best
/// so far) with charts whose axes name their units or hold pure numbers,
/// and Gantt activities its model (or the shared kinds) styles, so that no
/// bar is drawn as an unnamed grey.
#[test]
fn every_preset_answers_with_units_styled_activities_and_ids_of_its_own() {
    let (mut axes, mut own) = (0, 0);
    let tabs_ids: Vec<&str> = all().map(|e| e.id().name).collect();
    for entry in all() {
        for (name, _, request) in entry.presets() {
            let mut request = Request::from_value(request).unwrap();
            request.limit_time(2.0);
            let Ok(response) = run(&request, &mut Silent) else {
                continue;
            };
            for chart in response.charts() {
                for axis in [&chart.x, &chart.y] {
                    assert!(axis.has_unit(), "{name}: {} has no unit", axis.label);
                    axes += 1;
                }
            }
            let page = response.for_page();
            let blocks = page["view"].as_array().into_iter().flatten();
            let ids: Vec<&str> = blocks.filter_map(|b| b["id"].as_str()).collect();
            for id in &ids {
                // A block named as a tab is a second element with the tab's id.
                assert!(
                    !tabs_ids.contains(id),
                    "{name}: the block {id} has a tab's id"
                );
                assert_eq!(
                    ids.iter().filter(|x| *x == id).count(),
                    1,
                    "{name}: {id} twice"
                );
            }
            let styles = gantt_styles(entry.id().name);
            for bar in response
                .gantt()
                .iter()
                .flat_map(|g| &g.rows)
                .flat_map(|r| &r.bars)
            {
                assert_ne!(
                    styles(&bar.activity).legend,
                    "other",
                    "{name}: {:?}",
                    bar.activity
                );
                own += usize::from(bar.activity.shared_style().is_none());
            }
        }
    }
    assert!(
        axes > 20 && own > 0,
        "{axes} axes, {own} bars of a model's own activities"
    );
}

/// Every number a map may vary names its unit, or is a count or a pure
/// number, so that a map's axes say what they hold.
#[test]
fn every_map_parameter_has_a_unit() {
    for entry in all() {
        for p in entry.maps().map(|m| m.parameters()).unwrap_or_default() {
            let ok = p.whole || p.pure || !p.unit.is_empty();
            assert!(ok, "{}: {} has no unit", entry.id().name, p.name);
        }
    }
}
