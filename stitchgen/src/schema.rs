//! Reading contract schemas: `$ref` resolution, the facts checks ask of a schema, JSON forms.

use std::collections::{BTreeMap, BTreeSet};

use crate::parse::ast::{Entries, Schema};
use crate::parse::node::{Node, Value};

/// The prefix of every reference a contract may make.
pub const TYPES_PREFIX: &str = "#/types/";

/// The keywords of DESIGN §3.5 that stitchgen supports.
pub const SUPPORTED: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "oneOf",
    "anyOf",
    "allOf",
    "$ref",
    "format",
    "default",
    "description",
    "title",
    "examples",
    "example",
    "deprecated",
    "readOnly",
    "writeOnly",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minLength",
    "maxLength",
    "pattern",
    "minItems",
    "maxItems",
    "uniqueItems",
];

/// Keywords refused until they are supported end to end, with why or what to write instead.
pub const REFUSED: &[(&str, &str)] = &[
    ("prefixItems", "tuples are not supported; use an object with named properties"),
    ("if", "conditional schemas are not supported; use `oneOf` discriminated by a `const` property"),
    ("then", "conditional schemas are not supported; use `oneOf` discriminated by a `const` property"),
    ("else", "conditional schemas are not supported; use `oneOf` discriminated by a `const` property"),
    ("dependentRequired", "dependencies between properties are not supported; use `oneOf` of objects"),
    ("dependentSchemas", "dependencies between properties are not supported; use `oneOf` of objects"),
    ("unevaluatedProperties", "use `additionalProperties` instead"),
    ("unevaluatedItems", "use `items` instead"),
    ("$dynamicRef", "refer to shared types with `$ref: \"#/types/NAME\"`"),
    ("$anchor", "refer to shared types with `$ref: \"#/types/NAME\"`"),
    ("not", "negated schemas are not supported; list what is allowed with `enum` or `oneOf`"),
    ("$defs", "declare shared schemas under the contract's `types:` and refer to them as `#/types/NAME`"),
    ("definitions", "declare shared schemas under the contract's `types:` and refer to them as `#/types/NAME`"),
    ("minProperties", "bounds on the number of properties are not supported; declare the properties"),
    ("maxProperties", "bounds on the number of properties are not supported; declare the properties"),
    ("patternProperties", "use `additionalProperties` with a schema for free-form keys"),
    ("propertyNames", "use `additionalProperties` with a schema for free-form keys"),
    ("contains", "use `items` to constrain every item"),
    ("minContains", "use `items` to constrain every item"),
    ("maxContains", "use `items` to constrain every item"),
    ("dependencies", "dependencies between properties are not supported; use `oneOf` of objects"),
    ("nullable", "this is OpenAPI 3.0; write `type: [T, \"null\"]`"),
    ("$comment", "write a YAML comment (`# …`) instead"),
    ("$id", "schemas are identified by their name under `types:`"),
    ("$schema", "contract schemas are always JSON Schema 2020-12"),
    ("$dynamicAnchor", "refer to shared types with `$ref: \"#/types/NAME\"`"),
    ("$vocabulary", "contract schemas are always JSON Schema 2020-12"),
    ("contentEncoding", "send binary data with a multipart upload"),
    ("contentMediaType", "send binary data with a multipart upload"),
    ("contentSchema", "send binary data with a multipart upload"),
];

/// Keywords that annotate and never constrain.
pub const ANNOTATIONS: &[&str] =
    &["description", "title", "default", "examples", "example", "deprecated", "readOnly", "writeOnly"];

/// Keywords that constrain one JSON type, and the types they need.
pub const TYPED_KEYWORDS: &[(&str, &[&str])] = &[
    ("minimum", &["integer", "number"]),
    ("maximum", &["integer", "number"]),
    ("exclusiveMinimum", &["integer", "number"]),
    ("exclusiveMaximum", &["integer", "number"]),
    ("multipleOf", &["integer", "number"]),
    ("minLength", &["string"]),
    ("maxLength", &["string"]),
    ("pattern", &["string"]),
    ("minItems", &["array"]),
    ("maxItems", &["array"]),
    ("uniqueItems", &["array"]),
    ("items", &["array"]),
];

/// The JSON Schema type names.
pub const TYPE_NAMES: &[&str] = &["string", "number", "integer", "boolean", "object", "array", "null"];

