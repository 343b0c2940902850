//! [`HttpClient`]: a typed client's calls sent on the wire the axum adapter reads, and each answer
//! read back, the error envelope into its registry code.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Map, Value};

use super::{ClientError, MAX_KEPT_BODY, Request, Transport};
use crate::def::{AnswerDef, Credential, OperationDef};
use crate::error::{AppError, HttpErrorEnvelope};
use crate::http::{HttpPayload, RawResponse, Upload};
use crate::runner::{BoxFuture, HttpAnswer};

/// The HTTP transport of typed clients: a server's base URL, credentials and plumbing.
/// `people::Client::new(HttpClient::new("http://127.0.0.1:8080").bearer(token))`. Cheap to clone.
#[derive(Clone)]
pub struct HttpClient {
    base: Arc<str>,
    http: reqwest::Client,
    headers: Vec<(String, String)>,
    query: Vec<(String, String)>,
    /// Credentials by the contract's scheme name, attached per operation as it asks.
    credentials: BTreeMap<String, String>,
    timeout: Duration,
    /// The largest success answer read (see [`HttpClient::max_answer_bytes`]).
    max_answer: u64,
    /// With validation on, each operation's schemas compiled once, by the address of its definition.
    checks: Option<Arc<Mutex<CheckCache>>>,
    /// The body schemas of answers documented at statuses of their own (errors, and successes
    /// beside the main one), compiled once each, by the address of the operation's definition
    /// and the status: whether validation is on or not, an origin's error is read as the
    /// documented answer only when its body is the documented body.
    answers: Arc<Mutex<AnswerCache>>,
}

/// Each operation's compiled schemas, by the address of its (static) definition.
type CheckCache = BTreeMap<usize, Arc<Checks>>;

/// Each answer's compiled body schema (`None`: no body), by definition and status.
type AnswerCache = BTreeMap<(usize, u16), Arc<Option<jsonschema::Validator>>>;

impl std::fmt::Debug for HttpClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpClient").field("base", &self.base).field("validate", &self.checks.is_some()).finish()
    }
}

impl HttpClient {
    /// A server at `base_url` (`http://127.0.0.1:8080`, or with a path prefix): routes are
    /// appended to it. No credentials, no validation; the default timeout
    /// ([`super::DEFAULT_TIMEOUT`]) and answer limit ([`super::MAX_ANSWER_BYTES`]).
    pub fn new(base_url: impl AsRef<str>) -> Self {
        HttpClient {
            base: base_url.as_ref().trim_end_matches('/').into(),
            http: reqwest::Client::new(),
            headers: Vec::new(),
            query: Vec::new(),
            credentials: BTreeMap::new(),
            timeout: super::DEFAULT_TIMEOUT,
            max_answer: super::MAX_ANSWER_BYTES,
            checks: None,
            answers: Arc::default(),
        }
    }

    /// Sends `Authorization: Bearer TOKEN` with every request but those that forward their
    /// caller's own.
    #[must_use]
    pub fn bearer(self, token: impl std::fmt::Display) -> Self {
        self.header("Authorization", format!("Bearer {token}"))
    }

    /// Sends header `name: value` with every request. A call that forwards its caller's
    /// `Authorization` ([`crate::Ctx::forwarding`]) still carries it, unless it is
    /// `Authorization`, `Cookie` or `Proxy-Authorization`: hold a credential with
    /// [`HttpClient::credential`], which such a call leaves out.
    #[must_use]
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    /// Adds `name=value` to the query string of every request, forwarded calls included: hold a
    /// credential with [`HttpClient::credential`] instead.
    #[must_use]
    pub fn query(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.query.push((name.into(), value.into()));
        self
    }

    /// Holds `value` for the contract's security scheme `scheme`: each operation that asks for
    /// the scheme (its `security`, else the contract's) sends it as the scheme says: a bearer
    /// token, `user:password` for basic, an API key in its header, query parameter or cookie.
    /// An operation is sent with the first of its alternatives whose every credential is held;
    /// a call that forwards its caller's `Authorization` with none.
    #[must_use]
    pub fn credential(mut self, scheme: impl Into<String>, value: impl Into<String>) -> Self {
        self.credentials.insert(scheme.into(), value.into());
        self
    }

