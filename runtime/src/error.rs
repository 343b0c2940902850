//! The error-code registry and the HTTP and tool error envelopes.

use serde::{Deserialize, Serialize};

/// The registry of error codes every surface shares (DESIGN §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum ErrorCode {
    /// 400: the request is malformed.
    BadRequest,
    /// 401: no identity.
    Unauthorized,
    /// 403: the identity lacks the scope.
    Forbidden,
    /// 404: no such thing.
    NotFound,
    /// 405: the route exists, the method does not.
    MethodNotAllowed,
    /// 409: the state forbids it.
    Conflict,
    /// 429: too many calls.
    RateLimited,
    /// 400: arguments break the contract's schema.
    ValidationError,
    /// 500: the service broke its own contract, or failed.
    InternalServerError,
    /// 501: not implemented.
    NotImplemented,
    /// 408: took too long.
    Timeout,
    /// 502: the origin this service calls failed (not reached, no answer in time, or a 5xx);
    /// this service itself did not.
    UpstreamError,
}

impl ErrorCode {
    /// Every registry code.
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::BadRequest,
        ErrorCode::Unauthorized,
        ErrorCode::Forbidden,
        ErrorCode::NotFound,
        ErrorCode::MethodNotAllowed,
        ErrorCode::Conflict,
        ErrorCode::RateLimited,
        ErrorCode::ValidationError,
        ErrorCode::InternalServerError,
        ErrorCode::NotImplemented,
        ErrorCode::Timeout,
        ErrorCode::UpstreamError,
    ];

    /// The code as written in contracts and envelopes, such as `NOT_FOUND`.
    pub fn name(self) -> &'static str {
        match self {
            ErrorCode::BadRequest => "BAD_REQUEST",
            ErrorCode::Unauthorized => "UNAUTHORIZED",
            ErrorCode::Forbidden => "FORBIDDEN",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::MethodNotAllowed => "METHOD_NOT_ALLOWED",
            ErrorCode::Conflict => "CONFLICT",
            ErrorCode::RateLimited => "RATE_LIMITED",
            ErrorCode::ValidationError => "VALIDATION_ERROR",
            ErrorCode::InternalServerError => "INTERNAL_SERVER_ERROR",
            ErrorCode::NotImplemented => "NOT_IMPLEMENTED",
            ErrorCode::Timeout => "TIMEOUT",
            ErrorCode::UpstreamError => "UPSTREAM_ERROR",
        }
    }

    /// The registry code named `name`.
    pub fn from_name(name: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.name() == name)
    }

    /// The HTTP status of the code.
    pub fn status(self) -> u16 {
        match self {
            ErrorCode::BadRequest | ErrorCode::ValidationError => 400,
            ErrorCode::Unauthorized => 401,
            ErrorCode::Forbidden => 403,
            ErrorCode::NotFound => 404,
            ErrorCode::MethodNotAllowed => 405,
            ErrorCode::Timeout => 408,
            ErrorCode::Conflict => 409,
            ErrorCode::RateLimited => 429,
            ErrorCode::InternalServerError => 500,
            ErrorCode::NotImplemented => 501,
            ErrorCode::UpstreamError => 502,
        }
    }

    /// The CLI exit code of the code's class (DESIGN §4).
    pub fn exit_code(self) -> u8 {
        match self {
            ErrorCode::Unauthorized => 2,
            ErrorCode::Forbidden => 3,
            ErrorCode::NotFound => 4,
            ErrorCode::Conflict => 5,
            ErrorCode::RateLimited => 6,
            ErrorCode::Timeout => 7,
            _ => 1,
        }
    }
}

/// Whether a caller may retry a failure with this HTTP status.
pub fn retryable_status(status: u16) -> bool {
    matches!(status, 408 | 429 | 502 | 503 | 504)
}

/// What a handler answers: its typed output, or an [`AppError`]. Generated handler traits
/// name it; an implementation may write `Result<T, AppError>`, the same type.
pub type Reply<T> = Result<T, AppError>;

