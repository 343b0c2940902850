//! OpenAPI operations → contract endpoints: the route, `params`, `input`, `output`, declared
//! errors and the HTTP-only kinds, each lowering reported at its source.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value as J, json};

use super::load::{Docs, Loc, Named};
use super::schemas::{At, Schemas, escape};
use super::{Lowerings, Pending, Summary};
use crate::naming;
use crate::parse::node::Node;
use crate::source::Span;

mod kinds;
mod placed;

use kinds::Media;

/// The methods an endpoint can have, as OpenAPI spells them.
pub(super) const METHODS: &[&str] = &["get", "put", "post", "delete", "patch", "head"];
/// Path item keys that are operations the DSL does not serve.
pub(super) const SKIPPED_METHODS: &[&str] = &["options", "trace", "query"];

/// One operation being converted: where it is, and what it has become so far.
struct Op<'a> {
    loc: Loc,
    /// The path item, whose `parameters` the operation shares (its file may be another).
    item: Loc,
    /// The method key, where operation-wide lowerings are reported.
    span: Span,
    /// The path key, where route lowerings are reported.
    path_span: Span,
    /// The endpoint's JSON pointer in the contract (empty until the action is named).
    out: String,
    node: &'a Node,
    method: &'static str,
    path: &'a str,
}

/// Converts every operation under `paths`, in document order.
pub(super) struct Endpoints<'d, 's> {
    pub(super) docs: &'d Docs,
    pub(super) schemas: &'s mut Schemas<'d>,
    actions: BTreeSet<String>,
    routes: BTreeMap<(String, Vec<String>), String>,
    /// The endpoints made, by action, in order.
    pub(super) out: Vec<(String, J)>,
    /// The security schemes the contract declares (an operation's `security` keeps only these).
    pub(super) schemes: Map<String, J>,
}

impl<'d, 's> Endpoints<'d, 's> {
    /// An empty set of endpoints over `docs`, naming types in `schemas`.
    pub(super) fn new(docs: &'d Docs, schemas: &'s mut Schemas<'d>) -> Self {
        let (actions, routes, out, schemes) = (BTreeSet::new(), BTreeMap::new(), Vec::new(), Map::new());
        Endpoints { docs, schemas, actions, routes, out, schemes }
    }

    /// Converts every path item of the entry document.
    pub(super) fn paths(&mut self, lowered: &mut Lowerings, summary: &mut Summary) {
        let docs = self.docs;
        let Some(paths) = docs.docs[0].root.get("paths") else { return };
        let (entries, followed) = docs.named(&Loc { doc: 0, pointer: "/paths".into() }, paths);
        lowered.map_refs(followed, "paths");
        for Named { key: pk, loc: at, node: item } in entries {
            let path = pk.as_str().unwrap_or_default();
            let (at, item) = docs.deref(at, item);
            let shared = item.get("parameters");
            for (mk, op) in item.as_map().unwrap_or_default() {
                let key = mk.as_str().unwrap_or_default();
                let pointer = format!("{}/{}", at.pointer, escape(key));
                if let Some(method) = METHODS.iter().find(|m| **m == key) {
                    // Some descriptions keep each operation in a file of its own, behind a `$ref`.
                    let (loc, op) = docs.deref(Loc { doc: at.doc, pointer }, op);
                    let op = Op {
                        loc,
                        item: at.clone(),
                        span: mk.span,
                        path_span: pk.span,
                        out: String::new(),
                        node: op,
                        method,
                        path,
                    };
                    self.operation(&op, shared, lowered, summary);
                } else if SKIPPED_METHODS.contains(&key) {
                    summary
                        .skip(&pointer, format!("{} operations are answered by the server itself", key.to_uppercase()));
                }
            }
        }
        for (key, reason) in [("webhooks", "webhooks are requests the API sends, not routes it serves")] {
            for (name, _) in docs.docs[0].root.get(key).and_then(Node::as_map).unwrap_or_default() {
                summary.skip(&format!("/{key}/{}", escape(name.as_str().unwrap_or_default())), reason.into());
            }
        }
    }

