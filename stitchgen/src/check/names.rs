//! Tool names (DESIGN §3.3): derivation, the portable charset, uniqueness per transport
//! across every contract and runtime tool given together.

use super::Cx;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::naming::{self, MAX_TOOL_NAME};
use crate::parse::ast::{Surface, ToolDiscovery};
use crate::source::Span;

/// One tool as the transports see it.
struct Tool {
    name: String,
    span: Span,
    derived: bool,
    transports: Vec<Surface>,
    /// Whether the manifests list it (its contract is not in search mode).
    listed: bool,
}

/// The tools of a contract: endpoints on a tool surface, and runtime tools.
fn tools(cx: &Cx<'_>, diags: &mut Diagnostics) -> Vec<Tool> {
    let mut out = Vec::new();
    let listed = cx.c.tool_discovery.as_ref().is_none_or(|d| d.value == ToolDiscovery::List);
    for e in cx.endpoints() {
        let transports: Vec<Surface> = cx.surfaces(e).into_iter().filter(|s| s.is_tool()).collect();
        if transports.is_empty() || super::is_http_only(e) {
            continue;
        }
        match e.tool.as_ref().and_then(|t| t.value.name.as_ref()) {
            Some(n) => out.push(Tool { name: n.value.clone(), span: n.span, derived: false, transports, listed }),
            None => match naming::derive_tool_name(cx.service(), &e.action.value) {
                Some(name) => out.push(Tool { name, span: e.action.span, derived: true, transports, listed }),
                None if cx.c.service.is_some() => diags.push(
                    Diagnostic::new(
                        Code::UnderivableToolName,
                        e.action.span,
                        format!("cannot derive a tool name for `{}`", e.action.value),
                    )
                    .label("tool names are derived from the service and the action")
                    .note(format!("service `{}` has no letter or digit to name tools after", cx.service()))
                    .help("set `tool.name`"),
                ),
                None => {}
            },
        }
    }
    for t in cx.tools() {
        let transports: Vec<Surface> = match &t.transports {
            Some(list) => list.value.iter().map(|s| s.value).filter(|s| s.is_tool()).collect(),
            None => vec![Surface::Mcp, Surface::Agent],
        };
        out.push(Tool { name: t.name.value.clone(), span: t.name.span, derived: false, transports, listed });
    }
    out
}

/// Charset and length on MCP and AGENT; uniqueness on every transport.
pub(super) fn check(all: &[Cx<'_>], diags: &mut Diagnostics) {
    let mut every = Vec::new();
    for cx in all {
        every.extend(tools(cx, diags));
    }
    for t in &every {
        let model_facing = t.transports.iter().any(|s| matches!(s, Surface::Mcp | Surface::Agent));
        if model_facing && !naming::is_portable_tool_name(&t.name) {
            let why = if t.name.len() > MAX_TOOL_NAME {
                format!("{} characters; at most {MAX_TOOL_NAME}", t.name.len())
            } else {
                "outside `^[A-Za-z0-9_-]{1,64}$`".into()
            };
            let shown: String = t.name.chars().take(80).collect();
            let d = Diagnostic::new(Code::InvalidToolName, t.span, format!("tool name `{shown}` is not portable"))
                .label(why)
                .note("MCP clients and function-calling providers all accept `^[A-Za-z0-9_-]{1,64}$`");
            diags.push(if t.derived {
                d.help("set a shorter `tool.name`")
            } else {
                d.help("use letters, digits, `_` and `-` only")
            });
        }
    }
    for transport in [Surface::Mcp, Surface::Agent, Surface::Cli] {
        let on: Vec<&Tool> = every.iter().filter(|t| t.transports.contains(&transport)).collect();
        for (i, t) in on.iter().enumerate() {
            let Some(first) = on[..i].iter().find(|p| p.name == t.name) else {
                continue;
            };
            // A pair that collides on several transports is reported once, on the first.
            let earlier = [Surface::Mcp, Surface::Agent, Surface::Cli]
                .into_iter()
                .take_while(|s| *s != transport)
                .any(|s| t.transports.contains(&s) && first.transports.contains(&s));
            if earlier {
                continue;
            }
            let what = if transport == Surface::Cli { "CLI command" } else { "tool" };
            let d = Diagnostic::new(
                Code::DuplicateToolName,
                t.span,
                format!("{what} name `{}` is used twice on {}", t.name, transport.as_str()),
            )
            .label(if t.derived { "derived name" } else { "named here" })
            .secondary(first.span, if first.derived { "the same name is derived here" } else { "first named here" });
            diags.push(d.help(
                "set `tool.name` on one of them (names are unique per transport across every contract given together)",
            ));
        }
    }
    search_names(all, &every, diags);
}

/// In search mode the manifests list `search_tools`, `describe_tools` and `call_tool`: a tool
/// listed beside them may not take one of their names.
fn search_names(all: &[Cx<'_>], every: &[Tool], diags: &mut Diagnostics) {
    let search = all.iter().find_map(|cx| cx.c.tool_discovery.as_ref().filter(|d| d.value == ToolDiscovery::Search));
    let Some(search) = search else { return };
    let model_facing = |t: &&Tool| t.transports.iter().any(|s| matches!(s, Surface::Mcp | Surface::Agent));
    for t in every.iter().filter(|t| t.listed).filter(model_facing) {
        if !stitchgen_runtime::search::META_TOOLS.contains(&t.name.as_str()) {
            continue;
        }
        diags.push(
            Diagnostic::new(
                Code::DuplicateToolName,
                t.span,
                format!("tool name `{}` is one search mode lists", t.name),
            )
            .label(if t.derived { "derived name" } else { "named here" })
            .secondary(
                search.span,
                "search mode lists `search_tools`, `describe_tools` and `call_tool` beside this tool",
            )
            .help("set another `tool.name`, or present this contract in search mode too (`toolDiscovery: search`)"),
        );
    }
}
