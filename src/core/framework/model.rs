//! The one trait every model implements, so that the page, the command
//! line and the registry treat all of them alike.
//!
//! A model owns its request type (validated whole by [`Validate`] before
//! any work), its solver and its output (the report and the views a front
//! end draws). Adding a model is a new folder that implements this trait
//! and one line in [`crate::registry`].

use std::collections::BTreeMap;

use schemars::{JsonSchema, Schema};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::core::domain::error::{Error, Validate};
use crate::core::framework::calibration::{Calibrated, Calibration};
use crate::core::framework::exercise::Template;
use crate::core::presentation::chart::LineChart;
use crate::core::presentation::form::Form;
use crate::core::presentation::gantt::{Activity, ActivityStyle};
use crate::core::presentation::map::{
    Cache, MapParameter, MapPreset, MapQuantity, Measured, Quantity, RowParameter, Tagged,
};
use crate::core::presentation::response::{Response, Views};
use crate::core::solving::progress::Progress;

/// Hands a provisional answer of model `M` (a map's first lines, M5's best
/// schedule so far) to `progress` as a whole response, so that a page shows
/// it as it would show the final one.
pub fn hand_out<M: Model>(output: &M::Output, progress: &mut dyn Progress) {
    if let Ok(response) = Response::new(M::NAME, output) {
        progress.partial(&response);
    }
}

/// `json` with the `"model"` tag of model `M`, for "open in the
/// calculator".
pub fn tagged<M: Model>(json: &Value) -> Value {
    let mut json = json.clone();
    if let Value::Object(fields) = &mut json {
        fields.insert("model".into(), Value::from(M::NAME));
    }
    json
}

/// A built-in request of a model.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset<R> {
    /// The name `dlt example` and the page's preset list use.
    pub name: &'static str,
    /// One line: where it comes from and what it shows.
    pub label: &'static str,
    /// The request itself.
    pub request: R,
}

/// The names a model was published under before its id, still read so that
/// old requests, links and sheets keep working.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Former {
    /// An older request tag (`None`: the tag never changed).
    pub tag: Option<&'static str>,
    /// The page's older tab id (`m4`), read in a link's `tab`.
    pub tab: &'static str,
    /// What the tab's keys started with in older links (`mi.`; empty: no
    /// prefix, the keys bare).
    pub prefix: &'static str,
}

impl Former {
    /// A model first published under its id: nothing to read.
    pub const NONE: Former = Former {
        tag: None,
        tab: "",
        prefix: "",
    };
}

