//! The one table of change rules: what each kind of change means to HTTP clients and to models.

/// How much a change matters to a consumer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Nothing breaks; worth knowing.
    Info,
    /// Existing consumers keep working but may behave differently.
    Warning,
    /// Existing consumers may break.
    Breaking,
}

impl Level {
    /// `info`, `warning` or `breaking`.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Info => "info",
            Level::Warning => "warning",
            Level::Breaking => "breaking",
        }
    }
}

/// Who reads a surface: code over HTTP, or models on the tool surfaces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Consumer {
    /// HTTP clients (full answers).
    Http,
    /// MCP, agent and CLI tools (views applied).
    Tools,
}

impl Consumer {
    /// `HTTP` or `tools`.
    pub fn as_str(self) -> &'static str {
        match self {
            Consumer::Http => "HTTP",
            Consumer::Tools => "tools",
        }
    }
}

/// One rule: its id, what it means, and its level for each consumer (`None`: never applies).
#[derive(Debug)]
pub struct Rule {
    /// Stable id, also the name of its fixture case under `fixtures/diff/`.
    pub id: &'static str,
    /// What the change is.
    pub summary: &'static str,
    /// Its level for HTTP clients.
    pub http: Option<Level>,
    /// Its level for tool consumers.
    pub tools: Option<Level>,
}

use Level::{Breaking, Info, Warning};

macro_rules! rules {
    ($($id:literal, $http:expr, $tools:expr, $summary:literal;)*) => {
        /// Every rule, in the order the README documents them.
        pub const RULES: &[Rule] = &[$(Rule { id: $id, summary: $summary, http: $http, tools: $tools },)*];
    };
}

