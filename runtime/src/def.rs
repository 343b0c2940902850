//! Static descriptions of operations, emitted by the generator.

/// A surface an operation is served on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
// Exhaustive on purpose: the generator writes and matches every variant (a new one is a
// new `GENERATED_ABI`), so a variant it does not know cannot compile.
pub enum Surface {
    /// HTTP: full answers.
    Http,
    /// MCP tools.
    Mcp,
    /// Agent function tools.
    Agent,
    /// The command line.
    Cli,
}

impl Surface {
    /// Every surface, in the order a contract's `expose` lists them: what most operations are on.
    pub const ALL: &'static [Surface] = &[Surface::Http, Surface::Mcp, Surface::Agent, Surface::Cli];

    /// Whether this is a tool surface (views apply).
    pub fn is_tool(self) -> bool {
        self != Surface::Http
    }

    /// The surface as contracts write it: `HTTP`, `MCP`, `AGENT`, `CLI`.
    pub fn as_str(self) -> &'static str {
        match self {
            Surface::Http => "HTTP",
            Surface::Mcp => "MCP",
            Surface::Agent => "AGENT",
            Surface::Cli => "CLI",
        }
    }
}

/// Endpoint or runtime tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// Exhaustive on purpose: the generator writes and matches every variant (a new one is a
// new `GENERATED_ABI`), so a variant it does not know cannot compile.
pub enum OpKind {
    /// A contract endpoint.
    Contract,
    /// A runtime (pathless) tool.
    Runtime,
}

/// One operation, as the contract declared it.
#[derive(Debug)]
pub struct OperationDef {
    /// Service name.
    pub service: &'static str,
    /// Identity action.
    pub action: &'static str,
    /// Endpoint or runtime tool.
    pub kind: OpKind,
    /// `desc`.
    pub description: &'static str,
    /// HTTP method, when routed.
    pub method: Option<&'static str>,
    /// HTTP path (`/users/:id`), when routed.
    pub path: Option<&'static str>,
    /// The scope (`public` when none is declared).
    pub scope: &'static str,
    /// Surfaces it is served on.
    pub surfaces: &'static [Surface],
    /// Tool name, when on a tool surface.
    pub tool_name: Option<&'static str>,
    /// MCP annotations as JSON text.
    pub annotations: Option<&'static str>,
    /// Argument keys that are parameters (of the path, or placed by `paramsIn`), not input.
    pub param_keys: &'static [&'static str],
    /// The parameters that travel outside the path (`paramsIn`), in declaration order.
    pub params_in: &'static [ParamIn],
    /// The request body may be absent (`inputOptional`): read as an input with no field.
    pub input_optional: bool,
    /// Params schema, standalone JSON text.
    pub params_schema: Option<&'static str>,
    /// Input schema, standalone JSON text.
    pub input_schema: Option<&'static str>,
    /// Full output schema, standalone JSON text.
    pub output_schema: Option<&'static str>,
    /// The tool view.
    pub view: Option<ViewDef>,
    /// What a tool surface advertises as input: params and input merged into one object
    /// schema, view defaults stated (standalone JSON text). The CLI builds its flags from it.
    pub tool_input_schema: Option<&'static str>,
    /// The key a tool answer is wrapped under on every tool surface (`{"items": [...]}`,
    /// `{"value": …}`): a non-object answer, for an MCP target whose answers are objects.
    pub wrap: Option<&'static str>,
    /// What an HTTP-only kind adds to the route.
    pub http_kind: HttpKindDef,
    /// The error codes the contract declares the operation answers (`NOT_FOUND`, an
    /// application code), in declaration order.
    pub errors: &'static [&'static str],
    /// The error answers the contract documents with a body of their own (`http.errors`), by
    /// status: HTTP sends such an answer's body as it is ([`crate::AppError::answer`]).
    pub error_answers: &'static [AnswerDef],
    /// The success answers the contract documents beside the main one (`http.successes`), by
    /// status: the handler answers which one, and HTTP sends it at its status.
    pub success_answers: &'static [AnswerDef],
    /// What its requests carry (the contract's `security`): alternatives, each the credentials
    /// sent together. Empty: none asked for. A client sends the first alternative it holds
    /// every credential of.
    pub security: &'static [&'static [Credential]],
    /// The contract's byte limits for this endpoint (`limits`), in place of the defaults.
    pub limits: LimitsDef,
    /// The parameters as text is read into them (path segments, query, headers, cookies).
    pub param_fields: &'static [FieldDef],
    /// The input's fields as text is read into them, where the input arrives as text (the
    /// query of GET, HEAD and DELETE; an upload's other form fields).
    pub input_fields: &'static [FieldDef],
    /// The CLI's flags: path parameters, then input fields, the view's defaults stated.
    pub tool_fields: &'static [FieldDef],
    /// What the tool asks its user on MCP before the handler runs (`tool.mcp.inputRequired`),
    /// in order. Other surfaces never ask.
    pub input_required: &'static [InputRequiredDef],
}

