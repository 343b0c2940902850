//! Hostile callers through the real surfaces (docs/security.md): a model whose arguments a prompt
//! injection wrote, an anonymous HTTP client, and an origin that answers off-contract. Each attack
//! is refused as documented; where a limit applies, the attacker's bytes read are measured.

mod desk;
mod directory;
mod recording;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::response::IntoResponse;
use directory::{Directory, directory};
use recording::{Seen, origin};
use serde_json::{Value, json};
use stitchgen_generated_tests::people;
use stitchgen_runtime::client::{ClientError, HttpClient};
use stitchgen_runtime::{AppError, Ctx, Surface};
use tower::ServiceExt;

/// Everything a caller is shown of `e`, on every surface: message, details, the envelopes.
fn shown(e: &AppError) -> String {
    let tool = serde_json::to_string(&e.tool_envelope()).unwrap();
    let http = serde_json::to_string(&e.http_envelope()).unwrap();
    format!("{} {tool} {http}", e.message)
}

async fn tool(svc: &stitchgen_runtime::Service, name: &str, args: Value) -> Result<Value, AppError> {
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
