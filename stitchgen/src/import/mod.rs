//! `stitchgen import`: an OpenAPI 3.0 or 3.1 description becomes a contract (DESIGN §8).
//!
//! read (every file its `$ref`s name) → gate → convert (schemas, operations) → write. Every
//! lowering is a warning at its source; the summary counts what was imported and skipped.

mod examples;
mod expose;
mod fit;
mod load;
mod ops;
mod schemas;
mod security;
mod structure;
mod write;

use std::path::Path;

use serde_json::{Map, Value as J};

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::node::Node;
use crate::source::{SourceMap, Span};
pub use expose::MAX_IMPORTED_TOOL_NAME;
use load::Docs;

/// What the importer is asked for.
#[derive(Clone, Debug, Default)]
pub struct ImportOptions {
    /// The contract's `service` (default: from the document's title, else its file name).
    pub service: Option<String>,
    /// Put every eligible endpoint on MCP, AGENT and CLI.
    pub expose: bool,
    /// Read a `$ref` that points nowhere as any value (`{}`), with a warning, instead of
    /// refusing the description.
    pub lenient: bool,
    /// Present the tools in search mode (`toolDiscovery: search`): three tools in the
    /// manifests over a catalog of every tool, for APIs past what clients take.
    pub search: bool,
}

/// What [`import`] read, found and wrote.
#[derive(Debug)]
pub struct Imported {
    /// The files read, for rendering diagnostics.
    pub sources: SourceMap,
    /// Input errors and lowering warnings, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// The contract's text; `None` when an input error stopped the import.
    pub contract: Option<String>,
    /// What was imported and what was not.
    pub summary: Summary,
}

/// Counts of what was imported, and every skip with its reason.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Operations imported.
    pub imported: usize,
    /// The actions of those imported with at least one lowering of their own (lowerings in
    /// shared types are counted by the warnings, not here).
    pub lowered: std::collections::BTreeSet<String>,
    /// Operations and other constructs not imported: (JSON pointer, why).
    pub skipped: Vec<(String, String)>,
    /// Vendor extensions (`x-…`) in schemas, which the contract does not carry.
    pub extensions: usize,
    /// Endpoints exposed as tools on MCP, AGENT and CLI under `--expose` (`None` without it).
    pub exposed: Option<usize>,
    /// Endpoints left HTTP-only under `--expose`: (action, why).
    pub http_only: Vec<(String, String)>,
    /// Tools under `--expose` whose name is not their action: shortened to
    /// [`MAX_IMPORTED_TOOL_NAME`] or made unique.
    pub renamed: usize,
    /// Shared schemas (`components.schemas`) no imported operation uses, not written.
    pub dropped: Vec<String>,
}

impl Summary {
    fn imported(&mut self, action: &str, lowered: bool) {
        self.imported += 1;
        if lowered {
            self.lowered.insert(action.to_owned());
        }
    }

    fn skip(&mut self, pointer: &str, why: String) {
        self.skipped.push((load::shown_pointer(pointer), why));
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let noun = if self.imported == 1 { "operation" } else { "operations" };
        write!(f, "{} {noun} imported", self.imported)?;
        if !self.lowered.is_empty() {
            write!(f, ", {} of them with lowerings (each a warning above)", self.lowered.len())?;
        }
        writeln!(f, "; {} skipped", self.skipped.len())?;
        for (pointer, why) in &self.skipped {
            writeln!(f, "  skipped {pointer}: {why}")?;
        }
        if !self.dropped.is_empty() {
            const SHOWN: usize = 10;
            let shown = self.dropped.iter().take(SHOWN).map(String::as_str).collect::<Vec<_>>().join(", ");
            let more = self.dropped.len().saturating_sub(SHOWN);
            let more = if more > 0 { format!(" and {more} more") } else { String::new() };
            let noun = if self.dropped.len() == 1 { "schema" } else { "schemas" };
            writeln!(f, "{} shared {noun} no imported operation uses, not written: {shown}{more}", self.dropped.len())?;
        }
        if self.extensions > 0 {
            writeln!(f, "{} vendor extensions (`x-…`) in schemas not carried over", self.extensions)?;
        }
        if let Some(exposed) = self.exposed {
            writeln!(f, "{exposed} endpoints exposed as tools on MCP, AGENT and CLI, each named after its operation")?;
            if self.renamed > 0 {
                writeln!(
                    f,
                    "  {} tool names shortened to {MAX_IMPORTED_TOOL_NAME} characters or made unique",
                    self.renamed
                )?;
            }
        }
        if !self.http_only.is_empty() {
            writeln!(f, "{} endpoints stay HTTP-only:", self.http_only.len())?;
            for (action, why) in &self.http_only {
                writeln!(f, "  {action}: {why}")?;
            }
        }
        Ok(())
    }
}