/// An error a handler returns: a registry code or an application code, with a message.
#[derive(Clone, Debug, PartialEq)]
pub struct AppError {
    /// The code, such as `NOT_FOUND` or an application code such as `QUOTA_EXCEEDED`.
    pub code: String,
    /// What happened, for people.
    pub message: String,
    /// HTTP status; registry codes have theirs, application codes default to 500.
    pub status: u16,
    /// Structured facts about the failure (boxed: errors travel in every `Result`).
    pub details: Option<Box<serde_json::Value>>,
    /// What the caller could do about it.
    pub hint: Option<String>,
    /// Whether the caller may retry, when the error says so itself; otherwise the status
    /// decides ([`retryable_status`]).
    pub retryable: Option<bool>,
}

impl AppError {
    /// An error with a registry code.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        AppError {
            code: code.name().to_owned(),
            message: message.into(),
            status: code.status(),
            details: None,
            hint: None,
            retryable: None,
        }
    }

    /// `UPSTREAM_ERROR`: the origin this service calls failed. `origin_status` is the status it
    /// answered (`None`: no answer), kept in `details.status`; this error's own status is that
    /// status where it is a gateway's (502, 503, 504), else 502. Retryable when no answer came
    /// or the origin's status says so (a 500 is not: the same request fails the same way).
    pub fn upstream(origin_status: Option<u16>, message: impl Into<String>) -> Self {
        let mut e = AppError::new(ErrorCode::UpstreamError, message);
        e.status = origin_status.filter(|s| (502..=504).contains(s)).unwrap_or(502);
        e.retryable = Some(origin_status.is_none_or(retryable_status));
        e.with_details(serde_json::json!({ "status": origin_status }))
    }

    /// The registry code of this error, or `None` for an application code
    /// (`QUOTA_EXCEEDED`): match on it rather than on the text of [`AppError::code`].
    pub fn registry_code(&self) -> Option<ErrorCode> {
        ErrorCode::from_name(&self.code)
    }

    /// An error with an application code (status 500 unless set with [`AppError::with_status`]).
    pub fn app(code: impl Into<String>, message: impl Into<String>) -> Self {
        let code = code.into();
        let status = ErrorCode::from_name(&code).map_or(500, ErrorCode::status);
        AppError { code, message: message.into(), status, details: None, hint: None, retryable: None }
    }

    /// An error answer the contract documents with a body of its own (`http.errors`): HTTP
    /// answers `status` with `body` as it is; tool surfaces get the envelope with code
    /// `HTTP_{status}` and the body in `details`. The runner holds the body to the schema the
    /// contract declares for `status`: an undeclared status, or a body that breaks its schema,
    /// is the handler's fault (`INTERNAL_SERVER_ERROR`).
    pub fn answer(status: u16, message: impl Into<String>, body: impl serde::Serialize) -> Self {
        let details = serde_json::to_value(body).ok().filter(|b| !b.is_null()).map(Box::new);
        AppError {
            code: format!("HTTP_{status}"),
            message: message.into(),
            status,
            details,
            hint: None,
            retryable: None,
        }
    }

    /// The status of an error answer made by [`AppError::answer`], if it is one.
    pub fn answer_status(&self) -> Option<u16> {
        let status = self.code.strip_prefix("HTTP_")?;
        (status.len() == 3).then(|| status.parse().ok()).flatten().filter(|s| *s == self.status)
    }

    /// `details` read as `T`: the typed body of an error answer ([`AppError::answer`]).
    pub fn body<T: serde::de::DeserializeOwned>(&self) -> Option<T> {
        serde_json::from_value(self.details.as_deref()?.clone()).ok()
    }

    /// Sets the HTTP status.
    #[must_use]
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = status;
        self
    }

    /// Attaches structured details.
    #[must_use]
    pub fn with_details(mut self, details: serde_json::Value) -> Self {
        self.details = Some(Box::new(details));
        self
    }

    /// Attaches a hint.
    #[must_use]
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// The HTTP body: `{"error": {"code", "message", "details"?, "hint"?}}`.
    pub fn http_envelope(&self) -> HttpErrorEnvelope {
        HttpErrorEnvelope {
            error: HttpErrorBody {
                code: self.code.clone(),
                message: self.message.clone(),
                details: self.details.as_deref().cloned(),
                hint: self.hint.clone(),
            },
        }
    }

    /// The tool envelope: `{"error": code, "details"?, "hint"?, "retryable"?}`.
    pub fn tool_envelope(&self) -> ToolErrorEnvelope {
        // The tool envelope has no `message` of its own: it goes in `details`, so a model reads
        // what happened beside the facts (`errors`, `status`).
        let mut details = self.details.as_deref().cloned();
        if !self.message.is_empty() {
            match &mut details {
                None => details = Some(serde_json::json!({ "message": self.message })),
                Some(serde_json::Value::Object(facts)) if !facts.contains_key("message") => {
                    facts.insert("message".to_owned(), serde_json::Value::String(self.message.clone()));
                }
                Some(_) => {}
            }
        }
        ToolErrorEnvelope {
            error: self.code.clone(),
            details,
            hint: self.hint.clone(),
            retryable: self.retryable.unwrap_or_else(|| retryable_status(self.status)).then_some(true),
        }
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for AppError {}

/// The HTTP error body.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HttpErrorEnvelope {
    /// The error.
    pub error: HttpErrorBody,
}

