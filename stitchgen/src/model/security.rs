//! Credentials lowered: each security scheme as OpenAPI's Security Scheme Object, and each
//! operation's requirements resolved (its own, else the contract's).

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::parse::ast::{Contract, Endpoint, KeyLocation, Requirement, SchemeType, SecurityScheme, Sp};

/// One alternative: the schemes sent together, each with its OAuth scopes.
pub type Alternative = BTreeMap<String, Vec<String>>;

/// A scheme as `openapi.json` writes it under `components.securitySchemes`; two contracts that
/// share a scheme name must agree on it (E0313).
pub fn scheme_facts(s: &SecurityScheme) -> Value {
    let text = |v: &Option<Sp<String>>| v.as_ref().map(|v| json!(v.value));
    let mut m = Map::new();
    let kind = s.r#type.as_ref().map(|t| t.value);
    m.insert("type".into(), json!(kind.map_or("http", type_name)));
    let put = |m: &mut Map<String, Value>, key: &str, v: Option<Value>| {
        if let Some(v) = v {
            m.insert(key.into(), v);
        }
    };
    put(&mut m, "description", text(&s.desc));
    put(&mut m, "scheme", text(&s.scheme));
    put(&mut m, "bearerFormat", text(&s.bearer_format));
    put(&mut m, "in", s.r#in.as_ref().map(|l| json!(location_name(l.value))));
    put(&mut m, "name", text(&s.param));
    // Key order in `flows` means nothing: sorted, so that reordering the contract moves no byte.
    put(&mut m, "flows", s.flows.as_ref().map(|f| sorted(f.0.to_json())));
    put(&mut m, "openIdConnectUrl", text(&s.open_id_connect_url));
    Value::Object(m)
}

/// `v` with the keys of every object sorted.
fn sorted(v: Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut entries: Vec<(String, Value)> = m.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(sorted).collect()),
        other => other,
    }
}

/// The OpenAPI spelling of a scheme type.
pub fn type_name(t: SchemeType) -> &'static str {
    match t {
        SchemeType::Http => "http",
        SchemeType::ApiKey => "apiKey",
        SchemeType::OAuth2 => "oauth2",
        SchemeType::OpenIdConnect => "openIdConnect",
        SchemeType::MutualTls => "mutualTLS",
    }
}

fn location_name(l: KeyLocation) -> &'static str {
    match l {
        KeyLocation::Header => "header",
        KeyLocation::Query => "query",
        KeyLocation::Cookie => "cookie",
    }
}

/// The contract's schemes by name.
pub(super) fn schemes(c: &Contract) -> BTreeMap<String, Value> {
    c.security_schemes.iter().flat_map(|s| s.value.iter()).map(|(k, s)| (k.value.clone(), scheme_facts(s))).collect()
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
