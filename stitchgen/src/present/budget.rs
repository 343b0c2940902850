//! The byte budget of a tool definition: what a tool costs a model's context on every turn.
//! Within its budget a tool is advertised as built; past it, each shared type is kept once in the
//! tool's own `$defs`, then the answer and, as a last resort, the input are relaxed from the
//! deepest parts up to their loosest truthful form. A relaxed schema accepts every answer the full
//! one does; the runner keeps validating every call against the full contract schemas.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use serde_json::{Map, Value, json};

pub use super::tool::{Contributor, Fit, Over};
use super::tool::{Shows, Sized, build, json_len, tool_input_with};
use super::{Bodies, Memo, Style, Tool};
use crate::diag::{Code, Diagnostic};
use crate::model::{Operation, Service};
use crate::parse::ast::Surface;
use crate::schema::TYPES_PREFIX;

/// The deepest relaxation tried. Types reached through `$defs` nest deeper than any one schema
/// (a ring of types nests without end), so the search doubles up from a depth no schema
/// `check` accepts reaches to this bound.
const DEEPEST: usize = 1 << 16;

/// The tool of `op` in `style`, fitted to its budget on `transport`. Its size is first counted
/// from a skeleton (each `$defs` body's size known once per type), so a tool past its budget
/// is never spelled out in full.
pub(super) fn fitted(op: &Operation, svc: &Service, transport: Surface, memo: &Memo) -> Option<Tool> {
    let budget = op.budget;
    let shows = Shows::of(transport);
    let counted = build(op, svc, shows, memo, Bodies::Counted)?;
    let full = counted.size(transport);
    if full as u64 <= budget {
        return spelled(counted, op, svc, shows, memo);
    }
    let shared = shows.shared();
    let skeleton = build(op, svc, shared, memo, Bodies::Counted)?;
    let (mut tool, fit) = if skeleton.size(transport) as u64 <= budget {
        (spelled(skeleton, op, svc, shared, memo)?, Fit::Shared)
    } else {
        let defs = Defs::Memo { memo, svc, style: shared.style };
        let mut tool = skeleton.tool;
        tool.input = tool_input_with(op, svc, shared.style, Some(memo), Bodies::Full).0;
        let within = Within { transport, budget };
        let fit = match tool.output.take().map(|o| relax_part(&mut tool, &o, Part::Output, within, &defs)) {
            Some(Some(depth)) => Fit::Output(depth),
            _ => {
                let input = std::mem::take(&mut tool.input);
                match relax_part(&mut tool, &input, Part::Input, within, &defs) {
                    Some(depth) => Fit::Input(depth),
                    None => Fit::Exceeded,
                }
            }
        };
        (tool, fit)
    };
    let advertised = tool.size(transport);
    let contributors = contributors(op, svc, memo, shows.answer);
    tool.over = Some(Over { budget, full, advertised, fit, contributors });
    Some(tool)
}

/// The tool a skeleton stands for: the skeleton itself when it keeps no type in `$defs` (a
/// skeleton differs from the tool only in those bodies, and most tools keep none), else the
/// tool built with every body spelled out.
fn spelled(skeleton: Sized, op: &Operation, svc: &Service, shows: Shows, memo: &Memo) -> Option<Tool> {
    let keeps = |schema: Option<&Value>| schema.is_some_and(|s| s.get("$defs").is_some());
    if keeps(Some(&skeleton.tool.input)) || keeps(skeleton.tool.output.as_ref()) {
        return super::tool::tool(op, svc, shows, memo);
    }
    Some(skeleton.tool)
}

#[derive(Clone, Copy)]
enum Part {
    Output,
    Input,
}

/// The budget a tool's definition must fit on one transport.
#[derive(Clone, Copy)]
struct Within {
    transport: Surface,
    budget: u64,
}