/// The shared `types` of one contract, for resolving references.
#[derive(Clone, Copy, Debug)]
pub struct Types<'a> {
    entries: Option<&'a Entries<Schema>>,
}

impl<'a> Types<'a> {
    /// The types of a contract (none when it declares none).
    pub fn new(entries: Option<&'a Entries<Schema>>) -> Self {
        Types { entries }
    }

    /// The schema declared as `name`.
    pub fn get(&self, name: &str) -> Option<&'a Node> {
        self.entries?.get(name).map(|s| &s.0)
    }

    /// Every declared type, in order.
    pub fn iter(&self) -> impl Iterator<Item = (&'a str, &'a Node)> {
        self.entries.into_iter().flat_map(|e| e.iter().map(|(k, v)| (k.value.as_str(), &v.0)))
    }

    /// Follows `$ref`s from `node` to a schema that is not a bare reference. Stops (returning the
    /// last node reached) at a reference that does not resolve or that loops.
    pub fn resolve(&self, mut node: &'a Node) -> &'a Node {
        for _ in 0..64 {
            match ref_name(node).and_then(|n| self.get(n)) {
                Some(target) => node = target,
                None => break,
            }
        }
        node
    }

    /// The schema as JSON, with `#/types/X` references rewritten to `#/$defs/X` and every type
    /// the schema reaches under `$defs`, so a standard validator can compile it on its own.
    pub fn to_standalone_json(&self, node: &Node) -> serde_json::Value {
        let mut root = rewrite_refs(node.to_json());
        let mut defs = serde_json::Map::new();
        let mut todo: Vec<String> = refs_in(node).into_iter().collect();
        while let Some(name) = todo.pop() {
            if defs.contains_key(&name) {
                continue;
            }
            let Some(target) = self.get(&name) else {
                continue;
            };
            todo.extend(refs_in(target));
            defs.insert(name, rewrite_refs(target.to_json()));
        }
        if let (serde_json::Value::Object(map), false) = (&mut root, defs.is_empty()) {
            map.insert("$defs".into(), serde_json::Value::Object(defs));
        } else if !defs.is_empty() {
            root = serde_json::json!({ "allOf": [root], "$defs": defs });
        }
        root
    }
}

/// The type name a `$ref: "#/types/NAME"` points to.
pub fn ref_name(node: &Node) -> Option<&str> {
    node.get("$ref")?.as_str()?.strip_prefix(TYPES_PREFIX)
}

/// The names of the types a schema refers to directly or through nested schemas.
pub fn refs_in(node: &Node) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    fn walk(n: &Node, out: &mut BTreeSet<String>) {
        match &n.value {
            Value::Map(entries) => {
                for (k, v) in entries {
                    match (k.as_str(), v.as_str().and_then(|s| s.strip_prefix(TYPES_PREFIX))) {
                        (Some("$ref"), Some(name)) => {
                            out.insert(name.to_owned());
                        }
                        _ => walk(v, out),
                    }
                }
            }
            Value::Seq(items) => items.iter().for_each(|i| walk(i, out)),
            _ => {}
        }
    }
    walk(node, &mut out);
    out
}

/// The shared types reached from `roots`, directly or through other types: `refs_of(name)`
/// gives the names a type refers to (`None`: no such type). The one reading of "used" that
/// `check`'s W0001 and the importer's dropping of unused components share.
pub fn reachable(
    roots: impl IntoIterator<Item = String>,
    mut refs_of: impl FnMut(&str) -> Option<BTreeSet<String>>,
) -> BTreeSet<String> {
    let mut todo: Vec<String> = roots.into_iter().collect();
    let mut reached = BTreeSet::new();
    while let Some(name) = todo.pop() {
        if reached.contains(&name) {
            continue;
        }
        if let Some(refs) = refs_of(&name) {
            reached.insert(name);
            todo.extend(refs);
        }
    }
    reached
}

