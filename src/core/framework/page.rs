//! The page capability: how the page (and the command line's drawings)
//! show a model's answers beyond the views every answer has: cells a
//! table fills itself, charts redrawn with the view's options, a read-out
//! under the pointer, the colours of the model's own Gantt activities.
//! Every model has one; the default adds nothing to the views.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::core::domain::error::Error;
use crate::core::framework::json::output;
use crate::core::presentation::chart::LineChart;
use crate::core::presentation::gantt::{Activity, ActivityStyle};
use crate::core::presentation::response::Views;

/// How the page shows answers of type `O`.
pub struct Page<O> {
    /// Fills cells of a row of the form's table after the user changed
    /// its column (one marked
    /// [`Column::fills`](crate::core::presentation::form::Column::fills)):
    /// the cells as the page holds them, texts keyed by column.
    pub fill_row: fn(&str, &mut BTreeMap<String, String>),
    /// The charts drawn with the page's view options (e.g. the map's
    /// overlays).
    pub charts: fn(&O, &Value) -> Vec<LineChart>,
    /// How a Gantt chart draws an activity of the model's own (one the
    /// shared kinds of [`Activity`] do not cover); `None` for any other.
    pub activity_style: fn(&Activity) -> Option<ActivityStyle>,
    /// What lies under the pointer at chart coordinates `(x, y)`, in words.
    pub point_text: fn(&O, f64, f64) -> Option<String>,
}

impl<O: Views> Default for Page<O> {
    /// Fills nothing, draws the answer's own charts, knows no activity of
    /// its own and reads nothing under the pointer.
    fn default() -> Page<O> {
        Page {
            fill_row: |_, _| {},
            charts: |output, _| output.charts().to_vec(),
            activity_style: |_| None,
            point_text: |_, _, _| None,
        }
    }
}

/// What lies under the pointer at chart coordinates `(x, y)`, in words.
pub type Lookup = Box<dyn Fn(f64, f64) -> Option<String>>;

/// A model's page seen through JSON (answers as the page holds them).
pub trait JsonPage {
    /// Fills cells of a table row after its `column` changed.
    fn fill_row(&self, column: &str, row: &mut BTreeMap<String, String>);

    /// An answer's charts drawn with the page's view options.
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] when `response` is not an answer of this model.
    fn charts(&self, response: Value, options: &Value) -> Result<Vec<LineChart>, Error>;

    /// A read-out of an answer under the pointer, built once per answer.
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] when `response` is not an answer of this model.
    fn lookup(&self, response: Value) -> Result<Lookup, Error>;

    /// How its Gantt charts draw `activity`: a shared kind's style, the
    /// model's own, or grey for one it does not know.
    fn activity_style(&self, activity: &Activity) -> ActivityStyle;

    /// An answer (e.g. joined by the page from several workers) as CSV,
    /// when it is a table.
    ///
    /// # Errors
    ///
    /// [`Error::Malformed`] when `response` is not an answer of this model.
    fn csv(&self, response: Value) -> Result<Option<String>, Error>;
}

impl<O: DeserializeOwned + Views + 'static> JsonPage for Page<O> {
    fn fill_row(&self, column: &str, row: &mut BTreeMap<String, String>) {
        (self.fill_row)(column, row);
    }

    fn charts(&self, response: Value, options: &Value) -> Result<Vec<LineChart>, Error> {
        Ok((self.charts)(&output::<O>(response)?, options))
    }

    fn lookup(&self, response: Value) -> Result<Lookup, Error> {
        let answer = output::<O>(response)?;
        let point_text = self.point_text;
        Ok(Box::new(move |x, y| point_text(&answer, x, y)))
    }

    fn activity_style(&self, activity: &Activity) -> ActivityStyle {
        activity
            .shared_style()
            .or_else(|| (self.activity_style)(activity))
            .unwrap_or_else(ActivityStyle::unknown)
    }

    fn csv(&self, response: Value) -> Result<Option<String>, Error> {
        Ok(output::<O>(response)?.csv())
    }
}
