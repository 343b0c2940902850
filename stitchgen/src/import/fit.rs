//! The rules a contract adds to JSON Schema that need the whole converted contract (its types
//! resolved): defaults that satisfy their schema, query fields and path parameters a URL can
//! carry. Each is checked with the checker's own predicates, so what passes here passes `check`.

use std::collections::BTreeSet;

use serde_json::{Map, Value as J, json};

use super::schemas::escape;
use super::{Lowerings, Pending};
use crate::naming;
use crate::parse::ast::{Entries, Schema, Sp};
use crate::parse::node::Node;
use crate::schema::{self, TYPES_PREFIX, Types};
use crate::source::{FileId, Span};

/// Converted schemas have no place in a source file; checks on them report at the source instead.
pub(super) const NOWHERE: Span = Span { file: FileId(0), lo: 0, hi: 0 };

/// Applies every pending rule to `doc` (`{types, endpoints}`), lowering what fails; returns
/// the actions of the endpoints lowered.
pub(super) fn fit(doc: &mut J, lowered: &mut Lowerings) -> BTreeSet<String> {
    let pending = std::mem::take(&mut lowered.pending);
    // A form's fields are judged once every other rule has declared or rewritten them, with
    // the types as those rules left them. The unions go before them and after the rest: a union
    // whose branches are kept once or rewritten moves the places the rest point into.
    let (forms, rest): (Vec<_>, Vec<_>) =
        pending.into_iter().partition(|(rule, ..)| matches!(rule, Pending::FormInput | Pending::OptionalBody));
    let (unions, rest): (Vec<_>, Vec<_>) = rest.into_iter().partition(|(rule, ..)| matches!(rule, Pending::OneOf));
    let mut touched = apply(doc, rest, lowered);
    touched.extend(apply(doc, unions, lowered));
    touched.extend(apply(doc, forms, lowered));
    touched
}

type Rules = Vec<(Pending, Span, String, String)>;

