//! Decoding the spanned YAML tree into the AST, reporting every problem and carrying on.

use super::ast::*;
use super::node::{Node, Value};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::naming::closest;
use crate::source::Span;

/// Decodes a whole document. Always returns a contract, with what could be read.
pub(crate) fn contract(root: &Node, diags: &mut Diagnostics) -> Option<Contract> {
    duplicate_keys(root, diags);
    let mut f = Fields::new(root, root.span, "a contract", diags)?;
    let stitch = version(&mut f, root, diags);
    let c = Contract {
        file: root.span.file,
        span: root.span,
        stitch,
        service: f.req("service", diags),
        title: f.opt("title", diags),
        version: f.opt("version", diags),
        base_path: f.opt("basePath", diags),
        scope: f.opt("scope", diags),
        meta: f.opt::<Any>("meta", diags).filter(|m| mapping(&m.0, "`meta`", diags)),
        tool_exposure: f.opt("toolExposure", diags),
        tool_budget: f.opt("toolBudget", diags),
        tool_discovery: f.opt("toolDiscovery", diags),
        types: f.opt("types", diags),
        endpoints: f.opt("endpoints", diags),
        tools: f.opt("tools", diags),
        security_schemes: f.opt("securitySchemes", diags),
        security: f.opt("security", diags),
    };
    f.finish(diags);
    Some(c)
}

/// `stitch: 1`, the only version; anything else is refused by name.
fn version(f: &mut Fields<'_>, root: &Node, diags: &mut Diagnostics) -> Option<Sp<u64>> {
    let Some(v) = f.raw("stitch") else {
        let at = root.as_map().and_then(|m| m.first()).map_or(root.span, |(k, _)| k.span);
        diags.push(
            Diagnostic::new(Code::UnknownVersion, at, "missing `stitch:` version")
                .label("the contract starts here")
                .help("start the contract with `stitch: 1`"),
        );
        return None;
    };
    if let Value::Number(n) = &v.value
        && n.as_u64() == Some(1)
    {
        return Some(Sp { value: 1, span: v.span });
    }
    let written = match &v.value {
        Value::String(s) => format!("{s:?}"),
        _ => v.to_json().to_string(),
    };
    diags.push(
        Diagnostic::new(Code::UnknownVersion, v.span, format!("unknown DSL version `stitch: {written}`"))
            .label("this stitchgen reads version 1")
            .help("write `stitch: 1` (an integer), or use the stitchgen release that reads this version"),
    );
    None
}

/// Reports every repeated and every non-name mapping key in the document, schemas included.
fn duplicate_keys(node: &Node, diags: &mut Diagnostics) {
    match &node.value {
        Value::Seq(items) => items.iter().for_each(|i| duplicate_keys(i, diags)),
        Value::Map(entries) => {
            for (i, (k, v)) in entries.iter().enumerate() {
                if k.as_str().is_none() {
                    diags.push(
                        Diagnostic::new(Code::YamlUnsupported, k.span, format!("{} as a mapping key", k.kind()))
                            .label("keys are names")
                            .help("write the key as a string"),
                    );
                }
                if let Some(first) = entries[..i].iter().find(|(p, _)| p.as_str().is_some() && p.as_str() == k.as_str())
                {
                    diags.push(
                        Diagnostic::new(
                            Code::DuplicateKey,
                            k.span,
                            format!("duplicate key `{}`", k.as_str().unwrap_or_default()),
                        )
                        .label("written again here")
                        .secondary(first.0.span, "first written here")
                        .help("remove one of them; YAML keeps only one value per key"),
                    );
                }
                duplicate_keys(v, diags);
            }
        }
        _ => {}
    }
}

/// The keys of one mapping, read one by one; whatever is left over is an unknown key.
pub(crate) struct Fields<'n> {
    entries: &'n [(Node, Node)],
    owner: Span,
    what: &'static str,
    known: Vec<&'static str>,
}

impl<'n> Fields<'n> {
    /// Starts reading `node` as a mapping (`what` names it in messages), or reports its kind.
    fn new(node: &'n Node, owner: Span, what: &'static str, diags: &mut Diagnostics) -> Option<Self> {
        match &node.value {
            Value::Map(entries) => Some(Fields { entries, owner, what, known: Vec::new() }),
            _ => {
                diags.push(wrong_kind(node, &format!("{what} (a mapping)")));
                None
            }
        }
    }

