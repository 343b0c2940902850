//! Classifying what changed between two sets of contracts, per consumer: HTTP clients compare
//! full schemas, tool consumers compare what the tool surfaces advertise (views applied).

pub mod report;
pub mod rules;

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::model::{Model, OpKind, Operation, Service};
use crate::parse::ast::Surface;
use crate::present::{self, Refs, Style, Tool};
use rules::{Consumer, Level, rule};

/// One classified change.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Change {
    /// How much it matters to its consumer.
    pub level: Level,
    /// Who it matters to.
    pub consumer: Consumer,
    /// The operation (`service.action`) or tool (`name (TRANSPORT)`).
    pub subject: String,
    /// The rule id.
    pub rule: &'static str,
    /// What exactly changed.
    pub detail: String,
}

struct Out(Vec<Change>);

impl Out {
    fn push(&mut self, consumer: Consumer, subject: &str, rule_id: &'static str, detail: String) {
        let r = rule(rule_id);
        let level = match consumer {
            Consumer::Http => r.http,
            Consumer::Tools => r.tools,
        };
        if let Some(level) = level {
            self.0.push(Change { level, consumer, subject: subject.to_owned(), rule: rule_id, detail });
        }
    }
}

const INLINE: Style<'static> = Style { refs: Refs::Inline, close_objects: false };

/// Every change from `old` to `new`, most severe first. A pure reordering yields none.
pub fn diff(old: &Model, new: &Model) -> Vec<Change> {
    let mut out = Out(Vec::new());
    let (old, new) = (Index::new(old), Index::new(new));
    http(&old, &new, &mut out);
    for transport in [Surface::Mcp, Surface::Agent, Surface::Cli] {
        tools(&old, &new, transport, &mut out);
    }
    let mut changes = out.0;
    changes.sort_by(|a, b| {
        b.level
            .cmp(&a.level)
            .then_with(|| (a.consumer, &a.subject, a.rule, &a.detail).cmp(&(b.consumer, &b.subject, b.rule, &b.detail)))
    });
    changes.dedup();
    changes
}

/// A model with its operations by (service, action, kind), each looked up rather than searched
/// for; a tool names its operation the same way.
struct Index<'m> {
    model: &'m Model,
    ops: BTreeMap<(&'m str, &'m str, OpKind), (&'m Service, &'m Operation)>,
}

impl<'m> Index<'m> {
    fn new(model: &'m Model) -> Self {
        let ops = model
            .services
            .iter()
            .flat_map(|s| s.operations.iter().map(move |o| ((o.service.as_str(), o.action.as_str(), o.kind), (s, o))))
            .collect();
        Index { model, ops }
    }

    /// The operation of this model that `op` (of the other model) is.
    fn find(&self, op: &Operation) -> Option<(&'m Service, &'m Operation)> {
        self.ops.get(&(op.service.as_str(), op.action.as_str(), op.kind)).copied()
    }

    /// The operation behind tool `t`.
    fn owner(&self, t: &Tool) -> Option<&'m Operation> {
        self.ops.get(&(t.service.as_str(), t.action.as_str(), t.kind)).map(|(_, o)| *o)
    }

    /// The operations on HTTP, by service, action and kind.
    fn on_http(&self) -> impl Iterator<Item = (&'m Service, &'m Operation)> {
        self.ops.values().copied().filter(|(_, o)| o.http.is_some())
    }
}

fn http(old: &Index<'_>, new: &Index<'_>, out: &mut Out) {
    for (os, o) in old.on_http() {
        let subject = format!("{}.{}", o.service, o.action);
        let Some((ns, n)) = new.find(o).filter(|(_, n)| n.http.is_some()) else {
            out.push(Consumer::Http, &subject, "operation-removed", format!("{} {} is gone", method(o), path(o)));
            continue;
        };
        if (method(o), path(o)) != (method(n), path(n)) {
            out.push(
                Consumer::Http,
                &subject,
                "route-changed",
                format!("{} {} → {} {}", method(o), path(o), method(n), path(n)),
            );
        }
        common(o, n, Consumer::Http, &subject, out);
        let c = Cmp { old: os, new: ns, consumer: Consumer::Http, subject: &subject };
        c.schema(o.params.as_ref(), n.params.as_ref(), "params", Dir::Input, out);
        c.schema(o.input.as_ref(), n.input.as_ref(), "input", Dir::Input, out);
        c.schema(o.output.as_ref(), n.output.as_ref(), "output", Dir::Output, out);
    }
    for (_, n) in new.on_http() {
        if old.find(n).filter(|(_, o)| o.http.is_some()).is_none() {
            out.push(
                Consumer::Http,
                &format!("{}.{}", n.service, n.action),
                "operation-added",
                format!("{} {}", method(n), path(n)),
            );
        }
    }
}