/// What the HTTP error body carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HttpErrorBody {
    /// The error code.
    pub code: String,
    /// What happened.
    pub message: String,
    /// Structured facts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
}

/// An error read back from its HTTP envelope (by a client, or from a stream's error frame): its
/// code, message, details and hint, with the code's registry status (500 for an application
/// code) until the caller sets the status it was answered with.
impl From<HttpErrorBody> for AppError {
    fn from(e: HttpErrorBody) -> Self {
        let mut error = AppError::app(e.code, e.message);
        error.details = e.details.map(Box::new);
        error.hint = e.hint;
        error
    }
}

/// The error envelope of tool surfaces (MCP `isError` text, CLI stderr).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ToolErrorEnvelope {
    /// The error code.
    pub error: String,
    /// Structured facts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
    /// What to do about it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Present (true) when the caller may retry.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub retryable: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_is_complete_and_consistent() {
        assert_eq!(ErrorCode::ALL.len(), 12);
        for c in ErrorCode::ALL {
            assert_eq!(ErrorCode::from_name(c.name()), Some(*c));
        }
        assert_eq!(ErrorCode::NotFound.status(), 404);
        assert_eq!(ErrorCode::NotFound.exit_code(), 4);
        assert_eq!(ErrorCode::ValidationError.exit_code(), 1);
    }

    #[test]
    fn envelopes() {
        let e = AppError::new(ErrorCode::RateLimited, "slow down").with_hint("wait a second");
        let tool = serde_json::to_value(e.tool_envelope()).unwrap();
        assert_eq!(
            tool,
            serde_json::json!({"error": "RATE_LIMITED", "details": {"message": "slow down"}, "hint": "wait a second", "retryable": true})
        );
        let http = serde_json::to_value(AppError::new(ErrorCode::NotFound, "no such person").http_envelope()).unwrap();
        assert_eq!(http, serde_json::json!({"error": {"code": "NOT_FOUND", "message": "no such person"}}));
        assert_eq!(AppError::app("QUOTA_EXCEEDED", "x").status, 500);
    }

    #[test]
    fn an_upstream_failure_says_whether_to_retry_by_the_origins_status() {
        let tool = |e: AppError| serde_json::to_value(e.tool_envelope()).unwrap();
        let unreachable = AppError::upstream(None, "the origin was not reached");
        assert_eq!((unreachable.code.as_str(), unreachable.status), ("UPSTREAM_ERROR", 502));
        assert_eq!(
            tool(unreachable),
            serde_json::json!({"error": "UPSTREAM_ERROR", "details": {"status": null, "message": "the origin was not reached"}, "retryable": true})
        );
        let broken = AppError::upstream(Some(500), "the origin answered HTTP 500");
        assert_eq!(broken.status, 502);
        assert_eq!(
            tool(broken),
            serde_json::json!({"error": "UPSTREAM_ERROR", "details": {"status": 500, "message": "the origin answered HTTP 500"}})
        );
        let busy = AppError::upstream(Some(503), "the origin answered HTTP 503");
        assert_eq!(busy.status, 503);
        assert_eq!(tool(busy)["retryable"], true);
    }
}
