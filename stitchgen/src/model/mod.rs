//! The lowered model: checked contracts resolved into plain, ordered data that every emitter
//! reads. Lowering is infallible on checked input.

use serde_json::{Map, Value};

use crate::check::http::{Seg, base_path, parse_route};
use crate::diag::Diagnostics;
use crate::naming;
use crate::parse::ast::{self, Completion, Contract, Endpoint, Framing, RuntimeTool, StreamFormat, Surface};
pub use crate::schema::Wrap;
pub use params_in::ParamIn;
pub use security::Alternative;

pub mod graph;
mod params_in;
mod security;
mod visibility;

/// The default budget in bytes, about 4,000 tokens. Measured on the ten real API descriptions
/// of the test corpus with every endpoint exposed, a tool's definition is 5.2 KB at the median
/// and 15.5 KB at the 75th percentile, then grows to 429 KB; well-made tools in the field cost
/// 450–1,900 tokens. Past 16 KiB a tool is almost always a whole resource graph inlined.
pub const DEFAULT_BUDGET: u64 = 16 * 1024;

/// Everything generated together: one OpenAPI document, one manifest per transport.
#[derive(Clone, Debug)]
pub struct Model {
    /// The services, in the order their contracts were given.
    pub services: Vec<Service>,
}

/// One contract.
#[derive(Clone, Debug)]
pub struct Service {
    /// The service name as written.
    pub name: String,
    /// Its Rust module name.
    pub module: String,
    /// The contract file as generated files name it (never absolute).
    pub source: String,
    /// OpenAPI title, when given.
    pub title: Option<String>,
    /// OpenAPI version, when given.
    pub version: Option<String>,
    /// Shared types, in order, as JSON Schema with `#/types/NAME` references.
    pub types: indexmap::IndexMap<String, Value>,
    /// The Rust name of each shared type, unique in the service (`UserCard`, `UserCard2`).
    pub type_idents: std::collections::BTreeMap<String, String>,
    /// The types that reach themselves through references (kept as `$defs` when inlining).
    pub recursive: std::collections::BTreeSet<String>,
    /// The types too large to inline everywhere they are used (kept as `$defs` too).
    pub expansive: std::collections::BTreeSet<String>,
    /// Endpoints, then runtime tools, in order.
    pub operations: Vec<Operation>,
    /// The credentials the API takes, by name, as OpenAPI's Security Scheme Objects.
    pub security_schemes: std::collections::BTreeMap<String, Value>,
    /// How the tool manifests present its tools (`toolDiscovery`).
    pub discovery: crate::parse::ast::ToolDiscovery,
}

/// One operation: a contract endpoint or a runtime tool.
#[derive(Clone, Debug)]
pub struct Operation {
    /// Endpoint or runtime tool.
    pub kind: OpKind,
    /// The service it belongs to.
    pub service: String,
    /// The identity action.
    pub action: String,
    /// Its handler method and module name, snake_case, unique in the service (`get_user_2`).
    pub ident: String,
    /// The prefix of its schema types, UpperCamelCase, unique in the service (`GetUser2`).
    pub type_prefix: String,
    /// `desc`.
    pub desc: String,
    /// The scope (`public` when none is declared).
    pub scope: String,
    /// The HTTP route, for endpoints exposed on HTTP.
    pub http: Option<Http>,
    /// Path parameters schema (declared, or inferred as strings from the route).
    pub params: Option<Value>,
    /// Input schema.
    pub input: Option<Value>,
    /// Full output schema.
    pub output: Option<Value>,
    /// Surfaces it is served on.
    pub surfaces: Vec<Surface>,
    /// The tool name, when on a tool surface.
    pub tool_name: Option<String>,
    /// MCP annotations as written (camelCase keys), when given.
    pub annotations: Option<Value>,
    /// UI hints as written, when given.
    pub ui: Option<Value>,
    /// The tool view, when declared.
    pub view: Option<View>,
    /// What the tool asks its user on MCP before it acts (`tool.mcp.inputRequired`), in order.
    pub input_required: Vec<InputAsk>,
    /// Documented extra error codes.
    pub errors: Vec<String>,
    /// The successes documented beside the main answer (`http.successes`), by status: the
    /// handler answers one of them or the main one, on every surface.
    pub successes: Vec<StatusAnswer>,
    /// The status of the main answer (`http.status`, else 200 with an output and 204 without),
    /// which names its variant where the handler chooses among [`Operation::successes`].
    pub main_status: u16,
    /// HTTP-only kind facts.
    pub http_kind: HttpKind,
    /// Presenter hooks (runtime tools).
    pub present: Vec<ast::Presenter>,
    /// How its tool answer is wrapped on every tool surface: a non-object answer on an MCP
    /// target whose answers must be objects. `None` off tool surfaces.
    pub wrap: Option<Wrap>,
    /// Whether its tool answer is an object on a target whose answers must be objects: then the
    /// answer's schema states `type: object` at its root (MCP requires it), even where the
    /// contract says so only through `allOf` or `oneOf`.
    pub object_answer: bool,
    /// Bytes its tool definition may take in a manifest (`tool.budget`, else `toolBudget`, else
    /// [`DEFAULT_BUDGET`]).
    pub budget: u64,
    /// What its requests carry: alternatives of schemes sent together (with OAuth scopes);
    /// `None` when the contract says nothing, `Some([])` when it says nothing is needed.
    pub security: Option<Vec<Alternative>>,
}

