//! The contract as written: every field optional where the author may omit it or get it wrong,
//! every value with its span. Derives the DSL's own JSON Schema (`stitchgen schema`).
// The doc comments below are the field descriptions editors show; keep them for users.

use schemars::JsonSchema;

use super::node::Node;
use crate::source::{FileId, Span};

/// A value with the span it was written at.
#[derive(Clone, Debug, PartialEq)]
pub struct Sp<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

impl<T: JsonSchema> JsonSchema for Sp<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// An ordered mapping from names to values, each name with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct Entries<T>(pub Vec<(Sp<String>, T)>);

impl<T> Default for Entries<T> {
    fn default() -> Self {
        Entries(Vec::new())
    }
}

impl<T> Entries<T> {
    /// The entries in source order.
    pub fn iter(&self) -> impl Iterator<Item = (&Sp<String>, &T)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k.value == key).map(|(_, v)| v)
    }
}

impl<T: JsonSchema> JsonSchema for Entries<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("Map_of_{}", T::schema_name()).into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let value = generator.subschema_for::<T>();
        schemars::json_schema!({ "type": "object", "additionalProperties": value })
    }
}

/// A JSON Schema (the 2020-12 subset of DESIGN §3.5) written as YAML, kept as a spanned tree.
#[derive(Clone, Debug, PartialEq)]
pub struct Schema(pub Node, pub Span);

impl Schema {
    /// The key the schema was written under (`input:`, a type's name), for labels about it.
    pub fn key(&self) -> Span {
        self.1
    }
}

impl JsonSchema for Schema {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Schema".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A JSON Schema (2020-12 keywords, the subset stitchgen supports) written as YAML; refer to shared types with {$ref: \"#/types/NAME\"}.",
            "type": ["object", "boolean"]
        })
    }
}

/// Any YAML value, kept as written (`meta`, view defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct Any(pub Node);

impl JsonSchema for Any {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Any".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!(true)
    }
}

/// A stitchgen contract: one service, written once, served on HTTP, MCP, agent tools and CLI.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(title = "stitchgen contract", rename_all = "camelCase", deny_unknown_fields)]
pub struct Contract {
    /// The file this contract was read from.
    #[schemars(skip)]
    pub file: FileId,
    /// The whole document.
    #[schemars(skip)]
    pub span: Span,
    /// DSL version. Only `1` exists.
    #[schemars(required, range(min = 1, max = 1))]
    pub stitch: Option<Sp<u64>>,
    /// Service name: tool names, operation identity, default URL prefix.
    #[schemars(required)]
    pub service: Option<Sp<String>>,
    /// OpenAPI `info.title` when this is the only contract.
    pub title: Option<Sp<String>>,
    /// OpenAPI `info.version`.
    pub version: Option<Sp<String>>,
    /// URL prefix of every endpoint; default `/` + service. May hold `:param` segments.
    pub base_path: Option<Sp<String>>,
    /// Default scope of every endpoint (a free string); absent means `public`.
    pub scope: Option<Sp<String>>,
    /// Opaque map, shallow-merged under each endpoint's `meta`; never emitted.
    pub meta: Option<Any>,
    /// `default`: an omitted `expose` means HTTP, MCP and AGENT. `explicit`: it means HTTP only.
    pub tool_exposure: Option<Sp<ToolExposure>>,
    /// Bytes a tool definition may take in a manifest (default 16384). Past it, its schemas keep
    /// each shared type once in `$defs`, then are relaxed from the deepest parts up, with a warning.
    pub tool_budget: Option<Sp<u64>>,
    /// `list` (default): the MCP and agent manifests list each tool. `search`: they list three
    /// tools instead, `search_tools`, `describe_tools` and `call_tool`, over a catalog of this
    /// contract's tools, for APIs past what clients take.
    pub tool_discovery: Option<Sp<ToolDiscovery>>,
    /// Shared named schemas, referred to as `{$ref: "#/types/NAME"}`.
    pub types: Option<Sp<Entries<Schema>>>,
    /// The endpoints, keyed by action (the handler method name), in order.
    pub endpoints: Option<Sp<Entries<Endpoint>>>,
    /// Runtime (pathless) tools, keyed by tool name.
    pub tools: Option<Sp<Entries<RuntimeTool>>>,
    /// The credentials the API takes, by name (OpenAPI's security schemes).
    pub security_schemes: Option<Sp<Entries<SecurityScheme>>>,
    /// What every endpoint asks for unless it says otherwise: alternatives, each mapping the
    /// schemes sent together to their OAuth scopes. `[]`: nothing.
    pub security: Option<Sp<Vec<Requirement>>>,
}

