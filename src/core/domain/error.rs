//! The crate's one error type.
//!
//! Every message is lowercase and names what is wrong precisely enough for a
//! student to fix it: a bad parameter names its field by its path in the
//! instance JSON (`processors[1].levels[0].slope`), so the page can show the
//! message next to that field and the CLI can print it on stderr.

use std::any::Any;
use std::fmt;

use crate::core::domain::count::{Count, UNREADABLE_COUNT};
use crate::core::domain::lp_error::LpError;

/// Why a parameter value is rejected.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Invalid {
    /// NaN or infinite.
    NotFinite,
    /// Below zero where only non-negative values make sense.
    Negative(f64),
    /// Zero or above where only negative values make sense.
    NotNegative(f64),
    /// Zero or below where only positive values make sense.
    NotPositive(f64),
    /// Below the smallest meaningful value.
    BelowMinimum {
        /// The value given.
        value: f64,
        /// The smallest value accepted.
        minimum: f64,
    },
    /// Outside `[low, high]`.
    OutOfBounds {
        /// The value given.
        value: f64,
        /// The smallest value accepted.
        low: f64,
        /// The largest value accepted.
        high: f64,
    },
    /// Outside `[low, high)`: `high` itself is excluded.
    OutOfRangeOpen {
        /// The value given.
        value: f64,
        /// The smallest value accepted.
        low: f64,
        /// The bound, itself not accepted.
        high: f64,
    },
    /// Nonzero but closer to zero than the calculator can compute with.
    TooSmall {
        /// The value given.
        value: f64,
        /// The smallest nonzero magnitude accepted.
        limit: f64,
    },
    /// Not used by this model (the reason stated), so rejected rather than
    /// silently ignored.
    Unused(&'static str),
    /// Used by this model only with other settings (the reason says
    /// which), so rejected with these rather than silently ignored.
    UsedOnly(&'static str),
    /// Must be given, for the reason stated.
    Needed(String),
    /// Larger in magnitude than the calculator accepts (`limit`).
    TooLarge {
        /// The value given.
        value: f64,
        /// The largest magnitude accepted.
        limit: f64,
    },
    /// Not a whole number where one is needed.
    NotWhole(f64),
    /// A list that must not be empty is empty.
    Empty,
    /// A list longer than the calculator accepts.
    TooMany {
        /// The number of entries given.
        count: usize,
        /// The most entries accepted.
        limit: usize,
    },
    /// A memory level is not slower than the level above it, so the
    /// processing-time function would not be convex.
    NotConvex {
        /// This level's slope (time per load unit).
        slope: f64,
        /// The slope of the level above it.
        previous: f64,
    },
    /// A memory level's line never rises above the previous levels on
    /// non-negative loads, so that level would never be used.
    NeverActive {
        /// The load at which this level would take over.
        swap_point: f64,
        /// The previous level's swap point (a load).
        previous: f64,
    },
    /// The function gives a negative processing time for an empty load.
    NegativeAtZero(f64),
    /// An index refers to nothing.
    OutOfRange {
        /// The index given.
        index: usize,
        /// The number of entries it should index.
        len: usize,
    },
    /// A list that must be a permutation is not one.
    NotPermutation,
    /// A parameter name that the model does not have (the known ones listed).
    UnknownParameter {
        /// The name given.
        name: String,
        /// The model's parameter names, separated by commas.
        known: String,
    },
    /// A quantity that the model does not measure (the ones it does listed).
    UnknownQuantity {
        /// The quantity given.
        name: String,
        /// The quantities the model measures, separated by commas.
        known: String,
    },
    /// A model tag that names no model (the known ones listed).
    UnknownModel {
        /// The tag given.
        name: String,
        /// Every model's tag, separated by commas.
        known: String,
    },
    /// A text longer than the calculator keeps.
    TooLong {
        /// Its length, in characters.
        length: usize,
        /// The most characters accepted.
        limit: usize,
    },
    /// An exercise name that no model poses (the known ones listed).
    UnknownExercise {
        /// The name given.
        name: String,
        /// Every exercise's name, separated by commas.
        known: String,
    },
    /// The request asks for more work than the calculator does in one go
    /// (the reason and the way out stated).
    TooMuchWork(String),
    /// The value could not be read as the field's type (the reader's words,
    /// with long values shortened).
    Unreadable(String),
    /// Text where a number belongs, as the page sends what it cannot read
    /// as one: what is wrong with it. The reader stands in for it, as for
    /// [`Invalid::NotFinite`], to check the other fields too.
    Text(String),
    /// A kind of invalid value only one model knows (a formula that cannot
    /// be read, a limit no schedule meets), defined in its folder so that
    /// this shared list names no model.
    Own(Own),
}

/// What a model's own kind of invalid value needs: a message (lowercase,
/// naming the value), a debug form, and equality, so that two errors are
/// compared by their kind and value, never by their text. Every type that
/// is `Display`, `Debug` and `PartialEq` has it.
pub trait OwnKind: Any + fmt::Display + fmt::Debug + Send + Sync {
    /// Is `other` of this very type, and equal to `self`? (A trait object
    /// cannot require `PartialEq` itself: its `other` would have to be of
    /// an unknown type.)
    fn same(&self, other: &dyn OwnKind) -> bool;

    /// `self`, to be downcast to its type.
    fn as_any(&self) -> &dyn Any;
}

impl<T: PartialEq + fmt::Display + fmt::Debug + Send + Sync + 'static> OwnKind for T {
    fn same(&self, other: &dyn OwnKind) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A model's own kind of invalid value, behind [`Invalid::Own`].
#[derive(Debug, Clone)]
pub struct Own(std::sync::Arc<dyn OwnKind>);

impl Own {
    /// The kind as its own type `T`, if it is one, so that callers match
    /// kinds rather than messages.
    pub fn kind<T: OwnKind>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }
}

