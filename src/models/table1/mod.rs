//! M6: `[3]` Table 1, the largest efficiency per machine count: for
//! each `m`, the load `Vmax` where the isoefficiency map's efficiency peaks
//! (found as for the map), then improved and certified by the exact branch
//! and bound within an LP budget, beside the paper's values.

pub mod table;
mod view;

use serde::{Deserialize, Serialize};

use crate::core::domain::error::Error;
use crate::core::framework::model::{Former, Identity, Model, Preset};
use crate::core::framework::parts::Parts;
use crate::core::presentation::chart::LineChart;
use crate::core::presentation::form::Form;
use crate::core::presentation::response::Views;
use crate::core::presentation::view::Block;
use crate::core::solving::progress::Progress;
use crate::models::isoefficiency::{view::per_machine_count, Request};

pub use table::Table;

/// `[3]` Table 1: `Emax` and `Vmax` per machine count.
#[derive(Debug)]
pub struct Table1;

/// Table 1's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableOutput {
    /// One row per machine count.
    pub table: Table,
    /// `Emax` against `m` (beside the paper's values for its instance).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub charts: Vec<LineChart>,
}

impl TableOutput {
    /// The answer for `table`, with its chart.
    pub fn of(table: Table) -> TableOutput {
        TableOutput {
            charts: table.chart().into_iter().collect(),
            table,
        }
    }
}

impl Views for TableOutput {
    fn charts(&self) -> &[LineChart] {
        &self.charts
    }

    fn csv(&self) -> Option<String> {
        Some(self.table.csv())
    }

    fn view(&self) -> Vec<Block> {
        self.table.view()
    }
}

impl Model for Table1 {
    const ID: Identity = Identity {
        number: Some(6),
        former: Former {
            tag: None,
            tab: "table1",
            prefix: "t.",
        },
        command: Some("table"),
        ..Identity::new("table1", "Table 1")
    };
    type Request = Request;
    type Output = TableOutput;

    fn presets() -> Vec<Preset<Request>> {
        vec![Preset {
            name: "table1",
            label: "[3] Table 1: Emax and Vmax of the reference instance, m = 2..20",
            request: Request::reference(),
        }]
    }

    fn solve(request: &Request, progress: &mut dyn Progress) -> Result<TableOutput, Error> {
        Ok(TableOutput::of(request.table(progress)?))
    }

    fn form() -> Form {
        view::table_form()
    }

    /// One machine count per piece: its row.
    fn parts() -> Option<Parts<Request, TableOutput>> {
        Some(Parts {
            split: per_machine_count,
            join: |request, parts| {
                let mut rows: Vec<_> = parts.into_iter().flat_map(|p| p.table.rows).collect();
                rows.sort_by_key(|r| r.machines);
                Ok(TableOutput::of(Table {
                    rows,
                    reference: request.is_reference(),
                }))
            },
        })
    }
}
