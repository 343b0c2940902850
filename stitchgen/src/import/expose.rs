//! `--expose`: every endpoint the tool surfaces accept goes on MCP, AGENT and CLI, with a tool name
//! that is portable and unique; the others stay HTTP-only, each with its reason. Which endpoints
//! the tool surfaces accept is `check`'s answer ([`crate::check::not_a_tool`]), asked of each
//! endpoint as written: an answer that is not an object is a tool too, wrapped as `generate`
//! presents it.

use std::collections::BTreeSet;

use serde_json::{Value as J, json};
use sha2::{Digest, Sha256};

use super::Summary;
use super::fit::type_entries;
use crate::parse::node::Node;
use crate::schema::Types;

/// The longest tool name an import writes. Clients show a server's tools under a prefix (Claude
/// Code's `mcp__<server>__` within 64 characters, Cursor's server name within 60); 48 leaves
/// a server name room in both.
pub const MAX_IMPORTED_TOOL_NAME: usize = 48;

/// Exposes each eligible endpoint of `body` (`{types, endpoints}`) on MCP, AGENT and CLI, each
/// tool named after its action (the description's `operationId` in snake_case), shortened to
/// [`MAX_IMPORTED_TOOL_NAME`] and unique. The name is written as `tool.name`: the contract
/// records the mapping, and the tool keeps its name whatever the service is called.
pub(super) fn expose(body: &mut J, summary: &mut Summary) {
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
        let name = tool_name(action, &mut names);
        if name != *action {
            summary.renamed += 1;
        }
        e["expose"] = json!(["HTTP", "MCP", "AGENT", "CLI"]);
        e["tool"] = json!({ "name": name });
        *exposed += 1;
    }
}

/// Why the endpoint cannot be a tool, if it cannot: `check`'s own answer.
fn not_a_tool(action: &str, e: &J, types: Types<'_>) -> Option<String> {
    let Some(endpoint) = crate::parse::endpoint(action, &Node::from_json(e, super::fit::NOWHERE)) else {
        return Some("it does not decode as an endpoint".into());
    };
    crate::check::not_a_tool(&endpoint, types).map(crate::check::NotATool::reason)
}

/// A portable tool name from the action (already snake_case ASCII), at most
/// [`MAX_IMPORTED_TOOL_NAME`] characters and unique among `names`. A longer action keeps its
/// leading words and ends in six hex digits of its SHA-256: the same action always gets the
/// same name, and two long actions that share their first words still differ.
fn tool_name(action: &str, names: &mut BTreeSet<String>) -> String {
    const MAX: usize = MAX_IMPORTED_TOOL_NAME;
    let clean: String = action.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    let base = match clean.len() {
        0 => "tool".to_owned(),
        n if n <= MAX => clean,
        _ => {
            let hash = Sha256::digest(clean.as_bytes());
            let tag: String = hash.iter().take(3).map(|b| format!("{b:02x}")).collect();
            format!("{}_{tag}", words_within(&clean, MAX - tag.len() - 1))
        }
    };
    let mut name = base.clone();
    let mut n = 2;
    while names.contains(&name) {
        let suffix = format!("_{n}");
        name = format!("{}{suffix}", &base[..base.len().min(MAX - suffix.len())]);
        n += 1;
    }
    names.insert(name.clone());
    name
}

/// The longest prefix of `name` within `max` characters that ends at a word (before a `_`),
/// else its first `max` characters.
fn words_within(name: &str, max: usize) -> &str {
    let cut = &name[..max];
    match cut.rfind('_') {
        Some(i) if i > 0 && name.as_bytes()[max] != b'_' => cut[..i].trim_end_matches('_'),
        _ => cut.trim_end_matches('_'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_action_is_the_tool_name() {
        let mut names = BTreeSet::new();
        assert_eq!(tool_name("find_pets", &mut names), "find_pets");
        assert_eq!(tool_name("find_pets", &mut names), "find_pets_2", "a name is never given twice");
    }

    #[test]
    fn a_long_action_keeps_its_first_words_and_a_hash_of_the_whole() {
        let long = "watch_core_v1_namespaced_persistent_volume_claim_list_for_all_namespaces";
        let other = "watch_core_v1_namespaced_persistent_volume_claim_list_for_one_namespace";
        let mut names = BTreeSet::new();
        let a = tool_name(long, &mut names);
        let b = tool_name(other, &mut names);
        assert!(a.len() <= MAX_IMPORTED_TOOL_NAME && b.len() <= MAX_IMPORTED_TOOL_NAME, "{a} {b}");
        assert!(a.starts_with("watch_core_v1_namespaced_persistent_") && a != b, "{a} {b}");
        assert_eq!(a, tool_name(long, &mut BTreeSet::new()), "the same action, the same name");
        let tag = &a[a.len() - 6..];
        assert!(tag.chars().all(|c| c.is_ascii_hexdigit()) && a.as_bytes()[a.len() - 7] == b'_', "{a}");
    }

    #[test]
    fn a_long_word_is_cut_inside() {
        let long = "x".repeat(100);
        let name = tool_name(&long, &mut BTreeSet::new());
        assert_eq!(name.len(), MAX_IMPORTED_TOOL_NAME);
        assert!(name.starts_with(&"x".repeat(41)), "{name}");
    }
}
