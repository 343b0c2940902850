//! `directory`: a people directory and its meeting rooms, two contracts generated together and
//! served side by side on every surface: one HTTP listener, one MCP server, one command line.
//!
//! ```text
//! directory mcp [--scope S]...          MCP over stdio: cards, never personal fields
//! directory mcp --origin URL [--origin-header 'NAME: VALUE']...
//!                                       the same, in front of a running `directory http`
//! directory http --addr ADDR            HTTP (full records), /openapi.json, and MCP at /mcp
//! directory call TOOL [--flags] [--json] the CLI surface: cards on stdout, envelope on stderr
//! directory client --url URL [--team T | --id ID]  a running `directory http` called through the typed client
//! ```

mod people_impl;
mod rooms_impl;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Arg, ArgAction, Command};
use stitchgen_runtime::axum::{HttpApi, with_fallbacks};
use stitchgen_runtime::cli::ToolCli;
use stitchgen_runtime::client::HttpClient;
use stitchgen_runtime::mcp::McpServer;
use stitchgen_runtime::remote::Origin;
use stitchgen_runtime::{Caller, Ctx, Service};

stitchgen_runtime::include_contract!("people");
stitchgen_runtime::include_contract!("rooms");

/// The generated manifests (one for both contracts, so either module's constant), served as
/// they were generated.
const MCP_TOOLS: &str = people::MCP_TOOLS;
const OPENAPI: &str = people::OPENAPI;

/// How many people the directory starts with.
const SEED: usize = 300;

fn command(cli: &ToolCli) -> Command {
    Command::new("directory")
        .about("A people directory: full records over HTTP, cards on the tool surfaces")
        .subcommand_required(true)
        .subcommand(
            Command::new("mcp")
                .about("Serve MCP over stdio")
                .arg(
                    Arg::new("scope")
                        .long("scope")
                        .action(ArgAction::Append)
                        .help("A scope the local user holds (`admin` allows delete_person)"),
                )
                .arg(Arg::new("origin").long("origin").help(
                    "Forward every call to a running `directory http` at this URL (the remote service), \
                     instead of serving the directory in this process",
                ))
                .arg(
                    Arg::new("origin-header")
                        .long("origin-header")
                        .action(ArgAction::Append)
                        .requires("origin")
                        .help("A header every request to the origin carries, `NAME: VALUE` (a credential)"),
                ),
        )
        .subcommand(
            Command::new("http")
                .about("Serve HTTP, /openapi.json and MCP over streamable HTTP at /mcp")
                .arg(Arg::new("addr").long("addr").default_value("127.0.0.1:8080").help("Address to listen on"))
                .arg(
                    Arg::new("admin-token")
                        .long("admin-token")
                        .env("DIRECTORY_ADMIN_TOKEN")
                        .help("A bearer token that grants the `admin` scope"),
                ),
        )
        .subcommand(cli.command("call"))
        .subcommand(
            Command::new("client")
                .about("Call a running `directory http` through the generated typed client: full records")
                .arg(Arg::new("url").long("url").default_value("http://127.0.0.1:8080").help("The server's base URL"))
                .arg(Arg::new("team").long("team").help("List the people of one team (default: everyone, first five)"))
                .arg(Arg::new("id").long("id").conflicts_with("team").help("Get one person by id")),
        )
}

/// Both services, people first.
fn services() -> [Service; 2] {
    [people::service(people_impl::Directory::seeded(SEED)), rooms::service(rooms_impl::Rooms::new())]
}

/// One line per call on stderr (stdout is MCP's over stdio), at the level `RUST_LOG` names
/// (`info` shows every call; the default, `warn`, a failure of the service's own).
fn log() {
    let level = std::env::var("RUST_LOG").ok().and_then(|l| l.parse().ok()).unwrap_or(tracing::Level::WARN);
    let _ = tracing_subscriber::fmt().with_writer(std::io::stderr).with_max_level(level).try_init();
}

