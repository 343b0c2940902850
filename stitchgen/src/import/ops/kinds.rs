//! The HTTP-only kinds an operation can become: multipart uploads, streamed and raw answers.

use serde_json::{Map, Value as J, json};

use super::Endpoints;
use crate::import::Lowerings;
use crate::import::load::{Loc, bare_ref};
use crate::import::schemas::{At, escape};
use crate::parse::node::Node;

/// What a media type is to the contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Media {
    /// `application/json`, `…+json`: typed JSON.
    Json,
    /// `text/event-stream`: a stream of server-sent events.
    Sse,
    /// Newline-delimited JSON (`application/x-ndjson`, `application/jsonl`, …).
    Ndjson,
    /// `multipart/form-data`: an upload.
    Multipart,
    /// `application/x-www-form-urlencoded`: a form of named text fields.
    Form,
    /// Anything else: bytes the handler owns.
    Other,
}

/// The kind of a media type, parameters ignored.
pub(super) fn media(media: &str) -> Media {
    match crate::check::kinds::media_essence(media).as_str() {
        "application/json" => Media::Json,
        "text/event-stream" => Media::Sse,
        "application/x-ndjson"
        | "application/ndjson"
        | "application/jsonl"
        | "application/x-jsonlines"
        | "application/jsonlines"
        | "application/json-seq" => Media::Ndjson,
        "multipart/form-data" => Media::Multipart,
        "application/x-www-form-urlencoded" => Media::Form,
        e if e.starts_with("application/") && e.ends_with("+json") => Media::Json,
        _ => Media::Other,
    }
}

impl Endpoints<'_, '_> {
    /// A `multipart/form-data` body: file fields become `multipart.files`, the other fields
    /// `input`. A form without a file field is not read (a warning).
    pub(super) fn multipart(
        &mut self,
        out: &str,
        at: &Loc,
        media: &str,
        m: &Node,
        e: &mut Map<String, J>,
        lowered: &mut Lowerings,
    ) {
        let src = format!("{}/content/{}/schema", at.pointer, escape(media));
        let Some(schema) = m.get("schema") else {
            lowered.warn(m.span, &at.pointer, "a multipart body without a schema is not read".into());
            return;
        };
        let (sloc, schema) = self.docs.deref(Loc { doc: at.doc, pointer: src }, schema);
        let required: Vec<&str> =
            schema.get("required").and_then(Node::as_seq).unwrap_or_default().iter().filter_map(Node::as_str).collect();
        let mut files = Map::new();
        let mut fields = Map::new();
        let mut field_required = Vec::new();
        for (k, prop) in schema.get("properties").and_then(Node::as_map).unwrap_or_default() {
            let name = k.as_str().unwrap_or_default();
            let ploc = Loc { doc: sloc.doc, pointer: format!("{}/properties/{}", sloc.pointer, escape(name)) };
            let (ploc, resolved) = self.docs.deref(ploc, prop);
            let is_required = required.contains(&name);
            if let Some((multiple, or_text)) = file_field(self, &ploc, resolved) {
                if or_text {
                    let why = format!("form field `{name}` is a file or text: read as a file, the text not read");
                    lowered.warn(prop.span, &ploc.pointer, why);
                }
                let mut field = json!({ "required": is_required });
                if multiple {
                    field["multiple"] = J::Bool(true);
                }
                files.insert(name.to_owned(), field);
                continue;
            }
            let place = At {
                doc: ploc.doc,
                src: ploc.pointer.clone(),
                out: format!("{out}/input/properties/{}", escape(name)),
            };
            fields.insert(name.to_owned(), self.schemas.schema(resolved, &place, lowered));
            if is_required {
                field_required.push(J::String(name.to_owned()));
            }
        }
        if files.is_empty() {
            lowered.warn(m.span, &sloc.pointer, "a multipart form without a file field is not read".into());
            return;
        }
        e.insert("multipart".into(), json!({ "files": files }));
        if !fields.is_empty() {
            let mut input = json!({ "type": "object", "properties": fields });
            if !field_required.is_empty() {
                input["required"] = J::Array(field_required);
            }
            e.insert("input".into(), input);
        }
    }
}

/// Whether a form field is a file (`format: binary`, `contentEncoding: binary` or a
/// `contentMediaType`), whether it holds several (an array of files), and whether it is a
/// union of a file and text (Together's upload or URL), read as the file.
fn file_field(eps: &Endpoints<'_, '_>, loc: &Loc, schema: &Node) -> Option<(bool, bool)> {
    let follow = |n: &'_ Node| -> Node {
        match bare_ref(n) {
            Some(r) => eps.docs.follow(loc.doc, r).and_then(|l| eps.docs.node(&l)).unwrap_or(n).clone(),
            None => n.clone(),
        }
    };
    let is_file = |s: &Node| {
        s.get("format").and_then(Node::as_str) == Some("binary")
            || s.get("contentEncoding").and_then(Node::as_str) == Some("binary")
            || s.get("contentMediaType").is_some()
    };
    if is_file(schema) {
        return Some((false, false));
    }
    let union = schema.get("oneOf").or_else(|| schema.get("anyOf")).and_then(Node::as_seq).unwrap_or_default();
    if union.iter().any(|b| is_file(&follow(b))) {
        return Some((false, true));
    }
    is_file(&follow(schema.get("items")?)).then_some((true, false))
}
