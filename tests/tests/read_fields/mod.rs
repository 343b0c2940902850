//! What the runtime reads from a query (the generated `OperationDef::input_fields`, parsed out of
//! the emitted Rust) against what `openapi.json` lists as that operation's query parameters:
//! names in order, and for each whether it repeats and which JSON type it takes; then a sample
//! value of each field, written into a query as the client writes it and read back as the
//! adapter reads it, arrives as itself.

use serde_json::{Value, json};
use stitchgen_runtime::FieldDef;
use syn::visit::Visit;

/// One query field as the generated module declares it.
struct Field {
    name: String,
    types: Vec<String>,
    items: Vec<String>,
    values: Vec<String>,
}

/// One routed operation of a generated module: method, route, the parameters it reads from
/// the query (`params_in`), and the input fields it reads from the query.
struct Routed {
    method: String,
    path: String,
    placed: Vec<String>,
    fields: Vec<Field>,
}

#[derive(Default)]
struct Operations(Vec<Routed>);

fn member<'a>(s: &'a syn::ExprStruct, name: &str) -> Option<&'a syn::Expr> {
    s.fields.iter().find(|f| matches!(&f.member, syn::Member::Named(i) if i == name)).map(|f| &f.expr)
}

fn string(e: &syn::Expr) -> Option<String> {
    match e {
        syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s.value()),
        // `::core::option::Option::Some("GET")`
        syn::Expr::Call(c) => c.args.first().and_then(string),
        _ => None,
    }
}

/// The elements of `&[a, b]`.
fn slice(e: &syn::Expr) -> Vec<&syn::Expr> {
    match e {
        syn::Expr::Reference(r) => slice(&r.expr),
        syn::Expr::Array(a) => a.elems.iter().collect(),
        _ => Vec::new(),
    }
}

impl<'ast> Visit<'ast> for Operations {
    fn visit_expr_struct(&mut self, s: &'ast syn::ExprStruct) {
        if s.path.segments.last().is_some_and(|seg| seg.ident == "OperationDef") {
            let method = member(s, "method").and_then(string);
            let path = member(s, "path").and_then(string);
            if let (Some(method), Some(path)) = (method, path) {
                let fields = member(s, "input_fields").map(slice).unwrap_or_default();
                let strings = |f: &syn::ExprStruct, name: &str| -> Vec<String> {
                    member(f, name).map(slice).unwrap_or_default().into_iter().filter_map(string).collect()
                };
                let fields = fields
                    .into_iter()
                    .filter_map(|f| match f {
                        syn::Expr::Struct(f) => Some(Field {
                            name: member(f, "name").and_then(string)?,
                            types: strings(f, "types"),
                            items: strings(f, "items"),
                            values: strings(f, "values"),
                        }),
                        _ => None,
                    })
                    .collect();
                let placed = member(s, "params_in").map(slice).unwrap_or_default();
                let placed = placed
                    .into_iter()
                    .filter_map(|p| match p {
                        syn::Expr::Call(c) => match &*c.func {
                            syn::Expr::Path(f)
                                if f.path.segments.last().is_some_and(|s| {
                                    s.ident == "Query" || s.ident == "DeepObject" || s.ident == "QueryJson"
                                }) =>
                            {
                                c.args.iter().nth(1).and_then(string)
                            }
                            _ => None,
                        },
                        _ => None,
                    })
                    .collect();
                self.0.push(Routed { method, path, placed, fields });
            }
        }
        syn::visit::visit_expr_struct(self, s);
    }
}

