//! The parts capability: a request a page computes in pieces, one per
//! worker (a map's machine counts, Table 1's rows), and the answer joined
//! from the pieces' answers, to the last bit the whole request's.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::core::domain::error::{Error, Validate};
use crate::core::framework::json::{first, output, typed, with_tag};
use crate::core::presentation::response::{Response, Views};

/// How requests of type `R` split, and answers of type `O` join.
pub struct Parts<R, O> {
    /// The pieces of a request, each a request of its own; empty when the
    /// request is one piece of work.
    pub split: fn(&R) -> Vec<R>,
    /// The answer to a request from its pieces' answers (all of them, or
    /// those ready so far).
    pub join: fn(&R, Vec<O>) -> Result<O, Error>,
}

/// A model's parts seen through JSON.
pub trait JsonParts {
    /// The pieces of a request body, each with its tag.
    ///
    /// # Errors
    ///
    /// The request's first problem.
    fn split(&self, body: Value) -> Result<Vec<Value>, Error>;

    /// The answer to a request from the answers to its pieces.
    ///
    /// # Errors
    ///
    /// The request's first problem, or [`Error::Malformed`] for a piece's
    /// answer that is not one of this model.
    fn join(&self, body: Value, parts: Vec<Value>) -> Result<Response, Error>;
}

/// The parts of model `model`, which tag the pieces and the answer.
struct Tagged<R, O> {
    model: &'static str,
    parts: Parts<R, O>,
}

impl<R, O> Parts<R, O>
where
    R: Serialize + DeserializeOwned + Validate + 'static,
    O: Serialize + DeserializeOwned + Views + 'static,
{
    /// These parts, of model `model`, seen through JSON.
    pub fn json(self, model: &'static str) -> Box<dyn JsonParts> {
        Box::new(Tagged { model, parts: self })
    }
}

impl<R, O> JsonParts for Tagged<R, O>
where
    R: Serialize + DeserializeOwned + Validate,
    O: Serialize + DeserializeOwned + Views,
{
    fn split(&self, body: Value) -> Result<Vec<Value>, Error> {
        let request: R = typed(body).map_err(first)?;
        (self.parts.split)(&request)
            .iter()
            .map(|piece| with_tag(self.model, piece))
            .collect()
    }

    fn join(&self, body: Value, parts: Vec<Value>) -> Result<Response, Error> {
        let request: R = typed(body).map_err(first)?;
        let parts = parts
            .into_iter()
            .map(output::<O>)
            .collect::<Result<Vec<_>, _>>()?;
        Response::new(self.model, &(self.parts.join)(&request, parts)?)
    }
}
