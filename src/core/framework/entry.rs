//! A model seen through JSON: what the command line, the page's binding
//! module and the maps need of any model, implemented once for every
//! [`Model`].

use std::collections::BTreeMap;
use std::marker::PhantomData;

use serde_json::Value;

use crate::core::domain::count::UNREADABLE_COUNT;
use crate::core::domain::error::{shorten, Error, Invalid, Validate};
use crate::core::framework::calibration::{Calibration, Offer};
use crate::core::framework::exercise::Template;
use crate::core::framework::model::{Former, Model};
use crate::core::presentation::chart::LineChart;
use crate::core::presentation::form::Form;
use crate::core::presentation::gantt::{Activity, ActivityStyle};
use crate::core::presentation::map::{
    Cache, MapBase, MapPreset, MapQuantity, Measured, Parameter, Quantity, Target,
};
use crate::core::presentation::response::{Response, Views};
use crate::core::solving::progress::Progress;

/// A model seen through JSON: what the front ends need of any model.
pub trait Entry: Sync {
    /// The request's `"model"` tag.
    fn name(&self) -> &'static str;
    /// A short title.
    fn title(&self) -> &'static str;
    /// Its number in the course ([`Model::NUMBER`]).
    fn number(&self) -> Option<u8>;
    /// The names it had before its id ([`Model::FORMER`]).
    fn former(&self) -> Former;
    /// Its verb on the command line ([`Model::COMMAND`]).
    fn command(&self) -> Option<&'static str>;
    /// Whether the model applies its own `max_seconds`.
    fn owns_time_limit(&self) -> bool;
    /// The presets: name, label and the request as JSON (with its tag).
    fn presets(&self) -> Vec<(&'static str, &'static str, Value)>;
    /// Every invalid field of a request body (the tag removed).
    fn problems(&self, body: Value) -> Vec<Error>;
    /// Reads, validates and solves a request body.
    ///
    /// # Errors
    ///
    /// The first invalid field, or the solver's error.
    fn run(&self, body: Value, progress: &mut dyn Progress) -> Result<Response, Error>;
    /// A response of this model (as JSON, e.g. joined by the page from
    /// several workers) as CSV, when it is a table.
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] when `response` is not an output of the model.
    fn csv(&self, response: Value) -> Result<Option<String>, Error>;
    /// The page's tab.
    fn form(&self) -> Form;
    /// A request (with its tag) made from a table of measurements
    /// ([`Model::from_table`]); `None`: the model reads no tables.
    fn request_from_table(
        &self,
        text: &str,
        options: &BTreeMap<String, String>,
    ) -> Option<Result<Value, Error>>;
    /// The model's request filled from measured parameters
    /// ([`Model::calibrated`]).
    fn calibrated(&self, calibration: &Calibration) -> Option<Offer>;
    /// Fills cells of a table row after its `column` changed
    /// ([`Model::fill_row`]).
    fn fill_row(&self, column: &str, row: &mut BTreeMap<String, String>);
    /// The parts of a request body a page computes apart (empty: none).
    ///
    /// # Errors
    ///
    /// The request's first problem.
    fn split(&self, body: Value) -> Result<Vec<Value>, Error>;
    /// The answer to a request from the answers to its parts.
    ///
    /// # Errors
    ///
    /// The request's first problem, or [`Error::Malformed`] for a part that
    /// is not an answer of this model.
    fn join(&self, body: Value, parts: Vec<Value>) -> Result<Response, Error>;
    /// An answer's charts drawn with the page's view options.
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] when `response` is not an answer of this model.
    fn charts(&self, response: Value, options: &Value) -> Result<Vec<LineChart>, Error>;
    /// A read-out of an answer under the pointer, built once per answer.
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] when `response` is not an answer of this model.
    fn lookup(&self, response: Value) -> Result<Lookup, Error>;
    /// The numbers a map may vary (none: maps do not cover the model).
    fn map_parameters(&self) -> Vec<Parameter>;
    /// The maps of the model offered as presets ([`Model::map_presets`]).
    fn map_presets(&self) -> Vec<MapPreset>;
    /// A request body as a map's base.
    ///
    /// # Errors
    ///
    /// Every problem of the body.
    fn map_base(&self, body: Value) -> Result<Box<dyn MapBase>, Vec<Error>>;
    /// The exercises the model poses ([`Model::exercises`]).
    fn exercises(&self) -> Vec<Template>;
    /// How its Gantt charts draw `activity`: a shared kind's style, the
    /// model's own ([`Model::activity_style`]), or grey for one it does
    /// not know.
    fn activity_style(&self, activity: &Activity) -> ActivityStyle;
    /// The JSON Schema (draft 2020-12) of a whole request, its `"model"`
    /// tag included ([`crate::core::framework::schema::tagged`]). Native only: the
    /// page does not need it, and the wasm module stays smaller without.
    #[cfg(not(target_arch = "wasm32"))]
    fn schema(&self) -> Value;
}

