//! Reading a [`Table`]: its headers (name and unit), its cells (numbers
//! converted, texts trimmed), from CSV or TSV text through the `csv` crate
//! (quotes, CRLF and a byte-order mark handled as spreadsheets write them)
//! or from JSON rows or columns. A line that starts with `#` is a comment
//! (where the data come from), skipped.

use std::collections::BTreeMap;

use super::columns::{Cell, Column, Quantity, Table, Values, MAX_ROWS, TEXT_COLUMNS};
use super::error::{Place, TableError, RANGE};

/// What a header says a column holds.
#[derive(Debug, Clone, PartialEq)]
struct Spec {
    /// The header as written.
    header: String,
    /// The name without its unit.
    name: String,
    /// The quantity and the factor to its unit, for a numeric column.
    numeric: Option<(Quantity, f64)>,
    /// No header: a column a spreadsheet adds after the last, skipped
    /// while its cells are empty.
    blank: bool,
}

/// The header `name_unit`, `name [unit]` or `name (unit)` as a name
/// (lower case) and a unit (as written), if it gives one.
fn split_header(header: &str) -> (String, Option<&str>) {
    let bracketed = ['[', '(']
        .iter()
        .find_map(|open| header.split_once(*open))
        .map(|(name, rest)| (name, rest.trim_end_matches([']', ')']).trim()));
    let (name, unit) = match bracketed.or_else(|| header.split_once('_')) {
        Some((name, unit)) => (name, Some(unit)),
        None => (header, None),
    };
    (name.trim().to_lowercase(), unit.filter(|u| !u.is_empty()))
}

/// Every column name the calculator reads, for a message.
fn known_columns() -> String {
    let numeric = Quantity::ALL
        .iter()
        .flat_map(|q| q.names().iter().map(move |n| format!("{n}_{}", q.unit())));
    let text = TEXT_COLUMNS.iter().map(|t| t.to_string());
    numeric.chain(text).collect::<Vec<_>>().join(", ")
}

/// What one header says, or why it says nothing the calculator reads.
fn spec(header: &str) -> Result<Spec, TableError> {
    // Shortened: a header is quoted in messages (a pasted text with no line
    // break is one header of a megabyte).
    let header = crate::core::domain::error::shorten(header.trim());
    let (name, unit) = split_header(&header);
    let column = header.clone();
    let blank = header.is_empty();
    if blank || (TEXT_COLUMNS.contains(&name.as_str()) && unit.is_none()) {
        return Ok(Spec {
            header,
            name,
            numeric: None,
            blank,
        });
    }
    let Some(quantity) = Quantity::of_name(&name) else {
        let known = known_columns();
        return Err(TableError::UnknownColumn { column, known });
    };
    let hint = quantity.hint(&name);
    let Some(unit) = unit else {
        return Err(TableError::NoUnit { column, hint });
    };
    let factor = quantity
        .units()
        .iter()
        .find(|(u, _)| u.eq_ignore_ascii_case(unit) || *u == unit)
        .map(|(_, f)| *f);
    match factor {
        Some(factor) => Ok(Spec {
            header,
            name,
            numeric: Some((quantity, factor)),
            blank: false,
        }),
        None => Err(TableError::UnknownUnit {
            column,
            unit: unit.to_string(),
            hint,
        }),
    }
}

/// The specs of a header row: one column per quantity and per text name.
fn specs<'a>(headers: impl Iterator<Item = &'a str>) -> Result<Vec<Spec>, TableError> {
    let mut specs: Vec<Spec> = Vec::new();
    for header in headers {
        let spec = spec(header)?;
        let same = |s: &Spec| match (s.numeric, spec.numeric) {
            (Some((a, _)), Some((b, _))) => a == b,
            (None, None) => s.name == spec.name && !spec.blank,
            _ => false,
        };
        if let Some(first) = specs.iter().find(|s| same(s)) {
            return Err(TableError::Duplicate {
                column: spec.header,
                first: first.header.clone(),
            });
        }
        specs.push(spec);
    }
    Ok(specs)
}

