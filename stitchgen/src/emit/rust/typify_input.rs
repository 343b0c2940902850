//! The schema typify reads: a contract schema rewritten, without changing what it accepts, where
//! typify would otherwise misread it. The runner validates against the contract's own schema;
//! these rewrites only shape the Rust types.

use std::collections::{BTreeMap, BTreeSet};

use indexmap::IndexMap;
use serde_json::{Map, Value, json};

use crate::schema::TYPES_PREFIX;

/// Keywords whose values are data, not schemas: never rewritten.
const DATA: &[&str] = &["enum", "const", "default", "examples", "example", "required", "type"];

/// The rewriting of one service's schemas: which shared types are nullable.
pub(super) struct Input {
    /// Shared types that accept `null` (`type: [object, "null"]`, or a union with a null
    /// branch). typify makes such a type a newtype of `Option` of itself, which does not
    /// compile; it is defined without `null` and is optional where it is used instead.
    nullable: BTreeSet<String>,
    /// The Rust names of the shared types, as typify gives them.
    declared: BTreeSet<String>,
    /// Each shared type's unique Rust name by contract name: typify reads the types under these
    /// names, and references point at them, so two names of one UpperCamelCase stay two types.
    idents: BTreeMap<String, String>,
    /// The shared types as the contract writes them, by Rust name, for [`Input::weight`].
    defs: BTreeMap<String, Value>,
}

/// The weight of an `allOf` past which typify is not asked to merge it. typify merges each part
/// into every branch of each union it meets, with the negation of every other branch: time and
/// memory grow with the product of the unions' branches across the parts (Cloudflare's 18 rule
/// kinds beside one more property, or its 8 kinds of application answered twice over, took
/// more than 8 GB). Such an `allOf` is a JSON value in Rust, which holds every field sent; the
/// runner validates it against the contract.
const MAX_MERGE_WEIGHT: usize = 16;

impl Input {
    /// The rewriting for a service with these shared types and their Rust names.
    pub(super) fn new(types: &IndexMap<String, Value>, idents: &BTreeMap<String, String>) -> Input {
        let nullable =
            types.iter().filter(|(_, s)| without_null(s).is_some()).map(|(n, _)| idents[n].clone()).collect();
        let declared = idents.values().cloned().collect();
        let defs = types.iter().map(|(n, s)| (idents[n].clone(), s.clone())).collect();
        Input { nullable, declared, idents: idents.clone(), defs }
    }

    /// `#/types/NAME` with the shared type's Rust name for NAME.
    fn reference(&self, v: &Value) -> Value {
        match v.as_str().and_then(|r| r.strip_prefix(TYPES_PREFIX)).and_then(|n| self.idents.get(n)) {
            Some(rust) => Value::String(format!("{TYPES_PREFIX}{rust}")),
            None => v.clone(),
        }
    }

    /// `schema`, already rewritten, as the type named `name`: an inline property schema whose
    /// name typify would make (`{Type}_{property}` in PascalCase) names a shared type gets a
    /// title that does not. typify returns the existing type for a name it already has, so
    /// without it `Event.source` would become the shared `EventSource` and its own fields be lost.
    pub(super) fn named(&self, name: &str, mut schema: Value) -> Value {
        entitle(name, &mut schema, &self.declared, &mut BTreeSet::new());
        schema
    }

    /// A shared type's definition rewritten for typify.
    pub(super) fn definition(&self, v: &Value) -> Value {
        self.schema(&without_null(v).unwrap_or_else(|| v.clone()))
    }

    /// `schema` rewritten for typify, every subschema included.
    pub(super) fn schema(&self, v: &Value) -> Value {
        match v {
            Value::Object(map) => {
                let map = map
                    .iter()
                    .map(|(k, v)| {
                        let v = match k.as_str() {
                            "$ref" => self.reference(v),
                            k if DATA.contains(&k) => v.clone(),
                            _ => self.subschemas(k, v),
                        };
                        (k.clone(), v)
                    })
                    .collect();
                Value::Object(self.nullable_use(self.merged_wide(node(map))))
            }
            other => other.clone(),
        }
    }

