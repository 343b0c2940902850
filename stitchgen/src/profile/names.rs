//! Tool names an MCP client cannot take, rewritten: characters it refuses become `_`, and a
//! name past its length is cut and ends in six hex digits of its canonical name's SHA-256, so
//! the same contract always gives the same names. Each rewritten tool records its canonical
//! name in `_meta`, which the runtime reads to map a call back.

use std::collections::BTreeSet;

use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use super::{Profile, Violation};

/// The `_meta` key of a rewritten tool's canonical name.
pub(super) const NAME_META: &str = "stitchgen/name";
/// The `_meta` key of a tool's rewritten argument names: `{written: canonical}`.
pub(super) const ARGUMENTS_META: &str = "stitchgen/arguments";

/// A top-level argument whose name Cursor refuses (`expand[]`, `metadata[key]`): brackets
/// written `_`, the canonical names recorded. A name that meets another argument's is a
/// violation.
pub(super) fn arguments(tool: &mut Value) -> Vec<Violation> {
    let Some(Value::Object(props)) = tool.pointer_mut("/inputSchema/properties") else { return Vec::new() };
    let odd: Vec<String> = props.keys().filter(|k| k.contains(['[', ']'])).cloned().collect();
    let mut renamed = serde_json::Map::new();
    let mut refused = Vec::new();
    for canonical in odd {
        let written = canonical.replace(['[', ']'], "_").trim_end_matches('_').to_owned();
        if written.is_empty() || props.contains_key(&written) {
            let at = format!("/inputSchema/properties/{canonical}: written `{written}`, which another argument has");
            refused.push(Violation { rule: "cursor/argument-names", at });
            continue;
        }
        if let Some(schema) = props.remove(&canonical) {
            props.insert(written.clone(), schema);
        }
        renamed.insert(written, Value::String(canonical));
    }
    if renamed.is_empty() {
        return refused;
    }
    if let Some(Value::Array(required)) = tool.pointer_mut("/inputSchema/required") {
        for r in required.iter_mut() {
            if let Some((written, _)) = renamed.iter().find(|(_, c)| *c == r) {
                *r = Value::String(written.clone());
            }
        }
    }
    if let Some(Value::Object(meta)) = tool.as_object_mut().map(|t| t.entry("_meta").or_insert_with(|| json!({}))) {
        meta.insert(ARGUMENTS_META.into(), Value::Object(renamed));
    }
    refused
}

/// Whether `profile` takes character `c` in a tool name.
fn takes(profile: Profile, c: char) -> bool {
    // Cursor filters out a tool whose name has anything but letters, digits and `_`.
    c.is_ascii_alphanumeric() || c == '_' || (c == '-' && profile != Profile::Cursor)
}

/// Whether `profile` takes `name` as it is.
pub(super) fn fits(profile: Profile, name: &str) -> bool {
    (1..=profile.max_name()).contains(&name.len()) && name.chars().all(|c| takes(profile, c))
}

/// Rewrites the names of `tools` that `profile` cannot take; a name that meets another tool's
/// after rewriting is a violation.
pub(super) fn shorten(profile: Profile, tools: &mut [Value]) -> Vec<(String, Violation)> {
    let name = |t: &Value| t.get("name").and_then(Value::as_str).unwrap_or_default().to_owned();
    // A name that fits is kept, and no rewritten name may take it.
    let mut taken: BTreeSet<String> = tools.iter().map(name).filter(|n| fits(profile, n)).collect();
    let mut refused = Vec::new();
    for tool in tools.iter_mut() {
        let canonical = name(tool);
        if fits(profile, &canonical) {
            continue;
        }
        let clean: String = canonical.chars().map(|c| if takes(profile, c) { c } else { '_' }).collect();
        let max = profile.max_name();
        let short = if clean.len() <= max && !clean.is_empty() && !taken.contains(&clean) {
            clean
        } else {
            let hash: String = Sha256::digest(canonical.as_bytes())[..3].iter().map(|b| format!("{b:02x}")).collect();
            let keep = clean.len().min(max.saturating_sub(hash.len() + 1));
            format!("{}_{hash}", clean[..keep].trim_end_matches('_'))
        };
        if !taken.insert(short.clone()) {
            let at = format!("/name: `{canonical}` written `{short}`, which another tool has");
            refused.push((canonical, Violation { rule: rule(profile), at }));
            continue;
        }
        tool["name"] = Value::String(short);
        let meta = tool.as_object_mut().map(|t| t.entry("_meta").or_insert_with(|| json!({})));
        if let Some(Value::Object(meta)) = meta {
            meta.insert(NAME_META.into(), Value::String(canonical));
        }
    }
    refused
}

/// The rule a profile's names follow.
pub(super) fn rule(profile: Profile) -> &'static str {
    match profile {
        Profile::OpenAiStrict => "openai-strict/name",
        Profile::OpenAi => "openai/name",
        Profile::Anthropic => "anthropic/name",
        Profile::Gemini => "gemini/name",
        Profile::Cursor => "cursor/name",
        Profile::VsCode => "vscode/name",
        Profile::ClaudeCode => "claude-code/name",
    }
}
