//! Typed clients: a generated module's `Client<T>` has one method per endpoint served on HTTP,
//! and sends each call through a [`Transport`]. `HttpClient` (feature `client`) sends it on the
//! wire the module's axum router reads; another transport can forward it anywhere.

#[cfg(feature = "client")]
mod frames;
#[cfg(feature = "client")]
mod http;

use serde_json::Value;

#[cfg(feature = "client")]
pub use http::HttpClient;

use crate::def::OperationDef;
use crate::error::AppError;
use crate::http::{Frame, HttpPayload, ItemStream, RawBody, RawResponse, ResponseHeaders, Upload, WithMeta};
use crate::runner::{BoxFuture, HttpAnswer};

/// The most bytes of a failure body that is not the error envelope kept in [`ClientError::Status`].
pub const MAX_KEPT_BODY: usize = 4096;

/// The most bytes of a failure answer an HTTP client reads: past them the body is left unread.
pub const MAX_ERROR_BODY_BYTES: u64 = 64 * 1024;

/// The largest success answer an HTTP client reads by default (`HttpClient::max_answer_bytes`).
pub const MAX_ANSWER_BYTES: u64 = 16 * 1024 * 1024;

/// How long an HTTP client waits for a call by default (`HttpClient::timeout`).
pub const DEFAULT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// One call a typed client makes: the operation, the module's types document its schemas refer
/// to, the arguments as JSON (`null` for none), and the raw body or files when the operation
/// takes them.
#[derive(Clone, Debug)]
pub struct Request {
    /// The operation, as the contract declares it.
    pub op: &'static OperationDef,
    /// The module's types document (see [`crate::TYPES_URI`]).
    pub types: &'static str,
    /// The path parameters, a JSON object, or `null` when the operation has none.
    pub params: Value,
    /// The input, a JSON object, or `null` when the operation has none (or reads it from the
    /// raw body).
    pub input: Value,
    /// The exact body to send (`rawBody: true`): the server reads the input from it.
    pub raw_body: Option<RawBody>,
    /// The files to upload (`multipart`), sent beside the input's fields.
    pub upload: Option<Upload>,
    /// Headers of this call alone, in place of the transport's own of the same name (a caller's
    /// forwarded `Authorization`, see [`Forward`]).
    pub headers: Vec<(String, String)>,
}

/// Carries a typed client's calls to the service and brings back its answer, as the runner gives
/// it to the HTTP adapter: the JSON answer (`null` for an operation without output, a raw
/// response or a stream) and what an HTTP-only kind answers besides (raw bytes, the documented
/// headers, the stream's frames).
pub trait Transport: Send + Sync {
    /// Makes `request`.
    fn call(&self, request: Request) -> BoxFuture<'_, Result<HttpAnswer, ClientError>>;
}

/// Why a client call failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum ClientError {
    /// The server answered with its error envelope: the code (a registry code such as
    /// `NOT_FOUND`, or an application code), status, message, details and hint.
    Api(AppError),
    /// The arguments break the contract, found before sending (with validation on): the same
    /// `VALIDATION_ERROR` the server would answer. Or, on return, a success answer that breaks
    /// the output schema (`INTERNAL_SERVER_ERROR`, as the runner reports a handler's).
    Invalid(AppError),
    /// A failure status whose body is not the error envelope: the status and the body's first
    /// [`MAX_KEPT_BODY`] bytes.
    Status {
        /// The HTTP status.
        status: u16,
        /// The start of the body, as text.
        body: String,
        /// The `Retry-After` header, when the server sent one (a 429 or 503, say).
        retry_after: Option<String>,
    },
    /// Arguments that do not serialize, or a success answer that does not read as the
    /// operation's output.
    Decode(String),
    /// No answer within the configured timeout.
    Timeout,
    /// A success answer larger than the client reads (`HttpClient::max_answer_bytes`), refused
    /// without reading past the limit.
    TooLarge {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The request was not sent or its answer not received (connection refused, reset, TLS, …).
    Transport(String),
}

impl ClientError {
    /// The error code, for an envelope answered or an invalid call: `NOT_FOUND`, `VALIDATION_ERROR`, ….
    pub fn code(&self) -> Option<&str> {
        match self {
            ClientError::Api(e) | ClientError::Invalid(e) => Some(&e.code),
            _ => None,
        }
    }

