//! What a map needs of a model: the numbers it may vary and the
//! quantities it may measure, so that one map serves every model that
//! names them.
//!
//! A model lists its [`MapParameter`]s (each with the function that sets
//! it) and its [`MapQuantity`]s, and measures a quantity at one request
//! (its maps capability, `Maps` in `core::framework::maps`). A map reads
//! its base request through the registry as a [`MapBase`], which hides the
//! model's type: the map only sets parameters by position and asks for
//! values.

use std::any::Any;
use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::core::domain::error::Error;

/// A number of a model's request that a map's axis may vary.
pub struct MapParameter<R> {
    /// What the map's request calls it, and what it is.
    pub about: Parameter,
    /// Sets it in a request.
    pub set: fn(&mut R, f64),
}

/// A parameter of one row of a table of a model's request (a group of
/// machines), set on the row an axis names.
pub struct RowParameter<R> {
    /// What it is ([`Parameter::row_of`] names the table).
    pub about: Parameter,
    /// Sets it in row `k` of a request (an existing row).
    pub set: fn(&mut R, usize, f64),
}

/// What an axis sets: a parameter by its position among the base's, and
/// the row for a parameter of one row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Target {
    /// Its position in [`MapBase::parameters`].
    pub parameter: usize,
    /// The row, for a parameter of one row.
    pub row: Option<usize>,
}

impl Target {
    /// The target an axis names (`rate`, `machines[1].rate`) among
    /// `parameters`, if any (the row is not checked against the base).
    pub fn of(parameters: &[Parameter], name: &str) -> Option<Target> {
        let indexed = name.split_once('[').and_then(|(table, rest)| {
            let (k, field) = rest.split_once("].")?;
            Some((table, k.parse::<usize>().ok()?, field))
        });
        let position = |row_of: Option<&str>, name: &str| {
            parameters
                .iter()
                .position(|p| p.row_of == row_of && p.name == name)
        };
        match indexed {
            Some((table, k, field)) => position(Some(table), field).map(|parameter| Target {
                parameter,
                row: Some(k),
            }),
            None => position(None, name).map(|parameter| Target {
                parameter,
                row: None,
            }),
        }
    }
}

/// A parameter as a map sees it, whatever the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Parameter {
    /// Its name in an axis (`rate`).
    pub name: &'static str,
    /// Whether grid values are rounded to whole numbers (counts).
    pub whole: bool,
    /// What it is, with its unit (`communication time per unit of load, s`).
    pub meaning: &'static str,
    /// Its unit on an axis (`s/MB`); empty for a count or a ratio.
    pub unit: &'static str,
    /// A pure number (a ratio, a factor), which has no unit.
    pub pure: bool,
    /// The top-level field the base request must have for it to mean
    /// anything (`power` for a power of linear DLT).
    pub needs: Option<&'static str>,
    /// The table of the base whose rows it is set on one at a time,
    /// written `table[k].name` (`machines[1].rate`, `k` from 0); none for a
    /// parameter of the whole request.
    pub row_of: Option<&'static str>,
}

impl Parameter {
    /// A real-valued parameter.
    pub const fn real(name: &'static str, meaning: &'static str) -> Parameter {
        Parameter {
            name,
            whole: false,
            meaning,
            unit: "",
            pure: false,
            needs: None,
            row_of: None,
        }
    }

    /// A count: grid values are rounded.
    pub const fn count(name: &'static str, meaning: &'static str) -> Parameter {
        Parameter {
            whole: true,
            ..Parameter::real(name, meaning)
        }
    }

    /// Measured in `unit` (shown on a map's axis).
    pub const fn unit(self, unit: &'static str) -> Parameter {
        Parameter { unit, ..self }
    }

    /// A pure number (a ratio or a factor): no unit.
    pub const fn pure(self) -> Parameter {
        Parameter { pure: true, ..self }
    }

    /// Set on one row of the table `table` at a time.
    pub const fn in_rows(self, table: &'static str) -> Parameter {
        Parameter {
            row_of: Some(table),
            ..self
        }
    }

    /// How an axis names it: `name`, or `table[k].name` with `k` for
    /// [`Parameter::row_of`].
    pub fn written(&self) -> String {
        match self.row_of {
            Some(table) => format!("{table}[k].{}", self.name),
            None => self.name.to_string(),
        }
    }

    /// Meaningful only when the base request has the field `needs`.
    pub const fn needing(self, needs: &'static str) -> Parameter {
        Parameter {
            needs: Some(needs),
            ..self
        }
    }
}

/// What a map's lines join points of equal value of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Quantity {
    /// `T(1)/(m T)`: the speedup per machine, a fraction.
    Efficiency,
    /// `T(1)/T`.
    Speedup,
    /// The makespan `T`, in seconds.
    Makespan,
    /// The energy of the schedule, in joules.
    Energy,
}

impl Quantity {
    /// Its name in a request.
    pub fn name(self) -> &'static str {
        match self {
            Quantity::Efficiency => "efficiency",
            Quantity::Speedup => "speedup",
            Quantity::Makespan => "makespan",
            Quantity::Energy => "energy",
        }
    }
}

/// A quantity a model can measure, and what its request needs for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapQuantity {
    /// The quantity.
    pub quantity: Quantity,
    /// The top-level field the base request must have (`power` for energy).
    pub needs: Option<&'static str>,
}

impl MapQuantity {
    /// Measured at any request of the model.
    pub const fn always(quantity: Quantity) -> MapQuantity {
        MapQuantity {
            quantity,
            needs: None,
        }
    }
}

