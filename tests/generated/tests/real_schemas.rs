//! Schemas as real API descriptions write them, generated, compiled and run: each fixture is
//! named after the shape it shows.

use serde_json::{Value, json};
use stitchgen_generated_tests::{examples, numeric_formats};
use stitchgen_runtime::{AppError, Call, Ctx, Service};

async fn http(svc: &Service, action: &str, params: Value, input: Value) -> Result<Value, AppError> {
    let op = svc.operations().iter().position(|o| o.action == action).unwrap();
    let to_map = |v: Value| v.as_object().cloned().unwrap_or_default();
    svc.call_http(op, to_map(params), to_map(input), Call::default(), &Ctx::anonymous()).await.map(|a| a.value)
}

struct Echo;

impl numeric_formats::Handler for Echo {
    async fn echo(
        &self,
        _ctx: &Ctx,
        input: numeric_formats::echo::Input,
    ) -> Result<numeric_formats::echo::Output, AppError> {
        Ok(input)
    }
}

#[tokio::test]
async fn integer_formats_shape_the_rust_type() {
    use numeric_formats::types::Numbers;
    let n = Numbers {
        id: i64::MAX,
        count: Some(i32::MIN),
        small: Some(u8::MAX),
        size: Some(u64::MAX),
        ratio: Some(0.5f64),
        weight: Some(0.25f32),
        created: Some(1_700_000_000),
        amount: Some("12.50".into()),
        big: Some("9007199254740993".into()),
        parent: None,
    };
    assert_eq!(n.id, i64::MAX);
}

#[tokio::test]
async fn an_int64_round_trips_exactly_beyond_two_to_the_53() {
    let svc = numeric_formats::service(Echo);
    let id = (1i64 << 53) + 1;
    let sent = json!({ "id": id, "size": u64::MAX, "parent": id, "big": "9007199254740993" });
    let out = http(&svc, "echo", json!({}), sent.clone()).await.unwrap();
    assert_eq!(out["id"].as_i64(), Some(id));
    assert_eq!(out["size"].as_u64(), Some(u64::MAX));
    assert_eq!(out["parent"].as_i64(), Some(id));
    assert_eq!(out["big"], "9007199254740993");
}

#[tokio::test]
async fn a_value_outside_its_format_width_is_refused_as_input() {
    let svc = numeric_formats::service(Echo);
    let err = http(&svc, "echo", json!({}), json!({ "id": 1, "small": 256 })).await.unwrap_err();
    assert_eq!(err.code, "VALIDATION_ERROR", "{err:?}");
}

struct Counters;

impl examples::Handler for Counters {
    async fn get(&self, _ctx: &Ctx, params: examples::get::Params) -> Result<examples::get::Output, AppError> {
        Ok(examples::get::Output { id: params.id, count: 3 })
    }
}

#[tokio::test]
async fn examples_that_break_their_schema_validate_nothing() {
    let svc = examples::service(Counters);
    let out = http(&svc, "get", json!({ "id": 7 }), json!({})).await.unwrap();
    assert_eq!(out, json!({ "id": 7, "count": 3 }));
    // The example "0" is documentation: the schema, an integer, is what is enforced.
    let err = http(&svc, "get", json!({ "id": "0" }), json!({})).await.unwrap_err();
    assert_eq!(err.code, "VALIDATION_ERROR");
}
