//! HTTP-only endpoint kinds (DESIGN §3, the table) and exposure lists.

use super::http_only_kinds;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::ast::{Completion, Endpoint, Framing, Method, Sp, StreamFormat, Surface};
use crate::source::Span;

/// Every rule of the HTTP-only kinds and of `expose` for one endpoint.
pub(super) fn check(e: &Endpoint, diags: &mut Diagnostics) {
    if let Some(expose) = &e.expose {
        exposure_list(expose, "expose", diags);
    }
    let kinds = http_only_kinds(e);
    if let Some((kind, at)) = kinds.first() {
        for s in e.expose.iter().flat_map(|l| &l.value).filter(|s| s.value.is_tool()) {
            diags.push(
                Diagnostic::new(
                    Code::HttpOnlyExposed,
                    s.span,
                    format!("{kind} endpoint `{}` exposed on {}", e.action.value, s.value.as_str()),
                )
                .label("not a tool surface for this kind")
                .secondary(*at, format!("`{kind}` makes the endpoint HTTP-only"))
                .help("HTTP-only kinds are never tools: use `expose: [HTTP]` or leave `expose` out"),
            );
        }
        if let Some(tool) = &e.tool {
            diags.push(
                Diagnostic::new(
                    Code::ToolGroupNotAllowed,
                    tool.span,
                    format!("`tool` group on {kind} endpoint `{}`", e.action.value),
                )
                .label("tool options are never read here")
                .secondary(*at, format!("`{kind}` makes the endpoint HTTP-only"))
                .help("remove the `tool` group"),
            );
        }
    }
    let response_kinds: Vec<_> =
        kinds.iter().filter(|(k, _)| matches!(*k, "rawResponse" | "responseMeta" | "stream")).collect();
    if let [(first, first_at), rest @ ..] = response_kinds.as_slice() {
        for (kind, at) in rest {
            diags.push(
                Diagnostic::new(Code::ConflictingKinds, *at, format!("`{kind}` and `{first}` on one endpoint"))
                    .label("a second response kind")
                    .secondary(*first_at, "the first")
                    .help("an endpoint answers one way: raw bytes, typed data with a status, or a stream"),
            );
        }
    }
    raw_response(e, diags);
    raw_body(e, diags);
    input_content_type(e, diags);
    multipart(e, diags);
    response_facts(e, diags);
    stream(e, diags);
}

/// An `expose` or `transports` list: not empty, no surface twice.
pub(super) fn exposure_list(list: &Sp<Vec<Sp<Surface>>>, what: &str, diags: &mut Diagnostics) {
    if list.value.is_empty() {
        diags.push(
            Diagnostic::new(Code::InvalidExposure, list.span, format!("`{what}` is empty")).label("no surface").help(
                if what == "expose" {
                    "list at least one surface, such as `[HTTP]`"
                } else {
                    "list at least one of `MCP`, `AGENT`, `CLI`"
                },
            ),
        );
    }
    for (i, s) in list.value.iter().enumerate() {
        if let Some(first) = list.value[..i].iter().find(|p| p.value == s.value) {
            diags.push(
                Diagnostic::new(Code::InvalidExposure, s.span, format!("`{}` is listed twice", s.value.as_str()))
                    .label("listed again")
                    .secondary(first.span, "first listed here")
                    .help("remove the repeat"),
            );
        }
    }
}

fn method_of(e: &Endpoint) -> Option<&Sp<Method>> {
    e.method.as_ref()
}

