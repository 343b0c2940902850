//! Error answers with bodies of their own (`fixtures/valid/error_answers.stitch.yaml`): HTTP
//! sends each body as the contract documents it, the typed client reads it back, tool surfaces
//! get the envelope with the body in `details`; a body that breaks its schema, or a status the
//! contract does not document, is the handler's fault.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use stitchgen_generated_tests::error_answers::{self, create_note, types};
use stitchgen_runtime::client::{ClientError, HttpClient};
use stitchgen_runtime::{AppError, Ctx, ErrorCode, Surface};
use tower::ServiceExt;

/// Answers as the input's text asks.
#[derive(Clone, Default)]
struct Notes;

impl error_answers::Handler for Notes {
    async fn create_note(&self, _: &Ctx, input: create_note::Input) -> Result<create_note::Output, AppError> {
        let problem = types::Problem { title: "too short".into(), fields: vec!["text".into()] };
        match input.text.as_str() {
            "invalid" => Err(AppError::answer(422, "The fields that failed.", &problem)),
            "unreadable" => Err(AppError::answer(400, "Unreadable.", json!({"message": "no"}))),
            "gone" => Err(AppError::answer(410, "Gone.", ())),
            "off-contract" => Err(AppError::answer(422, "The fields that failed.", json!({"title": 1}))),
            "undocumented" => Err(AppError::answer(418, "A teapot.", json!({}))),
            "conflict" => Err(AppError::new(ErrorCode::Conflict, "exists")),
            _ => Ok(create_note::Output { id: "n1".into() }),
        }
    }
}

async fn post(text: &str) -> (StatusCode, Value) {
    let router = stitchgen_runtime::axum::router(error_answers::service(Notes));
    let req = Request::post("/error_answers/notes")
        .header("content-type", "application/json")
        .body(Body::from(json!({ "text": text }).to_string()))
        .unwrap();
    let res = router.oneshot(req).await.unwrap();
    let status = res.status();
    let body = axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

#[tokio::test]
async fn http_sends_each_documented_body_as_it_is() {
    assert_eq!(
        post("invalid").await,
        (StatusCode::UNPROCESSABLE_ENTITY, json!({"title": "too short", "fields": ["text"]}))
    );
    assert_eq!(post("unreadable").await, (StatusCode::BAD_REQUEST, json!({"message": "no"})));
    assert_eq!(post("gone").await, (StatusCode::GONE, Value::Null));
    // The registry's codes keep their envelope.
    let (status, body) = post("conflict").await;
    assert_eq!((status, body["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("CONFLICT")));
    assert_eq!(post("ok").await.0, StatusCode::CREATED);
}

#[tokio::test]
async fn a_body_off_its_schema_or_an_undocumented_status_is_the_handlers_fault() {
    for text in ["off-contract", "undocumented"] {
        let (status, body) = post(text).await;
        assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{text}: {body}");
        assert_eq!(body["error"]["code"], "INTERNAL_SERVER_ERROR", "{text}: {body}");
        assert!(!body.to_string().contains("teapot"), "{body}");
    }
}

#[tokio::test]
async fn a_tool_gets_the_envelope_with_the_body_in_details() {
    let service = error_answers::service(Notes);
    let args = json!({"text": "invalid"});
    let err = service.call_tool(Surface::Mcp, "create_note_error_answer", args, &Ctx::anonymous()).await.unwrap_err();
    assert_eq!((err.code.as_str(), err.status), ("HTTP_422", 422));
    let envelope = serde_json::to_value(err.tool_envelope()).unwrap();
    // The tool envelope's `details` carries the body (and the message beside its keys).
    assert_eq!(envelope["error"], "HTTP_422", "{envelope}");
    assert_eq!(
        (&envelope["details"]["title"], &envelope["details"]["fields"]),
        (&json!("too short"), &json!(["text"]))
    );
}

#[tokio::test]
async fn the_typed_client_reads_each_documented_answer_back() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = stitchgen_runtime::axum::router(error_answers::service(Notes));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let client = error_answers::Client::new(HttpClient::new(base.clone()));
    let call = |text: &str| create_note::Input { text: text.into() };
    let Err(ClientError::Api(e)) = client.create_note(&call("invalid")).await else { panic!("not an answer") };
    assert_eq!(e.answer_status(), Some(422));
    let problem: types::Problem = e.body().expect("the documented body");
    assert_eq!((problem.title.as_str(), problem.fields.len()), ("too short", 1));
    let Err(ClientError::Api(e)) = client.create_note(&call("gone")).await else { panic!("not an answer") };
    assert_eq!((e.answer_status(), e.details.is_none()), (Some(410), true));
    let Err(ClientError::Api(e)) = client.create_note(&call("conflict")).await else { panic!("not the envelope") };
    assert_eq!(e.code, "CONFLICT");
    // Served through the client as a remote handler: the same answer, held to the same schema.
    let remote = error_answers::remote(HttpClient::new(base));
    let (status, body) = {
        let router = stitchgen_runtime::axum::router(remote);
        let req = Request::post("/error_answers/notes")
            .header("content-type", "application/json")
            .body(Body::from(r#"{"text":"invalid"}"#))
            .unwrap();
        let res = router.oneshot(req).await.unwrap();
        let status = res.status();
        (status, axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap())
    };
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(serde_json::from_slice::<Value>(&body).unwrap(), json!({"title": "too short", "fields": ["text"]}));
}

#[tokio::test]
async fn an_origins_error_body_that_is_not_the_documented_one_stays_its_status_and_bytes() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    // A mock origin that refuses every request its own way (as Prism does, 422 problem+json).
    let app = axum::Router::new().fallback(|| async {
        let body = json!({"type": "about:blank", "title": "Invalid request"}).to_string();
        (StatusCode::UNPROCESSABLE_ENTITY, [("content-type", "application/problem+json")], body)
    });
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let client = error_answers::Client::new(HttpClient::new(base));
    let sent = client.create_note(&create_note::Input { text: "x".into() }).await;
    assert!(matches!(&sent, Err(ClientError::Status { status: 422, .. })), "{sent:?}");
}