/// Endpoint or runtime tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum OpKind {
    /// A contract endpoint.
    Contract,
    /// A runtime (pathless) tool.
    Runtime,
}

impl OpKind {
    /// `contract` or `runtime`.
    pub fn as_str(self) -> &'static str {
        match self {
            OpKind::Contract => "contract",
            OpKind::Runtime => "runtime",
        }
    }
}

/// An HTTP route.
#[derive(Clone, Debug)]
pub struct Http {
    /// The method.
    pub method: ast::Method,
    /// basePath + path, as written (`/users/:id`).
    pub path: String,
    /// The same in OpenAPI form (`/users/{id}`).
    pub template: String,
    /// Path parameter names in order; the last may be a wildcard.
    pub params: Vec<String>,
    /// Whether the last parameter is a wildcard.
    pub wildcard: bool,
    /// The parameters that are not in the path (`paramsIn`), in declaration order.
    pub params_in: Vec<ParamIn>,
    /// `inputOptional`: the request body may be absent.
    pub input_optional: bool,
    /// Whether the input is the query string: GET, HEAD and DELETE, unless `inputContentType`
    /// makes it a body.
    pub input_in_query: bool,
    /// `inputContentType`: the JSON body's media type, when not `application/json`.
    pub input_content_type: Option<String>,
    /// The declared success status (`http.status` or `responseMeta.status`); `None`: the implied
    /// one, 200 with `output` and 204 without, whether written out or not.
    pub status: Option<u16>,
    /// The documented response headers, by name (`http.headers` or `responseMeta.headers`).
    pub headers: Vec<Header>,
    /// `limits`: the largest JSON or raw request body read, and the largest success answer a
    /// client reads, when the contract declares them.
    pub limits: Limits,
    /// The error answers documented with a body of their own (`http.errors`), by status.
    pub error_answers: Vec<StatusAnswer>,
}

/// An answer documented at a status of its own, with its body: an error answer, or a success
/// beside the main one.
#[derive(Clone, Debug)]
pub struct StatusAnswer {
    /// Its status: 400–599 for an error, 2xx for a success.
    pub status: u16,
    /// What it means, when documented.
    pub desc: Option<String>,
    /// Its body's schema; `None`: no body.
    pub body: Option<Value>,
}

/// An endpoint's declared byte limits (`limits`); `None`: the runtime's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// `maxBodyBytes`.
    pub max_body_bytes: Option<u64>,
    /// `maxAnswerBytes`.
    pub max_answer_bytes: Option<u64>,
}

impl Http {
    /// The success status HTTP answers with: the declared one, else 200 with an output and 204
    /// without.
    pub fn success_status(&self, has_output: bool) -> u16 {
        self.status.unwrap_or(stitchgen_runtime::implied_status(has_output))
    }
}

impl Operation {
    /// The media type of the request body HTTP reads, if it reads one: the upload's, else the
    /// JSON `input`'s. GET, HEAD and DELETE read their `input` from the query string.
    pub fn request_media(&self) -> Option<String> {
        let http = self.http.as_ref()?;
        if self.http_kind.multipart.is_some() {
            return Some("multipart/form-data".into());
        }
        (self.input.is_some() && !http.input_in_query)
            .then(|| http.input_content_type.clone().unwrap_or_else(|| "application/json".into()))
    }

