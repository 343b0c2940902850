//! Schemas (DESIGN §3.5): every keyword supported, refused by name, or reported as unknown;
//! references resolved inside the contract; depth bounded; values checked against their
//! schema; tool inputs that are objects.

use super::Cx;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::ast::{Endpoint, Schema};
use crate::parse::node::{Node, Value};
use crate::schema::{self, REFUSED, SUPPORTED, TYPE_NAMES, TYPES_PREFIX, Types};

/// The deepest schema nesting accepted (each `properties`/`items`/combinator level counts one).
pub(crate) const MAX_SCHEMA_DEPTH: usize = 24;

/// Every schema of a contract, then the object rule of tool inputs. (A tool answer that is not
/// an object is presented wrapped where a target needs objects: `schema::Wrap`.)
pub(super) fn check(cx: &Cx<'_>, diags: &mut Diagnostics) {
    super::cycles::check(cx, diags);
    let mut roots: Vec<&Node> = Vec::new();
    roots.extend(cx.types.iter().map(|(_, n)| n));
    for e in cx.endpoints() {
        roots.extend([&e.params, &e.input, &e.output].into_iter().flatten().map(|s| &s.0));
        if let Some(v) = e.tool.as_ref().and_then(|t| t.value.view.as_ref()) {
            roots.extend(v.value.output.as_ref().map(|s| &s.0));
        }
        if let Some(s) = &e.stream {
            roots.extend([&s.value.item, &s.value.terminal].into_iter().flatten().map(|s| &s.0));
        }
        roots.extend(e.status_answers().filter_map(|(_, a)| a.value.body.as_ref()).map(|s| &s.0));
    }
    for t in cx.tools() {
        roots.extend([&t.input, &t.output].into_iter().flatten().map(|s| &s.0));
    }
    check_roots(cx.types, &roots, diags);
    for e in cx.endpoints() {
        tool_input(cx, e, diags);
    }
    for t in cx.tools() {
        if let Some(input) = &t.input {
            object_input(cx.types, input, &t.name.value, diags);
        }
    }
    unused_types(cx, diags);
}

/// One root's keywords walked, then compiled by the validator when the walk found nothing.
/// `compiled`: the validator's results so far, by schema text ([`schema::compile_alone`]).
fn check_root(types: Types<'_>, root: &Node, compiled: &mut Compiled, diags: &mut Diagnostics) {
    let before = diags.iter().count();
    Walker { types, too_deep: false, diags: &mut *diags }.walk(root, 1, Around::default());
    if diags.iter().count() == before {
        compiles(root, compiled, diags);
    }
}

/// The validator's result for each schema text compiled so far.
type Compiled = std::collections::BTreeMap<String, Result<(), String>>;

/// Each root checked alone ([`check_root`]), by as many threads as the machine runs at once:
/// compiling every schema with the validator is most of the check's time on a large contract.
/// Each thread takes the next few roots as it is free, so none is left with the costly ones
/// while the others wait. Diagnostics are sorted when reported, so the order the parts finish
/// in does not show.
fn check_roots(types: Types<'_>, roots: &[&Node], diags: &mut Diagnostics) {
    /// Fewer roots than this are checked on the calling thread: a thread costs more than they do.
    const PER_THREAD: usize = 256;
    /// How many roots a thread takes at once.
    const TAKEN: usize = 16;
    let threads = std::thread::available_parallelism().map_or(1, usize::from).min(roots.len() / PER_THREAD).max(1);
    if threads == 1 {
        let mut compiled = Compiled::new();
        return roots.iter().for_each(|root| check_root(types, root, &mut compiled, diags));
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    // Deep schemas recurse: each part on a stack as large as the pipeline's own.
    let parts = crate::threads::each(0..threads, crate::threads::MAIN_STACK, |_| {
        let (mut diags, mut compiled) = (Diagnostics::default(), Compiled::new());
        loop {
            let start = next.fetch_add(TAKEN, std::sync::atomic::Ordering::Relaxed);
            let Some(taken) = roots.get(start..roots.len().min(start + TAKEN)) else { break };
            taken.iter().for_each(|root| check_root(types, root, &mut compiled, &mut diags));
        }
        diags
    });
    parts.into_iter().for_each(|part| diags.extend(part));
}

/// One walk over a schema tree, reporting as it goes.
/// The compositions a schema is a part of (an `allOf` sibling, the branch of an `anyOf`), as
/// far as its own keywords need them.
#[derive(Clone, Copy, Default)]
struct Around<'a> {
    /// The properties the compositions declare, which its `required` may name.
    declared: &'a [String],
    /// The nearest composition, which judges its values in context.
    composition: Option<&'a Node>,
}

