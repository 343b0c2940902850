//! Facts of the type graph, computed once per service when the model is lowered: which types
//! reach themselves and which would inline past a bound. The presentation layer above reads them.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::schema::TYPES_PREFIX;

/// The most schema nodes one type may inline into; a type past it is kept once in `$defs`.
/// Without a bound, types that each reference the previous ones twice double the output per
/// type: a small contract could ask for gigabytes.
pub const INLINE_NODES: usize = 1_024;

/// The types whose inlined form would exceed [`INLINE_NODES`] schema nodes.
pub fn expansive_types(types: &indexmap::IndexMap<String, Value>, recursive: &BTreeSet<String>) -> BTreeSet<String> {
    fn size(v: &Value, memo: &BTreeMap<String, usize>) -> usize {
        match v {
            Value::Object(m) => {
                let inlined = m.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(TYPES_PREFIX));
                let own = match inlined {
                    Some(name) => memo.get(name).copied().unwrap_or(1),
                    None => 1,
                };
                m.iter().filter(|(k, _)| *k != "$ref").fold(own, |n, (_, c)| n.saturating_add(size(c, memo)))
            }
            Value::Array(a) => a.iter().fold(1, |n, c| n.saturating_add(size(c, memo))),
            _ => 1,
        }
    }
    // Sizes in dependency order: a type's references are sized before it (recursive types
    // and types already past the bound count as one node: they stay references).
    let mut memo: BTreeMap<String, usize> = recursive.iter().map(|r| (r.clone(), 1)).collect();
    let mut out = BTreeSet::new();
    let mut pending: Vec<&String> = types.keys().filter(|k| !recursive.contains(*k)).collect();
    while !pending.is_empty() {
        let before = pending.len();
        pending.retain(|name| {
            let ready = refs_of(&types[name.as_str()]).iter().all(|r| memo.contains_key(r) || !types.contains_key(r));
            if ready {
                let n = size(&types[name.as_str()], &memo);
                let n = if n > INLINE_NODES {
                    out.insert((*name).clone());
                    1
                } else {
                    n
                };
                memo.insert((*name).clone(), n);
            }
            !ready
        });
        if pending.len() == before {
            break;
        }
    }
    out
}

/// The types that reach themselves through references: those in a cycle of the reference
/// graph, found in one pass over its strongly connected parts.
pub fn recursive_types(types: &indexmap::IndexMap<String, Value>) -> BTreeSet<String> {
    let index: BTreeMap<&str, usize> = types.keys().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let edges: Vec<Vec<usize>> =
        types.values().map(|s| refs_of(s).iter().filter_map(|r| index.get(r.as_str()).copied()).collect()).collect();
    let mut out = BTreeSet::new();
    for part in strongly_connected(&edges) {
        if part.len() > 1 || edges[part[0]].contains(&part[0]) {
            out.extend(part.iter().filter_map(|&i| types.get_index(i)).map(|(n, _)| n.clone()));
        }
    }
    out
}

/// The strongly connected parts of a graph (Tarjan's algorithm), each non-empty. Iterative:
/// a long chain of types must not exhaust the stack.
pub(crate) fn strongly_connected(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let (mut index, mut low, mut on_stack) = (vec![UNSEEN; n], vec![0; n], vec![false; n]);
    let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0);
    let mut enter = |v: usize, index: &mut [usize], low: &mut [usize], stack: &mut Vec<usize>, on: &mut [bool]| {
        (index[v], low[v]) = (next, next);
        next += 1;
        stack.push(v);
        on[v] = true;
    };
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        enter(root, &mut index, &mut low, &mut stack, &mut on_stack);
        // (node, next edge to follow): the call stack of the recursive formulation.
        let mut calls = vec![(root, 0)];
        while let Some((v, i)) = calls.pop() {
            if let Some(&w) = edges[v].get(i) {
                calls.push((v, i + 1));
                if index[w] == UNSEEN {
                    enter(w, &mut index, &mut low, &mut stack, &mut on_stack);
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            if low[v] == index[v] {
                let mut part = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    part.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(part);
            }
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
        }
    }
    out
}

/// The shared types a schema refers to by name.
pub(super) fn refs_of(v: &Value) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    fn walk(v: &Value, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(m) => {
                if let Some(n) = m.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(TYPES_PREFIX)) {
                    out.insert(n.to_owned());
                }
                m.values().for_each(|c| walk(c, out));
            }
            Value::Array(a) => a.iter().for_each(|c| walk(c, out)),
            _ => {}
        }
    }
    walk(v, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn types(edges: &[(&str, &[&str])]) -> indexmap::IndexMap<String, Value> {
        edges
            .iter()
            .map(|(n, to)| {
                let refs: Vec<Value> = to.iter().map(|t| json!({ "$ref": format!("{TYPES_PREFIX}{t}") })).collect();
                (n.to_string(), json!({ "anyOf": refs }))
            })
            .collect()
    }

    #[test]
    fn recursive_types_are_those_in_a_cycle() {
        let t = types(&[("A", &["B"]), ("B", &["C", "D"]), ("C", &["A"]), ("D", &["E"]), ("E", &[]), ("F", &["F"])]);
        let want: BTreeSet<String> = ["A", "B", "C", "F"].map(String::from).into();
        assert_eq!(recursive_types(&t), want);
    }

    #[test]
    fn a_chain_of_a_hundred_thousand_types_is_walked_without_recursion() {
        let names: Vec<String> = (0..100_000).map(|i| format!("T{i}")).collect();
        let mut t: indexmap::IndexMap<String, Value> = names
            .iter()
            .zip(names.iter().skip(1))
            .map(|(a, b)| (a.clone(), json!({ "$ref": format!("{TYPES_PREFIX}{b}") })))
            .collect();
        t.insert("T99999".into(), json!({ "$ref": format!("{TYPES_PREFIX}T0") }));
        assert_eq!(recursive_types(&t).len(), 100_000);
    }
}
