//! `readOnly` and `writeOnly`: one declared schema, two sides. What a request carries (an
//! `input`, a tool's arguments) leaves out the read-only properties; what an answer carries (an
//! `output`, a tool view, a stream's items) leaves out the write-only ones. A shared type keeps
//! its name for its answer side; where its request side differs, that side is a type of its own,
//! `NAMEInput`, which request schemas refer to instead.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::Operation;
use crate::schema::TYPES_PREFIX;

/// Which side of the wire a schema describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    /// Requests: read-only properties are left out.
    Request,
    /// Answers: write-only properties are left out.
    Answer,
}

impl Side {
    /// The mark of the properties this side leaves out.
    fn hides(self) -> &'static str {
        match self {
            Side::Request => "readOnly",
            Side::Answer => "writeOnly",
        }
    }
}

/// Splits each schema into its sides: the shared types become their answer sides, request
/// sides that differ are added after the type they come from, and every operation's schemas are
/// rewritten to the side they describe. A contract without either mark is left as it is.
pub(super) fn split(types: &mut indexmap::IndexMap<String, Value>, operations: &mut [Operation]) {
    let marked = |v: &Value| marks(v, "readOnly") || marks(v, "writeOnly");
    if !types.values().any(&marked) && !operations.iter_mut().any(|o| sides_mut(o).any(|(_, v)| marked(v))) {
        return;
    }
    let differs = differing(types);
    let input_names = input_names(types, &differs);
    let original = types.clone();
    let cx = Cx { types: &original, input_names: &input_names };
    for op in operations.iter_mut() {
        for (side, schema) in sides_mut(op) {
            *schema = cx.side(schema, side);
        }
    }
    // The request sides that requests reach, each type's after it, in declaration order.
    let source_of: BTreeMap<&String, &String> = input_names.iter().map(|(s, n)| (n, s)).collect();
    let mut reached = BTreeSet::new();
    let mut pending: Vec<String> = operations.iter_mut().flat_map(request_refs).collect();
    while let Some(name) = pending.pop() {
        if let Some(source) = source_of.get(&name)
            && reached.insert((*source).clone())
        {
            pending.extend(super::graph::refs_of(&cx.side(&original[source.as_str()], Side::Request)));
        }
    }
    for (name, schema) in types.iter_mut() {
        *schema = cx.side(&original[name], Side::Answer);
    }
    for source in original.keys().rev().filter(|s| reached.contains(*s)) {
        let at = types.get_index_of(source).map_or(types.len(), |i| i + 1);
        types.shift_insert(at, input_names[source].clone(), cx.side(&original[source], Side::Request));
    }
}

/// The references of an operation's request schemas.
fn request_refs(op: &mut Operation) -> Vec<String> {
    sides_mut(op).filter(|(s, _)| *s == Side::Request).flat_map(|(_, v)| super::graph::refs_of(v)).collect()
}

/// An operation's schemas with the side each describes.
fn sides_mut(op: &mut Operation) -> impl Iterator<Item = (Side, &mut Value)> {
    let stream = op.http_kind.stream.as_mut();
    let (item, terminal) = match stream {
        Some(s) => (Some(&mut s.item), s.terminal.as_mut()),
        None => (None, None),
    };
    let answers = [op.output.as_mut(), op.view.as_mut().and_then(|v| v.output.as_mut()), item, terminal];
    let errors = op.http.iter_mut().flat_map(|h| &mut h.error_answers).filter_map(|a| a.body.as_mut());
    let successes = op.successes.iter_mut().filter_map(|a| a.body.as_mut());
    let answers = answers.into_iter().flatten().chain(errors).chain(successes);
    op.input.iter_mut().map(|v| (Side::Request, v)).chain(answers.map(|v| (Side::Answer, v)))
}

