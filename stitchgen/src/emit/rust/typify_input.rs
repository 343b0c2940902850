//! The schema typify reads: a contract schema rewritten, without changing what it accepts, where
//! typify would otherwise misread it. The runner validates against the contract's own schema;
//! these rewrites only shape the Rust types.

use serde_json::{Map, Value};

/// Keywords whose values are data, not schemas: never rewritten.
const DATA: &[&str] = &["enum", "const", "default", "examples", "example", "required", "type"];

/// `schema` rewritten for typify, every subschema included.
pub(super) fn schema(v: Value) -> Value {
    match v {
        Value::Object(map) => {
            let map = map
                .into_iter()
                .map(|(k, v)| {
                    let v = if DATA.contains(&k.as_str()) || k == "$ref" { v } else { subschemas(&k, v) };
                    (k, v)
                })
                .collect();
            Value::Object(node(map))
        }
        other => other,
    }
}

/// The value of keyword `k`, its schemas rewritten.
fn subschemas(k: &str, v: Value) -> Value {
    match (k, v) {
        ("properties", Value::Object(props)) => Value::Object(props.into_iter().map(|(n, s)| (n, schema(s))).collect()),
        (_, Value::Array(items)) => Value::Array(items.into_iter().map(schema).collect()),
        (_, v @ Value::Object(_)) => schema(v),
        (_, other) => other,
    }
}

/// The rewrites of one schema node, its subschemas already rewritten.
fn node(mut map: Map<String, Value>) -> Map<String, Value> {
    const_as_enum(&mut map);
    nameable_enum(&mut map);
    for kw in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get_mut(kw) {
            branches.iter_mut().filter_map(Value::as_object_mut).for_each(|b| {
                b.remove("default");
            });
        }
    }
    constraint_only_unions(&mut map);
    map
}

/// `const: X` is `enum: [X]`. typify turns an untyped `const` into a JSON value, which accepts
/// anything: a discriminator in an untagged enum, or in an `allOf` part it merges, would then
/// let a value deserialize as the wrong branch. A one-value enum is a Rust type that refuses
/// every other value.
fn const_as_enum(map: &mut Map<String, Value>) {
    if let Some(c) = map.remove("const") {
        map.insert("enum".into(), Value::Array(vec![c]));
    }
}

/// typify names a string enum's variants after its values, and gives up when two values
/// would share a name (`*/` and `"#` both have none). Such an enum becomes a plain `String` in
/// Rust; the contract's schema, which the runner validates against, still holds every value.
fn nameable_enum(map: &mut Map<String, Value>) {
    let Some(values) = map.get("enum").and_then(Value::as_array) else { return };
    if !values.iter().all(Value::is_string) {
        return;
    }
    let mut names = std::collections::BTreeSet::new();
    let nameable = values.iter().all(|v| {
        let name: String = v.as_str().unwrap_or_default().chars().filter(char::is_ascii_alphanumeric).collect();
        !name.is_empty() && names.insert(name.to_ascii_lowercase())
    });
    if !nameable {
        map.remove("enum");
        map.insert("type".into(), Value::String("string".into()));
    }
}

/// An object that declares its properties and then requires some of them through `anyOf` or
/// `oneOf` branches (`anyOf: [{required: [status]}, {required: [title]}]`) has one shape: the
/// branches constrain which properties are present, which the runner validates. typify would
/// make an enum of structs that each drop the properties their branch does not list, losing
/// data; without the branches it makes one struct holding every property.
fn constraint_only_unions(map: &mut Map<String, Value>) {
    if !map.contains_key("properties") {
        return;
    }
    let constraint_only = |b: &Value| {
        b.as_object().is_some_and(|b| {
            b.iter().all(|(k, v)| match k.as_str() {
                "required" | "description" | "title" => true,
                "type" => v == "object",
                _ => false,
            })
        })
    };
    for kw in ["anyOf", "oneOf"] {
        if map.get(kw).and_then(Value::as_array).is_some_and(|b| b.iter().all(constraint_only)) {
            map.remove(kw);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn data_is_never_rewritten() {
        let v = json!({"default": {"anyOf": [{"default": 1}]}, "examples": [{"const": 1}], "properties": {"k": {"const": "a"}}});
        let out = super::schema(v);
        assert_eq!(out["default"], json!({"anyOf": [{"default": 1}]}));
        assert_eq!(out["examples"], json!([{"const": 1}]));
        assert_eq!(out["properties"]["k"], json!({"enum": ["a"]}));
    }

    #[test]
    fn branch_defaults_and_constraint_only_branches_are_dropped() {
        let v = json!({"type": "object", "properties": {"a": {"type": "string"}}, "anyOf": [{"required": ["a"]}],
                       "oneOf": [{"type": "object", "default": null, "properties": {}}, {"type": "null"}]});
        let out = super::schema(v);
        assert!(out.get("anyOf").is_none());
        assert_eq!(out["oneOf"][0], json!({"type": "object", "properties": {}}));
    }

    #[test]
    fn unnameable_string_enums_become_strings() {
        assert_eq!(super::schema(json!({"enum": ["*/", "\"#"]})), json!({"type": "string"}));
        assert_eq!(super::schema(json!({"enum": ["a", "b"]})), json!({"enum": ["a", "b"]}));
    }
}
