//! The runtime's definition of each operation (`OperationDef`), built once here from the model:
//! a service in memory serves these values, and the generated Rust writes the same values as
//! statics, so the two cannot differ.
//!
//! The runtime's definitions are `'static`, as statics are: built in memory, their text is
//! leaked, once per contract read, to live as long as the process that serves them.

use serde_json::Value;
use stitchgen_runtime as rt;

use super::{Refs, Style, TextField};
use crate::model::{OpKind, Operation, Service};
use crate::parse::ast::{Completion, Framing, KeyLocation, QueryStyle, StreamFormat, Surface};

/// The runner's schemas: references into the types document, each type written once there.
pub const REGISTRY: Style<'static> = Style { refs: Refs::Registry, close_objects: false };

/// Every operation of `svc`, in declaration order, with the types document its schemas refer to.
pub fn catalog(svc: &Service) -> (&'static str, &'static [&'static rt::OperationDef]) {
    let ops: Vec<&'static rt::OperationDef> =
        svc.operations.iter().map(|op| &*Box::leak(Box::new(operation(op, svc)))).collect();
    (text(super::types_document(svc).to_string()), Vec::leak(ops))
}

/// The runtime's definition of `op`.
pub fn operation(op: &Operation, svc: &Service) -> rt::OperationDef {
    let schema = |s: Option<&Value>| s.map(|s| schema_text(s, svc));
    let (param_fields, input_fields, tool_fields) = text_fields(op, svc);
    rt::OperationDef {
        service: text(&op.service),
        action: text(&op.action),
        kind: match op.kind {
            OpKind::Contract => rt::OpKind::Contract,
            OpKind::Runtime => rt::OpKind::Runtime,
        },
        description: text(&op.desc),
        method: op.http.as_ref().map(|h| h.method.as_str()),
        path: op.http.as_ref().map(|h| text(&h.path)),
        scope: text(&op.scope),
        surfaces: Vec::leak(op.surfaces.iter().map(|&s| rt::Surface::from(s)).collect()),
        tool_name: op.tool_name.as_deref().map(text),
        annotations: op.annotations.as_ref().map(|a| text(a.to_string())),
        param_keys: texts(param_keys(op, svc)),
        params_in: params_in(op, svc),
        input_optional: op.http.as_ref().is_some_and(|h| h.input_optional),
        params_schema: schema(op.params.as_ref()),
        input_schema: schema(op.input.as_ref()),
        output_schema: schema(op.output.as_ref()),
        view: op.view.as_ref().map(|v| rt::ViewDef {
            defaults: text(Value::Object(v.defaults.clone()).to_string()),
            output_schema: schema(v.output.as_ref()),
            project: v.project,
            slice: v.output.as_ref().filter(|_| !v.project).map(|o| &*Box::leak(Box::new(slice_plan(o, svc)))),
        }),
        tool_input_schema: op.is_tool().then(|| text(super::tool_input(op, svc, Surface::Cli).to_string())),
        wrap: op.wrap.map(crate::schema::Wrap::key),
        http_kind: http_kind(op, svc),
        errors: texts(op.errors.iter()),
        error_answers: answers(op.http.iter().flat_map(|h| &h.error_answers), svc),
        success_answers: answers(&op.successes, svc),
        security: security(op, svc),
        limits: op.http.as_ref().map_or(rt::LimitsDef::NONE, |h| rt::LimitsDef {
            max_body_bytes: h.limits.max_body_bytes,
            max_answer_bytes: h.limits.max_answer_bytes,
        }),
        param_fields,
        input_fields,
        tool_fields,
        input_required: Vec::leak(
            op.input_required
                .iter()
                .map(|a| rt::InputRequiredDef {
                    key: text(&a.key),
                    message: text(&a.message),
                    schema: text(a.schema.to_string()),
                })
                .collect(),
        ),
    }
}

/// Answers documented at statuses of their own, as the runtime reads them.
fn answers<'a>(
    answers: impl IntoIterator<Item = &'a crate::model::StatusAnswer>,
    svc: &Service,
) -> &'static [rt::AnswerDef] {
    let each = answers.into_iter().map(|a| rt::AnswerDef {
        status: a.status,
        description: a.desc.as_deref().map(text),
        schema: a.body.as_ref().map(|s| schema_text(s, svc)),
    });
    Vec::leak(each.collect())
}

