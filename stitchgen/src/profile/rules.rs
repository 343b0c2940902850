//! Each profile's rules (docs/profiles.md cites their sources): the keywords its schemas may
//! carry, and what it asks of a tool's name and of the shape of its parameters.

use serde_json::Value;

use super::{Profile, Violation};

/// Keywords that give a schema its structure, which every profile reads.
const STRUCTURE: &[&str] = &["type", "properties", "required", "items", "enum", "anyOf", "description"];

/// Whether `profile` reads keyword `key` (with `value`) where a schema carries it.
pub(super) fn reads(profile: Profile, key: &str, value: Option<&Value>) -> bool {
    if STRUCTURE.contains(&key) {
        return match (profile, key) {
            // Gemini's enums are of strings.
            (Profile::Gemini, "enum") => {
                value.and_then(Value::as_array).is_some_and(|v| v.iter().all(Value::is_string))
            }
            _ => true,
        };
    }
    let text = value.and_then(Value::as_str).unwrap_or_default();
    match profile {
        Profile::OpenAiStrict if key == "format" => STRICT_FORMATS.contains(&text),
        Profile::OpenAiStrict => STRICT_KEYWORDS.contains(&key) || BOUNDS.contains(&key),
        // Without `strict`, OpenAI and Anthropic take JSON Schema as written, but for the root.
        Profile::OpenAi | Profile::Anthropic => true,
        Profile::Gemini if key == "format" => GEMINI_FORMATS.contains(&text),
        Profile::Gemini => GEMINI_KEYWORDS.contains(&key) || BOUNDS[..4].contains(&key),
        // MCP clients: any keyword, but for a `$ref` they cannot resolve (see `refs`), and
        // VS Code's validator speaks draft-07.
        Profile::VsCode => !LATER_THAN_DRAFT_07.contains(&key),
        Profile::Cursor | Profile::ClaudeCode => true,
    }
}

/// Keywords JSON Schema added after draft-07, which VS Code's draft-07 validator refuses or
/// misreads (`$defs` is covered by the rule on references).
const LATER_THAN_DRAFT_07: &[&str] = &[
    "prefixItems",
    "unevaluatedProperties",
    "unevaluatedItems",
    "dependentRequired",
    "dependentSchemas",
    "minContains",
    "maxContains",
    "$dynamicRef",
    "$dynamicAnchor",
    "$anchor",
];

/// The bounds of numbers and lists, which OpenAI's strict mode and Gemini alike read (Gemini
/// but for the exclusive ones and `multipleOf`).
pub(super) const BOUNDS: &[&str] =
    &["minimum", "maximum", "minItems", "maxItems", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];

/// Beside [`STRUCTURE`] and [`BOUNDS`], the keywords OpenAI's strict mode reads, and its formats.
const STRICT_KEYWORDS: &[&str] = &["additionalProperties", "const", "$ref", "$defs", "title", "pattern"];
const STRICT_FORMATS: &[&str] = &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

/// Beside [`STRUCTURE`], the fields of the `google-genai` SDK's `Schema`, and its formats.
const GEMINI_KEYWORDS: &[&str] = &[
    "nullable",
    "title",
    "pattern",
    "minLength",
    "maxLength",
    "minProperties",
    "maxProperties",
    "default",
    "defs",
    "ref",
    "$defs",
    "$ref",
];
const GEMINI_FORMATS: &[&str] = &["enum", "date-time", "float", "double", "int32", "int64"];

/// What `profile`'s rules refuse of `tool` (rewritten by its passes). A profile that rewrites
/// names judges them over the whole list (`names::shorten`).
pub(super) fn check(profile: Profile, tool: &Value) -> Vec<Violation> {
    let mut out = Vec::new();
    let name = tool.get("name").and_then(Value::as_str).unwrap_or_default();
    if !profile.passes().contains(&super::Pass::ShortenNames) && !name_fits(profile, name) {
        out.push(Violation { rule: super::names::rule(profile), at: format!("/name: `{name}`") });
    }
    let key = if profile.is_mcp() { "inputSchema" } else { "parameters" };
    let Some(params) = tool.get(key) else { return out };
    if params.get("type").and_then(Value::as_str) != Some("object") || params.get("anyOf").is_some() {
        out.push(Violation { rule: rule(profile, "object-root"), at: format!("/{key}") });
    }
    if profile == Profile::Cursor {
        // Cursor refuses a top-level argument whose name has a bracket (`expand[]`).
        for arg in params.get("properties").and_then(Value::as_object).into_iter().flatten().map(|(k, _)| k) {
            if arg.contains(['[', ']']) {
                out.push(Violation { rule: "cursor/argument-names", at: format!("/{key}/properties/{}", escape(arg)) });
            }
        }
    }
    walk(profile, params, &format!("/{key}"), 1, &mut out);
    if let Some(output) = tool.get("outputSchema") {
        if profile == Profile::ClaudeCode && output.get("type").is_none_or(|t| t != "object") {
            out.push(Violation { rule: "claude-code/object-output", at: "/outputSchema".into() });
        }
        walk(profile, output, "/outputSchema", 1, &mut out);
    }
    out
}

