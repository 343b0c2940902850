//! Parameters beside the path (`fixtures/valid/request_parts.stitch.yaml`): headers, a cookie
//! and query parameters beside a JSON body or beside a GET's query input reach the handler's
//! `Params` typed, from a raw request and through the typed client; what the client would
//! send outside its field (a cookie value that starts another cookie) is refused before
//! sending; the tool surfaces take them as arguments; `openapi.json` places each.

use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use stitchgen_generated_tests::request_parts::{
    self, delete_note, get_menu, get_note_file, get_versions, list_notes, purge_notes, search_notes, send_message,
    touch_note, update_note,
};
use stitchgen_runtime::client::{ClientError, HttpClient};
use stitchgen_runtime::{AppError, Ctx, Surface};
use tower::ServiceExt;

/// Keeps the params and input of the last call, as JSON.
#[derive(Clone, Default)]
struct Echo(Arc<Mutex<Option<(Value, Value)>>>);

impl Echo {
    fn keep(&self, params: &impl serde::Serialize, input: Value) {
        *self.0.lock().unwrap() = Some((serde_json::to_value(params).unwrap(), input));
    }
    fn seen(&self) -> (Value, Value) {
        self.0.lock().unwrap().clone().expect("the handler ran")
    }
}

impl request_parts::Handler for Echo {
    async fn update_note(
        &self,
        _: &Ctx,
        params: update_note::Params,
        input: update_note::Input,
    ) -> Result<update_note::Output, AppError> {
        self.keep(&params, serde_json::to_value(&input).unwrap());
        Ok(serde_json::from_value(json!({"id": params.id, "text": input.text})).unwrap())
    }
    async fn list_notes(
        &self,
        _: &Ctx,
        params: list_notes::Params,
        input: list_notes::Input,
    ) -> Result<list_notes::Output, AppError> {
        self.keep(&params, serde_json::to_value(&input).unwrap());
        Ok(serde_json::from_value(json!({"items": []})).unwrap())
    }
    async fn delete_note(&self, _: &Ctx, params: delete_note::Params) -> Result<(), AppError> {
        self.keep(&params, Value::Null);
        Ok(())
    }
    async fn send_message(
        &self,
        _: &Ctx,
        params: send_message::Params,
        input: send_message::Input,
    ) -> Result<send_message::Output, AppError> {
        self.keep(&params, serde_json::to_value(&input).unwrap());
        Ok(serde_json::from_value(json!({"id": "SM1", "text": input.body})).unwrap())
    }
    async fn touch_note(
        &self,
        _: &Ctx,
        params: touch_note::Params,
        input: Option<touch_note::Input>,
    ) -> Result<(), AppError> {
        // `None` (no body) is kept as JSON `null`.
        self.keep(&params, serde_json::to_value(&input).unwrap());
        Ok(())
    }
    async fn search_notes(&self, _: &Ctx, input: search_notes::Input) -> Result<search_notes::Output, AppError> {
        self.keep(&Value::Null, serde_json::to_value(&input).unwrap());
        Ok(serde_json::from_value(json!({"items": []})).unwrap())
    }
    async fn purge_notes(&self, _: &Ctx, input: Option<purge_notes::Input>) -> Result<(), AppError> {
        self.keep(&Value::Null, serde_json::to_value(&input).unwrap());
        Ok(())
    }
    async fn get_versions(&self, _: &Ctx) -> Result<get_versions::Output, AppError> {
        Ok(serde_json::from_value(json!({"id": "versions", "text": "v1"})).unwrap())
    }
    async fn get_menu(&self, _: &Ctx) -> Result<get_menu::Output, AppError> {
        Ok(serde_json::from_value(json!({"id": "menu", "text": "ü"})).unwrap())
    }
    async fn get_note_file(&self, _: &Ctx, params: get_note_file::Params) -> Result<get_note_file::Output, AppError> {
        self.keep(&params, Value::Null);
        Ok(serde_json::from_value(json!({"id": params.name, "text": ""})).unwrap())
    }
}

