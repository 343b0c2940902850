//! The surface snapshot: one review-friendly JSON file with digests of every operation and tool,
//! committed so a pull request shows exactly which surface moved.

pub mod stale;

use serde_json::{Map, Value, json};

use crate::canonical::digest;
use crate::model::{Model, Operation, Service};
use crate::parse::ast::Surface;
use crate::present::{self, Listed, Memo, Refs, Style, Surfaces};

/// The snapshot layout version; a snapshot of another version is refused by name.
pub const MANIFEST_VERSION: u64 = 1;
/// How digests are computed: canonical JSON, SHA-256, 16 hex; since version 2, a schema's
/// `$defs` entries each stand as their own digest ([`crate::canonical::schema_digest`]).
pub const DIGEST_VERSION: u64 = 2;

const INLINE: Style<'static> = Style { refs: Refs::Inline, close_objects: false };

/// The snapshot of everything generated together, as the bytes that are committed; `profiled`
/// the client profiles' lists written with it (`agent-tools.NAME.json`, `mcp-tools.NAME.json`).
pub fn render(model: &Model, surfaces: &Surfaces, profiled: &[crate::out::Artifact]) -> Vec<u8> {
    let mut doc = snapshot(model, surfaces);
    // Written only when a profile is asked for, so that snapshots without one do not move.
    if !profiled.is_empty() {
        doc["profiles"] = Value::Array(profiled.iter().map(profile_row).collect());
    }
    crate::emit::json_bytes(&doc)
}

/// A profile's list as a review reads it: its file, size, digest, tools, and how many of them
/// it lists under a name of its own.
fn profile_row(list: &crate::out::Artifact) -> Value {
    let doc: Value = serde_json::from_slice(&list.bytes).unwrap_or_default();
    let tools = doc["tools"].as_array().map(Vec::as_slice).unwrap_or_default();
    let renamed = tools.iter().filter(|t| t.pointer("/_meta/stitchgen~1name").is_some()).count();
    json!({
        "file": list.name,
        "bytes": list.bytes.len(),
        "digest": digest(&doc),
        "tools": tools.len(),
        "renamed": renamed,
    })
}

/// The snapshot document.
pub fn snapshot(model: &Model, surfaces: &Surfaces) -> Value {
    let mut rows: Vec<(&Service, &Operation)> =
        model.services.iter().flat_map(|s| s.operations.iter().map(move |o| (s, o))).collect();
    rows.sort_by(|a, b| (&a.1.service, &a.1.action, a.1.kind).cmp(&(&b.1.service, &b.1.action, b.1.kind)));
    // One memo per service: each type's body is converted and hashed once, however many
    // operations reach it, and each schema written again is hashed once.
    let memos: std::collections::BTreeMap<&str, Digests> =
        model.services.iter().map(|s| (s.name.as_str(), Digests::default())).collect();
    let operations: Vec<Value> = rows.iter().map(|(s, o)| operation(s, o, &memos[s.name.as_str()])).collect();
    let surfaces: Vec<Value> =
        [Surface::Mcp, Surface::Agent, Surface::Cli].into_iter().map(|t| tool_surface(surfaces, t)).collect();
    crate::present::object([
        ("manifestVersion", json!(MANIFEST_VERSION)),
        ("digestVersion", json!(DIGEST_VERSION)),
        ("operations", Value::Array(operations)),
        ("toolSurfaces", Value::Array(surfaces)),
    ])
}

/// One service's digests so far: its types' bodies, and each schema's digest by its text (a
/// thousand operations that each take `{ id }` hash it once).
#[derive(Default)]
struct Digests {
    memo: Memo,
    schemas: std::cell::RefCell<std::collections::BTreeMap<String, String>>,
}

fn schema_digest(schema: Option<&Value>, svc: &Service, memo: &Digests) -> Value {
    let Some(schema) = schema else { return Value::Null };
    let text = schema.to_string();
    if let Some(digest) = memo.schemas.borrow().get(&text) {
        return Value::String(digest.clone());
    }
    let digest = present::schema_digest(schema, svc, INLINE, &memo.memo);
    memo.schemas.borrow_mut().insert(text, digest.clone());
    Value::String(digest)
}