/// `#/$defs/NAME` as a URI reference: the name escaped as a JSON pointer token (RFC 6901), then
/// every byte a URI fragment cannot hold percent-encoded (RFC 3986), so any name resolves.
fn defs_ref(name: &str) -> String {
    let token = name.replace('~', "~0").replace('/', "~1");
    let mut out = String::from("#/$defs/");
    for b in token.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn rewrite_refs(mut v: serde_json::Value) -> serde_json::Value {
    match &mut v {
        serde_json::Value::Object(map) => {
            for (k, child) in map.iter_mut() {
                match (k.as_str(), child.as_str().and_then(|s| s.strip_prefix(TYPES_PREFIX))) {
                    ("$ref", Some(name)) => *child = serde_json::Value::String(defs_ref(name)),
                    _ => *child = rewrite_refs(std::mem::take(child)),
                }
            }
        }
        serde_json::Value::Array(items) => {
            for item in items.iter_mut() {
                *item = rewrite_refs(std::mem::take(item));
            }
        }
        _ => {}
    }
    v
}

/// The types a schema's `type` keyword allows; `None` when it does not constrain the type.
pub fn type_set(node: &Node) -> Option<BTreeSet<&str>> {
    let t = node.get("type")?;
    match &t.value {
        Value::String(s) => Some(BTreeSet::from([s.as_str()])),
        Value::Seq(items) => Some(items.iter().filter_map(Node::as_str).collect()),
        _ => None,
    }
}

/// The `properties` of a schema, key node and schema, in order.
pub fn properties(node: &Node) -> &[(Node, Node)] {
    node.get("properties").and_then(Node::as_map).unwrap_or(&[])
}

/// The properties of an object schema with references followed and compositions opened:
/// its own, then those of every `allOf`/`anyOf`/`oneOf` branch, first declaration winning.
pub fn all_properties<'a>(node: &'a Node, types: Types<'a>) -> Vec<(&'a Node, &'a Node)> {
    fn go<'a>(node: &'a Node, types: Types<'a>, depth: usize, out: &mut Vec<(&'a Node, &'a Node)>) {
        let node = types.resolve(node);
        for (k, v) in properties(node) {
            if !out.iter().any(|(seen, _)| seen.as_str() == k.as_str()) {
                out.push((k, v));
            }
        }
        if depth == 0 {
            return;
        }
        for kw in ["allOf", "anyOf", "oneOf"] {
            for branch in node.get(kw).and_then(Node::as_seq).unwrap_or(&[]) {
                go(branch, types, depth - 1, out);
            }
        }
    }
    let mut out = Vec::new();
    go(node, types, 8, &mut out);
    out
}

/// Whether a property's schema, or the type it refers to, is marked `key: true` (`readOnly`,
/// `writeOnly`).
pub fn marked(types: Types<'_>, prop: &Node, key: &str) -> bool {
    [prop, types.resolve(prop)].iter().any(|p| p.get(key).and_then(Node::as_bool) == Some(true))
}

/// The JSON types a string format describes.
const STRING: &[&str] = &["string"];
/// The JSON types an integer format describes: integers, and numbers written without a fraction.
const INTEGER: &[&str] = &["integer", "number"];
/// The JSON types a floating-point format describes.
const NUMBER: &[&str] = &["number"];

/// The `format` values stitchgen knows, with the JSON types each describes. `format` is an
/// annotation: any other value is kept as documentation, never refused. Where a format shapes
/// the Rust type (integer widths, `float`, `date-time`, `date`, `uuid`), typify reads it.
pub const FORMATS: &[(&str, &[&str])] = &[
    ("date-time", STRING),
    ("date", STRING),
    ("time", STRING),
    ("duration", STRING),
    ("email", STRING),
    ("idn-email", STRING),
    ("hostname", STRING),
    ("idn-hostname", STRING),
    ("ipv4", STRING),
    ("ipv6", STRING),
    ("uri", STRING),
    ("uri-reference", STRING),
    ("iri", STRING),
    ("iri-reference", STRING),
    ("uuid", STRING),
    ("uri-template", STRING),
    ("json-pointer", STRING),
    ("relative-json-pointer", STRING),
    ("regex", STRING),
    ("byte", STRING),
    ("binary", STRING),
    ("password", STRING),
    ("int8", INTEGER),
    ("int16", INTEGER),
    ("int32", INTEGER),
    ("int64", INTEGER),
    ("uint8", INTEGER),
    ("uint16", INTEGER),
    ("uint32", INTEGER),
    ("uint64", INTEGER),
    ("float", NUMBER),
    ("double", NUMBER),
];

/// The property names a schema lists in `required`.
pub fn required(node: &Node) -> Vec<&str> {
    node.get("required").and_then(Node::as_seq).map(|s| s.iter().filter_map(Node::as_str).collect()).unwrap_or_default()
}