    fn operation(&mut self, op: &Op<'d>, shared: Option<&'d Node>, lowered: &mut Lowerings, summary: &mut Summary) {
        let before = lowered.count();
        let path = match op.path.split_once('#') {
            Some((path, fragment)) => {
                let why = format!("`#{fragment}` is not part of a URL path and is dropped");
                lowered.warn(op.path_span, &op.loc.pointer, why);
                path
            }
            None => op.path,
        };
        // Azure's generated descriptions pin a query parameter in the path key
        // (`/operations?api-version=2023-05-01`): the route is the path, the pairs constants.
        let (path, constants) = match path.split_once('?') {
            Some((path, query)) => (path, query_constants(query)),
            None => (path, Vec::new()),
        };
        if let Some(why) = unroutable(path) {
            summary.skip(&op.loc.pointer, why);
            return;
        }
        let (route, path_names) = route(path);
        // The HTTP adapter routes a parameter with text around it on its whole segment.
        let shape: Vec<String> = route
            .split('/')
            .map(|s| if s.starts_with(':') || s.contains('{') { ":".into() } else { s.into() })
            .collect();
        let key = (op.method.to_owned(), shape);
        if let Some(first) = self.routes.get(&key) {
            summary
                .skip(&op.loc.pointer, format!("its route is the route of `{first}` (parameters match any segment)"));
            return;
        }
        for seg in op.path.split('/').filter(|s| {
            s.contains('{')
                && part(s).is_none_or(|(p, _, x)| p.is_empty() && x.is_empty())
                && !(s.starts_with('{') && s.ends_with('}'))
        }) {
            lowered.warn(
                op.path_span,
                &op.loc.pointer,
                format!("`{seg}`: a parameter takes its whole segment, text around it included"),
            );
        }
        for (written, ident) in &path_names {
            if written != ident {
                lowered.warn(
                    op.path_span,
                    &op.loc.pointer,
                    format!("path parameter `{{{written}}}` is named `{ident}`"),
                );
            }
        }
        let action = self.action(op);
        let op =
            &Op { loc: op.loc.clone(), item: op.item.clone(), out: format!("/endpoints/{}", escape(&action)), ..*op };
        let mut e = Map::new();
        e.insert("method".into(), J::String(op.method.to_uppercase()));
        e.insert("path".into(), J::String(route));
        e.insert("desc".into(), J::String(desc(op)));
        let params = self.parameters(op, shared);
        self.params_and_query(op, &params, &path_names, &mut e, lowered);
        constant_query(op, &constants, &mut e, lowered);
        self.body(op, &mut e, lowered);
        self.responses(op, &mut e, lowered);
        if let Some(security) = op.node.get("security") {
            let at = format!("{}/security", op.loc.pointer);
            e.insert("security".into(), super::security::requirements(security, &self.schemes, &at, lowered));
        }
        lowered.pending(Pending::ParamNames, op.span, &op.loc.pointer, &op.out);
        for (name, _) in op.node.get("callbacks").and_then(Node::as_map).unwrap_or_default() {
            let at = format!("{}/callbacks/{}", op.loc.pointer, escape(name.as_str().unwrap_or_default()));
            summary.skip(&at, "callbacks are requests the API sends, not routes it serves".into());
        }
        self.routes.insert(key, action.clone());
        summary.imported(&action, lowered.count() > before);
        self.out.push((action, J::Object(e)));
    }

    /// The action: the `operationId` made an identifier, else method and path; unique.
    fn action(&mut self, op: &Op<'_>) -> String {
        let id = op.node.get("operationId").and_then(Node::as_str).and_then(naming::snake_ident);
        let base = id
            .or_else(|| naming::snake_ident(&format!("{} {}", op.method, op.path)))
            .unwrap_or_else(|| op.method.to_owned());
        let mut name = base.clone();
        let mut n = 2;
        while !self.actions.insert(name.clone()) || naming::RESERVED_MODULES.contains(&name.as_str()) {
            name = format!("{base}_{n}");
            n += 1;
        }
        name
    }

    /// The path item's and the operation's parameters, the operation's winning on (name, in).
    fn parameters(&self, op: &Op<'d>, shared: Option<&'d Node>) -> Vec<(Loc, &'d Node)> {
        let mut out: Vec<(Loc, &Node)> = Vec::new();
        for (list, base) in [(shared, &op.item), (op.node.get("parameters"), &op.loc)] {
            for (i, p) in list.and_then(Node::as_seq).unwrap_or_default().iter().enumerate() {
                let loc = Loc { doc: base.doc, pointer: format!("{}/parameters/{i}", base.pointer) };
                let (loc, p) = self.docs.deref(loc, p);
                out.retain(|(_, q)| param_id(q) != param_id(p));
                out.push((loc, p));
            }
        }
        out
    }

