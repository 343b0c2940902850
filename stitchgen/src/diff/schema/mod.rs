//! Comparing two presented schemas keyword by keyword, in one direction: what an input accepts
//! or what an output may hold. `allOf` is compared as the one schema it composes
//! ([`compose`]), `anyOf`/`oneOf` branch by branch ([`union`]), and a reference into the
//! root's `$defs` (a recursive type) as the body it names.

use std::borrow::Cow;
use std::collections::BTreeSet;

use serde_json::{Map, Value};

mod union;

use super::Out;
use super::location::{At, Found};
use super::rules::Consumer;

/// Which way a schema is read: what callers send, or what they get back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dir {
    Input,
    Output,
}

/// How deep a comparison goes; presented schemas are finite, but nothing about them is trusted.
const MAX_DEPTH: usize = 64;

/// One comparison of two root schemas: where its changes go, and each side's root `$defs`.
pub(super) struct Walk<'a> {
    pub(super) dir: Dir,
    consumer: Consumer,
    subject: &'a str,
    out: &'a mut Out,
    defs: [Option<&'a Map<String, Value>>; 2],
    /// Pairs of `$defs` names met, so that a recursive type is compared once.
    seen: BTreeSet<(String, String)>,
    /// Pairs of `$defs` names met but not compared yet: compared after the root, each at
    /// `$defs.NAME`, from a worklist, so that a long chain of types needs no deep stack.
    queue: Vec<(String, String)>,
    /// Whether both roots' `$defs` are equal: else two equal references may name different bodies.
    same_defs: bool,
}

/// Compares two presented root schemas at `at`.
pub(super) fn compare(o: &Value, n: &Value, at: &str, dir: Dir, consumer: Consumer, subject: &str, out: &mut Out) {
    let root = At::root(at);
    fn defs(v: &Value) -> Option<&Map<String, Value>> {
        v.get("$defs").and_then(Value::as_object)
    }
    let same_defs = defs(o) == defs(n);
    let mut walk = Walk {
        dir,
        consumer,
        subject,
        out,
        defs: [defs(o), defs(n)],
        seen: BTreeSet::new(),
        queue: Vec::new(),
        same_defs,
    };
    walk.schema(o, n, &root, 0);
    let mut next = 0;
    while let Some((a, b)) = walk.queue.get(next).cloned() {
        next += 1;
        let (Some(ob), Some(nb)) = (walk.defs[0].and_then(|d| d.get(&a)), walk.defs[1].and_then(|d| d.get(&b))) else {
            continue;
        };
        let shown = if a == b { format!("$defs.{a}") } else { format!("$defs.{a}→{b}") };
        let at = root.def(shown, &a, &b);
        walk.schema(ob, nb, &at, 0);
    }
}

/// The side of a comparison a schema is from: `0` old, `1` new.
pub(super) type Side = usize;

impl<'a> Walk<'a> {
    pub(super) fn push(&mut self, rule: &'static str, detail: String, found: Found) {
        self.out.push_found(self.consumer, self.subject, rule, detail, found);
    }

    /// The `$defs` entry a schema `{"$ref": "#/$defs/NAME"}` names, with its name.
    pub(super) fn target(&self, side: Side, v: &Value) -> Option<(String, &'a Value)> {
        let name = def_ref(v)?;
        let body = self.defs[side].and_then(|d| d.get(name))?;
        Some((name.to_owned(), body))
    }

    /// Compares `o` (old) with `n` (new) at `at`, recursively.
    pub(super) fn schema(&mut self, o: &Value, n: &Value, at: &At, depth: usize) {
        if o == n && (self.same_defs || !refers(o)) || depth > MAX_DEPTH {
            return;
        }
        if def_ref(o).is_some() || def_ref(n).is_some() {
            return self.reference(o, n, at, depth);
        }
        let (o, n) = (compose(self, 0, o), compose(self, 1, n));
        if o == n && (self.same_defs || !refers(&o)) {
            return;
        }
        if union::of(&o).is_some() || union::of(&n).is_some() {
            return union::compare(self, &o, &n, at, depth);
        }
        self.keywords(&o, &n, at, depth);
    }

