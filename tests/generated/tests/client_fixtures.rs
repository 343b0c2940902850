//! Every valid fixture's typed client against its own axum router on a loopback port: every
//! operation served on HTTP called through the generated client (as the handler of the
//! fixture's `remote` service, so the one runner parses and checks both ends), the server a
//! handler that answers a valid value of each schema and records what it received. Success
//! answers, headers, raw bodies, uploads and stream frames come back equal; each declared error
//! comes back as its code; an invalid input is refused before sending with validation on and by
//! the server with it off. And every module is the service built in memory from its contract.

// The helpdesk's and directory's handlers are here for their views and presenters only.
#[allow(dead_code)]
mod desk;
#[allow(dead_code)]
mod directory;
mod sample;

use std::sync::{Arc, Mutex};

use futures_util::StreamExt;
use sample::Sampler;
use serde_json::{Map, Value, json};
use stitchgen_generated_tests as fixtures;
use stitchgen_runtime::client::{ClientError, HttpClient, Request, Transport};
use stitchgen_runtime::{
    Answer, AppError, BoxFuture, Call, Ctx, Dispatch, Frame, HttpPayload, OperationDef, RawBody, RawResponse, Service,
    Surface, Upload, UploadedFile,
};

/// One fixture: its module's types document and catalog, and its remote service over a transport.
struct Case {
    module: &'static str,
    types: &'static str,
    catalog: &'static [&'static OperationDef],
    remote: fn(HttpClient) -> Service,
}

/// The cases of modules `$m`, each with the type that has its views and presenters, if any.
macro_rules! cases {
    ($($m:ident $(: $v:ty)?),* $(,)?) => {
        vec![$(Case {
            module: stringify!($m),
            types: fixtures::$m::TYPES,
            catalog: fixtures::$m::CATALOG,
            remote: |t| fixtures::$m::remote::<$($v,)? HttpClient>(t),
        }),*]
    };
}

fn every_fixture() -> Vec<Case> {
    cases!(
        answers,
        bot_status,
        bounds,
        client_profiles,
        r#box,
        default_beside_union,
        default_in_context,
        default_null,
        enum_beside_all_of,
        enum_plus_one,
        error_answers,
        examples,
        fleet,
        fields_same_case,
        generated_input,
        hostile,
        inline_named,
        nullable_enum,
        nullable_shared_type,
        numeric_formats,
        one_of_all_of,
        one_of_enum,
        one_of_mixed,
        one_of_overlap,
        orders,
        people: directory::Directory,
        projects,
        query_fields,
        read_write_only,
        ref_with_sibling,
        request_parts,
        required_across,
        rulesets,
        same_module,
        same_module_2,
        same_rust_name,
        sampling,
        scalar_union,
        several_successes,
        shapes,
        tickets: desk::Desk,
        title_names_type,
        types_same_rust_name,
        vault,
        wide_integers,
    )
}

/// What the sample handler answers for an operation, computed the same way on both ends.
#[derive(Clone, Debug, PartialEq)]
struct Expected {
    value: Value,
    raw: Option<Vec<u8>>,
    headers: Vec<(String, String)>,
    frames: Vec<(&'static str, Value)>,
}

fn expected(s: &Sampler, def: &OperationDef) -> Expected {
    let sample = |schema: Option<&str>| schema.map_or(Value::Null, |t| s.valid(t).expect("a valid sample answer"));
    let k = &def.http_kind;
    let mut e = Expected { value: Value::Null, raw: None, headers: Vec::new(), frames: Vec::new() };
    if k.raw_response {
        e.raw = Some(b"raw sample \x00\xff".to_vec());
    } else if let Some(stream) = &k.stream {
        let item = sample(Some(stream.item_schema));
        e.frames = vec![("item", item.clone()), ("item", item)];
        if stream.terminal {
            e.frames.push(("terminal", sample(stream.terminal_schema)));
        }
    } else {
        e.value = sample(def.output_schema);
        e.headers = k.headers.iter().map(|h| (h.name.to_owned(), format!("{} value", h.name))).collect();
    }
    e
}

/// What the sample handler received.
#[derive(Clone, Debug, Default)]
struct Seen {
    calls: usize,
    params: Value,
    input: Value,
    raw: Option<String>,
    upload: Option<Upload>,
}

/// A handler for any module: answers [`expected`], or the error code set in `fail`.
struct SampleHandler {
    sampler: Sampler,
    catalog: &'static [&'static OperationDef],
    seen: Arc<Mutex<Seen>>,
    fail: Arc<Mutex<Option<String>>>,
}