struct Walker<'t, 'd> {
    types: Types<'t>,
    /// Depth is reported once per root, at the first place it is exceeded.
    too_deep: bool,
    diags: &'d mut Diagnostics,
}

impl Walker<'_, '_> {
    /// Walks one schema, a part of the compositions `around` it.
    fn walk(&mut self, node: &Node, depth: usize, around: Around<'_>) {
        if depth > MAX_SCHEMA_DEPTH {
            if !self.too_deep {
                self.too_deep = true;
                self.diags.push(
                    Diagnostic::new(
                        Code::SchemaTooDeep,
                        node.span,
                        format!("schema nested deeper than {MAX_SCHEMA_DEPTH} levels"),
                    )
                    .label("too deep")
                    .help("name inner parts under `types:` and refer to them with `$ref`"),
                );
            }
            return;
        }
        let entries = match &node.value {
            Value::Bool(_) => return,
            Value::Map(entries) => entries,
            _ => {
                self.diags.push(malformed(node, format!("a schema is a mapping or a boolean, found {}", node.kind())));
                return;
            }
        };
        for (k, v) in entries {
            let Some(key) = k.as_str() else { continue };
            self.keyword(key, k, v, node, depth, around);
        }
        self.typed_keywords(node);
        self.format_applies(node);
    }

    fn keyword(&mut self, key: &str, k: &Node, v: &Node, schema: &Node, depth: usize, around: Around<'_>) {
        let types = self.types;
        let diags = &mut *self.diags;
        match key {
            "$ref" => reference(types, v, diags),
            "type" => type_keyword(v, diags),
            "properties" => match v.as_map() {
                Some(props) => {
                    field_names(props, diags);
                    props.iter().for_each(|(_, p)| self.walk(p, depth + 1, Around::default()))
                }
                None => diags.push(malformed(v, format!("`properties` is a mapping of schemas, found {}", v.kind()))),
            },
            "additionalProperties" | "items" => match &v.value {
                Value::Seq(_) if key == "items" => diags.push(
                    Diagnostic::new(Code::UnsupportedKeyword, k.span, "`items` as a list (a tuple) is not supported")
                        .label("tuple form")
                        .help("use one schema for every item, or an object with named properties"),
                ),
                _ => self.walk(v, depth + 1, Around::default()),
            },
            "oneOf" | "anyOf" | "allOf" => match v.as_seq() {
                Some(branches) if !branches.is_empty() => {
                    if key == "oneOf" {
                        one_of(types, k, branches, diags);
                    }
                    let mut declared = around.declared.to_vec();
                    declared.extend(
                        schema::all_properties(schema, types).iter().filter_map(|(k, _)| k.as_str()).map(str::to_owned),
                    );
                    let inner = Around { declared: &declared, composition: Some(schema) };
                    branches.iter().for_each(|b| self.walk(b, depth + 1, inner));
                }
                _ => diags.push(malformed(v, format!("`{key}` is a non-empty list of schemas"))),
            },
            "required" => required(types, v, schema, around.declared, diags),
            "enum" => match v.as_seq() {
                Some(values) if !values.is_empty() => {
                    values.iter().for_each(|x| own_value(types, key, x, schema, diags))
                }
                _ => diags.push(malformed(v, format!("`{key}` is a non-empty list"))),
            },
            "examples" => match v.as_seq() {
                Some(values) => values.iter().for_each(|x| example(types, key, x, schema, diags)),
                None => diags.push(malformed(v, format!("`{key}` is a list"))),
            },
            "example" => example(types, key, v, schema, diags),
            "const" => own_value(types, key, v, schema, diags),
            "default" => default(types, v, schema, around.composition, diags),
            "format" | "description" | "title" | "pattern" if v.as_str().is_none() => {
                diags.push(malformed(v, format!("`{key}` is a string, found {}", v.kind())))
            }
            "deprecated" | "uniqueItems" | "readOnly" | "writeOnly" if v.as_bool().is_none() => {
                diags.push(malformed(v, format!("`{key}` is `true` or `false`, found {}", v.kind())))
            }
            "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf"
                if !matches!(v.value, Value::Number(_)) =>
            {
                diags.push(malformed(v, format!("`{key}` is a number, found {}", v.kind())));
            }
            "minLength" | "maxLength" | "minItems" | "maxItems" if v.to_json().as_u64().is_none() => {
                diags.push(malformed(v, format!("`{key}` is a non-negative integer, found {}", v.kind())));
            }
            _ if SUPPORTED.contains(&key) => {}
            _ => diags.push(unsupported(key, k)),
        }
    }
}