/// Sets `part` of `tool` to `schema` relaxed below the deepest depth that fits, and returns the
/// depth; when none fits, to `schema` relaxed whole, and returns `None`. Each depth tried is
/// measured, not built: the rest of the definition is sized once, the relaxed part from the
/// sizes of its relaxed `$defs` entries, each known once per service, style and depth.
fn relax_part(tool: &mut Tool, schema: &Value, part: Part, within: Within, defs: &Defs<'_>) -> Option<usize> {
    set(tool, Value::Null, part);
    let shell = tool.size(within.transport);
    let shown = matches!(part, Part::Input) || Shows::of(within.transport).answer;
    let fits = |depth: usize| {
        let size = if shown {
            shell.saturating_sub("null".len()).saturating_add(relaxed_len(schema, depth, defs))
        } else {
            shell
        };
        size as u64 <= within.budget
    };
    // Sizes shrink as the depth does: the deepest depth that fits, found by doubling, then
    // bisection. The schema whole did not fit, so some depth does not.
    let found = if fits(0) {
        let (mut lo, mut hi) = (0, 32);
        while hi < DEEPEST && fits(hi) {
            (lo, hi) = (hi, hi * 2);
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(mid) { lo = mid } else { hi = mid }
        }
        Some(lo)
    } else {
        None
    };
    set(tool, relax_with(schema, found.unwrap_or(0), defs), part);
    found
}

fn set(tool: &mut Tool, schema: Value, part: Part) {
    match part {
        Part::Output => tool.output = Some(schema),
        Part::Input => tool.input = schema,
    }
}

/// Where a relaxation reads the bodies of `$defs` entries.
enum Defs<'a> {
    /// The schema's own `$defs`, with the relaxations measured so far.
    Own(Option<&'a Map<String, Value>>, RefCell<Measured>),
    /// The bodies of a service's types as converted in one style: a skeleton's `$defs` are
    /// `null`, and only the entries a relaxation reaches are read. Relaxations are measured
    /// once per memo: every tool of the service reads the same ones.
    Memo { memo: &'a Memo, svc: &'a Service, style: Style<'a> },
}

/// `$defs` entries relaxed with some depth left, measured: keyed by whether objects are
/// closed, the entry (see [`Defs::index`]) and the depth left.
pub(super) type Measured = BTreeMap<(bool, usize, usize), Rc<Relaxed>>;

/// A `$defs` entry's body relaxed with some depth left, as a relaxation's size needs it.
pub(super) struct Relaxed {
    /// The size of `"NAME":BODY` as compact JSON.
    len: usize,
    /// The body's own depth: the most levels of subschemas below it that a relaxation walks.
    depth: usize,
    /// The entries its walk reaches, with the depth left for each, in the order reached.
    queued: Vec<(usize, usize)>,
}

impl Defs<'_> {
    /// Whether every object of the schema is closed (an agent tool's): a loosened object
    /// stays closed, since providers refuse a function tool with an open one.
    fn closed(&self) -> bool {
        matches!(self, Defs::Memo { style, .. } if style.close_objects)
    }

    /// How many entries there are.
    fn len(&self) -> usize {
        match self {
            Defs::Own(defs, _) => defs.map_or(0, Map::len),
            Defs::Memo { svc, .. } => svc.types.len(),
        }
    }

    /// The position of entry `name` among them, when it is one: entries are named by position
    /// while a relaxation is measured, so that no name is compared or copied.
    fn index(&self, name: &str) -> Option<usize> {
        match self {
            // A schema's own `$defs` are relaxed only by tests and stay small.
            Defs::Own(defs, _) => (*defs)?.keys().position(|k| k == name),
            Defs::Memo { svc, .. } => svc.types.get_index_of(name),
        }
    }

    /// The name of the entry at position `i`.
    fn name(&self, i: usize) -> &str {
        match self {
            Defs::Own(defs, _) => defs.and_then(|d| d.keys().nth(i)).map_or("", String::as_str),
            Defs::Memo { svc, .. } => svc.types.get_index(i).map_or("", |(n, _)| n.as_str()),
        }
    }

    /// `f` of the body of entry `name`, when there is one.
    fn with<R>(&self, name: &str, f: impl FnOnce(&Value) -> R) -> Option<R> {
        match self {
            Defs::Own(defs, _) => defs.and_then(|d| d.get(name)).map(f),
            Defs::Memo { memo, svc, style } => {
                svc.types.contains_key(name).then(|| f(&memo.body(svc, *style, name).value))
            }
        }
    }

    /// The entry at position `i` relaxed with `left` levels. Past the entry's own depth nothing
    /// in it is loosened: its size is the whole body's, measured once, and the entries it
    /// reaches are queued with what is left where they are reached. Below it, measured once for
    /// each depth left.
    fn relaxed(&self, i: usize, left: usize) -> Option<Rc<Relaxed>> {
        let whole = self.measured(i, usize::MAX)?;
        if left <= whole.depth {
            return self.measured(i, left);
        }
        // Queued from the whole body with `usize::MAX - 1 - d` left at depth `d`.
        let queued = whole.queued.iter().map(|&(j, q)| (j, left - (usize::MAX - q))).collect();
        Some(Rc::new(Relaxed { len: whole.len, depth: whole.depth, queued }))
    }

    /// The entry at position `i` relaxed with `left` levels, measured once.
    fn measured(&self, i: usize, left: usize) -> Option<Rc<Relaxed>> {
        let key = (self.closed(), i, left);
        let cache = match self {
            Defs::Own(_, cache) => cache,
            Defs::Memo { memo, .. } => &memo.relaxed,
        };
        if let Some(r) = cache.borrow().get(&key) {
            return Some(Rc::clone(r));
        }
        let mut r = Relaxer { defs: self, queued: Vec::new() };
        let name = self.name(i);
        let (len, depth) = self.with(name, |body| (json_len(&r.node(body, left)), depth(body)))?;
        let relaxed = Rc::new(Relaxed { len: len + json_len(&json!(name)) + 1, depth, queued: r.queued });
        cache.borrow_mut().insert(key, Rc::clone(&relaxed));
        Some(relaxed)
    }
}

