//! The MCP surface on rmcp: `tools/list` is the generated `mcp-tools.json`, `tools/call` goes
//! through the one runner with the view applied, failures are `isError` results carrying the tool
//! envelope, and the catalog stamp rides in `_meta`. Served over stdio or streamable HTTP.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation, InputRequiredResult,
    ListToolsResult, MetaObject, PaginatedRequestParams, ProgressNotificationParam, ProgressToken, ServerCapabilities,
    ServerConfig, Tool,
};
use rmcp::service::{Peer, RequestContext};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{Map, Value};

pub use crate::mcp_profile::CLIENT_PROFILES;
use crate::mcp_profile::Profiles;
use crate::search::{Catalog, DISCOVERY_META, META_TOOLS};
use crate::{AppError, Caller, Ctx, Identify, Progress, Service, Surface, ToolOutcome};

/// The `_meta` key of the catalog stamp.
pub const CATALOG_META: &str = "stitchgen/catalog";

/// Why a manifest cannot be served with the given services.
#[derive(Debug)]
#[non_exhaustive]
pub enum ManifestError {
    /// The text is not a `tools/list` result.
    Unreadable(String),
    /// A listed tool no service serves on MCP, or the reverse: the manifest and the code were
    /// generated from different contracts.
    Stale(String),
    /// The manifest is in search mode: it is served with its catalog, by [`McpServer::searching`].
    NeedsCatalog,
}

impl std::fmt::Display for ManifestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ManifestError::Unreadable(e) => write!(f, "the MCP manifest does not read: {e}"),
            ManifestError::Stale(e) => write!(f, "the MCP manifest does not match the services ({e}); regenerate both"),
            ManifestError::NeedsCatalog => write!(
                f,
                "the MCP manifest is in search mode: serve it with `mcp-catalog.json`, by `McpServer::searching`"
            ),
        }
    }
}

impl std::error::Error for ManifestError {}

/// An MCP server for generated services: a cheap-to-clone rmcp [`ServerHandler`].
#[derive(Clone)]
pub struct McpServer {
    services: Arc<[Service]>,
    tools: Arc<[Tool]>,
    catalog: Option<Arc<Catalog>>,
    stamp: Option<Value>,
    identify: Identify,
    name: Arc<str>,
    /// Streamable HTTP: the `Host` authorities accepted (DNS-rebinding protection).
    allowed_hosts: Arc<[String]>,
    /// Streamable HTTP: the browser `Origin`s accepted; empty accepts a request without one only.
    allowed_origins: Option<Arc<[String]>>,
    /// Whether a tool of the services asks its user (`tool.mcp.inputRequired`).
    asks: bool,
    /// The key `requestState` is sealed with (MCP 2026-07-28), and the codec made from it at
    /// the first question.
    state: Arc<StateKey>,
    /// The client profiles' lists, and which client is served which.
    profiles: Arc<Profiles>,
}

/// The sealing key of `requestState`, and its codec once made.
#[derive(Default)]
struct StateKey {
    key: Option<[u8; 32]>,
    codec: std::sync::OnceLock<Result<Arc<rmcp::model::RequestStateCodec>, String>>,
}

impl StateKey {
    fn codec(&self) -> Result<Arc<rmcp::model::RequestStateCodec>, AppError> {
        let made = self.codec.get_or_init(|| crate::mcp_ask::codec(self.key.map(Vec::from)).map(Arc::new));
        made.clone().map_err(|e| crate::validation::broken(&e))
    }
}

/// The `Host` authorities a streamable HTTP server accepts unless told otherwise: loopback only,
/// so a web page cannot reach a local server through a DNS name rebound to 127.0.0.1.
pub const LOOPBACK_HOSTS: [&str; 3] = ["localhost", "127.0.0.1", "::1"];

impl std::fmt::Debug for McpServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpServer").field("tools", &self.tools.len()).field("name", &self.name).finish()
    }
}

impl McpServer {
    /// A server listing `manifest` (the generated `mcp-tools.json`, byte for byte) and calling
    /// its tools on `services`. Every listed tool must be an MCP tool of one service and every
    /// MCP tool of the services must be listed.
    pub fn new(manifest: &str, services: impl IntoIterator<Item = Service>) -> Result<Self, ManifestError> {
        Self::build(manifest, None, services)
    }

