//! Asking the person behind a client before a tool acts (`tool.mcp.inputRequired`), the
//! runner's side. The MCP adapter says how to ask (an `elicitation/create` request within the
//! call, or an `InputRequiredResult` and its retry); the runner asks after the input is
//! validated and before the handler, checks each answer against its form, and hands the answers
//! to the handler in its context. Decline and cancel are the caller's errors: the handler never
//! runs.

use serde_json::{Map, Value};

use crate::questions::{Asked, Asker, Elicited};
use crate::{AppError, Ctx, InputRequiredDef, OperationDef};

/// The code of a call whose user declined a question: the handler did not run.
pub const DECLINED: &str = "DECLINED";
/// The code of a call whose user dismissed a question without a choice: the handler did not run.
pub const CANCELLED: &str = "CANCELLED";
/// The code of a call to a tool that asks its user, from a client that cannot be asked (it did
/// not declare MCP's `elicitation` capability).
pub const ELICITATION_UNSUPPORTED: &str = "ELICITATION_UNSUPPORTED";

/// What the runner goes on with.
pub(crate) enum Resolved {
    /// The handler runs with this context, the answers in it.
    Answered(Ctx),
    /// The call answers the questions (see [`Asked::Pending`]).
    Pending(Value),
}

/// Asks `def`'s questions of the person behind `ctx`'s caller, unless the context carries an
/// answer to each already (an in-process caller's, [`Ctx::with_answers`]).
pub(crate) async fn resolve(def: &'static OperationDef, ctx: &Ctx) -> Result<Resolved, AppError> {
    let asks = def.input_required;
    if let Some(given) = ctx.given_answers().filter(|a| asks.iter().all(|q| a.contains_key(q.key))) {
        for q in asks {
            check(def, q, given.get(q.key).and_then(Value::as_object))?;
        }
        return Ok(Resolved::Answered(ctx.clone()));
    }
    let Some(Asker(ask)) = ctx.asker() else {
        return Err(unsupported(def, "this caller cannot be asked"));
    };
    let replies = match ask(asks).await? {
        Asked::Pending(requests) => return Ok(Resolved::Pending(requests)),
        Asked::Unable(why) => return Err(unsupported(def, why)),
        Asked::Replies(replies) => replies,
    };
    let mut answers = Map::new();
    for q in asks {
        match replies.get(q.key) {
            Some(Elicited::Accept(content)) => {
                check(def, q, Some(content))?;
                answers.insert(q.key.to_owned(), Value::Object(content.clone()));
            }
            Some(Elicited::Decline) => return Err(refused(DECLINED, q, "declined")),
            Some(Elicited::Cancel) => return Err(refused(CANCELLED, q, "dismissed")),
            None => {
                return Err(crate::validation::invalid(
                    "inputResponses",
                    format!("no answer to question `{}`", q.key),
                    Vec::new(),
                ));
            }
        }
    }
    Ok(Resolved::Answered(ctx.clone().with_answers(answers)))
}

/// The answer to `q` against its form: a client relays what the person typed, and may relay
/// anything; the handler sees only what the form allows.
fn check(def: &OperationDef, q: &InputRequiredDef, content: Option<&Map<String, Value>>) -> Result<(), AppError> {
    let what = format!("answer to `{}`", q.key);
    let Some(content) = content else {
        return Err(crate::validation::invalid(&what, "the answer is not an object".into(), Vec::new()));
    };
    let form: Value = serde_json::from_str(q.schema)
        .unwrap_or_else(|e| panic!("{}.{}: generated form `{}` is not JSON: {e}", def.service, def.action, q.key));
    let validator = jsonschema::validator_for(&form)
        .unwrap_or_else(|e| panic!("{}.{}: generated form `{}` does not compile: {e}", def.service, def.action, q.key));
    let instance = Value::Object(content.clone());
    let errors: Vec<Value> = validator
        .iter_errors(&instance)
        .take(8)
        .map(|e| serde_json::json!({ "path": e.instance_path().to_string(), "message": e.to_string() }))
        .collect();
    if errors.is_empty() {
        Ok(())
    } else {
        Err(crate::validation::invalid(&what, "the answer does not fit the form".into(), errors))
    }
}

fn refused(code: &str, q: &InputRequiredDef, how: &str) -> AppError {
    let mut e = AppError::app(code, format!("the user {how} `{}`: {}", q.key, q.message))
        .with_status(403)
        .with_hint("the user chose not to go ahead; do not call again unless the user asks to");
    e.retryable = Some(false);
    e
}

/// The error of a call that asks its user where no one can be asked.
fn unsupported(def: &OperationDef, why: &str) -> AppError {
    let tool = def.tool_name.unwrap_or(def.action);
    AppError::app(
        ELICITATION_UNSUPPORTED,
        format!("`{tool}` asks its user before it acts, and {why}: it needs the `elicitation` capability (form mode)"),
    )
    .with_status(400)
    .with_hint("this tool asks its user first: call it from a client that declares MCP's `elicitation` capability")
}
