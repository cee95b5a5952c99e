//! Big sweeps on many machines: a request split into parts that any
//! `dlt solve` answers on its own (`dlt split`), and the parts' answers
//! joined into the response the whole request gets (`dlt join`), for every
//! model that splits (its [`crate::core::framework::parts::Parts`]).
//!
//! Each part carries a [`Part`] envelope with the hash of the whole
//! request, its index and the count; its answer carries the same, so that
//! answers gathered in any order, from any machine, are checked to belong
//! and joined in order. Missing or failed parts leave a partial response
//! that names them, so that a sweep resumes by solving only those.

use std::collections::BTreeMap;

use serde_json::{json, Map, Value};

use crate::api::{Part, Request};
use crate::core::domain::error::{Error, Invalid};
use crate::core::presentation::response::Completion;
use crate::registry;

/// The parts of `request`, each a request with its envelope: the model's
/// own pieces, or, with `most` below their number, that many groups of
/// them (each the whole request with its range of pieces); the request
/// itself when it does not split.
///
/// # Errors
///
/// The request's first problem; a request that is already a part.
pub fn split(request: &Request, most: Option<usize>) -> Result<Vec<Value>, Error> {
    if request.part().is_some() {
        return Err(Error::field(
            "part",
            Invalid::Unused("a part is not split again"),
        ));
    }
    let whole = request.to_json();
    let of = request.hash();
    let pieces = request.split()?;
    let count = most.map_or(pieces.len(), |n| n.clamp(1, pieces.len().max(1)));
    let envelope = |index, count, pieces| Part {
        of: of.clone(),
        index,
        count,
        pieces,
    };
    if pieces.len() <= 1 || count < pieces.len() {
        let count = count.max(1);
        let groups = (0..count).map(|i| {
            let range = (pieces.len() > 1).then(|| Part::group(i, count, pieces.len()));
            with_part(whole.clone(), &envelope(i, count, range), &whole)
        });
        return Ok(groups.collect());
    }
    let parts = pieces.into_iter().enumerate();
    Ok(parts
        .map(|(i, piece)| with_part(piece, &envelope(i, count, None), &whole))
        .collect())
}

/// A part's request: `request` with its envelope, and the whole request's
/// time limit when the model's own request type does not carry it.
fn with_part(mut request: Value, part: &Part, whole: &Value) -> Value {
    if let Some(fields) = request.as_object_mut() {
        if let Some(seconds) = whole.get("max_seconds") {
            fields
                .entry("max_seconds")
                .or_insert_with(|| seconds.clone());
        }
        // cannot fail: a part is a plain struct of strings and numbers.
        let part = serde_json::to_value(part).expect("a part is JSON");
        fields.insert("part".into(), part);
    }
    request
}

/// The answer a part gets when it cannot be solved (`dlt solve
/// --answer-errors`): its envelope and the error's message, for
/// [`join`] to report; `None` when `text` is not a part.
pub fn error_answer(text: &str, error: &Error) -> Option<Value> {
    let value: Value = serde_json::from_str(text).ok()?;
    let part: Part = serde_json::from_value(value.get("part")?.clone()).ok()?;
    Some(json!({ "part": part, "error": error.to_string() }))
}

/// One answer read back: where it was, its part, and what it says.
struct Answer {
    line: usize,
    part: Part,
    outcome: Outcome,
}

/// What a part's answer says, best first: a complete response, a partial
/// one (stopped at its time limit), or the part's error.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Complete,
    Partial,
    Failed,
}

/// An answer's response, or its error's message.
enum Outcome {
    Response(Value),
    Error(String),
}

impl Answer {
    fn rank(&self) -> Rank {
        match &self.outcome {
            Outcome::Error(_) => Rank::Failed,
            Outcome::Response(r) if r.get("completion") == Some(&json!("partial")) => Rank::Partial,
            Outcome::Response(_) => Rank::Complete,
        }
    }
}

/// The answers in `text` (JSON values one after another: one a line, as
/// `dlt solve --compact` prints them, or pretty), each checked to be an
/// answer to a part of the request whose hash is `of`.
fn read_answers(text: &str, of: &str) -> Result<Vec<Answer>, Error> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let mut answers = Vec::new();
    loop {
        let start = stream.byte_offset();
        let Some(next) = stream.next() else {
            return Ok(answers);
        };
        let skipped = text[start..].len() - text[start..].trim_start().len();
        let line = 1 + text[..start + skipped].matches('\n').count();
        let at = |what: String| Error::Malformed(format!("the answer on line {line} {what}"));
        let mut value = next.map_err(|e| at(format!("is not JSON ({e})")))?;
        let part = value
            .as_object_mut()
            .and_then(|fields| fields.remove("part"));
        let part: Part = part
            .and_then(|p| serde_json::from_value(p).ok())
            .ok_or_else(|| at("is not the answer to a part (it has no \"part\")".into()))?;
        if part.of != of {
            return Err(at(format!(
                "belongs to another request (its part is of request {}, this request is {of})",
                part.of
            )));
        }
        // A response names its model; an error answer has only its error.
        let outcome = match (
            value.get("model"),
            value.get("error").and_then(Value::as_str),
        ) {
            (None, Some(error)) => Outcome::Error(error.to_string()),
            _ => Outcome::Response(value),
        };
        answers.push(Answer {
            line,
            part,
            outcome,
        });
    }
}

