//! Tools as the tool surfaces advertise them: params and input merged, the answer (wrapped
//! where the target needs objects), each fitted to its byte budget; built once per transport.

use serde_json::{Map, Value, json};

use super::{Bodies, Converter, Memo, Refs, Style, resolve, schema_with, sorted};
use crate::canonical::{self, Canonical};
use crate::model::{Model, OpKind, Operation, Service};
use crate::parse::ast::Surface;

/// The key of the catalog stamp in a tool's `_meta`: the presentation writes it, the emitters
/// and the runtime read it.
pub const CATALOG_META: &str = "stitchgen/catalog";

/// A tool as every tool surface advertises it.
#[derive(Clone, Debug)]
pub struct Tool {
    /// The tool name.
    pub name: String,
    /// `annotations.title`, when given.
    pub title: Option<String>,
    /// `desc`.
    pub description: String,
    /// Params and input merged into one object schema, view defaults stated.
    pub input: Value,
    /// The view's schema, else the full output, wrapped as [`Tool::wrap`] says; none without
    /// output.
    pub output: Option<Value>,
    /// The key a non-object answer is wrapped under on every tool surface, when it is.
    pub wrap: Option<crate::schema::Wrap>,
    /// MCP annotations, when given.
    pub annotations: Option<Value>,
    /// UI hints, when given.
    pub ui: Option<Value>,
    /// What the tool asks its user before it acts, as MCP clients read it in `_meta`
    /// (`[{key, message, requestedSchema}]`), when it asks.
    pub input_required: Option<Value>,
    /// The service of the operation behind it.
    pub service: String,
    /// The operation's action.
    pub action: String,
    /// Endpoint or runtime tool.
    pub kind: OpKind,
    /// How it was fitted to its byte budget, when it was past it.
    pub over: Option<Over>,
    /// Whether its contract presents it in search mode (`toolDiscovery: search`): listed in the
    /// catalog that `describe_tools` reads rather than in the manifest.
    pub searched: bool,
}

impl Tool {
    /// The tool's entry in `transport`'s manifest (`tools/list` for MCP, a function tool for
    /// the agent), with the catalog stamp in `_meta` when given. The CLI, which has no
    /// manifest, counts what it shows: name, description and both schemas.
    pub fn entry(&self, transport: Surface, stamp: Option<&Value>) -> Value {
        serde_json::to_value(self.borrowed_entry(transport, stamp)).unwrap_or(Value::Null)
    }

    /// [`Tool::entry`] borrowed from the tool: serialized or hashed as it stands, never
    /// copied into a value first.
    pub(crate) fn borrowed_entry<'a>(&'a self, transport: Surface, stamp: Option<&'a Value>) -> Entry<'a> {
        Entry::of(self, transport, stamp)
    }

    /// What the tool costs a model's context on `transport`: the bytes of its manifest entry as
    /// compact JSON, less the catalog stamp every tool carries alike. The budget bounds it and
    /// the snapshot's `bytes` states it. Counted, not written.
    pub fn size(&self, transport: Surface) -> usize {
        json_len(&Entry::of(self, transport, None))
    }
}

/// A tool's manifest entry, borrowed from the tool. Its fields are listed once
/// ([`Entry::fields`]), in the order a manifest states them; serialized in that order and
/// written as canonical JSON for the catalog stamp.
pub(crate) struct Entry<'a> {
    /// The tool's name.
    pub(crate) name: &'a str,
    title: Option<&'a str>,
    description: &'a str,
    /// An agent function tool's input.
    parameters: Option<&'a Value>,
    input_schema: Option<&'a Value>,
    output_schema: Option<&'a Value>,
    annotations: Option<&'a Value>,
    /// An MCP tool's `_meta`: the catalog stamp, what the tool asks its user, the UI hints.
    stamp: Option<&'a Value>,
    input_required: Option<&'a Value>,
    ui: Option<&'a Value>,
}