impl Dispatch for SampleHandler {
    fn call<'a>(&'a self, op: usize, _: &'a Ctx, call: Call) -> BoxFuture<'a, Result<Answer, AppError>> {
        let def = self.catalog[op];
        {
            let mut seen = self.seen.lock().unwrap();
            *seen = Seen {
                calls: seen.calls + 1,
                params: call.params,
                input: call.input,
                raw: call.raw_body.map(|r| r.0),
                upload: call.upload,
            };
        }
        let fail = self.fail.lock().unwrap().clone();
        let e = expected(&self.sampler, def);
        Box::pin(async move {
            if let Some(code) = fail {
                return Err(AppError::app(code, "the declared error"));
            }
            let answer = Answer::new(e.value);
            Ok(if let Some(body) = e.raw {
                let raw = RawResponse { headers: vec![("x-sample".into(), "yes".into())], ..RawResponse::ok(body) };
                answer.with_payload(HttpPayload::Raw(raw))
            } else if !e.frames.is_empty() {
                let frames = e
                    .frames
                    .into_iter()
                    .map(|(kind, v)| Ok(if kind == "item" { Frame::Item(v) } else { Frame::Terminal(v) }));
                answer
                    .with_payload(HttpPayload::Stream(Box::pin(futures_util::stream::iter(frames.collect::<Vec<_>>()))))
            } else if !e.headers.is_empty() {
                answer.with_payload(HttpPayload::Headers(e.headers))
            } else {
                answer
            })
        })
    }
}

/// Every scope the catalog names: the tester may call everything.
fn tester(catalog: &[&OperationDef]) -> Ctx {
    let scopes: Vec<&str> = catalog.iter().map(|d| d.scope).filter(|s| !s.is_empty()).collect();
    Ctx::with_identity("tester", scopes)
}

/// A running server of `case` on a loopback port, and what its handler saw.
struct Server {
    base: String,
    seen: Arc<Mutex<Seen>>,
    fail: Arc<Mutex<Option<String>>>,
}

async fn serve(case: &Case) -> Server {
    let (seen, fail) = (Arc::default(), Arc::default());
    let handler = SampleHandler {
        sampler: Sampler::new(case.types),
        catalog: case.catalog,
        seen: Arc::clone(&seen),
        fail: Arc::clone(&fail),
    };
    let ctx = tester(case.catalog);
    let service = Service::new(case.types, case.catalog, handler);
    let router =
        stitchgen_runtime::axum::HttpApi::new(service).identify(move |_| std::future::ready(Ok(ctx.clone()))).router();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, router).await.unwrap() });
    Server { base, seen, fail }
}

/// One file per declared file field, of a content type it accepts.
fn upload(def: &OperationDef) -> Option<Upload> {
    let multipart = def.http_kind.multipart.as_ref()?;
    let files = multipart.files.iter().map(|f| UploadedFile {
        field: f.name.to_owned(),
        file_name: Some(format!("{}.bin", f.name)),
        content_type: f.content_types.first().map_or("application/octet-stream".into(), |t| t.replace('*', "png")),
        bytes: vec![0, 1, 2, 255],
    });
    Some(Upload { files: files.collect() })
}

