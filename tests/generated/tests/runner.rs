//! The runner with real handler implementations: the same parse, validation, view and error
//! semantics on every surface.

mod directory;

use std::sync::atomic::Ordering;

use directory::{PANIC_IN_PROJECTION, directory, person};
use serde_json::{Value, json};
use stitchgen_generated_tests::people;
use stitchgen_runtime::{AppError, Call, Ctx, ErrorCode, Service, Surface};

fn service() -> Service {
    people::service(directory())
}

/// `ctx` with the box `delete_person` asks its user for on MCP ticked, as an in-process caller
/// gives it.
fn confirmed(ctx: Ctx) -> Ctx {
    ctx.with_answers(json!({ "confirm": { "confirm": true } }).as_object().cloned().unwrap_or_default())
}

fn op(svc: &Service, action: &str) -> usize {
    svc.operations().iter().position(|o| o.action == action).unwrap()
}

async fn http(svc: &Service, action: &str, params: Value, input: Value) -> Result<Value, AppError> {
    let to_map = |v: Value| v.as_object().cloned().unwrap_or_default();
    svc.call_http(op(svc, action), to_map(params), to_map(input), Call::default(), &Ctx::anonymous())
        .await
        .map(|a| a.value)
}

#[tokio::test]
async fn view_defaults_are_applied_and_parsed_by_the_input_schema() {
    let svc = service();
    // No `limit` given: the view default (20) is merged before the parse; the projection asserts
    // the handler's input carried it.
    let out = svc.call_tool(Surface::Mcp, "list_people", json!({}), &Ctx::anonymous()).await.unwrap();
    assert_eq!(out.value["total"], 3);
    // A whole number written as a float is an integer to JSON Schema, and so to the typed side.
    let out = svc.call_tool(Surface::Mcp, "list_people", json!({ "limit": 2.0 }), &Ctx::anonymous()).await.unwrap();
    assert_eq!(out.value["people"].as_array().map(Vec::len), Some(2));
    // An explicit value wins, and the contract's own schema still parses it: 0 is below minimum.
    let err = svc.call_tool(Surface::Mcp, "list_people", json!({ "limit": 0 }), &Ctx::anonymous()).await.unwrap_err();
    assert_eq!(err.code, "VALIDATION_ERROR");
    let details = err.details.unwrap();
    let message = details["message"].as_str().unwrap();
    assert!(message.starts_with("Invalid input: /limit: "), "{message}");
    assert_eq!(details["errors"][0]["path"], "/limit");
}

#[tokio::test]
async fn params_are_validated_separately() {
    let svc = service();
    let err = svc.call_tool(Surface::Mcp, "get_person", json!({ "id": 7 }), &Ctx::anonymous()).await.unwrap_err();
    assert_eq!(err.code, "VALIDATION_ERROR");
    assert!(err.details.unwrap()["message"].as_str().unwrap().starts_with("Invalid params: /id: "));
}

