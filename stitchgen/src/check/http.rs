//! The HTTP shape (DESIGN §3.2): paths, path params and their schema, query-encodable input,
//! params/input key conflicts, and route conflicts across every contract given together.

use std::collections::BTreeMap;

use super::Cx;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::ast::{Endpoint, Method, Schema, Sp};
use crate::parse::node::Node;
use crate::schema::{self, Types};
use crate::source::Span;

/// One segment of a route.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Seg {
    /// A literal segment.
    Lit(String),
    /// `:name`.
    Param(String),
    /// `PREFIX{name}SUFFIX`: a parameter with literal text around it in one segment (`{sid}.json`).
    Part(String, String, String),
    /// `*name`, last and alone.
    Wild(String),
}

/// Characters a literal path segment may hold: RFC 3986 pchar unencoded, and letters and digits
/// beyond ASCII (an IRI's, `/menü`), which the HTTP adapter routes and clients send
/// percent-encoded as UTF-8.
pub(crate) fn is_pchar(c: char) -> bool {
    c.is_ascii_alphanumeric() || "-._~!$&'()+,;=:@".contains(c) || (!c.is_ascii() && c.is_alphanumeric())
}

/// The span of bytes `lo..hi` inside a string value, when the source spelling allows it.
fn inner(s: &Sp<String>, lo: usize, hi: usize) -> Span {
    let written = (s.span.hi - s.span.lo) as usize;
    let quote = match written.checked_sub(s.value.len()) {
        Some(0) => 0,
        Some(2) => 1,
        _ => return s.span,
    };
    let start = s.span.lo as usize + quote;
    Span::new(s.span.file, start + lo, start + hi)
}

/// Parses a route, reporting every malformed segment. `None` when any segment is malformed.
pub(crate) fn parse_route(path: &Sp<String>, what: &str, diags: &mut Diagnostics) -> Option<Vec<(Seg, Span)>> {
    let s = path.value.as_str();
    if !s.starts_with('/') {
        diags.push(
            Diagnostic::new(Code::InvalidPath, path.span, format!("{what} `{s}` does not start with `/`"))
                .label("a route starts with `/`")
                .help(format!("write `/{}`", s.trim_start_matches('/'))),
        );
        return None;
    }
    if s == "/" {
        return Some(Vec::new());
    }
    let mut ok = true;
    let mut segs = Vec::new();
    // An endpoint's route may end with `/` (`/api/v1/`, as Django's routes do): a route of its
    // own, its last segment empty. basePath may not: the paths after it start with `/`.
    let trailing = s.ends_with('/') && what == "path" && !s.ends_with("//");
    if s.ends_with('/') && !trailing {
        let at = s.len() - 1;
        diags.push(
            Diagnostic::new(Code::InvalidPath, inner(path, at, at + 1), format!("{what} `{s}` ends with `/`"))
                .label("trailing slash")
                .help(format!("write `{}`", s.trim_end_matches('/'))),
        );
        return None;
    }
    let body = if trailing { &s[1..s.len() - 1] } else { &s[1..] };
    let mut offset = 1;
    for seg in body.split('/') {
        let span = inner(path, offset, offset + seg.len());
        offset += seg.len() + 1;
        match parse_segment(seg, span, what, diags) {
            Some(parsed) => segs.push((parsed, span)),
            None => ok = false,
        }
    }
    if trailing {
        segs.push((Seg::Lit(String::new()), inner(path, s.len() - 1, s.len())));
    }
    ok.then_some(segs)
}