    /// A reference on either side. Two references: their types are compared later, once per
    /// pair. One: it is read through to its body, and compared with the other side here.
    fn reference(&mut self, o: &Value, n: &Value, at: &At, depth: usize) {
        let (ot, nt) = (self.target(0, o), self.target(1, n));
        match (ot, nt) {
            (Some((a, _)), Some((b, _))) if self.seen.insert((a.clone(), b.clone())) => self.queue.push((a, b)),
            (Some(_), Some(_)) => {}
            (Some((_, ob)), None) if def_ref(n).is_none() && def_ref(ob).is_none() => self.schema(ob, n, at, depth + 1),
            (None, Some((_, nb))) if def_ref(o).is_none() && def_ref(nb).is_none() => self.schema(o, nb, at, depth + 1),
            // A reference to a reference, or to nothing: nothing a presented schema holds.
            _ => {}
        }
    }

    /// Everything but composition: types, values, bounds, fields, items and maps.
    fn keywords(&mut self, o: &Value, n: &Value, at: &At, depth: usize) {
        // Parts of an `allOf` that do not merge into one schema are compared as written.
        let parts = |v: &Value| -> BTreeSet<String> {
            v.get("allOf")
                .and_then(Value::as_array)
                .map(|a| a.iter().map(crate::canonical::canonical).collect())
                .unwrap_or_default()
        };
        if parts(o) != parts(n) {
            self.push(
                "composition-changed",
                format!("{at}: an `allOf` part that does not merge changed"),
                at.both(o, n),
            );
        }
        let dir = self.dir;
        let mut found = Vec::new();
        let mut push = |rule: &'static str, detail: String| found.push((rule, format!("{at}: {detail}")));
        types_changed(o, n, dir, &mut push);
        open_parts(o, n, dir, &mut push);
        enums(o, n, dir, &mut push);
        constraints(o, n, dir, &mut push);
        for (rule, detail) in found {
            self.push(rule, detail, at.both(o, n));
        }
        self.fields(o, n, at, depth);
        if let (Some(oi), Some(ni)) = (o.get("items"), n.get("items")) {
            self.schema(oi, ni, &at.then("[]", "/items", "/items"), depth + 1);
        }
        if let (Some(oa), Some(na)) = (o.get("additionalProperties"), n.get("additionalProperties"))
            && oa.is_object()
            && na.is_object()
        {
            let extra = "/additionalProperties";
            self.schema(oa, na, &at.then(".*", extra, extra), depth + 1);
        }
    }

    /// Properties removed, added, made required or optional, and each kept one compared.
    fn fields(&mut self, o: &Value, n: &Value, at: &At, depth: usize) {
        let (op, np) = (props(o), props(n));
        let (or, nr) = (strings(o.get("required")), strings(n.get("required")));
        let dir = self.dir;
        // A field made required or optional: the `required` lists are what changed.
        let lists = at.then("", "/required", "/required").values(o.get("required"), n.get("required"));
        for (name, schema) in &op {
            let field = at.field(name);
            let Some(new_schema) = np.get(name) else {
                let rule = if dir == Dir::Input { "input-removed" } else { "output-field-removed" };
                self.push(rule, field.to_string(), field.removed(schema));
                continue;
            };
            let (was, is) = (or.contains(name.as_str()), nr.contains(name.as_str()));
            let rule = match (dir, was, is) {
                (Dir::Input, false, true) => Some("input-made-required"),
                (Dir::Input, true, false) => Some("input-made-optional"),
                (Dir::Output, true, false) => Some("output-field-made-optional"),
                (Dir::Output, false, true) => Some("output-field-made-required"),
                _ => None,
            };
            if let Some(rule) = rule {
                self.push(rule, field.to_string(), lists.clone());
            }
            self.schema(schema, new_schema, &field, depth + 1);
        }
        for name in np.keys().filter(|k| !op.contains_key(*k)) {
            let rule = match dir {
                Dir::Input if nr.contains(name.as_str()) => "required-input-added",
                Dir::Input => "optional-input-added",
                Dir::Output => "output-field-added",
            };
            let field = at.field(name);
            self.push(rule, field.to_string(), field.added(&np[name]));
        }
    }
}

/// Whether `v` holds a reference anywhere.
fn refers(v: &Value) -> bool {
    match v {
        Value::Object(m) => m.contains_key("$ref") || m.values().any(refers),
        Value::Array(a) => a.iter().any(refers),
        _ => false,
    }
}

