//! A model's requests and answers read from JSON and written back with
//! their `"model"` tag: what the type-erased [`Entry`](super::entry::Entry)
//! and every capability's JSON side share.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::core::domain::count::UNREADABLE_COUNT;
use crate::core::domain::error::{shorten, Error, Invalid, Validate};
use crate::core::presentation::response::Response;

/// The most unreadable numbers reported at once.
const MAX_UNREADABLE: usize = 64;

/// The typed request, with every problem of the body when it is not one.
///
/// JSON has no NaN, so a page's unreadable number arrives as `null`, and
/// text the page cannot read as a number arrives as that text; each such
/// field is reported and read as a stand-in, so that the other fields are
/// still checked and every bad field gets its message at once.
///
/// # Errors
///
/// Every unreadable field, then every invalid one.
pub fn typed<R: DeserializeOwned + Validate>(mut body: Value) -> Result<R, Vec<Error>> {
    let mut unreadable = Vec::new();
    let request = loop {
        match serde_path_to_error::deserialize::<_, R>(&body) {
            Ok(request) => break request,
            Err(e) => {
                let path = e.path().to_string();
                let message = e.inner().to_string();
                let count = message.starts_with(UNREADABLE_COUNT);
                let error = Error::malformed_at(path.clone(), message);
                // Only a value at the reader's own path can be stood in for.
                let own = error.field_path() == Some(path.as_str());
                let stand_in = own
                    && (count
                        || matches!(error.invalid(), Some(Invalid::NotFinite | Invalid::Text(_))))
                    && unreadable.len() < MAX_UNREADABLE
                    && replace(&mut body, e.path(), Value::from(1));
                unreadable.push(error);
                if !stand_in {
                    return Err(unreadable);
                }
            }
        }
    };
    let fields: Vec<String> = unreadable
        .iter()
        .filter_map(|e| e.field_path().map(str::to_string))
        .collect();
    let mut problems = unreadable;
    problems.extend(request.problems().into_iter().filter(|p| {
        p.field_path()
            .is_none_or(|f| !fields.iter().any(|u| u == f))
    }));
    if problems.is_empty() {
        Ok(request)
    } else {
        Err(problems)
    }
}

/// Puts `value` at `path` in `body`; false when the path leads nowhere.
fn replace(body: &mut Value, path: &serde_path_to_error::Path, value: Value) -> bool {
    use serde_path_to_error::Segment;
    let mut at = body;
    for segment in path {
        let next = match (segment, at) {
            (Segment::Seq { index }, Value::Array(items)) => items.get_mut(*index),
            (Segment::Map { key }, Value::Object(fields)) => fields.get_mut(key),
            _ => None,
        };
        match next {
            Some(v) => at = v,
            None => return false,
        }
    }
    *at = value;
    true
}

/// The first of a request's problems (there is at least one).
pub fn first(problems: Vec<Error>) -> Error {
    let fallback = || Error::Malformed("the request is invalid".into());
    problems.into_iter().next().unwrap_or_else(fallback)
}

/// An output read back from a response's JSON.
///
/// # Errors
///
/// [`Error::Malformed`] when `response` is not an output of this type.
pub fn output<O: DeserializeOwned>(response: Value) -> Result<O, Error> {
    serde_json::from_value(Response::output_fields(response))
        .map_err(|e| Error::Malformed(shorten(&e.to_string())))
}

/// A request of model `model` as JSON with its `"model"` tag.
///
/// # Errors
///
/// [`Error::Malformed`] if the request does not serialise (a bug in the
/// model, reported rather than hidden).
pub fn with_tag<R: Serialize>(model: &str, request: &R) -> Result<Value, Error> {
    let mut value = serde_json::to_value(request).map_err(|e| Error::Malformed(e.to_string()))?;
    if let Some(fields) = value.as_object_mut() {
        fields.insert("model".into(), Value::String(model.into()));
    }
    Ok(value)
}
