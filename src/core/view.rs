//! What a page shows of an answer, laid out in Rust: headline numbers,
//! sentences and tables, every number already formatted, so that the page
//! only places them (no arithmetic, no wording of its own).

use serde::{Deserialize, Serialize};

use crate::core::verify::Verdict;

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

/// A number for display: at most 10 significant digits, no trailing noise,
/// written as JavaScript writes numbers (`1e-7`, `1e+21`), so that the page
/// and the command line agree digit for digit.
pub fn number(x: f64) -> String {
    if !x.is_finite() {
        return if x.is_nan() {
            "NaN".into()
        } else if x > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    let rounded: f64 = format!("{x:.9e}").parse().unwrap_or(x);
    if rounded.abs() < 1e-300 {
        return "0".into();
    }
    // Shortest round-trip digits and the decimal exponent.
    let sci = format!("{rounded:e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if negative { "-" } else { "" };
    let n = digits.len() as i32;
    let body = if (-6..21).contains(&exponent) {
        if exponent >= n - 1 {
            format!("{digits}{}", "0".repeat((exponent - n + 1) as usize))
        } else if exponent >= 0 {
            let (int, frac) = digits.split_at(exponent as usize + 1);
            format!("{int}.{frac}")
        } else {
            format!("0.{}{digits}", "0".repeat((-exponent - 1) as usize))
        }
    } else {
        let (first, rest) = digits.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        let esign = if exponent < 0 { "-" } else { "+" };
        format!("{first}{point}{rest}e{esign}{}", exponent.abs())
    };
    format!("{sign}{body}")
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
pub fn interval(i: &crate::core::schedule::Interval) -> String {
    format!("{} – {}", number(i.start), number(i.end))
}

/// A fraction as a percentage to three significant digits.
pub fn percent(x: f64) -> String {
    let p: f64 = format!("{:.2e}", x * 100.0).parse().unwrap_or(x * 100.0);
    format!("{} %", number(p))
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

    /// The same text as JavaScript's `String(Number(x.toPrecision(10)))`.
    #[test]
    fn numbers_read_as_javascript_writes_them() {
        let cases = [
            (5.75, "5.75"),
            (0.0, "0"),
            (-2.5, "-2.5"),
            (1e-7, "1e-7"),
            (1.5e-7, "1.5e-7"),
            (0.000001, "0.000001"),
            (1e21, "1e+21"),
            (1.234e21, "1.234e+21"),
            (1e20, "100000000000000000000"),
            (123456.0, "123456"),
            (1.0 / 3.0, "0.3333333333"),
            (2.0 / 3.0, "0.6666666667"),
            (134485.0, "134485"),
            (1587.2345678912, "1587.234568"),
            (9.99e-5, "0.0000999"),
            (1e-301, "0"),
        ];
        for (x, want) in cases {
            assert_eq!(number(x), want, "{x}");
        }
    }

    #[test]
    fn percentages_have_three_digits() {
        assert_eq!(percent(0.0123456), "1.23 %");
        assert_eq!(percent(0.0), "0 %");
        assert_eq!(percent(3.81e-15), "3.81e-13 %");
    }
}