/// Two kinds are equal when they are of one type and equal as that type:
/// two models' kinds that happen to say the same are still different.
impl PartialEq for Own {
    fn eq(&self, other: &Own) -> bool {
        self.0.same(other.0.as_ref())
    }
}

impl Invalid {
    /// A model's own kind of invalid value.
    pub fn own(kind: impl OwnKind) -> Invalid {
        Invalid::Own(Own(std::sync::Arc::new(kind)))
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Unused(reason) => write!(f, "is not used by this model: {reason}"),
            Invalid::UsedOnly(reason) => write!(f, "is used only {reason}"),
            Invalid::Needed(reason) => write!(f, "must be given: {reason}"),
            Invalid::Unreadable(msg) | Invalid::Text(msg) => write!(f, "{msg}"),
            Invalid::TooMuchWork(why) => write!(f, "asks for too much work: {why}"),
            Invalid::Own(own) => write!(f, "{}", own.0),
            _ => self
                .fmt_number(f)
                .or_else(|| self.fmt_list(f))
                .or_else(|| self.fmt_processing(f))
                .or_else(|| self.fmt_name(f))
                .unwrap_or(Ok(())),
        }
    }
}

// Numbers in the one format of messages: `1·10⁻³⁰⁰`, not 300 zeros.
use crate::core::domain::number::{count as c, human as n};

impl Invalid {
    /// The message of a number outside its domain (`None`: another kind).
    fn fmt_number(&self, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
        Some(match self {
            Invalid::NotFinite => write!(f, "must be a finite number"),
            Invalid::Negative(v) => write!(f, "must not be negative (got {})", n(*v)),
            Invalid::NotNegative(v) => write!(f, "must be below zero (got {})", n(*v)),
            Invalid::NotPositive(v) => write!(f, "must be greater than zero (got {})", n(*v)),
            Invalid::BelowMinimum { value, minimum } => {
                write!(f, "must be at least {} (got {})", n(*minimum), n(*value))
            }
            Invalid::OutOfBounds { value, low, high } => {
                let (low, high, value) = (n(*low), n(*high), n(*value));
                write!(f, "must be between {low} and {high} (got {value})")
            }
            Invalid::OutOfRangeOpen { value, low, high } => {
                let (low, high, value) = (n(*low), n(*high), n(*value));
                write!(f, "must be at least {low} and below {high} (got {value})")
            }
            Invalid::TooSmall { value, limit } => write!(
                f,
                "is too small (got {}): give 0 or a magnitude of at least {}",
                n(*value),
                n(*limit)
            ),
            Invalid::TooLarge { value, limit } if *value < 0.0 => write!(
                f,
                "is too large in magnitude (got {}, the limit is ±{})",
                n(*value),
                n(*limit)
            ),
            Invalid::TooLarge { value, limit } => {
                write!(
                    f,
                    "is too large (got {}, the limit is {})",
                    n(*value),
                    n(*limit)
                )
            }
            Invalid::NotWhole(v) => write!(f, "must be a whole number (got {})", n(*v)),
            _ => return None,
        })
    }