    /// The media type of the success answer's body on HTTP, if it has one: the raw response's,
    /// the stream's, else JSON with an `output`.
    pub fn answer_media(&self) -> Option<String> {
        let kind = &self.http_kind;
        if let Some(content_type) = &kind.raw_response {
            return Some(content_type.clone().unwrap_or_else(|| "application/octet-stream".into()));
        }
        if let Some(stream) = &kind.stream {
            return Some(stream.format.media().into());
        }
        self.output.is_some().then(|| "application/json".into())
    }
}

/// A documented response header.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// Its name, as declared.
    pub name: String,
    /// What it carries.
    pub desc: Option<String>,
    /// Whether every success answer carries it.
    pub required: bool,
}

/// A tool view.
#[derive(Clone, Debug)]
pub struct View {
    /// Defaults merged before the parse.
    pub defaults: Map<String, Value>,
    /// The view's schema, when declared.
    pub output: Option<Value>,
    /// Whether a Rust projection computes the answer.
    pub project: bool,
}

/// One question a tool asks its user before it acts (MCP elicitation).
#[derive(Clone, Debug, PartialEq)]
pub struct InputAsk {
    /// The key the answer is read by.
    pub key: String,
    /// What the client shows.
    pub message: String,
    /// The form: MCP's `requestedSchema`.
    pub schema: Value,
}

/// HTTP-only kind facts of an endpoint (all empty for ordinary endpoints and runtime tools).
#[derive(Clone, Debug, Default)]
pub struct HttpKind {
    /// `rawResponse: true`, with its content type.
    pub raw_response: Option<Option<String>>,
    /// `rawBody: true`.
    pub raw_body: bool,
    /// The upload.
    pub multipart: Option<Multipart>,
    /// `responseMeta`: the handler answers an HTTP envelope, its data with the response headers
    /// (the declared status and header names are the route's: [`Http::status`], [`Http::headers`]).
    pub response_meta: bool,
    /// The stream.
    pub stream: Option<Stream>,
}

impl HttpKind {
    /// Whether any HTTP-only kind is declared.
    pub fn any(&self) -> bool {
        self.raw_response.is_some()
            || self.raw_body
            || self.multipart.is_some()
            || self.response_meta
            || self.stream.is_some()
    }
}

/// A file upload.
#[derive(Clone, Debug)]
pub struct Multipart {
    /// File fields in order.
    pub files: Vec<FileField>,
    /// Largest request.
    pub max_request_bytes: Option<u64>,
    /// Largest non-file field.
    pub max_field_bytes: Option<u64>,
}

/// One file field.
#[derive(Clone, Debug)]
pub struct FileField {
    /// Form field name.
    pub name: String,
    /// Must be present.
    pub required: bool,
    /// May carry several files.
    pub multiple: bool,
    /// Most files.
    pub max_files: Option<u64>,
    /// Largest file.
    pub max_bytes: Option<u64>,
    /// Accepted content types (empty: any).
    pub content_types: Vec<String>,
}

/// A stream.
#[derive(Clone, Debug)]
pub struct Stream {
    /// Schema of one item.
    pub item: Value,
    /// Wire format.
    pub format: StreamFormat,
    /// Frame wrapping.
    pub framing: Framing,
    /// How it ends.
    pub completion: Completion,
    /// Schema of the terminal frame.
    pub terminal: Option<Value>,
    /// Largest frame, in bytes.
    pub max_frame_bytes: Option<u64>,
    /// Heartbeat interval, in milliseconds.
    pub heartbeat_ms: Option<u64>,
    /// Longest stream, in milliseconds.
    pub lifetime_ms: Option<u64>,
    /// Longest silence before the stream is closed, in seconds.
    pub idle_timeout_seconds: Option<u64>,
}

impl Operation {
    /// The schema this operation has in `role` (one of [`ROLES`]), if any.
    pub fn schema(&self, role: &str) -> Option<&Value> {
        match role {
            "Params" => self.params.as_ref(),
            "Input" => self.input.as_ref(),
            "Output" => self.output.as_ref(),
            "ToolAnswer" => self.view.as_ref().and_then(|v| v.output.as_ref()),
            "Item" => self.http_kind.stream.as_ref().map(|s| &s.item),
            "Terminal" => self.http_kind.stream.as_ref().and_then(|s| s.terminal.as_ref()),
            _ => None,
        }
    }

