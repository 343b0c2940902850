//! OpenAPI 3.1: the HTTP surface, full answers only. A tool view never changes one byte of it.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use stitchgen_runtime::ErrorCode;

use crate::model::{Model, Operation, Service};
use crate::parse::ast::{Framing, Method, QueryStyle, StreamFormat, Surface};
use crate::present::{self, Refs, Style};

/// The component every error response shares.
const ERROR_ENVELOPE: &str = "ErrorEnvelope";

/// The OpenAPI document of every HTTP-exposed operation.
pub fn document(model: &Model) -> Value {
    let names = present::component_names(model, &[ERROR_ENVELOPE]);
    let style = Style { refs: Refs::Components(&names), close_objects: false };
    // Paths, methods and components by name: declaration order in a contract moves nothing.
    let mut paths: BTreeMap<String, BTreeMap<&str, Value>> = BTreeMap::new();
    for svc in &model.services {
        for op in svc.operations.iter().filter(|o| o.on(Surface::Http)) {
            let Some(http) = &op.http else { continue };
            paths.entry(http.template.clone()).or_default().insert(method_key(http.method), operation(op, svc, style));
        }
    }
    // Values moved into place, never `json!`'s copy of each (it serializes what it is given).
    let paths =
        Value::Object(paths.into_iter().map(|(path, methods)| (path, crate::present::object(methods))).collect());
    let mut every: BTreeMap<String, Value> = BTreeMap::new();
    for svc in &model.services {
        for (name, schema) in &svc.types {
            every.insert(names[&(svc.name.clone(), name.clone())].clone(), present::schema(schema, svc, style));
        }
    }
    let mut schemas = reachable(&paths, every);
    schemas.insert(ERROR_ENVELOPE.into(), error_envelope());
    let mut components = crate::present::object([("schemas", Value::Object(schemas.into_iter().collect()))]);
    // Contracts given together agree on every scheme name they share (E0313).
    let schemes: BTreeMap<&String, &Value> = model.services.iter().flat_map(|s| &s.security_schemes).collect();
    if !schemes.is_empty() {
        components["securitySchemes"] = json!(schemes);
    }
    crate::present::object([
        ("openapi", json!("3.1.0")),
        ("info", info(model)),
        ("paths", paths),
        ("components", components),
    ])
}

/// The components `paths` refers to, and those they refer to in turn: HTTP never shows a type
/// that only a tool view uses, so adding or changing a view moves no byte of the document.
fn reachable(paths: &Value, mut every: BTreeMap<String, Value>) -> BTreeMap<String, Value> {
    fn refs<'v>(v: &'v Value, out: &mut Vec<&'v str>) {
        match v {
            Value::Object(m) => {
                if let Some(name) = m.get("$ref").and_then(Value::as_str).and_then(|r| r.strip_prefix(COMPONENTS)) {
                    out.push(name);
                }
                m.values().for_each(|c| refs(c, out));
            }
            Value::Array(a) => a.iter().for_each(|c| refs(c, out)),
            _ => {}
        }
    }
    let mut todo: Vec<String> = {
        let mut found = Vec::new();
        refs(paths, &mut found);
        found.into_iter().map(str::to_owned).collect()
    };
    let mut kept = BTreeMap::new();
    while let Some(name) = todo.pop() {
        let Some(schema) = every.remove(&name) else { continue };
        let mut found = Vec::new();
        refs(&schema, &mut found);
        todo.extend(found.into_iter().map(str::to_owned));
        kept.insert(name, schema);
    }
    kept
}

/// Where `$ref`s into the document's components point.
const COMPONENTS: &str = "#/components/schemas/";

fn info(model: &Model) -> Value {
    match model.services.as_slice() {
        [one] => json!({
            "title": one.title.clone().unwrap_or_else(|| one.name.clone()),
            "version": one.version.clone().unwrap_or_else(|| "0.0.0".into()),
        }),
        many => {
            let versions: Vec<&str> = many.iter().filter_map(|s| s.version.as_deref()).collect();
            let same =
                !versions.is_empty() && versions.len() == many.len() && versions.iter().all(|v| *v == versions[0]);
            json!({
                "title": many.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", "),
                "version": if same { versions[0] } else { "0.0.0" },
            })
        }
    }
}