impl Contract {
    /// Where the operation with `action` is declared: its key in `endpoints`, or its runtime
    /// tool's `action` (or key).
    pub fn action_span(&self, action: &str) -> Option<Span> {
        let endpoints = self.endpoints.iter().flat_map(|e| e.value.0.iter().map(|(_, e)| &e.action));
        let tools = self.tools.iter().flat_map(|t| t.value.0.iter().map(|(_, t)| t.action.as_ref().unwrap_or(&t.name)));
        endpoints.chain(tools).find(|a: &&Sp<String>| a.value == action).map(|a| a.span)
    }

    /// The service name's span, else the whole contract's.
    pub fn service_span(&self) -> Span {
        self.service.as_ref().map_or(self.span, |s| s.span)
    }
}

/// One alternative of a `security` list: the schemes a request carries together, each with the
/// OAuth scopes it needs (`[]` for others).
pub type Requirement = Sp<Entries<Sp<Vec<Sp<String>>>>>;

/// A credential the API takes, as OpenAPI's Security Scheme Object describes it.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct SecurityScheme {
    /// The scheme's name (the key in `securitySchemes`).
    #[schemars(skip)]
    pub name: Sp<String>,
    /// `http` (with `scheme`), `apiKey` (with `in` and `name`), `oauth2` (with `flows`),
    /// `openIdConnect` (with `openIdConnectUrl`) or `mutualTLS`.
    #[schemars(required)]
    pub r#type: Option<Sp<SchemeType>>,
    /// `http`: the authorization scheme, `bearer` or `basic` (others are documented, not sent).
    pub scheme: Option<Sp<String>>,
    /// `http` bearer: how the token is formatted (documentation).
    pub bearer_format: Option<Sp<String>>,
    /// `apiKey`: where the key goes.
    pub r#in: Option<Sp<KeyLocation>>,
    /// `apiKey`: the header, query parameter or cookie name.
    #[schemars(rename = "name")]
    pub param: Option<Sp<String>>,
    /// What it is; emitted as the scheme's description.
    pub desc: Option<Sp<String>>,
    /// `oauth2`: OpenAPI's OAuth Flows Object, emitted as written.
    pub flows: Option<Any>,
    /// `openIdConnect`: the discovery document's URL.
    pub open_id_connect_url: Option<Sp<String>>,
}

/// The kind of a security scheme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
pub enum SchemeType {
    /// `Authorization: Bearer …` or `Basic …`.
    #[schemars(rename = "http")]
    Http,
    /// A key in a header, the query or a cookie.
    #[schemars(rename = "apiKey")]
    ApiKey,
    /// An OAuth 2 access token, sent as a bearer token.
    #[schemars(rename = "oauth2")]
    OAuth2,
    /// An OpenID Connect token, sent as a bearer token.
    #[schemars(rename = "openIdConnect")]
    OpenIdConnect,
    /// A client certificate: documented, never sent by the client.
    #[schemars(rename = "mutualTLS")]
    MutualTls,
}

/// Where an API key, or a parameter that is not in the path, travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
#[schemars(rename_all = "lowercase")]
pub enum KeyLocation {
    /// A request header.
    Header,
    /// A query parameter.
    Query,
    /// A cookie.
    Cookie,
}

/// Whether an omitted `expose` puts endpoints on the tool surfaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
#[schemars(rename_all = "lowercase")]
pub enum ToolExposure {
    /// An omitted `expose` means HTTP, MCP and AGENT.
    Default,
    /// An omitted `expose` means HTTP only.
    Explicit,
}

