//! Random contracts whose names are hostile at every level that becomes a Rust identifier: the
//! service, shared types, properties, enum values, actions, path and query parameters. Names are
//! keywords, unicode, punctuation and different spellings of one case form. Written as JSON,
//! which YAML reads as it is, so no name needs YAML quoting rules.

use serde_json::{Map, Value, json};

use crate::random::Rng;

/// Names that are Rust keywords (strict, reserved, weak), names the generated code itself uses,
/// and names of prelude items.
const KEYWORDS: &[&str] = &[
    "type",
    "self",
    "Self",
    "super",
    "crate",
    "_",
    "box",
    "async",
    "await",
    "dyn",
    "match",
    "yield",
    "try",
    "gen",
    "union",
    "static",
    "abstract",
    "fn",
    "impl",
    "mod",
    "move",
    "ref",
    "where",
    "loop",
    "macro_rules",
    "r#type",
    "types",
    "defaults",
    "error",
    "builder",
    "Option",
    "Result",
    "String",
    "Vec",
    "Box",
    "None",
    "Some",
    "Ok",
    "Err",
    "std",
    "core",
    "serde",
    "Handler",
    "Service",
    "Output",
    "Input",
    "Params",
    "OPERATION",
];

/// Names outside ASCII, or made mostly of punctuation.
const ODD: &[&str] = &[
    "ünïcødé",
    "名前",
    "Ωmega",
    "café",
    "naïve",
    "🦀",
    "a b",
    "a-b",
    "a.b",
    "a/b",
    "+1",
    "-1",
    "EndTime<",
    "x[0]",
    "@type",
    "#tag",
    "123",
    "0day",
    "__",
    "_x",
    "'quoted'",
    "\"dq\"",
    "back\\slash",
    "*/",
    "a:b",
    "$ref",
    "tab\there",
];

/// Different spellings that share one snake_case or UpperCamelCase form.
const CASES: &[&str] = &[
    "fooBar", "foo_bar", "FooBar", "foo-bar", "FOO_BAR", "foo__bar", "Foo bar", "endTime", "EndTime", "end_time", "ID",
    "id", "Id", "i_d", "URLPath", "url_path", "UrlPath",
];

/// One hostile name.
fn name(rng: &mut Rng) -> String {
    let pool = [KEYWORDS, ODD, CASES][rng.below(3)];
    pool[rng.below(pool.len())].to_owned()
}

/// `n` hostile names, distinct as strings (a map cannot hold one key twice).
fn names(rng: &mut Rng, n: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    while out.len() < n {
        let candidate = name(rng);
        if !out.contains(&candidate) {
            out.push(candidate);
        }
    }
    out
}

/// A property schema: a scalar, an enum of hostile values, or a reference to an earlier type.
fn property(rng: &mut Rng, earlier: &[String]) -> Value {
    match rng.below(5) {
        0 => json!({"type": "string"}),
        1 => json!({"type": "integer", "minimum": 0}),
        2 if !earlier.is_empty() => json!({"$ref": format!("#/types/{}", earlier[rng.below(earlier.len())])}),
        2 | 3 => {
            let n = 1 + rng.below(4);
            json!({"type": "string", "enum": names(rng, n)})
        }
        _ => json!({"type": "array", "items": {"type": "string"}}),
    }
}

/// An object schema with hostile property names, some required.
fn object(rng: &mut Rng, earlier: &[String]) -> Value {
    let n = 1 + rng.below(5);
    let props: Map<String, Value> = names(rng, n).into_iter().map(|p| (p, property(rng, earlier))).collect();
    let required: Vec<&String> = props.keys().filter(|_| rng.below(2) == 0).collect();
    let mut schema = json!({"type": "object", "properties": props});
    if !required.is_empty() {
        schema["required"] = json!(required);
    }
    schema
}

/// A path parameter name: hostile, but made of characters a path segment can carry.
fn param(rng: &mut Rng) -> String {
    let name = name(rng);
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') { name } else { "p".to_owned() }
}

/// How many contracts [`sample`] picks.
pub const SAMPLE: usize = 8;

/// The first [`SAMPLE`] seeds whose contracts `check` accepts, each alone and all together (no
/// two with one service module), with their service modules and texts: the contracts
/// `tests/generated` compiles.
pub fn sample() -> Vec<(u64, String, String)> {
    let mut out = Vec::new();
    let mut modules = std::collections::BTreeSet::new();
    for seed in 0.. {
        if out.len() == SAMPLE {
            break;
        }
        let text = contract(seed);
        let checked = stitchgen::check_source("sample.stitch.json", &text);
        let service = checked.contracts.first().and_then(|c| c.service.as_ref()).map(|s| s.value.clone());
        let module = service.as_deref().and_then(stitchgen::naming::snake_ident);
        if let Some(module) = module.filter(|m| !checked.has_errors() && modules.insert(m.clone())) {
            out.push((seed, module, text));
        }
    }
    out
}

/// A random contract with hostile names, as JSON text. Not every one is valid: names that make no
/// Rust identifier at all are refused by `check` with a code of their own.
pub fn contract(seed: u64) -> String {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let service = if rng.below(3) == 0 { name(&mut rng) } else { format!("names{seed}") };
    let mut types = Map::new();
    let n = 1 + rng.below(4);
    let type_names = names(&mut rng, n);
    for (i, t) in type_names.iter().enumerate() {
        let schema = object(&mut rng, &type_names[..i]);
        types.insert(t.clone(), schema);
    }
    let mut endpoints = Map::new();
    let n = 1 + rng.below(5);
    for (i, action) in names(&mut rng, n).into_iter().enumerate() {
        let endpoint = match rng.below(3) {
            0 => json!({
                "method": "GET", "path": format!("/e{i}"), "desc": "List.",
                "input": {"type": "object", "properties": {name(&mut rng): {"type": "string"}}},
                "output": object(&mut rng, &type_names),
            }),
            1 => json!({
                "method": "GET", "path": format!("/e{i}/:{}", param(&mut rng)), "desc": "Get.",
                "output": {"$ref": format!("#/types/{}", type_names[rng.below(type_names.len())])},
            }),
            _ => json!({
                "method": "POST", "path": format!("/e{i}"), "desc": "Create.",
                "input": object(&mut rng, &type_names),
                "output": object(&mut rng, &type_names),
            }),
        };
        let mut endpoint = endpoint;
        endpoint["expose"] = json!(["HTTP", "MCP", "AGENT", "CLI"]);
        endpoint["tool"] = json!({"name": format!("names{seed}_{i}")});
        endpoints.insert(action, endpoint);
    }
    let contract = json!({"stitch": 1, "service": service, "types": types, "endpoints": endpoints});
    serde_json::to_string_pretty(&contract).expect("a JSON value serializes")
}
