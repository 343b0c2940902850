//! `anyOf` and `oneOf` compared branch by branch. Branches are paired by `$ref` target, by a
//! `const` discriminator value, or by type; each pair is compared with every rule, and a branch
//! left without a counterpart is added or removed, by direction. A schema that is not a union
//! on one side is a union of one branch there, so making a field nullable is one new branch.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::{Dir, Side, Walk, def_ref, props, strings, types};
use crate::diff::location::At;

/// The union keyword of `v` and its branches.
pub(super) fn of(v: &Value) -> Option<(&'static str, &Vec<Value>)> {
    ["oneOf", "anyOf"].into_iter().find_map(|k| v.get(k).and_then(Value::as_array).map(|b| (k, b)))
}

/// Compares `o` with `n`, at least one of them a union.
pub(super) fn compare(walk: &mut Walk<'_>, o: &Value, n: &Value, at: &At, depth: usize) {
    if let (Some((ok, _)), Some((nk, _))) = (of(o), of(n))
        && ok != nk
    {
        walk.push("composition-changed", format!("{at}: `{ok}` → `{nk}`"), at.both(o, n));
    }
    // Both unions: what stands beside them is compared once, here, not once per branch.
    let both = of(o).is_some() && of(n).is_some();
    if both {
        walk.schema(&beside(o), &beside(n), at, depth + 1);
    }
    let (ob, nb) = (branches(walk, 0, o, !both), branches(walk, 1, n, !both));
    let pairs = pair(walk, &ob, &nb);
    // A nullable value keeps its path: `address.street`, not `address(object).street`.
    let plain = |bs: &[Value]| bs.iter().filter(|b| !is_null(b)).count() <= 1;
    let labelled = !(plain(&ob) && plain(&nb));
    for &(i, j) in &pairs {
        let shown = if labelled { format!("({})", label(walk, 0, &ob[i], i)) } else { String::new() };
        walk.schema(&ob[i], &nb[j], &at.then(&shown, &branch(o, i), &branch(n, j)), depth + 1);
    }
    let dir = walk.dir;
    for (i, b) in ob.iter().enumerate().filter(|(i, _)| !pairs.iter().any(|p| p.0 == *i)) {
        let (rule, says) = match (dir, bare(b)) {
            (Dir::Input, true) => ("input-type-narrowed", "no longer accepts"),
            (Dir::Input, false) => ("input-branch-removed", "no longer accepts"),
            (Dir::Output, true) => ("output-type-narrowed", "can no longer be"),
            (Dir::Output, false) => ("output-branch-removed", "can no longer be"),
        };
        let found = at.then("", &branch(o, i), "").removed(b);
        walk.push(rule, format!("{at}: {says} {}", label(walk, 0, b, i)), found);
    }
    let one_of = of(n).is_some_and(|(k, _)| k == "oneOf");
    for (j, b) in nb.iter().enumerate().filter(|(j, _)| !pairs.iter().any(|p| p.1 == *j)) {
        // `oneOf` refuses a value two branches match: an input that matched one now may not.
        let overlapped = (0..nb.len()).find(|&k| k != j && overlap(walk, &nb[j], &nb[k]));
        if let (Dir::Input, true, Some(k)) = (dir, one_of, overlapped) {
            let (added, other) = (named(walk, b, j), named(walk, &nb[k], k));
            walk.push(
                "input-branch-overlaps",
                format!("{at}: {added} overlaps {other}: a value both match is refused"),
                at.then("", "", &branch(n, j)).added(b),
            );
            continue;
        }
        let (rule, says) = match (dir, bare(b)) {
            (Dir::Input, true) => ("input-type-widened", "also accepts"),
            (Dir::Input, false) => ("input-branch-added", "also accepts"),
            (Dir::Output, true) => ("output-type-widened", "may now be"),
            (Dir::Output, false) => ("output-branch-added", "may now be"),
        };
        let found = at.then("", "", &branch(n, j)).added(b);
        walk.push(rule, format!("{at}: {says} {}", label(walk, 1, b, j)), found);
    }
}

/// The pointer suffix of branch `index` of `v` as [`branches`] numbers them: `/oneOf/INDEX` of a
/// union's own branches; nothing for `v` itself (not a union) or for the `null` split from a
/// branch's type list (it has no place of its own).
fn branch(v: &Value, index: usize) -> String {
    match of(v) {
        Some((kw, items)) if index < items.len() => format!("/{kw}/{index}"),
        _ => String::new(),
    }
}