    /// A server for a manifest in search mode: it lists `search_tools`, `describe_tools` and
    /// `call_tool` (and any tool of a contract in the default mode), and `catalog` (the generated
    /// `mcp-catalog.json`) holds the tools they stand for. Every tool of the manifest and the
    /// catalog must be an MCP tool of one service, and every MCP tool of the services must be in
    /// one of them.
    pub fn searching(
        manifest: &str,
        catalog: &str,
        services: impl IntoIterator<Item = Service>,
    ) -> Result<Self, ManifestError> {
        let catalog = Catalog::parse(catalog).map_err(|e| ManifestError::Unreadable(format!("the catalog: {e}")))?;
        Self::build(manifest, Some(catalog), services)
    }

    fn build(
        manifest: &str,
        catalog: Option<Catalog>,
        services: impl IntoIterator<Item = Service>,
    ) -> Result<Self, ManifestError> {
        let mut doc: Value = serde_json::from_str(manifest).map_err(|e| ManifestError::Unreadable(e.to_string()))?;
        let tools: Vec<Tool> =
            serde_json::from_value(doc["tools"].take()).map_err(|e| ManifestError::Unreadable(e.to_string()))?;
        let services: Arc<[Service]> = services.into_iter().collect();
        let searching = tools.iter().any(|t| t.meta.as_ref().is_some_and(|m| m.get(DISCOVERY_META).is_some()));
        if searching != catalog.is_some() {
            return Err(match catalog {
                None => ManifestError::NeedsCatalog,
                Some(_) => {
                    ManifestError::Stale("a catalog was given with a manifest that is not in search mode".into())
                }
            });
        }
        let served = |name: &str| services.iter().any(|s| s.find_tool(Surface::Mcp, name).is_some());
        let own = tools.iter().map(|t| t.name.as_ref()).filter(|n| !(searching && META_TOOLS.contains(n)));
        for name in own.chain(catalog.iter().flat_map(|c| c.names())) {
            if !served(name) {
                return Err(ManifestError::Stale(format!("no service serves listed tool `{name}`")));
            }
        }
        for op in services.iter().flat_map(|s| s.operations().iter()).filter(|op| op.on(Surface::Mcp)) {
            let name = op.tool_name.unwrap_or_default();
            let in_catalog = catalog.as_ref().is_some_and(|c| c.definition(name).is_some());
            if !in_catalog && !tools.iter().any(|t| t.name == name) {
                return Err(ManifestError::Stale(format!("tool `{name}` is not listed")));
            }
        }
        let stamp = tools.iter().find_map(|t| t.meta.as_ref()?.get(CATALOG_META).cloned());
        let asks = services.iter().flat_map(|s| s.operations().iter()).any(|op| !op.input_required.is_empty());
        Ok(McpServer {
            asks,
            services,
            tools: tools.into(),
            catalog: catalog.map(Arc::new),
            stamp,
            identify: crate::ctx::anonymous(),
            name: "stitchgen".into(),
            allowed_hosts: LOOPBACK_HOSTS.map(String::from).into(),
            allowed_origins: None,
            state: Arc::default(),
            profiles: Arc::default(),
        })
    }

    /// The server name announced at `initialize` (the version announced is this crate's).
    #[must_use]
    pub fn named(mut self, name: &str) -> Self {
        self.name = name.into();
        self
    }

    /// Every call runs as `ctx` (a local stdio server acting for the user who started it).
    #[must_use]
    pub fn with_identity(self, ctx: Ctx) -> Self {
        self.identify(move |_| std::future::ready(Ok(ctx.clone())))
    }

    /// Establishes who is calling; over streamable HTTP the caller carries the request headers,
    /// over stdio none.
    #[must_use]
    pub fn identify<F, Fut>(mut self, identify: F) -> Self
    where
        F: Fn(Caller) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Ctx, AppError>> + Send + 'static,
    {
        self.identify = crate::ctx::boxed(identify);
        self
    }

    /// Over streamable HTTP, accepts requests whose `Host` is one of `hosts` (`example.com` or
    /// `example.com:8443`) in place of [`LOOPBACK_HOSTS`]. Name the names a server is reached by;
    /// an empty list accepts any `Host`, and gives up the DNS-rebinding protection.
    #[must_use]
    pub fn allowed_hosts(mut self, hosts: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_hosts = hosts.into_iter().map(Into::into).collect();
        self
    }

    /// Over streamable HTTP, refuses a request whose `Origin` header (a browser's) is not one of
    /// `origins` (`https://app.example.com:443`, `http://localhost:*`); an empty list refuses
    /// every request that carries one. Without this call the `Origin` is not checked.
    #[must_use]
    pub fn allowed_origins(mut self, origins: impl IntoIterator<Item = impl Into<String>>) -> Self {
        self.allowed_origins = Some(origins.into_iter().map(Into::into).collect());
        self
    }