impl Walker<'_, '_> {
    /// A bound without the type it bounds says nothing a Rust type can carry: refused, so the
    /// generated types never misread it.
    fn typed_keywords(&mut self, node: &Node) {
        let composed = ["$ref", "oneOf", "anyOf", "allOf", "enum", "const"].iter().any(|k| node.get(k).is_some());
        if composed {
            return;
        }
        let types = schema::type_set(node);
        for (kw, needs) in schema::TYPED_KEYWORDS {
            let Some((k, _)) = node.entry(kw) else { continue };
            let ok = types.as_ref().is_some_and(|t| t.iter().any(|t| needs.contains(t)));
            if !ok {
                let want = needs.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(" or ");
                self.diags.push(
                    Diagnostic::new(
                        Code::InvalidKeywordValue,
                        k.span,
                        format!("`{kw}` without a `type` it applies to"),
                    )
                    .label(format!("needs `type: {}`", needs[0]))
                    .help(format!("add `type` ({want}) to this schema")),
                );
            }
        }
    }
}

impl Walker<'_, '_> {
    /// `format` is an annotation: a known one on a type it cannot describe is only suspicious.
    /// A numeric format on a string is the "integer carried as a string" convention, and fine.
    fn format_applies(&mut self, node: &Node) {
        let Some(v) = node.get("format") else { return };
        let (Some(name), Some(types)) = (v.as_str(), schema::type_set(node)) else { return };
        let Some((_, describes)) = schema::FORMATS.iter().find(|(f, _)| *f == name) else { return };
        let numeric = describes.contains(&"integer") || describes.contains(&"number");
        let typed: Vec<&str> = types.into_iter().filter(|t| *t != "null").collect();
        let fits = typed.iter().any(|t| describes.contains(t) || (numeric && *t == "string"));
        if typed.is_empty() || fits {
            return;
        }
        let listed = |ts: &[&str]| ts.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(" or ");
        self.diags.push(
            Diagnostic::new(
                Code::FormatNotApplicable,
                v.span,
                format!(
                    "`format: {name}` describes {} values, but this schema is {}",
                    listed(describes),
                    listed(&typed)
                ),
            )
            .label("kept as documentation only")
            .help(format!("remove the `format`, or give the schema `type: {}`", describes[0])),
        );
    }
}

