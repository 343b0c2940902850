//! Integers as wide as the API sends them (`fixtures/valid/wide_integers.stitch.yaml`): an
//! integer without a width `format` is a `stitchgen_runtime::Integer`, read and answered past
//! `i64` (DigitalOcean's `9223372036854776000`) on HTTP, on MCP, through the typed client, inside
//! a union, a list and a default.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use stitchgen_generated_tests::wide_integers::{self, put_topic, types};
use stitchgen_runtime::client::HttpClient;
use stitchgen_runtime::{AppError, Ctx, Integer, Surface};
use tower::ServiceExt;

/// Answers the position and the topic it was sent.
#[derive(Clone)]
struct Topics;

impl wide_integers::Handler for Topics {
    async fn put_topic(
        &self,
        _: &Ctx,
        params: put_topic::Params,
        input: put_topic::Input,
    ) -> Result<put_topic::Output, AppError> {
        Ok(put_topic::Output { at: params.at, topic: input })
    }
}

/// Past `i64` both ways, inside a union and a list.
fn wide_topic() -> Value {
    json!({
        "flush_messages": 9_223_372_036_854_776_000u64,
        "offset": i64::MIN,
        "created": 1_700_000_000,
        "either": u64::MAX,
        "counts": [i64::MAX, i64::MIN, u64::MAX, 0]
    })
}

async fn send(req: Request<Body>) -> (StatusCode, Value) {
    let res = stitchgen_runtime::axum::router(wide_integers::service(Topics)).oneshot(req).await.unwrap();
    let status = res.status();
    let body = axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

fn put(at: &str, body: &Value) -> Request<Body> {
    Request::put(format!("/wide-integers/topics/{at}"))
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

#[tokio::test]
async fn http_reads_and_answers_every_width() {
    let (status, out) = send(put("18446744073709551615", &wide_topic())).await;
    assert_eq!(status, StatusCode::OK, "{out}");
    assert_eq!(out, json!({ "at": u64::MAX, "topic": wide_topic() }));
    // The default is as wide as the description writes it.
    let (status, out) = send(put("-3", &json!({}))).await;
    assert_eq!(
        (status, &out),
        (StatusCode::OK, &json!({ "at": -3, "topic": { "flush_messages": 9_223_372_036_854_776_000u64 } }))
    );
    // Not an integer: refused by validation, with its path.
    let (status, out) = send(put("1", &json!({ "offset": 1.5 }))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{out}");
    assert!(out.to_string().contains("/offset"), "{out}");
}

#[tokio::test]
async fn a_tool_reads_and_answers_every_width() {
    let service = wide_integers::service(Topics);
    let mut args = wide_topic();
    args["at"] = json!(9_223_372_036_854_776_000u64);
    let out = service.call_tool(Surface::Mcp, "put_topic", args, &Ctx::anonymous()).await.unwrap();
    assert_eq!(out.value, json!({ "at": 9_223_372_036_854_776_000u64, "topic": wide_topic() }));
}

#[tokio::test]
async fn the_typed_client_sends_and_reads_every_width() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = stitchgen_runtime::axum::router(wide_integers::service(Topics));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let client = wide_integers::Client::new(HttpClient::new(base).validate(true));
    let topic: types::Topic = serde_json::from_value(wide_topic()).unwrap();
    assert_eq!(topic.flush_messages.get(), 9_223_372_036_854_776_000);
    assert!(matches!(&topic.either, Some(types::TopicEither::Integer(n)) if *n == i128::from(u64::MAX)));
    let at = Integer::from(i64::MIN);
    let out = client.put_topic(&put_topic::Params { at }, &topic).await.unwrap();
    assert_eq!(out.at, at);
    assert_eq!(serde_json::to_value(&out.topic).unwrap(), wide_topic());
    let wanted: Vec<i128> = vec![i64::MAX.into(), i64::MIN.into(), u64::MAX.into(), 0];
    assert_eq!(out.topic.counts.iter().map(|n| n.get()).collect::<Vec<_>>(), wanted);
}
