//! Static descriptions of operations, emitted by the generator.

/// A surface an operation is served on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Surface {
    /// HTTP: full answers.
    Http,
    /// MCP tools.
    Mcp,
    /// Agent function tools.
    Agent,
    /// The command line.
    Cli,
}

impl Surface {
    /// Whether this is a tool surface (views apply).
    pub fn is_tool(self) -> bool {
        self != Surface::Http
    }
}

/// Endpoint or runtime tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    /// A contract endpoint.
    Contract,
    /// A runtime (pathless) tool.
    Runtime,
}

/// One operation, as the contract declared it.
#[derive(Debug)]
pub struct OperationDef {
    /// Service name.
    pub service: &'static str,
    /// Identity action.
    pub action: &'static str,
    /// Endpoint or runtime tool.
    pub kind: OpKind,
    /// `desc`.
    pub description: &'static str,
    /// HTTP method, when routed.
    pub method: Option<&'static str>,
    /// HTTP path (`/users/:id`), when routed.
    pub path: Option<&'static str>,
    /// The scope (`public` when none is declared).
    pub scope: &'static str,
    /// Surfaces it is served on.
    pub surfaces: &'static [Surface],
    /// Tool name, when on a tool surface.
    pub tool_name: Option<&'static str>,
    /// MCP annotations as JSON text.
    pub annotations: Option<&'static str>,
    /// Argument keys that are path parameters.
    pub param_keys: &'static [&'static str],
    /// Params schema, standalone JSON text.
    pub params_schema: Option<&'static str>,
    /// Input schema, standalone JSON text.
    pub input_schema: Option<&'static str>,
    /// Full output schema, standalone JSON text.
    pub output_schema: Option<&'static str>,
    /// The tool view.
    pub view: Option<ViewDef>,
}

/// A tool view.
#[derive(Debug)]
pub struct ViewDef {
    /// Defaults as a JSON object text.
    pub defaults: &'static str,
    /// The view's schema, standalone JSON text.
    pub output_schema: Option<&'static str>,
    /// Whether a projection computes the answer.
    pub project: bool,
    /// The field copies of a slice (no projection).
    pub slice: Option<&'static SlicePlan>,
}

/// The field copies that turn a full answer into a slice view.
#[derive(Debug)]
pub enum SlicePlan {
    /// Copy the value as it is.
    Keep,
    /// Copy these keys of an object, each by its own plan; drop every other key.
    Object(&'static [(&'static str, SlicePlan)]),
    /// Apply the plan to every item of an array.
    Array(&'static SlicePlan),
}

impl SlicePlan {
    /// Applies the plan, moving out of `full` (no copy of what is kept).
    pub fn apply(&self, full: serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match (self, full) {
            (SlicePlan::Object(fields), Value::Object(mut map)) => {
                let mut out = serde_json::Map::with_capacity(fields.len());
                for (key, plan) in *fields {
                    if let Some(v) = map.remove(*key) {
                        out.insert((*key).to_owned(), plan.apply(v));
                    }
                }
                Value::Object(out)
            }
            (SlicePlan::Array(plan), Value::Array(items)) => {
                Value::Array(items.into_iter().map(|i| plan.apply(i)).collect())
            }
            (_, v) => v,
        }
    }
}