/// `schema` (a presented schema, its types in the root's `$defs`) with every subschema `depth`
/// levels down replaced by its loosest truthful form; a type in `$defs` sits one level below
/// its shallowest reference. `$defs` no longer referenced are dropped.
pub fn relax(schema: &Value, depth: usize) -> Value {
    relax_with(schema, depth, &Defs::Own(schema.get("$defs").and_then(Value::as_object), RefCell::default()))
}

/// The root of `schema` (without its `$defs`: those are read from `defs`, as far as the walk
/// reaches) relaxed below `depth`, and each `$defs` entry reached with its depth left.
fn relax_root(schema: &Value, depth: usize, defs: &Defs<'_>) -> (Value, Vec<(usize, usize)>) {
    let mut r = Relaxer { defs, queued: Vec::new() };
    let root = match schema {
        Value::Object(m) => {
            Value::Object(m.iter().filter(|(k, _)| *k != "$defs").map(|(k, v)| (k.clone(), v.clone())).collect())
        }
        other => other.clone(),
    };
    let root = r.node(&root, depth);
    (root, reached(r.queued, defs))
}

/// The `$defs` entries a walk that queued `queued` reaches, each with the most depth left that
/// reaches it, by position. A worklist, so that nesting stays one body deep; an entry is walked
/// once with its most depth left (a type reaching itself stops there: the depth left only
/// shrinks along a path).
fn reached(queued: Vec<(usize, usize)>, defs: &Defs<'_>) -> Vec<(usize, usize)> {
    let mut most: Vec<Option<usize>> = vec![None; defs.len()];
    let mut pending: Vec<(usize, usize)> = Vec::new();
    let queue = |(i, left): (usize, usize), most: &mut [Option<usize>], pending: &mut Vec<(usize, usize)>| {
        if most[i].is_some_and(|l| l >= left) {
            return;
        }
        most[i] = Some(left);
        pending.push((i, left));
    };
    for q in queued {
        queue(q, &mut most, &mut pending);
    }
    while let Some((i, left)) = pending.pop() {
        // Queued again with more depth left since: that one wins.
        if most[i].is_some_and(|l| l > left) {
            continue;
        }
        if let Some(relaxed) = defs.relaxed(i, left) {
            for q in &relaxed.queued {
                queue(*q, &mut most, &mut pending);
            }
        }
    }
    most.into_iter().enumerate().filter_map(|(i, l)| Some((i, l?))).collect()
}

