//! Parameters that are not in the path (`paramsIn`, DESIGN §3.2): each one placed is declared
//! by `params` and is not a path parameter, its name is one its location carries, its value is
//! one text carries, no two travel under one name, and none stands where a credential does.

use super::Cx;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::ast::{Endpoint, KeyLocation, QueryStyle, SchemeType, Sp};
use crate::parse::node::Node;
use crate::schema::{self, Types};
use crate::source::Span;

/// Request headers a parameter may not name: OpenAPI ignores parameters named `Accept`,
/// `Content-Type` and `Authorization`; the rest are the transport's own (framing, routing,
/// credentials), which a caller's value must never set.
const RESERVED_HEADERS: &[&str] = &[
    "accept",
    "authorization",
    "connection",
    "content-length",
    "content-type",
    "cookie",
    "expect",
    "host",
    "keep-alive",
    "proxy-authorization",
    "proxy-connection",
    "te",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// Whether `name` is a request header a parameter may not set (any case).
pub(crate) fn reserved_header(name: &str) -> bool {
    RESERVED_HEADERS.contains(&name.to_ascii_lowercase().as_str())
}

/// The keys `paramsIn` places, with their spans.
pub(super) fn placed(e: &Endpoint) -> Vec<(&str, Span)> {
    e.params_in.iter().flat_map(|m| m.value.iter()).map(|(k, _)| (k.value.as_str(), k.span)).collect()
}

/// Every `paramsIn` entry of `e`; `path` holds the path parameters.
pub(super) fn check(cx: &Cx<'_>, e: &Endpoint, path: &[(&str, Span)], diags: &mut Diagnostics) {
    let Some(entries) = &e.params_in else { return };
    let declared: Vec<(&Node, &Node)> =
        e.params.as_ref().map(|p| schema::all_properties(&p.0, cx.types)).unwrap_or_default();
    let mut seen: Vec<(KeyLocation, String, Span)> = Vec::new();
    for (key, p) in entries.value.iter() {
        let Some(location) = p.value.location.as_ref().map(|l| l.value) else { continue };
        if let Some((_, at)) = path.iter().find(|(n, _)| *n == key.value) {
            diags.push(
                bad(key.span, format!("`{}` is a path parameter", key.value))
                    .label("placed outside the path here")
                    .secondary(*at, "the path carries it")
                    .help("remove it from `paramsIn`, or from the path"),
            );
            continue;
        }
        let Some((_, value)) = declared.iter().find(|(k, _)| k.as_str() == Some(key.value.as_str())) else {
            diags.push(
                bad(key.span, format!("`paramsIn` places `{}`, which `params` does not declare", key.value))
                    .label("not a `params` property")
                    .help(format!("declare `{}` under `params.properties`", key.value)),
            );
            continue;
        };
        let name = p.value.name.as_ref().map_or_else(|| key.value.clone(), |n| n.value.clone());
        let name_at = p.value.name.as_ref().map_or(key.span, |n| n.span);
        if let Some(d) = wire_name(location, &name, name_at) {
            diags.push(d);
            continue;
        }
        let style = p.value.style.as_ref();
        if let Some(d) = carried(cx.types, (location, style), key, value) {
            diags.push(d);
        }
        let same = |l: KeyLocation, n: &str| {
            l == location && if location == KeyLocation::Header { n.eq_ignore_ascii_case(&name) } else { n == name }
        };
        if let Some((_, _, first)) = seen.iter().find(|(l, n, _)| same(*l, n)) {
            diags.push(
                bad(name_at, format!("two parameters travel as {} `{name}`", location_word(location)))
                    .label("named again here")
                    .secondary(*first, "first here")
                    .help("give each its own name on the wire"),
            );
        }
        seen.push((location, name.clone(), name_at));
        if let Some(d) = credential(cx, location, &name, name_at) {
            diags.push(d);
        }
        if let Some(d) = beside_query_input(cx.types, e, location, &name, name_at) {
            diags.push(d);
        }
    }
}

fn bad(at: Span, message: String) -> Diagnostic {
    Diagnostic::new(Code::InvalidParamIn, at, message)
}

fn location_word(location: KeyLocation) -> &'static str {
    match location {
        KeyLocation::Query => "query parameter",
        KeyLocation::Header => "header",
        KeyLocation::Cookie => "cookie",
    }
}

