//! Typed clients: a generated module's `Client<T>` has one method per JSON endpoint served on
//! HTTP, and sends each call through a [`Transport`]. `HttpClient` (feature `client`) sends it
//! on the wire the module's axum router reads; another transport can forward it anywhere.

#[cfg(feature = "client")]
mod http;

use serde_json::Value;

#[cfg(feature = "client")]
pub use http::HttpClient;

use crate::def::OperationDef;
use crate::error::AppError;
use crate::runner::BoxFuture;

/// The most bytes of a failure body that is not the error envelope kept in [`ClientError::Status`].
pub const MAX_KEPT_BODY: usize = 4096;

/// One call a typed client makes: the operation, the module's types document its schemas refer
/// to, and the arguments as JSON (`null` for none).
#[derive(Clone, Debug)]
pub struct Request {
    /// The operation, as the contract declares it.
    pub op: &'static OperationDef,
    /// The module's types document (see [`crate::TYPES_URI`]).
    pub types: &'static str,
    /// The path parameters, a JSON object, or `null` when the operation has none.
    pub params: Value,
    /// The input, a JSON object, or `null` when the operation has none.
    pub input: Value,
}

/// Carries a typed client's calls to the service and brings back the JSON answer (`null` for an
/// operation without output).
pub trait Transport: Send + Sync {
    /// Makes `request`.
    fn call(&self, request: Request) -> BoxFuture<'_, Result<Value, ClientError>>;
}

/// Why a client call failed.
#[derive(Debug)]
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
    },
    /// Arguments that do not serialize, or a success answer that does not read as the
    /// operation's output.
    Decode(String),
    /// No answer within the configured timeout.
    Timeout,
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
            ClientError::Status { status, body } => write!(f, "HTTP {status}: {body}"),
            ClientError::Decode(why) => write!(f, "{why}"),
            ClientError::Timeout => write!(f, "no answer within the timeout"),
            ClientError::Transport(why) => write!(f, "the request failed: {why}"),
        }
    }
}

impl std::error::Error for ClientError {}

/// Serializes typed arguments for a [`Request`] (generated code calls this).
pub fn to_json<T: serde::Serialize>(value: &T) -> Result<Value, ClientError> {
    serde_json::to_value(value).map_err(|e| ClientError::Decode(format!("the arguments do not serialize: {e}")))
}

/// Reads a JSON answer as the operation's typed output (generated code calls this).
pub fn from_json<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ClientError> {
    serde_json::from_value(value)
        .map_err(|e| ClientError::Decode(format!("the answer does not read as the operation's output: {e}")))
}