/// Applies `pending` to `doc`, the types read once before.
fn apply(doc: &mut J, pending: Rules, lowered: &mut Lowerings) -> BTreeSet<String> {
    let mut touched = BTreeSet::new();
    let entries = type_entries(doc);
    let types = Types::new(Some(&entries));
    for (rule, span, src, out) in pending {
        let before = lowered.count();
        let Some(at) = doc.pointer(&out) else { continue };
        let node = Node::from_json(at, NOWHERE);
        match rule {
            Pending::Default => {
                let Some(value) = at.get("default") else { continue };
                if let Some(why) = schema::first_violation(types, &node, value, "schema") {
                    if let Some(J::Object(map)) = doc.pointer_mut(&out) {
                        map.remove("default");
                    }
                    lowered.warn(span, &src, format!("a `default` that breaks its own schema is dropped: {why}"));
                }
            }
            // An object of scalars has a `form` serialization (its properties spread), which a
            // query does not read; for anything deeper OpenAPI defines none, and one JSON text is
            // what such APIs take (Box's `mdfilters`).
            Pending::QueryField if !schema::query_encodable(&node, types) => {
                if schema::deep_object_fault(&node, types).is_some() && json_param(doc, &out) {
                    let why = "a query parameter that is a list of objects or an object of them, whose `form` \
                               serialization OpenAPI leaves undefined, is sent as one JSON text (`style: json`)";
                    lowered.warn(span, &src, why.into());
                    continue;
                }
                replace_with_string(doc, &out);
                lowered.warn(
                    span,
                    &src,
                    "a query parameter that is not a scalar or a list of scalars is read as a string".into(),
                );
            }
            Pending::DeepObject => deep_object(doc, &out, &node, types, span, &src, lowered),
            Pending::PathParam if !schema::is_scalar(&node, types) => {
                replace_with_string(doc, &out);
                lowered.warn(span, &src, "a path parameter that is not a scalar is read as a string".into());
            }
            Pending::PlacedScalar if !schema::is_scalar(&node, types) => {
                replace_with_string(doc, &out);
                lowered.warn(
                    span,
                    &src,
                    "a header or cookie parameter that is not a scalar is read as a string".into(),
                );
            }
            Pending::Required => {
                let declared = declared_around(doc, &out, &node, types);
                let missing: Vec<String> = schema::required(&node)
                    .into_iter()
                    .filter(|r| !declared.iter().any(|d| d == r))
                    .map(str::to_owned)
                    .collect();
                // Declared, the name leaves `additionalProperties`: it keeps that schema.
                let extra = node.get("additionalProperties").filter(|a| a.as_map().is_some()).map(Node::to_json);
                let (value, what) = match extra {
                    Some(schema) => (schema, "the schema of its `additionalProperties`"),
                    None => (json!({}), "any value"),
                };
                for name in missing {
                    if let Some(J::Object(map)) = doc.pointer_mut(&out) {
                        let props = map.entry("properties").or_insert_with(|| json!({}));
                        props[name.as_str()] = value.clone();
                    }
                    let why = format!("`{name}` is required but declared nowhere: declared as {what}");
                    lowered.warn(span, &src, why);
                }
            }
            Pending::ParamNames => {
                let (Some(params), Some(input)) = (node.get("params"), node.get("input")) else { continue };
                let keys: Vec<String> = schema::all_properties(input, types)
                    .iter()
                    .filter_map(|(k, _)| k.as_str().map(str::to_owned))
                    .collect();
                let clashes: Vec<String> = schema::properties(params)
                    .iter()
                    .filter_map(|(k, _)| k.as_str())
                    .filter(|p| keys.iter().any(|k| k == p))
                    .map(str::to_owned)
                    .collect();
                for name in clashes {
                    let what = match doc.pointer(&format!("{out}/paramsIn/{}/in", escape(&name))).and_then(J::as_str) {
                        Some(place) => format!("{place} parameter"),
                        None => "path parameter".to_owned(),
                    };
                    let new = rename_param(doc, &out, &name, &keys);
                    let why = format!("{what} `{name}` is also an input key; the parameter is named `{new}`");
                    lowered.warn(span, &src, why);
                }
            }
            Pending::OneOf => one_of_once(doc, &out, &node, types, span, &src, lowered),
            Pending::FormInput => form_input(doc, &out, &node, types, span, &src, lowered),
            // Whatever its input requires: an absent body is the handler's `None`.
            Pending::OptionalBody if node.get("input").is_some() => {
                if let Some(J::Object(e)) = doc.pointer_mut(&out) {
                    e.insert("inputOptional".into(), J::Bool(true));
                }
            }
            Pending::QueryField | Pending::PathParam | Pending::PlacedScalar | Pending::OptionalBody => {}
        }
        if lowered.count() > before
            && let Some(action) = out.strip_prefix("/endpoints/").and_then(|e| e.split('/').next())
        {
            touched.insert(action.replace("~1", "/").replace("~0", "~"));
        }
    }
    touched
}

/// The property names the schema at `out` declares, with those of every composition it is a
/// part of (an `allOf` part may require what a sibling declares), as check reads them.
fn declared_around(doc: &J, out: &str, node: &Node, types: Types<'_>) -> Vec<String> {
    let names = |n: &Node| -> Vec<String> {
        schema::all_properties(n, types).iter().filter_map(|(k, _)| k.as_str().map(str::to_owned)).collect()
    };
    let mut declared = names(node);
    let mut at = out;
    while let Some((parent, _index)) = at.rsplit_once('/')
        && let Some((composition, kw)) = parent.rsplit_once('/')
        && matches!(kw, "allOf" | "anyOf" | "oneOf")
    {
        if let Some(p) = doc.pointer(composition) {
            declared.extend(names(&Node::from_json(p, NOWHERE)));
        }
        at = composition;
    }
    declared
}