fn method(o: &Operation) -> &'static str {
    o.http.as_ref().map_or("", |h| h.method.as_str())
}

fn path(o: &Operation) -> &str {
    o.http.as_ref().map_or("", |h| h.path.as_str())
}

/// Changes every consumer of an operation sees: scope and description.
fn common(o: &Operation, n: &Operation, consumer: Consumer, subject: &str, out: &mut Out) {
    if o.scope != n.scope {
        out.push(consumer, subject, "scope-changed", format!("`{}` → `{}`", o.scope, n.scope));
    }
    if o.desc != n.desc {
        let delta = n.desc.len() as i64 - o.desc.len() as i64;
        out.push(consumer, subject, "description-changed", format!("{delta:+} bytes"));
    }
}

fn tools(old: &Index<'_>, new: &Index<'_>, transport: Surface, out: &mut Out) {
    // As the transport shows them: an agent tool closed and without an answer or hints.
    let (old_tools, new_tools) = (present::tools(old.model, transport), present::tools(new.model, transport));
    let by_name = |tools: &[Tool]| -> BTreeMap<String, usize> {
        tools.iter().enumerate().map(|(i, t)| (t.name.clone(), i)).collect()
    };
    // The operation behind a tool, which a renamed tool keeps.
    let by_owner = |tools: &[Tool]| -> BTreeMap<(String, String), usize> {
        tools.iter().enumerate().map(|(i, t)| ((t.service.clone(), t.action.clone()), i)).collect()
    };
    let (old_names, new_names) = (by_name(&old_tools), by_name(&new_tools));
    let (old_owners, new_owners) = (by_owner(&old_tools), by_owner(&new_tools));
    let owner = |t: &Tool| (t.service.clone(), t.action.clone());
    let t = transport.as_str();
    for ot in &old_tools {
        let subject = format!("{} ({t})", ot.name);
        match new_names.get(&ot.name) {
            Some(&i) => tool((old, new), (ot, &new_tools[i]), &subject, out),
            None => match new_owners.get(&owner(ot)) {
                Some(&i) => out.push(Consumer::Tools, &subject, "tool-renamed", format!("now `{}`", new_tools[i].name)),
                None => out.push(Consumer::Tools, &subject, "tool-removed", format!("no longer on {t}")),
            },
        }
    }
    for nt in &new_tools {
        if !old_names.contains_key(&nt.name) && !old_owners.contains_key(&owner(nt)) {
            out.push(Consumer::Tools, &format!("{} ({t})", nt.name), "tool-added", format!("on {t}"));
        }
    }
}