/// A name its location cannot carry, or one a parameter may not take.
fn wire_name(location: KeyLocation, name: &str, at: Span) -> Option<Diagnostic> {
    match location {
        KeyLocation::Query if name.is_empty() => {
            Some(bad(at, "a query parameter without a name".into()).label("empty name"))
        }
        KeyLocation::Query => None,
        _ if !super::kinds::is_header_name(name) => Some(
            bad(at, format!("`{name}` is not a {} name", location_word(location)))
                .label("header and cookie names are HTTP tokens"),
        ),
        KeyLocation::Header if reserved_header(name) => Some(
            bad(at, format!("header `{name}` is the transport's, not a parameter"))
                .label("set by the client and read by the server, never from an argument")
                .help("declare credentials under `securitySchemes`; the body's media type with `inputContentType`"),
        ),
        _ => None,
    }
}

/// A value its location's text cannot carry: a header or cookie holds one scalar, a query
/// parameter a scalar or a repeated one, or (`style: deepObject`) an object of those; a style
/// is a query parameter's alone.
fn carried(
    types: Types<'_>,
    (location, style): (KeyLocation, Option<&Sp<QueryStyle>>),
    key: &Sp<String>,
    value: &Node,
) -> Option<Diagnostic> {
    if let Some(style) = style.filter(|_| location != KeyLocation::Query) {
        return Some(
            bad(style.span, format!("a {} has no `style`", location_word(location)))
                .label("only a query parameter's value is written in a style")
                .help("remove `style`"),
        );
    }
    match style.map(|s| s.value) {
        Some(QueryStyle::DeepObject) => return deep_object(types, key, value),
        // One JSON text carries any value.
        Some(QueryStyle::Json) => return None,
        Some(QueryStyle::Form) | None => {}
    }
    let encodable = match location {
        KeyLocation::Query => schema::query_encodable(value, types),
        KeyLocation::Header | KeyLocation::Cookie => schema::is_scalar(value, types),
    };
    if encodable {
        return None;
    }
    let (what, help) = match location {
        KeyLocation::Query if schema::is_object(value, types) => (
            "a scalar, enum or array of scalars",
            "write it `style: deepObject` (`name[property]=value`) or `style: json`, or send it in the body",
        ),
        KeyLocation::Query => {
            ("a scalar, enum or array of scalars", "write it `style: json` (one JSON text), or send it in the body")
        }
        _ => ("a scalar or enum", "flatten it into scalars, or send it in the body"),
    };
    Some(
        bad(key.span, format!("`{}` cannot travel as a {}", key.value, location_word(location)))
            .label(format!("not {what}"))
            .help(help),
    )
}

/// A `deepObject` value text pairs cannot carry ([`schema::deep_object_fault`]).
fn deep_object(types: Types<'_>, key: &Sp<String>, value: &Node) -> Option<Diagnostic> {
    let fault = schema::deep_object_fault(value, types)?;
    Some(
        bad(key.span, format!("`{}` cannot travel as a deepObject query parameter", key.value))
            .label(fault)
            .help("make it an object of scalars and lists of scalars, or send it in the body"),
    )
}

/// A name in the place of one of the contract's API keys: the client sends the credential
/// there, so an argument must not.
fn credential(cx: &Cx<'_>, location: KeyLocation, name: &str, at: Span) -> Option<Diagnostic> {
    let schemes = cx.c.security_schemes.iter().flat_map(|s| s.value.iter());
    let (scheme, _) = schemes.into_iter().find(|(_, s)| {
        s.r#type.as_ref().is_some_and(|t| t.value == SchemeType::ApiKey)
            && s.r#in.as_ref().is_some_and(|l| l.value == location)
            && s.param.as_ref().is_some_and(|p| match location {
                KeyLocation::Header => p.value.eq_ignore_ascii_case(name),
                _ => p.value == name,
            })
    })?;
    Some(
        bad(at, format!("{} `{name}` carries the `{}` credential", location_word(location), scheme.value))
            .label("the client sends the credential here")
            .help("a credential is declared once, under `securitySchemes`; remove this parameter"),
    )
}

/// A query parameter named like a key of input that a query method reads from the query too.
fn beside_query_input(
    types: Types<'_>,
    e: &Endpoint,
    location: KeyLocation,
    name: &str,
    at: Span,
) -> Option<Diagnostic> {
    let in_query = |m: &Sp<crate::parse::ast::Method>| m.value.input_in_query() && !super::kinds::reads_body(e);
    let method = e.method.as_ref().filter(|m| location == KeyLocation::Query && in_query(m))?;
    let input = e.input.as_ref()?;
    let (key, _) = schema::all_properties(&input.0, types).into_iter().find(|(k, _)| k.as_str() == Some(name))?;
    Some(
        bad(at, format!("query parameter `{name}` is also an input key"))
            .label("read from the query")
            .secondary(key.span, format!("{} reads its input from the query too", method.value.as_str()))
            .help("rename one of the two on the wire (`name`)"),
    )
}
