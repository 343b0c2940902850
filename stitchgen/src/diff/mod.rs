//! Classifying what changed between two sets of contracts, per consumer: HTTP clients compare
//! full schemas, tool consumers compare what the tool surfaces advertise (views applied).

pub mod accept;
mod location;
mod profiles;
pub mod report;
pub mod rules;
mod schema;

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::{Model, OpKind, Operation, Service, StatusAnswer};
use crate::parse::ast::Surface;
use crate::present::{self, Refs, Style, Tool};
use location::{At, Found};
use rules::{Consumer, Level, rule};
use schema::{Dir, compare, props, strings};

/// One classified change.
#[derive(Clone, Debug, PartialEq, Eq)]
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
    /// For a change inside a schema: its JSON Pointer into the subject's schemas as presented,
    /// `{input, output, stream: {item, terminal}}` (in the new one; in the old one for what is
    /// gone), such as `/output/properties/note`.
    pub pointer: Option<String>,
    /// The value at the pointer before (absent for what is new); `allOf` parts merged, as compared.
    pub old: Option<Value>,
    /// The value at the pointer after (absent for what is gone).
    pub new: Option<Value>,
    /// Set when an entry of `--accept` accepts the change: it is reported, and does not count
    /// for `--fail-on`.
    pub accepted: Option<accept::Accepted>,
}

struct Out(Vec<Change>);

impl Out {
    fn push(&mut self, consumer: Consumer, subject: &str, rule_id: &'static str, detail: String) {
        self.push_found(consumer, subject, rule_id, detail, Found::default());
    }

    fn push_found(&mut self, consumer: Consumer, subject: &str, rule_id: &'static str, detail: String, found: Found) {
        let r = rule(rule_id);
        let level = match consumer {
            Consumer::Http => r.http,
            Consumer::Tools => r.tools,
        };
        if let Some(level) = level {
            let Found { pointer, old, new } = found;
            let subject = subject.to_owned();
            self.0.push(Change { level, consumer, subject, rule: rule_id, detail, pointer, old, new, accepted: None });
        }
    }
}

const INLINE: Style<'static> = Style { refs: Refs::Inline, close_objects: false };