/// A parameter in one segment of a route as the generator writes it: `:name`, `*name` (the
/// rest of the path), or `PREFIX{name}SUFFIX` (literal text around it, `{sid}.json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PathParam<'a> {
    pub(crate) name: &'a str,
    pub(crate) wildcard: bool,
    pub(crate) prefix: &'a str,
    pub(crate) suffix: &'a str,
}

/// The parameter `segment` holds, if it holds one.
pub(crate) fn path_param(segment: &str) -> Option<PathParam<'_>> {
    let whole = |name, wildcard| PathParam { name, wildcard, prefix: "", suffix: "" };
    if let Some(name) = segment.strip_prefix(':') {
        return Some(whole(name, false));
    }
    if let Some(name) = segment.strip_prefix('*') {
        return Some(whole(name, true));
    }
    let (prefix, rest) = segment.split_once('{')?;
    let (name, suffix) = rest.split_once('}')?;
    Some(PathParam { name, wildcard: false, prefix, suffix })
}

/// One question a tool asks its user before it acts (MCP elicitation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputRequiredDef {
    /// The key the handler reads the answer by ([`crate::Ctx::answer`]).
    pub key: &'static str,
    /// What the client shows the person.
    pub message: &'static str,
    /// The form, MCP's `requestedSchema`, as JSON text.
    pub schema: &'static str,
}

/// One field of an argument object that arrives as text (a path segment, a query pair, a form
/// field, a flag), as the generator resolved its schema (through `$ref`, `allOf`, type lists and
/// unions of scalars). The adapters read text by this alone; validation then judges the value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldDef {
    /// The property name.
    pub name: &'static str,
    /// The JSON types a value may take, in the order text is tried against them; empty: any
    /// value, read as text.
    pub types: &'static [&'static str],
    /// For an array: its items' types.
    pub items: &'static [&'static str],
    /// The values it (an array: each item) may take, when they are an enum of strings: what
    /// the CLI offers for completion and help. Empty otherwise.
    pub values: &'static [&'static str],
    /// Whether the object requires it.
    pub required: bool,
    /// Its default, as JSON text.
    pub default: Option<&'static str>,
    /// Its description (empty when none).
    pub description: &'static str,
}

impl FieldDef {
    /// Whether the field takes several values (`?tag=a&tag=b`, a repeated flag).
    pub fn repeats(&self) -> bool {
        self.types.contains(&"array")
    }
}