fn parse_segment(seg: &str, span: Span, what: &str, diags: &mut Diagnostics) -> Option<Seg> {
    if seg.is_empty() {
        diags.push(
            Diagnostic::new(Code::InvalidPath, span, format!("{what} has an empty segment"))
                .label("`//` here")
                .help("remove the extra `/`"),
        );
        return None;
    }
    if let Some(name) = seg.strip_prefix(':') {
        if !name_ok(name) {
            diags.push(
                Diagnostic::new(Code::InvalidPathParam, span, format!("path parameter `{name}` is not a valid name"))
                    .label("names match `^[A-Za-z_][A-Za-z0-9_]*$`")
                    .help("a parameter takes a whole segment, such as `/:id`"),
            );
            return None;
        }
        return Some(Seg::Param(name.to_owned()));
    }
    if let Some(name) = seg.strip_prefix('*') {
        if name.is_empty() {
            diags.push(
                Diagnostic::new(Code::InvalidWildcard, span, "wildcard has no name")
                    .label("unnamed wildcard")
                    .help("name it, such as `/*rest`"),
            );
            return None;
        }
        if !name_ok(name) {
            diags.push(
                Diagnostic::new(Code::InvalidPathParam, span, format!("wildcard `{name}` is not a valid name"))
                    .label("names match `^[A-Za-z_][A-Za-z0-9_]*$`"),
            );
            return None;
        }
        return Some(Seg::Wild(name.to_owned()));
    }
    if seg.contains(['{', '}']) {
        return parse_part(seg, span, what, diags);
    }
    if seg.contains('*') {
        diags.push(
            Diagnostic::new(Code::InvalidWildcard, span, format!("wildcard inside the segment `{seg}`"))
                .label("a wildcard takes a whole segment")
                .help("write the wildcard as its own last segment, such as `/*rest`"),
        );
        return None;
    }
    if let Some(bad) = seg.chars().find(|c| !is_pchar(*c)) {
        diags.push(
            Diagnostic::new(
                Code::InvalidPath,
                span,
                format!("{what} segment `{seg}` holds `{}`", bad.escape_default()),
            )
            .label("not allowed in a path segment")
            .help("use letters, digits and `-._~`; parameters are `:name`"),
        );
        return None;
    }
    Some(Seg::Lit(seg.to_owned()))
}

/// A segment with one `{name}` and literal text around it: `{sid}.json`, `v{version}`.
fn parse_part(seg: &str, span: Span, what: &str, diags: &mut Diagnostics) -> Option<Seg> {
    let parts = seg.split_once('{').and_then(|(prefix, rest)| {
        let (name, suffix) = rest.split_once('}')?;
        Some((prefix, name, suffix))
    });
    let literal = |t: &str| t.chars().all(is_pchar);
    match parts {
        Some((prefix, name, suffix)) if name_ok(name) && literal(prefix) && literal(suffix) => {
            // `{id}` alone is `:id`, as OpenAPI writes it.
            if prefix.is_empty() && suffix.is_empty() {
                return Some(Seg::Param(name.to_owned()));
            }
            Some(Seg::Part(prefix.to_owned(), name.to_owned(), suffix.to_owned()))
        }
        _ => {
            diags.push(
                Diagnostic::new(Code::InvalidPathParam, span, format!("{what} segment `{seg}` is not `text{{name}}text`"))
                    .label("one parameter in braces, a valid name, literal text around it")
                    .help("a segment holds one parameter: `:name` alone, or `{name}` with text around it, such as `{sid}.json`"),
            );
            None
        }
    }
}

