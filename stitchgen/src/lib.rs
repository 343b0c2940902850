//! stitchgen: a build-time compiler for API contracts.
//!
//! A contract (`NAME.stitch.yaml`) is checked and every declaration error reported at
//! `file:line:col` before any code exists; then the typed Rust module of each service, the
//! OpenAPI 3.1 document, the MCP and agent tool manifests and the surface snapshot are written.
//! The generated code links against `stitchgen-runtime` alone.
//!
//! This crate's API is what a build script calls: [`Config`], the [`BuildError`] it returns, and
//! the diagnostic [`Code`]s a build may [`allow`](Config::allow). The `stitchgen` command (feature
//! `cli`) is the same pipeline from a terminal or CI.
//!
//! ```
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! # let dir = std::env::temp_dir().join(format!("stitchgen-doc-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir)?;
//! let contract = dir.join("notes.stitch.yaml");
//! std::fs::write(&contract, r#"
//! stitch: 1
//! service: notes
//! endpoints:
//!   get:
//!     method: GET
//!     path: /:id
//!     desc: Get one note.
//!     output: { type: object, required: [text], properties: { text: { type: string } } }
//! "#)?;
//! // In build.rs, `.generate_to_out_dir()` writes into Cargo's OUT_DIR; here, into `dir`.
//! stitchgen::Config::new().contract(&contract).out_dir(&dir).generate_to_out_dir()?;
//! assert!(dir.join("notes.rs").exists() && dir.join("openapi.json").exists());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok(())
//! # }
//! ```
//!
//! Everything else public here is the command's and the project's own tests', hidden from these
//! docs and not covered by semantic versioning.

// The pipeline's stages: public for the `stitchgen` command and the project's tests only.
#[doc(hidden)]
pub mod canonical;
#[doc(hidden)]
pub mod check;
#[cfg(feature = "cli")]
pub mod cli;
mod config;
#[doc(hidden)]
pub mod diag;
#[doc(hidden)]
pub mod diff;
#[doc(hidden)]
pub mod dsl;
#[doc(hidden)]
pub mod emit;
#[doc(hidden)]
pub mod findings;
#[doc(hidden)]
pub mod import;
#[doc(hidden)]
pub mod memory;
#[doc(hidden)]
pub mod model;
#[doc(hidden)]
pub mod naming;
#[doc(hidden)]
pub mod out;
#[doc(hidden)]
pub mod parse;
#[doc(hidden)]
pub mod present;
#[doc(hidden)]
pub mod profile;
#[doc(hidden)]
pub mod schema;
#[doc(hidden)]
pub mod snapshot;
#[doc(hidden)]
pub mod source;
mod threads;
#[doc(hidden)]
pub mod verify;

use std::path::Path;

pub use config::{BuildError, Config};
pub use diag::{Code, Severity};
pub use emit::mcp::McpTarget;
pub use profile::Profile;

use diag::{Diagnostic, Diagnostics};
use parse::ast::Contract;
use source::SourceMap;

#[doc(hidden)]
/// Everything one run read and found.
#[derive(Debug)]
pub struct Checked {
    /// The files read, for rendering diagnostics.
    pub sources: SourceMap,
    /// The contracts that parsed (all of them when there are no errors).
    pub contracts: Vec<Contract>,
    /// Every diagnostic, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// The options it was checked with, which lowering follows too.
    pub options: Options,
}

impl Checked {
    /// True when at least one diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.severity() == diag::Severity::Error)
    }
}

#[doc(hidden)]
/// Settings that change what is checked and generated.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// The MCP protocol version the manifests target (2025-11-25 unless set).
    pub mcp_target: emit::mcp::McpTarget,
    /// The client profiles whose tool lists are written beside the canonical manifests.
    pub profiles: profile::Profiles,
}

#[doc(hidden)]
/// What [`generate`] produced: the check, and the artifacts when it found no error.
#[derive(Debug)]
pub struct Generated {
    /// Sources, contracts and diagnostics.
    pub checked: Checked,
    /// Every artifact, in a fixed order; empty when any error was found.
    pub artifacts: Vec<out::Artifact>,
    /// The surface snapshot's bytes; empty when any error was found.
    pub snapshot: Vec<u8>,
}

