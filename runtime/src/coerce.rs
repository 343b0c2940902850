//! Text arguments (path segments, query strings, form fields, command-line flags) read as the
//! JSON the contract's schema expects, so the one validation judges them like a JSON body. What
//! each field expects is the generator's [`FieldDef`](crate::FieldDef): no schema is read here.

use serde_json::Value;

#[cfg(feature = "axum")]
use crate::FieldDef;
use crate::json_type;

/// Reads one text value as the first of `types` it parses as; a string otherwise, so that
/// validation reports the mismatch in the contract's words.
pub(crate) fn scalar(text: &str, types: &[&str]) -> Value {
    for t in types {
        let parsed = match *t {
            "integer" => {
                text.parse::<i64>().ok().map(Value::from).or_else(|| text.parse::<u64>().ok().map(Value::from))
            }
            "number" => text.parse::<f64>().ok().and_then(serde_json::Number::from_f64).map(Value::Number),
            "boolean" => match text {
                "true" => Some(Value::Bool(true)),
                "false" => Some(Value::Bool(false)),
                _ => None,
            },
            "null" if text == "null" => Some(Value::Null),
            "string" => Some(Value::String(text.to_owned())),
            "object" | "array" => serde_json::from_str::<Value>(text).ok().filter(|v| json_type(v) == *t),
            _ => None,
        };
        if let Some(v) = parsed {
            return v;
        }
    }
    Value::String(text.to_owned())
}

/// A query string's pairs, decoded, in order.
#[cfg(feature = "axum")]
pub(crate) fn query_pairs(query: &str) -> Vec<(String, String)> {
    form_urlencoded::parse(query.as_bytes()).into_owned().collect()
}

/// A query string read as the adapter reads an input with no parameter placed in the query:
/// each pair into the field it names.
#[cfg(all(feature = "axum", feature = "client"))]
pub(crate) fn read_query(query: &str, fields: &[FieldDef]) -> serde_json::Map<String, Value> {
    object(query_pairs(query), fields)
}

/// Text pairs (`key=value`, repeated keys allowed) as a JSON object: a key whose field repeats
/// collects every value; any other key repeated becomes an array, which validation refuses.
#[cfg(feature = "axum")]
pub(crate) fn object(
    pairs: impl IntoIterator<Item = (String, String)>,
    fields: &[FieldDef],
) -> serde_json::Map<String, Value> {
    let mut out = serde_json::Map::new();
    for (key, text) in pairs {
        let field = fields.iter().find(|f| f.name == key);
        let value = match field {
            Some(f) if f.repeats() => scalar(&text, f.items),
            Some(f) => scalar(&text, f.types),
            None => Value::String(text),
        };
        let array = field.is_some_and(FieldDef::repeats);
        match out.get_mut(&key) {
            Some(Value::Array(items)) if array => items.push(value),
            Some(existing) => {
                let first = existing.take();
                *existing = Value::Array(vec![first, value]);
            }
            None if array => {
                out.insert(key, Value::Array(vec![value]));
            }
            None => {
                out.insert(key, value);
            }
        }
    }
    out
}

#[cfg(all(test, feature = "axum"))]
mod tests {
    use super::*;
    use serde_json::json;

    const fn field(name: &'static str, types: &'static [&'static str], items: &'static [&'static str]) -> FieldDef {
        FieldDef { name, types, items, values: &[], required: false, default: None, description: "" }
    }

    /// What the generator resolves for `limit: integer`, `tag: [string]`, `on: boolean`,
    /// `ratio: number|null`, `level: enum [1, 2]`, and `id`, `ref`: unions of integer and string.
    pub(crate) const FIELDS: &[FieldDef] = &[
        field("limit", &["integer"], &[]),
        field("tag", &["array"], &["string"]),
        field("on", &["boolean"], &[]),
        field("ratio", &["number", "null"], &[]),
        field("level", &["integer"], &[]),
        field("id", &["integer", "string"], &[]),
        field("ref", &["integer", "string"], &[]),
    ];

    #[test]
    fn text_is_read_as_the_fields_expect() {
        let pairs = [
            ("limit", "5"),
            ("tag", "a"),
            ("tag", "b"),
            ("on", "true"),
            ("ratio", "null"),
            ("level", "2"),
            ("x", "1"),
            ("id", "42"),
            ("ref", "main"),
        ];
        let got = object(pairs.map(|(k, v)| (k.to_owned(), v.to_owned())), FIELDS);
        assert_eq!(
            Value::Object(got),
            json!({"limit": 5, "tag": ["a", "b"], "on": true, "ratio": null, "level": 2, "x": "1", "id": 42, "ref": "main"})
        );
    }

    #[test]
    fn what_does_not_parse_stays_text_for_validation_to_refuse() {
        assert_eq!(scalar("five", &["integer"]), json!("five"));
        assert_eq!(scalar("yes", &["boolean"]), json!("yes"));
        let once = object([("limit".to_owned(), "1".to_owned()), ("limit".to_owned(), "2".to_owned())], &[]);
        assert_eq!(Value::Object(once), json!({"limit": ["1", "2"]}));
    }
}
