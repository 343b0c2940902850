//! A security scheme as OpenAPI writes it: what `openapi.json` emits, and what two contracts
//! sharing a scheme name must agree on (E0313). Here, below the checks and the model that both
//! read it.

use serde_json::{Map, Value, json};

use super::ast::{KeyLocation, SchemeType, SecurityScheme, Sp};

impl SecurityScheme {
    /// The scheme as `openapi.json` writes it under `components.securitySchemes`.
    pub fn to_openapi(&self) -> Value {
        let s = self;
        let text = |v: &Option<Sp<String>>| v.as_ref().map(|v| json!(v.value));
        let mut m = Map::new();
        let kind = s.r#type.as_ref().map(|t| t.value);
        m.insert("type".into(), json!(kind.map_or("http", SchemeType::as_str)));
        let put = |m: &mut Map<String, Value>, key: &str, v: Option<Value>| {
            if let Some(v) = v {
                m.insert(key.into(), v);
            }
        };
        put(&mut m, "description", text(&s.desc));
        put(&mut m, "scheme", text(&s.scheme));
        put(&mut m, "bearerFormat", text(&s.bearer_format));
        put(&mut m, "in", s.r#in.as_ref().map(|l| json!(l.value.as_str())));
        put(&mut m, "name", text(&s.param));
        // Key order in `flows` means nothing: sorted, so that reordering the contract moves no byte.
        put(&mut m, "flows", s.flows.as_ref().map(|f| sorted(f.0.to_json())));
        put(&mut m, "openIdConnectUrl", text(&s.open_id_connect_url));
        Value::Object(m)
    }
}

impl SchemeType {
    /// The OpenAPI spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            SchemeType::Http => "http",
            SchemeType::ApiKey => "apiKey",
            SchemeType::OAuth2 => "oauth2",
            SchemeType::OpenIdConnect => "openIdConnect",
            SchemeType::MutualTls => "mutualTLS",
        }
    }
}

impl KeyLocation {
    /// The OpenAPI spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            KeyLocation::Header => "header",
            KeyLocation::Query => "query",
            KeyLocation::Cookie => "cookie",
        }
    }
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
