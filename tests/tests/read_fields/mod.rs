//! What the runtime reads from a query (the generated `OperationDef::input_fields`, parsed out of
//! the emitted Rust) against what `openapi.json` lists as that operation's query parameters:
//! names in order, and for each whether it repeats and which JSON type it takes.

use serde_json::Value;
use syn::visit::Visit;

/// One routed operation of a generated module: method, route, and the query fields it reads
/// (name, JSON types).
struct Routed {
    method: String,
    path: String,
    fields: Vec<(String, Vec<String>)>,
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
                let fields = fields
                    .into_iter()
                    .filter_map(|f| match f {
                        syn::Expr::Struct(f) => {
                            let types = member(f, "types").map(slice).unwrap_or_default();
                            Some((member(f, "name").and_then(string)?, types.into_iter().filter_map(string).collect()))
                        }
                        _ => None,
                    })
                    .collect();
                self.0.push(Routed { method, path, fields });
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

/// Compares every GET, HEAD and DELETE operation of the generated module `rust` with
/// `openapi`; returns how many query fields agreed, or what disagreed.
pub(crate) fn query_fields_match(rust: &str, openapi: &Value) -> Result<usize, String> {
    let file = syn::parse_file(rust).map_err(|e| format!("the module does not parse: {e}"))?;
    let mut ops = Operations::default();
    ops.visit_file(&file);
    let mut agreed = 0;
    for op in ops.0.iter().filter(|o| matches!(o.method.as_str(), "GET" | "HEAD" | "DELETE")) {
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
        let read: Vec<&str> = op.fields.iter().map(|(n, _)| n.as_str()).collect();
        if names != read {
            return Err(format!("{} {}: openapi.json lists {names:?}, the runtime reads {read:?}", op.method, op.path));
        }
        for (p, (name, types)) in listed.iter().zip(&op.fields) {
            let Some(t) = listed_type(&p["schema"], openapi) else { continue };
            if !types.iter().any(|r| r == t) {
                return Err(format!("{} {} `{name}`: listed as {t}, read as {types:?}", op.method, op.path));
            }
            agreed += 1;
        }
    }
    Ok(agreed)
}
