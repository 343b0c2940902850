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

/// Text pairs (`key=value`, repeated keys allowed) as a JSON object: a key whose field is a list
/// collects every value; one whose field is a value or a list (`oneOf: [integer, array]`) is the
/// value when it comes once and the list when repeated; any other key repeated becomes an array,
/// which validation refuses.
#[cfg(feature = "axum")]
pub(crate) fn object(
    pairs: impl IntoIterator<Item = (String, String)>,
    fields: &[FieldDef],
) -> serde_json::Map<String, Value> {
    // Each key's texts, in the order keys first came; found by an index, so a body of many
    // distinct keys costs n log n, not n².
    let mut texts: Vec<(String, Vec<String>)> = Vec::new();
    let mut at: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for (key, text) in pairs {
        match at.get(&key) {
            Some(&i) => texts[i].1.push(text),
            None => {
                at.insert(key.clone(), texts.len());
                texts.push((key, vec![text]));
            }
        }
    }
    let mut out = serde_json::Map::new();
    for (key, values) in texts {
        let field = fields.iter().find(|f| f.name == key);
        let one = field.map_or(&[][..], |f| f.types).iter().any(|t| *t != "array");
        let value = match (field, values.as_slice()) {
            (Some(f), [text]) if one || !f.repeats() => scalar(text, f.types),
            (Some(f), _) if f.repeats() => Value::Array(values.iter().map(|t| scalar(t, f.items)).collect()),
            (Some(f), _) => Value::Array(values.iter().map(|t| scalar(t, f.types)).collect()),
            (None, [text]) => Value::String(text.clone()),
            (None, _) => Value::Array(values.into_iter().map(Value::String).collect()),
        };
        out.insert(key, value);
    }
    out
}

/// `property` of a `name[property]` query pair's key, when the key is `name`'s.
#[cfg(feature = "axum")]
pub(crate) fn deep_property<'k>(key: &'k str, name: &str) -> Option<&'k str> {
    key.strip_prefix(name)?.strip_prefix('[')?.strip_suffix(']')
}

/// The objects placed in the query as `name[property]=value` pairs, by key, each property read
/// by its field as a query input is; an object none of whose pairs came is absent.
#[cfg(feature = "axum")]
pub(crate) fn deep_objects(params_in: &[crate::ParamIn], query: &[(String, String)]) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for p in params_in {
        let crate::ParamIn::DeepObject(key, name, fields) = p else { continue };
        let pairs: Vec<(String, String)> = query
            .iter()
            .filter_map(|(k, v)| deep_property(k, name).map(|property| (property.to_owned(), v.clone())))
            .collect();
        if !pairs.is_empty() {
            out.push(((*key).to_owned(), Value::Object(object(pairs, fields))));
        }
    }
    out
}

/// The parameters placed in the query as one JSON text, by key: the value the text is, or the
/// text itself where it is no JSON (for validation to refuse in the contract's words); sent
/// twice, both, as a list validation judges.
#[cfg(feature = "axum")]
pub(crate) fn json_texts(params_in: &[crate::ParamIn], query: &[(String, String)]) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for p in params_in {
        let crate::ParamIn::QueryJson(key, name) = p else { continue };
        let read = |text: &String| serde_json::from_str(text).unwrap_or_else(|_| Value::String(text.clone()));
        let mut values: Vec<Value> = query.iter().filter(|(k, _)| k == name).map(|(_, v)| read(v)).collect();
        match values.len() {
            0 => {}
            1 => out.push(((*key).to_owned(), values.remove(0))),
            _ => out.push(((*key).to_owned(), Value::Array(values))),
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