    /// The message of a list or text of the wrong length or contents.
    fn fmt_list(&self, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
        Some(match self {
            Invalid::Empty => write!(f, "must not be empty"),
            Invalid::TooMany { count, limit } => {
                let (count, limit) = (c(*count), c(*limit));
                write!(f, "has too many entries ({count}, the limit is {limit})")
            }
            Invalid::OutOfRange { index, len } => {
                write!(f, "refers to entry {index}, but there are only {}", c(*len))
            }
            Invalid::NotPermutation => write!(
                f,
                "must list every processor exactly once (a permutation of 0..m)"
            ),
            Invalid::TooLong { length, limit } => {
                let (length, limit) = (c(*length), c(*limit));
                write!(f, "must be at most {limit} characters long (got {length})")
            }
            _ => return None,
        })
    }

    /// The message of a processing-time function that makes no sense.
    fn fmt_processing(&self, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
        Some(match self {
            Invalid::NotConvex { slope, previous } => write!(
                f,
                "must be slower than the level above it: slope {} is not greater than \
                 {}, so the processing time would not be convex",
                n(*slope),
                n(*previous)
            ),
            Invalid::NeverActive {
                swap_point,
                previous,
            } => write!(
                f,
                "is never used: it would take over at load {}, which is not after \
                 the previous swap point {}",
                n(*swap_point),
                n(*previous)
            ),
            Invalid::NegativeAtZero(v) => write!(
                f,
                "gives a negative processing time ({}) for an empty load; \
                 the first level's intercept must not be negative",
                n(*v)
            ),
            _ => return None,
        })
    }

    /// The message of a name that is not among those known.
    fn fmt_name(&self, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
        let (what, name, known) = match self {
            Invalid::UnknownModel { name, known } => ("name a model", name, known),
            Invalid::UnknownExercise { name, known } => ("name an exercise", name, known),
            Invalid::UnknownQuantity { name, known } => {
                ("be a quantity the model measures", name, known)
            }
            Invalid::UnknownParameter { name, known } => {
                ("name a parameter of the model", name, known)
            }
            _ => return None,
        };
        let known = fit(known, name);
        Some(if name.is_empty() {
            write!(f, "must {what}: none is given ({known})")
        } else {
            // A pasted megabyte is not written back whole: the message
            // stays one short line beside the names it lists.
            let head: String = name.chars().take(NAME_SHOWN).collect();
            let name = if head.len() < name.len() {
                format!("{head:?}…")
            } else {
                format!("{name:?}")
            };
            write!(f, "must {what}: {name} is not one ({known})")
        })
    }
}

/// The most characters of an unknown name a message quotes.
const NAME_SHOWN: usize = 40;

/// The most characters of known names a message lists.
const LISTED: usize = 180;

/// The known names (separated by commas) as a message lists them: names of
/// one record written once (`machines[k].{a1, a2}`), all of them when they
/// are few, else those most like `name` first (sharing its first letter,
/// then the rest) up to [`LISTED`] characters and how many more there are,
/// so that a message stays one short line.
fn fit(known: &str, name: &str) -> String {
    if known.chars().count() <= LISTED {
        return known.to_string();
    }
    // Adjacent names with the same record (`machines[k].`) grouped.
    let mut groups: Vec<(String, Vec<&str>)> = Vec::new();
    for k in known.split(", ") {
        let (head, tail) = k.rsplit_once('.').map_or(("", k), |(h, t)| (h, t));
        match groups.last_mut() {
            Some((h, tails)) if !head.is_empty() && h == head => tails.push(tail),
            _ => groups.push((head.to_string(), vec![tail])),
        }
    }
    let written = |(head, tails): &(String, Vec<&str>)| match tails.as_slice() {
        [one] if head.is_empty() => one.to_string(),
        [one] => format!("{head}.{one}"),
        many => format!("{head}.{{{}}}", many.join(", ")),
    };
    let first = name.chars().next().map(|c| c.to_ascii_lowercase());
    let (mut ordered, rest): (Vec<String>, Vec<String>) = groups
        .iter()
        .map(written)
        .partition(|k| k.chars().next().map(|c| c.to_ascii_lowercase()) == first);
    ordered.extend(rest);
    let all = ordered.join(", ");
    if all.chars().count() <= LISTED {
        return all;
    }
    let mut out = String::new();
    let mut shown = 0;
    for k in &ordered {
        if out.chars().count() + k.chars().count() + 2 > LISTED {
            break;
        }
        if shown > 0 {
            out.push_str(", ");
        }
        out.push_str(k);
        shown += 1;
    }
    format!("{out}, … and {} more", ordered.len() - shown)
}