/// A field of an [`Entry`]: text, a JSON value of the tool's, or the `_meta` object's fields.
enum Field<'a> {
    Text(&'a str),
    Json(&'a Value),
    Meta(Vec<(&'static str, &'a Value)>),
}

impl<'a> Entry<'a> {
    fn of(tool: &'a Tool, transport: Surface, stamp: Option<&'a Value>) -> Self {
        let mut e = Entry {
            name: &tool.name,
            title: None,
            description: &tool.description,
            parameters: None,
            input_schema: None,
            output_schema: None,
            annotations: None,
            stamp: None,
            input_required: None,
            ui: None,
        };
        if !Shows::of(transport).answer {
            e.parameters = Some(&tool.input);
            return e;
        }
        e.input_schema = Some(&tool.input);
        e.output_schema = tool.output.as_ref();
        if transport == Surface::Mcp {
            e.title = tool.title.as_deref();
            e.annotations = tool.annotations.as_ref();
            (e.stamp, e.input_required, e.ui) = (stamp, tool.input_required.as_ref(), tool.ui.as_ref());
        }
        e
    }

    /// The fields the entry has, in the order a manifest states them; `_meta` only when it
    /// holds something.
    fn fields(&self) -> Vec<(&'static str, Field<'a>)> {
        let mut out = vec![("name", Field::Text(self.name))];
        out.extend(self.title.map(|t| ("title", Field::Text(t))));
        out.push(("description", Field::Text(self.description)));
        let values = [
            ("parameters", self.parameters),
            ("inputSchema", self.input_schema),
            ("outputSchema", self.output_schema),
            ("annotations", self.annotations),
        ];
        out.extend(values.into_iter().filter_map(|(k, v)| Some((k, Field::Json(v?)))));
        let meta = [(CATALOG_META, self.stamp), ("stitchgen/inputRequired", self.input_required), ("ui", self.ui)];
        let meta: Vec<(&'static str, &Value)> = meta.into_iter().filter_map(|(k, v)| Some((k, v?))).collect();
        if !meta.is_empty() {
            out.push(("_meta", Field::Meta(meta)));
        }
        out
    }
}

impl serde::Serialize for Entry<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let fields = self.fields();
        let mut map = serializer.serialize_map(Some(fields.len()))?;
        for (key, field) in &fields {
            match field {
                Field::Text(text) => map.serialize_entry(key, text)?,
                Field::Json(value) => map.serialize_entry(key, value)?,
                Field::Meta(meta) => map.serialize_entry(key, &MetaMap(meta))?,
            }
        }
        map.end()
    }
}

/// `_meta`'s fields serialized as an object, in their order.
struct MetaMap<'m, 'a>(&'m [(&'static str, &'a Value)]);

impl serde::Serialize for MetaMap<'_, '_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(k, v)| (k, v)))
    }
}

impl Canonical for Entry<'_> {
    fn write_canonical(&self, out: &mut String) {
        let fields = self.fields();
        let entries: Vec<(&str, &dyn Canonical)> = fields.iter().map(|(k, f)| (*k, f as &dyn Canonical)).collect();
        canonical::write_object(entries, out);
    }
}

impl Canonical for Field<'_> {
    fn write_canonical(&self, out: &mut String) {
        match self {
            Field::Text(text) => text.write_canonical(out),
            Field::Json(value) => value.write_canonical(out),
            Field::Meta(meta) => {
                canonical::write_object(meta.iter().map(|(k, v)| (*k, *v as &dyn Canonical)).collect(), out)
            }
        }
    }
}

/// How a tool past its budget was brought down, for its warning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Over {
    /// The budget.
    pub budget: u64,
    /// The definition's size as built in full.
    pub full: usize,
    /// The size advertised.
    pub advertised: usize,
    /// What was done.
    pub fit: Fit,
    /// The shared types that weigh most in the full definition, heaviest first.
    pub contributors: Vec<Contributor>,
}

/// What fitting a tool into its budget took.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// Each shared type kept once in `$defs` was enough.
    Shared,
    /// The answer was relaxed below this depth.
    Output(usize),
    /// The answer was relaxed whole and the input below this depth.
    Input(usize),
    /// Even both relaxed whole, the definition stays past the budget (its name, description
    /// and annotations alone exceed it).
    Exceeded,
}

/// A shared type's weight in a full tool definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contributor {
    /// The type's name.
    pub name: String,
    /// How many times the full definition spells it out.
    pub uses: u64,
    /// About how many bytes those copies take.
    pub bytes: u64,
}

