//! A model seen through JSON: what the command line, the page's binding
//! module and the models over the registry need of any model, implemented
//! once for every [`Model`]. Its optional capabilities are handed on whole,
//! each seen through JSON by its own module.

use std::marker::PhantomData;

use serde_json::Value;

use crate::core::domain::error::Error;
use crate::core::framework::calibration::{Calibration, Offer};
use crate::core::framework::checker::{self, Checked};
use crate::core::framework::exercise::Template;
use crate::core::framework::json::{first, typed, with_tag};
use crate::core::framework::maps::{Based, JsonMaps};
use crate::core::framework::model::{Identity, Model};
use crate::core::framework::page::JsonPage;
use crate::core::framework::parts::JsonParts;
use crate::core::framework::table::TableInput;
use crate::core::presentation::form::Form;
use crate::core::presentation::map::MapBase;
use crate::core::presentation::response::Response;
use crate::core::solving::progress::Progress;

/// A model seen through JSON: what the front ends need of any model.
pub trait Entry: Sync {
    /// Who it is ([`Model::ID`]).
    fn id(&self) -> Identity;
    /// The presets: name, label and the request as JSON (with its tag).
    fn presets(&self) -> Vec<(&'static str, &'static str, Value)>;
    /// The page's tab.
    fn form(&self) -> Form;
    /// The exercises it poses.
    fn exercises(&self) -> Vec<Template>;
    /// Every invalid field of a request body (the tag removed).
    fn problems(&self, body: Value) -> Vec<Error>;
    /// Reads, validates and solves a request body.
    ///
    /// # Errors
    ///
    /// The first invalid field, or the solver's error.
    fn run(&self, body: Value, progress: &mut dyn Progress) -> Result<Response, Error>;
    /// A request body, read and checked, whose numbers can be set by the
    /// names its maps give them (none when it is not mapped).
    ///
    /// # Errors
    ///
    /// Every problem of the body.
    fn base(&self, body: Value) -> Result<Box<dyn MapBase>, Vec<Error>>;
    /// Its maps ([`Model::maps`]).
    fn maps(&self) -> Option<Box<dyn JsonMaps>>;
    /// Its parts ([`Model::parts`]).
    fn parts(&self) -> Option<Box<dyn JsonParts>>;
    /// Its default request filled from `calibration` as the fit offers it
    /// ([`Model::calibration`]).
    fn calibrated(&self, calibration: &Calibration) -> Option<Offer>;
    /// Its table input ([`Model::table_input`]).
    fn table_input(&self) -> Option<Box<dyn TableInput>>;
    /// How the page shows its answers ([`Model::page`]).
    fn page(&self) -> Box<dyn JsonPage>;
    /// Whether it checks given schedules ([`Model::checker`]).
    fn checks_schedules(&self) -> bool;
    /// Checks the schedule `given` against a request body and the model's
    /// `answer` to it, or solving it when there is none
    /// ([`checker::check`]); `None` when the model checks no schedules.
    fn check_schedule(
        &self,
        body: Value,
        given: Value,
        answer: Option<Value>,
        progress: &mut dyn Progress,
    ) -> Option<Result<Checked, Error>>;
    /// The JSON Schema (draft 2020-12) of a whole request, its `"model"`
    /// tag included ([`crate::core::framework::schema::tagged`]). Native
    /// only: the page does not need it, and the wasm module stays smaller
    /// without.
    #[cfg(not(target_arch = "wasm32"))]
    fn schema(&self) -> Value;
}

/// A model as an [`Entry`].
pub struct Registered<M>(PhantomData<fn() -> M>);

impl<M> Registered<M> {
    /// The entry of model `M`.
    pub const NEW: Registered<M> = Registered(PhantomData);
}

impl<M: Model> Entry for Registered<M> {
    fn id(&self) -> Identity {
        M::ID
    }

    fn presets(&self) -> Vec<(&'static str, &'static str, Value)> {
        M::presets()
            .into_iter()
            .filter_map(|p| Some((p.name, p.label, with_tag(M::ID.name, &p.request).ok()?)))
            .collect()
    }

    fn form(&self) -> Form {
        M::form()
    }

    fn exercises(&self) -> Vec<Template> {
        M::exercises()
    }

    fn problems(&self, body: Value) -> Vec<Error> {
        typed::<M::Request>(body).err().unwrap_or_default()
    }

    fn run(&self, body: Value, progress: &mut dyn Progress) -> Result<Response, Error> {
        let request = typed::<M::Request>(body).map_err(first)?;
        let output = M::solve(&request, progress)?;
        Response::new(M::ID.name, &output)
    }

    fn base(&self, body: Value) -> Result<Box<dyn MapBase>, Vec<Error>> {
        Ok(Box::new(Based {
            model: M::ID.name,
            request: typed::<M::Request>(body)?,
            maps: M::maps(),
        }))
    }

    fn maps(&self) -> Option<Box<dyn JsonMaps>> {
        Some(Box::new(M::maps()?))
    }

    fn parts(&self) -> Option<Box<dyn JsonParts>> {
        Some(M::parts()?.json(M::ID.name))
    }

    fn calibrated(&self, calibration: &Calibration) -> Option<Offer> {
        M::calibration()?(calibration)?.offer(M::ID.name, M::ID.title)
    }

    fn table_input(&self) -> Option<Box<dyn TableInput>> {
        M::table_input()
    }

    fn page(&self) -> Box<dyn JsonPage> {
        Box::new(M::page())
    }

    fn checks_schedules(&self) -> bool {
        M::checker().is_some()
    }

    fn check_schedule(
        &self,
        body: Value,
        given: Value,
        answer: Option<Value>,
        progress: &mut dyn Progress,
    ) -> Option<Result<Checked, Error>> {
        Some(checker::check(
            &M::checker()?,
            M::ID.name,
            body,
            given,
            answer,
            |request| M::solve(request, progress),
        ))
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn schema(&self) -> Value {
        let schema = schemars::schema_for!(M::Request);
        let id = M::ID;
        crate::core::framework::schema::tagged(
            schema,
            (id.name, id.former.tag),
            id.title,
            id.own_time_limit,
        )
    }
}
