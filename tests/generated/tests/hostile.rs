//! Hostile callers through the real surfaces (docs/security.md): a model whose arguments a prompt
//! injection wrote (through the runner and through the official Rust MCP SDK's client), an
//! anonymous HTTP client (through the axum router), and an origin that answers slowly, hugely or
//! off-contract (a remote service and the typed client in front of a recording origin). Each
//! attack is refused as documented; where a limit applies, the attacker's bytes read are measured.

mod desk;
mod directory;
mod recording;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::response::IntoResponse;
use directory::{Directory, directory};
use futures_util::StreamExt;
use recording::{Seen, origin};
use serde_json::{Value, json};
use stitchgen_generated_tests::people;
use stitchgen_runtime::axum::{HttpApi, MAX_JSON_BODY_BYTES, MAX_MULTIPART_BYTES, MAX_MULTIPART_PARTS};
use stitchgen_runtime::cli::ToolCli;
use stitchgen_runtime::client::{ClientError, HttpClient, MAX_KEPT_BODY};
use stitchgen_runtime::mcp::McpServer;
use stitchgen_runtime::{
    Answer, AppError, BoxFuture, Call, CallInfo, Caller, Ctx, Dispatch, ErrorCode, FileFieldDef, Hook, HookFuture,
    HttpKindDef, MultipartDef, OpKind, OperationDef, Service, Surface,
};
use tower::ServiceExt;

/// Everything a caller is shown of `e`, on every surface: message, details, the envelopes.
fn shown(e: &AppError) -> String {
    let tool = serde_json::to_string(&e.tool_envelope()).unwrap();
    let http = serde_json::to_string(&e.http_envelope()).unwrap();
    format!("{} {tool} {http}", e.message)
}

async fn tool(svc: &Service, name: &str, args: Value) -> Result<Value, AppError> {
    svc.call_tool(Surface::Mcp, name, args, &Ctx::anonymous()).await.map(|o| o.value)
}

/// A body of `len` bytes in 64 KiB chunks that counts the bytes the server pulled from it.
fn counted(len: usize, read: &Arc<AtomicUsize>) -> Body {
    const CHUNK: usize = 64 * 1024;
    let read = read.clone();
    let chunks = (0..len.div_ceil(CHUNK)).map(move |i| {
        let n = CHUNK.min(len - i * CHUNK);
        read.fetch_add(n, Ordering::SeqCst);
        Ok::<_, std::io::Error>(vec![b'x'; n])
    });
    Body::from_stream(futures_util::stream::iter(chunks))
}