fn object(v: &Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// The arguments of a success call: a valid sample of each schema.
struct Args {
    params: Value,
    input: Value,
    call: Call,
}

fn args(s: &Sampler, def: &OperationDef) -> Result<Args, String> {
    let sample = |schema: Option<&str>, what: &str| match schema {
        Some(t) => s.valid(t).ok_or_else(|| format!("no valid {what} of {}", def.action)),
        None => Ok(json!({})),
    };
    let (params, input) = (sample(def.params_schema, "params")?, sample(def.input_schema, "input")?);
    let raw = def.http_kind.raw_body.then(|| RawBody(format!("{}  ", input)));
    Ok(Args { params, input, call: Call { raw_body: raw, upload: upload(def), ..Call::default() } })
}

/// Frames of an answer's stream, as (kind, value).
async fn frames(payload: Option<HttpPayload>) -> Vec<(&'static str, Value)> {
    let Some(HttpPayload::Stream(frames)) = payload else { return Vec::new() };
    let frames: Vec<_> = frames.collect().await;
    frames
        .into_iter()
        .map(|f| match f.expect("a frame, not an error") {
            Frame::Item(v) => ("item", v),
            Frame::Terminal(v) => ("terminal", v),
        })
        .collect()
}

/// Calls `def` through the remote service and checks the answer and what the server received.
async fn round_trip(case: &Case, server: &Server, op: usize, def: &OperationDef, s: &Sampler) -> Result<(), String> {
    let a = args(s, def)?;
    let remote = (case.remote)(HttpClient::new(&server.base).validate(true));
    let ctx = tester(case.catalog);
    let call = Call { raw_body: a.call.raw_body.clone(), upload: a.call.upload.clone(), ..Call::default() };
    let answer = remote
        .call_http(op, object(&a.params), object(&a.input), call, &ctx)
        .await
        .map_err(|e| format!("{}: {e} {:?}", def.action, e.details))?;
    let want = expected(s, def);
    let mut got = Expected { value: answer.value, raw: None, headers: Vec::new(), frames: Vec::new() };
    match answer.payload {
        Some(HttpPayload::Raw(raw)) => {
            got.raw = Some(raw.body);
            if !raw.headers.contains(&("x-sample".into(), "yes".into())) {
                return Err(format!("{}: the raw answer's headers are lost: {:?}", def.action, raw.headers));
            }
        }
        Some(HttpPayload::Headers(h)) => got.headers = h,
        payload @ Some(HttpPayload::Stream(_)) => got.frames = frames(payload).await,
        Some(_) => return Err(format!("{}: a payload this test does not know", def.action)),
        None => {}
    }
    let want = match (def.method, want.raw) {
        (Some("HEAD"), Some(_)) => Expected { raw: Some(Vec::new()), ..want },
        (_, raw) => Expected { raw, ..want },
    };
    if norm_all(got.clone()) != norm_all(want.clone()) {
        return Err(format!("{}: answered {got:?}, the handler {want:?}", def.action));
    }
    let seen = server.seen.lock().unwrap().clone();
    let sent_input = if def.input_schema.is_some() { a.input.clone() } else { json!({}) };
    let received = (seen.params, seen.input, seen.raw, seen.upload);
    let sent = (a.params, sent_input, a.call.raw_body.map(|r| r.0), a.call.upload);
    if received != sent {
        return Err(format!("{}: the server received {received:?}, the client sent {sent:?}", def.action));
    }
    Ok(())
}

/// Numbers as what they are worth: a typed `f64` answers `3.0` where the handler wrote `3`.
fn norm(v: Value) -> Value {
    match v {
        Value::Number(n) => json!(n.as_f64()),
        Value::Array(items) => Value::Array(items.into_iter().map(norm).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, norm(v))).collect()),
        other => other,
    }
}

fn norm_all(e: Expected) -> Expected {
    Expected { value: norm(e.value), frames: e.frames.into_iter().map(|(k, v)| (k, norm(v))).collect(), ..e }
}