    /// An `allOf` heavier than [`MAX_MERGE_WEIGHT`]: in Rust a JSON value.
    fn merged_wide(&self, mut map: Map<String, Value>) -> Map<String, Value> {
        let heavy = map.get("allOf").and_then(Value::as_array).is_some_and(|parts| {
            parts.len() > 1
                && parts
                    .iter()
                    .try_fold(1usize, |w, p| w.checked_mul(self.weight(p, 0)).filter(|w| *w <= MAX_MERGE_WEIGHT))
                    .is_none()
        });
        if heavy {
            map.retain(|k, _| k == "description");
        }
        map
    }

    /// How many branches typify meets merging `v` into another part: its union's, those of the
    /// parts of its own `allOf` multiplied, or its heaviest property's; references followed
    /// (a contract name or a Rust one), three levels deep.
    fn weight(&self, v: &Value, depth: usize) -> usize {
        if depth > 3 {
            return 1;
        }
        let named = v.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(TYPES_PREFIX));
        let v = match named.and_then(|n| self.defs.get(n).or_else(|| self.idents.get(n).and_then(|r| self.defs.get(r))))
        {
            Some(def) => def,
            None => v,
        };
        let union = ["oneOf", "anyOf"]
            .iter()
            .filter_map(|k| v.get(*k).and_then(Value::as_array))
            .map(|b| b.iter().map(|b| self.weight(b, depth + 1)).sum::<usize>())
            .max()
            .unwrap_or(1);
        let parts = v
            .get("allOf")
            .and_then(Value::as_array)
            .map_or(1, |p| p.iter().fold(1usize, |w, p| w.saturating_mul(self.weight(p, depth + 1))));
        let props = v
            .get("properties")
            .and_then(Value::as_object)
            .map_or(1, |p| p.values().map(|p| self.weight(p, depth + 1)).max().unwrap_or(1));
        union.max(parts).max(props)
    }

    /// The value of keyword `k`, its schemas rewritten.
    fn subschemas(&self, k: &str, v: &Value) -> Value {
        match (k, v) {
            ("properties", Value::Object(props)) => {
                Value::Object(props.iter().map(|(n, s)| (n.clone(), self.schema(s))).collect())
            }
            // A branch written twice adds no value a type must hold, and typify asserts that a
            // union has at most one unit variant (two `{type: "null"}` branches panic it).
            ("anyOf" | "oneOf", Value::Array(items)) => {
                let mut branches: Vec<Value> = Vec::new();
                for b in items.iter().map(|i| self.schema(i)) {
                    if !branches.contains(&b) {
                        branches.push(b);
                    }
                }
                Value::Array(branches)
            }
            (_, Value::Array(items)) => Value::Array(items.iter().map(|i| self.schema(i)).collect()),
            (_, Value::Object(_)) => self.schema(v),
            (_, other) => other.clone(),
        }
    }

    /// A reference to a nullable shared type accepts `null` where it is used.
    fn nullable_use(&self, map: Map<String, Value>) -> Map<String, Value> {
        let nullable = map.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(TYPES_PREFIX));
        if !nullable.is_some_and(|n| self.nullable.contains(n)) {
            return map;
        }
        let mut out = Map::new();
        out.insert("anyOf".into(), json!([Value::Object(map), {"type": "null"}]));
        out
    }
}

/// The schema without `null`, when it accepts `null` beside other values: `null` among its
/// types, among its `enum` values (untyped, or typed with `null`), or a `null` branch of a union.
fn without_null(v: &Value) -> Option<Value> {
    let mut map = v.as_object()?.clone();
    let mut changed = false;
    let mut null_typed = !map.contains_key("type");
    if let Some(Value::Array(types)) = map.get("type") {
        let rest: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if rest.len() < types.len() && !rest.is_empty() {
            let t = if rest.len() == 1 { rest[0].clone() } else { Value::Array(rest) };
            map.insert("type".into(), t);
            (changed, null_typed) = (true, true);
        }
    }
    // `{type: [string, "null"], enum: [a, null]}`: typify reads the `null` value as an optional
    // enum, a newtype of `Option` of itself beside the enum of the same name.
    if let Some(Value::Array(values)) = map.get("enum")
        && null_typed
    {
        let rest: Vec<Value> = values.iter().filter(|v| !v.is_null()).cloned().collect();
        if rest.len() < values.len() && !rest.is_empty() {
            map.insert("enum".into(), Value::Array(rest));
            changed = true;
        }
    }
    // A `null` branch of a union, beside `null` among the types or not: GitHub writes
    // `{type: [string, "null"], oneOf: [{enum: [a, b]}, {enum: [null]}]}`, which typify reads as
    // the same newtype of `Option` of itself.
    for kw in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = map.get(kw) else { continue };
        let rest: Vec<Value> = branches.iter().filter(|b| !null_only(b)).cloned().collect();
        if rest.len() == branches.len() || rest.is_empty() {
            continue;
        }
        map.insert(kw.into(), Value::Array(rest));
        changed = true;
    }
    changed.then_some(Value::Object(map))
}

