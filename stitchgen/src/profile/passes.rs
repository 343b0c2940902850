//! The passes that rewrite a tool's parameters for a profile. Each keeps what a caller may
//! send or widens it, never narrows it: the runner validates every call against the canonical
//! schema, so a profile's schema guides the model and the contract still judges the call.

use serde_json::{Map, Value, json};

use super::{Pass, Profile};

/// Runs `pass` over `schema`, a tool's parameters (`input`) or its output schema, for `profile`.
pub(super) fn run(pass: Pass, profile: Profile, input: bool, schema: &mut Value) {
    match pass {
        Pass::InlineRefs => inline_refs(schema),
        Pass::InlineAllRefs => inline_all_refs(schema),
        Pass::RenameDefs => rename_defs(schema),
        Pass::MergeRootUnion if input => merge_root_union(schema),
        Pass::MergeRootUnion | Pass::ObjectOutputs | Pass::ShortenNames | Pass::ArgumentNames => {}
        _ => walk(schema, &mut |node| each(pass, profile, node)),
    }
}

/// A tool's `outputSchema` left out where it is not an object schema: the client refuses the
/// list otherwise, and the answer (its `structuredContent`) is the same without it.
pub(super) fn object_outputs(tool: &mut Value) {
    let Some(tool) = tool.as_object_mut() else { return };
    if tool.get("outputSchema").is_some_and(|o| o.get("type").is_none_or(|t| t != "object")) {
        tool.remove("outputSchema");
    }
}

/// Applies `f` to every schema under `schema`, children first.
fn walk(schema: &mut Value, f: &mut impl FnMut(&mut Map<String, Value>)) {
    let Value::Object(node) = schema else { return };
    for (key, child) in node.iter_mut() {
        match key.as_str() {
            "properties" | "$defs" | "defs" => {
                if let Value::Object(children) = child {
                    children.values_mut().for_each(|c| walk(c, f));
                }
            }
            "items" | "additionalProperties" | "not" => walk(child, f),
            "anyOf" | "oneOf" | "allOf" => {
                if let Value::Array(branches) = child {
                    branches.iter_mut().for_each(|b| walk(b, f));
                }
            }
            _ => {}
        }
    }
    f(node);
}

fn each(pass: Pass, profile: Profile, node: &mut Map<String, Value>) {
    match pass {
        Pass::MergeAllOf => merge_all_of(node),
        Pass::OneOfToAnyOf => {
            if let Some(branches) = node.remove("oneOf") {
                node.insert("anyOf".into(), branches);
            }
        }
        Pass::ConstToEnum => {
            if let Some(value) = node.remove("const") {
                node.insert("enum".into(), json!([value]));
            }
        }
        Pass::OptionalToNullable => optional_to_nullable(node),
        Pass::TypeListsToNullable => type_lists(node),
        Pass::TypeListsToAnyOf => type_lists_to_any_of(node),
        Pass::ArrayItems => {
            let array = match node.get("type") {
                Some(Value::String(t)) => t == "array",
                Some(Value::Array(types)) => types.iter().any(|t| t == "array"),
                _ => false,
            };
            if array && !node.contains_key("items") {
                node.insert("items".into(), json!({}));
            }
        }
        Pass::KeywordsToDescription => keywords_to_description(profile, node),
        _ => {}
    }
}

/// Every `$ref` to a `$defs` entry that does not refer to itself, through any path, replaced by
/// the entry; `$defs` kept only for those that do.
fn inline_refs(schema: &mut Value) {
    let Some(Value::Object(defs)) = schema.get("$defs").cloned() else { return };
    let recursive: Vec<String> = defs.keys().filter(|k| reaches(&defs, k, k, &mut Vec::new())).cloned().collect();
    replace_refs(schema, &defs, &recursive);
    if let Value::Object(root) = schema {
        let kept: Map<String, Value> = defs.into_iter().filter(|(k, _)| recursive.contains(k)).collect();
        if kept.is_empty() {
            root.remove("$defs");
        } else {
            // The kept entries may refer to inlinable ones: those are inlined in them too.
            let mut kept = Value::Object(kept);
            if let Some(Value::Object(all)) = root.get("$defs").cloned() {
                replace_refs_in_defs(&mut kept, &all, &recursive);
            }
            root.insert("$defs".into(), kept);
        }
    }
}

fn replace_refs_in_defs(kept: &mut Value, all: &Map<String, Value>, recursive: &[String]) {
    if let Value::Object(entries) = kept {
        entries.values_mut().for_each(|v| replace_refs(v, all, recursive));
    }
}

fn target(r: &str) -> Option<&str> {
    r.strip_prefix("#/$defs/")
}

