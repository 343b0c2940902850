//! Shapes reduced from real API descriptions that passed `check` and then broke generation or the
//! build, or compiled into types that lost data: each now generates, compiles and keeps its data.

use serde_json::{Value, json};
use stitchgen_generated_tests::{
    r#box, default_beside_union, default_null, enum_beside_all_of, enum_plus_one, fields_same_case, generated_input,
    inline_named, nullable_enum, nullable_shared_type, ref_with_sibling, same_module, same_module_2, same_rust_name,
    title_names_type, types_same_rust_name,
};
use stitchgen_runtime::{AppError, Call, Ctx, ErrorCode, Service};

async fn http(svc: &Service, action: &str, input: Value) -> Result<Value, AppError> {
    let op = svc.operations().iter().position(|o| o.action == action).unwrap();
    let input = input.as_object().cloned().unwrap_or_default();
    svc.call_http(op, Default::default(), input, Call::default(), &Ctx::anonymous()).await.map(|a| a.value)
}

/// Answers with the value the test stored, through the typed output: what the Rust type
/// cannot hold is lost on the way, and the comparison shows it.
struct Answer(Value);

fn typed<T: for<'de> stitchgen_runtime::__private::serde::Deserialize<'de>>(v: &Value) -> Result<T, AppError> {
    serde_json::from_value(v.clone()).map_err(|e| AppError::new(ErrorCode::InternalServerError, e.to_string()))
}

/// Each service's one `get_t` answers the stored value through its typed output.
macro_rules! answer_handler {
    ($($service:ident),*) => {$(
        impl $service::Handler for Answer {
            async fn get_t(&self, _ctx: &Ctx) -> Result<$service::get_t::Output, AppError> {
                typed(&self.0)
            }
        }
    )*};
}

answer_handler!(
    title_names_type,
    inline_named,
    nullable_shared_type,
    nullable_enum,
    enum_beside_all_of,
    enum_plus_one,
    r#box,
    fields_same_case,
    types_same_rust_name
);

async fn answers_unchanged(svc: Service, value: Value) {
    assert_eq!(http(&svc, "get_t", json!({})).await.unwrap(), value);
}

#[tokio::test]
async fn a_title_never_makes_two_shapes_one_type() {
    let v = json!({"home": {"city": "Paris"}, "work": {"street": "1 Main St"}});
    answers_unchanged(title_names_type::service(Answer(v.clone())), v).await;
}

#[tokio::test]
async fn an_inline_type_named_like_a_shared_one_keeps_its_fields() {
    let v = json!({
        "from": {"id": "e1"}, "o": {"other": 1}, "l": {"size": 2},
        "source": {"url": "https://x.example"}, "origin": {"region": "eu"}, "link": {"href": "/e1"}
    });
    answers_unchanged(inline_named::service(Answer(v.clone())), v).await;
}

#[tokio::test]
async fn nullable_shared_types_are_optional_where_used() {
    let v = json!({"user": {"login": "ada"}, "effort": "high"});
    answers_unchanged(nullable_shared_type::service(Answer(v.clone())), v).await;
    let none = json!({});
    answers_unchanged(nullable_shared_type::service(Answer(none.clone())), none).await;
    let _: nullable_shared_type::types::T = nullable_shared_type::types::T { user: None, effort: None };
}

#[tokio::test]
async fn nullable_shared_enums_are_one_enum_optional_where_used() {
    for v in [
        json!({"origin": "source", "stage": "final", "mode": "fast", "reason": "won't fix", "resolution": "revoked"}),
        json!({"origin": null}),
    ] {
        answers_unchanged(nullable_enum::service(Answer(v.clone())), v).await;
    }
    // `null` under an optional key is the key left out (the Rust type's `None`).
    let v = json!({"origin": null, "reason": null, "resolution": null});
    let answer = http(&nullable_enum::service(Answer(v)), "get_t", json!({})).await.unwrap();
    assert_eq!(answer, json!({"origin": null}));
    use nullable_enum::types::{Mode, Origin, Reason, Stage, T, TResolution};
    let _ = T {
        origin: Some(Origin::Library),
        stage: Some(Stage::Draft),
        mode: Some(Mode::Slow),
        reason: Some(Reason::FalsePositive),
        resolution: Some(TResolution::WontFix),
    };
    let err = http(&nullable_enum::service(Answer(json!({"origin": "other"}))), "get_t", json!({})).await;
    assert!(err.is_err());
}

