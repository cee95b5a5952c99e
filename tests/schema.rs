//! The request schemas (`dlt schema`): derived from the request types, each
//! is a valid draft 2020-12 schema that accepts every preset and every
//! request of the README and the docs, and refuses what the reader refuses. Every test
//! walks the registry, so a new model is covered with no line here.
#![cfg(not(target_arch = "wasm32"))]

mod cli_support;

use cli_support::dlt;
use dlt_calc::core::framework::entry::Entry;
use dlt_calc::registry::{all, find};
use jsonschema::Validator;
use serde_json::{json, Map, Value};

/// The draft every schema declares.
const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The validator of the schema of `entry`.
fn validator(entry: &dyn Entry) -> Validator {
    let schema = entry.schema();
    jsonschema::validator_for(&schema)
        .unwrap_or_else(|e| panic!("{}: the schema does not compile: {e}", entry.id().name))
}

/// Why `instance` does not validate against `validator`, one line per
/// error (empty: it validates).
fn errors(validator: &Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// Whether the reader (`dlt check`) finds a problem in a tagged request.
fn reader_refuses(entry: &dyn Entry, request: &Value) -> bool {
    let mut body = request.clone();
    if let Some(fields) = body.as_object_mut() {
        fields.remove("model");
    }
    !entry.problems(body).is_empty()
}

/// The first preset of every entry (every entry has one: the tab's default).
fn first_presets() -> Vec<(&'static dyn Entry, Value)> {
    all()
        .map(|entry| {
            let preset = entry.presets().into_iter().next();
            let (_, _, request) =
                preset.unwrap_or_else(|| panic!("{}: no preset", entry.id().name));
            (entry, request)
        })
        .collect()
}

/// Checks `request` against its model's schema, and every request nested
/// in it (a map's `base`) against its own model's; `at` names it.
fn assert_valid(request: &Value, at: &str) {
    let Some(name) = request.get("model").and_then(Value::as_str) else {
        panic!("{at}: no \"model\"");
    };
    let entry = find(name).unwrap_or_else(|| panic!("{at}: no model {name:?}"));
    let errors = errors(&validator(entry), request);
    assert!(errors.is_empty(), "{at} ({name}):\n{}", errors.join("\n"));
    for nested in nested_requests(request) {
        assert_valid(nested, &format!("{at}, inside"));
    }
}

/// The objects with a `"model"` inside `value` (not `value` itself).
fn nested_requests(value: &Value) -> Vec<&Value> {
    let children: Vec<&Value> = match value {
        Value::Object(fields) => fields.values().collect(),
        Value::Array(items) => items.iter().collect(),
        _ => Vec::new(),
    };
    let mut found = Vec::new();
    for child in children {
        if child.get("model").is_some_and(Value::is_string) {
            found.push(child);
        } else {
            found.extend(nested_requests(child));
        }
    }
    found
}

#[test]
fn every_schema_is_a_valid_draft_2020_12_schema_with_id_title_and_tag() {
    for entry in all() {
        let name = entry.id().name;
        let schema = entry.schema();
        if let Err(e) = jsonschema::meta::validate(&schema) {
            panic!("{name}: not a valid schema: {e}");
        }
        assert_eq!(schema["$schema"], DRAFT, "{name}");
        let id = schema["$id"].as_str().unwrap_or_default();
        assert!(id.ends_with(&format!(":{name}")), "{name}: $id {id}");
        let title = schema["title"].as_str().unwrap_or_default();
        assert!(title.contains(entry.id().title), "{name}: title {title}");
        let model = &schema["properties"]["model"];
        let tag = model.get("const").or_else(|| model["enum"].get(0));
        assert_eq!(tag, Some(&json!(name)), "{name}: {model}");
        if let Some(old) = entry.id().former.tag {
            assert_eq!(model["enum"], json!([name, old]), "{name}");
        }
        let required = schema["required"].as_array().cloned().unwrap_or_default();
        assert!(required.contains(&json!("model")), "{name}: {required:?}");
    }
}

/// (a) Every built-in request is one its schema accepts.
#[test]
fn every_preset_validates_against_its_schema() {
    let mut checked = 0;
    for entry in all() {
        for (preset, _, request) in entry.presets() {
            assert_eq!(request["model"], entry.id().name, "{preset}");
            assert_valid(&request, &format!("preset {preset}"));
            checked += 1;
        }
    }
    assert!(checked >= all().count(), "only {checked} presets");
}

/// The JSON code blocks of `text` (Markdown) that are objects with a
/// `"model"`, with the line each starts on.
fn tagged_blocks(text: &str) -> Vec<(usize, Value)> {
    let mut blocks = Vec::new();
    let mut open: Option<(usize, String)> = None;
    for (number, line) in text.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match (&mut open, fence) {
            (None, true) => open = Some((number + 1, String::new())),
            (Some((start, body)), true) => {
                let parsed = serde_json::from_str::<Value>(body).ok();
                if parsed.as_ref().is_some_and(|v| v.get("model").is_some()) {
                    blocks.extend(parsed.map(|v| (*start, v)));
                }
                open = None;
            }
            (Some((_, body)), false) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, false) => {}
        }
    }
    blocks
}

