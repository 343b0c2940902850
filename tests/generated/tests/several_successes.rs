//! Several success answers (`fixtures/valid/several_successes.stitch.yaml`): the handler answers
//! one variant of the operation's `Answer`, HTTP sends it at its status, the typed client reads
//! it back by status (served through it as a remote handler, the status carries over), and the
//! tool surfaces answer its body; a body off its status's schema is the handler's fault.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use stitchgen_generated_tests::several_successes::{self, cancel_job, job_log, submit_job, types};
use stitchgen_runtime::client::{ClientError, HttpClient};
use stitchgen_runtime::{AppError, Ctx, Headed, RawResponse, Surface};
use tower::ServiceExt;

/// Answers as the key asks.
#[derive(Clone, Default)]
struct Jobs;

fn job(id: &str) -> types::Job {
    types::Job { id: id.into(), state: types::JobState::Queued }
}

impl several_successes::Handler for Jobs {
    async fn submit_job(
        &self,
        _: &Ctx,
        input: submit_job::Input,
    ) -> Result<Headed<submit_job::Answer, submit_job::Headers>, AppError> {
        Ok(match input.key.as_str() {
            "seen" => Headed::body(submit_job::Answer::Ok(job("j0"))),
            "busy" => Headed::new(
                submit_job::Answer::Accepted(types::SubmitJobAccepted { ticket: "t1".into() }),
                submit_job::Headers { location: Some("/tickets/t1".into()) },
            ),
            _ => Headed::body(submit_job::Answer::Created(job("j1"))),
        })
    }

    async fn cancel_job(&self, _: &Ctx, params: cancel_job::Params) -> Result<cancel_job::Answer, AppError> {
        Ok(match params.id.as_str() {
            "running" => cancel_job::Answer::Accepted,
            _ => cancel_job::Answer::NoContent,
        })
    }

    async fn job_log(&self, _: &Ctx, params: job_log::Params) -> Result<RawResponse, AppError> {
        Ok(match params.id.as_str() {
            "running" => RawResponse { status: 202, ..RawResponse::ok(Vec::new()) },
            _ => RawResponse::ok("done\n"),
        })
    }
}

async fn send(router: axum::Router, req: Request<Body>) -> (StatusCode, Value) {
    let res = router.oneshot(req).await.unwrap();
    let status = res.status();
    let body = axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

fn submit(key: &str) -> Request<Body> {
    Request::post("/several_successes/jobs")
        .header("content-type", "application/json")
        .body(Body::from(json!({ "key": key }).to_string()))
        .unwrap()
}

fn cancel(id: &str) -> Request<Body> {
    Request::delete(format!("/several_successes/jobs/{id}")).body(Body::empty()).unwrap()
}

#[tokio::test]
async fn http_sends_each_answer_at_its_status() {
    let router = || stitchgen_runtime::axum::router(several_successes::service(Jobs));
    assert_eq!(send(router(), submit("new")).await, (StatusCode::CREATED, json!({"id": "j1", "state": "queued"})));
    assert_eq!(send(router(), submit("seen")).await, (StatusCode::OK, json!({"id": "j0", "state": "queued"})));
    assert_eq!(send(router(), submit("busy")).await, (StatusCode::ACCEPTED, json!({"ticket": "t1"})));
    assert_eq!(send(router(), cancel("idle")).await, (StatusCode::NO_CONTENT, Value::Null));
    assert_eq!(send(router(), cancel("running")).await, (StatusCode::ACCEPTED, Value::Null));
    // A raw answer at the status its handler set.
    let log = |id: &str| Request::get(format!("/several_successes/jobs/{id}/log")).body(Body::empty()).unwrap();
    assert_eq!(send(router(), log("running")).await.0, StatusCode::ACCEPTED);
    assert_eq!(send(router(), log("done")).await.0, StatusCode::OK);
}

#[tokio::test]
async fn a_tool_answers_the_body_the_handler_chose() {
    let service = several_successes::service(Jobs);
    let ctx = Ctx::anonymous();
    for (key, want) in [("new", json!({"id": "j1", "state": "queued"})), ("busy", json!({"ticket": "t1"}))] {
        let out = service.call_tool(Surface::Mcp, "submit_job", json!({ "key": key }), &ctx).await.unwrap();
        assert_eq!(out.value, want, "{key}");
    }
    let tools: Value = serde_json::from_str(several_successes::MCP_TOOLS).unwrap();
    let submit = tools["tools"].as_array().unwrap().iter().find(|t| t["name"] == "submit_job").unwrap();
    assert_eq!(submit["outputSchema"]["anyOf"].as_array().map(Vec::len), Some(2), "{submit}");
}

#[tokio::test]
async fn the_typed_client_reads_each_answer_back_and_a_remote_keeps_its_status() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = stitchgen_runtime::axum::router(several_successes::service(Jobs));
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let client = several_successes::Client::new(HttpClient::new(base.clone()).validate(true));
    let call = |key: &str| submit_job::Input { key: key.into() };
    let created = client.submit_job(&call("new")).await.unwrap();
    assert!(matches!(&created.body, submit_job::Answer::Created(j) if j.id == "j1"), "{created:?}");
    let seen = client.submit_job(&call("seen")).await.unwrap();
    assert!(matches!(&seen.body, submit_job::Answer::Ok(j) if j.id == "j0"), "{seen:?}");
    let busy = client.submit_job(&call("busy")).await.unwrap();
    assert!(matches!(&busy.body, submit_job::Answer::Accepted(t) if t.ticket == "t1"), "{busy:?}");
    assert_eq!(busy.headers.location.as_deref(), Some("/tickets/t1"));
    let params = |id: &str| cancel_job::Params { id: id.into() };
    assert!(matches!(client.cancel_job(&params("idle")).await, Ok(cancel_job::Answer::NoContent)));
    assert!(matches!(client.cancel_job(&params("running")).await, Ok(cancel_job::Answer::Accepted)));
    let log = client.job_log(&job_log::Params { id: "running".into() }).await.unwrap();
    assert_eq!((log.status, log.body.len()), (202, 0));
    // Served through the client as a remote handler: the origin's status, the origin's body.
    let remote = || stitchgen_runtime::axum::router(several_successes::remote(HttpClient::new(base.clone())));
    assert_eq!(send(remote(), submit("busy")).await, (StatusCode::ACCEPTED, json!({"ticket": "t1"})));
    assert_eq!(send(remote(), submit("seen")).await, (StatusCode::OK, json!({"id": "j0", "state": "queued"})));
    assert_eq!(send(remote(), cancel("running")).await, (StatusCode::ACCEPTED, Value::Null));
}

#[tokio::test]
async fn an_origins_body_off_its_statuss_schema_is_refused_by_a_validating_client() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    // An origin that answers 202 with a job, where 202 documents a ticket.
    let app = axum::Router::new().fallback(|| async {
        (StatusCode::ACCEPTED, [("content-type", "application/json")], json!({"id": "j", "state": "done"}).to_string())
    });
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let client = several_successes::Client::new(HttpClient::new(base).validate(true));
    let sent = client.submit_job(&submit_job::Input { key: "k".into() }).await;
    assert!(matches!(&sent, Err(ClientError::Invalid(e)) if e.message.contains("status 202")), "{sent:?}");
}