fn tool((old, new): (&Index<'_>, &Index<'_>), (ot, nt): (&Tool, &Tool), subject: &str, out: &mut Out) {
    if let (Some(o), Some(n)) = (old.owner(ot), new.owner(nt)) {
        common(o, n, Consumer::Tools, subject, out);
        view(o, n, subject, out);
    }
    // MCP defaults: readOnlyHint false, destructiveHint true (it matters when not read-only).
    let empty = Value::Null;
    let flag = |t: &Tool, k: &str, default: bool| {
        t.annotations.as_ref().unwrap_or(&empty).get(k).and_then(Value::as_bool).unwrap_or(default)
    };
    let mut escalated = false;
    if flag(ot, "readOnlyHint", false) && !flag(nt, "readOnlyHint", false) {
        out.push(Consumer::Tools, subject, "read-only-dropped", "readOnlyHint true → false".into());
        escalated = true;
    }
    if !flag(ot, "destructiveHint", true) && flag(nt, "destructiveHint", true) {
        out.push(Consumer::Tools, subject, "destructive-added", "destructiveHint false → true".into());
        escalated = true;
    }
    if ot.annotations != nt.annotations && !escalated {
        out.push(Consumer::Tools, subject, "annotation-changed", "title or hints".into());
    }
    // Presented schemas are already inlined: compare them as they are advertised.
    compare(&ot.input, &nt.input, "input", Dir::Input, Consumer::Tools, subject, out, 0);
    match (&ot.output, &nt.output) {
        (Some(a), Some(b)) => compare(a, b, "output", Dir::Output, Consumer::Tools, subject, out, 0),
        (Some(_), None) => {
            out.push(Consumer::Tools, subject, "output-field-removed", "output: the tool no longer answers".into())
        }
        (None, Some(_)) => {
            out.push(Consumer::Tools, subject, "output-field-added", "output: the tool now answers".into())
        }
        (None, None) => {}
    }
}

fn view(o: &Operation, n: &Operation, subject: &str, out: &mut Out) {
    let defaults = |op: &Operation| op.view.as_ref().map(|v| v.defaults.clone()).unwrap_or_default();
    if defaults(o) != defaults(n) {
        out.push(
            Consumer::Tools,
            subject,
            "view-defaults-changed",
            format!("{} → {}", Value::Object(defaults(o)), Value::Object(defaults(n))),
        );
    }
    let project = |op: &Operation| op.view.as_ref().is_some_and(|v| v.project);
    if project(o) != project(n) {
        out.push(Consumer::Tools, subject, "view-project-changed", format!("project: {} → {}", project(o), project(n)));
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Dir {
    Input,
    Output,
}

struct Cmp<'a> {
    old: &'a Service,
    new: &'a Service,
    consumer: Consumer,
    subject: &'a str,
}

impl Cmp<'_> {
    fn schema(&self, o: Option<&Value>, n: Option<&Value>, at: &str, dir: Dir, out: &mut Out) {
        let o = o.map(|s| present::schema(s, self.old, INLINE));
        let n = n.map(|s| present::schema(s, self.new, INLINE));
        match (o, n, dir) {
            (Some(a), Some(b), _) => compare(&a, &b, at, dir, self.consumer, self.subject, out, 0),
            (None, Some(b), Dir::Input) => new_input(&b, at, self.consumer, self.subject, out),
            (Some(_), None, Dir::Input) => {
                out.push(self.consumer, self.subject, "input-removed", format!("{at}: no longer declared"))
            }
            (None, Some(_), Dir::Output) => {
                out.push(self.consumer, self.subject, "output-field-added", format!("{at}: now answered"))
            }
            (Some(_), None, Dir::Output) => {
                out.push(self.consumer, self.subject, "output-field-removed", format!("{at}: no longer answered"))
            }
            (None, None, _) => {}
        }
    }
}

fn new_input(b: &Value, at: &str, consumer: Consumer, subject: &str, out: &mut Out) {
    let required = strings(b.get("required"));
    for name in props(b).keys() {
        let rule = if required.contains(name.as_str()) { "required-input-added" } else { "optional-input-added" };
        out.push(consumer, subject, rule, format!("{at}.{name}"));
    }
}

fn props(v: &Value) -> serde_json::Map<String, Value> {
    v.get("properties").and_then(Value::as_object).cloned().unwrap_or_default()
}

fn strings(v: Option<&Value>) -> BTreeSet<&str> {
    v.and_then(Value::as_array).map(|a| a.iter().filter_map(Value::as_str).collect()).unwrap_or_default()
}

fn types(v: &Value) -> Option<BTreeSet<String>> {
    match v.get("type")? {
        Value::String(s) => Some(BTreeSet::from([s.clone()])),
        Value::Array(a) => Some(a.iter().filter_map(|t| t.as_str().map(str::to_owned)).collect()),
        _ => None,
    }
}

fn values(v: &Value) -> Option<Vec<Value>> {
    v.get("enum").and_then(Value::as_array).cloned().or_else(|| v.get("const").map(|c| vec![c.clone()]))
}

