//! The presentation model: contract schemas converted once, in one place, into what each
//! artifact advertises — OpenAPI components, MCP tools and agent function tools.

use std::collections::BTreeMap;
use std::rc::Rc;

use serde_json::{Map, Value, json};

use crate::model::graph::strongly_connected;
use crate::model::{Model, Service};
use crate::schema::TYPES_PREFIX;

pub mod budget;
mod close;
pub mod defs;
mod fields;
mod surfaces;
mod tool;

pub use fields::{TextField, text_fields, tool_fields};
pub use surfaces::Surfaces;
pub(crate) use tool::Entry;
pub use tool::{CATALOG_META, Listed, Shows, Tool, tool_input, tools};

/// How `#/types/NAME` references are presented.
#[derive(Clone, Copy, Debug)]
pub enum Refs<'a> {
    /// As `#/components/schemas/NAME`, with the component name of each (service, type).
    Components(&'a ComponentNames),
    /// Inlined; a recursive type stays a reference into the root's `$defs`.
    Inline,
    /// Every type kept once in the root's `$defs` and referenced there: what a tool past its
    /// byte budget advertises first.
    Shared,
    /// Into the service's types document ([`types_document`]), as the runner resolves them:
    /// each type written once per module, whatever reaches it.
    Registry,
}

/// Component names of every (service, type), unique across services.
pub type ComponentNames = BTreeMap<(String, String), String>;

/// How to present a schema.
#[derive(Clone, Copy, Debug)]
pub struct Style<'a> {
    /// Reference handling.
    pub refs: Refs<'a>,
    /// Force `additionalProperties: false` on every object (agent tools).
    pub close_objects: bool,
}

/// The component name of every shared type: its own name, or `Service` + name where two
/// services (or the error envelope) would otherwise share one.
pub fn component_names(model: &Model, reserved: &[&str]) -> ComponentNames {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for s in &model.services {
        for (t, _) in &s.types {
            *count.entry(t.as_str()).or_default() += 1;
        }
    }
    let mut out = BTreeMap::new();
    for s in &model.services {
        for (t, _) in &s.types {
            let clash = count[t.as_str()] > 1 || reserved.contains(&t.as_str());
            let name = if clash {
                format!("{}{t}", crate::naming::type_ident(&s.name).unwrap_or_default())
            } else {
                t.clone()
            };
            out.insert((s.name.clone(), t.clone()), name);
        }
    }
    out
}

/// Presents one schema of `svc`. With inline references, the `$defs` a recursive type needs
/// are added at the root.
pub fn schema(value: &Value, svc: &Service, style: Style<'_>) -> Value {
    schema_with(value, svc, style, None, Bodies::Full).0
}

/// How a conversion writes the bodies of the types it keeps in `$defs`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bodies {
    /// Spelled out.
    Full,
    /// Each entry `null`, the bytes of the bodies counted: a skeleton that still names every
    /// type it keeps, for digests.
    Named,
    /// An empty `$defs`, the bytes of its entries counted from the types each type reaches,
    /// known once per service: a skeleton for sizes alone, which visits no type per schema.
    Counted,
}

/// [`schema`], converting each type's body once per `memo`; a skeleton (see [`Bodies`]) says
/// how many bytes the bodies it leaves out add. Without a memo, bodies are spelled out.
fn schema_with(value: &Value, svc: &Service, style: Style<'_>, memo: Option<&Memo>, bodies: Bodies) -> (Value, usize) {
    let mut conv = Converter::new(svc, style, memo);
    conv.bodies = if conv.memo.is_some() { bodies } else { Bodies::Full };
    let out = match style.refs {
        Refs::Components(_) | Refs::Registry => conv.convert(value),
        Refs::Inline | Refs::Shared => conv.convert_root(value),
    };
    conv.finish(out)
}

/// The range of each integer `format` the generated Rust type has (`uint16` is a `u16`).
pub(crate) const INTEGER_FORMATS: &[(&str, i128, i128)] = &[
    ("int8", i8::MIN as i128, i8::MAX as i128),
    ("int16", i16::MIN as i128, i16::MAX as i128),
    ("int32", i32::MIN as i128, i32::MAX as i128),
    ("int64", i64::MIN as i128, i64::MAX as i128),
    ("uint8", 0, u8::MAX as i128),
    ("uint16", 0, u16::MAX as i128),
    ("uint32", 0, u32::MAX as i128),
    ("uint64", 0, u64::MAX as i128),
];

