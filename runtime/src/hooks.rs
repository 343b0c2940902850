//! What operators see of every call: lifecycle hooks the application adds to a [`crate::Service`]
//! (`before` may refuse, `after` sees what the caller received), and one `tracing` span per call.

use std::future::Future;
use std::pin::Pin;
use std::time::Instant;

use serde_json::Value;

use crate::ctx::Ctx;
use crate::def::{OperationDef, Surface};
use crate::error::AppError;

/// A boxed, sendable future, as hooks return them.
pub type HookFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// One call, as a hook sees it.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct CallInfo<'a> {
    /// The operation: its service, action, tool name and route.
    pub operation: &'static OperationDef,
    /// The surface the call arrived on.
    pub surface: Surface,
    /// The caller, as `identify` established it.
    pub ctx: &'a Ctx,
    /// The caller's own arguments: on tool surfaces as the caller sent them (no view default
    /// merged in), on HTTP the path parameters and the input together.
    pub arguments: &'a Value,
}

/// A lifecycle hook on a [`crate::Service`]: several run in the order added, on every surface,
/// once per call.
///
/// ```
/// use stitchgen_runtime::{AppError, CallInfo, Hook, HookFuture};
///
/// /// Writes who called what, and what they got back, to the audit log.
/// struct Audit;
///
/// impl Hook for Audit {
///     fn after<'a>(&'a self, call: &'a CallInfo<'a>, outcome: Result<&'a serde_json::Value, &'a AppError>) -> HookFuture<'a, ()> {
///         let who = call.ctx.identity.as_ref().map_or("anonymous", |i| i.subject.as_str());
///         let code = outcome.err().map_or("OK", |e| e.code.as_str());
///         println!("{who} {} {code}", call.operation.action);
///         Box::pin(async {})
///     }
/// }
/// ```
pub trait Hook: Send + Sync + 'static {
    /// Runs after the scope gate let the call in and before its arguments are validated and its
    /// handler runs; an `Err` refuses the call with that error (the handler never runs).
    fn before<'a>(&'a self, call: &'a CallInfo<'a>) -> HookFuture<'a, Result<(), AppError>> {
        let _ = call;
        Box::pin(async { Ok(()) })
    }

    /// Runs before `after` when the answer carries keys its output schema does not declare (an
    /// origin drifting from its contract, a map-typed output): their paths (`/people/*/ssn`),
    /// never their values, each path once per operation for the life of the service.
    fn undeclared<'a>(&'a self, call: &'a CallInfo<'a>, paths: &'a [String]) -> HookFuture<'a, ()> {
        let _ = (call, paths);
        Box::pin(async {})
    }

    /// Runs once the call is over, with what the caller received: on tool surfaces the view's
    /// answer (the card), on HTTP the full answer (`null` for raw responses and streams), or
    /// the error. A call the scope gate refused reaches `after` only (over HTTP, refused before
    /// its body is read, with `null` arguments).
    fn after<'a>(&'a self, call: &'a CallInfo<'a>, outcome: Result<&'a Value, &'a AppError>) -> HookFuture<'a, ()> {
        let _ = (call, outcome);
        Box::pin(async {})
    }
}

/// The span of one call: service, operation, tool, surface, and once it is over its outcome
/// code, HTTP status and duration.
pub(crate) fn span(def: &OperationDef, surface: Surface) -> tracing::Span {
    tracing::info_span!(
        target: "stitchgen_runtime",
        "call",
        service = def.service,
        operation = def.action,
        tool = def.tool_name.unwrap_or_default(),
        surface = surface.as_str(),
        code = tracing::field::Empty,
        status = tracing::field::Empty,
        duration_ms = tracing::field::Empty,
    )
}

/// Records how the call ended on its span, and one event: `info` for a success (with the HTTP
/// status it answers) or a caller's mistake, `error` with the full detail (server-side only) for
/// a failure of the service.
pub(crate) fn record(span: &tracing::Span, outcome: Result<u16, &AppError>, started: Instant) {
    let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let (code, status) = match outcome {
        Ok(status) => ("OK", status),
        Err(e) => (e.code.as_str(), e.status),
    };
    span.record("code", code).record("status", status).record("duration_ms", duration_ms);
    let _entered = span.enter();
    match outcome {
        Err(e) if e.status >= 500 => {
            tracing::error!(target: "stitchgen_runtime", code, status, duration_ms, details = ?e.details, "{}", e.message)
        }
        _ => tracing::info!(target: "stitchgen_runtime", code, status, duration_ms, "call"),
    }
}
