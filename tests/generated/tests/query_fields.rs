//! Query fields reached only through `$ref` and `allOf` (`fixtures/valid/query_fields.stitch.yaml`),
//! as imported APIs write them: each arrives as text (over HTTP, on the command line), is read by
//! the generator's resolved fields, and reaches the handler typed; the typed client sends what the
//! adapter reads; `openapi.json` lists exactly the fields the adapter reads.

use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use stitchgen_generated_tests::query_fields::{self, search};
use stitchgen_runtime::client::HttpClient;
use stitchgen_runtime::{AppError, Ctx};
use tower::ServiceExt;

/// Answers the input it was given, typed, and keeps it (as JSON).
#[derive(Clone, Default)]
struct Echo(Arc<Mutex<Option<Value>>>);

impl query_fields::Handler for Echo {
    async fn search(&self, _ctx: &Ctx, input: search::Input) -> Result<search::Output, AppError> {
        let typed = serde_json::to_value(&input).unwrap();
        *self.0.lock().unwrap() = Some(typed.clone());
        Ok(serde_json::from_value(typed).unwrap())
    }
}

fn router() -> axum::Router {
    stitchgen_runtime::axum::router(query_fields::service(Echo::default()))
}

const EXPECTED: fn() -> Value = || json!({"limit": 5, "flag": true, "note": "a b", "levels": ["low", "high"]});

#[tokio::test]
async fn fields_behind_references_and_all_of_are_read_from_the_query() {
    let uri = "/query_fields/search?limit=5&flag=true&note=a+b&levels=low&levels=high";
    let res = router().oneshot(Request::get(uri).body(Body::empty()).unwrap()).await.unwrap();
    let status = res.status();
    let body = axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap();
    let body: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body, EXPECTED());
    // `note` is a string or null: text is read as the first type it parses as, so `null` stays a
    // string (JSON null has no spelling in a query that a string could not also mean).
    // A value the referenced type refuses is refused in the contract's words, not as text.
    let res = router().oneshot(Request::get("/query_fields/search?limit=500&flag=true").body(Body::empty()).unwrap());
    let res = res.await.unwrap();
    let body = axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap();
    assert!(String::from_utf8_lossy(&body).contains("/limit"), "{}", String::from_utf8_lossy(&body));
}

#[tokio::test]
async fn the_typed_client_sends_what_the_adapter_reads() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router()).await.unwrap() });
    let client = query_fields::Client::new(HttpClient::new(&base));
    let input: search::Input = serde_json::from_value(EXPECTED()).unwrap();
    let answer = client.search(&input).await.unwrap();
    assert_eq!(serde_json::to_value(&answer).unwrap(), EXPECTED());
}

#[tokio::test]
async fn the_flags_are_the_fields() {
    let echo = Echo::default();
    let cli = stitchgen_runtime::cli::ToolCli::new([query_fields::service(echo.clone())])
        .identify(|_| std::future::ready(Ok(Ctx::anonymous())));
    let argv =
        ["q", "search_query_field", "--limit", "5", "--flag", "--note", "a b", "--levels", "low", "--levels", "high"];
    let code = cli.run("q", argv.map(Into::into)).await;
    assert_eq!(format!("{code:?}"), format!("{:?}", std::process::ExitCode::SUCCESS));
    assert_eq!(echo.0.lock().unwrap().clone(), Some(EXPECTED()));
    // The flag offers the enum's values.
    let help = cli.command("q").find_subcommand_mut("search_query_field").unwrap().render_long_help().to_string();
    assert!(help.contains("--flag") && help.contains("Only flagged records.") && help.contains("low, high"), "{help}");
}

#[test]
fn openapi_lists_the_fields_the_adapter_reads() {
    let openapi: Value = serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/openapi.json"))).unwrap();
    let listed = &openapi["paths"]["/query_fields/search"]["get"]["parameters"];
    let listed: Vec<(&str, bool)> =
        listed.as_array().unwrap().iter().map(|p| (p["name"].as_str().unwrap(), p["required"] == true)).collect();
    let read: Vec<(&str, bool)> = search::OPERATION.input_fields.iter().map(|f| (f.name, f.required)).collect();
    assert_eq!(listed, read);
    assert_eq!(read, [("limit", false), ("flag", true), ("note", false), ("levels", false)]);
}
