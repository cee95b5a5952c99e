//! A formula a student types, such as `n/p + 2 log p`, read once and
//! evaluated many times.
//!
//! This module reads the text token by token, to hold the lecture's
//! conventions and to name what is wrong *where* it is wrong (`unknown
//! function foo at 3`), and rewrites it with every convention explicit for
//! [`super::postfix`], which compiles and evaluates it:
//! `log` is base 2 as in the lecture (`ln` is natural, `log10` decimal),
//! `n` is another name for `W`, numbers may have exponents (`1e-3`), named
//! constants of the request may appear, and a minus before a term applies
//! to the whole power (`-2^2 = -4`).

use std::collections::BTreeMap;

use super::postfix::{Postfix, Slot};

/// The functions a formula may call, and the rewritten text's name for
/// each.
const FUNCTIONS: &[(&str, &str)] = &[
    ("log", "log2"),
    ("log2", "log2"),
    ("ln", "ln"),
    ("log10", "log10"),
    ("sqrt", "sqrt"),
    ("exp", "exp"),
    ("abs", "abs"),
];

/// The longest formula read (the parser recurses on its structure).
const MAX_LENGTH: usize = 1000;
/// The deepest nesting of parentheses.
const MAX_DEPTH: usize = 30;

/// A compiled formula in `W` (or `n`) and, if allowed, `p`.
#[derive(Debug, Clone)]
pub struct Formula {
    expr: Postfix,
    /// The request's constants it uses, as `name = value`.
    constants: Vec<String>,
}

impl Formula {
    /// Reads `text`; `with_p` allows `p`; `constants` are the request's
    /// named numbers.
    ///
    /// # Errors
    ///
    /// What is wrong and at which character (counted from 1).
    pub fn new(
        text: &str,
        with_p: bool,
        constants: &BTreeMap<String, f64>,
    ) -> Result<Formula, String> {
        let rewritten = rewrite(text, with_p, constants)?;
        let expr = Postfix::compile(&rewritten, |name| match name {
            "W" | "n" => Some(Slot::Work),
            "p" => Some(Slot::Processors),
            "π" => Some(Slot::Constant(std::f64::consts::PI)),
            "E" => Some(Slot::Constant(std::f64::consts::E)),
            other => constants.get(other).copied().map(Slot::Constant),
        })
        .map_err(|e| {
            format!(
                "cannot be read ({})",
                crate::core::domain::error::shorten(&e)
            )
        })?;
        let constants = expr
            .names()
            .iter()
            .filter_map(|name| {
                let value = constants.get(name.as_str())?;
                Some(format!(
                    "{name} = {}",
                    crate::core::domain::number::number(*value)
                ))
            })
            .collect();
        Ok(Formula { expr, constants })
    }

    /// The request's constants it uses, in words (`; with t_c = -1`), or
    /// nothing: said with a value that is not a time, as they may be why.
    pub fn with_constants(&self) -> String {
        if self.constants.is_empty() {
            String::new()
        } else {
            format!("; with {}", self.constants.join(", "))
        }
    }

    /// Its value at work `w` on `p` processors (NaN where undefined).
    pub fn at(&self, w: f64, p: f64) -> f64 {
        self.expr.eval(w, p)
    }
}

/// A token of the text and where it starts (a character count from 1).
#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(f64),
    Name(String),
    Symbol(char),
}

