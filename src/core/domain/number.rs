//! Numbers as the calculator writes them, in results and in messages alike.

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

/// A number in a message or a label, as the page shows numbers (see
/// [`readable`]) but with every digit [`number`] keeps, so that a value
/// and its limit never look equal: thin spaces between thousands from five
/// digits (`10 000 625`), an exponent as a power of ten (`1.75·10²⁹⁹`,
/// `1·10⁻⁷`), and words for what is no number. The one format of messages,
/// the command line's text and labels; tables and results keep
/// [`number`]'s digits for export and the page shortens them for reading.
pub fn human(x: f64) -> String {
    if x.is_nan() {
        return "not a number (NaN)".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "infinity" } else { "−infinity" }.into();
    }
    let text = number(x);
    match text.split_once('e') {
        Some((mantissa, exponent)) => {
            let exponent: i32 = exponent.parse().unwrap_or(0);
            format!("{mantissa}·10{}", superscript(exponent))
        }
        None => grouped(&text),
    }
}

/// A count in a message (`1 200 000 transfers`), as [`human`] writes it.
pub fn count(n: usize) -> String {
    human(n as f64)
}

/// `text` with every number in it written for reading: four significant
/// digits, thin spaces between thousands, and an engineering exponent
/// (`12.35·10⁶`) below 0.001 or from a million up; whole numbers below a
/// million keep every digit (`134 485`). Numbers glued to letters (`P1`,
/// `a2`) are names, not numbers, and stay. The page shows this and keeps
/// the full text on hover and in exports.
pub fn readable(text: &str) -> String {
    let pieces = pieces(text);
    let mut out = String::with_capacity(text.len());
    for (k, (piece, number)) in pieces.iter().enumerate() {
        if !number {
            out.push_str(piece);
            continue;
        }
        // A whole number the crate wrote in groups (a count, `200 000 000`)
        // is already as it should read: one notation, every digit.
        if piece.contains('\u{202f}')
            && piece
                .chars()
                .all(|c| c.is_ascii_digit() || c == '\u{202f}' || c == '-')
        {
            out.push_str(piece);
            continue;
        }
        // A range (`25.4012 – 25.4355`) keeps the digits that tell its ends apart.
        let other = match (pieces.get(k + 1), pieces.get(k + 2), k.checked_sub(2)) {
            (Some((dash, false)), Some((b, true)), _) if dash.trim() == "–" => Some(b),
            (_, _, Some(j)) if pieces[j].1 && pieces[j + 1].0.trim() == "–" => Some(&pieces[j].0),
            _ => None,
        };
        let differ = |sig| other.is_none_or(|o| short(piece, sig) != short(o, sig));
        let sig = (4..=10).find(|&sig| differ(sig)).unwrap_or(4);
        out.push_str(&short(piece, sig));
    }
    out
}

/// `text` cut into runs of text and number tokens (`true`: a number to
/// shorten), as [`readable`] reads it.
fn pieces(text: &str) -> Vec<(String, bool)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out: Vec<(String, bool)> = Vec::new();
    let mut push = |s: &str, number: bool| match out.last_mut() {
        Some((last, false)) if !number => last.push_str(s),
        _ => out.push((s.to_string(), number)),
    };
    let mut i = 0;
    while i < chars.len() {
        let start = i;
        let glued = |k: usize| {
            k > 0 && (chars[k - 1].is_alphanumeric() || matches!(chars[k - 1], '.' | '_' | '^'))
        };
        let digit_at = |k: usize| chars.get(k).is_some_and(char::is_ascii_digit);
        let signed = chars[i] == '-' && digit_at(i + 1);
        if !(chars[i].is_ascii_digit() || signed) || glued(i) {
            push(&chars[i].to_string(), false);
            i += 1;
            continue;
        }
        i += usize::from(signed);
        while digit_at(i) {
            i += 1;
        }
        i = past_groups(&chars, start + usize::from(signed), i);
        if chars.get(i) == Some(&'.') && digit_at(i + 1) {
            i += 1;
            while digit_at(i) {
                i += 1;
            }
        }
        if chars.get(i) == Some(&'e') {
            let mut k = i + 1;
            if matches!(chars.get(k), Some('+' | '-')) {
                k += 1;
            }
            if digit_at(k) {
                i = k;
                while digit_at(i) {
                    i += 1;
                }
            }
        }
        let token: String = chars[start..i].iter().collect();
        // Glued to what follows (`2a`, `1.x`), a number is a name; a
        // sentence's full stop after it (`= 10000625.`) is not.
        let next_glued = chars.get(i + 1).is_some_and(|c| c.is_alphanumeric());
        let followed = chars
            .get(i)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_' || (*c == '.' && next_glued));
        push(&token, !followed);
    }
    out
}