    /// The HTTP status answered, when the server answered.
    pub fn status(&self) -> Option<u16> {
        match self {
            ClientError::Api(e) => Some(e.status),
            ClientError::Status { status, .. } => Some(*status),
            _ => None,
        }
    }
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::Api(e) => write!(f, "{e} (HTTP {})", e.status),
            ClientError::Invalid(e) => write!(f, "{e}"),
            ClientError::Status { status, body, .. } => write!(f, "HTTP {status}: {body}"),
            ClientError::Decode(why) => write!(f, "{why}"),
            ClientError::Timeout => write!(f, "no answer within the timeout"),
            ClientError::TooLarge { limit } => write!(f, "the answer is larger than {limit} bytes"),
            ClientError::Transport(why) => write!(f, "the request failed: {why}"),
        }
    }
}

impl std::error::Error for ClientError {}

/// A failed call as the error a service in front of the server answers. The server's envelope
/// comes as it came, but for `INTERNAL_SERVER_ERROR`, which would say this service broke: that,
/// no answer (the server not reached), no answer in time, and a 5xx the server did not explain
/// are `UPSTREAM_ERROR` ([`AppError::upstream`]: the server's status in `details.status`,
/// `retryable` as that status says). Another failure status the server did not explain is mapped
/// onto the registry (404 → `NOT_FOUND`, 409 → `CONFLICT`, 429 → `RATE_LIMITED`, other 4xx →
/// `BAD_REQUEST`) with the status, the start of its body and its `Retry-After` in `details`
/// (`status`, `body`, `retryAfter`). An answer that does not read or is too large is
/// `INTERNAL_SERVER_ERROR`: this service cannot keep its contract with it (what it was is
/// logged, not shown). What the transport said (addresses, TLS) is logged, not shown.
impl From<ClientError> for AppError {
    fn from(e: ClientError) -> Self {
        use crate::error::ErrorCode;
        match e {
            ClientError::Api(e) if e.code == ErrorCode::InternalServerError.name() => {
                let mut up = AppError::upstream(Some(e.status), format!("the server failed: {}", e.message));
                up.hint = e.hint;
                up
            }
            ClientError::Api(e) | ClientError::Invalid(e) => e,
            ClientError::Status { status, body, retry_after } => {
                let message = format!("the server answered HTTP {status}");
                let mut error = match status {
                    404 => AppError::new(ErrorCode::NotFound, message),
                    409 => AppError::new(ErrorCode::Conflict, message),
                    429 => AppError::new(ErrorCode::RateLimited, message),
                    400..=499 => AppError::new(ErrorCode::BadRequest, message),
                    _ => AppError::upstream(Some(status), message),
                };
                let mut details = serde_json::json!({ "status": status, "body": body });
                if let Some(after) = retry_after {
                    details["retryAfter"] = Value::String(after);
                }
                error.details = Some(Box::new(details));
                error
            }
            ClientError::Timeout => AppError::upstream(None, "the server did not answer in time").with_status(504),
            ClientError::TooLarge { limit } => AppError::new(
                ErrorCode::InternalServerError,
                format!("the server's answer is larger than {limit} bytes"),
            ),
            ClientError::Decode(why) => {
                // `why` may quote the origin's answer, which the caller is not entitled to.
                tracing::error!(target: "stitchgen_runtime", "the origin's answer does not read: {why}");
                AppError::new(
                    ErrorCode::InternalServerError,
                    "the origin's answer does not read as the operation's output",
                )
            }
            ClientError::Transport(why) => {
                // `why` names the origin's address, which is this service's to know.
                tracing::error!(target: "stitchgen_runtime", "the server was not reached: {why}");
                AppError::upstream(None, "the server was not reached")
            }
        }
    }
}

/// Serializes typed arguments for a [`Request`] (generated code calls this).
#[doc(hidden)]
pub fn to_json<T: serde::Serialize>(value: &T) -> Result<Value, ClientError> {
    serde_json::to_value(value).map_err(|e| ClientError::Decode(format!("the arguments do not serialize: {e}")))
}

/// A JSON answer as the operation's typed output.
fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ClientError> {
    serde_json::from_value(crate::validation::integral(value))
        .map_err(|e| ClientError::Decode(format!("the answer does not read as the operation's output: {e}")))
}

/// A transport that adds the caller's forwarded `Authorization` ([`crate::Ctx::forwarding`]) to
/// each call it passes on; a remote service's handler makes its calls through it.
pub struct Forward<'a, T>(&'a T, Option<&'a str>);

impl<'a, T: Transport> Forward<'a, T> {
    /// Calls through `transport`, with what `ctx` forwards.
    pub fn new(transport: &'a T, ctx: &'a crate::Ctx) -> Self {
        Forward(transport, ctx.authorization.as_deref())
    }
}

impl<T: Transport> Transport for Forward<'_, T> {
    fn call(&self, mut request: Request) -> BoxFuture<'_, Result<HttpAnswer, ClientError>> {
        if let Some(authorization) = self.1 {
            request.headers.push(("Authorization".to_owned(), authorization.to_owned()));
        }
        self.0.call(request)
    }
}

