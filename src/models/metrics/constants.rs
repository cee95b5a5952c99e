//! The request's named constants, read as JSON (`{"t_s": 5}`) or as the
//! text a student types (`t_s = 5, t_w = 2`), so that the page's box takes
//! either and a typo gets a message saying what to write.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::value::MapAccessDeserializer;
use serde::de::{self, Deserialize, Deserializer, MapAccess, Visitor};

/// What the constants box takes, as every message about it says.
const FORMS: &str = "name = value pairs separated by commas (t_s = 5, t_w = 2) or a JSON object \
                     ({\"t_s\": 5, \"t_w\": 2})";

/// Reads the constants from a JSON object or a text of `name = value`
/// pairs.
///
/// # Errors
///
/// What cannot be read, naming the pair.
pub fn read<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, f64>, D::Error> {
    d.deserialize_any(Constants)
}

/// The visitor behind [`read`].
struct Constants;

impl<'de> Visitor<'de> for Constants {
    type Value = BTreeMap<String, f64>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{FORMS}")
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        BTreeMap::deserialize(MapAccessDeserializer::new(map))
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        pairs(text).map_err(E::custom)
    }
}

/// The constants of `text`: `name = value` (or `name: value`) pairs
/// separated by commas, semicolons or lines; a text that opens with `{`
/// is read as JSON.
///
/// # Errors
///
/// The pair that cannot be read and what to write instead.
pub fn pairs(text: &str) -> Result<BTreeMap<String, f64>, String> {
    if text.trim_start().starts_with('{') {
        return serde_json::from_str(text)
            .map_err(|e| format!("cannot be read as JSON ({e}); write {FORMS}"));
    }
    let mut out = BTreeMap::new();
    for pair in text
        .split([',', ';', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let short = crate::core::domain::error::shorten(pair);
        let Some((name, value)) = pair.split_once(['=', ':']) else {
            return Err(format!("cannot read `{short}`: write {FORMS}"));
        };
        let name = name.trim().trim_matches('"').to_string();
        let value: f64 = value.trim().parse().map_err(|_| {
            format!(
                "the value of `{}`, `{}`, is not a number: write {FORMS}",
                crate::core::domain::error::shorten(&name),
                crate::core::domain::error::shorten(value.trim())
            )
        })?;
        if out.insert(name.clone(), value).is_some() {
            return Err(format!(
                "gives `{}` twice: name each constant once",
                crate::core::domain::error::shorten(&name)
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_pairs_are_read() {
        let got = pairs("t_s = 5, t_w = 2e-3; t_c: 1\n k=-1").unwrap();
        let want = BTreeMap::from([
            ("t_s".to_string(), 5.0),
            ("t_w".to_string(), 2e-3),
            ("t_c".to_string(), 1.0),
            ("k".to_string(), -1.0),
        ]);
        assert_eq!(got, want);
        assert_eq!(pairs(" ").unwrap(), BTreeMap::new());
        assert_eq!(
            pairs("{\"a\": 1}").unwrap(),
            BTreeMap::from([("a".to_string(), 1.0)])
        );
    }

    #[test]
    fn unreadable_pairs_say_what_to_write() {
        let cases = [
            ("t_s 5", "cannot read `t_s 5`: write name = value pairs"),
            ("t_s = five", "the value of `t_s`, `five`, is not a number"),
            ("a = 1, a = 2", "gives `a` twice"),
            ("{\"a\": }", "cannot be read as JSON"),
        ];
        for (text, want) in cases {
            let got = pairs(text).unwrap_err();
            assert!(got.starts_with(want), "{text}: {got}");
        }
    }
}
