//! Closing objects where a composition spreads their keys. A surface that closes every object
//! (`additionalProperties: false`, the agent tools) must close such an object once, over all its
//! keys: `allOf` parts closed each to their own keys, or `anyOf` branches closed beside keys
//! their parent declares, accept no object that has the keys of both. So `allOf` parts are
//! folded into their object, and keys beside a union are carried into each of its branches,
//! each branch then closed over what it takes. Both are exact: the schema accepts what it did
//! when no object was closed, less the keys no part names.

use serde_json::{Map, Value, json};

/// Folds and distributes `map`'s composition where it can; returns whether the node may be
/// closed itself (it has no composition left, whose branches would hold the closure).
pub(super) fn compose(map: &mut Map<String, Value>) -> bool {
    fold_all_of(map);
    distribute(map);
    // A union with no key of its own beside it: its branches say what object it is (and close
    // it), so the node is not one more object to close, with no key of its own.
    let union = map.contains_key("anyOf") || map.contains_key("oneOf");
    if union && !map.contains_key("properties") && map.get("type").is_some_and(|t| t == "object") {
        map.remove("type");
    }
    !["allOf", "anyOf", "oneOf"].iter().any(|k| map.contains_key(*k))
}

/// Closes the object `map`: `additionalProperties: false`, every name it requires declared
/// first (one only a sibling branch declares is any value here), so closing refuses no value the
/// schema takes.
pub(super) fn close(map: &mut Map<String, Value>) {
    let declared = |n: &str| map.get("properties").is_some_and(|p| p.get(n).is_some());
    let required = map.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str);
    let missing: Vec<String> = required.filter(|n| !declared(n)).map(str::to_owned).collect();
    if !missing.is_empty()
        && let Value::Object(props) = map.entry("properties").or_insert_with(|| json!({}))
    {
        for name in missing {
            props.insert(name, json!({}));
        }
    }
    map.insert("additionalProperties".into(), Value::Bool(false));
}

/// `allOf` of object parts folded into the node: properties joined (one a part states again
/// with another schema held to both through `allOf`), `required` joined, other keywords taken
/// where the node does not say them. Any conflict leaves the node as it is.
fn fold_all_of(map: &mut Map<String, Value>) {
    let Some(Value::Array(parts)) = map.get("allOf") else { return };
    let mut folded = map.clone();
    folded.remove("allOf");
    for part in parts {
        let Some(part) = part.as_object().filter(|p| !p.contains_key("$ref")) else { return };
        for (k, v) in part {
            let ok = match k.as_str() {
                "properties" => join_properties(&mut folded, v),
                "required" => {
                    join_required(&mut folded, v);
                    true
                }
                "additionalProperties" => v == &Value::Bool(false),
                "description" | "title" => {
                    folded.entry(k.clone()).or_insert_with(|| v.clone());
                    true
                }
                _ => match folded.get(k) {
                    None => {
                        folded.insert(k.clone(), v.clone());
                        true
                    }
                    Some(had) => had == v,
                },
            };
            if !ok {
                return;
            }
        }
    }
    folded.remove("additionalProperties");
    *map = super::sorted(folded);
}

fn join_properties(node: &mut Map<String, Value>, props: &Value) -> bool {
    let Some(props) = props.as_object() else { return false };
    let Value::Object(own) = node.entry("properties").or_insert_with(|| json!({})) else { return false };
    for (name, schema) in props {
        match own.get_mut(name) {
            None => {
                own.insert(name.clone(), schema.clone());
            }
            // Any value (`{}`: a required name declared by a sibling) adds nothing.
            Some(had) if had == schema || *schema == json!({}) => {}
            // A placeholder gives way, in the place the declaration takes.
            Some(had) if *had == json!({}) => {
                own.shift_remove(name);
                own.insert(name.clone(), schema.clone());
            }
            Some(had) => *had = json!({ "allOf": [had.take(), schema.clone()] }),
        }
    }
    true
}

fn join_required(node: &mut Map<String, Value>, names: &Value) {
    let Value::Array(own) = node.entry("required").or_insert_with(|| json!([])) else { return };
    for n in names.as_array().into_iter().flatten() {
        if !own.contains(n) {
            own.push(n.clone());
        }
    }
}

/// The keys a node declares beside `anyOf`/`oneOf` carried into each object branch, and each
/// such branch closed over what it takes. A branch that is a reference, or a node with both
/// unions, is left as it is.
fn distribute(map: &mut Map<String, Value>) {
    let unions: Vec<&str> = ["anyOf", "oneOf"].into_iter().filter(|k| map.contains_key(*k)).collect();
    let ([key], true) = (unions.as_slice(), map.contains_key("properties") || map.contains_key("required")) else {
        return;
    };
    let Some(Value::Array(branches)) = map.get(*key) else { return };
    if branches.iter().any(|b| b.get("$ref").is_some() || !b.is_object()) {
        return;
    }
    let (props, required) = (map.get("properties").cloned(), map.get("required").cloned());
    let mut carried = Vec::with_capacity(branches.len());
    for branch in branches {
        let mut b = branch.as_object().cloned().unwrap_or_default();
        if objectish(&b) {
            if let Some(p) = &props {
                join_properties(&mut b, p);
            }
            if let Some(r) = &required {
                join_required(&mut b, r);
            }
            b.insert("type".into(), json!("object"));
            close(&mut b);
        }
        carried.push(Value::Object(super::sorted(b)));
    }
    let key = (*key).to_owned();
    for k in ["properties", "required", "additionalProperties"] {
        map.remove(k);
    }
    map.insert(key, Value::Array(carried));
}

/// Whether a branch speaks of an object: its type, its properties, or only which keys it needs.
fn objectish(b: &Map<String, Value>) -> bool {
    b.get("type").is_some_and(|t| t == "object")
        || b.contains_key("properties")
        || (!b.contains_key("type") && b.contains_key("required"))
}