/// Checks that an answer's place fits the split of a request into
/// `pieces` pieces (0: it does not split) that gave `count` parts.
fn check_place(answer: &Answer, count: usize, pieces: usize) -> Result<(), Error> {
    let part = &answer.part;
    let line = answer.line;
    if part.count != count {
        return Err(Error::Malformed(format!(
            "the answer on line {line} is one of {} parts, an earlier one of {count}: \
             the answers of two splits of the request are mixed",
            part.count
        )));
    }
    let grouped = count < pieces;
    let expected = grouped.then(|| Part::group(part.index, count, pieces));
    if count > pieces.max(1) || part.pieces != expected {
        return Err(Error::Malformed(format!(
            "the answer on line {line} is part {} of {count}, which this request's split \
             into {} pieces does not have",
            part.index,
            pieces.max(1)
        )));
    }
    Ok(())
}

/// A joined response as the command line prints it.
#[derive(Debug)]
pub struct Joined {
    /// The response, as `dlt solve` prints it; when parts are missing,
    /// marked `"completion": "partial"`, with `"missing"` (the parts
    /// without a complete answer) and `"failed"` (`{index, error}` of the
    /// parts that failed).
    pub json: Value,
    /// Its CSV form, for a table.
    pub csv: Option<String>,
    /// The parts without a complete answer (empty when none is missing).
    pub missing: Vec<usize>,
}

/// The response to `request` from its parts' answers in `text` (in any
/// order; duplicates are fine, the best answer of a part is kept).
///
/// # Errors
///
/// The request's first problem; an answer that is not JSON, not the
/// answer to a part, or the answer to a part of another request.
pub fn join(request: &Request, text: &str) -> Result<Joined, Error> {
    let pieces = request.split()?.len();
    let answers = read_answers(text, &request.hash())?;
    let count = answers.first().map_or(pieces.max(1), |a| a.part.count);
    let mut best: BTreeMap<usize, Answer> = BTreeMap::new();
    for answer in answers {
        check_place(&answer, count, pieces)?;
        let index = answer.part.index;
        if best
            .get(&index)
            .is_none_or(|kept| answer.rank() < kept.rank())
        {
            best.insert(index, answer);
        }
    }
    let complete = |i: &usize| best.get(i).is_some_and(|a| a.rank() == Rank::Complete);
    let missing: Vec<usize> = (0..count).filter(|i| !complete(i)).collect();
    let failed: Vec<Value> = best
        .values()
        .filter_map(|a| match &a.outcome {
            Outcome::Error(e) => Some(json!({ "index": a.part.index, "error": e })),
            Outcome::Response(_) => None,
        })
        .collect();
    let responses = best.into_values().filter_map(|a| match a.outcome {
        Outcome::Response(r) => Some(r),
        Outcome::Error(_) => None,
    });
    let mut joined = joined(request, responses.collect(), pieces)?;
    if !missing.is_empty() {
        if let Some(fields) = joined.json.as_object_mut() {
            fields.insert("completion".into(), json!(Completion::Partial));
            fields.insert("missing".into(), json!(missing));
            if !failed.is_empty() {
                fields.insert("failed".into(), Value::Array(failed));
            }
        }
        joined.missing = missing;
    }
    Ok(joined)
}

/// The model's join of the parts' responses (in their parts' order); for
/// a request that does not split, its one answer as it is.
fn joined(request: &Request, responses: Vec<Value>, pieces: usize) -> Result<Joined, Error> {
    if pieces > 0 {
        let response = request.join(responses)?;
        return Ok(Joined {
            json: serde_json::to_value(&response).map_err(|e| Error::Malformed(e.to_string()))?,
            csv: response.csv().map(str::to_string),
            missing: Vec::new(),
        });
    }
    let json = match responses.into_iter().next() {
        Some(response) => response,
        None => Value::Object(Map::from_iter([("model".into(), json!(request.model()))])),
    };
    // Without its answer there is nothing to write (the CSV reader fails).
    let csv =
        registry::find(request.model()).and_then(|m| m.page().csv(json.clone()).ok().flatten());
    Ok(Joined {
        json,
        csv,
        missing: Vec::new(),
    })
}
