//! A contract's tool surfaces in front of the API that already runs it, in any language, as one
//! command line: MCP over stdio (`mcp`), MCP over streamable HTTP (`http`), and the CLI surface
//! (`call TOOL`). Every call goes through the one runner (view defaults, validation before
//! anything is sent, the scope gate, the answer checked against the contract on return, the
//! view), then to the origin.
//!
//! ```text
//! NAME mcp --origin URL [--credential SCHEME=VALUE]... [--header 'NAME: VALUE']... [--scope S]...
//!                                                                        MCP over stdio
//! NAME http --origin URL [--addr ADDR] [--credential …]... [--header …]... [--scope S]...
//!           [--forward-authorization [--own-credentials-fallback] | --trust-callers]
//!           [--allowed-host HOST]... [--allowed-origin ORIGIN]...      MCP over streamable HTTP at /mcp
//! GATEWAY_ORIGIN=URL [GATEWAY_CREDENTIALS=SCHEME=VALUE] NAME call TOOL [--flags] [--json]
//!                                                                        the CLI surface
//! ```
//!
//! A credential is named by its scheme in the contract's `securitySchemes` (as the OpenAPI
//! document names it): each operation gets the one it asks for, sent as the scheme says.
//!
//! The service is the caller's: a generated module's `remote(origin)`, compiled, or
//! [`crate::remote::service`] over definitions built in memory; both serve the same values.

use std::ffi::OsString;
use std::process::ExitCode;
use std::sync::Arc;

use clap::{Arg, ArgAction, ArgMatches, Command};

use crate::cli::ToolCli;
use crate::mcp::McpServer;
use crate::remote::Origin;
use crate::{Caller, Ctx, Service};

/// One contract's gateway: its name, MCP tool list (and catalog in search mode), and how its
/// service is made in front of an origin.
#[derive(Clone)]
pub struct Gateway {
    name: String,
    mcp_tools: String,
    mcp_catalog: Option<String>,
    /// Each MCP client profile's name and tool list, served to its clients.
    mcp_profiles: Vec<(String, String)>,
    remote: Arc<dyn Fn(Origin) -> Service + Send + Sync>,
}

impl std::fmt::Debug for Gateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gateway").field("name", &self.name).finish_non_exhaustive()
    }
}

impl Gateway {
    /// The gateway of service `name`, whose MCP tool list is `mcp_tools` (and its catalog
    /// `mcp_catalog` in search mode), `remote` making its service in front of an origin.
    pub fn new(
        name: impl Into<String>,
        mcp_tools: impl Into<String>,
        mcp_catalog: Option<String>,
        remote: impl Fn(Origin) -> Service + Send + Sync + 'static,
    ) -> Self {
        Gateway {
            name: name.into(),
            mcp_tools: mcp_tools.into(),
            mcp_catalog,
            mcp_profiles: Vec::new(),
            remote: Arc::new(remote),
        }
    }

    /// Serves each MCP client its profile's tool list (`McpServer::profiles`): each profile's
    /// name and its list (`mcp-tools.NAME.json`).
    #[must_use]
    pub fn with_mcp_profiles(mut self, lists: Vec<(String, String)>) -> Self {
        self.mcp_profiles = lists;
        self
    }

