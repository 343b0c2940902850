//! A contract's surfaces in front of a server that already runs it, in any language: a generated
//! module's `remote(origin)` is a service whose every operation is forwarded to the origin through
//! the typed client, while the one runner here merges view defaults, validates the arguments
//! before anything is sent, gates scopes, validates the origin's answer against the full output
//! (an answer that breaks the contract is `INTERNAL_SERVER_ERROR`, never shown to a model),
//! then projects the view and runs presenters.
//!
//! ```ignore
//! let origin = Origin::new("https://api.example.com").bearer(token).timeout(Duration::from_secs(10));
//! let service = petstore::remote(origin); // mount it on MCP, the agent surface, the CLI
//! ```
//!
//! An origin that is not a stitchgen service answers errors its own way: its status is read onto
//! the registry (see the `From<ClientError>` impl of [`crate::AppError`]). A runtime tool has no
//! route to forward to: a remote service answers it `NOT_IMPLEMENTED`.

/// Where a remote service sends its calls: the origin's base URL, the headers and query
/// parameters every request carries (credentials), a timeout, and optionally one's own
/// `reqwest::Client`. It is the typed client's HTTP transport.
pub type Origin = crate::client::HttpClient;
