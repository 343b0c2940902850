//! How an adapter asks a tool's user its questions (`tool.mcp.inputRequired`), as a call's
//! context carries it: below the context, which holds one, and the runner's asking
//! ([`crate::elicit`]), which calls it.

use std::collections::BTreeMap;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::{Map, Value};

use crate::{AppError, InputRequiredDef};

/// What the person answered to one question.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) enum Elicited {
    /// The form, filled in.
    Accept(Map<String, Value>),
    /// The person said no.
    Decline,
    /// The person dismissed the question.
    Cancel,
}

/// What an adapter's asking came to.
#[derive(Debug)]
// Made by the MCP adapter alone: a runtime built without it never asks.
#[cfg_attr(not(feature = "mcp"), allow(dead_code))]
pub(crate) enum Asked {
    /// The person's answer to each question, by key.
    Replies(BTreeMap<String, Elicited>),
    /// No one can be asked, and why (the client cannot be).
    Unable(&'static str),
    /// The questions go back to the client with the call's answer (MCP 2026-07-28's
    /// `InputRequiredResult`, as JSON); the client retries the call with the answers.
    Pending(Value),
}

type AskFn =
    dyn Fn(&'static [InputRequiredDef]) -> Pin<Box<dyn Future<Output = Result<Asked, AppError>> + Send>> + Send + Sync;

/// How the adapter of one call asks its user, shared by the clones of the call's context.
#[derive(Clone)]
pub(crate) struct Asker(pub(crate) Arc<AskFn>);

impl std::fmt::Debug for Asker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Asker")
    }
}