/// `v` without its union keyword.
fn beside(v: &Value) -> Value {
    let kw = of(v).map(|(k, _)| k);
    let Value::Object(m) = v else { return v.clone() };
    Value::Object(m.iter().filter(|(k, _)| Some(k.as_str()) != kw).map(|(k, v)| (k.clone(), v.clone())).collect())
}

/// The branches of `v`, with `null` split from a branch that allows it beside other types: a
/// nullable value is the same union however it is spelled. With `spread`, the keywords beside
/// the union are laid over each branch (they apply to every branch), for comparing with a
/// schema that is not a union. Not a union: one branch, itself.
fn branches(walk: &Walk<'_>, side: Side, v: &Value, spread: bool) -> Vec<Value> {
    let Some((_, items)) = of(v) else { return split_null(vec![v.clone()]) };
    let Value::Object(beside) = beside(v) else { return split_null(items.clone()) };
    let out = items
        .iter()
        .map(|b| {
            if beside.is_empty() || !spread {
                return b.clone();
            }
            let mut m = beside.clone();
            m.insert("allOf".into(), Value::Array(vec![b.clone()]));
            super::compose(walk, side, &Value::Object(m)).into_owned()
        })
        .collect();
    split_null(out)
}

fn split_null(branches: Vec<Value>) -> Vec<Value> {
    let had_null = branches.iter().any(is_null);
    let mut split = false;
    let mut out: Vec<Value> = branches
        .into_iter()
        .map(|mut b| {
            if let Some(Value::Array(ts)) = b.get("type")
                && ts.len() > 1
                && ts.iter().any(|t| t == "null")
            {
                let mut rest: Vec<Value> = ts.iter().filter(|t| *t != "null").cloned().collect();
                b["type"] = if rest.len() == 1 { rest.remove(0) } else { Value::Array(rest) };
                split = true;
            }
            b
        })
        .collect();
    if split && !had_null {
        out.push(Value::Object(Map::from_iter([("type".to_owned(), Value::String("null".into()))])));
    }
    out
}

fn is_null(b: &Value) -> bool {
    bare(b) && types(b).is_some_and(|t| t.len() == 1 && t.contains("null"))
}

/// A branch that states nothing but its types: adding or removing it is a type change.
fn bare(b: &Value) -> bool {
    let Value::Object(m) = b else { return false };
    m.contains_key("type") && m.keys().all(|k| k == "type" || crate::schema::ANNOTATIONS.contains(&k.as_str()))
}

/// A test of whether old branch `i` and new branch `j` pair, given the pairs taken so far.
type Stage<'s> = &'s dyn Fn(usize, usize, &[(usize, usize)]) -> bool;

/// Old and new branches paired: equal ones first, then by `$ref` target, by discriminator value,
/// by a type only one branch on each side has, and last by overlapping types. Two branches
/// whose discriminators disagree are never paired.
fn pair(walk: &Walk<'_>, ob: &[Value], nb: &[Value]) -> Vec<(usize, usize)> {
    let ok: Vec<_> = ob.iter().map(|b| kind(walk, 0, b)).collect();
    let nk: Vec<_> = nb.iter().map(|b| kind(walk, 1, b)).collect();
    let (ot, nt): (Vec<_>, Vec<_>) = (ob.iter().map(tags).collect(), nb.iter().map(tags).collect());
    // Whether `k` is the kind of exactly one branch of `kinds` not yet paired on that side.
    let unique = |kinds: &[BTreeSet<String>], k: &BTreeSet<String>, taken: &[usize]| {
        kinds.iter().enumerate().filter(|(x, o)| *o == k && !taken.contains(x)).count() == 1
    };
    let stages: [Stage<'_>; 5] = [
        &|i, j, _| ob[i] == nb[j],
        &|i, j, _| def_ref(&ob[i]).is_some() && def_ref(&ob[i]) == def_ref(&nb[j]),
        &|i, j, _| !ot[i].is_disjoint(&nt[j]),
        &|i, j, taken| {
            let (old, new): (Vec<usize>, Vec<usize>) = taken.iter().copied().unzip();
            ok[i] == nk[j] && unique(&ok, &ok[i], &old) && unique(&nk, &nk[j], &new)
        },
        &|i, j, _| !ok[i].is_disjoint(&nk[j]),
    ];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for stage in stages {
        for (i, tags) in ot.iter().enumerate() {
            if pairs.iter().any(|p| p.0 == i) {
                continue;
            }
            let free = |j: &usize| !pairs.iter().any(|p| p.1 == *j);
            if let Some(j) = (0..nb.len()).filter(free).find(|&j| !disagree(tags, &nt[j]) && stage(i, j, &pairs)) {
                pairs.push((i, j));
            }
        }
    }
    pairs.sort();
    pairs
}

