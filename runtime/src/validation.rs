//! What a schema says of a value, and the errors the runtime answers for it: a caller's value
//! that breaks one is invalid, the service's own answer that breaks one is broken. Every
//! surface, the runner and the stream checks read them from here.
//!
//! A caller may be hostile (a model steered by a prompt injection), so what it is told of a
//! broken answer is where and by which keyword, never a value: the validator's sentences quote
//! the answer (a phone number a tool view hides), and go to the server's log instead.

use serde_json::Value;

use crate::error::{AppError, ErrorCode};

/// One way a value breaks a schema.
#[derive(Clone, Debug)]
pub(crate) struct Violation {
    /// Where in the value: a JSON Pointer, empty for the value itself.
    pub(crate) path: String,
    /// The schema keyword that failed (`type`, `required`, `format`, …).
    pub(crate) keyword: String,
    /// The validator's sentence, which may quote the value.
    pub(crate) message: String,
}

/// Every way `value` breaks the schema (at most 20); `None` when it is valid.
pub(crate) fn violations(validator: &jsonschema::Validator, value: &Value) -> Option<Vec<Violation>> {
    // The common case, valid, without collecting errors: several times cheaper.
    if validator.is_valid(value) {
        return None;
    }
    let mut errors: Vec<Violation> = Vec::new();
    for e in validator.iter_errors(value).take(20) {
        explain(&e, &mut errors);
    }
    errors.truncate(20);
    (!errors.is_empty()).then_some(errors)
}

/// The violation of `e`; where no branch of a union matched, those of the closest branch
/// instead (the fewest errors, then the deepest): "/size: 42 is not of type string" says what
/// to fix, where "not valid under any of the schemas" only restates the value.
fn explain(e: &jsonschema::ValidationError<'_>, out: &mut Vec<Violation>) {
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
    out.push(Violation {
        path: e.instance_path().as_str().to_owned(),
        keyword: e.kind().keyword().to_owned(),
        message: e.to_string(),
    });
}

/// `VALIDATION_ERROR` for the caller's own value: its sentences quote only what it sent.
/// The most `null`s one call's arguments have read as absent: each is one more validation.
const MAX_ABSENT_NULLS: usize = 64;

/// On the tool surfaces, a `null` the schema refuses, under a key of an object, reads as the key
/// left out: a model held to OpenAI's strict mode sends every optional field, `null` when it has
/// none, and the handler must see what the same call without it gives. Where the key is
/// required, leaving it out is refused as before; a top-level key gets its view default back
/// (`defaults`), as if it had not been sent. Bounded: at most [`MAX_ABSENT_NULLS`] keys.
pub(crate) fn absent_nulls(
    validator: &jsonschema::Validator,
    value: &mut Value,
    defaults: &serde_json::Map<String, Value>,
) {
    for _ in 0..MAX_ABSENT_NULLS {
        let Some(path) = validator
            .iter_errors(value)
            .find(|e| e.instance().is_null() && !e.instance_path().as_str().is_empty())
            .map(|e| e.instance_path().as_str().to_owned())
        else {
            return;
        };
        let Some((parent, key)) = path.rsplit_once('/') else { return };
        let key = key.replace("~1", "/").replace("~0", "~");
        let Some(Value::Object(object)) = value.pointer_mut(parent) else { return };
        if object.get(&key).is_none_or(|v| !v.is_null()) {
            return;
        }
        object.remove(&key);
        if parent.is_empty()
            && let Some(default) = defaults.get(&key)
        {
            object.insert(key, default.clone());
        }
    }
}

pub(crate) fn validate(validator: Option<&jsonschema::Validator>, value: &Value, part: &str) -> Result<(), AppError> {
    match validator.and_then(|v| violations(v, value)) {
        None => Ok(()),
        Some(errors) => {
            let summary =
                errors.iter().map(|e| format!("{}: {}", at(&e.path), e.message)).collect::<Vec<_>>().join("; ");
            let errors = errors
                .into_iter()
                .map(|e| serde_json::json!({ "path": e.path, "keyword": e.keyword, "message": e.message }))
                .collect();
            Err(invalid(part, summary, errors))
        }
    }
}