    /// The credentials `op` is sent with: its first alternative whose every credential is held.
    fn chosen(&self, op: &OperationDef) -> Vec<(Credential, &str)> {
        let held = |c: &Credential| self.credentials.get(c.scheme()).map(|v| (*c, v.as_str()));
        // An empty alternative (`{}`: anonymous allowed) sends nothing; one held beside it wins.
        op.security
            .iter()
            .filter(|alternative| !alternative.is_empty())
            .find_map(|alternative| alternative.iter().map(held).collect::<Option<Vec<_>>>())
            .unwrap_or_default()
    }

    /// Gives up on a call after `timeout` ([`ClientError::Timeout`]); a stream's, when its
    /// answer has not begun by then. Default [`super::DEFAULT_TIMEOUT`].
    #[must_use]
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Refuses a success answer (JSON or raw) larger than `bytes` ([`ClientError::TooLarge`]),
    /// without reading past it. Default [`super::MAX_ANSWER_BYTES`]; an operation whose contract
    /// declares `limits.maxAnswerBytes` has that one, and a stream's frames their own limit.
    #[must_use]
    pub fn max_answer_bytes(mut self, bytes: u64) -> Self {
        self.max_answer = bytes;
        self
    }

    /// Validates the arguments before sending and the answer on return, against the
    /// contract's schemas compiled as the runner compiles them (once per operation).
    #[must_use]
    pub fn validate(mut self, on: bool) -> Self {
        self.checks = on.then(Default::default);
        self
    }

    /// Sends through `http`: one's own connection pool, proxy and TLS settings.
    #[must_use]
    pub fn http_client(mut self, http: reqwest::Client) -> Self {
        self.http = http;
        self
    }

    /// The compiled schemas of `op`, when validation is on.
    fn checks(&self, op: &'static OperationDef, types: &'static str) -> Option<Arc<Checks>> {
        let cache = self.checks.as_ref()?;
        let key = std::ptr::from_ref(op) as usize;
        let mut cache = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let checks = cache.entry(key).or_insert_with(|| {
            let types = crate::runner::registry(types);
            let compile = |schema, what| crate::runner::compile(schema, what, op, &types);
            Arc::new(Checks {
                params: compile(op.params_schema, "params"),
                input: compile(op.input_schema, "input"),
                output: compile(op.output_schema, "output"),
            })
        });
        Some(checks.clone())
    }

