//! The axum adapter over a real generated service (the helpdesk fixture): routes and params,
//! query reading, JSON and raw bodies, uploads within their limits, declared statuses and
//! headers, raw responses, NDJSON and SSE streams, and the error envelope.

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use futures_util::StreamExt;
use serde_json::{Value, json};
use tower::ServiceExt;

mod desk;
use desk::app;

fn request(method: &str, uri: &str) -> axum::http::request::Builder {
    Request::builder().method(method).uri(uri).header("authorization", "Bearer agent")
}

async fn send(req: Request<Body>) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let res = app().oneshot(req).await.expect("the router is infallible");
    let (parts, body) = res.into_parts();
    let bytes = axum::body::to_bytes(body, usize::MAX).await.expect("the body reads");
    (parts.status, parts.headers, bytes.to_vec())
}

fn json_of(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes).expect("a JSON body")
}

#[tokio::test]
async fn query_strings_are_read_by_the_input_schema() {
    let (status, _, body) = send(request("GET", "/api/tickets?tag=a&tag=b&limit=7").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(json_of(&body)["total"], 2007, "two tags and a limit of 7");
    let (status, _, body) = send(request("GET", "/api/tickets?limit=lots").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(json_of(&body)["error"]["code"], "VALIDATION_ERROR");
    let (status, _, body) = send(request("GET", "/api/tickets?surprise=1").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "additionalProperties: false holds for queries");
    assert!(json_of(&body)["error"]["message"].as_str().unwrap().starts_with("Invalid input:"));
}

#[tokio::test]
async fn errors_carry_the_envelope_and_the_registry_status() {
    let (status, _, body) = send(request("GET", "/api/tickets/T-000002").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(json_of(&body), json!({"error": {"code": "NOT_FOUND", "message": "no such ticket"}}));
    let (status, _, body) = send(request("GET", "/api/tickets/not-an-id").body(Body::empty()).unwrap()).await;
    assert_eq!((status, json_of(&body)["error"]["code"].clone()), (StatusCode::BAD_REQUEST, json!("VALIDATION_ERROR")));
    let anonymous = Request::get("/api/tickets/T-000002").body(Body::empty()).unwrap();
    assert_eq!(send(anonymous).await.0, StatusCode::UNAUTHORIZED, "a non-public endpoint without identity");
    let (status, _, body) = send(request("GET", "/nowhere").body(Body::empty()).unwrap()).await;
    assert_eq!((status, json_of(&body)["error"]["code"].clone()), (StatusCode::NOT_FOUND, json!("NOT_FOUND")));
    let (status, _, body) = send(request("PUT", "/api/tickets/search").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(json_of(&body)["error"]["code"], "METHOD_NOT_ALLOWED");
    let (status, _, body) = send(request("POST", "/api/tickets").body(Body::from("{oops")).unwrap()).await;
    assert_eq!((status, json_of(&body)["error"]["code"].clone()), (StatusCode::BAD_REQUEST, json!("BAD_REQUEST")));
    let (status, _, body) = send(request("POST", "/api/tickets").body(Body::from("[1]")).unwrap()).await;
    assert_eq!((status, json_of(&body)["error"]["code"].clone()), (StatusCode::BAD_REQUEST, json!("VALIDATION_ERROR")));
}

#[tokio::test]
async fn raw_responses_head_and_wildcards() {
    let (status, headers, body) =
        send(request("GET", "/api/tickets/export?status=open").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "text/csv");
    assert_eq!(body, b"id,status\nT-000001,open\n");
    let (status, _, body) = send(request("HEAD", "/api/tickets/T-000001").body(Body::empty()).unwrap()).await;
    assert_eq!((status, body.len()), (StatusCode::OK, 0));
    assert_eq!(
        send(request("HEAD", "/api/tickets/T-000009").body(Body::empty()).unwrap()).await.0,
        StatusCode::NOT_FOUND
    );
    let (status, headers, body) =
        send(request("GET", "/api/tickets/files/2026/11/a.pdf").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "application/octet-stream");
    assert_eq!(headers["x-stored"], "yes");
    assert_eq!(body, b"2026/11/a.pdf", "the wildcard keeps its slashes");
}

#[tokio::test]
async fn the_raw_body_is_kept_byte_for_byte() {
    let text = r#"{"from": "a@example.com",  "subject": "hi", "text": "hello"}"#;
    let (status, _, body) = send(request("POST", "/api/tickets/webhooks/mail").body(Body::from(text)).unwrap()).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "{}", String::from_utf8_lossy(&body));
}

#[tokio::test]
async fn declared_status_and_headers() {
    let zendesk = request("POST", "/api/tickets/import").body(Body::from(r#"{"source":"zendesk"}"#)).unwrap();
    let (status, headers, body) = send(zendesk).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(
        (&headers["location"], &headers["retry-after"]),
        (&"/jobs/job-1".parse().unwrap(), &"5".parse().unwrap())
    );
    assert_eq!(json_of(&body), json!({"job": "job-1"}));
    let missing = request("POST", "/api/tickets/import").body(Body::from(r#"{"source":"freshdesk"}"#)).unwrap();
    let (status, _, body) = send(missing).await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "a required header the handler did not set");
    assert!(json_of(&body)["error"]["message"].as_str().unwrap().contains("Location"));
}

fn multipart(parts: &[(&str, Option<&str>, &str, Vec<u8>)]) -> Request<Body> {
    let mut body = Vec::new();
    for (name, file, content_type, bytes) in parts {
        body.extend_from_slice(b"--XyZ\r\n");
        let file = file.map(|f| format!("; filename=\"{f}\"")).unwrap_or_default();
        body.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"{file}\r\n").as_bytes());
        body.extend_from_slice(format!("Content-Type: {content_type}\r\n\r\n").as_bytes());
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(b"--XyZ--\r\n");
    request("POST", "/api/tickets/T-000001/attachments")
        .header(header::CONTENT_TYPE, "multipart/form-data; boundary=XyZ")
        .body(Body::from(body))
        .unwrap()
}

#[tokio::test]
async fn uploads_within_their_declared_limits() {
    let png = |n: &'static str| ("file", Some(n), "image/png", vec![1u8; 16]);
    let note = ("note", None, "text/plain", b"two screenshots".to_vec());
    let (status, _, body) = send(multipart(&[png("a.png"), png("b.png"), note.clone()])).await;
    assert_eq!(status, StatusCode::OK, "{}", String::from_utf8_lossy(&body));
    assert_eq!(json_of(&body), json!({"attached": 21}));
    let refused = [
        (vec![note.clone()], "/file"),
        (vec![png("a.png"), ("file", Some("x.exe"), "application/x-msdownload", vec![0])], "/file"),
        ((0..6).map(|i| png(if i % 2 == 0 { "a.png" } else { "b.png" })).collect(), "/file"),
        (vec![png("a.png"), ("thumbnail", Some("t.png"), "image/png", vec![0; 262_145])], "/thumbnail"),
        (vec![png("a.png"), ("note", None, "text/plain", vec![b'n'; 4097])], "/note"),
    ];
    for (parts, path) in refused {
        let (status, _, body) = send(multipart(&parts)).await;
        let error = &json_of(&body)["error"];
        assert_eq!((status, &error["code"]), (StatusCode::BAD_REQUEST, &json!("VALIDATION_ERROR")), "{error}");
        assert_eq!(error["details"]["errors"][0]["path"], path, "{error}");
    }
}

#[tokio::test]
async fn ndjson_with_a_terminal_frame() {
    let (status, headers, body) = send(request("GET", "/api/tickets/events/replay").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "application/x-ndjson");
    let lines: Vec<Value> =
        String::from_utf8(body).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(
        lines,
        [
            json!({"kind": "created", "ticket": "T-000001"}),
            json!({"kind": "status_changed", "ticket": "T-000001", "status": "solved"}),
            json!({"count": 2}),
        ]
    );
}

#[tokio::test(start_paused = true)]
async fn sse_frames_items_and_heartbeats() {
    let res = app().oneshot(request("GET", "/api/tickets/events").body(Body::empty()).unwrap()).await.unwrap();
    assert_eq!(res.headers()[header::CONTENT_TYPE], "text/event-stream");
    let mut frames = res.into_body().into_data_stream();
    let mut next = async || String::from_utf8(frames.next().await.unwrap().unwrap().to_vec()).unwrap();
    assert_eq!(next().await, "data: {\"type\":\"item\",\"item\":{\"kind\":\"created\",\"ticket\":\"T-000001\"}}\n\n");
    // The handler's stream is silent now: heartbeats keep the connection alive (time is paused
    // and advances on its own, so the 15 s interval passes at once).
    assert_eq!(next().await, "data: {\"type\":\"heartbeat\"}\n\n");
    assert_eq!(next().await, "data: {\"type\":\"heartbeat\"}\n\n");
}
