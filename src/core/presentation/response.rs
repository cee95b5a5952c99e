//! The answer to any request, in the one shape the page and the command
//! line read: the model's tag, its output's fields, and the views every
//! front end knows how to show (a Gantt chart, line charts, a CSV table).

use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::core::domain::error::Error;
use crate::core::presentation::chart::LineChart;
use crate::core::presentation::gantt::Gantt;
use crate::core::presentation::view::Block;

/// What a front end can show of an output besides its numbers.
pub trait Views {
    /// The Gantt chart of the schedule, when there is one to draw.
    fn gantt(&self) -> Option<&Gantt> {
        None
    }

    /// The line charts (none when no series was asked for).
    fn charts(&self) -> &[LineChart] {
        &[]
    }

    /// The result as CSV, for outputs that are tables or grids.
    fn csv(&self) -> Option<String> {
        None
    }

    /// The numbers as the page shows them, in reading order.
    fn view(&self) -> Vec<Block> {
        Vec::new()
    }
}

/// A report that lays itself out for the page.
pub trait Describe {
    /// The report's blocks, in reading order.
    fn view(&self) -> Vec<Block>;

    /// The report as CSV, for a report that is a table of numbers (none
    /// by default).
    fn csv(&self) -> Option<String> {
        None
    }
}

/// The answer of a model with one report: the report and the charts drawn
/// from it. Models whose answer is a map or a table have their own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answer<R> {
    /// The numbers.
    pub report: Box<R>,
    /// The schedule, drawn (absent when too large to draw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gantt: Option<Gantt>,
    /// Series against a parameter, when one was asked for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub charts: Vec<LineChart>,
}

impl<R: Describe> Views for Answer<R> {
    fn gantt(&self) -> Option<&Gantt> {
        self.gantt.as_ref()
    }

    fn charts(&self) -> &[LineChart] {
        &self.charts
    }

    fn view(&self) -> Vec<Block> {
        self.report.view()
    }

    fn csv(&self) -> Option<String> {
        self.report.csv()
    }
}

/// Whether a response is the final answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Completion {
    /// The computation ran to its end.
    Complete,
    /// A provisional answer: the best so far of a computation still running
    /// or stopped by its time limit.
    Partial,
}

/// A model's output in wire form, with its views.
#[derive(Debug, Clone, PartialEq)]
pub struct Response {
    fields: Map<String, Value>,
    gantt: Option<Gantt>,
    charts: Vec<LineChart>,
    csv: Option<String>,
    view: Vec<Block>,
}

impl Response {
    /// The response of model `model` for `output`.
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] if the output does not serialise to an object
    /// (a bug in the model, reported rather than hidden).
    pub fn new<O: Serialize + Views>(model: &str, output: &O) -> Result<Response, Error> {
        let value = serde_json::to_value(output).map_err(|e| Error::Malformed(e.to_string()))?;
        let Value::Object(mut fields) = value else {
            return Err(Error::Malformed(format!(
                "the {model} output is not an object"
            )));
        };
        fields.insert("model".into(), Value::String(model.into()));
        Ok(Response {
            fields,
            gantt: output.gantt().cloned(),
            charts: output.charts().to_vec(),
            csv: output.csv(),
            view: output.view(),
        })
    }

    /// The model that answered.
    pub fn model(&self) -> &str {
        self.fields
            .get("model")
            .and_then(Value::as_str)
            .unwrap_or_default()
    }

    /// A field of the output (e.g. `report`).
    pub fn get(&self, field: &str) -> Option<&Value> {
        self.fields.get(field)
    }

    /// Marks the response as provisional or final (the `status` of the
    /// whole response; a model's own report may carry a finer one).
    pub fn with_completion(mut self, completion: Completion) -> Response {
        if let Ok(value) = serde_json::to_value(completion) {
            self.fields.insert("completion".into(), value);
        }
        self
    }

    /// The response with a field a front end adds to the output's own
    /// (e.g. the `part` of a split request it answers, or the parts a
    /// joined response misses); `name` is not one of the output's fields.
    pub fn with_field(mut self, name: &str, value: Value) -> Response {
        self.fields.insert(name.into(), value);
        self
    }

    /// The Gantt chart, when the response has one.
    pub fn gantt(&self) -> Option<&Gantt> {
        self.gantt.as_ref()
    }

    /// The line charts of the response.
    pub fn charts(&self) -> &[LineChart] {
        &self.charts
    }

    /// The result as CSV, for the responses that are tables.
    pub fn csv(&self) -> Option<&str> {
        self.csv.as_deref()
    }

    /// The numbers as the page shows them.
    pub fn view(&self) -> &[Block] {
        &self.view
    }

    /// An output from a response as JSON (of the page or the command line):
    /// the fields [`Response`] adds to the output's own are taken out.
    pub fn output_fields(mut value: Value) -> Value {
        if let Some(fields) = value.as_object_mut() {
            for added in ["model", "completion", "view", "has_csv", "part"] {
                fields.remove(added);
            }
        }
        value
    }

    /// The response with its view (and whether it has a CSV form), as the
    /// page reads it.
    pub fn for_page(&self) -> Value {
        let mut fields = self.fields.clone();
        if let Ok(view) = serde_json::to_value(&self.view) {
            fields.insert("view".into(), view);
        }
        fields.insert("has_csv".into(), Value::Bool(self.csv.is_some()));
        Value::Object(fields)
    }
}

impl Serialize for Response {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.fields.serialize(serializer)
    }
}