/// Why generation produced nothing at all: a contract could not be read, or a gap in stitchgen
/// (declaration errors are diagnostics, not this).
///
/// ```
/// let dir = std::env::temp_dir();
/// let failed = stitchgen::Config::new().contract(dir.join("no-such.stitch.yaml")).out_dir(&dir).generate_to_out_dir();
/// let Err(stitchgen::BuildError::Generate(e)) = failed else { panic!("{failed:?}") };
/// assert!(matches!(e, stitchgen::Error::Read(_)), "{e}");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// A contract could not be read.
    Read(parse::ReadError),
    /// A checked contract could not be emitted: a gap in the checks, reported as a bug.
    Emit(String),
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Error::Read(e) => e.fmt(f),
            Error::Emit(e) => {
                write!(f, "internal error while generating code ({e}); please report it with the contract")
            }
        }
    }
}

impl std::error::Error for Error {}

impl From<parse::ReadError> for Error {
    fn from(e: parse::ReadError) -> Self {
        Error::Read(e)
    }
}

#[doc(hidden)]
/// The whole pipeline over contracts given together: parse → check → lower → emit.
/// Nothing is emitted when any error was found; writing is the caller's (see [`out`]).
pub fn generate<P: AsRef<Path>>(paths: &[P], options: &Options) -> Result<Generated, Error> {
    generate_checked(check_files_with(paths, options)?)
}

