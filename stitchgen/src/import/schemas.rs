//! OpenAPI schemas → contract schemas: references become `#/types/NAME`, 3.0 forms their 3.1
//! spellings, and what the DSL does not read is dropped with a warning at its source.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value as J, json};

use super::Lowerings;
use super::load::{Docs, Loc};
use crate::naming;
use crate::parse::node::{Node, Value};
use crate::schema::{SUPPORTED, TYPE_NAMES, TYPES_PREFIX};

/// Keywords whose value is one schema.
const ONE_SCHEMA: &[&str] = &["items", "additionalProperties"];
/// Keywords whose value is a list of schemas.
const SCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf"];

/// The shared types found so far, named, in the order first met, and their converted bodies.
pub(super) struct Schemas<'d> {
    docs: &'d Docs,
    /// Whether the entry document is OpenAPI 3.1 (3.0 keywords in it are then warned about).
    is_31: bool,
    names: BTreeMap<Loc, String>,
    order: Vec<Loc>,
    taken: BTreeSet<String>,
    bodies: BTreeMap<String, J>,
}

impl<'d> Schemas<'d> {
    /// An empty set of types over `docs`; the entry's `components.schemas` are named first, in
    /// document order, so they keep their names.
    pub(super) fn new(docs: &'d Docs, is_31: bool) -> Self {
        let mut s = Schemas {
            docs,
            is_31,
            names: BTreeMap::new(),
            order: Vec::new(),
            taken: BTreeSet::new(),
            bodies: BTreeMap::new(),
        };
        let components = docs.docs[0].root.get("components").and_then(|c| c.get("schemas"));
        for (k, _) in components.and_then(Node::as_map).unwrap_or_default() {
            let name = k.as_str().unwrap_or_default();
            s.name(Loc { doc: 0, pointer: format!("/components/schemas/{}", escape(name)) }, name);
        }
        s
    }

    /// Names the type at `loc` (once), preferring `wanted` as written when it is a plain name.
    fn name(&mut self, loc: Loc, wanted: &str) -> String {
        if let Some(name) = self.names.get(&loc) {
            return name.clone();
        }
        let plain = wanted.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        let base = match naming::type_ident(wanted) {
            Some(_) if plain => wanted.to_owned(),
            Some(ident) => ident,
            None => format!("T{}", naming::type_ident(&format!("t {wanted}")).unwrap_or_default()),
        };
        let mut name = base.clone();
        let mut n = 2;
        while self.taken.contains(&naming::type_ident(&name).unwrap_or_default()) {
            name = format!("{base}{n}");
            n += 1;
        }
        self.taken.insert(naming::type_ident(&name).unwrap_or_default());
        self.names.insert(loc.clone(), name.clone());
        self.order.push(loc);
        name
    }

    /// Converts the body of every type named so far (and of those they name in turn), then
    /// returns them in the order they were first met.
    pub(super) fn finish(mut self, lowered: &mut Lowerings) -> Vec<(String, J)> {
        let mut next = 0;
        while next < self.order.len() {
            let loc = self.order[next].clone();
            let name = self.names[&loc].clone();
            let body = match self.docs.node(&loc) {
                Some(node) => self.schema(loc.doc, node, &loc.pointer, lowered),
                None => J::Object(Map::new()),
            };
            self.bodies.insert(name, body);
            next += 1;
        }
        let mut bodies = std::mem::take(&mut self.bodies);
        self.order
            .iter()
            .map(|l| {
                let name = self.names[l].clone();
                let body = bodies.remove(&name).unwrap_or_default();
                (name, body)
            })
            .collect()
    }

    /// The contract form of the schema `node`, found at `pointer` in document `doc`.
    pub(super) fn schema(&mut self, doc: usize, node: &Node, pointer: &str, lowered: &mut Lowerings) -> J {
        let entries = match &node.value {
            Value::Map(entries) => entries,
            Value::Bool(true) => return json!({}),
            _ => {
                lowered.warn(node.span, pointer, format!("a schema that is {}, read as any value", node.kind()));
                return json!({});
            }
        };
        let mut out = Map::new();
        let mut nullable = false;
        // 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum`, applied once `minimum`/`maximum` is read.
        let mut exclusive = (false, false);
        for (k, v) in entries {
            let key = k.as_str().unwrap_or_default();
            let at = format!("{pointer}/{}", escape(key));
            match key {
                "$ref" => {
                    let target = v.as_str().and_then(|r| self.docs.follow(doc, r));
                    match target {
                        Some(loc) => {
                            let name = self.type_for(loc);
                            out.insert(key.into(), J::String(format!("{TYPES_PREFIX}{name}")));
                        }
                        None => lowered.warn(k.span, &at, "a `$ref` that is not a string, dropped".into()),
                    }
                }
                "properties" => {
                    let mut props = Map::new();
                    for (pk, pv) in v.as_map().unwrap_or_default() {
                        let pname = pk.as_str().unwrap_or_default();
                        let child = format!("{at}/{}", escape(pname));
                        props.insert(pname.to_owned(), self.schema(doc, pv, &child, lowered));
                    }
                    out.insert(key.into(), J::Object(props));
                }
                _ if ONE_SCHEMA.contains(&key) => {
                    let value = match v.value {
                        Value::Bool(b) if key == "additionalProperties" => J::Bool(b),
                        _ => self.schema(doc, v, &at, lowered),
                    };
                    out.insert(key.into(), value);
                }
                _ if SCHEMA_LISTS.contains(&key) => {
                    let items = v.as_seq().unwrap_or_default();
                    let list = items
                        .iter()
                        .enumerate()
                        .map(|(i, s)| self.schema(doc, s, &format!("{at}/{i}"), lowered))
                        .collect();
                    out.insert(key.into(), J::Array(list));
                }
                "nullable" => {
                    nullable = v.as_bool() == Some(true);
                    if self.is_31 {
                        lowered.warn(
                            k.span,
                            &at,
                            "`nullable` is OpenAPI 3.0; read as a type array with \"null\"".into(),
                        );
                    }
                }
                "exclusiveMinimum" | "exclusiveMaximum" if v.as_bool().is_some() => {
                    if self.is_31 {
                        lowered.warn(
                            k.span,
                            &at,
                            format!("a boolean `{key}` is OpenAPI 3.0; read as its 3.1 number form"),
                        );
                    }
                    let on = v.as_bool() == Some(true);
                    if key == "exclusiveMinimum" { exclusive.0 = on } else { exclusive.1 = on }
                }
                "example" => {
                    out.entry("examples").or_insert_with(|| json!([v.to_json()]));
                }
                "type" => match type_value(v) {
                    Some(t) => {
                        out.insert(key.into(), t);
                    }
                    None => {
                        lowered.warn(k.span, &at, format!("`type: {}` is not a JSON Schema type, dropped", v.to_json()))
                    }
                },
                _ if key.starts_with("x-") => lowered.extension(),
                _ if SUPPORTED.contains(&key) => {
                    out.insert(key.into(), v.to_json());
                }
                _ => lowered.warn(k.span, &at, dropped_keyword(key)),
            }
        }
        exclusive_bounds(&mut out, exclusive);
        let out = J::Object(out);
        if nullable { with_null(out) } else { out }
    }