/// A credential a request carries, named by its scheme in the contract's `securitySchemes`; the
/// value comes from the client's settings under that name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// Exhaustive on purpose: the generator writes and matches every variant (a new one is a
// new `GENERATED_ABI`), so a variant it does not know cannot compile.
pub enum Credential {
    /// `Authorization: Bearer VALUE` (HTTP bearer, OAuth 2, OpenID Connect).
    Bearer(&'static str),
    /// `Authorization: Basic …` of VALUE written `user:password`.
    Basic(&'static str),
    /// An API key in the header named second.
    Header(&'static str, &'static str),
    /// An API key in the query parameter named second.
    Query(&'static str, &'static str),
    /// An API key in the cookie named second.
    Cookie(&'static str, &'static str),
}

/// A parameter that travels outside the path (the contract's `paramsIn`): its key among the
/// arguments first, its name on the wire second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// Exhaustive on purpose: the generator writes and matches every variant (a new one is a
// new `GENERATED_ABI`), so a variant it does not know cannot compile.
pub enum ParamIn {
    /// In the query string, beside the body or the query input (repeated for a list).
    Query(&'static str, &'static str),
    /// An object in the query string, one `name[property]=value` pair per property (OpenAPI's
    /// `style: deepObject`; a list property repeats its pair), each property read by its field.
    DeepObject(&'static str, &'static str, &'static [FieldDef]),
    /// In the query string as one JSON text (`filters=[{"scope":"global"}]`, OpenAPI's
    /// `content: application/json`): any value, read whole.
    QueryJson(&'static str, &'static str),
    /// A request header (its name matched in any case).
    Header(&'static str, &'static str),
    /// A cookie.
    Cookie(&'static str, &'static str),
}

impl ParamIn {
    /// The parameter's key among the arguments (a property of `params`).
    pub fn key(self) -> &'static str {
        match self {
            ParamIn::Query(k, _)
            | ParamIn::DeepObject(k, ..)
            | ParamIn::QueryJson(k, _)
            | ParamIn::Header(k, _)
            | ParamIn::Cookie(k, _) => k,
        }
    }

    /// Its name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            ParamIn::Query(_, n)
            | ParamIn::DeepObject(_, n, _)
            | ParamIn::QueryJson(_, n)
            | ParamIn::Header(_, n)
            | ParamIn::Cookie(_, n) => n,
        }
    }
}

impl Credential {
    /// The scheme's name in the contract, under which the client holds its value.
    pub fn scheme(self) -> &'static str {
        match self {
            Credential::Bearer(s) | Credential::Basic(s) => s,
            Credential::Header(s, _) | Credential::Query(s, _) | Credential::Cookie(s, _) => s,
        }
    }
}

impl OperationDef {
    /// An operation with nothing declared: no method, path, tool name, annotations, parameter
    /// keys, schemas, view or wrapping, and no HTTP-only kind; served nowhere. Generated
    /// definitions write what the contract declares and take the rest from here
    /// (`..OperationDef::EMPTY`).
    pub const EMPTY: OperationDef = OperationDef {
        service: "",
        action: "",
        kind: OpKind::Contract,
        description: "",
        method: None,
        path: None,
        scope: "",
        surfaces: &[],
        tool_name: None,
        annotations: None,
        param_keys: &[],
        params_in: &[],
        input_optional: false,
        params_schema: None,
        input_schema: None,
        output_schema: None,
        view: None,
        tool_input_schema: None,
        wrap: None,
        errors: &[],
        error_answers: &[],
        success_answers: &[],
        security: &[],
        http_kind: HttpKindDef::PLAIN,
        limits: LimitsDef::NONE,
        param_fields: &[],
        input_fields: &[],
        tool_fields: &[],
        input_required: &[],
    };

    /// Whether the operation is served on `surface`.
    pub fn on(&self, surface: Surface) -> bool {
        self.surfaces.contains(&surface)
    }
}

/// An answer an operation documents at a status of its own, with its body: an error answer
/// (`http.errors`, 400–599) or a success beside the main one (`http.successes`, 2xx).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AnswerDef {
    /// Its status.
    pub status: u16,
    /// What it means, when documented.
    pub description: Option<&'static str>,
    /// Its body's schema, standalone JSON text; `None`: the answer has no body.
    pub schema: Option<&'static str>,
}

impl OperationDef {
    /// The error answer documented at `status`, if any.
    pub fn error_answer(&self, status: u16) -> Option<&AnswerDef> {
        self.error_answers.iter().find(|a| a.status == status)
    }

