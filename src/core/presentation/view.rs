//! What a page shows of an answer, laid out in Rust: headline numbers,
//! sentences and tables, every number already formatted, so that the page
//! only places them (no arithmetic, no wording of its own).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use crate::core::domain::number::number;
use crate::core::domain::verify::Verdict;

/// One piece of a result, in reading order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Block {
    /// The main number: `label = value`, then the verifier's word on it.
    Headline {
        /// The element's id (tests and links find it by this).
        id: String,
        /// The label, which may hold `<i>`, `<sub>` and `<sup>` markup.
        label: String,
        /// The number, formatted.
        value: String,
        /// What the verifier said, when the number is a schedule's.
        verdict: Option<VerdictLine>,
    },
    /// A sentence.
    Note {
        /// The element's id, or empty.
        id: String,
        /// The sentence.
        text: String,
        /// Set in smaller type (an aside rather than a result).
        aside: bool,
    },
    /// A table of formatted cells (the first cell of a row heads it).
    Table {
        /// The element's id.
        id: String,
        /// The caption.
        caption: String,
        /// The column heads.
        head: Vec<String>,
        /// The rows.
        rows: Vec<Vec<String>>,
    },
    /// A button that opens another tab with a request (the fitted
    /// parameters in a model's request, say).
    Open {
        /// The element's id.
        id: String,
        /// The button's words.
        label: String,
        /// The request, with its `"model"` tag.
        request: serde_json::Value,
        /// What the request changed in the tab's preset, said in the tab
        /// once it is open (fitted values: old → new).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        changes: Vec<Change>,
        /// A sentence said with the changes (which tables they come from).
        #[serde(default, skip_serializing_if = "String::is_empty")]
        note: String,
        /// The words of a button in the opened tab that brings its inputs
        /// back to this tab's field taking a tab's inputs (M9's validity
        /// check); empty: no such button.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        back: String,
    },
}

/// One value a request opened in a tab changed in the tab's preset (a
/// parameter fitted from measurements): the old value and the new one, as
/// the user reads them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Change {
    /// The request's field (`machines[1].rate`).
    pub field: String,
    /// What it is, in the model's notation (`row 2: C`).
    pub what: String,
    /// The preset's value.
    pub from: String,
    /// The new value.
    pub to: String,
    /// The unit of both (empty: a pure number).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub unit: String,
    /// Why, when the value was chosen for the measurements rather than
    /// measured (the load).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub why: String,
}

impl Change {
    /// A value the model kept from its preset, with why (the fit gave a
    /// form it does not read): shown with the changes, but not filled.
    pub fn kept(&self) -> bool {
        self.from == self.to && !self.why.is_empty()
    }

    /// `changes` as a reader takes them in: the same change of several
    /// rows in a row (`P1: C`, `P2: C`, … each `0.005 → 0.0052`) as one,
    /// named by the range (`P1–P20: C`); its `field` is the first row's.
    /// Twenty identical lines hide the one that differs.
    pub fn grouped(changes: &[Change]) -> Vec<Change> {
        let mut out: Vec<(Change, Option<RowRun>)> = Vec::new();
        for c in changes {
            let row = row_of(&c.what);
            if let (Some((last, Some((name, _, to, rest)))), Some((n, k, r))) =
                (out.last_mut(), &row)
            {
                let same = (&last.from, &last.to, &last.unit, &last.why)
                    == (&c.from, &c.to, &c.unit, &c.why);
                if same && name == n && rest == r && *k == *to + 1 {
                    *to = *k;
                    continue;
                }
            }
            out.push((c.clone(), row.map(|(n, k, r)| (n, k, k, r))));
        }
        out.into_iter()
            .map(|(mut c, row)| {
                if let Some((name, first, last, rest)) = row.filter(|r| r.2 > r.1) {
                    c.what = format!("{name}{first}–{name}{last}: {rest}");
                }
                c
            })
            .collect()
    }
}

/// A run of rows changed alike: their name (`P`), the first and last
/// numbers, and what of them changed (`C`).
type RowRun = (String, u64, u64, String);

/// A row's change (`P3: C`, `row 12: a1`) as its name (`P`, `row `), its
/// number and what of it changed.
fn row_of(what: &str) -> Option<(String, u64, String)> {
    let (head, rest) = what.split_once(": ")?;
    let digits = head.len() - head.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let (name, number) = head.split_at(head.len() - digits);
    Some((name.to_string(), number.parse().ok()?, rest.to_string()))
}

/// The verifier's verdict as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictLine {
    /// The element's id.
    pub id: String,
    /// Whether the schedule passed.
    pub ok: bool,
    /// The words.
    pub text: String,
}