/// For the runner's validator: an integer `format` is the bound the generated type holds, so a
/// value past it is refused with its path like any breach, never by deserialization after
/// validation passed (Svix writes `uint16` with no `maximum`). A bound the schema writes that
/// is tighter stays.
fn format_bounds(map: &mut Map<String, Value>) {
    let integer = match map.get("type") {
        None => true,
        Some(Value::String(t)) => t == "integer",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
        Some(_) => false,
    };
    if !integer {
        // A numeric format on a string is an integer carried as text: no bound applies.
        return;
    }
    let Some(&(_, lo, hi)) =
        map.get("format").and_then(Value::as_str).and_then(|f| INTEGER_FORMATS.iter().find(|(n, ..)| *n == f))
    else {
        return;
    };
    let number = |n: i128| {
        u64::try_from(n).map(Value::from).or_else(|_| i64::try_from(n).map(Value::from)).unwrap_or(Value::Null)
    };
    let written = |k: &str| map.get(k).and_then(Value::as_f64);
    let looser = |k: &str, past: &dyn Fn(f64) -> bool| written(k).is_none_or(past);
    let (lo_f, hi_f) = (lo as f64, hi as f64);
    let raise = looser("minimum", &|m| m < lo_f) && looser("exclusiveMinimum", &|m| m < lo_f);
    let lower = looser("maximum", &|m| m > hi_f) && looser("exclusiveMaximum", &|m| m > hi_f);
    if raise {
        map.insert("minimum".into(), number(lo));
    }
    if lower {
        map.insert("maximum".into(), number(hi));
    }
}

