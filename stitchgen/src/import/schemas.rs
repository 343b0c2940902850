//! OpenAPI schemas → contract schemas: references become `#/types/NAME`, 3.0 forms their 3.1
//! spellings, and what the DSL does not read is dropped with a warning at its source.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value as J, json};

pub(super) use super::load::escape;
use super::load::{Docs, Loc};
use super::{Lowerings, Pending};
use crate::naming;
use crate::parse::node::{Node, Value};
use crate::schema::{SUPPORTED, TYPE_NAMES, TYPED_KEYWORDS, TYPES_PREFIX};
use crate::source::Span;

/// Keywords whose value is one schema.
const ONE_SCHEMA: &[&str] = &["items", "additionalProperties"];
/// Keywords whose value is a list of schemas.
const SCHEMA_LISTS: &[&str] = &["allOf", "anyOf", "oneOf"];

/// Where a schema is: its document and pointer there, and where it is written in the contract.
#[derive(Clone, Debug)]
pub(super) struct At {
    /// The document it is read from.
    pub(super) doc: usize,
    /// Its JSON pointer in that document.
    pub(super) src: String,
    /// Its JSON pointer in the written contract.
    pub(super) out: String,
}

impl At {
    /// The place of a keyword or child: `src_token` in the source, `out_token` in the contract.
    pub(super) fn child(&self, src_token: &str, out_token: &str) -> At {
        At {
            doc: self.doc,
            src: format!("{}/{}", self.src, escape(src_token)),
            out: format!("{}/{}", self.out, escape(out_token)),
        }
    }
}

/// One shared type as converted, with its source.
pub(super) struct Converted {
    /// Its name under `types`.
    pub(super) name: String,
    /// Its contract schema.
    pub(super) body: J,
    /// Where its schema is written.
    pub(super) span: Span,
    /// Its JSON pointer in that file.
    pub(super) src: String,
}

/// The shared types found so far, named, in the order first met, and their converted bodies.
pub(super) struct Schemas<'d> {
    docs: &'d Docs,
    /// Whether the entry document is OpenAPI 3.1 (3.0 keywords in it are then warned about).
    is_31: bool,
    names: BTreeMap<Loc, String>,
    order: Vec<Loc>,
    taken: BTreeSet<String>,
    /// Schemas whose `format: uri` a documented example breaks as a relative reference.
    relative: BTreeMap<Loc, String>,
}