#[tokio::test]
async fn tool_answers_are_cards_and_http_answers_are_full_records() {
    let svc = service();
    let card =
        svc.call_tool(Surface::Mcp, "list_people", json!({ "team": "core" }), &Ctx::anonymous()).await.unwrap().value;
    assert_eq!(
        card,
        json!({ "people": [{ "id": "p1", "name": "Ada", "team": "core" }, { "id": "p2", "name": "Grace", "team": "core" }], "total": 2 })
    );
    let full = http(&svc, "list", json!({}), json!({ "team": "core" })).await.unwrap();
    assert_eq!(full["people"][0]["email"], "p1@example.com");
    assert_eq!(full["people"][0]["address"]["city"], "Springfield");
    // HTTP applies no view default: every core person, no limit.
    assert_eq!(full["people"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_slice_drops_exactly_the_undeclared_fields() {
    let svc = service();
    let full = http(&svc, "get", json!({ "id": "p3" }), json!({})).await.unwrap();
    let card =
        svc.call_tool(Surface::Agent, "get_person", json!({ "id": "p3" }), &Ctx::anonymous()).await.unwrap().value;
    let kept: Vec<&String> = card.as_object().unwrap().keys().collect();
    assert_eq!(kept, ["id", "name", "team"]);
    for (k, v) in card.as_object().unwrap() {
        assert_eq!(&full[k], v, "{k} copied unchanged");
    }
    let dropped: Vec<&String> =
        full.as_object().unwrap().keys().filter(|k| !card.as_object().unwrap().contains_key(*k)).collect();
    assert_eq!(dropped, ["address", "email", "phone"]);
}

#[tokio::test]
async fn the_http_surface_answers_identically_with_and_without_a_view() {
    let svc = service();
    // `get` has a view, `create`'s answer type has none; both answer HTTP with the full record.
    let got = http(&svc, "get", json!({ "id": "p1" }), json!({})).await.unwrap();
    assert_eq!(got, serde_json::to_value(person("p1", "Ada", "core")).unwrap());
    let created = http(&svc, "create", json!({}), json!({ "name": "Ken", "email": "ken@example.com", "team": "os" }))
        .await
        .unwrap();
    assert_eq!(created["email"], "ken@example.com");
}

#[tokio::test]
async fn an_output_that_breaks_its_schema_is_an_internal_error() {
    let dir = directory();
    dir.break_output.store(true, Ordering::SeqCst);
    let svc = people::service(dir);
    let err = http(&svc, "get", json!({ "id": "p1" }), json!({})).await.unwrap_err();
    assert_eq!(err.code, "INTERNAL_SERVER_ERROR");
    assert_eq!(err.status, 500);
    let err = svc.call_tool(Surface::Mcp, "get_person", json!({ "id": "p1" }), &Ctx::anonymous()).await.unwrap_err();
    assert_eq!(err.code, "INTERNAL_SERVER_ERROR");
}

#[tokio::test]
async fn a_panicking_projection_is_an_internal_error_and_the_next_call_succeeds() {
    let svc = service();
    PANIC_IN_PROJECTION.set(true);
    let err = svc.call_tool(Surface::Cli, "list_people", json!({}), &Ctx::anonymous()).await.unwrap_err();
    PANIC_IN_PROJECTION.set(false);
    assert_eq!(err.code, "INTERNAL_SERVER_ERROR");
    let ok = svc.call_tool(Surface::Cli, "list_people", json!({}), &Ctx::anonymous()).await.unwrap();
    assert_eq!(ok.value["total"], 3);
}

#[tokio::test]
async fn a_list_answer_is_wrapped_on_the_agent_surface_too() {
    let svc = service();
    let agent = svc.call_tool(Surface::Agent, "list_teams", json!({}), &Ctx::anonymous()).await.unwrap();
    assert_eq!(agent.value, json!({ "items": ["core", "kernel"] }));
    let op = svc.operations().iter().position(|o| o.action == "teams").unwrap();
    let full = svc.call_http(op, Default::default(), Default::default(), Call::default(), &Ctx::anonymous()).await;
    assert_eq!(full.unwrap().value, json!(["core", "kernel"]), "HTTP answers the list itself");
}

#[tokio::test]
async fn runtime_tools_run_through_the_same_runner() {
    let svc = service();
    let out = svc.call_tool(Surface::Mcp, "count_people", json!({ "team": "core" }), &Ctx::anonymous()).await.unwrap();
    assert_eq!(out.value, json!({ "count": 2 }));
    assert_eq!(out.presentation.unwrap().content[0]["text"], "2 people");
    let agent = svc.call_tool(Surface::Agent, "count_people", json!({}), &Ctx::anonymous()).await.unwrap();
    assert_eq!(agent.presentation.unwrap().content[0], "There are 3 people.");
    // Same validation as any tool.
    let err = svc.call_tool(Surface::Mcp, "count_people", json!({ "team": 5 }), &Ctx::anonymous()).await.unwrap_err();
    assert_eq!(err.code, "VALIDATION_ERROR");
}

#[tokio::test]
async fn unknown_tools_and_non_object_arguments() {
    let svc = service();
    assert_eq!(
        svc.call_tool(Surface::Mcp, "no_such_tool", json!({}), &Ctx::anonymous()).await.unwrap_err().code,
        "NOT_FOUND"
    );
    // `create_person` is on MCP and AGENT, not on CLI.
    assert_eq!(
        svc.call_tool(Surface::Cli, "create_person", json!({}), &Ctx::anonymous()).await.unwrap_err().code,
        "NOT_FOUND"
    );
    assert_eq!(
        svc.call_tool(Surface::Mcp, "list_people", json!([1]), &Ctx::anonymous()).await.unwrap_err().code,
        "VALIDATION_ERROR"
    );
    // A handler error keeps its code.
    let err =
        svc.call_tool(Surface::Mcp, "get_person", json!({ "id": "nobody" }), &Ctx::anonymous()).await.unwrap_err();
    assert_eq!((err.code.as_str(), err.status), ("NOT_FOUND", 404));
}

#[tokio::test]
async fn the_scope_gate_fails_closed() {
    // `delete` is scoped `admin`; the others are public.
    let svc = service();
    let args = || json!({ "id": "p1" });
    let err = svc.call_tool(Surface::Mcp, "delete_person", args(), &Ctx::anonymous()).await.unwrap_err();
    assert_eq!(err.code, "UNAUTHORIZED");
    let err =
        svc.call_tool(Surface::Mcp, "delete_person", args(), &Ctx::with_identity("u1", ["reader"])).await.unwrap_err();
    assert_eq!(err.code, "FORBIDDEN");
    svc.call_tool(Surface::Mcp, "delete_person", args(), &confirmed(Ctx::with_identity("u1", ["admin"])))
        .await
        .unwrap();
    assert!(svc.call_tool(Surface::Mcp, "list_people", json!({}), &Ctx::anonymous()).await.is_ok());

    // An application gate decides for identified callers.
    let gated = people::service(directory()).with_scope_gate(|ctx, op| match &ctx.identity {
        Some(id) if id.subject == "root" => Ok(()),
        _ => Err(AppError::new(ErrorCode::Forbidden, format!("only root may call `{}`", op.action))),
    });
    assert!(
        gated
            .call_tool(
                Surface::Mcp,
                "delete_person",
                args(),
                &confirmed(Ctx::with_identity("root", Vec::<String>::new()))
            )
            .await
            .is_ok()
    );
    let err =
        gated.call_tool(Surface::Mcp, "delete_person", args(), &Ctx::with_identity("u2", ["admin"])).await.unwrap_err();
    assert_eq!(err.code, "FORBIDDEN");

    // A gate set on a clone is that handle's: no panic, and the service it was cloned from
    // keeps the gate it had (none: the scope decides).
    let plain = people::service(directory());
    let closed = plain.clone().with_scope_gate(|_, _| Err(AppError::new(ErrorCode::Forbidden, "closed")));
    let admin = confirmed(Ctx::with_identity("u3", ["admin"]));
    assert_eq!(closed.call_tool(Surface::Mcp, "delete_person", args(), &admin).await.unwrap_err().code, "FORBIDDEN");
    assert!(plain.call_tool(Surface::Mcp, "delete_person", args(), &admin).await.is_ok());
}

#[tokio::test]
async fn a_tool_that_asks_its_user_runs_on_mcp_only_once_answered_and_the_answer_fits_its_form() {
    let svc = service();
    let admin = || Ctx::with_identity("u1", ["admin"]);
    let args = || json!({ "id": "p1" });
    // In process, nobody can be asked: the error names the capability, and the handler never ran.
    let err = svc.call_tool(Surface::Mcp, "delete_person", args(), &admin()).await.unwrap_err();
    assert_eq!((err.code.as_str(), err.status), ("ELICITATION_UNSUPPORTED", 400));
    assert!(err.hint.as_deref().is_some_and(|h| h.contains("`elicitation` capability")), "{err:?}");
    // Answers given in the context are judged by the form like a client's.
    let bad = admin().with_answers(json!({ "confirm": { "confirm": "yes" } }).as_object().cloned().unwrap());
    let err = svc.call_tool(Surface::Mcp, "delete_person", args(), &bad).await.unwrap_err();
    assert_eq!(err.code, "VALIDATION_ERROR");
    assert!(err.message.contains("answer to `confirm`"), "{}", err.message);
    svc.call_tool(Surface::Mcp, "delete_person", args(), &confirmed(admin())).await.unwrap();
    // The agent surface and HTTP never ask: their callers called the operation themselves.
    svc.call_tool(Surface::Agent, "delete_person", args(), &admin()).await.unwrap();
    let delete = op(&svc, "delete");
    let to_map = |v: Value| v.as_object().cloned().unwrap_or_default();
    svc.call_http(delete, to_map(args()), Default::default(), Call::default(), &admin()).await.unwrap();
}

#[tokio::test]
async fn on_tool_surfaces_a_null_the_schema_refuses_reads_as_the_key_left_out() {
    // A model held to OpenAI's strict mode sends every optional field, `null` when it has none.
    let svc = service();
    let ctx = Ctx::anonymous();
    let plain = svc.call_tool(Surface::Agent, "list_people", json!({}), &ctx).await.unwrap();
    let nulls =
        svc.call_tool(Surface::Agent, "list_people", json!({ "team": null, "limit": null }), &ctx).await.unwrap();
    // The same answer: `team` absent, and `limit` back to its view default (the projection
    // asserts the handler received it).
    assert_eq!(nulls.value, plain.value);
    // A required key sent as `null` is still refused, as leaving it out is.
    let err = svc.call_tool(Surface::Mcp, "get_person", json!({ "id": null }), &ctx).await.unwrap_err();
    assert_eq!(err.code, "VALIDATION_ERROR");
    // HTTP callers are code: a `null` the schema refuses is refused.
    let list = op(&svc, "list");
    let to_map = |v: Value| v.as_object().cloned().unwrap_or_default();
    let err = svc
        .call_http(list, Default::default(), to_map(json!({ "team": null })), Call::default(), &ctx)
        .await
        .unwrap_err();
    assert_eq!(err.code, "VALIDATION_ERROR");
}

/// A value for a required argument of the people tools, by name.
fn sample(name: &str) -> Value {
    match name {
        "id" => json!("p1"),
        "name" => json!("Grace Hopper"),
        "email" => json!("grace@example.com"),
        "team" => json!("core"),
        other => panic!("no sample for required argument `{other}`"),
    }
}

#[tokio::test]
async fn every_profile_s_call_reaches_the_handler_as_the_canonical_call() {
    // Each client profile's tools, as that provider's model fills them: every argument its
    // schema requires, `null` where the canonical schema did not require it (OpenAI's strict
    // mode asks for every key). The same call, canonical: the required arguments alone.
    let agent: Value = serde_json::from_str(people::AGENT_TOOLS).unwrap();
    let admin = || Ctx::with_identity("u1", ["admin"]);
    let ours: Vec<&str> =
        service().operations().iter().filter(|op| op.on(Surface::Agent)).filter_map(|op| op.tool_name).collect();
    let (mut calls, mut answered) = (0, 0);
    // The model providers' profiles; the MCP clients' are served and called in mcp_profiles.rs.
    for profile in stitchgen::Profile::ALL.into_iter().filter(|p| !p.is_mcp()) {
        let (rewritten, refused) = stitchgen::profile::manifest(profile, &agent);
        assert!(refused.is_empty(), "{}: {refused:?}", profile.name());
        let pairs = rewritten["tools"].as_array().unwrap().iter().zip(agent["tools"].as_array().unwrap());
        // The manifest is every fixture's, generated together: the people service's tools.
        for (tool, canonical) in pairs.filter(|(t, _)| ours.contains(&t["name"].as_str().unwrap_or_default())) {
            let name = tool["name"].as_str().unwrap();
            let needed = |schema: &Value| -> Vec<String> {
                schema["required"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            };
            let canonical_required = needed(&canonical["parameters"]);
            let canonical_args: serde_json::Map<String, Value> =
                canonical_required.iter().map(|k| (k.clone(), sample(k))).collect();
            let profile_args: serde_json::Map<String, Value> = needed(&tool["parameters"])
                .into_iter()
                .map(|k| {
                    let v = if canonical_required.contains(&k) { sample(&k) } else { Value::Null };
                    (k, v)
                })
                .collect();
            // Each call on a fresh directory: a create or delete in one does not move the other.
            let (a, b) = (service(), service());
            let want = a.call_tool(Surface::Agent, name, Value::Object(canonical_args), &admin()).await;
            let got = b.call_tool(Surface::Agent, name, Value::Object(profile_args.clone()), &admin()).await;
            let outcome = |r: Result<stitchgen_runtime::ToolOutcome, AppError>| r.map(|o| o.value).map_err(|e| e.code);
            let (got, want) = (outcome(got), outcome(want));
            assert_eq!(got, want, "{}: {name} {profile_args:?}", profile.name());
            calls += 1;
            answered += usize::from(got.is_ok());
        }
    }
    assert_eq!(calls, 4 * ours.len());
    assert_eq!(ours.len(), 7, "{ours:?}");
    // Not only refusals alike: every tool answers (p1 is in the directory, core a team).
    assert_eq!(answered, calls);
}