    /// Runs the command line `args` (the program name first; `bin` is how usage names the
    /// program, `gateway` or `stitchgen gateway api.yaml`) and returns the exit code.
    pub fn main(&self, bin: &str, args: Vec<OsString>) -> ExitCode {
        let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
            Ok(runtime) => runtime,
            Err(e) => {
                eprintln!("{bin}: cannot start: {e}");
                return ExitCode::FAILURE;
            }
        };
        // Usage names the program as `bin`, for as long as the process runs.
        let bin: &'static str = String::leak(bin.to_owned());
        // The CLI surface parses its own arguments; its origin comes from the environment.
        if args.get(1).is_some_and(|a| a == "call") {
            return runtime.block_on(self.call(bin, args));
        }
        let matches = match self.command(bin).try_get_matches_from(args) {
            Ok(m) => m,
            Err(e) => e.exit(),
        };
        // What the runtime keeps from callers (an origin answer that breaks the contract, with
        // the values that broke it) is the operator's to read: on stderr, never on the MCP
        // channel. Not for `call`, whose stderr a model running it reads. `RUST_LOG=info` adds
        // one line per call.
        let level = std::env::var("RUST_LOG").ok().and_then(|l| l.parse().ok()).unwrap_or(tracing::Level::WARN);
        let _ = tracing_subscriber::fmt().with_writer(std::io::stderr).with_max_level(level).try_init();
        let result = match matches.subcommand() {
            Some(("mcp", m)) => self.remote(m).and_then(|(service, ctx)| runtime.block_on(self.mcp(service, ctx))),
            Some(("http", m)) => {
                self.remote(m).and_then(|(service, ctx)| runtime.block_on(self.http(Listen::from(m), service, ctx)))
            }
            _ => unreachable!("clap requires a subcommand; `call` is handled above"),
        };
        match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{bin}: {e}");
                ExitCode::FAILURE
            }
        }
    }

    /// `call TOOL …`: the CLI surface, its origin and credentials from the environment.
    async fn call(&self, bin: &'static str, args: Vec<OsString>) -> ExitCode {
        let origin = std::env::var("GATEWAY_ORIGIN").unwrap_or_default();
        if origin.is_empty() && !args.iter().any(|a| a == "--help" || a == "-h") {
            eprintln!("{bin}: set GATEWAY_ORIGIN to the API's base URL");
            return ExitCode::from(2);
        }
        let origin = match cli_origin() {
            Ok(origin) => origin,
            Err(e) => {
                eprintln!("{bin}: GATEWAY_CREDENTIALS: {e}");
                return ExitCode::from(2);
            }
        };
        let cli = ToolCli::new([(self.remote)(origin)])
            .identify(|_| std::future::ready(Ok(Ctx::with_identity("gateway", Vec::<String>::new()))));
        let name: &'static str = String::leak(format!("{bin} call"));
        cli.run(name, args.into_iter().skip(1)).await
    }

    fn command(&self, bin: &'static str) -> Command {
        Command::new("gateway")
            .bin_name(bin)
            .about(format!("The `{}` contract's tool surfaces in front of its running API", self.name))
            .subcommand_required(true)
            .subcommand(origin_args(Command::new("mcp").about("Serve MCP over stdio")))
            .subcommand(origin_args(
                Command::new("http")
                    .about("Serve MCP over streamable HTTP at /mcp")
                    .arg(Arg::new("addr").long("addr").default_value("127.0.0.1:8090").help("Address to listen on"))
                    .arg(
                        Arg::new("forward-authorization")
                            .long("forward-authorization")
                            .action(ArgAction::SetTrue)
                            .conflicts_with("trust-callers")
                            .help("Send each caller's own Authorization header to the API, in place of every credential of the gateway's; a caller without one is refused"),
                    )
                    .arg(
                        Arg::new("own-credentials-fallback")
                            .long("own-credentials-fallback")
                            .action(ArgAction::SetTrue)
                            .requires("forward-authorization")
                            .help("With --forward-authorization: serve a caller without Authorization with the gateway's own credentials"),
                    )
                    .arg(Arg::new("trust-callers").long("trust-callers").action(ArgAction::SetTrue).help(
                        "Every caller acts with the gateway's credentials (it sits behind your own authentication); needed, or --forward-authorization, on an address other than loopback",
                    ))
                    .arg(Arg::new("allowed-host").long("allowed-host").action(ArgAction::Append).help(
                        "A Host callers reach the gateway by (`api.example.com`, `api.example.com:8443`); default loopback only, required on another address",
                    ))
                    .arg(Arg::new("allowed-origin").long("allowed-origin").action(ArgAction::Append).help(
                        "A browser Origin allowed to call (`https://app.example.com:443`); once one is given, requests from any other Origin are refused",
                    )),
            ))
            // Listed for the usage only: `call` is parsed above, by the CLI surface, whose
            // `call --help` lists the tools (building them here would compile every schema twice).
            .subcommand(
                Command::new("call")
                    .about("Call one tool (the API's URL in GATEWAY_ORIGIN); `call --help` lists them")
                    .allow_external_subcommands(true),
            )
    }

    /// The remote service, the identity of its callers: from `--origin`, `--header` and `--scope`.
    fn remote(&self, m: &ArgMatches) -> Result<(Service, Ctx), Error> {
        let url = m.get_one::<String>("origin").ok_or("the API's URL is required (--origin or GATEWAY_ORIGIN)")?;
        let mut origin = Origin::new(url).timeout(std::time::Duration::from_secs(30));
        for line in m.get_many::<String>("header").into_iter().flatten() {
            let (name, value) = line.split_once(':').ok_or_else(|| format!("`{line}` is not `NAME: VALUE`"))?;
            origin = origin.header(name.trim(), value.trim());
        }
        origin = credentials(origin, m.get_many::<String>("credential").into_iter().flatten().map(String::as_str))?;
        let scopes: Vec<String> = m.get_many::<String>("scope").into_iter().flatten().cloned().collect();
        Ok(((self.remote)(origin), Ctx::with_identity("gateway", scopes)))
    }

    async fn mcp(&self, service: Service, ctx: Ctx) -> Result<(), Error> {
        self.server(service)?.named(&self.name).with_identity(ctx).serve_stdio().await
    }

    /// The MCP server of the contract's tools: listed, or in search mode with its catalog; each
    /// client given its profile's list.
    fn server(&self, service: Service) -> Result<McpServer, Error> {
        let server = match &self.mcp_catalog {
            Some(catalog) => McpServer::searching(&self.mcp_tools, catalog, [service])?,
            None => McpServer::new(&self.mcp_tools, [service])?,
        };
        let lists: Vec<(&str, &str)> = self.mcp_profiles.iter().map(|(p, l)| (p.as_str(), l.as_str())).collect();
        Ok(server.profiles(&lists)?)
    }

    /// MCP over streamable HTTP at `/mcp`. Every caller is the one identity of `--scope`, acting
    /// either with its own `Authorization` (forwarded, for the API to judge) or, by the operator's
    /// choice, with the gateway's credentials. Beyond loopback that choice must be made.
    async fn http(&self, listen: Listen, service: Service, ctx: Ctx) -> Result<(), Error> {
        let listener = tokio::net::TcpListener::bind(&listen.addr).await?;
        let local = listener.local_addr()?;
        let (beyond, chosen) = (!local.ip().is_loopback(), listen.forward || listen.trusted);
        if beyond && !chosen {
            return Err(format!(
                "{local} is reachable beyond this machine: choose how callers are authenticated, --forward-authorization (each caller's own credential goes to the API) or --trust-callers (every caller acts with the gateway's; put it behind your own authentication)"
            )
            .into());
        }
        if beyond && listen.hosts.is_empty() {
            return Err(format!("{local} is reachable beyond this machine: name the host callers reach it by, --allowed-host HOST (only loopback names are accepted otherwise)").into());
        }
        let forward = listen.forward;
        let identify = move |caller: Caller| {
            std::future::ready(Ok(match caller.header("authorization") {
                Some(authorization) if forward => ctx.clone().forwarding(authorization),
                _ => ctx.clone(),
            }))
        };
        let mut mcp = self.server(service)?.named(&self.name).identify(identify);
        if !listen.hosts.is_empty() {
            mcp = mcp.allowed_hosts(listen.hosts);
        }
        if !listen.origins.is_empty() {
            mcp = mcp.allowed_origins(listen.origins);
        }
        let mut app = axum::Router::new().nest_service("/mcp", mcp.streamable_http());
        if listen.forward && !listen.fallback {
            app = app.layer(axum::middleware::from_fn(own_credential_required));
        }
        eprintln!("gateway: listening on http://{local}/mcp");
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await?;
        Ok(())
    }
}