/// A `oneOf` branch that is the same schema as an earlier one (references followed, as check
/// compares them) is kept once: under "exactly one", a value matching both would match neither,
/// so the published schema refuses the very values it lists there. Branches that are still
/// told apart by nothing (see [`within`]) make the union an `anyOf`, for the same reason.
fn one_of_once(doc: &mut J, out: &str, node: &Node, types: Types<'_>, span: Span, src: &str, lowered: &mut Lowerings) {
    let Some(branches) = node.get("oneOf").and_then(Node::as_seq) else { return };
    let resolved: Vec<J> = branches.iter().map(|b| types.resolve(b).to_json()).collect();
    let repeats: Vec<(usize, usize)> = (0..resolved.len())
        .filter_map(|i| resolved[..i].iter().position(|a| *a == resolved[i]).map(|first| (i, first)))
        .collect();
    if !repeats.is_empty()
        && let Some(J::Array(list)) = doc.pointer_mut(&format!("{out}/oneOf"))
    {
        let mut i = 0;
        list.retain(|_| {
            i += 1;
            !repeats.iter().any(|(r, _)| *r == i - 1)
        });
    }
    for &(i, first) in &repeats {
        let why = format!(
            "`oneOf` branch {} is the same schema as branch {}: kept once (no value matches exactly one of two same branches)",
            i + 1,
            first + 1
        );
        lowered.warn(span, src, why);
    }
    let kept = |i: &usize| !repeats.iter().any(|(r, _)| r == i);
    let pairs: Vec<(usize, usize)> = (0..resolved.len())
        .filter(kept)
        .flat_map(|i| (0..resolved.len()).filter(kept).filter(move |&j| j != i).map(move |j| (i, j)))
        .filter(|&(i, j)| within(&resolved[i], &resolved[j]))
        .collect();
    let Some(&(i, j)) = pairs.first() else { return };
    if let Some(J::Object(map)) = doc.pointer_mut(out)
        && let Some(list) = map.remove("oneOf")
    {
        map.insert("anyOf".into(), list);
    }
    let why = if pairs.contains(&(j, i)) {
        format!(
            "`oneOf` branches {} and {} are told apart by nothing: open objects requiring the same properties, \
             the properties both declare the same, so every value of either matches the other, which `oneOf` \
             refuses; read as `anyOf`",
            i.min(j) + 1,
            i.max(j) + 1
        )
    } else {
        format!(
            "`oneOf` branch {a} is told apart from branch {b} by nothing: open objects, branch {b} requiring \
             nothing branch {a} does not and the properties both declare the same, so every value of branch {a} \
             matches branch {b} too, which `oneOf` refuses; read as `anyOf`",
            a = i + 1,
            b = j + 1
        )
    };
    lowered.warn(span, src, why);
}

/// What a schema says of its values without constraining them.
const ANNOTATIONS: &[&str] = &["description", "title", "examples", "deprecated", "readOnly", "writeOnly", "default"];

/// Whether every value of branch `a` made of the properties it declares matches branch `b` too:
/// both are open objects with no constraint but their properties, `b` requires nothing `a` does
/// not, and each property both declare is the same schema, annotations aside (Mastodon's `Quote`
/// and `ShallowQuote`, each requiring only the same `state`). Such a value matches both.
fn within(a: &J, b: &J) -> bool {
    let plain = |s: &J| {
        s.get("type") == Some(&J::String("object".into()))
            && s.as_object().is_some_and(|m| {
                m.iter().all(|(k, v)| {
                    matches!(k.as_str(), "type" | "properties" | "required")
                        || (k == "additionalProperties" && *v == J::Bool(true))
                        || ANNOTATIONS.contains(&k.as_str())
                })
            })
    };
    if !plain(a) || !plain(b) {
        return false;
    }
    let required = |s: &J| s.get("required").and_then(J::as_array).map_or(&[][..], Vec::as_slice).to_vec();
    let ra = required(a);
    if !required(b).iter().all(|r| ra.contains(r)) {
        return false;
    }
    let (Some(pa), pb) = (a.get("properties").and_then(J::as_object), b.get("properties").and_then(J::as_object))
    else {
        return true;
    };
    pa.iter().all(|(name, sa)| pb.and_then(|pb| pb.get(name)).is_none_or(|sb| same_constraints(sa, sb)))
}