/// A model of the calculator (or a map over one): request in, output out.
pub trait Model: 'static {
    /// The model's one id: its folder, request tag (`"model"`), tab, link
    /// prefix (`<id>.`), and the start of its presets' and exercises' names.
    const NAME: &'static str;
    /// A short title for lists and tabs.
    const TITLE: &'static str;
    /// Its number in the course (`M4`, display only), which also orders the
    /// registry; `None` for the tools over every model (maps, sheets), listed
    /// after the numbered ones.
    const NUMBER: Option<u8> = None;
    /// The names it had before its id.
    const FORMER: Former = Former::NONE;
    /// A verb of the command line that solves its requests, and its
    /// default example without a file (`dlt map`), if it has one.
    const COMMAND: Option<&'static str> = None;
    /// Whether the request has its own `max_seconds` and stops itself with
    /// a status of its own; otherwise the registry applies the time limit.
    const OWN_TIME_LIMIT: bool = false;

    /// The request, as read from JSON (`Sync`: a generalised map reads one
    /// from several threads; `JsonSchema`: its schema is derived from the
    /// same serde attributes that read it, see [`Model::request_schema`]).
    type Request: Serialize + DeserializeOwned + JsonSchema + Validate + Clone + Sync + 'static;
    /// The answer: the report and its views (read back by the page when
    /// it joins the answers of several workers).
    type Output: Serialize + DeserializeOwned + Views;

    /// The built-in requests, the first being the tab's default.
    fn presets() -> Vec<Preset<Self::Request>>;

    /// The JSON Schema (draft 2020-12) of the request without its
    /// `"model"` tag, derived from the request type so that a new model
    /// has one with no code of its own ([`crate::core::framework::entry::Entry::schema`]
    /// adds the tag).
    fn request_schema() -> Schema {
        schemars::schema_for!(Self::Request)
    }

    /// Solves a request that [`Validate::check`] accepted.
    ///
    /// # Errors
    ///
    /// [`Error::Solver`] when a solver fails, [`Error::Cancelled`] when
    /// `progress` asks to stop, [`Error::Field`] for a request that was not
    /// validated first.
    fn solve(request: &Self::Request, progress: &mut dyn Progress) -> Result<Self::Output, Error>;

    /// The page's tab: its fields and how it shows the answer.
    fn form() -> Form;

    /// A request made from one table of measurements as people keep them
    /// (CSV or TSV text), so that `dlt VERB FILE.csv` needs no JSON; the
    /// command line's options for it by name (`shape`, …) with their values
    /// as typed (an option naming a file: the file's text). `None`: the
    /// model reads no tables.
    fn from_table(
        _text: &str,
        _options: &BTreeMap<String, String>,
    ) -> Option<Result<Self::Request, Error>> {
        None
    }

    /// The exercises the model poses for a sheet (none by default).
    fn exercises() -> Vec<Template> {
        Vec::new()
    }

    /// Parts of the request a page may compute apart, one per worker (e.g.
    /// one machine count of a map each); empty when the request is one
    /// piece of work.
    fn split(_request: &Self::Request) -> Vec<Self::Request> {
        Vec::new()
    }

    /// The answer to the whole request from the answers to its parts (all
    /// of them, or those ready so far).
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] for a model that is not split.
    fn join(_request: &Self::Request, _parts: Vec<Self::Output>) -> Result<Self::Output, Error> {
        Err(Error::Malformed(format!(
            "{} answers are not joined",
            Self::NAME
        )))
    }

    /// Fills cells of a row of the form's table after the user changed its
    /// `column` (one marked [`crate::core::presentation::form::Column::fills`]): the
    /// cells as the page holds them, texts keyed by column. Nothing by
    /// default.
    fn fill_row(_column: &str, _row: &mut BTreeMap<String, String>) {}

    /// The charts drawn with the page's view options (e.g. the map's
    /// overlays); by default the output's own.
    fn charts_with(output: &Self::Output, _options: &Value) -> Vec<LineChart> {
        output.charts().to_vec()
    }

    /// The model's default request with the measured parameters put in
    /// (see [`crate::core::framework::calibration`]); `None` when the measurements
    /// hold nothing the model reads.
    fn calibrated(_calibration: &Calibration) -> Option<Calibrated<Self::Request>> {
        None
    }

    /// How a Gantt chart draws an activity of the model's own (one the
    /// shared kinds of [`Activity`] do not cover); `None` for any other.
    fn activity_style(_activity: &Activity) -> Option<ActivityStyle> {
        None
    }

    /// What lies under the pointer at chart coordinates `(x, y)`, in words.
    fn point_text(_output: &Self::Output, _x: f64, _y: f64) -> Option<String> {
        None
    }

    // A model that names parameters and quantities here is mapped by the
    // generalised maps (`crate::maps::contour`); one that names none is not.

    /// The most grid cells of one map of the model (each cell is a solve).
    const MAX_MAP_CELLS: usize = 40_000;

    /// The numbers of a request a map may vary, in the order a map sets
    /// them (a parameter defined through others after them).
    fn map_parameters() -> Vec<MapParameter<Self::Request>> {
        Vec::new()
    }

    /// The numbers of one row of a table of the request (a group of
    /// machines) a map may vary, set after [`Model::map_parameters`].
    fn map_row_parameters() -> Vec<RowParameter<Self::Request>> {
        Vec::new()
    }

    /// The quantities a map may measure.
    fn map_quantities() -> Vec<MapQuantity> {
        Vec::new()
    }

    /// The maps of the model worth a preset of the generalised maps.
    fn map_presets() -> Vec<MapPreset> {
        Vec::new()
    }

    /// `quantity` at a valid request, with its proven gap; `cache` keeps
    /// what helps the next cell (it starts empty for every map).
    ///
    /// # Errors
    ///
    /// The solver's errors; [`Error::Malformed`] for a quantity the model
    /// does not list.
    fn measure(
        _request: &Self::Request,
        quantity: Quantity,
        _cache: &mut Cache,
    ) -> Result<Measured, Error> {
        Err(Error::Malformed(format!(
            "{} does not measure {}",
            Self::NAME,
            quantity.name()
        )))
    }
}

/// A request as a map's base, built and read with its model's type (here,
/// not in `map`, which knows no model).
impl Tagged {
    /// The request of model `M`.
    pub fn of<M: Model>(request: &M::Request) -> Tagged {
        let fields = match serde_json::to_value(request) {
            Ok(Value::Object(fields)) => fields,
            _ => Map::new(),
        };
        Tagged {
            model: M::NAME.into(),
            fields,
        }
    }

    /// The typed request, when it is one of model `M`.
    pub fn read<M: Model>(&self) -> Option<M::Request> {
        if self.model != M::NAME {
            return None;
        }
        serde_json::from_value(Value::Object(self.fields.clone())).ok()
    }
}