fn router(echo: &Echo) -> axum::Router {
    stitchgen_runtime::axum::router(request_parts::service(echo.clone()))
}

async fn send(echo: &Echo, req: Request<Body>) -> (StatusCode, Value) {
    let res = router(echo).oneshot(req).await.unwrap();
    let status = res.status();
    let body = axum::body::to_bytes(res.into_body(), 1 << 20).await.unwrap();
    (status, serde_json::from_slice(&body).unwrap_or(Value::Null))
}

fn patch(version: &str) -> axum::http::request::Builder {
    Request::patch("/request_parts/notes/n1?dry_run=true&expand%5B%5D=author&expand%5B%5D=history&other=1")
        .header("x-request-id", "req-1")
        .header("If-Version", version)
        .header("Cookie", "theme=dark; sid=abc123")
        .header("content-type", "application/json")
}

fn update_params() -> Value {
    json!({"id": "n1", "request_id": "req-1", "if_version": 3, "dry_run": true, "expand": ["author", "history"], "session": "abc123"})
}

#[tokio::test]
async fn headers_a_cookie_and_query_beside_a_body_reach_the_params_typed() {
    let echo = Echo::default();
    let (status, body) = send(&echo, patch("3").body(Body::from(r#"{"text":"hi"}"#)).unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(echo.seen(), (update_params(), json!({"text": "hi"})));
}

#[tokio::test]
async fn a_missing_or_invalid_parameter_is_refused_with_its_path() {
    let echo = Echo::default();
    let req = Request::patch("/request_parts/notes/n1").header("content-type", "application/json");
    let (status, body) = send(&echo, req.body(Body::from(r#"{"text":"hi"}"#)).unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.to_string().contains("request_id"), "{body}");
    for version in ["-1", "three"] {
        let (status, body) = send(&echo, patch(version).body(Body::from(r#"{"text":"hi"}"#)).unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(body.to_string().contains("/if_version"), "{body}");
    }
    // Sent twice, the header is two values where the contract takes one.
    let twice = patch("3").header("If-Version", "4");
    let (status, body) = send(&echo, twice.body(Body::from(r#"{"text":"hi"}"#)).unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(echo.0.lock().unwrap().is_none(), "no handler ran");
}

#[tokio::test]
async fn a_placed_query_parameter_is_not_input_on_get() {
    let echo = Echo::default();
    let req = Request::get("/request_parts/notes?pageToken=p2&limit=5&tag=a&tag=b").header("X-Tenant", "eu");
    let (status, body) = send(&echo, req.body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(echo.seen(), (json!({"tenant": "eu", "page_token": "p2"}), json!({"limit": 5, "tag": ["a", "b"]})));
}

#[tokio::test]
async fn an_object_travels_as_deep_object_pairs_each_property_typed() {
    let echo = Echo::default();
    let uri = "/request_parts/notes?created%5Bgte%5D=5&created[by]=ann&created[by]=bo&labels[team]=core&ids=7&limit=2";
    let (status, body) = send(&echo, Request::get(uri).body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let params = json!({"created": {"gte": 5, "by": ["ann", "bo"]}, "labels": {"team": "core"}});
    // A value-or-list field sent once is the value; repeated, the list.
    assert_eq!(echo.seen(), (params, json!({"limit": 2, "ids": 7})));
    let (status, body) =
        send(&echo, Request::get("/request_parts/notes?ids=7&ids=8").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(echo.seen().1, json!({"ids": [7, 8]}));
    // A property of the wrong type is refused with its path, never read as another value.
    let (status, body) =
        send(&echo, Request::get("/request_parts/notes?created[lt]=soon").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.to_string().contains("/created/lt"), "{body}");
    // A list past its bound, as the union's list branch says.
    let (status, body) =
        send(&echo, Request::get("/request_parts/notes?ids=1&ids=2&ids=3&ids=4").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
}

#[tokio::test]
async fn a_json_parameter_is_one_json_text_held_to_its_schema() {
    let echo = Echo::default();
    let get = |q: &str| Request::get(format!("/request_parts/notes?filters={q}")).body(Body::empty()).unwrap();
    let (status, body) = send(&echo, get("%5B%7B%22field%22%3A%22tag%22%2C%22equals%22%3A1%7D%5D")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(echo.seen().0, json!({"filters": [{"field": "tag", "equals": 1}]}));
    // No JSON, or JSON the schema refuses: refused with its path, the handler never runs.
    for bad in ["tag", "%5B%7B%7D%5D", "%5B1%2C2%2C3%5D"] {
        *echo.0.lock().unwrap() = None;
        let (status, body) = send(&echo, get(bad)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{bad}: {body}");
        assert!(body.to_string().contains("/filters"), "{body}");
        assert!(echo.0.lock().unwrap().is_none(), "no handler ran");
    }
    let client = request_parts::Client::new(HttpClient::new(serve(&echo).await).credential("api_key", "k"));
    let params = json!({"filters": [{"field": "a&b=c", "equals": {"x": [null]}}]});
    let typed: list_notes::Params = serde_json::from_value(params.clone()).unwrap();
    client.list_notes(&typed, &serde_json::from_value(json!({})).unwrap()).await.unwrap();
    assert_eq!(echo.seen(), (params, json!({})));
}

#[tokio::test]
async fn a_tool_call_through_the_gateway_sends_objects_and_json_where_the_origin_reads_them() {
    let echo = Echo::default();
    // The remote service is what the gateway serves: arguments in, HTTP to the origin.
    let gateway = request_parts::remote(HttpClient::new(serve(&echo).await).credential("api_key", "k"));
    let args = json!({
        "created": {"gte": 1, "by": ["x"]}, "labels": {"a b": "c&d"}, "filters": [{"field": "f", "equals": [1]}],
        "ids": [3, 4], "limit": 5,
    });
    gateway.call_tool(Surface::Mcp, "list_notes_request_part", args, &Ctx::anonymous()).await.unwrap();
    let params = json!({"created": {"gte": 1, "by": ["x"]}, "labels": {"a b": "c&d"}, "filters": [{"field": "f", "equals": [1]}]});
    assert_eq!(echo.seen(), (params, json!({"ids": [3, 4], "limit": 5})));
}

#[tokio::test]
async fn the_typed_client_writes_an_object_as_the_adapter_reads_it() {
    let echo = Echo::default();
    let client = request_parts::Client::new(HttpClient::new(serve(&echo).await).credential("api_key", "k"));
    let params = json!({"created": {"gte": 5, "lt": 9, "by": ["a b", "c&d"]}, "labels": {"x[y]": "1=2"}});
    let typed: list_notes::Params = serde_json::from_value(params.clone()).unwrap();
    let input: list_notes::Input = serde_json::from_value(json!({"ids": [1, 2]})).unwrap();
    client.list_notes(&typed, &input).await.unwrap();
    assert_eq!(echo.seen(), (params, json!({"ids": [1, 2]})));
}

/// The base URL of `echo`'s router on a loopback port.
async fn serve(echo: &Echo) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = router(echo);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    base
}

#[tokio::test]
async fn the_typed_client_places_each_parameter_where_the_adapter_reads_it() {
    let echo = Echo::default();
    let client = request_parts::Client::new(HttpClient::new(serve(&echo).await).credential("api_key", "k"));
    let params: update_note::Params = serde_json::from_value(update_params()).unwrap();
    let input: update_note::Input = serde_json::from_value(json!({"text": "hi"})).unwrap();
    let answer = client.update_note(&params, &input).await.unwrap();
    assert_eq!(serde_json::to_value(&answer).unwrap(), json!({"id": "n1", "text": "hi"}));
    assert_eq!(echo.seen(), (update_params(), json!({"text": "hi"})));
    let params: delete_note::Params = serde_json::from_value(json!({"id": "n1", "confirm": "yes"})).unwrap();
    client.delete_note(&params).await.unwrap();
    assert_eq!(echo.seen(), (json!({"id": "n1", "confirm": "yes"}), Value::Null));
}

#[tokio::test]
async fn a_cookie_value_that_would_start_another_cookie_is_never_sent() {
    let echo = Echo::default();
    let service = request_parts::remote(HttpClient::new(serve(&echo).await));
    let args = json!({"id": "n1", "request_id": "r", "session": "x; admin=1", "text": "hi"});
    let refused = service.call_tool(Surface::Mcp, "update_note_request_part", args, &Ctx::anonymous()).await;
    let Err(err) = refused else { panic!("refused") };
    assert!(err.message.contains("session") || err.message.contains("pattern"), "{err:?}");
    assert!(echo.0.lock().unwrap().is_none(), "nothing reached the server");
    // Past the contract's own pattern too: the transport refuses it by itself.
    let raw = stitchgen_runtime::client::Request {
        op: &update_note::OPERATION,
        types: request_parts::TYPES,
        params: json!({"id": "n1", "request_id": "r", "session": "x; admin=1"}),
        input: json!({"text": "hi"}),
        raw_body: None,
        upload: None,
        headers: Vec::new(),
    };
    let sent = stitchgen_runtime::client::Transport::call(&HttpClient::new("http://127.0.0.1:9"), raw).await;
    assert!(matches!(&sent, Err(ClientError::Invalid(e)) if e.message.contains("cookie")), "{sent:?}");
}

#[tokio::test]
async fn the_tools_take_the_parameters_as_arguments() {
    let echo = Echo::default();
    let service = request_parts::service(echo.clone());
    let mut args = update_params();
    args["text"] = json!("hi");
    let tool = service.call_tool(Surface::Mcp, "update_note_request_part", args, &Ctx::anonymous()).await;
    tool.unwrap();
    assert_eq!(echo.seen(), (update_params(), json!({"text": "hi"})));
    let schema: Value = serde_json::from_str(update_note::OPERATION.tool_input_schema.unwrap()).unwrap();
    let mut keys: Vec<&str> = schema["properties"].as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(keys, ["dry_run", "expand", "id", "if_version", "request_id", "session", "text"]);
}

#[tokio::test]
async fn a_parameter_with_text_around_it_is_its_segment_without_the_text() {
    let echo = Echo::default();
    let get = |uri: &str| Request::get(uri).body(Body::empty()).unwrap();
    let (status, body) = send(&echo, get("/request_parts/v2/files/a.b.json")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(echo.seen().0, json!({"version": 2, "name": "a.b"}));
    for other in ["/request_parts/v2/files/a.b.xml", "/request_parts/2/files/a.json", "/request_parts/v2/files/a"] {
        let (status, body) = send(&Echo::default(), get(other)).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{other}: {body}");
    }
    let (status, body) = send(&echo, get("/request_parts/vtwo/files/a.json")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    // Through the client: the text is written around the value, the value percent-encoded.
    let client = request_parts::Client::new(HttpClient::new(serve(&echo).await));
    for name in ["n1", "a b/c.json", ".."] {
        let params: get_note_file::Params = serde_json::from_value(json!({"version": 3, "name": name})).unwrap();
        let answer = client.get_note_file(&params).await;
        if name == ".." {
            assert!(matches!(answer, Err(ClientError::Invalid(_))), "a dot segment never leaves: {answer:?}");
            continue;
        }
        answer.unwrap();
        assert_eq!(echo.seen().0, json!({"version": 3, "name": name}));
    }
}

fn message() -> Value {
    json!({"To": "+15550001 x", "Body": "héllo & bye=1", "MaxPrice": 0.5, "SendAsMms": true, "StatusCallbackEvent": ["sent", "delivered"]})
}

#[tokio::test]
async fn a_form_body_is_read_into_the_input_typed() {
    let echo = Echo::default();
    let form = "To=%2B15550001+x&Body=h%C3%A9llo+%26+bye%3D1&MaxPrice=0.5&SendAsMms=true&StatusCallbackEvent=sent&StatusCallbackEvent=delivered";
    let req = Request::post("/request_parts/Accounts/AC12ab/Messages.json")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from(form))
        .unwrap();
    let (status, body) = send(&echo, req).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(echo.seen(), (json!({"account": "AC12ab"}), message()));
    // A field the schema refuses is refused with its path, as in a JSON body.
    let req = Request::post("/request_parts/Accounts/AC12ab/Messages.json")
        .header("content-type", "application/x-www-form-urlencoded")
        .body(Body::from("To=x&Body=y&MaxPrice=cheap"))
        .unwrap();
    let (status, body) = send(&Echo::default(), req).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body.to_string().contains("/MaxPrice"), "{body}");
}

#[tokio::test]
async fn the_typed_client_sends_a_form() {
    let echo = Echo::default();
    let client = request_parts::Client::new(HttpClient::new(serve(&echo).await));
    let params: send_message::Params = serde_json::from_value(json!({"account": "AC12ab"})).unwrap();
    let input: send_message::Input = serde_json::from_value(message()).unwrap();
    let answer = client.send_message(&params, &input).await.unwrap();
    assert_eq!(serde_json::to_value(&answer).unwrap(), json!({"id": "SM1", "text": "héllo & bye=1"}));
    assert_eq!(echo.seen(), (json!({"account": "AC12ab"}), message()));
}

#[tokio::test]
async fn an_optional_body_may_be_absent() {
    let echo = Echo::default();
    // Absent, the handler's `None`; present, it is held to the input, which requires `reason`.
    for (body, input) in [("", Value::Null), (" \n", Value::Null), (r#"{"reason":"seen"}"#, json!({"reason": "seen"}))]
    {
        let req = Request::post("/request_parts/notes/n1/touch").header("content-type", "application/json");
        let (status, answer) = send(&echo, req.body(Body::from(body)).unwrap()).await;
        assert_eq!(status, StatusCode::NO_CONTENT, "{answer}");
        assert_eq!(echo.seen(), (json!({"id": "n1"}), input));
    }
    for body in ["[]", "{}", r#"{"reason":5}"#] {
        let req = Request::post("/request_parts/notes/n1/touch").header("content-type", "application/json");
        let (status, answer) = send(&echo, req.body(Body::from(body)).unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
    }
    // The client sends no body for `None` and the body for `Some`.
    let client = request_parts::Client::new(HttpClient::new(serve(&echo).await));
    let params: touch_note::Params = serde_json::from_value(json!({"id": "n2"})).unwrap();
    client.touch_note(&params, None).await.unwrap();
    assert_eq!(echo.seen(), (json!({"id": "n2"}), Value::Null));
    let input: touch_note::Input = serde_json::from_value(json!({"reason": "r"})).unwrap();
    client.touch_note(&params, Some(&input)).await.unwrap();
    assert_eq!(echo.seen(), (json!({"id": "n2"}), json!({"reason": "r"})));
    // A tool call without the body's arguments is a call without a body.
    let service = request_parts::service(echo.clone());
    service.call_tool(Surface::Mcp, "touch_note_request_part", json!({"id": "n3"}), &Ctx::anonymous()).await.unwrap();
    assert_eq!(echo.seen(), (json!({"id": "n3"}), Value::Null));
    let openapi: Value = serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/openapi.json"))).unwrap();
    assert_eq!(openapi["paths"]["/request_parts/notes/{id}/touch"]["post"]["requestBody"]["required"], false);
}

#[tokio::test]
async fn get_and_delete_read_a_json_body_where_the_contract_says_so() {
    let echo = Echo::default();
    let filter = json!({"filter": {"text": "a", "ids": ["n1", "n2"]}});
    let req = Request::get("/request_parts/notes/search?filter=ignored").header("content-type", "application/json");
    let (status, body) = send(&echo, req.body(Body::from(filter.to_string())).unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(echo.seen(), (Value::Null, filter.clone()));
    let (status, body) = send(&echo, Request::get("/request_parts/notes/search").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "a required body: {body}");
    let (status, body) = send(&echo, Request::delete("/request_parts/notes").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::NO_CONTENT, "an optional body: {body}");
    assert_eq!(echo.seen(), (Value::Null, Value::Null));
    let client = request_parts::Client::new(HttpClient::new(serve(&echo).await));
    let answer = client.search_notes(&serde_json::from_value(filter.clone()).unwrap()).await.unwrap();
    assert_eq!(serde_json::to_value(&answer).unwrap(), json!({"items": []}));
    assert_eq!(echo.seen(), (Value::Null, filter));
    let purge = json!({"ids": ["n1"], "grace_seconds": 0});
    client.purge_notes(Some(&serde_json::from_value(purge.clone()).unwrap())).await.unwrap();
    assert_eq!(echo.seen(), (Value::Null, purge));
    let openapi: Value = serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/openapi.json"))).unwrap();
    let search = &openapi["paths"]["/request_parts/notes/search"]["get"];
    assert!(search.get("parameters").is_none(), "{search}");
    assert_eq!(search["requestBody"]["required"], true);
    assert_eq!(openapi["paths"]["/request_parts/notes"]["delete"]["requestBody"]["required"], false);
}

#[tokio::test]
async fn a_segment_beyond_ascii_is_routed_percent_encoded() {
    let echo = Echo::default();
    let (status, body) = send(&echo, Request::get("/request_parts/men%C3%BC").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let client = request_parts::Client::new(HttpClient::new(serve(&echo).await));
    let answer = client.get_menu().await.unwrap();
    assert_eq!(serde_json::to_value(&answer).unwrap(), json!({"id": "menu", "text": "ü"}));
}

#[tokio::test]
async fn a_trailing_slash_is_a_route_of_its_own() {
    let echo = Echo::default();
    let (status, body) = send(&echo, Request::get("/request_parts/versions/").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, body) = send(&echo, Request::get("/request_parts/versions").body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let client = request_parts::Client::new(HttpClient::new(serve(&echo).await));
    let answer = client.get_versions().await.unwrap();
    assert_eq!(serde_json::to_value(&answer).unwrap(), json!({"id": "versions", "text": "v1"}));
    let openapi: Value = serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/openapi.json"))).unwrap();
    assert!(openapi["paths"].get("/request_parts/versions/").is_some(), "{}", openapi["paths"]);
}

#[test]
fn openapi_places_each_parameter() {
    let openapi: Value = serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/openapi.json"))).unwrap();
    let listed = |path: &str, method: &str| -> Vec<(String, String, bool)> {
        let ps = openapi["paths"][path][method]["parameters"].as_array().unwrap();
        ps.iter()
            .map(|p| (p["name"].as_str().unwrap().into(), p["in"].as_str().unwrap().into(), p["required"] == true))
            .collect()
    };
    let expect = |l: &[(&str, &str, bool)]| -> Vec<(String, String, bool)> {
        l.iter().map(|(n, i, r)| ((*n).into(), (*i).into(), *r)).collect()
    };
    assert_eq!(
        listed("/request_parts/notes/{id}", "patch"),
        expect(&[
            ("id", "path", true),
            ("X-Request-Id", "header", true),
            ("If-Version", "header", false),
            ("dry_run", "query", false),
            ("expand[]", "query", false),
            ("sid", "cookie", false),
        ])
    );
    assert_eq!(
        listed("/request_parts/notes", "get"),
        expect(&[
            ("X-Tenant", "header", false),
            ("pageToken", "query", false),
            ("created", "query", false),
            ("labels", "query", false),
            ("filters", "query", false),
            ("limit", "query", false),
            ("tag", "query", false),
            ("ids", "query", false),
        ])
    );
    let created = &openapi["paths"]["/request_parts/notes"]["get"]["parameters"][2];
    assert_eq!((&created["style"], &created["explode"]), (&json!("deepObject"), &json!(true)));
    let filters = &openapi["paths"]["/request_parts/notes"]["get"]["parameters"][4];
    assert_eq!(filters["content"]["application/json"]["schema"]["type"], "array", "{filters}");
}
