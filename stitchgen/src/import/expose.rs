//! `--expose`: every endpoint the tool surfaces accept goes on MCP, AGENT and CLI, with a tool name
//! that is portable and unique; the others stay HTTP-only, each with its reason. Which endpoints
//! the tool surfaces accept is `check`'s answer ([`crate::check::not_a_tool`]), asked of each
//! endpoint as written: an answer that is not an object is a tool too, wrapped as `generate`
//! presents it.

use std::collections::BTreeSet;

use serde_json::{Value as J, json};

use super::Summary;
use super::fit::type_entries;
use crate::naming::{self, MAX_TOOL_NAME};
use crate::parse::node::Node;
use crate::schema::Types;

/// Exposes each eligible endpoint of `body` (`{types, endpoints}`) on MCP, AGENT and CLI.
pub(super) fn expose(body: &mut J, service: &str, summary: &mut Summary) {
    let entries = type_entries(body);
    let types = Types::new(Some(&entries));
    let mut names = BTreeSet::new();
    let exposed = summary.exposed.insert(0);
    let Some(J::Object(endpoints)) = body.get_mut("endpoints") else { return };
    for (action, e) in endpoints.iter_mut() {
        if let Some(why) = not_a_tool(action, e, types) {
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
        e["expose"] = json!(["HTTP", "MCP", "AGENT", "CLI"]);
        *exposed += 1;
        if let Some(name) = name {
            e["tool"] = json!({ "name": name });
        }
    }
}

/// Why the endpoint cannot be a tool, if it cannot: `check`'s own answer.
fn not_a_tool(action: &str, e: &J, types: Types<'_>) -> Option<String> {
    let Some(endpoint) = crate::parse::endpoint(action, &Node::from_json(e, super::fit::NOWHERE)) else {
        return Some("it does not decode as an endpoint".into());
    };
    crate::check::not_a_tool(&endpoint, types).map(crate::check::NotATool::reason)
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
