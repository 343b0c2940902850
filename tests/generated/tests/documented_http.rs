//! What a contract documents about the HTTP exchange (`http`: a fixed status, response headers)
//! over a real generated service (the documented_http fixture): HTTP answers the status and the
//! headers the handler set, the tool surfaces answer the body alone.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::{Value, json};
use stitchgen_generated_tests::orders;
use stitchgen_runtime::{AppError, Ctx, Headed, Service, Surface};
use tower::ServiceExt;

struct Shop;

impl orders::Handler for Shop {
    async fn create(
        &self,
        _: &Ctx,
        input: orders::create::Input,
    ) -> Result<Headed<orders::create::Output, orders::create::Headers>, AppError> {
        let order = orders::create::Output { id: "o-1".into(), item: input.item };
        Ok(Headed::new(order, orders::create::Headers { location: "/orders/o-1".into() }))
    }
    async fn list(&self, _: &Ctx) -> Result<Headed<orders::list::Output, orders::list::Headers>, AppError> {
        let headers = orders::list::Headers {
            x_rate_limit_limit: Some("100".into()),
            x_rate_limit_remaining: Some("99".into()),
            ..Default::default()
        };
        Ok(Headed::new(vec![orders::types::ListOutputItem { id: "o-1".into() }], headers))
    }
    async fn cancel(
        &self,
        _: &Ctx,
        params: orders::cancel::Params,
    ) -> Result<Headed<(), orders::cancel::Headers>, AppError> {
        Ok(Headed::new((), orders::cancel::Headers { x_request_id: format!("req-{}", params.id) }))
    }
    async fn archive(&self, _: &Ctx, _: orders::archive::Params) -> Result<(), AppError> {
        Ok(())
    }
}

fn service() -> Service {
    orders::service(Shop)
}

async fn send(method: &str, uri: &str, body: Option<Value>) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let router = stitchgen_runtime::axum::HttpApi::new(service()).router();
    let req = Request::builder().method(method).uri(uri).header("content-type", "application/json");
    let req = req.body(body.map_or_else(Body::empty, |b| Body::from(b.to_string()))).unwrap();
    let res = router.oneshot(req).await.expect("the router is infallible");
    let (parts, body) = res.into_parts();
    (parts.status, parts.headers, axum::body::to_bytes(body, usize::MAX).await.unwrap().to_vec())
}

async fn tool(surface: Surface, name: &str, args: Value) -> Value {
    service().call_tool(surface, name, args, &Ctx::anonymous()).await.expect("the call succeeds").value
}

#[tokio::test]
async fn http_answers_the_declared_status_and_the_headers_the_handler_set() {
    let (status, headers, body) = send("POST", "/orders", Some(json!({ "item": "tea" }))).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(headers["location"], "/orders/o-1");
    assert_eq!(serde_json::from_slice::<Value>(&body).unwrap(), json!({ "id": "o-1", "item": "tea" }));

    let (status, headers, body) = send("GET", "/orders", None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        (&headers["x-ratelimit-limit"], &headers["x-ratelimit-remaining"]),
        (&"100".parse().unwrap(), &"99".parse().unwrap())
    );
    assert!(!headers.contains_key("x-ratelimit-reset"), "an optional header left unset is not sent");
    assert_eq!(serde_json::from_slice::<Value>(&body).unwrap(), json!([{ "id": "o-1" }]), "HTTP never wraps");

    let (status, headers, body) = send("DELETE", "/orders/o-7", None).await;
    assert_eq!((status, headers["x-request-id"].to_str().unwrap(), body.len()), (StatusCode::NO_CONTENT, "req-o-7", 0));

    let (status, _, body) = send("POST", "/orders/o-7/archive", None).await;
    assert_eq!((status, body.len()), (StatusCode::ACCEPTED, 0), "a declared status without headers or output");
}

#[tokio::test]
async fn the_tool_surfaces_answer_the_body_alone() {
    for surface in [Surface::Mcp, Surface::Agent] {
        assert_eq!(
            tool(surface, "create_order", json!({ "item": "tea" })).await,
            json!({ "id": "o-1", "item": "tea" })
        );
        assert_eq!(tool(surface, "list_orders", json!({})).await, json!({ "items": [{ "id": "o-1" }] }), "wrapped");
        assert_eq!(tool(surface, "cancel_order", json!({ "id": "o-7" })).await, Value::Null);
        assert_eq!(tool(surface, "archive_order", json!({ "id": "o-7" })).await, Value::Null);
    }
}
