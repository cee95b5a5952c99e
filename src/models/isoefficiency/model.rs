//! The isoefficiency map in the registry: presets, answers, and the
//! partial answers a long map hands out.

use serde::{Deserialize, Serialize};

use super::{Map, Request};
use crate::core::domain::count::Count;
use crate::core::domain::error::Error;
use crate::core::framework::exercise::Template;
use crate::core::framework::model::{Former, Identity, Model, Preset};
use crate::core::framework::page::Page;
use crate::core::framework::parts::Parts;
use crate::core::presentation::chart::LineChart;
use crate::core::presentation::form::Form;
use crate::core::presentation::response::Views;
use crate::core::presentation::view::Block;
use crate::core::solving::progress::Progress;
use serde_json::Value;

/// M6: the isoefficiency map of M5 (`[3]`), `m` across, `V` up.
#[derive(Debug)]
pub struct IsoefficiencyMap;

/// The map and its chart (without overlays; see [`Map::chart`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapOutput {
    /// Every column.
    pub map: Box<Map>,
    /// The map, drawn.
    pub charts: Vec<LineChart>,
}

impl MapOutput {
    /// The answer for `map`.
    pub fn of(map: Map) -> MapOutput {
        MapOutput {
            charts: vec![map.chart(false)],
            map: Box::new(map),
        }
    }
}

impl Views for MapOutput {
    fn charts(&self) -> &[LineChart] {
        &self.charts
    }

    fn csv(&self) -> Option<String> {
        Some(self.map.csv())
    }

    fn view(&self) -> Vec<Block> {
        self.map.view()
    }
}

impl Model for IsoefficiencyMap {
    const ID: Identity = Identity {
        number: Some(6),
        former: Former {
            tag: None,
            tab: "map",
            prefix: "map.",
        },
        command: Some("map"),
        ..Identity::new("isoefficiency", "Isoefficiency map")
    };
    type Request = Request;
    type Output = MapOutput;

    fn presets() -> Vec<Preset<Request>> {
        vec![
            Preset {
                name: "isoefficiency",
                label: "[3] Figs. 1-2: isoefficiency map of the reference instance, m = 2..20",
                request: Request::reference(),
            },
            Preset {
                name: "isoefficiency-small",
                label: "[3] reference instance, m = 2..5, levels 1, 10, 30",
                request: Request {
                    machines_to: Count(5),
                    levels: vec![1.0, 10.0, 30.0],
                    ..Request::reference()
                },
            },
        ]
    }

    fn solve(request: &Request, progress: &mut dyn Progress) -> Result<MapOutput, Error> {
        Ok(MapOutput::of(request.map(progress)?))
    }

    fn form() -> Form {
        super::view::map_form()
    }

    fn exercises() -> Vec<Template> {
        super::exercises::templates()
    }

    /// One machine count per piece.
    fn parts() -> Option<Parts<Request, MapOutput>> {
        Some(Parts {
            split: super::view::per_machine_count,
            join: |request, parts| {
                let columns = parts.into_iter().flat_map(|p| p.map.columns).collect();
                Ok(MapOutput::of(Map::new(columns, request)))
            },
        })
    }

    /// The map with or without the overlays the view asks for
    /// (`{"overlays": true}`), and what lies under the pointer.
    fn page() -> Page<MapOutput> {
        Page {
            charts: |output, options| {
                let overlays = options.get("overlays").and_then(Value::as_bool) == Some(true);
                vec![output.map.chart(overlays)]
            },
            point_text: |output, x, y| output.map.point_text(x, y),
            ..Page::default()
        }
    }
}