/// The length of `v` as compact JSON, counted without writing it.
pub(super) fn json_len(v: &impl serde::Serialize) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut n = Count(0);
    serde_json::to_writer(&mut n, v).map_or(usize::MAX, |()| n.0)
}

/// What `transport`'s tool definitions show, decided here and nowhere else: every tool list,
/// manifest, snapshot row, catalog stamp and diff reads it.
#[derive(Clone, Copy, Debug)]
pub struct Shows {
    /// How schemas are presented: types inlined (kept once in `$defs` where they recur), and
    /// on the agent surface every object closed, as providers require of function tools.
    pub style: Style<'static>,
    /// Whether the answer's schema is stated: an agent function tool has its parameters alone.
    pub answer: bool,
    /// Whether the title, annotations and UI hints are: MCP's alone.
    pub hints: bool,
}

impl Shows {
    /// What `transport` shows of a tool.
    pub fn of(transport: Surface) -> Self {
        let agent = transport == Surface::Agent;
        Shows {
            style: Style { refs: Refs::Inline, close_objects: agent },
            answer: !agent,
            hints: transport == Surface::Mcp,
        }
    }

    /// The same, with types kept once in `$defs`: how a tool past its budget is built first.
    pub(super) fn shared(self) -> Self {
        Shows { style: Style { refs: Refs::Shared, ..self.style }, ..self }
    }
}

/// What the surface snapshot states of a tool on one transport: whose it is, what it costs a
/// model's context, and the digests of its schemas.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The tool name.
    pub name: String,
    /// `desc`.
    pub description: String,
    /// The service of the operation behind it.
    pub service: String,
    /// The operation's action.
    pub action: String,
    /// Endpoint or runtime tool.
    pub kind: OpKind,
    /// The key a non-object answer is wrapped under, when it is.
    pub wrap: Option<crate::schema::Wrap>,
    /// [`Tool::size`] on the transport.
    pub bytes: usize,
    /// The schema digest of the input.
    pub input: String,
    /// The schema digest of the answer, when there is one.
    pub output: Option<String>,
    /// The digest of what the tool asks its user before it acts, when it asks (MCP).
    pub input_required: Option<String>,
}

impl Listed {
    /// What `tool`, built in full, shows on `transport`.
    pub fn of(tool: &Tool, transport: Surface) -> Self {
        Listed {
            bytes: tool.size(transport),
            input: crate::canonical::schema_digest(&tool.input),
            output: tool.output.as_ref().map(crate::canonical::schema_digest),
            ..Listed::head(tool)
        }
    }

    /// A tool's names, with its sizes and digests still to state.
    pub(super) fn head(tool: &Tool) -> Self {
        Listed {
            name: tool.name.clone(),
            description: tool.description.clone(),
            service: tool.service.clone(),
            action: tool.action.clone(),
            kind: tool.kind,
            wrap: tool.wrap,
            bytes: 0,
            input: String::new(),
            output: None,
            input_required: tool.input_required.as_ref().map(crate::canonical::digest),
        }
    }
}

/// The tools on `transport`, sorted by name, as that transport shows them ([`Shows`]) but in
/// full whatever their budget: what `diff` compares, as the runner validates every call
/// against the full schemas.
pub fn tools(model: &Model, transport: Surface) -> Vec<Tool> {
    collect(model, transport, |op, svc, memo| tool(op, svc, Shows::of(transport), memo))
}

