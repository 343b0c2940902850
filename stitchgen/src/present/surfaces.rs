//! The tools of every tool surface, each fitted to its byte budget once: what the manifests,
//! the snapshot and the budget warnings read.

use serde_json::Value;

use super::tool::{Listed, Shows, Tool, build, collect};
use super::{Bodies, Memo, budget};
use crate::canonical::Canonical;
use crate::diag::Diagnostic;
use crate::model::Model;
use crate::parse::ast::{Contract, Surface};

/// The tools of every manifest, each fitted to its budget: built once, read by the manifests,
/// the snapshot and the budget warnings, and never changed (the catalog stamps are computed
/// from them when first asked, and kept).
#[derive(Clone, Debug)]
pub struct Surfaces {
    /// The MCP tools, sorted by name.
    pub mcp: Vec<Tool>,
    /// The agent function tools (every object closed), sorted by name.
    pub agent: Vec<Tool>,
    /// The CLI's commands, sorted by name. The CLI has no manifest: only what the snapshot
    /// states of them is computed, from each type's body sized and hashed once per service
    /// rather than from every command spelled out in full.
    pub cli: Vec<Listed>,
    /// The catalog stamps of the MCP and agent manifests (and of no tools, the CLI's and
    /// HTTP's), each computed when first asked.
    stamps: [std::sync::OnceLock<Value>; 3],
}

impl Surfaces {
    /// The tools of every tool surface of `model`; those of the two manifests fitted to their
    /// budgets.
    pub fn new(model: &Model) -> Self {
        let fitted = |transport| collect(model, transport, |op, svc, memo| budget::fitted(op, svc, transport, memo));
        let stamps = Default::default();
        Surfaces { mcp: fitted(Surface::Mcp), agent: fitted(Surface::Agent), cli: cli(model), stamps }
    }

    /// `{digest, tools}` of `transport`'s manifest, computed once (the manifest, the snapshot
    /// and search mode's catalog all carry it): the digest moves when and only when what the
    /// manifest advertises of a tool changes (on MCP: name, title, description, schemas,
    /// annotations and `ui`; on the agent: name, description and parameters), so a stateless
    /// client can tell its catalog is stale. The CLI and HTTP have no manifest: theirs is the
    /// stamp of no tools.
    pub fn stamp(&self, transport: Surface) -> &Value {
        let slot = match transport {
            Surface::Mcp => 0,
            Surface::Agent => 1,
            Surface::Cli | Surface::Http => 2,
        };
        self.stamps[slot].get_or_init(|| stamp(self.get(transport), transport))
    }

    /// The tools of the manifest of `transport` (none for the CLI and HTTP).
    pub fn get(&self, transport: Surface) -> &[Tool] {
        match transport {
            Surface::Mcp => &self.mcp,
            Surface::Agent => &self.agent,
            Surface::Cli | Surface::Http => &[],
        }
    }

    /// A W0007 warning for every tool past its budget, on each manifest.
    pub fn warnings(&self, contracts: &[Contract]) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        for transport in [Surface::Mcp, Surface::Agent] {
            for tool in self.get(transport) {
                let Some(over) = &tool.over else { continue };
                let Some(c) = contracts.iter().find(|c| c.service.as_ref().is_some_and(|s| s.value == tool.service))
                else {
                    continue;
                };
                let span = c.action_span(&tool.action).unwrap_or_else(|| c.service_span());
                out.push(budget::warning(tool, transport, over, span));
            }
        }
        out
    }

    /// What the snapshot states of each tool of `transport`, sorted by name.
    pub fn listed(&self, transport: Surface) -> Vec<Listed> {
        match transport {
            Surface::Cli => self.cli.clone(),
            _ => self.get(transport).iter().map(|t| Listed::of(t, transport)).collect(),
        }
    }
}

/// The CLI's commands as the snapshot states them, each built as a skeleton and its digests
/// filled from the memo: the same figures as [`Listed::of`] on the command built in full.
fn cli(model: &Model) -> Vec<Listed> {
    let shows = Shows::of(Surface::Cli);
    let mut out: Vec<Listed> = Vec::new();
    for svc in &model.services {
        let memo = Memo::default();
        for op in svc.operations.iter().filter(|op| op.on(Surface::Cli)) {
            let Some(sized) = build(op, svc, shows, &memo, Bodies::Named) else { continue };
            let digest = |v: &Value| super::skeleton_digest(v, svc, shows.style, &memo);
            out.push(Listed {
                bytes: sized.size(Surface::Cli),
                input: digest(&sized.tool.input),
                output: sized.tool.output.as_ref().map(digest),
                ..Listed::head(&sized.tool)
            });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// [`Surfaces::stamp`] of `tools`, each tool's entry hashed as it is made.
fn stamp(tools: &[Tool], transport: Surface) -> Value {
    let entries = tools.iter().map(|t| Box::new(t.borrowed_entry(transport, None)) as Box<dyn Canonical + '_>);
    // Search mode changes what is listed: the stamp moves when a tool enters or leaves it.
    let searched: Vec<&str> = tools.iter().filter(|t| t.searched).map(|t| t.name.as_str()).collect();
    let search = (!searched.is_empty()).then(|| serde_json::json!({ "discovery": "search", "tools": searched }));
    let search = search.map(|s| Box::new(s) as Box<dyn Canonical>);
    serde_json::json!({ "digest": crate::canonical::list_digest(entries.chain(search)), "tools": tools.len() })
}