fn raw_response(e: &Endpoint, diags: &mut Diagnostics) {
    let raw = e.raw_response.as_ref().filter(|r| r.value);
    if let (Some(r), Some(out)) = (raw, &e.output) {
        diags.push(
            Diagnostic::new(Code::InvalidRawResponse, out.key(), "`output` on a raw-response endpoint")
                .label("the handler writes the response bytes itself")
                .secondary(r.span, "raw response declared here")
                .help("remove `output`, or `rawResponse` to answer typed JSON"),
        );
    }
    if let Some(ct) = &e.content_type {
        if raw.is_none() {
            diags.push(
                Diagnostic::new(Code::InvalidRawResponse, ct.span, "`contentType` without `rawResponse: true`")
                    .label("only a raw response declares its content type")
                    .help("add `rawResponse: true`, or remove `contentType`"),
            );
        } else if !is_media_type(&ct.value, false) {
            diags.push(
                Diagnostic::new(Code::InvalidRawResponse, ct.span, format!("`{}` is not a media type", ct.value))
                    .label("expected `type/subtype`")
                    .help("such as `text/csv` or `application/pdf`"),
            );
        }
    }
    if let Some(m) = method_of(e).filter(|m| m.value == Method::Head)
        && raw.is_none()
    {
        diags.push(
            Diagnostic::new(
                Code::HeadWithoutRawResponse,
                m.span,
                format!("HEAD endpoint `{}` without `rawResponse: true`", e.action.value),
            )
            .label("HEAD answers headers only")
            .help("add `rawResponse: true` so the handler sets the headers"),
        );
    }
}

fn raw_body(e: &Endpoint, diags: &mut Diagnostics) {
    if let Some(r) = e.raw_body.as_ref().filter(|r| r.value) {
        json_body(e, r.span, "rawBody", Code::InvalidRawBody, diags);
    }
}

/// A `…+json` body is JSON under another name: the body is read as JSON either way, and the
/// media type is what OpenAPI tells clients to send.
fn input_content_type(e: &Endpoint, diags: &mut Diagnostics) {
    let Some(ct) = &e.input_content_type else { return };
    let code = Code::InvalidInputContentType;
    json_body(e, ct.span, "inputContentType", code, diags);
    if !is_json_media_type(&ct.value) && !is_form_media_type(&ct.value) {
        diags.push(
            Diagnostic::new(code, ct.span, format!("`{}` is not a JSON or form media type", ct.value))
                .label("expected `application/json`, a `…+json` type, or `application/x-www-form-urlencoded`")
                .help("such as `application/merge-patch+json`; other bodies are `multipart` uploads"),
        );
    }
}

/// `application/x-www-form-urlencoded`, parameters allowed: a body of named text fields.
pub(crate) fn is_form_media_type(s: &str) -> bool {
    is_media_type(s, false) && media_essence(s) == "application/x-www-form-urlencoded"
}

/// `application/json`, or a structured-syntax `type/…+json` (RFC 6839), parameters allowed.
pub(crate) fn is_json_media_type(s: &str) -> bool {
    let essence = media_essence(s);
    is_media_type(s, false) && (essence == "application/json" || essence.ends_with("+json"))
}

/// A media type without its parameters, lowercased: `Application/JSON; charset=utf-8` is
/// `application/json`.
pub(crate) fn media_essence(s: &str) -> String {
    s.split(';').next().unwrap_or_default().trim().to_ascii_lowercase()
}

/// Whether `e` reads a request body: POST, PUT and PATCH do; GET and DELETE when
/// `inputContentType` says their input is a body (as some APIs' searches and deletes take one).
pub(crate) fn reads_body(e: &Endpoint) -> bool {
    match method_of(e).map(|m| m.value) {
        Some(m) if m.has_body() => true,
        Some(Method::Get | Method::Delete) => e.input_content_type.is_some(),
        _ => false,
    }
}

/// What reads a JSON request body needs: a method with a body, `input`, and no `multipart`.
/// `inputContentType` gives GET and DELETE a body; `rawBody` does not.
fn json_body(e: &Endpoint, span: Span, what: &str, code: Code, diags: &mut Diagnostics) {
    let allowed = |m: Method| m.has_body() || (what == "inputContentType" && matches!(m, Method::Get | Method::Delete));
    if let Some(m) = method_of(e).filter(|m| !allowed(m.value)) {
        diags.push(
            Diagnostic::new(code, span, format!("`{what}` on a {} endpoint", m.value.as_str()))
                .label("no request body to read")
                .secondary(m.span, "method")
                .help("use POST, PUT or PATCH"),
        );
    }
    if e.input.is_none() {
        let label = if what == "rawBody" { "the raw text comes with the parsed input" } else { "no JSON body is read" };
        diags.push(
            Diagnostic::new(code, span, format!("`{what}` without `input`"))
                .label(label)
                .help("declare the body's schema as `input`"),
        );
    }
    if let Some(m) = &e.multipart {
        diags.push(
            Diagnostic::new(code, span, format!("`{what}` with `multipart`"))
                .label("a multipart body is not JSON text")
                .secondary(m.span, "multipart declared here")
                .help("remove one of them"),
        );
    }
}

