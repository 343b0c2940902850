//! The call context handlers and the scope gate see.

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

/// What a projection sees besides the full answer: the parsed input of the call (view
/// defaults applied). No context and no I/O, by construction.
#[derive(Clone, Debug)]
pub struct ViewCall<I> {
    /// The input the handler received.
    pub input: I,
}
