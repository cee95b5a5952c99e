//! The maps capability: the numbers of a model's request that a
//! generalised map (`crate::maps::contour`) may vary and the quantities it
//! may measure. A model that declares none is not mapped.
//!
//! Any model's request is also a [`MapBase`] here, so that the fit's
//! validity check sets a run's numbers by the names a map gives them; a
//! model that is not mapped still has its `load` set by name, the number
//! measured runs vary most (runs of M3's split at several loads).

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::core::domain::error::{Error, Validate};
use crate::core::presentation::map::{
    Cache, MapBase, MapParameter, MapPreset, MapQuantity, Measured, Parameter, Quantity,
    RowParameter, Target,
};

/// What a generalised map may do with requests of type `R`.
pub struct Maps<R> {
    /// The numbers of a request a map may vary, in the order a map sets
    /// them (a parameter defined through others after them).
    pub parameters: fn() -> Vec<MapParameter<R>>,
    /// The numbers of one row of a table of the request (a group of
    /// machines) a map may vary, set after [`Maps::parameters`].
    pub row_parameters: fn() -> Vec<RowParameter<R>>,
    /// The quantities a map may measure.
    pub quantities: fn() -> Vec<MapQuantity>,
    /// The maps of the model worth a preset of the generalised maps.
    pub presets: fn() -> Vec<MapPreset>,
    /// A quantity at a valid request, with its proven gap; the cache keeps
    /// what helps the next cell (it starts empty for every map).
    pub measure: fn(&R, Quantity, &mut Cache) -> Result<Measured, Error>,
    /// The most grid cells of one map of the model (each cell is a solve).
    pub max_cells: usize,
}

impl<R> Maps<R> {
    /// Maps over `parameters`, measuring `quantities` with `measure`: no
    /// row parameters, no presets, at most 40 000 cells.
    pub fn new(
        parameters: fn() -> Vec<MapParameter<R>>,
        quantities: fn() -> Vec<MapQuantity>,
        measure: fn(&R, Quantity, &mut Cache) -> Result<Measured, Error>,
    ) -> Maps<R> {
        Maps {
            parameters,
            row_parameters: Vec::new,
            quantities,
            presets: Vec::new,
            measure,
            max_cells: 40_000,
        }
    }
}

/// A model's maps seen without its request type.
pub trait JsonMaps {
    /// The parameters of the whole request a map may vary.
    fn parameters(&self) -> Vec<Parameter>;
    /// The maps worth a preset of the generalised maps.
    fn presets(&self) -> Vec<MapPreset>;
}

impl<R> JsonMaps for Maps<R> {
    fn parameters(&self) -> Vec<Parameter> {
        (self.parameters)().iter().map(|p| p.about).collect()
    }

    fn presets(&self) -> Vec<MapPreset> {
        (self.presets)()
    }
}

/// A request of model `model` as a map's base, set through its maps (none:
/// nothing can be set).
pub struct Based<R> {
    /// The model's id, for messages.
    pub model: &'static str,
    /// The request.
    pub request: R,
    /// What a map may vary and measure.
    pub maps: Option<Maps<R>>,
}

/// The parameter of an unmapped model's request: its load.
const LOAD: Parameter = Parameter::real("load", "the load V").unit("MB");

impl<R: Serialize + DeserializeOwned + Validate + Clone + Sync> MapBase for Based<R> {
    fn parameters(&self) -> Vec<Parameter> {
        let Some(maps) = &self.maps else {
            return if self.has("load") {
                vec![LOAD]
            } else {
                Vec::new()
            };
        };
        let whole = (maps.parameters)().into_iter().map(|p| p.about);
        whole
            .chain((maps.row_parameters)().into_iter().map(|p| p.about))
            .collect()
    }

    fn quantities(&self) -> Vec<MapQuantity> {
        self.maps
            .as_ref()
            .map(|m| (m.quantities)())
            .unwrap_or_default()
    }

    fn max_cells(&self) -> usize {
        self.maps.as_ref().map_or(0, |m| m.max_cells)
    }

    fn has(&self, name: &str) -> bool {
        let fields = serde_json::to_value(&self.request).ok();
        let field = fields.as_ref().and_then(|f| f.get(name));
        field.is_some_and(|v| !v.is_null())
    }

    fn rows(&self, table: &str) -> usize {
        let fields = serde_json::to_value(&self.request).ok();
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
        match &self.maps {
            Some(maps) => (maps.measure)(&request, quantity, cache).map(Some),
            None => Err(Error::Malformed(format!(
                "{} does not measure {}",
                self.model,
                quantity.name()
            ))),
        }
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

impl<R: Serialize + DeserializeOwned + Validate + Clone + Sync> Based<R> {
    /// The base request with the targets of `settings` set, in the order
    /// of the parameters (a parameter defined through others after them).
    fn set(&self, settings: &[(Target, f64)]) -> Result<R, Error> {
        let mut request = self.request.clone();
        let lost = || Error::Malformed("an axis lost its parameter".into());
        if settings.is_empty() {
            return Ok(request);
        }
        let Some(maps) = self.maps.as_ref() else {
            return self.with_load(settings);
        };
        let whole = (maps.parameters)();
        let rows = (maps.row_parameters)();
        let mut settings = settings.to_vec();
        settings.sort_by_key(|(target, _)| target.parameter);
        for (target, value) in settings {
            match target.parameter.checked_sub(whole.len()) {
                None => (whole[target.parameter].set)(&mut request, value),
                Some(i) => match (rows.get(i), target.row) {
                    (Some(p), Some(k)) if k < self.rows(p.about.row_of.unwrap_or("")) => {
                        (p.set)(&mut request, k, value)
                    }
                    _ => return Err(lost()),
                },
            }
        }
        Ok(request)
    }

    /// An unmapped model's request with its load set ([`LOAD`], the only
    /// parameter it has), through its JSON: the field is the request's own.
    fn with_load(&self, settings: &[(Target, f64)]) -> Result<R, Error> {
        let malformed = |e: serde_json::Error| Error::Malformed(e.to_string());
        let mut fields = serde_json::to_value(&self.request).map_err(malformed)?;
        for (target, value) in settings {
            if target.parameter != 0 || target.row.is_some() {
                return Err(Error::Malformed("an axis lost its parameter".into()));
            }
            fields["load"] = (*value).into();
        }
        serde_json::from_value(fields).map_err(malformed)
    }
}
