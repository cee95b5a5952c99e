//! JSON Schemas of whole requests: a model's derived request schema with
//! what the front ends add around the request type, so that the schema
//! accepts exactly the JSON that `dlt solve` reads.

use schemars::Schema;
use serde_json::{json, Map, Value};

use crate::core::solving::deadline::MAX_SECONDS;

/// The draft the schemas follow (schemars' default).
pub const DRAFT: &str = "https://json-schema.org/draft/2020-12/schema";

/// The `$id` of the schema of model `name`: a URN, since the schemas are
/// shipped as files (`dist/schemas/<name>.json`) and served from no host.
pub fn id(name: &str) -> String {
    format!("urn:dlt-calc:schema:{name}")
}

/// The schema of a request of model `name` (titled `title`) from the
/// schema of its request type: the `"model"` tag, which the request type
/// does not hold (the registry removes it), becomes a required constant
/// (or one of the id and the model's `former` tag),
/// and `max_seconds`, which the registry applies to a model that has no
/// time limit of its own (`own_time_limit` false), an optional number.
pub fn tagged(
    schema: Schema,
    (name, former): (&str, Option<&str>),
    title: &str,
    own_time_limit: bool,
) -> Value {
    let mut schema = schema.to_value();
    tidy(&mut schema);
    let Some(fields) = schema.as_object_mut() else {
        return schema;
    };
    fields.insert("$id".into(), Value::String(id(name)));
    let title = format!("{title}: a request of model \"{name}\"");
    fields.insert("title".into(), Value::String(title));
    let properties = object(fields, "properties");
    // An older tag the reader still takes is valid too.
    let model = match former {
        None => json!({
            "const": name,
            "description": format!("The model: always \"{name}\"."),
        }),
        Some(old) => json!({
            "enum": [name, old],
            "description": format!("The model: \"{name}\" (its older tag \"{old}\" is read too)."),
        }),
    };
    properties.insert("model".into(), model);
    if !own_time_limit {
        properties.insert("max_seconds".into(), max_seconds());
    }
    properties.insert("part".into(), part());
    let required = fields
        .entry("required")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(required) = required {
        required.retain(|r| r != "model");
        required.insert(0, Value::String("model".into()));
    }
    schema
}

/// Every description in `schema` as plain text: doc comments' rustdoc links
/// (`` [`MAX_MACHINES`] ``) become code, and their wrapped lines one line
/// (paragraphs stay apart).
fn tidy(schema: &mut Value) {
    match schema {
        Value::Object(fields) => {
            for (key, value) in fields.iter_mut() {
                match value {
                    Value::String(text) if key == "description" => *text = plain(text),
                    _ => tidy(value),
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(tidy),
        _ => {}
    }
}

/// A doc comment as plain text (see [`tidy`]).
fn plain(text: &str) -> String {
    let paragraphs = text
        .split("\n\n")
        .map(|p| p.split('\n').collect::<Vec<_>>().join(" "));
    let joined = paragraphs.collect::<Vec<_>>().join("\n\n");
    joined.replace("[`", "`").replace("`]", "`")
}

/// The object under `key` of `fields`, made empty when it is not one.
fn object<'a>(fields: &'a mut Map<String, Value>, key: &str) -> &'a mut Map<String, Value> {
    let value = fields
        .entry(key)
        .or_insert_with(|| Value::Object(Map::new()));
    if !value.is_object() {
        *value = Value::Object(Map::new());
    }
    // cannot fail: the value was made an object just above
    value.as_object_mut().expect("an object")
}

/// The envelope of a part of a split request (`dlt split`), which every
/// request may carry ([`crate::core::solving::part::Part`]).
fn part() -> Value {
    let count = json!({ "type": "integer", "minimum": 0 });
    json!({
        "type": "object",
        "description": "This request is one part of a larger one (written by dlt split); \
                        its response carries the same part, for dlt join.",
        "properties": {
            "of": { "type": "string", "description": "The hash of the whole request." },
            "index": count,
            "count": count,
            "pieces": { "type": "array", "items": count, "minItems": 2, "maxItems": 2 },
        },
        "required": ["of", "index", "count"],
        "additionalProperties": false,
    })
}

/// The time limit every request may carry (see [`crate::api`]).
fn max_seconds() -> Value {
    json!({
        "type": "number",
        "exclusiveMinimum": 0,
        "maximum": MAX_SECONDS,
        "description": "Stop after this many seconds with the best result so far \
                        (marked \"completion\": \"partial\"), or an error when there \
                        is none yet.",
    })
}