/// The size of [`relax_with`]'s result as compact JSON, from the measured sizes of the
/// entries reached. Never less than the result's: turning a `oneOf` into an `anyOf` keeps its
/// size, and the one change that does not (a `oneOf` beside an `anyOf`, dropped) shrinks it.
fn relaxed_len(schema: &Value, depth: usize, defs: &Defs<'_>) -> usize {
    let (root, reached) = relax_root(schema, depth, defs);
    let mut len = json_len(&root);
    if let Value::Object(m) = &root
        && !reached.is_empty()
    {
        // `,"$defs":{…}`: each entry `"NAME":BODY`, commas between them.
        len += usize::from(!m.is_empty()) + r#""$defs":{}"#.len() + reached.len() - 1;
        len += reached.iter().map(|&(i, left)| defs.relaxed(i, left).map_or(0, |r| r.len)).sum::<usize>();
    }
    len
}

fn relax_with(schema: &Value, depth: usize, defs: &Defs<'_>) -> Value {
    let (mut root, reached) = relax_root(schema, depth, defs);
    let mut r = Relaxer { defs, queued: Vec::new() };
    let by_name: BTreeMap<&str, Value> = reached
        .into_iter()
        .filter_map(|(i, left)| {
            let name = defs.name(i);
            Some((name, defs.with(name, |body| r.node(body, left))?))
        })
        .collect();
    let mut defs: Map<String, Value> = by_name.into_iter().map(|(n, v)| (n.to_owned(), v)).collect();
    let loosened = loosened(&defs, |name, body| r.defs.with(name, |original| original != body).unwrap_or(true));
    if !loosened.is_empty() {
        loosen_unions(&mut root, &loosened);
        defs.values_mut().for_each(|d| loosen_unions(d, &loosened));
    }
    if !defs.is_empty()
        && let Value::Object(m) = &mut root
    {
        m.insert("$defs".into(), Value::Object(defs));
    }
    root
}

/// The `$defs` entries that accept more than they did: relaxed themselves, or referring to one
/// that is.
fn loosened(defs: &Map<String, Value>, changed: impl Fn(&str, &Value) -> bool) -> BTreeSet<String> {
    let mut out: BTreeSet<String> =
        defs.iter().filter(|(name, body)| changed(name, body)).map(|(n, _)| n.clone()).collect();
    loop {
        let more: Vec<String> =
            defs.iter().filter(|(n, b)| !out.contains(*n) && reaches(b, &out)).map(|(n, _)| n.clone()).collect();
        if more.is_empty() {
            return out;
        }
        out.extend(more);
    }
}

/// Whether `v` refers to one of `names` anywhere.
fn reaches(v: &Value, names: &BTreeSet<String>) -> bool {
    match v {
        Value::Object(m) => def_name(v).is_some_and(|n| names.contains(n)) || m.values().any(|c| reaches(c, names)),
        Value::Array(a) => a.iter().any(|c| reaches(c, names)),
        _ => false,
    }
}

