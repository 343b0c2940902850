//! A contract's surfaces in front of a server that already runs it, in any language: a generated
//! module's `remote(origin)` is a service whose every operation is forwarded to the origin through
//! the typed client, while the one runner here merges view defaults, validates the arguments
//! before anything is sent, gates scopes, validates the origin's answer against the full output
//! (an answer that breaks the contract is `INTERNAL_SERVER_ERROR`, never shown to a model),
//! then projects the view and runs presenters.
//!
//! ```ignore
//! let origin = Origin::new("https://api.example.com").bearer(token).timeout(Duration::from_secs(10));
//! let service = petstore::remote(origin); // mount it on MCP, the agent surface, the CLI
//! ```
//!
//! An origin that is not a stitchgen service answers errors its own way: its status is read onto
//! the registry (see the `From<ClientError>` impl of [`crate::AppError`]). A runtime tool has no
//! route to forward to: a remote service answers it `NOT_IMPLEMENTED`.

//!
//! [`service`] is the same service with no generated Rust at all: a catalog of operations, built
//! in memory or compiled, whose arguments and answers stay JSON and are checked by the one
//! validator against the contract's schemas alone.

use serde_json::Value;

use crate::client::{ClientError, Forward, Request, Transport};
use crate::{Answer, AppError, BoxFuture, Call, Ctx, Dispatch, ErrorCode, HttpPayload, OperationDef, Service, Surface};

/// Where a remote service sends its calls: the origin's base URL, the headers and query
/// parameters every request carries (credentials), a timeout, and optionally one's own
/// `reqwest::Client`. It is the typed client's HTTP transport.
#[cfg(feature = "client")]
pub type Origin = crate::client::HttpClient;

/// The service of catalog `ops` (schemas referring to the types document `types`) in front of
/// the origin behind `transport`, every operation forwarded as JSON: the runner validates the
/// arguments before anything is sent and the answer on return, against the schemas alone, as
/// it does for a generated module's `remote(transport)`. A runtime tool, which has no route,
/// answers `NOT_IMPLEMENTED`. A view with `project: true` is Rust, written in the generated
/// module: a catalog holding one is not for this service (its tool calls would fail with
/// `INTERNAL_SERVER_ERROR`, the projection missing).
pub fn service<T: Transport + 'static>(
    types: &'static str,
    ops: &'static [&'static OperationDef],
    transport: T,
) -> Service {
    Service::new(types, ops, Forwarding { types, ops, transport }).without_questions()
}

/// The dispatch of [`service`]: each call sent as it came.
struct Forwarding<T> {
    types: &'static str,
    ops: &'static [&'static OperationDef],
    transport: T,
}

impl<T: Transport + 'static> Dispatch for Forwarding<T> {
    fn call<'a>(&'a self, op: usize, ctx: &'a Ctx, call: Call) -> BoxFuture<'a, Result<Answer, AppError>> {
        Box::pin(async move {
            let def = *self.ops.get(op).ok_or_else(|| AppError::new(ErrorCode::NotFound, "no such operation"))?;
            if def.method.is_none() || !def.on(Surface::Http) {
                let text = format!("`{}` is not served on HTTP: a remote service cannot forward it", def.action);
                return Err(AppError::new(ErrorCode::NotImplemented, text));
            }
            let raw = def.http_kind.raw_body;
            let request = Request {
                op: def,
                types: self.types,
                params: if def.params_schema.is_some() { call.params } else { Value::Null },
                input: if def.input_schema.is_some() && !raw { call.input } else { Value::Null },
                raw_body: call.raw_body.filter(|_| raw),
                upload: call.upload.filter(|_| def.http_kind.multipart.is_some()),
                headers: Vec::new(),
            };
            let answer = Forward::new(&self.transport, ctx).call(request).await?;
            read(def, answer).map_err(Into::into)
        })
    }
}