/// Each declared error answered by the server comes back with its code.
async fn errors(case: &Case, server: &Server, op: usize, def: &OperationDef, s: &Sampler) -> Result<usize, String> {
    let a = args(s, def)?;
    let remote = (case.remote)(HttpClient::new(&server.base));
    for code in def.errors {
        *server.fail.lock().unwrap() = Some((*code).to_owned());
        let call = Call { raw_body: a.call.raw_body.clone(), upload: a.call.upload.clone(), ..Call::default() };
        let got = remote.call_http(op, object(&a.params), object(&a.input), call, &tester(case.catalog)).await;
        *server.fail.lock().unwrap() = None;
        match got {
            Err(e) if e.code == *code => {}
            other => return Err(format!("{}: declared {code}, came back {:?}", def.action, other.map(|a| a.value))),
        }
    }
    Ok(def.errors.len())
}

/// Inputs that break the input schema and survive the wire: a required property left out, an
/// unknown one where none is allowed, a value of the wrong type where the type is not text.
fn invalid_inputs(s: &Sampler, def: &OperationDef, valid: &Value) -> Vec<Value> {
    let Some(schema) = def.input_schema.map(|t| serde_json::from_str::<Value>(t).unwrap()) else { return Vec::new() };
    let validator = s.validator(&schema);
    let mut out = Vec::new();
    for name in schema["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        let mut v = valid.clone();
        v.as_object_mut().unwrap().remove(name);
        out.push(v);
    }
    let mut extra = valid.clone();
    extra.as_object_mut().unwrap().insert("surely_not_declared".into(), json!(1));
    out.push(extra);
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        if property["type"].as_str().is_some_and(|t| t != "string") {
            let mut v = valid.clone();
            v.as_object_mut().unwrap().insert(name.clone(), json!("\u{1}not this"));
            out.push(v);
        }
    }
    out.retain(|v| !validator.is_valid(v));
    out
}

/// An invalid input is refused before sending with validation on, and by the server with it off.
async fn refused(server: &Server, def: &'static OperationDef, case: &Case, s: &Sampler) -> Result<bool, String> {
    let a = args(s, def)?;
    let Some(input) = invalid_inputs(s, def, &a.input).into_iter().next() else { return Ok(false) };
    let request = |validate: bool| {
        let raw = def.http_kind.raw_body.then(|| RawBody(input.to_string()));
        let request = Request {
            op: def,
            types: case.types,
            params: a.params.clone(),
            input: input.clone(),
            raw_body: raw,
            upload: a.call.upload.clone(),
            headers: Vec::new(),
        };
        (HttpClient::new(&server.base).validate(validate), request)
    };
    let before = server.seen.lock().unwrap().calls;
    let (client, req) = request(true);
    match client.call(req).await {
        Err(ClientError::Invalid(e)) if e.code == "VALIDATION_ERROR" => {}
        other => return Err(format!("{}: {input} was not refused before sending: {:?}", def.action, other.err())),
    }
    let (client, req) = request(false);
    match client.call(req).await {
        Err(ClientError::Api(e)) if e.code == "VALIDATION_ERROR" => {}
        other => return Err(format!("{}: the server did not refuse {input}: {:?}", def.action, other.err())),
    }
    if server.seen.lock().unwrap().calls != before {
        return Err(format!("{}: an invalid input reached the handler", def.action));
    }
    Ok(true)
}

#[tokio::test]
async fn every_fixture_round_trips_through_its_typed_client() {
    let (mut calls, mut errors_checked, mut invalid, mut failures) = (0, 0, 0, Vec::new());
    let (mut served, mut declared) = (0, 0);
    for case in every_fixture() {
        let server = serve(&case).await;
        let s = Sampler::new(case.types);
        for (op, def) in case.catalog.iter().enumerate() {
            if def.method.is_none() || !def.surfaces.contains(&Surface::Http) {
                continue;
            }
            served += 1;
            declared += def.errors.len();
            let checks = async {
                round_trip(&case, &server, op, def, &s).await?;
                let n = errors(&case, &server, op, def, &s).await?;
                Ok::<_, String>((n, refused(&server, def, &case, &s).await?))
            };
            match checks.await {
                Ok((n, was_refused)) => {
                    calls += 1;
                    errors_checked += n;
                    invalid += usize::from(was_refused);
                }
                Err(why) => failures.push(format!("{}: {why}", case.module)),
            }
        }
    }
    assert!(failures.is_empty(), "{} operations failed:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{calls} operations round-tripped, {errors_checked} declared errors, {invalid} invalid inputs refused");
    assert_eq!((calls, errors_checked), (served, declared), "every operation served on HTTP, every declared error");
    assert!(
        served >= 68 && declared >= 15 && invalid >= 22,
        "{served} operations, {declared} errors, {invalid} refusals"
    );
}

