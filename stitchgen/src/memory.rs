//! A checked contract made ready to serve with no generated Rust: the runtime's definitions of
//! its operations ([`present::defs`], the values the generated module writes as statics) and
//! its MCP tool list, as `generate` writes it, all built in memory.

use stitchgen_runtime::OperationDef;

use crate::emit::{json_bytes, mcp};
use crate::parse::ast::Surface;
use crate::{Checked, Error, model, present};

/// One service's facts, as the runtime serves them.
#[derive(Debug)]
pub struct InMemory {
    /// The service's module name (as the generated module is named).
    pub name: String,
    /// The types document its schemas refer to.
    pub types: &'static str,
    /// Every operation, in declaration order.
    pub catalog: &'static [&'static OperationDef],
    /// `mcp-tools.json`, byte for byte as `generate` writes it.
    pub mcp_tools: String,
    /// `mcp-catalog.json` in search mode (`toolDiscovery: search`).
    pub mcp_catalog: Option<String>,
    /// The operations whose tool answer is Rust (`project: true` views, presenters), named: only
    /// a build with the generated module serves them.
    pub rust: Vec<String>,
}

impl InMemory {
    /// Whether every operation can be served from memory: an error naming those that cannot.
    pub fn servable(&self) -> Result<(), NotServed> {
        if self.rust.is_empty() { Ok(()) } else { Err(NotServed::NeedsRust(self.rust.clone())) }
    }
}

/// Why a contract cannot be served from memory.
#[derive(Debug)]
pub enum NotServed {
    /// The check found errors (they are in the [`Checked`] given).
    Invalid,
    /// Not one service: the in-memory service is one contract's.
    Services(usize),
    /// Operations whose tool answer is Rust (`project: true` views, presenters): only a build
    /// with the generated module can serve them.
    NeedsRust(Vec<String>),
    /// A checked contract could not be lowered: a gap in stitchgen.
    Emit(Error),
}

impl std::fmt::Display for NotServed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotServed::Invalid => write!(f, "the contract has errors"),
            NotServed::Services(n) => write!(f, "one contract of one service is served; {n} were given"),
            NotServed::NeedsRust(ops) => write!(
                f,
                "{} compute their tool answers in Rust (`project: true` views or presenters): serve them from a build \
                 (build.rs generates the module; `NAME::remote::<YourViews, _>(origin)` in front of the API)",
                ops.join(", ")
            ),
            NotServed::Emit(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for NotServed {}

/// The facts of the one service of `checked`, built in memory.
pub fn in_memory(checked: &Checked) -> Result<InMemory, NotServed> {
    let mut services = services(checked)?;
    match services.len() {
        1 => Ok(services.remove(0)),
        n => Err(NotServed::Services(n)),
    }
}

/// The facts of every service of `checked` (contracts given together, as `generate` names their
/// modules), in order; with several, the MCP tool list is theirs together, as `generate` writes it.
pub fn services(checked: &Checked) -> Result<Vec<InMemory>, NotServed> {
    if checked.has_errors() {
        return Err(NotServed::Invalid);
    }
    let model = model::lower(&checked.contracts, &checked.sources, &checked.options);
    let surfaces = present::Surfaces::new(&model);
    let text = |value| {
        String::from_utf8(json_bytes(&value)).map_err(|e| NotServed::Emit(Error::Emit(format!("a manifest: {e}"))))
    };
    let mcp_tools = text(mcp::mcp_manifest(&surfaces))?;
    let mcp_catalog = mcp::catalog(&surfaces, Surface::Mcp).map(text).transpose()?;
    let facts = |svc: &model::Service| {
        let rust = svc
            .operations
            .iter()
            .filter(|op| op.view.as_ref().is_some_and(|v| v.project) || !op.present.is_empty())
            .map(|op| format!("`{}`", op.action))
            .collect();
        let (types, catalog) = present::defs::catalog(svc);
        let (mcp_tools, mcp_catalog) = (mcp_tools.clone(), mcp_catalog.clone());
        InMemory { name: svc.module.clone(), types, catalog, mcp_tools, mcp_catalog, rust }
    };
    Ok(model.services.iter().map(facts).collect())
}
