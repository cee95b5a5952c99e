//! A small stable hash (FNV-1a, 64 bits): the same on every machine, build
//! and version, unlike the standard library's, so that a value drawn or
//! checked from it on one machine is the same on another.

use serde_json::Value;

/// FNV-1a of `bytes`: short, fast and stable; not for security.
pub fn fnv1a64(bytes: impl IntoIterator<Item = u8>) -> u64 {
    bytes.into_iter().fold(0xCBF2_9CE4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01B3)
    })
}

/// The hash of a JSON value's canonical text (see [`canonical`]), as 16
/// hex digits: equal values hash equally whatever their keys' order.
pub fn of_json(value: &Value) -> String {
    let mut text = String::new();
    canonical(value, &mut text);
    format!("{:016x}", fnv1a64(text.bytes()))
}

/// Writes `value` as compact JSON with every object's keys sorted, so the
/// text does not depend on the order a reader kept them in.
pub fn canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(fields) => {
            let mut keys: Vec<&String> = fields.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(key.clone()).to_string());
                out.push(':');
                canonical(&fields[key.as_str()], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(item, out);
            }
            out.push(']');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_values() {
        assert_eq!(fnv1a64(*b""), 0xCBF2_9CE4_8422_2325);
        assert_eq!(fnv1a64(*b"a"), 0xAF63_DC4C_8601_EC8C);
    }

    #[test]
    fn keys_order_does_not_change_the_hash() {
        let a: Value = serde_json::from_str(r#"{"b":1,"a":{"y":[1,2.5],"x":"q"}}"#).unwrap();
        let b: Value = serde_json::from_str(r#"{"a":{"x":"q","y":[1,2.5]},"b":1}"#).unwrap();
        assert_eq!(of_json(&a), of_json(&b));
        let mut text = String::new();
        canonical(&a, &mut text);
        assert_eq!(text, r#"{"a":{"x":"q","y":[1,2.5]},"b":1}"#);
    }
}