/// Properties whose names become one Rust field name (`EndTime` and `EndTime<` are both
/// `end_time`): the generated code suffixes the later one, which a reader should know.
fn field_names(props: &[(Node, Node)], diags: &mut Diagnostics) {
    let key = |wire: &str| props.iter().find(|(k, _)| k.as_str() == Some(wire)).map(|(k, _)| k);
    let fields = crate::naming::unique_fields(props.iter().filter_map(|(k, _)| k.as_str()));
    for (wire, field) in &fields {
        let plain = crate::naming::field_ident(wire);
        if *field == plain {
            continue;
        }
        let Some(first) = fields.iter().find(|(w, f)| *f == plain && w != wire).map(|(w, _)| *w) else { continue };
        let (Some(k), Some(other)) = (key(wire), key(first)) else { continue };
        diags.push(
            Diagnostic::new(
                Code::FieldNameCollision,
                k.span,
                format!("properties `{first}` and `{wire}` are both `{plain}` in Rust"),
            )
            .label(format!("its Rust field is `{field}`"))
            .secondary(other.span, format!("`{plain}`"))
            .help("rename one of the properties if the Rust names matter to you; the wire names are kept"),
        );
    }
}

fn malformed(node: &Node, message: String) -> Diagnostic {
    Diagnostic::new(Code::InvalidKeywordValue, node.span, message).label("malformed")
}

fn unsupported(key: &str, k: &Node) -> Diagnostic {
    if let Some((_, why)) = REFUSED.iter().find(|(r, _)| *r == key) {
        return Diagnostic::new(Code::UnsupportedKeyword, k.span, format!("schema keyword `{key}` is not supported"))
            .label("refused until supported end to end")
            .help(*why);
    }
    let d = Diagnostic::new(Code::UnsupportedKeyword, k.span, format!("unknown schema keyword `{key}`"))
        .label("not a supported keyword");
    match SUPPORTED.iter().find(|s| strsim::jaro_winkler(s, key) > 0.85) {
        Some(best) => d.help(format!("did you mean `{best}`?")),
        None => d.note("every keyword is reflected in the Rust type, enforced at runtime, or refused; none is ignored"),
    }
}

fn reference(types: Types<'_>, v: &Node, diags: &mut Diagnostics) {
    let Some(r) = v.as_str() else {
        diags.push(malformed(v, format!("`$ref` is a string, found {}", v.kind())));
        return;
    };
    match r.strip_prefix(TYPES_PREFIX) {
        Some(name) if types.get(name).is_some() => {}
        Some(name) => {
            let known: Vec<&str> = types.iter().map(|(n, _)| n).collect();
            let d = Diagnostic::new(Code::UnresolvedRef, v.span, format!("`$ref` to undeclared type `{name}`"))
                .label("no such type under `types:`");
            diags.push(match known.iter().find(|k| strsim::jaro_winkler(k, name) > 0.8) {
                Some(best) => d.help(format!("did you mean `{TYPES_PREFIX}{best}`?")),
                None => d.help(format!("declare `{name}` under `types:`")),
            });
        }
        None if r.starts_with('#') => diags.push(
            Diagnostic::new(Code::UnresolvedRef, v.span, format!("`$ref: {r}` does not point under `#/types/`"))
                .label("contracts refer to shared types only")
                .help("declare the schema under `types:` and refer to it as `#/types/NAME`"),
        ),
        None => diags.push(
            Diagnostic::new(Code::ExternalRef, v.span, format!("`$ref: {r}` leaves the contract"))
                .label("references to other files and the network are never followed")
                .help("copy the schema under `types:` and refer to it as `#/types/NAME`"),
        ),
    }
}

fn type_keyword(v: &Node, diags: &mut Diagnostics) {
    let names: Vec<&Node> = match &v.value {
        Value::String(_) => vec![v],
        Value::Seq(items) if !items.is_empty() => items.iter().collect(),
        _ => {
            diags.push(malformed(v, "`type` is a type name or a non-empty list of them".into()));
            return;
        }
    };
    for n in names {
        match n.as_str() {
            Some(t) if TYPE_NAMES.contains(&t) => {}
            other => {
                let d = Diagnostic::new(
                    Code::InvalidKeywordValue,
                    n.span,
                    format!("`{}` is not a JSON Schema type", other.unwrap_or(n.kind())),
                )
                .label("unknown type");
                diags.push(match other.and_then(|t| TYPE_NAMES.iter().find(|k| strsim::jaro_winkler(k, t) > 0.8)) {
                    Some(best) => d.help(format!("did you mean `{best}`?")),
                    None => d.help(format!(
                        "use one of {}",
                        TYPE_NAMES.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")
                    )),
                });
            }
        }
    }
}

