//! A schema typify could not translate, reported as diagnostic E0611 at the schema it failed on
//! rather than as a crash or an internal error.

use super::types::{Origin, Untranslatable};
use crate::diag::{Code, Diagnostic};
use crate::parse::ast::Contract;
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
    let service_span = contract.service_span();
    let (span, what) = match &failure.origin {
        Origin::Type(name) => (type_key(contract, name).unwrap_or(service_span), format!("shared type `{name}`")),
        Origin::Operation { action, role } => {
            let said = ROLES.iter().find(|(r, _)| r == role).map_or(*role, |(_, said)| *said);
            (contract.action_span(action).unwrap_or(service_span), format!("the {said} of `{action}`"))
        }
        Origin::Service => (service_span, format!("the schemas of service `{service}` together")),
    };
    let d = Diagnostic::new(Code::UntranslatableSchema, span, format!("no Rust type can be generated for {what}"))
        .label("the Rust type generator (typify) cannot translate this schema")
        .note(format!("typify {}: {}", super::types::TYPIFY_VERSION, failure.why))
        .note("this is a gap in typify, not an error in the contract; known cases are tracked at https://github.com/oxidecomputer/typify/issues")
        .help("report the schema to stitchgen; until it is fixed, simplifying the schema (a combinator or a keyword beside a `$ref`) avoids it");
    Some(d)
}

/// Where shared type `name` is declared.
fn type_key(c: &Contract, name: &str) -> Option<Span> {
    c.types.as_ref()?.value.0.iter().find(|(k, _)| k.value == name).map(|(k, _)| k.span)
}
