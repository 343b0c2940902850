//! MCP `tools/list` and agent function-tool manifests: the tool surfaces, views applied.

use serde_json::Value;

use crate::parse::ast::Surface;
use crate::present::{Entry, Surfaces, Tool};

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
    mcp_listing(surfaces).value()
}

/// `{"tools": [{"name", "description", "parameters"}]}`, every object closed.
pub fn agent_manifest(surfaces: &Surfaces) -> Value {
    agent_listing(surfaces).value()
}

/// [`mcp_manifest`] as the bytes of `mcp-tools.json`, written from the tools as they stand.
pub fn mcp_manifest_bytes(surfaces: &Surfaces) -> Vec<u8> {
    super::json_bytes(&mcp_listing(surfaces))
}

/// [`agent_manifest`] as the bytes of `agent-tools.json`, written from the tools as they stand.
pub fn agent_manifest_bytes(surfaces: &Surfaces) -> Vec<u8> {
    super::json_bytes(&agent_listing(surfaces))
}

fn mcp_listing(surfaces: &Surfaces) -> Listing<'_> {
    Listing::of(&surfaces.mcp, Surface::Mcp, Some(surfaces.stamp(Surface::Mcp)))
}

fn agent_listing(surfaces: &Surfaces) -> Listing<'_> {
    Listing::of(&surfaces.agent, Surface::Agent, None)
}

/// The catalog of `transport`'s searched tools (`{"tools", "index"}`), when it has any.
pub fn catalog(surfaces: &Surfaces, transport: Surface) -> Option<Value> {
    let tools = surfaces.get(transport);
    let stamp = (transport == Surface::Mcp).then(|| surfaces.stamp(transport));
    super::search::catalog(tools, transport, stamp)
}

/// A manifest, `{"tools": [...]}`, borrowed from the tools: serialized as it stands for the
/// file, or made a value for what rewrites it (client profiles, memory, diffs).
#[derive(serde::Serialize)]
struct Listing<'a> {
    tools: Vec<Listed<'a>>,
}

/// One entry of a manifest: a tool's, or one of search mode's three.
#[derive(serde::Serialize)]
#[serde(untagged)]
enum Listed<'a> {
    Tool(Entry<'a>),
    Search(Value),
}

impl Listed<'_> {
    fn name(&self) -> Option<&str> {
        match self {
            Listed::Tool(entry) => Some(entry.name),
            Listed::Search(value) => value["name"].as_str(),
        }
    }
}

impl<'a> Listing<'a> {
    /// The tools of `tools` that are listed, with search mode's three, sorted by name.
    fn of(tools: &'a [Tool], transport: Surface, stamp: Option<&'a Value>) -> Self {
        let listed = tools.iter().filter(|t| !t.searched).map(|t| Listed::Tool(t.borrowed_entry(transport, stamp)));
        let search = super::search::meta_tools(tools, transport, stamp).into_iter().map(Listed::Search);
        let mut tools: Vec<Listed<'a>> = listed.chain(search).collect();
        tools.sort_by(|a, b| a.name().cmp(&b.name()));
        Listing { tools }
    }

    fn value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
