//! Text arguments (path segments, query strings, form fields, command-line flags) read as the
//! JSON the contract's schema expects, so the one validation judges them like a JSON body.

use serde_json::Value;

/// What one argument's schema accepts, as far as reading text goes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Shape {
    /// The JSON types the value may take (`type`, or an `enum`'s/`const`'s types).
    pub(crate) types: Vec<&'static str>,
    /// For arrays: the item types.
    pub(crate) items: Vec<&'static str>,
}

impl Shape {
    /// The shape of a property schema.
    pub(crate) fn of(schema: &Value) -> Shape {
        let items = schema.get("items").map(types_of).unwrap_or_default();
        Shape { types: types_of(schema), items }
    }

    /// Whether the argument takes several values.
    pub(crate) fn is_array(&self) -> bool {
        self.types.contains(&"array")
    }
}

fn type_name(t: &str) -> Option<&'static str> {
    ["string", "integer", "number", "boolean", "null", "array", "object"].into_iter().find(|n| *n == t)
}

fn types_of(schema: &Value) -> Vec<&'static str> {
    match schema.get("type") {
        Some(Value::String(t)) => type_name(t).into_iter().collect(),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).filter_map(type_name).collect(),
        _ if schema.get("enum").is_some() || schema.get("const").is_some() => {
            let values = schema.get("enum").and_then(Value::as_array).cloned().unwrap_or_default();
            let values = values.into_iter().chain(schema.get("const").cloned());
            let mut out: Vec<&'static str> = values.map(|v| json_type(&v)).collect();
            out.dedup();
            out
        }
        // A union of scalars (an id that is an integer or a string): the branches' types, in
        // the order written, so text is read as the first branch it parses as.
        _ => {
            let branches = ["oneOf", "anyOf", "allOf"].iter().filter_map(|k| schema.get(*k)?.as_array()).flatten();
            let mut out: Vec<&'static str> = Vec::new();
            for t in branches.flat_map(types_of) {
                if !out.contains(&t) {
                    out.push(t);
                }
            }
            out
        }
    }
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// The shapes of an object schema's properties, by name.
#[cfg(feature = "axum")]
pub(crate) fn shapes(schema: Option<&str>) -> Vec<(String, Shape)> {
    let Some(schema) = schema.and_then(|s| serde_json::from_str::<Value>(s).ok()) else { return Vec::new() };
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|props| props.iter().map(|(k, s)| (k.clone(), Shape::of(s))).collect())
        .unwrap_or_default()
}

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

/// Text pairs (`key=value`, repeated keys allowed) as a JSON object: a key whose schema is an
/// array collects every value; any other key repeated becomes an array, which validation refuses.
#[cfg(feature = "axum")]
pub(crate) fn object(
    pairs: impl IntoIterator<Item = (String, String)>,
    shapes: &[(String, Shape)],
) -> serde_json::Map<String, Value> {
    let mut out = serde_json::Map::new();
    for (key, text) in pairs {
        let shape = shapes.iter().find(|(k, _)| *k == key).map(|(_, s)| s);
        let value = match shape {
            Some(s) if s.is_array() => scalar(&text, &s.items),
            Some(s) => scalar(&text, &s.types),
            None => Value::String(text),
        };
        let array = shape.is_some_and(Shape::is_array);
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

    #[test]
    fn text_is_read_as_the_schema_expects() {
        let shapes = shapes(Some(
            r#"{"type":"object","properties":{"limit":{"type":"integer"},"tag":{"type":"array","items":{"type":"string"}},
               "on":{"type":"boolean"},"ratio":{"type":["number","null"]},"level":{"enum":[1,2]},
               "id":{"oneOf":[{"type":"integer"},{"type":"string"}]},"ref":{"anyOf":[{"type":"integer"},{"type":"string"}]}}}"#,
        ));
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
        let got = object(pairs.map(|(k, v)| (k.to_owned(), v.to_owned())), &shapes);
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