/// A schema `null` alone satisfies: `{type: "null"}`, `{enum: [null]}` or `{const: null}`.
fn null_only(v: &Value) -> bool {
    v.get("type").is_some_and(|t| t == "null")
        || v.get("enum").is_some_and(|e| e == &json!([null]))
        || v.get("const").is_some_and(Value::is_null)
}

/// The rewrites of one schema node, its subschemas already rewritten.
fn node(mut map: Map<String, Value>) -> Map<String, Value> {
    // typify reuses any type whose name matches a `title`, so two different shapes could share
    // one Rust type and a field vanish: types are named by their `types` key and position only.
    map.remove("title");
    const_as_enum(&mut map);
    mixed_enum(&mut map);
    nameable_enum(&mut map);
    for kw in ["anyOf", "oneOf"] {
        if let Some(Value::Array(branches)) = map.get_mut(kw) {
            branches.iter_mut().filter_map(Value::as_object_mut).for_each(|b| {
                b.remove("default");
            });
        }
    }
    plain_bounds(&mut map);
    required_declared(&mut map);
    constraint_only_unions(&mut map);
    constraint_only_all_of_parts(&mut map);
    scalar_any_of(&mut map);
    typify_failure_shapes(&mut map);
    map
}

/// A name an object requires but does not declare is declared, as its `additionalProperties`
/// schema or any value: typify panics on a struct whose required field has no schema (a union
/// branch `{required: [kind, ticket], properties: {kind}}`). Where a composition beside it may
/// declare the name, typify merges the parts first, and nothing is added.
fn required_declared(map: &mut Map<String, Value>) {
    if ["allOf", "anyOf", "oneOf"].iter().any(|k| map.contains_key(*k)) {
        return;
    }
    let Some(Value::Array(required)) = map.get("required") else { return };
    let Some(props) = map.get("properties").and_then(Value::as_object) else { return };
    let missing: Vec<String> =
        required.iter().filter_map(Value::as_str).filter(|r| !props.contains_key(*r)).map(str::to_owned).collect();
    if missing.is_empty() {
        return;
    }
    let value = map.get("additionalProperties").filter(|a| a.is_object()).cloned().unwrap_or_else(|| json!({}));
    if let Some(Value::Object(props)) = map.get_mut("properties") {
        for name in missing {
            props.insert(name, value.clone());
        }
    }
}

/// Walks the inline property schemas of `schema` (named `name`), its own and those of its
/// `allOf` parts (typify merges them into one struct), titling each whose suggested name is
/// `declared` with one that is neither declared nor `taken` (the titles given so far).
fn entitle(name: &str, schema: &mut Value, declared: &BTreeSet<String>, taken: &mut BTreeSet<String>) {
    use heck::{ToSnakeCase, ToUpperCamelCase};
    if let Some(Value::Array(parts)) = schema.get_mut("allOf") {
        parts.iter_mut().filter(|p| p.get("$ref").is_none()).for_each(|p| entitle(name, p, declared, taken));
    }
    let Some(Value::Object(props)) = schema.get_mut("properties") else { return };
    for (prop, sub) in props.iter_mut() {
        if !sub.is_object() || sub.get("$ref").is_some() {
            continue;
        }
        let suggested = format!("{name}_{}", prop.to_snake_case()).to_upper_camel_case();
        let own = if declared.contains(&suggested) {
            let mut n = 2;
            while [declared, &*taken].iter().any(|names| names.contains(&format!("{suggested}{n}"))) {
                n += 1;
            }
            let title = format!("{suggested}{n}");
            set_title(sub, &title);
            title
        } else {
            suggested
        };
        taken.insert(own.clone());
        entitle(&own, sub, declared, taken);
    }
}