    /// Every schema of the operation with its role, as the name of its Rust type ends: those of
    /// [`ROLES`], then the body of each other success, named after its status
    /// ([`naming::status_variant`]: `Accepted`).
    pub fn roles(&self) -> Vec<(String, &Value)> {
        let fixed = ROLES.into_iter().filter_map(|r| Some((r.to_owned(), self.schema(r)?)));
        let other = self.successes.iter().filter_map(|a| Some((naming::status_variant(a.status), a.body.as_ref()?)));
        fixed.chain(other).collect()
    }

    /// The schema of its answer on the tool surfaces: the view's; where the handler chooses
    /// among other successes with bodies, any of their bodies (`null` for one without); else
    /// the output.
    pub fn tool_answer(&self) -> Option<std::borrow::Cow<'_, Value>> {
        if let Some(view) = self.view.as_ref().and_then(|v| v.output.as_ref()) {
            return Some(std::borrow::Cow::Borrowed(view));
        }
        if self.successes.iter().all(|a| a.body.is_none()) {
            return self.output.as_ref().map(std::borrow::Cow::Borrowed);
        }
        let null = serde_json::json!({ "type": "null" });
        let bodies = std::iter::once(self.output.as_ref()).chain(self.successes.iter().map(|a| a.body.as_ref()));
        let mut any: Vec<Value> = Vec::new();
        for body in bodies.map(|b| b.unwrap_or(&null)) {
            if !any.contains(body) {
                any.push(body.clone());
            }
        }
        Some(std::borrow::Cow::Owned(match any.len() {
            1 => any.remove(0),
            _ => serde_json::json!({ "anyOf": any }),
        }))
    }

    /// Whether the operation is on a tool surface.
    pub fn is_tool(&self) -> bool {
        self.surfaces.iter().any(|s| s.is_tool())
    }
    /// Whether the operation is on `surface`.
    pub fn on(&self, surface: Surface) -> bool {
        self.surfaces.contains(&surface)
    }
}

/// Sets each operation's Rust names ([`naming::operation_idents`]): unique in the service, and
/// naming no type like one of the `shared` ones.
fn name_operations(operations: &mut [Operation], shared: &std::collections::BTreeSet<String>) {
    let roles: Vec<Vec<String>> = operations
        .iter()
        .map(|o| o.roles().into_iter().filter(|(_, s)| own_type(s)).map(|(r, _)| r).collect())
        .collect();
    let ops: Vec<(&str, Vec<&str>)> = operations
        .iter()
        .zip(&roles)
        .map(|(o, roles)| (o.action.as_str(), roles.iter().map(String::as_str).collect()))
        .collect();
    let idents = naming::operation_idents(&ops, shared);
    for (op, names) in operations.iter_mut().zip(idents) {
        // `check` refused every action without an identifier form.
        let names =
            names.unwrap_or_else(|| naming::OpIdent { snake: String::new(), camel: String::new(), renamed: None });
        (op.ident, op.type_prefix) = (names.snake, names.camel);
    }
}

/// Whether a schema makes a type of its own: a bare `$ref` names an existing one.
fn own_type(schema: &Value) -> bool {
    !schema.as_object().is_some_and(|m| m.len() == 1 && m.contains_key("$ref"))
}

/// The roles an operation's schemas play, as the names of their Rust types end (`ListInput`).
pub const ROLES: [&str; 6] = ["Params", "Input", "Output", "ToolAnswer", "Item", "Terminal"];

/// Lowers checked contracts. `sources` names each contract's file; `options` says which MCP
/// target the tool answers are presented for.
pub fn lower(contracts: &[Contract], sources: &crate::source::SourceMap, options: &crate::Options) -> Model {
    let objects_only = options.mcp_target.object_answers_only();
    let names: Vec<&str> = contracts.iter().map(|c| c.service.as_ref().map_or("", |s| s.value.as_str())).collect();
    let modules = naming::service_modules(&names);
    let services = contracts.iter().zip(modules).map(|(c, module)| {
        let mut svc = service(c, &crate::source::artifact_name(&sources.file(c.file).path), objects_only);
        // `check` refused every service name without an identifier form.
        svc.module = module.map(|(m, _)| m).unwrap_or_default();
        svc
    });
    Model { services: services.collect() }
}

fn text(s: &Option<ast::Sp<String>>) -> Option<String> {
    s.as_ref().map(|s| s.value.clone())
}