/// Each name in `required` must be declared somewhere in the composition the schema belongs to:
/// its own `properties`, its `allOf`/`anyOf`/`oneOf` parts (references followed), or the
/// compositions around it (`composed`, from [`Around::declared`]).
fn required(types: Types<'_>, v: &Node, schema_node: &Node, composed: &[String], diags: &mut Diagnostics) {
    let Some(items) = v.as_seq().filter(|i| i.iter().all(|n| n.as_str().is_some())) else {
        diags.push(malformed(v, "`required` is a list of property names".into()));
        return;
    };
    // A bare `{required: [x]}` inside a composition constrains what the others declare; only
    // a schema that declares properties, or says it is an object, is judged.
    let object = schema::type_set(schema_node).is_some_and(|t| t.len() == 1 && t.contains("object"));
    if !object && schema_node.get("properties").is_none() {
        return;
    }
    let declared = schema::all_properties(schema_node, types);
    for n in items {
        let name = n.as_str().unwrap_or_default();
        if !declared.iter().any(|(k, _)| k.as_str() == Some(name)) && !composed.iter().any(|c| c == name) {
            diags.push(
                Diagnostic::new(
                    Code::RequiredNotDeclared,
                    n.span,
                    format!("`{name}` is required but not declared in `properties`"),
                )
                .label("no such property")
                .help(format!("declare `{name}` under `properties`, or remove it from `required`")),
            );
        }
    }
}

/// `oneOf` is accepted as real APIs write it: discriminated (by `const` or a single-value
/// `enum`, directly or through `allOf` parts), of distinct types, mixed, or overlapping. A
/// tagged or untagged Rust enum represents each, and the runner validates "exactly one". Two
/// branches that are the same schema are refused: no value can match exactly one of them, so
/// the branch can never be taken.
fn one_of(types: Types<'_>, k: &Node, branches: &[Node], diags: &mut Diagnostics) {
    let resolved: Vec<serde_json::Value> = branches.iter().map(|b| types.resolve(b).to_json()).collect();
    for (i, b) in resolved.iter().enumerate() {
        let Some(first) = resolved[..i].iter().position(|a| a == b) else { continue };
        diags.push(
            Diagnostic::new(
                Code::AmbiguousOneOf,
                branches[i].span,
                format!("`oneOf` branch {} is the same schema as branch {}", i + 1, first + 1),
            )
            .label("no value can match exactly one of these")
            .secondary(branches[first].span, "first written here")
            .secondary(k.span, "in this `oneOf`")
            .help(
                "remove the repeated branch, or tell the branches apart (a required `kind: {const: …}` property, say)",
            ),
        );
    }
}

/// `default`, `const`, `enum` and `examples` values must satisfy the schema they stand in.
fn own_value(types: Types<'_>, key: &str, value: &Node, schema_node: &Node, diags: &mut Diagnostics) {
    if let Some(message) = schema::first_violation(types, schema_node, &value.to_json(), "schema") {
        diags.push(
            Diagnostic::new(Code::InvalidSchemaValue, value.span, format!("this `{key}` value breaks its own schema"))
                .label(message)
                .help(format!("change the `{key}` value or the schema")),
        );
    }
}

/// A `default` is what serde fills in for a missing field, so it must be a value the schema
/// accepts. Inside a composition branch it is judged by the composition (a `default: null` in
/// the object branch of `anyOf: [object, null]` is the whole schema's default).
fn default(types: Types<'_>, value: &Node, schema_node: &Node, context: Option<&Node>, diags: &mut Diagnostics) {
    let json = value.to_json();
    let Some(message) = schema::first_violation(types, schema_node, &json, "schema") else { return };
    if context.is_some_and(|c| schema::first_violation(types, c, &json, "schema").is_none()) {
        return;
    }
    diags.push(
        Diagnostic::new(Code::InvalidSchemaValue, value.span, "this `default` value breaks its own schema")
            .label(message)
            .note("a missing field is filled with its `default`, so the generated code would hold a value the schema refuses")
            .help("change the `default` value or the schema"),
    );
}