/// The tool `make` builds for each operation on `transport`, sorted by name; one memo of type
/// bodies per service.
pub(super) fn collect(
    model: &Model,
    transport: Surface,
    make: impl Fn(&Operation, &Service, &Memo) -> Option<Tool>,
) -> Vec<Tool> {
    let mut out: Vec<Tool> = Vec::new();
    for svc in &model.services {
        let memo = Memo::default();
        out.extend(svc.operations.iter().filter(|op| op.on(transport)).filter_map(|op| make(op, svc, &memo)));
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// The tool of `op` as `shows` says, before any fitting.
pub(super) fn tool(op: &Operation, svc: &Service, shows: Shows, memo: &Memo) -> Option<Tool> {
    build(op, svc, shows, memo, Bodies::Full).map(|s| s.tool)
}

/// A tool as built, and when it is a skeleton, the bytes its `null` `$defs` stand for.
pub(super) struct Sized {
    pub(super) tool: Tool,
    input: usize,
    output: usize,
}

impl Sized {
    /// The size the tool has on `transport` once its `$defs` are filled in.
    pub(super) fn size(&self, transport: Surface) -> usize {
        let output = if Shows::of(transport).answer { self.output } else { 0 };
        self.tool.size(transport) + self.input + output
    }
}

/// The tool of `op` as `shows` says; a skeleton (see [`Bodies`]) counts the bytes of the
/// `$defs` bodies it leaves out, so a tool's size is known without spelling it out.
pub(super) fn build(op: &Operation, svc: &Service, shows: Shows, memo: &Memo, bodies: Bodies) -> Option<Sized> {
    let style = shows.style;
    let name = op.tool_name.clone()?;
    let (input, input_extra) = tool_input_with(op, svc, style, Some(memo), bodies);
    let output = op.tool_answer().filter(|_| shows.answer).map(|o| schema_with(&o, svc, style, Some(memo), bodies));
    let output_extra = output.as_ref().map_or(0, |(_, n)| *n);
    let tool = Tool {
        name,
        title: op
            .annotations
            .as_ref()
            .filter(|_| shows.hints)
            .and_then(|a| a.get("title"))
            .and_then(Value::as_str)
            .map(str::to_owned),
        description: op.desc.clone(),
        input,
        output: output.map(|(o, _)| wrapped(o, op, style)),
        wrap: op.wrap,
        annotations: op.annotations.clone().filter(|_| shows.hints),
        ui: op.ui.clone().filter(|_| shows.hints),
        input_required: Some(&op.input_required).filter(|asks| shows.hints && !asks.is_empty()).map(|asks| {
            let each = asks.iter().map(|a| json!({ "key": a.key, "message": a.message, "requestedSchema": a.schema }));
            Value::Array(each.collect())
        }),
        service: op.service.clone(),
        action: op.action.clone(),
        kind: op.kind,
        over: None,
        searched: svc.discovery == crate::parse::ast::ToolDiscovery::Search,
    };
    Some(Sized { tool, input: input_extra, output: output_extra })
}

/// The answer schema as a tool advertises it: an answer wrapped under `wrap`'s key is one
/// required property of an object. The `$defs` its references point into move to the new root,
/// where `#/$defs/…` resolves.
fn wrapped(answer: Value, op: &Operation, style: Style<'_>) -> Value {
    let Some(wrap) = op.wrap else {
        return match answer {
            // An object stated through `allOf` or `oneOf` alone: typed at the root.
            Value::Object(mut map) if op.object_answer && !map.contains_key("type") => {
                map.insert("type".into(), json!("object"));
                Value::Object(sorted(map))
            }
            answer => answer,
        };
    };
    let mut answer = answer;
    let defs = answer.as_object_mut().and_then(|m| m.remove("$defs"));
    let mut out = Map::new();
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), json!({ wrap.key(): answer }));
    out.insert("required".into(), json!([wrap.key()]));
    if style.close_objects {
        out.insert("additionalProperties".into(), Value::Bool(false));
    }
    if let Some(defs) = defs {
        out.insert("$defs".into(), defs);
    }
    Value::Object(sorted(out))
}

/// Params and input as one object schema: properties merged, `required` joined, the input's
/// `additionalProperties` kept, and each view default stated as `default` and dropped from
/// `required`. Both parts are converted together, so the `$defs` they need sit once at the root.
pub fn tool_input(op: &Operation, svc: &Service, transport: Surface) -> Value {
    tool_input_with(op, svc, Shows::of(transport).style, None, Bodies::Full).0
}