fn service(c: &Contract, source: &str, objects_only: bool) -> Service {
    let name = text(&c.service).unwrap_or_default();
    let default_scope = text(&c.scope).unwrap_or_else(|| "public".into());
    let mut operations: Vec<Operation> = Vec::new();
    for (_, e) in c.endpoints.iter().flat_map(|e| e.value.iter()) {
        operations.push(endpoint(c, &name, &default_scope, e, objects_only));
    }
    for (_, t) in c.tools.iter().flat_map(|t| t.value.iter()) {
        operations.push(runtime_tool(c, &name, &default_scope, t, objects_only));
    }
    let mut types: indexmap::IndexMap<String, Value> =
        c.types.iter().flat_map(|t| t.value.iter()).map(|(k, v)| (k.value.clone(), v.0.to_json())).collect();
    visibility::split(&mut types, &mut operations);
    let recursive = graph::recursive_types(&types);
    let names: Vec<&str> = types.keys().map(String::as_str).collect();
    // `check` refused every type name without an identifier form.
    let type_idents: std::collections::BTreeMap<String, String> = names
        .iter()
        .zip(naming::type_names(&names))
        .map(|(n, r)| ((*n).to_owned(), r.map(|(r, _)| r).unwrap_or_default()))
        .collect();
    name_operations(&mut operations, &type_idents.values().cloned().collect());
    Service {
        // Set by `lower`, which sees every service given together.
        module: String::new(),
        source: source.to_owned(),
        title: text(&c.title),
        version: text(&c.version),
        expansive: graph::expansive_types(&types, &recursive),
        recursive,
        type_idents,
        types,
        operations,
        security_schemes: security::schemes(c),
        discovery: c.tool_discovery.as_ref().map(|d| d.value).unwrap_or_default(),
        name,
    }
}

/// The endpoint's surfaces (the checks' rule, DESIGN §3.1), sorted and without repeats.
fn surfaces(c: &Contract, e: &Endpoint) -> Vec<Surface> {
    let mut out = crate::check::Cx::new(c).surfaces(e);
    out.sort();
    out.dedup();
    out
}

fn endpoint(c: &Contract, service: &str, default_scope: &str, e: &Endpoint, objects_only: bool) -> Operation {
    let surfaces = surfaces(c, e);
    let http = http(c, e);
    let params = e.params.as_ref().map(|p| p.0.to_json()).or_else(|| {
        let names = http.as_ref().map(|h| h.params.clone()).unwrap_or_default();
        (!names.is_empty()).then(|| {
            let props: Map<String, Value> =
                names.iter().map(|n| (n.clone(), serde_json::json!({ "type": "string" }))).collect();
            serde_json::json!({ "type": "object", "required": names, "properties": props })
        })
    });
    let tool = e.tool.as_ref().map(|t| &t.value);
    let is_tool = surfaces.iter().any(|s| s.is_tool()) && !crate::check::is_http_only(e);
    let tool_name = is_tool
        .then(|| tool.and_then(|t| text(&t.name)).or_else(|| naming::derive_tool_name(service, &e.action.value)))
        .flatten();
    let answer = tool.and_then(|t| t.view.as_ref()).and_then(|v| v.value.output.as_ref()).or(e.output.as_ref());
    Operation {
        kind: OpKind::Contract,
        service: service.to_owned(),
        action: e.action.value.clone(),
        // Set by `service` once every action of the contract is known.
        ident: String::new(),
        type_prefix: String::new(),
        desc: text(&e.desc).unwrap_or_default(),
        scope: text(&e.scope).unwrap_or_else(|| default_scope.to_owned()),
        http: surfaces.contains(&Surface::Http).then_some(http).flatten(),
        params,
        input: e.input.as_ref().map(|s| s.0.to_json()),
        output: e.output.as_ref().map(|s| s.0.to_json()),
        tool_name,
        annotations: tool.and_then(|t| t.annotations.as_ref()).map(|a| annotations(&a.value)),
        ui: tool.and_then(|t| t.ui.as_ref()).map(|u| ui(&u.value)),
        view: tool.and_then(|t| t.view.as_ref()).filter(|_| is_tool).map(|v| view(&v.value)),
        errors: e.errors.iter().flat_map(|l| l.value.iter()).map(|s| s.value.clone()).collect(),
        successes: status_answers(e.success_answers()),
        main_status: response_facts(e).0.unwrap_or(stitchgen_runtime::implied_status(e.output.is_some())),
        http_kind: http_kind(e),
        input_required: tool
            .filter(|_| is_tool && surfaces.contains(&Surface::Mcp))
            .and_then(|t| t.mcp.as_ref()?.value.input_required.as_ref())
            .map(|list| list.value.iter().filter_map(|r| input_ask(&r.value)).collect())
            .unwrap_or_default(),
        present: Vec::new(),
        wrap: answers_wrap(c, e, answer).filter(|_| is_tool && objects_only),
        object_answer: is_tool && objects_only && answer.is_some() && answers_wrap(c, e, answer).is_none(),
        budget: budget(c, tool.and_then(|t| t.budget.as_ref())),
        security: security::requirements(c, e),
        surfaces,
    }
}