#[tokio::test]
async fn an_enum_beside_a_combinator_is_its_listed_values() {
    let v = json!({"kind": "channel", "other": "role"});
    answers_unchanged(enum_beside_all_of::service(Answer(v.clone())), v).await;
    // A value the enum does not list cannot be held by the Rust type.
    let err = http(&enum_beside_all_of::service(Answer(json!({"kind": "role"}))), "get_t", json!({})).await;
    assert!(err.is_err());
}

#[tokio::test]
async fn the_values_plus_one_and_zero_are_variants() {
    for vote in ["+1", "0"] {
        let v = json!({ "vote": vote });
        answers_unchanged(enum_plus_one::service(Answer(v.clone())), v).await;
    }
}

#[tokio::test]
async fn a_service_named_after_a_keyword_is_a_raw_module() {
    let v = json!({"a": "b"});
    answers_unchanged(r#box::service(Answer(v.clone())), v).await;
}

struct Make;

impl default_beside_union::Handler for Make {
    async fn make(&self, _ctx: &Ctx, input: default_beside_union::make::Input) -> Result<(), AppError> {
        // Where typify cannot carry the default, the field stays optional: the handler applies it.
        assert!(input.voice.is_none() || input.model.is_some());
        Ok(())
    }
}

impl default_null::Handler for Make {
    async fn make(&self, _ctx: &Ctx, input: default_null::make::Input) -> Result<(), AppError> {
        if let Some(n) = input.n {
            assert_eq!(n, 3);
        }
        Ok(())
    }
}

impl ref_with_sibling::Handler for Make {
    async fn make(&self, _ctx: &Ctx, input: ref_with_sibling::make::Input) -> Result<(), AppError> {
        match input.item {
            Some(ref_with_sibling::types::MakeInputItem::Item(item)) => assert_eq!(item.id.as_deref(), Some("i1")),
            Some(ref_with_sibling::types::MakeInputItem::String(s)) => assert_eq!(s, "i1"),
            None => {}
        }
        Ok(())
    }
}

#[tokio::test]
async fn defaults_typify_cannot_carry_leave_the_field_optional() {
    let svc = default_beside_union::service(Make);
    for input in [json!({}), json!({"model": "dall-e-3", "voice": "echo"}), json!({"model": "dall-e-2"})] {
        http(&svc, "make", input).await.unwrap();
    }
    let svc = default_null::service(Make);
    for input in [json!({}), json!({"n": null}), json!({"n": 3})] {
        http(&svc, "make", input).await.unwrap();
    }
}

#[tokio::test]
async fn a_reference_with_a_sibling_keyword_is_the_referenced_type() {
    let svc = ref_with_sibling::service(Make);
    for input in [json!({"item": {"id": "i1"}}), json!({"item": "i1"}), json!({})] {
        http(&svc, "make", input).await.unwrap();
    }
}

#[tokio::test]
async fn properties_sharing_a_rust_name_are_two_fields() {
    let v = json!({"EndTime": "2026-01-01", "EndTime<": "2026-02-01"});
    answers_unchanged(fields_same_case::service(Answer(v.clone())), v).await;
    let t = fields_same_case::types::GetTOutput { end_time: Some("a".into()), end_time_2: Some("b".into()) };
    assert_eq!(serde_json::to_value(&t).unwrap(), json!({"EndTime": "a", "EndTime<": "b"}));
}

/// Answers each operation with its own name, so a mix-up between renamed ones shows.
struct Which;

impl same_rust_name::Handler for Which {
    async fn get_user(
        &self,
        _: &Ctx,
        params: same_rust_name::get_user::Params,
    ) -> Result<same_rust_name::get_user::Output, AppError> {
        typed(&json!({"by": format!("id {}", params.id)}))
    }
    async fn get_user_2(
        &self,
        _: &Ctx,
        params: same_rust_name::get_user_2::Params,
    ) -> Result<same_rust_name::get_user_2::Output, AppError> {
        typed(&json!({"by": format!("email {}", params.email)}))
    }
    async fn types_2(&self, _: &Ctx) -> Result<same_rust_name::types_2::Output, AppError> {
        typed(&json!({"by": "types"}))
    }
    async fn self_(&self, _: &Ctx) -> Result<same_rust_name::self_::Output, AppError> {
        typed(&json!({"by": "self"}))
    }
}

#[tokio::test]
async fn actions_sharing_a_rust_name_stay_distinct_operations_under_their_wire_names() {
    let svc = same_rust_name::service(Which);
    let cases = [
        ("getUser", json!({"id": "u1"}), "id u1"),
        ("get_user", json!({"email": "a@example.com"}), "email a@example.com"),
        ("types", json!({}), "types"),
        ("self", json!({}), "self"),
    ];
    for (action, params, by) in cases {
        let op = svc.operations().iter().position(|o| o.action == action).unwrap();
        let params = params.as_object().cloned().unwrap_or_default();
        let answer = svc.call_http(op, params, Default::default(), Call::default(), &Ctx::anonymous()).await.unwrap();
        assert_eq!(answer.value, json!({"by": by}), "{action}");
    }
}

/// Answers with where it runs, for the two services that share one Rust module name.
struct From(&'static str);

impl same_module::Handler for From {
    async fn list(&self, _: &Ctx) -> Result<same_module::list::Output, AppError> {
        typed(&json!({"from": self.0}))
    }
}

impl same_module_2::Handler for From {
    async fn get(&self, _: &Ctx) -> Result<same_module_2::get::Output, AppError> {
        typed(&json!({"from": self.0}))
    }
}

#[tokio::test]
async fn services_sharing_a_module_name_are_two_modules_under_their_own_names() {
    let (a, b) = (same_module::service(From("a")), same_module_2::service(From("b")));
    assert_eq!(a.operations()[0].service, "same-module");
    assert_eq!(b.operations()[0].service, "same_module");
    assert_eq!(http(&a, "list", json!({})).await.unwrap(), json!({"from": "a"}));
    assert_eq!(http(&b, "get", json!({})).await.unwrap(), json!({"from": "b"}));
}

#[tokio::test]
async fn types_sharing_a_rust_name_are_two_types_with_their_own_fields() {
    let v = json!({"a": {"name": "Ada"}, "b": {"email": "ada@example.com", "card": {"name": "Ada"}}});
    answers_unchanged(types_same_rust_name::service(Answer(v.clone())), v).await;
    let _: types_same_rust_name::types::UserCard = typed(&json!({"name": "Ada"})).unwrap();
    let _: types_same_rust_name::types::UserCard2 = typed(&json!({"email": "ada@example.com"})).unwrap();
}

/// Echoes the list input back inside the shared type of the same name.
struct Echo;

impl generated_input::Handler for Echo {
    async fn list(
        &self,
        _: &Ctx,
        input: generated_input::list::Input,
    ) -> Result<generated_input::list::Output, AppError> {
        // The operation's own input type took the suffix; the shared `ListInput` kept its name.
        let input: generated_input::types::List2Input = input;
        typed(&json!({"filter": generated_input::types::ListInput { limit: input.limit }}))
    }
}

#[tokio::test]
async fn an_operation_type_named_like_a_shared_one_takes_a_suffix_and_both_work() {
    let svc = generated_input::service(Echo);
    assert_eq!(http(&svc, "list", json!({"limit": 3})).await.unwrap(), json!({"filter": {"limit": 3}}));
}