/// `NAME` of a schema that is only `{"$ref": "#/$defs/NAME"}`.
pub(super) fn def_ref(v: &Value) -> Option<&str> {
    v.get("$ref")?.as_str()?.strip_prefix("#/$defs/")
}

/// A schema with its `allOf` merged into it, as far as its parts merge: properties and
/// `required` together, the stricter of two bounds, the common types and values. A part that
/// does not merge (two different patterns, say) stays in `allOf`.
pub(super) fn compose<'v>(walk: &Walk<'_>, side: Side, v: &'v Value) -> Cow<'v, Value> {
    compose_at(walk, side, v, 0)
}

fn compose_at<'v>(walk: &Walk<'_>, side: Side, v: &'v Value, depth: usize) -> Cow<'v, Value> {
    let (Some(parts), Value::Object(map)) = (v.get("allOf").and_then(Value::as_array), v) else {
        return Cow::Borrowed(v);
    };
    if depth > 8 {
        return Cow::Borrowed(v);
    }
    let mut base: Map<String, Value> =
        map.iter().filter(|(k, _)| *k != "allOf").map(|(k, v)| (k.clone(), v.clone())).collect();
    let mut rest = Vec::new();
    for part in parts {
        // A recursive type's reference merges as its body: its own references stay references.
        let part = walk.target(side, part).map_or(part, |(_, body)| body);
        let part = compose_at(walk, side, part, depth + 1);
        match part.as_ref() {
            Value::Bool(true) => {}
            Value::Object(m) => match merged(&base, m) {
                Some(m) => base = m,
                None => rest.push(part.into_owned()),
            },
            other => rest.push(other.clone()),
        }
    }
    if !rest.is_empty() {
        base.insert("allOf".into(), Value::Array(rest));
    }
    Cow::Owned(Value::Object(base))
}

/// `a` and `b` as one schema, or `None` where a keyword of each cannot be combined.
fn merged(a: &Map<String, Value>, b: &Map<String, Value>) -> Option<Map<String, Value>> {
    let mut out = a.clone();
    for (k, bv) in b {
        let Some(av) = a.get(k) else {
            out.insert(k.clone(), bv.clone());
            continue;
        };
        if av == bv {
            continue;
        }
        let value = match k.as_str() {
            // The parent's annotation wins, as it does over an inlined reference.
            k if crate::schema::ANNOTATIONS.contains(&k) => av.clone(),
            "properties" => {
                let (Value::Object(ap), Value::Object(bp)) = (av, bv) else { return None };
                let mut props = ap.clone();
                for (name, s) in bp {
                    let both = match props.get(name) {
                        Some(prev) if prev != s => Value::Object(Map::from_iter([(
                            "allOf".to_owned(),
                            Value::Array(vec![prev.clone(), s.clone()]),
                        )])),
                        _ => s.clone(),
                    };
                    props.insert(name.clone(), both);
                }
                Value::Object(props)
            }
            "required" => {
                let mut names: Vec<Value> = av.as_array()?.clone();
                names.extend(bv.as_array()?.iter().filter(|n| !names.contains(n)).cloned().collect::<Vec<_>>());
                Value::Array(names)
            }
            "type" => common_types(av, bv)?,
            "enum" => Value::Array(
                av.as_array()?.iter().filter(|x| bv.as_array().is_some_and(|b| b.contains(x))).cloned().collect(),
            ),
            "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties" => {
                if av.as_f64()? >= bv.as_f64()? { av.clone() } else { bv.clone() }
            }
            "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties" => {
                if av.as_f64()? <= bv.as_f64()? { av.clone() } else { bv.clone() }
            }
            "uniqueItems" => Value::Bool(av.as_bool()? || bv.as_bool()?),
            "additionalProperties" if av == &Value::Bool(false) || bv == &Value::Bool(false) => Value::Bool(false),
            "additionalProperties" if av == &Value::Bool(true) => bv.clone(),
            "additionalProperties" if bv == &Value::Bool(true) => av.clone(),
            "items" | "additionalProperties" => {
                Value::Object(Map::from_iter([("allOf".to_owned(), Value::Array(vec![av.clone(), bv.clone()]))]))
            }
            _ => return None,
        };
        out.insert(k.clone(), value);
    }
    Some(out)
}

