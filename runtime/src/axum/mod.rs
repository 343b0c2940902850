//! The HTTP surface on axum: a `Router` with one route per endpoint, each a thin layer over the
//! one runner — path and query read by the contract's schemas, JSON bodies, uploads within their
//! declared limits, statuses from the error registry, and the HTTP error envelope.

mod frames;
mod request;

use std::sync::Arc;

use ::axum::Router;
use ::axum::body::Body;
use ::axum::extract::{DefaultBodyLimit, Request};
use ::axum::http::{HeaderName, HeaderValue, Method, StatusCode, header};
use ::axum::response::{IntoResponse, Response};
use ::axum::routing::{MethodFilter, MethodRouter, on};
use serde_json::Value;

use crate::{AppError, Caller, Ctx, ErrorCode, HttpAnswer, HttpPayload, Identify, OperationDef, Service, Surface};

/// The largest JSON or raw body an endpoint reads, and the largest non-file field of an upload
/// that declares no `maxFieldBytes`.
pub const MAX_JSON_BODY_BYTES: usize = 2 * 1024 * 1024;

/// The largest upload of an endpoint that declares no `maxRequestBytes`, and so the largest
/// file of a field that declares no `maxBytes`.
pub const MAX_MULTIPART_BYTES: u64 = 32 * 1024 * 1024;

/// The most parts (files and other fields) one upload may hold.
pub const MAX_MULTIPART_PARTS: usize = 256;

/// The HTTP surface of one generated service, to turn into an axum [`Router`].
///
/// ```
/// fn app(people: stitchgen_runtime::Service) -> axum::Router {
///     stitchgen_runtime::axum::HttpApi::new(people).openapi(r#"{"openapi":"3.1.0"}"#).router()
/// }
/// ```
///
/// Several services on one listener: merge their [`HttpApi::routes`], then give the merged
/// router one fallback, [`with_fallbacks`] (or your own).
///
/// ```
/// use stitchgen_runtime::Service;
/// use stitchgen_runtime::axum::{HttpApi, with_fallbacks};
///
/// fn app(people: Service, rooms: Service) -> axum::Router {
///     with_fallbacks(HttpApi::new(people).routes().merge(HttpApi::new(rooms).routes()))
/// }
/// ```
#[derive(Clone)]
pub struct HttpApi {
    service: Service,
    identify: Identify,
    openapi: Option<Arc<str>>,
    json_limit: usize,
}

impl std::fmt::Debug for HttpApi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpApi").field("service", &self.service).field("openapi", &self.openapi.is_some()).finish()
    }
}

/// The router of `service` with anonymous callers and no OpenAPI route; see [`HttpApi`].
pub fn router(service: Service) -> Router {
    HttpApi::new(service).router()
}

/// What the handler of one route needs.
struct Route {
    service: Service,
    identify: Identify,
    op: usize,
    def: &'static OperationDef,
    /// Path parameters, in order.
    params: Vec<Slot>,
    /// The largest JSON or raw body read.
    json_limit: usize,
}

impl HttpApi {
    /// The HTTP surface of `service`. Every caller is anonymous until [`HttpApi::identify`].
    pub fn new(service: Service) -> Self {
        HttpApi { service, identify: crate::ctx::anonymous(), openapi: None, json_limit: MAX_JSON_BODY_BYTES }
    }

    /// Establishes who is calling from the request's head (a session, a bearer token), before
    /// its body is read. The scope gate then decides; a request without identity to a
    /// non-public endpoint is 401. An `Err` refuses the request with that error's envelope.
    ///
    /// ```
    /// use stitchgen_runtime::{AppError, Ctx, ErrorCode, Service};
    ///
    /// fn app(people: Service) -> axum::Router {
    ///     stitchgen_runtime::axum::HttpApi::new(people)
    ///         .identify(|caller| async move {
    ///             match caller.bearer() {
    ///                 Some("s3cret") => Ok(Ctx::with_identity("ada", ["admin"])),
    ///                 Some(_) => Err(AppError::new(ErrorCode::Unauthorized, "unknown token")),
    ///                 None => Ok(Ctx::anonymous()),
    ///             }
    ///         })
    ///         .router()
    /// }
    /// ```
    #[must_use]
    pub fn identify<F, Fut>(mut self, identify: F) -> Self
    where
        F: Fn(Caller) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Ctx, AppError>> + Send + 'static,
    {
        self.identify = crate::ctx::boxed(identify);
        self
    }

    /// Reads JSON and raw bodies up to `bytes` (default [`MAX_JSON_BODY_BYTES`]) where the
    /// contract declares no `limits.maxBodyBytes`; a larger one is refused with 413 without
    /// being read further. Uploads have their own limits.
    #[must_use]
    pub fn max_json_body_bytes(mut self, bytes: usize) -> Self {
        self.json_limit = bytes;
        self
    }

    /// Also serves `document` (the generated `openapi.json`) at `GET /openapi.json`.
    #[must_use]
    pub fn openapi(mut self, document: impl Into<String>) -> Self {
        self.openapi = Some(document.into().into());
        self
    }