fn main() -> ExitCode {
    log();
    let args: Vec<OsString> = std::env::args_os().collect();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a tokio runtime starts");
    let cli = ToolCli::new(services())
        .identify(|_| std::future::ready(Ok(Ctx::with_identity("local", Vec::<String>::new()))));
    // The CLI surface parses its own arguments, so a usage error is a VALIDATION_ERROR (exit 1).
    if args.get(1).is_some_and(|a| a == "call") {
        return runtime.block_on(cli.run("directory call", args.into_iter().skip(1)));
    }
    let matches = command(&cli).get_matches_from(args);
    let result = match matches.subcommand() {
        Some(("mcp", m)) => {
            let scopes: Vec<String> = m.get_many::<String>("scope").into_iter().flatten().cloned().collect();
            let headers: Vec<String> = m.get_many::<String>("origin-header").into_iter().flatten().cloned().collect();
            match m.get_one::<String>("origin").map(|url| remote(url, &headers)) {
                Some(Err(e)) => Err(e),
                Some(Ok(services)) => runtime.block_on(mcp(services, Ctx::with_identity("local", scopes))),
                None => runtime.block_on(mcp(services(), Ctx::with_identity("local", scopes))),
            }
        }
        Some(("http", m)) => {
            let addr = m.get_one::<String>("addr").cloned().unwrap_or_default();
            runtime.block_on(http(&addr, m.get_one::<String>("admin-token").cloned()))
        }
        Some(("client", m)) => {
            let arg = |name| m.get_one::<String>(name).cloned();
            runtime.block_on(client(&arg("url").unwrap_or_default(), arg("team"), arg("id")))
        }
        _ => unreachable!("clap requires a subcommand"),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("directory: {e}");
            ExitCode::FAILURE
        }
    }
}

type Error = Box<dyn std::error::Error + Send + Sync>;

async fn mcp(services: [Service; 2], ctx: Ctx) -> Result<(), Error> {
    McpServer::new(MCP_TOOLS, services)?.named("directory").with_identity(ctx).serve_stdio().await
}

/// Both services remote: every call forwarded to the `directory http` at `url`; the views and
/// presenters run here.
fn remote(url: &str, headers: &[String]) -> Result<[Service; 2], Error> {
    let mut origin = Origin::new(url).timeout(std::time::Duration::from_secs(30));
    for line in headers {
        let (name, value) = line.split_once(':').ok_or_else(|| format!("`{line}` is not `NAME: VALUE`"))?;
        origin = origin.header(name.trim(), value.trim());
    }
    Ok([people::remote::<people_impl::Directory, _>(origin.clone()), rooms::remote(origin)])
}

/// Lists people (or gets one) from a running server through the typed client: full records,
/// one JSON line each.
async fn client(url: &str, team: Option<String>, id: Option<String>) -> Result<(), Error> {
    let client = people::Client::new(HttpClient::new(url).timeout(std::time::Duration::from_secs(10)));
    if let Some(id) = id {
        let person = client.get(&people::get::Params { id }).await?;
        println!("{}", serde_json::to_string(&person)?);
        return Ok(());
    }
    let listed = client.list(&people::list::Input { team, limit: Some(5), offset: None }).await?;
    let page = &listed.body;
    for person in &page.people {
        println!("{}", serde_json::to_string(person)?);
    }
    let left = &listed.headers.x_rate_limit_remaining;
    eprintln!("directory: {} of {} people ({left} listings left this minute)", page.people.len(), page.total);
    Ok(())
}

async fn http(addr: &str, admin_token: Option<String>) -> Result<(), Error> {
    let [people, rooms] = services();
    // One `identify` for every surface: a bearer token over HTTP or MCP over streamable HTTP.
    let identify = move |caller: Caller| {
        let admin = matches!((caller.bearer(), &admin_token), (Some(given), Some(token)) if given == token);
        std::future::ready(Ok(if admin { Ctx::with_identity("admin", ["admin"]) } else { Ctx::anonymous() }))
    };
    let mcp = McpServer::new(MCP_TOOLS, [people.clone(), rooms.clone()])?.named("directory").identify(identify.clone());
    // Both services' routes on one router, the one OpenAPI document (it describes both) beside
    // them, one fallback for what neither serves, and MCP at /mcp.
    let routes = HttpApi::new(people).identify(identify.clone()).openapi(OPENAPI).routes();
    let app = with_fallbacks(routes.merge(HttpApi::new(rooms).identify(identify).routes()))
        .nest_service("/mcp", mcp.streamable_http());
    let listener = tokio::net::TcpListener::bind(addr).await?;
    eprintln!("directory: listening on http://{}", listener.local_addr()?);
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await?;
    Ok(())
}