/// A rule of the contract checked once the whole contract is converted (it needs the types).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pending {
    /// The `default` of the schema at `out` must satisfy that schema.
    Default,
    /// The query field schema at `out` must be a scalar or an array of scalars.
    QueryField,
    /// The path parameter schema at `out` must be a scalar.
    PathParam,
    /// The `deepObject` query parameter schema at `out` must be an object of fields text
    /// carries.
    DeepObject,
    /// The header or cookie parameter schema at `out` must be a scalar.
    PlacedScalar,
    /// The form input of the endpoint at `out` must be an object of fields text carries.
    FormInput,
    /// The body of the endpoint at `out` is optional: `inputOptional` where it still has an input
    /// once the form rules ran.
    OptionalBody,
    /// Every `required` name of the composed object schema at `out` must be declared.
    Required,
    /// No parameter of the endpoint at `out` may share its name with an input key.
    ParamNames,
    /// No two `oneOf` branches of the schema at `out` may be the same schema, or told apart by
    /// nothing.
    OneOf,
}

/// The lowering warnings of one import, the count of dropped extensions, and the rules left
/// to check on the converted contract, each with its source.
#[derive(Default)]
pub(crate) struct Lowerings {
    diags: Diagnostics,
    extensions: usize,
    pending: Vec<(Pending, Span, String, String)>,
}

impl Lowerings {
    /// A lowering at `span`, whose source is at `pointer` in that file.
    fn warn(&mut self, span: Span, pointer: &str, message: String) {
        self.diags.push(
            Diagnostic::new(Code::ImportLowered, span, message).note(format!("at {}", load::shown_pointer(pointer))),
        );
    }

    /// A rule to check at `out` in the contract, reported at `span` (`pointer`) when it fails.
    fn pending(&mut self, rule: Pending, span: Span, pointer: &str, out: &str) {
        self.pending.push((rule, span, pointer.to_owned(), out.to_owned()));
    }

    /// The mapping-level `$ref`s followed to read the entries of `what`, each (span, pointer).
    fn map_refs(&mut self, followed: Vec<(Span, String)>, what: &str) {
        for (span, pointer) in followed {
            let why = format!(
                "`{what}` as a `$ref` to a mapping is not standard OpenAPI; its entries are read from the file it names"
            );
            self.warn(span, &pointer, why);
        }
    }

    fn extension(&mut self) {
        self.extensions += 1;
    }

    /// How many lowerings so far.
    fn count(&self) -> usize {
        self.diags.iter().count()
    }
}

/// Reads the OpenAPI description at `entry` (and every file it refers to) and writes the
/// contract. I/O failures on the entry are errors; everything wrong inside is a diagnostic.
pub fn import(entry: &Path, options: &ImportOptions) -> Result<Imported, crate::Error> {
    let mut sources = SourceMap::new();
    let mut diags = Diagnostics::default();
    let docs = Docs::load(entry, options.lenient, &mut sources, &mut diags)?;
    let mut summary = Summary::default();
    // Gate: nothing is converted from a description that is not whole.
    let Some(version) = docs.as_ref().and_then(|d| version(&d.docs[0].root, &mut diags)) else {
        return Ok(Imported { sources, diagnostics: diags.into_sorted(), contract: None, summary });
    };
    let docs = docs.expect("checked above");
    structure::check(&docs, &mut diags);
    if diags.has_errors() {
        return Ok(Imported { sources, diagnostics: diags.into_sorted(), contract: None, summary });
    }
    let mut lowered = Lowerings::default();
    let mut types = schemas::Schemas::new(&docs, version.starts_with("3.1"), &mut lowered);
    let mut endpoints = ops::Endpoints::new(&docs, &mut types);
    endpoints.schemes = security::schemes(&docs, &mut lowered);
    endpoints.paths(&mut lowered, &mut summary);
    let schemes = std::mem::take(&mut endpoints.schemes);
    let endpoints = std::mem::take(&mut endpoints.out);
    if let Some(nothing) = nothing_imported(&docs.docs[0].root, &summary) {
        diags.push(nothing);
        return Ok(Imported { sources, diagnostics: diags.into_sorted(), contract: None, summary });
    }
    let types = types.finish(&mut lowered);
    summary.extensions = lowered.extensions;
    let root = &docs.docs[0].root;
    let service = options.service.clone().unwrap_or_else(|| service_name(root, entry));
    let origins: Vec<(String, Span, String)> = types.iter().map(|t| (t.name.clone(), t.span, t.src.clone())).collect();
    let types = object(types.into_iter().map(|t| (t.name, t.body)));
    let mut body = serde_json::json!({ "types": types, "endpoints": object(endpoints) });
    security::apply(&docs, schemes, &mut body, &mut lowered);
    summary.lowered.extend(fit::fit(&mut body, &mut lowered));
    fit::rename_generated_names(&mut body, &origins, &mut lowered);
    summary.dropped = fit::drop_unused(&mut body);
    if options.expose {
        expose::expose(&mut body, &mut summary);
    }
    let search = options.search;
    let contract = write::Contract { root, version: &version, entry, service, body, search };
    let text = contract.render().map_err(crate::Error::Emit)?;
    diags.extend(lowered.diags);
    Ok(Imported { sources, diagnostics: diags.into_sorted(), contract: Some(text), summary })
}