    async fn run(&self, request: Request) -> Result<HttpAnswer, ClientError> {
        let op = request.op;
        let checks = self.checks(op, request.types);
        if let Some(checks) = &checks {
            check_arguments(checks, &request)?;
        }
        let send = self.request(&request)?.send();
        let response = match op.http_kind.stream {
            // A stream's answer may last: the timeout bounds its start, not its length.
            Some(_) => tokio::time::timeout(self.timeout, send).await.map_err(|_| ClientError::Timeout)?,
            None => send.await,
        }
        .map_err(transport)?;
        let status = response.status().as_u16();
        if !(200..300).contains(&status) {
            let retry_after = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_owned);
            let body = bounded(response, super::MAX_ERROR_BODY_BYTES, Overflow::Cut).await?;
            let documented = self.documented(op, request.types, status, &body);
            return Err(failure(documented, status, &body, retry_after));
        }
        // A success documented beside the main one (`http.successes`), read with its own schema.
        let other = op.success_answer(status).map(|answer| Other {
            answer,
            check: checks.is_some().then(|| self.answer_schema(op, request.types, answer, "success answer")),
        });
        let max_answer = op.limits.max_answer_bytes.unwrap_or(self.max_answer);
        read_success(op, response, checks.as_deref(), other, max_answer).await
    }

    fn request(&self, request: &Request) -> Result<reqwest::RequestBuilder, ClientError> {
        let def = request.op;
        let (method, path) = (def.method.unwrap_or("GET"), def.path.unwrap_or("/"));
        // Whatever else the caller checked: a request never leaves its route.
        crate::validation::path_segments(def, &request.params).map_err(ClientError::Invalid)?;
        let mut url = format!("{}{}", self.base, crate::wire::path(path, &request.params));
        let queried = crate::wire::queried(method) && def.http_kind.input_content_type.is_none();
        let mut query: Vec<(String, String)> = self.query.clone();
        // A call that carries its caller's own credential carries none of this client's: the
        // origin judges the caller, never the caller beside the operator.
        let forwarded = request.headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("authorization"));
        let credentials = if forwarded { Vec::new() } else { self.chosen(def) };
        for (c, value) in &credentials {
            if let Credential::Query(_, name) = c {
                query.push(((*name).to_owned(), (*value).to_owned()));
            }
        }
        let placed = crate::wire::placed(def.params_in, &request.params).map_err(ClientError::Invalid)?;
        query.extend(placed.query);
        if queried {
            query.extend(crate::wire::query_pairs(&request.input));
        }
        if !query.is_empty() {
            url = format!("{url}?{}", crate::wire::query_string(query));
        }
        let method = reqwest::Method::from_bytes(method.as_bytes())
            .map_err(|e| ClientError::Transport(format!("method `{method}`: {e}")))?;
        let mut builder = self.http.request(method, url);
        if let Some(accept) = accept(def) {
            // What the answer is read as: an origin that can answer in several media types
            // (JSON, YAML, CBOR) picks this one. Set before the caller's own headers, which win.
            builder = builder.header(reqwest::header::ACCEPT, accept);
        }
        let mut replaced: Vec<&str> = credentials.iter().filter_map(|(c, _)| header_name(*c)).collect();
        if forwarded {
            replaced.extend(CREDENTIAL_HEADERS);
        }
        for (name, value) in self.headers.iter().filter(|(n, _)| !replaced.iter().any(|r| r.eq_ignore_ascii_case(n))) {
            builder = builder.header(name, value);
        }
        for (name, value) in &placed.headers {
            builder = builder.header(*name, value.as_str());
        }
        builder = attach(builder, &credentials, &placed.cookies);
        if !request.headers.is_empty() {
            // In place of the transport's own header of the same name, not beside it.
            let mut own = reqwest::header::HeaderMap::new();
            for (name, value) in &request.headers {
                let name = reqwest::header::HeaderName::from_bytes(name.as_bytes())
                    .map_err(|e| ClientError::Transport(format!("header `{name}`: {e}")))?;
                let value = reqwest::header::HeaderValue::from_str(value)
                    .map_err(|e| ClientError::Transport(format!("header `{name}`: {e}")))?;
                own.insert(name, value);
            }
            builder = builder.headers(own);
        }
        if def.http_kind.stream.is_none() {
            builder = builder.timeout(self.timeout);
        }
        if queried {
            return Ok(builder);
        }
        let media = def.http_kind.input_content_type.unwrap_or("application/json");
        Ok(if def.http_kind.multipart.is_some() {
            builder.multipart(form(&request.input, request.upload.clone().unwrap_or_default())?)
        } else if let Some(raw) = &request.raw_body {
            builder.header(reqwest::header::CONTENT_TYPE, media).body(raw.0.clone())
        } else if def.input_optional && request.input.is_null() {
            // An optional body the caller left out (`None`) is not sent.
            builder
        } else if def.input_schema.is_some() && def.http_kind.form_body() {
            let body = crate::wire::query_string(crate::wire::query_pairs(&request.input));
            builder.header(reqwest::header::CONTENT_TYPE, media).body(body)
        } else if def.input_schema.is_some() {
            let body = serde_json::to_vec(&request.input).map_err(|e| ClientError::Decode(e.to_string()))?;
            builder.header(reqwest::header::CONTENT_TYPE, media).body(body)
        } else {
            builder
        })
    }
}

impl Transport for HttpClient {
    fn call(&self, request: Request) -> BoxFuture<'_, Result<HttpAnswer, ClientError>> {
        Box::pin(self.run(request))
    }
}

/// The default headers that are credentials whatever the contract says: a forwarded call sends
/// none of them.
const CREDENTIAL_HEADERS: [&str; 3] = ["authorization", "cookie", "proxy-authorization"];

/// The header a credential is sent in, if it is sent in one.
fn header_name(c: Credential) -> Option<&'static str> {
    match c {
        Credential::Bearer(_) | Credential::Basic(_) => Some("authorization"),
        Credential::Header(_, name) => Some(name),
        Credential::Cookie(..) => Some("cookie"),
        Credential::Query(..) => None,
    }
}