type Error = Box<dyn std::error::Error + Send + Sync>;

/// `--origin`, `--header` and `--scope`, shared by the serving commands.
fn origin_args(command: Command) -> Command {
    command
        .arg(Arg::new("origin").long("origin").env("GATEWAY_ORIGIN").required(true).help("The API's base URL"))
        .arg(
            Arg::new("header")
                .long("header")
                .action(ArgAction::Append)
                .help("A header every request to the API carries, `NAME: VALUE` (a credential)"),
        )
        .arg(Arg::new("credential").long("credential").action(ArgAction::Append).help(
            "A credential of the contract's `securitySchemes`, `SCHEME=VALUE`: sent to each operation that asks for it",
        ))
        .arg(
            Arg::new("scope")
                .long("scope")
                .action(ArgAction::Append)
                .help("A scope the gateway's callers hold (an operation with another scope is refused here)"),
        )
}

/// `SCHEME=VALUE` pairs held by `origin` under each scheme's name.
fn credentials<'a>(mut origin: Origin, pairs: impl Iterator<Item = &'a str>) -> Result<Origin, Error> {
    for pair in pairs {
        let (scheme, value) = pair.split_once('=').ok_or_else(|| format!("`{pair}` is not `SCHEME=VALUE`"))?;
        origin = origin.credential(scheme.trim(), value);
    }
    Ok(origin)
}