    /// Path parameters → `params`; query parameters → `input` where the method reads its input
    /// from the query; query parameters beside a body, headers and cookies → `params` placed by
    /// `paramsIn`; anything else is lowered with a warning.
    fn params_and_query(
        &mut self,
        op: &Op<'_>,
        params: &[(Loc, &Node)],
        path_names: &[(String, String)],
        e: &mut Map<String, J>,
        lowered: &mut Lowerings,
    ) {
        let mut path_props = Map::new();
        let mut placed = placed::Placed::default();
        let mut query = Map::new();
        let mut required = Vec::new();
        // A GET or DELETE with a body reads its input from the body: its query parameters are
        // placed beside it.
        let query_input = matches!(op.method, "get" | "delete" | "head") && !body_on_query_method(op);
        for (loc, p) in params {
            let name = p.get("name").and_then(Node::as_str).unwrap_or_default();
            let place = p.get("in").and_then(Node::as_str).unwrap_or_default();
            match place {
                "path" => {
                    let Some((_, ident)) = path_names.iter().find(|(w, _)| w == name) else {
                        lowered.warn(
                            p.span,
                            &loc.pointer,
                            format!("path parameter `{name}` is not in the path, dropped"),
                        );
                        continue;
                    };
                    let out = format!("{}/params/properties/{}", op.out, escape(ident));
                    lowered.pending(Pending::PathParam, p.span, &loc.pointer, &out);
                    path_props.insert(ident.clone(), self.param_schema(loc, p, out, lowered));
                }
                // An object written `name[property]=value` is a parameter the input cannot hold.
                "query" if query_input && !placed::deep_object(p) && !placed::json_text(p) => {
                    if path_names.iter().any(|(_, ident)| ident == name) {
                        lowered.warn(
                            p.span,
                            &loc.pointer,
                            format!("query parameter `{name}` has a path parameter's name, dropped"),
                        );
                        continue;
                    }
                    let out = format!("{}/input/properties/{}", op.out, escape(name));
                    lowered.pending(Pending::QueryField, p.span, &loc.pointer, &out);
                    let schema = self.param_schema(loc, p, out, lowered);
                    let name_json = J::String(name.to_owned());
                    if p.get("required").and_then(Node::as_bool) == Some(true) && !required.contains(&name_json) {
                        required.push(name_json);
                    }
                    query.insert(name.to_owned(), schema);
                }
                "query" | "header" | "cookie" => {
                    self.place(op, (loc, p), (name, place), path_names, &mut placed, lowered);
                }
                _ => lowered.warn(p.span, &loc.pointer, format!("parameter `{name}` in `{place}` is not read")),
            }
        }
        for (written, ident) in path_names {
            if !path_props.contains_key(ident) {
                let why = format!("path parameter `{written}` is not declared; read as a string");
                lowered.warn(op.path_span, &op.loc.pointer, why);
                path_props.insert(ident.clone(), json!({ "type": "string" }));
            }
        }
        if !path_props.is_empty() || !placed.props.is_empty() {
            let mut names: Vec<J> = path_props.keys().cloned().map(J::String).collect();
            names.extend(placed.required);
            path_props.extend(placed.props);
            let mut params = Map::new();
            params.insert("type".into(), J::String("object".into()));
            if !names.is_empty() {
                params.insert("required".into(), J::Array(names));
            }
            params.insert("properties".into(), J::Object(path_props));
            e.insert("params".into(), J::Object(params));
        }
        if !placed.places.is_empty() {
            e.insert("paramsIn".into(), J::Object(placed.places));
        }
        if !query.is_empty() {
            let mut input = json!({ "type": "object", "properties": query });
            if !required.is_empty() {
                input["required"] = J::Array(required);
            }
            e.insert("input".into(), input);
        }
    }

    /// A parameter's schema, from `schema` or from `content`'s one media type.
    fn param_schema(&mut self, loc: &Loc, p: &Node, out: String, lowered: &mut Lowerings) -> J {
        let content = p.get("content").and_then(Node::as_map).and_then(|c| c.first());
        let (schema, at) = match (p.get("schema"), content.and_then(|(media, m)| Some((media, m.get("schema")?)))) {
            (Some(s), _) => (s, format!("{}/schema", loc.pointer)),
            (None, Some((media, s))) => {
                (s, format!("{}/content/{}/schema", loc.pointer, escape(media.as_str().unwrap_or_default())))
            }
            _ => return json!({ "type": "string" }),
        };
        let mut schema = self.schemas.schema(schema, &At { doc: loc.doc, src: at, out }, lowered);
        if let (Some(d), J::Object(map)) = (p.get("description").and_then(Node::as_str), &mut schema) {
            map.entry("description").or_insert_with(|| J::String(d.to_owned()));
        }
        schema
    }

