//! The models a map may be drawn for, read from the registry: those whose
//! maps name parameters.

use crate::core::domain::error::{shorten, Error, Invalid};
use crate::core::framework::registry::Registry;
use crate::core::presentation::map::{MapBase, MapPreset, Parameter};

/// The models a map may be drawn for, with their parameters, in the
/// registry's order.
pub fn mapped<R: Registry>() -> Vec<(&'static str, Vec<Parameter>)> {
    R::entries()
        .into_iter()
        .filter_map(|m| Some((m.id().name, m.maps()?.parameters())))
        .filter(|(_, p)| !p.is_empty())
        .collect()
}

/// The maps the models offer as presets, in the registry's order.
pub fn map_presets<R: Registry>() -> Vec<MapPreset> {
    let maps = R::entries().into_iter().filter_map(|m| m.maps());
    maps.flat_map(|m| m.presets()).collect()
}

/// Reads `fields` (a request without its tag) as a base of model `name`.
///
/// # Errors
///
/// Every problem of the request, with paths inside it (`model` for an
/// unknown name or a model no map covers).
pub fn base<R: Registry>(
    name: &str,
    fields: serde_json::Value,
) -> Result<Box<dyn MapBase>, Vec<Error>> {
    let names = |m: &dyn crate::core::framework::entry::Entry| {
        m.maps().is_some_and(|maps| !maps.parameters().is_empty())
    };
    match R::find(name).filter(|m| names(*m)) {
        Some(model) => model.base(fields),
        None => {
            let known: Vec<&str> = mapped::<R>().into_iter().map(|(n, _)| n).collect();
            let invalid = Invalid::UnknownModel {
                name: shorten(name),
                known: known.join(", "),
            };
            Err(vec![Error::field("model", invalid)])
        }
    }
}