/// The types whose request side differs from their answer side: those with a marked property
/// of their own, and those that refer to one of them.
fn differing(types: &indexmap::IndexMap<String, Value>) -> BTreeSet<String> {
    let mut out: BTreeSet<String> =
        types.iter().filter(|(_, v)| marks(v, "readOnly") || marks(v, "writeOnly")).map(|(k, _)| k.clone()).collect();
    let refs: BTreeMap<&String, BTreeSet<String>> = types.iter().map(|(k, v)| (k, super::graph::refs_of(v))).collect();
    loop {
        let more: Vec<String> = refs
            .iter()
            .filter(|(k, r)| !out.contains(**k) && r.iter().any(|t| out.contains(t)))
            .map(|(k, _)| (*k).clone())
            .collect();
        if more.is_empty() {
            return out;
        }
        out.extend(more);
    }
}

/// The name of each differing type's request side: `NAMEInput`, numbered past any name the
/// contract declares or another request side took.
fn input_names(types: &indexmap::IndexMap<String, Value>, differs: &BTreeSet<String>) -> BTreeMap<String, String> {
    let mut taken: BTreeSet<String> = types.keys().cloned().collect();
    let mut out = BTreeMap::new();
    for name in types.keys().filter(|k| differs.contains(*k)) {
        let base = format!("{name}Input");
        let unique = std::iter::once(base.clone())
            .chain((2..).map(|n| format!("{base}{n}")))
            .find(|c| !taken.contains(c))
            .unwrap_or(base);
        taken.insert(unique.clone());
        out.insert(name.clone(), unique);
    }
    out
}

/// Whether a schema declares, anywhere in it (references not followed), a property marked `key`.
fn marks(v: &Value, key: &str) -> bool {
    let Some(m) = v.as_object() else { return false };
    let own = m
        .get("properties")
        .and_then(Value::as_object)
        .is_some_and(|props| props.values().any(|p| p.get(key).and_then(Value::as_bool) == Some(true)));
    own || subschemas(m).any(|s| marks(s, key))
}

/// The schemas directly inside a schema.
fn subschemas(m: &Map<String, Value>) -> impl Iterator<Item = &Value> {
    let props = m.get("properties").and_then(Value::as_object).into_iter().flat_map(|p| p.values());
    let one = ["items", "additionalProperties"].into_iter().filter_map(|k| m.get(k));
    let lists = ["allOf", "anyOf", "oneOf"].into_iter().filter_map(|k| m.get(k)?.as_array()).flatten();
    props.chain(one).chain(lists)
}

/// What rewriting a schema to one side reads.
struct Cx<'a> {
    /// The declared types, unsplit.
    types: &'a indexmap::IndexMap<String, Value>,
    /// The request side's name of each type whose sides differ.
    input_names: &'a BTreeMap<String, String>,
}