/// Whether `n` is a parameter name: `^[A-Za-z_][A-Za-z0-9_]*$`.
fn name_ok(n: &str) -> bool {
    let mut chars = n.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The endpoint's full route (basePath + path), with the span of every segment, or `None` when
/// either part is malformed (already reported).
pub(crate) fn full_route(cx: &Cx<'_>, e: &Endpoint, diags: &mut Diagnostics) -> Option<Vec<(Seg, Span)>> {
    let base = base_path(cx);
    let base_segs = parse_route(&base, "basePath", &mut Diagnostics::default())?;
    let path = e.path.as_ref()?;
    let mut segs = base_segs;
    segs.extend(parse_route(path, "path", diags)?);
    Some(segs)
}

/// basePath as written, or `/` + service.
pub(crate) fn base_path(cx: &Cx<'_>) -> Sp<String> {
    match (&cx.c.base_path, &cx.c.service) {
        (Some(b), _) => b.clone(),
        (None, Some(s)) => Sp { value: format!("/{}", s.value), span: s.span },
        (None, None) => Sp { value: "/".into(), span: cx.c.span },
    }
}

/// basePath itself: well formed, no wildcard.
pub(super) fn check_base_path(cx: &Cx<'_>, diags: &mut Diagnostics) {
    let base = base_path(cx);
    let what = if cx.c.base_path.is_some() { "basePath" } else { "the default basePath (`/` + service)" };
    let mut found = Diagnostics::default();
    let segs = parse_route(&base, what, &mut found);
    let defaulted = cx.c.base_path.is_none();
    for d in found.into_sorted() {
        diags.push(if defaulted { d.help("set `basePath` explicitly, or rename the service") } else { d });
    }
    for (seg, span) in segs.unwrap_or_default() {
        if let Seg::Wild(name) = seg {
            diags.push(
                Diagnostic::new(Code::InvalidWildcard, span, format!("wildcard `*{name}` in basePath"))
                    .label("a wildcard must be the last segment of an endpoint path")
                    .help("move the wildcard into the endpoint's `path`"),
            );
        }
    }
}

/// Path params, params schema coverage, params/input conflicts, query-encodable input.
pub(super) fn check_endpoint(cx: &Cx<'_>, e: &Endpoint, diags: &mut Diagnostics) {
    if let Some(path) = &e.path {
        parse_route(path, "path", diags);
    }
    let Some(segs) = full_route(cx, e, &mut Diagnostics::default()) else {
        return;
    };
    let mut params: Vec<(&str, Span)> = Vec::new();
    let last = segs.len().saturating_sub(1);
    let in_base = parse_route(&base_path(cx), "basePath", &mut Diagnostics::default()).map_or(0, |b| b.len());
    for (i, (seg, span)) in segs.iter().enumerate() {
        let name = match seg {
            Seg::Param(n) | Seg::Part(_, n, _) => n,
            Seg::Wild(n) => {
                // A wildcard in basePath is reported once, by the basePath check.
                if i != last && i >= in_base {
                    diags.push(
                        Diagnostic::new(
                            Code::InvalidWildcard,
                            *span,
                            format!("wildcard `*{n}` is not the last segment"),
                        )
                        .label("segments follow it")
                        .help("a wildcard captures the rest of the path, so it comes last"),
                    );
                }
                n
            }
            Seg::Lit(_) => continue,
        };
        if let Some((_, first)) = params.iter().find(|(p, _)| p == name) {
            diags.push(
                Diagnostic::new(Code::DuplicatePathParam, *span, format!("path parameter `{name}` appears twice"))
                    .label("named again here")
                    .secondary(*first, "first named here")
                    .help("give each parameter its own name"),
            );
        } else {
            params.push((name, *span));
        }
    }
    let placed = super::params_in::placed(e);
    if let Some(schema) = &e.params {
        check_params_schema(cx.types, schema, &params, &placed, diags);
    }
    super::params_in::check(cx, e, &params, diags);
    check_optional_input(e, diags);
    if let Some(input) = &e.input {
        for (key, prop) in schema::all_properties(&input.0, cx.types) {
            // Requests leave a read-only property out: it names nothing the caller sends.
            let Some(name) = key.as_str().filter(|_| !schema::marked(cx.types, prop, "readOnly")) else {
                continue;
            };
            let path = params.iter().find(|(p, _)| *p == name).map(|(_, at)| (*at, "path parameter"));
            let other = placed.iter().find(|(p, _)| *p == name).map(|(_, at)| (*at, "parameter placed by `paramsIn`"));
            if let Some((at, what)) = path.or(other) {
                diags.push(
                    Diagnostic::new(
                        Code::ParamsInputConflict,
                        key.span,
                        format!("`{name}` is both a {what} and an input key"),
                    )
                    .label("declared in input")
                    .secondary(at, what)
                    .help("tool arguments merge params and input into one object; rename one of them"),
                );
            }
        }
        if let Some(m) = e.method.as_ref().filter(|m| m.value.input_in_query() && !super::kinds::reads_body(e)) {
            let by = format!("{} sends input in the query string", m.value.as_str());
            check_query_input(cx.types, input, (m.value.as_str(), m.span, &by), diags);
        } else if let Some(ct) = e.input_content_type.as_ref().filter(|c| super::kinds::is_form_media_type(&c.value)) {
            check_query_input(cx.types, input, ("form", ct.span, "the body is a form of named text fields"), diags);
        }
    }
}

fn check_params_schema(
    types: Types<'_>,
    declared: &Schema,
    params: &[(&str, Span)],
    placed: &[(&str, Span)],
    diags: &mut Diagnostics,
) {
    let resolved = types.resolve(&declared.0);
    if !schema::is_object(&declared.0, types) {
        diags.push(
            Diagnostic::new(Code::InvalidParamsSchema, declared.key(), "`params` is not an object schema")
                .label("expected `type: object` with one property per path parameter"),
        );
        return;
    }
    let props = schema::properties(resolved);
    let required = schema::required(resolved);
    for (name, span) in params {
        let listed = props.iter().any(|(k, _)| k.as_str() == Some(name));
        if !listed || !required.contains(name) {
            let what = if listed { "is not listed in `params.required`" } else { "is not declared in `params`" };
            diags.push(
                Diagnostic::new(Code::ParamNotDeclared, *span, format!("path parameter `{name}` {what}"))
                    .label("path parameter")
                    .secondary(declared.key(), "params declared here")
                    .help(format!("declare `{name}` under `params.properties` and list it in `params.required`")),
            );
        }
    }
    for (key, value) in props {
        let Some(name) = key.as_str() else { continue };
        if placed.iter().any(|(p, _)| *p == name) {
            // Its location and its value are the `paramsIn` check's.
            continue;
        }
        if !params.iter().any(|(p, _)| *p == name) {
            diags.push(
                Diagnostic::new(
                    Code::ParamNotInPath,
                    key.span,
                    format!("`params` declares `{name}`, which is not in the path"),
                )
                .label("no `:name` segment for this")
                .help(format!(
                    "add `/:{name}` to the path, place it in the query, a header or a cookie with `paramsIn`, or move it to `input`"
                )),
            );
        } else if !schema::is_scalar(value, types) {
            diags.push(
                Diagnostic::new(
                    Code::InvalidParamsSchema,
                    key.span,
                    format!("path parameter `{name}` is not a scalar"),
                )
                .label("a path segment carries a string, number, integer, boolean or enum"),
            );
        }
    }
}

/// `inputOptional: true`: a body is read (POST, PUT, PATCH with `input`, no upload); an absent
/// one is the handler's `None`, whatever the input requires.
fn check_optional_input(e: &Endpoint, diags: &mut Diagnostics) {
    let Some(opt) = e.input_optional.as_ref().filter(|o| o.value) else { return };
    let bad = |msg: String| Diagnostic::new(Code::InvalidOptionalInput, opt.span, msg);
    let method = e.method.as_ref().map(|m| m.value);
    if !super::kinds::reads_body(e) || e.multipart.is_some() {
        let what = if e.multipart.is_some() { "an upload" } else { method.map_or("", |m| m.as_str()) };
        diags.push(
            bad(format!("`inputOptional` on {what}"))
                .label("no JSON or form body is read")
                .help("remove `inputOptional`"),
        );
        return;
    }
    if e.input.is_none() {
        diags.push(
            bad("`inputOptional` without `input`".into())
                .label("no body is read")
                .help("declare the body as `input`, or remove `inputOptional`"),
        );
    }
}

/// Input read from text pairs (a query string, a form body): an object of scalars, enums and
/// lists of scalars. `(m, at, by)`: what reads it (`GET`, `form`), where that is said, and how.
fn check_query_input(types: Types<'_>, input: &Schema, (m, at, by): (&str, Span, &str), diags: &mut Diagnostics) {
    let resolved = types.resolve(&input.0);
    let form = m == "form";
    let (carrier, instead) = if form { ("form", "a JSON body") } else { ("query string", "POST with a JSON body") };
    if !schema::is_object(&input.0, types) {
        diags.push(
            Diagnostic::new(Code::InputNotQueryEncodable, input.key(), format!("{m} input is not an object schema"))
                .label(format!("a {carrier} carries named fields"))
                .secondary(at, by.to_owned())
                .help(if form {
                    "make the input an object of scalars, or send a JSON body"
                } else {
                    "make the input an object of scalars, or use POST"
                }),
        );
        return;
    }
    let flat = |value: &Node| schema::query_encodable(value, types);
    for (key, value) in schema::all_properties(&input.0, types) {
        if !flat(value) {
            diags.push(
                Diagnostic::new(
                    Code::InputNotQueryEncodable,
                    key.span,
                    format!("{m} input field `{}` cannot be sent in a {carrier}", key.as_str().unwrap_or_default()),
                )
                .label("not a scalar, enum or array of scalars")
                .secondary(at, by.to_owned())
                .help(format!("flatten the field into scalars, or use {instead}")),
            );
        }
    }
    if let Some(extra) = resolved.get("additionalProperties").filter(|a| a.as_bool().is_none() && !flat(a)) {
        diags.push(
            Diagnostic::new(
                Code::InputNotQueryEncodable,
                extra.span,
                format!("{m} input allows additional properties that are not scalars"),
            )
            .label(format!("a {carrier} value is a scalar or a repeated scalar"))
            .help("use `additionalProperties: false`, or a scalar schema"),
        );
    }
}

/// Two routes with the same method and shape conflict, across every contract given together.
pub(super) fn check_routes(all: &[Cx<'_>], diags: &mut Diagnostics) {
    let mut seen: BTreeMap<(Method, Vec<String>), (String, Span)> = BTreeMap::new();
    for cx in all {
        for e in cx.endpoints() {
            let (Some(method), Some(path)) = (&e.method, &e.path) else {
                continue;
            };
            let Some(segs) = full_route(cx, e, &mut Diagnostics::default()) else {
                continue;
            };
            let shape: Vec<String> = segs
                .iter()
                .map(|(s, _)| match s {
                    Seg::Lit(l) => l.clone(),
                    // The HTTP adapter routes on the whole segment, its text checked after.
                    Seg::Param(_) | Seg::Part(..) => ":".into(),
                    Seg::Wild(_) => "*".into(),
                })
                .collect();
            let route = format!(
                "{} /{}",
                method.value.as_str(),
                segs.iter().map(|(s, _)| seg_text(s)).collect::<Vec<_>>().join("/")
            );
            match seen.get(&(method.value, shape.clone())) {
                Some((first, at)) => diags.push(
                    Diagnostic::new(
                        Code::RouteConflict,
                        path.span,
                        format!("route `{route}` conflicts with `{first}`"),
                    )
                    .label("same method and shape")
                    .secondary(*at, "the other route")
                    .note("parameters match any segment, so `:id` and `:name` in the same place are the same route")
                    .help("change one path or method"),
                ),
                None => {
                    seen.insert((method.value, shape), (route, path.span));
                }
            }
        }
    }
}

fn seg_text(s: &Seg) -> String {
    match s {
        Seg::Lit(l) => l.clone(),
        Seg::Param(p) => format!(":{p}"),
        Seg::Part(prefix, p, suffix) => format!("{prefix}{{{p}}}{suffix}"),
        Seg::Wild(w) => format!("*{w}"),
    }
}