    /// Seals the `requestState` of a tool that asks its user (MCP 2026-07-28) with `key` in
    /// place of 32 random bytes drawn at start: set the same secret on every instance behind one
    /// address, so that a retry reaching another instance opens. Keep it out of clients' reach.
    #[must_use]
    pub fn request_state_key(mut self, key: [u8; 32]) -> Self {
        self.state = Arc::new(StateKey { key: Some(key), codec: std::sync::OnceLock::new() });
        self
    }

    /// Serves `manifest` (the generated `mcp-tools.NAME.json` of client profile `profile`,
    /// byte for byte) to the clients that profile is chosen for: by [`CLIENT_PROFILES`], or
    /// [`McpServer::client_profile`]. Their calls by the names it lists reach the same tools,
    /// with the same arguments, as the canonical list's. It must list every listed tool once.
    pub fn profile(mut self, profile: &str, manifest: &str) -> Result<Self, ManifestError> {
        let unreadable = |e: serde_json::Error| ManifestError::Unreadable(format!("profile `{profile}`: {e}"));
        let mut doc: Value = serde_json::from_str(manifest).map_err(unreadable)?;
        let tools: Vec<Tool> = serde_json::from_value(doc["tools"].take()).map_err(unreadable)?;
        Arc::make_mut(&mut self.profiles).add(profile, tools, &self.tools).map_err(ManifestError::Stale)?;
        Ok(self)
    }

    /// Serves each of `lists` (the generated module's `MCP_PROFILES`: each profile's name and
    /// its `mcp-tools.NAME.json`), as [`McpServer::profile`] does one.
    pub fn profiles(self, lists: &[(&str, &str)]) -> Result<Self, ManifestError> {
        lists.iter().try_fold(self, |server, (profile, manifest)| server.profile(profile, manifest))
    }

    /// Serves profile `profile` to the clients whose `initialize` announces `client` as
    /// `clientInfo.name`, in place of what [`CLIENT_PROFILES`] says for that name. A client
    /// whose profile was not given by [`McpServer::profile`] is served the canonical list.
    #[must_use]
    pub fn client_profile(mut self, client: &str, profile: &str) -> Self {
        Arc::make_mut(&mut self.profiles).client(client, profile);
        self
    }

    /// The listed tools.
    pub fn tools(&self) -> &[Tool] {
        &self.tools
    }

    /// Serves MCP over stdin/stdout until the client closes stdin.
    pub async fn serve_stdio(self) -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
        let running = match self.serve(rmcp::transport::stdio()).await {
            Ok(running) => running,
            // The client went away before `initialize`: nothing to serve.
            Err(rmcp::service::ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
            Err(e) => return Err(e.into()),
        };
        running.waiting().await?;
        Ok(())
    }

    /// The streamable-HTTP transport, as a tower service to mount in a router
    /// (`Router::new().nest_service("/mcp", server.streamable_http())`). Sessions live in memory.
    /// Requests are checked against [`McpServer::allowed_hosts`] and [`McpServer::allowed_origins`].
    pub fn streamable_http(self) -> StreamableHttpService<McpServer, LocalSessionManager> {
        let mut config = StreamableHttpServerConfig::default().with_allowed_hosts(self.allowed_hosts.iter().cloned());
        if let Some(origins) = &self.allowed_origins {
            config = config.with_allowed_origins(origins.iter().cloned()).enforce_origin_validation();
        }
        StreamableHttpService::new(move || Ok(self.clone()), LocalSessionManager::default().into(), config)
    }

    fn meta(&self, extra: Map<String, Value>) -> MetaObject {
        let mut meta = MetaObject::new();
        meta.0.extend(extra);
        if let Some(stamp) = &self.stamp {
            // The runtime owns the stamp: a presenter cannot replace it.
            meta.insert(CATALOG_META.to_owned(), stamp.clone());
        }
        meta
    }

    fn answer(&self, outcome: ToolOutcome) -> Result<CallToolResult, AppError> {
        let text = serde_json::to_string_pretty(&outcome.value).unwrap_or_default();
        let mut content = vec![ContentBlock::text(text)];
        let presentation = outcome.presentation.unwrap_or_default();
        for block in presentation.content {
            let block = serde_json::from_value::<ContentBlock>(block).map_err(|e| {
                crate::validation::broken(&format!("the MCP presenter returned a block that is not MCP content: {e}"))
            })?;
            content.push(block);
        }
        let mut result = CallToolResult::success(content);
        // An operation without output (HTTP's 204) answers nothing; `structuredContent` is an
        // object when present, never `null`. Every other answer is one: an object, or wrapped.
        if !outcome.value.is_null() {
            result.structured_content = Some(outcome.value);
        }
        Ok(result.with_meta(Some(self.meta(presentation.meta))))
    }