/// Every `oneOf` with a branch that reaches a loosened type becomes `anyOf`: the loosened
/// branches may overlap, and "exactly one" would refuse what the full schema accepts.
fn loosen_unions(v: &mut Value, loosened: &BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            if m.get("oneOf").is_some_and(|b| reaches(b, loosened))
                && let Some(branches) = m.remove("oneOf")
                && !m.contains_key("anyOf")
            {
                m.insert("anyOf".into(), branches);
            }
            m.values_mut().for_each(|c| loosen_unions(c, loosened));
        }
        Value::Array(a) => a.iter_mut().for_each(|c| loosen_unions(c, loosened)),
        _ => {}
    }
}

/// Keywords whose value is one subschema.
const ONE: &[&str] = &["items", "additionalProperties"];
/// Keywords whose value maps names to subschemas.
const NAMED: &[&str] = &["properties"];
/// Keywords whose value lists subschemas.
const LISTED: &[&str] = &["anyOf", "oneOf", "allOf"];

struct Relaxer<'a> {
    defs: &'a Defs<'a>,
    /// The `$defs` entries the walk reached (by position), with the depth left for each, in
    /// order; a reference to no entry is left as it is.
    queued: Vec<(usize, usize)>,
}

impl Relaxer<'_> {
    fn node(&mut self, v: &Value, left: usize) -> Value {
        let Value::Object(map) = v else { return v.clone() };
        if left == 0 {
            return self.loose(v);
        }
        if let Some(i) = def_name(v).and_then(|n| self.defs.index(n)) {
            self.queued.push((i, left - 1));
        }
        let mut out = Map::new();
        for (k, child) in map {
            let key = k.as_str();
            let relaxed = if ONE.contains(&key) {
                self.node(child, left - 1)
            } else if NAMED.contains(&key) {
                let m = child.as_object().map(|m| m.iter().map(|(n, s)| (n.clone(), self.node(s, left - 1))).collect());
                m.map_or_else(|| child.clone(), Value::Object)
            } else if LISTED.contains(&key) {
                let a = child.as_array().map(|a| a.iter().map(|s| self.node(s, left - 1)).collect());
                a.map_or_else(|| child.clone(), Value::Array)
            } else {
                child.clone()
            };
            // Loosened branches may overlap: exactly one of them no longer holds, any one does.
            // (A branch loosened in a `$defs` entry it refers to is found by `loosen_unions`.)
            if key == "oneOf" && relaxed != *child {
                if !map.contains_key("anyOf") {
                    out.insert("anyOf".into(), relaxed);
                }
                continue;
            }
            out.insert(k.clone(), relaxed);
        }
        Value::Object(out)
    }

    /// The loosest truthful form of `v`: the JSON types it allows, and the name of the type it
    /// refers to. Everything else (properties, bounds, descriptions) is left out.
    fn loose(&self, v: &Value) -> Value {
        let mut out = Map::new();
        if let Some(types) = self.types(v, 8) {
            if self.defs.closed() && types.contains(&"object") {
                out.insert("additionalProperties".into(), Value::Bool(false));
            }
            out.insert("type".into(), if types.len() == 1 { json!(types[0]) } else { json!(types) });
        }
        if let Some(name) = def_name(v) {
            out.insert(
                "description".into(),
                json!(format!("A `{name}`, not spelled out: past the tool's size budget.")),
            );
        }
        Value::Object(out)
    }

    /// The JSON types `v` allows, when it says: `type`, a referenced type's, every branch of a
    /// `oneOf`/`anyOf`, or one branch of an `allOf`.
    fn types(&self, v: &Value, hops: usize) -> Option<Vec<&'static str>> {
        if hops == 0 {
            return None;
        }
        let named = |t: &Value| crate::schema::TYPE_NAMES.iter().copied().find(|n| t == *n);
        match v.get("type") {
            Some(Value::String(_)) => return named(&v["type"]).map(|t| vec![t]),
            Some(Value::Array(list)) => return list.iter().map(named).collect(),
            _ => {}
        }
        if let Some(found) = def_name(v).and_then(|n| self.defs.with(n, |target| self.types(target, hops - 1))) {
            return found;
        }
        let branches = |k: &str| v.get(k).and_then(Value::as_array).filter(|b| !b.is_empty());
        if let Some(all) = branches("allOf") {
            return all.iter().find_map(|b| self.types(b, hops - 1));
        }
        let union = branches("anyOf").or_else(|| branches("oneOf"))?;
        let mut out: Vec<&'static str> = Vec::new();
        for b in union {
            out.extend(self.types(b, hops - 1)?);
        }
        out.sort_by_key(|t| crate::schema::TYPE_NAMES.iter().position(|n| n == t));
        out.dedup();
        Some(out)
    }
}