rules! {
    "operation-removed", Some(Breaking), None, "an HTTP operation is gone";
    "operation-added", Some(Info), None, "a new HTTP operation";
    "route-changed", Some(Breaking), None, "an operation's method or path changed";
    "param-moved", Some(Breaking), None, "a parameter travels elsewhere: another place (query, header, cookie) or another name there";
    "input-content-type-changed", Some(Breaking), None, "the media type of a request body changed (JSON, its `inputContentType`, or an upload)";
    "request-body-added", Some(Breaking), None, "the operation now reads a request body: a client that sent none sends the wrong request";
    "request-body-removed", Some(Warning), None, "the operation no longer reads a request body: what clients send is ignored";
    "request-body-made-required", Some(Breaking), None, "a request body that could be absent must now be sent (`inputOptional` removed)";
    "request-body-made-optional", Some(Info), None, "a request body may now be absent (`inputOptional`)";
    "response-media-type-changed", Some(Breaking), None, "the media type of the success answer changed (JSON, raw bytes or a stream)";
    "success-status-changed", Some(Breaking), None, "the status of a successful answer changed";
    "success-answer-added", Some(Breaking), None, "a success documented beside the main answer (`http.successes`) is new: a client reads it as the main answer";
    "success-answer-removed", Some(Info), None, "a success documented beside the main answer is gone: it is no longer answered";
    "error-answer-added", Some(Warning), None, "an error answer documented at a status of its own (`http.errors`) is new: a client reads its body there (or none), not the registry's envelope";
    "error-answer-removed", Some(Warning), None, "an error answer documented at a status of its own is gone: a client reading its body gets the registry's envelope at its status, or an undocumented answer";
    "error-code-added", Some(Warning), None, "an operation documents a registry error code it did not (`errors`): clients may now be answered with it";
    "error-code-removed", Some(Info), None, "an operation no longer documents a registry error code (`errors`)";
    "response-header-removed", Some(Breaking), None, "a documented response header is gone";
    "response-header-made-optional", Some(Breaking), None, "a required response header became optional";
    "response-header-added", Some(Info), None, "a new documented response header";
    "response-header-made-required", Some(Info), None, "an optional response header became required";
    "tool-removed", None, Some(Breaking), "a tool is gone from a transport";
    "tool-added", None, Some(Info), "a new tool on a transport";
    "tool-renamed", None, Some(Breaking), "an operation's tool name changed";
    "tool-discovery-changed", None, Some(Breaking), "a tool entered or left search mode: it is called by its own name, or through `call_tool`";
    "scope-changed", Some(Warning), Some(Warning), "the scope that guards an operation changed";
    "required-input-added", Some(Breaking), Some(Breaking), "a new input that callers must send";
    "optional-input-added", Some(Info), Some(Info), "a new optional input";
    "input-removed", Some(Warning), Some(Warning), "an input is no longer declared";
    "input-made-required", Some(Breaking), Some(Breaking), "an optional input became required";
    "input-made-optional", Some(Info), Some(Info), "a required input became optional (or got a view default)";
    "input-type-narrowed", Some(Breaking), Some(Breaking), "an input accepts fewer types";
    "input-type-widened", Some(Info), Some(Info), "an input accepts more types";
    "input-enum-narrowed", Some(Breaking), Some(Breaking), "an input accepts fewer values";
    "input-enum-widened", Some(Info), Some(Info), "an input accepts more values";
    "input-constraint-narrowed", Some(Breaking), Some(Breaking), "a bound, pattern or format of an input got stricter";
    "input-constraint-widened", Some(Info), Some(Info), "a bound, pattern or format of an input got looser";
    "output-field-removed", Some(Breaking), Some(Breaking), "an output field is gone";
    "output-field-added", Some(Info), Some(Info), "a new output field";
    "output-field-made-optional", Some(Breaking), Some(Breaking), "a required output field became optional";
    "output-field-made-required", Some(Info), Some(Info), "an optional output field became required";
    "output-type-widened", Some(Warning), Some(Warning), "an output field may have more types";
    "output-type-narrowed", Some(Info), Some(Info), "an output field has fewer types";
    "output-enum-widened", Some(Warning), Some(Warning), "an output field may hold new values";
    "output-enum-narrowed", Some(Info), Some(Info), "an output field holds fewer values";
    "output-constraint-changed", Some(Info), Some(Info), "a bound, pattern or format of an output changed";
    "input-branch-added", Some(Info), Some(Info), "an input accepts a new `anyOf`/`oneOf` branch";
    "input-branch-removed", Some(Breaking), Some(Breaking), "an input no longer accepts an `anyOf`/`oneOf` branch";
    "input-branch-overlaps", Some(Breaking), Some(Breaking), "a new `oneOf` branch of an input overlaps another: a value both match is refused";
    "output-branch-added", Some(Warning), Some(Warning), "an output may take a new `anyOf`/`oneOf` branch";
    "output-branch-removed", Some(Breaking), Some(Breaking), "an output lost an `anyOf`/`oneOf` branch that found no counterpart";
    "composition-changed", Some(Warning), Some(Warning), "`anyOf` became `oneOf` (or back), or an `allOf` part that does not merge changed; review it";
    "view-defaults-changed", None, Some(Warning), "a tool view's defaults changed: a call without arguments does something else";
    "view-project-changed", None, Some(Info), "a tool view gained or lost its projection";
    "read-only-dropped", None, Some(Warning), "`readOnlyHint` went from true to false";
    "destructive-added", None, Some(Warning), "`destructiveHint` went from false to true";
    "annotation-changed", None, Some(Info), "another tool annotation changed";
    "profile-refused", None, Some(Breaking), "a client profile asked for (`--profile`) refuses a tool: its list cannot be written (`generate` stops with E0560) and its clients lose the tool";
    "profile-tool-renamed", None, Some(Breaking), "a client profile lists a tool under another name: its clients call it by the old one";
    "profile-cap-exceeded", None, Some(Warning), "a client profile's list passes the tools its client takes in one request";
    "input-required-added", None, Some(Breaking), "an MCP tool now asks its user before it acts (`tool.mcp.inputRequired`): a client without elicitation can no longer call it";
    "input-required-changed", None, Some(Warning), "what an MCP tool asks its user changed: a question, its key or its form";
    "input-required-removed", None, Some(Warning), "an MCP tool no longer asks its user before it acts";
    "description-changed", Some(Info), Some(Info), "a description changed";
}

/// The rule with id `id`.
pub fn rule(id: &str) -> &'static Rule {
    RULES.iter().find(|r| r.id == id).unwrap_or_else(|| panic!("no diff rule `{id}`"))
}