/// Reads an answer without output (generated code calls this).
#[doc(hidden)]
pub fn unit(_: HttpAnswer) -> Result<(), ClientError> {
    Ok(())
}

/// Reads a JSON answer as the operation's typed output (generated code calls this).
#[doc(hidden)]
pub fn json<T: serde::de::DeserializeOwned>(answer: HttpAnswer) -> Result<T, ClientError> {
    from_json(answer.value)
}

/// Reads a raw response (`rawResponse: true`; generated code calls this).
#[doc(hidden)]
pub fn raw(answer: HttpAnswer) -> Result<RawResponse, ClientError> {
    match answer.payload {
        Some(HttpPayload::Raw(raw)) => Ok(raw),
        _ => Err(ClientError::Decode("the transport brought back no raw response".into())),
    }
}

/// Reads a JSON answer and the response headers beside it (`responseMeta`; generated code calls
/// this).
#[doc(hidden)]
pub fn with_meta<T: serde::de::DeserializeOwned>(answer: HttpAnswer) -> Result<WithMeta<T>, ClientError> {
    let headers = match answer.payload {
        Some(HttpPayload::Headers(headers)) => headers,
        _ => Vec::new(),
    };
    Ok(WithMeta { body: from_json(answer.value)?, headers })
}

/// Reads a JSON answer and its documented headers into the operation's `Headers` type (generated
/// code calls this): a required header the answer lacks is a [`ClientError::Decode`].
#[doc(hidden)]
pub fn headed<T: serde::de::DeserializeOwned, H: ResponseHeaders>(
    answer: HttpAnswer,
) -> Result<crate::http::Headed<T, H>, ClientError> {
    headed_chosen(answer, |_, value| from_json(value))
}

/// Reads the answer a handler chose among several successes (`http.successes`; generated code
/// calls this): `pick` reads the body documented at the answer's status, `None` for the main one.
#[doc(hidden)]
pub fn chosen<A>(
    answer: HttpAnswer,
    pick: impl FnOnce(Option<u16>, Value) -> Result<A, ClientError>,
) -> Result<A, ClientError> {
    pick(answer.status, answer.value)
}

/// [`chosen`], with the documented response headers beside the answer (generated code calls this).
#[doc(hidden)]
pub fn headed_chosen<A, H: ResponseHeaders>(
    answer: HttpAnswer,
    pick: impl FnOnce(Option<u16>, Value) -> Result<A, ClientError>,
) -> Result<crate::http::Headed<A, H>, ClientError> {
    let pairs = match &answer.payload {
        Some(HttpPayload::Headers(headers)) => headers.as_slice(),
        _ => &[],
    };
    let headers = H::from_pairs(pairs).map_err(ClientError::Decode)?;
    Ok(crate::http::Headed { body: pick(answer.status, answer.value)?, headers })
}

/// A JSON body read as a generated type (generated code calls this).
#[doc(hidden)]
pub fn body<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ClientError> {
    from_json(value)
}

/// Reads a stream's frames as typed items (generated code calls this); a frame that does not
/// read as an item ends the stream with `INTERNAL_SERVER_ERROR`.
#[doc(hidden)]
pub fn items<I: serde::de::DeserializeOwned + Send + 'static>(
    answer: HttpAnswer,
) -> Result<ItemStream<I>, ClientError> {
    Ok(crate::http::map_items(stream(answer)?, |frame| match frame {
        Frame::Item(v) => typed_frame(v),
        Frame::Terminal(_) => Err(crate::validation::broken("a stream without a terminal frame sent one")),
    }))
}

/// Reads a stream's frames as typed items and its terminal frame (generated code calls this).
#[doc(hidden)]
pub fn frames<I, T>(answer: HttpAnswer) -> Result<ItemStream<Frame<I, T>>, ClientError>
where
    I: serde::de::DeserializeOwned + Send + 'static,
    T: serde::de::DeserializeOwned + Send + 'static,
{
    Ok(crate::http::map_items(stream(answer)?, |frame| match frame {
        Frame::Item(v) => typed_frame(v).map(Frame::Item),
        Frame::Terminal(v) => typed_frame(v).map(Frame::Terminal),
    }))
}

fn stream(answer: HttpAnswer) -> Result<crate::http::JsonFrames, ClientError> {
    match answer.payload {
        Some(HttpPayload::Stream(frames)) => Ok(frames),
        _ => Err(ClientError::Decode("the transport brought back no stream".into())),
    }
}

fn typed_frame<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, AppError> {
    serde_json::from_value(crate::validation::integral(value))
        .map_err(|e| crate::validation::broken(&format!("a frame does not read as the operation's: {e}")))
}
