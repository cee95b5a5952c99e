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
}