/// A JSON object of `entries`, in order, each value moved in: `json!` would serialize a copy of
/// each, which for a document's whole paths or tool list is most of its cost.
pub fn object<'k>(entries: impl IntoIterator<Item = (&'k str, Value)>) -> Value {
    Value::Object(entries.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// The service's types document: `$id` [`stitchgen_runtime::TYPES_URI`] and each type once in
/// `$defs`, under its Rust name (unique in the service, and safe in a URI), referring to the
/// others there. The generated module embeds it; the runner registers it once.
pub fn types_document(svc: &Service) -> Value {
    let style = Style { refs: Refs::Registry, close_objects: false };
    let mut conv = Converter::new(svc, style, None);
    let defs: Map<String, Value> = svc
        .types
        .iter()
        .map(|(name, body)| (svc.type_idents.get(name).cloned().unwrap_or_else(|| name.clone()), conv.convert(body)))
        .collect();
    object([("$id", json!(stitchgen_runtime::TYPES_URI)), ("$defs", Value::Object(defs))])
}

/// Each type's body as converted for one service, in each style, with the types its body
/// keeps in `$defs`: every tool of a service reads the same bodies, so each is converted once.
#[derive(Default)]
pub(crate) struct Memo {
    bodies: std::cell::RefCell<BTreeMap<(bool, bool, String), Rc<Body>>>,
    /// What each type's body reaches, for the budget's warnings.
    reach: std::cell::RefCell<budget::Reached>,
    /// `$defs` entries relaxed with some depth left, measured, for the budget's search.
    relaxed: std::cell::RefCell<budget::Measured>,
    /// Per style, the types each type keeps in `$defs`, for sizes.
    closures: std::cell::RefCell<BTreeMap<(bool, bool), Rc<Closures>>>,
}

/// The most types a service may have for [`Closures`] (a bitset per strongly connected part:
/// at most this squared bits, 8 MiB); past it, a skeleton visits the types it keeps instead.
const CLOSURE_TYPES: usize = 8_192;

/// In one style, what each type's body keeps in `$defs`, transitively and itself included, as
/// a bitset over the service's types; and what each type's `$defs` entry costs in bytes.
struct Closures {
    /// Per type, its closure (shared by every type of one strongly connected part).
    of: Vec<Rc<Vec<u64>>>,
    /// Per type, the bytes of `"NAME":BODY` as compact JSON.
    entry: Vec<usize>,
}

/// A type's body as converted in one style.
pub(crate) struct Body {
    /// The converted body.
    pub(crate) value: Value,
    /// The types it refers to in `$defs`, sorted.
    shared: Vec<String>,
    /// Its size as compact JSON.
    len: usize,
    /// Its digest, computed the first time a schema digest asks for it.
    digest: std::cell::OnceCell<String>,
}

impl Memo {
    /// The body of type `name` of `svc` in `style` (one of the inlining styles).
    pub(crate) fn body(&self, svc: &Service, style: Style<'_>, name: &str) -> Rc<Body> {
        let mut conv = Converter::new(svc, style, Some(self));
        conv.visit(name)
    }

    /// The bytes that the `$defs` entries of everything `names` keep add to a schema whose
    /// `$defs` is written empty: each entry and the commas between them. `None` when the
    /// service's types are too many for closures, or a name is not one of them.
    fn counted<'n>(&self, svc: &Service, style: Style<'_>, names: impl Iterator<Item = &'n String>) -> Option<usize> {
        let closures = self.closures(svc, style)?;
        let mut bits = vec![0u64; svc.types.len().div_ceil(64)];
        for name in names {
            let of = &closures.of[svc.types.get_index_of(name.as_str())?];
            bits.iter_mut().zip(of.iter()).for_each(|(w, x)| *w |= x);
        }
        let (mut total, mut count) = (0usize, 0usize);
        for (w, word) in bits.iter().enumerate() {
            let mut x = *word;
            while x != 0 {
                total += closures.entry[w * 64 + x.trailing_zeros() as usize];
                count += 1;
                x &= x - 1;
            }
        }
        Some(total + count.saturating_sub(1))
    }

    /// The closures of every type of `svc` in `style`, computed once: one pass over the
    /// strongly connected parts of what the bodies keep, a part's closure its own types and
    /// the closures of the parts it reaches (found before it).
    fn closures(&self, svc: &Service, style: Style<'_>) -> Option<Rc<Closures>> {
        let key = (matches!(style.refs, Refs::Shared), style.close_objects);
        if let Some(c) = self.closures.borrow().get(&key) {
            return Some(Rc::clone(c));
        }
        if svc.types.len() > CLOSURE_TYPES {
            return None;
        }
        let (mut edges, mut entry) = (Vec::new(), Vec::new());
        for name in svc.types.keys() {
            let body = self.body(svc, style, name);
            edges.push(body.shared.iter().filter_map(|s| svc.types.get_index_of(s.as_str())).collect::<Vec<_>>());
            entry.push(serde_json::to_string(name).map_or(0, |q| q.len()) + 1 + body.len);
        }
        let words = svc.types.len().div_ceil(64);
        let mut of: Vec<Option<Rc<Vec<u64>>>> = vec![None; svc.types.len()];
        for part in strongly_connected(&edges) {
            let mut bits = vec![0u64; words];
            for &m in &part {
                bits[m / 64] |= 1 << (m % 64);
                for reached in edges[m].iter().filter_map(|&e| of[e].as_ref()) {
                    bits.iter_mut().zip(reached.iter()).for_each(|(w, x)| *w |= x);
                }
            }
            let bits = Rc::new(bits);
            part.iter().for_each(|&m| of[m] = Some(Rc::clone(&bits)));
        }
        let of = of.into_iter().map(|c| c.unwrap_or_default()).collect();
        let closures = Rc::new(Closures { of, entry });
        self.closures.borrow_mut().insert(key, Rc::clone(&closures));
        Some(closures)
    }

    /// The digest of type `name`'s body in `style`, hashed once per memo.
    fn digest(&self, svc: &Service, style: Style<'_>, name: &str) -> String {
        let body = self.body(svc, style, name);
        body.digest.get_or_init(|| crate::canonical::digest(&body.value)).clone()
    }
}

/// [`crate::canonical::schema_digest`] of `value` presented in `style` (an inlining one), with
/// each type's body converted and hashed once per `memo` rather than once per schema.
pub(crate) fn schema_digest(value: &Value, svc: &Service, style: Style<'_>, memo: &Memo) -> String {
    skeleton_digest(&schema_with(value, svc, style, Some(memo), Bodies::Named).0, svc, style, memo)
}

/// [`crate::canonical::schema_digest`] of a skeleton's full form: each `null` `$defs` entry
/// stands for the memo's body of that type, whose digest is read from the memo.
pub(crate) fn skeleton_digest(root: &Value, svc: &Service, style: Style<'_>, memo: &Memo) -> String {
    let Some(defs) = root.get("$defs").and_then(Value::as_object) else {
        return crate::canonical::digest(root);
    };
    let digests = defs
        .iter()
        .map(|(name, body)| {
            let d = if body.is_null() { memo.digest(svc, style, name) } else { crate::canonical::digest(body) };
            (name.clone(), Value::String(d))
        })
        .collect();
    crate::canonical::digest(&crate::canonical::with_defs(root, digests))
}

/// One conversion: the service's types, the style, and the recursive types met so far.
struct Converter<'a> {
    svc: &'a Service,
    style: Style<'a>,
    defs: BTreeMap<String, Value>,
    /// Types referred to in `$defs` whose bodies are still to convert. A worklist, not
    /// recursion: a chain of types each reaching the next nests no deeper than one body.
    pending: Vec<String>,
    /// Bodies converted before, when the caller keeps them.
    memo: Option<&'a Memo>,
    /// The types referred to in `$defs` since the body being converted began.
    seen: Vec<String>,
    /// How many memoized bodies are being converted, one inside the other: `seen` is kept
    /// only then.
    converting: usize,
    /// How the bodies kept in `$defs` are written (a skeleton needs a memo).
    bodies: Bodies,
}

