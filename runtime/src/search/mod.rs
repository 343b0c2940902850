//! Search mode: a catalog too large for a model's context listed as three tools. `search_tools`
//! finds tools by what a task needs (the lexical [`Index`] the generator built), `describe_tools`
//! gives their definitions exactly as the default mode lists them, and `call_tool` calls one
//! through the runner: its view defaults, its own input schema, its scope gate and its view,
//! the answer as that tool's own. Each surface adapter (MCP here, an agent loop of the user's)
//! reads the generated catalog (`mcp-catalog.json`, `agent-catalog.json`) with [`Catalog`].

mod index;

use std::collections::BTreeMap;

use serde::Deserialize;
use serde_json::{Map, Value, json};

// The index the compiler builds catalogs with: the same tokens at build time and at call time.
#[doc(hidden)]
pub use index::{Document, Hit, Index, Indexed, first_sentence, tokens};

use crate::{AppError, Ctx, ErrorCode, Service, Surface, ToolOutcome};

/// The tool that finds tools: `{query, limit?}` → `{tools: [{name, description}]}`.
pub const SEARCH_TOOL: &str = "search_tools";
/// The tool that states tools: `{names}` → `{tools: [definition]}`.
pub const DESCRIBE_TOOL: &str = "describe_tools";
/// The tool that calls a tool: `{name, arguments}` → that tool's answer.
pub const CALL_TOOL: &str = "call_tool";
/// The three, in the order a manifest lists them (by name).
pub const META_TOOLS: [&str; 3] = [CALL_TOOL, DESCRIBE_TOOL, SEARCH_TOOL];
/// The `_meta` key that marks a manifest's tools as search mode's; its value is
/// `{"tools": N}`, the number of tools in the catalog.
pub const DISCOVERY_META: &str = "stitchgen/discovery";
/// How many tools a search names unless asked for another number.
pub const DEFAULT_LIMIT: u64 = 8;
/// The most a search names, and the most tools one description states.
pub const MAX_LIMIT: u64 = 25;
/// The longest tool name a call may give, in characters (MCP's own limit): a longer one is
/// refused before it is compared with any name of the catalog.
pub const MAX_NAME_CHARS: usize = 128;
/// The longest query, in characters: a longer one is refused before it is read.
pub const MAX_QUERY_CHARS: usize = 1000;

/// A generated catalog: every tool of the search-mode services as the default mode would list
/// it, and the index over them.
#[derive(Clone, Debug)]
pub struct Catalog {
    tools: Vec<Value>,
    by_name: BTreeMap<String, usize>,
    index: Index,
}

#[derive(Deserialize)]
struct Shipped {
    tools: Vec<Value>,
    index: Index,
}

impl Catalog {
    /// Reads a generated catalog (`{"tools": [...], "index": {...}}`).
    pub fn parse(text: &str) -> Result<Catalog, String> {
        let shipped: Shipped = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let mut by_name = BTreeMap::new();
        for (i, tool) in shipped.tools.iter().enumerate() {
            let name = tool["name"].as_str().ok_or_else(|| format!("tool {i} has no name"))?;
            by_name.insert(name.to_owned(), i);
        }
        let names = shipped.tools.iter().map(|t| t["name"].as_str());
        if !shipped.index.tools.iter().map(|t| Some(t.name.as_str())).eq(names) {
            return Err("the index does not list the catalog's tools in their order".into());
        }
        Ok(Catalog { tools: shipped.tools, by_name, index: shipped.index })
    }