/// The CLI surface's origin: `GATEWAY_ORIGIN`, with the `SCHEME=VALUE` credentials of
/// `GATEWAY_CREDENTIALS` (separated by newlines).
fn cli_origin() -> Result<Origin, Error> {
    let url = std::env::var("GATEWAY_ORIGIN").unwrap_or_default();
    let pairs = std::env::var("GATEWAY_CREDENTIALS").unwrap_or_default();
    credentials(Origin::new(url), pairs.lines().filter(|l| !l.trim().is_empty()))
}

/// Under `--forward-authorization`: a caller without an `Authorization` header is refused before
/// its request is read, rather than served with the gateway's credentials.
async fn own_credential_required(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    if req.headers().contains_key(axum::http::header::AUTHORIZATION) {
        return next.run(req).await;
    }
    let body = r#"{"error":{"code":"UNAUTHORIZED","message":"this gateway forwards each caller's own credential: send an Authorization header"}}"#;
    (
        axum::http::StatusCode::UNAUTHORIZED,
        [(axum::http::header::CONTENT_TYPE, "application/json"), (axum::http::header::WWW_AUTHENTICATE, "Bearer")],
        body,
    )
        .into_response()
}

/// How `gateway http` listens and who its callers are.
struct Listen {
    addr: String,
    /// Each caller's `Authorization` goes to the API in place of the gateway's credentials.
    forward: bool,
    /// With `forward`: a caller without one is served with the gateway's credentials.
    fallback: bool,
    /// Every caller acts with the gateway's credentials, by the operator's explicit choice.
    trusted: bool,
    hosts: Vec<String>,
    origins: Vec<String>,
}

impl From<&ArgMatches> for Listen {
    fn from(m: &ArgMatches) -> Self {
        let many = |name| m.get_many::<String>(name).into_iter().flatten().cloned().collect();
        Listen {
            addr: m.get_one::<String>("addr").cloned().unwrap_or_default(),
            forward: m.get_flag("forward-authorization"),
            fallback: m.get_flag("own-credentials-fallback"),
            trusted: m.get_flag("trust-callers"),
            hosts: many("allowed-host"),
            origins: many("allowed-origin"),
        }
    }
}