/// Whether `from`'s definition reaches `goal` through references.
fn reaches(defs: &Map<String, Value>, from: &str, goal: &str, seen: &mut Vec<String>) -> bool {
    let mut refs = Vec::new();
    collect_refs(defs.get(from).unwrap_or(&Value::Null), &mut refs);
    refs.iter().any(|r| {
        r == goal || {
            if seen.contains(r) {
                return false;
            }
            seen.push(r.clone());
            reaches(defs, r, goal, seen)
        }
    })
}

fn collect_refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            if let Some(t) = m.get("$ref").and_then(Value::as_str).and_then(target) {
                out.push(t.to_owned());
            }
            m.values().for_each(|c| collect_refs(c, out));
        }
        Value::Array(items) => items.iter().for_each(|c| collect_refs(c, out)),
        _ => {}
    }
}

fn replace_refs(v: &mut Value, defs: &Map<String, Value>, recursive: &[String]) {
    match v {
        Value::Object(m) => {
            let inlined =
                m.get("$ref").and_then(Value::as_str).and_then(target).filter(|t| !recursive.iter().any(|r| r == t));
            if let Some(def) = inlined.and_then(|t| defs.get(t)).cloned() {
                m.remove("$ref");
                if let Value::Object(body) = def {
                    for (k, v) in body {
                        // A sibling written beside the `$ref` (a description) wins.
                        m.entry(k).or_insert(v);
                    }
                }
            }
            m.iter_mut().filter(|(k, _)| k.as_str() != "$defs").for_each(|(_, c)| replace_refs(c, defs, recursive));
        }
        Value::Array(items) => items.iter_mut().for_each(|c| replace_refs(c, defs, recursive)),
        _ => {}
    }
}

/// `allOf` folded into the node, part by part: properties joined (a name already there keeps
/// its schema), `required` joined, any other keyword kept where the node does not already say
/// it. Keeping one of two constraints on a value widens what may be sent, never narrows it; an
/// object any part closes is closed over every property the parts name.
fn merge_all_of(node: &mut Map<String, Value>) {
    let Some(Value::Array(parts)) = node.remove("allOf") else { return };
    let closed = node.get("additionalProperties") == Some(&Value::Bool(false))
        || parts.iter().any(|p| p.get("additionalProperties") == Some(&Value::Bool(false)));
    for part in parts {
        if let Value::Object(part) = part {
            fold(node, part);
        }
    }
    if closed {
        node.insert("additionalProperties".into(), Value::Bool(false));
    }
}

/// `part`'s keywords joined to `node`'s.
fn fold(node: &mut Map<String, Value>, part: Map<String, Value>) {
    for (k, v) in part {
        match (k.as_str(), v) {
            ("properties", Value::Object(props)) => {
                let Value::Object(own) = node.entry("properties").or_insert_with(|| json!({})) else { continue };
                for (name, p) in props {
                    own.entry(name).or_insert(p);
                }
            }
            ("required", Value::Array(names)) => {
                let Value::Array(own) = node.entry("required").or_insert_with(|| json!([])) else { continue };
                for n in names {
                    if !own.contains(&n) {
                        own.push(n);
                    }
                }
            }
            ("additionalProperties", Value::Bool(false)) => {}
            (_, v) => {
                node.entry(k).or_insert(v);
            }
        }
    }
}

/// A union of objects at the root of the parameters (an operation whose body is one of several
/// shapes), which no profile takes there, written as one object: every branch's properties (a
/// name several branches give different schemas is any of them), required what every branch
/// requires, and the branches said in the description. Any call one branch accepts, the object
/// accepts; the runner still holds the call to the canonical union.
fn merge_root_union(schema: &mut Value) {
    let Value::Object(root) = schema else { return };
    for key in ["anyOf", "oneOf"] {
        let objects = root
            .get(key)
            .and_then(Value::as_array)
            .is_some_and(|branches| !branches.is_empty() && branches.iter().all(objectish));
        if !objects {
            continue;
        }
        let Some(Value::Array(branches)) = root.remove(key) else { continue };
        let shapes: Vec<String> = branches.iter().map(shape).collect();
        let mut props = root.remove("properties").and_then(|p| p.as_object().cloned()).unwrap_or_default();
        let mut common: Option<Vec<Value>> = None;
        for branch in &branches {
            for (name, p) in branch["properties"].as_object().into_iter().flatten() {
                any_of(&mut props, name, p);
            }
            let required = branch.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
            common = Some(match common {
                None => required,
                Some(c) => c.into_iter().filter(|r| required.contains(r)).collect(),
            });
        }
        root.insert("type".into(), json!("object"));
        root.insert("properties".into(), Value::Object(props));
        let Value::Array(own) = root.entry("required").or_insert_with(|| json!([])) else { continue };
        for r in common.unwrap_or_default() {
            if !own.contains(&r) {
                own.push(r);
            }
        }
        if branches.iter().any(|b| b.get("additionalProperties") == Some(&Value::Bool(false))) {
            root.insert("additionalProperties".into(), Value::Bool(false));
        }
        let text = format!("Send the fields of one of these shapes: {}.", shapes.join("; "));
        let description = match root.get("description").and_then(Value::as_str) {
            Some(d) if !d.is_empty() => format!("{d}\n\n{text}"),
            _ => text,
        };
        root.insert("description".into(), Value::String(description));
    }
}