/// Whether two schemas are the same, annotations aside.
fn same_constraints(x: &J, y: &J) -> bool {
    fn constraints(s: &Map<String, J>) -> impl Iterator<Item = (&String, &J)> {
        s.iter().filter(|(k, _)| !ANNOTATIONS.contains(&k.as_str()))
    }
    match (x.as_object(), y.as_object()) {
        (Some(x), Some(y)) => constraints(x).eq(constraints(y)),
        _ => x == y,
    }
}

/// The roles whose schema becomes a type named `{Action}{Role}` when it is not a bare `$ref`,
/// with the endpoint key that holds it. (The generator would rename the operation's types
/// instead, W0006; renaming the shared type keeps the operation's types named after it.)
const ROLES: &[(&str, &str)] = &[("params", "Params"), ("input", "Input"), ("output", "Output"), ("stream", "Item")];

/// A shared type whose name is a type generated for an operation (`ListPetsOutput` beside a
/// `list_pets` whose output is inline) is renamed, every reference with it.
pub(super) fn rename_generated_names(doc: &mut J, origins: &[(String, Span, String)], lowered: &mut Lowerings) {
    let mut generated = BTreeSet::new();
    for (action, e) in doc.get("endpoints").and_then(J::as_object).into_iter().flatten() {
        let Some(base) = naming::type_ident(action) else { continue };
        for (key, role) in ROLES {
            let schema = if *key == "stream" { e.get(key).and_then(|s| s.get("item")) } else { e.get(key) };
            let bare_ref = schema.and_then(J::as_object).is_some_and(|m| m.len() == 1 && m.contains_key("$ref"));
            if schema.is_some() && !bare_ref {
                generated.insert(format!("{base}{role}"));
            }
        }
    }
    let mut taken: BTreeSet<String> = origins.iter().filter_map(|(n, _, _)| naming::type_ident(n)).collect();
    taken.extend(generated.iter().cloned());
    for (name, span, src) in origins {
        if !naming::type_ident(name).is_some_and(|i| generated.contains(&i)) {
            continue;
        }
        let mut n = 2;
        let new = loop {
            let candidate = format!("{name}Type{}", if n == 2 { String::new() } else { n.to_string() });
            match naming::type_ident(&candidate) {
                Some(ident) if !taken.contains(&ident) => {
                    taken.insert(ident);
                    break candidate;
                }
                _ => n += 1,
            }
        };
        rename_type(doc, name, &new);
        let why = format!("type `{name}` is the name of a type generated for an operation; it is named `{new}`");
        lowered.warn(*span, src, why);
    }
}

/// Renames type `old` to `new` under `types` (keeping its place) and in every `$ref`.
fn rename_type(doc: &mut J, old: &str, new: &str) {
    if let Some(J::Object(types)) = doc.get_mut("types") {
        *types =
            std::mem::take(types).into_iter().map(|(k, v)| (if k == old { new.to_owned() } else { k }, v)).collect();
    }
    let (from, to) = (format!("{TYPES_PREFIX}{old}"), J::String(format!("{TYPES_PREFIX}{new}")));
    fn walk(v: &mut J, from: &str, to: &J) {
        match v {
            J::Object(map) => {
                for (k, v) in map.iter_mut() {
                    if k == "$ref" && v.as_str() == Some(from) {
                        *v = to.clone();
                    } else {
                        walk(v, from, to);
                    }
                }
            }
            J::Array(items) => items.iter_mut().for_each(|i| walk(i, from, to)),
            _ => {}
        }
    }
    walk(doc, &from, &to);
}

/// The converted types as the checker reads them.
pub(super) fn type_entries(doc: &J) -> Entries<Schema> {
    let types = doc.get("types").and_then(J::as_object).into_iter().flatten();
    let sp = |s: &str| Sp { value: s.to_owned(), span: NOWHERE };
    Entries(types.map(|(k, v)| (sp(k), Schema(Node::from_json(v, NOWHERE), NOWHERE))).collect())
}