/// The origin's answer as the runner's, by what the operation declares: a raw response or a
/// stream as it came, the documented headers when every required one is there, a success
/// documented beside the main one at its status, and no value for an answer without a body.
fn read(def: &OperationDef, answer: crate::HttpAnswer) -> Result<Answer, ClientError> {
    let kind = &def.http_kind;
    let other = answer.status.and_then(|s| def.success_answer(s));
    let has_body = other.map_or(def.output_schema.is_some(), |a| a.schema.is_some());
    let value = if has_body && !kind.raw_response && kind.stream.is_none() { answer.value } else { Value::Null };
    let payload = answer.payload;
    let answer = match other {
        Some(a) => Answer::new(value).with_status(a.status),
        None => Answer::new(value),
    };
    Ok(match payload {
        Some(HttpPayload::Headers(pairs)) => {
            if let Some(missing) =
                kind.headers.iter().find(|h| h.required && crate::http::header_value(&pairs, h.name).is_none())
            {
                return Err(ClientError::Decode(format!("the answer lacks required header `{}`", missing.name)));
            }
            answer.with_payload(HttpPayload::Headers(pairs))
        }
        Some(payload) => answer.with_payload(payload),
        None if kind.raw_response => {
            return Err(ClientError::Decode("the transport brought back no raw response".into()));
        }
        None if kind.stream.is_some() => {
            return Err(ClientError::Decode("the transport brought back no stream".into()));
        }
        None => answer,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use serde_json::{Value, json};

    use super::service;
    use crate::client::{ClientError, Request, Transport};
    use crate::{BoxFuture, Ctx, HeaderDef, HttpAnswer, HttpKindDef, HttpPayload, OpKind, OperationDef, Surface};

    const ON: &[Surface] = &[Surface::Http, Surface::Mcp];
    static GET: OperationDef = OperationDef {
        service: "s",
        action: "get",
        kind: OpKind::Contract,
        method: Some("GET"),
        path: Some("/things/:id"),
        scope: "public",
        surfaces: ON,
        tool_name: Some("get_thing"),
        param_keys: &["id"],
        params_schema: Some(r#"{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}"#),
        input_schema: Some(r#"{"type":"object","properties":{"n":{"type":"integer"}}}"#),
        output_schema: Some(r#"{"$ref":"urn:stitchgen:types#/$defs/Thing"}"#),
        ..OperationDef::EMPTY
    };
    static DROP: OperationDef = OperationDef {
        action: "drop",
        method: Some("DELETE"),
        path: Some("/things"),
        tool_name: Some("drop_things"),
        http_kind: HttpKindDef { headers: &[HeaderDef { name: "x-left", required: true }], ..HttpKindDef::PLAIN },
        ..GET_LIKE
    };
    const GET_LIKE: OperationDef =
        OperationDef { service: "s", kind: OpKind::Contract, scope: "public", surfaces: ON, ..OperationDef::EMPTY };
    static TOOL: OperationDef =
        OperationDef { action: "tool", kind: OpKind::Runtime, tool_name: Some("tool"), ..GET_LIKE };
    static OPS: &[&OperationDef] = &[&GET, &DROP, &TOOL];
    const TYPES: &str = r#"{"$id":"urn:stitchgen:types","$defs":{"Thing":{"type":"object","required":["id"],"properties":{"id":{"type":"string"}}}}}"#;

    /// Answers each call with the next of its answers, and keeps what it was sent.
    struct Origin {
        answers: Mutex<Vec<HttpAnswer>>,
        sent: Mutex<Vec<(&'static str, Value, Value)>>,
    }

    impl Transport for Origin {
        fn call(&self, request: Request) -> BoxFuture<'_, Result<HttpAnswer, ClientError>> {
            self.sent.lock().unwrap().push((request.op.action, request.params, request.input));
            let answer = self.answers.lock().unwrap().remove(0);
            Box::pin(async move { Ok(answer) })
        }
    }

    fn answer(value: Value, payload: Option<HttpPayload>) -> HttpAnswer {
        HttpAnswer { value, payload, status: None }
    }

    #[tokio::test]
    async fn arguments_go_as_json_and_answers_are_judged_by_the_schemas_alone() {
        let origin = std::sync::Arc::new(Origin {
            answers: Mutex::new(vec![
                answer(json!({"id": "a", "extra": 1}), None),
                answer(json!({"id": 7}), None),
                answer(json!("ignored"), Some(HttpPayload::Headers(vec![("x-left".into(), "3".into())]))),
                answer(Value::Null, Some(HttpPayload::Headers(Vec::new()))),
            ]),
            sent: Mutex::new(Vec::new()),
        });
        let svc = service(TYPES, OPS, Shared(origin.clone()));
        let ctx = Ctx::anonymous();
        let got = svc.call_tool(Surface::Mcp, "get_thing", json!({"id": "a", "n": 5}), &ctx).await.unwrap();
        assert_eq!(got.value, json!({"id": "a", "extra": 1}));
        let broken = svc.call_tool(Surface::Mcp, "get_thing", json!({"id": "a"}), &ctx).await.unwrap_err();
        assert_eq!(broken.code, "INTERNAL_SERVER_ERROR", "{broken}");
        let refused = svc.call_tool(Surface::Mcp, "get_thing", json!({"id": "a", "n": "x"}), &ctx).await.unwrap_err();
        assert_eq!(refused.code, "VALIDATION_ERROR", "nothing is sent: {refused}");
        let dropped = svc.call_tool(Surface::Mcp, "drop_things", json!({}), &ctx).await.unwrap();
        assert_eq!(dropped.value, Value::Null, "an operation without output answers nothing");
        let lacking = svc.call_tool(Surface::Mcp, "drop_things", json!({}), &ctx).await.unwrap_err();
        assert_eq!(lacking.code, "INTERNAL_SERVER_ERROR", "a required header missing: {lacking}");
        let tool = svc.call_tool(Surface::Mcp, "tool", json!({}), &ctx).await.unwrap_err();
        assert_eq!(tool.code, "NOT_IMPLEMENTED");
        let sent = origin.sent.lock().unwrap().clone();
        assert_eq!(
            sent,
            [
                ("get", json!({"id": "a"}), json!({"n": 5})),
                ("get", json!({"id": "a"}), json!({})),
                ("drop", Value::Null, Value::Null),
                ("drop", Value::Null, Value::Null),
            ]
        );
    }

    /// A create that answers 201 with a thing, or 202 with a ticket.
    static CREATE: OperationDef = OperationDef {
        action: "create",
        method: Some("POST"),
        path: Some("/things"),
        tool_name: Some("create_thing"),
        output_schema: Some(r#"{"$ref":"urn:stitchgen:types#/$defs/Thing"}"#),
        success_answers: &[crate::AnswerDef {
            status: 202,
            description: None,
            schema: Some(r#"{"type":"object","required":["ticket"],"properties":{"ticket":{"type":"string"}}}"#),
        }],
        ..GET_LIKE
    };
    static CREATES: &[&OperationDef] = &[&CREATE];

    #[tokio::test]
    async fn an_origins_other_success_keeps_its_status_and_its_schema() {
        let queued = HttpAnswer { value: json!({"ticket": "t"}), payload: None, status: Some(202) };
        let main = answer(json!({"id": "a"}), None);
        let off = HttpAnswer { value: json!({"id": "a"}), payload: None, status: Some(202) };
        let origin = Origin { answers: Mutex::new(vec![queued, main, off]), sent: Mutex::new(Vec::new()) };
        let svc = service(TYPES, CREATES, origin);
        let ctx = Ctx::anonymous();
        let call = || svc.call_http(0, Default::default(), Default::default(), crate::Call::default(), &ctx);
        let got = call().await.unwrap();
        assert_eq!((got.status, got.value), (Some(202), json!({"ticket": "t"})));
        let got = call().await.unwrap();
        assert_eq!((got.status, got.value), (None, json!({"id": "a"})));
        // The main answer's body at 202: off the contract, whatever the main schema says of it.
        assert_eq!(call().await.unwrap_err().code, "INTERNAL_SERVER_ERROR");
    }

    struct Shared(std::sync::Arc<Origin>);

    impl Transport for Shared {
        fn call(&self, request: Request) -> BoxFuture<'_, Result<HttpAnswer, ClientError>> {
            self.0.call(request)
        }
    }
}