/// The text with every convention explicit, or what is wrong and where.
fn rewrite(text: &str, with_p: bool, constants: &BTreeMap<String, f64>) -> Result<String, String> {
    if text.chars().count() > MAX_LENGTH {
        return Err(format!("is too long (at most {MAX_LENGTH} characters)"));
    }
    let tokens = tokens(text)?;
    if tokens.is_empty() {
        return Err("must not be empty".into());
    }
    let mut out = String::new();
    let mut depth: Vec<usize> = Vec::new();
    let mut powers: Vec<usize> = Vec::new();
    for (i, (token, at)) in tokens.iter().enumerate() {
        let next = tokens.get(i + 1).map(|(t, _)| t);
        let before: Vec<&Token> = tokens[i.saturating_sub(2)..i]
            .iter()
            .map(|(t, _)| t)
            .collect();
        juxtaposed(&before, token, *at, &mut out)?;
        let level = depth.len();
        let ends_operand = match token {
            Token::Symbol(c) => {
                symbol(*c, *at, before.last().copied(), &mut depth, &mut out)?;
                *c == ')'
            }
            _ => operand(
                token,
                (*at, next),
                (level, &mut powers),
                with_p,
                constants,
                &mut out,
            )?,
        };
        right_to_left(
            token,
            next,
            (*at, depth.len(), ends_operand),
            &mut powers,
            &mut out,
        )?;
    }
    if let Some(at) = depth.pop() {
        return Err(format!("the parenthesis at {at} is not closed"));
    }
    match tokens.last().map(|(t, _)| t) {
        Some(Token::Symbol(c)) if *c != ')' => Err(format!("the formula ends with `{c}`")),
        Some(Token::Name(name)) if is_function(name) => Err(format!(
            "the formula ends with the function `{name}`: give its argument"
        )),
        _ => Ok(out),
    }
}

/// Writes a number or a name (at `at`, before `next`): a function opens
/// a group at `level` among the `powers` when it has no parentheses.
/// Whether it ends an operand (a function does not: its argument follows).
fn operand(
    token: &Token,
    (at, next): (usize, Option<&Token>),
    (level, powers): (usize, &mut Vec<usize>),
    with_p: bool,
    constants: &BTreeMap<String, f64>,
    out: &mut String,
) -> Result<bool, String> {
    Ok(match token {
        Token::Number(x) => {
            *out += &format!("{x}");
            true
        }
        Token::Name(name) if is_function(name) => {
            *out += function(name, at)?;
            if next != Some(&Token::Symbol('(')) {
                without_parentheses(name, at, next, level + powers.len())?;
                powers.push(level);
                out.push('(');
            }
            false
        }
        Token::Name(name) if next == Some(&Token::Symbol('(')) && !known(name, constants) => {
            *out += function(name, at)?;
            false
        }
        Token::Name(name) => {
            *out += &variable(name, at, with_p, constants)?;
            true
        }
        Token::Symbol(_) => false,
    })
}

/// Whether `name` is one of the functions.
fn is_function(name: &str) -> bool {
    FUNCTIONS.iter().any(|(f, _)| *f == name)
}

/// Whether `name` is a variable, a built-in number or one of the request's
/// constants (so `p(n + 1)` multiplies, while `foo(n)` calls a function
/// there is not).
fn known(name: &str, constants: &BTreeMap<String, f64>) -> bool {
    matches!(name, "W" | "n" | "p" | "pi" | "π" | "e" | "E") || constants.contains_key(name)
}