/// Whether the schema (references followed) describes JSON objects only: `type: object`, or a
/// composition whose every branch (`allOf`: some branch) does.
pub fn is_object(node: &Node, types: Types<'_>) -> bool {
    fn go(node: &Node, types: Types<'_>, depth: usize) -> bool {
        let node = types.resolve(node);
        if let Some(set) = type_set(node) {
            return set.len() == 1 && set.contains("object");
        }
        if depth == 0 {
            return false;
        }
        let branches = |k: &str| node.get(k).and_then(Node::as_seq).filter(|b| !b.is_empty());
        if let Some(all) = branches("allOf")
            && all.iter().any(|b| go(b, types, depth - 1))
        {
            return true;
        }
        ["oneOf", "anyOf"].iter().any(|k| branches(k).is_some_and(|b| b.iter().all(|x| go(x, types, depth - 1))))
    }
    go(node, types, 8)
}

/// How a tool answer that is not an object is presented where answers must be objects (MCP
/// 2025-11-25): wrapped under one key, the same on every tool surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    /// `{"items": [...]}`: an array answer.
    Items,
    /// `{"value": …}`: any other answer that is not always an object.
    Value,
}

impl Wrap {
    /// The key the answer is wrapped under.
    pub fn key(self) -> &'static str {
        match self {
            Wrap::Items => "items",
            Wrap::Value => "value",
        }
    }

    /// The wrapping an answer schema needs: none for an object schema ([`is_object`]).
    pub fn of(answer: &Node, types: Types<'_>) -> Option<Wrap> {
        if is_object(answer, types) {
            return None;
        }
        let array = type_set(types.resolve(answer)).is_some_and(|t| t.len() == 1 && t.contains("array"));
        Some(if array { Wrap::Items } else { Wrap::Value })
    }
}

/// The JSON types of a schema's `const` or `enum` values, when it lists its values.
pub fn value_types(node: &Node) -> Option<BTreeSet<&'static str>> {
    let values: Vec<&Node> = match (node.get("const"), node.get("enum").and_then(Node::as_seq)) {
        (Some(c), _) => vec![c],
        (None, Some(e)) => e.iter().collect(),
        (None, None) => return None,
    };
    Some(
        values
            .iter()
            .map(|v| match &v.value {
                Value::Null => "null",
                Value::Bool(_) => "boolean",
                Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
                Value::Number(_) => "number",
                Value::String(_) => "string",
                Value::Seq(_) => "array",
                Value::Map(_) => "object",
            })
            .collect(),
    )
}

/// Whether the schema (references followed) describes one scalar: a string, number, integer or
/// boolean (or null beside one), or an enum or const of scalars.
pub fn is_scalar(node: &Node, types: Types<'_>) -> bool {
    scalar_within(node, types, 8)
}

/// Whether text pairs can carry the schema (references followed): a scalar, a list of scalars
/// (its name repeated), or a union whose every branch but `null` is one of those (Discord's
/// `oneOf: [string, array of ids]`): the value read is then the first branch it parses as.
pub fn query_encodable(node: &Node, types: Types<'_>) -> bool {
    encodable_within(node, types, 8)
}

/// Why text pairs cannot carry the schema as a `deepObject` (one `name[property]=value` pair
/// per property): it is not an object, a property is not [`query_encodable`], or its
/// `additionalProperties` are not strings (a property no field names is read as text).
pub fn deep_object_fault(node: &Node, types: Types<'_>) -> Option<String> {
    if !is_object(node, types) {
        return Some("not an object".into());
    }
    let properties = all_properties(node, types);
    if let Some((property, _)) = properties.iter().find(|(_, v)| !query_encodable(v, types)) {
        let name = property.as_str().unwrap_or_default();
        return Some(format!("property `{name}` is not a scalar, enum or array of scalars"));
    }
    let extra = types.resolve(node).get("additionalProperties").filter(|a| a.as_bool().is_none());
    let text = |a: &Node| {
        let a = types.resolve(a);
        type_set(a).map_or_else(|| value_types(a).is_some_and(|t| t == ["string"].into()), |t| t.contains("string"))
    };
    extra
        .is_some_and(|a| !text(a))
        .then(|| "its `additionalProperties` are not strings, which unnamed properties are read as".into())
}

