//! Every declaration rule of DESIGN §3: accumulates diagnostics, never stops at the first.

mod contract;
mod cycles;
mod elicit;
pub(crate) mod http;
mod idents;
pub(crate) mod kinds;
mod limits;
mod names;
pub(crate) mod params_in;
mod runtime;
mod schemas;
mod security;
mod slice;
mod view;

use crate::diag::Diagnostics;
use crate::parse::ast::{Contract, Endpoint, RuntimeTool, Surface, ToolExposure};
use crate::schema::Types;
use crate::source::Span;

/// Runs every check over contracts given together.
pub fn check(contracts: &[Contract], diags: &mut Diagnostics) {
    for c in contracts {
        let cx = Cx::new(c);
        contract::check(&cx, diags);
        schemas::check(&cx, diags);
        http::check_base_path(&cx, diags);
        for e in cx.endpoints() {
            http::check_endpoint(&cx, e, diags);
            kinds::check(e, diags);
            limits::check(e, diags);
            view::check(&cx, e, diags);
            elicit::check(&cx, e, diags);
        }
        for t in cx.tools() {
            runtime::check(&cx, t, diags);
        }
        security::check(&cx, diags);
        idents::check_contract(&cx, diags);
    }
    let all: Vec<Cx<'_>> = contracts.iter().map(Cx::new).collect();
    contract::check_services(&all, diags);
    idents::check_services(&all, diags);
    http::check_routes(&all, diags);
    names::check(&all, diags);
    security::check_services(&all, diags);
}

/// One contract with what checks keep asking of it.
pub(crate) struct Cx<'a> {
    pub(crate) c: &'a Contract,
    pub(crate) types: Types<'a>,
}

impl<'a> Cx<'a> {
    pub(crate) fn new(c: &'a Contract) -> Self {
        Cx { c, types: Types::new(c.types.as_ref().map(|t| &t.value)) }
    }

    /// The service name ("" when missing; that is reported once, at decode).
    pub(crate) fn service(&self) -> &'a str {
        self.c.service.as_ref().map_or("", |s| s.value.as_str())
    }

    pub(crate) fn endpoints(&self) -> impl Iterator<Item = &'a Endpoint> {
        self.c.endpoints.iter().flat_map(|e| e.value.0.iter().map(|(_, v)| v))
    }

    pub(crate) fn tools(&self) -> impl Iterator<Item = &'a RuntimeTool> {
        self.c.tools.iter().flat_map(|e| e.value.0.iter().map(|(_, v)| v))
    }

    /// The surfaces an endpoint is served on (DESIGN §3.1).
    pub(crate) fn surfaces(&self, e: &Endpoint) -> Vec<Surface> {
        if let Some(expose) = &e.expose {
            return expose.value.iter().map(|s| s.value).collect();
        }
        let explicit = self.c.tool_exposure.as_ref().is_some_and(|t| t.value == ToolExposure::Explicit);
        if explicit || is_http_only(e) {
            vec![Surface::Http]
        } else {
            vec![Surface::Http, Surface::Mcp, Surface::Agent]
        }
    }

    /// Whether an endpoint is on at least one tool surface.
    pub(crate) fn is_tool(&self, e: &Endpoint) -> bool {
        self.surfaces(e).iter().any(|s| s.is_tool())
    }
}

/// Why an endpoint can be on no tool surface. Any answer can be presented, an object as it is and
/// anything else wrapped ([`crate::schema::Wrap`]); what cannot be is an HTTP-only kind, and an
/// input that is not an object (tool arguments are one). `check` refuses a tool surface for
/// these reasons, and `import --expose` asks this before it exposes an endpoint, so the two
/// cannot disagree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NotATool {
    /// An HTTP-only kind (its key, and where).
    HttpOnly(&'static str, Span),
    /// The input is not an object schema.
    InputNotObject,
}

impl NotATool {
    /// The reason, for a person.
    pub(crate) fn reason(self) -> String {
        match self {
            NotATool::HttpOnly(kind, _) => format!("`{kind}` is HTTP-only"),
            NotATool::InputNotObject => "its input is not an object, and tool arguments are".into(),
        }
    }
}

/// Why `e` cannot be a tool, if it cannot (see [`NotATool`]).
pub(crate) fn not_a_tool(e: &Endpoint, types: Types<'_>) -> Option<NotATool> {
    if let Some((kind, at)) = http_only_kinds(e).first() {
        return Some(NotATool::HttpOnly(kind, *at));
    }
    e.input.as_ref().filter(|i| !crate::schema::is_object(&i.0, types)).map(|_| NotATool::InputNotObject)
}

/// Whether an endpoint is of an HTTP-only kind (DESIGN §3, the table).
pub(crate) fn is_http_only(e: &Endpoint) -> bool {
    e.raw_response.as_ref().is_some_and(|r| r.value)
        || e.raw_body.as_ref().is_some_and(|r| r.value)
        || e.multipart.is_some()
        || e.response_meta.is_some()
        || e.stream.is_some()
}

/// The HTTP-only kinds an endpoint declares, with where.
pub(crate) fn http_only_kinds(e: &Endpoint) -> Vec<(&'static str, Span)> {
    let mut kinds = Vec::new();
    if let Some(r) = e.raw_response.as_ref().filter(|r| r.value) {
        kinds.push(("rawResponse", r.span));
    }
    if let Some(r) = e.raw_body.as_ref().filter(|r| r.value) {
        kinds.push(("rawBody", r.span));
    }
    if let Some(m) = &e.multipart {
        kinds.push(("multipart", m.span));
    }
    if let Some(m) = &e.response_meta {
        kinds.push(("responseMeta", m.span));
    }
    if let Some(s) = &e.stream {
        kinds.push(("stream", s.span));
    }
    kinds
}