/// The cases above are every module of `fixtures/valid` the generated crate compiles.
#[test]
fn every_valid_fixture_is_a_case() {
    let lib = include_str!("../src/lib.rs");
    let top = lib.split("pub mod random").next().unwrap();
    let modules: Vec<&str> = top
        .lines()
        .filter_map(|l| l.strip_prefix("stitchgen_runtime::include_contract!(\"")?.strip_suffix("\");"))
        .collect();
    let cases: Vec<String> = every_fixture().iter().map(|c| c.module.trim_start_matches("r#").to_owned()).collect();
    assert_eq!(modules, cases);
}

/// The service built in memory from the contracts (no generated Rust, what `stitchgen gateway`
/// serves) and the modules compiled here from them: the same operation definitions and types
/// document, value for value, and the same MCP tool list, byte for byte.
#[test]
fn every_compiled_module_is_the_service_built_in_memory() {
    let out = std::path::Path::new(env!("OUT_DIR"));
    // The contracts in the order the build script gives them: module names depend on it.
    let mut contracts: Vec<std::path::PathBuf> = std::fs::read_dir("../../fixtures/valid")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".stitch.yaml"))
        .collect();
    contracts.sort();
    contracts.extend((1..=4).map(|seed| out.join(format!("random/svc{seed}.stitch.yaml"))));
    let names = stitchgen_tests::names::sample().into_iter();
    contracts.extend(names.map(|(seed, ..)| out.join(format!("random/names{seed}.stitch.json"))));
    let checked = stitchgen::check_files(&contracts).unwrap();
    let services = stitchgen::memory::services(&checked).unwrap();
    let tools = std::fs::read_to_string(out.join("mcp-tools.json")).unwrap();
    assert!(services.iter().all(|s| s.mcp_tools == tools), "the MCP tool list is generate's, byte for byte");

    use fixtures::random::{svc1, svc2, svc3, svc4};
    let random = [
        ("svc1", svc1::CATALOG, svc1::TYPES),
        ("svc2", svc2::CATALOG, svc2::TYPES),
        ("svc3", svc3::CATALOG, svc3::TYPES),
        ("svc4", svc4::CATALOG, svc4::TYPES),
    ];
    let compiled = every_fixture().into_iter().map(|c| (c.module, c.catalog, c.types)).chain(random);
    let mut compared = 0;
    for (name, catalog, types) in compiled {
        let name = name.trim_start_matches("r#");
        let memory = services.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no service `{name}`"));
        assert_eq!(format!("{:#?}", memory.catalog), format!("{catalog:#?}"), "{name}");
        assert_eq!(memory.types, types, "{name}");
        compared += 1;
    }
    assert_eq!(compared, 49);
}

/// What a model held to OpenAI's strict mode sends for `value`: every key of every object the
/// profile's `schema` lists, `null` for one it has no value for.
fn with_nulls(root: &Value, schema: &Value, value: &mut Value) {
    let schema = match schema.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix("#/")) {
        Some(path) => root.pointer(&format!("/{path}")).unwrap_or(schema),
        None => schema,
    };
    // A nullable object is `anyOf` an object and `null`: the object branch holds the keys.
    let branches = schema.get("anyOf").and_then(Value::as_array);
    if let Some(branch) =
        branches.into_iter().flatten().find(|b| b.get("properties").is_some() || b.get("items").is_some())
    {
        return with_nulls(root, branch, value);
    }
    match value {
        Value::Object(object) => {
            for (key, property) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
                match object.get_mut(key) {
                    Some(v) => with_nulls(root, property, v),
                    None => {
                        object.insert(key.clone(), Value::Null);
                    }
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = schema.get("items") {
                items.iter_mut().for_each(|v| with_nulls(root, item, v));
            }
        }
        _ => {}
    }
}

