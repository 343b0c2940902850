//! The call context handlers and the scope gate see, and what every adapter hands the
//! application's `identify` to establish it.

use std::pin::Pin;
use std::sync::Arc;

use crate::{AppError, Surface};

/// Who is calling, as the application established it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Identity {
    /// Subject (a user or service id).
    pub subject: String,
    /// Scopes granted.
    pub scopes: Vec<String>,
}

/// The context of one call.
#[derive(Clone, Debug, Default)]
pub struct Ctx {
    /// The caller, when known. A call without identity to a non-public operation fails closed.
    pub identity: Option<Identity>,
    /// The caller's own `Authorization` header, kept only when the application chose to (see
    /// [`Ctx::forwarding`]): a remote service sends it on to its origin in place of its own.
    pub authorization: Option<String>,
}

impl Ctx {
    /// A context without identity: only public operations pass the default gate.
    pub fn anonymous() -> Self {
        Ctx::default()
    }

    /// A context for `subject` holding `scopes`.
    pub fn with_identity(subject: impl Into<String>, scopes: impl IntoIterator<Item = impl Into<String>>) -> Self {
        Ctx {
            identity: Some(Identity { subject: subject.into(), scopes: scopes.into_iter().map(Into::into).collect() }),
            authorization: None,
        }
    }

    /// This context, carrying the caller's `Authorization` header value for a remote service to
    /// forward to its origin (the origin then judges the caller itself). Off unless called:
    /// an adapter's `identify` closure opts in per request.
    #[must_use]
    pub fn forwarding(mut self, authorization: impl Into<String>) -> Self {
        self.authorization = Some(authorization.into());
        self
    }
}

/// What an adapter knows of a caller before reading a byte of its request body: the surface,
/// and the request's head where the transport has one (HTTP, MCP over streamable HTTP; not MCP
/// over stdio nor the command line, whose caller is the user who started the process).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Caller {
    /// The surface the call arrives on.
    pub surface: Surface,
    /// The request's method, URI, headers and extensions, where the transport has them.
    pub parts: Option<::http::request::Parts>,
}

impl Caller {
    /// A caller on `surface`, with the request's head where there is one.
    pub fn new(surface: Surface, parts: Option<::http::request::Parts>) -> Self {
        Caller { surface, parts }
    }

    /// The request headers, where the transport has them.
    pub fn headers(&self) -> Option<&::http::HeaderMap> {
        self.parts.as_ref().map(|p| &p.headers)
    }

    /// The value of header `name`, when present and text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers()?.get(name)?.to_str().ok()
    }

    /// The token of an `Authorization: Bearer TOKEN` header.
    pub fn bearer(&self) -> Option<&str> {
        let value = self.header("authorization")?;
        let (scheme, token) = value.split_once(' ')?;
        scheme.eq_ignore_ascii_case("bearer").then(|| token.trim()).filter(|t| !t.is_empty())
    }
}

/// How an application establishes who is calling, the same on every adapter
/// (`HttpApi::identify`, `McpServer::identify`, `ToolCli::identify`): asynchronous, so a token
/// can be looked up (a database, a key set fetched once), and able to refuse the request with an
/// [`AppError`] (`UNAUTHORIZED`, say), which the caller receives as any other failure, before
/// anything of the request is read.
pub type Identify = Arc<dyn Fn(Caller) -> Pin<Box<dyn Future<Output = Result<Ctx, AppError>> + Send>> + Send + Sync>;

/// `identify` as the shared, boxed [`Identify`] every adapter holds.
#[cfg(any(feature = "axum", feature = "mcp", feature = "cli"))]
pub(crate) fn boxed<F, Fut>(identify: F) -> Identify
where
    F: Fn(Caller) -> Fut + Send + Sync + 'static,
    Fut: Future<Output = Result<Ctx, AppError>> + Send + 'static,
{
    Arc::new(move |caller| Box::pin(identify(caller)))
}

/// The default of every adapter: every caller anonymous, so only public operations pass.
#[cfg(any(feature = "axum", feature = "mcp", feature = "cli"))]
pub(crate) fn anonymous() -> Identify {
    boxed(|_| std::future::ready(Ok(Ctx::anonymous())))
}

/// What a projection sees besides the full answer: the parsed input of the call (view
/// defaults applied). No context and no I/O, by construction.
#[derive(Clone, Debug)]
pub struct ViewCall<I> {
    /// The input the handler received.
    pub input: I,
}

#[cfg(test)]
mod tests {
    use super::Caller;
    use crate::Surface;

    #[test]
    fn a_bearer_token_is_read_from_the_authorization_header_alone() {
        let head = |value: &str| {
            let req = ::http::Request::builder().header("authorization", value).body(()).unwrap();
            Some(req.into_parts().0)
        };
        let caller = Caller::new(Surface::Http, head("bearer  t0k "));
        assert_eq!(caller.bearer(), Some("t0k"));
        assert_eq!(caller.header("Authorization"), Some("bearer  t0k "));
        assert_eq!(Caller::new(Surface::Mcp, head("Basic dTpw")).bearer(), None);
        assert_eq!(Caller::new(Surface::Cli, None).header("authorization"), None);
    }
}