    /// The success answer documented at `status` beside the main one (`http.successes`), if any.
    pub fn success_answer(&self, status: u16) -> Option<&AnswerDef> {
        self.success_answers.iter().find(|a| a.status == status)
    }

    /// The status of the main JSON success answer: the declared one (`http.status`,
    /// `responseMeta.status`), else 200 with an answer and 204 without.
    pub fn main_status(&self) -> u16 {
        self.http_kind.status.unwrap_or(implied_status(self.output_schema.is_some()))
    }
}

/// The status of a main success answer its contract does not declare: 200 with an answer
/// (`output`), 204 without. The generator, its checks and the adapters all read it here.
pub const fn implied_status(has_output: bool) -> u16 {
    if has_output { 200 } else { 204 }
}

/// An endpoint's declared byte limits (`limits`); `None`: the adapter's or client's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LimitsDef {
    /// The largest JSON or raw request body the HTTP adapter reads.
    pub max_body_bytes: Option<u64>,
    /// The largest success answer a client reads.
    pub max_answer_bytes: Option<u64>,
}

impl LimitsDef {
    /// No limit declared.
    pub const NONE: LimitsDef = LimitsDef { max_body_bytes: None, max_answer_bytes: None };
}

/// The HTTP-only kinds an endpoint declares (DESIGN §3: `rawResponse`, `rawBody`, `multipart`,
/// `responseMeta`, `stream`); [`HttpKindDef::PLAIN`] for an ordinary JSON endpoint.
#[derive(Debug)]
pub struct HttpKindDef {
    /// `rawResponse: true`: the handler owns the response bytes.
    pub raw_response: bool,
    /// The declared `contentType` of a raw response.
    pub content_type: Option<&'static str>,
    /// `rawBody: true`: the handler also gets the request body's text.
    pub raw_body: bool,
    /// `inputContentType`: the body's declared media type, when not `application/json`: a
    /// `…+json` type, or `application/x-www-form-urlencoded` (a form of the input's fields).
    pub input_content_type: Option<&'static str>,
    /// A file upload.
    pub multipart: Option<MultipartDef>,
    /// `http.status` or `responseMeta.status`: the declared success status.
    pub status: Option<u16>,
    /// `http.headers` or `responseMeta.headers`: the response headers the handler may set.
    pub headers: &'static [HeaderDef],
    /// A stream of items.
    pub stream: Option<StreamDef>,
}

impl HttpKindDef {
    /// Whether the body is a form (`application/x-www-form-urlencoded`): the input's fields as
    /// text pairs, read and written as a query string is.
    pub fn form_body(&self) -> bool {
        self.input_content_type.is_some_and(|t| {
            t.split(';').next().is_some_and(|e| e.trim().eq_ignore_ascii_case("application/x-www-form-urlencoded"))
        })
    }

    /// An ordinary JSON endpoint.
    pub const PLAIN: HttpKindDef = HttpKindDef {
        raw_response: false,
        content_type: None,
        raw_body: false,
        input_content_type: None,
        multipart: None,
        status: None,
        headers: &[],
        stream: None,
    };
}

/// A declared response header.
#[derive(Debug)]
pub struct HeaderDef {
    /// Its name, as declared.
    pub name: &'static str,
    /// Whether every success answer carries it.
    pub required: bool,
}

/// A multipart upload's fields and limits.
#[derive(Debug)]
pub struct MultipartDef {
    /// The file fields.
    pub files: &'static [FileFieldDef],
    /// Largest request, in bytes.
    pub max_request_bytes: Option<u64>,
    /// Largest non-file field, in bytes.
    pub max_field_bytes: Option<u64>,
}