/// Titles a schema, and the one inline branch of a nullable union (`anyOf: [X, null]`), which
/// typify names on its own when it makes the union an `Option`.
fn set_title(schema: &mut Value, title: &str) {
    let Some(map) = schema.as_object_mut() else { return };
    map.insert("title".into(), Value::String(title.to_owned()));
    for kw in ["anyOf", "oneOf"] {
        let Some(Value::Array(branches)) = map.get_mut(kw) else { continue };
        let is_null = null_only;
        let mut inline = branches.iter_mut().filter(|b| !is_null(b));
        if let (Some(only), None) = (inline.next(), inline.next())
            && only.is_object()
            && only.get("$ref").is_none()
        {
            set_title(only, title);
        }
    }
}

/// Whether keyword `k` only bounds values, which the runner validates and the Rust type does
/// not carry: the Rust type is representation only (DESIGN §5.1). typify would make each
/// bounded string a newtype built through `TryFrom` (about 80 lines each, one per place a
/// bound is written) and `minimum: 1` a `NonZeroU64` that handlers must construct and unwrap;
/// every input and output is validated against the contract's schema, which keeps every bound.
/// `items` shapes the type and `uniqueItems` may make it a set: both stay.
fn validated_only(k: &str) -> bool {
    crate::schema::TYPED_KEYWORDS.iter().any(|(kw, _)| *kw == k) && !matches!(k, "items" | "uniqueItems")
}

/// Removes the keywords that only bound values ([`validated_only`]). An integer without a `format` that may not be
/// negative stays unsigned: `minimum: 0` is what makes typify choose `u64`.
///
/// On an integer only the width formats the runner bounds (`int8` … `uint64`) shape the type:
/// any other (`unix-time`, and typify's own `int` and `uint`, which the validator does not bound)
/// is documentation, so the integer is as wide as one without a format.
fn plain_bounds(map: &mut Map<String, Value>) {
    let only_integer = match map.get("type") {
        Some(Value::Array(ts)) => ts.iter().all(|t| t == "integer" || t == "null"),
        Some(t) => t == "integer",
        None => false,
    };
    let width = |f: &Value| f.as_str().is_some_and(|f| crate::present::INTEGER_FORMATS.iter().any(|(n, ..)| *n == f));
    if only_integer && map.get("format").is_some_and(|f| !width(f)) {
        map.remove("format");
    }
    let at_least = |k: &str| map.get(k).and_then(Value::as_f64);
    let non_negative = at_least("minimum").or(at_least("exclusiveMinimum")).is_some_and(|m| m >= 0.0)
        && map.get("default").and_then(Value::as_f64).is_none_or(|d| d >= 0.0);
    let integer = match map.get("type") {
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "integer"),
        Some(t) => t == "integer",
        None => false,
    };
    map.retain(|k, _| !validated_only(k));
    if non_negative && integer && !map.contains_key("format") {
        map.insert("minimum".into(), json!(0));
    }
}

/// An `anyOf` of scalars is one of them: typify makes every `anyOf` a struct of optional
/// flattened parts, which cannot hold a string (`anyOf: [{type: string}, {enum: [a]}]` refuses
/// "b"). As a `oneOf` it is an untagged enum whose first fitting variant holds the whole value.
/// Object branches keep typify's struct, which holds the fields of every branch that matched.
fn scalar_any_of(map: &mut Map<String, Value>) {
    let scalar_name =
        |t: &Value| t.as_str().is_some_and(|t| matches!(t, "string" | "number" | "integer" | "boolean" | "null"));
    let scalar = |b: &Value| match (b.get("type"), b.get("enum")) {
        (Some(Value::Array(ts)), _) => ts.iter().all(scalar_name),
        (Some(t), _) => scalar_name(t),
        (None, Some(Value::Array(vs))) => vs.iter().all(|v| !v.is_object() && !v.is_array()),
        _ => false,
    };
    if map.contains_key("oneOf") || !map.get("anyOf").and_then(Value::as_array).is_some_and(|b| b.iter().all(scalar)) {
        return;
    }
    if let Some(branches) = map.remove("anyOf") {
        map.insert("oneOf".into(), branches);
    }
}