/// `args` (valid under the canonical tool) as `profile`'s model sends them, valid under the
/// profile's schema; or why not.
fn as_sent(profile: stitchgen::Profile, canonical: &Value, args: &Value) -> Result<Value, String> {
    let (tool, refused) = stitchgen::profile::tool(profile, canonical);
    assert!(refused.is_empty(), "{}: {}: {refused:?}", profile.name(), canonical["name"]);
    let params = &tool["parameters"];
    let mut sent = args.clone();
    if profile == stitchgen::Profile::OpenAiStrict {
        with_nulls(params, params, &mut sent);
    }
    // Gemini's parameters are an OpenAPI 3.0 subset, judged by its SDK in conformance.
    if profile != stitchgen::Profile::Gemini && !jsonschema::is_valid(params, &sent) {
        return Err(format!("{}: {}: {sent} is not valid under {params}", profile.name(), canonical["name"]));
    }
    Ok(sent)
}

#[tokio::test]
async fn every_fixture_tool_called_as_each_profile_s_model_calls_it_reaches_the_handler_as_the_canonical_call() {
    // Each agent tool of every fixture, its arguments a valid sample of the canonical schema;
    // then as each model provider's profile shows the tool: the same call, as that provider's
    // model sends it (strict mode: every key, `null` where it has no value), valid under the
    // profile's schema, reaches the handler with the canonical call's params and input.
    let agent: Value = serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/agent-tools.json"))).unwrap();
    let searched: Value = serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/agent-catalog.json"))).unwrap();
    // A tool of a contract in search mode is in the catalog, called through `call_tool`.
    let tools: Vec<&Value> =
        agent["tools"].as_array().unwrap().iter().chain(searched["tools"].as_array().unwrap()).collect();
    let profiles: Vec<stitchgen::Profile> = stitchgen::Profile::ALL.into_iter().filter(|p| !p.is_mcp()).collect();
    let (mut calls, mut unsampled, mut failures) = (0, Vec::new(), Vec::new());
    for case in every_fixture() {
        let seen: Arc<Mutex<Seen>> = Arc::default();
        let handler = SampleHandler {
            sampler: Sampler::new(case.types),
            catalog: case.catalog,
            seen: Arc::clone(&seen),
            fail: Arc::default(),
        };
        let service = Service::new(case.types, case.catalog, handler);
        let (s, ctx) = (Sampler::new(case.types), tester(case.catalog));
        // A view computed by a projection needs the fixture's own handler: those of `people` are
        // called as each profile's model calls them in runner.rs, the helpdesk's below.
        let projected = |d: &&&OperationDef| d.view.as_ref().is_some_and(|v| v.project);
        for def in case.catalog.iter().filter(|d| d.surfaces.contains(&Surface::Agent)).filter(|d| !projected(d)) {
            let name = def.tool_name.unwrap();
            let canonical = tools.iter().find(|t| t["name"] == name).unwrap();
            let Some(args) = s.valid(&canonical["parameters"].to_string()) else {
                unsampled.push(format!("{}.{name}", case.module));
                continue;
            };
            let heard = |seen: &Arc<Mutex<Seen>>| {
                let seen = seen.lock().unwrap();
                (seen.calls, seen.params.clone(), seen.input.clone())
            };
            if let Err(e) = service.call_tool(Surface::Agent, name, args.clone(), &ctx).await {
                failures.push(format!("{}.{name}: the canonical call {args} failed: {}", case.module, e.message));
                continue;
            }
            let want = heard(&seen);
            for profile in &profiles {
                let sent = match as_sent(*profile, canonical, &args) {
                    Ok(sent) => sent,
                    Err(why) => {
                        failures.push(why);
                        continue;
                    }
                };
                match service.call_tool(Surface::Agent, name, sent.clone(), &ctx).await {
                    Ok(_) if heard(&seen).1 == want.1 && heard(&seen).2 == want.2 => calls += 1,
                    Ok(_) => failures.push(format!(
                        "{}: {name}: {sent} reached the handler as {:?}",
                        profile.name(),
                        heard(&seen)
                    )),
                    Err(e) => failures.push(format!("{}: {name}: {sent} refused: {}", profile.name(), e.message)),
                }
            }
        }
    }
    // The helpdesk's views computed by a projection, through its own handler (`desk`), whose
    // answers say what it read: every profile's call answers as the canonical call does.
    let desk = fixtures::tickets::service(desk::Desk);
    let (s, ctx) = (Sampler::new(fixtures::tickets::TYPES), tester(fixtures::tickets::CATALOG));
    let answer = |r: Result<stitchgen_runtime::ToolOutcome, AppError>| r.map(|o| o.value).map_err(|e| e.code);
    let projected = fixtures::tickets::CATALOG.iter().filter(|d| d.view.as_ref().is_some_and(|v| v.project));
    for def in projected.filter(|d| d.surfaces.contains(&Surface::Agent)) {
        let name = def.tool_name.unwrap();
        let canonical = tools.iter().find(|t| t["name"] == name).unwrap();
        let args = s.valid(&canonical["parameters"].to_string()).expect("valid arguments");
        let want = answer(desk.call_tool(Surface::Agent, name, args.clone(), &ctx).await);
        for profile in &profiles {
            match as_sent(*profile, canonical, &args) {
                Ok(sent) => match answer(desk.call_tool(Surface::Agent, name, sent.clone(), &ctx).await) {
                    got if got == want => calls += 1,
                    got => failures.push(format!("{}: {name}: {sent} answered {got:?}, not {want:?}", profile.name())),
                },
                Err(why) => failures.push(why),
            }
        }
    }
    assert!(failures.is_empty(), "{} calls failed:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{calls} profile calls reached the handler as the canonical call");
    // Every tool's canonical arguments can be made: no agent schema accepts no value.
    assert!(unsampled.is_empty(), "no valid arguments for {unsampled:?}");
    assert!(calls >= 270, "{calls} calls");
}

