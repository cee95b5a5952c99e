//! How a page asks for a model's request: the description of its form.
//!
//! The page builds every tab from these descriptions and reads the form
//! back into a request by the fields' paths, so a model's inputs are
//! described once, here in Rust, next to the request they fill.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

/// A tab of the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Form {
    /// The tab's label.
    pub tab: &'static str,
    /// The heading (may hold `<i>`, `<sub>` and `<sup>`).
    pub title: &'static str,
    /// Where the model comes from.
    pub citation: &'static str,
    /// The works it cites ([`crate::core::domain::bibliography`] keys), linked to
    /// the page's bibliography.
    pub sources: &'static [&'static str],
    /// The idea of the model in a paragraph (same markup as `title`).
    pub intro: Cow<'static, str>,
    /// The formulas behind the tab, for its "About the model" panel: a
    /// student checks a result by hand from them.
    pub about: &'static [Formula],
    /// The scalar fields, in rows.
    pub groups: Vec<Group>,
    /// The table of machines, when the model has one.
    pub rows: Option<Rows>,
    /// Values every request of the tab has, whatever the form says.
    pub fixed: Vec<(&'static str, Value)>,
    /// How the page shows the answer.
    pub layout: Layout,
    /// What the parts of a pooled request are, in the plural ("machine
    /// counts"), for the progress line.
    pub parts: &'static str,
}

/// One line of a tab's "About the model" panel.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Formula {
    /// What it gives, in words ("all machines finish together").
    pub what: &'static str,
    /// The formula (same markup as [`Form::title`]).
    pub formula: &'static str,
}

impl Formula {
    /// `what`: `formula`.
    pub const fn new(what: &'static str, formula: &'static str) -> Formula {
        Formula { what, formula }
    }
}

/// How the page shows an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layout {
    /// The answer's blocks, then its Gantt chart and line charts.
    Report,
    /// Split over the page's workers (one part each), joined as they come;
    /// the first chart is drawn large, with a read-out under the pointer.
    PooledMap,
    /// Split over the page's workers, joined as they come; blocks only.
    PooledTable,
    /// An exercise sheet: questions with answer boxes, hints and worked
    /// solutions.
    Exercises,
}

/// A row of fields.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// Said before the fields (may be empty).
    pub legend: &'static str,
    /// The path of an object the fields fill together, left out of the
    /// request (`null`) when every field of the group is empty.
    pub optional: Option<&'static str>,
    /// The fields.
    pub fields: Vec<Field>,
}

/// One input.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Field {
    /// Its key in a link and in element ids.
    pub key: &'static str,
    /// Its path in the request (`power.processor`, `levels[1].slope`).
    pub path: &'static str,
    /// Its label (same markup as titles).
    pub label: &'static str,
    /// What kind of value it takes.
    pub kind: Kind,
    /// Shown in an empty field: the default an empty optional field
    /// leaves to the request.
    pub placeholder: &'static str,
    /// Said on hover: what the value means.
    pub help: &'static str,
    /// Its unit, shown after the input (empty: a pure number).
    pub unit: &'static str,
    /// The values it takes (`≥ 0`, `1 to 10⁶`), said on hover.
    pub range: &'static str,
    /// The words a [`Kind::Choice`] offers, the default first.
    pub options: &'static [&'static str],
    /// Values a text field suggests as it is typed (value, what it is),
    /// e.g. every parameter a map may vary; any other value may be typed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suggestions: Vec<(String, String)>,
    /// The models whose tab's inputs a [`Kind::Json`] field may take as
    /// its value (a generalised map's fixed parameters), so that they are
    /// entered in that tab's form, with its units and checks, not typed
    /// as JSON.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub from_tabs: Vec<&'static str>,
    /// For a [`Kind::Check`]: the key of the field whose edit by the user
    /// clears the box (a table marked as an example stops being one once
    /// the user types or loads their own).
    #[serde(skip_serializing_if = "str::is_empty")]
    pub cleared_by: &'static str,
}

/// The kinds of values a field takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A number; empty is reported as not finite.
    Number,
    /// A number; empty leaves it out (the request's default applies).
    Optional,
    /// A yes/no box.
    Check,
    /// Numbers separated by commas or spaces.
    List,
    /// A JSON value typed in a text area.
    Json,
    /// A table of measurements as CSV or TSV text, pasted in a text area
    /// or read from a file; sent as the text.
    Csv,
    /// A word.
    Text,
    /// One of the field's `options` (the first is the default).
    Choice,
    /// How to draw the answer: kept in the link, not sent with the request.
    View,
}

/// The table of machines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rows {
    /// The request's list (`processors`).
    pub path: &'static str,
    /// What one row is (`processor`).
    pub item: &'static str,
    /// What a row's name starts with (`P` for `P1`).
    pub prefix: &'static str,
    /// The table's caption.
    pub caption: &'static str,
    /// The columns.
    pub columns: Vec<Column>,
}