/// A cell as read: text from CSV, or a JSON value.
#[derive(Debug, Clone, Copy)]
enum Raw<'a> {
    Text(&'a str),
    Number(f64),
}

impl<'a> From<&'a Cell> for Raw<'a> {
    fn from(cell: &'a Cell) -> Raw<'a> {
        match cell {
            Cell::Number(v) => Raw::Number(*v),
            Cell::Text(t) => Raw::Text(t),
        }
    }
}

/// The columns being filled, row by row.
struct Builder {
    specs: Vec<Spec>,
    values: Vec<Values>,
    places: Vec<Place>,
}

impl Builder {
    /// Empty columns for a header row's specs.
    fn new(specs: Vec<Spec>) -> Builder {
        let values = specs
            .iter()
            .map(|s| match s.numeric {
                Some(_) => Values::Numbers(Vec::new()),
                None => Values::Texts(Vec::new()),
            })
            .collect();
        Builder {
            specs,
            values,
            places: Vec::new(),
        }
    }

    /// Adds one row of cells (as many as columns) found at `place`.
    fn push<'a>(
        &mut self,
        cells: impl Iterator<Item = Raw<'a>>,
        place: Place,
    ) -> Result<(), TableError> {
        if self.places.len() >= MAX_ROWS {
            return Err(TableError::TooManyRows { limit: MAX_ROWS });
        }
        let columns = self.specs.iter().zip(&mut self.values).zip(cells);
        for (k, ((spec, values), raw)) in columns.enumerate() {
            match (values, spec.numeric) {
                _ if spec.blank => unnamed(k, raw, place)?,
                (Values::Numbers(v), Some(numeric)) => {
                    v.push(number(&spec.header, numeric, raw, place)?)
                }
                // Never: a column's values are numbers only when its spec is.
                (Values::Numbers(_), None) => {}
                (Values::Texts(v), _) => v.push(text(spec, raw, place)?),
            }
        }
        self.places.push(place);
        Ok(())
    }

    /// The table of the rows pushed (the headerless columns left out).
    fn finish(self) -> Result<Table, TableError> {
        if self.places.is_empty() {
            return Err(TableError::HeaderOnly);
        }
        let columns = self
            .specs
            .into_iter()
            .zip(self.values)
            .filter(|(spec, _)| !spec.blank)
            .map(|(spec, values)| Column {
                header: spec.header,
                name: spec.name,
                quantity: spec.numeric.map(|(q, _)| q),
                values,
            })
            .collect();
        Ok(Table {
            columns,
            places: self.places,
        })
    }
}

/// A cell of a column without a header (the `k`-th, from 0), which must
/// be empty.
fn unnamed(k: usize, raw: Raw<'_>, row: Place) -> Result<(), TableError> {
    match raw {
        Raw::Text(t) if t.trim().is_empty() => Ok(()),
        _ => Err(TableError::Unreadable {
            row: Some(row),
            why: format!(
                "column {} has a value but no header: name it (e.g. time_s) or empty it",
                k + 1
            ),
        }),
    }
}

/// A numeric cell's number and, for a text, the text as written (copied
/// only for a message: a million rows are read without an allocation per
/// cell).
fn parsed<'a>(
    header: &str,
    raw: Raw<'a>,
    row: Place,
) -> Result<(f64, Option<&'a str>), TableError> {
    match raw {
        Raw::Number(v) => Ok((v, None)),
        Raw::Text(t) => {
            let t = t.trim();
            match t.parse::<f64>() {
                Ok(v) => Ok((v, Some(t))),
                Err(_) => Err(TableError::NotNumber {
                    column: header.to_string(),
                    row,
                    text: crate::core::domain::error::shorten(t),
                }),
            }
        }
    }
}