/// The most levels of object subschemas below `v` that [`Relaxer::node`] walks into (0 for a
/// leaf): with more left than this, nothing in `v` is loosened.
fn depth(v: &Value) -> usize {
    let Value::Object(map) = v else { return 0 };
    let below = |c: &Value| if c.is_object() { 1 + depth(c) } else { 0 };
    let mut most = 0;
    for (k, child) in map {
        let key = k.as_str();
        let deepest = if ONE.contains(&key) {
            below(child)
        } else if NAMED.contains(&key) {
            child.as_object().map_or(0, |m| m.values().map(below).max().unwrap_or(0))
        } else if LISTED.contains(&key) {
            child.as_array().map_or(0, |a| a.iter().map(below).max().unwrap_or(0))
        } else {
            0
        };
        most = most.max(deepest);
    }
    most
}

/// The `$defs` entry a schema refers to.
fn def_name(v: &Value) -> Option<&str> {
    v.get("$ref")?.as_str()?.strip_prefix("#/$defs/")
}

/// The shared types that weigh most in `op`'s full tool definition: how many times each is
/// spelled out (a type kept in `$defs` once) times the size of its own body; the answer's
/// types count only where the definition states the answer.
fn contributors(op: &Operation, svc: &Service, memo: &Memo, answer: bool) -> Vec<Contributor> {
    let answer = op.tool_answer().filter(|_| answer);
    let mut known = memo.reach.borrow_mut();
    let mut reach = Reach { svc, memo: &mut known };
    let mut uses: BTreeMap<String, u64> = BTreeMap::new();
    // Types kept in `$defs` are spelled out once each, whatever refers to them.
    let mut shared: Vec<String> = Vec::new();
    let count = |found: &BTreeMap<String, u64>, uses: &mut BTreeMap<String, u64>, shared: &mut Vec<String>| {
        for (name, n) in found {
            let e = uses.entry(name.clone()).or_default();
            if *e == 0 && reach_shared(svc, name) {
                shared.push(name.clone());
            }
            *e = e.saturating_add(*n);
        }
    };
    for root in [&op.params, &op.input].into_iter().flatten().chain(answer.as_deref()) {
        count(&reach.from(root), &mut uses, &mut shared);
    }
    while let Some(name) = shared.pop() {
        // What the type's body spells out, once: it is kept in `$defs`.
        count(&reach.of(&name), &mut uses, &mut shared);
    }
    let mut out: Vec<Contributor> = uses
        .into_iter()
        .map(|(name, uses)| {
            let own = reach.own(&name);
            let copies = if reach_shared(svc, &name) { 1 } else { uses };
            Contributor { bytes: own.saturating_mul(copies), name, uses: copies }
        })
        .collect();
    out.sort_by(|a, b| b.bytes.cmp(&a.bytes).then_with(|| a.name.cmp(&b.name)));
    out.truncate(3);
    out
}

/// Types kept once in `$defs` rather than inlined.
fn reach_shared(svc: &Service, name: &str) -> bool {
    svc.recursive.contains(name) || svc.expansive.contains(name)
}

/// What a type's body spells out and its own size, per type of a service: every tool reads them.
#[derive(Default)]
pub(super) struct Reached {
    of: BTreeMap<String, Rc<BTreeMap<String, u64>>>,
    own: BTreeMap<String, u64>,
}