    /// A JSON request body → `input`.
    fn body(&mut self, op: &Op<'_>, e: &mut Map<String, J>, lowered: &mut Lowerings) {
        let Some(body) = op.node.get("requestBody") else { return };
        let at = Loc { doc: op.loc.doc, pointer: format!("{}/requestBody", op.loc.pointer) };
        let (at, body) = self.docs.deref(at, body);
        if !matches!(op.method, "post" | "put" | "patch") && !body_on_query_method(op) {
            lowered.warn(body.span, &at.pointer, format!("a request body on {} is not read", op.method.to_uppercase()));
            return;
        }
        let content = body.get("content").and_then(Node::as_map).unwrap_or_default();
        let find = |kind| content.iter().find(|(k, _)| k.as_str().map(kinds::media) == Some(kind));
        // `*/*` or `application/*` with a schema: the server takes any media type, JSON among
        // them, and says what it reads (Kubernetes writes every create and replace so).
        let wildcard = || {
            content.iter().find(|(k, m)| {
                matches!(k.as_str().map(crate::check::kinds::media_essence).as_deref(), Some("*/*" | "application/*"))
                    && m.get("schema").is_some()
            })
        };
        let Some((media, m)) = find(Media::Json).or_else(wildcard).or_else(|| find(Media::Form)) else {
            if let Some((media, m)) = find(Media::Multipart) {
                self.multipart(&op.out, &at, media.as_str().unwrap_or_default(), m, e, lowered);
            } else if let Some((media, _)) = content.first() {
                let media = media.as_str().unwrap_or_default();
                let why = format!("a `{media}` request body is not read: only JSON, form and multipart bodies are");
                lowered.warn(body.span, &at.pointer, why);
            }
            return;
        };
        let pointer = format!("{}/content/{}/schema", at.pointer, escape(media.as_str().unwrap_or_default()));
        let place = At { doc: at.doc, src: pointer, out: format!("{}/input", op.out) };
        let schema = m.get("schema").map_or_else(|| json!({}), |s| self.schemas.schema(s, &place, lowered));
        if body.get("required").and_then(Node::as_bool) != Some(true) {
            // `inputOptional` where an absent body is an input the schema takes: known once the
            // types are converted.
            lowered.pending(Pending::OptionalBody, body.span, &at.pointer, &op.out);
        }
        let form = kinds::media(media.as_str().unwrap_or_default()) == Media::Form;
        if form {
            // Its fields must be ones text carries: checked once the types are converted.
            lowered.pending(Pending::FormInput, body.span, &at.pointer, &op.out);
        } else if kinds::media(media.as_str().unwrap_or_default()) != Media::Json {
            let why = format!("a `{}` request body is read as JSON", media.as_str().unwrap_or_default());
            lowered.warn(body.span, &at.pointer, why);
        }
        e.insert("input".into(), schema);
        // `application/merge-patch+json` and the like: the body is JSON, its media type is what
        // clients are told to send.
        use crate::check::kinds::{is_json_media_type, media_essence};
        let media = media.as_str().unwrap_or_default();
        if form || (media_essence(media) != "application/json" && is_json_media_type(media)) {
            e.insert("inputContentType".into(), J::String(media.to_owned()));
        } else if body_on_query_method(op) {
            // On GET and DELETE the media type is what says the input is a body.
            let json = if is_json_media_type(media) { media } else { "application/json" };
            e.insert("inputContentType".into(), J::String(json.to_owned()));
        }
    }

