//! The table-input capability: a request made from one table of
//! measurements as people keep them (CSV or TSV text), so that
//! `dlt VERB FILE.csv` needs no JSON. The command line knows no table: it
//! takes the options and prints the help each model declares here.
//!
//! Only the fit of measurements reads tables, so only what the command
//! line needs is here; how the fit reads its tables is in its folder.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::core::domain::error::Error;

/// How a model reads its requests from a table.
pub trait TableInput {
    /// The command line's options for a table, by name (`shape` for
    /// `--shape`), each taking a value; an option named `request` names a
    /// file, passed on as its text.
    fn options(&self) -> &'static [&'static str];

    /// The command line's help, from the options after `TABLE.csv` on.
    fn help(&self) -> &'static str;

    /// The request, with its `"model"` tag, from a table's text and the
    /// options given, by name with their values as typed.
    ///
    /// # Errors
    ///
    /// What the model cannot read in the table or the options.
    fn request(&self, text: &str, options: &BTreeMap<String, String>) -> Result<Value, Error>;
}