/// How the tool manifests present a contract's tools.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, JsonSchema)]
#[schemars(rename_all = "lowercase")]
pub enum ToolDiscovery {
    /// One manifest entry per tool.
    #[default]
    List,
    /// Three tools, search, describe and call, over a catalog of every tool.
    Search,
}

/// An HTTP method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, JsonSchema)]
#[schemars(rename_all = "UPPERCASE")]
pub enum Method {
    /// GET
    Get,
    /// HEAD
    Head,
    /// POST
    Post,
    /// PUT
    Put,
    /// PATCH
    Patch,
    /// DELETE
    Delete,
}

impl Method {
    /// The method as written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Head => "HEAD",
            Method::Post => "POST",
            Method::Put => "PUT",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        }
    }
    /// Whether input travels in the query string rather than a body.
    pub fn input_in_query(self) -> bool {
        matches!(self, Method::Get | Method::Head | Method::Delete)
    }
    /// Whether the method carries a request body.
    pub fn has_body(self) -> bool {
        matches!(self, Method::Post | Method::Put | Method::Patch)
    }
}

/// A surface an operation can be served on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, JsonSchema)]
#[schemars(rename_all = "UPPERCASE")]
pub enum Surface {
    /// HTTP, for code: the full answer.
    Http,
    /// MCP `tools/list` and `tools/call`.
    Mcp,
    /// Agent function tools.
    Agent,
    /// The generated command line.
    Cli,
}

/// The surface the runtime serves: one enum each, the parser's carrying its schema for editors.
impl From<Surface> for stitchgen_runtime::Surface {
    fn from(s: Surface) -> Self {
        match s {
            Surface::Http => stitchgen_runtime::Surface::Http,
            Surface::Mcp => stitchgen_runtime::Surface::Mcp,
            Surface::Agent => stitchgen_runtime::Surface::Agent,
            Surface::Cli => stitchgen_runtime::Surface::Cli,
        }
    }
}

impl Surface {
    /// The name as written in contracts (the runtime's, which serves it).
    pub fn as_str(self) -> &'static str {
        stitchgen_runtime::Surface::from(self).as_str()
    }
    /// Whether this is a tool surface (every surface but HTTP).
    pub fn is_tool(self) -> bool {
        self != Surface::Http
    }
}

/// One endpoint: an HTTP route, and a tool unless it says otherwise.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct Endpoint {
    /// The action (the key in `endpoints`).
    #[schemars(skip)]
    pub action: Sp<String>,
    /// HTTP method.
    #[schemars(required)]
    pub method: Option<Sp<Method>>,
    /// Route under basePath; `:id` path params; a terminal `/*rest` wildcard.
    #[schemars(required)]
    pub path: Option<Sp<String>>,
    /// What it does; also the tool description a model reads. Not blank.
    #[schemars(required)]
    pub desc: Option<Sp<String>>,
    /// Scope override for this endpoint.
    pub scope: Option<Sp<String>>,
    /// Path parameters, and the query, header and cookie parameters `paramsIn` places;
    /// inferred as strings from the path when absent.
    pub params: Option<Schema>,
    /// Where each `params` property that is not in the path travels: the query (beside a
    /// body), a header or a cookie, under its own name or the one given.
    pub params_in: Option<Sp<Entries<Sp<ParamIn>>>>,
    /// Query string for GET/DELETE, JSON body otherwise.
    pub input: Option<Schema>,
    /// The full answer; absent means 204 and a handler returning `()`.
    pub output: Option<Schema>,
    /// Surfaces; absent means HTTP, MCP, AGENT (CLI is opt-in).
    pub expose: Option<Sp<Vec<Sp<Surface>>>>,
    /// Documented extra error codes.
    pub errors: Option<Sp<Vec<Sp<String>>>>,
    /// Opaque map; never emitted.
    pub meta: Option<Any>,
    /// Options read only by the tool surfaces.
    pub tool: Option<Sp<ToolGroup>>,
    /// What is documented about the HTTP exchange: a fixed success status, response headers.
    pub http: Option<Sp<HttpGroup>>,
    /// Byte limits of the HTTP exchange, in place of the runtime's defaults.
    pub limits: Option<Sp<Limits>>,
    /// The handler owns the response bytes (HTTP only).
    pub raw_response: Option<Sp<bool>>,
    /// Content type of a raw response.
    pub content_type: Option<Sp<String>>,
    /// Media type of the JSON request body: `application/json` when absent, else a `…+json` type.
    pub input_content_type: Option<Sp<String>>,
    /// The request body may be absent: read as an input with no field (which the input allows).
    pub input_optional: Option<Sp<bool>>,
    /// The handler also gets the raw JSON text of the body (HTTP only).
    pub raw_body: Option<Sp<bool>>,
    /// A file upload (HTTP only).
    pub multipart: Option<Sp<Multipart>>,
    /// A declared success status and response headers (HTTP only).
    pub response_meta: Option<Sp<ResponseMeta>>,
    /// A contract-first NDJSON or SSE stream (HTTP only).
    pub stream: Option<Sp<Stream>>,
    /// What this endpoint asks for, in place of the contract's `security`; `[]`: nothing.
    pub security: Option<Sp<Vec<Requirement>>>,
}

