//! Every kind of bound the generated Rust types leave to the runner (plain types: a bounded
//! string is a `String`, `minimum: 1` a `u64`), enforced on HTTP and MCP alike: an input that
//! breaks one is a `VALIDATION_ERROR`, an output that breaks one an `INTERNAL_SERVER_ERROR`.

use serde_json::{Value, json};
use stitchgen_generated_tests::bounds;
use stitchgen_runtime::{AppError, Call, Ctx, Service, Surface};

struct Spoiler;

impl bounds::Handler for Spoiler {
    async fn echo(&self, _ctx: &Ctx, input: bounds::echo::Input) -> Result<bounds::echo::Output, AppError> {
        let mut out = input.value;
        // Plain Rust values: nothing here goes through `TryFrom` or a `NonZero` type.
        match input.spoil.as_deref() {
            Some("name") => out.name = "x".into(),
            Some("code") => out.code = "abc".into(),
            Some("count") => out.count = 0,
            Some("score") => out.score = 1.0,
            Some("step") => out.step = 7.into(),
            Some("tags") => out.tags = Vec::new(),
            _ => {}
        }
        Ok(out)
    }
}

fn valid() -> Value {
    json!({ "name": "Ada", "code": "ABC", "count": 1, "score": 0.5, "step": 10, "tags": ["a"] })
}

/// For each kind of bound, the field it bounds and a value that breaks it.
fn broken() -> Vec<(&'static str, &'static str, Value)> {
    vec![
        ("minLength", "name", json!("x")),
        ("maxLength", "name", json!("abcdef")),
        ("pattern", "code", json!("abc")),
        ("minimum", "count", json!(0)),
        ("maximum", "count", json!(11)),
        ("exclusiveMinimum", "score", json!(0)),
        ("exclusiveMaximum", "score", json!(1)),
        ("multipleOf", "step", json!(7)),
        ("minItems", "tags", json!([])),
        ("maxItems", "tags", json!(["a", "b", "c"])),
    ]
}

async fn call(svc: &Service, surface: Surface, input: Value) -> Result<Value, AppError> {
    match surface {
        Surface::Http => {
            let input = input.as_object().cloned().unwrap_or_default();
            svc.call_http(0, Default::default(), input, Call::default(), &Ctx::anonymous()).await.map(|a| a.value)
        }
        _ => svc.call_tool(surface, "echo_bound", input, &Ctx::anonymous()).await.map(|o| o.value),
    }
}

#[tokio::test]
async fn a_valid_value_round_trips_on_every_surface() {
    let svc = bounds::service(Spoiler);
    for surface in [Surface::Http, Surface::Mcp] {
        let out = call(&svc, surface, json!({ "value": valid() })).await.unwrap();
        assert_eq!(out, valid(), "{surface:?}");
    }
}

#[tokio::test]
async fn an_input_that_breaks_a_bound_is_refused() {
    let svc = bounds::service(Spoiler);
    for surface in [Surface::Http, Surface::Mcp] {
        for (kw, field, value) in broken() {
            let mut input = valid();
            input[field] = value;
            let err = call(&svc, surface, json!({ "value": input })).await.unwrap_err();
            assert_eq!((err.code.as_str(), err.status), ("VALIDATION_ERROR", 400), "{surface:?} {kw}: {err:?}");
        }
    }
}

#[tokio::test]
async fn an_output_that_breaks_a_bound_is_an_internal_error() {
    let svc = bounds::service(Spoiler);
    for surface in [Surface::Http, Surface::Mcp] {
        for field in ["name", "code", "count", "score", "step", "tags"] {
            let err = call(&svc, surface, json!({ "value": valid(), "spoil": field })).await.unwrap_err();
            assert_eq!((err.code.as_str(), err.status), ("INTERNAL_SERVER_ERROR", 500), "{surface:?} {field}: {err:?}");
        }
    }
}
