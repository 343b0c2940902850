//! `readOnly` and `writeOnly` (`fixtures/valid/read_write_only.stitch.yaml`): one declared type,
//! two sides. A create's request leaves out what the server assigns and its answer what is only
//! ever sent, over HTTP, through the typed client and as a tool; a read-only `id` in a PUT's
//! body is no clash with the path's `id`.

use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use stitchgen_generated_tests::read_write_only::{self, create_account, get_team, rename, types};
use stitchgen_runtime::client::HttpClient;
use stitchgen_runtime::{AppError, Ctx, Surface};
use tower::ServiceExt;

/// Keeps the input of the last call, as JSON, and answers as the server would.
#[derive(Clone, Default)]
struct Accounts(Arc<Mutex<Option<Value>>>);

impl Accounts {
    fn seen(&self) -> Value {
        self.0.lock().unwrap().clone().expect("the handler ran")
    }
}

fn account() -> types::Account {
    serde_json::from_value(json!({
        "id": "a1", "name": "Ada", "created": "2026-01-02T03:04:05Z", "profile": {"bio": "hi", "verified": true}
    }))
    .unwrap()
}

impl read_write_only::Handler for Accounts {
    async fn create_account(&self, _: &Ctx, input: create_account::Input) -> Result<create_account::Output, AppError> {
        *self.0.lock().unwrap() = Some(serde_json::to_value(&input).unwrap());
        // The request side has no `id`; the answer side has no `password`: the types say so.
        let types::AccountInput { name, password: _, profile } = input;
        let verified = profile.is_some().then_some(true);
        let profile = profile.map(|p| types::Profile { bio: p.bio, verified });
        Ok(types::Account { name, profile, ..account() })
    }
    async fn get_team(&self, _: &Ctx) -> Result<get_team::Output, AppError> {
        Ok(types::Team { members: vec![account()] })
    }
    async fn rename(&self, _: &Ctx, params: rename::Params, input: rename::Input) -> Result<rename::Output, AppError> {
        *self.0.lock().unwrap() = Some(serde_json::to_value(&input).unwrap());
        Ok(types::Named { id: Some(params.id), label: input.label })
    }
}

async fn send(accounts: &Accounts, req: Request<Body>) -> (StatusCode, Value) {
    let router = stitchgen_runtime::axum::router(read_write_only::service(accounts.clone()));
    let res = router.oneshot(req).await.unwrap();
    let status = res.status();
    let body = axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

fn post(body: Value) -> Request<Body> {
    Request::post("/read_write_only/accounts")
        .header("content-type", "application/json")
        .body(Body::from(body.to_string()))
        .unwrap()
}

#[tokio::test]
async fn a_create_takes_no_read_only_field_and_answers_no_write_only_one() {
    let accounts = Accounts::default();
    let body = json!({"name": "Ada", "password": "correct horse", "profile": {"bio": "hi"}});
    let (status, answer) = send(&accounts, post(body.clone())).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(accounts.seen(), body);
    assert_eq!(
        answer,
        json!({"id": "a1", "name": "Ada", "created": "2026-01-02T03:04:05Z", "profile": {"bio": "hi", "verified": true}})
    );
    // What the server assigns is not the caller's to send: an `id` in the request is not read.
    let (status, _) = send(&accounts, post(json!({"name": "Ada", "password": "correct horse", "id": "mine"}))).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(accounts.seen(), json!({"name": "Ada", "password": "correct horse"}));
    // The write-only field is the request's: required there, bounded there.
    let (status, err) = send(&accounts, post(json!({"name": "Ada", "password": "short"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    let (status, err) = send(&accounts, post(json!({"name": "Ada"}))).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
}

#[tokio::test]
async fn the_typed_client_sends_the_request_side_and_reads_the_answer_side() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let accounts = Accounts::default();
    let app = stitchgen_runtime::axum::router(read_write_only::service(accounts.clone()));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let client = read_write_only::Client::new(HttpClient::new(base));
    let input = types::AccountInput { name: "Ada".into(), password: "correct horse".into(), profile: None };
    let answer = client.create_account(&input).await.unwrap();
    assert_eq!(answer.id, "a1");
    assert_eq!(accounts.seen(), json!({"name": "Ada", "password": "correct horse"}));
    let team = client.get_team().await.unwrap();
    assert_eq!(serde_json::to_value(&team.members[0]).unwrap(), serde_json::to_value(account()).unwrap());
    let (params, input) = (rename::Params { id: "n1".into() }, types::NamedInput { label: Some("x".into()) });
    let named = client.rename(&params, &input).await.unwrap();
    assert_eq!((named.id.as_deref(), named.label.as_deref()), (Some("n1"), Some("x")));
}

#[tokio::test]
async fn a_tool_asks_for_the_request_side_and_answers_the_answer_side() {
    let accounts = Accounts::default();
    let service = read_write_only::service(accounts.clone());
    let args = json!({"name": "Ada", "password": "correct horse"});
    let answer = service.call_tool(Surface::Mcp, "create_account_read_write_only", args, &Ctx::anonymous()).await;
    let answer = answer.unwrap().value;
    assert_eq!(answer["id"], "a1", "{answer}");
    assert!(answer.get("password").is_none(), "{answer}");
    let input: Value = serde_json::from_str(create_account::OPERATION.tool_input_schema.unwrap()).unwrap();
    let keys: Vec<&str> = input["properties"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["name", "password", "profile"]);
    assert_eq!(input["required"], json!(["name", "password"]));
    assert_eq!(input["properties"]["profile"]["properties"].as_object().unwrap().len(), 1, "{input}");
    // The path's `id` is the one argument named `id`: the body's is read-only.
    let args = json!({"id": "n1", "label": "x"});
    service.call_tool(Surface::Mcp, "rename_read_write_only", args, &Ctx::anonymous()).await.unwrap();
    assert_eq!(accounts.seen(), json!({"label": "x"}));
}
