//! The build.rs front door: options in, the pipeline, artifacts written into `OUT_DIR`.

use std::path::{Path, PathBuf};

use crate::diag::{Code, ColorChoice, Severity};
use crate::emit::mcp::McpTarget;

/// Generates code for contracts from a build script.
///
/// In `build.rs`:
///
/// ```no_run
/// stitchgen::Config::new()
///     .contract("contracts/people.stitch.yaml")
///     .generate_to_out_dir()
///     .unwrap();
/// ```
#[derive(Clone, Debug, Default)]
pub struct Config {
    contracts: Vec<PathBuf>,
    out_dir: Option<PathBuf>,
    snapshot: Option<PathBuf>,
    options: crate::Options,
    /// Warning codes not raised as `cargo:warning` lines.
    allowed: Vec<Code>,
}

/// Why a build script's generation failed.
///
/// ```
/// // Outside a build script, and with no `out_dir`, there is nowhere to write.
/// if std::env::var_os("OUT_DIR").is_none() {
///     let failed = stitchgen::Config::new().contract("people.stitch.yaml").generate_to_out_dir();
///     assert!(matches!(failed, Err(stitchgen::BuildError::NoOutDir)));
/// }
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildError {
    /// The contracts have declaration errors; they were printed to stderr.
    Declarations(usize),
    /// A contract could not be read, or code could not be generated.
    Generate(crate::Error),
    /// No output directory: not run by Cargo, and none set.
    NoOutDir,
    /// An artifact could not be written.
    Write(std::io::Error),
    /// The committed surface snapshot does not match the contracts.
    StaleSnapshot(PathBuf),
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::Declarations(n) => {
                write!(f, "{n} error{} in the contracts (see the diagnostics above)", if *n == 1 { "" } else { "s" })
            }
            BuildError::Generate(e) => e.fmt(f),
            BuildError::NoOutDir => {
                f.write_str("OUT_DIR is not set: run from a build script, or set `Config::out_dir`")
            }
            BuildError::Write(e) => write!(f, "cannot write generated files: {e}"),
            BuildError::StaleSnapshot(p) => write!(
                f,
                "the surface snapshot `{}` is stale (see above); review the change and rebuild with STITCHGEN_UPDATE=1 to accept it",
                p.display()
            ),
        }
    }
}

impl std::error::Error for BuildError {}

impl Config {
    /// A configuration with no contract yet.
    ///
    /// ```
    /// let config = stitchgen::Config::new();
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a contract. Contracts added together form one surface: one OpenAPI document, one
    /// manifest per transport, tool names unique across all of them.
    ///
    /// ```
    /// let config = stitchgen::Config::new().contract("contracts/people.stitch.yaml");
    /// ```
    #[must_use]
    pub fn contract(mut self, path: impl Into<PathBuf>) -> Self {
        self.contracts.push(path.into());
        self
    }

    /// Adds several contracts.
    ///
    /// ```
    /// let config = stitchgen::Config::new().contracts(["contracts/people.stitch.yaml", "contracts/teams.stitch.yaml"]);
    /// ```
    #[must_use]
    pub fn contracts<I: IntoIterator<Item = P>, P: Into<PathBuf>>(mut self, paths: I) -> Self {
        self.contracts.extend(paths.into_iter().map(Into::into));
        self
    }

