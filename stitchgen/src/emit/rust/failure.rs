//! A schema typify could not translate, reported as diagnostic E0611 at the schema it failed on
//! rather than as a crash or an internal error.

use super::types::{Origin, Untranslatable};
use crate::diag::{Code, Diagnostic};
use crate::naming;
use crate::parse::ast::{Contract, Sp};
use crate::source::Span;

/// Operation schema roles, as their Rust names end, and how a reader calls them.
const ROLES: &[(&str, &str)] = &[
    ("Params", "path parameters"),
    ("Input", "input"),
    ("Output", "output"),
    ("ToolAnswer", "tool view's answer"),
    ("Item", "stream item"),
    ("Terminal", "stream terminal"),
];

/// The E0611 diagnostic for `failure` in `service`, or `None` when no contract declares it.
pub fn diagnostic(contracts: &[Contract], service: &str, failure: &Untranslatable) -> Option<Diagnostic> {
    let contract = contracts.iter().find(|c| c.service.as_ref().is_some_and(|s| s.value == service))?;
    let service_span = contract.service.as_ref().map_or(contract.span, |s| s.span);
    let (span, what) = match &failure.origin {
        Origin::Type(name) => (type_key(contract, name).unwrap_or(service_span), format!("shared type `{name}`")),
        Origin::Operation(rust_name) => {
            operation_schema(contract, rust_name).unwrap_or((service_span, format!("schema `{rust_name}`")))
        }
        Origin::Service => (service_span, format!("the schemas of service `{service}` together")),
    };
    let d = Diagnostic::new(Code::UntranslatableSchema, span, format!("no Rust type can be generated for {what}"))
        .label("the Rust type generator (typify 0.6) cannot translate this schema")
        .note(format!("typify 0.6.2: {}", failure.why))
        .note("this is a gap in typify, not an error in the contract; known cases are tracked at https://github.com/oxidecomputer/typify/issues")
        .help("report the schema to stitchgen; until it is fixed, simplifying the schema (a combinator or a keyword beside a `$ref`) avoids it");
    Some(d)
}

/// Where shared type `name` is declared.
fn type_key(c: &Contract, name: &str) -> Option<Span> {
    c.types.as_ref()?.value.0.iter().find(|(k, _)| k.value == name).map(|(k, _)| k.span)
}

/// The operation whose schema has Rust name `rust_name` (`ListInput`), and what to call it.
fn operation_schema(c: &Contract, rust_name: &str) -> Option<(Span, String)> {
    let endpoints = c.endpoints.iter().flat_map(|e| e.value.0.iter().map(|(_, e)| &e.action));
    let tools = c.tools.iter().flat_map(|t| t.value.0.iter().map(|(_, t)| t.action.as_ref().unwrap_or(&t.name)));
    let actions: Vec<&Sp<String>> = endpoints.chain(tools).collect();
    let names: Vec<&str> = actions.iter().map(|a| a.value.as_str()).collect();
    actions.iter().zip(naming::operation_idents(&names)).find_map(|(action, ident)| {
        let role = rust_name.strip_prefix(&ident?.camel)?;
        let (_, said) = ROLES.iter().find(|(r, _)| *r == role)?;
        Some((action.span, format!("the {said} of `{}`", action.value)))
    })
}