/// One value of a map, with its proven accuracy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measured {
    /// The quantity's value.
    pub value: f64,
    /// The proven relative gap of the schedule it comes from (0: exact).
    pub gap: f64,
}

/// What a model keeps from one cell of a map to the next (e.g. the start-up
/// model's probe, whose hint carries to the neighbour cell).
#[derive(Default)]
pub struct Cache(Option<Box<dyn Any>>);

impl Cache {
    /// The state of type `T`, made by `make` the first time; the flag says
    /// whether it was just made.
    ///
    /// # Errors
    ///
    /// Those of `make`.
    pub fn get_or_make<T: Any>(
        &mut self,
        make: impl FnOnce() -> Result<T, Error>,
    ) -> Result<(&mut T, bool), Error> {
        let fresh = !self.0.as_ref().is_some_and(|state| state.is::<T>());
        if fresh {
            self.0 = Some(Box::new(make()?));
        }
        match self.0.as_mut().and_then(|state| state.downcast_mut::<T>()) {
            Some(state) => Ok((state, fresh)),
            None => Err(Error::Malformed("the map's cache lost its state".into())),
        }
    }
}

/// A model's request that a map starts from, its type hidden.
pub trait MapBase: Sync {
    /// The parameters an axis may vary, in the order they are set.
    fn parameters(&self) -> Vec<Parameter>;
    /// The quantities the model measures.
    fn quantities(&self) -> Vec<MapQuantity>;
    /// The most grid cells of one map of this model.
    fn max_cells(&self) -> usize;
    /// Whether the request has the top-level field `name` (not `null`).
    fn has(&self, name: &str) -> bool;
    /// The rows of its table `table` (0 when it has none).
    fn rows(&self, table: &str) -> usize;
    /// `quantity` at the base with the targets of `settings` set (in the
    /// order of [`MapBase::parameters`], so that a parameter
    /// defined through others comes after them); `None` when the settings
    /// make the request invalid.
    ///
    /// # Errors
    ///
    /// The model's solver's errors.
    fn measure_at(
        &self,
        settings: &[(Target, f64)],
        quantity: Quantity,
        cache: &mut Cache,
    ) -> Result<Option<Measured>, Error>;
    /// The base with the targets of `settings` set, as its request's JSON
    /// (without its tag), for a caller that solves it whole (to read its
    /// schedule, not one quantity).
    ///
    /// # Errors
    ///
    /// Every problem of the request the settings make.
    fn request_at(&self, settings: &[(Target, f64)]) -> Result<Value, Vec<Error>>;
}

/// A map a model offers as a preset of the generalised maps: it knows
/// which of its parameters and quantities tell a story (`[1]`'s energy
/// over the idle factor, say).
#[derive(Debug, Clone, PartialEq)]
pub struct MapPreset {
    /// The preset's name (the map's id, a dash, then what it maps).
    pub name: &'static str,
    /// One line: where it comes from and what it shows.
    pub label: &'static str,
    /// The model's request the axes vary.
    pub base: Tagged,
    /// The horizontal axis.
    pub x: MapAxis,
    /// The vertical axis.
    pub y: MapAxis,
    /// What is mapped.
    pub quantity: Quantity,
    /// The values to draw a line at.
    pub levels: Vec<f64>,
}

/// An axis of a [`MapPreset`]: `steps` points of `parameter` from `from`
/// to `to`, spaced geometrically when `log`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MapAxis {
    /// One of the model's map parameters.
    pub parameter: &'static str,
    /// The first value, in the parameter's unit.
    pub from: f64,
    /// The last value, in the parameter's unit.
    pub to: f64,
    /// Grid points along the axis.
    pub steps: u64,
    /// Geometric spacing and a logarithmic axis.
    pub log: bool,
}

impl MapAxis {
    /// `steps` points of `parameter` from `from` to `to`.
    pub const fn of(parameter: &'static str, from: f64, to: f64, steps: u64, log: bool) -> MapAxis {
        MapAxis {
            parameter,
            from,
            to,
            steps,
            log,
        }
    }
}

/// A request as the tagged JSON object a map's `base` is: its model's
/// name and its fields, resolved through the registry when checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Tagged {
    /// The model's name.
    pub model: String,
    /// The request's fields.
    pub fields: Map<String, Value>,
}

impl Serialize for Tagged {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut all = Map::new();
        all.insert("model".into(), Value::String(self.model.clone()));
        all.extend(self.fields.clone());
        Value::Object(all).serialize(s)
    }
}

/// Written by hand as the reader is: an object whose `"model"` is a
/// model's name, with that model's fields (checked by the model itself, so
/// any other field is allowed here).
impl JsonSchema for Tagged {
    fn schema_name() -> Cow<'static, str> {
        "Tagged".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "type": "object",
            "description": "A request of a model: its \"model\" and its fields.",
            "properties": {
                "model": {
                    "type": "string",
                    "description": "The model's name (its schema checks the other fields).",
                },
            },
            "required": ["model"],
        })
    }
}

impl<'de> Deserialize<'de> for Tagged {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Tagged, D::Error> {
        use serde::de::Error as _;
        let Value::Object(mut fields) = Value::deserialize(d)? else {
            return Err(D::Error::custom(
                "must be a request: an object with a \"model\"",
            ));
        };
        match fields.remove("model") {
            Some(Value::String(model)) => Ok(Tagged { model, fields }),
            Some(_) => Err(D::Error::custom("\"model\" must be the name of a model")),
            None => Err(D::Error::missing_field("model")),
        }
    }
}
