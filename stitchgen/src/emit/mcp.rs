//! MCP `tools/list` and agent function-tool manifests: the tool surfaces, views applied.

use serde_json::{Map, Value, json};

use crate::canonical;
use crate::model::Model;
use crate::parse::ast::Surface;
use crate::present::{self, Refs, Style, Tool};

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

/// `{digest, tools}`: the digest moves when and only when a tool's name, description, input,
/// output or annotations change, so a stateless client can tell its catalog is stale.
pub fn catalog_stamp(tools: &[Tool]) -> Value {
    let entries: Vec<Value> = tools
        .iter()
        .map(|t| json!({ "name": t.name, "description": t.description, "input": t.input, "output": t.output, "annotations": t.annotations }))
        .collect();
    json!({ "digest": canonical::digest(&Value::Array(entries)), "tools": tools.len() })
}

/// The MCP tools of everything generated together.
pub fn mcp_tools(model: &Model) -> Vec<Tool> {
    present::tools(model, Surface::Mcp, Style { refs: Refs::Inline, close_objects: false })
}

/// `{"tools": [...]}`, the `tools/list` result, sorted by name.
pub fn mcp_manifest(model: &Model) -> Value {
    let tools = mcp_tools(model);
    let stamp = catalog_stamp(&tools);
    let listed: Vec<Value> = tools
        .iter()
        .map(|t| {
            let mut o = Map::new();
            o.insert("name".into(), json!(t.name));
            if let Some(title) = &t.title {
                o.insert("title".into(), json!(title));
            }
            o.insert("description".into(), json!(t.description));
            o.insert("inputSchema".into(), t.input.clone());
            if let Some(out) = &t.output {
                o.insert("outputSchema".into(), out.clone());
            }
            if let Some(a) = &t.annotations {
                o.insert("annotations".into(), a.clone());
            }
            let mut meta = Map::new();
            meta.insert(CATALOG_META.into(), stamp.clone());
            if let Some(ui) = &t.ui {
                meta.insert("ui".into(), ui.clone());
            }
            o.insert("_meta".into(), Value::Object(meta));
            Value::Object(o)
        })
        .collect();
    json!({ "tools": listed })
}

/// `{"tools": [{"name", "description", "parameters"}]}`, every object closed.
pub fn agent_manifest(model: &Model) -> Value {
    let tools = present::tools(model, Surface::Agent, Style { refs: Refs::Inline, close_objects: true });
    let listed: Vec<Value> =
        tools.iter().map(|t| json!({ "name": t.name, "description": t.description, "parameters": t.input })).collect();
    json!({ "tools": listed })
}