/// The form body of the endpoint at `out`: a field of its own inline schema that text cannot
/// carry is read as a string; an input that is no object, or whose such field is a shared
/// type's (rewriting it would change every other use), is not read as a form at all.
fn form_input(doc: &mut J, out: &str, node: &Node, types: Types<'_>, span: Span, src: &str, lowered: &mut Lowerings) {
    let Some(input) = node.get("input") else { return };
    // A shared plain object read as a form is copied in, so that its fields can be rewritten
    // for the form alone.
    let plain =
        |n: &Node| n.get("properties").is_some() && !["allOf", "anyOf", "oneOf"].iter().any(|k| n.get(k).is_some());
    if input.get("$ref").is_some() && plain(types.resolve(input)) {
        let copied = types.resolve(input).to_json();
        let bad = schema::all_properties(input, types).iter().any(|(_, v)| !schema::query_encodable(v, types));
        if bad && let Some(J::Object(e)) = doc.pointer_mut(out) {
            e.insert("input".into(), copied.clone());
            let node = Node::from_json(&J::Object(e.clone()), NOWHERE);
            return form_input(doc, out, &node, types, span, src, lowered);
        }
    }
    let fields = schema::all_properties(input, types);
    let own = schema::properties(input);
    let bad: Vec<String> = fields
        .iter()
        .filter(|(_, v)| !schema::query_encodable(v, types))
        .filter_map(|(k, _)| k.as_str().map(str::to_owned))
        .collect();
    let extra = types.resolve(input).get("additionalProperties").filter(|a| a.as_bool().is_none());
    let readable = schema::is_object(input, types)
        && extra.is_none_or(|a| schema::query_encodable(a, types))
        && bad.iter().all(|b| own.iter().any(|(k, _)| k.as_str() == Some(b)));
    if !readable {
        if let Some(J::Object(e)) = doc.pointer_mut(out) {
            e.remove("input");
            e.remove("inputContentType");
            e.remove("inputOptional");
        }
        lowered.warn(span, src, "a form body whose fields text cannot carry is not read".into());
        return;
    }
    for name in bad {
        replace_with_string(doc, &format!("{out}/input/properties/{}", escape(&name)));
        lowered.warn(span, src, format!("form field `{name}` is not a scalar or a list of scalars: read as a string"));
    }
}

/// Renames path parameter `name` of the endpoint at `out` (path, `params`) to a name no input
/// key or other parameter has; returns the new name. The name is not on the wire.
fn rename_param(doc: &mut J, out: &str, name: &str, keys: &[String]) -> String {
    let Some(J::Object(e)) = doc.pointer_mut(out) else { return name.to_owned() };
    let taken = |n: &str, e: &serde_json::Map<String, J>| {
        keys.iter().any(|k| k == n)
            || e.get("params").and_then(|p| p.get("properties")).is_some_and(|p| p.get(n).is_some())
    };
    let mut new = format!("{name}_param");
    let mut n = 2;
    while taken(&new, e) {
        new = format!("{name}_param{n}");
        n += 1;
    }
    if let Some(J::String(path)) = e.get_mut("path") {
        let segs: Vec<String> =
            path.split('/').map(|s| if s == format!(":{name}") { format!(":{new}") } else { s.to_owned() }).collect();
        *path = segs.join("/");
    }
    if let Some(J::Object(places)) = e.get_mut("paramsIn") {
        // Its key changes; its name on the wire stays.
        *places = std::mem::take(places)
            .into_iter()
            .map(|(k, mut v)| {
                if k == name {
                    v.as_object_mut().map(|m| m.entry("name").or_insert_with(|| J::String(k.clone())));
                    (new.clone(), v)
                } else {
                    (k, v)
                }
            })
            .collect();
    }
    if let Some(J::Object(params)) = e.get_mut("params") {
        if let Some(J::Object(props)) = params.get_mut("properties") {
            // Keep the order: the renamed parameter stays where it was.
            *props =
                std::mem::take(props).into_iter().map(|(k, v)| (if k == name { new.clone() } else { k }, v)).collect();
        }
        if let Some(J::Array(required)) = params.get_mut("required") {
            for r in required.iter_mut().filter(|r| r.as_str() == Some(name)) {
                *r = J::String(new.clone());
            }
        }
    }
    new
}