impl Block {
    /// A headline number.
    pub fn headline(id: &str, label: &str, value: f64, verdict: Option<VerdictLine>) -> Block {
        Block::Headline {
            id: id.into(),
            label: label.into(),
            value: number(value),
            verdict,
        }
    }

    /// A sentence.
    pub fn note(id: &str, text: impl Into<String>) -> Block {
        Block::Note {
            id: id.into(),
            text: text.into(),
            aside: false,
        }
    }

    /// A sentence set as an aside.
    pub fn aside(id: &str, text: impl Into<String>) -> Block {
        Block::Note {
            id: id.into(),
            text: text.into(),
            aside: true,
        }
    }

    /// A table.
    pub fn table(id: &str, caption: &str, head: &[&str], rows: Vec<Vec<String>>) -> Block {
        Block::Table {
            id: id.into(),
            caption: caption.into(),
            head: head.iter().map(|h| h.to_string()).collect(),
            rows,
        }
    }
}

impl VerdictLine {
    /// The verdict, with `more` said after a pass.
    pub fn of(id: &str, verdict: &Verdict, more: &str) -> VerdictLine {
        let text = if verdict.ok {
            format!(" ✓ verified (tolerance {:.1e}){more}", verdict.tolerance)
        } else {
            let why = verdict.violation.as_deref().unwrap_or("no reason given");
            format!(" ✗ rejected by the verifier: {why}")
        };
        VerdictLine {
            id: id.into(),
            ok: verdict.ok,
            text,
        }
    }
}

/// The most rows a result table shows; the JSON download has every one.
pub const ROWS_SHOWN: usize = 50;

/// `rows` cut to [`ROWS_SHOWN`], with a last row saying how many more of
/// `what` there are out of `total`.
pub fn cut(mut rows: Vec<Vec<String>>, total: usize, what: &str) -> Vec<Vec<String>> {
    rows.truncate(ROWS_SHOWN);
    if total > rows.len() {
        let more = total - rows.len();
        rows.push(vec![format!("… {more} more {what} (in the JSON download)")]);
    }
    rows
}

/// The memory level a chunk is computed in, in words.
pub fn memory(level: usize) -> String {
    match level {
        0 => "in core".into(),
        1 => "out of core".into(),
        l => format!("level {}", l + 1),
    }
}

/// An interval as `start – end`.
pub fn interval(i: &crate::core::domain::schedule::Interval) -> String {
    format!("{} – {}", number(i.start), number(i.end))
}

/// A fraction as a percentage to three significant digits.
pub fn percent(x: f64) -> String {
    let p: f64 = format!("{:.2e}", x * 100.0).parse().unwrap_or(x * 100.0);
    format!("{} %", number(p))
}

/// A proven gap as a reader takes it: `0 % (optimal)`, `< 0.001 %` for
/// round-off sized gaps (not `3.81e-13 %`), else as [`percent`].
pub fn gap(x: f64) -> String {
    if x <= 0.0 {
        "0 % (optimal)".into()
    } else if x < 1e-5 {
        "< 0.001 %".into()
    } else {
        percent(x)
    }
}

/// Seconds as the page says them: milliseconds below one second.
pub fn seconds(x: f64) -> String {
    if x < 1.0 {
        format!("{:.0} ms", x * 1e3)
    } else {
        format!("{x:.2} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentages_have_three_digits() {
        assert_eq!(percent(0.0123456), "1.23 %");
        assert_eq!(percent(0.0), "0 %");
        assert_eq!(percent(3.81e-15), "3.81e-13 %");
        assert_eq!(gap(3.81e-15), "< 0.001 %");
        assert_eq!(gap(0.0), "0 % (optimal)");
        assert_eq!(gap(0.0123456), "1.23 %");
    }

    /// Twenty rows changed alike read as one line; a row that differs, a
    /// gap in the rows and another name break the run.
    #[test]
    fn identical_changes_of_rows_in_a_row_read_as_one() {
        let change = |what: &str, to: &str| Change {
            field: what.into(),
            what: what.into(),
            from: "1".into(),
            to: to.into(),
            unit: "s/MB".into(),
            why: String::new(),
        };
        let mut changes: Vec<Change> = (1..=20)
            .map(|p| change(&format!("P{p}: C"), "0.005"))
            .collect();
        changes.insert(5, change("P6: S", "0.1"));
        changes.push(change("P22: C", "0.005"));
        changes.push(change("row 1: C", "0.005"));
        changes.push(change("load V", "0.005"));
        let lines: Vec<(String, String)> = Change::grouped(&changes)
            .into_iter()
            .map(|c| (c.what, c.to))
            .collect();
        let want = [
            ("P1–P5: C", "0.005"),
            ("P6: S", "0.1"),
            ("P6–P20: C", "0.005"),
            ("P22: C", "0.005"),
            ("row 1: C", "0.005"),
            ("load V", "0.005"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(lines, want);
    }
}