fn http(c: &Contract, e: &Endpoint) -> Option<Http> {
    let method = e.method.as_ref()?.value;
    let base = base_path(&crate::check::Cx::new(c));
    let mut segs = parse_route(&base, "basePath", &mut Diagnostics::default())?;
    segs.extend(parse_route(e.path.as_ref()?, "path", &mut Diagnostics::default())?);
    let mut path = String::new();
    let mut template = String::new();
    let mut params = Vec::new();
    let mut wildcard = false;
    for (seg, _) in &segs {
        let (p, t) = match seg {
            Seg::Lit(l) => (l.clone(), l.clone()),
            Seg::Param(n) => {
                params.push(n.clone());
                (format!(":{n}"), format!("{{{n}}}"))
            }
            Seg::Part(prefix, n, suffix) => {
                params.push(n.clone());
                let written = format!("{prefix}{{{n}}}{suffix}");
                (written.clone(), written)
            }
            Seg::Wild(n) => {
                params.push(n.clone());
                wildcard = true;
                (format!("*{n}"), format!("{{{n}}}"))
            }
        };
        path.push('/');
        path.push_str(&p);
        template.push('/');
        template.push_str(&t);
    }
    if path.is_empty() {
        path.push('/');
        template.push('/');
    }
    // `application/json` written out (parameters included) is the default, not a media type of its own.
    let input_content_type = e
        .input_content_type
        .as_ref()
        .map(|c| c.value.clone())
        .filter(|c| crate::check::kinds::media_essence(c) != "application/json");
    let (status, headers) = response_facts(e);
    let limits = e.limits.as_ref().map_or_else(Limits::default, |l| Limits {
        max_body_bytes: l.value.max_body_bytes.as_ref().map(|v| v.value),
        max_answer_bytes: l.value.max_answer_bytes.as_ref().map(|v| v.value),
    });
    let params_in = params_in::params_in(c, e);
    let input_optional = e.input_optional.as_ref().is_some_and(|o| o.value);
    let input_in_query = method.input_in_query() && e.input_content_type.is_none();
    Some(Http {
        // `check` refused every key that is not a status of its kind.
        error_answers: status_answers(e.error_answers()),
        method,
        path,
        template,
        params,
        wildcard,
        params_in,
        input_optional,
        input_in_query,
        input_content_type,
        status,
        headers,
        limits,
    })
}

/// Answers documented at statuses of their own, by status.
fn status_answers<'a>(
    answers: impl Iterator<Item = (&'a ast::Sp<String>, &'a ast::Sp<ast::StatusAnswer>)>,
) -> Vec<StatusAnswer> {
    let mut out: Vec<StatusAnswer> = answers
        .filter_map(|(status, a)| {
            Some(StatusAnswer {
                status: status.value.parse().ok()?,
                desc: text(&a.value.desc),
                body: a.value.body.as_ref().map(|b| b.0.to_json()),
            })
        })
        .collect();
    out.sort_by_key(|a| a.status);
    out
}

/// The declared success status and documented headers: of `http`, or of `responseMeta` (the
/// checks allow one of the two).
fn response_facts(e: &Endpoint) -> (Option<u16>, Vec<Header>) {
    let (status, headers) = match (&e.http, &e.response_meta) {
        (Some(h), _) => (&h.value.status, &h.value.headers),
        (None, Some(m)) => (&m.value.status, &m.value.headers),
        (None, None) => return (None, Vec::new()),
    };
    // The implied status written out (`status: 204` without output) declares nothing: no
    // artifact moves for it.
    let implied = stitchgen_runtime::implied_status(e.output.is_some());
    let status = status.as_ref().and_then(|s| u16::try_from(s.value).ok()).filter(|s| *s != implied);
    let headers = headers
        .iter()
        .flat_map(|h| h.value.iter())
        .map(|(k, h)| Header {
            name: k.value.clone(),
            desc: text(&h.value.desc),
            required: h.value.required.as_ref().is_some_and(|r| r.value),
        })
        .collect();
    (status, by_name(headers, |h| h.name.clone()))
}