impl Endpoint {
    /// The error answers documented with a body of their own (`http.errors`), by status text.
    pub fn error_answers(&self) -> impl Iterator<Item = (&Sp<String>, &Sp<StatusAnswer>)> {
        self.http.iter().flat_map(|h| h.value.errors.iter()).flat_map(|e| e.value.iter())
    }

    /// The success answers documented beside the main one (`http.successes`), by status text.
    pub fn success_answers(&self) -> impl Iterator<Item = (&Sp<String>, &Sp<StatusAnswer>)> {
        self.http.iter().flat_map(|h| h.value.successes.iter()).flat_map(|e| e.value.iter())
    }

    /// Every answer documented at a status of its own: error answers, then other successes.
    pub fn status_answers(&self) -> impl Iterator<Item = (&Sp<String>, &Sp<StatusAnswer>)> {
        self.error_answers().chain(self.success_answers())
    }
}

/// Where one parameter that is not in the path travels.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct ParamIn {
    /// `query`, `header` or `cookie`.
    #[schemars(rename = "in", required)]
    pub location: Option<Sp<KeyLocation>>,
    /// Its name on the wire (`X-Request-Id`); default: the `params` key.
    pub name: Option<Sp<String>>,
    /// How a query parameter's value is written: `form` (default; a list repeats its name),
    /// `deepObject` (an object, one `name[property]=value` pair per property) or `json` (the
    /// value as one JSON text).
    pub style: Option<Sp<QueryStyle>>,
}

/// How a query parameter's value travels (OpenAPI's `style`, exploded).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, JsonSchema)]
#[schemars(rename_all = "camelCase")]
pub enum QueryStyle {
    /// `name=value`, repeated for each item of a list.
    #[default]
    Form,
    /// `name[property]=value` for each property of an object.
    DeepObject,
    /// `name=` the value as one JSON text (OpenAPI's `content: application/json`): any value.
    Json,
}

/// Options read only by tool surfaces.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolGroup {
    /// Tool name, used verbatim; else derived from service and action.
    pub name: Option<Sp<String>>,
    /// MCP tool annotations.
    pub annotations: Option<Sp<Annotations>>,
    /// UI hints, emitted under `_meta.ui`.
    pub ui: Option<Sp<Ui>>,
    /// The tool answer as a declared view of the HTTP answer.
    pub view: Option<Sp<View>>,
    /// Bytes this tool's definition may take in a manifest; default: the contract's `toolBudget`.
    pub budget: Option<Sp<u64>>,
    /// Options only MCP reads.
    pub mcp: Option<Sp<McpGroup>>,
}

/// Tool options only the MCP surface reads; HTTP, agent and CLI ignore them.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct McpGroup {
    /// What the tool asks the person behind the client before it acts (MCP elicitation), in
    /// order; the handler runs only on their answers.
    pub input_required: Option<Sp<Vec<Sp<InputRequest>>>>,
}

/// One question a tool asks its user before it acts.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct InputRequest {
    /// The name the handler reads the answer by; unique in the tool.
    #[schemars(required)]
    pub key: Option<Sp<String>>,
    /// What the client shows the person.
    #[schemars(required)]
    pub message: Option<Sp<String>>,
    /// The form: a flat object of string, number, integer, boolean or enum properties, as MCP
    /// elicitation allows.
    #[schemars(required)]
    pub schema: Option<Schema>,
}

