//! The call context handlers and the scope gate see, and what every adapter hands the
//! application's `identify` to establish it.

use std::pin::Pin;
use std::sync::Arc;

use serde_json::{Map, Value};

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
    /// Where [`Ctx::progress`] reports go: set by the adapter of a surface that has somewhere
    /// to send them, or by [`Ctx::on_progress`].
    progress: Option<Reporter>,
    /// How this call's user is asked (`tool.mcp.inputRequired`): set by the MCP adapter.
    asker: Option<crate::questions::Asker>,
    /// The user's answers, by question key, once asked (or given by an in-process caller).
    answers: Option<Arc<Map<String, Value>>>,
}

/// One report of a long call's progress, as a handler gives it to [`Ctx::progress`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Progress {
    /// The work done so far.
    pub done: f64,
    /// The whole of the work, when known.
    pub total: Option<f64>,
    /// What the call is doing, when it says.
    pub message: Option<String>,
}

type ReportFn = dyn Fn(Progress) -> Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync;

/// A progress sink, shared by the clones of one call's context.
#[derive(Clone)]
struct Reporter(Arc<ReportFn>);

impl std::fmt::Debug for Reporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Reporter")
    }
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
            ..Ctx::default()
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

    /// Reports how far a long call has got: `done` of `total` (when known), with a short
    /// `message` (empty for none). An MCP client that asked for progress (a `progressToken`)
    /// receives `notifications/progress`, the CLI prints a line on stderr, HTTP sends nothing;
    /// a call with nowhere to report returns at once. Reports that do not advance (`done` no
    /// greater than the last one sent) and values that are not finite are dropped: MCP wants
    /// progress to grow. Awaited, so a report is sent before the call's answer.
    pub async fn progress(&self, done: f64, total: Option<f64>, message: &str) {
        let Some(Reporter(report)) = &self.progress else { return };
        if !done.is_finite() || total.is_some_and(|t| !t.is_finite()) {
            return;
        }
        tracing::debug!(done, total, message, "progress");
        let message = (!message.is_empty()).then(|| message.to_owned());
        report(Progress { done, total, message }).await;
    }

    /// The user's answer to question `key` of the tool's `tool.mcp.inputRequired` (the form as
    /// filled in), read into `T`; `None` when the question was not asked (off MCP) or the answer
    /// does not read into `T`. On MCP the handler runs only once every question was answered
    /// and each answer fits its form.
    pub fn answer<T: serde::de::DeserializeOwned>(&self, key: &str) -> Option<T> {
        T::deserialize(self.answers.as_ref()?.get(key)?).ok()
    }

    /// This context, carrying `answers` (by question key) as if the user had given them: how an
    /// in-process caller, or a test, calls a tool that asks its user. Each is checked against
    /// its form all the same.
    #[must_use]
    pub fn with_answers(mut self, answers: Map<String, Value>) -> Self {
        self.answers = Some(Arc::new(answers));
        self
    }

    pub(crate) fn given_answers(&self) -> Option<&Map<String, Value>> {
        self.answers.as_deref()
    }

    pub(crate) fn asker(&self) -> Option<&crate::questions::Asker> {
        self.asker.as_ref()
    }

    /// This context, asking its user through `asker` (the MCP adapter's).
    #[cfg(feature = "mcp")]
    pub(crate) fn asking(mut self, asker: crate::questions::Asker) -> Self {
        self.asker = Some(asker);
        self
    }

    /// This context, sending its [`Ctx::progress`] reports to `report` (only the reports that
    /// advance). The adapters set it where their surface has somewhere to send them; an
    /// in-process caller may set its own.
    #[must_use]
    pub fn on_progress<F, Fut>(mut self, report: F) -> Self
    where
        F: Fn(Progress) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let last = std::sync::Mutex::new(f64::NEG_INFINITY);
        let report = move |p: Progress| -> Pin<Box<dyn Future<Output = ()> + Send>> {
            let mut last = last.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if p.done <= *last {
                return Box::pin(std::future::ready(()));
            }
            *last = p.done;
            Box::pin(report(p))
        };
        self.progress = Some(Reporter(Arc::new(report)));
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
    use std::sync::{Arc, Mutex};

    use super::{Caller, Ctx, Progress};
    use crate::Surface;

    #[tokio::test]
    async fn progress_reaches_the_sink_only_when_it_advances_and_is_finite() {
        let heard = Arc::new(Mutex::new(Vec::<Progress>::new()));
        let sink = heard.clone();
        let ctx = Ctx::anonymous().on_progress(move |p| {
            sink.lock().unwrap().push(p);
            std::future::ready(())
        });
        // A clone (as a handler may hold) shares the sink and what it last sent.
        let clone = ctx.clone();
        ctx.progress(1.0, Some(3.0), "one").await;
        clone.progress(1.0, Some(3.0), "the same again").await;
        ctx.progress(f64::NAN, None, "").await;
        ctx.progress(2.0, Some(f64::INFINITY), "").await;
        clone.progress(2.5, None, "").await;
        let seen: Vec<_> = heard.lock().unwrap().iter().map(|p| (p.done, p.total, p.message.clone())).collect();
        assert_eq!(seen, [(1.0, Some(3.0), Some("one".to_owned())), (2.5, None, None)]);
        // Nowhere to report: nothing happens, nothing fails.
        Ctx::anonymous().progress(1.0, None, "unheard").await;
    }

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