impl<'d> Schemas<'d> {
    /// An empty set of types over `docs`; the entry's `components.schemas` are named first, in
    /// document order, so they keep their names.
    pub(super) fn new(docs: &'d Docs, is_31: bool, lowered: &mut Lowerings) -> Self {
        let relative = super::examples::relative_references(docs);
        let mut s =
            Schemas { docs, is_31, names: BTreeMap::new(), order: Vec::new(), taken: BTreeSet::new(), relative };
        let Some(components) = docs.docs[0].root.get("components").and_then(|c| c.get("schemas")) else { return s };
        let (entries, followed) = docs.named(&Loc { doc: 0, pointer: "/components/schemas".into() }, components);
        lowered.map_refs(followed, "components.schemas");
        let entry_locs: BTreeSet<Loc> = entries.iter().map(|e| e.loc.clone()).collect();
        for entry in entries {
            let name = entry.key.as_str().unwrap_or_default();
            // `Place: {$ref: ./Place.yml}`: the schema in the other file is the type `Place`
            // (the entry names it), not an alias of a type named after the file.
            let (target, _) = docs.deref(entry.loc.clone(), entry.node);
            let elsewhere = target.doc != entry.loc.doc && !entry_locs.contains(&target);
            if elsewhere && !s.names.contains_key(&target) {
                let name = s.name(target, name);
                s.names.insert(entry.loc, name);
            } else {
                s.name(entry.loc, name);
            }
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
            // A name that starts with a digit or has no letter at all (`200`, `-`): `T200`, `T`.
            None => naming::type_ident(&format!("t {wanted}")).unwrap_or_else(|| "T".into()),
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
    /// returns them in the order they were first met, each with where it was read.
    pub(super) fn finish(mut self, lowered: &mut Lowerings) -> Vec<Converted> {
        let mut out = Vec::new();
        // Converting a body may name more types, which join the end of `order`.
        while out.len() < self.order.len() {
            let loc = self.order[out.len()].clone();
            let name = self.names[&loc].clone();
            let at = At { doc: loc.doc, src: loc.pointer.clone(), out: format!("/types/{}", escape(&name)) };
            let (body, span) = match self.docs.node(&loc) {
                Some(node) => (self.schema(node, &at, lowered), node.span),
                None => (J::Object(Map::new()), self.docs.docs[loc.doc].root.span),
            };
            out.push(Converted { name, body, span, src: loc.pointer });
        }
        out
    }

    /// The contract form of the schema `node`, found at `at.src`, written at `at.out`.
    pub(super) fn schema(&mut self, node: &Node, at: &At, lowered: &mut Lowerings) -> J {
        let entries = match &node.value {
            Value::Map(entries) => entries,
            Value::Bool(true) => return json!({}),
            _ => {
                lowered.warn(node.span, &at.src, format!("a schema that is {}, read as any value", node.kind()));
                return json!({});
            }
        };
        let nullable = node.get("nullable").and_then(Node::as_bool) == Some(true);
        // A nullable schema without a type becomes `anyOf: [itself, null]`: it is written one level down.
        let wrapped = nullable && node.get("type").is_none();
        let inner = if wrapped { At { out: format!("{}/anyOf/0", at.out), ..at.clone() } } else { at.clone() };
        let mut out = self.keywords(entries, &inner, lowered);
        fit_keywords(&mut out, node, &inner, lowered);
        self.format_of_examples(&mut out, node, &inner, lowered);
        let out = J::Object(out);
        if nullable { with_null(out) } else { out }
    }

    /// `format: uri` (or `iri`) whose documented example is a relative reference is read as
    /// `uri-reference`: the API answers such values (the examples are its answers), and kept as
    /// `uri`, the runner would refuse each one as off the contract.
    fn format_of_examples(&self, out: &mut Map<String, J>, node: &Node, at: &At, lowered: &mut Lowerings) {
        let Some(example) = self.relative.get(&Loc { doc: at.doc, pointer: at.src.clone() }) else { return };
        let Some(J::String(format)) = out.get_mut("format") else { return };
        let read = format!("{format}-reference");
        let shown = J::String(example.clone());
        let why =
            format!("`format: {format}` whose documented example {shown} is a relative reference: read as `{read}`");
        *format = read;
        lowered.warn(node.entry("format").map_or(node.span, |(k, _)| k.span), &format!("{}/format", at.src), why);
    }

    /// Each keyword of a schema mapping, converted or dropped with a warning.
    fn keywords(&mut self, entries: &[(Node, Node)], at: &At, lowered: &mut Lowerings) -> Map<String, J> {
        let mut out = Map::new();
        // 3.0's boolean `exclusiveMinimum`/`exclusiveMaximum`, applied once `minimum`/`maximum` is read.
        let mut exclusive = (false, false);
        let mut discriminator = None;
        for (k, v) in entries {
            let key = k.as_str().unwrap_or_default();
            let here = at.child(key, key);
            match key {
                "$ref" => match v.as_str().map(|r| self.docs.follow(at.doc, r)) {
                    Some(Some(loc)) if self.docs.node(&loc).is_some() => {
                        let name = self.type_for(loc);
                        out.insert(key.into(), J::String(format!("{TYPES_PREFIX}{name}")));
                    }
                    // Pointing nowhere, read as any value under `--lenient` (warned when read).
                    Some(_) => {}
                    None => lowered.warn(k.span, &here.src, "a `$ref` that is not a string, dropped".into()),
                },
                "properties" => {
                    let mut props = Map::new();
                    self.properties(v, &here, &mut props, lowered, 0);
                    out.insert(key.into(), J::Object(props));
                }
                "additionalProperties" if v.as_bool().is_some() => {
                    out.insert(key.into(), v.to_json());
                }
                _ if ONE_SCHEMA.contains(&key) => {
                    out.insert(key.into(), self.schema(v, &here, lowered));
                }
                _ if SCHEMA_LISTS.contains(&key) => match v.as_seq().filter(|items| !items.is_empty()) {
                    Some(items) => {
                        let items = items.iter().enumerate();
                        let list =
                            items.map(|(i, s)| self.schema(s, &here.child(&i.to_string(), &i.to_string()), lowered));
                        out.insert(key.into(), J::Array(list.collect()));
                        if key == "oneOf" {
                            lowered.pending(Pending::OneOf, k.span, &here.src, &at.out);
                        }
                    }
                    None => {
                        let what = if v.as_seq().is_some() { "an empty list" } else { "not a list of schemas" };
                        let why = format!("`{key}` that is {what} is not JSON Schema; dropped, it constrains nothing");
                        lowered.warn(k.span, &here.src, why);
                    }
                },
                "examples" if v.as_seq().is_none() => {
                    if let Some(list) = examples_list(v, k.span, &here.src, lowered) {
                        out.insert(key.into(), list);
                    }
                }
                "nullable" => {
                    if self.is_31 {
                        let why = "`nullable` is OpenAPI 3.0; read as a type array with \"null\"";
                        lowered.warn(k.span, &here.src, why.into());
                    }
                }
                "exclusiveMinimum" | "exclusiveMaximum" if v.as_bool().is_some() => {
                    if self.is_31 {
                        let why = format!("a boolean `{key}` is OpenAPI 3.0; read as its 3.1 number form");
                        lowered.warn(k.span, &here.src, why);
                    }
                    let on = v.as_bool() == Some(true);
                    if key == "exclusiveMinimum" { exclusive.0 = on } else { exclusive.1 = on }
                }
                // Each name once: a list merged from compositions can repeat names, which JSON
                // Schema does not allow (`required` items are unique).
                "required" => match v.as_seq().filter(|names| names.iter().all(|n| n.as_str().is_some())) {
                    Some(names) => {
                        let mut once: Vec<J> = Vec::new();
                        for n in names.iter().map(Node::to_json) {
                            if !once.contains(&n) {
                                once.push(n);
                            }
                        }
                        out.insert(key.into(), J::Array(once));
                    }
                    None => lowered.warn(k.span, &here.src, "a `required` that is not a list of names, dropped".into()),
                },
                "example" => {
                    out.entry("examples").or_insert_with(|| json!([v.to_json()]));
                }
                // Read once the branches are converted.
                "discriminator" => discriminator = Some((k, v, here)),
                "type" => match type_value(v) {
                    Some(t) => {
                        out.insert(key.into(), t);
                    }
                    None => {
                        let why = format!("`type: {}` is not a JSON Schema type, dropped", v.to_json());
                        lowered.warn(k.span, &here.src, why)
                    }
                },
                "default" => {
                    lowered.pending(Pending::Default, k.span, &here.src, &at.out);
                    out.insert(key.into(), v.to_json());
                }
                _ if key.starts_with("x-") => lowered.extension(),
                "readOnly" | "writeOnly" if v.as_bool().is_none() => {
                    lowered.warn(k.span, &here.src, format!("`{key}` that is not `true` or `false`, dropped"))
                }
                _ if SUPPORTED.contains(&key) => {
                    out.insert(key.into(), v.to_json());
                }
                _ => lowered.warn(k.span, &here.src, dropped_keyword(key)),
            }
        }
        exclusive_bounds(&mut out, exclusive);
        if let Some((k, v, here)) = discriminator {
            let union = ["oneOf", "anyOf"]
                .into_iter()
                .find_map(|u| Some((u, entries.iter().find(|(n, _)| n.as_str() == Some(u))?)));
            match union {
                Some((key, (_, branches))) => {
                    self.discriminate(&mut out, key, branches, v, (k.span, &here, at.doc), lowered)
                }
                // On a schema that others only extend (`allOf`), it chooses nothing: no loss.
                None if self.docs.only_extended(&Loc { doc: at.doc, pointer: at.src.clone() }) => {}
                None => lowered.warn(k.span, &here.src, dropped_keyword("discriminator")),
            }
        }
        out
    }

    /// A `discriminator` beside `oneOf`/`anyOf` (`key`, written `branches`): each branch that
    /// refers to a schema a `mapping` entry names gets that value as a `const` of the property
    /// (`allOf` beside the reference), so that branches are disjoint and the union decidable. A
    /// branch written inline, or that no mapping names, is left as it is: with a warning, unless
    /// each such branch pins the property to values no other branch has ([`Self::pinned`]).
    fn discriminate(
        &mut self,
        out: &mut Map<String, J>,
        key: &str,
        branches: &Node,
        d: &Node,
        (span, here, doc): (Span, &At, usize),
        lowered: &mut Lowerings,
    ) {
        let Some(property) = d.get("propertyName").and_then(Node::as_str) else {
            lowered.warn(span, &here.src, "a `discriminator` without a `propertyName`, dropped".into());
            return;
        };
        let mapping: Vec<(String, Loc)> = d
            .get("mapping")
            .and_then(Node::as_map)
            .unwrap_or_default()
            .iter()
            .filter_map(|(value, target)| {
                let target = target.as_str()?;
                // A bare name stands for `#/components/schemas/NAME`.
                let reference = if target.contains('/') || target.contains('#') {
                    target.to_owned()
                } else {
                    format!("#/components/schemas/{target}")
                };
                Some((value.as_str()?.to_owned(), self.docs.follow(doc, &reference)?))
            })
            .collect();
        let Some(J::Array(converted)) = out.get_mut(key) else { return };
        let written = branches.as_seq().unwrap_or_default();
        let mut unread = Vec::new();
        for (i, (branch, written)) in converted.iter_mut().zip(branches.as_seq().unwrap_or_default()).enumerate() {
            let target = super::load::bare_ref(written).and_then(|r| self.docs.follow(doc, r));
            // Only a mapping says: OpenAPI's implicit value (the schema's name) is what real
            // descriptions contradict (Together's `ResponseFormatText` is `type: text`), and a
            // `const` the branch refuses would leave it no value.
            let values: Vec<String> = match &target {
                Some(t) => mapping.iter().filter(|(_, m)| m == t).map(|(v, _)| v.clone()).collect(),
                None => Vec::new(),
            };
            let value = match values.as_slice() {
                [] => {
                    unread.push(i.to_string());
                    continue;
                }
                [one] => json!({ "const": one }),
                many => json!({ "enum": many }),
            };
            let tag = json!({ "required": [property], "properties": { property: value } });
            *branch = json!({ "allOf": [branch.take(), tag] });
        }
        // Branches that pin the property to values of their own, none shared: told apart as the
        // discriminator would tell them, so nothing is lost.
        let pins: Option<Vec<Vec<J>>> =
            unread.iter().map(|i| self.pinned(doc, &written[i.parse::<usize>().ok()?], property, 0)).collect();
        let disjoint = pins.is_some_and(|pins| {
            let all: Vec<&J> = pins.iter().flatten().collect();
            all.iter().enumerate().all(|(i, v)| !all[..i].contains(v))
        });
        if unread.is_empty() || disjoint {
            return;
        }
        if unread.len() == converted.len() {
            let why = "`discriminator` whose `mapping` names no branch, dropped: the branches are told apart by their own schemas";
            lowered.warn(span, &here.src, why.into());
        } else if !unread.is_empty() {
            let why = format!(
                "`discriminator` read for the branches it names; `{key}` branch {} is named by no `mapping`, and is told apart by its own schema",
                unread.join(", ")
            );
            lowered.warn(span, &here.src, why);
        }
    }

    /// The values branch `node` (written in document `doc`) allows its discriminating
    /// `property`: the `const` or `enum` of its own `properties`, or of an `allOf` member's,
    /// references followed. `None`: any value, as far as its schema says.
    fn pinned(&self, doc: usize, node: &Node, property: &str, depth: usize) -> Option<Vec<J>> {
        if depth > 8 {
            return None;
        }
        let (loc, node) = self.docs.deref(Loc { doc, pointer: String::new() }, node);
        let own = node.get("properties").and_then(|p| p.get(property)).and_then(|p| {
            let (_, p) = self.docs.deref(loc.clone(), p);
            match (p.get("const"), p.get("enum").and_then(Node::as_seq)) {
                (Some(c), _) => Some(vec![c.to_json()]),
                (None, Some(values)) => Some(values.iter().map(Node::to_json).collect()),
                (None, None) => None,
            }
        });
        own.or_else(|| {
            let members = node.get("allOf").and_then(Node::as_seq).unwrap_or_default();
            members.iter().find_map(|m| self.pinned(loc.doc, m, property, depth + 1))
        })
    }

    /// The type name for a reference target: a schema under `components/schemas` keeps its
    /// name; any other target is named after its last pointer segment or its file.
    /// The entries of a `properties` mapping into `props`. A `$ref` text among them names a
    /// mapping of more properties (DigitalOcean writes `properties: {$ref: attributes.yml#/ids}`):
    /// read in place, as bundlers and mock servers read it, with a warning. A `$ref` whose value
    /// is a schema is a property of that name; one that leads nowhere, too.
    fn properties(&mut self, node: &Node, at: &At, props: &mut Map<String, J>, lowered: &mut Lowerings, hops: usize) {
        let docs = self.docs;
        for (pk, pv) in node.as_map().unwrap_or_default() {
            let name = pk.as_str().unwrap_or_default();
            let target = pv.as_str().filter(|_| name == "$ref" && hops < 8).and_then(|r| docs.follow(at.doc, r));
            if let Some((loc, map)) =
                target.and_then(|loc| docs.node(&loc).filter(|n| n.as_map().is_some()).map(|n| (loc, n)))
            {
                let message = "`properties` as a `$ref` to a mapping is not standard OpenAPI; its entries are read from the mapping it names";
                lowered.warn(pk.span, &at.child(name, name).src, message.into());
                let there = At { doc: loc.doc, src: loc.pointer, out: at.out.clone() };
                self.properties(map, &there, props, lowered, hops + 1);
                continue;
            }
            // A name written twice: the later one, as before and as JSON parsers read it.
            props.insert(name.to_owned(), self.schema(pv, &at.child(name, name), lowered));
        }
    }

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

/// What a contract requires of a schema that JSON Schema does not: a keyword that constrains
/// one type stands beside that type; `required` names declared properties; `enum` lists a value.
fn fit_keywords(out: &mut Map<String, J>, node: &Node, at: &At, lowered: &mut Lowerings) {
    let span = |k: &str| node.entry(k).map_or(node.span, |(k, _)| k.span);
    if let Some(J::Array(values)) = out.get("enum")
        && values.is_empty()
    {
        out.remove("enum");
        lowered.warn(span("enum"), &format!("{}/enum", at.src), "an empty `enum` (no value at all) is dropped".into());
    }
    enum_of_type(out, node, at, lowered);
    constraints_the_values_break(out, node, at, lowered);
    // Check judges the `required` of a schema that is an object or declares properties; the
    // names may be declared by the compositions around it, known once all is converted.
    let object = out.get("type") == Some(&J::String("object".into())) || out.contains_key("properties");
    if object && out.contains_key("required") {
        lowered.pending(Pending::Required, span("required"), &format!("{}/required", at.src), &at.out);
    }
    let composed = ["$ref", "oneOf", "anyOf", "allOf", "enum", "const"].iter().any(|k| out.contains_key(*k));
    if composed {
        return;
    }
    let types: Option<Vec<String>> = match out.get("type") {
        Some(J::String(t)) => Some(vec![t.clone()]),
        Some(J::Array(ts)) => Some(ts.iter().filter_map(|t| t.as_str().map(str::to_owned)).collect()),
        _ => None,
    };
    for (kw, needs) in TYPED_KEYWORDS {
        if !out.contains_key(*kw) {
            continue;
        }
        let src = format!("{}/{kw}", at.src);
        match &types {
            Some(ts) if ts.iter().any(|t| needs.contains(&t.as_str())) => {}
            Some(ts) => {
                out.remove(*kw);
                let why = format!("`{kw}` never applies to `type: {}` and is dropped", ts.join(", "));
                lowered.warn(span(kw), &src, why);
            }
            None => {
                out.insert("type".into(), J::String(needs[0].into()));
                let why = format!("`{kw}` without a `type`: read as `type: {}`, the type it constrains", needs[0]);
                lowered.warn(span(kw), &src, why);
                return fit_keywords(out, node, at, lowered);
            }
        }
    }
    required_of_object(out, &types, node, at, lowered);
}

/// `required` constrains objects alone: beside a type that is never an object (the list of an
/// array's items' names, written one level too high) it is dropped, as the other keywords that
/// never apply to their type are.
fn required_of_object(
    out: &mut Map<String, J>,
    types: &Option<Vec<String>>,
    node: &Node,
    at: &At,
    lowered: &mut Lowerings,
) {
    let Some(ts) = types else { return };
    if !out.contains_key("required") || out.contains_key("properties") || ts.iter().any(|t| t == "object") {
        return;
    }
    out.remove("required");
    let span = node.entry("required").map_or(node.span, |(k, _)| k.span);
    let why = format!("`required` never applies to `type: {}` and is dropped", ts.join(", "));
    lowered.warn(span, &format!("{}/required", at.src), why);
}

/// `enum` values outside the schema's `type` can never be valid: they are dropped. (`null` is
/// within a 3.0 `nullable: true` schema, whose type it joins.)
fn enum_of_type(out: &mut Map<String, J>, node: &Node, at: &At, lowered: &mut Lowerings) {
    let nullable = node.get("nullable").and_then(Node::as_bool) == Some(true);
    let types: Vec<String> = match out.get("type") {
        Some(J::String(t)) => vec![t.clone()],
        Some(J::Array(ts)) => ts.iter().filter_map(J::as_str).map(str::to_owned).collect(),
        _ => return,
    };
    let has = |t: &str| types.iter().any(|x| x == t);
    let fits = |v: &J| {
        let t = match v {
            J::Null => "null",
            J::Bool(_) => "boolean",
            J::Number(n) if n.is_i64() || n.is_u64() => "integer",
            J::Number(_) => "number",
            J::String(_) => "string",
            J::Array(_) => "array",
            J::Object(_) => "object",
        };
        has(t) || (t == "integer" && has("number")) || (t == "null" && nullable)
    };
    as_text(out, node, at, &fits, lowered);
    let Some(J::Array(values)) = out.get("enum") else { return };
    let (kept, dropped): (Vec<J>, Vec<J>) = values.iter().cloned().partition(|v| fits(v));
    if dropped.is_empty() || kept.is_empty() {
        return;
    }
    let shown: Vec<String> = dropped.iter().map(J::to_string).collect();
    let why = format!("`enum` values outside `type` can never be valid and are dropped: {}", shown.join(", "));
    out.insert("enum".into(), J::Array(kept));
    lowered.warn(node.entry("enum").map_or(node.span, |(k, _)| k.span), &format!("{}/enum", at.src), why);
}

/// Under `type: string`, an `enum` or `const` value that YAML read as a boolean or a number
/// (`enum: [true, false]`, `const: 1.0`) is the text the authors wrote: read as that text.
fn as_text(out: &mut Map<String, J>, node: &Node, at: &At, fits: &dyn Fn(&J) -> bool, lowered: &mut Lowerings) {
    if !fits(&J::String(String::new())) {
        return;
    }
    let text = |v: &J| match v {
        J::Bool(_) | J::Number(_) if !fits(v) => Some(J::String(v.to_string())),
        _ => None,
    };
    for key in ["enum", "const"] {
        let read: Vec<String> = match out.get_mut(key) {
            Some(J::Array(values)) => {
                values.iter_mut().filter_map(|v| text(v).map(|t| std::mem::replace(v, t).to_string())).collect()
            }
            Some(v) => text(v).map(|t| std::mem::replace(v, t).to_string()).into_iter().collect(),
            None => continue,
        };
        if !read.is_empty() {
            let span = node.entry(key).map_or(node.span, |(k, _)| k.span);
            let why = format!(
                "`{key}` values YAML reads as booleans or numbers under `type: string` are read as text: {}",
                read.join(", ")
            );
            lowered.warn(span, &format!("{}/{key}", at.src), why);
        }
    }
}

/// A bound that an `enum` (or `const`) value breaks is dropped: the listed values are what the
/// authors meant (`{type: string, maxLength: 12, enum: [managed_challenge]}`), and kept, the
/// bound would refuse them. Each bound is an assertion of its own, so each is judged alone.
fn constraints_the_values_break(out: &mut Map<String, J>, node: &Node, at: &At, lowered: &mut Lowerings) {
    let values: Vec<J> = match (out.get("enum"), out.get("const")) {
        (Some(J::Array(values)), _) => values.clone(),
        (_, Some(value)) => vec![value.clone()],
        _ => return,
    };
    let types = crate::schema::Types::new(None);
    // The keywords that only bound values (`items` shapes them): `format` and the typed ones.
    let bounds = TYPED_KEYWORDS.iter().map(|(kw, _)| *kw).filter(|kw| *kw != "items").chain(["format"]);
    for kw in bounds {
        let Some(bound) = out.get(kw) else { continue };
        let alone = Node::from_json(&json!({ kw: bound }), node.span);
        let Some(broken) = values.iter().find(|v| crate::schema::first_violation(types, &alone, v, "schema").is_some())
        else {
            continue;
        };
        let why = format!("`{kw}: {bound}` refuses the listed value {broken}: the values are kept, the bound dropped");
        out.remove(kw);
        lowered.warn(node.entry(kw).map_or(node.span, |(k, _)| k.span), &format!("{}/{kw}", at.src), why);
    }
}

/// Schema `examples` written as something other than a list: as a map, the form OpenAPI gives a
/// media type's examples (name → Example Object, whose `value` is the example), it is read as the
/// list of its values; any other value is one example.
fn examples_list(v: &Node, span: Span, src: &str, lowered: &mut Lowerings) -> Option<J> {
    let Some(entries) = v.as_map() else {
        lowered.warn(span, src, "schema `examples` is a list; one value written alone is read as a list of it".into());
        return Some(J::Array(vec![v.to_json()]));
    };
    const EXAMPLE_OBJECT: &[&str] = &["summary", "description", "value", "externalValue"];
    let values: Vec<J> = entries
        .iter()
        .filter_map(|(_, e)| {
            let is_example_object = e.as_map().is_some_and(|m| {
                !m.is_empty() && m.iter().all(|(k, _)| k.as_str().is_some_and(|k| EXAMPLE_OBJECT.contains(&k)))
            });
            if is_example_object { e.get("value").map(Node::to_json) } else { Some(e.to_json()) }
        })
        .collect();
    if values.is_empty() {
        lowered.warn(span, src, "schema `examples` written as a map without a `value`: dropped".into());
        return None;
    }
    let why = "schema `examples` written as a map (a media type's form): read as the list of its values";
    lowered.warn(span, src, why.into());
    Some(J::Array(values))
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
        "discriminator" => "without `oneOf` or `anyOf` beside it, the branches are told apart by their own schemas",
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

/// The text a JSON pointer token stands for.
fn unescape(s: &str) -> String {
    s.replace("~1", "/").replace("~0", "~")
}
