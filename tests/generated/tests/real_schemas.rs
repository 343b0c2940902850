//! Schemas as real API descriptions write them, generated, compiled and run: each fixture is
//! named after the shape it shows.

use serde_json::{Value, json};
use stitchgen_generated_tests::{
    default_in_context, examples, numeric_formats, one_of_all_of, one_of_enum, one_of_mixed, one_of_overlap,
    required_across, scalar_union,
};
use stitchgen_runtime::{AppError, Call, Ctx, ErrorCode, Service};

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

#[test]
fn integer_formats_shape_the_rust_type() {
    use numeric_formats::types::Numbers;
    // Each field names the Rust type its format shapes; this compiles only if they hold.
    let n = Numbers {
        id: i64::MAX,
        count: Some(i32::MIN),
        small: Some(u8::MAX),
        size: Some(u64::MAX),
        ratio: Some(0.5f64),
        weight: Some(0.25f32),
        created: Some(1_700_000_000.into()),
        amount: Some("12.50".into()),
        big: Some("9007199254740993".into()),
        parent: None,
        links: [("self".to_owned(), "/numbers/1".to_owned())].into_iter().collect(),
    };
    let json = serde_json::to_value(&n).unwrap();
    assert_eq!(json["id"].as_i64(), Some(i64::MAX));
    assert_eq!(json["size"].as_u64(), Some(u64::MAX));
    assert_eq!(json["count"].as_i64(), Some(i64::from(i32::MIN)));
    assert_eq!(json["weight"].as_f64(), Some(0.25));
    assert_eq!(json["links"], json!({"self": "/numbers/1"}));
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
    // Refused by validation, with its path and the bound its format is: never by the
    // deserialization of an `u8` after validation passed.
    for (field, value, keyword) in
        [("small", json!(256), "maximum"), ("small", json!(-1), "minimum"), ("count", json!(1u64 << 31), "maximum")]
    {
        let err = http(&svc, "echo", json!({}), json!({ "id": 1, field: value })).await.unwrap_err();
        assert_eq!(err.code, "VALIDATION_ERROR", "{err:?}");
        let details = serde_json::to_string(&err.details).unwrap();
        assert!(details.contains(&format!("/{field}")) && details.contains(keyword), "{field}: {details}");
    }
    let out = http(&svc, "echo", json!({}), json!({ "id": 1, "small": 255, "count": i32::MAX })).await.unwrap();
    assert_eq!((out["small"].as_u64(), out["count"].as_i64()), (Some(255), Some(i64::from(i32::MAX))));
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

/// A handler answering what it was sent, through JSON: the typed input and output types must
/// hold every field, or the answer differs from what was sent.
macro_rules! echo_handler {
    ($service:ident) => {
        impl $service::Handler for Echo {
            async fn echo(&self, _ctx: &Ctx, input: $service::echo::Input) -> Result<$service::echo::Output, AppError> {
                let value = serde_json::to_value(input).unwrap();
                serde_json::from_value(value).map_err(|e| AppError::new(ErrorCode::InternalServerError, e.to_string()))
            }
        }
    };
}

echo_handler!(one_of_enum);
echo_handler!(one_of_all_of);
echo_handler!(one_of_mixed);
echo_handler!(one_of_overlap);
echo_handler!(required_across);

/// Sends each value and expects it answered unchanged.
async fn round_trips(svc: &Service, values: &[Value]) {
    for sent in values {
        let got = http(svc, "echo", json!({}), sent.clone()).await;
        assert_eq!(got.as_ref().ok(), Some(sent), "{sent} came back as {got:?}");
    }
}

/// Sends each value and expects a validation error.
async fn refused(svc: &Service, values: &[Value]) {
    for sent in values {
        let err = http(svc, "echo", json!({}), sent.clone()).await.expect_err(&sent.to_string());
        assert_eq!(err.code, "VALIDATION_ERROR", "{sent}: {err:?}");
    }
}

#[tokio::test]
async fn one_of_discriminated_by_single_value_enums() {
    let svc = one_of_enum::service(Echo);
    round_trips(&svc, &[json!({"pet": {"kind": "cat", "meows": true}}), json!({"pet": {"kind": "dog", "barks": 3}})])
        .await;
    refused(&svc, &[json!({"pet": {"kind": "cow", "meows": true}}), json!({"pet": {"kind": "dog", "meows": true}})])
        .await;
}

#[tokio::test]
async fn one_of_discriminated_through_all_of_parts() {
    let svc = one_of_all_of::service(Echo);
    round_trips(
        &svc,
        &[
            json!({"pet": {"id": "c1", "kind": "cat", "lives": 9}}),
            json!({"pet": {"id": "d1", "kind": "dog", "good": true}}),
        ],
    )
    .await;
    refused(&svc, &[json!({"pet": {"id": "x", "kind": "cow"}}), json!({"pet": {"kind": "cat"}})]).await;
}

#[tokio::test]
async fn one_of_mixing_a_scalar_with_discriminated_objects() {
    let svc = one_of_mixed::service(Echo);
    round_trips(
        &svc,
        &[
            json!({"stop": "END"}),
            json!({"stop": {"kind": "a", "at": 5}}),
            json!({"stop": {"kind": "b", "words": ["x", "y"]}}),
            json!({"stop": "END", "limit": 2.5}),
            json!({"stop": "END", "limit": "none"}),
        ],
    )
    .await;
    refused(&svc, &[json!({"stop": 5}), json!({"stop": {"kind": "c"}}), json!({"stop": "END", "limit": true})]).await;
}

#[tokio::test]
async fn an_undiscriminated_one_of_takes_exactly_one_branch() {
    let svc = one_of_overlap::service(Echo);
    round_trips(
        &svc,
        &[json!({"target": {"user": "ada", "note": "hi"}}), json!({"target": {"team": "core", "note": "hi"}})],
    )
    .await;
    // Both branches match, or none does.
    refused(&svc, &[json!({"target": {"user": "ada", "team": "core"}}), json!({"target": {"note": "hi"}})]).await;
}

#[tokio::test]
async fn required_is_resolved_across_the_composition() {
    let svc = required_across::service(Echo);
    round_trips(
        &svc,
        &[
            json!({"item": {"id": "i1", "name": "Lamp", "created": "today"}, "change": {"status": "open"}}),
            json!({"item": {"id": "i2", "name": "Desk"}, "change": {"status": "open", "title": "Both kept"}}),
            json!({"item": {"id": "i3", "name": "Chair"}, "change": {"title": "Renamed"}}),
        ],
    )
    .await;
    // `id` is required by the part beside the base that declares it; the change needs one of
    // its two properties.
    refused(
        &svc,
        &[
            json!({"item": {"name": "Lamp"}, "change": {"status": "open"}}),
            json!({"item": {"id": "i1", "name": "Lamp"}, "change": {}}),
        ],
    )
    .await;
}

struct Records;

impl scalar_union::Handler for Records {
    async fn get(
        &self,
        _ctx: &Ctx,
        params: scalar_union::get::Params,
        _input: scalar_union::get::Input,
    ) -> Result<scalar_union::get::Output, AppError> {
        let value = serde_json::to_value(&params.id).unwrap();
        Ok(scalar_union::get::Output { id: value.to_string(), numeric: Some(value.is_i64()) })
    }
}

#[tokio::test]
async fn a_path_parameter_may_be_a_union_of_scalars() {
    let svc = scalar_union::service(Records);
    let by_number = http(&svc, "get", json!({"id": 42}), json!({})).await.unwrap();
    assert_eq!(by_number, json!({"id": "42", "numeric": true}));
    let by_name = http(&svc, "get", json!({"id": "main"}), json!({"since": 5})).await.unwrap();
    assert_eq!(by_name, json!({"id": "\"main\"", "numeric": false}));
    let err = http(&svc, "get", json!({"id": true}), json!({})).await.unwrap_err();
    assert_eq!(err.code, "VALIDATION_ERROR");
}

struct Jobs;

impl default_in_context::Handler for Jobs {
    async fn create(
        &self,
        _ctx: &Ctx,
        input: default_in_context::create::Input,
    ) -> Result<default_in_context::create::Output, AppError> {
        let retries = input.options.and_then(|o| o.retries).unwrap_or_default();
        Ok(default_in_context::create::Output { retries })
    }
}

#[tokio::test]
async fn a_default_null_in_a_nullable_union_is_no_value() {
    let svc = default_in_context::service(Jobs);
    assert_eq!(http(&svc, "create", json!({}), json!({})).await.unwrap(), json!({"retries": 0}));
    assert_eq!(http(&svc, "create", json!({}), json!({"options": null})).await.unwrap(), json!({"retries": 0}));
    let three = http(&svc, "create", json!({}), json!({"options": {"retries": 3}})).await.unwrap();
    assert_eq!(three, json!({"retries": 3}));
}
