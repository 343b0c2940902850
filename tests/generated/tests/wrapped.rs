//! Tool answers that are not objects, on the default MCP target: wrapped the same way on every
//! tool surface (`{"items": [...]}`, `{"value": …}`), never on HTTP.

use serde_json::{Value, json};
use stitchgen_generated_tests::answers;
use stitchgen_runtime::{AppError, Call, Ctx, Service, Surface};

struct Tags(Vec<&'static str>);

impl answers::Handler for Tags {
    async fn tags(&self, _ctx: &Ctx) -> Result<answers::tags::Output, AppError> {
        Ok(self.0.iter().map(|t| (*t).to_owned()).collect())
    }
    async fn count(&self, _ctx: &Ctx) -> Result<answers::count::Output, AppError> {
        Ok(self.0.len() as u64)
    }
    async fn newest_tag(&self, _ctx: &Ctx) -> Result<answers::newest_tag::Output, AppError> {
        Ok(self.0.last().map(|t| (*t).to_owned()))
    }
}

fn service(tags: Vec<&'static str>) -> Service {
    answers::service(Tags(tags))
}

async fn tool(svc: &Service, surface: Surface, name: &str) -> Value {
    svc.call_tool(surface, name, json!({}), &Ctx::anonymous()).await.unwrap().value
}

#[tokio::test]
async fn every_tool_surface_wraps_a_list_as_items_and_anything_else_as_value() {
    let svc = service(vec!["a", "b"]);
    for surface in [Surface::Mcp, Surface::Agent, Surface::Cli] {
        assert_eq!(tool(&svc, surface, "tags_answer").await, json!({ "items": ["a", "b"] }), "{surface:?}");
        assert_eq!(tool(&svc, surface, "count_answer").await, json!({ "value": 2 }), "{surface:?}");
        assert_eq!(tool(&svc, surface, "newest_tag").await, json!({ "value": "b" }), "{surface:?}");
    }
    let empty = service(Vec::new());
    assert_eq!(tool(&empty, Surface::Mcp, "newest_tag").await, json!({ "value": null }));
    assert_eq!(tool(&empty, Surface::Agent, "tags_answer").await, json!({ "items": [] }));
}

#[tokio::test]
async fn http_answers_are_never_wrapped() {
    let svc = service(vec!["a", "b"]);
    for (action, want) in [("tags", json!(["a", "b"])), ("count", json!(2))] {
        let op = svc.operations().iter().position(|o| o.action == action).unwrap();
        let got = svc.call_http(op, Default::default(), Default::default(), Call::default(), &Ctx::anonymous()).await;
        assert_eq!(got.unwrap().value, want, "{action}");
    }
}
