//! The artifacts: each emitter turns the lowered model into the exact bytes that ship.

pub mod mcp;
pub mod openapi;
pub mod rust;
pub mod search;

use crate::parse::ast::Surface;

/// Pretty JSON, 2-space indented, with a trailing newline: the form every JSON artifact ships in.
pub fn json_bytes(value: &impl serde::Serialize) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(value).expect("JSON values serialize");
    bytes.push(b'\n');
    bytes
}

/// The Rust module of each service, `<service>.rs` (written first, then the [`documents`]).
///
/// Every service is tried: the error lists each failing service by name with why.
pub fn modules(
    model: &crate::model::Model,
    mcp_profiles: &[(&str, String)],
) -> Result<Vec<crate::out::Artifact>, Vec<(String, rust::Failure)>> {
    let (mut out, mut failures) = (Vec::new(), Vec::new());
    let catalogs = Catalogs { mcp_profiles, ..catalogs(model) };
    for svc in &model.services {
        match rust::module(svc, catalogs) {
            Ok(code) => out.push(crate::out::Artifact { name: format!("{}.rs", svc.module), bytes: code.into_bytes() }),
            Err(e) => failures.push((svc.name.clone(), e)),
        }
    }
    if failures.is_empty() { Ok(out) } else { Err(failures) }
}

/// Which of search mode's catalogs a generation writes beside its documents: MCP's and the
/// agent's, each where a contract in search mode has a tool on that transport; and the MCP
/// client profiles' lists. Each module names the documents of its generation, so it must know
/// which there are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Catalogs<'a> {
    /// `mcp-catalog.json` is written.
    pub mcp: bool,
    /// `agent-catalog.json` is written.
    pub agent: bool,
    /// Each MCP client profile's name and the file its list is written to.
    pub mcp_profiles: &'a [(&'a str, String)],
}

/// The catalogs [`documents`] writes for `model` (no profile's list: the caller says those).
pub fn catalogs(model: &crate::model::Model) -> Catalogs<'static> {
    let searched = |surface: Surface| {
        model.services.iter().any(|svc| {
            svc.discovery == crate::parse::ast::ToolDiscovery::Search && svc.operations.iter().any(|op| op.on(surface))
        })
    };
    Catalogs { mcp: searched(Surface::Mcp), agent: searched(Surface::Agent), mcp_profiles: &[] }
}

/// The OpenAPI document, the MCP and agent manifests, and in search mode their catalogs.
pub fn documents(model: &crate::model::Model, surfaces: &crate::present::Surfaces) -> Vec<crate::out::Artifact> {
    let artifact =
        |name: &str, value: serde_json::Value| crate::out::Artifact { name: name.into(), bytes: json_bytes(&value) };
    let mut out = vec![
        artifact("openapi.json", openapi::document(model)),
        crate::out::Artifact { name: "mcp-tools.json".into(), bytes: mcp::mcp_manifest_bytes(surfaces) },
        crate::out::Artifact { name: "agent-tools.json".into(), bytes: mcp::agent_manifest_bytes(surfaces) },
    ];
    // Search mode's catalogs, only where a contract asks for it: no other output moves.
    for (name, transport) in [("mcp-catalog.json", Surface::Mcp), ("agent-catalog.json", Surface::Agent)] {
        if let Some(catalog) = mcp::catalog(surfaces, transport) {
            out.push(artifact(name, catalog));
        }
    }
    out
}