/// The types both `type` keywords allow (`integer` is a `number`), or `None` if none.
fn common_types(a: &Value, b: &Value) -> Option<Value> {
    let set = |v: &Value| -> BTreeSet<String> {
        match v {
            Value::String(s) => BTreeSet::from([s.clone()]),
            Value::Array(a) => a.iter().filter_map(|t| t.as_str().map(str::to_owned)).collect(),
            _ => BTreeSet::new(),
        }
    };
    let (a, b) = (set(a), set(b));
    let allows = |s: &BTreeSet<String>, t: &str| s.contains(t) || t == "integer" && s.contains("number");
    let both: Vec<Value> =
        a.union(&b).filter(|t| allows(&a, t) && allows(&b, t)).map(|t| Value::String(t.clone())).collect();
    match both.len() {
        0 => None,
        1 => both.into_iter().next(),
        _ => Some(Value::Array(both)),
    }
}

pub(super) fn props(v: &Value) -> Map<String, Value> {
    v.get("properties").and_then(Value::as_object).cloned().unwrap_or_default()
}

pub(super) fn strings(v: Option<&Value>) -> BTreeSet<&str> {
    v.and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default()
}

pub(super) fn types(v: &Value) -> Option<BTreeSet<String>> {
    match v.get("type")? {
        Value::String(s) => Some(BTreeSet::from([s.clone()])),
        Value::Array(a) => Some(a.iter().filter_map(|t| t.as_str().map(str::to_owned)).collect()),
        _ => None,
    }
}

fn values(v: &Value) -> Option<Vec<Value>> {
    v.get("enum").and_then(Value::as_array).cloned().or_else(|| v.get("const").map(|c| vec![c.clone()]))
}

fn join(set: &BTreeSet<String>) -> String {
    set.iter().cloned().collect::<Vec<_>>().join(", ")
}