/// The OpenAPI version of a document the importer reads (`3.0.x`, `3.1.x`); reports any other.
fn version(root: &Node, diags: &mut Diagnostics) -> Option<String> {
    let written = |key| {
        root.entry(key).map(|(k, v)| (k.span, v.as_str().map(str::to_owned).unwrap_or_else(|| v.to_json().to_string())))
    };
    if let Some((span, v)) = written("openapi") {
        if v.starts_with("3.0") || v.starts_with("3.1") {
            return Some(v);
        }
        diags.push(
            Diagnostic::new(Code::ImportUnsupportedVersion, span, format!("OpenAPI {v} is not read"))
                .label("this version")
                .help("the importer reads OpenAPI 3.0.x and 3.1.x"),
        );
    } else if let Some((span, v)) = written("swagger") {
        diags.push(
            Diagnostic::new(Code::ImportUnsupportedVersion, span, format!("Swagger {v} is not read"))
                .label("Swagger 2.0 is the predecessor of OpenAPI 3")
                .help("convert the document to OpenAPI 3.0 or 3.1 first"),
        );
    } else {
        let span = root.span;
        diags.push(
            Diagnostic::new(Code::ImportNotOpenApi, span, "the document is not an OpenAPI description")
                .label("no `openapi:` version at the top")
                .help("give the entry document of an OpenAPI 3.0 or 3.1 description"),
        );
    }
    None
}

/// Paths of which no operation was imported: a contract without endpoints would say `ok` for
/// an API it does not have. Says why each operation was skipped (the first few).
fn nothing_imported(root: &Node, summary: &Summary) -> Option<Diagnostic> {
    const SHOWN: usize = 5;
    let (key, paths) = root.entry("paths")?;
    let written = paths.as_map().map_or(0, <[_]>::len);
    if summary.imported > 0 || written == 0 {
        return None;
    }
    let label = format!("{written} paths, no operation imported");
    let mut d = Diagnostic::new(Code::ImportNothing, key.span, "no operation of this description could be imported")
        .label(label);
    for (pointer, why) in summary.skipped.iter().take(SHOWN) {
        d = d.note(format!("skipped {pointer}: {why}"));
    }
    if summary.skipped.len() > SHOWN {
        d = d.note(format!("and {} more skipped", summary.skipped.len() - SHOWN));
    }
    if summary.skipped.is_empty() {
        d = d.note(format!("no path item holds an operation ({})", ops::METHODS.join(", ")));
    }
    Some(d)
}

/// A service name from `info.title` (else the file name), made a snake_case identifier.
fn service_name(root: &Node, entry: &Path) -> String {
    let title = root.get("info").and_then(|i| i.get("title")).and_then(Node::as_str);
    let stem = entry.file_name().map(|f| f.to_string_lossy().split('.').next().unwrap_or_default().to_owned());
    [title.map(str::to_owned), stem]
        .into_iter()
        .flatten()
        .find_map(|s| crate::naming::snake_ident(&s))
        .unwrap_or_else(|| "api".to_owned())
}

/// An ordered JSON object from pairs.
fn object(pairs: impl IntoIterator<Item = (String, J)>) -> J {
    J::Object(pairs.into_iter().collect::<Map<String, J>>())
}