/// Whether some value may match both branches `a` and `b` of one side (the new one): their types
/// meet (an integer is a number), no discriminator tells them apart, and neither is a closed
/// object that lacks a property the other requires. A branch that states no type meets any.
fn overlap(walk: &Walk<'_>, a: &Value, b: &Value) -> bool {
    let widen = |mut k: BTreeSet<String>| {
        if k.contains("integer") {
            k.insert("number".into());
        }
        if k.contains("number") {
            k.insert("integer".into());
        }
        k
    };
    let (ka, kb) = (widen(kind(walk, 1, a)), widen(kind(walk, 1, b)));
    let types_meet = ka.is_empty() || kb.is_empty() || !ka.is_disjoint(&kb);
    let (a, b) = (walk.target(1, a).map_or(a, |(_, v)| v), walk.target(1, b).map_or(b, |(_, v)| v));
    let excludes = |closed: &Value, other: &Value| {
        closed.get("additionalProperties") == Some(&Value::Bool(false))
            && strings(other.get("required")).iter().any(|r| !props(closed).contains_key(*r))
    };
    types_meet && !disagree(&tags(a), &tags(b)) && !excludes(a, b) && !excludes(b, a)
}

/// The JSON types a branch allows, a `$defs` reference read through.
fn kind(walk: &Walk<'_>, side: Side, b: &Value) -> BTreeSet<String> {
    let b = walk.target(side, b).map_or(b, |(_, body)| body);
    if let Some(t) = types(b) {
        return t;
    }
    let has = |k: &str| b.get(k).is_some();
    if has("properties") || has("required") || has("additionalProperties") {
        return BTreeSet::from(["object".to_owned()]);
    }
    if has("items") {
        return BTreeSet::from(["array".to_owned()]);
    }
    let values: Vec<&Value> = match (b.get("const"), b.get("enum").and_then(Value::as_array)) {
        (Some(c), _) => vec![c],
        (None, Some(e)) => e.iter().collect(),
        (None, None) => Vec::new(),
    };
    values.into_iter().map(|v| json_type(v).to_owned()).collect()
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A branch's discriminators: each property with one allowed value, and that value.
fn tags(b: &Value) -> BTreeSet<(String, String)> {
    props(b)
        .iter()
        .filter_map(|(name, s)| {
            let one = s
                .get("const")
                .or_else(|| s.get("enum").and_then(Value::as_array).filter(|e| e.len() == 1).map(|e| &e[0]))?;
            Some((name.clone(), crate::canonical::canonical(one)))
        })
        .collect()
}

/// Two branches whose same discriminator property holds different values.
fn disagree(a: &BTreeSet<(String, String)>, b: &BTreeSet<(String, String)>) -> bool {
    a.iter().any(|(p, v)| b.iter().any(|(q, w)| p == q && v != w))
}

/// A new branch's [`label`], with the properties it requires where the label is only its types
/// (two object branches are then told apart: "object with `iban`").
fn named(walk: &Walk<'_>, b: &Value, index: usize) -> String {
    let l = label(walk, 1, b, index);
    let body = walk.target(1, b).map_or(b, |(_, v)| v);
    let required = strings(body.get("required"));
    let bare_types = tags(b).is_empty() && def_ref(b).is_none() && b.get("title").is_none();
    if !bare_types || required.is_empty() {
        return l;
    }
    let names: Vec<String> = required.iter().map(|r| format!("`{r}`")).collect();
    format!("{l} with {}", names.join(", "))
}

/// How a report names a branch: its discriminator, its type's name, its title or its types.
fn label(walk: &Walk<'_>, side: Side, b: &Value, index: usize) -> String {
    if let Some((p, v)) = tags(b).into_iter().next() {
        return format!("{p} = {v}");
    }
    if let Some(name) = def_ref(b) {
        return name.to_owned();
    }
    if let Some(title) = b.get("title").and_then(Value::as_str) {
        return title.to_owned();
    }
    let k = kind(walk, side, b);
    if k.is_empty() { format!("branch {}", index + 1) } else { k.into_iter().collect::<Vec<_>>().join(" or ") }
}