    /// Writes into `dir` instead of `$OUT_DIR`.
    ///
    /// ```
    /// let config = stitchgen::Config::new().out_dir("target/generated");
    /// ```
    #[must_use]
    pub fn out_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.out_dir = Some(dir.into());
        self
    }

    /// Verifies the committed surface snapshot at `path` (relative to the crate): the build
    /// fails when it is stale, naming what moved. With `STITCHGEN_UPDATE=1` in the environment
    /// it is rewritten instead.
    ///
    /// ```
    /// let config = stitchgen::Config::new()
    ///     .contract("contracts/people.stitch.yaml")
    ///     .snapshot("contracts/surface.snapshot.json");
    /// ```
    #[must_use]
    pub fn snapshot(mut self, path: impl Into<PathBuf>) -> Self {
        self.snapshot = Some(path.into());
        self
    }

    /// The MCP protocol version the manifests target (default 2025-11-25, which requires object
    /// tool answers).
    ///
    /// ```
    /// use stitchgen::emit::mcp::McpTarget;
    /// let config = stitchgen::Config::new().mcp_target(McpTarget::V2026_07_28);
    /// ```
    #[must_use]
    pub fn mcp_target(mut self, target: McpTarget) -> Self {
        self.options.mcp_target = target;
        self
    }

    /// Also writes `agent-tools.NAME.json` (a model provider's) or `mcp-tools.NAME.json` (an MCP
    /// client's) for client profile `profile` (repeatable): each tool rewritten into what that
    /// provider or client accepts, then judged by its rules (docs/profiles.md). A tool the
    /// profile refuses is an error, and nothing is written.
    ///
    /// ```
    /// let config = stitchgen::Config::new().profile(stitchgen::Profile::Gemini);
    /// # let _ = config;
    /// ```
    #[must_use]
    pub fn profile(mut self, profile: crate::Profile) -> Self {
        self.options.profiles = self.options.profiles.with(profile);
        self
    }

    /// Checks the contracts and writes `<service>.rs`, `openapi.json`, `mcp-tools.json` and
    /// Does not raise warnings of `codes` as `cargo:warning` lines, as `#[allow]` does for a
    /// lint: for contracts that are meant to warn (a test suite's fixtures, an import kept as
    /// the description has it). They are still rendered on the build script's stderr, which
    /// cargo shows when the build fails.
    ///
    /// ```
    /// let config = stitchgen::Config::new().allow([stitchgen::diag::Code::UnusedType]);
    /// ```
    #[must_use]
    pub fn allow(mut self, codes: impl IntoIterator<Item = Code>) -> Self {
        self.allowed.extend(codes);
        self
    }

    /// `agent-tools.json` into `$OUT_DIR` (or [`Config::out_dir`]).
    ///
    /// Prints `cargo:rerun-if-changed` for every contract, diagnostics to stderr and warnings as
    /// `cargo:warning=` lines; writes only files whose bytes change, atomically, and nothing at
    /// all when any error was found.
    ///
    /// ```no_run
    /// stitchgen::Config::new().contract("contracts/people.stitch.yaml").generate_to_out_dir().unwrap();
    /// ```
    pub fn generate_to_out_dir(self) -> Result<(), BuildError> {
        for c in &self.contracts {
            println!("cargo:rerun-if-changed={}", c.display());
        }
        let out_dir = self
            .out_dir
            .clone()
            .or_else(|| std::env::var_os("OUT_DIR").map(PathBuf::from))
            .ok_or(BuildError::NoOutDir)?;
        let generated = crate::generate(&self.contracts, &self.options).map_err(BuildError::Generate)?;
        let checked = &generated.checked;
        report(checked, &self.allowed);
        let errors = checked.diagnostics.iter().filter(|d| d.severity() == Severity::Error).count();
        if errors > 0 {
            return Err(BuildError::Declarations(errors));
        }
        if let Some(path) = &self.snapshot {
            verify_snapshot(path, &generated)?;
        }
        crate::verify::write(&generated, &out_dir, &out_dir.join(crate::verify::SNAPSHOT_FILE))
            .map(|_| ())
            .map_err(BuildError::Write)
    }
}

/// The environment variable that makes a build accept a changed snapshot.
const UPDATE_ENV: &str = "STITCHGEN_UPDATE";

/// Verifies the committed snapshot as `stitchgen check --snapshot` does; with
/// [`UPDATE_ENV`]`=1`, accepts the fresh one instead.
fn verify_snapshot(path: &Path, generated: &crate::Generated) -> Result<(), BuildError> {
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rerun-if-env-changed={UPDATE_ENV}");
    if std::env::var(UPDATE_ENV).is_ok_and(|v| v == "1") {
        return crate::verify::accept_snapshot(generated, path).map(|_| ()).map_err(BuildError::Write);
    }
    let findings = crate::verify::verify(generated, Some(path), None);
    for f in &findings {
        eprintln!("error: {f}");
    }
    if findings.is_empty() { Ok(()) } else { Err(BuildError::StaleSnapshot(path.to_path_buf())) }
}

fn report(checked: &crate::Checked, allowed: &[Code]) {
    if checked.diagnostics.is_empty() {
        return;
    }
    eprint!("{}", crate::diag::render_all(&checked.diagnostics, &checked.sources, ColorChoice::Never));
    for d in checked.diagnostics.iter().filter(|d| d.severity() == Severity::Warning && !allowed.contains(&d.code)) {
        let (line, col) = checked.sources.line_col(d.primary.span.file, d.primary.span.lo);
        let file = &checked.sources.file(d.primary.span.file).display;
        println!("cargo:warning={}: {} ({file}:{line}:{col})", d.code.id(), d.message);
    }
}