/// Everything that can go wrong in the calculator.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// A parameter is outside its domain. `field` is its path in the
    /// instance JSON, e.g. `processors[0].startup`.
    Field {
        /// The path of the bad value, e.g. `processors[0].startup`.
        field: String,
        /// What is wrong with it.
        invalid: Invalid,
    },
    /// The request could not be read (malformed JSON, a missing or unknown
    /// field, a wrong type).
    Malformed(String),
    /// The LP solver could not solve a problem the model produced.
    Solver(LpError),
    /// The computation was cancelled by the caller.
    Cancelled,
    /// The time limit (seconds) came before any result.
    TimeLimit(f64),
    /// A chart could not be drawn.
    Drawing(String),
}

impl Error {
    /// A field error; `field` is the path of the bad value.
    pub fn field(field: impl Into<String>, invalid: Invalid) -> Error {
        Error::Field {
            field: field.into(),
            invalid,
        }
    }

    /// A value the reader could not take as its field's type, at `path` as
    /// the reader gives it (`.` for the whole request).
    pub fn malformed_at(path: String, message: String) -> Error {
        let path = if path == "." { String::new() } else { path };
        // A missing field is named by its own path, not its parent's.
        let missing = message
            .strip_prefix("missing field `")
            .and_then(|rest| rest.split('`').next());
        let field = match missing {
            Some(name) if path.is_empty() => name.to_string(),
            Some(name) => format!("{path}.{name}"),
            None => path,
        };
        // JSON has no NaN: a page's unreadable number arrives as null.
        let invalid = if let Some(why) = message.strip_prefix(UNREADABLE_COUNT) {
            Invalid::Unreadable(why.to_string())
        } else if message.starts_with("invalid type: null, expected f64") {
            Invalid::NotFinite
        } else if let Some(typed) = typed_text(&message) {
            typed
        } else if missing.is_some() {
            Invalid::Needed("this field has no default".into())
        } else {
            Invalid::Unreadable(shorten(&message))
        };
        if field.is_empty() {
            return Error::Malformed(shorten(&message));
        }
        Error::Field { field, invalid }
    }

    /// A request that is not JSON: names the field whose value is
    /// unreadable (`"load": NaN`), by its path, or says where the text
    /// breaks off.
    pub fn syntax(text: &str, e: &serde_json::Error) -> Error {
        let at = text
            .lines()
            .take(e.line().saturating_sub(1))
            .map(|l| l.len() + 1)
            .sum::<usize>()
            + e.column().saturating_sub(1);
        let what = e.to_string();
        let message = if what.starts_with("number out of range") {
            "is not a finite number (too large for a 64-bit float)".to_string()
        } else {
            format!("is not a JSON value ({what}; NaN and Infinity are not JSON numbers)")
        };
        match path_at(text.as_bytes(), at) {
            Some(field) if !field.is_empty() => Error::Field {
                field: shorten(&field),
                invalid: Invalid::Unreadable(message),
            },
            _ => Error::Malformed(shorten(&what)),
        }
    }

    /// Why the field is invalid, if the error is about one.
    pub fn invalid(&self) -> Option<&Invalid> {
        match self {
            Error::Field { invalid, .. } => Some(invalid),
            _ => None,
        }
    }

    /// The path of the offending field, if the error is about one.
    pub fn field_path(&self) -> Option<&str> {
        match self {
            Error::Field { field, .. } => Some(field),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Field { field, invalid } => write!(f, "{field}: {invalid}"),
            Error::Malformed(msg) => write!(f, "malformed input: {msg}"),
            Error::Solver(e) => write!(f, "the LP solver failed: {e}"),
            Error::Cancelled => write!(f, "cancelled"),
            Error::TimeLimit(s) => write!(
                f,
                "the time limit of {} s was reached before any result; allow more time \
                 (max_seconds) or ask for less work",
                n(*s)
            ),
            Error::Drawing(msg) => write!(f, "the chart could not be drawn: {msg}"),
        }
    }
}