#[doc(hidden)]
/// Lowers and emits contracts already checked (from files or from memory, see
/// [`check_inputs`]); nothing is emitted when the check found an error.
pub fn generate_checked(checked: Checked) -> Result<Generated, Error> {
    if checked.has_errors() {
        return Ok(Generated { checked, artifacts: Vec::new(), snapshot: Vec::new() });
    }
    let model = model::lower(&checked.contracts, &checked.sources, &checked.options);
    // The Rust modules and the JSON documents share nothing but the model: built side by side.
    let (modules, json) = std::thread::scope(|s| {
        let json = || {
            let surfaces = present::Surfaces::new(&model);
            let mut budget = surfaces.warnings(&checked.contracts);
            let mut documents = emit::documents(&model, &surfaces);
            let (profiled, refusals) = profile::artifacts(checked.options.profiles, &surfaces, &checked.contracts);
            let snapshot = snapshot::render(&model, &surfaces, &profiled);
            documents.extend(profiled);
            budget.extend(refusals);
            (documents, snapshot, budget)
        };
        // The stack a main thread has (a spawned one gets 2 MiB): deep schemas recurse.
        let json = std::thread::Builder::new().stack_size(threads::MAIN_STACK).spawn_scoped(s, json);
        let mcp_profiles: Vec<(&str, String)> =
            checked.options.profiles.iter().filter(|p| p.is_mcp()).map(|p| (p.name(), p.file())).collect();
        let modules = emit::modules(&model, &mcp_profiles);
        let json = json.map(|j| j.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        (modules, json)
    });
    let (documents, snapshot, budget) = json.map_err(|e| Error::Emit(format!("cannot start a thread: {e}")))?;
    match modules {
        Ok(mut artifacts) => {
            let checked = with_diagnostics(checked, budget);
            // A tool a profile refuses is an error: nothing is written.
            if checked.has_errors() {
                return Ok(Generated { checked, artifacts: Vec::new(), snapshot: Vec::new() });
            }
            artifacts.extend(documents);
            Ok(Generated { checked, artifacts, snapshot })
        }
        Err(failures) => untranslatable(with_diagnostics(checked, budget), failures),
    }
}

#[doc(hidden)]
/// A clean check with what only the presented tools show: each tool past its byte budget
/// (W0007). The tool surfaces are built as `generate` builds them; no code is generated.
pub fn check_surfaces(checked: Checked) -> Checked {
    if checked.has_errors() {
        return checked;
    }
    let model = model::lower(&checked.contracts, &checked.sources, &checked.options);
    let surfaces = present::Surfaces::new(&model);
    let mut warnings = surfaces.warnings(&checked.contracts);
    warnings.extend(profile::artifacts(checked.options.profiles, &surfaces, &checked.contracts).1);
    with_diagnostics(checked, warnings)
}

/// `checked` with `more` diagnostics, all sorted by position.
fn with_diagnostics(mut checked: Checked, more: Vec<Diagnostic>) -> Checked {
    if !more.is_empty() {
        let mut diags = Diagnostics::default();
        more.into_iter().chain(checked.diagnostics).for_each(|d| diags.push(d));
        checked.diagnostics = diags.into_sorted();
    }
    checked
}

/// Schemas typify failed on become E0611 diagnostics, and nothing is emitted; any other failure
/// to emit is a gap in stitchgen, reported as [`Error::Emit`].
fn untranslatable(checked: Checked, failures: Vec<(String, emit::rust::Failure)>) -> Result<Generated, Error> {
    let mut diags = Diagnostics::default();
    for (service, failure) in failures {
        let found = match failure {
            emit::rust::Failure::Schema(u) => {
                emit::rust::failure::diagnostic(&checked.contracts, &service, &u).ok_or(u.why)
            }
            emit::rust::Failure::Internal(e) => Err(e),
        };
        diags.push(found.map_err(|e| Error::Emit(format!("service `{service}`: {e}")))?);
    }
    Ok(Generated {
        checked: with_diagnostics(checked, diags.into_sorted()),
        artifacts: Vec::new(),
        snapshot: Vec::new(),
    })
}

#[doc(hidden)]
/// Reads and checks contracts given together with default [`Options`].
pub fn check_files<P: AsRef<Path>>(paths: &[P]) -> Result<Checked, parse::ReadError> {
    check_files_with(paths, &Options::default())
}

#[doc(hidden)]
/// Reads and checks contracts given together. I/O failures are errors; everything wrong
/// inside a file is a diagnostic.
pub fn check_files_with<P: AsRef<Path>>(paths: &[P], options: &Options) -> Result<Checked, parse::ReadError> {
    let mut sources = SourceMap::new();
    let mut diags = Diagnostics::default();
    let mut files = Vec::new();
    for path in paths {
        files.extend(parse::read(path.as_ref(), &mut sources, &mut diags)?);
    }
    Ok(check_loaded(sources, &files, diags, options))
}

#[doc(hidden)]
/// Checks contracts held in memory, given together: each is a name shown in diagnostics and
/// its bytes (from a file, `git show`, an editor).
pub fn check_inputs(inputs: &[(String, Vec<u8>)], options: &Options) -> Checked {
    let mut sources = SourceMap::new();
    let mut diags = Diagnostics::default();
    let files: Vec<source::FileId> = inputs
        .iter()
        .filter_map(|(name, bytes)| parse::load(Path::new(name), bytes.clone(), &mut sources, &mut diags))
        .collect();
    check_loaded(sources, &files, diags, options)
}

#[doc(hidden)]
/// What [`diff()`] found: both sides checked, and the classified changes when both are clean.
#[derive(Debug)]
pub struct Diffed {
    /// The old side.
    pub old: Checked,
    /// The new side.
    pub new: Checked,
    /// Every change, most severe first; empty when either side has errors.
    pub changes: Vec<diff::Change>,
}

#[doc(hidden)]
/// Classifies every change between two sets of contracts, per consumer.
pub fn diff(old: &[(String, Vec<u8>)], new: &[(String, Vec<u8>)], options: &Options) -> Diffed {
    let (old, new) = (check_inputs(old, options), check_inputs(new, options));
    let changes = if old.has_errors() || new.has_errors() {
        Vec::new()
    } else {
        diff::diff(
            &model::lower(&old.contracts, &old.sources, options),
            &model::lower(&new.contracts, &new.sources, options),
            options.profiles,
        )
    };
    Diffed { old, new, changes }
}

#[doc(hidden)]
/// Checks one contract held in memory (`name` is shown in diagnostics).
pub fn check_source(name: &str, text: &str) -> Checked {
    let mut sources = SourceMap::new();
    let file = sources.add(Path::new(name), text.to_owned());
    check_loaded(sources, &[file], Diagnostics::default(), &Options::default())
}

/// parse → (gate) → decode and check, over files already in `sources`.
fn check_loaded(sources: SourceMap, files: &[source::FileId], mut diags: Diagnostics, options: &Options) -> Checked {
    let mut contracts = Vec::new();
    for &file in files {
        // Gate: a file that is not YAML goes no further; the others still get every check.
        let Some(root) = parse::yaml(&sources, file, &mut diags) else {
            continue;
        };
        contracts.extend(parse::contract(&root, &mut diags));
    }
    // Decoding is lenient: it reports and carries on, so a typo in a key and a bad view default
    // are reported in the same run.
    check::check(&contracts, &mut diags);
    Checked { sources, contracts, diagnostics: diags.into_sorted(), options: *options }
}