/// `examples` and `example` are annotations: one its schema rejects misleads a reader (and a
/// model), but nothing uses it, so it is a warning.
fn example(types: Types<'_>, key: &str, value: &Node, schema_node: &Node, diags: &mut Diagnostics) {
    if let Some(message) = schema::first_violation(types, schema_node, &value.to_json(), "schema") {
        diags.push(
            Diagnostic::new(Code::ExampleBreaksSchema, value.span, format!("this `{key}` value breaks its own schema"))
                .label(message)
                .help("correct the example or the schema; examples are documentation and never validated at runtime"),
        );
    }
}

/// A schema the structural walk accepted must also compile (a malformed `pattern`, say).
fn compiles(root: &Node, compiled: &mut Compiled, diags: &mut Diagnostics) {
    if let Err(message) = schema::compile_alone(root, compiled) {
        // The validator names the place as a pointer into the schema; point there when the
        // place lies in this root rather than in a referenced type.
        let at = message.rsplit_once("(at `").and_then(|(_, p)| root.pointer(p.trim_end_matches("`)"))).unwrap_or(root);
        diags.push(malformed(at, format!("schema does not compile: {message}")));
    }
}

fn tool_input(cx: &Cx<'_>, e: &Endpoint, diags: &mut Diagnostics) {
    if !cx.is_tool(e) {
        return;
    }
    if let (Some(super::NotATool::InputNotObject), Some(input)) = (super::not_a_tool(e, cx.types), &e.input) {
        object_input(cx.types, input, &e.action.value, diags);
    }
}

fn object_input(types: Types<'_>, input: &Schema, name: &str, diags: &mut Diagnostics) {
    if !schema::is_object(&input.0, types) {
        diags.push(
            Diagnostic::new(
                Code::ToolInputNotObject,
                input.key(),
                format!("tool input of `{name}` is not an object schema"),
            )
            .label("tool arguments are one JSON object")
            .help("wrap the input in `type: object` with named properties"),
        );
    }
}

/// Warns about shared types no endpoint or tool reaches, directly or through other types.
fn unused_types(cx: &Cx<'_>, diags: &mut Diagnostics) {
    let Some(types) = &cx.c.types else { return };
    let mut todo: Vec<String> = Vec::new();
    let mut from = |n: &Node| todo.extend(schema::refs_in(n));
    for e in cx.endpoints() {
        [&e.params, &e.input, &e.output].into_iter().flatten().for_each(|s| from(&s.0));
        if let Some(v) = e.tool.as_ref().and_then(|t| t.value.view.as_ref()).and_then(|v| v.value.output.as_ref()) {
            from(&v.0);
        }
        if let Some(s) = &e.stream {
            [&s.value.item, &s.value.terminal].into_iter().flatten().for_each(|x| from(&x.0));
        }
        e.status_answers().filter_map(|(_, a)| a.value.body.as_ref()).for_each(|s| from(&s.0));
    }
    for t in cx.tools() {
        [&t.input, &t.output].into_iter().flatten().for_each(|s| from(&s.0));
    }
    let reached = schema::reachable(todo, |name| cx.types.get(name).map(schema::refs_in));
    for (name, _) in types.value.iter().filter(|(n, _)| !reached.contains(&n.value)) {
        diags.push(
            Diagnostic::new(
                Code::UnusedType,
                name.span,
                format!("type `{}` is never used by an endpoint or tool", name.value),
            )
            .label("unused")
            .help(format!("refer to it as `$ref: \"{TYPES_PREFIX}{}\"`, or remove it", name.value)),
        );
    }
}