/// Whether a union's branch speaks of an object only: its properties, or which keys it needs.
fn objectish(branch: &Value) -> bool {
    let Some(m) = branch.as_object() else { return false };
    m.get("properties").is_some_and(Value::is_object)
        || m.get("type").is_some_and(|t| t == "object")
        || m.keys()
            .all(|k| matches!(k.as_str(), "required" | "title" | "description" | "minProperties" | "maxProperties"))
}

/// Property `name` of a merged union accepting `p` as well as what it already accepts.
fn any_of(props: &mut Map<String, Value>, name: &str, p: &Value) {
    let Some(had) = props.get_mut(name) else {
        props.insert(name.to_owned(), p.clone());
        return;
    };
    if had == p {
        return;
    }
    let alone = had.as_object().is_some_and(|m| m.len() == 1 && m.get("anyOf").is_some_and(Value::is_array));
    if !alone {
        *had = json!({ "anyOf": [had.take()] });
    }
    let Some(Value::Array(list)) = had.get_mut("anyOf") else { return };
    if !list.contains(p) {
        list.push(p.clone());
    }
}

/// One branch of a union as a caller reads it: the fields it requires, or those it takes.
fn shape(branch: &Value) -> String {
    let required: Vec<&str> =
        branch.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let fields: Vec<&str> = if required.is_empty() {
        branch["properties"].as_object().into_iter().flatten().map(|(k, _)| k.as_str()).collect()
    } else {
        required
    };
    let mut text = fields.join(", ");
    if let Some(kind) = discriminator(branch) {
        text = format!("{kind}: {text}");
    }
    format!("{{{text}}}")
}

/// The value a branch's `type`-like property is held to, when one is (a discriminator).
fn discriminator(branch: &Value) -> Option<String> {
    branch["properties"].as_object()?.iter().find_map(|(k, p)| {
        let one =
            p.get("const").or_else(|| p.get("enum").and_then(Value::as_array).filter(|e| e.len() == 1)?.first())?;
        Some(format!("{k} = {one}"))
    })
}

/// Every property of an object required, an optional one made nullable.
fn optional_to_nullable(node: &mut Map<String, Value>) {
    let required: Vec<String> = node_required(node);
    let Some(Value::Object(props)) = node.get_mut("properties") else { return };
    let mut all = Vec::with_capacity(props.len());
    for (name, p) in props.iter_mut() {
        all.push(Value::String(name.clone()));
        if !required.contains(name) {
            nullable(p);
        }
    }
    node.insert("required".into(), Value::Array(all));
}