fn operation(svc: &Service, op: &Operation, memo: &Digests) -> Value {
    let mut row = Map::new();
    row.insert("kind".into(), json!(op.kind.as_str()));
    row.insert("service".into(), json!(op.service));
    row.insert("action".into(), json!(op.action));
    row.insert("method".into(), op.http.as_ref().map_or(Value::Null, |h| json!(h.method.as_str())));
    row.insert("scope".into(), json!(op.scope));
    row.insert("description".into(), json!(op.desc));
    // The registry codes it documents, as a set; written only when declared, so that the
    // snapshots of contracts without them do not move.
    if !op.errors.is_empty() {
        let codes: std::collections::BTreeSet<&String> = op.errors.iter().collect();
        row.insert("errors".into(), json!(codes));
    }
    let multipart = op.http_kind.multipart.as_ref().map(|m| {
        let files: Vec<Value> = m
            .files
            .iter()
            .map(|f| json!({ "name": f.name, "required": f.required, "multiple": f.multiple, "maxFiles": f.max_files, "maxBytes": f.max_bytes, "contentTypes": f.content_types }))
            .collect();
        json!({ "files": files, "maxRequestBytes": m.max_request_bytes, "maxFieldBytes": m.max_field_bytes })
    });
    let stream = op.http_kind.stream.as_ref().map(|s| {
        json!({ "item": schema_digest(Some(&s.item), svc, memo), "terminal": schema_digest(s.terminal.as_ref(), svc, memo), "format": format!("{:?}", s.format), "framing": format!("{:?}", s.framing), "completion": format!("{:?}", s.completion) })
    });
    let mut schemas = Map::new();
    schemas.insert("params".into(), schema_digest(op.params.as_ref(), svc, memo));
    schemas.insert("input".into(), schema_digest(op.input.as_ref(), svc, memo));
    schemas.insert("output".into(), schema_digest(op.output.as_ref(), svc, memo));
    schemas.insert("multipart".into(), multipart.map_or(Value::Null, |m| json!(digest(&m))));
    schemas.insert("stream".into(), stream.map_or(Value::Null, |s| json!(digest(&s))));
    row.insert("schemas".into(), Value::Object(schemas));
    if let Some(v) = &op.view {
        row.insert(
            "toolView".into(),
            json!({
                "defaults": digest(&Value::Object(v.defaults.clone())),
                "output": schema_digest(v.output.as_ref(), svc, memo),
                "project": v.project,
            }),
        );
    }
    let http: Vec<Value> = op
        .http
        .iter()
        .map(|h| {
            let mut row = json!({ "method": h.method.as_str(), "path": h.path });
            // Written only when declared, so that snapshots of contracts without it do not move.
            if let Some(ct) = &h.input_content_type {
                row["inputContentType"] = json!(ct);
            }
            if h.input_optional {
                row["inputOptional"] = json!(true);
            }
            if let Some(status) = h.status {
                row["status"] = json!(status);
            }
            if !h.headers.is_empty() {
                let headers =
                    h.headers.iter().map(|h| json!({ "name": h.name, "required": h.required, "description": h.desc }));
                row["headers"] = Value::Array(headers.collect());
            }
            // The answers documented at statuses of their own, each body as a digest.
            let answers = |list: &[crate::model::StatusAnswer]| {
                let each = list
                    .iter()
                    .map(|a| json!({ "status": a.status, "body": schema_digest(a.body.as_ref(), svc, memo) }));
                Value::Array(each.collect())
            };
            if !op.successes.is_empty() {
                row["successes"] = answers(&op.successes);
            }
            if !h.error_answers.is_empty() {
                row["errorAnswers"] = answers(&h.error_answers);
            }
            if !h.params_in.is_empty() {
                let placed = h.params_in.iter().map(|p| {
                    let mut row = json!({ "key": p.key, "in": p.location_str(), "name": p.name });
                    if let Some(style) = p.style_str() {
                        row["style"] = json!(style);
                    }
                    row
                });
                row["paramsIn"] = Value::Array(placed.collect());
            }
            if let Some(max) = h.limits.max_body_bytes {
                row["maxBodyBytes"] = json!(max);
            }
            if let Some(max) = h.limits.max_answer_bytes {
                row["maxAnswerBytes"] = json!(max);
            }
            row
        })
        .collect();
    row.insert("http".into(), Value::Array(http));
    Value::Object(row)
}

fn tool_surface(surfaces: &Surfaces, transport: Surface) -> Value {
    let listed = surfaces.listed(transport);
    let stamp = match transport {
        Surface::Mcp | Surface::Agent => surfaces.stamp(transport)["digest"].clone(),
        // The CLI has no manifest to stamp: its stamp covers what its rows state.
        _ => json!(digest(&Value::Array(
            listed
                .iter()
                .map(|t| json!({ "name": t.name, "description": t.description, "input": t.input, "output": t.output }))
                .collect()
        ))),
    };
    let rows: Vec<Value> = listed.iter().map(row).collect();
    let mut surface = json!({ "transport": transport.as_str(), "catalog": stamp, "tools": rows });
    // Only in search mode, so that no other snapshot moves.
    let full_stamp = (transport == Surface::Mcp).then(|| surfaces.stamp(transport));
    if let Some(d) = crate::emit::search::discovery(surfaces.get(transport), transport, full_stamp) {
        surface["discovery"] = d;
    }
    surface
}

fn row(t: &Listed) -> Value {
    let mut row = json!({
        "name": t.name,
        "service": t.service,
        "action": t.action,
        "kind": t.kind.as_str(),
        "input": t.input,
        "output": t.output,
        // What the definition costs a model's context, as its budget counts it.
        "bytes": t.bytes,
    });
    // Only where an answer is wrapped, so that no other row moves.
    if let Some(w) = t.wrap {
        row["wrapped"] = json!(w.key());
    }
    // Only where the tool asks its user, so that no other row moves.
    if let Some(d) = &t.input_required {
        row["inputRequired"] = json!(d);
    }
    row
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::tools;

    /// The memoized digests are exactly those of the schemas spelled out in full.
    #[test]
    fn digests_from_memoized_bodies_equal_those_of_schemas_in_full() {
        let mut with_defs = 0;
        for (name, model) in crate::present::tests::models() {
            for svc in &model.services {
                let memo = Memo::default();
                let schemas = svc.operations.iter().flat_map(|o| [&o.params, &o.input, &o.output]).flatten();
                for s in schemas {
                    let full = present::schema(s, svc, INLINE);
                    with_defs += usize::from(full.get("$defs").is_some());
                    let want = crate::canonical::schema_digest(&full);
                    assert_eq!(present::schema_digest(s, svc, INLINE, &memo), want, "{name}");
                }
            }
            let full: Vec<Listed> = tools(&model, Surface::Cli).iter().map(|t| Listed::of(t, Surface::Cli)).collect();
            assert_eq!(Surfaces::new(&model).cli, full, "{name}: the CLI rows");
        }
        assert!(with_defs > 100, "the fixtures exercise `$defs`: {with_defs}");
    }
}