/// The header credentials on a request (in place of a default header of the same name), before
/// the caller's own headers: a forwarded `Authorization` wins. Cookie parameters share the one
/// `Cookie` header with cookie credentials.
fn attach(
    mut builder: reqwest::RequestBuilder,
    credentials: &[(Credential, &str)],
    params: &[(&str, String)],
) -> reqwest::RequestBuilder {
    let mut cookies: Vec<String> = params.iter().map(|(name, value)| format!("{name}={value}")).collect();
    for (c, value) in credentials {
        builder = match c {
            Credential::Bearer(_) => builder.bearer_auth(value),
            Credential::Basic(_) => match value.split_once(':') {
                Some((user, password)) => builder.basic_auth(user, Some(password)),
                None => builder.basic_auth(value, None::<&str>),
            },
            Credential::Header(_, name) => builder.header(*name, *value),
            Credential::Cookie(_, name) => {
                cookies.push(format!("{name}={value}"));
                builder
            }
            Credential::Query(..) => builder,
        };
    }
    if !cookies.is_empty() {
        builder = builder.header(reqwest::header::COOKIE, cookies.join("; "));
    }
    builder
}

/// The media type an operation's answer is read as, for `Accept`: a stream's framing, a raw
/// response's declared type, JSON; none when there is no answer to read.
fn accept(def: &OperationDef) -> Option<&'static str> {
    let kind = &def.http_kind;
    match &kind.stream {
        Some(s) if s.format == crate::def::StreamFormat::Sse => Some("text/event-stream"),
        Some(_) => Some("application/x-ndjson"),
        None if kind.raw_response => kind.content_type,
        None if def.success_answers.iter().any(|a| a.schema.is_some()) => Some("application/json"),
        None => def.output_schema.map(|_| "application/json"),
    }
}

/// The validators of one operation.
struct Checks {
    params: Option<jsonschema::Validator>,
    input: Option<jsonschema::Validator>,
    output: Option<jsonschema::Validator>,
}

/// The arguments against the operation's schemas, as the runner judges them; a raw body's
/// input is the JSON it holds.
fn check_arguments(checks: &Checks, request: &Request) -> Result<(), ClientError> {
    let empty = Value::Object(Map::new());
    let from_raw = request.raw_body.as_ref().map(|raw| serde_json::from_str(&raw.0).unwrap_or(Value::Null));
    let (params, input) = (&request.params, from_raw.as_ref().unwrap_or(&request.input));
    let params = if params.is_null() { &empty } else { params };
    let input = if input.is_null() { &empty } else { input };
    crate::validation::validate(checks.params.as_ref(), params, "params").map_err(ClientError::Invalid)?;
    match &checks.input {
        Some(v) => crate::validation::validate(Some(v), input, "input"),
        None => crate::validation::no_arguments(input),
    }
    .map_err(ClientError::Invalid)
}

/// A failure answer as the error it carries: the envelope read back into its code, the error
/// answer the operation documents at its status ([`HttpClient::documented`]), or the status and
/// the start of the body.
fn failure(documented: Option<AppError>, status: u16, body: &[u8], retry_after: Option<String>) -> ClientError {
    match serde_json::from_slice::<HttpErrorEnvelope>(body) {
        Ok(envelope) => ClientError::Api(AppError::from(envelope.error).with_status(status)),
        Err(_) => match documented {
            Some(e) => ClientError::Api(e),
            None => ClientError::Status { status, body: kept(body), retry_after },
        },
    }
}

impl HttpClient {
    /// The error answer `op` documents at `status` ([`AppError::answer`]), when `body` is the
    /// documented one: JSON its schema accepts, or empty where it documents none. Any other body
    /// stays the origin's status and bytes, never a documented answer it is not.
    fn documented(&self, op: &'static OperationDef, types: &'static str, status: u16, body: &[u8]) -> Option<AppError> {
        let answer = op.error_answer(status)?;
        let schema = self.answer_schema(op, types, answer, "error answer");
        let body: Option<Value> = match (&*schema, body.is_empty()) {
            (None, true) => None,
            (Some(v), false) => Some(serde_json::from_slice(body).ok().filter(|b| v.is_valid(b))?),
            _ => return None,
        };
        Some(AppError::answer(status, answer.description.unwrap_or("the documented error answer"), body))
    }
}

impl HttpClient {
    /// The compiled body schema of an answer `op` documents at a status of its own (`None`: no
    /// body), compiled once per operation and status.
    fn answer_schema(
        &self,
        op: &'static OperationDef,
        types: &'static str,
        answer: &AnswerDef,
        what: &str,
    ) -> Arc<Option<jsonschema::Validator>> {
        let mut cache = self.answers.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        cache
            .entry((std::ptr::from_ref(op) as usize, answer.status))
            .or_insert_with(|| {
                Arc::new(crate::runner::compile(answer.schema, what, op, &crate::runner::registry(types)))
            })
            .clone()
    }
}