/// A numeric cell in its quantity's unit (`numeric`: the quantity and
/// the factor to its unit), checked.
fn number(
    header: &str,
    (quantity, factor): (Quantity, f64),
    raw: Raw<'_>,
    row: Place,
) -> Result<f64, TableError> {
    let column = || header.to_string();
    let (given, written) = parsed(header, raw, row)?;
    let text = || written.map_or_else(|| given.to_string(), str::to_string);
    let value = given * factor;
    if !value.is_finite() {
        let column = column();
        let text = text();
        return Err(TableError::NotFinite { column, row, text });
    }
    if value != 0.0 && !(RANGE.0..=RANGE.1).contains(&value.abs()) {
        let column = column();
        let text = text();
        let unit = quantity.unit();
        return Err(TableError::OutOfRange {
            column,
            row,
            text,
            unit,
        });
    }
    if value < 0.0 && quantity.zero_allowed() {
        let column = column();
        return Err(TableError::Negative {
            column,
            row,
            value: given,
        });
    }
    if value <= 0.0 && !quantity.zero_allowed() {
        let column = column();
        return Err(TableError::NotPositive {
            column,
            row,
            value: given,
        });
    }
    Ok(value)
}

/// A text cell, trimmed and not empty.
fn text(spec: &Spec, raw: Raw<'_>, row: Place) -> Result<String, TableError> {
    let text = match raw {
        Raw::Text(t) => crate::core::domain::error::shorten(t.trim()),
        Raw::Number(v) => crate::core::domain::number::number(v),
    };
    if text.is_empty() {
        let column = spec.header.clone();
        return Err(TableError::EmptyText { column, row });
    }
    Ok(text)
}

/// The delimiter of a CSV or TSV text: the most frequent of tab,
/// semicolon and comma outside quotes in its first line (a tab first on a
/// tie, then a semicolon: a decimal comma may stand beside either).
fn delimiter(first_line: &str) -> u8 {
    let mut counts = [(b'\t', 0usize), (b';', 0), (b',', 0)];
    let mut quoted = false;
    for byte in first_line.bytes() {
        if byte == b'"' {
            quoted = !quoted;
        }
        if let Some(c) = counts.iter_mut().find(|(d, _)| *d == byte && !quoted) {
            c.1 += 1;
        }
    }
    let most = counts.iter().map(|(_, n)| *n).max().unwrap_or(0);
    counts
        .iter()
        .find(|(_, n)| *n == most && most > 0)
        .map_or(b',', |(d, _)| *d)
}

/// The text without a byte-order mark, and its header: the first line
/// that is neither blank nor a comment.
fn header_line(text: &str) -> Result<(&str, &str), TableError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let header = |l: &&str| !l.trim().is_empty() && !l.starts_with('#');
    let first = text.lines().find(header).ok_or(TableError::Empty)?;
    Ok((text, first))
}

/// How a table is read: the header's delimiter, rows of any length (a
/// ragged row is refused by the table, with its row), cells trimmed.
fn reader_for(first: &str) -> csv::ReaderBuilder {
    let mut builder = csv::ReaderBuilder::new();
    builder
        .delimiter(delimiter(first))
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All);
    builder
}

/// Reads a CSV or TSV text.
pub(super) fn read(text: &str) -> Result<Table, TableError> {
    let (text, first) = header_line(text)?;
    let mut reader = reader_for(first)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let mut record = csv::StringRecord::new();
    let mut lines = Lines::new(text);
    let mut builder: Option<(Builder, usize)> = None;
    loop {
        let more = reader.read_record(&mut record).map_err(unreadable)?;
        if !more {
            break;
        }
        if record.iter().all(|cell| cell.trim().is_empty()) {
            continue; // a blank line, or a row of empty cells a spreadsheet adds
        }
        let place = Place::Line(lines.at(record.position().map_or(0, |p| p.byte() as usize)));
        match &mut builder {
            None => {
                let specs = specs(record.iter())?;
                builder = Some((Builder::new(specs), record.len()));
            }
            Some((_, width)) if record.len() != *width => {
                return Err(TableError::Ragged {
                    row: place,
                    found: record.len(),
                    expected: *width,
                });
            }
            Some((b, _)) => b.push(record.iter().map(Raw::Text), place)?,
        }
    }
    builder.ok_or(TableError::Empty)?.0.finish()
}