fn encodable_within(node: &Node, types: Types<'_>, depth: usize) -> bool {
    if is_scalar(node, types) {
        return true;
    }
    let v = types.resolve(node);
    if type_set(v).is_some_and(|t| t.contains("array")) {
        return v.get("items").is_some_and(|i| is_scalar(i, types));
    }
    let union = v.get("oneOf").or_else(|| v.get("anyOf")).and_then(Node::as_seq).filter(|b| !b.is_empty());
    let null = |b: &Node| type_set(types.resolve(b)).is_some_and(|t| t.len() == 1 && t.contains("null"));
    depth > 0
        && type_set(v).is_none()
        && union.is_some_and(|bs| {
            bs.iter().all(|b| null(b) || encodable_within(b, types, depth - 1)) && bs.iter().any(|b| !null(b))
        })
}

/// [`is_scalar`], opening at most `depth` levels of `oneOf`/`anyOf` (every branch a scalar:
/// a union of scalars, such as an id that is an integer or a string) and `allOf` (one scalar
/// part constrains the whole).
fn scalar_within(node: &Node, types: Types<'_>, depth: usize) -> bool {
    let node = types.resolve(node);
    let branches = |k: &str| node.get(k).and_then(Node::as_seq).filter(|b| !b.is_empty());
    if type_set(node).is_none() && depth > 0 {
        if let Some(all) = branches("allOf") {
            return all.iter().any(|b| scalar_within(b, types, depth - 1));
        }
        if let Some(union) = branches("oneOf").or_else(|| branches("anyOf")) {
            let null = |b: &Node| type_set(types.resolve(b)).is_some_and(|t| t.len() == 1 && t.contains("null"));
            let scalar = |b: &Node| scalar_within(b, types, depth - 1);
            return union.iter().all(|b| null(b) || scalar(b)) && union.iter().any(scalar);
        }
    }
    let scalar_values = |vals: &[Node]| vals.iter().all(|v| !matches!(v.value, Value::Seq(_) | Value::Map(_)));
    if let Some(set) = type_set(node) {
        return !set.is_empty()
            && set.iter().all(|t| matches!(*t, "string" | "number" | "integer" | "boolean" | "null"))
            && !(set.len() == 1 && set.contains("null"));
    }
    if let Some(values) = node.get("enum").and_then(Node::as_seq) {
        return scalar_values(values);
    }
    node.get("const").is_some_and(|c| scalar_values(std::slice::from_ref(c)))
}

/// Compiles a contract schema with the validator the runtime uses, formats enforced.
pub fn compile(types: Types<'_>, schema: &Node) -> Result<jsonschema::Validator, String> {
    compile_json(&types.to_standalone_json(schema))
}

/// A validator of `json`, formats checked; why not, with the place in the schema.
fn compile_json(json: &serde_json::Value) -> Result<jsonschema::Validator, String> {
    jsonschema::options().should_validate_formats(true).build(json).map_err(|e| {
        let at = e.instance_path().as_str();
        if at.is_empty() { e.to_string() } else { format!("{e} (at `{at}`)") }
    })
}

/// Compiles `schema` alone, its references into the contract's types left out: whether its own
/// keywords compile. Each type is a root of its own and compiled once, so checking every root
/// costs the size of the contract, however the types reach each other. `compiled` holds the
/// results so far by the schema's text: a schema written again (a thousand operations that each
/// take `{ id }`) is compiled once.
pub fn compile_alone(schema: &Node, compiled: &mut BTreeMap<String, Result<(), String>>) -> Result<(), String> {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(map) => {
                if map.get("$ref").and_then(|r| r.as_str()).is_some_and(|r| r.starts_with(TYPES_PREFIX)) {
                    map.remove("$ref");
                }
                map.values_mut().for_each(strip);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut json = schema.to_json();
    strip(&mut json);
    compiled.entry(json.to_string()).or_insert_with(|| compile_json(&json).map(drop)).clone()
}

/// The first way `value` breaks `schema`, as `message (base.schema.path)`; `None` when it is
/// valid, or when the schema itself is malformed (reported by the schema checks).
pub fn first_violation(types: Types<'_>, schema: &Node, value: &serde_json::Value, base: &str) -> Option<String> {
    let validator = compile(types, schema).ok()?;
    let error = validator.iter_errors(value).next()?;
    let path: String =
        error.schema_path().as_str().split('/').filter(|s| !s.is_empty()).map(|s| format!(".{s}")).collect();
    let at = error.instance_path().as_str();
    let within = if at.is_empty() { String::new() } else { format!(" at `{at}`") };
    Some(format!("{error}{within} ({base}{path})"))
}