/// Compares two presented schemas at `at`, recursively.
#[allow(clippy::too_many_arguments)]
fn compare(o: &Value, n: &Value, at: &str, dir: Dir, consumer: Consumer, subject: &str, out: &mut Out, depth: usize) {
    if o == n || depth > 32 {
        return;
    }
    let mut push = |rule: &'static str, detail: String| out.push(consumer, subject, rule, format!("{at}: {detail}"));
    let as_set = |v: &Value, k: &str| -> Option<BTreeSet<String>> {
        v.get(k).map(|b| {
            b.as_array().map_or_else(
                || BTreeSet::from([b.to_string()]),
                |a| a.iter().map(crate::canonical::canonical).collect(),
            )
        })
    };
    if ["oneOf", "anyOf", "allOf", "$ref"].iter().any(|k| as_set(o, k) != as_set(n, k)) {
        push("composition-changed", "its composition changed".into());
        return;
    }
    if let (Some(ot), Some(nt)) = (types(o), types(n)) {
        // `number` accepts every integer: integer → number widens, number → integer narrows.
        let lost: Vec<String> =
            ot.iter().filter(|t| !(nt.contains(*t) || *t == "integer" && nt.contains("number"))).cloned().collect();
        let gained: Vec<String> =
            nt.iter().filter(|t| !(ot.contains(*t) || *t == "integer" && ot.contains("number"))).cloned().collect();
        let (narrowed, widened) = match dir {
            Dir::Input => (("input-type-narrowed", "no longer accepts"), ("input-type-widened", "also accepts")),
            Dir::Output => (("output-type-narrowed", "can no longer be"), ("output-type-widened", "may now be")),
        };
        if !lost.is_empty() {
            push(narrowed.0, format!("{} {}", narrowed.1, lost.join(", ")));
        }
        if !gained.is_empty() {
            push(widened.0, format!("{} {}", widened.1, gained.join(", ")));
        }
    }
    // A `type` added where any value was accepted narrows; removed, it widens.
    match (types(o), types(n), dir) {
        (None, Some(nt), Dir::Input) => push("input-type-narrowed", format!("now accepts {} only", join(&nt))),
        (Some(_), None, Dir::Input) => push("input-type-widened", "accepts any type".into()),
        (None, Some(nt), Dir::Output) => push("output-type-narrowed", format!("is always {} now", join(&nt))),
        (Some(_), None, Dir::Output) => push("output-type-widened", "may be any type".into()),
        _ => {}
    }
    open_parts(o, n, dir, &mut push);
    enums(o, n, dir, &mut push);
    constraints(o, n, dir, &mut push);
    let (op, np) = (props(o), props(n));
    let (or, nr) = (strings(o.get("required")), strings(n.get("required")));
    for (name, schema) in &op {
        let field = format!("{at}.{name}");
        match np.get(name) {
            None => {
                let rule = if dir == Dir::Input { "input-removed" } else { "output-field-removed" };
                out.push(consumer, subject, rule, field);
            }
            Some(new_schema) => {
                let (was, is) = (or.contains(name.as_str()), nr.contains(name.as_str()));
                let rule = match (dir, was, is) {
                    (Dir::Input, false, true) => Some("input-made-required"),
                    (Dir::Input, true, false) => Some("input-made-optional"),
                    (Dir::Output, true, false) => Some("output-field-made-optional"),
                    (Dir::Output, false, true) => Some("output-field-made-required"),
                    _ => None,
                };
                if let Some(rule) = rule {
                    out.push(consumer, subject, rule, field.clone());
                }
                compare(schema, new_schema, &field, dir, consumer, subject, out, depth + 1);
            }
        }
    }
    for name in np.keys().filter(|k| !op.contains_key(*k)) {
        let rule = match dir {
            Dir::Input if nr.contains(name.as_str()) => "required-input-added",
            Dir::Input => "optional-input-added",
            Dir::Output => "output-field-added",
        };
        out.push(consumer, subject, rule, format!("{at}.{name}"));
    }
    if let (Some(oi), Some(ni)) = (o.get("items"), n.get("items")) {
        compare(oi, ni, &format!("{at}[]"), dir, consumer, subject, out, depth + 1);
    }
    if let (Some(oa), Some(na)) = (o.get("additionalProperties"), n.get("additionalProperties"))
        && oa.is_object()
        && na.is_object()
    {
        compare(oa, na, &format!("{at}.*"), dir, consumer, subject, out, depth + 1);
    }
    // Recursive types stay in `$defs`: compare them by name.
    if let (Some(od), Some(nd)) = (o.get("$defs").and_then(Value::as_object), n.get("$defs").and_then(Value::as_object))
    {
        for (name, ot) in od {
            if let Some(nt) = nd.get(name) {
                compare(ot, nt, &format!("$defs.{name}"), dir, consumer, subject, out, depth + 1);
            }
        }
    }
}