/// MCP tool annotations.
#[derive(Clone, Debug, Default, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct Annotations {
    /// Human-readable title; also the tool's `title`.
    pub title: Option<Sp<String>>,
    /// The tool does not modify its environment.
    pub read_only_hint: Option<Sp<bool>>,
    /// The tool may perform destructive updates.
    pub destructive_hint: Option<Sp<bool>>,
    /// Repeating a call with the same arguments has no further effect.
    pub idempotent_hint: Option<Sp<bool>>,
    /// The tool interacts with an open world of external entities.
    pub open_world_hint: Option<Sp<bool>>,
}

/// UI hints for MCP clients that render apps.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct Ui {
    /// A `ui://` resource that renders the answer.
    pub resource_uri: Option<Sp<String>>,
    /// Who sees the tool.
    pub visibility: Option<Sp<Vec<Sp<Visibility>>>>,
}

/// Who a tool is visible to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
#[schemars(rename_all = "lowercase")]
pub enum Visibility {
    /// The model.
    Model,
    /// The app.
    App,
}

/// The endpoint's answer on the tool surfaces.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct View {
    /// Values merged into a tool call's arguments before the one parse, for keys the caller omits.
    pub defaults: Option<Sp<Entries<Any>>>,
    /// The view's schema; alone, a slice of the full output.
    pub output: Option<Schema>,
    /// A Rust projection computes the answer from the full output.
    pub project: Option<Sp<bool>>,
}

/// A file upload endpoint.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct Multipart {
    /// File fields by form field name.
    #[schemars(required)]
    pub files: Option<Sp<Entries<Sp<FileField>>>>,
    /// Largest whole request, in bytes.
    pub max_request_bytes: Option<Sp<u64>>,
    /// Largest non-file field, in bytes.
    pub max_field_bytes: Option<Sp<u64>>,
}

/// One file field of a multipart upload.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct FileField {
    /// The field must be present.
    pub required: Option<Sp<bool>>,
    /// The field may carry several files.
    pub multiple: Option<Sp<bool>>,
    /// Most files (with `multiple`).
    pub max_files: Option<Sp<u64>>,
    /// Largest file, in bytes.
    pub max_bytes: Option<Sp<u64>>,
    /// Accepted content types, `type/subtype` or `type/*`.
    pub content_types: Option<Sp<Vec<Sp<String>>>>,
}

/// What is documented about an endpoint's HTTP exchange. Read only by HTTP: the endpoint stays
/// a tool, whose answer is the body.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct HttpGroup {
    /// The success status, 2xx; absent: 200 with `output`, 204 without.
    pub status: Option<Sp<u64>>,
    /// Response headers the handler sets on HTTP, by name.
    pub headers: Option<Sp<Entries<Sp<ResponseHeader>>>>,
    /// Error answers with a body of their own, by status (400–599): what the API documents
    /// beyond the registry's envelope.
    pub errors: Option<Sp<Entries<Sp<StatusAnswer>>>>,
    /// Success answers beside the main one (`status` with `output`), by status (2xx): the
    /// handler answers which one; tool surfaces answer the body.
    pub successes: Option<Sp<Entries<Sp<StatusAnswer>>>>,
}

/// An answer an endpoint documents at a status of its own, with its body: an error answer
/// (`http.errors`; HTTP sends the body as declared, tool surfaces get the registry's envelope
/// with the body in `details`) or a success beside the main one (`http.successes`).
#[derive(Clone, Debug, JsonSchema)]
#[schemars(deny_unknown_fields)]
pub struct StatusAnswer {
    /// What the answer means.
    pub desc: Option<Sp<String>>,
    /// The body's schema; absent: the answer has no body.
    pub body: Option<Schema>,
}