/// The LP's failure is the cause of [`Error::Solver`]; the other
/// variants have none beneath them.
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Solver(e) => Some(e),
            _ => None,
        }
    }
}

impl From<LpError> for Error {
    fn from(e: LpError) -> Error {
        Error::Solver(e)
    }
}

/// One open container of a JSON text being scanned.
enum Open {
    /// An object, with the key whose value comes next (if read).
    Object(Option<String>),
    /// An array, with the index of the entry being read.
    Array(usize),
}

/// The path (`machines[0].rate`) of the value at byte `at` of a JSON text
/// that is valid up to there, or `None` when `at` is not inside a value.
fn path_at(text: &[u8], at: usize) -> Option<String> {
    let mut stack: Vec<Open> = Vec::new();
    let mut i = 0;
    while i < at.min(text.len()) {
        match text[i] {
            b'{' => stack.push(Open::Object(None)),
            b'[' => stack.push(Open::Array(0)),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Open::Array(n)) => *n += 1,
                Some(Open::Object(key)) => *key = None,
                None => {}
            },
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < text.len() && text[i] != b'"' {
                    i += if text[i] == b'\\' { 2 } else { 1 };
                }
                if let Some(Open::Object(key @ None)) = stack.last_mut() {
                    let name = text.get(start..i.min(text.len()))?;
                    *key = Some(String::from_utf8_lossy(name).into_owned());
                }
            }
            _ => {}
        }
        i += 1;
    }
    let mut path = String::new();
    for open in &stack {
        match open {
            Open::Object(Some(key)) if path.is_empty() => path.push_str(key),
            Open::Object(Some(key)) => {
                path.push('.');
                path.push_str(key);
            }
            Open::Object(None) => return None,
            Open::Array(n) => path.push_str(&format!("[{n}]")),
        }
    }
    Some(path)
}

/// The most characters of a value quoted in a message.
pub const MAX_QUOTED: usize = 80;

/// A string where a number belongs (`invalid type: string "0,5", expected
/// f64`): the page sends text it cannot read as a number as typed, so that
/// the message can say what is wrong with it. `None` for any other message.
fn typed_text(message: &str) -> Option<Invalid> {
    let rest = message.strip_prefix("invalid type: string \"")?;
    let (text, expected) = rest.rsplit_once("\", expected ")?;
    let whole = expected.starts_with("a whole number");
    if !(expected.starts_with("f64") || whole) {
        return None;
    }
    let text = shorten(text);
    let trimmed = text.trim();
    let why = match trimmed.parse::<f64>() {
        Ok(v) if v.is_finite() => format!("must be a number, not text (got \"{text}\")"),
        Ok(_) => format!("must be a finite number (got \"{text}\")"),
        Err(_) if whole && trimmed.contains(',') => {
            format!("is not a number (got \"{text}\"): write it without separators (1000)")
        }
        Err(_) if trimmed.contains(',') => format!(
            "is not a number (got \"{text}\"): write it without commas, decimals with a point (0.5)"
        ),
        Err(_) => format!("is not a number (got \"{text}\")"),
    };
    Some(Invalid::Text(why))
}

/// `text` with every run longer than [`MAX_QUOTED`] characters between
/// quotes cut short, and the whole at most a few hundred characters, so a
/// pasted megabyte never comes back in an error.
pub fn shorten(text: &str) -> String {
    let mut out = String::new();
    let mut run = 0usize;
    for ch in text.chars() {
        if matches!(ch, '"' | '`') {
            run = 0;
        } else {
            run += 1;
        }
        if run == MAX_QUOTED {
            out.push('…');
        }
        if run < MAX_QUOTED {
            out.push(ch);
        }
        if out.chars().count() >= 4 * MAX_QUOTED {
            out.push('…');
            break;
        }
    }
    out
}

/// The longest time limit accepted, in seconds (a day). Here with the other
/// limits every request shares; the deadline module re-exports it.
pub const MAX_SECONDS: f64 = 86_400.0;