impl Cx<'_> {
    /// `schema` as `side` sees it.
    fn side(&self, schema: &Value, side: Side) -> Value {
        self.rewrite(schema, side, &BTreeSet::new())
    }

    /// `hidden`: the names the composition around this schema leaves out, which its `required`
    /// may list though the property is declared in another part.
    fn rewrite(&self, schema: &Value, side: Side, hidden: &BTreeSet<String>) -> Value {
        let Some(m) = schema.as_object() else { return schema.clone() };
        let mut hidden = hidden.clone();
        hidden.extend(self.hidden_names(schema, side, 8));
        let mut out = Map::new();
        for (k, v) in m {
            let v = match k.as_str() {
                "$ref" if side == Side::Request => match v.as_str().and_then(|r| r.strip_prefix(TYPES_PREFIX)) {
                    Some(name) if self.input_names.contains_key(name) => {
                        Value::String(format!("{TYPES_PREFIX}{}", self.input_names[name]))
                    }
                    _ => v.clone(),
                },
                "properties" => match v.as_object() {
                    Some(props) => Value::Object(
                        props
                            .iter()
                            .filter(|(_, p)| p.get(side.hides()).and_then(Value::as_bool) != Some(true))
                            .map(|(name, p)| (name.clone(), self.rewrite(p, side, &BTreeSet::new())))
                            .collect(),
                    ),
                    None => v.clone(),
                },
                "required" => match v.as_array() {
                    Some(names) => Value::Array(
                        names.iter().filter(|n| n.as_str().is_none_or(|n| !hidden.contains(n))).cloned().collect(),
                    ),
                    None => v.clone(),
                },
                "allOf" => self.each(v, side, &hidden),
                "anyOf" | "oneOf" => self.each(v, side, &BTreeSet::new()),
                "items" | "additionalProperties" => self.rewrite(v, side, &BTreeSet::new()),
                _ => v.clone(),
            };
            out.insert(k.clone(), v);
        }
        Value::Object(out)
    }

    fn each(&self, list: &Value, side: Side, hidden: &BTreeSet<String>) -> Value {
        match list.as_array() {
            Some(items) => Value::Array(items.iter().map(|b| self.rewrite(b, side, hidden)).collect()),
            None => list.clone(),
        }
    }

    /// The properties `side` leaves out of an object: its own and those of the `allOf` parts it
    /// is made of, references followed (`depth` bounds the composition read).
    fn hidden_names(&self, schema: &Value, side: Side, depth: usize) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let schema = match schema.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(TYPES_PREFIX)) {
            Some(name) => match self.types.get(name) {
                Some(target) => target,
                None => return out,
            },
            None => schema,
        };
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            let hidden = props.iter().filter(|(_, p)| p.get(side.hides()).and_then(Value::as_bool) == Some(true));
            out.extend(hidden.map(|(k, _)| k.clone()));
        }
        if depth > 0 {
            for part in schema.get("allOf").and_then(Value::as_array).into_iter().flatten() {
                out.extend(self.hidden_names(part, side, depth - 1));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn cx_side(types: &indexmap::IndexMap<String, Value>, schema: Value, side: Side) -> Value {
        let names = input_names(types, &differing(types));
        Cx { types, input_names: &names }.side(&schema, side)
    }

    #[test]
    fn each_side_leaves_out_its_marked_properties() {
        let pet = json!({
            "type": "object",
            "required": ["id", "name", "secret"],
            "properties": {
                "id": { "type": "string", "readOnly": true },
                "name": { "type": "string" },
                "secret": { "type": "string", "writeOnly": true }
            }
        });
        let types: indexmap::IndexMap<String, Value> = [("Pet".to_owned(), pet.clone())].into_iter().collect();
        let request = cx_side(&types, pet.clone(), Side::Request);
        assert_eq!(request["required"], json!(["name", "secret"]));
        assert!(request["properties"].get("id").is_none());
        let answer = cx_side(&types, pet, Side::Answer);
        assert_eq!(answer["required"], json!(["id", "name"]));
        assert!(answer["properties"].get("secret").is_none());
    }

    #[test]
    fn a_type_that_refers_to_a_marked_one_differs_too() {
        let types: indexmap::IndexMap<String, Value> = [
            ("Pet", json!({ "type": "object", "properties": { "id": { "type": "string", "readOnly": true } } })),
            ("Owner", json!({ "type": "object", "properties": { "pet": { "$ref": "#/types/Pet" } } })),
            ("Plain", json!({ "type": "string" })),
            ("PetInput", json!({ "type": "string" })),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect();
        let names = input_names(&types, &differing(&types));
        assert_eq!(names.get("Owner").map(String::as_str), Some("OwnerInput"));
        assert_eq!(names.get("Pet").map(String::as_str), Some("PetInput2"), "a declared name is not taken");
        assert!(!names.contains_key("Plain"));
    }

    #[test]
    fn a_required_name_of_a_composed_part_is_left_out_with_it() {
        let types: indexmap::IndexMap<String, Value> = [(
            "Base".to_owned(),
            json!({ "type": "object", "properties": { "id": { "type": "string", "readOnly": true } } }),
        )]
        .into_iter()
        .collect();
        let schema = json!({ "allOf": [{ "$ref": "#/types/Base" }, { "required": ["id", "name"] }] });
        let request = cx_side(&types, schema, Side::Request);
        assert_eq!(request, json!({ "allOf": [{ "$ref": "#/types/BaseInput" }, { "required": ["name"] }] }));
    }
}
