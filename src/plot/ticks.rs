//! Tick labels: one format per axis, chosen from all its ticks, so that an
//! axis reads `10⁻⁵, 2·10⁻⁵, 3·10⁻⁵` rather than `10·10⁻⁶`, and plain
//! decimals (`0.25`, `134 485`) where they are short.

/// Plain decimals from this magnitude up to [`PLAIN_BELOW`]; powers of ten
/// outside.
const PLAIN_FROM: f64 = 1e-3;
/// Plain decimals below this magnitude.
const PLAIN_BELOW: f64 = 1e6;

/// The labels of an axis's ticks `values`, in order: on a linear axis
/// with the decimals its step needs, on a logarithmic one each with its
/// own (`0.001, 0.01, 0.1`).
pub fn tick_labels(values: &[f64], log: bool) -> Vec<String> {
    let largest = values.iter().fold(0.0_f64, |m, v| m.max(v.abs()));
    let smallest = values
        .iter()
        .filter(|v| **v != 0.0)
        .fold(f64::INFINITY, |m, v| m.min(v.abs()));
    let plain = largest < PLAIN_BELOW && (smallest >= PLAIN_FROM || smallest.is_infinite());
    if plain {
        let decimals = |vs: &[f64]| {
            (0..=6)
                .find(|&d| vs.iter().all(|&v| exact(v, d, largest)))
                .unwrap_or(6)
        };
        let common = decimals(values);
        values
            .iter()
            .map(|&v| decimal(v, if log { decimals(&[v]) } else { common }))
            .collect()
    } else {
        values.iter().map(|&v| power(v)).collect()
    }
}

/// Whether `v` written with `decimals` decimals is `v` (up to rounding
/// noise relative to the axis's `scale`).
fn exact(v: f64, decimals: usize, scale: f64) -> bool {
    let written: f64 = format!("{v:.decimals$}").parse().unwrap_or(f64::NAN);
    (written - v).abs() <= 1e-9 * scale.max(f64::MIN_POSITIVE)
}

/// `v` with `decimals` decimals, thousands apart by thin spaces from ten
/// thousand up (as results are written).
fn decimal(v: f64, decimals: usize) -> String {
    let text = format!("{v:.decimals$}");
    if text
        .trim_start_matches('-')
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        return "0".into();
    }
    let (sign, body) = match text.strip_prefix('-') {
        Some(rest) => ("−", rest),
        None => ("", text.as_str()),
    };
    let (int, frac) = body.split_once('.').unwrap_or((body, ""));
    let int = if int.len() > 4 {
        grouped(int)
    } else {
        int.into()
    };
    let point = if frac.is_empty() { "" } else { "." };
    format!("{sign}{int}{point}{frac}")
}

/// Digits in groups of three from the right, apart by thin spaces.
fn grouped(digits: &str) -> String {
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\u{2009}');
        }
        out.push(c);
    }
    out
}

/// `v` as `m·10ⁿ` with `1 ≤ m < 10` and at most three significant digits,
/// or `10ⁿ` when `m` is 1.
fn power(v: f64) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let sci = format!("{:.2e}", v.abs());
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
    let sign = if v < 0.0 { "−" } else { "" };
    let exponent = superscript(exponent.parse().unwrap_or(0));
    if mantissa == "1" {
        format!("{sign}10{exponent}")
    } else {
        format!("{sign}{mantissa}·10{exponent}")
    }
}

/// A whole number in superscript digits.
fn superscript(n: i32) -> String {
    const DIGITS: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    let sign = if n < 0 { "⁻" } else { "" };
    let digits: String = n
        .unsigned_abs()
        .to_string()
        .chars()
        .map(|c| DIGITS[c.to_digit(10).unwrap_or(0) as usize])
        .collect();
    format!("{sign}{digits}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_are_powers_with_a_single_digit_mantissa() {
        assert_eq!(
            tick_labels(&[1e-5, 2e-5, 3.5e-5], false),
            ["10⁻⁵", "2·10⁻⁵", "3.5·10⁻⁵"]
        );
        assert_eq!(tick_labels(&[1e6, 1e7, 1e8], true), ["10⁶", "10⁷", "10⁸"]);
    }

    #[test]
    fn short_values_are_plain_with_the_decimals_the_axis_needs() {
        assert_eq!(tick_labels(&[0.0, 0.25, 0.5], false), ["0", "0.25", "0.50"]);
        assert_eq!(tick_labels(&[2.0, 4.0, 6.0], false), ["2", "4", "6"]);
        assert_eq!(
            tick_labels(&[1000.0, 10000.0, 100000.0], true),
            ["1000", "10\u{2009}000", "100\u{2009}000"]
        );
        assert_eq!(tick_labels(&[-0.5, 0.0, 0.5], false), ["−0.5", "0", "0.5"]);
        assert_eq!(
            tick_labels(&[0.001, 0.01, 0.1], true),
            ["0.001", "0.01", "0.1"]
        );
    }
}
