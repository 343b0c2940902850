//! Credentials lowered: each security scheme as OpenAPI's Security Scheme Object, and each
//! operation's requirements resolved (its own, else the contract's).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::parse::ast::{Contract, Endpoint, Requirement};

/// One alternative: the schemes sent together, each with its OAuth scopes.
pub type Alternative = BTreeMap<String, Vec<String>>;

/// The contract's schemes by name.
pub(super) fn schemes(c: &Contract) -> BTreeMap<String, Value> {
    c.security_schemes.iter().flat_map(|s| s.value.iter()).map(|(k, s)| (k.value.clone(), s.to_openapi())).collect()
}

/// What an endpoint asks for: its own `security`, else the contract's; `None` when neither says.
pub(super) fn requirements(c: &Contract, e: &Endpoint) -> Option<Vec<Alternative>> {
    let list = e.security.as_ref().or(c.security.as_ref())?;
    Some(list.value.iter().map(alternative).collect())
}

fn alternative(r: &Requirement) -> Alternative {
    r.value
        .iter()
        .map(|(name, scopes)| (name.value.clone(), scopes.value.iter().map(|s| s.value.clone()).collect()))
        .collect()
}
