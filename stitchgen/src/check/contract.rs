//! Contract-level rules: blank names, declared error codes, services given twice.

use super::Cx;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::ast::Sp;

/// Blank service and scopes, and `errors` entries.
pub(super) fn check(cx: &Cx<'_>, diags: &mut Diagnostics) {
    let c = cx.c;
    not_blank(c.service.as_ref(), "service name", diags);
    not_blank(c.scope.as_ref(), "scope", diags);
    for e in cx.endpoints() {
        not_blank(e.desc.as_ref(), "endpoint description", diags);
        not_blank(e.scope.as_ref(), "scope", diags);
        not_blank(e.tool.as_ref().and_then(|t| t.value.name.as_ref()), "tool name", diags);
        for code in e.errors.iter().flat_map(|l| &l.value) {
            error_code(code, diags);
        }
    }
    for t in cx.tools() {
        not_blank(t.desc.as_ref(), "tool description", diags);
        not_blank(t.action.as_ref(), "tool action", diags);
    }
}

fn not_blank(value: Option<&Sp<String>>, what: &str, diags: &mut Diagnostics) {
    if let Some(v) = value.filter(|v| v.value.trim().is_empty()) {
        diags.push(
            Diagnostic::new(Code::BlankValue, v.span, format!("{what} is blank"))
                .label(format!("write the {what} here")),
        );
    }
}

/// An `errors` entry is a registry code or an application code in SCREAMING_SNAKE_CASE.
fn error_code(code: &Sp<String>, diags: &mut Diagnostics) {
    let s = code.value.as_str();
    if stitchgen_runtime::ErrorCode::from_name(s).is_some() {
        return;
    }
    let shaped = s.starts_with(|c: char| c.is_ascii_uppercase())
        && s.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
    if !shaped {
        let upper = s.to_ascii_uppercase().replace(['-', ' '], "_");
        let mut d = Diagnostic::new(Code::InvalidErrorCode, code.span, format!("`{s}` is not an error code"))
            .label("error codes are SCREAMING_SNAKE_CASE");
        d = match stitchgen_runtime::ErrorCode::from_name(&upper) {
            Some(known) => d.help(format!("did you mean `{}`?", known.name())),
            None => d.help(format!(
                "use a registry code ({}) or an application code such as `{}`",
                stitchgen_runtime::ErrorCode::ALL.iter().map(|c| c.name()).collect::<Vec<_>>().join(", "),
                if upper.is_empty() { "QUOTA_EXCEEDED".to_owned() } else { upper }
            )),
        };
        diags.push(d);
    }
}

/// Two contracts given together must not declare one service.
pub(super) fn check_services(all: &[Cx<'_>], diags: &mut Diagnostics) {
    for (i, cx) in all.iter().enumerate() {
        let Some(svc) = &cx.c.service else { continue };
        if let Some(first) = all[..i].iter().filter_map(|p| p.c.service.as_ref()).find(|p| p.value == svc.value) {
            diags.push(
                Diagnostic::new(
                    Code::DuplicateService,
                    svc.span,
                    format!("service `{}` is declared by two contracts", svc.value),
                )
                .label("declared again here")
                .secondary(first.span, "first declared here")
                .help("give each contract its own service name, or merge the two contracts"),
            );
        }
    }
}
