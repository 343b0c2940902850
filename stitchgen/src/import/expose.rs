//! `--expose`: every endpoint the tool surfaces accept goes on MCP and AGENT, with a tool name
//! that is portable and unique; the others stay HTTP-only, each with its reason.

use std::collections::BTreeSet;

use serde_json::{Value as J, json};

use super::Summary;
use super::fit::type_entries;
use crate::naming::{self, MAX_TOOL_NAME};
use crate::parse::node::Node;
use crate::schema::{self, Types};

/// The keys that make an endpoint HTTP-only.
const HTTP_ONLY: &[&str] = &["rawResponse", "rawBody", "multipart", "responseMeta", "stream"];

/// Exposes each eligible endpoint of `body` (`{types, endpoints}`) on MCP and AGENT.
pub(super) fn expose(body: &mut J, service: &str, summary: &mut Summary) {
    let entries = type_entries(body);
    let types = Types::new(Some(&entries));
    let mut names = BTreeSet::new();
    let Some(J::Object(endpoints)) = body.get_mut("endpoints") else { return };
    for (action, e) in endpoints.iter_mut() {
        if let Some(why) = not_a_tool(e, types) {
            summary.http_only.push((action.clone(), why));
            continue;
        }
        let derived = naming::derive_tool_name(service, action).filter(|n| naming::is_portable_tool_name(n));
        let name = match derived {
            Some(n) if !names.contains(&n) => {
                names.insert(n);
                None
            }
            _ => Some(unique_name(action, &mut names)),
        };
        e["expose"] = json!(["HTTP", "MCP", "AGENT"]);
        if let Some(name) = name {
            e["tool"] = json!({ "name": name });
        }
    }
}

/// Why the endpoint cannot be a tool today, if it cannot.
fn not_a_tool(e: &J, types: Types<'_>) -> Option<String> {
    if let Some(kind) = HTTP_ONLY.iter().find(|k| e.get(**k).is_some_and(|v| v != &J::Bool(false))) {
        return Some(format!("`{kind}` is HTTP-only"));
    }
    let object =
        |key: &str| e.get(key).is_none_or(|s| schema::is_object(&Node::from_json(s, super::fit::NOWHERE), types));
    if !object("input") {
        return Some("its input is not an object, and tool arguments are".into());
    }
    if !object("output") {
        return Some("its answer is not an object, and an MCP tool answer is".into());
    }
    None
}

/// A portable tool name from the action (already snake_case ASCII), unique among `names`.
fn unique_name(action: &str, names: &mut BTreeSet<String>) -> String {
    let base: String = action.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').take(MAX_TOOL_NAME).collect();
    let base = if base.is_empty() { "tool".to_owned() } else { base };
    let mut name = base.clone();
    let mut n = 2;
    while names.contains(&name) {
        let suffix = format!("_{n}");
        name = format!("{}{suffix}", &base[..base.len().min(MAX_TOOL_NAME - suffix.len())]);
        n += 1;
    }
    names.insert(name.clone());
    name
}