/// Types lost or gained, and a `type` added where any value was accepted, or removed.
pub(super) fn types_changed(o: &Value, n: &Value, dir: Dir, push: &mut impl FnMut(&'static str, String)) {
    if let (Some(ot), Some(nt)) = (types(o), types(n)) {
        // `number` accepts every integer: integer → number widens, number → integer narrows.
        let lost: Vec<String> =
            ot.iter().filter(|t| !(nt.contains(*t) || *t == "integer" && nt.contains("number"))).cloned().collect();
        let gained: Vec<String> =
            nt.iter().filter(|t| !(ot.contains(*t) || *t == "integer" && ot.contains("number"))).cloned().collect();
        let (narrowed, widened) = match dir {
            Dir::Input => (("input-type-narrowed", "no longer accepts"), ("input-type-widened", "also accepts")),
            Dir::Output => (("output-type-narrowed", "can no longer be"), ("output-type-widened", "may now be")),
        };
        if !lost.is_empty() {
            push(narrowed.0, format!("{} {}", narrowed.1, lost.join(", ")));
        }
        if !gained.is_empty() {
            push(widened.0, format!("{} {}", widened.1, gained.join(", ")));
        }
    }
    match (types(o), types(n), dir) {
        (None, Some(nt), Dir::Input) => push("input-type-narrowed", format!("now accepts {} only", join(&nt))),
        (Some(_), None, Dir::Input) => push("input-type-widened", "accepts any type".into()),
        (None, Some(nt), Dir::Output) => push("output-type-narrowed", format!("is always {} now", join(&nt))),
        (Some(_), None, Dir::Output) => push("output-type-widened", "may be any type".into()),
        _ => {}
    }
}

/// `items` and `additionalProperties` appearing or disappearing: what an array or object may hold.
fn open_parts(o: &Value, n: &Value, dir: Dir, push: &mut impl FnMut(&'static str, String)) {
    // Absent `additionalProperties` accepts anything, like `true`.
    let extra = |v: &Value| v.get("additionalProperties").cloned().filter(|a| a != &Value::Bool(true));
    let parts =
        [("items", o.get("items").cloned(), n.get("items").cloned()), ("additionalProperties", extra(o), extra(n))];
    for (kw, a, b) in parts {
        let (stricter, looser) = match (&a, &b) {
            (None, Some(_)) => (true, false),
            (Some(_), None) => (false, true),
            // A changed schema is compared where both are schemas; `false` ⇄ schema is a change.
            (Some(x), Some(y)) if x != y && (x.is_boolean() || y.is_boolean()) => {
                (y == &Value::Bool(false), x == &Value::Bool(false))
            }
            _ => (false, false),
        };
        match dir {
            Dir::Input if stricter => push("input-constraint-narrowed", format!("`{kw}` now constrains what it holds")),
            Dir::Input if looser => {
                push("input-constraint-widened", format!("`{kw}` no longer constrains what it holds"))
            }
            Dir::Output if looser => push("output-type-widened", format!("`{kw}` no longer constrains what it holds")),
            Dir::Output if stricter => {
                push("output-constraint-changed", format!("`{kw}` now constrains what it holds"))
            }
            _ => {}
        }
    }
}

fn enums(o: &Value, n: &Value, dir: Dir, push: &mut impl FnMut(&'static str, String)) {
    let (Some(ov), Some(nv)) = (values(o), values(n)) else {
        match (values(o), values(n), dir) {
            (None, Some(_), Dir::Input) => push("input-enum-narrowed", "now accepts listed values only".into()),
            (Some(_), None, Dir::Input) => push("input-enum-widened", "accepts any value of its type".into()),
            (None, Some(_), Dir::Output) => push("output-enum-narrowed", "now holds listed values only".into()),
            (Some(_), None, Dir::Output) => push("output-enum-widened", "may hold any value of its type".into()),
            _ => {}
        }
        return;
    };
    let lost: Vec<String> = ov.iter().filter(|v| !nv.contains(v)).map(Value::to_string).collect();
    let gained: Vec<String> = nv.iter().filter(|v| !ov.contains(v)).map(Value::to_string).collect();
    match dir {
        Dir::Input => {
            if !lost.is_empty() {
                push("input-enum-narrowed", format!("no longer accepts {}", lost.join(", ")));
            }
            if !gained.is_empty() {
                push("input-enum-widened", format!("also accepts {}", gained.join(", ")));
            }
        }
        Dir::Output => {
            if !gained.is_empty() {
                push("output-enum-widened", format!("may now be {}", gained.join(", ")));
            }
            if !lost.is_empty() {
                push("output-enum-narrowed", format!("is never {} now", lost.join(", ")));
            }
        }
    }
}

/// Bounds, patterns and formats: for inputs, stricter is breaking and looser is info.
fn constraints(o: &Value, n: &Value, dir: Dir, push: &mut impl FnMut(&'static str, String)) {
    let num = |v: &Value, k: &str| v.get(k).and_then(Value::as_f64);
    let mut stricter = Vec::new();
    let mut looser = Vec::new();
    for (k, higher_is_stricter) in [
        ("minimum", true),
        ("exclusiveMinimum", true),
        ("minLength", true),
        ("minItems", true),
        ("maximum", false),
        ("exclusiveMaximum", false),
        ("maxLength", false),
        ("maxItems", false),
    ] {
        match (num(o, k), num(n, k)) {
            (None, Some(b)) => stricter.push(format!("{k}: {b}")),
            (Some(a), None) => looser.push(format!("{k}: {a} removed")),
            (Some(a), Some(b)) if a != b => {
                if (b > a) == higher_is_stricter {
                    stricter.push(format!("{k}: {a} → {b}"))
                } else {
                    looser.push(format!("{k}: {a} → {b}"))
                }
            }
            _ => {}
        }
    }
    let unique = |v: &Value| v.get("uniqueItems").and_then(Value::as_bool).unwrap_or(false);
    match (unique(o), unique(n)) {
        (false, true) => stricter.push("uniqueItems: true".into()),
        (true, false) => looser.push("uniqueItems: false".into()),
        _ => {}
    }
    match (num(o, "multipleOf"), num(n, "multipleOf")) {
        (None, Some(b)) => stricter.push(format!("multipleOf: {b}")),
        (Some(a), None) => looser.push(format!("multipleOf: {a} removed")),
        // Every multiple of `a` is a multiple of `b` when `b` divides `a`: looser.
        (Some(a), Some(b)) if a != b => {
            if (a / b).fract() == 0.0 {
                looser.push(format!("multipleOf: {a} → {b}"))
            } else {
                stricter.push(format!("multipleOf: {a} → {b}"))
            }
        }
        _ => {}
    }
    for k in ["pattern", "format"] {
        match (o.get(k), n.get(k)) {
            (None, Some(b)) => stricter.push(format!("{k}: {b}")),
            (Some(a), None) => looser.push(format!("{k}: {a} removed")),
            (Some(a), Some(b)) if a != b => stricter.push(format!("{k}: {a} → {b}")),
            _ => {}
        }
    }
    match dir {
        Dir::Input => {
            if !stricter.is_empty() {
                push("input-constraint-narrowed", stricter.join(", "));
            }
            if !looser.is_empty() {
                push("input-constraint-widened", looser.join(", "));
            }
        }
        Dir::Output => {
            let all: Vec<String> = stricter.into_iter().chain(looser).collect();
            if !all.is_empty() {
                push("output-constraint-changed", all.join(", "));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn changes(o: Value, n: Value, dir: Dir) -> Vec<(&'static str, String)> {
        let mut out = Out(Vec::new());
        compare(&o, &n, "input", dir, Consumer::Http, "s.a", &mut out);
        out.0.into_iter().map(|c| (c.rule, c.detail)).collect()
    }

    fn rules(o: Value, n: Value, dir: Dir) -> Vec<&'static str> {
        changes(o, n, dir).into_iter().map(|c| c.0).collect()
    }

    #[test]
    fn a_type_on_an_untyped_value_narrows_inputs() {
        assert_eq!(rules(json!({}), json!({ "type": "integer" }), Dir::Input), ["input-type-narrowed"]);
        assert_eq!(rules(json!({ "type": "integer" }), json!({}), Dir::Input), ["input-type-widened"]);
        assert_eq!(
            rules(json!({ "type": "integer" }), json!({ "type": "number" }), Dir::Input),
            ["input-type-widened"]
        );
    }

    #[test]
    fn items_and_additional_properties() {
        assert_eq!(
            rules(json!({ "type": "array" }), json!({ "type": "array", "items": { "type": "string" } }), Dir::Input),
            ["input-constraint-narrowed"]
        );
        assert_eq!(
            rules(json!({ "type": "object" }), json!({ "type": "object", "additionalProperties": false }), Dir::Input),
            ["input-constraint-narrowed"]
        );
        assert_eq!(
            rules(json!({ "type": "array", "items": {} }), json!({ "type": "array" }), Dir::Output),
            ["output-type-widened"]
        );
        let map = |t: &str| json!({ "type": "object", "additionalProperties": { "type": t } });
        assert_eq!(rules(map("string"), map("integer"), Dir::Input), ["input-type-narrowed", "input-type-widened"]);
    }

    /// An object with fields `fields`, all required but `note`.
    fn object(fields: &[&str]) -> Value {
        let props: Map<String, Value> = fields.iter().map(|f| (f.to_string(), json!({ "type": "string" }))).collect();
        let required: Vec<&str> = fields.iter().copied().filter(|f| *f != "note").collect();
        json!({ "type": "object", "properties": props, "required": required })
    }

    fn nullable(v: Value) -> Value {
        json!({ "anyOf": [v, { "type": "null" }] })
    }

    #[test]
    fn inside_a_nullable_reference_fields_are_compared() {
        let (old, new) = (nullable(object(&["city", "street"])), nullable(object(&["city"])));
        assert_eq!(
            changes(old.clone(), new.clone(), Dir::Output),
            [("output-field-removed", "input.street".to_owned())]
        );
        assert_eq!(rules(old.clone(), new, Dir::Input), ["input-removed"]);
        let mut optional = object(&["city", "street"]);
        optional["required"] = json!(["city"]);
        assert_eq!(rules(old.clone(), nullable(optional), Dir::Output), ["output-field-made-optional"]);
        assert_eq!(rules(old, nullable(object(&["city", "street", "zip"])), Dir::Input), ["required-input-added"]);
    }

    #[test]
    fn a_nullable_value_is_one_union_however_it_is_spelled() {
        let typed = json!({ "type": ["object", "null"], "properties": { "a": { "type": "string" } } });
        let union = nullable(json!({ "type": "object", "properties": { "a": { "type": "string" } } }));
        assert_eq!(rules(typed.clone(), union.clone(), Dir::Input), Vec::<&str>::new());
        assert_eq!(rules(union, typed, Dir::Output), Vec::<&str>::new());
        // Made nullable, or no longer: a type change, as with `type: [object, "null"]`.
        let plain = object(&["a"]);
        assert_eq!(rules(plain.clone(), nullable(plain.clone()), Dir::Output), ["output-type-widened"]);
        assert_eq!(rules(nullable(plain.clone()), plain, Dir::Input), ["input-type-narrowed"]);
    }

    fn variant(kind: &str, fields: &[&str]) -> Value {
        let mut v = object(fields);
        v["properties"]["kind"] = json!({ "const": kind });
        v["required"].as_array_mut().unwrap().push(json!("kind"));
        v
    }

    #[test]
    fn one_of_branches_pair_by_discriminator() {
        let old = json!({ "oneOf": [variant("card", &["last4"]), variant("bank", &["iban", "bic"])] });
        let new = json!({ "oneOf": [variant("bank", &["iban"]), variant("card", &["last4"])] });
        assert_eq!(
            changes(old.clone(), new, Dir::Output),
            [("output-field-removed", "input(kind = \"bank\").bic".to_owned())]
        );
        // A branch with a new discriminator value is not the old one changed.
        let swapped = json!({ "oneOf": [variant("card", &["last4"]), variant("cash", &["iban", "bic"])] });
        assert_eq!(rules(old.clone(), swapped.clone(), Dir::Output), ["output-branch-removed", "output-branch-added"]);
        assert_eq!(rules(old, swapped, Dir::Input), ["input-branch-removed", "input-branch-added"]);
    }

    #[test]
    fn one_of_distinct_types_pair_by_type() {
        let old = json!({ "oneOf": [{ "type": "string", "maxLength": 10 }, { "type": "array", "items": { "type": "string" } }] });
        let new = json!({ "oneOf": [{ "type": "array", "items": { "type": "string" }, "maxItems": 3 }, { "type": "string", "maxLength": 10 }] });
        assert_eq!(
            changes(old.clone(), new, Dir::Input),
            [("input-constraint-narrowed", "input(array): maxItems: 3".to_owned())]
        );
        let fewer = json!({ "oneOf": [{ "type": "string", "maxLength": 10 }] });
        assert_eq!(rules(old.clone(), fewer.clone(), Dir::Input), ["input-branch-removed"]);
        assert_eq!(rules(fewer.clone(), old.clone(), Dir::Input), ["input-branch-added"]);
        assert_eq!(rules(fewer, old, Dir::Output), ["output-branch-added"]);
    }

    #[test]
    fn all_of_is_the_schema_it_composes() {
        let old = json!({ "allOf": [object(&["id"]), object(&["name"])] });
        let merged = object(&["id", "name"]);
        assert_eq!(rules(old.clone(), merged, Dir::Input), Vec::<&str>::new());
        let new = json!({ "allOf": [object(&["id"]), object(&["name", "email"])] });
        assert_eq!(changes(old.clone(), new, Dir::Input), [("required-input-added", "input.email".to_owned())]);
        let gone = json!({ "allOf": [object(&["id"])] });
        assert_eq!(rules(old, gone, Dir::Output), ["output-field-removed"]);
    }

    #[test]
    fn a_bound_beside_a_reference_is_compared() {
        // How a reference with a sibling is presented inline: the sibling beside an `allOf`.
        let old = json!({ "type": "integer", "minimum": 0 });
        let new = json!({ "maximum": 10, "allOf": [{ "type": "integer", "minimum": 0 }] });
        assert_eq!(
            changes(old.clone(), new.clone(), Dir::Input),
            [("input-constraint-narrowed", "input: maximum: 10".to_owned())]
        );
        assert_eq!(rules(new, old, Dir::Output), ["output-constraint-changed"]);
    }

    #[test]
    fn three_references_deep() {
        // A recursive type stays a reference into `$defs`; each is read through to its body.
        let root = |leaf: Value| {
            json!({
                "$ref": "#/$defs/A",
                "$defs": {
                    "A": { "type": "object", "properties": { "b": { "$ref": "#/$defs/B" }, "up": { "$ref": "#/$defs/A" } } },
                    "B": { "type": "object", "properties": { "c": { "anyOf": [{ "$ref": "#/$defs/C" }, { "type": "null" }] } } },
                    "C": leaf,
                }
            })
        };
        let old = root(object(&["x", "y"]));
        let new = root(object(&["x"]));
        assert_eq!(changes(old, new, Dir::Output), [("output-field-removed", "$defs.C.y".to_owned())]);
        // Inlined, as a type that is not recursive is presented: the path is the field's.
        let nest = |leaf: Value| {
            nullable(json!({ "type": "object", "properties": { "b": { "allOf": [nullable(json!({
                "type": "object", "properties": { "c": nullable(leaf) } }))] } } }))
        };
        let (old, new) = (nest(object(&["x", "y"])), nest(object(&["x"])));
        assert_eq!(changes(old, new, Dir::Output), [("output-field-removed", "input.b.c.y".to_owned())]);
    }

    #[test]
    fn keywords_beside_a_union_are_compared_once() {
        let old = json!({ "type": "object", "properties": { "id": { "type": "string" } }, "required": ["id"],
            "oneOf": [variant("card", &["last4"]), variant("bank", &["iban"])] });
        let mut new = old.clone();
        new["properties"] = json!({});
        new["required"] = json!([]);
        assert_eq!(changes(old.clone(), new, Dir::Output), [("output-field-removed", "input.id".to_owned())]);
        // Against a schema that is not a union, they apply to each branch: the plain object
        // pairs with the first branch of its type, which adds two fields, and the other is new.
        let plain = json!({ "type": "object", "properties": { "id": { "type": "string" } }, "required": ["id"] });
        let found = changes(plain, old, Dir::Output);
        let found: Vec<(&str, &str)> = found.iter().map(|(r, d)| (*r, d.as_str())).collect();
        assert_eq!(
            found,
            [
                ("output-field-added", "input(object).last4"),
                ("output-field-added", "input(object).kind"),
                ("output-branch-added", "input: may now be kind = \"bank\""),
            ]
        );
    }

    #[test]
    fn switching_one_of_for_any_of_is_a_composition_change() {
        let old = json!({ "oneOf": [{ "type": "string" }, { "type": "integer" }] });
        let new = json!({ "anyOf": [{ "type": "string" }, { "type": "integer" }] });
        assert_eq!(rules(old, new, Dir::Input), ["composition-changed"]);
    }

    #[test]
    fn each_pointer_names_the_values_it_reports_on_their_side() {
        let shared = json!({ "type": "object", "properties": { "n": { "type": "integer" } } });
        let cases = [
            (
                json!({ "type": "object", "properties": { "a/b": { "type": "string" }, "c": { "type": "integer" } } }),
                json!({ "type": "object", "required": ["c"], "properties": { "c": { "type": "string" }, "d": { "type": "string" } } }),
            ),
            (
                json!({ "type": "array", "items": { "type": "string", "maxLength": 9 } }),
                json!({ "type": "array", "items": { "type": "string", "maxLength": 3 } }),
            ),
            (
                json!({ "oneOf": [{ "type": "string" }, { "type": "object", "properties": { "x": { "type": "string" } } }] }),
                json!({ "oneOf": [{ "type": "string" }, { "type": "object", "properties": {} }, { "type": "boolean" }] }),
            ),
            (
                json!({ "$ref": "#/$defs/T", "$defs": { "T": { "type": "object", "properties": { "t": shared.clone() } } } }),
                json!({ "$ref": "#/$defs/T", "$defs": { "T": { "type": "object", "properties": { "t": { "type": "object", "properties": {} } } } } }),
            ),
        ];
        for (o, n) in cases {
            let mut out = Out(Vec::new());
            compare(&o, &n, "input", Dir::Input, Consumer::Http, "s.a", &mut out);
            assert!(!out.0.is_empty());
            let (old_doc, new_doc) = (json!({ "input": o }), json!({ "input": n }));
            for c in out.0 {
                let pointer = c.pointer.as_deref().unwrap_or_else(|| panic!("{}: no pointer", c.detail));
                let (doc, value) = match (&c.old, &c.new) {
                    (_, Some(v)) => (&new_doc, v),
                    (Some(v), None) => (&old_doc, v),
                    (None, None) => panic!("{}: no value", c.detail),
                };
                assert_eq!(doc.pointer(pointer), Some(value), "{} at {pointer}", c.detail);
            }
        }
    }
}
