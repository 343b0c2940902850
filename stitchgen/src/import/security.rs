//! Credentials imported: `components.securitySchemes` into the contract's `securitySchemes`,
//! the document's `security` into the contract's, and an operation's own `security` kept where
//! it differs. What a client cannot be told to send is left out, with a warning.

use serde_json::{Map, Value as J, json};

use super::Lowerings;
use super::load::{Docs, Loc};
use crate::parse::node::Node;

/// The document's `components.securitySchemes` as the contract's `securitySchemes`.
pub(super) fn schemes(docs: &Docs, lowered: &mut Lowerings) -> Map<String, J> {
    let mut schemes = Map::new();
    let Some(node) = docs.docs[0].root.get("components").and_then(|c| c.get("securitySchemes")) else {
        return schemes;
    };
    let (entries, followed) = docs.named(&Loc { doc: 0, pointer: "/components/securitySchemes".into() }, node);
    lowered.map_refs(followed, "components.securitySchemes");
    for entry in entries {
        let (loc, node) = docs.deref(entry.loc, entry.node);
        let name = entry.key.as_str().unwrap_or_default().to_owned();
        match scheme(node) {
            Ok(s) => {
                schemes.insert(name, s);
            }
            Err(why) => lowered.warn(node.span, &loc.pointer, format!("security scheme `{name}` {why}; not read")),
        }
    }
    schemes
}

/// Sets `securitySchemes` and the document's `security` on the contract `body`; an endpoint
/// whose own `security` says the same as the document's inherits it instead.
pub(super) fn apply(docs: &Docs, schemes: Map<String, J>, body: &mut J, lowered: &mut Lowerings) {
    let default = docs.docs[0].root.get("security").map(|s| requirements(s, &schemes, "/security", lowered));
    for e in body["endpoints"].as_object_mut().into_iter().flat_map(|m| m.values_mut()) {
        if e.get("security").is_some()
            && e.get("security") == default.as_ref()
            && let Some(e) = e.as_object_mut()
        {
            e.remove("security");
        }
    }
    if !schemes.is_empty() {
        body["securitySchemes"] = J::Object(schemes);
    }
    if let Some(default) = default {
        body["security"] = default;
    }
}

/// One Security Scheme Object as the DSL writes it, or why it cannot be.
fn scheme(node: &Node) -> Result<J, String> {
    let s = node.to_json();
    let text = |k: &str| s.get(k).and_then(J::as_str).map(str::to_owned);
    let kind = text("type").ok_or("has no `type`")?;
    let mut out = Map::new();
    let mut put = |k: &str, v: Option<J>| {
        if let Some(v) = v {
            out.insert(k.into(), v);
        }
    };
    let needs = |k: &str| text(k).map(J::String).ok_or(format!("of type `{kind}` has no `{k}`"));
    put("type", Some(json!(kind)));
    match kind.as_str() {
        "http" => {
            put("scheme", Some(needs("scheme")?));
            put("bearerFormat", text("bearerFormat").map(J::String));
        }
        "apiKey" => {
            let place = text("in").filter(|p| matches!(p.as_str(), "header" | "query" | "cookie"));
            put("in", Some(place.map(J::String).ok_or("of type `apiKey` has no `in` of header, query or cookie")?));
            put("name", Some(needs("name")?));
        }
        "oauth2" => put("flows", Some(s.get("flows").filter(|f| f.is_object()).cloned().ok_or("has no `flows`")?)),
        "openIdConnect" => put("openIdConnectUrl", Some(needs("openIdConnectUrl")?)),
        "mutualTLS" => {}
        other => return Err(format!("has type `{other}`, which OpenAPI does not define")),
    }
    put("desc", text("description").filter(|d| !d.trim().is_empty()).map(J::String));
    Ok(J::Object(out))
}

/// An alternative of a `security` list with each scheme's scopes a list: a `null` (what a
/// generator writes for "no scope") read as none, with a warning.
fn scopes_listed(alternative: &Node, pointer: &str, lowered: &mut Lowerings) -> J {
    let mut json = alternative.to_json();
    let Some(map) = json.as_object_mut() else { return json };
    for (name, scopes) in map.iter_mut().filter(|(_, s)| s.is_null()) {
        *scopes = J::Array(Vec::new());
        lowered.warn(alternative.span, pointer, format!("the scopes of `{name}` are `null`; read as no scope"));
    }
    json
}

/// A `security` list with the alternatives that name only declared schemes; an alternative that
/// names another is dropped, with a warning (a client could not send it).
pub(super) fn requirements(list: &Node, schemes: &Map<String, J>, pointer: &str, lowered: &mut Lowerings) -> J {
    let mut kept = Vec::new();
    for alternative in list.as_seq().unwrap_or_default() {
        let Some(names) = alternative.as_map() else { continue };
        let unknown = names.iter().filter_map(|(k, _)| k.as_str()).find(|n| !schemes.contains_key(*n));
        match unknown {
            Some(unknown) => {
                let why =
                    format!("a security requirement names `{unknown}`, a scheme not read; the alternative is dropped");
                lowered.warn(alternative.span, pointer, why);
            }
            None => kept.push(scopes_listed(alternative, pointer, lowered)),
        }
    }
    J::Array(kept)
}