    /// The router: [`HttpApi::routes`] with [`with_fallbacks`], the error envelope for unknown
    /// paths and methods.
    pub fn router(self) -> Router {
        with_fallbacks(self.routes())
    }

    /// One route per HTTP endpoint (and `/openapi.json` when set), with no fallback: a router
    /// that merges with other services' routes and the application's own. Routes of two
    /// services that are the same method and path cannot merge (axum panics): contracts
    /// generated together are checked for that.
    pub fn routes(self) -> Router {
        let mut routes: Vec<(String, MethodRouter)> = Vec::new();
        for (op, def) in self.service.operations().iter().enumerate() {
            let (Some(method), Some(path)) = (def.method, def.path) else { continue };
            if !def.on(Surface::Http) {
                continue;
            }
            let (shape, params) = axum_path(path);
            let route = Arc::new(Route {
                service: self.service.clone(),
                identify: self.identify.clone(),
                op,
                def,
                params,
                json_limit: self.json_limit,
            });
            let mut endpoint = on(method_filter(method), move |req: Request| serve(route, req));
            if let Some(multipart) = &def.http_kind.multipart {
                let limit = multipart.max_request_bytes.unwrap_or(MAX_MULTIPART_BYTES);
                endpoint = endpoint.layer(DefaultBodyLimit::max(usize::try_from(limit).unwrap_or(usize::MAX)));
            }
            match routes.iter_mut().find(|(p, _)| *p == shape) {
                Some((_, existing)) => *existing = std::mem::take(existing).merge(endpoint),
                None => routes.push((shape, endpoint)),
            }
        }
        let mut router = Router::new();
        for (path, methods) in routes {
            router = router.route(&path, methods);
        }
        if let Some(doc) = self.openapi {
            router = router.route(
                "/openapi.json",
                ::axum::routing::get(move || async move {
                    ([(header::CONTENT_TYPE, "application/json")], doc.to_string()).into_response()
                }),
            );
        }
        router
    }
}

/// `router` answering the HTTP error envelope for a path no route serves (404 `NOT_FOUND`) and
/// for a method a path does not serve (405 `METHOD_NOT_ALLOWED`). Call it once, on the router
/// that holds every route: axum's method fallback reaches the routes added before it.
pub fn with_fallbacks(router: Router) -> Router {
    router
        .method_not_allowed_fallback(|method: Method| async move {
            failure(&AppError::new(ErrorCode::MethodNotAllowed, format!("{method} is not served on this path")))
        })
        .fallback(|method: Method, uri: ::axum::http::Uri| async move {
            failure(&AppError::new(ErrorCode::NotFound, format!("no route for {method} {}", uri.path())))
        })
}

/// `/people/:id/*rest` → (`/people/{p0}/{*p1}`, [`id`, `rest`]). Parameters are renamed by
/// position so that routes of one shape share a path whatever each endpoint calls them.
fn axum_path(path: &str) -> (String, Vec<Slot>) {
    let mut slots = Vec::new();
    let segments: Vec<String> = path
        .split('/')
        .map(|seg| {
            let Some(p) = crate::def::path_param(seg) else { return percent_encoded(seg) };
            // A parameter with text around it is routed on its whole segment (the router
            // matches whole segments), its text checked when the request is read.
            let slot = format!("{{{}p{}}}", if p.wildcard { "*" } else { "" }, slots.len());
            slots.push(Slot { name: p.name.to_owned(), prefix: p.prefix.to_owned(), suffix: p.suffix.to_owned() });
            slot
        })
        .collect();
    (segments.join("/"), slots)
}

/// A literal segment as a request's path carries it: bytes beyond ASCII percent-encoded as
/// UTF-8 (`menü` → `men%C3%BC`), the form clients send; ASCII as written.
fn percent_encoded(seg: &str) -> String {
    let mut out = String::with_capacity(seg.len());
    for c in seg.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            let mut buf = [0; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

/// A path parameter's slot in the route: its name, and the text around it in its segment.
struct Slot {
    name: String,
    prefix: String,
    suffix: String,
}

impl Slot {
    /// The parameter's value in `segment`: the segment without its text, when it has it.
    fn value<'a>(&self, segment: &'a str) -> Option<&'a str> {
        segment.strip_prefix(self.prefix.as_str())?.strip_suffix(self.suffix.as_str())
    }
}

fn method_filter(method: &str) -> MethodFilter {
    match method {
        "GET" => MethodFilter::GET,
        "HEAD" => MethodFilter::HEAD,
        "POST" => MethodFilter::POST,
        "PUT" => MethodFilter::PUT,
        "PATCH" => MethodFilter::PATCH,
        "DELETE" => MethodFilter::DELETE,
        other => unreachable!("the contract checks refuse method {other}"),
    }
}