impl<'a> Converter<'a> {
    fn new(svc: &'a Service, style: Style<'a>, memo: Option<&'a Memo>) -> Self {
        // Only the inlining styles read bodies; the others refer to every type by name.
        let memo = memo.filter(|_| matches!(style.refs, Refs::Inline | Refs::Shared));
        Converter {
            svc,
            style,
            defs: BTreeMap::new(),
            pending: Vec::new(),
            memo,
            seen: Vec::new(),
            converting: 0,
            bodies: Bodies::Full,
        }
    }

    /// `root` with the `$defs` every schema converted so far refers to: one root for all of
    /// them, where `#/$defs/…` resolves.
    /// In a skeleton, also the bytes the bodies left out stand for.
    fn finish(mut self, mut root: Value) -> (Value, usize) {
        let mut extra = 0;
        if let (Bodies::Counted, Some(memo)) = (self.bodies, self.memo)
            && let Some(n) = memo.counted(self.svc, self.style, self.defs.keys())
        {
            // `"$defs":{}` is in the root; the entries and the commas between them are not.
            extra = n;
            self.defs = BTreeMap::new();
            self.pending.clear();
            if extra > 0
                && let Value::Object(map) = &mut root
            {
                map.insert("$defs".into(), json!({}));
            }
            return (root, extra);
        }
        while let Some(name) = self.pending.pop() {
            if self.bodies == Bodies::Full {
                let body = self.inline(&name);
                self.defs.insert(name, body);
            } else {
                // `null` stands in for the body.
                extra += self.visit(&name).len.saturating_sub(4);
            }
        }
        if !self.defs.is_empty()
            && let Value::Object(map) = &mut root
        {
            map.insert("$defs".into(), Value::Object(self.defs.into_iter().collect()));
        }
        (root, extra)
    }

