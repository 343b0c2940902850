//! The JSON Schema of the contract DSL itself, for editors (`stitchgen schema`).

use serde_json::Value;

use crate::parse::ast::Contract;

/// The DSL's JSON Schema (draft 2020-12), derived from the AST, as pretty JSON with a trailing newline.
pub fn schema_json() -> String {
    let mut schema = schemars::schema_for!(Contract).to_value();
    forbid_null(&mut schema);
    // `$schema` first, as editors and people expect to read it.
    if let Value::Object(map) = &mut schema
        && let Some(meta) = map.shift_remove("$schema")
    {
        map.shift_insert(0, "$schema".into(), meta);
    }
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema serializes");
    text.push('\n');
    text
}

/// schemars lets every `Option` field be `null`; in a contract an omitted key is left out, and
/// the decoder refuses `null`, so the editor schema must refuse it too.
fn forbid_null(v: &mut Value) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Array(types)) = map.get_mut("type") {
                types.retain(|t| t != "null");
                if types.len() == 1 {
                    let only = types.remove(0);
                    map.insert("type".into(), only);
                }
            }
            if let Some(Value::Array(branches)) = map.get_mut("anyOf") {
                branches.retain(|b| b.get("type").and_then(Value::as_str) != Some("null"));
                if branches.len() == 1 {
                    let only = branches.remove(0);
                    map.remove("anyOf");
                    if let Value::Object(inner) = only {
                        map.extend(inner);
                    }
                }
            }
            map.values_mut().for_each(forbid_null);
        }
        Value::Array(items) => items.iter_mut().for_each(forbid_null),
        _ => {}
    }
}