/// A column of the table of machines.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Column {
    /// Its key in a link's row.
    pub key: &'static str,
    /// Its path in a row's object (`levels[0].slope`).
    pub path: &'static str,
    /// Its head (same markup as titles).
    pub head: &'static str,
    /// Its name for screen readers.
    pub label: &'static str,
    /// Said on hover.
    pub help: &'static str,
    /// Its unit, shown in the head.
    pub unit: &'static str,
    /// The values it takes, said on hover.
    pub range: &'static str,
    /// As for scalar fields (`Number` or `Optional`).
    pub kind: Kind,
    /// Shown in an empty cell.
    pub placeholder: &'static str,
    /// A new row's value.
    pub blank: &'static str,
    /// The path of an object the column fills with others, left out when
    /// every one of them is empty in the row (`levels[1]`).
    pub optional: Option<&'static str>,
    /// The words a [`Kind::Choice`] column offers, the default first
    /// (owned when listed at run time, e.g. the exercises of the registry).
    pub options: Cow<'static, [&'static str]>,
    /// Whether changing the cell fills others of its row
    /// (the model's `fill_row`, in `core::framework::page`), e.g. a mode
    /// its wake-up time and sleep power.
    pub fills: bool,
    /// Older words of a [`Kind::Choice`] column and the option each now is,
    /// read from older links.
    pub aliases: BTreeMap<String, String>,
    /// The group of columns it folds with where the table is too wide
    /// (absent: the first step of its path, e.g. M7's `power`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fold: Option<&'static str>,
}

impl Field {
    /// A field of `kind`.
    pub fn new(key: &'static str, path: &'static str, label: &'static str, kind: Kind) -> Field {
        Field {
            key,
            path,
            label,
            kind,
            placeholder: "",
            help: "",
            unit: "",
            range: "",
            options: &[],
            suggestions: Vec::new(),
            from_tabs: Vec::new(),
            cleared_by: "",
        }
    }

    /// A box the user's edit of field `key` clears.
    pub fn cleared_by(mut self, key: &'static str) -> Field {
        self.cleared_by = key;
        self
    }

    /// With `suggestions` offered as it is typed.
    pub fn suggesting(mut self, suggestions: Vec<(String, String)>) -> Field {
        self.suggestions = suggestions;
        self
    }

    /// Taking its value from the inputs of the tabs of `models`.
    pub fn from_tabs(mut self, models: Vec<&'static str>) -> Field {
        self.from_tabs = models;
        self
    }

    /// A choice among `options`, the first being the default.
    pub fn choice(
        key: &'static str,
        path: &'static str,
        label: &'static str,
        options: &'static [&'static str],
    ) -> Field {
        Field {
            options,
            ..Field::new(key, path, label, Kind::Choice)
        }
    }

    /// A number field.
    pub fn number(key: &'static str, path: &'static str, label: &'static str) -> Field {
        Field::new(key, path, label, Kind::Number)
    }

    /// With a placeholder.
    pub fn placeholder(mut self, text: &'static str) -> Field {
        self.placeholder = text;
        self
    }

    /// With help on hover.
    pub fn help(mut self, text: &'static str) -> Field {
        self.help = text;
        self
    }

    /// In `unit`.
    pub fn unit(mut self, unit: &'static str) -> Field {
        self.unit = unit;
        self
    }

    /// Taking the values `range`.
    pub fn range(mut self, range: &'static str) -> Field {
        self.range = range;
        self
    }
}

impl Group {
    /// A row of fields.
    pub fn of(legend: &'static str, fields: Vec<Field>) -> Group {
        Group {
            legend,
            optional: None,
            fields,
        }
    }

    /// A row of fields that fill the object at `path` together, or leave
    /// it out when all are empty.
    pub fn optional(legend: &'static str, path: &'static str, fields: Vec<Field>) -> Group {
        Group {
            legend,
            optional: Some(path),
            fields,
        }
    }
}

impl Column {
    /// A number column.
    pub fn number(
        key: &'static str,
        path: &'static str,
        head: &'static str,
        label: &'static str,
        help: &'static str,
        blank: &'static str,
    ) -> Column {
        Column {
            key,
            path,
            head,
            label,
            help,
            unit: "",
            range: "",
            kind: Kind::Number,
            placeholder: "",
            blank,
            optional: None,
            options: Cow::Borrowed(&[]),
            fills: false,
            aliases: BTreeMap::new(),
            fold: None,
        }
    }

    /// A choice among `options`, the first being the default and a new
    /// row's value.
    pub fn choice(
        key: &'static str,
        path: &'static str,
        head: &'static str,
        help: &'static str,
        options: &'static [&'static str],
    ) -> Column {
        Column {
            kind: Kind::Choice,
            options: Cow::Borrowed(options),
            ..Column::number(
                key,
                path,
                head,
                head,
                help,
                options.first().copied().unwrap_or(""),
            )
        }
    }

    /// Changing it fills other cells of the row (see [`Column::fills`]).
    pub fn filling(mut self) -> Column {
        self.fills = true;
        self
    }

    /// Empty leaves it out of the row (the default applies), showing
    /// `placeholder`.
    pub fn or_default(mut self, placeholder: &'static str) -> Column {
        self.kind = Kind::Optional;
        self.placeholder = placeholder;
        self
    }

    /// A machine's communication start-up time `S`, as every star model's
    /// table has it.
    pub fn startup(blank: &'static str) -> Column {
        Column::number(
            "S",
            "startup",
            "S",
            "S",
            "communication start-up time S",
            blank,
        )
        .measured("s", "≥ 0")
    }

    /// A machine's communication time per load unit `C`.
    pub fn rate(blank: &'static str) -> Column {
        Column::number(
            "C",
            "rate",
            "C",
            "C",
            "communication time per load unit C",
            blank,
        )
        .measured("s/unit", "≥ 0")
    }

    /// In `unit`, taking the values `range`.
    pub fn measured(mut self, unit: &'static str, range: &'static str) -> Column {
        self.unit = unit;
        self.range = range;
        self
    }

    /// Part of the object at `path`, left out when all its columns are
    /// empty.
    pub fn part_of(mut self, path: &'static str) -> Column {
        self.optional = Some(path);
        self
    }

    /// Folds with the other columns of `group`.
    pub fn folds_with(mut self, group: &'static str) -> Column {
        self.fold = Some(group);
        self
    }
}