fn input_ask(r: &ast::InputRequest) -> Option<InputAsk> {
    Some(InputAsk { key: text(&r.key)?, message: text(&r.message)?, schema: form(r.schema.as_ref()?.0.to_json()) })
}

/// An elicitation form with its keywords in one order, whatever order they were written in:
/// the manifest's bytes move only when the form does. The order of `properties` is the order
/// a client shows the fields in, and is kept.
fn form(v: Value) -> Value {
    const ORDER: &[&str] = &[
        "type",
        "title",
        "description",
        "format",
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "minItems",
        "maxItems",
        "items",
        "enum",
        "enumNames",
        "oneOf",
        "anyOf",
        "const",
        "default",
        "properties",
        "required",
    ];
    match v {
        Value::Object(map) => {
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            entries.sort_by_key(|(k, _)| ORDER.iter().position(|o| o == k).unwrap_or(ORDER.len()));
            let each = entries.into_iter().map(|(k, v)| {
                let v = match (k.as_str(), v) {
                    ("properties", Value::Object(props)) => {
                        Value::Object(props.into_iter().map(|(name, p)| (name, form(p))).collect())
                    }
                    ("enum" | "enumNames" | "required" | "default" | "const", v) => v,
                    (_, v) => form(v),
                };
                (k, v)
            });
            Value::Object(each.collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(form).collect()),
        other => other,
    }
}

fn annotations(a: &ast::Annotations) -> Value {
    let mut m = Map::new();
    if let Some(t) = &a.title {
        m.insert("title".into(), Value::String(t.value.clone()));
    }
    for (k, v) in [
        ("readOnlyHint", &a.read_only_hint),
        ("destructiveHint", &a.destructive_hint),
        ("idempotentHint", &a.idempotent_hint),
        ("openWorldHint", &a.open_world_hint),
    ] {
        if let Some(v) = v {
            m.insert(k.into(), Value::Bool(v.value));
        }
    }
    Value::Object(m)
}

fn ui(u: &ast::Ui) -> Value {
    let mut m = Map::new();
    if let Some(r) = &u.resource_uri {
        m.insert("resourceUri".into(), Value::String(r.value.clone()));
    }
    if let Some(v) = &u.visibility {
        let items = v.value.iter().map(|x| {
            Value::String(match x.value {
                ast::Visibility::Model => "model".into(),
                ast::Visibility::App => "app".into(),
            })
        });
        m.insert("visibility".into(), Value::Array(items.collect()));
    }
    Value::Object(m)
}

fn view(v: &ast::View) -> View {
    View {
        defaults: v
            .defaults
            .iter()
            .flat_map(|d| d.value.iter())
            .map(|(k, v)| (k.value.clone(), v.0.to_json()))
            .collect(),
        output: v.output.as_ref().map(|o| o.0.to_json()),
        project: v.project.as_ref().is_some_and(|p| p.value),
    }
}

fn http_kind(e: &Endpoint) -> HttpKind {
    let n = |v: &Option<ast::Sp<u64>>| v.as_ref().map(|v| v.value);
    HttpKind {
        raw_response: e.raw_response.as_ref().filter(|r| r.value).map(|_| text(&e.content_type)),
        raw_body: e.raw_body.as_ref().is_some_and(|r| r.value),
        multipart: e.multipart.as_ref().map(|m| Multipart {
            // By name: the order of form fields is not meaningful, so it moves no artifact.
            files: by_name(
                m.value
                    .files
                    .iter()
                    .flat_map(|f| f.value.iter())
                    .map(|(k, f)| FileField {
                        name: k.value.clone(),
                        required: f.value.required.as_ref().is_some_and(|r| r.value),
                        multiple: f.value.multiple.as_ref().is_some_and(|r| r.value),
                        max_files: n(&f.value.max_files),
                        max_bytes: n(&f.value.max_bytes),
                        content_types: f
                            .value
                            .content_types
                            .iter()
                            .flat_map(|c| c.value.iter())
                            .map(|c| c.value.clone())
                            .collect(),
                    })
                    .collect(),
                |f| f.name.clone(),
            ),
            max_request_bytes: n(&m.value.max_request_bytes),
            max_field_bytes: n(&m.value.max_field_bytes),
        }),
        response_meta: e.response_meta.is_some(),
        stream: e.stream.as_ref().and_then(|s| {
            Some(Stream {
                item: s.value.item.as_ref()?.0.to_json(),
                format: s.value.format.as_ref().map_or(StreamFormat::Ndjson, |f| f.value),
                framing: s.value.framing.as_ref().map_or(Framing::Envelope, |f| f.value),
                completion: s.value.completion.as_ref().map_or(Completion::StreamEnd, |f| f.value),
                terminal: s.value.terminal.as_ref().map(|t| t.0.to_json()),
                max_frame_bytes: n(&s.value.max_frame_bytes),
                heartbeat_ms: n(&s.value.heartbeat_ms),
                lifetime_ms: n(&s.value.lifetime_ms),
                idle_timeout_seconds: n(&s.value.idle_timeout_seconds),
            })
        }),
    }
}

fn runtime_tool(c: &Contract, service: &str, scope: &str, t: &RuntimeTool, objects_only: bool) -> Operation {
    let mut surfaces: Vec<Surface> = match &t.transports {
        Some(l) => l.value.iter().map(|s| s.value).collect(),
        None => vec![Surface::Mcp, Surface::Agent],
    };
    surfaces.sort();
    surfaces.dedup();
    Operation {
        kind: OpKind::Runtime,
        service: service.to_owned(),
        action: text(&t.action).unwrap_or_else(|| t.name.value.clone()),
        // Set by `service` once every action of the contract is known.
        ident: String::new(),
        type_prefix: String::new(),
        desc: text(&t.desc).unwrap_or_default(),
        scope: scope.to_owned(),
        http: None,
        params: None,
        input: t.input.as_ref().map(|s| s.0.to_json()),
        output: t.output.as_ref().map(|s| s.0.to_json()),
        surfaces,
        tool_name: Some(t.name.value.clone()),
        annotations: t.annotations.as_ref().map(|a| annotations(&a.value)),
        ui: None,
        view: None,
        errors: Vec::new(),
        successes: Vec::new(),
        main_status: stitchgen_runtime::implied_status(t.output.is_some()),
        http_kind: HttpKind::default(),
        input_required: Vec::new(),
        present: t.present.iter().flat_map(|p| p.value.iter()).map(|p| p.value).collect(),
        wrap: wrap(c, t.output.as_ref().filter(|_| objects_only)),
        object_answer: objects_only && t.output.is_some() && wrap(c, t.output.as_ref()).is_none(),
        budget: budget(c, t.budget.as_ref()),
        security: None,
    }
}

/// A tool's own budget, else the contract's, else the default.
fn budget(c: &Contract, own: Option<&ast::Sp<u64>>) -> u64 {
    own.or(c.tool_budget.as_ref()).map_or(DEFAULT_BUDGET, |b| b.value)
}

/// How the tool answer of endpoint `e` is wrapped ([`wrap`] of `answer`, its view's or its
/// output); where the handler chooses among other successes, unwrapped only when every body is
/// an object, under `items` when every one is an array.
fn answers_wrap(c: &Contract, e: &Endpoint, answer: Option<&ast::Schema>) -> Option<Wrap> {
    if e.success_answers().all(|(_, a)| a.value.body.is_none()) {
        return wrap(c, answer);
    }
    let bodies = std::iter::once(e.output.as_ref()).chain(e.success_answers().map(|(_, a)| a.value.body.as_ref()));
    // `None` for an answer without a body: `null` is no object and no array.
    let each: Vec<Option<Option<Wrap>>> = bodies.map(|b| b.map(|b| wrap(c, Some(b)))).collect();
    if each.iter().all(|w| *w == Some(None)) {
        None
    } else if each.iter().all(|w| *w == Some(Some(Wrap::Items))) {
        Some(Wrap::Items)
    } else {
        Some(Wrap::Value)
    }
}

/// How a tool answer is wrapped, when there is one to present and it is not an object.
fn wrap(c: &Contract, answer: Option<&ast::Schema>) -> Option<Wrap> {
    answer.and_then(|a| Wrap::of(&a.0, crate::schema::Types::new(c.types.as_ref().map(|t| &t.value))))
}

/// `items` sorted by `name`: for the DSL's maps whose order means nothing.
fn by_name<T>(mut items: Vec<T>, name: impl Fn(&T) -> String) -> Vec<T> {
    items.sort_by_key(name);
    items
}
