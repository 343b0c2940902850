//! Rust identifiers: every name that becomes one must make a valid one (E0801). Names of one
//! scope that share a Rust form get unique ones, with a warning (W0006); `naming` computes them
//! for the check and the generator alike.

use std::collections::BTreeMap;

use super::Cx;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::naming;
use crate::parse::ast::Sp;
use crate::source::Span;

/// Handler methods and endpoint modules, type names, and operation identities of one contract.
pub(super) fn check_contract(cx: &Cx<'_>, diags: &mut Diagnostics) {
    let mut actions: Vec<(&str, Span)> = cx.endpoints().map(|e| (e.action.value.as_str(), e.action.span)).collect();
    for t in cx.tools() {
        let (action, span) = t.action.as_ref().map_or((&t.name.value, t.name.span), |a| (&a.value, a.span));
        if let Some((_, first)) = actions.iter().find(|(a, _)| *a == action.as_str()) {
            diags.push(
                Diagnostic::new(
                    Code::DuplicateAction,
                    span,
                    format!("action `{action}` is already an operation of this service"),
                )
                .label("operation identity is (service, action)")
                .secondary(*first, "first declared here")
                .help("set a distinct `action` on the runtime tool"),
            );
            continue;
        }
        actions.push((action, span));
    }
    let shared = types(cx, diags);
    let roles = roles(cx);
    let actions: Vec<(&str, Span, Vec<&str>)> =
        actions.into_iter().map(|(a, at)| (a, at, roles.get(a).cloned().unwrap_or_default())).collect();
    operations(&actions, &shared, diags);
}

/// E0801 for a `what` (`type`, `operation`, `service`) whose `case` form is no identifier.
fn no_ident(what: &str, name: &str, span: Span, case: &str) -> Diagnostic {
    Diagnostic::new(Code::InvalidIdent, span, format!("{what} `{name}` does not make a Rust identifier"))
        .label(format!("its {case} form is not an identifier"))
        .help("start the name with an ASCII letter and use ASCII letters, digits, `_` and `-`")
}

/// Each shared type's name and span, by its Rust name (the same [`naming::type_names`] the
/// generator reads): a type name with no Rust name, or that is no OpenAPI component name, is an
/// error; one renamed to stay unique a warning naming both.
fn types(cx: &Cx<'_>, diags: &mut Diagnostics) -> BTreeMap<String, (String, Span)> {
    let mut named: Vec<&Sp<String>> = Vec::new();
    for (name, _) in cx.c.types.iter().flat_map(|t| t.value.iter()) {
        if naming::is_component_name(&name.value) {
            named.push(name);
            continue;
        }
        diags.push(
            Diagnostic::new(
                Code::InvalidIdent,
                name.span,
                format!("type `{}` cannot name an OpenAPI component or a `$ref` target", name.value),
            )
            .label("holds a character outside `A-Z a-z 0-9 . - _`")
            .note("OpenAPI requires component names to match `^[a-zA-Z0-9.\\-_]+$`")
            .help("rename the type with letters, digits, `.`, `-` and `_`"),
        );
    }
    let rust = naming::type_names(&named.iter().map(|n| n.value.as_str()).collect::<Vec<_>>());
    let mut out = BTreeMap::new();
    for (name, ident) in named.iter().zip(&rust) {
        let Some((ident, renamed)) = ident else {
            diags.push(no_ident("type", &name.value, name.span, "UpperCamelCase"));
            continue;
        };
        if let Some(naming::Renamed::After(j)) = renamed {
            let (first, theirs) = (named[*j], rust[*j].as_ref().map_or("", |(r, _)| r.as_str()));
            diags.push(
                Diagnostic::new(
                    Code::GeneratedNameRenamed,
                    name.span,
                    format!("types `{}` and `{}` share one Rust name; this one is `{ident}`", name.value, first.value),
                )
                .label(format!("its Rust type is `types::{ident}`"))
                .secondary(first.span, format!("keeps `{theirs}`"))
                .help("rename the type to choose the Rust name yourself"),
            );
        }
        out.insert(ident.clone(), (name.value.clone(), name.span));
    }
    out
}