/// Where the whole part of a number that starts at `start` and whose first
/// digits end at `end` ends, counting the groups of three digits that
/// [`human`] (or a label) already set apart with a thin space
/// (`12 057.33`): read as one number, a group's leading zero is kept, where
/// read as two numbers `057` became `57`.
fn past_groups(chars: &[char], start: usize, end: usize) -> usize {
    let thin = |k: usize| matches!(chars.get(k), Some('\u{202f}' | '\u{2009}'));
    let digit = |k: usize| chars.get(k).is_some_and(char::is_ascii_digit);
    if end - start > 3 {
        return end;
    }
    let mut i = end;
    while thin(i) && (1..=3).all(|d| digit(i + d)) && !digit(i + 4) {
        i += 4;
    }
    i
}

/// One number token for reading (see [`readable`]) at `sig` significant
/// digits; its thin spaces between thousands, if it has them, are the
/// grouping of its whole part.
fn short(token: &str, sig: i32) -> String {
    let plain: String = token
        .chars()
        .filter(|c| !matches!(c, '\u{202f}' | '\u{2009}'))
        .collect();
    let Ok(x) = plain.parse::<f64>() else {
        return token.to_string();
    };
    if x == 0.0 || !x.is_finite() {
        return token.to_string();
    }
    let trimmed = |s: String| {
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    };
    // Below a million the whole part keeps every digit (`134 485`, not
    // `134 500`): a shown digit is never one the value does not have.
    if (1e3..1e6).contains(&x.abs()) && x.round().abs() < 1e6 {
        let decimals = (sig - 1 - x.abs().log10().floor() as i32).max(0) as usize;
        let whole = !plain.contains(['.', 'e']);
        return match (whole, decimals) {
            (true, _) => grouped(&plain),
            (false, 0) => grouped(&format!("{}", x.round())),
            _ => grouped(&trimmed(format!("{x:.decimals$}"))),
        };
    }
    if x.abs() < 1e3 && !plain.contains(['.', 'e']) {
        return plain;
    }
    // The significant digits first, so that 999 999.9 reads 1·10⁶.
    let digits = (sig - 1).max(0) as usize;
    let x: f64 = format!("{x:.digits$e}").parse().unwrap_or(x);
    let size = x.abs();
    if (1e-3..1e6).contains(&size) {
        let decimals = (sig - 1 - size.log10().floor() as i32).max(0) as usize;
        return grouped(&trimmed(format!("{x:.decimals$}")));
    }
    let exponent = (size.log10().floor() as i32).div_euclid(3) * 3;
    let mantissa = x / 10f64.powi(exponent);
    let digits = (sig - 1 - mantissa.abs().log10().floor() as i32).max(0) as usize;
    format!(
        "{}·10{}",
        trimmed(format!("{mantissa:.digits$}")),
        superscript(exponent)
    )
}

