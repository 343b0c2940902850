//! Search mode (`toolDiscovery: search`): the three tools a manifest lists in place of the
//! searched tools, and the catalog beside it (`mcp-catalog.json`, `agent-catalog.json`) that
//! holds those tools' definitions, exactly as the default mode lists them, and the index the
//! runtime searches.

use serde_json::{Value, json};
use stitchgen_runtime::search::{
    CALL_TOOL, DEFAULT_LIMIT, DESCRIBE_TOOL, DISCOVERY_META, Index, MAX_LIMIT, SEARCH_TOOL,
};

use crate::parse::ast::Surface;
use crate::present::Tool;

/// The catalog of `tools`' searched ones on `transport`: `{"tools": [definition], "index"}`,
/// each definition carrying `stamp` as the listed ones do. `None` when no tool is searched.
pub fn catalog(tools: &[Tool], transport: Surface, stamp: Option<&Value>) -> Option<Value> {
    let searched: Vec<&Tool> = tools.iter().filter(|t| t.searched).collect();
    if searched.is_empty() {
        return None;
    }
    let definitions: Vec<Value> = searched.iter().map(|t| t.entry(transport, stamp)).collect();
    let index = Index::of_definitions(&definitions);
    Some(json!({ "tools": definitions, "index": index }))
}

/// What search mode costs up front on `transport`, for the snapshot: `{"mode": "search",
/// "tools": N, "bytes": B}`, N the tools searched and B the bytes of the three definitions as
/// compact JSON, as a client receives them (stamp included). `None` when no tool is searched.
pub fn discovery(tools: &[Tool], transport: Surface, stamp: Option<&Value>) -> Option<Value> {
    let listed = meta_tools(tools, transport, stamp);
    if listed.is_empty() {
        return None;
    }
    let bytes = serde_json::to_string(&listed).map_or(usize::MAX, |s| s.len());
    Some(json!({ "mode": "search", "tools": tools.iter().filter(|t| t.searched).count(), "bytes": bytes }))
}

/// The three search-mode tools as `transport`'s manifest lists them (sorted by name), with
/// `stamp` in `_meta` on MCP; none when no tool of `tools` is searched.
pub fn meta_tools(tools: &[Tool], transport: Surface, stamp: Option<&Value>) -> Vec<Value> {
    let searched: Vec<&Tool> = tools.iter().filter(|t| t.searched).collect();
    if searched.is_empty() {
        return Vec::new();
    }
    let services: std::collections::BTreeSet<&str> = searched.iter().map(|t| t.service.as_str()).collect();
    let services: Vec<&str> = services.into_iter().collect();
    let of = format!("the {} tools of {}", searched.len(), services.join(", "));
    let mcp = transport == Surface::Mcp;
    let arguments = if mcp {
        json!({ "type": "object", "description": "Its arguments, as `describe_tools` states them" })
    } else {
        // A function tool's objects are closed; a tool's own arguments travel as JSON text.
        json!({ "type": "string", "description": "Its arguments as a JSON object, as `describe_tools` states them" })
    };
    let listed = [
        (
            CALL_TOOL,
            format!("Calls one of {of} with its arguments; answers what that tool answers."),
            json!({ "type": "object", "properties": { "name": { "type": "string", "description": "A tool name `search_tools` gave" }, "arguments": arguments }, "required": ["name"] }),
            None,
            None,
        ),
        (
            DESCRIBE_TOOL,
            "The definitions of tools `search_tools` found: what each does, its arguments and its answer.".to_owned(),
            json!({ "type": "object", "properties": { "names": { "type": "array", "items": { "type": "string" }, "minItems": 1, "maxItems": MAX_LIMIT } }, "required": ["names"] }),
            Some(
                json!({ "type": "object", "properties": { "tools": { "type": "array", "items": { "type": "object" } } }, "required": ["tools"] }),
            ),
            Some(json!({ "readOnlyHint": true, "openWorldHint": false })),
        ),
        (
            SEARCH_TOOL,
            format!(
                "Finds, among {of}, those that fit a task, best first, each with one line. Describe a tool before calling it."
            ),
            json!({ "type": "object", "properties": { "query": { "type": "string", "description": "The task, in a few words" }, "limit": { "type": "integer", "minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT } }, "required": ["query"] }),
            Some(
                json!({ "type": "object", "properties": { "tools": { "type": "array", "items": { "type": "object", "properties": { "name": { "type": "string" }, "description": { "type": "string" } }, "required": ["name", "description"] } } }, "required": ["tools"] }),
            ),
            Some(json!({ "readOnlyHint": true, "openWorldHint": false })),
        ),
    ];
    listed
        .into_iter()
        .map(|(name, description, input, output, annotations)| {
            if !mcp {
                return json!({ "name": name, "description": description, "parameters": closed(input) });
            }
            let mut entry = json!({ "name": name, "description": description, "inputSchema": input });
            if let Some(output) = output {
                entry["outputSchema"] = output;
            }
            if let Some(annotations) = annotations {
                entry["annotations"] = annotations;
            }
            let mut meta = serde_json::Map::new();
            if let Some(stamp) = stamp {
                meta.insert(crate::present::CATALOG_META.into(), stamp.clone());
            }
            meta.insert(DISCOVERY_META.into(), json!({ "tools": searched.len() }));
            entry["_meta"] = Value::Object(meta);
            entry
        })
        .collect()
}

/// `schema` with every object schema closed (`additionalProperties: false`), as function
/// tools need; the agent's `arguments` is text, so nothing a tool takes is closed by it.
fn closed(mut schema: Value) -> Value {
    let Some(o) = schema.as_object_mut() else { return schema };
    if let Some(Value::Object(props)) = o.get_mut("properties") {
        for v in props.values_mut() {
            *v = closed(std::mem::take(v));
        }
    }
    if let Some(items) = o.get_mut("items") {
        *items = closed(std::mem::take(items));
    }
    if o.get("type") == Some(&json!("object")) {
        o.insert("additionalProperties".into(), json!(false));
    }
    schema
}