/// The schema at `out` becomes a string, keeping its description.
/// The `deepObject` parameter whose schema is at `out` (`…/params/properties/KEY`): a value
/// text pairs carry as they are (a scalar, a list) loses the style, which OpenAPI leaves
/// undefined for them; any other that is not an object of such fields is read as a string.
fn deep_object(doc: &mut J, out: &str, node: &Node, types: Types<'_>, span: Span, src: &str, lowered: &mut Lowerings) {
    let Some(fault) = schema::deep_object_fault(node, types) else { return };
    if let Some((endpoint, key)) = out.rsplit_once("/params/properties/")
        && let Some(J::Object(entry)) = doc.pointer_mut(&format!("{endpoint}/paramsIn/{key}"))
    {
        entry.remove("style");
    }
    if !schema::query_encodable(node, types) {
        replace_with_string(doc, out);
        lowered.warn(
            span,
            src,
            format!("a deepObject query parameter that text pairs cannot carry ({fault}) is read as a string"),
        );
    }
}

/// Makes the query field at `out` a parameter placed `style: json`: a placed one
/// (`…/params/properties/KEY`) gains the style; an input field of a method that reads its input
/// from the query (`…/input/properties/KEY`) moves to `params`, placed so, under its name.
/// `false` where `out` is neither.
fn json_param(doc: &mut J, out: &str) -> bool {
    if let Some((endpoint, key)) = out.rsplit_once("/params/properties/") {
        let Some(J::Object(entry)) = doc.pointer_mut(&format!("{endpoint}/paramsIn/{key}")) else { return false };
        entry.insert("style".into(), json!("json"));
        return true;
    }
    let Some((endpoint, key)) = out.rsplit_once("/input/properties/") else { return false };
    let name = key.replace("~1", "/").replace("~0", "~");
    let Some(J::Object(e)) = doc.pointer_mut(endpoint) else { return false };
    let Some(J::Object(input)) = e.get_mut("input") else { return false };
    let Some(schema) = input.get_mut("properties").and_then(J::as_object_mut).and_then(|p| p.remove(&name)) else {
        return false;
    };
    let required = match input.get_mut("required") {
        Some(J::Array(names)) => {
            let before = names.len();
            names.retain(|n| n != name.as_str());
            names.len() < before
        }
        _ => false,
    };
    if input.get("required").and_then(J::as_array).is_some_and(Vec::is_empty) {
        input.remove("required");
    }
    let params = e.entry("params").or_insert_with(|| json!({ "type": "object", "properties": {} }));
    params["properties"][name.as_str()] = schema;
    if required {
        let names = params.as_object_mut().map(|p| p.entry("required").or_insert_with(|| json!([])));
        if let Some(J::Array(names)) = names {
            names.push(J::String(name.clone()));
        }
    }
    let places = e.entry("paramsIn").or_insert_with(|| json!({}));
    places[name.as_str()] = json!({ "in": "query", "style": "json" });
    true
}

fn replace_with_string(doc: &mut J, out: &str) {
    let Some(at) = doc.pointer_mut(out) else { return };
    let mut string = json!({ "type": "string" });
    if let Some(d) = at.get("description") {
        string["description"] = d.clone();
    }
    *at = string;
}

/// Removes the shared types no endpoint reaches, directly or through other types (the rule of
/// `check`'s W0001: [`schema::reachable`]); returns their names in document order.
/// A description's components are a library; the contract keeps only what its endpoints use.
pub(super) fn drop_unused(doc: &mut J) -> Vec<String> {
    let refs = |v: &J| schema::refs_in(&Node::from_json(v, NOWHERE));
    let roots = doc.get("endpoints").map(refs).unwrap_or_default();
    let Some(J::Object(types)) = doc.get_mut("types") else { return Vec::new() };
    let reached = schema::reachable(roots, |name| types.get(name).map(refs));
    let dropped: Vec<String> = types.keys().filter(|n| !reached.contains(*n)).cloned().collect();
    types.retain(|name, _| reached.contains(name));
    dropped
}