    /// A whole schema: a root that refers to a type is that type's body, never a reference,
    /// so that the root states its own `type` (MCP requires `type: object` there). A type that
    /// refers back to the root is kept in `$defs` as well.
    fn convert_root(&mut self, v: &Value) -> Value {
        let name = v.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(TYPES_PREFIX));
        let (Some(body), Value::Object(map)) = (name.and_then(|n| self.svc.types.get(n)), v) else {
            return self.convert(v);
        };
        let target = self.convert(body);
        let siblings: Map<String, Value> =
            map.iter().filter(|(k, _)| *k != "$ref").map(|(k, v)| (k.clone(), self.convert(v))).collect();
        merge(target, siblings)
    }

    fn convert(&mut self, v: &Value) -> Value {
        match v {
            Value::Object(map) => {
                if let Some(name) = map.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(TYPES_PREFIX)) {
                    let target = self.reference(name);
                    let siblings: Map<String, Value> =
                        map.iter().filter(|(k, _)| *k != "$ref").map(|(k, v)| (k.clone(), self.convert(v))).collect();
                    let mut merged = merge(target, siblings);
                    if let (true, Value::Object(m)) = (self.style.close_objects, &mut merged) {
                        close::compose(m);
                    }
                    return merged;
                }
                let mut out = Map::new();
                for (k, child) in map {
                    let converted = match k.as_str() {
                        // Data, not schemas: copied as written.
                        "enum" | "const" | "default" | "examples" | "example" | "required" => child.clone(),
                        "properties" => Value::Object(
                            child
                                .as_object()
                                .map(|p| p.iter().map(|(n, s)| (n.clone(), self.convert(s))).collect())
                                .unwrap_or_default(),
                        ),
                        _ => self.convert(child),
                    };
                    out.insert(k.clone(), converted);
                }
                if self.style.close_objects && close::compose(&mut out) && is_object_schema(&out) {
                    close::close(&mut out);
                }
                if matches!(self.style.refs, Refs::Registry) {
                    format_bounds(&mut out);
                }
                Value::Object(sorted(out))
            }
            Value::Array(items) => Value::Array(items.iter().map(|i| self.convert(i)).collect()),
            other => other.clone(),
        }
    }

    fn reference(&mut self, name: &str) -> Value {
        match self.style.refs {
            Refs::Components(names) => {
                let component =
                    names.get(&(self.svc.name.clone(), name.to_owned())).cloned().unwrap_or_else(|| name.to_owned());
                json!({ "$ref": format!("#/components/schemas/{component}") })
            }
            Refs::Registry => {
                let ident = self.svc.type_idents.get(name).map_or(name, String::as_str);
                json!({ "$ref": format!("{}#/$defs/{ident}", stitchgen_runtime::TYPES_URI) })
            }
            Refs::Shared => self.shared(name),
            Refs::Inline if self.svc.recursive.contains(name) || self.svc.expansive.contains(name) => self.shared(name),
            Refs::Inline => self.inline(name),
        }
    }

    /// A reference to type `name` kept once in the root's `$defs`.
    fn shared(&mut self, name: &str) -> Value {
        self.keep(name);
        json!({ "$ref": format!("#/$defs/{name}") })
    }

    /// Keeps type `name` in the root's `$defs`, and notes it for the body being converted.
    fn keep(&mut self, name: &str) {
        if self.converting > 0 {
            self.seen.push(name.to_owned());
        }
        if !self.defs.contains_key(name) {
            // Filled in by `finish`.
            self.defs.insert(name.to_owned(), Value::Null);
            self.pending.push(name.to_owned());
        }
    }

    /// The body of type `name`, converted.
    fn inline(&mut self, name: &str) -> Value {
        match self.memo {
            Some(_) => self.visit(name).value.clone(),
            None => self.body(name),
        }
    }

    /// The memo's body of type `name`, converted now if it is not there yet; either way the
    /// types it keeps in `$defs` are referred to from this conversion too.
    fn visit(&mut self, name: &str) -> Rc<Body> {
        let Some(memo) = self.memo else {
            let value = self.body(name);
            let len = serde_json::to_string(&value).map_or(0, |s| s.len());
            return Rc::new(Body { value, shared: Vec::new(), len, digest: Default::default() });
        };
        let key = (matches!(self.style.refs, Refs::Shared), self.style.close_objects, name.to_owned());
        let known = memo.bodies.borrow().get(&key).cloned();
        if let Some(body) = known {
            body.shared.iter().for_each(|s| self.keep(s));
            return body;
        }
        let outer = std::mem::take(&mut self.seen);
        self.converting += 1;
        let value = self.body(name);
        self.converting -= 1;
        let mut shared = std::mem::replace(&mut self.seen, outer);
        shared.sort();
        shared.dedup();
        if self.converting > 0 {
            self.seen.extend(shared.iter().cloned());
        }
        let len = serde_json::to_string(&value).map_or(0, |s| s.len());
        let body = Rc::new(Body { value, shared, len, digest: Default::default() });
        memo.bodies.borrow_mut().insert(key, Rc::clone(&body));
        body
    }

    fn body(&mut self, name: &str) -> Value {
        let svc = self.svc;
        svc.types.get(name).map_or(Value::Bool(true), |s| self.convert(s))
    }
}