/// Multiplication by juxtaposition, as the lecture writes it (`2p`,
/// `2 log p`, `n log n`, `t_w n`, `2(t_s + t_w n)`, `(n/p) log p`): a name
/// or `(` right after a number, a name or `)` multiplies, with the
/// precedence of `*` (so `n/p log p` is (n/p)·log p, and `n/2p` is
/// (n/2)·p: write `n/(2p)`). A number after an operand is refused, as is
/// `log 2p`, which could mean log(2p) or (log 2)·p. `before` holds the one
/// or two tokens before `token`.
fn juxtaposed(before: &[&Token], token: &Token, at: usize, out: &mut String) -> Result<(), String> {
    let operand = match before.last() {
        Some(Token::Number(_) | Token::Symbol(')')) => true,
        Some(Token::Name(name)) => !is_function(name),
        _ => false,
    };
    if !operand {
        return Ok(());
    }
    match (token, before) {
        (Token::Number(_), _) => Err(format!(
            "an operator is missing before the number at {at} (write p*2 or 2p)"
        )),
        (Token::Name(_) | Token::Symbol('('), [Token::Name(f), Token::Number(x)])
            if is_function(f) =>
        {
            Err(format!(
                "`{f} {x}` followed by a product at {at} is ambiguous: write {f}({x}…) for the \
                 {f} of the product, or ({f} {x})…"
            ))
        }
        (Token::Name(_) | Token::Symbol('('), _) => {
            out.push('*');
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Checks a function written without parentheses (`log p`): it applies to
/// the number or name that follows, with its power (`log p^2` is log(p²),
/// `log log n` is log(log n)); `nesting` counts the groups already open.
fn without_parentheses(
    name: &str,
    at: usize,
    next: Option<&Token>,
    nesting: usize,
) -> Result<(), String> {
    if nesting >= MAX_DEPTH {
        return Err(format!(
            "nests functions, powers and parentheses deeper than {MAX_DEPTH}, at {at}"
        ));
    }
    match next {
        Some(Token::Number(_) | Token::Name(_)) | None => Ok(()),
        Some(_) => Err(format!(
            "`{name}` at {at} needs its argument: a number, a name or parentheses, as in {name} p \
             or {name}(2p)"
        )),
    }
}

/// Groups exponents so that powers read from the right, as in mathematics
/// (`2^3^2` is 2⁹ = 512, not 8² = 64; a plain left-to-right reading would): a
/// `^` opens a group at the parentheses' `level`, and the operand that ends
/// there closes it, unless another `^` follows. The groups count with the
/// parentheses towards the deepest nesting the parser is given.
fn right_to_left(
    token: &Token,
    next: Option<&Token>,
    (at, level, ends_operand): (usize, usize, bool),
    powers: &mut Vec<usize>,
    out: &mut String,
) -> Result<(), String> {
    match token {
        Token::Symbol('^') => {
            if level + powers.len() >= MAX_DEPTH {
                return Err(format!(
                    "nests powers and parentheses deeper than {MAX_DEPTH}, at {at}"
                ));
            }
            powers.push(level);
            out.push('(');
        }
        _ if ends_operand => {
            while powers.last() == Some(&level) && next != Some(&Token::Symbol('^')) {
                powers.pop();
                out.push(')');
            }
        }
        _ => {}
    }
    Ok(())
}

/// Why `name` cannot name a constant of the request (`None`: it can): a
/// formula must be able to write it, and it must not hide a variable, a
/// built-in number or a function, which a formula would read instead.
pub fn unfit_constant_name(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let first = chars.next();
    let word = first.is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_');
    Some(match name {
        "W" | "n" | "p" => {
            format!("is a variable of the formulas ({name}); name the constant otherwise")
        }
        "e" | "E" => "is Euler's number e in the formulas; name the constant otherwise".into(),
        "pi" | "π" => "is the number π in the formulas; name the constant otherwise".into(),
        _ if FUNCTIONS.iter().any(|(f, _)| *f == name) => {
            format!("is the function {name} in the formulas; name the constant otherwise")
        }
        _ if !word => "must be a name a formula can write: a letter or _ first, then letters, \
                       digits or _"
            .into(),
        _ => return None,
    })
}

/// A function's name in the rewritten text (`log` is base 2, as in the
/// lecture), or the functions there are.
fn function(name: &str, at: usize) -> Result<&'static str, String> {
    let Some((_, rewritten)) = FUNCTIONS.iter().find(|(n, _)| *n == name) else {
        let known: Vec<&str> = FUNCTIONS.iter().map(|(n, _)| *n).collect();
        return Err(format!(
            "unknown function `{}` at {at} (the functions are {})",
            crate::core::domain::error::shorten(name),
            known.join(", ")
        ));
    };
    Ok(rewritten)
}

/// Writes the symbol `c` (at `at`, after `previous`) to `out`: a sign
/// where an operand is expected (written `(0-1)*`: the rewritten text has
/// no unary minus), parentheses
/// counted in `depth` so that an unmatched one is reported where it is.
fn symbol(
    c: char,
    at: usize,
    previous: Option<&Token>,
    depth: &mut Vec<usize>,
    out: &mut String,
) -> Result<(), String> {
    let operand = expects_operand(previous);
    match c {
        '-' if operand => {
            if previous == Some(&Token::Symbol('^')) {
                return Err(format!(
                    "a minus right after ^ needs parentheses, at {at}: write 2^(-x)"
                ));
            }
            *out += "(0-1)*";
        }
        '+' if operand => {}
        c if operand && c != '(' => {
            return Err(format!(
                "a number or a name is missing before `{c}` at {at}"
            ));
        }
        '(' => {
            if depth.len() >= MAX_DEPTH {
                return Err(format!(
                    "nests parentheses deeper than {MAX_DEPTH}, at {at}"
                ));
            }
            depth.push(at);
            out.push('(');
        }
        ')' => {
            if depth.pop().is_none() {
                return Err(format!("`)` at {at} closes nothing"));
            }
            out.push(')');
        }
        c => out.push(c),
    }
    Ok(())
}

/// Whether a number or a name comes next: at the start, after an operator
/// or `(` (so a `+` or `−` there is a sign, not an operator).
fn expects_operand(previous: Option<&Token>) -> bool {
    matches!(
        previous,
        None | Some(Token::Symbol('+' | '-' | '*' | '/' | '^' | '('))
    )
}

/// A variable's or constant's name in the rewritten text.
fn variable(
    name: &str,
    at: usize,
    with_p: bool,
    constants: &BTreeMap<String, f64>,
) -> Result<String, String> {
    Ok(match name {
        "W" | "n" => name.to_string(),
        "p" if with_p => "p".into(),
        "p" => return Err(format!("depends on W only: `p` at {at}")),
        "pi" | "π" => "π".into(),
        "e" | "E" => "E".into(),
        _ if constants.contains_key(name) => name.to_string(),
        _ => {
            // `np` is one name: a product of one-letter names needs a space.
            let letters: Vec<String> = name.chars().map(String::from).collect();
            let product = letters.len() > 1
                && letters
                    .iter()
                    .all(|l| matches!(l.as_str(), "W" | "n" | "p"));
            let hint = if product {
                format!("; for a product write {}", letters.join(" "))
            } else {
                String::new()
            };
            return Err(format!(
                "unknown name `{}` at {at} (the variables are W, or n, {}and the request's \
                 constants{hint})",
                crate::core::domain::error::shorten(name),
                if with_p { "p, " } else { "" }
            ));
        }
    })
}

/// The top-level terms of `text` (split at a `+` or `−` outside
/// parentheses), each with its sign; empty when the text cannot be read.
pub fn terms(text: &str) -> Vec<(f64, String)> {
    let Ok(tokens) = tokens(text) else {
        return Vec::new();
    };
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut depth, mut start, mut sign) = (0usize, 0usize, 1.0);
    let mut previous: Option<&Token> = None;
    for (token, at) in &tokens {
        let operand = expects_operand(previous);
        match token {
            Token::Symbol('(') => depth += 1,
            Token::Symbol(')') => depth = depth.saturating_sub(1),
            Token::Symbol(c @ ('+' | '-')) if depth == 0 && !operand => {
                out.push((sign, chars[start..at - 1].iter().collect::<String>()));
                (start, sign) = (*at, if *c == '-' { -1.0 } else { 1.0 });
            }
            _ => {}
        }
        previous = Some(token);
    }
    out.push((sign, chars[start..].iter().collect()));
    out.into_iter()
        .map(|(s, t)| (s, t.trim().to_string()))
        .collect()
}

/// The tokens of `text` with their positions.
fn tokens(text: &str) -> Result<Vec<(Token, usize)>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let at = i + 1;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || c == '.' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            // An exponent: e or E, an optional sign, digits.
            if i < chars.len() && matches!(chars[i], 'e' | 'E') {
                let mut j = i + 1;
                if j < chars.len() && matches!(chars[j], '+' | '-') {
                    j += 1;
                }
                if j < chars.len() && chars[j].is_ascii_digit() {
                    while j < chars.len() && chars[j].is_ascii_digit() {
                        j += 1;
                    }
                    i = j;
                }
            }
            let literal: String = chars[start..i].iter().collect();
            let x: f64 = literal.parse().map_err(|_| {
                format!(
                    "`{}` at {at} is not a number",
                    crate::core::domain::error::shorten(&literal)
                )
            })?;
            out.push((Token::Number(x), at));
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push((Token::Name(chars[start..i].iter().collect()), at));
        } else if "+-*/^()".contains(c) {
            out.push((Token::Symbol(c), at));
            i += 1;
        } else {
            return Err(format!(
                "`{c}` at {at} is not allowed (use + - * / ^ and parentheses)"
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(text: &str, w: f64, p: f64) -> Result<f64, String> {
        Formula::new(text, true, &BTreeMap::new()).map(|f| f.at(w, p))
    }

    #[test]
    fn the_lecture_conventions_hold() {
        let cases = [
            ("-2^2", -4.0),
            ("log(8)", 3.0),
            ("ln(E)", 1.0),
            ("2e3 + 1e-3", 2000.001),
            ("n/p + 2*log(p)", 8.0 / 2.0 + 2.0),
            ("3*-2", -6.0),
            ("2^(-1)", 0.5),
            ("W^(3/4)", 8f64.powf(0.75)),
            ("+p", 2.0),
            // Powers read from the right, as in mathematics.
            ("2^3^2", 512.0),
            ("p^2^0.5", 2f64.powf(2f64.powf(0.5))),
            ("2^3*4", 32.0),
            ("2^3^2/8", 64.0),
            ("2^(1+1)^3", 256.0),
            ("2^log(8)^2", 512.0),
            ("-2^2^2", -16.0),
            ("(2^3)^2", 64.0),
            // The lecture's notation: functions without parentheses and
            // products by juxtaposition, with the precedence of `*`.
            ("n/p + 2 log p", 8.0 / 2.0 + 2.0),
            ("2p", 4.0),
            ("2 log p", 2.0),
            ("2log p", 2.0),
            ("log p^2", 2.0),
            ("log(p)^2", 1.0),
            ("log n log n", 9.0),
            ("log log 16", 2.0),
            ("n/p log p", 4.0),
            ("n log n / p", 12.0),
            ("2(n + p)", 20.0),
            ("p(n + 1)", 18.0),
            ("(n)(p)", 16.0),
            ("(n/p) log p", 4.0),
            ("2^log p", 2.0),
            ("2 p^2", 8.0),
            ("-log p", -1.0),
            ("sqrt n p", 8f64.sqrt() * 2.0),
            ("2pi", 2.0 * std::f64::consts::PI),
            ("n/2p", 8.0),
        ];
        for (text, want) in cases {
            let got = eval(text, 8.0, 2.0).unwrap();
            assert!((got - want).abs() < 1e-12, "{text}: {got} vs {want}");
        }
    }

    #[test]
    fn errors_name_what_and_where() {
        let cases = [
            ("foo(3)", "unknown function `foo` at 1"),
            ("2*x", "unknown name `x` at 3"),
            ("2^-p", "a minus right after ^ needs parentheses, at 3"),
            ("(1+p", "the parenthesis at 1 is not closed"),
            ("1+p)", "`)` at 4 closes nothing"),
            ("p 2", "an operator is missing before the number at 3"),
            ("(p)2", "an operator is missing before the number at 4"),
            ("log 2p", "`log 2` followed by a product at 6 is ambiguous"),
            ("log + p", "`log` at 1 needs its argument"),
            ("2 log", "the formula ends with the function `log`"),
            ("np", "unknown name `np` at 1 (the variables are W, or n, p, and the request's constants; for a product write n p)"),
            ("p*", "the formula ends with `*`"),
            ("", "must not be empty"),
            ("2 $ 3", "`$` at 3 is not allowed"),
            ("*2", "a number or a name is missing before `*` at 1"),
        ];
        for (text, want) in cases {
            let got = eval(text, 1.0, 1.0).unwrap_err();
            assert!(got.starts_with(want), "{text}: {got}");
        }
        let serial = Formula::new("W*p", false, &BTreeMap::new()).unwrap_err();
        assert!(
            serial.starts_with("depends on W only: `p` at 3"),
            "{serial}"
        );
    }

    #[test]
    fn constants() {
        let constants = BTreeMap::from([("t_s".to_string(), 10.0)]);
        let f = Formula::new("n/p + t_s*log(p)", true, &constants).unwrap();
        assert_eq!(f.at(8.0, 2.0), 4.0 + 10.0);
    }

    #[test]
    fn long_or_deep_formulas_are_refused() {
        let long = "p+".repeat(1000) + "p";
        assert!(eval(&long, 1.0, 1.0)
            .unwrap_err()
            .starts_with("is too long"));
        let deep = "(".repeat(50) + "p" + &")".repeat(50);
        assert!(eval(&deep, 1.0, 1.0)
            .unwrap_err()
            .starts_with("nests parentheses deeper than"));
        let powers = "p^".repeat(400) + "p";
        assert!(eval(&powers, 1.0, 1.0)
            .unwrap_err()
            .starts_with("nests powers and parentheses deeper than"));
    }
}