/// The JSON type a parameter's schema names, following `$ref`s into `components/schemas`.
fn listed_type<'a>(schema: &'a Value, openapi: &'a Value) -> Option<&'a str> {
    let mut s = schema;
    for _ in 0..32 {
        match s.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/components/schemas/")) {
            Some(name) => s = &openapi["components"]["schemas"][name],
            None => break,
        }
    }
    match s.get("type") {
        Some(Value::String(t)) => Some(t),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

/// A value of the first of `types` (an enum's first value for a string), `items` for an array.
fn sample(types: &[String], items: &[String], values: &[String]) -> Value {
    match types.first().map(String::as_str) {
        Some("integer") => json!(-5),
        Some("number") => json!(0.5),
        Some("boolean") => json!(true),
        Some("null") => Value::Null,
        Some("object") => json!({ "k": ["v w", 1] }),
        Some("array") => json!([sample(items, &[], values), sample(items, &[], values)]),
        Some("string") | None => values.first().map_or_else(|| json!("a b&c=d/é?#%"), |v| json!(v)),
        Some(other) => panic!("a field of JSON type `{other}`"),
    }
}

/// Whether a sample of every field of `op`, written as the client writes a query, reads back
/// as itself through the adapter; how many did.
fn round_trip(op: &Routed) -> Result<usize, String> {
    let leak =
        |v: &[String]| -> &'static [&'static str] { Vec::leak(v.iter().map(|s| &*String::leak(s.clone())).collect()) };
    let fields: Vec<FieldDef> = op
        .fields
        .iter()
        .map(|f| FieldDef {
            name: String::leak(f.name.clone()),
            types: leak(&f.types),
            items: leak(&f.items),
            values: leak(&f.values),
            required: false,
            default: None,
            description: "",
        })
        .collect();
    let input: serde_json::Map<String, Value> =
        op.fields.iter().map(|f| (f.name.clone(), sample(&f.types, &f.items, &f.values))).collect();
    let read = stitchgen_runtime::__private::query_round_trip(&Value::Object(input.clone()), &fields);
    if read != input {
        return Err(format!("{} {}: sent {input:?}, the adapter read {read:?}", op.method, op.path));
    }
    Ok(input.len())
}

/// Compares every routed operation of the generated module `rust` with `openapi`: the query
/// parameters listed are the ones placed there (`paramsIn`), then on GET, HEAD and DELETE the
/// input's fields; sends a sample of each input field through the client and the adapter;
/// returns how many query fields agreed, or what disagreed.
pub(crate) fn query_fields_match(rust: &str, openapi: &Value) -> Result<usize, String> {
    let file = syn::parse_file(rust).map_err(|e| format!("the module does not parse: {e}"))?;
    let mut ops = Operations::default();
    ops.visit_file(&file);
    let mut agreed = 0;
    for op in &mut ops.0 {
        if !matches!(op.method.as_str(), "GET" | "HEAD" | "DELETE") {
            // Its input fields are a form's, not the query's.
            op.fields.clear();
        }
        let op = &*op;
        let route: String = op
            .path
            .split('/')
            .map(|s| match s.strip_prefix(':').or_else(|| s.strip_prefix('*')) {
                Some(p) => format!("{{{p}}}"),
                None => s.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("/");
        let parameters = &openapi["paths"][&route][op.method.to_ascii_lowercase()]["parameters"];
        let listed: Vec<&Value> = parameters.as_array().into_iter().flatten().filter(|p| p["in"] == "query").collect();
        let names: Vec<&str> = listed.iter().filter_map(|p| p["name"].as_str()).collect();
        let read: Vec<&str> = op.placed.iter().chain(op.fields.iter().map(|f| &f.name)).map(String::as_str).collect();
        if names != read {
            return Err(format!("{} {}: openapi.json lists {names:?}, the runtime reads {read:?}", op.method, op.path));
        }
        agreed += op.placed.len();
        for (p, f) in listed.iter().skip(op.placed.len()).zip(&op.fields) {
            let Some(t) = listed_type(&p["schema"], openapi) else { continue };
            if !f.types.iter().any(|r| r == t) {
                return Err(format!("{} {} `{}`: listed as {t}, read as {:?}", op.method, op.path, f.name, f.types));
            }
            agreed += 1;
        }
        if round_trip(op)? != op.fields.len() {
            return Err(format!("{} {}: a field named twice", op.method, op.path));
        }
    }
    Ok(agreed)
}