/// A success the operation documents beside its main one, and its compiled body schema where
/// answers are checked.
struct Other {
    answer: &'static AnswerDef,
    check: Option<Arc<Option<jsonschema::Validator>>>,
}

/// The body of a success documented beside the main one: `null` where its status documents
/// none, else JSON, checked against its schema with validation on.
fn read_other(other: &Other, body: &[u8]) -> Result<Value, ClientError> {
    if other.answer.schema.is_none() {
        return Ok(Value::Null);
    }
    let value: Value = serde_json::from_slice(body).map_err(|e| ClientError::Decode(format!("{e}: {}", kept(body))))?;
    if let Some(errors) =
        other.check.as_deref().and_then(Option::as_ref).and_then(|v| crate::validation::violations(v, &value))
    {
        let what = format!("the answer breaks the schema of status {}", other.answer.status);
        return Err(ClientError::Invalid(crate::validation::breaks(&what, errors)));
    }
    Ok(value)
}

/// A success answer as the runner gives it to the HTTP adapter: a stream's frames, a raw
/// response, or the JSON answer (checked against the output schema with validation on) with
/// the documented headers the operation declares.
async fn read_success(
    op: &'static OperationDef,
    response: reqwest::Response,
    checks: Option<&Checks>,
    other: Option<Other>,
    max_answer: u64,
) -> Result<HttpAnswer, ClientError> {
    let kind = &op.http_kind;
    if let Some(def) = &kind.stream {
        let frames = super::frames::read(response, def);
        return Ok(HttpAnswer { value: Value::Null, payload: Some(HttpPayload::Stream(frames)), status: None });
    }
    let (status, headers) = (response.status().as_u16(), response_headers(response.headers()));
    let body = bounded(response, max_answer, Overflow::Refuse).await?;
    if kind.raw_response {
        let content_type = crate::http::header_value(&headers, "content-type");
        let headers = headers.into_iter().filter(|(n, _)| n != "content-type").collect();
        let raw = RawResponse { status, content_type, headers, body };
        return Ok(HttpAnswer { value: Value::Null, payload: Some(HttpPayload::Raw(raw)), status: None });
    }
    let value = match &other {
        Some(other) => read_other(other, &body)?,
        None => read_json(op, &body)?,
    };
    if let (None, Some(errors)) =
        (&other, checks.and_then(|c| c.output.as_ref()).and_then(|v| crate::validation::violations(v, &value)))
    {
        let e = crate::validation::breaks("the answer breaks the contract's output schema", errors);
        return Err(ClientError::Invalid(e));
    }
    let declared =
        kind.headers.iter().filter_map(|h| Some((h.name.to_owned(), crate::http::header_value(&headers, h.name)?)));
    let payload = (!kind.headers.is_empty()).then(|| HttpPayload::Headers(declared.collect()));
    Ok(HttpAnswer { value, payload, status: other.map(|o| o.answer.status) })
}

/// What [`bounded`] does with a body past its limit.
#[derive(Clone, Copy, PartialEq)]
enum Overflow {
    /// A success answer: refused whole.
    Refuse,
    /// A failure's body: its start explains it, the rest is left unread.
    Cut,
}

