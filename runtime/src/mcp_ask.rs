//! How the MCP adapter asks a tool's user (`tool.mcp.inputRequired`). Up to 2025-11-25, within
//! the call: an `elicitation/create` request per question. From 2026-07-28, which forbids
//! requests from the server, through the call's result: an `InputRequiredResult` whose
//! `requestState` the client's retry brings back with the answers. The state is sealed (HMAC)
//! and bound to the tool, its arguments and the caller, so no session is kept here and a state
//! issued for one call answers no other.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequestParams, ElicitRequestParams, ElicitResult, ElicitationAction, ProtocolVersion, RequestStateCodec,
    SealOptions,
};
use rmcp::service::{Peer, RequestContext};
use serde_json::{Map, Value, json};

use crate::questions::{Asked, Asker, Elicited};
use crate::{AppError, InputRequiredDef};

/// How long a person has to answer: an `elicitation/create` waits this long, and a sealed
/// `requestState` is good for as long.
const ANSWER_WITHIN: Duration = Duration::from_secs(600);

/// A codec sealing with `key`, or with 32 random bytes when none is given: a state then opens
/// only in the process that sealed it (set a key shared by every instance behind one address).
pub(crate) fn codec(key: Option<Vec<u8>>) -> Result<RequestStateCodec, String> {
    let key = match key {
        Some(key) => key,
        None => {
            let mut key = vec![0u8; 32];
            getrandom::fill(&mut key).map_err(|e| format!("no randomness for the requestState key: {e}"))?;
            key
        }
    };
    RequestStateCodec::try_new(key).map_err(|e| format!("the requestState key: {e}"))
}

/// The asker of one call to `request`, made by `subject` (when known).
pub(crate) fn asker(
    codec: Arc<RequestStateCodec>,
    request: &CallToolRequestParams,
    context: &RequestContext<RoleServer>,
    subject: Option<&str>,
) -> Asker {
    let capable =
        context.client_capabilities().and_then(|c| c.elicitation).is_some_and(|e| e.form.is_some() || e.url.is_none());
    let stateless = context.protocol_version().is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
    let binding = binding(&request.name, request.arguments.as_ref(), subject);
    let returned = request.request_state.clone().zip(request.input_responses.clone());
    let halves = request.request_state.is_some() != request.input_responses.is_some();
    let peer = context.peer.clone();
    Asker(Arc::new(move |asks: &'static [InputRequiredDef]| {
        let (codec, binding, returned, peer) = (codec.clone(), binding.clone(), returned.clone(), peer.clone());
        Box::pin(async move {
            if halves {
                return Err(state_error("`requestState` and `inputResponses` come back together"));
            }
            match (returned, stateless) {
                (Some((state, responses)), _) => {
                    codec.open_with(&state, binding.as_bytes()).map_err(|e| state_error(&e.to_string()))?;
                    Ok(Asked::Replies(replies(asks, &responses)))
                }
                (None, _) if !capable => Ok(Asked::Unable("the client did not declare it")),
                (None, true) => Ok(Asked::Pending(pending(&codec, asks, &binding))),
                (None, false) => within(&peer, asks).await,
            }
        })
    }))
}

/// What binds a state to its call: the tool, its arguments (keys sorted, so that a client that
/// writes them in another order is the same call) and the caller.
fn binding(tool: &str, arguments: Option<&Map<String, Value>>, subject: Option<&str>) -> String {
    let arguments = sorted(&Value::Object(arguments.cloned().unwrap_or_default()));
    json!({ "tool": tool, "arguments": arguments, "subject": subject }).to_string()
}

fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let entries: BTreeMap<&String, Value> = m.iter().map(|(k, v)| (k, sorted(v))).collect();
            Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), v)).collect())
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

/// 2026-07-28: the questions, as the `InputRequiredResult` the call answers with.
fn pending(codec: &RequestStateCodec, asks: &[InputRequiredDef], binding: &str) -> Value {
    let requests: Map<String, Value> =
        asks.iter().map(|q| (q.key.to_owned(), json!({ "method": "elicitation/create", "params": form(q) }))).collect();
    let keys: Vec<&str> = asks.iter().map(|q| q.key).collect();
    let payload = serde_json::to_vec(&keys).unwrap_or_default();
    let state = codec.seal_with(&payload, &SealOptions::new().associated_data(binding.as_bytes()).ttl(ANSWER_WITHIN));
    json!({ "resultType": "input_required", "inputRequests": requests, "requestState": state })
}

/// The answers a retry brings, by question key; a question it does not answer stays
/// unanswered (the runner refuses the call).
fn replies(asks: &[InputRequiredDef], responses: &BTreeMap<String, Value>) -> BTreeMap<String, Elicited> {
    asks.iter()
        .filter_map(|q| {
            let result: ElicitResult = serde_json::from_value(responses.get(q.key)?.clone()).ok()?;
            Some((q.key.to_owned(), elicited(result)))
        })
        .collect()
}

/// Up to 2025-11-25: each question asked within the call, in order, until one is not accepted.
async fn within(peer: &Peer<RoleServer>, asks: &[InputRequiredDef]) -> Result<Asked, AppError> {
    let mut replies = BTreeMap::new();
    for q in asks {
        let params: ElicitRequestParams = serde_json::from_value(form(q))
            .map_err(|e| crate::validation::broken(&format!("the form of `{}` is not an MCP form: {e}", q.key)))?;
        let result = peer.create_elicitation_with_timeout(params, Some(ANSWER_WITHIN)).await.map_err(|e| {
            let mut err = AppError::new(crate::ErrorCode::Timeout, format!("the user was not asked `{}`: {e}", q.key));
            err.retryable = Some(false);
            err
        })?;
        let reply = elicited(result);
        let go_on = matches!(reply, Elicited::Accept(_));
        replies.insert(q.key.to_owned(), reply);
        if !go_on {
            break;
        }
    }
    Ok(Asked::Replies(replies))
}

/// The parameters of an `elicitation/create` request for `q`.
fn form(q: &InputRequiredDef) -> Value {
    let schema: Value = serde_json::from_str(q.schema).unwrap_or(Value::Null);
    json!({ "mode": "form", "message": q.message, "requestedSchema": schema })
}

fn elicited(result: ElicitResult) -> Elicited {
    match result.action {
        ElicitationAction::Accept => match result.content {
            Some(Value::Object(content)) => Elicited::Accept(content),
            // Not a filled-in form: the runner judges it against the form (and refuses it).
            _ => Elicited::Accept(Map::new()),
        },
        ElicitationAction::Decline => Elicited::Decline,
        // Cancel, and any answer a later revision adds: not a yes.
        _ => Elicited::Cancel,
    }
}

fn state_error(why: &str) -> AppError {
    crate::validation::invalid(
        "requestState",
        format!("it was not issued for this call ({why}): call the tool again without it to be asked anew"),
        Vec::new(),
    )
}