    /// The type name for a reference target: a schema under `components/schemas` keeps its
    /// name; any other target is named after its last pointer segment or its file.
    fn type_for(&mut self, loc: Loc) -> String {
        if let Some(name) = self.names.get(&loc) {
            return name.clone();
        }
        let last = loc.pointer.rsplit('/').next().filter(|s| !s.is_empty()).map(unescape);
        let wanted = last.unwrap_or_else(|| {
            let path = &self.docs.docs[loc.doc].path;
            path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
        });
        // Not a name the document gave a schema: made a type name (`book.yaml` → `Book`).
        let wanted = naming::type_ident(&wanted).unwrap_or(wanted);
        self.name(loc, &wanted)
    }
}

/// A `type` value the DSL reads: a type name, or a list of them.
fn type_value(v: &Node) -> Option<J> {
    match &v.value {
        Value::String(s) if TYPE_NAMES.contains(&s.as_str()) => Some(J::String(s.clone())),
        Value::Seq(items) if items.iter().all(|i| i.as_str().is_some_and(|s| TYPE_NAMES.contains(&s))) => {
            Some(v.to_json())
        }
        _ => None,
    }
}

/// 3.0's `minimum: 5, exclusiveMinimum: true` is 3.1's `exclusiveMinimum: 5`.
fn exclusive_bounds(out: &mut Map<String, J>, (min, max): (bool, bool)) {
    for (on, bound, exclusive) in [(min, "minimum", "exclusiveMinimum"), (max, "maximum", "exclusiveMaximum")] {
        if let Some(value) = on.then(|| out.remove(bound)).flatten() {
            out.insert(exclusive.into(), value);
        }
    }
}

/// 3.0's `nullable: true`: `null` joins the type (and the enum); a schema without a type
/// becomes `anyOf` of itself and `null`.
fn with_null(schema: J) -> J {
    let J::Object(mut map) = schema else { return schema };
    let null = J::String("null".into());
    let typed = match map.get_mut("type") {
        Some(J::String(t)) => {
            let t = J::String(std::mem::take(t));
            map.insert("type".into(), J::Array(vec![t, null.clone()]));
            true
        }
        Some(J::Array(types)) => {
            if !types.contains(&null) {
                types.push(null.clone());
            }
            true
        }
        _ => false,
    };
    if !typed {
        return json!({ "anyOf": [J::Object(map), { "type": "null" }] });
    }
    if let Some(J::Array(values)) = map.get_mut("enum")
        && !values.contains(&J::Null)
    {
        values.push(J::Null);
    }
    J::Object(map)
}

/// Why a keyword is dropped, as the warning says it.
fn dropped_keyword(key: &str) -> String {
    let why = match key {
        "readOnly" | "writeOnly" => "the contract has one schema for requests and answers",
        "discriminator" => "`oneOf` branches are told apart by their own schemas",
        "xml" => "the contract speaks JSON only",
        "externalDocs" | "$comment" => "it documents and never constrains",
        "not"
        | "if"
        | "then"
        | "else"
        | "prefixItems"
        | "patternProperties"
        | "propertyNames"
        | "contains"
        | "minContains"
        | "maxContains"
        | "dependentRequired"
        | "dependentSchemas"
        | "dependencies"
        | "unevaluatedProperties"
        | "unevaluatedItems"
        | "minProperties"
        | "maxProperties" => "the DSL does not support it yet, so the schema accepts more than the document says",
        "$defs" | "definitions" => "shared schemas are the contract's `types`; those referred to are imported there",
        "contentEncoding" | "contentMediaType" | "contentSchema" => {
            "the contract speaks JSON; the value stays a string"
        }
        "$schema" | "$id" | "$anchor" | "$dynamicAnchor" | "$dynamicRef" | "$vocabulary" => {
            "contract schemas are JSON Schema 2020-12, identified by their type name"
        }
        _ => "it is not a JSON Schema keyword the DSL reads",
    };
    format!("`{key}` dropped: {why}")
}

/// A JSON pointer token for `s` (RFC 6901).
pub(super) fn escape(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

/// The text a JSON pointer token stands for.
fn unescape(s: &str) -> String {
    s.replace("~1", "/").replace("~0", "~")
}