fn method_key(m: Method) -> &'static str {
    match m {
        Method::Get => "get",
        Method::Head => "head",
        Method::Post => "post",
        Method::Put => "put",
        Method::Patch => "patch",
        Method::Delete => "delete",
    }
}

fn operation(op: &Operation, svc: &Service, style: Style<'_>) -> Value {
    let http = op.http.as_ref().expect("HTTP operations have a route");
    let mut o = Map::new();
    o.insert("operationId".into(), json!(format!("{}_{}", op.service, op.action)));
    o.insert("summary".into(), json!(op.desc));
    o.insert("tags".into(), json!([op.service]));
    let parameters = parameters(op, svc, style);
    if !parameters.is_empty() {
        o.insert("parameters".into(), Value::Array(parameters));
    }
    if let Some(body) = request_body(op, svc, style) {
        o.insert("requestBody".into(), body);
    }
    o.insert("responses".into(), responses(op, svc, style));
    if let Some(security) = &op.security {
        o.insert("security".into(), json!(security));
    }
    if http.method == Method::Head {
        o.insert("description".into(), json!("Answers with headers only."));
    }
    Value::Object(o)
}

fn parameters(op: &Operation, svc: &Service, style: Style<'_>) -> Vec<Value> {
    let http = op.http.as_ref().expect("HTTP operations have a route");
    let mut out = Vec::new();
    // The path's fields as the runtime reads them (through `$ref` and `allOf`): the same fact.
    let fields = op.params.as_ref().map(|p| present::text_fields(p, svc)).unwrap_or_default();
    for (i, name) in http.params.iter().enumerate() {
        let schema = fields
            .iter()
            .find(|f| &f.name == name)
            .map_or_else(|| json!({ "type": "string" }), |f| present::schema(&f.schema, svc, style));
        let mut p = json!({ "name": name, "in": "path", "required": true, "schema": schema });
        if http.wildcard && i + 1 == http.params.len() {
            p["description"] = json!("The rest of the path, slashes included.");
        }
        out.push(p);
    }
    for placed in &http.params_in {
        let Some(f) = fields.iter().find(|f| f.name == placed.key) else { continue };
        let schema = present::schema(&f.schema, svc, style);
        let mut p = json!({ "name": placed.name, "in": placed.location_str(), "required": f.required });
        match placed.style {
            QueryStyle::Form => p["schema"] = schema,
            QueryStyle::DeepObject => {
                (p["schema"], p["style"], p["explode"]) = (schema, json!("deepObject"), json!(true));
            }
            // One JSON text: a parameter with `content`, as OpenAPI writes it.
            QueryStyle::Json => p["content"] = json!({ "application/json": { "schema": schema } }),
        }
        if let Some(d) = f.schema.get("description") {
            p["description"] = d.clone();
        }
        out.push(p);
    }
    if http.input_in_query
        && let Some(input) = &op.input
    {
        // The fields the runtime reads from the query: the same fact, so what is listed is read.
        for f in present::text_fields(input, svc) {
            let schema = present::schema(&f.schema, svc, style);
            let mut p = json!({ "name": f.name, "in": "query", "required": f.required, "schema": schema });
            if let Some(d) = f.schema.get("description") {
                p["description"] = d.clone();
            }
            out.push(p);
        }
    }
    out
}