fn join(set: &BTreeSet<String>) -> String {
    set.iter().cloned().collect::<Vec<_>>().join(", ")
}

/// `items` and `additionalProperties` appearing or disappearing: what an array or object may hold.
fn open_parts(o: &Value, n: &Value, dir: Dir, push: &mut impl FnMut(&'static str, String)) {
    // Absent `additionalProperties` accepts anything, like `true`.
    let extra = |v: &Value| v.get("additionalProperties").cloned().filter(|a| a != &Value::Bool(true));
    let parts =
        [("items", o.get("items").cloned(), n.get("items").cloned()), ("additionalProperties", extra(o), extra(n))];
    for (kw, a, b) in parts {
        let (stricter, looser) = match (&a, &b) {
            (None, Some(_)) => (true, false),
            (Some(_), None) => (false, true),
            // A changed schema is compared where both are schemas; `false` ⇄ schema is a change.
            (Some(x), Some(y)) if x != y && (x.is_boolean() || y.is_boolean()) => {
                (y == &Value::Bool(false), x == &Value::Bool(false))
            }
            _ => (false, false),
        };
        match dir {
            Dir::Input if stricter => push("input-constraint-narrowed", format!("`{kw}` now constrains what it holds")),
            Dir::Input if looser => {
                push("input-constraint-widened", format!("`{kw}` no longer constrains what it holds"))
            }
            Dir::Output if looser => push("output-type-widened", format!("`{kw}` no longer constrains what it holds")),
            Dir::Output if stricter => {
                push("output-constraint-changed", format!("`{kw}` now constrains what it holds"))
            }
            _ => {}
        }
    }
}

fn enums(o: &Value, n: &Value, dir: Dir, push: &mut impl FnMut(&'static str, String)) {
    let (Some(ov), Some(nv)) = (values(o), values(n)) else {
        match (values(o), values(n), dir) {
            (None, Some(_), Dir::Input) => push("input-enum-narrowed", "now accepts listed values only".into()),
            (Some(_), None, Dir::Input) => push("input-enum-widened", "accepts any value of its type".into()),
            (None, Some(_), Dir::Output) => push("output-enum-narrowed", "now holds listed values only".into()),
            (Some(_), None, Dir::Output) => push("output-enum-widened", "may hold any value of its type".into()),
            _ => {}
        }
        return;
    };
    let lost: Vec<String> = ov.iter().filter(|v| !nv.contains(v)).map(Value::to_string).collect();
    let gained: Vec<String> = nv.iter().filter(|v| !ov.contains(v)).map(Value::to_string).collect();
    match dir {
        Dir::Input => {
            if !lost.is_empty() {
                push("input-enum-narrowed", format!("no longer accepts {}", lost.join(", ")));
            }
            if !gained.is_empty() {
                push("input-enum-widened", format!("also accepts {}", gained.join(", ")));
            }
        }
        Dir::Output => {
            if !gained.is_empty() {
                push("output-enum-widened", format!("may now be {}", gained.join(", ")));
            }
            if !lost.is_empty() {
                push("output-enum-narrowed", format!("is never {} now", lost.join(", ")));
            }
        }
    }
}

/// Bounds, patterns and formats: for inputs, stricter is breaking and looser is info.
fn constraints(o: &Value, n: &Value, dir: Dir, push: &mut impl FnMut(&'static str, String)) {
    let num = |v: &Value, k: &str| v.get(k).and_then(Value::as_f64);
    let mut stricter = Vec::new();
    let mut looser = Vec::new();
    for (k, higher_is_stricter) in [
        ("minimum", true),
        ("exclusiveMinimum", true),
        ("minLength", true),
        ("minItems", true),
        ("maximum", false),
        ("exclusiveMaximum", false),
        ("maxLength", false),
        ("maxItems", false),
    ] {
        match (num(o, k), num(n, k)) {
            (None, Some(b)) => stricter.push(format!("{k}: {b}")),
            (Some(a), None) => looser.push(format!("{k}: {a} removed")),
            (Some(a), Some(b)) if a != b => {
                if (b > a) == higher_is_stricter {
                    stricter.push(format!("{k}: {a} → {b}"))
                } else {
                    looser.push(format!("{k}: {a} → {b}"))
                }
            }
            _ => {}
        }
    }
    let unique = |v: &Value| v.get("uniqueItems").and_then(Value::as_bool).unwrap_or(false);
    match (unique(o), unique(n)) {
        (false, true) => stricter.push("uniqueItems: true".into()),
        (true, false) => looser.push("uniqueItems: false".into()),
        _ => {}
    }
    match (num(o, "multipleOf"), num(n, "multipleOf")) {
        (None, Some(b)) => stricter.push(format!("multipleOf: {b}")),
        (Some(a), None) => looser.push(format!("multipleOf: {a} removed")),
        // Every multiple of `a` is a multiple of `b` when `b` divides `a`: looser.
        (Some(a), Some(b)) if a != b => {
            if (a / b).fract() == 0.0 {
                looser.push(format!("multipleOf: {a} → {b}"))
            } else {
                stricter.push(format!("multipleOf: {a} → {b}"))
            }
        }
        _ => {}
    }
    for k in ["pattern", "format"] {
        match (o.get(k), n.get(k)) {
            (None, Some(b)) => stricter.push(format!("{k}: {b}")),
            (Some(a), None) => looser.push(format!("{k}: {a} removed")),
            (Some(a), Some(b)) if a != b => stricter.push(format!("{k}: {a} → {b}")),
            _ => {}
        }
    }
    match dir {
        Dir::Input => {
            if !stricter.is_empty() {
                push("input-constraint-narrowed", stricter.join(", "));
            }
            if !looser.is_empty() {
                push("input-constraint-widened", looser.join(", "));
            }
        }
        Dir::Output => {
            let all: Vec<String> = stricter.into_iter().chain(looser).collect();
            if !all.is_empty() {
                push("output-constraint-changed", all.join(", "));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rules(o: Value, n: Value, dir: Dir) -> Vec<&'static str> {
        let mut out = Out(Vec::new());
        compare(&o, &n, "input", dir, Consumer::Http, "s.a", &mut out, 0);
        out.0.iter().map(|c| c.rule).collect()
    }

    #[test]
    fn a_type_on_an_untyped_value_narrows_inputs() {
        assert_eq!(rules(json!({}), json!({ "type": "integer" }), Dir::Input), ["input-type-narrowed"]);
        assert_eq!(rules(json!({ "type": "integer" }), json!({}), Dir::Input), ["input-type-widened"]);
        assert_eq!(
            rules(json!({ "type": "integer" }), json!({ "type": "number" }), Dir::Input),
            ["input-type-widened"]
        );
    }

    #[test]
    fn items_and_additional_properties() {
        assert_eq!(
            rules(json!({ "type": "array" }), json!({ "type": "array", "items": { "type": "string" } }), Dir::Input),
            ["input-constraint-narrowed"]
        );
        assert_eq!(
            rules(json!({ "type": "object" }), json!({ "type": "object", "additionalProperties": false }), Dir::Input),
            ["input-constraint-narrowed"]
        );
        assert_eq!(
            rules(json!({ "type": "array", "items": {} }), json!({ "type": "array" }), Dir::Output),
            ["output-type-widened"]
        );
        let map = |t: &str| json!({ "type": "object", "additionalProperties": { "type": t } });
        assert_eq!(rules(map("string"), map("integer"), Dir::Input), ["input-type-narrowed", "input-type-widened"]);
    }
}
