//! The artifacts: each emitter turns the lowered model into the exact bytes that ship.

pub mod mcp;
pub mod openapi;
pub mod rust;

/// Pretty JSON, 2-space indented, with a trailing newline: the form every JSON artifact ships in.
pub fn json_bytes(value: &serde_json::Value) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(value).expect("JSON values serialize");
    bytes.push(b'\n');
    bytes
}

/// Every artifact of everything generated together, in a fixed order: one Rust module per
/// service (`<service>.rs`), then the OpenAPI document and the manifests.
pub fn all(model: &crate::model::Model) -> Result<Vec<crate::out::Artifact>, String> {
    let artifact =
        |name: &str, value: serde_json::Value| crate::out::Artifact { name: name.into(), bytes: json_bytes(&value) };
    let mut out = Vec::new();
    for svc in &model.services {
        let code = rust::module(svc).map_err(|e| format!("service `{}`: {e}", svc.name))?;
        out.push(crate::out::Artifact { name: format!("{}.rs", svc.module), bytes: code.into_bytes() });
    }
    out.push(artifact("openapi.json", openapi::document(model)));
    out.push(artifact("mcp-tools.json", mcp::mcp_manifest(model)));
    out.push(artifact("agent-tools.json", mcp::agent_manifest(model)));
    Ok(out)
}