/// Every change from `old` to `new`, most severe first, with what it does to the lists of
/// `profiles`. A pure reordering yields none.
pub fn diff(old: &Model, new: &Model, profiles: crate::profile::Profiles) -> Vec<Change> {
    let mut out = Out(Vec::new());
    profiles::changes(old, new, profiles, &mut out);
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
        media(o, n, &subject, out);
        if let (Some(oh), Some(nh)) = (&o.http, &n.http)
            && o.input.is_some()
            && n.input.is_some()
            && oh.input_optional != nh.input_optional
        {
            let (rule, what) = if nh.input_optional {
                ("request-body-made-optional", "the body may now be absent")
            } else {
                ("request-body-made-required", "the body must now be sent")
            };
            out.push(Consumer::Http, &subject, rule, what.to_owned());
        }
        if let (Some(oh), Some(nh)) = (&o.http, &n.http) {
            exchange(oh, o.output.is_some(), nh, n.output.is_some(), &subject, out);
        }
        common(o, n, Consumer::Http, &subject, out);
        let c = Cmp { old: os, new: ns, consumer: Consumer::Http, subject: &subject };
        c.schema(o.params.as_ref(), n.params.as_ref(), "params", Dir::Input, out);
        c.schema(o.input.as_ref(), n.input.as_ref(), "input", Dir::Input, out);
        c.schema(o.output.as_ref(), n.output.as_ref(), "output", Dir::Output, out);
        // A stream's frames are its answer: compared as an output, item and terminal frame.
        let (ost, nst) = (o.http_kind.stream.as_ref(), n.http_kind.stream.as_ref());
        if let (Some(a), Some(b)) = (ost, nst) {
            c.schema(Some(&a.item), Some(&b.item), "stream.item", Dir::Output, out);
            c.schema(a.terminal.as_ref(), b.terminal.as_ref(), "stream.terminal", Dir::Output, out);
        }
        successes(o, n, &c, out);
        if let (Some(oh), Some(nh)) = (&o.http, &n.http) {
            error_answers(oh, nh, &c, out);
        }
        error_codes(o, n, &subject, out);
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

/// The successes documented beside the main answer (`http.successes`): one that appears is an
/// answer an older client reads as the main one; the body of one kept is compared as an output.
fn successes(o: &Operation, n: &Operation, c: &Cmp<'_>, out: &mut Out) {
    let rules = ("success-answer-added", "success-answer-removed");
    status_answers(&o.successes, &n.successes, rules, "answer", c, out);
}

/// The error answers documented at statuses of their own (`http.errors`): one that appears or
/// goes changes the body a client reads at its status (its own, or the registry's envelope);
/// the body of one kept is compared as an output.
fn error_answers(o: &crate::model::Http, n: &crate::model::Http, c: &Cmp<'_>, out: &mut Out) {
    let rules = ("error-answer-added", "error-answer-removed");
    status_answers(&o.error_answers, &n.error_answers, rules, "error answer", c, out);
}

/// The registry error codes an operation documents (`errors`), compared as sets.
fn error_codes(o: &Operation, n: &Operation, subject: &str, out: &mut Out) {
    for code in o.errors.iter().filter(|c| !n.errors.contains(c)) {
        out.push(Consumer::Http, subject, "error-code-removed", format!("`{code}`"));
    }
    for code in n.errors.iter().filter(|c| !o.errors.contains(c)) {
        out.push(Consumer::Http, subject, "error-code-added", format!("`{code}`"));
    }
}

/// Answers at statuses of their own, matched by status: one that appears or goes is reported
/// by `rules` (added, removed); the body of one kept is compared as an output named
/// `{status} {label}`.
fn status_answers(
    old: &[StatusAnswer],
    new: &[StatusAnswer],
    (added, removed): (&'static str, &'static str),
    label: &str,
    c: &Cmp<'_>,
    out: &mut Out,
) {
    fn find(list: &[StatusAnswer], status: u16) -> Option<&StatusAnswer> {
        list.iter().find(|a| a.status == status)
    }
    for a in old {
        match find(new, a.status) {
            Some(b) => c.schema(a.body.as_ref(), b.body.as_ref(), &format!("{} {label}", a.status), Dir::Output, out),
            None => out.push(Consumer::Http, c.subject, removed, format!("status {}", a.status)),
        }
    }
    for b in new.iter().filter(|b| find(old, b.status).is_none()) {
        out.push(Consumer::Http, c.subject, added, format!("status {}", b.status));
    }
}

/// The media types of the request body and of the success answer, and whether each is there.
/// An answer that appears or goes is the output's rules' to report.
fn media(o: &Operation, n: &Operation, subject: &str, out: &mut Out) {
    match (o.request_media(), n.request_media()) {
        (Some(a), Some(b)) if a != b => {
            out.push(Consumer::Http, subject, "input-content-type-changed", format!("{a} → {b}"))
        }
        (None, Some(b)) => out.push(Consumer::Http, subject, "request-body-added", format!("now reads {b}")),
        (Some(a), None) => out.push(Consumer::Http, subject, "request-body-removed", format!("no longer reads {a}")),
        _ => {}
    }
    if let (Some(a), Some(b)) = (o.answer_media(), n.answer_media())
        && a != b
    {
        out.push(Consumer::Http, subject, "response-media-type-changed", format!("{a} → {b}"));
    }
}

/// What is documented about the HTTP exchange: the success status and the response headers
/// (names compared case-insensitively, as HTTP reads them).
fn exchange(
    old: &crate::model::Http,
    old_out: bool,
    new: &crate::model::Http,
    new_out: bool,
    subject: &str,
    out: &mut Out,
) {
    let (os, ns) = (old.success_status(old_out), new.success_status(new_out));
    if os != ns {
        out.push(Consumer::Http, subject, "success-status-changed", format!("{os} → {ns}"));
    }
    let find = |headers: &'_ [crate::model::Header], name: &str| {
        headers.iter().find(|h| h.name.eq_ignore_ascii_case(name)).map(|h| h.required)
    };
    for h in &old.headers {
        let rule = match find(&new.headers, &h.name) {
            None => "response-header-removed",
            Some(false) if h.required => "response-header-made-optional",
            Some(true) if !h.required => "response-header-made-required",
            Some(_) => continue,
        };
        out.push(Consumer::Http, subject, rule, format!("`{}`", h.name));
    }
    for h in new.headers.iter().filter(|h| find(&old.headers, &h.name).is_none()) {
        out.push(Consumer::Http, subject, "response-header-added", format!("`{}`", h.name));
    }
    // A parameter placed on both sides but elsewhere; one that appears or goes is the params
    // schema's change (or the route's) to report.
    for p in &old.params_in {
        let Some(n) = new.params_in.iter().find(|n| n.key == p.key) else { continue };
        if (p.location, &p.name, p.style) != (n.location, &n.name, n.style) {
            out.push(Consumer::Http, subject, "param-moved", format!("`{}`: {} → {}", p.key, p.wire(), n.wire()));
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
            Some(&i) => {
                let nt = &new_tools[i];
                tool((old, new), (ot, nt), &subject, out);
                // The CLI addresses every tool by name in either mode; a model's client does not.
                if ot.searched != nt.searched && transport != Surface::Cli {
                    let how = |t: &Tool| if t.searched { "through `call_tool`" } else { "by its own name" };
                    out.push(
                        Consumer::Tools,
                        &subject,
                        "tool-discovery-changed",
                        format!("called {} → {}", how(ot), how(nt)),
                    );
                }
            }
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
    let keys = |t: &Tool| -> Vec<String> {
        let asks = t.input_required.as_ref().and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
        asks.iter().filter_map(|a| a.get("key")?.as_str()).map(|k| format!("`{k}`")).collect()
    };
    match (&ot.input_required, &nt.input_required) {
        (None, Some(_)) => {
            out.push(Consumer::Tools, subject, "input-required-added", format!("asks {}", keys(nt).join(", ")))
        }
        (Some(_), None) => out.push(
            Consumer::Tools,
            subject,
            "input-required-removed",
            format!("no longer asks {}", keys(ot).join(", ")),
        ),
        (Some(a), Some(b)) if a != b => {
            out.push(Consumer::Tools, subject, "input-required-changed", format!("asks {}", keys(nt).join(", ")))
        }
        _ => {}
    }
    // Presented schemas are already inlined: compare them as they are advertised.
    compare(&ot.input, &nt.input, "input", Dir::Input, Consumer::Tools, subject, out);
    match (&ot.output, &nt.output) {
        (Some(a), Some(b)) => compare(a, b, "output", Dir::Output, Consumer::Tools, subject, out),
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
            (Some(a), Some(b), _) => compare(&a, &b, at, dir, self.consumer, self.subject, out),
            (None, Some(b), Dir::Input) => new_input(&b, at, self.consumer, self.subject, out),
            (Some(a), None, dir) => {
                let (rule, says) = match dir {
                    Dir::Input => ("input-removed", "no longer declared"),
                    Dir::Output => ("output-field-removed", "no longer answered"),
                };
                out.push_found(self.consumer, self.subject, rule, format!("{at}: {says}"), At::root(at).removed(&a));
            }
            (None, Some(b), Dir::Output) => {
                let found = At::root(at).added(&b);
                out.push_found(self.consumer, self.subject, "output-field-added", format!("{at}: now answered"), found)
            }
            (None, None, _) => {}
        }
    }
}

fn new_input(b: &Value, at: &str, consumer: Consumer, subject: &str, out: &mut Out) {
    let required = strings(b.get("required"));
    for (name, schema) in &props(b) {
        let rule = if required.contains(name.as_str()) { "required-input-added" } else { "optional-input-added" };
        let field = At::root(at).field(name);
        out.push_found(consumer, subject, rule, field.to_string(), field.added(schema));
    }
}
