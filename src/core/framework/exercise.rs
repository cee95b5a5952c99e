//! Exercises: a question drawn from a seed, its answer computed by the
//! calculator itself, hints and a worked solution; and the check of a
//! student's typed answer against it.
//!
//! A model offers [`Template`]s ([`crate::core::framework::model::Model::exercises`]);
//! a sheet (`crate::exercises`) draws one exercise per template it lists.
//! Answers are checked here, in Rust, so the page does no arithmetic.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::core::domain::error::{Error, Validate};
use crate::core::domain::number::{human, number, readable};
use crate::core::presentation::draw::Draw;

/// A kind of exercise a model poses.
#[derive(Debug, Clone, Copy)]
pub struct Template {
    /// Its name in a sheet (`hierarchical-two-levels`): the model's id, a
    /// dash and what it asks. Sheets that name it as it was first published
    /// (`m3-two-levels`) are still read (`crate::exercises`).
    pub id: &'static str,
    /// One line for the teacher's list.
    pub title: &'static str,
    /// The bibliography key of the work it comes from.
    pub source: &'static str,
    /// Draws the parameters and computes the answer with the model.
    pub make: fn(&mut Draw) -> Result<Posed, Error>,
    /// Whether it is a hand calculation (a few lines with a pocket
    /// calculator), for a sheet of basics.
    pub by_hand: bool,
}

/// An exercise as a template poses it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Posed {
    /// The question, with the drawn parameters (markup: `<i>`, `<sub>`,
    /// `<sup>`).
    pub question: String,
    /// What is asked for, and the right answer.
    pub answer: Answer,
    /// Hints, each a little more of the way.
    pub hints: Vec<String>,
    /// The worked solution, step by step.
    pub solution: Vec<String>,
    /// The calculator's request that answers it (with its `"model"` tag),
    /// for "open in the calculator".
    pub request: Value,
}

/// What an exercise asks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Answer {
    /// A number, right within a relative tolerance.
    Number {
        /// What the number is (`makespan <i>T</i>`).
        asked: String,
        /// The right value.
        value: f64,
        /// Its unit (empty for a pure number).
        unit: String,
        /// The relative error accepted.
        tolerance: f64,
    },
    /// One of several options; any of `correct` is right (ties).
    Choice {
        /// The options, as shown.
        options: Vec<String>,
        /// The indices of the right options.
        correct: Vec<usize>,
    },
}

impl Answer {
    /// A number answer with the usual tolerance for hand computation:
    /// 0.5 % (three significant digits right).
    pub fn number(asked: &str, value: f64, unit: &str) -> Answer {
        Answer::Number {
            asked: asked.into(),
            value,
            unit: unit.into(),
            tolerance: 0.005,
        }
    }

    /// The right answer with what counts as right, for the worked
    /// solution.
    pub fn shown(&self) -> String {
        match self {
            Answer::Number { tolerance, .. } => {
                format!("{}, within {} %", self.text(), number(tolerance * 100.0))
            }
            Answer::Choice { .. } => self.text(),
        }
    }

    /// The right answer in words (for the worked solution and the key).
    pub fn text(&self) -> String {
        match self {
            Answer::Number { value, unit, .. } => with_unit(*value, unit),
            Answer::Choice { options, correct } => correct
                .iter()
                .map(|&i| options[i].clone())
                .collect::<Vec<_>>()
                .join(" or "),
        }
    }
}

/// A number to four significant digits with its unit, written for
/// reading (`5.051·10⁶ s`, `134 500 MB`).
pub fn with_unit(x: f64, unit: &str) -> String {
    let shown = figure(format!("{x:.3e}").parse().unwrap_or(x));
    if unit.is_empty() {
        shown
    } else {
        format!("{shown} {unit}")
    }
}

