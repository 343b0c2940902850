//! What a schema says of a value, and the errors the runtime answers for it: a caller's value
//! that breaks one is invalid, the service's own answer that breaks one is broken. Every
//! surface, the runner and the stream checks read them from here.

use serde_json::Value;

use crate::error::{AppError, ErrorCode};

/// `{path, message}` for every way `value` breaks the schema; `None` when it is valid.
pub(crate) fn violations(validator: &jsonschema::Validator, value: &Value) -> Option<Vec<Value>> {
    // The common case, valid, without collecting errors: several times cheaper.
    if validator.is_valid(value) {
        return None;
    }
    let mut errors: Vec<Value> = Vec::new();
    for e in validator.iter_errors(value).take(20) {
        explain(&e, &mut errors);
    }
    errors.truncate(20);
    (!errors.is_empty()).then_some(errors)
}

/// `{path, message}` of `e`; where no branch of a union matched, the errors of the closest
/// branch instead (the fewest errors, then the deepest): "/size: 42 is not of type string"
/// says what to fix, where "not valid under any of the schemas" only restates the value.
fn explain(e: &jsonschema::ValidationError<'_>, out: &mut Vec<Value>) {
    use jsonschema::error::ValidationErrorKind as Kind;
    if let Kind::AnyOf { context } | Kind::OneOfNotValid { context } = e.kind() {
        let depth = |branch: &Vec<jsonschema::ValidationError<'static>>| {
            branch.iter().map(|e| e.instance_path().as_str().matches('/').count()).max().unwrap_or(0)
        };
        let closest = context
            .iter()
            .filter(|b| !b.is_empty())
            .min_by(|a, b| a.len().cmp(&b.len()).then_with(|| depth(b).cmp(&depth(a))));
        if let Some(branch) = closest {
            for sub in branch {
                explain(sub, out);
            }
            return;
        }
    }
    out.push(serde_json::json!({ "path": e.instance_path().as_str(), "message": e.to_string() }));
}

pub(crate) fn validate(validator: Option<&jsonschema::Validator>, value: &Value, part: &str) -> Result<(), AppError> {
    match validator.and_then(|v| violations(v, value)) {
        None => Ok(()),
        Some(errors) => {
            let summary = errors
                .iter()
                .map(|e| {
                    let path = e["path"].as_str().unwrap_or_default();
                    let at = if path.is_empty() { "/" } else { path };
                    format!("{at}: {}", e["message"].as_str().unwrap_or_default())
                })
                .collect::<Vec<_>>()
                .join("; ");
            Err(invalid(part, summary, errors))
        }
    }
}

pub(crate) fn no_arguments(input: &Value) -> Result<(), AppError> {
    match input.as_object().and_then(|m| m.keys().next()) {
        Some(key) => Err(invalid(
            "input",
            format!("/{key}: this operation takes no such argument"),
            vec![serde_json::json!({ "path": format!("/{key}"), "message": "unexpected argument" })],
        )),
        None => Ok(()),
    }
}

/// `VALIDATION_ERROR` whose `details.message` starts `Invalid params:` or `Invalid input:`.
pub(crate) fn invalid(part: &str, summary: String, errors: Vec<Value>) -> AppError {
    let message = format!("Invalid {part}: {summary}");
    let mut details = serde_json::json!({ "message": message });
    if !errors.is_empty() {
        details["errors"] = Value::Array(errors);
    }
    AppError::new(ErrorCode::ValidationError, message).with_details(details)
}

/// `INTERNAL_SERVER_ERROR`: the service broke its own contract after the handler succeeded.
pub(crate) fn broken(what: &str, errors: Vec<Value>) -> AppError {
    let mut e = AppError::new(ErrorCode::InternalServerError, what.to_owned());
    if !errors.is_empty() {
        e = e.with_details(serde_json::json!({ "message": what, "errors": errors }));
    }
    e
}

/// Serializes a handler's or projection's typed answer (generated code calls this).
pub fn to_answer<T: serde::Serialize>(value: &T) -> Result<Value, AppError> {
    serde_json::to_value(value).map_err(|e| broken(&format!("the answer does not serialize: {e}"), Vec::new()))
}
