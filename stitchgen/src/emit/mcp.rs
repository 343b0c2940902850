//! MCP `tools/list` and agent function-tool manifests: the tool surfaces, views applied.

use serde_json::{Value, json};

use crate::canonical;
use crate::parse::ast::Surface;
use crate::present::{Surfaces, Tool};

/// The MCP protocol version the manifest targets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum McpTarget {
    /// 2025-11-25: `outputSchema` and `structuredContent` are objects.
    #[default]
    V2025_11_25,
    /// 2026-07-28: any JSON Schema answer.
    V2026_07_28,
}

impl McpTarget {
    /// The protocol version string.
    pub fn as_str(self) -> &'static str {
        match self {
            McpTarget::V2025_11_25 => "2025-11-25",
            McpTarget::V2026_07_28 => "2026-07-28",
        }
    }
    /// The target named by a version string.
    pub fn parse(s: &str) -> Option<McpTarget> {
        [McpTarget::V2025_11_25, McpTarget::V2026_07_28].into_iter().find(|t| t.as_str() == s)
    }
    /// Whether tool answers must be objects.
    pub fn object_answers_only(self) -> bool {
        self == McpTarget::V2025_11_25
    }
}

/// The key of the catalog stamp in `_meta`.
pub const CATALOG_META: &str = "stitchgen/catalog";

/// `{digest, tools}` of `transport`'s tools: the digest moves when and only when what its
/// manifest advertises of a tool changes (on MCP: name, title, description, schemas,
/// annotations and `ui`; on the agent: name, description and parameters), so a stateless
/// client can tell its catalog is stale.
pub fn catalog_stamp(tools: &[Tool], transport: Surface) -> Value {
    let entries: Vec<Value> = tools.iter().map(|t| t.entry(transport, None)).collect();
    json!({ "digest": canonical::digest(&Value::Array(entries)), "tools": tools.len() })
}

/// `{"tools": [...]}`, the `tools/list` result, sorted by name.
pub fn mcp_manifest(surfaces: &Surfaces) -> Value {
    let stamp = catalog_stamp(&surfaces.mcp, Surface::Mcp);
    let listed: Vec<Value> = surfaces.mcp.iter().map(|t| t.entry(Surface::Mcp, Some(&stamp))).collect();
    json!({ "tools": listed })
}

/// `{"tools": [{"name", "description", "parameters"}]}`, every object closed.
pub fn agent_manifest(surfaces: &Surfaces) -> Value {
    let listed: Vec<Value> = surfaces.agent.iter().map(|t| t.entry(Surface::Agent, None)).collect();
    json!({ "tools": listed })
}