/// `manifest`'s tools that `service` serves on MCP, by their canonical names.
fn served_by(manifest: &str, service: &Service) -> String {
    let mut doc: Value = serde_json::from_str(manifest).unwrap();
    doc["tools"].as_array_mut().unwrap().retain(|t| {
        let name = t.pointer("/_meta/stitchgen~1name").or(t.get("name")).and_then(Value::as_str).unwrap();
        service.find_tool(Surface::Mcp, name).is_some()
    });
    doc.to_string()
}

#[tokio::test]
async fn every_fixture_tool_called_by_each_mcp_client_s_names_reaches_the_handler_as_the_canonical_call() {
    // Each MCP tool of every fixture, served with every MCP client's profile and reached by the
    // official Rust SDK's client announcing itself as that client: the canonical arguments, as
    // that client's list names the tool and its arguments, reach the handler as the canonical
    // call's do.
    use rmcp::ServiceExt;
    use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
    let lists = fixtures::people::MCP_PROFILES;
    let agent: Value = serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/agent-tools.json"))).unwrap();
    let clients: Vec<(&str, &str)> = stitchgen_runtime::mcp::CLIENT_PROFILES
        .into_iter()
        .filter(|(client, _)| !client.contains("Insiders") && !client.contains("OSS"))
        .collect();
    let (mut calls, mut failures) = (0, Vec::new());
    for case in every_fixture() {
        let seen: Arc<Mutex<Seen>> = Arc::default();
        let make = || {
            let handler = SampleHandler {
                sampler: Sampler::new(case.types),
                catalog: case.catalog,
                seen: Arc::clone(&seen),
                fail: Arc::default(),
            };
            Service::new(case.types, case.catalog, handler)
        };
        let probe = make();
        let ops: Vec<&OperationDef> = case
            .catalog
            .iter()
            .copied()
            .filter(|d| d.surfaces.contains(&Surface::Mcp) && d.input_required.is_empty())
            .filter(|d| !d.view.as_ref().is_some_and(|v| v.project))
            .collect();
        let manifest = served_by(fixtures::people::MCP_TOOLS, &probe);
        let canonical: Value = serde_json::from_str(&manifest).unwrap();
        let listed_here = |d: &&OperationDef| {
            canonical["tools"].as_array().unwrap().iter().any(|t| t["name"] == d.tool_name.unwrap())
        };
        // A fixture in search mode lists its tools in the catalog, called through `call_tool`.
        if ops.is_empty() || !ops.iter().all(listed_here) {
            continue;
        }
        let profiled: Vec<(&str, String)> = lists.iter().map(|(p, m)| (*p, served_by(m, &probe))).collect();
        let profiled: Vec<(&str, &str)> = profiled.iter().map(|(p, m)| (*p, m.as_str())).collect();
        let server = stitchgen_runtime::mcp::McpServer::new(&manifest, [make()])
            .and_then(|s| s.profiles(&profiled))
            .unwrap()
            .with_identity(tester(case.catalog));
        let s = Sampler::new(case.types);
        for (client, profile) in &clients {
            let (here, there) = tokio::io::duplex(1 << 16);
            let running = server.clone();
            tokio::spawn(async move { running.serve(there).await.unwrap().waiting().await });
            let info = ClientConfig::new(ClientCapabilities::default(), Implementation::new(*client, "1.0.0"));
            let session = info.serve(here).await.expect("the client initializes");
            let listed = session.list_all_tools().await.unwrap();
            for def in &ops {
                let name = def.tool_name.unwrap();
                let tool = canonical["tools"].as_array().unwrap().iter().find(|t| t["name"] == name).unwrap();
                // The same arguments an agent sends, where the sampler cannot read the MCP schema
                // (a union inside nested `allOf`, which the agent tool states as one union).
                let agent_params = agent["tools"].as_array().unwrap().iter().find(|t| t["name"] == name);
                let sampled = s
                    .valid(&tool["inputSchema"].to_string())
                    .or_else(|| agent_params.and_then(|t| s.valid(&t["parameters"].to_string())));
                let Some(args) = sampled else {
                    failures.push(format!("{}.{name}: no valid arguments", case.module));
                    continue;
                };
                let call = |name: String, args: &Value| {
                    CallToolRequestParams::new(name).with_arguments(args.as_object().cloned().unwrap_or_default())
                };
                let heard = || {
                    let seen = seen.lock().unwrap();
                    (seen.params.clone(), seen.input.clone())
                };
                let want = session.call_tool(call(name.to_owned(), &args)).await.expect("an answer");
                if want.is_error == Some(true) {
                    failures.push(format!("{}.{name}: the canonical call {args} failed: {want:?}", case.module));
                    continue;
                }
                let want = heard();
                let written = listed.iter().find(|t| {
                    t.meta.as_ref().and_then(|m| m.get("stitchgen/name")).and_then(Value::as_str).unwrap_or(&t.name)
                        == name
                });
                let written = written.expect("the profile lists every tool");
                let mut sent = args.clone();
                let renamed =
                    written.meta.as_ref().and_then(|m| m.get("stitchgen/arguments")).and_then(Value::as_object);
                for (as_listed, canonical_name) in renamed.into_iter().flatten() {
                    if let Some(v) = sent.as_object_mut().unwrap().remove(canonical_name.as_str().unwrap()) {
                        sent[as_listed] = v;
                    }
                }
                let schema = Value::Object((*written.input_schema).clone());
                if !jsonschema::is_valid(&schema, &sent) {
                    failures.push(format!("{profile}: {name}: {sent} is not valid under {schema}"));
                    continue;
                }
                let got = session.call_tool(call(written.name.to_string(), &sent)).await.expect("an answer");
                match (got.is_error == Some(true), heard() == want) {
                    (false, true) => calls += 1,
                    _ => failures.push(format!("{profile}: {name} as `{}` {sent}: {got:?}", written.name)),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} calls failed:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{calls} MCP profile calls reached the handler as the canonical call");
    assert!(calls >= 180, "{calls} calls");
}