fn positive(v: Option<&Sp<u64>>, what: &str, code: Code, diags: &mut Diagnostics) {
    if let Some(v) = v.filter(|v| v.value == 0) {
        diags.push(
            Diagnostic::new(code, v.span, format!("`{what}` is 0"))
                .label("must be positive")
                .help(format!("remove `{what}` or give it a positive value")),
        );
    }
}

fn multipart(e: &Endpoint, diags: &mut Diagnostics) {
    let Some(mp) = &e.multipart else { return };
    let bad = |span: Span, msg: String| Diagnostic::new(Code::InvalidMultipart, span, msg);
    if let Some(m) = method_of(e).filter(|m| !m.value.has_body()) {
        diags.push(
            bad(mp.span, format!("multipart upload on a {} endpoint", m.value.as_str()))
                .label("no request body")
                .secondary(m.span, "method")
                .help("use POST, PUT or PATCH"),
        );
    }
    let m = &mp.value;
    positive(m.max_request_bytes.as_ref(), "maxRequestBytes", Code::InvalidMultipart, diags);
    positive(m.max_field_bytes.as_ref(), "maxFieldBytes", Code::InvalidMultipart, diags);
    let Some(files) = &m.files else { return };
    if files.value.0.is_empty() {
        diags.push(
            bad(files.span, "multipart upload without a file field".into())
                .label("no file field")
                .help("declare at least one field under `files`"),
        );
    }
    for (name, field) in files.value.iter() {
        let f = &field.value;
        positive(f.max_bytes.as_ref(), "maxBytes", Code::InvalidMultipart, diags);
        positive(f.max_files.as_ref(), "maxFiles", Code::InvalidMultipart, diags);
        if let Some(mf) = &f.max_files
            && !f.multiple.as_ref().is_some_and(|m| m.value)
        {
            diags.push(
                bad(mf.span, format!("`maxFiles` on file field `{}` without `multiple: true`", name.value))
                    .label("a single-file field holds one file")
                    .help("add `multiple: true`, or remove `maxFiles`"),
            );
        }
        if let Some(ct) = &f.content_types {
            if ct.value.is_empty() {
                diags.push(
                    bad(ct.span, format!("`contentTypes` of file field `{}` is empty", name.value))
                        .label("accepts nothing")
                        .help("list accepted types, or remove `contentTypes` to accept any"),
                );
            }
            for t in ct.value.iter().filter(|t| !is_media_type(&t.value, true)) {
                diags.push(
                    bad(t.span, format!("`{}` is not a media type", t.value))
                        .label("expected `type/subtype` or `type/*`"),
                );
            }
        }
    }
}

/// `type/subtype` (or `type/*` when allowed), each part an RFC 6838 token.
pub(crate) fn is_media_type(s: &str, wildcard: bool) -> bool {
    let token = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || "!#$&-^_.+".contains(c));
    let s = s.split(';').next().unwrap_or_default().trim();
    match s.split_once('/') {
        Some((ty, "*")) => wildcard && token(ty),
        Some((ty, sub)) => token(ty) && token(sub),
        None => false,
    }
}

