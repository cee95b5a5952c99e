//! Generalised maps in the registry: presets and the answer.

use std::marker::PhantomData;

use serde::{Deserialize, Serialize};

use super::{mapped, Contour, Request};
use crate::core::domain::error::Error;
use crate::core::framework::model::{Former, Identity, Model, Preset};
use crate::core::framework::parts::Parts;
use crate::core::framework::registry::Registry;
use crate::core::presentation::chart::LineChart;
use crate::core::presentation::form::Form;
use crate::core::presentation::response::Views;
use crate::core::presentation::view::Block;
use crate::core::solving::progress::Progress;

/// A generalised map (`[1]`): lines of equal value over two parameters
/// of any mapped model of the registry `R`.
#[derive(Debug)]
pub struct GeneralisedMap<R>(PhantomData<R>);

/// A generalised map's answer: the grid with its lines, and their chart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Output {
    /// The grid and the lines.
    pub contour: Box<Contour>,
    /// The lines, drawn.
    pub charts: Vec<LineChart>,
}

impl Views for Output {
    fn charts(&self) -> &[LineChart] {
        &self.charts
    }

    fn csv(&self) -> Option<String> {
        Some(self.contour.csv())
    }

    fn view(&self) -> Vec<Block> {
        self.contour.view()
    }
}

impl Output {
    /// The answer for `contour`, with its chart.
    pub fn of<R: Registry>(request: &Request<R>, contour: Contour) -> Output {
        Output {
            charts: vec![contour.chart(request)],
            contour: Box::new(contour),
        }
    }
}

impl<R: Registry> Model for GeneralisedMap<R> {
    const ID: Identity = Identity {
        former: Former {
            tag: None,
            tab: "gmap",
            prefix: "g.",
        },
        ..Identity::new("contour", "Generalised maps")
    };
    type Request = Request<R>;
    type Output = Output;

    fn presets() -> Vec<Preset<Request<R>>> {
        super::presets::presets()
    }

    fn solve(request: &Request<R>, progress: &mut dyn Progress) -> Result<Output, Error> {
        Ok(Output::of(request, request.contour(progress)?))
    }

    fn form() -> Form {
        super::view::form(&mapped::<R>())
    }

    /// Bands of grid rows, each a request of its own.
    fn parts() -> Option<Parts<Request<R>, Output>> {
        Some(Parts {
            split: Request::parts,
            join,
        })
    }
}

/// The map from its bands' answers (those ready so far).
fn join<R: Registry>(request: &Request<R>, parts: Vec<Output>) -> Result<Output, Error> {
    let grids = parts.into_iter().map(|p| *p.contour).collect();
    match request.joined(grids) {
        Some(grid) => Ok(Output::of(request, grid)),
        None => Err(Error::Malformed("a map joins at least one part".into())),
    }
}