/// Each action's Rust names (the same [`naming::operation_idents`] the generator reads): an
/// action with none is an error, one renamed to stay unique a warning naming both.
fn operations(actions: &[(&str, Span, Vec<&str>)], shared: &BTreeMap<String, (String, Span)>, diags: &mut Diagnostics) {
    let ops: Vec<(&str, Vec<&str>)> = actions.iter().map(|(a, _, roles)| (*a, roles.clone())).collect();
    let idents = naming::operation_idents(&ops, &shared.keys().cloned().collect());
    for ((action, span, _), ident) in actions.iter().zip(&idents) {
        let Some(ident) = ident else {
            diags.push(no_ident("operation", action, *span, "snake_case"));
            continue;
        };
        let d = match &ident.renamed {
            None => continue,
            Some(naming::Renamed::After(j)) => {
                let (first, at, _) = &actions[*j];
                let theirs = idents[*j].as_ref().map_or("", |o| o.snake.as_str());
                Diagnostic::new(
                    Code::GeneratedNameRenamed,
                    *span,
                    format!("operations `{action}` and `{first}` share one Rust name; this one is `{}`", ident.snake),
                )
                .secondary(*at, format!("keeps `{theirs}`"))
            }
            Some(naming::Renamed::Reserved) => Diagnostic::new(
                Code::GeneratedNameRenamed,
                *span,
                format!(
                    "operation `{action}` would be named like a module the generated code defines; it is `{}`",
                    ident.snake
                ),
            ),
            Some(naming::Renamed::SharedType(rust)) => {
                let (name, at) = &shared[rust];
                Diagnostic::new(
                    Code::GeneratedNameRenamed,
                    *span,
                    format!("a type of operation `{action}` would be named `{rust}`, like shared type `{name}`; its types are `{}…`", ident.camel),
                )
                .secondary(*at, format!("keeps `{rust}`"))
            }
        };
        diags.push(
            d.label(format!("its handler method and module are `{}`, its types `{}…`", ident.snake, ident.camel))
                .help("rename the action to choose the Rust name yourself"),
        );
    }
}

/// The roles in which each operation has a schema of its own (the operation schemas of
/// `model::ROLES` that are not a bare `$ref`), by action.
fn roles<'a>(cx: &Cx<'a>) -> BTreeMap<&'a str, Vec<&'static str>> {
    let mut out = BTreeMap::new();
    for e in cx.endpoints() {
        let view_output = e
            .tool
            .as_ref()
            .and_then(|t| t.value.view.as_ref())
            .and_then(|v| v.value.output.as_ref())
            .is_some_and(new_type);
        let path_params = e.path.as_ref().is_some_and(|p| p.value.contains([':', '*']))
            || cx.c.base_path.as_ref().is_some_and(|b| b.value.contains(':'));
        let present = [
            ("Params", e.params.as_ref().map_or(path_params, new_type)),
            ("Input", e.input.as_ref().is_some_and(new_type)),
            ("Output", e.output.as_ref().is_some_and(new_type)),
            ("ToolAnswer", view_output),
            ("Item", e.stream.as_ref().and_then(|s| s.value.item.as_ref()).is_some_and(new_type)),
            ("Terminal", e.stream.as_ref().and_then(|s| s.value.terminal.as_ref()).is_some_and(new_type)),
        ];
        out.insert(e.action.value.as_str(), present.into_iter().filter(|(_, p)| *p).map(|(r, _)| r).collect());
    }
    for t in cx.tools() {
        let action = t.action.as_ref().unwrap_or(&t.name);
        let present =
            [("Input", t.input.as_ref().is_some_and(new_type)), ("Output", t.output.as_ref().is_some_and(new_type))];
        out.entry(action.value.as_str())
            .or_insert_with(|| present.into_iter().filter(|(_, p)| *p).map(|(r, _)| r).collect());
    }
    out
}

/// Whether a schema gets a type of its own (a bare `$ref` names an existing one).
fn new_type(s: &crate::parse::ast::Schema) -> bool {
    !(s.0.as_map().is_some_and(|m| m.len() == 1) && crate::schema::ref_name(&s.0).is_some())
}

/// Service modules across contracts given together (the same [`naming::service_modules`] the
/// generator reads): a name with none is an error, one renamed to stay unique a warning.
pub(super) fn check_services(all: &[Cx<'_>], diags: &mut Diagnostics) {
    let services: Vec<&Sp<String>> =
        all.iter().filter_map(|cx| cx.c.service.as_ref()).filter(|s| !s.value.trim().is_empty()).collect();
    let names: Vec<&str> = services.iter().map(|s| s.value.as_str()).collect();
    let modules = naming::service_modules(&names);
    for (s, module) in services.iter().zip(&modules) {
        match module {
            None => diags.push(no_ident("service", &s.value, s.span, "snake_case")),
            // Identical names are E0100; only different spellings of one module are renamed.
            Some((module, Some(naming::Renamed::After(j)))) if services[*j].value != s.value => {
                let theirs = modules[*j].as_ref().map_or("", |(m, _)| m.as_str());
                diags.push(
                    Diagnostic::new(
                        Code::GeneratedNameRenamed,
                        s.span,
                        format!(
                            "services `{}` and `{}` share one Rust module; this one is `{module}`",
                            s.value, services[*j].value
                        ),
                    )
                    .label(format!("its module and file are `{module}`"))
                    .secondary(services[*j].span, format!("keeps `{theirs}`"))
                    .help("rename the service to choose the module name yourself"),
                );
            }
            Some(_) => {}
        }
    }
}
