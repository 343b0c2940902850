//! `gateway http` as an operator starts it and as hostile callers reach it: an address beyond
//! loopback refused without a choice of how callers are authenticated, a `Host` the gateway was
//! not told of refused (DNS rebinding), and under `--forward-authorization` a caller without a
//! credential refused, while one with a credential reaches the API with it alone; an API answer
//! off-contract reaches the caller as a refusal and the operator's log with its values.

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

/// A running `gateway http`, killed when dropped, and what it has written to stderr.
struct Gateway {
    child: Child,
    url: String,
    log: Arc<Mutex<String>>,
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn gateway(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gateway"));
    command.arg("http").args(args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
    command
}

/// Starts the gateway and waits for its `listening on URL` line; the rest of its stderr is kept.
fn start(args: &[&str]) -> Gateway {
    let mut child = gateway(args).spawn().expect("the gateway starts");
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr is piped"));
    let mut line = String::new();
    stderr.read_line(&mut line).expect("the gateway says where it listens");
    let url = line.trim().rsplit(' ').next().unwrap_or_default().to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "{line}");
    let log = Arc::new(Mutex::new(String::new()));
    let kept = log.clone();
    std::thread::spawn(move || keep(stderr, &kept));
    Gateway { child, url, log }
}

fn keep(mut stderr: BufReader<ChildStderr>, log: &Mutex<String>) {
    let mut line = String::new();
    while stderr.read_line(&mut line).is_ok_and(|n| n > 0) {
        log.lock().unwrap().push_str(&line);
        line.clear();
    }
}

/// The headers each request to the API carried, in order.
type Seen = Arc<Mutex<Vec<Vec<(String, String)>>>>;

/// An API on a loopback port that answers every pet as Rex (pet 2 off-contract, its name a
/// number) and records each request's headers.
async fn api(seen: &Seen) -> String {
    let seen = seen.clone();
    let router = axum::Router::new().route(
        "/pets/{id}",
        axum::routing::get(move |id: axum::extract::Path<u64>, headers: axum::http::HeaderMap| {
            let pairs = headers.iter().map(|(n, v)| (n.to_string(), v.to_str().unwrap_or("").to_owned())).collect();
            seen.lock().unwrap().push(pairs);
            let name = if id.0 == 2 { json!(5550199) } else { json!("Rex") };
            let body = json!({"id": id.0, "name": name}).to_string();
            std::future::ready(([(axum::http::header::CONTENT_TYPE, "application/json")], body))
        }),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    base
}

/// One JSON-RPC message to the MCP endpoint; the status and the first message answered (a JSON
/// body or the first `data:` event of a stream).
async fn post(
    http: &reqwest::Client,
    url: &str,
    headers: &[(&str, &str)],
    message: Value,
) -> (u16, Option<String>, Value) {
    let mut req = http
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(message.to_string());
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let mut res = req.send().await.expect("the gateway answers");
    let status = res.status().as_u16();
    let session = res.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()).map(str::to_owned);
    let mut text = String::new();
    while let Ok(Some(chunk)) = tokio::time::timeout(Duration::from_secs(10), res.chunk()).await.expect("in time") {
        text.push_str(&String::from_utf8_lossy(&chunk));
        // Whole lines only; the priming event's `data:` is empty.
        let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        if let Some(data) = whole.lines().filter_map(|l| l.strip_prefix("data:")).find(|d| !d.trim().is_empty()) {
            return (status, session, serde_json::from_str(data.trim()).expect("an event of JSON"));
        }
    }
    (status, session, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Initializes a session and calls `find_pet_by_id` for pet 1; the status of each step
/// and the call's result.
async fn call(url: &str, headers: &[(&str, &str)]) -> (u16, Value) {
    call_for(url, headers, 1).await
}

async fn call_for(url: &str, headers: &[(&str, &str)], pet: u64) -> (u16, Value) {
    let http = reqwest::Client::new();
    let init = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "hostile", "version": "1"}}});
    let (status, session, _) = post(&http, url, headers, init).await;
    let Some(session) = session else { return (status, Value::Null) };
    let mut headers = headers.to_vec();
    headers.push(("mcp-session-id", &session));
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    post(&http, url, &headers, initialized).await;
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
        "params": {"name": "find_pet_by_id", "arguments": {"id": pet}}});
    let (status, _, answer) = post(&http, url, &headers, call).await;
    (status, answer)
}

#[test]
fn beyond_loopback_the_operator_chooses_how_callers_are_authenticated() {
    let out = gateway(&["--origin", "http://127.0.0.1:9", "--addr", "0.0.0.0:0"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(stderr.contains("--forward-authorization") && stderr.contains("--trust-callers"), "{stderr}");
    let out = gateway(&["--origin", "http://127.0.0.1:9", "--addr", "0.0.0.0:0", "--trust-callers"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && stderr.contains("--allowed-host"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_forwarding_gateway_sends_the_callers_credential_alone_and_refuses_a_caller_without_one() {
    let seen = Seen::default();
    let origin = api(&seen).await;
    let args = ["--origin", origin.as_str(), "--addr", "127.0.0.1:0", "--forward-authorization"];
    let operator = ["--credential", "api_key=operator-key", "--header", "Cookie: session=operator"];
    let gw = start(&[&args[..], &operator[..], &["--header", "X-Trace: kept"]].concat());
    let (status, answer) = call(&gw.url, &[("authorization", "Bearer caller")]).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["structuredContent"], json!({"id": 1, "name": "Rex"}), "{answer}");
    let sent = seen.lock().unwrap().pop().expect("the call reached the API");
    let sent = |name: &str| sent.iter().find(|(n, _)| n == name).map(|(_, v)| v.clone());
    assert_eq!(sent("authorization").as_deref(), Some("Bearer caller"));
    assert_eq!((sent("cookie"), sent("x-trace").as_deref()), (None, Some("kept")), "none of the operator's");
    let before = seen.lock().unwrap().len();
    let (status, _) = call(&gw.url, &[]).await;
    assert_eq!(status, 401, "a caller without a credential");
    let (status, _) = call(&gw.url, &[("authorization", "Bearer caller"), ("host", "rebound.example")]).await;
    assert_eq!(status, 403, "a Host the gateway was not told of");
    assert_eq!(seen.lock().unwrap().len(), before, "neither reached the API");
    drop(gw);
    // By the operator's choice, a caller without a credential acts with the gateway's.
    let gw = start(&[&args[..], &operator[..], &["--own-credentials-fallback"]].concat());
    let (status, answer) = call(&gw.url, &[]).await;
    assert_eq!(status, 200, "{answer}");
    let sent = seen.lock().unwrap().pop().expect("the call reached the API");
    assert!(sent.contains(&("cookie".into(), "session=operator".into())), "{sent:?}");
    // An answer off-contract: the caller is told it broke, the operator's log says how.
    let (status, answer) = call_for(&gw.url, &[], 2).await;
    assert_eq!((status, answer["result"]["isError"].as_bool()), (200, Some(true)), "{answer}");
    assert!(!answer.to_string().contains("5550199"), "{answer}");
    let deadline = std::time::Instant::now() + Duration::from_secs(5);
    while !gw.log.lock().unwrap().contains("5550199") && std::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(gw.log.lock().unwrap().contains("5550199"), "the gateway's log: {}", gw.log.lock().unwrap());
}