/// A reference with siblings: annotations are laid over the target; anything that constrains
/// is kept beside it through `allOf`, as 2020-12 applies both.
fn merge(target: Value, mut siblings: Map<String, Value>) -> Value {
    // A sibling the target already states (`{type: object, $ref: …}` to an object) adds nothing.
    siblings.retain(|k, v| target.get(k) != Some(v));
    if siblings.is_empty() {
        return target;
    }
    // Annotations are safe to lay over an inlined reference.
    let only_annotations = siblings.keys().all(|k| crate::schema::ANNOTATIONS.contains(&k.as_str()));
    match target {
        Value::Object(mut map) if only_annotations && !map.contains_key("$ref") => {
            map.extend(siblings);
            Value::Object(sorted(map))
        }
        target => {
            let mut map = siblings;
            map.insert("allOf".into(), Value::Array(vec![target]));
            Value::Object(sorted(map))
        }
    }
}

/// A schema's keywords in sorted order, so that how a contract orders them moves no artifact.
/// The order of `properties` is kept: it is the order in which people and models read fields.
fn sorted(map: Map<String, Value>) -> Map<String, Value> {
    let by_key: BTreeMap<String, Value> = map.into_iter().collect();
    by_key.into_iter().collect()
}

fn is_object_schema(map: &Map<String, Value>) -> bool {
    map.get("type").is_some_and(|t| t == "object" || t.as_array().is_some_and(|a| a.iter().any(|x| x == "object")))
        || map.contains_key("properties")
}

/// Follows references from `v` to a schema that is not a bare reference.
pub fn resolve<'a>(v: &'a Value, svc: &'a Service) -> &'a Value {
    let mut v = v;
    for _ in 0..64 {
        let Some(name) = v.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(TYPES_PREFIX)) else {
            break;
        };
        match svc.types.get(name) {
            Some(t) => v = t,
            None => break,
        }
    }
    v
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::Model;

    /// Every valid fixture, and the two shapes whose types reach each other most.
    pub(crate) fn models() -> Vec<(String, Model)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        let mut paths: Vec<_> = std::fs::read_dir(root.join("valid")).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        paths.extend(
            ["W0007_ring_of_100_types", "W0007_user_referenced_100_times"]
                .map(|n| root.join("invalid").join(format!("{n}.stitch.yaml"))),
        );
        paths
            .into_iter()
            .map(|p| {
                let input = (p.display().to_string(), std::fs::read(&p).unwrap());
                let checked = crate::check_inputs(&[input], &crate::Options::default());
                assert!(!checked.has_errors(), "{}", p.display());
                (p.display().to_string(), crate::model::lower(&checked.contracts, &checked.sources, &checked.options))
            })
            .collect()
    }

    /// A skeleton's sizes, counted from closures or from `null` entries, are those of the
    /// schemas spelled out in full, in every style a tool is built in.
    #[test]
    fn skeleton_sizes_equal_those_of_tools_in_full() {
        use crate::parse::ast::Surface;
        let mut kept = 0;
        for (name, model) in models() {
            for svc in &model.services {
                let memo = Memo::default();
                for op in &svc.operations {
                    for refs in [Refs::Inline, Refs::Shared] {
                        for close_objects in [false, true] {
                            let style = Style { refs, close_objects };
                            let shows = tool::Shows { style, answer: true, hints: true };
                            let Some(full) = tool::build(op, svc, shows, &memo, Bodies::Full) else { continue };
                            kept += usize::from(full.tool.output.as_ref().is_some_and(|o| o.get("$defs").is_some()));
                            for bodies in [Bodies::Named, Bodies::Counted] {
                                let sized = tool::build(op, svc, shows, &memo, bodies).unwrap();
                                for t in [Surface::Mcp, Surface::Agent, Surface::Cli] {
                                    assert_eq!(
                                        sized.size(t),
                                        full.tool.size(t),
                                        "{name}: {} {bodies:?} {style:?}",
                                        op.action
                                    );
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(kept > 100, "the fixtures keep types in `$defs`: {kept}");
    }
}