    /// The success response → `output` (and `http`); error statuses → `errors`.
    fn responses(&mut self, op: &Op<'_>, e: &mut Map<String, J>, lowered: &mut Lowerings) {
        let at = format!("{}/responses", op.loc.pointer);
        let responses = op.node.get("responses").and_then(Node::as_map).unwrap_or_default();
        let mut success: Vec<(u16, Loc, &Node)> = Vec::new();
        let mut errors = BTreeSet::new();
        let mut answers: Map<String, J> = Map::new();
        for (k, r) in responses {
            let status = k.as_str().unwrap_or_default();
            let Some(code) = status_code(status) else { continue };
            let loc = Loc { doc: op.loc.doc, pointer: format!("{at}/{}", escape(status)) };
            let (loc, r) = self.docs.deref(loc, r);
            if (200..300).contains(&code) {
                success.push((code, loc, r));
            } else if code < 400 {
                let why = format!("status {status} is neither a success nor an error the contract declares; not read");
                lowered.warn(k.span, &loc.pointer, why);
            } else if let Some(answer) = self.error_answer(op, code, &loc, r, lowered) {
                // A body of the API's own, or a status the registry has no code for: the answer
                // as documented.
                answers.insert(code.to_string(), answer);
            } else if let Some(c) = stitchgen_runtime::ErrorCode::ALL.iter().find(|c| c.status() == code) {
                // The first registry code with the status: BAD_REQUEST, not VALIDATION_ERROR, for 400.
                errors.insert(c.name());
            } else {
                answers.insert(code.to_string(), description(r).map_or_else(|| json!({}), |d| json!({ "desc": d })));
            }
        }
        success.sort_by_key(|(code, _, _)| *code);
        if let Some((code, loc, r)) = success.first() {
            self.success(op, *code, loc, r, e, lowered);
            self.other_successes(op, &success[1..], e, lowered);
        } else if let Some(r) = op.node.get("responses").and_then(|rs| rs.get("default")) {
            let loc = Loc { doc: op.loc.doc, pointer: format!("{at}/default") };
            let (loc, r) = self.docs.deref(loc, r);
            lowered.warn(r.span, &loc.pointer, "no success response: `default` is read as the 200 answer".into());
            self.success(op, 200, &loc, r, e, lowered);
        }
        if !errors.is_empty() {
            e.insert("errors".into(), J::Array(errors.into_iter().map(|c| J::String(c.into())).collect()));
        }
        if !answers.is_empty() {
            let http = e.entry("http").or_insert_with(|| J::Object(Map::new()));
            if let Some(http) = http.as_object_mut() {
                http.insert("errors".into(), J::Object(answers));
            }
        }
    }

    /// The successes beside the lowest, the main answer → `http.successes`, each with its JSON
    /// body. Beside a streamed main answer they are not read.
    fn other_successes(
        &mut self,
        op: &Op<'_>,
        others: &[(u16, Loc, &Node)],
        e: &mut Map<String, J>,
        lowered: &mut Lowerings,
    ) {
        let Some((code, _, _)) = others.first() else { return };
        if e.contains_key("stream") {
            let at = format!("{}/responses", op.loc.pointer);
            let why = format!("several success responses; the lowest is the answer, streamed, and {code} is not read");
            return lowered.warn(op.span, &at, why);
        }
        // A raw answer's handler sets its headers itself.
        let raw = e.contains_key("rawResponse");
        let (mut successes, mut headers) = (Map::new(), Vec::new());
        for (code, loc, r) in others {
            successes.insert(code.to_string(), self.other_success(op, *code, loc, r, lowered));
            headers.push(self.headers(loc, r, lowered));
        }
        let http = e.entry("http").or_insert_with(|| J::Object(Map::new()));
        if let Some(http) = http.as_object_mut() {
            http.insert("successes".into(), J::Object(successes));
            if !raw {
                merge_headers(http, &headers);
            }
        }
    }

    /// A success beside the main answer → `{desc, body}`, the body where it is JSON.
    fn other_success(&mut self, op: &Op<'_>, code: u16, loc: &Loc, r: &Node, lowered: &mut Lowerings) -> J {
        let content = r.get("content").and_then(Node::as_map).unwrap_or_default();
        let mut answer = Map::new();
        if let Some(d) = description(r) {
            answer.insert("desc".into(), J::String(d));
        }
        match content.iter().find(|(k, _)| k.as_str().map(kinds::media) == Some(Media::Json)) {
            Some(_) if matches!(code, 204 | 205) => {
                lowered.warn(r.span, &loc.pointer, format!("a {code} response has no body; its schema is dropped"));
            }
            Some((media, m)) => {
                not_read_beside_json(content, loc, lowered);
                let src = format!("{}/content/{}/schema", loc.pointer, escape(media.as_str().unwrap_or_default()));
                let place = At { doc: loc.doc, src, out: format!("{}/http/successes/{code}/body", op.out) };
                let body = m.get("schema").map_or_else(|| json!({}), |s| self.schemas.schema(s, &place, lowered));
                answer.insert("body".into(), body);
            }
            None => {
                if let Some((media, _)) = content.first() {
                    let (span, media) = (media.span, media.as_str().unwrap_or_default());
                    let why = format!(
                        "the `{media}` body of the {code} answer is not read: beside the main answer, a body is JSON"
                    );
                    lowered.warn(span, &loc.pointer, why);
                }
            }
        }
        J::Object(answer)
    }