pub(super) fn tool_input_with(
    op: &Operation,
    svc: &Service,
    style: Style<'_>,
    memo: Option<&Memo>,
    bodies: Bodies,
) -> (Value, usize) {
    let mut conv = Converter::new(svc, style, memo);
    conv.bodies = if conv.memo.is_some() { bodies } else { Bodies::Full };
    let mut properties = Map::new();
    let mut required: Vec<Value> = Vec::new();
    let mut rest = Map::new();
    let mut all_of = Vec::new();
    for (part, is_input) in [(&op.params, false), (&op.input, true)] {
        let Some(part) = part else { continue };
        let resolved = resolve(part, svc);
        let plain = resolved.get("properties").is_some()
            && ["allOf", "anyOf", "oneOf"].iter().all(|k| resolved.get(k).is_none());
        if !plain {
            if resolved.get("type").is_none() || is_input {
                all_of.push(conv.convert(part));
            }
            continue;
        }
        // Its parts moved out, not copied: they are the bulk of a tool's definition.
        let Value::Object(mut converted) = conv.convert(resolved) else { continue };
        if let Some(Value::Object(p)) = converted.remove("properties") {
            properties.extend(p);
        }
        if let Some(Value::Array(r)) = converted.remove("required") {
            required.extend(r);
        }
        if is_input {
            for k in ["additionalProperties", "description"] {
                if let Some(v) = converted.remove(k) {
                    rest.insert(k.into(), v);
                }
            }
        }
    }
    if let Some(view) = &op.view {
        for (k, v) in &view.defaults {
            if let Some(Value::Object(p)) = properties.get_mut(k) {
                p.insert("default".into(), v.clone());
            }
            required.retain(|r| r != k);
        }
    }
    let mut out = Map::new();
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        out.insert("required".into(), Value::Array(required));
    }
    if !all_of.is_empty() {
        out.insert("allOf".into(), Value::Array(all_of));
    }
    out.extend(rest);
    // Closed once over every key: an input of several parts or shapes is folded or carried in.
    if style.close_objects && super::close::compose(&mut out) {
        super::close::close(&mut out);
    }
    // A tool's arguments are an object, stated first at the root as every client asks; the
    // root's keys in the order every tool has them.
    out.remove("type");
    let mut root = Map::new();
    root.insert("type".into(), json!("object"));
    for k in ["properties", "required"] {
        if let Some(v) = out.remove(k) {
            root.insert(k.into(), v);
        }
    }
    root.extend(out);
    let out = root;
    conv.finish(Value::Object(out))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A tool with every field an entry can show, and text that must be escaped.
    fn full() -> Tool {
        Tool {
            name: "get_pet".into(),
            title: Some("Get a \"pet\"".into()),
            description: "Reads one pet.\nTabs\tand \u{1} controls, and \u{fb01} \u{1f600}.".into(),
            input: json!({"type": "object", "required": ["b", "a"], "properties": {"b": {}, "a": {"type": "number"}}}),
            output: Some(json!({"type": "object", "properties": {"name": {"type": "string", "default": "x\\y"}}})),
            wrap: None,
            annotations: Some(json!({"readOnlyHint": true})),
            ui: Some(json!({"resourceUri": "ui://pets"})),
            input_required: Some(json!([{"key": "k", "message": "m", "requestedSchema": {"type": "object"}}])),
            service: "pets".into(),
            action: "get".into(),
            kind: OpKind::Contract,
            over: None,
            searched: false,
        }
    }

    #[test]
    fn a_borrowed_entry_writes_what_its_value_writes() {
        let stamp = json!({"digest": "0123456789abcdef", "tools": 1});
        let mut bare = full();
        (bare.title, bare.annotations, bare.ui, bare.input_required, bare.output) = (None, None, None, None, None);
        for tool in [full(), bare] {
            for transport in [Surface::Mcp, Surface::Agent, Surface::Cli] {
                for stamp in [None, Some(&stamp)] {
                    let borrowed = tool.borrowed_entry(transport, stamp);
                    let value = tool.entry(transport, stamp);
                    assert_eq!(
                        serde_json::to_string_pretty(&borrowed).unwrap(),
                        serde_json::to_string_pretty(&value).unwrap()
                    );
                    let mut text = String::new();
                    borrowed.write_canonical(&mut text);
                    assert_eq!(text, canonical::canonical(&value), "{transport:?}");
                    assert_eq!(
                        tool.size(transport),
                        serde_json::to_string(&tool.entry(transport, None)).unwrap().len()
                    );
                }
            }
        }
        let meta = full().entry(Surface::Mcp, Some(&stamp));
        assert_eq!(meta["_meta"][CATALOG_META], stamp);
        assert_eq!(meta["_meta"]["ui"]["resourceUri"], "ui://pets");
        assert!(full().entry(Surface::Agent, Some(&stamp)).get("_meta").is_none());
    }
}