/// Shapes typify fails on (oxidecomputer/typify: panics on an enum beside a combinator, `todo!()`
/// on a `$ref` with siblings, "value does not conform" on defaults it cannot resolve), each
/// rewritten to what it means for the Rust type; the runner validates the contract's schema.
fn typify_failure_shapes(map: &mut Map<String, Value>) {
    // A listed value set is the whole type: a combinator beside it only narrows what is listed.
    if map.contains_key("enum") {
        for kw in ["allOf", "anyOf", "oneOf"] {
            map.remove(kw);
        }
    }
    // typify reads `format` on strings and numbers, and stops (`todo!()`) at one on any other
    // type (`{type: object, format: uri-map}`, as Twilio writes it); there it is documentation.
    let typed = |t: &Value| t.as_str().is_some_and(|t| matches!(t, "string" | "integer" | "number"));
    let formats_apply = match map.get("type") {
        Some(Value::Array(ts)) => ts.iter().any(typed),
        Some(t) => typed(t),
        None => true,
    };
    if !formats_apply {
        map.remove("format");
    }
    // A reference's siblings constrain or annotate it; the Rust type is the referenced one.
    if map.contains_key("$ref") {
        map.retain(|k, _| matches!(k.as_str(), "$ref" | "description"));
    }
    // A `default` typify cannot check (beside a union, or `null`, which is the absent value of
    // an optional field anyway) leaves the field optional; the handler sees `None`.
    if map.contains_key("anyOf") || map.contains_key("oneOf") || map.get("default").is_some_and(Value::is_null) {
        map.remove("default");
    }
}

/// `const: X` is `enum: [X]`. typify turns an untyped `const` into a JSON value, which accepts
/// anything: a discriminator in an untagged enum, or in an `allOf` part it merges, would then
/// let a value deserialize as the wrong branch. A one-value enum is a Rust type that refuses
/// every other value.
fn const_as_enum(map: &mut Map<String, Value>) {
    if let Some(c) = map.remove("const") {
        map.insert("enum".into(), Value::Array(vec![c]));
    }
}

/// An untyped `enum` whose values are of several JSON types (`[fast, {path: /slow}]`): typify
/// panics ("multiple implied types for an un-typed enum"). In Rust it is a JSON value; the
/// contract's schema, which the runner validates against, still holds it to the listed values.
/// So is an `enum` that lists an array or an object, below.
fn mixed_enum(map: &mut Map<String, Value>) {
    let Some(values) = map.get("enum").and_then(Value::as_array) else { return };
    // A listed array or object (`errors: {enum: [[]]}`, as Cloudflare answers "no errors"):
    // typify checks it with `contains`, which needs `PartialEq` on structs it does not derive it
    // for. The runner holds the value to the list; the Rust type is what the rest says.
    if values.iter().any(|v| v.is_array() || v.is_object()) {
        map.remove("enum");
        return;
    }
    if map.contains_key("type") {
        return;
    }
    let kinds: BTreeSet<&str> = values.iter().filter(|v| !v.is_null()).map(stitchgen_runtime::json_type).collect();
    if kinds.len() > 1 {
        map.remove("enum");
    }
}

/// typify names a string enum's variants after its values, and gives up when two values
/// would share a name (`*/` and `"#` both have none). Such an enum becomes a plain `String` in
/// Rust; the contract's schema, which the runner validates against, still holds every value.
fn nameable_enum(map: &mut Map<String, Value>) {
    let Some(values) = map.get("enum").and_then(Value::as_array) else { return };
    if !values.iter().all(Value::is_string) {
        return;
    }
    let mut names = std::collections::BTreeSet::new();
    let nameable = values.iter().all(|v| {
        let name: String = v.as_str().unwrap_or_default().chars().filter(char::is_ascii_alphanumeric).collect();
        !name.is_empty() && names.insert(name.to_ascii_lowercase())
    });
    if !nameable {
        map.remove("enum");
        map.insert("type".into(), Value::String("string".into()));
    }
}

/// An `allOf` part that only requires keys or annotates (`allOf: [{$ref: Rule}, {required:
/// [id]}]`, as Cloudflare writes its rulesets) adds nothing a Rust type holds: the runner
/// validates it. typify merges such a part into every branch of a union it meets, with the
/// negation of every other branch, in time and memory exponential in the branches (Cloudflare's
/// 18 rule kinds ran out of 8 GB); without it, a single remaining part is the type itself.
fn constraint_only_all_of_parts(map: &mut Map<String, Value>) {
    let Some(Value::Array(parts)) = map.get_mut("allOf") else { return };
    let before = parts.len();
    parts.retain(|p| !constraint_only(p));
    if parts.len() == before || parts.is_empty() {
        if parts.is_empty() {
            map.remove("allOf");
        }
        return;
    }
    let alone = map.keys().all(|k| matches!(k.as_str(), "allOf" | "description" | "title"));
    if let (true, Some(Value::Array(parts))) = (alone, map.get("allOf"))
        && let [Value::Object(part)] = parts.as_slice()
    {
        let part = part.clone();
        map.remove("allOf");
        for (k, v) in part {
            map.entry(k).or_insert(v);
        }
    }
}