async fn serve(route: Arc<Route>, req: Request) -> Response {
    let head = req.method() == Method::HEAD;
    let (parts, body) = req.into_parts();
    let ctx = match (route.identify)(Caller::new(Surface::Http, Some(parts.clone()))).await {
        Ok(ctx) => ctx,
        Err(e) => return failure(&e),
    };
    let req = Request::from_parts(parts, body);
    // Before a byte of the body is read: an unauthorised caller costs no read and is told
    // nothing of what the endpoint's schemas would say of its request.
    if let Err(e) = route.service.admit(route.op, &ctx).await {
        return failure(&e);
    }
    let call = match request::read(&route, req).await {
        Ok(call) => call,
        Err(e) => return failure(&e),
    };
    match route.service.call_http_admitted(route.op, call, &ctx).await {
        Ok(answer) => success(route.def, answer, head),
        Err(e) => match e.answer_status().filter(|s| route.def.error_answer(*s).is_some()) {
            Some(status) => error_answer(status, e.details.as_deref()),
            None => failure(&e),
        },
    }
}

/// An error answer the contract documents (`http.errors`): its status, its body as it is.
fn error_answer(status: u16, body: Option<&Value>) -> Response {
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    match body {
        Some(body) => json_response(status, body, Vec::new()),
        None => {
            let mut res = Response::new(Body::empty());
            *res.status_mut() = status;
            res
        }
    }
}

/// The error envelope with the code's status.
fn failure(e: &AppError) -> Response {
    let status = StatusCode::from_u16(e.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    json_response(status, &serde_json::to_value(e.http_envelope()).unwrap_or(Value::Null), Vec::new())
}

fn json_response(status: StatusCode, value: &Value, headers: Vec<(HeaderName, HeaderValue)>) -> Response {
    let mut res = Response::new(Body::from(serde_json::to_vec(value).unwrap_or_default()));
    *res.status_mut() = status;
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    res.headers_mut().extend(headers);
    res
}

fn success(def: &'static OperationDef, answer: HttpAnswer, head: bool) -> Response {
    let kind = &def.http_kind;
    // The success the handler answered (`http.successes`), else the contract's main one.
    let (status, has_body) = match answer.status.and_then(|s| def.success_answer(s)) {
        Some(other) => (other.status, other.schema.is_some()),
        None => (def.main_status(), def.output_schema.is_some()),
    };
    let status = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    match answer.payload {
        Some(HttpPayload::Raw(raw)) => raw_response(def, raw, head),
        Some(HttpPayload::Stream(frames)) => match &kind.stream {
            Some(stream) => frames::response(frames, stream),
            None => failure(&crate::validation::broken("a stream from an endpoint that declares none")),
        },
        Some(HttpPayload::Headers(headers)) => match declared_headers(def, headers) {
            Ok(headers) if has_body => json_response(status, &answer.value, headers),
            Ok(headers) => {
                let mut res = status.into_response();
                res.headers_mut().extend(headers);
                res
            }
            Err(e) => failure(&e),
        },
        None if !has_body => status.into_response(),
        None => json_response(status, &answer.value, Vec::new()),
    }
}

/// The handler's `responseMeta` headers: declared names only, every required one present.
fn declared_headers(
    def: &OperationDef,
    headers: Vec<(String, String)>,
) -> Result<Vec<(HeaderName, HeaderValue)>, AppError> {
    let declared = def.http_kind.headers;
    let mut out = Vec::new();
    for (name, value) in headers {
        let Some(decl) = declared.iter().find(|h| h.name.eq_ignore_ascii_case(&name)) else {
            return Err(crate::validation::broken(&format!("the handler set undeclared header `{name}`")));
        };
        out.push(header_pair(decl.name, &value)?);
    }
    for h in declared.iter().filter(|h| h.required) {
        if !out.iter().any(|(n, _)| n.as_str().eq_ignore_ascii_case(h.name)) {
            return Err(crate::validation::broken(&format!("required header `{}` is missing", h.name)));
        }
    }
    Ok(out)
}

fn header_pair(name: &str, value: &str) -> Result<(HeaderName, HeaderValue), AppError> {
    let bad = || crate::validation::broken(&format!("header `{name}` is not a valid HTTP header"));
    Ok((HeaderName::try_from(name).map_err(|_| bad())?, HeaderValue::try_from(value).map_err(|_| bad())?))
}

fn raw_response(def: &OperationDef, raw: crate::RawResponse, head: bool) -> Response {
    let Ok(status) = StatusCode::from_u16(raw.status) else {
        return failure(&crate::validation::broken(&format!("status {} is not an HTTP status", raw.status)));
    };
    let content_type =
        raw.content_type.as_deref().or(def.http_kind.content_type).unwrap_or("application/octet-stream").to_owned();
    let mut headers = Vec::new();
    for (name, value) in std::iter::once(("content-type".to_owned(), content_type)).chain(raw.headers) {
        match header_pair(&name, &value) {
            Ok(pair) => headers.push(pair),
            Err(e) => return failure(&e),
        }
    }
    let mut res = Response::new(if head { Body::empty() } else { Body::from(raw.body) });
    *res.status_mut() = status;
    for (name, value) in headers {
        res.headers_mut().insert(name, value);
    }
    res
}