/// One file field of an upload.
#[derive(Debug)]
pub struct FileFieldDef {
    /// The form field name.
    pub name: &'static str,
    /// Must be present.
    pub required: bool,
    /// May carry several files.
    pub multiple: bool,
    /// Most files (with `multiple`).
    pub max_files: Option<u64>,
    /// Largest file, in bytes.
    pub max_bytes: Option<u64>,
    /// Accepted content types (`type/subtype` or `type/*`); empty: any.
    pub content_types: &'static [&'static str],
}

impl FileFieldDef {
    /// Whether a file of `content_type` is accepted.
    pub fn accepts(&self, content_type: &str) -> bool {
        let essence = content_type.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        self.content_types.is_empty()
            || self.content_types.iter().any(|t| match t.strip_suffix("/*") {
                Some(kind) => essence.split('/').next() == Some(&kind.to_ascii_lowercase()),
                None => essence == t.to_ascii_lowercase(),
            })
    }
}

/// A stream's wire format and limits.
#[derive(Debug)]
pub struct StreamDef {
    /// NDJSON or server-sent events.
    pub format: StreamFormat,
    /// Each frame wraps its value (`envelope`), or is the bare item (`item`).
    pub envelope: bool,
    /// The stream ends with a terminal frame (`completion: terminal`).
    pub terminal: bool,
    /// Schema of one item, standalone JSON text.
    pub item_schema: &'static str,
    /// Schema of the terminal frame, standalone JSON text.
    pub terminal_schema: Option<&'static str>,
    /// Largest frame, in bytes.
    pub max_frame_bytes: Option<u64>,
    /// Heartbeat interval, in milliseconds.
    pub heartbeat_ms: Option<u64>,
    /// Longest stream, in milliseconds.
    pub lifetime_ms: Option<u64>,
    /// Longest silence between items before the stream is closed, in seconds.
    pub idle_timeout_seconds: Option<u64>,
}

/// The wire format of a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
// Exhaustive on purpose: the generator writes and matches every variant (a new one is a
// new `GENERATED_ABI`), so a variant it does not know cannot compile.
pub enum StreamFormat {
    /// `application/x-ndjson`: one JSON value per line.
    Ndjson,
    /// `text/event-stream`: one JSON value per event.
    Sse,
}

/// A tool view.
#[derive(Debug)]
pub struct ViewDef {
    /// Defaults as a JSON object text.
    pub defaults: &'static str,
    /// The view's schema, standalone JSON text.
    pub output_schema: Option<&'static str>,
    /// Whether a projection computes the answer.
    pub project: bool,
    /// The field copies of a slice (no projection).
    pub slice: Option<&'static SlicePlan>,
}

impl ViewDef {
    /// A view with no defaults (`{}`), no schema of its own, no projection and no slice: generated
    /// views write what the contract declares and take the rest from here (`..ViewDef::EMPTY`).
    pub const EMPTY: ViewDef = ViewDef { defaults: "{}", output_schema: None, project: false, slice: None };
}

/// The field copies that turn a full answer into a slice view.
#[derive(Debug)]
// Exhaustive on purpose: the generator writes and matches every variant (a new one is a
// new `GENERATED_ABI`), so a variant it does not know cannot compile.
pub enum SlicePlan {
    /// Copy the value as it is.
    Keep,
    /// Copy these keys of an object, each by its own plan; drop every other key.
    Object(&'static [(&'static str, SlicePlan)]),
    /// Apply the plan to every item of an array.
    Array(&'static SlicePlan),
}

impl SlicePlan {
    /// Applies the plan, moving out of `full` (no copy of what is kept).
    pub fn apply(&self, full: serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match (self, full) {
            (SlicePlan::Object(fields), Value::Object(mut map)) => {
                let mut out = serde_json::Map::with_capacity(fields.len());
                for (key, plan) in *fields {
                    if let Some(v) = map.remove(*key) {
                        out.insert((*key).to_owned(), plan.apply(v));
                    }
                }
                Value::Object(out)
            }
            (SlicePlan::Array(plan), Value::Array(items)) => {
                Value::Array(items.into_iter().map(|i| plan.apply(i)).collect())
            }
            (_, v) => v,
        }
    }
}