/// Whether a schema only says which keys an object needs, or annotates it.
fn constraint_only(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.iter().all(|(k, v)| match k.as_str() {
            "required" | "description" | "title" => true,
            "type" => v == "object",
            _ => false,
        })
    })
}

/// An object that declares its properties and then requires some of them through `anyOf` or
/// `oneOf` branches (`anyOf: [{required: [status]}, {required: [title]}]`) has one shape: the
/// branches constrain which properties are present, which the runner validates. typify would
/// make an enum of structs that each drop the properties their branch does not list, losing
/// data; without the branches it makes one struct holding every property.
fn constraint_only_unions(map: &mut Map<String, Value>) {
    if !map.contains_key("properties") {
        return;
    }
    for kw in ["anyOf", "oneOf"] {
        if map.get(kw).and_then(Value::as_array).is_some_and(|b| b.iter().all(constraint_only)) {
            map.remove(kw);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    fn schema(v: Value) -> Value {
        super::Input::new(&Default::default(), &Default::default()).schema(&v)
    }

    #[test]
    fn data_is_never_rewritten() {
        let v = json!({"default": {"anyOf": [{"default": 1}]}, "examples": [{"const": 1}], "properties": {"k": {"const": "a"}}});
        let out = schema(v);
        assert_eq!(out["default"], json!({"anyOf": [{"default": 1}]}));
        assert_eq!(out["examples"], json!([{"const": 1}]));
        assert_eq!(out["properties"]["k"], json!({"enum": ["a"]}));
    }

    #[test]
    fn branch_defaults_and_constraint_only_branches_are_dropped() {
        let v = json!({"type": "object", "properties": {"a": {"type": "string"}}, "anyOf": [{"required": ["a"]}],
                       "oneOf": [{"type": "object", "default": null, "properties": {}}, {"type": "null"}]});
        let out = schema(v);
        assert!(out.get("anyOf").is_none());
        assert_eq!(out["oneOf"][0], json!({"type": "object", "properties": {}}));
    }

    #[test]
    fn a_required_name_declared_nowhere_is_declared_as_any_value() {
        let branch = json!({"type": "object", "required": ["kind", "ticket"], "properties": {"kind": {"const": "a"}}});
        assert_eq!(schema(branch)["properties"]["ticket"], json!({}));
        let typed =
            json!({"type": "object", "required": ["x"], "properties": {}, "additionalProperties": {"type": "integer"}});
        assert_eq!(schema(typed)["properties"]["x"], json!({"type": "integer"}));
        // Beside a composition, a sibling part may declare it: typify merges them first.
        let composed =
            json!({"type": "object", "required": ["x"], "properties": {}, "allOf": [{"properties": {"x": {}}}]});
        assert!(schema(composed)["properties"].get("x").is_none());
    }

    #[test]
    fn a_nullable_shared_type_is_defined_without_null_and_optional_where_used() {
        let types: indexmap::IndexMap<String, Value> = [
            ("User".to_owned(), json!({"type": ["object", "null"], "properties": {}})),
            ("Effort".to_owned(), json!({"anyOf": [{"enum": ["low"]}, {"type": "null"}]})),
            ("Plain".to_owned(), json!({"type": "string"})),
            ("Kind".to_owned(), json!({"type": ["string", "null"], "enum": ["a", "b", null]})),
            ("Bare".to_owned(), json!({"enum": ["a", null]})),
            ("NotNull".to_owned(), json!({"type": "string", "enum": ["a", null]})),
        ]
        .into_iter()
        .collect();
        let idents = types.keys().map(|k| (k.clone(), k.clone())).collect();
        let input = super::Input::new(&types, &idents);
        assert_eq!(input.definition(&types["User"]), json!({"type": "object", "properties": {}}));
        assert_eq!(input.definition(&types["Effort"]), json!({"oneOf": [{"enum": ["low"]}]}));
        assert_eq!(input.definition(&types["Kind"]), json!({"type": "string", "enum": ["a", "b"]}));
        assert_eq!(input.definition(&types["Bare"]), json!({"enum": ["a"]}));
        // `null` is outside the type: check refuses that value (E0609); nothing here is nullable.
        assert_eq!(input.definition(&types["NotNull"]), types["NotNull"]);
        let used =
            input.schema(&json!({"properties": {"u": {"$ref": "#/types/User"}, "p": {"$ref": "#/types/Plain"}}}));
        assert_eq!(used["properties"]["u"], json!({"anyOf": [{"$ref": "#/types/User"}, {"type": "null"}]}));
        assert_eq!(used["properties"]["p"], json!({"$ref": "#/types/Plain"}));
    }

    #[test]
    fn typify_failure_shapes_are_rewritten() {
        let enum_beside_all_of = schema(json!({"type": "string", "enum": ["a"], "allOf": [{"$ref": "#/types/K"}]}));
        assert_eq!(enum_beside_all_of, json!({"type": "string", "enum": ["a"]}));
        let ref_with_sibling = schema(json!({"type": "object", "$ref": "#/types/K", "description": "d", "title": "T"}));
        assert_eq!(ref_with_sibling, json!({"$ref": "#/types/K", "description": "d"}));
        let default_beside_union = schema(json!({"default": "a", "anyOf": [{"type": "string"}, {"enum": ["a"]}]}));
        assert_eq!(default_beside_union, json!({"oneOf": [{"type": "string"}, {"enum": ["a"]}]}));
        assert_eq!(schema(json!({"type": ["integer", "null"], "default": null})), json!({"type": ["integer", "null"]}));
        assert_eq!(schema(json!({"type": "object", "format": "uri-map"})), json!({"type": "object"}));
        // An untyped enum of values of several types: a JSON value in Rust (found by mutation).
        assert_eq!(schema(json!({"enum": ["fast", {"path": "/slow"}]})), json!({}));
        assert_eq!(schema(json!({"enum": ["fast", "slow", null]})), json!({"enum": ["fast", "slow", null]}));
        // A listed array: typify's check of it needs `PartialEq` it does not derive (Cloudflare).
        assert_eq!(schema(json!({"type": "array", "enum": [[]]})), json!({"type": "array"}));
        assert_eq!(
            schema(json!({"type": "integer", "format": "int64"})),
            json!({"type": "integer", "format": "int64"})
        );
    }

    #[test]
    fn bounds_stay_in_the_validated_schema() {
        let bounded = json!({"type": "string", "minLength": 1, "maxLength": 80, "pattern": "^a", "format": "email"});
        assert_eq!(schema(bounded), json!({"type": "string", "format": "email"}));
        assert_eq!(
            schema(json!({"type": "integer", "minimum": 1, "maximum": 100})),
            json!({"type": "integer", "minimum": 0})
        );
        assert_eq!(schema(json!({"type": "integer", "exclusiveMinimum": 0})), json!({"type": "integer", "minimum": 0}));
        assert_eq!(schema(json!({"type": "integer", "minimum": -5, "multipleOf": 5})), json!({"type": "integer"}));
        assert_eq!(
            schema(json!({"type": "integer", "format": "int32", "minimum": 1})),
            json!({"type": "integer", "format": "int32"})
        );
        assert_eq!(schema(json!({"type": "number", "minimum": 0, "maximum": 1})), json!({"type": "number"}));
        // Only the widths the runner bounds shape an integer; another format is documentation.
        assert_eq!(schema(json!({"type": "integer", "format": "unix-time"})), json!({"type": "integer"}));
        assert_eq!(
            schema(json!({"type": ["integer", "null"], "format": "int", "minimum": 0})),
            json!({"type": ["integer", "null"], "minimum": 0})
        );
        assert_eq!(
            schema(json!({"type": ["integer", "string"], "format": "x"})),
            json!({"type": ["integer", "string"], "format": "x"})
        );
        assert_eq!(
            schema(json!({"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "string", "maxLength": 2}})),
            json!({"type": "array", "items": {"type": "string"}})
        );
    }

    #[test]
    fn unnameable_string_enums_become_strings() {
        assert_eq!(schema(json!({"enum": ["*/", "\"#"]})), json!({"type": "string"}));
        assert_eq!(schema(json!({"enum": ["a", "b"]})), json!({"enum": ["a", "b"]}));
    }
}