/// Thin spaces between thousands of the whole part (from five digits).
fn grouped(number: &str) -> String {
    let (sign, rest) = number.strip_prefix('-').map_or(("", number), |r| ("-", r));
    let (int, frac) = rest
        .split_once('.')
        .map_or((rest, None), |(a, b)| (a, Some(b)));
    if int.len() < 5 {
        return number.to_string();
    }
    let mut out = String::new();
    for (k, c) in int.chars().enumerate() {
        if k > 0 && (int.len() - k) % 3 == 0 {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    match frac {
        Some(f) => format!("{sign}{out}.{f}"),
        None => format!("{sign}{out}"),
    }
}

/// An exponent in superscript digits.
fn superscript(n: i32) -> String {
    let digits = "⁰¹²³⁴⁵⁶⁷⁸⁹";
    let mut out = String::new();
    if n < 0 {
        out.push('⁻');
    }
    for c in n.unsigned_abs().to_string().chars() {
        let d = c.to_digit(10).unwrap_or(0) as usize;
        out.push(digits.chars().nth(d).unwrap_or('⁰'));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_at_four_significant_digits() {
        let n = '\u{202f}';
        let cases = [
            ("5.75", "5.75".to_string()),
            ("1587.234568", "1587".to_string()),
            ("0.3333333333", "0.3333".to_string()),
            ("134485", format!("134{n}485")),
            ("134485.25", format!("134{n}485")),
            (
                &format!("−12{n}057.33 and 305{n}094.47 MB"),
                format!("−12{n}057 and 305{n}094 MB"),
            ),
            (&format!("1{n}000{n}001.5"), "1·10⁶".to_string()),
            (&format!("P1{n}234"), format!("P1{n}234")),
            ("12.5 s", "12.5 s".to_string()),
            (
                "T = 1091.665168 s, gap 0.32 %",
                "T = 1092 s, gap 0.32 %".to_string(),
            ),
            ("1e+21", "1·10²¹".to_string()),
            ("12345678.9", "12.35·10⁶".to_string()),
            ("0.0000999", "99.9·10⁻⁶".to_string()),
            ("-0.00012346", "-123.5·10⁻⁶".to_string()),
            ("999999.9", "1·10⁶".to_string()),
            ("P1 and a2 stay, m = 4", "P1 and a2 stay, m = 4".to_string()),
            ("BγV/r = 10000625.", "BγV/r = 10·10⁶.".to_string()),
            ("0 – 2.25", "0 – 2.25".to_string()),
            ("25.4012 – 25.4355", "25.4 – 25.44".to_string()),
            ("25.4012 – 25.4046", "25.401 – 25.405".to_string()),
            ("25.40001 – 25.40002 s", "25.40001 – 25.40002 s".to_string()),
            ("2026-11-25", "2026-11-25".to_string()),
            ("x1.2345", "x1.2345".to_string()),
            ("(1.666666667, 0.3333333333)", "(1.667, 0.3333)".to_string()),
        ];
        for (text, want) in cases {
            assert_eq!(readable(text), want, "{text}");
        }
    }

    #[test]
    fn messages_write_numbers_one_way() {
        let n = '\u{202f}';
        let cases = [
            (10000625.0, format!("10{n}000{n}625")),
            (1e4, format!("10{n}000")),
            (1234.5, "1234.5".to_string()),
            (-123456.75, format!("-123{n}456.75")),
            (1e300, "1·10³⁰⁰".to_string()),
            (-1.75e299, "-1.75·10²⁹⁹".to_string()),
            (1e-7, "1·10⁻⁷".to_string()),
            (0.5, "0.5".to_string()),
            (f64::NAN, "not a number (NaN)".to_string()),
            (f64::INFINITY, "infinity".to_string()),
        ];
        for (x, want) in cases {
            assert_eq!(human(x), want, "{x}");
        }
        assert_eq!(count(200_000_000), format!("200{n}000{n}000"));
    }

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

    /// The numbers in `shown` (as the page shows them: thin spaces between
    /// thousands, `·10ⁿ` or `e±n` exponents), each with the unit of its
    /// last shown digit: what a reader copying them gets.
    fn read_back(shown: &str) -> Vec<(f64, f64)> {
        let supers = "⁰¹²³⁴⁵⁶⁷⁸⁹";
        let chars: Vec<char> = shown.chars().collect();
        let mut out = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let starts = chars[i].is_ascii_digit()
                || (chars[i] == '-' && chars.get(i + 1).is_some_and(char::is_ascii_digit));
            if !starts || (i > 0 && chars[i - 1].is_alphanumeric()) {
                i += 1;
                continue;
            }
            let mut text = String::from(chars[i]);
            i += 1;
            while let Some(&c) = chars.get(i) {
                let group = matches!(c, '\u{202f}' | '\u{2009}')
                    && chars.get(i + 1).is_some_and(char::is_ascii_digit);
                if c.is_ascii_digit() || c == '.' || group {
                    if c != '\u{202f}' && c != '\u{2009}' {
                        text.push(c);
                    }
                    i += 1;
                } else {
                    break;
                }
            }
            let decimals = text.split_once('.').map_or(0, |(_, f)| f.len()) as i32;
            let mut exponent = 0;
            let rest: String = chars[i..].iter().take(3).collect();
            if rest.starts_with("·10") {
                i += 3;
                let negative = chars.get(i) == Some(&'⁻');
                i += usize::from(negative);
                let mut e = 0;
                while let Some(d) = chars
                    .get(i)
                    .and_then(|c| supers.chars().position(|s| s == *c))
                {
                    e = e * 10 + d as i32;
                    i += 1;
                }
                exponent = if negative { -e } else { e };
            } else if chars.get(i) == Some(&'e') {
                let tail: String = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit() || matches!(c, '+' | '-'))
                    .collect();
                i += 1 + tail.chars().count();
                exponent = tail.parse().unwrap_or(0);
            }
            let mantissa: f64 = text.parse().unwrap_or(f64::NAN);
            out.push((
                mantissa * 10f64.powi(exponent),
                10f64.powi(exponent - decimals),
            ));
        }
        out
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Every number the page shows, from a message's text ([`human`]) or
        /// a result's ([`number`]) alike, equals the computed value at the
        /// digits shown, and reading a text twice changes nothing: a group
        /// with a leading zero (`12 057.33`), a negative, an exponent.
        #[test]
        fn shown_numbers_are_the_computed_ones(
            negative in proptest::bool::ANY,
            digits in 1u64..10_000_000_000,
            exponent in -14i32..26,
            zeros in 0usize..4,
        ) {
            // A mantissa whose groups start with zeros as often as not.
            let mantissa = (digits / 10u64.pow(zeros as u32)) * 10u64.pow(zeros as u32) + u64::from(zeros > 1);
            let x = (if negative { -1.0 } else { 1.0 }) * mantissa as f64 * 10f64.powi(exponent - 9);
            let x: f64 = number(x).parse().unwrap_or(x);
            let next = x * (1.0 + 1e-6);
            let texts = [
                format!("{} – {} s", number(x), number(next)),
                format!("T = {} s", human(x)),
                format!("{} MB", number(x)),
                format!("4.129·α − {}; (P1: {})", human(x.abs()), human(x)),
            ];
            for text in &texts {
                let shown = readable(text);
                // Read twice, a text changes nothing (a range's ends, kept
                // apart by more digits, are not read again as a range).
                if !text.contains(" – ") {
                    proptest::prop_assert_eq!(readable(&shown), shown.clone(), "{} read twice", text);
                }
                let values = read_back(&shown);
                let wanted: Vec<f64> = read_back(text).into_iter().map(|(v, _)| v).collect();
                if wanted.len() == 2 && wanted[0] != wanted[1] {
                    let ends: Vec<&str> = shown.split(" – ").collect();
                    proptest::prop_assert_ne!(ends[0], ends[1].trim_end_matches(" s"), "{} shown as {}", text, shown);
                }
                proptest::prop_assert_eq!(values.len(), wanted.len(), "{} shown as {}", text, shown);
                for ((got, unit), want) in values.into_iter().zip(wanted) {
                    let off = (got - want).abs();
                    proptest::prop_assert!(off <= unit * (0.5 + 1e-9) + want.abs() * 1e-12,
                        "{} shown as {}: {} is not {} at the digits shown", text, shown, got, want);
                }
            }
        }
    }
}