/// Line numbers of byte offsets, counted as an editor does (blank lines
/// too, which the reader's own count skips), for offsets that only grow.
struct Lines<'a> {
    text: &'a [u8],
    /// The byte counted up to, and the line it is on (from 1).
    at: (usize, usize),
    /// The line break: `\n`, or `\r` in a text without one.
    newline: u8,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Lines<'a> {
        let newline = if text.contains('\n') { b'\n' } else { b'\r' };
        Lines {
            text: text.as_bytes(),
            at: (0, 1),
            newline,
        }
    }

    /// The line of the record the reader places at byte `byte`: the end
    /// of the record before it, so the blank and comment lines it skipped
    /// are skipped here too.
    fn at(&mut self, byte: usize) -> usize {
        let (from, line) = self.at;
        let mut to = byte.clamp(from, self.text.len());
        loop {
            match self.text.get(to) {
                Some(b'\r' | b'\n') => to += 1,
                Some(b'#') => {
                    let rest = &self.text[to..];
                    to += rest
                        .iter()
                        .position(|b| *b == self.newline)
                        .unwrap_or(rest.len());
                }
                _ => break,
            }
        }
        let breaks = self.text[from..to]
            .iter()
            .filter(|b| **b == self.newline)
            .count();
        self.at = (to, line + breaks);
        line + breaks
    }
}

/// The reader's error, with its line when it has one.
fn unreadable(e: csv::Error) -> TableError {
    let row = e.position().map(|p| Place::Line(p.line() as usize));
    TableError::Unreadable {
        row,
        why: crate::core::domain::error::shorten(&e.to_string()),
    }
}

/// Reads JSON rows: one object per measurement, all with the same keys.
pub(super) fn from_rows(rows: &[BTreeMap<String, Cell>]) -> Result<Table, TableError> {
    let Some(first) = rows.first() else {
        return Err(TableError::Empty);
    };
    let mut builder = Builder::new(specs(first.keys().map(String::as_str))?);
    for (i, row) in rows.iter().enumerate() {
        if !row.keys().eq(first.keys()) {
            let keys = |r: &BTreeMap<String, Cell>| {
                r.keys().map(String::as_str).collect::<Vec<_>>().join(", ")
            };
            return Err(TableError::Unreadable {
                row: Some(Place::Entry(i)),
                why: format!(
                    "has the columns {}, but the first row has {}",
                    keys(row),
                    keys(first)
                ),
            });
        }
        builder.push(row.values().map(Raw::from), Place::Entry(i))?;
    }
    builder.finish()
}

/// Reads JSON columns: one list of values per header, all as long.
pub(super) fn from_columns(columns: &BTreeMap<String, Vec<Cell>>) -> Result<Table, TableError> {
    let Some((first, values)) = columns.iter().next() else {
        return Err(TableError::Empty);
    };
    let length = values.len();
    if let Some((other, v)) = columns.iter().find(|(_, v)| v.len() != length) {
        return Err(TableError::Unreadable {
            row: None,
            why: format!(
                "column `{other}` has {} values, but column `{first}` has {length}",
                v.len()
            ),
        });
    }
    let mut builder = Builder::new(specs(columns.keys().map(String::as_str))?);
    for i in 0..length {
        let cells = columns.values().map(|v| Raw::from(&v[i]));
        builder.push(cells, Place::Entry(i))?;
    }
    builder.finish()
}

/// The columns a CSV or TSV text's header names: each name (without its
/// unit) and its quantity for a numeric column; the rows are not read, so
/// that which table a text is can be told before it is read whole.
///
/// # Errors
///
/// An empty text, or a header the calculator cannot read.
pub(super) fn header(text: &str) -> Result<Vec<(String, Option<Quantity>)>, TableError> {
    let (_, first) = header_line(text)?;
    let mut reader = reader_for(first).from_reader(first.as_bytes());
    let mut record = csv::StringRecord::new();
    reader.read_record(&mut record).map_err(unreadable)?;
    let specs = specs(record.iter())?;
    Ok(specs
        .into_iter()
        .filter(|s| !s.blank)
        .map(|s| (s.name, s.numeric.map(|(q, _)| q)))
        .collect())
}