/// `text` for as long as the process runs.
fn text(text: impl Into<String>) -> &'static str {
    String::leak(text.into())
}

fn texts(items: impl IntoIterator<Item = impl Into<String>>) -> &'static [&'static str] {
    Vec::leak(items.into_iter().map(text).collect())
}

/// A schema as compact JSON text, shared types referred to in the types document.
fn schema_text(schema: &Value, svc: &Service) -> &'static str {
    text(super::schema(schema, svc, REGISTRY).to_string())
}

/// Where the parameters outside the path travel.
fn params_in(op: &Operation, svc: &Service) -> &'static [rt::ParamIn] {
    let placed = op.http.iter().flat_map(|h| &h.params_in);
    let params = op.params.as_ref().map(|p| super::text_fields(p, svc)).unwrap_or_default();
    // An object's properties, read by their own fields.
    let properties = |key: &str| {
        let object = params.iter().find(|f| f.name == key).map(|f| super::text_fields(&f.schema, svc));
        field_defs(object.unwrap_or_default())
    };
    Vec::leak(
        placed
            .map(|p| {
                let (key, name) = (text(&p.key), text(&p.name));
                match p.location {
                    KeyLocation::Query if p.style == QueryStyle::DeepObject => {
                        rt::ParamIn::DeepObject(key, name, properties(&p.key))
                    }
                    KeyLocation::Query if p.style == QueryStyle::Json => rt::ParamIn::QueryJson(key, name),
                    KeyLocation::Query => rt::ParamIn::Query(key, name),
                    KeyLocation::Header => rt::ParamIn::Header(key, name),
                    KeyLocation::Cookie => rt::ParamIn::Cookie(key, name),
                }
            })
            .collect(),
    )
}

/// The argument keys that are parameters: the params schema's properties.
fn param_keys(op: &Operation, svc: &Service) -> Vec<String> {
    let params = op.params.as_ref().map(|p| super::resolve(p, svc));
    params.and_then(|p| p.get("properties")?.as_object().map(|m| m.keys().cloned().collect())).unwrap_or_default()
}

type Fields = &'static [rt::FieldDef];

/// The fields text arrives in ([`super::text_fields`]): path parameters; the input where it is
/// read from text (the query, a form body, an upload's form fields); a CLI tool's flags.
fn text_fields(op: &Operation, svc: &Service) -> (Fields, Fields, Fields) {
    let of = |part: &Option<Value>| part.as_ref().map(|p| super::text_fields(p, svc)).unwrap_or_default();
    let form = op
        .http
        .as_ref()
        .and_then(|h| h.input_content_type.as_deref())
        .is_some_and(crate::check::kinds::is_form_media_type);
    let from_text = op.http.as_ref().is_some_and(|h| h.input_in_query) || op.http_kind.multipart.is_some() || form;
    let input = if from_text { of(&op.input) } else { Vec::new() };
    let flags = if op.surfaces.contains(&Surface::Cli) { super::tool_fields(op, svc) } else { Vec::new() };
    (field_defs(of(&op.params)), field_defs(input), field_defs(flags))
}

fn field_defs(fields: Vec<TextField>) -> Fields {
    Vec::leak(
        fields
            .into_iter()
            .map(|f| rt::FieldDef {
                name: text(f.name),
                types: Vec::leak(f.types),
                items: Vec::leak(f.items),
                values: texts(f.values),
                required: f.required,
                default: f.default.map(|d| text(d.to_string())),
                description: text(f.description.unwrap_or_default()),
            })
            .collect(),
    )
}