    /// An error response with a JSON body → an error answer with that body (`http.errors`).
    /// `None`: no JSON body, which the registry's envelope may stand for.
    fn error_answer(&mut self, op: &Op<'_>, code: u16, loc: &Loc, r: &Node, lowered: &mut Lowerings) -> Option<J> {
        let content = r.get("content").and_then(Node::as_map).unwrap_or_default();
        let (media, m) = content.iter().find(|(k, _)| k.as_str().map(kinds::media) == Some(Media::Json))?;
        not_read_beside_json(content, loc, lowered);
        let src = format!("{}/content/{}/schema", loc.pointer, escape(media.as_str().unwrap_or_default()));
        let place = At { doc: loc.doc, src, out: format!("{}/http/errors/{code}/body", op.out) };
        let body = m.get("schema").map_or_else(|| json!({}), |s| self.schemas.schema(s, &place, lowered));
        let mut answer = Map::new();
        if let Some(d) = description(r) {
            answer.insert("desc".into(), J::String(d));
        }
        answer.insert("body".into(), body);
        Some(J::Object(answer))
    }

    /// One success response: typed JSON (with `http` for a status other than the one implied,
    /// and for headers), a stream, or raw bytes; HEAD answers are always raw.
    fn success(
        &mut self,
        op: &Op<'_>,
        code: u16,
        loc: &Loc,
        r: &Node,
        e: &mut Map<String, J>,
        lowered: &mut Lowerings,
    ) {
        let content = r.get("content").and_then(Node::as_map).unwrap_or_default();
        let find = |kind| content.iter().find(|(k, _)| k.as_str().map(kinds::media) == Some(kind));
        let headers = self.headers(loc, r, lowered);
        let (meta_lost, out) = (code != 200 || !headers.is_empty(), format!("{}/output", op.out));
        let schema_at =
            |media: &Node| format!("{}/content/{}/schema", loc.pointer, escape(media.as_str().unwrap_or_default()));
        if op.method == "head" {
            e.insert("rawResponse".into(), J::Bool(true));
            if meta_lost {
                lowered.warn(
                    r.span,
                    &loc.pointer,
                    "a HEAD answer is raw: its handler sets the status and headers".into(),
                );
            }
            return;
        }
        if let Some((media, m)) = find(Media::Json) {
            not_read_beside_json(content, loc, lowered);
            let has_output = code != 204 && code != 205;
            if has_output {
                let place = At { doc: loc.doc, src: schema_at(media), out };
                let schema = m.get("schema").map_or_else(|| json!({}), |s| self.schemas.schema(s, &place, lowered));
                e.insert("output".into(), schema);
            } else {
                lowered.warn(r.span, &loc.pointer, format!("a {code} response has no body; its schema is dropped"));
            }
            return http_group(code, has_output, headers, e);
        }
        let stream = find(Media::Sse).map(|m| (m, "sse")).or_else(|| find(Media::Ndjson).map(|m| (m, "ndjson")));
        if let Some(((media, m), format)) = stream {
            let place = At { doc: loc.doc, src: schema_at(media), out: format!("{}/stream/item", op.out) };
            let item = m.get("schema").map_or_else(|| json!({}), |s| self.schemas.schema(s, &place, lowered));
            e.insert("stream".into(), json!({ "item": item, "format": format }));
            let why = format!(
                "a `{}` answer is streamed as `{format}` frames, each item in the runtime's envelope",
                media.as_str().unwrap_or_default()
            );
            lowered.warn(media.span, &loc.pointer, why);
        } else if let Some((media, _)) = content.first() {
            let media = media.as_str().unwrap_or_default();
            e.insert("rawResponse".into(), J::Bool(true));
            if crate::check::kinds::is_media_type(media, false) {
                e.insert("contentType".into(), J::String(media.to_owned()));
            }
        } else {
            return http_group(code, false, headers, e);
        }
        if meta_lost {
            lowered.warn(
                r.span,
                &loc.pointer,
                format!("status {code} and the headers of a raw or streamed answer are its handler's to set"),
            );
        }
    }

    /// A response's headers: name → `{desc, required}`.
    fn headers(&self, loc: &Loc, r: &Node, lowered: &mut Lowerings) -> Map<String, J> {
        let mut out = Map::new();
        for (k, h) in r.get("headers").and_then(Node::as_map).unwrap_or_default() {
            let name = k.as_str().unwrap_or_default();
            if !crate::check::kinds::is_header_name(name) {
                lowered.warn(k.span, &loc.pointer, format!("`{name}` is not a header name, dropped"));
                continue;
            }
            let hloc = Loc { doc: loc.doc, pointer: format!("{}/headers/{}", loc.pointer, escape(name)) };
            let (_, h) = self.docs.deref(hloc, h);
            let mut header = Map::new();
            if let Some(d) = h.get("description").and_then(Node::as_str).filter(|d| !d.trim().is_empty()) {
                header.insert("desc".into(), J::String(d.trim().to_owned()));
            }
            if h.get("required").and_then(Node::as_bool) == Some(true) {
                header.insert("required".into(), J::Bool(true));
            }
            out.insert(name.to_owned(), J::Object(header));
        }
        out
    }
}