/// How many times inlining a schema spells out each type, memoized per type; a type kept in
/// `$defs` is counted where referred to and not entered.
struct Reach<'a> {
    svc: &'a Service,
    memo: &'a mut Reached,
}

impl Reach<'_> {
    /// The size of type `name`'s own body as compact JSON.
    fn own(&mut self, name: &str) -> u64 {
        let svc = self.svc;
        *self
            .memo
            .own
            .entry(name.to_owned())
            .or_insert_with(|| svc.types.get(name).map_or(0, |b| b.to_string().len() as u64))
    }

    fn from(&mut self, schema: &Value) -> BTreeMap<String, u64> {
        let mut out: BTreeMap<String, u64> = BTreeMap::new();
        for name in refs(schema) {
            let e = out.entry(name.clone()).or_default();
            *e = e.saturating_add(1);
            if !reach_shared(self.svc, &name) {
                for (inner, n) in self.of(&name).iter() {
                    let e = out.entry(inner.clone()).or_default();
                    *e = e.saturating_add(*n);
                }
            }
        }
        out
    }

    /// What type `name`'s body spells out, once (types kept in `$defs` are not entered).
    fn of(&mut self, name: &str) -> Rc<BTreeMap<String, u64>> {
        if let Some(m) = self.memo.of.get(name) {
            return Rc::clone(m);
        }
        let svc = self.svc;
        let m = Rc::new(svc.types.get(name).map(|body| self.from(body)).unwrap_or_default());
        self.memo.of.insert(name.to_owned(), Rc::clone(&m));
        m
    }
}

/// Every reference to a contract type in `v`, once per occurrence.
fn refs(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let mut todo = vec![v];
    while let Some(v) = todo.pop() {
        match v {
            Value::Object(m) => {
                if let Some(n) = m.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(TYPES_PREFIX)) {
                    out.push(n.to_owned());
                }
                todo.extend(m.values());
            }
            Value::Array(a) => todo.extend(a),
            _ => {}
        }
    }
    out
}

