//! The fields of an argument object that arrive as text (a path segment, a query string, a form
//! field, a command-line flag), resolved once here through `$ref`, `allOf`, type lists and unions
//! of scalars. The runtime reads text by these facts alone, and `openapi.json` lists its query
//! parameters from them: one reading of the schema, not one per surface.

use serde_json::Value;

use stitchgen_runtime::json_type;

use super::resolve;
use crate::model::{Operation, Service};

/// How deep `$ref`s, `allOf`s and unions are followed: past it, a field reads as text.
const MAX_DEPTH: usize = 32;

/// One field of an argument object, as text is read into it.
#[derive(Clone, Debug, PartialEq)]
pub struct TextField {
    /// The property name.
    pub name: String,
    /// The JSON types a value may take, in the order text is tried against them (a union of
    /// scalars keeps its branches' order). Empty: any value, read as text.
    pub types: Vec<&'static str>,
    /// For an array: its items' types.
    pub items: Vec<&'static str>,
    /// The values it (an array: each item) may take, when they are an enum of strings.
    pub values: Vec<String>,
    /// Whether the object requires it (in any `allOf` branch).
    pub required: bool,
    /// Its `default`, where it or the schema it refers to declares one.
    pub default: Option<Value>,
    /// Its `description`.
    pub description: Option<String>,
    /// The property's schema as written (references to shared types kept).
    pub schema: Value,
}

impl TextField {
    /// Whether the field takes several values (`?tag=a&tag=b`, a repeated flag).
    pub fn repeats(&self) -> bool {
        self.types.contains(&"array")
    }
}

/// The fields of the object schema `schema`: its own `properties` after those of its `allOf`
/// branches, each `$ref` followed. A name declared twice keeps its first reading.
pub fn text_fields(schema: &Value, svc: &Service) -> Vec<TextField> {
    let mut out = Vec::new();
    collect(schema, svc, &mut out, 0);
    out
}

/// The fields a tool's arguments arrive in as flags: path parameters, then input fields, with
/// the view's defaults stated (a field with a default is not required).
pub fn tool_fields(op: &Operation, svc: &Service) -> Vec<TextField> {
    let mut out = Vec::new();
    for part in [&op.params, &op.input].into_iter().flatten() {
        collect(part, svc, &mut out, 0);
    }
    for (key, value) in op.view.iter().flat_map(|v| &v.defaults) {
        if let Some(f) = out.iter_mut().find(|f| f.name == *key) {
            f.default = Some(value.clone());
            f.required = false;
        }
    }
    out
}

fn collect(schema: &Value, svc: &Service, out: &mut Vec<TextField>, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    let s = resolve(schema, svc);
    for branch in s.get("allOf").and_then(Value::as_array).into_iter().flatten() {
        collect(branch, svc, out, depth + 1);
    }
    for (name, prop) in s.get("properties").and_then(Value::as_object).into_iter().flatten() {
        if out.iter().any(|f| f.name == *name) {
            continue;
        }
        let resolved = resolve(prop, svc);
        // A union of a scalar and a list (`oneOf: [string, array]`) repeats as its list does.
        let union = ["anyOf", "oneOf"].iter().filter_map(|k| resolved.get(*k)?.as_array()).flatten();
        let item = resolved.get("items").or_else(|| union.map(|b| resolve(b, svc)).find_map(|b| b.get("items")));
        let items = item.map(|i| types(i, svc, depth + 1)).unwrap_or_default();
        let text = |k: &str| prop.get(k).or_else(|| resolved.get(k));
        out.push(TextField {
            name: name.clone(),
            types: types(prop, svc, depth + 1),
            items,
            values: string_values(item.unwrap_or(prop), svc),
            required: false,
            default: text("default").cloned(),
            description: text("description").and_then(Value::as_str).map(str::to_owned),
            schema: prop.clone(),
        });
    }
    for name in s.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
        if let Some(f) = out.iter_mut().find(|f| f.name == name) {
            f.required = true;
        }
    }
}