/// What lies under the pointer at chart coordinates `(x, y)`, in words.
pub type Lookup = Box<dyn Fn(f64, f64) -> Option<String>>;

/// A model as an [`Entry`].
pub struct Registered<M>(PhantomData<fn() -> M>);

impl<M> Registered<M> {
    /// The entry of model `M`.
    pub const NEW: Registered<M> = Registered(PhantomData);
}

/// The most unreadable numbers reported at once.
const MAX_UNREADABLE: usize = 64;

/// The typed request, with every problem of the body when it is not one.
///
/// JSON has no NaN, so a page's unreadable number arrives as `null`, and
/// text the page cannot read as a number arrives as that text; each such
/// field is reported and read as a stand-in, so that the other fields are
/// still checked and every bad field gets its message at once.
fn typed<M: Model>(mut body: Value) -> Result<M::Request, Vec<Error>> {
    let mut unreadable = Vec::new();
    let request = loop {
        match serde_path_to_error::deserialize::<_, M::Request>(&body) {
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

impl<M: Model> Entry for Registered<M> {
    fn name(&self) -> &'static str {
        M::NAME
    }

    fn title(&self) -> &'static str {
        M::TITLE
    }

    fn number(&self) -> Option<u8> {
        M::NUMBER
    }

    fn former(&self) -> Former {
        M::FORMER
    }

    fn command(&self) -> Option<&'static str> {
        M::COMMAND
    }

    fn owns_time_limit(&self) -> bool {
        M::OWN_TIME_LIMIT
    }

    fn presets(&self) -> Vec<(&'static str, &'static str, Value)> {
        M::presets()
            .into_iter()
            .filter_map(|p| {
                let mut value = serde_json::to_value(&p.request).ok()?;
                value
                    .as_object_mut()?
                    .insert("model".into(), Value::String(M::NAME.into()));
                Some((p.name, p.label, value))
            })
            .collect()
    }

    fn problems(&self, body: Value) -> Vec<Error> {
        typed::<M>(body).err().unwrap_or_default()
    }

    fn run(&self, body: Value, progress: &mut dyn Progress) -> Result<Response, Error> {
        let request = typed::<M>(body).map_err(first)?;
        let output = M::solve(&request, progress)?;
        Response::new(M::NAME, &output)
    }

    fn csv(&self, response: Value) -> Result<Option<String>, Error> {
        Ok(output::<M>(response)?.csv())
    }

    fn form(&self) -> Form {
        M::form()
    }

    fn request_from_table(
        &self,
        text: &str,
        options: &BTreeMap<String, String>,
    ) -> Option<Result<Value, Error>> {
        let request = match M::from_table(text, options)? {
            Ok(request) => request,
            Err(e) => return Some(Err(e)),
        };
        let mut value = match serde_json::to_value(&request) {
            Ok(value) => value,
            Err(e) => return Some(Err(Error::Malformed(e.to_string()))),
        };
        if let Some(fields) = value.as_object_mut() {
            fields.insert("model".into(), Value::String(M::NAME.into()));
        }
        Some(Ok(value))
    }

    fn calibrated(&self, calibration: &Calibration) -> Option<Offer> {
        let filled = M::calibrated(calibration)?;
        let request = serde_json::to_value(&filled.request).ok()?;
        Some(Offer {
            model: M::NAME.into(),
            title: M::TITLE.into(),
            request: crate::core::framework::model::tagged::<M>(&request),
            filled: filled.filled,
        })
    }

    fn fill_row(&self, column: &str, row: &mut BTreeMap<String, String>) {
        M::fill_row(column, row);
    }

    fn split(&self, body: Value) -> Result<Vec<Value>, Error> {
        let request = typed::<M>(body).map_err(first)?;
        M::split(&request)
            .iter()
            .map(|part| {
                let mut value =
                    serde_json::to_value(part).map_err(|e| Error::Malformed(e.to_string()))?;
                if let Some(fields) = value.as_object_mut() {
                    fields.insert("model".into(), Value::String(M::NAME.into()));
                }
                Ok(value)
            })
            .collect()
    }

    fn join(&self, body: Value, parts: Vec<Value>) -> Result<Response, Error> {
        let request = typed::<M>(body).map_err(first)?;
        let parts = parts
            .into_iter()
            .map(output::<M>)
            .collect::<Result<Vec<_>, _>>()?;
        Response::new(M::NAME, &M::join(&request, parts)?)
    }

    fn charts(&self, response: Value, options: &Value) -> Result<Vec<LineChart>, Error> {
        Ok(M::charts_with(&output::<M>(response)?, options))
    }

    fn lookup(&self, response: Value) -> Result<Lookup, Error> {
        let output = output::<M>(response)?;
        Ok(Box::new(move |x, y| M::point_text(&output, x, y)))
    }

    fn exercises(&self) -> Vec<Template> {
        M::exercises()
    }

    fn activity_style(&self, activity: &Activity) -> ActivityStyle {
        activity
            .shared_style()
            .or_else(|| M::activity_style(activity))
            .unwrap_or_else(ActivityStyle::unknown)
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn schema(&self) -> Value {
        let schema = M::request_schema();
        let tag = (M::NAME, M::FORMER.tag);
        crate::core::framework::schema::tagged(schema, tag, M::TITLE, M::OWN_TIME_LIMIT)
    }

    fn map_parameters(&self) -> Vec<Parameter> {
        M::map_parameters().iter().map(|p| p.about).collect()
    }

    fn map_presets(&self) -> Vec<MapPreset> {
        M::map_presets()
    }

    fn map_base(&self, body: Value) -> Result<Box<dyn MapBase>, Vec<Error>> {
        let request = typed::<M>(body)?;
        Ok(Box::new(Based::<M>(request)))
    }
}

/// A model's output read back from a response's JSON.
fn output<M: Model>(response: Value) -> Result<M::Output, Error> {
    serde_json::from_value(Response::output_fields(response))
        .map_err(|e| Error::Malformed(shorten(&e.to_string())))
}

/// The first of a request's problems (there is at least one).
pub fn first(problems: Vec<Error>) -> Error {
    let fallback = || Error::Malformed("the request is invalid".into());
    problems.into_iter().next().unwrap_or_else(fallback)
}

/// A request of model `M` as a map's base.
pub struct Based<M: Model>(pub M::Request);

impl<M: Model> MapBase for Based<M> {
    fn parameters(&self) -> Vec<Parameter> {
        let whole = M::map_parameters().into_iter().map(|p| p.about);
        whole
            .chain(M::map_row_parameters().into_iter().map(|p| p.about))
            .collect()
    }

    fn quantities(&self) -> Vec<MapQuantity> {
        M::map_quantities()
    }

    fn max_cells(&self) -> usize {
        M::MAX_MAP_CELLS
    }

    fn has(&self, name: &str) -> bool {
        let fields = serde_json::to_value(&self.0).ok();
        let field = fields.as_ref().and_then(|f| f.get(name));
        field.is_some_and(|v| !v.is_null())
    }

    fn rows(&self, table: &str) -> usize {
        let fields = serde_json::to_value(&self.0).ok();
        let rows = fields
            .as_ref()
            .and_then(|f| f.get(table)?.as_array().map(Vec::len));
        rows.unwrap_or(0)
    }

    fn measure_at(
        &self,
        settings: &[(Target, f64)],
        quantity: Quantity,
        cache: &mut Cache,
    ) -> Result<Option<Measured>, Error> {
        let request = self.set(settings)?;
        if !request.problems().is_empty() {
            return Ok(None);
        }
        M::measure(&request, quantity, cache).map(Some)
    }

    fn request_at(&self, settings: &[(Target, f64)]) -> Result<Value, Vec<Error>> {
        let request = self.set(settings).map_err(|e| vec![e])?;
        let problems = request.problems();
        if !problems.is_empty() {
            return Err(problems);
        }
        serde_json::to_value(&request).map_err(|e| vec![Error::Malformed(e.to_string())])
    }
}

impl<M: Model> Based<M> {
    /// The base request with the targets of `settings` set, in the order
    /// of the parameters (a parameter defined through others after them).
    fn set(&self, settings: &[(Target, f64)]) -> Result<M::Request, Error> {
        let mut request = self.0.clone();
        let whole = M::map_parameters();
        let rows = M::map_row_parameters();
        let mut settings = settings.to_vec();
        settings.sort_by_key(|(target, _)| target.parameter);
        for (target, value) in settings {
            match target.parameter.checked_sub(whole.len()) {
                None => (whole[target.parameter].set)(&mut request, value),
                Some(i) => match (rows.get(i), target.row) {
                    (Some(p), Some(k)) if k < self.rows(p.about.row_of.unwrap_or("")) => {
                        (p.set)(&mut request, k, value)
                    }
                    _ => return Err(Error::Malformed("an axis lost its parameter".into())),
                },
            }
        }
        Ok(request)
    }
}