    /// The questions a call answers with (MCP 2026-07-28), or the failure to state them.
    fn input_required(&self, requests: Value) -> CallToolResponse {
        match serde_json::from_value::<InputRequiredResult>(requests) {
            Ok(result) => CallToolResponse::InputRequired(result),
            Err(e) => self.failure(&crate::validation::broken(&format!("the questions do not read: {e}"))).into(),
        }
    }

    fn failure(&self, e: &AppError) -> CallToolResult {
        let text = serde_json::to_string(&e.tool_envelope()).unwrap_or_default();
        CallToolResult::error(vec![ContentBlock::text(text)]).with_meta(Some(self.meta(Map::new())))
    }
}

impl ServerHandler for McpServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(self.name.to_string(), env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let client = context.peer.peer_info().map(|p| p.client_info.name.clone());
        match self.profiles.for_client(client.as_deref()) {
            Some((profile, listed)) => {
                tracing::debug!(client = client.as_deref(), profile, "the client is listed its profile's tools");
                Ok(ListToolsResult::with_all_items(listed.tools.to_vec()))
            }
            None => Ok(ListToolsResult::with_all_items(self.tools.to_vec())),
        }
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned().or_else(|| self.profiles.find(name))
    }

    async fn call_tool(
        &self,
        mut request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A client served a profile calls by the names its list gives: the canonical call first.
        let client = context.peer.peer_info().map(|p| p.client_info.name.clone());
        if let Some((_, listed)) = self.profiles.for_client(client.as_deref())
            && let Err(e) = listed.map_back(&mut request)
        {
            return Ok(self.failure(&e).into());
        }
        let listed = self.tools.iter().any(|t| t.name == request.name);
        let searched = self.catalog.as_ref().filter(|_| META_TOOLS.contains(&request.name.as_ref()));
        let service = self.services.iter().find(|s| s.find_tool(Surface::Mcp, &request.name).is_some());
        let parts = context.extensions.get::<http::request::Parts>().cloned();
        let ctx = match (self.identify)(Caller::new(Surface::Mcp, parts)).await {
            Ok(ctx) => ctx,
            Err(e) => return Ok(self.failure(&e).into()),
        };
        let ctx = match context.meta.get_progress_token() {
            Some(token) => ctx.on_progress(notifier(context.peer.clone(), token)),
            None => ctx,
        };
        let ctx = if self.asks {
            let codec = match self.state.codec() {
                Ok(codec) => codec,
                Err(e) => return Ok(self.failure(&e).into()),
            };
            let subject = ctx.identity.as_ref().map(|i| i.subject.clone());
            ctx.asking(crate::mcp_ask::asker(codec, &request, &context, subject.as_deref()))
        } else {
            ctx
        };
        let args = Value::Object(request.arguments.unwrap_or_default());
        let called = match (listed, searched, service) {
            (true, Some(catalog), _) => catalog.call(&self.services, Surface::Mcp, &request.name, args, &ctx).await,
            (true, None, Some(service)) => service.call_tool(Surface::Mcp, &request.name, args, &ctx).await,
            // The one failure MCP wants as a protocol error: a tool the manifest does not list
            // (in search mode, a catalog tool is called through `call_tool`).
            _ => return Err(ErrorData::invalid_params(format!("Unknown tool: {}", request.name), None)),
        };
        let result = match called {
            Ok(outcome) if outcome.input_required => return Ok(self.input_required(outcome.value)),
            Ok(outcome) => self.answer(outcome).unwrap_or_else(|e| self.failure(&e)),
            Err(e) => self.failure(&e),
        };
        Ok(result.into())
    }
}

/// Sends a call's progress reports to the client that asked for them with `token`, on the
/// call's own stream (stdio, or the request's SSE stream over streamable HTTP).
fn notifier(
    peer: Peer<RoleServer>,
    token: ProgressToken,
) -> impl Fn(Progress) -> std::pin::Pin<Box<dyn Future<Output = ()> + Send>> + Send + Sync + 'static {
    move |p: Progress| {
        let (peer, token) = (peer.clone(), token.clone());
        Box::pin(async move {
            let mut param = ProgressNotificationParam::new(token, p.done);
            param.total = p.total;
            param.message = p.message;
            // A client gone mid-call loses its progress; the call itself goes on to its answer.
            if let Err(e) = peer.notify_progress(param).await {
                tracing::debug!(error = %e, "a progress notification was not sent");
            }
        })
    }
}