/// The largest magnitude accepted for any parameter. Beyond it, sums and
/// products of parameters lose the precision a schedule needs.
pub const MAX_MAGNITUDE: f64 = 1e18;
/// The smallest nonzero magnitude accepted for any parameter: 30 orders of
/// magnitude below [`MAX_MAGNITUDE`]. Closer to zero, products with other
/// parameters underflow and the LPs lose every digit (a rate of `1e-308`
/// made the simplex divide by zero); zero itself is always exact.
pub const MIN_MAGNITUDE: f64 = 1e-12;

/// A request that can list every invalid field at once, so a page can mark
/// them all and a command line can print them all.
pub trait Validate {
    /// Records every invalid field in `c`, each under its path.
    fn check_into(&self, c: &mut Checker);

    /// Every invalid field, in field order (empty when valid).
    fn problems(&self) -> Vec<Error> {
        let mut c = Checker::default();
        self.check_into(&mut c);
        c.errors
    }

    /// Checks the whole request.
    ///
    /// # Errors
    ///
    /// The first invalid field, as [`Error::Field`].
    fn check(&self) -> Result<(), Error> {
        self.problems().into_iter().next().map_or(Ok(()), Err)
    }
}

/// Collects every invalid field of an input, so the page can mark them all
/// at once.
#[derive(Debug, Default)]
pub struct Checker {
    errors: Vec<Error>,
}

impl Checker {
    /// Records a problem found elsewhere (e.g. in a request inside this
    /// one, its path already joined).
    pub fn push(&mut self, error: Error) {
        self.errors.push(error);
    }

    /// Records `invalid` for `field`.
    pub fn fail(&mut self, field: impl Into<String>, invalid: Invalid) {
        self.errors.push(Error::field(field, invalid));
    }

    /// Is `value` finite, at most [`MAX_MAGNITUDE`] and either zero or at
    /// least [`MIN_MAGNITUDE`] in magnitude? Records why not.
    pub fn finite(&mut self, field: &str, value: f64) -> bool {
        if !value.is_finite() {
            self.fail(field, Invalid::NotFinite);
            false
        } else if value.abs() > MAX_MAGNITUDE {
            let limit = MAX_MAGNITUDE;
            self.fail(field, Invalid::TooLarge { value, limit });
            false
        } else if value != 0.0 && value.abs() < MIN_MAGNITUDE {
            let limit = MIN_MAGNITUDE;
            self.fail(field, Invalid::TooSmall { value, limit });
            false
        } else {
            true
        }
    }

    /// Is `value` finite, in range and not negative? Records why not: the
    /// sign first, so that `-1e300` is said to be negative, not too large.
    pub fn non_negative(&mut self, field: &str, value: f64) -> bool {
        if value < 0.0 && value.is_finite() {
            self.fail(field, Invalid::Negative(value));
            return false;
        }
        if !self.finite(field, value) {
            return false;
        }
        if value < 0.0 {
            self.fail(field, Invalid::Negative(value));
            return false;
        }
        true
    }

    /// Is `value` finite, in range and positive? Records why not: the
    /// sign first, as [`Checker::non_negative`].
    pub fn positive(&mut self, field: &str, value: f64) -> bool {
        if value < 0.0 && value.is_finite() {
            self.fail(field, Invalid::NotPositive(value));
            return false;
        }
        if !self.finite(field, value) {
            return false;
        }
        if value <= 0.0 {
            self.fail(field, Invalid::NotPositive(value));
            return false;
        }
        true
    }

    /// Is `gap` a search's relative gap, in `[0, 1)`? Records why not.
    pub fn gap(&mut self, field: &str, gap: f64) -> bool {
        if !self.finite(field, gap) {
            return false;
        }
        if !(0.0..1.0).contains(&gap) {
            let invalid = Invalid::OutOfRangeOpen {
                value: gap,
                low: 0.0,
                high: 1.0,
            };
            self.fail(field, invalid);
            return false;
        }
        true
    }

    /// Is `seconds` a time limit, positive and at most a day
    /// ([`MAX_SECONDS`])? Records why not.
    pub fn seconds(&mut self, field: &str, seconds: f64) -> bool {
        if !self.positive(field, seconds) {
            return false;
        }
        let limit = MAX_SECONDS;
        if seconds > limit {
            let invalid = Invalid::TooLarge {
                value: seconds,
                limit,
            };
            self.fail(field, invalid);
            return false;
        }
        true
    }