/// The HTTP-only kinds and the declared status and headers.
fn http_kind(op: &Operation, svc: &Service) -> rt::HttpKindDef {
    let k = &op.http_kind;
    let http = op.http.as_ref();
    rt::HttpKindDef {
        raw_response: k.raw_response.is_some(),
        content_type: k.raw_response.clone().flatten().map(text),
        raw_body: k.raw_body,
        // A JSON body on GET or DELETE is named, so the adapter and the client read and write a
        // body there, not the query.
        input_content_type: http
            .and_then(|h| {
                let body_on_query_method = h.method.input_in_query() && !h.input_in_query;
                h.input_content_type.as_deref().or(body_on_query_method.then_some("application/json"))
            })
            .map(text),
        multipart: k.multipart.as_ref().map(|m| rt::MultipartDef {
            files: Vec::leak(
                m.files
                    .iter()
                    .map(|f| rt::FileFieldDef {
                        name: text(&f.name),
                        required: f.required,
                        multiple: f.multiple,
                        max_files: f.max_files,
                        max_bytes: f.max_bytes,
                        content_types: texts(f.content_types.iter()),
                    })
                    .collect(),
            ),
            max_request_bytes: m.max_request_bytes,
            max_field_bytes: m.max_field_bytes,
        }),
        status: http.and_then(|h| h.status),
        headers: Vec::leak(
            http.into_iter()
                .flat_map(|h| &h.headers)
                .map(|h| rt::HeaderDef { name: text(&h.name), required: h.required })
                .collect(),
        ),
        stream: k.stream.as_ref().map(|st| rt::StreamDef {
            format: match st.format {
                StreamFormat::Ndjson => rt::StreamFormat::Ndjson,
                StreamFormat::Sse => rt::StreamFormat::Sse,
            },
            envelope: st.framing == Framing::Envelope,
            terminal: st.completion == Completion::Terminal,
            item_schema: schema_text(&st.item, svc),
            terminal_schema: st.terminal.as_ref().map(|t| schema_text(t, svc)),
            max_frame_bytes: st.max_frame_bytes,
            heartbeat_ms: st.heartbeat_ms,
            lifetime_ms: st.lifetime_ms,
            idle_timeout_seconds: st.idle_timeout_seconds,
        }),
    }
}

/// The operation's security alternatives as the client sends them; an alternative with a
/// scheme no client can send (HTTP digest, mutual TLS) is left out.
fn security(op: &Operation, svc: &Service) -> &'static [&'static [rt::Credential]] {
    let credential = |name: &String| -> Option<rt::Credential> {
        let s = svc.security_schemes.get(name)?;
        let field = |k: &str| s.get(k).and_then(Value::as_str);
        let name = text(name);
        Some(match (field("type")?, field("scheme").map(str::to_ascii_lowercase).as_deref(), field("in")) {
            ("http", Some("bearer"), _) | ("oauth2" | "openIdConnect", _, _) => rt::Credential::Bearer(name),
            ("http", Some("basic"), _) => rt::Credential::Basic(name),
            ("apiKey", _, Some(place)) => {
                let param = text(field("name")?);
                match place {
                    "header" => rt::Credential::Header(name, param),
                    "query" => rt::Credential::Query(name, param),
                    _ => rt::Credential::Cookie(name, param),
                }
            }
            _ => return None,
        })
    };
    let alternatives = op.security.iter().flatten();
    let sent = alternatives.filter_map(|a| a.keys().map(credential).collect::<Option<Vec<_>>>());
    Vec::leak(sent.map(|a| &*Vec::leak(a)).collect())
}

/// The slice plan of a view schema: the declared properties of every object, recursively; a
/// recursive type is copied whole below its first level.
fn slice_plan(view: &Value, svc: &Service) -> rt::SlicePlan {
    plan(view, svc, &mut Vec::new())
}

fn plan(view: &Value, svc: &Service, stack: &mut Vec<String>) -> rt::SlicePlan {
    let name = view
        .get("$ref")
        .and_then(Value::as_str)
        .and_then(|r| r.strip_prefix(crate::schema::TYPES_PREFIX))
        .map(str::to_owned);
    if let Some(n) = &name {
        if stack.contains(n) {
            return rt::SlicePlan::Keep;
        }
        stack.push(n.clone());
    }
    let v = super::resolve(view, svc);
    let plan = if let Some(props) = v.get("properties").and_then(Value::as_object) {
        let fields = props.iter().map(|(k, s)| (text(k), plan(s, svc, stack))).collect();
        rt::SlicePlan::Object(Vec::leak(fields))
    } else if let Some(items) = v.get("items") {
        rt::SlicePlan::Array(Box::leak(Box::new(plan(items, svc, stack))))
    } else {
        rt::SlicePlan::Keep
    };
    if name.is_some() {
        stack.pop();
    }
    plan
}