/// Byte limits of one endpoint's HTTP exchange, in place of the runtime's defaults
/// (docs/security.md). Each is held in memory whole, so each bounds what a caller or an origin
/// can make a server hold.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct Limits {
    /// The largest JSON or raw request body the HTTP adapter reads (default 2 MiB).
    pub max_body_bytes: Option<Sp<u64>>,
    /// The largest success answer a client of this endpoint reads: a remote service, the gateway
    /// (default 16 MiB).
    pub max_answer_bytes: Option<Sp<u64>>,
}

/// A success status and response headers the handler chooses per call (HTTP only).
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResponseMeta {
    /// The success status, 2xx.
    #[schemars(required)]
    pub status: Option<Sp<u64>>,
    /// Response headers the handler sets, by name.
    pub headers: Option<Sp<Entries<Sp<ResponseHeader>>>>,
}

/// One declared response header.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResponseHeader {
    /// What the header carries.
    pub desc: Option<Sp<String>>,
    /// The handler always sets it.
    pub required: Option<Sp<bool>>,
}

/// A contract-first stream.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct Stream {
    /// Schema of one item.
    #[schemars(required)]
    pub item: Option<Schema>,
    /// `ndjson` (default) or `sse`.
    pub format: Option<Sp<StreamFormat>>,
    /// `envelope` (default) or `item`.
    pub framing: Option<Sp<Framing>>,
    /// `stream-end` (default) or `terminal`.
    pub completion: Option<Sp<Completion>>,
    /// Schema of the terminal frame (with `completion: terminal`).
    pub terminal: Option<Schema>,
    /// Largest frame, in bytes.
    pub max_frame_bytes: Option<Sp<u64>>,
    /// Heartbeat interval, in milliseconds.
    pub heartbeat_ms: Option<Sp<u64>>,
    /// Longest stream, in milliseconds.
    pub lifetime_ms: Option<Sp<u64>>,
    /// Longest silence before the stream is closed, in seconds.
    pub idle_timeout_seconds: Option<Sp<u64>>,
}

/// Wire format of a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
#[schemars(rename_all = "lowercase")]
pub enum StreamFormat {
    /// Newline-delimited JSON.
    Ndjson,
    /// Server-sent events.
    Sse,
}

impl StreamFormat {
    /// The media type of a stream of this format.
    pub fn media(self) -> &'static str {
        match self {
            StreamFormat::Ndjson => "application/x-ndjson",
            StreamFormat::Sse => "text/event-stream",
        }
    }
}

/// How stream frames are wrapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
#[schemars(rename_all = "lowercase")]
pub enum Framing {
    /// Each frame is an envelope around an item.
    Envelope,
    /// Each frame is a bare item.
    Item,
}

/// How a stream says it is done.
#[derive(Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
#[schemars(rename_all = "kebab-case")]
pub enum Completion {
    /// The stream ends.
    StreamEnd,
    /// A terminal frame ends it.
    Terminal,
}

/// A pathless operation served on tool transports through the same runner.
#[derive(Clone, Debug, JsonSchema)]
#[schemars(rename_all = "camelCase", deny_unknown_fields)]
pub struct RuntimeTool {
    /// The tool name (the key in `tools`).
    #[schemars(skip)]
    pub name: Sp<String>,
    /// Identity action; default: the tool name.
    pub action: Option<Sp<String>>,
    /// What it does; the description a model reads. Not blank.
    #[schemars(required)]
    pub desc: Option<Sp<String>>,
    /// An object schema.
    pub input: Option<Schema>,
    /// The answer.
    pub output: Option<Schema>,
    /// Tool transports; default `[MCP, AGENT]`; CLI is opt-in.
    pub transports: Option<Sp<Vec<Sp<Surface>>>>,
    /// MCP tool annotations.
    pub annotations: Option<Sp<Annotations>>,
    /// Presenter hooks to generate.
    pub present: Option<Sp<Vec<Sp<Presenter>>>>,
    /// Bytes this tool's definition may take in a manifest; default: the contract's `toolBudget`.
    pub budget: Option<Sp<u64>>,
}

/// A transport with a presenter hook.
#[derive(Clone, Copy, Debug, PartialEq, Eq, JsonSchema)]
#[schemars(rename_all = "lowercase")]
pub enum Presenter {
    /// MCP: content blocks and `_meta`.
    Mcp,
    /// Agent: what the model reads.
    Agent,
}