/// The `http` group where the answer's status is not the one implied (200 with output, 204
/// without) or it documents headers. The endpoint stays a tool: a documented status and headers
/// are facts about the HTTP exchange, not an answer its handler builds.
fn http_group(code: u16, has_output: bool, headers: Map<String, J>, e: &mut Map<String, J>) {
    let implied = stitchgen_runtime::implied_status(has_output);
    let mut http = Map::new();
    if code != implied {
        http.insert("status".into(), json!(code));
    }
    if !headers.is_empty() {
        http.insert("headers".into(), J::Object(headers));
    }
    if !http.is_empty() {
        e.insert("http".into(), J::Object(http));
    }
}

/// `http.headers` are set on whichever success the handler answers: the main answer's, and those
/// of the other successes (`others`), each once (names compared without case). A header is
/// required only where every success documents it as required.
fn merge_headers(http: &mut Map<String, J>, others: &[Map<String, J>]) {
    let mut all = match http.remove("headers") {
        Some(J::Object(main)) => main,
        _ => Map::new(),
    };
    let has = |m: &Map<String, J>, name: &str| m.keys().any(|k| k.eq_ignore_ascii_case(name));
    let required = |m: &Map<String, J>, name: &str| {
        m.iter().any(|(k, h)| k.eq_ignore_ascii_case(name) && h.get("required") == Some(&J::Bool(true)))
    };
    for (name, h) in all.iter_mut() {
        if !others.iter().all(|o| required(o, name))
            && let Some(h) = h.as_object_mut()
        {
            h.remove("required");
        }
    }
    for (name, h) in others.iter().flatten() {
        if !has(&all, name) {
            let mut h = h.clone();
            h.as_object_mut().map(|m| m.remove("required"));
            all.insert(name.clone(), h);
        }
    }
    if !all.is_empty() {
        http.insert("headers".into(), J::Object(all));
    }
}

/// Each media type of an answer beside its JSON one: not read (warned).
fn not_read_beside_json(content: &[(Node, Node)], loc: &Loc, lowered: &mut Lowerings) {
    for (other, _) in content.iter().filter(|(k, _)| k.as_str().map(kinds::media) != Some(Media::Json)) {
        let why = format!("the `{}` alternative is not read: the JSON answer is", other.as_str().unwrap_or_default());
        lowered.warn(other.span, &loc.pointer, why);
    }
}

/// A response's `description`, where it says something.
fn description(r: &Node) -> Option<String> {
    r.get("description").and_then(Node::as_str).map(str::trim).filter(|d| !d.is_empty()).map(str::to_owned)
}

/// What makes two parameters the same one: name and place.
/// The `name=value` pairs of a query string, percent-decoded (`+` is a space, as in a form).
fn query_constants(query: &str) -> Vec<(String, String)> {
    let decode = |s: &str| percent_encoding::percent_decode_str(&s.replace('+', " ")).decode_utf8_lossy().into_owned();
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(name), decode(value))
        })
        .collect()
}

/// The query string of a path key becomes required constant query fields of `input` (a written
/// parameter of the same name gives way: the path key pins it). Beside a request body, where
/// the contract reads no query parameter, it is dropped.
fn constant_query(op: &Op<'_>, constants: &[(String, String)], e: &mut Map<String, J>, lowered: &mut Lowerings) {
    for (name, value) in constants {
        if !matches!(op.method, "get" | "delete" | "head") || body_on_query_method(op) {
            placed::constant(name, value, e);
            let why = format!("the query string `{name}={value}` in the path is read as a required constant parameter");
            lowered.warn(op.path_span, &op.loc.pointer, why);
            continue;
        }
        let input = e.entry("input").or_insert_with(|| json!({ "type": "object", "properties": {} }));
        input["properties"][name.as_str()] = json!({ "type": "string", "const": value });
        let required = input.as_object_mut().map(|i| i.entry("required").or_insert_with(|| json!([])));
        if let Some(J::Array(required)) = required
            && !required.iter().any(|r| r == name.as_str())
        {
            required.push(J::String(name.clone()));
        }
        let why = format!("the query string `{name}={value}` in the path is read as a required constant query field");
        lowered.warn(op.path_span, &op.loc.pointer, why);
    }
}

