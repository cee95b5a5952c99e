//! The isoefficiency map in the registry: presets, answers, and the
//! partial answers a long map hands out.

use serde::{Deserialize, Serialize};

use super::{Map, Request};
use crate::core::domain::count::Count;
use crate::core::domain::error::Error;
use crate::core::framework::exercise::Template;
use crate::core::framework::model::{Former, Model, Preset};
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
    const NAME: &'static str = "isoefficiency";
    const TITLE: &'static str = "Isoefficiency map";
    const NUMBER: Option<u8> = Some(6);
    const FORMER: Former = Former {
        tag: None,
        tab: "map",
        prefix: "map.",
    };
    const COMMAND: Option<&'static str> = Some("map");
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

    fn split(request: &Request) -> Vec<Request> {
        super::view::per_machine_count(request)
    }

    fn join(request: &Request, parts: Vec<MapOutput>) -> Result<MapOutput, Error> {
        let columns = parts.into_iter().flat_map(|p| p.map.columns).collect();
        Ok(MapOutput::of(Map::new(columns, request)))
    }

    fn charts_with(output: &MapOutput, options: &Value) -> Vec<LineChart> {
        let overlays = options.get("overlays").and_then(Value::as_bool) == Some(true);
        vec![output.map.chart(overlays)]
    }

    fn point_text(output: &MapOutput, x: f64, y: f64) -> Option<String> {
        output.map.point_text(x, y)
    }
}