/// `responseMeta` (E0306) and the `http` group (E0311): a usable success status and header
/// names; `http` documents an ordinary JSON answer, so not beside a kind that answers otherwise.
fn response_facts(e: &Endpoint, diags: &mut Diagnostics) {
    if let Some(rm) = &e.response_meta {
        status_and_headers(e, "responseMeta", Code::InvalidResponseMeta, &rm.value.status, &rm.value.headers, diags);
    }
    let Some(h) = &e.http else { return };
    status_and_headers(e, "http", Code::InvalidHttpGroup, &h.value.status, &h.value.headers, diags);
    error_statuses(e, diags);
    success_statuses(e, h, diags);
    // Error answers are documented beside any success; a status or headers only beside JSON;
    // other successes beside JSON or raw bytes (whose handler sets the status it answers).
    let (documents_main, successes) =
        (h.value.status.is_some() || h.value.headers.is_some(), h.value.successes.is_some());
    if !documents_main && !successes {
        return;
    }
    let other = [
        ("responseMeta", e.response_meta.as_ref().map(|r| r.span)),
        ("rawResponse", e.raw_response.as_ref().filter(|r| r.value && documents_main).map(|r| r.span)),
        ("stream", e.stream.as_ref().map(|s| s.span)),
    ];
    for (kind, at) in other.into_iter().filter_map(|(k, at)| Some((k, at?))) {
        diags.push(
            Diagnostic::new(Code::InvalidHttpGroup, h.span, format!("`http` beside `{kind}`"))
                .label("documents the status and headers of a JSON answer")
                .secondary(at, format!("`{kind}` answers otherwise"))
                .help(if kind == "responseMeta" {
                    "`responseMeta` declares its own `status` and `headers`: keep one of the two"
                } else {
                    "the handler of this kind sets the status and headers itself: remove `http`"
                }),
        );
    }
}

fn status_and_headers(
    e: &Endpoint,
    key: &str,
    code: Code,
    status: &Option<Sp<u64>>,
    headers: &Option<Sp<crate::parse::ast::Entries<Sp<crate::parse::ast::ResponseHeader>>>>,
    diags: &mut Diagnostics,
) {
    if let Some(status) = status {
        if !(200..=299).contains(&status.value) {
            diags.push(
                Diagnostic::new(code, status.span, format!("success status {} is not 2xx", status.value))
                    .label("expected 200–299")
                    .help(format!("errors are answered through the error registry, not `{key}`")),
            );
        } else if matches!(status.value, 204 | 205)
            && let Some(out) = &e.output
        {
            diags.push(
                Diagnostic::new(code, status.span, format!("status {} with `output`", status.value))
                    .label("this status has no body")
                    .secondary(out.key(), "output declared here")
                    .help("remove `output`, or answer 200/201"),
            );
        }
    }
    let names: Vec<&Sp<String>> = headers.iter().flat_map(|h| h.value.iter()).map(|(name, _)| name).collect();
    for (i, name) in names.iter().enumerate() {
        if !is_header_name(&name.value) {
            diags.push(
                Diagnostic::new(code, name.span, format!("`{}` is not a header name", name.value))
                    .label("header names are HTTP tokens"),
            );
        } else if let Some(first) = names[..i].iter().find(|n| n.value.eq_ignore_ascii_case(&name.value)) {
            diags.push(
                Diagnostic::new(code, name.span, format!("header `{}` is declared twice", name.value))
                    .label("header names are case-insensitive")
                    .secondary(first.span, format!("`{}` declared here", first.value))
                    .help("remove one of the two"),
            );
        }
    }
}

/// `http.errors` (E0311): each key an error status, 400–599.
fn error_statuses(e: &Endpoint, diags: &mut Diagnostics) {
    for (status, _) in e.error_answers() {
        if !status.value.parse::<u16>().is_ok_and(|s| (400..=599).contains(&s)) {
            diags.push(
                Diagnostic::new(
                    Code::InvalidHttpGroup,
                    status.span,
                    format!("`{}` is not an error status", status.value),
                )
                .label("expected 400–599")
                .help("key each error answer by its HTTP status, such as `422`"),
            );
        }
    }
}

