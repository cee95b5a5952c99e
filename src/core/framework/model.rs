//! The one trait every model implements, so that the page, the command
//! line and the registry treat all of them alike.
//!
//! A model owns its request type (validated whole by [`Validate`] before
//! any work), its solver and its output (the report and the views a front
//! end draws). Adding a model is a new folder that implements this trait
//! and its `mod` and registry lines in [`crate::models`].
//!
//! # Design
//!
//! The trait holds what every model has (who it is, its request, its
//! solver, its tab and presets) and one item per optional capability, each
//! returning the capability whole (a struct of functions, in its own
//! module: [`Maps`], [`Parts`], [`Calibrate`], [`Page`]; [`TableInput`], of
//! one model only, is the trait its folder implements).
//! A model opts into a capability at once, with every function it needs;
//! the [`Entry`](super::entry::Entry) the front ends walk hands the same
//! capabilities on, seen through JSON, so a new function of a capability
//! changes its module and the front end that uses it, not the trait.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::core::domain::error::{Error, Validate};
use crate::core::framework::calibration::Calibrate;
use crate::core::framework::checker::Checker;
use crate::core::framework::exercise::Template;
use crate::core::framework::maps::Maps;
use crate::core::framework::page::Page;
use crate::core::framework::parts::Parts;
use crate::core::framework::table::TableInput;
use crate::core::presentation::form::Form;
use crate::core::presentation::map::Tagged;
use crate::core::presentation::response::{Response, Views};
use crate::core::solving::progress::Progress;

/// Hands a provisional answer of model `M` (a map's first lines, M5's best
/// schedule so far) to `progress` as a whole response, so that a page shows
/// it as it would show the final one.
pub fn hand_out<M: Model>(output: &M::Output, progress: &mut dyn Progress) {
    if let Ok(response) = Response::new(M::ID.name, output) {
        progress.partial(&response);
    }
}

/// `json` with the `"model"` tag of model `M`, for "open in the
/// calculator".
pub fn tagged<M: Model>(json: &Value) -> Value {
    let mut json = json.clone();
    if let Value::Object(fields) = &mut json {
        fields.insert("model".into(), Value::from(M::ID.name));
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

/// Who a model is: the names the front ends know it by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Identity {
    /// The model's one id: its folder, request tag (`"model"`), tab, link
    /// prefix (`<id>.`), and the start of its presets' and exercises' names.
    pub name: &'static str,
    /// A short title for lists and tabs.
    pub title: &'static str,
    /// Its number in the course (`M4`, display only), which also orders the
    /// registry; `None` for the tools over every model (maps, sheets), listed
    /// after the numbered ones.
    pub number: Option<u8>,
    /// The names it had before its id.
    pub former: Former,
    /// A verb of the command line that solves its requests, and its
    /// default example without a file (`dlt map`), if it has one.
    pub command: Option<&'static str>,
    /// Whether the request has its own `max_seconds` and stops itself with
    /// a status of its own; otherwise the registry applies the time limit.
    pub own_time_limit: bool,
}

impl Identity {
    /// Model `name` titled `title`: no number, no former names, no verb,
    /// no time limit of its own.
    pub const fn new(name: &'static str, title: &'static str) -> Identity {
        Identity {
            name,
            title,
            number: None,
            former: Former::NONE,
            command: None,
            own_time_limit: false,
        }
    }
}

/// A model of the calculator (or a tool over the models): request in,
/// output out. The first six items are what every model has; each of the
/// others is a whole capability, opted into by returning it (see each
/// one's module), so that a new capability is a new item here and a new
/// file, never a change to every model.
pub trait Model: 'static {
    /// Who it is.
    const ID: Identity;
    /// The request, as read from JSON (`Sync`: a generalised map reads one
    /// from several threads; `JsonSchema`: its schema is derived from the
    /// same serde attributes that read it).
    type Request: Serialize + DeserializeOwned + JsonSchema + Validate + Clone + Sync + 'static;
    /// The answer: the report and its views (read back by the page when
    /// it joins the answers of several workers).
    type Output: Serialize + DeserializeOwned + Views + 'static;

    /// The built-in requests, the first being the tab's default.
    fn presets() -> Vec<Preset<Self::Request>>;

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

    /// The exercises it poses for a sheet.
    fn exercises() -> Vec<Template> {
        Vec::new()
    }

    /// What a generalised map may vary and measure; `None`: not mapped.
    fn maps() -> Option<Maps<Self::Request>> {
        None
    }

    /// How a request splits into pieces for the page's workers; `None`:
    /// every request is one piece of work.
    fn parts() -> Option<Parts<Self::Request, Self::Output>> {
        None
    }

    /// How it takes measured parameters from the fit; `None`: it takes none.
    fn calibration() -> Option<Calibrate<Self::Request>> {
        None
    }

    /// How it reads a table of measurements; `None`: only JSON requests.
    fn table_input() -> Option<Box<dyn TableInput>> {
        None
    }

    /// How the page shows its answers beyond their views.
    fn page() -> Page<Self::Output> {
        Page::default()
    }

    /// How it checks a schedule given by hand against a request; `None`:
    /// its answers are not chunked schedules on a star.
    fn checker() -> Option<Checker<Self::Request, Self::Output>> {
        None
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
            model: M::ID.name.into(),
            fields,
        }
    }

    /// The typed request, when it is one of model `M`.
    pub fn read<M: Model>(&self) -> Option<M::Request> {
        if self.model != M::ID.name {
            return None;
        }
        serde_json::from_value(Value::Object(self.fields.clone())).ok()
    }
}