fn node_required(node: &Map<String, Value>) -> Vec<String> {
    node.get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

/// `p` accepting `null` as well.
fn nullable(p: &mut Value) {
    let Value::Object(m) = p else { return };
    match m.get_mut("type") {
        Some(Value::String(t)) if t != "null" => {
            let t = t.clone();
            m.insert("type".into(), json!([t, "null"]));
            if let Some(Value::Array(values)) = m.get_mut("enum")
                && !values.contains(&Value::Null)
            {
                values.push(Value::Null);
            }
        }
        Some(Value::Array(types)) => {
            if !types.contains(&json!("null")) {
                types.push(json!("null"));
            }
        }
        _ => {
            let inner = std::mem::take(m);
            m.insert("anyOf".into(), json!([Value::Object(inner), { "type": "null" }]));
        }
    }
}

/// `type: [T, "null"]` as `type: T, nullable: true`; a list of several types as `anyOf`.
fn type_lists(node: &mut Map<String, Value>) {
    let Some(Value::Array(types)) = node.get("type").cloned() else { return };
    let null = types.iter().any(|t| t == "null");
    let others: Vec<Value> = types.into_iter().filter(|t| t != "null").collect();
    match others.as_slice() {
        [one] => {
            node.insert("type".into(), one.clone());
        }
        _ => {
            node.remove("type");
            let branches: Vec<Value> = others.into_iter().map(|t| json!({ "type": t })).collect();
            node.insert("anyOf".into(), Value::Array(branches));
        }
    }
    if null {
        node.insert("nullable".into(), json!(true));
        if let Some(Value::Array(values)) = node.get_mut("enum") {
            values.retain(|v| !v.is_null());
        }
    }
}

/// `type: [A, B]` as `anyOf: [{type: A, …}, {type: B, …}]`, each branch with the node's other
/// constraints (which held whichever type the value had); the description stays outside.
fn type_lists_to_any_of(node: &mut Map<String, Value>) {
    if !node.get("type").is_some_and(Value::is_array) {
        return;
    }
    let Some(Value::Array(types)) = node.remove("type") else { return };
    let notes: Map<String, Value> = ["description", "title"].iter().filter_map(|k| node.remove_entry(*k)).collect();
    let rest = std::mem::replace(node, notes);
    let branches: Vec<Value> = types
        .into_iter()
        .map(|t| {
            let mut branch = rest.clone();
            branch.insert("type".into(), t);
            Value::Object(branch)
        })
        .collect();
    node.insert("anyOf".into(), Value::Array(branches));
}

/// Every `$ref` replaced by the `$defs` entry it names, and `$defs` dropped. A type that
/// contains itself is written out once; below that, its `$ref` becomes any value, named in the
/// description (which widens what may be sent; the runner holds the call to the type).
fn inline_all_refs(schema: &mut Value) {
    let Some(Value::Object(defs)) = schema.as_object_mut().and_then(|m| m.remove("$defs")) else { return };
    expand(schema, &defs, &mut Vec::new());
}

fn expand(v: &mut Value, defs: &Map<String, Value>, stack: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            let Some(t) = m.get("$ref").and_then(Value::as_str).and_then(target).map(str::to_owned) else {
                m.values_mut().for_each(|c| expand(c, defs, stack));
                return;
            };
            m.remove("$ref");
            if stack.contains(&t) {
                let note = format!("(a {t}, as above)");
                let text = match m.get("description").and_then(Value::as_str) {
                    Some(d) if !d.is_empty() => format!("{d} {note}"),
                    _ => note,
                };
                m.insert("description".into(), Value::String(text));
                return;
            }
            if let Some(Value::Object(body)) = defs.get(&t) {
                for (k, v) in body {
                    // A sibling written beside the `$ref` (a description) wins.
                    m.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
            stack.push(t);
            m.values_mut().for_each(|c| expand(c, defs, stack));
            stack.pop();
        }
        Value::Array(items) => items.iter_mut().for_each(|c| expand(c, defs, stack)),
        _ => {}
    }
}

/// Keywords `profile` does not read, moved into the description as text, so that the model
/// still reads the constraint the runner holds the call to.
fn keywords_to_description(profile: Profile, node: &mut Map<String, Value>) {
    let moved: Vec<String> = node
        .iter()
        .filter(|(k, v)| movable(k, v) && !super::rules::reads(profile, k, Some(v)))
        .map(|(k, _)| k.clone())
        .collect();
    if moved.is_empty() {
        return;
    }
    let mut said = Vec::new();
    for k in moved {
        match node.remove(&k) {
            // An object closed is the runner's to hold: nothing for the model to read.
            Some(Value::Bool(false)) if k == "additionalProperties" => {}
            Some(v) => said.push(format!("{k}: {}", short(&v))),
            None => {}
        }
    }
    if said.is_empty() {
        return;
    }
    let text = said.join("; ");
    let description = match node.get("description").and_then(Value::as_str) {
        Some(d) if !d.is_empty() => format!("{d} ({text})"),
        _ => format!("({text})"),
    };
    node.insert("description".into(), Value::String(description));
}

/// Whether keyword `key` only constrains or annotates a value, so that saying it in words keeps
/// the model informed: structure (`allOf`, `not`, a map's value schema) never moves, and a
/// profile that cannot read it refuses the tool instead.
fn movable(key: &str, value: &Value) -> bool {
    match key {
        "additionalProperties" => value.is_boolean(),
        _ => CONSTRAINTS.contains(&key) || super::rules::BOUNDS.contains(&key),
    }
}

/// Beside the bounds, keywords that constrain or annotate a value without giving it structure.
const CONSTRAINTS: &[&str] = &[
    "format",
    "pattern",
    "minLength",
    "maxLength",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "default",
    "examples",
    "example",
    "const",
    "enum",
    "title",
    "deprecated",
    "readOnly",
    "writeOnly",
    "contentEncoding",
    "contentMediaType",
    "nullable",
];

/// A value as short text: a long one cut at a character boundary.
fn short(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(120) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

/// `$defs`/`$ref` spelled `defs`/`ref` (the Gemini SDK's `Schema` fields).
fn rename_defs(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if let Some(defs) = m.remove("$defs") {
                m.insert("defs".into(), defs);
            }
            if let Some(Value::String(r)) = m.remove("$ref") {
                m.insert("ref".into(), Value::String(r.replace("#/$defs/", "#/defs/")));
            }
            m.values_mut().for_each(rename_defs);
        }
        Value::Array(items) => items.iter_mut().for_each(rename_defs),
        _ => {}
    }
}