fn request_body(op: &Operation, svc: &Service, style: Style<'_>) -> Option<Value> {
    let http = op.http.as_ref()?;
    if let Some(mp) = &op.http_kind.multipart {
        let mut properties = Map::new();
        let mut required = Vec::new();
        let mut encoding = Map::new();
        for f in &mp.files {
            let mut file = json!({ "type": "string", "contentMediaType": "application/octet-stream" });
            if let Some(max) = f.max_bytes {
                file["description"] = json!(format!("At most {max} bytes."));
            }
            let schema = if f.multiple {
                let mut a = json!({ "type": "array", "items": file });
                if let Some(n) = f.max_files {
                    a["maxItems"] = json!(n);
                }
                a
            } else {
                file
            };
            properties.insert(f.name.clone(), schema);
            if f.required {
                required.push(json!(f.name));
            }
            if !f.content_types.is_empty() {
                encoding.insert(f.name.clone(), json!({ "contentType": f.content_types.join(", ") }));
            }
        }
        // The form's text fields as the adapter reads them (through `$ref` and `allOf`).
        for f in op.input.as_ref().map(|input| present::text_fields(input, svc)).unwrap_or_default() {
            properties.insert(f.name.clone(), present::schema(&f.schema, svc, style));
            if f.required {
                required.push(json!(f.name));
            }
        }
        let mut schema = json!({ "type": "object", "properties": properties });
        if !required.is_empty() {
            schema["required"] = Value::Array(required);
        }
        let mut media = json!({ "schema": schema });
        if !encoding.is_empty() {
            media["encoding"] = Value::Object(encoding);
        }
        return Some(json!({ "required": true, "content": { "multipart/form-data": media } }));
    }
    if http.input_in_query {
        return None;
    }
    let input = op.input.as_ref()?;
    let media = http.input_content_type.as_deref().unwrap_or("application/json");
    let required = !http.input_optional;
    Some(json!({ "required": required, "content": { media: { "schema": present::schema(input, svc, style) } } }))
}

fn responses(op: &Operation, svc: &Service, style: Style<'_>) -> Value {
    let mut out: BTreeMap<String, Value> = BTreeMap::new();
    let (status, success) = success(op, svc, style);
    out.insert(status, success);
    for answer in &op.successes {
        let mut value = Map::new();
        value.insert("description".into(), json!(answer.desc.clone().unwrap_or_else(|| "Success.".into())));
        // A raw answer's handler sets its own headers.
        if let Some(headers) = op.http.as_ref().filter(|_| op.http_kind.raw_response.is_none()).and_then(headers) {
            value.insert("headers".into(), headers);
        }
        if let Some(body) = &answer.body {
            let schema = present::schema(body, svc, style);
            value.insert("content".into(), json!({ "application/json": { "schema": schema } }));
        }
        out.insert(answer.status.to_string(), Value::Object(value));
    }
    let mut codes: BTreeMap<u16, Vec<String>> = BTreeMap::new();
    let mut add = |code: &str| {
        let status = ErrorCode::from_name(code).map_or(500, ErrorCode::status);
        let list = codes.entry(status).or_default();
        if !list.iter().any(|c| c == code) {
            list.push(code.to_owned());
        }
    };
    add("VALIDATION_ERROR");
    add("INTERNAL_SERVER_ERROR");
    if op.scope != "public" {
        add("UNAUTHORIZED");
        add("FORBIDDEN");
    }
    op.errors.iter().for_each(|e| add(e));
    let envelope = json!({ "$ref": format!("#/components/schemas/{ERROR_ENVELOPE}") });
    for (status, names) in &codes {
        let description = format!("Error: {}.", names.join(", "));
        out.insert(
            status.to_string(),
            json!({
                "description": description,
                "content": { "application/json": { "schema": envelope } },
            }),
        );
    }
    for answer in op.http.iter().flat_map(|h| &h.error_answers) {
        out.insert(answer.status.to_string(), error_answer(answer, codes.get(&answer.status), &envelope, svc, style));
    }
    Value::Object(out.into_iter().collect())
}

/// A documented error answer: its body, or where the runner answers the same status with the
/// registry's envelope (a `VALIDATION_ERROR` at 400), either of the two.
fn error_answer(
    answer: &crate::model::StatusAnswer,
    codes: Option<&Vec<String>>,
    envelope: &Value,
    svc: &Service,
    style: Style<'_>,
) -> Value {
    let mut description = answer.desc.clone().unwrap_or_else(|| "Error.".into());
    let body = answer.body.as_ref().map(|b| present::schema(b, svc, style));
    let schema = match (body, codes) {
        (Some(body), Some(names)) => {
            description = format!("{description} Or the error envelope: {}.", names.join(", "));
            Some(json!({ "anyOf": [body, envelope] }))
        }
        (Some(body), None) => Some(body),
        (None, Some(names)) => {
            description = format!("{description} Or the error envelope: {}.", names.join(", "));
            Some(envelope.clone())
        }
        (None, None) => None,
    };
    match schema {
        Some(schema) => json!({ "description": description, "content": { "application/json": { "schema": schema } } }),
        None => json!({ "description": description }),
    }
}