/// The W0007 warning of `tool`, past its budget on `transport`, at `span`.
pub(super) fn warning(tool: &Tool, transport: Surface, over: &Over, span: crate::source::Span) -> Diagnostic {
    let how = match over.fit {
        Fit::Shared => "each shared type kept once in `$defs`".to_owned(),
        Fit::Output(d) => format!("shared types kept once in `$defs`, the answer relaxed below depth {d}"),
        Fit::Input(d) => format!("the answer relaxed whole and the input below depth {d}"),
        Fit::Exceeded => "relaxed whole, and still past the budget".to_owned(),
    };
    let mut d = Diagnostic::new(
        Code::ToolOverBudget,
        span,
        format!(
            "{} tool `{}` takes {} bytes, past its budget of {}; it is advertised in {} bytes",
            transport.as_str(),
            tool.name,
            over.full,
            over.budget,
            over.advertised
        ),
    )
    .label(how);
    if !over.contributors.is_empty() {
        let parts: Vec<String> = over
            .contributors
            .iter()
            .map(|c| format!("`{}` ({} × about {} bytes)", c.name, c.uses, c.bytes / c.uses.max(1)))
            .collect();
        d = d.note(format!("the largest parts of the full definition: {}", parts.join(", ")));
    }
    d.note("the runner still validates every call against the full contract schemas").help(
        "declare a `tool.view` whose output holds what a model needs (that is what views are for), or raise `tool.budget` or `toolBudget`",
    )
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::{Defs, json_len, relax, relax_with, relaxed_len};
    use crate::present::{Memo, Refs, Style};

    /// The size a depth is judged by is the size of the schema built at that depth: every type
    /// of every fixture, relaxed at several depths, open and closed.
    #[test]
    fn a_relaxation_measured_is_the_size_of_the_one_built() {
        let (mut same, mut smaller) = (0, 0);
        for (path, model) in crate::present::tests::models() {
            for svc in &model.services {
                let memo = Memo::default();
                for close_objects in [false, true] {
                    let defs = Defs::Memo { memo: &memo, svc, style: Style { refs: Refs::Shared, close_objects } };
                    for name in svc.types.keys() {
                        let schema = json!({ "$ref": format!("#/$defs/{name}") });
                        for depth in [0, 1, 2, 3, 5, 8, 64] {
                            let (measured, built) =
                                (relaxed_len(&schema, depth, &defs), json_len(&relax_with(&schema, depth, &defs)));
                            // Equal, but where a `oneOf` beside an `anyOf` was dropped.
                            assert!(measured >= built, "{path}: `{name}` at depth {depth}: {measured} < {built}");
                            if measured == built { same += 1 } else { smaller += 1 }
                        }
                    }
                }
            }
        }
        assert!(same > 1_000 && smaller * 100 <= same, "{same} equal, {smaller} smaller");
    }

    #[test]
    fn below_the_depth_a_subschema_keeps_only_its_types_and_its_name() {
        let schema = json!({
            "type": "object",
            "properties": {
                "owner": { "$ref": "#/$defs/User" },
                "tags": { "type": "array", "items": { "type": "string", "maxLength": 9 } },
                "size": { "anyOf": [{ "type": "integer" }, { "type": "string", "pattern": "^x" }] }
            },
            "$defs": { "User": { "type": "object", "properties": { "id": { "type": "string" } } } }
        });
        assert_eq!(
            relax(&schema, 1),
            json!({
                "type": "object",
                "properties": {
                    "owner": { "type": "object", "description": "A `User`, not spelled out: past the tool's size budget." },
                    "tags": { "type": "array" },
                    "size": { "type": ["string", "integer"] }
                }
            })
        );
        assert_eq!(relax(&schema, 0), json!({ "type": "object" }));
        assert_eq!(relax(&schema, 64), schema, "deep enough, nothing changes");
    }

    #[test]
    fn a_type_that_reaches_itself_is_relaxed_once_and_the_walk_ends() {
        let schema = json!({
            "$ref": "#/$defs/Node",
            "$defs": { "Node": { "type": "object", "properties": { "next": { "$ref": "#/$defs/Node" } } } }
        });
        let relaxed = relax(&schema, 3);
        assert_eq!(relaxed["$defs"]["Node"]["properties"]["next"]["$ref"], "#/$defs/Node");
    }

    #[test]
    fn a_one_of_whose_branch_types_are_loosened_becomes_any_of() {
        let kind =
            |k: &str| json!({ "type": "object", "required": ["type"], "properties": { "type": { "const": k } } });
        let schema = json!({
            "type": "object",
            "properties": { "params": { "oneOf": [{ "$ref": "#/$defs/A" }, { "$ref": "#/$defs/B" }] } },
            "$defs": { "A": kind("a"), "B": kind("b") }
        });
        let relaxed = relax(&schema, 3);
        assert_eq!(relaxed["$defs"]["A"], json!({ "type": "object" }), "the branch types lose their tags");
        assert_eq!(
            relaxed["properties"]["params"],
            json!({ "anyOf": [{ "$ref": "#/$defs/A" }, { "$ref": "#/$defs/B" }] }),
            "so `{{\"type\": \"a\"}}` would match both: any one of them must do"
        );
        assert_eq!(relax(&schema, 64), schema, "nothing loosened, the union stays exact");
    }

    #[test]
    fn loosened_one_of_branches_become_any_of() {
        let schema = json!({ "oneOf": [
            { "type": "object", "properties": { "cat": { "type": "string" } }, "required": ["cat"] },
            { "type": "object", "properties": { "dog": { "type": "string" } }, "required": ["dog"] }
        ] });
        assert_eq!(relax(&schema, 1), json!({ "anyOf": [{ "type": "object" }, { "type": "object" }] }));
    }
}