async fn send(router: axum::Router, req: Request<Body>) -> (StatusCode, Value) {
    let res = router.oneshot(req).await.expect("the router is infallible");
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap();
    (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_broken_answer_shows_the_caller_where_and_which_keyword_never_a_value() {
    let dir = directory();
    dir.break_output.store(true, Ordering::SeqCst);
    let svc = people::service(dir);
    let e = tool(&svc, "get_person", json!({"id": "p1"})).await.unwrap_err();
    assert_eq!((e.code.as_str(), e.status), ("INTERNAL_SERVER_ERROR", 500));
    assert_eq!(e.details.as_deref().unwrap()["errors"], json!([{"path": "/email", "keyword": "format"}]));
    assert!(!shown(&e).contains("not an email"), "{}", shown(&e));
    // The HTTP surface answers the same envelope.
    let router = stitchgen_runtime::axum::HttpApi::new(svc).router();
    let (status, body) = send(router, Request::get("/people/p1").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR);
    assert!(!body.to_string().contains("not an email"), "{body}");
}

#[tokio::test]
async fn an_origin_answer_off_contract_reaches_no_caller_with_its_values() {
    let seen = Seen::default();
    // A record whose hidden fields break the contract: the view would never show them.
    let leaky = json!({"id": "p1", "name": "Ada", "email": "ada@example.com", "team": "core",
                       "phone": 5550199, "address": {"street": "1 Secret Lane"}});
    let not_json = "<html>ada@example.com +1 555 0199</html>";
    let answers = [
        ([("content-type", "application/json")], leaky.to_string()).into_response(),
        ([("content-type", "application/json")], not_json.to_owned()).into_response(),
    ];
    for answer in answers {
        let answer = Arc::new(std::sync::Mutex::new(Some(answer)));
        let router = axum::Router::new().route(
            "/people/{id}",
            axum::routing::get(move || {
                let answer = answer.lock().unwrap().take().unwrap_or_else(|| StatusCode::GONE.into_response());
                std::future::ready(answer)
            }),
        );
        let base = origin(router, &seen).await;
        let svc = people::remote::<Directory, _>(HttpClient::new(&base));
        let e = tool(&svc, "get_person", json!({"id": "p1"})).await.unwrap_err();
        assert_eq!(e.code, "INTERNAL_SERVER_ERROR", "{e:?}");
        for secret in ["5550199", "555 0199", "Secret Lane", "ada@"] {
            assert!(!shown(&e).contains(secret), "{secret}: {}", shown(&e));
        }
    }
}

#[tokio::test]
async fn an_unauthorised_upload_is_refused_before_a_byte_is_read() {
    let read = Arc::new(AtomicUsize::new(0));
    let upload = Request::post("/api/tickets/T-000001/attachments")
        .header("content-type", "multipart/form-data; boundary=x")
        .body(counted(50 << 20, &read))
        .unwrap();
    let (status, body) = send(desk::app(), upload).await;
    assert_eq!((status, body["error"]["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("UNAUTHORIZED")));
    assert_eq!(read.load(Ordering::SeqCst), 0, "bytes of the anonymous upload read");
}

#[tokio::test]
async fn a_caller_without_the_scope_learns_nothing_of_the_schema() {
    // `delete` needs `support-admin`; the caller holds `support`. The id breaks its pattern.
    let req = Request::delete("/api/tickets/not-an-id").header("authorization", "Bearer agent");
    let (status, body) = send(desk::app(), req.body(Body::empty()).unwrap()).await;
    assert_eq!((status, body["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("FORBIDDEN")));
    assert!(body["error"].get("details").is_none(), "{body}");
    // The same on a tool surface: the scope gate runs before validation.
    let e = tool(&people::service(directory()), "delete_person", json!({"id": 5, "surprise": true})).await;
    assert_eq!(e.unwrap_err().code, "UNAUTHORIZED");
}

/// Dot segments, written and encoded, and an empty segment: each would move a request once a URL
/// is normalised (`/people/..` is `/`, the listing).
const MOVING: [&str; 8] = ["..", ".", "%2e%2e", "%2E%2e", ".%2E", "%252e%252e", "../../admin", ""];

#[tokio::test]
async fn a_path_parameter_never_moves_a_request_off_its_route() {
    let seen = Seen::default();
    let base = origin(stitchgen_runtime::axum::HttpApi::new(people::service(directory())).router(), &seen).await;
    let there = people::remote::<Directory, _>(HttpClient::new(&base));
    let client = people::Client::new(HttpClient::new(&base));
    for id in MOVING {
        let e = tool(&there, "get_person", json!({"id": id})).await.unwrap_err();
        assert_eq!(e.code, "VALIDATION_ERROR", "{id:?}: {e:?}");
        let e = client.get(&people::get::Params { id: id.into() }).await.unwrap_err();
        assert!(matches!(&e, ClientError::Invalid(e) if e.code == "VALIDATION_ERROR"), "{id:?}: {e:?}");
    }
    assert_eq!(seen.count(), 0, "no request reached the origin: {}", seen.1.lock().unwrap());
    // Served here: the adapter hands `..` to the runner, which refuses it the same way.
    for uri in ["/people/%2e%2e", "/people/.%2E"] {
        let (status, body) = send(
            stitchgen_runtime::axum::HttpApi::new(people::service(directory())).router(),
            Request::get(uri).body(Body::empty()).unwrap(),
        )
        .await;
        assert_eq!((status, body["error"]["code"].as_str()), (StatusCode::BAD_REQUEST, Some("VALIDATION_ERROR")));
    }
    // A wildcard's segments each.
    for uri in ["/api/tickets/files/2026/%2e%2e/secrets", "/api/tickets/files/a/./b"] {
        let req = Request::get(uri).header("authorization", "Bearer agent").body(Body::empty()).unwrap();
        let (status, body) = send(desk::app(), req).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (StatusCode::BAD_REQUEST, Some("VALIDATION_ERROR")),
            "{uri}"
        );
    }
}

/// A multipart body whose one file is `len` bytes, streamed and counted.
fn counted_upload(len: usize, read: &Arc<AtomicUsize>) -> Body {
    let head = "--x\r\ncontent-disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\n\r\n";
    let head = futures_util::stream::once(async move { Ok::<_, std::io::Error>(head.as_bytes().to_vec()) });
    let body =
        counted(len, read).into_data_stream().map(|chunk| chunk.map(|b| b.to_vec()).map_err(std::io::Error::other));
    Body::from_stream(head.chain(body))
}

/// An upload endpoint that declares no limit at all, as an imported contract may have it.
static UPLOAD: OperationDef = OperationDef {
    service: "drop",
    action: "upload",
    kind: OpKind::Contract,
    scope: "public",
    surfaces: &[Surface::Http],
    method: Some("POST"),
    path: Some("/upload"),
    http_kind: HttpKindDef {
        multipart: Some(MultipartDef {
            files: &[FileFieldDef {
                name: "file",
                required: true,
                multiple: false,
                max_files: None,
                max_bytes: None,
                content_types: &[],
            }],
            max_request_bytes: None,
            max_field_bytes: None,
        }),
        ..HttpKindDef::PLAIN
    },
    ..OperationDef::EMPTY
};

static UPLOADS: &[&OperationDef] = &[&UPLOAD];

struct Accept;
impl Dispatch for Accept {
    fn call<'a>(&'a self, _: usize, _: &'a Ctx, _: Call) -> BoxFuture<'a, Result<Answer, AppError>> {
        Box::pin(async { Ok(Answer::new(Value::Null)) })
    }
}

#[tokio::test]
async fn every_body_is_read_within_a_limit_and_refused_past_it_unread() {
    const SLACK: usize = 128 * 1024;
    // An upload without declared limits: the default total holds.
    let read = Arc::new(AtomicUsize::new(0));
    let router = stitchgen_runtime::axum::router(Service::new("{}", UPLOADS, Accept));
    let req = Request::post("/upload").header("content-type", "multipart/form-data; boundary=x");
    let (status, body) = send(router, req.body(counted_upload(100 << 20, &read)).unwrap()).await;
    assert_eq!((status, body["error"]["code"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("PAYLOAD_TOO_LARGE")));
    let pulled = read.load(Ordering::SeqCst);
    eprintln!("an upload without declared limits: {pulled} bytes of 100 MiB read");
    assert!(pulled <= MAX_MULTIPART_BYTES as usize + SLACK, "read {pulled} bytes of a 100 MiB upload");
    // A JSON body, at the default and at a limit the application set.
    for (api, limit) in
        [(HttpApi::new(tickets()), MAX_JSON_BODY_BYTES), (HttpApi::new(tickets()).max_json_body_bytes(4096), 4096)]
    {
        let read = Arc::new(AtomicUsize::new(0));
        let req = Request::post("/api/tickets").header("authorization", "Bearer agent");
        let (status, _) = send(api.identify(agent).router(), req.body(counted(64 << 20, &read)).unwrap()).await;
        assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
        let pulled = read.load(Ordering::SeqCst);
        eprintln!("a JSON body past a limit of {limit}: {pulled} bytes of 64 MiB read");
        assert!(pulled <= limit + SLACK, "read {pulled} bytes of a 64 MiB body past a limit of {limit}");
    }
    // An upload of many tiny parts.
    let mut form = String::new();
    for i in 0..=MAX_MULTIPART_PARTS {
        form += &format!("--x\r\ncontent-disposition: form-data; name=\"note{i}\"\r\n\r\nn\r\n");
    }
    form += "--x--\r\n";
    let router = stitchgen_runtime::axum::router(Service::new("{}", UPLOADS, Accept));
    let req = Request::post("/upload").header("content-type", "multipart/form-data; boundary=x");
    let (status, body) = send(router, req.body(Body::from(form)).unwrap()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
}

fn tickets() -> Service {
    stitchgen_generated_tests::tickets::service(desk::Desk)
}

async fn agent(caller: Caller) -> Result<Ctx, AppError> {
    Ok(match caller.header("authorization") {
        Some(_) => Ctx::with_identity("agent", ["support"]),
        None => Ctx::anonymous(),
    })
}

/// An origin that answers `get` with `status` and a body of `len` bytes, counting the bytes it
/// was made to produce, after `delay`.
async fn answering(status: StatusCode, len: usize, delay: std::time::Duration) -> (String, Arc<AtomicUsize>) {
    let made = Arc::new(AtomicUsize::new(0));
    let counter = made.clone();
    let router = axum::Router::new().route(
        "/people/{id}",
        axum::routing::get(move || {
            let counter = counter.clone();
            async move {
                tokio::time::sleep(delay).await;
                let mut res = counted(len, &counter).into_response();
                *res.status_mut() = status;
                res.headers_mut().insert("content-type", "application/json".parse().unwrap());
                res
            }
        }),
    );
    (origin(router, &Seen::default()).await, made)
}

#[tokio::test]
async fn an_origin_that_answers_hugely_or_slowly_is_cut_off() {
    const LIMIT: u64 = 1 << 20;
    // What the kernel and the HTTP stack buffer between the two ends before the origin blocks.
    const BUFFERED: usize = 24 << 20;
    for status in [StatusCode::OK, StatusCode::INTERNAL_SERVER_ERROR] {
        let (base, made) = answering(status, 256 << 20, std::time::Duration::ZERO).await;
        let svc = people::remote::<Directory, _>(HttpClient::new(&base).max_answer_bytes(LIMIT));
        let e = tool(&svc, "get_person", json!({"id": "p1"})).await.unwrap_err();
        // A success too large to read is this service unable to keep its contract; a failure
        // status, read only to its start, is the origin's failure.
        let code = if status.is_success() { "INTERNAL_SERVER_ERROR" } else { "UPSTREAM_ERROR" };
        assert_eq!(e.code, code, "{status}: {e:?}");
        let envelope = serde_json::to_string(&e.tool_envelope()).unwrap();
        assert!(envelope.len() < MAX_KEPT_BODY + 1024, "{status}: the error keeps only the start of a body");
        let made = made.load(Ordering::SeqCst);
        eprintln!("{status}: the origin wrote {made} bytes of 256 MiB before the client stopped reading");
        assert!(made <= LIMIT as usize + BUFFERED, "{status}: the origin wrote {made} bytes of 256 MiB");
    }
    let (base, _) = answering(StatusCode::OK, 16, std::time::Duration::from_secs(5)).await;
    let svc = people::remote::<Directory, _>(HttpClient::new(&base).timeout(std::time::Duration::from_millis(200)));
    let started = std::time::Instant::now();
    let e = tool(&svc, "get_person", json!({"id": "p1"})).await.unwrap_err();
    assert_eq!((e.code.as_str(), e.status, e.retryable), ("UPSTREAM_ERROR", 504, Some(true)));
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    assert_eq!(stitchgen_runtime::client::DEFAULT_TIMEOUT, std::time::Duration::from_secs(30), "docs/security.md");
}

#[tokio::test]
async fn an_origin_that_fails_is_an_upstream_error_never_this_services_own() {
    // Not reached: a port nothing listens on. The address is the operator's to know, not the caller's.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let svc = people::remote::<Directory, _>(HttpClient::new(&base));
    let e = tool(&svc, "get_person", json!({"id": "p1"})).await.unwrap_err();
    assert_eq!((e.code.as_str(), e.status, e.retryable), ("UPSTREAM_ERROR", 502, Some(true)), "{e:?}");
    assert!(!shown(&e).contains("127.0.0.1"), "{}", shown(&e));
    let envelope = serde_json::to_value(e.tool_envelope()).unwrap();
    assert_eq!(envelope["details"]["status"], Value::Null);
    // A 503 it does not explain: its status is kept, and says to retry.
    let (base, _) = answering(StatusCode::SERVICE_UNAVAILABLE, 16, std::time::Duration::ZERO).await;
    let svc = people::remote::<Directory, _>(HttpClient::new(&base));
    let e = tool(&svc, "get_person", json!({"id": "p1"})).await.unwrap_err();
    assert_eq!((e.code.as_str(), e.status), ("UPSTREAM_ERROR", 503));
    let envelope = serde_json::to_value(e.tool_envelope()).unwrap();
    assert_eq!((&envelope["details"]["status"], &envelope["retryable"]), (&json!(503), &json!(true)), "{envelope}");
    // A 500: the origin's status in details, and no retry (the same request fails the same way).
    let (base, _) = answering(StatusCode::INTERNAL_SERVER_ERROR, 16, std::time::Duration::ZERO).await;
    let svc = people::remote::<Directory, _>(HttpClient::new(&base));
    let e = tool(&svc, "get_person", json!({"id": "p1"})).await.unwrap_err();
    let envelope = serde_json::to_value(e.tool_envelope()).unwrap();
    assert_eq!((e.code.as_str(), e.status), ("UPSTREAM_ERROR", 502));
    assert_eq!((&envelope["details"]["status"], envelope.get("retryable")), (&json!(500), None), "{envelope}");
}

/// The MCP server of `service`'s tools alone.
fn mcp_server(service: Service) -> McpServer {
    const MCP_TOOLS: &str = include_str!(concat!(env!("OUT_DIR"), "/mcp-tools.json"));
    let mut manifest: Value = serde_json::from_str(MCP_TOOLS).unwrap();
    let tools = manifest["tools"].as_array_mut().unwrap();
    tools.retain(|t| service.find_tool(Surface::Mcp, t["name"].as_str().unwrap()).is_some());
    McpServer::new(&manifest.to_string(), [service]).unwrap()
}

/// `server`, reached by the official Rust SDK's client over an in-process pipe: what an MCP
/// client sends and reads, byte for byte.
async fn mcp_client(server: McpServer) -> rmcp::service::RunningService<rmcp::RoleClient, ()> {
    use rmcp::ServiceExt;
    let (here, there) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move { server.serve(there).await.unwrap().waiting().await });
    ().serve(here).await.expect("the client initializes")
}

/// Calls `name` through the client: whether it is an error, and every text it carries.
async fn mcp_call(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ()>,
    name: &str,
    args: Value,
) -> (bool, String) {
    let params = rmcp::model::CallToolRequestParams::new(name.to_owned())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    let result = client.call_tool(params).await.expect("an answer");
    (result.is_error == Some(true), serde_json::to_string(&result).unwrap())
}

#[tokio::test]
async fn over_mcp_a_real_client_sees_no_hidden_value_no_schema_and_no_moved_request() {
    let dir = directory();
    dir.break_output.store(true, Ordering::SeqCst);
    let client = mcp_client(mcp_server(people::service(dir))).await;
    let (error, text) = mcp_call(&client, "get_person", json!({"id": "p1"})).await;
    assert!(error && text.contains("INTERNAL_SERVER_ERROR") && text.contains("keyword"), "{text}");
    assert!(!text.contains("not an email") && !text.contains("555"), "{text}");
    let (error, text) = mcp_call(&client, "delete_person", json!({"id": 5, "surprise": true})).await;
    assert!(error && text.contains("UNAUTHORIZED") && !text.contains("surprise"), "{text}");
    // In front of an origin: a dot segment is refused here, and nothing reaches the origin.
    let seen = Seen::default();
    let base = origin(HttpApi::new(people::service(directory())).router(), &seen).await;
    let client = mcp_client(mcp_server(people::remote::<Directory, _>(HttpClient::new(&base)))).await;
    for id in MOVING {
        let (error, text) = mcp_call(&client, "get_person", json!({"id": id})).await;
        assert!(error && text.contains("VALIDATION_ERROR"), "{id:?}: {text}");
    }
    assert_eq!(seen.count(), 0, "no request reached the origin");
    let (error, text) = mcp_call(&client, "get_person", json!({"id": "p1"})).await;
    assert!(!error && text.contains("Ada"), "{text}");
}

#[tokio::test]
async fn the_contract_s_own_limits_hold_on_both_ends() {
    // `create` declares `limits.maxBodyBytes: 16384`, below the adapter's default.
    let read = Arc::new(AtomicUsize::new(0));
    let router = HttpApi::new(people::service(directory())).router();
    let req = Request::post("/people").header("content-type", "application/json");
    let (status, _) = send(router, req.body(counted(1 << 20, &read)).unwrap()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(read.load(Ordering::SeqCst) <= 16384 + 64 * 1024, "read {}", read.load(Ordering::SeqCst));
    // `get` declares `limits.maxAnswerBytes: 65536`: an origin's answer of 1 MiB is refused,
    // though the client's own default would read it.
    let (base, made) = answering(StatusCode::OK, 1 << 20, std::time::Duration::ZERO).await;
    let e = tool(&people::remote::<Directory, _>(HttpClient::new(&base)), "get_person", json!({"id": "p1"})).await;
    let e = e.unwrap_err();
    assert_eq!(e.code, "INTERNAL_SERVER_ERROR");
    assert!(e.message.contains("larger than 65536 bytes"), "{}", e.message);
    assert!(made.load(Ordering::SeqCst) <= 1 << 20);
}

/// The sessions an application knows, looked up asynchronously as a database would be: a token
/// it does not know (or no token at all) is refused where identity is made.
#[derive(Clone, Default)]
struct Sessions {
    known: Arc<tokio::sync::RwLock<Vec<(String, Ctx)>>>,
    asked: Arc<AtomicUsize>,
}

impl Sessions {
    async fn identify(self, caller: Caller) -> Result<Ctx, AppError> {
        self.asked.fetch_add(1, Ordering::SeqCst);
        tokio::task::yield_now().await;
        let token = caller.bearer().unwrap_or_default().to_owned();
        let known = self.known.read().await;
        match known.iter().find(|(t, _)| *t == token) {
            Some((_, ctx)) => Ok(ctx.clone()),
            None => Err(AppError::new(ErrorCode::Unauthorized, format!("no session on {:?}", caller.surface))),
        }
    }
}

#[tokio::test]
async fn an_async_identify_refuses_a_request_alike_on_http_mcp_and_cli() {
    let sessions = Sessions::default();
    sessions.known.write().await.push(("s3cret".into(), Ctx::with_identity("ada", ["admin"])));
    let identify = |s: &Sessions| {
        let s = s.clone();
        move |caller| s.clone().identify(caller)
    };
    let read = Arc::new(AtomicUsize::new(0));
    let router = HttpApi::new(people::service(directory())).identify(identify(&sessions)).router();
    // HTTP: refused before the body is read, with the application's error as the envelope.
    let req =
        Request::post("/people").header("authorization", "Bearer stale").header("content-type", "application/json");
    let (status, body) = send(router.clone(), req.body(counted(1 << 20, &read)).unwrap()).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    assert_eq!(body, json!({"error": {"code": "UNAUTHORIZED", "message": "no session on Http"}}));
    assert_eq!(read.load(Ordering::SeqCst), 0, "not a byte of the body was read");
    // The session it knows passes, and the scope it holds decides.
    let req = Request::get("/people/p1").header("authorization", "Bearer s3cret").body(Body::empty()).unwrap();
    assert_eq!(send(router, req).await.0, StatusCode::OK);
    // MCP: the same refusal as a tool error carrying the envelope, on a public tool too.
    let client = mcp_client(mcp_server(people::service(directory())).identify(identify(&sessions))).await;
    let (error, text) = mcp_call(&client, "list_people", json!({})).await;
    assert!(error && text.contains("UNAUTHORIZED") && text.contains("no session on Mcp"), "{text}");
    // CLI: the exit code of UNAUTHORIZED.
    let cli = ToolCli::new([people::service(directory())]).identify(identify(&sessions));
    assert_eq!(cli.call("list_people", json!({}), true).await, std::process::ExitCode::from(2));
    assert_eq!(sessions.asked.load(Ordering::SeqCst), 4, "identify ran once per request");
}

/// Records every hook call as one line; refuses the calls of `refuse` in `before`.
#[derive(Clone, Default)]
struct Recorder {
    seen: Arc<std::sync::Mutex<Vec<String>>>,
    refuse: Option<&'static str>,
}

impl Recorder {
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.seen.lock().unwrap())
    }
}

impl Hook for Recorder {
    fn before<'a>(&'a self, call: &'a CallInfo<'a>) -> HookFuture<'a, Result<(), AppError>> {
        let line = format!("before {} {} {}", call.surface.as_str(), call.operation.action, call.arguments);
        self.seen.lock().unwrap().push(line);
        let refused = self.refuse == Some(call.operation.action);
        Box::pin(
            async move { if refused { Err(AppError::new(ErrorCode::Forbidden, "held by policy")) } else { Ok(()) } },
        )
    }

    fn undeclared<'a>(&'a self, call: &'a CallInfo<'a>, paths: &'a [String]) -> HookFuture<'a, ()> {
        self.seen.lock().unwrap().push(format!("undeclared {} {paths:?}", call.operation.action));
        Box::pin(async {})
    }

    fn after<'a>(&'a self, call: &'a CallInfo<'a>, outcome: Result<&'a Value, &'a AppError>) -> HookFuture<'a, ()> {
        let got = outcome.map_or_else(|e| e.code.clone(), Value::to_string);
        self.seen.lock().unwrap().push(format!("after {} {} {got}", call.surface.as_str(), call.operation.action));
        Box::pin(async {})
    }
}

#[tokio::test]
async fn hooks_see_every_call_once_on_every_surface_with_what_the_caller_got() {
    let hook = Recorder::default();
    let service = || people::service(directory()).with_hook(hook.clone());
    let card = r#"{"id":"p1","name":"Ada","team":"core"}"#;
    let args = json!({"id": "p1"});
    // In process, on a tool surface: the caller's own arguments, no view default merged in.
    service().call_tool(Surface::Agent, "list_people", json!({"team": "web"}), &Ctx::anonymous()).await.unwrap();
    assert_eq!(hook.take(), [r#"before AGENT list {"team":"web"}"#, r#"after AGENT list {"people":[],"total":0}"#]);
    // HTTP: the full record, email included.
    let req = Request::get("/people/p1").body(Body::empty()).unwrap();
    assert_eq!(send(HttpApi::new(service()).router(), req).await.0, StatusCode::OK);
    let seen = hook.take();
    assert_eq!(seen[0], r#"before HTTP get {"id":"p1"}"#);
    assert!(seen[1].starts_with("after HTTP get {") && seen[1].contains("@"), "{seen:?}");
    assert_eq!(seen.len(), 2);
    // MCP, through the official Rust SDK's client: the card.
    let client = mcp_client(mcp_server(service())).await;
    assert!(!mcp_call(&client, "get_person", args.clone()).await.0);
    assert_eq!(hook.take(), [r#"before MCP get {"id":"p1"}"#.to_owned(), format!("after MCP get {card}")]);
    // The command line.
    let cli = ToolCli::new([service()]);
    assert_eq!(cli.call("get_person", args.clone(), true).await, std::process::ExitCode::SUCCESS);
    assert_eq!(hook.take(), [r#"before CLI get {"id":"p1"}"#.to_owned(), format!("after CLI get {card}")]);
    // A remote service in front of an origin: its own hooks, here; the origin's are the origin's.
    let seen = Seen::default();
    let base = origin(HttpApi::new(people::service(directory())).router(), &seen).await;
    let remote = people::remote::<Directory, _>(HttpClient::new(&base)).with_hook(hook.clone());
    remote.call_tool(Surface::Mcp, "get_person", args.clone(), &Ctx::anonymous()).await.unwrap();
    assert_eq!(hook.take(), [r#"before MCP get {"id":"p1"}"#.to_owned(), format!("after MCP get {card}")]);
    assert_eq!(seen.0.load(Ordering::SeqCst), 1);
    // A `before` that refuses: the caller's error, and the handler (here, the origin) never ran.
    let held = Recorder { refuse: Some("get"), ..Recorder::default() };
    let remote = people::remote::<Directory, _>(HttpClient::new(&base)).with_hook(held.clone());
    let e = remote.call_tool(Surface::Mcp, "get_person", args, &Ctx::anonymous()).await.unwrap_err();
    assert_eq!((e.code.as_str(), e.message.as_str()), ("FORBIDDEN", "held by policy"));
    assert_eq!(held.take(), [r#"before MCP get {"id":"p1"}"#, "after MCP get FORBIDDEN"]);
    assert_eq!(seen.0.load(Ordering::SeqCst), 1, "nothing more reached the origin");
    // The scope gate's refusal reaches `after` alone, over HTTP before the body is read.
    let req = Request::delete("/people/p1").body(Body::empty()).unwrap();
    assert_eq!(send(HttpApi::new(service()).router(), req).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(hook.take(), ["after HTTP delete UNAUTHORIZED"]);
}

#[tokio::test]
async fn keys_an_origin_adds_to_its_answer_are_reported_by_path_once_never_by_value() {
    // An origin drifting from its contract: two keys the schema of `get` does not declare.
    let router = axum::Router::new().route(
        "/people/{id}",
        axum::routing::get(|| async {
            let body = json!({"id": "p1", "name": "Ada", "email": "ada@example.com", "team": "core",
                "ssn": "078-05-1120", "address": {"city": "Oslo", "floor": 3}});
            ([(axum::http::header::CONTENT_TYPE, "application/json")], body.to_string())
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    // The gateway's service: the answer stays JSON, judged by the contract's schemas alone.
    let hook = Recorder::default();
    let gateway = stitchgen_runtime::remote::service(people::TYPES, people::CATALOG, HttpClient::new(&base))
        .with_hook(hook.clone());
    let card = gateway.call_tool(Surface::Mcp, "get_person", json!({"id": "p1"}), &Ctx::anonymous()).await.unwrap();
    assert_eq!(card.value, json!({"id": "p1", "name": "Ada", "team": "core"}), "the view's slice, not reported");
    let seen = hook.take();
    assert_eq!(seen[1], r#"undeclared get ["/address/floor", "/ssn"]"#, "{seen:?}");
    assert!(!seen.concat().contains("078-05"), "paths, never values: {seen:?}");
    // Once per operation and path: the next answer with the same keys reports nothing.
    gateway.call_tool(Surface::Mcp, "get_person", json!({"id": "p1"}), &Ctx::anonymous()).await.unwrap();
    assert!(hook.take().iter().all(|l| !l.starts_with("undeclared")));
}

/// A handler of `get` whose every answer carries a key never seen before.
struct Inventive(AtomicUsize);

impl Dispatch for Inventive {
    fn call<'a>(&'a self, _: usize, _: &'a Ctx, _: Call) -> BoxFuture<'a, Result<Answer, AppError>> {
        let n = self.0.fetch_add(1, Ordering::SeqCst);
        let mut person = json!({"id": "p1", "name": "Ada", "email": "ada@example.com", "team": "core"});
        person[format!("k{n}")] = json!(n);
        Box::pin(async move { Ok(Answer::new(person)) })
    }
}

#[tokio::test]
async fn an_origin_inventing_keys_at_every_answer_is_reported_within_a_bound() {
    let hook = Recorder::default();
    let service = Service::new(people::TYPES, people::CATALOG, Inventive(AtomicUsize::new(0))).with_hook(hook.clone());
    for _ in 0..300 {
        service.call_tool(Surface::Mcp, "get_person", json!({"id": "p1"}), &Ctx::anonymous()).await.unwrap();
    }
    let reported = hook.take().iter().filter(|l| l.starts_with("undeclared")).count();
    assert_eq!(reported, 256, "each new path reported until the bound, then none");
}