/// Whether `op` is a GET or DELETE with a request body (Kubernetes' deletes take
/// `DeleteOptions`, some searches a JSON filter): its input is the body.
fn body_on_query_method(op: &Op<'_>) -> bool {
    matches!(op.method, "get" | "delete") && op.node.get("requestBody").is_some()
}

fn param_id(p: &Node) -> (Option<&str>, Option<&str>) {
    (p.get("name").and_then(Node::as_str), p.get("in").and_then(Node::as_str))
}

/// A segment that is one `{parameter}` with text a route may hold around it: the text before,
/// the parameter's written name, the text after.
fn part(seg: &str) -> Option<(&str, &str, &str)> {
    let (prefix, rest) = seg.split_once('{')?;
    let (written, suffix) = rest.split_once('}')?;
    let literal = |t: &str| t.chars().all(crate::check::http::is_pchar);
    (literal(prefix) && literal(suffix) && !written.is_empty()).then_some((prefix, written, suffix))
}

/// The contract route of an OpenAPI path, and each parameter's written name with the
/// identifier it became. A parameter with text around it in its segment keeps the text
/// (`{Sid}.json`); a segment of two parameters is taken whole by the first; a trailing `/` stays.
fn route(path: &str) -> (String, Vec<(String, String)>) {
    let mut names = Vec::new();
    let mut segs = Vec::new();
    for seg in path.trim_end_matches('/').split('/').skip(1) {
        if let Some((prefix, written, suffix)) = part(seg).filter(|(p, _, x)| !p.is_empty() || !x.is_empty()) {
            let ident = param_ident(written, &names);
            segs.push(format!("{prefix}{{{ident}}}{suffix}"));
            names.push((written.to_owned(), ident));
            continue;
        }
        match (seg.find('{'), seg.find('}')) {
            (Some(open), Some(close)) if open < close => {
                let written = &seg[open + 1..close];
                let ident = param_ident(written, &names);
                segs.push(format!(":{ident}"));
                names.push((written.to_owned(), ident));
            }
            _ => segs.push(seg.to_owned()),
        }
    }
    // A trailing `/` is a route of its own (`/api/v1/` is not `/api/v1`).
    let trailing = if path.len() > 1 && path.ends_with('/') { "/" } else { "" };
    (format!("/{}{trailing}", segs.join("/")), names)
}

/// Why a path cannot be a route, if it cannot: a literal segment must be URL path text that
/// does not read as a parameter or wildcard.
fn unroutable(path: &str) -> Option<String> {
    if !path.starts_with('/') {
        return Some(format!("the path `{path}` does not start with `/`"));
    }
    let trimmed = path.trim_end_matches('/');
    for seg in trimmed.split('/').skip(1) {
        let literal = seg.split(['{', '}']).step_by(2).collect::<String>();
        if seg.is_empty() {
            return Some(format!("the path `{path}` has an empty segment"));
        }
        if let Some(c) = literal.chars().find(|c| !crate::check::http::is_pchar(*c)) {
            return Some(format!("the path segment `{seg}` holds `{c}`, which a route cannot match"));
        }
        if !seg.starts_with('{') && (seg.starts_with(':') || seg.starts_with('*')) {
            return Some(format!("the path segment `{seg}` would read as a parameter"));
        }
    }
    None
}

/// A path parameter name the DSL accepts (`^[A-Za-z_][A-Za-z0-9_]*$`), unique in its route.
fn param_ident(written: &str, taken: &[(String, String)]) -> String {
    let mut ident: String = written.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    if !ident.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        ident.insert(0, 'p');
    }
    let base = ident.clone();
    let mut n = 2;
    while taken.iter().any(|(_, i)| *i == ident) {
        ident = format!("{base}_{n}");
        n += 1;
    }
    ident
}

/// The endpoint's `desc`: the summary, else the description, else method and path.
fn desc(op: &Op<'_>) -> String {
    let text = |k| op.node.get(k).and_then(Node::as_str).map(str::trim).filter(|s| !s.is_empty());
    text("summary")
        .or_else(|| text("description"))
        .map_or_else(|| format!("{} {}", op.method.to_uppercase(), op.path), str::to_owned)
}

/// A status key as a number: `201`, or `2XX` read as its first status.
fn status_code(status: &str) -> Option<u16> {
    match status.as_bytes() {
        [d, b'X' | b'x', b'X' | b'x'] if d.is_ascii_digit() => Some(u16::from(d - b'0') * 100),
        _ => status.parse().ok(),
    }
}