/// The JSON types `schema` allows: its `type`, else its `enum`'s or `const`'s values' types,
/// else the union of its `anyOf`/`oneOf` branches' (in order), else its first `allOf` branch
/// that says.
fn types(schema: &Value, svc: &Service, depth: usize) -> Vec<&'static str> {
    if depth > MAX_DEPTH {
        return Vec::new();
    }
    let s = resolve(schema, svc);
    let found: Vec<&'static str> = match s.get("type") {
        Some(Value::String(t)) => type_name(t).into_iter().collect(),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).filter_map(type_name).collect(),
        _ if s.get("enum").is_some() || s.get("const").is_some() => {
            let values = s.get("enum").and_then(Value::as_array).into_iter().flatten().chain(s.get("const"));
            values.map(json_type).collect()
        }
        _ => {
            let union = ["anyOf", "oneOf"].iter().filter_map(|k| s.get(*k)?.as_array()).flatten();
            let union: Vec<_> = union.flat_map(|b| types(b, svc, depth + 1)).collect();
            if union.is_empty() {
                let all = s.get("allOf").and_then(Value::as_array).into_iter().flatten();
                all.map(|b| types(b, svc, depth + 1)).find(|t| !t.is_empty()).unwrap_or_default()
            } else {
                union
            }
        }
    };
    let mut out: Vec<&'static str> = Vec::new();
    for t in found {
        if !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

/// The values of an enum of strings (`schema`'s, or the schema it refers to).
fn string_values(schema: &Value, svc: &Service) -> Vec<String> {
    let values = resolve(schema, svc).get("enum").and_then(Value::as_array);
    values.and_then(|vs| vs.iter().map(|v| v.as_str().map(str::to_owned)).collect()).unwrap_or_default()
}

fn type_name(t: &str) -> Option<&'static str> {
    ["string", "integer", "number", "boolean", "null", "array", "object"].into_iter().find(|n| *n == t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn service(types: Value) -> Service {
        let text = format!(
            "stitch: 1\nservice: s\ntypes: {types}\nendpoints:\n  list:\n    method: GET\n    path: /\n    desc: d\n"
        );
        let checked = crate::check_inputs(&[("s.stitch.yaml".into(), text.into_bytes())], &crate::Options::default());
        assert!(!checked.has_errors(), "{:?}", checked.diagnostics);
        crate::model::lower(&checked.contracts, &checked.sources, &checked.options).services.remove(0)
    }

    #[test]
    fn references_all_of_type_lists_and_unions_are_followed() {
        let svc = service(json!({
            "Limit": {"type": "integer", "minimum": 1, "default": 20},
            "Level": {"enum": ["low", "high"]},
            "Paging": {"type": "object", "required": ["limit"], "properties": {"limit": {"$ref": "#/types/Limit"}}},
            "Query": {"allOf": [{"$ref": "#/types/Paging"}, {"type": "object", "properties": {
                "on": {"type": "boolean"}, "ratio": {"type": ["number", "null"]},
                "levels": {"type": "array", "items": {"$ref": "#/types/Level"}},
                "id": {"anyOf": [{"type": "integer"}, {"type": "string"}]}}}]}
        }));
        let fields = text_fields(&json!({"$ref": "#/types/Query"}), &svc);
        let got: Vec<_> =
            fields.iter().map(|f| (f.name.as_str(), f.types.clone(), f.items.clone(), f.required)).collect();
        assert_eq!(
            got,
            [
                ("limit", vec!["integer"], vec![], true),
                ("on", vec!["boolean"], vec![], false),
                ("ratio", vec!["number", "null"], vec![], false),
                ("levels", vec!["array"], vec!["string"], false),
                ("id", vec!["integer", "string"], vec![], false),
            ]
        );
        assert_eq!(fields[0].default, Some(json!(20)), "the referenced type's default");
        assert!(fields[3].repeats() && !fields[0].repeats());
        assert_eq!(fields[3].values, ["low", "high"], "an array of a referenced enum offers its values");
    }
}