/// A given number written for reading as results are (`16·10⁶`,
/// `5·10⁻⁶`, `20 000`; four significant digits from a million up), with
/// a true minus sign.
pub fn figure(x: f64) -> String {
    let shown = readable(&number(x));
    match shown.strip_prefix('-') {
        Some(magnitude) => format!("−{magnitude}"),
        None => shown,
    }
}

/// `c·var` as written by hand: `x` for `1x`, `2.5x` otherwise.
pub fn times(c: f64, var: &str) -> String {
    if c == 1.0 {
        var.to_string()
    } else {
        format!("{}{var}", number(c))
    }
}

/// `n things`, or `1 thing`.
pub fn count(n: u64, thing: &str) -> String {
    if n == 1 {
        format!("1 {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// The check of one typed answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// `right`, `wrong`, or `unreadable` (nothing counted against the
    /// student).
    pub status: Status,
    /// What was read and how far off it is, in words (never the answer).
    pub message: String,
}

/// How a typed answer fared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Right within the tolerance (or a right option).
    Right,
    /// Read, and not right.
    Wrong,
    /// Not read as an answer at all.
    Unreadable,
}

/// Checks `typed` against `answer`: a number as people type them
/// (`5.75`, `5,75`, `1.2e5`, `1.2·10^5`, `1.2 × 10⁵`, `120 000`, `80 %`,
/// a fraction `64/65`, with or without the unit), or an option by its text
/// or its number.
pub fn check(answer: &Answer, typed: &str) -> Verdict {
    let verdict = |status, message: String| Verdict { status, message };
    match answer {
        Answer::Choice { options, correct } => {
            let typed = typed.trim();
            let picked = options
                .iter()
                .position(|o| o.eq_ignore_ascii_case(typed))
                .or_else(|| {
                    typed
                        .parse::<usize>()
                        .ok()
                        .filter(|&k| (1..=options.len()).contains(&k))
                        .map(|k| k - 1)
                });
            match picked {
                None => verdict(Status::Unreadable, "pick one of the options".into()),
                Some(k) if correct.contains(&k) => verdict(Status::Right, "right".into()),
                Some(_) => verdict(Status::Wrong, "not this one".into()),
            }
        }
        Answer::Number {
            value,
            unit,
            tolerance,
            ..
        } => match read_number(typed, unit) {
            Err(why) => verdict(Status::Unreadable, why),
            Ok(read) => {
                let off = (read - value) / value.abs().max(f64::MIN_POSITIVE);
                let shown = with_unit(read, unit);
                if (read - value).abs() <= tolerance * value.abs() + 1e-12 {
                    // The page says "Right — " before it.
                    let within = human(tolerance * 100.0);
                    verdict(
                        Status::Right,
                        format!("{shown}, within {within} % of the answer"),
                    )
                } else {
                    let way = if read > *value { "too high" } else { "too low" };
                    let by = if off.abs() >= 10.0 {
                        format!("{}×", human((read / value).abs().round()))
                    } else {
                        format!("{} %", human((off.abs() * 1000.0).round() / 10.0))
                    };
                    verdict(
                        Status::Wrong,
                        format!(
                            "{shown} is {way} (off by {by}; within {} % counts)",
                            human(tolerance * 100.0)
                        ),
                    )
                }
            }
        },
    }
}

/// Reads a typed number. A trailing unit is dropped (`5.75 s`); a trailing
/// `%` divides by 100 unless the answer itself is in percent.
///
/// # Errors
///
/// A lowercase sentence saying what could not be read.
pub fn read_number(typed: &str, unit: &str) -> Result<f64, String> {
    let mut text = plain(typed);
    if text.is_empty() {
        return Err("type a number".into());
    }
    let mut scale = without_unit(&mut text, unit)?;
    if let Some(rest) = text.strip_suffix('%') {
        if unit != "%" {
            scale *= 0.01;
        }
        text = rest.to_string();
    }
    // One comma without a point, not followed by exactly three digits, is
    // a decimal comma (`5,75`); other commas group thousands (`120,000`).
    let after = text.split(',').nth(1).unwrap_or("");
    let grouping = after.len() == 3 && after.bytes().all(|b| b.is_ascii_digit());
    text = if !text.contains('.') && text.matches(',').count() == 1 && !grouping {
        text.replace(',', ".")
    } else {
        text.replace(',', "")
    };
    // A fraction `a/b`, as a result is often worked out (`64/65`).
    let value = match text.split_once('/') {
        Some((a, b)) => match (read_plain(a), read_plain(b)) {
            (Some(a), Some(b)) if b != 0.0 => Some(a / b).filter(|v| v.is_finite()),
            _ => None,
        },
        None => read_plain(&text),
    };
    match value {
        Some(v) => Ok(v * scale),
        None => Err(format!(
            "{:?} is not a number (write e.g. 5.75, 1.2e5, 1.2·10^5 or 64/65)",
            crate::core::domain::error::shorten(typed.trim())
        )),
    }
}

/// `text` (a typed answer in plain characters) without its trailing unit,
/// and how many of the answer's `unit` one of the unit typed is: the
/// answer's own is dropped (`5.75 s`), another of the same quantity is
/// converted (`5 GB` for an answer in MB), one of another quantity is
/// named, not called no number.
fn without_unit(text: &mut String, unit: &str) -> Result<f64, String> {
    let squeezed: String = unit.chars().filter(|c| !c.is_whitespace()).collect();
    // The answer's unit, unless it ends another (`s` of `ms`).
    let prefixed = text
        .strip_suffix(squeezed.as_str())
        .is_some_and(|rest| rest.ends_with(char::is_alphabetic));
    if !squeezed.is_empty() && text.ends_with(&squeezed) && squeezed != "%" && !prefixed {
        text.truncate(text.len() - squeezed.len());
    }
    let last_digit = text
        .rfind(|c: char| c.is_ascii_digit())
        .map_or(0, |k| k + 1);
    let written = &text[last_digit..];
    if last_digit == 0 || !written.chars().any(char::is_alphabetic) {
        return Ok(1.0);
    }
    let scale = unit_scale(written, &squeezed).ok_or_else(|| {
        if squeezed.is_empty() {
            format!("{written} is a unit: the answer is a pure number")
        } else {
            format!("{written} is not a unit of this answer: give it in {unit}")
        }
    })?;
    text.truncate(last_digit);
    Ok(scale)
}

/// How many of `unit` one `written` is, when both are decimal multiples
/// of the same units (`GB` and `MB`: 1000; `ms/MB` and `s/MB`: 0.001).
fn unit_scale(written: &str, unit: &str) -> Option<f64> {
    const PREFIXES: [(&str, i32); 9] = [
        ("T", 12),
        ("G", 9),
        ("M", 6),
        ("k", 3),
        ("", 0),
        ("m", -3),
        ("µ", -6),
        ("u", -6),
        ("n", -9),
    ];
    const BASES: [&str; 5] = ["Wh", "B", "s", "W", "J"];
    let split = |u: &str| {
        BASES.iter().find_map(|base| {
            let prefix = u.strip_suffix(base)?;
            let (_, power) = PREFIXES.iter().find(|(p, _)| *p == prefix)?;
            Some((*base, *power))
        })
    };
    let (wa, wb) = written
        .split_once('/')
        .map_or((written, None), |(a, b)| (a, Some(b)));
    let (ua, ub) = unit
        .split_once('/')
        .map_or((unit, None), |(a, b)| (a, Some(b)));
    let (w, u) = (split(wa)?, split(ua)?);
    let mut power = if w.0 == u.0 { w.1 - u.1 } else { return None };
    match (wb, ub) {
        (None, None) => {}
        (Some(wb), Some(ub)) => {
            let (w, u) = (split(wb)?, split(ub)?);
            power -= if w.0 == u.0 { w.1 - u.1 } else { return None };
        }
        _ => return None,
    }
    Some(10f64.powi(power))
}

/// A number in plain characters (see [`plain`]): `5.75`, `1.2e5`,
/// `1.2x10^5`, `10^-3`.
fn read_plain(text: &str) -> Option<f64> {
    let (mantissa, exponent) = match text.split_once("10^") {
        Some((m, e)) => (m.strip_suffix('x').unwrap_or(m), Some(e)),
        None => (text, None),
    };
    // `10^3` alone is `1x10^3`; an empty text is no number.
    let mantissa = match (mantissa, exponent) {
        ("", Some(_)) => "1",
        _ => mantissa,
    };
    let read = |s: &str| s.parse::<f64>().ok().filter(|x| x.is_finite());
    match exponent {
        None => read(mantissa),
        Some(e) => Some(read(mantissa)? * 10f64.powf(read(e)?)).filter(|v| v.is_finite()),
    }
}

/// `typed` in plain characters, spaces dropped: superscript digits become
/// `^` and digits (`10⁻³` is `10^-3`), typographic minus signs `-`, and
/// multiplication signs `x`, so that a number copied from a page reads.
fn plain(typed: &str) -> String {
    let mut text = String::new();
    let mut raised = false;
    for c in typed.trim().chars() {
        let up = "⁰¹²³⁴⁵⁶⁷⁸⁹".chars().position(|s| s == c);
        if up.is_some() || c == '⁻' {
            if !raised {
                text.push('^');
            }
            raised = true;
            text.push(up.map_or('-', |d| char::from(b'0' + d as u8)));
            continue;
        }
        raised = false;
        match c {
            '−' | '–' => text.push('-'),
            '·' | '×' | '⋅' | '*' => text.push('x'),
            c if c.is_whitespace() => {}
            c => text.push(c),
        }
    }
    text
}

/// Draws with `make` until it gives a question worth asking (`make` says
/// so beside what it drew), at most `tries` times; when none is, the first
/// one drawn. Templates whose random numbers sometimes make a poor
/// question (a machine not worth using, rules that tie) draw again.
///
/// # Errors
///
/// The first error of `make`.
pub fn worth_asking<T>(
    d: &mut Draw,
    tries: usize,
    mut make: impl FnMut(&mut Draw) -> Result<(T, bool), Error>,
) -> Result<T, Error> {
    let mut first = None;
    for _ in 0..tries.max(1) {
        let (drawn, good) = make(d)?;
        if good {
            return Ok(drawn);
        }
        first.get_or_insert(drawn);
    }
    first.ok_or_else(|| Error::Malformed("nothing drawn".into()))
}

/// A template's request read and validated whole, as the calculator
/// would (a drawn instance that is not valid is a bug of the template).
///
/// # Errors
///
/// [`Error::Malformed`] with the first problem.
pub fn request<R: DeserializeOwned + Validate>(json: &Value) -> Result<R, Error> {
    let request: R =
        serde_json::from_value(json.clone()).map_err(|e| Error::Malformed(e.to_string()))?;
    match request.problems().into_iter().next() {
        Some(e) => Err(Error::Malformed(format!("drawn instance: {e}"))),
        None => Ok(request),
    }
}

/// The generator of the exercise at `position` of a sheet with `seed`:
/// the same exercise whatever the sheet's other items are.
pub fn draw_for(seed: u64, position: usize, template: &str) -> Draw {
    // FNV-1a of the template's name, so that swapping templates at one
    // position draws new numbers.
    let name = crate::core::domain::hash::fnv1a64(template.bytes());
    let mut mix = Draw::new(seed ^ name);
    for _ in 0..=position {
        mix.bits();
    }
    Draw::new(mix.bits())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_numbers_are_read_as_people_write_them() {
        let cases: &[(&str, &str, f64)] = &[
            ("5.75", "s", 5.75),
            (" 5,75 ", "s", 5.75),
            ("5.75 s", "s", 5.75),
            ("1.2e5", "", 1.2e5),
            ("1.2E-3", "", 1.2e-3),
            ("1.2·10^5", "", 1.2e5),
            ("1.2 × 10^-3", "", 1.2e-3),
            ("1.2x10^5", "", 1.2e5),
            ("10^4", "", 1e4),
            ("10⁻²", "", 1e-2),
            ("1.2×10⁵", "", 1.2e5),
            ("120 000", "MB", 120_000.0),
            ("120,000", "", 120_000.0),
            ("1,5", "", 1.5),
            ("120\u{2009}000 MB", "MB", 120_000.0),
            ("80 %", "", 0.8),
            ("80 %", "%", 80.0),
            ("−2.5", "", -2.5),
            ("64/65", "", 64.0 / 65.0),
            (" 64 / 65 ", "", 64.0 / 65.0),
            ("1/2 s/MB", "s/MB", 0.5),
            ("3/4 %", "", 0.0075),
            ("1.2·10^5/4", "", 3e4),
            ("−1/8", "", -0.125),
            ("5 GB", "MB", 5000.0),
            ("1.639 GB", "MB", 1639.0),
            ("250 ms", "s", 0.25),
            ("2 ms/MB", "s/MB", 0.002),
            ("3 kJ", "J", 3000.0),
        ];
        for &(typed, unit, want) in cases {
            let got = read_number(typed, unit).unwrap_or_else(|e| panic!("{typed}: {e}"));
            assert!((got - want).abs() <= 1e-12 * want.abs(), "{typed}: {got}");
        }
        for bad in [
            "",
            "abc",
            "5..7",
            "1e999",
            "x",
            "1/0",
            "1/",
            "/2",
            "1/2/3",
            "1e300/1e-300",
        ] {
            assert!(read_number(bad, "").is_err(), "{bad:?}");
        }
    }

    /// A unit of another quantity is named as such, not called no number.
    #[test]
    fn a_unit_of_another_quantity_is_named() {
        for (typed, unit) in [
            ("5 s", "MB"),
            ("5 MB", ""),
            ("5 GB", "s/MB"),
            ("5 parsecs", "s"),
        ] {
            let why = read_number(typed, unit).expect_err(typed);
            assert!(why.contains("unit"), "{typed} in {unit:?}: {why}");
        }
    }

    #[test]
    fn a_number_is_right_within_its_tolerance_and_the_message_hides_it() {
        let a = Answer::number("makespan", 5.75, "s");
        assert_eq!(check(&a, "5.76").status, Status::Right);
        assert_eq!(check(&a, "5.75 s").status, Status::Right);
        let wrong = check(&a, "6");
        assert_eq!(wrong.status, Status::Wrong);
        assert!(wrong.message.contains("too high"), "{}", wrong.message);
        assert!(!wrong.message.contains("5.75"), "{}", wrong.message);
        assert_eq!(check(&a, "5.5").status, Status::Wrong);
        assert!(check(&a, "575").message.contains("100×"));
        assert_eq!(check(&a, "five").status, Status::Unreadable);
    }

    #[test]
    fn an_option_is_picked_by_text_or_number() {
        let a = Answer::Choice {
            options: vec!["β = 5".into(), "β = 10⁴".into()],
            correct: vec![1],
        };
        assert_eq!(check(&a, "2").status, Status::Right);
        assert_eq!(check(&a, "β = 10⁴").status, Status::Right);
        assert_eq!(check(&a, "1").status, Status::Wrong);
        assert_eq!(check(&a, "3").status, Status::Unreadable);
        assert_eq!(a.text(), "β = 10⁴");
    }

    #[test]
    fn positions_draw_apart_and_repeatably() {
        let a = draw_for(1, 0, "x").bits();
        assert_eq!(a, draw_for(1, 0, "x").bits());
        assert_ne!(a, draw_for(1, 1, "x").bits());
        assert_ne!(a, draw_for(1, 0, "y").bits());
        assert_ne!(a, draw_for(2, 0, "x").bits());
    }
}