fn at(path: &str) -> &str {
    if path.is_empty() { "/" } else { path }
}

/// `VALIDATION_ERROR` for a path parameter that URL normalisation would move off its route: a
/// segment that is, or percent-decodes to, `.` or `..` (a wildcard's segments each), or an empty
/// one. Checked on every surface before a handler runs or a request is sent.
pub(crate) fn path_segments(def: &crate::OperationDef, params: &Value) -> Result<(), AppError> {
    let Some(path) = def.path else { return Ok(()) };
    for segment in path.split('/') {
        let Some(crate::def::PathParam { name, wildcard: wild, .. }) = crate::def::path_param(segment) else {
            continue;
        };
        let Some(Value::String(value)) = params.get(name) else { continue };
        let why = if value.is_empty() && !wild {
            "a path parameter may not be empty"
        } else if value.split('/').any(dot_segment) {
            "a path segment may not be `.` or `..`, written or percent-encoded"
        } else {
            continue;
        };
        let at = format!("/{name}");
        let errors = vec![serde_json::json!({ "path": at, "keyword": "path", "message": why })];
        return Err(invalid("params", format!("{at}: {why}"), errors));
    }
    Ok(())
}

/// Whether `segment` is a dot segment to a server that decodes it, once or more (`%2e`, `%2E`,
/// `.%2e`, `%252e`), or holds one behind a decoded `/` or `\`.
fn dot_segment(segment: &str) -> bool {
    let mut text = std::borrow::Cow::Borrowed(segment);
    for _ in 0..4 {
        let decoded = percent_encoding::percent_decode_str(&text).decode_utf8_lossy().into_owned();
        if decoded == text {
            break;
        }
        text = decoded.into();
    }
    text.split(['/', '\\']).any(|piece| piece == "." || piece == "..")
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

/// `VALIDATION_ERROR` for one argument at `path` (`/limit`), in the runner's words: what every
/// adapter answers for an argument it refuses before the runner sees it (a body that is not an
/// object, a flag that is not JSON, a search-mode argument).
pub(crate) fn invalid_argument(path: &str, message: &str) -> AppError {
    invalid("input", format!("{path}: {message}"), vec![serde_json::json!({ "path": path, "message": message })])
}

/// `INTERNAL_SERVER_ERROR`: the service broke its own contract after the handler succeeded.
pub(crate) fn broken(what: &str) -> AppError {
    AppError::new(ErrorCode::InternalServerError, what.to_owned())
}

/// `INTERNAL_SERVER_ERROR` for an answer (a handler's, an origin's, a view's, a stream frame)
/// that breaks its schema. The caller is told where and by which keyword; the validator's
/// sentences, which quote the answer's values, are logged at `error` for the operator.
pub(crate) fn breaks(what: &str, errors: Vec<Violation>) -> AppError {
    for e in &errors {
        tracing::error!(target: "stitchgen_runtime", path = at(&e.path), keyword = %e.keyword, "{what}: {}", e.message);
    }
    let summary = errors.iter().map(|e| format!("{} ({})", at(&e.path), e.keyword)).collect::<Vec<_>>().join("; ");
    let message = format!("{what} at {summary}");
    let errors: Vec<Value> =
        errors.into_iter().map(|e| serde_json::json!({ "path": e.path, "keyword": e.keyword })).collect();
    AppError::new(ErrorCode::InternalServerError, message.clone())
        .with_details(serde_json::json!({ "message": message, "errors": errors }))
}

/// Serializes a handler's or projection's typed answer (generated code calls this).
pub fn to_answer<T: serde::Serialize>(value: &T) -> Result<Value, AppError> {
    serde_json::to_value(value).map_err(|e| broken(&format!("the answer does not serialize: {e}")))
}

/// `value` with every number that has no fractional part written as an integer (`14.0` → `14`).
/// JSON Schema counts `14.0` as an integer, so a value the schemas accepted reaches the typed
/// side this way: serde reads an integer field only from an integer, and reads a float field
/// from either.
pub(crate) fn integral(value: Value) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or(f64::NAN);
            // Within [-2^63, 2^64): the casts below are exact for a whole number there.
            let whole = f.fract() == 0.0 && (-9_223_372_036_854_775_808.0..18_446_744_073_709_551_616.0).contains(&f);
            match (whole, f < 0.0) {
                (true, true) => Value::from(f as i64),
                (true, false) => Value::from(f as u64),
                (false, _) => Value::Number(n),
            }
        }
        Value::Array(items) => Value::Array(items.into_iter().map(integral).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, integral(v))).collect()),
        other => other,
    }
}