/// The id of `profile`'s rule `what` (`gemini/object-root`).
fn rule(profile: Profile, what: &'static str) -> &'static str {
    macro_rules! ids {
        ($($what:literal),*) => {
            match (profile, what) {
                $(
                    (Profile::OpenAiStrict, $what) => concat!("openai-strict/", $what),
                    (Profile::OpenAi, $what) => concat!("openai/", $what),
                    (Profile::Anthropic, $what) => concat!("anthropic/", $what),
                    (Profile::Gemini, $what) => concat!("gemini/", $what),
                    (Profile::Cursor, $what) => concat!("cursor/", $what),
                    (Profile::VsCode, $what) => concat!("vscode/", $what),
                    (Profile::ClaudeCode, $what) => concat!("claude-code/", $what),
                )*
                _ => what,
            }
        };
    }
    ids!("object-root", "refs")
}

fn name_fits(profile: Profile, name: &str) -> bool {
    let len = (1..=64).contains(&name.len());
    match profile {
        Profile::Gemini => {
            len && name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'))
        }
        _ => len && name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-')),
    }
}

/// The deepest nesting of objects OpenAI's strict mode takes.
const STRICT_DEPTH: usize = 10;

fn walk(profile: Profile, schema: &Value, at: &str, depth: usize, out: &mut Vec<Violation>) {
    let Some(node) = schema.as_object() else { return };
    for (key, value) in node {
        if profile.is_mcp() && matches!(key.as_str(), "$ref" | "$defs") {
            out.push(Violation { rule: rule(profile, "refs"), at: format!("{at}/{key}") });
        } else if !reads(profile, key, Some(value)) && !matches!(key.as_str(), "properties" | "items") {
            let rule = match profile {
                Profile::OpenAiStrict => "openai-strict/keywords",
                Profile::Gemini => "gemini/keywords",
                Profile::VsCode => "vscode/draft-07",
                _ => continue,
            };
            out.push(Violation { rule, at: format!("{at}/{key}") });
        }
    }
    let types = node.get("type");
    let array = types.is_some_and(|t| t == "array" || t.as_array().is_some_and(|l| l.iter().any(|x| x == "array")));
    if profile == Profile::VsCode && array && !node.contains_key("items") {
        out.push(Violation { rule: "vscode/array-items", at: at.to_owned() });
    }
    if profile == Profile::Cursor && types.is_some_and(Value::is_array) {
        out.push(Violation { rule: "cursor/type-lists", at: format!("{at}/type") });
    }
    if profile == Profile::OpenAiStrict
        && (node.get("properties").is_some() || node.get("type").is_some_and(|t| t == "object"))
    {
        strict_object(node, at, depth, out);
    }
    if profile == Profile::Gemini && node.get("type").is_some_and(Value::is_array) {
        out.push(Violation { rule: "gemini/type-lists", at: format!("{at}/type") });
    }
    let deeper = depth + usize::from(node.get("properties").is_some());
    if let Some(props) = node.get("properties").and_then(Value::as_object) {
        for (name, p) in props {
            walk(profile, p, &format!("{at}/properties/{}", escape(name)), deeper, out);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(child) = node.get(key).filter(|c| c.is_object()) {
            walk(profile, child, &format!("{at}/{key}"), deeper, out);
        }
    }
    for key in ["anyOf", "oneOf", "allOf"] {
        for (i, branch) in node.get(key).and_then(Value::as_array).into_iter().flatten().enumerate() {
            walk(profile, branch, &format!("{at}/{key}/{i}"), deeper, out);
        }
    }
    for key in ["$defs", "defs"] {
        for (name, def) in node.get(key).and_then(Value::as_object).into_iter().flatten() {
            walk(profile, def, &format!("{at}/{key}/{}", escape(name)), depth, out);
        }
    }
}

/// OpenAI's strict mode: an object closed, every property required, not nested too deep.
fn strict_object(node: &serde_json::Map<String, Value>, at: &str, depth: usize, out: &mut Vec<Violation>) {
    if node.get("additionalProperties") != Some(&Value::Bool(false)) {
        out.push(Violation { rule: "openai-strict/closed-objects", at: at.to_owned() });
    }
    let required: Vec<&str> =
        node.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let props = node.get("properties").and_then(Value::as_object).into_iter().flatten();
    if props.map(|(k, _)| k).any(|k| !required.contains(&k.as_str())) {
        out.push(Violation { rule: "openai-strict/all-required", at: at.to_owned() });
    }
    if depth > STRICT_DEPTH {
        out.push(Violation { rule: "openai-strict/nesting", at: at.to_owned() });
    }
}

/// A name as a JSON pointer token.
fn escape(name: &str) -> String {
    name.replace('~', "~0").replace('/', "~1")
}
