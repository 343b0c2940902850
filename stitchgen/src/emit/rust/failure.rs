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
            let said = ROLES
                .iter()
                .find(|(r, _)| r == role)
                .map_or_else(|| format!("`{role}` answer"), |(_, said)| (*said).to_owned());
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

#[cfg(test)]
mod tests {
    use super::super::named_schemas;
    use super::super::types::{Origin, generate};

    const CONTRACT: &str = "stitch: 1\nservice: demo\ntypes:\n  A: { type: object, properties: { a: { type: string } } }\n  B: { type: object, properties: { b: { type: string } } }\nendpoints:\n  get_t: { method: GET, path: /t, desc: Get., output: { $ref: \"#/types/A\" } }\n";

    /// The checked demo contract, and its one service lowered with shared type `B` replaced.
    fn service_with_b(b: serde_json::Value) -> (crate::Checked, crate::model::Service) {
        let checked = crate::check_source("demo.stitch.yaml", CONTRACT);
        assert!(!checked.has_errors(), "{:?}", checked.diagnostics);
        let mut svc = crate::model::lower(&checked.contracts, &checked.sources, &checked.options).services.remove(0);
        svc.types["B"] = b;
        (checked, svc)
    }

    #[test]
    fn the_schema_typify_fails_on_is_named() {
        // Not a contract `check` passes: a stand-in for a shape typify cannot translate.
        let (checked, svc) = service_with_b(serde_json::json!({"$ref": "#/types/Nowhere"}));
        let err = generate(&svc, &named_schemas(&svc)).err().expect("typify fails");
        assert_eq!(err.origin, Origin::Type("B".into()), "{err:?}");
        let d = super::diagnostic(&checked.contracts, "demo", &err).expect("demo is declared");
        let rendered = crate::diag::render_all(&[d], &checked.sources, crate::diag::ColorChoice::Never);
        insta::assert_snapshot!("E0611_untranslatable_schema", rendered);
        let (_, clean) = service_with_b(serde_json::json!({"type": "string"}));
        assert!(generate(&clean, &named_schemas(&clean)).is_ok());
    }
}