    /// The names of the catalog's tools, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.by_name.keys().map(String::as_str)
    }

    /// The definition of tool `name`, as the default mode lists it.
    pub fn definition(&self, name: &str) -> Option<&Value> {
        self.by_name.get(name).map(|&i| &self.tools[i])
    }

    /// The `limit` tools that best match `query`, best first.
    pub fn search(&self, query: &str, limit: usize) -> Vec<Hit<'_>> {
        self.index.search(query, limit)
    }

    /// Answers a call of one of the [`META_TOOLS`] on `surface`; `call_tool` runs the named
    /// tool on whichever of `services` serves it there.
    pub async fn call(
        &self,
        services: &[Service],
        surface: Surface,
        tool: &str,
        args: Value,
        ctx: &Ctx,
    ) -> Result<ToolOutcome, AppError> {
        let Value::Object(mut args) = args else {
            return Err(crate::validation::invalid("input", "arguments must be a JSON object".into(), Vec::new()));
        };
        let value = match tool {
            SEARCH_TOOL => self.search_answer(&args)?,
            DESCRIBE_TOOL => self.describe_answer(&args)?,
            CALL_TOOL => {
                let name = self.known(string(&args, "name")?, "/name")?.to_owned();
                let arguments = match args.remove("arguments") {
                    None | Some(Value::Null) => Value::Object(Map::new()),
                    Some(v @ Value::Object(_)) => v,
                    // A function tool's objects are closed: the agent surface sends JSON text.
                    Some(Value::String(text)) => match serde_json::from_str(&text) {
                        Ok(v @ Value::Object(_)) => v,
                        _ => return Err(argument("/arguments", "must be a JSON object: the tool's own arguments")),
                    },
                    Some(_) => return Err(argument("/arguments", "must be an object: the tool's own arguments")),
                };
                let service = services.iter().find(|s| s.find_tool(surface, &name).is_some()).ok_or_else(|| {
                    AppError::new(ErrorCode::NotFound, format!("tool `{name}` is not served on this surface"))
                })?;
                return service.call_tool(surface, &name, arguments, ctx).await;
            }
            other => return Err(AppError::new(ErrorCode::NotFound, format!("unknown tool `{other}`"))),
        };
        Ok(ToolOutcome { value, presentation: None, input_required: false })
    }

    fn search_answer(&self, args: &Map<String, Value>) -> Result<Value, AppError> {
        let query = string(args, "query")?;
        if query.chars().nth(MAX_QUERY_CHARS).is_some() {
            return Err(argument("/query", &format!("must be at most {MAX_QUERY_CHARS} characters")));
        }
        let limit = match args.get("limit") {
            None | Some(Value::Null) => DEFAULT_LIMIT,
            Some(v) => v
                .as_u64()
                .filter(|n| (1..=MAX_LIMIT).contains(n))
                .ok_or_else(|| argument("/limit", &format!("must be an integer from 1 to {MAX_LIMIT}")))?,
        };
        let tools: Vec<Value> = self
            .search(query, limit as usize)
            .into_iter()
            .map(|h| json!({ "name": h.name, "description": h.line }))
            .collect();
        Ok(json!({ "tools": tools }))
    }

    fn describe_answer(&self, args: &Map<String, Value>) -> Result<Value, AppError> {
        let names = args
            .get("names")
            .and_then(Value::as_array)
            .ok_or_else(|| argument("/names", "is required: a list of tool names, as `search_tools` gives them"))?;
        if names.is_empty() || names.len() as u64 > MAX_LIMIT {
            return Err(argument("/names", &format!("must name 1 to {MAX_LIMIT} tools")));
        }
        let mut tools = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let name = name.as_str().ok_or_else(|| argument(&format!("/names/{i}"), "must be a string"))?;
            tools.push(self.tools[self.by_name[self.known(name, &format!("/names/{i}"))?]].clone());
        }
        Ok(json!({ "tools": tools }))
    }

    /// `name` when the catalog has it; else `NOT_FOUND` naming the closest names. A name no
    /// tool can have is refused before it is compared: the comparison costs its length times
    /// each name's.
    fn known<'a>(&self, name: &'a str, path: &str) -> Result<&'a str, AppError> {
        if self.by_name.contains_key(name) {
            return Ok(name);
        }
        if name.chars().nth(MAX_NAME_CHARS).is_some() {
            return Err(argument(path, &format!("no tool name is longer than {MAX_NAME_CHARS} characters")));
        }
        let mut close: Vec<(f64, &str)> =
            self.names().map(|n| (strsim::normalized_damerau_levenshtein(name, n), n)).collect();
        close.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        let close: Vec<String> = close.iter().take(3).map(|(_, n)| format!("`{n}`")).collect();
        Err(AppError::new(ErrorCode::NotFound, format!("unknown tool `{name}`; the closest are {}", close.join(", ")))
            .with_hint(format!("find tools with `{SEARCH_TOOL}`")))
    }
}

fn string<'a>(args: &'a Map<String, Value>, key: &str) -> Result<&'a str, AppError> {
    args.get(key).and_then(Value::as_str).ok_or_else(|| argument(&format!("/{key}"), "is required: a string"))
}

/// `VALIDATION_ERROR` for one argument of a search-mode tool, as the runner words its own.
fn argument(path: &str, message: &str) -> AppError {
    crate::validation::invalid_argument(path, message)
}
