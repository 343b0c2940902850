//! `people::remote`: the tool surfaces in front of a server that runs elsewhere. The same cards as
//! the in-process service, a view's defaults in the origin's request, an invalid argument refused
//! without a request, an origin answer that breaks the contract refused, and an origin that is
//! not a stitchgen service read onto the error registry.

mod directory;
mod recording;

use axum::response::IntoResponse;
use directory::{Directory, directory};
use recording::{Seen, origin};
use serde_json::{Value, json};
use stitchgen_generated_tests::people;
use stitchgen_runtime::client::HttpClient;
use stitchgen_runtime::{AppError, Ctx, Service, Surface};

fn remote(base: &str) -> Service {
    people::remote::<Directory, _>(HttpClient::new(base))
}

async fn tool(svc: &Service, name: &str, args: Value) -> Result<Value, AppError> {
    svc.call_tool(Surface::Mcp, name, args, &Ctx::anonymous()).await.map(|o| o.value)
}

#[tokio::test]
async fn the_remote_service_answers_the_in_process_cards() {
    let seen = Seen::default();
    let base = origin(stitchgen_runtime::axum::HttpApi::new(people::service(directory())).router(), &seen).await;
    let (here, there) = (people::service(directory()), remote(&base));
    let calls = [
        ("list_people", json!({})),
        ("list_people", json!({"team": "core", "limit": 1})),
        ("get_person", json!({"id": "p3"})),
        ("list_teams", json!({})),
        ("get_person", json!({"id": "nobody"})),
    ];
    for (name, args) in calls {
        let (a, b) = (tool(&here, name, args.clone()).await, tool(&there, name, args.clone()).await);
        match (a, b) {
            (Ok(a), Ok(b)) => assert_eq!(a, b, "{name} {args}"),
            (Err(a), Err(b)) => assert_eq!((a.code, a.status), (b.code, b.status), "{name} {args}"),
            (a, b) => panic!("{name} {args}: in process {a:?}, remote {b:?}"),
        }
    }
    tool(&there, "list_people", json!({})).await.unwrap();
    assert!(
        seen.1.lock().unwrap().contains("limit=20"),
        "the view's default reaches the origin: {}",
        seen.1.lock().unwrap()
    );
}

#[tokio::test]
async fn an_invalid_argument_is_refused_without_a_request() {
    let seen = Seen::default();
    let base = origin(stitchgen_runtime::axum::HttpApi::new(people::service(directory())).router(), &seen).await;
    let e = tool(&remote(&base), "list_people", json!({"limit": "many"})).await.unwrap_err();
    assert_eq!(e.code, "VALIDATION_ERROR");
    let e = tool(&remote(&base), "delete_person", json!({"id": "p1"})).await.unwrap_err();
    assert_eq!(e.code, "UNAUTHORIZED", "the scope gate runs here");
    assert_eq!(seen.count(), 0, "no request reached the origin");
}

#[tokio::test]
async fn a_remote_service_drops_the_questions_and_forwards_the_call() {
    // `delete_person` asks its user on MCP; a remote service forwards params and input alone, so
    // it asks nothing here: the call goes on to the origin, which judges it (an anonymous
    // caller there: UNAUTHORIZED).
    let seen = Seen::default();
    let base = origin(stitchgen_runtime::axum::HttpApi::new(people::service(directory())).router(), &seen).await;
    let admin = Ctx::with_identity("u1", ["admin"]);
    let e = remote(&base).call_tool(Surface::Mcp, "delete_person", json!({"id": "p1"}), &admin).await.unwrap_err();
    assert_eq!(e.code, "UNAUTHORIZED", "{e:?}");
    assert_eq!(seen.count(), 1, "the call reached the origin");
}

/// An origin that is not a stitchgen service: it answers `get` with `answer`.
fn foreign(answer: impl Fn() -> axum::response::Response + Clone + Send + Sync + 'static) -> axum::Router {
    axum::Router::new().route("/people/{id}", axum::routing::get(move || std::future::ready(answer())))
}

#[tokio::test]
async fn an_origin_answer_that_breaks_the_contract_never_reaches_a_model() {
    let seen = Seen::default();
    let spoiled = json!({"id": "p1", "name": "Ada", "email": "not an email", "team": "core"});
    let broken = [spoiled, json!({"id": 5, "name": "Ada"})];
    for body in broken {
        let answer = move || ([("content-type", "application/json")], body.to_string()).into_response();
        let base = origin(foreign(answer), &seen).await;
        let e = tool(&remote(&base), "get_person", json!({"id": "p1"})).await.unwrap_err();
        assert_eq!((e.code.as_str(), e.status), ("INTERNAL_SERVER_ERROR", 500), "{e}");
    }
}

#[tokio::test]
async fn a_foreign_origins_failure_statuses_map_onto_the_registry() {
    // A 5xx is the origin's failure (UPSTREAM_ERROR, its 503 kept), never this service's own.
    use axum::http::StatusCode;
    let seen = Seen::default();
    let cases = [
        (StatusCode::NOT_FOUND, "NOT_FOUND"),
        (StatusCode::CONFLICT, "CONFLICT"),
        (StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED"),
        (StatusCode::IM_A_TEAPOT, "BAD_REQUEST"),
        (StatusCode::SERVICE_UNAVAILABLE, "UPSTREAM_ERROR"),
    ];
    for (status, code) in cases {
        let answer = move || (status, [("retry-after", "7")], "nope, <b>not here</b>").into_response();
        let base = origin(foreign(answer), &seen).await;
        let e = tool(&remote(&base), "get_person", json!({"id": "p1"})).await.unwrap_err();
        assert_eq!(e.code, code, "{status}");
        let registry = if code == "BAD_REQUEST" { 400 } else { status.as_u16() };
        assert_eq!(e.status, registry, "{status}");
        let details = e.details.as_deref().cloned().unwrap_or_default();
        assert_eq!(details, json!({"status": status.as_u16(), "body": "nope, <b>not here</b>", "retryAfter": "7"}));
    }
}

#[tokio::test]
async fn the_callers_authorization_is_forwarded_only_when_the_context_carries_it() {
    let seen = Seen::default();
    let base = origin(stitchgen_runtime::axum::HttpApi::new(people::service(directory())).router(), &seen).await;
    let there = people::remote::<Directory, _>(HttpClient::new(&base).bearer("the gateway's own"));
    let args = json!({"id": "p1"});
    there.call_tool(Surface::Mcp, "get_person", args.clone(), &Ctx::anonymous()).await.unwrap();
    assert_eq!(seen.2.lock().unwrap().as_deref(), Some("Bearer the gateway's own"));
    let caller = Ctx::anonymous().forwarding("Bearer the caller's");
    there.call_tool(Surface::Mcp, "get_person", args, &caller).await.unwrap();
    assert_eq!(
        seen.2.lock().unwrap().as_deref(),
        Some("Bearer the caller's"),
        "in place of the gateway's, not beside it"
    );
}
