//! Rust identifiers: every name that becomes one must make a valid one, and no two may collide
//! after case conversion.

use std::collections::BTreeMap;

use super::Cx;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::naming::{self, RESERVED_MODULES};
use crate::source::Span;

/// Collects names per identifier and reports invalid names and collisions.
struct Idents<'d> {
    what: &'static str,
    reserved: &'static [&'static str],
    seen: BTreeMap<String, (String, Span)>,
    diags: &'d mut Diagnostics,
}

impl Idents<'_> {
    fn add(&mut self, name: &str, span: Span, ident: Option<String>, case: &str) {
        let Some(ident) = ident else {
            self.diags.push(
                Diagnostic::new(Code::InvalidIdent, span, format!("{} `{name}` does not make a Rust identifier", self.what))
                    .label(format!("its {case} form is not an identifier"))
                    .help("start the name with an ASCII letter and use ASCII letters, digits, `_` and `-`"),
            );
            return;
        };
        if self.reserved.contains(&ident.as_str()) {
            self.diags.push(
                Diagnostic::new(
                    Code::IdentCollision,
                    span,
                    format!(
                        "{} `{name}` becomes `{ident}`, the name of a generated module",
                        self.what
                    ),
                )
                .label(format!("becomes `{ident}`"))
                .help("rename it"),
            );
        } else if let Some((first, at)) = self.seen.get(&ident) {
            let d = Diagnostic::new(
                Code::IdentCollision,
                span,
                format!(
                    "{} `{name}` and `{first}` both become `{ident}` in Rust",
                    self.what
                ),
            )
            .label(format!("becomes `{ident}`"))
            .secondary(*at, format!("also becomes `{ident}`"))
            .help("rename one of them");
            self.diags.push(d);
        } else {
            self.seen.insert(ident, (name.to_owned(), span));
        }
    }
}

/// Handler methods and endpoint modules, type names, and operation identities of one contract.
pub(super) fn check_contract(cx: &Cx<'_>, diags: &mut Diagnostics) {
    let mut ops = Idents {
        what: "operation",
        reserved: RESERVED_MODULES,
        seen: BTreeMap::new(),
        diags,
    };
    for e in cx.endpoints() {
        ops.add(
            &e.action.value,
            e.action.span,
            naming::snake_ident(&e.action.value),
            "snake_case",
        );
    }
    let mut actions: Vec<(&str, Span)> = cx
        .endpoints()
        .map(|e| (e.action.value.as_str(), e.action.span))
        .collect();
    for t in cx.tools() {
        let (action, span) = t
            .action
            .as_ref()
            .map_or((&t.name.value, t.name.span), |a| (&a.value, a.span));
        if let Some((_, first)) = actions.iter().find(|(a, _)| *a == action.as_str()) {
            ops.diags.push(
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
        ops.add(action, span, naming::snake_ident(action), "snake_case");
    }
    let mut types = Idents {
        what: "type",
        reserved: &[],
        seen: BTreeMap::new(),
        diags,
    };
    for (name, _) in cx.c.types.iter().flat_map(|t| t.value.iter()) {
        types.add(
            &name.value,
            name.span,
            naming::type_ident(&name.value),
            "UpperCamelCase",
        );
    }
}

/// Service modules across contracts given together.
pub(super) fn check_services(all: &[Cx<'_>], diags: &mut Diagnostics) {
    let mut services = Idents {
        what: "service",
        reserved: &[],
        seen: BTreeMap::new(),
        diags,
    };
    for cx in all {
        let Some(s) = &cx.c.service else { continue };
        if s.value.trim().is_empty() {
            continue;
        }
        let before = services
            .seen
            .get(&naming::snake_ident(&s.value).unwrap_or_default())
            .map(|(n, _)| n.clone());
        // Identical names are E0100; only different spellings of one module are collisions here.
        if before.as_deref() == Some(s.value.as_str()) {
            continue;
        }
        services.add(
            &s.value,
            s.span,
            naming::snake_ident(&s.value),
            "snake_case",
        );
    }
}
