//! MCP `tools/list` and agent function-tool manifests: the tool surfaces, views applied.

use serde_json::Value;

use crate::parse::ast::Surface;
use crate::present::{Surfaces, Tool};

/// The MCP protocol version the manifest targets.
///
/// ```
/// use stitchgen::McpTarget;
/// let config = stitchgen::Config::new().mcp_target(McpTarget::V2026_07_28);
/// assert_eq!(McpTarget::default().as_str(), "2025-11-25");
/// # let _ = config;
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
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

/// `{"tools": [...]}`, the `tools/list` result, sorted by name: each tool, or in search mode
/// the three tools that stand for the searched ones ([`super::search`]).
pub fn mcp_manifest(surfaces: &Surfaces) -> Value {
    listed(&surfaces.mcp, Surface::Mcp, Some(surfaces.stamp(Surface::Mcp)))
}

/// `{"tools": [{"name", "description", "parameters"}]}`, every object closed.
pub fn agent_manifest(surfaces: &Surfaces) -> Value {
    listed(&surfaces.agent, Surface::Agent, None)
}

/// The catalog of `transport`'s searched tools (`{"tools", "index"}`), when it has any.
pub fn catalog(surfaces: &Surfaces, transport: Surface) -> Option<Value> {
    let tools = surfaces.get(transport);
    let stamp = (transport == Surface::Mcp).then(|| surfaces.stamp(transport));
    super::search::catalog(tools, transport, stamp)
}

fn listed(tools: &[Tool], transport: Surface, stamp: Option<&Value>) -> Value {
    let mut listed: Vec<Value> = tools.iter().filter(|t| !t.searched).map(|t| t.entry(transport, stamp)).collect();
    listed.extend(super::search::meta_tools(tools, transport, stamp));
    listed.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    crate::present::object([("tools", Value::Array(listed))])
}
