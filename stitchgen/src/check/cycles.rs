//! Shared types defined in terms of themselves on the same value (`Cat: {allOf: [{$ref: Cat}]}`):
//! validating or generating them never ends, so they are refused. A reference under a property
//! or an item describes a nested value and is fine (a tree of comments).

use std::collections::{BTreeMap, BTreeSet};

use super::Cx;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::node::Node;
use crate::schema::ref_name;

/// Reports each shared type that reaches itself through `$ref`, `allOf`, `anyOf` and `oneOf`
/// alone (the keywords that apply to the same value).
pub(super) fn check(cx: &Cx<'_>, diags: &mut Diagnostics) {
    let Some(types) = &cx.c.types else { return };
    let graph: BTreeMap<&str, BTreeSet<&str>> = types
        .value
        .iter()
        .map(|(name, schema)| {
            let mut out = BTreeSet::new();
            same_value_refs(&schema.0, &mut out, 0);
            (name.value.as_str(), out)
        })
        .collect();
    for (name, _) in types.value.iter() {
        let Some(path) = path_back(&graph, &name.value) else { continue };
        diags.push(
            Diagnostic::new(
                Code::SelfReferentialType,
                name.span,
                format!("type `{}` is defined in terms of itself", name.value),
            )
            .label(format!("{} refers back to it on the same value", path.join(" → ")))
            .note("`$ref`, `allOf`, `anyOf` and `oneOf` apply to the value itself, so checking it never ends")
            .help("put the recursion under a property or an array's `items`, where it describes a nested value"),
        );
    }
}

/// The types `node` refers to for the same value, through compositions (bounded in depth by
/// the YAML nesting limit; the bound here only guards against a malformed tree).
fn same_value_refs<'a>(node: &'a Node, out: &mut BTreeSet<&'a str>, depth: usize) {
    if depth > crate::parse::MAX_YAML_DEPTH {
        return;
    }
    if let Some(name) = ref_name(node) {
        out.insert(name);
    }
    for kw in ["allOf", "anyOf", "oneOf"] {
        for branch in node.get(kw).and_then(Node::as_seq).unwrap_or_default() {
            same_value_refs(branch, out, depth + 1);
        }
    }
}

/// The names on a way from `start` back to itself, if there is one (breadth first, so the
/// shortest).
fn path_back<'a>(graph: &BTreeMap<&'a str, BTreeSet<&'a str>>, start: &'a str) -> Option<Vec<&'a str>> {
    let mut from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(at) = queue.pop_front() {
        for &next in graph.get(at).into_iter().flatten() {
            if next == start {
                let mut path = vec![start];
                let mut back = at;
                let mut tail = Vec::new();
                while back != start {
                    tail.push(back);
                    back = from[back];
                }
                path.extend(tail.into_iter().rev());
                path.push(start);
                return Some(path);
            }
            if next != start && !from.contains_key(next) && graph.contains_key(next) {
                from.insert(next, at);
                queue.push_back(next);
            }
        }
    }
    None
}