    /// Is `value` a whole number in `low..=high`? Records why not.
    ///
    /// For bounds of sizes (machines, grid points), which fit a `usize`
    /// on every target; a bound beyond 32 bits goes through
    /// [`Checker::whole_up_to`], since `usize` is 32 bits in the page's wasm
    /// and a bound written as `usize` would differ between the page and
    /// the command line.
    pub fn whole(&mut self, field: &str, value: Count, low: usize, high: usize) -> bool {
        self.whole_up_to(field, value, low as u64, high as u64)
    }

    /// Is `value` a whole number in `low..=high`, with 64-bit bounds (the
    /// same on every target)? Records why not.
    pub fn whole_up_to(&mut self, field: &str, value: Count, low: u64, high: u64) -> bool {
        if value.0 < low || value.0 > high {
            let (value, low, high) = (value.as_f64(), low as f64, high as f64);
            self.fail(field, Invalid::OutOfBounds { value, low, high });
            return false;
        }
        true
    }

    /// Does the list have between 1 and `limit` entries? Records why not.
    pub fn count(&mut self, field: &str, count: usize, limit: usize) -> bool {
        if count == 0 {
            self.fail(field, Invalid::Empty);
            false
        } else if count > limit {
            self.fail(field, Invalid::TooMany { count, limit });
            false
        } else {
            true
        }
    }

    /// The errors recorded, in order.
    pub fn into_errors(self) -> Vec<Error> {
        self.errors
    }

    /// No error so far?
    pub fn is_clean(&self) -> bool {
        self.errors.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One model's kind of invalid value.
    #[derive(Debug, Clone, PartialEq)]
    struct Unreadable(String);

    /// Another model's kind, whose message can be the same.
    #[derive(Debug, Clone, PartialEq)]
    struct Contradicts(String);

    impl fmt::Display for Unreadable {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&self.0)
        }
    }

    impl fmt::Display for Contradicts {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(&self.0)
        }
    }

    #[test]
    fn own_errors_are_equal_by_kind_and_value() {
        let a = Invalid::own(Unreadable("cannot be read".into()));
        assert_eq!(a, Invalid::own(Unreadable("cannot be read".into())));
        assert_ne!(a, Invalid::own(Unreadable("is empty".into())));
    }

    #[test]
    fn own_errors_of_two_kinds_differ_even_when_they_say_the_same() {
        let a = Invalid::own(Unreadable("cannot be read".into()));
        let b = Invalid::own(Contradicts("cannot be read".into()));
        assert_eq!(a.to_string(), b.to_string());
        assert_ne!(a, b);
        assert_ne!(b, a);
    }

    #[test]
    fn own_errors_compare_their_values_with_the_kinds_equality() {
        // The kind's own `PartialEq` decides, not its text: NaN equals
        // nothing, itself included, as in the other variants' derived one.
        #[derive(Debug, PartialEq)]
        struct Limit(f64);
        impl fmt::Display for Limit {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "exceeds {}", self.0)
            }
        }
        let nan = Invalid::own(Limit(f64::NAN));
        assert_eq!(nan.to_string(), "exceeds NaN");
        assert_ne!(nan, nan.clone());
        assert_eq!(Invalid::own(Limit(1.0)), Invalid::own(Limit(1.0)));
    }

    #[test]
    fn an_own_error_is_read_back_as_its_kind() {
        let Invalid::Own(own) = Invalid::own(Unreadable("cannot be read".into())) else {
            unreachable!("Invalid::own makes an Invalid::Own")
        };
        assert_eq!(
            own.kind::<Unreadable>(),
            Some(&Unreadable("cannot be read".into()))
        );
        assert_eq!(own.kind::<Contradicts>(), None);
    }

    #[test]
    fn a_solver_error_has_the_lp_error_as_its_source() {
        use std::error::Error as _;
        let error = Error::from(LpError::Infeasible);
        let source = error.source().expect("a solver error has a source");
        assert_eq!(source.downcast_ref::<LpError>(), Some(&LpError::Infeasible));
        assert_eq!(source.to_string(), "the linear program is infeasible");
    }

    #[test]
    fn errors_other_than_the_solvers_have_no_source() {
        use std::error::Error as _;
        let errors = [
            Error::field("load", Invalid::NotFinite),
            Error::Malformed("not json".into()),
            Error::Cancelled,
            Error::TimeLimit(1.0),
            Error::Drawing("no canvas".into()),
        ];
        for error in errors {
            assert!(error.source().is_none(), "{error}");
        }
    }
}