/// `http.successes` (E0311): each key a success status other than the main one, a body only
/// where the status has one, and no tool view (which shapes the main answer alone).
fn success_statuses(e: &Endpoint, h: &Sp<crate::parse::ast::HttpGroup>, diags: &mut Diagnostics) {
    let main =
        h.value.status.as_ref().map_or(u64::from(stitchgen_runtime::implied_status(e.output.is_some())), |s| s.value);
    for (status, answer) in e.success_answers() {
        let bad = |message: String| Diagnostic::new(Code::InvalidHttpGroup, status.span, message);
        match status.value.parse::<u16>() {
            Ok(s) if !(200..=299).contains(&s) => diags.push(
                bad(format!("`{s}` is not a success status"))
                    .label("expected 200–299")
                    .help("document an error answer under `http.errors`"),
            ),
            Ok(s) if u64::from(s) == main => diags.push(
                bad(format!("status {s} is the main answer's"))
                    .label("`output` is answered at this status")
                    .help("list only the other successes under `http.successes`"),
            ),
            Ok(s @ (204 | 205)) if answer.value.body.is_some() => diags.push(
                bad(format!("status {s} with a body"))
                    .label("this status has no body")
                    .help("remove `body`, or answer it at another status"),
            ),
            Ok(_) => {}
            Err(_) => diags.push(
                bad(format!("`{}` is not a success status", status.value))
                    .label("expected 200–299")
                    .help("key each success by its HTTP status, such as `202`"),
            ),
        }
    }
    let view = e.tool.as_ref().and_then(|t| t.value.view.as_ref());
    if let (Some(successes), Some(view)) = (&h.value.successes, view) {
        diags.push(
            Diagnostic::new(Code::InvalidHttpGroup, successes.span, "other successes beside a tool view")
                .label("the handler may answer one of these bodies")
                .secondary(view.span, "the view shapes the main answer alone")
                .help("remove `tool.view`: a tool answers whichever body the handler chose"),
        );
    }
}

/// Whether a header name is an HTTP token (RFC 9110).
pub(crate) fn is_header_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c))
}

fn stream(e: &Endpoint, diags: &mut Diagnostics) {
    let Some(st) = &e.stream else { return };
    let s = &st.value;
    let bad = |span: Span, msg: &str| Diagnostic::new(Code::InvalidStream, span, msg.to_owned());
    if let Some(out) = &e.output {
        diags.push(
            bad(out.key(), "`output` on a streaming endpoint")
                .label("a stream answers with items")
                .secondary(st.span, "stream declared here")
                .help("describe each frame as `stream.item`"),
        );
    }
    let terminal_completion = s.completion.as_ref().filter(|c| c.value == Completion::Terminal);
    if let Some(f) = s.framing.as_ref().filter(|f| f.value == Framing::Item) {
        if terminal_completion.is_none() {
            diags.push(
                bad(f.span, "`framing: item` without `completion: terminal`")
                    .label("bare items cannot say the stream ended")
                    .help("add `completion: terminal` and a `terminal` schema"),
            );
        }
        if let Some(fmt) = s.format.as_ref().filter(|x| x.value == StreamFormat::Sse) {
            diags.push(
                bad(f.span, "`framing: item` with `format: sse`")
                    .label("SSE frames are envelopes")
                    .secondary(fmt.span, "format")
                    .help("use `framing: envelope`, or `format: ndjson`"),
            );
        }
    }
    match (terminal_completion, &s.terminal) {
        (Some(c), None) => diags.push(
            bad(c.span, "`completion: terminal` without a `terminal` schema")
                .label("the last frame needs a schema")
                .help("declare `terminal`"),
        ),
        (None, Some(t)) => diags.push(
            bad(t.key(), "`terminal` without `completion: terminal`")
                .label("never sent")
                .help("add `completion: terminal`, or remove `terminal`"),
        ),
        _ => {}
    }
    for (v, what) in [
        (&s.max_frame_bytes, "maxFrameBytes"),
        (&s.heartbeat_ms, "heartbeatMs"),
        (&s.lifetime_ms, "lifetimeMs"),
        (&s.idle_timeout_seconds, "idleTimeoutSeconds"),
    ] {
        positive(v.as_ref(), what, Code::InvalidStream, diags);
    }
}
