//! Credentials: each security scheme has what its type needs, each `security` requirement names
//! declared schemes, and contracts given together agree on a scheme they share.

use super::Cx;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::ast::{Requirement, SchemeType, SecurityScheme};

/// The schemes of one contract and every requirement that names them.
pub(super) fn check(cx: &Cx<'_>, diags: &mut Diagnostics) {
    let c = cx.c;
    let schemes: Vec<&SecurityScheme> =
        c.security_schemes.iter().flat_map(|s| s.value.0.iter().map(|(_, v)| v)).collect();
    for s in &schemes {
        needs(s, diags);
    }
    let names: Vec<&str> = schemes.iter().map(|s| s.name.value.as_str()).collect();
    let lists = c.security.iter().chain(cx.endpoints().filter_map(|e| e.security.as_ref()));
    for requirement in lists.flat_map(|l| &l.value) {
        known(requirement, &names, diags);
    }
}

/// The key each type of scheme cannot do without (OpenAPI requires them too).
fn needs(s: &SecurityScheme, diags: &mut Diagnostics) {
    let Some(kind) = &s.r#type else { return };
    let missing: &[(&str, bool)] = match kind.value {
        SchemeType::Http => &[("scheme", s.scheme.is_none())],
        SchemeType::ApiKey => &[("in", s.r#in.is_none()), ("name", s.param.is_none())],
        SchemeType::OAuth2 => &[("flows", s.flows.is_none())],
        SchemeType::OpenIdConnect => &[("openIdConnectUrl", s.open_id_connect_url.is_none())],
        SchemeType::MutualTls => &[],
    };
    for (key, _) in missing.iter().filter(|(_, absent)| *absent) {
        diags.push(
            Diagnostic::new(
                Code::MissingKey,
                s.name.span,
                format!("security scheme `{}` is missing `{key}`", s.name.value),
            )
            .label(format!("`type: {}` needs `{key}`", kind.value.as_str())),
        );
    }
}

/// Every scheme a requirement names is declared.
fn known(requirement: &Requirement, names: &[&str], diags: &mut Diagnostics) {
    for (name, _) in requirement.value.iter() {
        if names.contains(&name.value.as_str()) {
            continue;
        }
        let mut d = Diagnostic::new(
            Code::UnknownSecurityScheme,
            name.span,
            format!("security scheme `{}` is not declared", name.value),
        )
        .label("not a key of `securitySchemes`");
        d = match crate::naming::closest(&name.value, names) {
            Some(best) => d.help(format!("did you mean `{best}`?")),
            None if names.is_empty() => d.help("declare it under the contract's `securitySchemes`"),
            None => d.help(format!("the declared schemes are: {}", quoted(names))),
        };
        diags.push(d);
    }
}

fn quoted(names: &[&str]) -> String {
    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
}

/// A scheme name two contracts given together declare differently: `openapi.json` has one
/// `components.securitySchemes`, and one name cannot mean two credentials there.
pub(super) fn check_services(all: &[Cx<'_>], diags: &mut Diagnostics) {
    let mut seen: Vec<(&SecurityScheme, serde_json::Value)> = Vec::new();
    for cx in all {
        for (_, s) in cx.c.security_schemes.iter().flat_map(|s| s.value.iter()) {
            let facts = s.to_openapi();
            match seen.iter().find(|(f, _)| f.name.value == s.name.value) {
                Some((first, theirs)) if *theirs != facts => diags.push(
                    Diagnostic::new(
                        Code::SecuritySchemeConflict,
                        s.name.span,
                        format!("security scheme `{}` is declared differently by another contract", s.name.value),
                    )
                    .label("declared here")
                    .secondary(first.name.span, "and differently here")
                    .help("give one of them another name, or declare both alike"),
                ),
                Some(_) => {}
                None => seen.push((s, facts)),
            }
        }
    }
}