/// A body read chunk by chunk, never holding more than `limit` bytes: an answer that says it is
/// larger is refused before its first byte is read.
async fn bounded(mut response: reqwest::Response, limit: u64, overflow: Overflow) -> Result<Vec<u8>, ClientError> {
    if overflow == Overflow::Refuse && response.content_length().is_some_and(|n| n > limit) {
        return Err(ClientError::TooLarge { limit });
    }
    let max = usize::try_from(limit).unwrap_or(usize::MAX);
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(transport)? {
        let room = max - body.len();
        if chunk.len() > room {
            if overflow == Overflow::Refuse {
                return Err(ClientError::TooLarge { limit });
            }
            body.extend_from_slice(&chunk[..room]);
            break;
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// A success answer as JSON: `null` when the operation has no output.
fn read_json(def: &OperationDef, body: &[u8]) -> Result<Value, ClientError> {
    if def.output_schema.is_none() || body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Value::Null);
    }
    serde_json::from_slice(body).map_err(|e| ClientError::Decode(format!("{e}: {}", kept(body))))
}

/// The response headers as text pairs, names in lower case as HTTP/1 and HTTP/2 compare them;
/// a value that is not text is left out.
fn response_headers(headers: &reqwest::header::HeaderMap) -> Vec<(String, String)> {
    headers.iter().filter_map(|(n, v)| Some((n.as_str().to_owned(), v.to_str().ok()?.to_owned()))).collect()
}

/// A multipart form: each input field as text, the way the adapter reads a query, then the files.
fn form(input: &Value, upload: Upload) -> Result<reqwest::multipart::Form, ClientError> {
    let mut form = reqwest::multipart::Form::new();
    for (name, value) in crate::wire::query_pairs(input) {
        form = form.text(name, value);
    }
    for file in upload.files {
        let mut part = reqwest::multipart::Part::bytes(file.bytes)
            .mime_str(&file.content_type)
            .map_err(|e| ClientError::Decode(format!("content type `{}`: {e}", file.content_type)))?;
        if let Some(name) = file.file_name {
            part = part.file_name(name);
        }
        form = form.part(file.field, part);
    }
    Ok(form)
}

/// The start of a body, as text, at a character boundary.
fn kept(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(&body[..body.len().min(MAX_KEPT_BODY)]).into_owned();
    text.trim_end_matches('\u{FFFD}').to_owned()
}

fn transport(e: reqwest::Error) -> ClientError {
    if e.is_timeout() { ClientError::Timeout } else { ClientError::Transport(e.to_string()) }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::def::HttpKindDef;

    static PATCH: OperationDef = OperationDef {
        method: Some("PATCH"),
        path: Some("/people/:id"),
        input_schema: Some("{}"),
        http_kind: HttpKindDef { input_content_type: Some("application/merge-patch+json"), ..HttpKindDef::PLAIN },
        ..OperationDef::EMPTY
    };
    static LIST: OperationDef = OperationDef {
        method: Some("GET"),
        path: Some("/people"),
        input_schema: Some("{}"),
        output_schema: Some("{}"),
        ..OperationDef::EMPTY
    };
    static WEBHOOK: OperationDef = OperationDef {
        method: Some("POST"),
        path: Some("/hook"),
        input_schema: Some("{}"),
        http_kind: HttpKindDef { raw_body: true, ..HttpKindDef::PLAIN },
        ..OperationDef::EMPTY
    };

    static SECURED: OperationDef = OperationDef {
        method: Some("GET"),
        path: Some("/things"),
        security: &[
            &[Credential::Header("botToken", "X-Bot-Token"), Credential::Query("app", "app_key")],
            &[Credential::Basic("account")],
            &[Credential::Bearer("oauth")],
        ],
        ..OperationDef::EMPTY
    };

    fn call(op: &'static OperationDef, params: Value, input: Value) -> Request {
        Request { op, types: "{}", params, input, raw_body: None, upload: None, headers: Vec::new() }
    }

    #[test]
    fn a_body_goes_with_its_declared_media_type_and_the_credentials() {
        let client = HttpClient::new("http://h/base/").query("key", "k 1").bearer("t").header("X-Api-Key", "s");
        let r = client.request(&call(&PATCH, json!({"id": "a b"}), json!({"name": "x"}))).unwrap().build().unwrap();
        assert_eq!(r.url().as_str(), "http://h/base/people/a%20b?key=k+1");
        assert_eq!(r.headers()["content-type"], "application/merge-patch+json");
        assert_eq!(
            (&r.headers()["authorization"], &r.headers()["x-api-key"]),
            (&"Bearer t".parse().unwrap(), &"s".parse().unwrap())
        );
        assert_eq!(r.body().and_then(reqwest::Body::as_bytes), Some(br#"{"name":"x"}"#.as_slice()));
    }

    #[test]
    fn an_operation_carries_its_first_alternative_whose_credentials_are_all_held() {
        let send =
            |client: HttpClient| client.request(&call(&SECURED, json!(null), json!({}))).unwrap().build().unwrap();
        let r = send(
            HttpClient::new("http://h").credential("app", "k").credential("oauth", "t").header("Authorization", "x"),
        );
        assert_eq!(
            r.headers().get_all("authorization").iter().collect::<Vec<_>>(),
            ["Bearer t"],
            "in place of the default"
        );
        assert_eq!(r.url().query(), None, "the first alternative needs botToken too");
        let r = send(
            HttpClient::new("http://h").credential("botToken", "b").credential("app", "k").credential("account", "u:p"),
        );
        assert_eq!((r.headers()["x-bot-token"].to_str().unwrap(), r.url().query()), ("b", Some("app_key=k")));
        assert!(r.headers().get("authorization").is_none(), "one alternative, not two");
        let r = send(HttpClient::new("http://h").credential("account", "aladdin:open sesame"));
        assert_eq!(r.headers()["authorization"], "Basic YWxhZGRpbjpvcGVuIHNlc2FtZQ==");
        let none = send(HttpClient::new("http://h").credential("other", "v"));
        assert!(none.headers().get("authorization").is_none() && none.url().query().is_none());
        let plain = call(&LIST, json!(null), json!({}));
        let r = HttpClient::new("http://h").credential("oauth", "t").request(&plain).unwrap().build().unwrap();
        assert!(r.headers().get("authorization").is_none(), "an operation that asks for nothing gets nothing");
    }

    #[test]
    fn a_forwarded_call_carries_the_callers_credential_and_none_of_the_operators() {
        let client = HttpClient::new("http://h")
            .credential("botToken", "b")
            .credential("app", "k")
            .credential("oauth", "t")
            .header("Cookie", "session=operator")
            .header("X-Trace", "kept");
        let forwarded = Request {
            headers: vec![("Authorization".into(), "Bearer caller".into())],
            ..call(&SECURED, json!(null), json!({}))
        };
        let r = client.request(&forwarded).unwrap().build().unwrap();
        let sent: Vec<_> = r.headers().iter().map(|(n, v)| format!("{n}: {}", v.to_str().unwrap())).collect();
        assert_eq!(sent, ["x-trace: kept", "authorization: Bearer caller"]);
        assert_eq!(r.url().query(), None, "no API key of the operator's in the query");
    }

    #[test]
    fn a_get_sends_its_input_in_the_query_and_no_body() {
        let client = HttpClient::new("http://h");
        let input = json!({"limit": 5, "tags": ["a", "b c"], "on": true});
        let r = client.request(&call(&LIST, json!(null), input)).unwrap().build().unwrap();
        assert_eq!(r.url().as_str(), "http://h/people?limit=5&tags=a&tags=b+c&on=true");
        assert!(r.body().is_none() && r.headers().get("content-type").is_none());
        assert_eq!(r.headers()["accept"], "application/json", "an origin with several media types answers JSON");
        let no_answer = client.request(&call(&PATCH, json!({"id": "a"}), json!({}))).unwrap().build().unwrap();
        assert!(no_answer.headers().get("accept").is_none(), "nothing to read, nothing asked for");
    }

    #[test]
    fn a_failure_reads_back_as_the_envelope_or_the_status_and_body() {
        let envelope = br#"{"error":{"code":"NOT_FOUND","message":"no such person","details":{"id":"x"}}}"#;
        let ClientError::Api(e) = failure(None, 404, envelope, None) else { panic!("not the envelope") };
        assert_eq!((e.code.as_str(), e.status, e.details.as_deref()), ("NOT_FOUND", 404, Some(&json!({"id": "x"}))));
        let long = vec![b'x'; MAX_KEPT_BODY * 2];
        let ClientError::Status { status, body, .. } = failure(None, 502, &long, None) else { panic!("not a status") };
        assert_eq!((status, body.len()), (502, MAX_KEPT_BODY));
        assert_eq!(read_json(&PATCH, b"").unwrap(), Value::Null);
    }

    #[test]
    fn a_raw_body_goes_byte_for_byte_and_its_json_is_what_validation_reads() {
        let raw = r#"{ "from":  "a@b.example" }"#;
        let request =
            Request { raw_body: Some(crate::RawBody(raw.into())), ..call(&WEBHOOK, json!(null), json!(null)) };
        let r = HttpClient::new("http://h").request(&request).unwrap().build().unwrap();
        assert_eq!(r.body().and_then(reqwest::Body::as_bytes), Some(raw.as_bytes()));
        assert_eq!(r.headers()["content-type"], "application/json");
        let strict = r#"{"type":"object","required":["subject"]}"#;
        let types = crate::runner::registry("{}");
        let input = crate::runner::compile(Some(strict), "input", &WEBHOOK, &types);
        let checks = Checks { params: None, input, output: None };
        let Err(ClientError::Invalid(e)) = check_arguments(&checks, &request) else { panic!("not refused") };
        assert_eq!(e.code, "VALIDATION_ERROR");
    }
}