/// The README and every page of `docs/`, by name (a file that cannot be
/// read fails the test: it would otherwise check nothing).
fn documentation() -> Vec<(String, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let docs = std::fs::read_dir(format!("{root}/docs")).expect("the docs folder");
    let mut names: Vec<String> = docs
        .map(|e| {
            e.expect("a docs entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter(|n| n.ends_with(".md"))
        .map(|n| format!("docs/{n}"))
        .collect();
    names.sort();
    names.insert(0, "README.md".to_string());
    names
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(format!("{root}/{name}"))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            (name, text)
        })
        .collect()
}

/// (b) Every request the README and the docs show is one its model's
/// schema accepts and its reader takes whole, and there are some (the
/// command-line page shows one).
#[test]
fn every_request_in_the_documentation_validates_against_its_models_schema() {
    let mut checked = Vec::new();
    for (name, text) in documentation() {
        for (line, request) in tagged_blocks(&text) {
            let at = format!("{name} line {line}");
            assert_valid(&request, &at);
            let model = request["model"].as_str().unwrap_or_default();
            let entry = find(model).unwrap_or_else(|| panic!("{at}: no model {model:?}"));
            assert!(
                !reader_refuses(entry, &request),
                "{at}: the reader refuses it"
            );
            checked.push(at);
        }
    }
    assert!(!checked.is_empty(), "no request in the README or docs/");
}

#[test]
fn markdown_blocks_with_a_model_are_found() {
    let text = "a\n```json\n{\"model\": \"x\",\n \"load\": 1}\n```\n```sh\ndlt solve\n```\n\
                ```json\n[1, 2]\n```\n";
    let blocks = tagged_blocks(text);
    assert_eq!(blocks, [(2, json!({"model": "x", "load": 1}))]);
}

/// (c) A request of another model, or with no or a wrong tag, is refused.
#[test]
fn the_schema_refuses_a_wrong_model_tag() {
    let names: Vec<&str> = all().map(|e| e.id().name).collect();
    for (entry, preset) in first_presets() {
        let validator = validator(entry);
        let mut wrong_tags: Vec<Value> = names
            .iter()
            .filter(|n| **n != entry.id().name)
            .map(|n| json!(n))
            .collect();
        wrong_tags.extend([json!("no-such-model"), json!(1), Value::Null]);
        for tag in wrong_tags {
            let mut request = preset.clone();
            request["model"] = tag.clone();
            assert!(!validator.is_valid(&request), "{}: {tag}", entry.id().name);
        }
        let mut untagged = preset.clone();
        untagged.as_object_mut().map(|f| f.remove("model"));
        assert!(
            !validator.is_valid(&untagged),
            "{}: untagged",
            entry.id().name
        );
    }
}

/// (c) An unknown top-level field is refused by the schema exactly when
/// the reader refuses it (`deny_unknown_fields`).
#[test]
fn an_unknown_field_is_refused_by_the_schema_as_by_the_reader() {
    for (entry, preset) in first_presets() {
        let schema = entry.schema();
        let mut request = preset.clone();
        request["no_such_field"] = json!(1);
        let by_reader = reader_refuses(entry, &request);
        let by_schema = !validator(entry).is_valid(&request);
        assert_eq!(by_schema, by_reader, "{}", entry.id().name);
        let closed = schema["additionalProperties"] == json!(false);
        assert_eq!(by_schema, closed, "{}", entry.id().name);
    }
}

/// (c) A required field left out is refused by the schema and the reader.
#[test]
fn a_missing_required_field_is_refused_by_the_schema_and_the_reader() {
    for (entry, preset) in first_presets() {
        let validator = validator(entry);
        let schema = entry.schema();
        let required = schema["required"].as_array().cloned().unwrap_or_default();
        for field in required.iter().filter_map(Value::as_str) {
            let mut request = preset.clone();
            request.as_object_mut().map(|f| f.remove(field));
            let at = format!("{} without {field}", entry.id().name);
            assert!(!validator.is_valid(&request), "{at}: the schema accepts it");
            if field != "model" {
                assert!(
                    reader_refuses(entry, &request),
                    "{at}: the reader accepts it"
                );
            }
        }
    }
}

/// The top-level fields of `request` whose value is a number.
fn number_fields(request: &Value) -> Vec<String> {
    let fields = request.as_object().cloned().unwrap_or_else(Map::new);
    let numbers = fields.into_iter().filter(|(_, v)| v.is_number());
    numbers.map(|(k, _)| k).collect()
}

/// (c) Text where the preset has a number, and a fraction or a negative
/// number where the schema wants a whole one, are refused by both.
#[test]
fn wrong_numbers_are_refused_by_the_schema_and_the_reader() {
    for (entry, preset) in first_presets() {
        let validator = validator(entry);
        let schema = entry.schema();
        for field in number_fields(&preset) {
            let wants = &schema["properties"][&field]["type"];
            let whole = wants == "integer" || wants[0] == "integer";
            let mut wrong = vec![json!("1")];
            if whole {
                wrong.extend([json!(2.5), json!(-1)]);
            }
            for value in wrong {
                let mut request = preset.clone();
                request[&field] = value.clone();
                let at = format!("{}: {field} = {value}", entry.id().name);
                assert!(!validator.is_valid(&request), "{at}: the schema accepts it");
                assert!(
                    reader_refuses(entry, &request),
                    "{at}: the reader accepts it"
                );
            }
        }
    }
}

/// (d) The schema names every top-level field a preset has.
#[test]
fn the_schema_lists_every_field_of_every_preset() {
    for entry in all() {
        let schema = entry.schema();
        let properties = schema["properties"]
            .as_object()
            .cloned()
            .unwrap_or_default();
        for (preset, _, request) in entry.presets() {
            let fields = request.as_object().cloned().unwrap_or_default();
            for field in fields.keys() {
                assert!(properties.contains_key(field), "{preset}: {field}");
            }
        }
    }
}

/// `dlt schema` lists every entry, and `dlt schema ID` prints its schema.
#[test]
fn the_command_prints_each_schema_and_lists_the_ids() {
    let index = dlt(&["schema"], "");
    assert!(index.success(), "{}", index.stderr);
    let lines: Vec<&str> = index.stdout.lines().collect();
    assert_eq!(lines.len(), all().count(), "{}", index.stdout);
    for (entry, line) in all().zip(&lines) {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words.first(), Some(&entry.id().name), "{line}");
        assert!(line.ends_with(entry.id().title), "{line}");
        let printed = dlt(&["schema", entry.id().name], "");
        assert!(printed.success(), "{}", printed.stderr);
        let schema: Value = serde_json::from_str(&printed.stdout).unwrap_or_default();
        assert_eq!(schema, entry.schema(), "{}", entry.id().name);
    }
    let unknown = dlt(&["schema", "no-such-model"], "");
    assert_eq!(unknown.code, Some(2), "{}", unknown.stderr);
}