/// The JSON Schema `type` name of a value (`"integer"` for a number without a fraction part).
pub fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_f64() => "number",
        Value::Number(_) => "integer",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::OperationDef;

    static FILE: OperationDef =
        OperationDef { path: Some("/people/:id/files/*rest"), method: Some("GET"), ..OperationDef::EMPTY };

    fn refused(id: &str, rest: &str) -> bool {
        path_segments(&FILE, &json!({ "id": id, "rest": rest })).is_err()
    }

    #[test]
    fn whole_numbers_reach_the_typed_side_as_integers() {
        let v =
            integral(json!({"hour": 14.0, "neg": -3.0, "zero": -0.0, "half": 2.5, "big": 1e300, "list": [1.0, "1.0"]}));
        assert_eq!(v, json!({"hour": 14, "neg": -3, "zero": 0, "half": 2.5, "big": 1e300, "list": [1, "1.0"]}));
        #[derive(serde::Deserialize)]
        struct Booking {
            hour: u8,
        }
        assert_eq!(serde_json::from_value::<Booking>(integral(json!({"hour": 14.0}))).unwrap().hour, 14);
    }

    #[test]
    fn a_path_parameter_never_moves_the_request() {
        for dots in [".", "..", "%2e", "%2E", ".%2e", "%2E%2e", "%252e%252E", "a/../b", "..%2Fadmin", "..\\x", ""] {
            assert!(refused(dots, "ok"), "id {dots:?}");
        }
        for dots in ["..", "a/./b", "a/%2e%2e/b", "a/..", "%2e/b"] {
            assert!(refused("p1", dots), "rest {dots:?}");
        }
        for fine in ["p1", "...", ".a", "a.", "a..b", "%2e%2e%2e", "%2x", "é"] {
            assert!(!refused(fine, "2026/11/a.pdf"), "id {fine:?}");
        }
        assert!(!refused("p1", ""), "an empty wildcard is the route's own prefix");
        let e = path_segments(&FILE, &json!({ "id": "..", "rest": "" })).unwrap_err();
        assert_eq!((e.code.as_str(), e.status), ("VALIDATION_ERROR", 400));
        assert!(e.message.starts_with("Invalid params: /id:"), "{}", e.message);
    }

    #[test]
    fn a_broken_answer_names_paths_and_keywords_never_values() {
        let schema = json!({"type": "object", "properties": {
            "phone": {"type": "integer"}, "email": {"type": "string", "format": "email"}
        }, "additionalProperties": false});
        let validator = jsonschema::options().should_validate_formats(true).build(&schema).unwrap();
        let answer = json!({"phone": "+1 555 0100", "email": "secret-not-an-email"});
        let e = breaks("the answer breaks its schema", violations(&validator, &answer).unwrap());
        let shown = serde_json::to_string(&e.tool_envelope()).unwrap() + &e.message;
        for secret in ["555", "secret"] {
            assert!(!shown.contains(secret), "{shown}");
        }
        let details = e.details.as_deref().unwrap();
        assert_eq!(
            details["errors"],
            json!([{"path": "/phone", "keyword": "type"}, {"path": "/email", "keyword": "format"}])
        );
        assert_eq!(e.message, "the answer breaks its schema at /phone (type); /email (format)");
    }
}