    /// The raw value under `key`, marking the key as known.
    fn raw(&mut self, key: &'static str) -> Option<&'n Node> {
        if !self.known.contains(&key) {
            self.known.push(key);
        }
        self.entries.iter().find(|(k, _)| k.as_str() == Some(key)).map(|(_, v)| v)
    }

    /// The key node of `key`.
    fn key_span(&self, key: &str) -> Option<Span> {
        self.entries.iter().find(|(k, _)| k.as_str() == Some(key)).map(|(k, _)| k.span)
    }

    /// An optional key.
    fn opt<T: Decode>(&mut self, key: &'static str, diags: &mut Diagnostics) -> Option<T> {
        let span = self.key_span(key);
        let v = self.raw(key)?;
        T::decode(v, span.unwrap_or(v.span), diags)
    }

    /// A required key: its absence is reported at the owner.
    fn req<T: Decode>(&mut self, key: &'static str, diags: &mut Diagnostics) -> Option<T> {
        if self.raw(key).is_none() {
            diags.push(
                Diagnostic::new(Code::MissingKey, self.owner, format!("{} is missing `{key}`", self.what))
                    .label(format!("`{key}` is required here")),
            );
            return None;
        }
        self.opt(key, diags)
    }

    /// A key that moved into the `tool` group: refused by name, pointing to its new place.
    fn moved(&mut self, key: &'static str, new_place: &str, diags: &mut Diagnostics) {
        if let Some(span) = self.key_span(key) {
            self.known.push(key); // refused by name below, never as unknown
            diags.push(
                Diagnostic::new(Code::MovedToolKey, span, format!("`{key}` is no longer an endpoint key"))
                    .label("tool options live in the `tool` group")
                    .help(format!("move it to `{new_place}`")),
            );
        }
    }

    /// Reports every key that was never asked for.
    fn finish(self, diags: &mut Diagnostics) {
        for (k, _) in self.entries {
            let Some(name) = k.as_str() else { continue };
            if self.known.contains(&name) {
                continue;
            }
            let mut d = Diagnostic::new(Code::UnknownKey, k.span, format!("unknown key `{name}` in {}", self.what))
                .label("not a key of this mapping");
            d = match closest(name, &self.known) {
                Some(best) => d.help(format!("did you mean `{best}`?")),
                None => d.help(format!(
                    "the keys here are: {}",
                    self.known.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
                )),
            };
            diags.push(d);
        }
    }
}

/// Whether `node` is a mapping; reports it when not.
fn mapping(node: &Node, what: &str, diags: &mut Diagnostics) -> bool {
    let ok = node.as_map().is_some();
    if !ok {
        diags.push(wrong_kind(node, &format!("{what} (a mapping)")));
    }
    ok
}

fn wrong_kind(node: &Node, expected: &str) -> Diagnostic {
    Diagnostic::new(Code::WrongKind, node.span, format!("expected {expected}, found {}", node.kind()))
        .label(format!("expected {expected}"))
}

/// Reads one AST value from a node. `key` is the span of the key it stood under (for messages
/// that are about the entry rather than the value). Reports and returns `None` on failure.
pub(crate) trait Decode: Sized {
    fn decode(node: &Node, key: Span, diags: &mut Diagnostics) -> Option<Self>;
}

impl<T: Decode> Decode for Sp<T> {
    fn decode(node: &Node, key: Span, diags: &mut Diagnostics) -> Option<Self> {
        // A mapping or list is pointed at by its key; a scalar by itself.
        let span = if matches!(node.value, Value::Map(_) | Value::Seq(_)) { key } else { node.span };
        Some(Sp { value: T::decode(node, key, diags)?, span })
    }
}

impl Decode for String {
    fn decode(node: &Node, _: Span, diags: &mut Diagnostics) -> Option<Self> {
        match &node.value {
            Value::String(s) => Some(s.clone()),
            _ => {
                let d = wrong_kind(node, "a string");
                diags.push(match node.value {
                    Value::Number(_) | Value::Bool(_) => d.help("quote it to make it a string"),
                    Value::Null => d.help("write the value after the key"),
                    _ => d,
                });
                None
            }
        }
    }
}

impl Decode for bool {
    fn decode(node: &Node, _: Span, diags: &mut Diagnostics) -> Option<Self> {
        match &node.value {
            Value::Bool(b) => Some(*b),
            _ => {
                let d = wrong_kind(node, "`true` or `false`");
                diags.push(if node.as_str().is_some() {
                    d.help("write `true` or `false`; YAML 1.1 spellings such as `yes` are strings")
                } else {
                    d
                });
                None
            }
        }
    }
}

impl Decode for u64 {
    fn decode(node: &Node, _: Span, diags: &mut Diagnostics) -> Option<Self> {
        match &node.value {
            Value::Number(n) if n.as_u64().is_some() => n.as_u64(),
            _ => {
                diags.push(wrong_kind(node, "a non-negative integer"));
                None
            }
        }
    }
}

impl<T: Decode> Decode for Vec<T> {
    fn decode(node: &Node, _: Span, diags: &mut Diagnostics) -> Option<Self> {
        let Some(items) = node.as_seq() else {
            diags.push(wrong_kind(node, "a list"));
            return None;
        };
        // Every item is read, so every bad item is reported; bad ones are left out.
        Some(items.iter().filter_map(|i| T::decode(i, i.span, diags)).collect())
    }
}

impl<T: DecodeEntry> Decode for Entries<T> {
    fn decode(node: &Node, _: Span, diags: &mut Diagnostics) -> Option<Self> {
        let Some(entries) = node.as_map() else {
            diags.push(wrong_kind(node, "a mapping"));
            return None;
        };
        let mut out: Vec<(Sp<String>, T)> = Vec::new();
        for (i, (k, v)) in entries.iter().enumerate() {
            let Some(name) = k.as_str() else { continue };
            // A repeated key is reported once (E0011); its second value is not read, so it
            // cannot cause follow-on errors.
            if entries[..i].iter().any(|(p, _)| p.as_str() == Some(name)) {
                continue;
            }
            if let Some(value) = T::decode_entry(name, k.span, v, diags) {
                out.push((Sp { value: name.to_owned(), span: k.span }, value));
            }
        }
        Some(Entries(out))
    }
}

/// Values that know the name they were given in an [`Entries`] map.
pub(crate) trait DecodeEntry: Sized {
    fn decode_entry(name: &str, key: Span, node: &Node, diags: &mut Diagnostics) -> Option<Self>;
}

impl<T: Decode> DecodeEntry for T {
    fn decode_entry(_: &str, key: Span, node: &Node, diags: &mut Diagnostics) -> Option<Self> {
        T::decode(node, key, diags)
    }
}

impl Decode for Schema {
    fn decode(node: &Node, key: Span, diags: &mut Diagnostics) -> Option<Self> {
        match node.value {
            Value::Map(_) | Value::Bool(_) => Some(Schema(node.clone(), key)),
            _ => {
                diags.push(wrong_kind(node, "a schema (a mapping or a boolean)"));
                None
            }
        }
    }
}

impl Decode for Any {
    fn decode(node: &Node, _: Span, _: &mut Diagnostics) -> Option<Self> {
        Some(Any(node.clone()))
    }
}

/// Keyword enums: one spelling per variant.
macro_rules! keywords {
    ($($ty:ty { $($text:literal => $variant:expr),* $(,)? })*) => {$(
        impl Decode for $ty {
            fn decode(node: &Node, _: Span, diags: &mut Diagnostics) -> Option<Self> {
                const ALL: &[&str] = &[$($text),*];
                let Some(s) = node.as_str() else {
                    diags.push(wrong_kind(node, &format!("one of {}", quoted(ALL))));
                    return None;
                };
                match s {
                    $($text => Some($variant),)*
                    _ => {
                        let mut d = Diagnostic::new(Code::InvalidValue, node.span, format!("`{s}` is not one of {}", quoted(ALL)))
                            .label("unknown value");
                        if let Some(best) = ALL.iter().find(|k| k.eq_ignore_ascii_case(s)).or_else(|| closest(s, ALL).as_ref().and_then(|b| ALL.iter().find(|k| *k == b))) {
                            d = d.help(format!("did you mean `{best}`?"));
                        }
                        diags.push(d);
                        None
                    }
                }
            }
        }
    )*};
}

fn quoted(all: &[&str]) -> String {
    all.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ")
}

keywords! {
    ToolExposure { "default" => ToolExposure::Default, "explicit" => ToolExposure::Explicit }
    ToolDiscovery { "list" => ToolDiscovery::List, "search" => ToolDiscovery::Search }
    Method {
        "GET" => Method::Get, "HEAD" => Method::Head, "POST" => Method::Post,
        "PUT" => Method::Put, "PATCH" => Method::Patch, "DELETE" => Method::Delete,
    }
    Surface { "HTTP" => Surface::Http, "MCP" => Surface::Mcp, "AGENT" => Surface::Agent, "CLI" => Surface::Cli }
    Visibility { "model" => Visibility::Model, "app" => Visibility::App }
    StreamFormat { "ndjson" => StreamFormat::Ndjson, "sse" => StreamFormat::Sse }
    Framing { "envelope" => Framing::Envelope, "item" => Framing::Item }
    Completion { "stream-end" => Completion::StreamEnd, "terminal" => Completion::Terminal }
    Presenter { "mcp" => Presenter::Mcp, "agent" => Presenter::Agent }
    SchemeType {
        "http" => SchemeType::Http, "apiKey" => SchemeType::ApiKey, "oauth2" => SchemeType::OAuth2,
        "openIdConnect" => SchemeType::OpenIdConnect, "mutualTLS" => SchemeType::MutualTls,
    }
    KeyLocation { "header" => KeyLocation::Header, "query" => KeyLocation::Query, "cookie" => KeyLocation::Cookie }
    QueryStyle { "form" => QueryStyle::Form, "deepObject" => QueryStyle::DeepObject, "json" => QueryStyle::Json }
}

impl DecodeEntry for SecurityScheme {
    fn decode_entry(name: &str, key: Span, node: &Node, diags: &mut Diagnostics) -> Option<Self> {
        let mut f = Fields::new(node, key, "a security scheme", diags)?;
        let s = SecurityScheme {
            name: Sp { value: name.to_owned(), span: key },
            r#type: f.req("type", diags),
            scheme: f.opt("scheme", diags),
            bearer_format: f.opt("bearerFormat", diags),
            r#in: f.opt("in", diags),
            param: f.opt("name", diags),
            desc: f.opt("desc", diags),
            flows: f.opt::<Any>("flows", diags).filter(|m| mapping(&m.0, "`flows`", diags)),
            open_id_connect_url: f.opt("openIdConnectUrl", diags),
        };
        f.finish(diags);
        Some(s)
    }
}

impl DecodeEntry for Endpoint {
    fn decode_entry(name: &str, key: Span, node: &Node, diags: &mut Diagnostics) -> Option<Self> {
        let mut f = Fields::new(node, key, "an endpoint", diags)?;
        for (old, new) in [
            ("toolName", "tool.name"),
            ("toolView", "tool.view"),
            ("ui", "tool.ui"),
            ("annotations", "tool.annotations"),
            ("mcp", "tool"),
        ] {
            f.moved(old, new, diags);
        }
        let e = Endpoint {
            action: Sp { value: name.to_owned(), span: key },
            method: f.req("method", diags),
            path: f.req("path", diags),
            desc: f.req("desc", diags),
            scope: f.opt("scope", diags),
            params: f.opt("params", diags),
            params_in: f.opt("paramsIn", diags),
            input: f.opt("input", diags),
            output: f.opt("output", diags),
            expose: f.opt("expose", diags),
            errors: f.opt("errors", diags),
            meta: f.opt::<Any>("meta", diags).filter(|m| mapping(&m.0, "`meta`", diags)),
            tool: f.opt("tool", diags),
            http: f.opt("http", diags),
            limits: f.opt("limits", diags),
            raw_response: f.opt("rawResponse", diags),
            content_type: f.opt("contentType", diags),
            input_content_type: f.opt("inputContentType", diags),
            input_optional: f.opt("inputOptional", diags),
            raw_body: f.opt("rawBody", diags),
            multipart: f.opt("multipart", diags),
            response_meta: f.opt("responseMeta", diags),
            stream: f.opt("stream", diags),
            security: f.opt("security", diags),
        };
        f.finish(diags);
        Some(e)
    }
}

impl DecodeEntry for RuntimeTool {
    fn decode_entry(name: &str, key: Span, node: &Node, diags: &mut Diagnostics) -> Option<Self> {
        let mut f = Fields::new(node, key, "a runtime tool", diags)?;
        let t = RuntimeTool {
            name: Sp { value: name.to_owned(), span: key },
            action: f.opt("action", diags),
            desc: f.req("desc", diags),
            input: f.opt("input", diags),
            output: f.opt("output", diags),
            transports: f.opt("transports", diags),
            annotations: f.opt("annotations", diags),
            present: f.opt("present", diags),
            budget: f.opt("budget", diags),
        };
        f.finish(diags);
        Some(t)
    }
}

/// Structs whose fields are all read with `opt`/`req` by one expression.
macro_rules! structs {
    ($($ty:ident, $what:literal, |$f:ident, $d:ident| $body:expr;)*) => {$(
        impl Decode for $ty {
            fn decode(node: &Node, key: Span, diags: &mut Diagnostics) -> Option<Self> {
                let mut $f = Fields::new(node, key, $what, diags)?;
                let $d = &mut *diags;
                let value = $body;
                $f.finish(diags);
                Some(value)
            }
        }
    )*};
}

structs! {
    ToolGroup, "the `tool` group", |f, d| ToolGroup {
        name: f.opt("name", d), annotations: f.opt("annotations", d), ui: f.opt("ui", d), view: f.opt("view", d),
        budget: f.opt("budget", d), mcp: f.opt("mcp", d),
    };
    McpGroup, "the `mcp` group", |f, d| McpGroup { input_required: f.opt("inputRequired", d) };
    InputRequest, "an `inputRequired` entry", |f, d| InputRequest {
        key: f.req("key", d), message: f.req("message", d), schema: f.req("schema", d),
    };
    Annotations, "`annotations`", |f, d| Annotations {
        title: f.opt("title", d),
        read_only_hint: f.opt("readOnlyHint", d),
        destructive_hint: f.opt("destructiveHint", d),
        idempotent_hint: f.opt("idempotentHint", d),
        open_world_hint: f.opt("openWorldHint", d),
    };
    Ui, "`ui`", |f, d| Ui { resource_uri: f.opt("resourceUri", d), visibility: f.opt("visibility", d) };
    View, "a tool view", |f, d| View { defaults: f.opt("defaults", d), output: f.opt("output", d), project: f.opt("project", d) };
    Multipart, "`multipart`", |f, d| Multipart {
        files: f.req("files", d), max_request_bytes: f.opt("maxRequestBytes", d), max_field_bytes: f.opt("maxFieldBytes", d),
    };
    FileField, "a multipart file field", |f, d| FileField {
        required: f.opt("required", d),
        multiple: f.opt("multiple", d),
        max_files: f.opt("maxFiles", d),
        max_bytes: f.opt("maxBytes", d),
        content_types: f.opt("contentTypes", d),
    };
    HttpGroup, "the `http` group", |f, d| HttpGroup {
        status: f.opt("status", d),
        headers: f.opt("headers", d),
        errors: f.opt("errors", d),
        successes: f.opt("successes", d),
    };
    Limits, "`limits`", |f, d| Limits { max_body_bytes: f.opt("maxBodyBytes", d), max_answer_bytes: f.opt("maxAnswerBytes", d) };
    ResponseMeta, "`responseMeta`", |f, d| ResponseMeta { status: f.req("status", d), headers: f.opt("headers", d) };
    ParamIn, "a `paramsIn` entry", |f, d| ParamIn { location: f.req("in", d), name: f.opt("name", d), style: f.opt("style", d) };
    ResponseHeader, "a response header", |f, d| ResponseHeader { desc: f.opt("desc", d), required: f.opt("required", d) };
    StatusAnswer, "an answer at a status", |f, d| StatusAnswer { desc: f.opt("desc", d), body: f.opt("body", d) };
    Stream, "`stream`", |f, d| Stream {
        item: f.req("item", d),
        format: f.opt("format", d),
        framing: f.opt("framing", d),
        completion: f.opt("completion", d),
        terminal: f.opt("terminal", d),
        max_frame_bytes: f.opt("maxFrameBytes", d),
        heartbeat_ms: f.opt("heartbeatMs", d),
        lifetime_ms: f.opt("lifetimeMs", d),
        idle_timeout_seconds: f.opt("idleTimeoutSeconds", d),
    };
}