fn success(op: &Operation, svc: &Service, style: Style<'_>) -> (String, Value) {
    let http = op.http.as_ref().expect("HTTP operations have a route");
    let kind = &op.http_kind;
    if kind.raw_response.is_some() {
        if http.method == Method::Head {
            return ("200".into(), json!({ "description": "The resource exists." }));
        }
        let ct = op.answer_media().unwrap_or_default();
        return ("200".into(), json!({ "description": "The response bytes.", "content": { ct: { "schema": {} } } }));
    }
    if let Some(stream) = &kind.stream {
        let media = stream.format.media();
        let what = match stream.format {
            StreamFormat::Ndjson => "One JSON value per line.",
            StreamFormat::Sse => "Server-sent events, one JSON value per event.",
        };
        let item = present::schema(&stream.item, svc, style);
        let frame = match stream.framing {
            Framing::Item => match &stream.terminal {
                Some(t) => json!({ "oneOf": [item, present::schema(t, svc, style)] }),
                None => item,
            },
            Framing::Envelope => envelope_frame(item, stream.terminal.as_ref().map(|t| present::schema(t, svc, style))),
        };
        return ("200".into(), json!({ "description": what, "content": { media: { "schema": frame } } }));
    }
    let status = http.success_status(op.output.is_some());
    let mut r = Map::new();
    r.insert("description".into(), json!(if op.output.is_some() { "The result." } else { "Done; no content." }));
    if let Some(headers) = headers(http) {
        r.insert("headers".into(), headers);
    }
    if let Some(output) = &op.output {
        r.insert("content".into(), json!({ "application/json": { "schema": present::schema(output, svc, style) } }));
    }
    (status.to_string(), Value::Object(r))
}

/// The documented response headers, which the handler sets on whichever success it answers.
fn headers(http: &crate::model::Http) -> Option<Value> {
    if http.headers.is_empty() {
        return None;
    }
    let each = http.headers.iter().map(|h| {
        let mut v = json!({ "required": h.required, "schema": { "type": "string" } });
        if let Some(d) = &h.desc {
            v["description"] = json!(d);
        }
        (h.name.clone(), v)
    });
    Some(Value::Object(each.collect()))
}

/// A stream frame in envelope framing: `{"type": "item", "item": …}`, a terminal frame,
/// an error, or a heartbeat.
fn envelope_frame(item: Value, terminal: Option<Value>) -> Value {
    let mut kinds = vec![
        json!({ "type": "object", "required": ["type", "item"], "properties": { "type": { "const": "item" }, "item": item } }),
    ];
    if let Some(t) = terminal {
        kinds.push(json!({ "type": "object", "required": ["type", "terminal"], "properties": { "type": { "const": "terminal" }, "terminal": t } }));
    }
    kinds.push(json!({ "type": "object", "required": ["type", "error"], "properties": { "type": { "const": "error" }, "error": { "$ref": format!("#/components/schemas/{ERROR_ENVELOPE}") } } }));
    kinds.push(json!({ "type": "object", "required": ["type"], "properties": { "type": { "const": "heartbeat" } } }));
    json!({ "oneOf": kinds })
}

/// `{"error": {"code", "message", "details"?, "hint"?}}`.
fn error_envelope() -> Value {
    json!({
        "type": "object",
        "required": ["error"],
        "properties": {
            "error": {
                "type": "object",
                "required": ["code", "message"],
                "properties": {
                    "code": { "type": "string", "description": "A registry code such as NOT_FOUND, or an application code." },
                    "message": { "type": "string" },
                    "details": { "description": "Structured facts about the failure." },
                    "hint": { "type": "string", "description": "What the caller could do about it." },
                },
            },
        },
    })
}
