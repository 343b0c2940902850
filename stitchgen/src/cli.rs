//! The `stitchgen` command line: parses options and calls the library, nothing more.

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::diag::{self, ColorChoice};
use crate::emit::mcp::McpTarget;
use crate::findings;

/// Exit code: declaration errors (or, later, stale files and breaking changes).
const FINDINGS: u8 = 1;
/// Exit code: usage or I/O error.
const USAGE: u8 = 2;

#[derive(Parser)]
#[command(name = "stitchgen", version, about = "Build-time compiler for API contracts", long_about = None)]
struct Cli {
    /// When to colour diagnostics.
    #[arg(long, value_enum, default_value_t = Color::Auto, global = true)]
    color: Color,
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Args)]
struct Target {
    /// MCP protocol version the tool manifests target.
    #[arg(long, value_name = "VERSION", default_value = "2025-11-25", value_parser = ["2025-11-25", "2026-07-28"])]
    mcp_target: String,
    /// Also write (and check) the tool list a client profile accepts, `agent-tools.NAME.json`
    /// (model providers) or `mcp-tools.NAME.json` (MCP clients); repeatable. See docs/profiles.md.
    #[arg(long = "profile", value_name = "NAME", value_parser = ["openai-strict", "openai", "anthropic", "gemini", "cursor", "vscode", "claude-code"])]
    profiles: Vec<String>,
}

impl Target {
    fn options(&self) -> crate::Options {
        let profiles = self
            .profiles
            .iter()
            .filter_map(|p| crate::Profile::parse(p))
            .fold(Default::default(), crate::profile::Profiles::with);
        crate::Options { mcp_target: McpTarget::parse(&self.mcp_target).unwrap_or_default(), profiles }
    }
}

/// How `check`, `generate` and `import` report findings.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// rustc-style text on stderr.
    Human,
    /// GitHub Actions workflow commands on stdout: notes on the lines at fault.
    Github,
    /// One JSON document on stdout (schema/findings.schema.json).
    Json,
}

/// How `diff` reports.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum DiffFormat {
    /// One line per change (`human` is the same).
    #[value(alias = "human")]
    Text,
    /// A Markdown table for a review comment.
    Markdown,
    /// GitHub Actions workflow commands.
    Github,
    /// The JSON findings document (schema/findings.schema.json).
    Json,
}

#[derive(clap::Args)]
struct Formatted {
    /// How to report findings.
    #[arg(long, value_enum, default_value_t = Format::Human)]
    format: Format,
}

#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    Breaking,
    Warning,
}

#[derive(Clone, Copy, ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Check contracts given together; exit 1 on declaration errors.
    Check {
        /// Contract files (`*.stitch.yaml`).
        #[arg(required = true, value_name = "CONTRACT")]
        contracts: Vec<PathBuf>,
        /// Fail when this committed surface snapshot is stale.
        #[arg(long, value_name = "FILE")]
        snapshot: Option<PathBuf>,
        /// Fail when the generated files checked in under DIR are stale.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        #[command(flatten)]
        target: Target,
        #[command(flatten)]
        format: Formatted,
    },
    /// Check contracts given together and write their artifacts into DIR.
    Generate {
        /// Contract files (`*.stitch.yaml`).
        #[arg(required = true, value_name = "CONTRACT")]
        contracts: Vec<PathBuf>,
        /// Output directory (created if missing).
        #[arg(long, value_name = "DIR")]
        out: PathBuf,
        /// Where to write the surface snapshot (default: DIR/surface.snapshot.json).
        #[arg(long, value_name = "FILE")]
        snapshot: Option<PathBuf>,
        #[command(flatten)]
        target: Target,
        #[command(flatten)]
        format: Formatted,
    },
    /// Classify every change between two sets of contracts, per consumer.
    Diff {
        /// The old side: contract files or `git:REF:PATH`, comma-separated for several.
        #[arg(value_name = "OLD")]
        old: String,
        /// The new side, written the same way.
        #[arg(value_name = "NEW")]
        new: String,
        /// Report format.
        #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
        format: DiffFormat,
        /// Exit 1 when a change at or above this level exists (accepted changes do not count).
        #[arg(long, value_enum, value_name = "LEVEL")]
        fail_on: Option<FailOn>,
        /// Changes the team accepted: a YAML or JSON list of `{rule, operation | tool, reason,
        /// expires?}` (docs/diff.md).
        #[arg(long, value_name = "FILE")]
        accept: Option<PathBuf>,
        #[command(flatten)]
        target: Target,
    },
    /// Write a contract from an OpenAPI 3.0 or 3.1 description (JSON or YAML).
    Import {
        /// The OpenAPI document; for a description split over files, its entry document.
        #[arg(value_name = "OPENAPI")]
        openapi: PathBuf,
        /// Where to write the contract.
        #[arg(long, value_name = "CONTRACT")]
        out: PathBuf,
        /// The contract's service name (default: from the document's title).
        #[arg(long, value_name = "NAME")]
        service: Option<String>,
        /// Put every endpoint the tool surfaces accept on MCP, AGENT and CLI.
        #[arg(long)]
        expose: bool,
        /// Read a `$ref` that points nowhere as any value, with a warning, instead of stopping.
        #[arg(long)]
        lenient: bool,
        /// List three tools (search, describe, call) over a catalog of every tool, for APIs
        /// past what clients take (`toolDiscovery: search`).
        #[arg(long)]
        search: bool,
        #[command(flatten)]
        format: Formatted,
    },
    /// Serve a contract, or an OpenAPI document (imported in memory as `import --expose` does),
    /// in front of its API with no build: `mcp` (stdio), `http` (streamable HTTP) or `call TOOL`.
    ///
    /// e.g. `stitchgen gateway api.yaml mcp --origin https://api.example.com`; `stitchgen gateway
    /// api.yaml mcp --help` lists the options.
    Gateway {
        /// A contract (`*.stitch.yaml`), or an OpenAPI 3.0 or 3.1 document (JSON or YAML).
        #[arg(value_name = "CONTRACT|OPENAPI")]
        source: PathBuf,
        /// Import in search mode: three tools (search, describe, call) over a catalog of every
        /// tool, for APIs past what clients take (`import --search`).
        #[arg(long)]
        search: bool,
        #[command(flatten)]
        target: Target,
        /// `mcp`, `http` or `call TOOL`, and their options.
        #[arg(value_name = "COMMAND", trailing_var_arg = true, allow_hyphen_values = true)]
        args: Vec<OsString>,
    },
    /// Print the JSON Schema of the contract DSL, for editors.
    Schema {
        /// Print the schema of `--format json` findings instead (schema/findings.schema.json).
        #[arg(long)]
        findings: bool,
    },
}

/// Runs the command line and returns the process exit code: the whole of the `stitchgen`
/// binary's `main`.
///
/// ```no_run
/// fn main() -> std::process::ExitCode {
///     stitchgen::cli::main()
/// }
/// ```
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { USAGE } else { 0 });
        }
    };
    let color = match cli.color {
        Color::Always => ColorChoice::Always,
        Color::Never => ColorChoice::Never,
        Color::Auto if std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() => ColorChoice::Always,
        Color::Auto => ColorChoice::Never,
    };
    match cli.command {
        Command::Check { contracts, snapshot, out, target, format } => {
            let mut r = Reporter::new(findings::Command::Check, format.format, color);
            let code = check(&contracts, snapshot.as_deref(), out.as_deref(), &target.options(), &mut r);
            r.finish(code)
        }
        Command::Generate { contracts, out, snapshot, target, format } => {
            let snapshot = snapshot.unwrap_or_else(|| out.join(crate::verify::SNAPSHOT_FILE));
            let mut r = Reporter::new(findings::Command::Generate, format.format, color);
            let code = generate(&contracts, &out, &snapshot, &target.options(), &mut r);
            r.finish(code)
        }
        Command::Diff { old, new, format, fail_on, accept, target } => {
            let shown = match format {
                DiffFormat::Json => Format::Json,
                DiffFormat::Github => Format::Github,
                DiffFormat::Text | DiffFormat::Markdown => Format::Human,
            };
            let mut r = Reporter::new(findings::Command::Diff, shown, color);
            let code = diff(&old, &new, (format, fail_on, accept.as_deref()), &target.options(), &mut r);
            r.finish(code)
        }
        Command::Import { openapi, out, service, expose, lenient, search, format } => {
            let mut r = Reporter::new(findings::Command::Import, format.format, color);
            let options = crate::import::ImportOptions { service, expose, lenient, search };
            let code = import(&openapi, &out, &options, &mut r);
            r.finish(code)
        }
        Command::Gateway { source, search, target, args } => {
            let mut r = Reporter::new(findings::Command::Check, Format::Human, color);
            gateway(&source, search, &target.options(), args, &mut r)
        }
        Command::Schema { findings } => {
            print!("{}", if findings { findings::schema_json() } else { crate::dsl::schema_json() });
            ExitCode::SUCCESS
        }
    }
}

/// Where findings go: rendered on stderr (human), as workflow commands on stdout (github), or
/// gathered into the one JSON document printed at the end (json).
struct Reporter {
    format: Format,
    color: ColorChoice,
    report: findings::Report,
}

impl Reporter {
    fn new(command: findings::Command, format: Format, color: ColorChoice) -> Self {
        Reporter { format, color, report: findings::Report::new(command) }
    }

    /// Reports `diags`; `task` names what errors stop in the human summary line.
    fn diagnostics(&mut self, diags: &[crate::diag::Diagnostic], sources: &crate::source::SourceMap, task: &str) {
        match self.format {
            Format::Human if !diags.is_empty() => {
                let text = diag::render_all_for(diags, sources, self.color, task);
                let _ = std::io::stderr().write_all(text.as_bytes());
            }
            Format::Human => {}
            Format::Github => print!("{}", findings::github(diags, sources)),
            Format::Json => {
                self.report.diagnostics(diags, sources);
            }
        }
    }

    /// Reports the files `check` found stale.
    fn stale(&mut self, found: &[crate::verify::Finding], help: &str) {
        match self.format {
            Format::Human => {
                for f in found {
                    eprintln!("error: {f}");
                }
                eprintln!("help: {help}");
            }
            Format::Github => print!("{}", findings::github_stale(found)),
            Format::Json => {
                self.report.stale(found);
            }
        }
    }

    /// A command that cannot run: the error, and exit code 2.
    fn failure(&mut self, e: &dyn std::fmt::Display) -> ExitCode {
        match self.format {
            Format::Json => {
                self.report.failed(e.to_string());
            }
            Format::Github => print!(
                "{}",
                diag::github::workflow_command(
                    diag::github::Annotation::Error,
                    diag::github::Place::None,
                    "stitchgen",
                    &e.to_string()
                )
            ),
            Format::Human => {}
        }
        eprintln!("error: {e}");
        ExitCode::from(USAGE)
    }

    /// Prints the JSON document, if that is the format, and returns `code`.
    fn finish(self, code: ExitCode) -> ExitCode {
        if self.format == Format::Json {
            let mut report = self.report;
            report.ok &= code == ExitCode::SUCCESS;
            print!("{}", report.to_json());
        }
        code
    }
}

fn check(
    contracts: &[PathBuf],
    snapshot: Option<&Path>,
    out: Option<&Path>,
    options: &crate::Options,
    r: &mut Reporter,
) -> ExitCode {
    if snapshot.is_none() && out.is_none() {
        // Declarations only: no code to generate, so none is generated.
        let checked = match crate::check_files_with(contracts, options) {
            Ok(c) => crate::check_surfaces(c),
            Err(e) => return r.failure(&e),
        };
        if let Some(code) = report(&checked, r) {
            return code;
        }
        let n = checked.contracts.len();
        eprintln!("ok: {n} contract{} checked", plural(n));
        return ExitCode::SUCCESS;
    }
    let generated = match pipeline(contracts, options, r) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let found = crate::verify::verify(&generated, snapshot, out);
    if !found.is_empty() {
        let out = out.map_or_else(|| "DIR".to_owned(), crate::source::display_path);
        let snapshot = snapshot.map(|s| format!(" --snapshot {}", crate::source::display_path(s))).unwrap_or_default();
        let help = format!(
            "run `stitchgen generate {} --out {out}{snapshot}`, review the diff and commit it",
            args(contracts)
        );
        r.stale(&found, &help);
        return ExitCode::from(FINDINGS);
    }
    let n = generated.checked.contracts.len();
    eprintln!("ok: {n} contract{} checked", plural(n));
    ExitCode::SUCCESS
}

fn import(openapi: &Path, out: &Path, options: &crate::import::ImportOptions, r: &mut Reporter) -> ExitCode {
    let imported = match crate::import::import(openapi, options) {
        Ok(i) => i,
        Err(e) => return r.failure(&e),
    };
    r.diagnostics(&imported.diagnostics, &imported.sources, "import");
    let Some(contract) = imported.contract else { return ExitCode::from(FINDINGS) };
    // The folder the contract goes in is made if missing; the summary is printed only once the
    // contract is written, so that a failed write never reads like success.
    let written = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| crate::out::write_if_changed(out, contract.as_bytes()));
    match written {
        Ok(_) => {
            eprint!("{}", imported.summary);
            eprintln!("ok: wrote {}", crate::source::display_path(out));
            ExitCode::SUCCESS
        }
        Err(e) => r.failure(&format!("cannot write `{}`: {e}", crate::source::display_path(out))),
    }
}

fn args(contracts: &[PathBuf]) -> String {
    contracts.iter().map(|c| crate::source::display_path(c)).collect::<Vec<_>>().join(" ")
}

fn generate(
    contracts: &[PathBuf],
    out: &Path,
    snapshot: &Path,
    options: &crate::Options,
    r: &mut Reporter,
) -> ExitCode {
    let generated = match pipeline(contracts, options, r) {
        Ok(g) => g,
        Err(code) => return code,
    };
    match crate::verify::write(&generated, out, snapshot) {
        Ok(w) => {
            let dir = crate::source::display_path(out);
            eprintln!(
                "ok: {} file{} written, {} unchanged, in {dir}",
                w.written.len(),
                plural(w.written.len()),
                w.unchanged.len()
            );
            ExitCode::SUCCESS
        }
        Err(e) => r.failure(&e),
    }
}

fn diff(
    old: &str,
    new: &str,
    (format, fail_on, accept): (DiffFormat, Option<FailOn>, Option<&Path>),
    options: &crate::Options,
    r: &mut Reporter,
) -> ExitCode {
    let (old, new) = match (side(old), side(new)) {
        (Ok(o), Ok(n)) => (o, n),
        (Err(e), _) | (_, Err(e)) => return r.failure(&e),
    };
    let mut diffed = crate::diff(&old, &new, options);
    for checked in [&diffed.old, &diffed.new] {
        if let Some(code) = report(checked, r) {
            return code;
        }
    }
    if let Some(path) = accept {
        let mut sources = crate::source::SourceMap::new();
        let mut diags = crate::diag::Diagnostics::default();
        let acceptances = match crate::diff::accept::read(path, &mut sources, &mut diags) {
            Ok(a) => a,
            Err(e) => return r.failure(&e),
        };
        if !diags.has_errors() {
            acceptances.apply(&mut diffed.changes, &crate::diff::accept::today(), &mut diags);
        }
        let errors = diags.has_errors();
        r.diagnostics(&diags.into_sorted(), &sources, "read the accepted changes");
        if errors {
            return ExitCode::from(FINDINGS);
        }
    }
    let changes = &diffed.changes;
    match format {
        DiffFormat::Text => print!("{}", crate::diff::report::text(changes)),
        DiffFormat::Markdown => print!("{}", crate::diff::report::markdown(changes)),
        DiffFormat::Github => print!("{}", crate::diff::report::github(changes)),
        DiffFormat::Json => {
            r.report.changes(changes);
        }
    }
    let threshold = fail_on.map(|f| match f {
        FailOn::Breaking => crate::diff::rules::Level::Breaking,
        FailOn::Warning => crate::diff::rules::Level::Warning,
    });
    if threshold.is_some_and(|t| changes.iter().any(|c| c.level >= t && c.accepted.is_none())) {
        ExitCode::from(FINDINGS)
    } else {
        ExitCode::SUCCESS
    }
}

/// One side of a diff: comma-separated contract files or `git:REF:PATH`.
fn side(spec: &str) -> Result<Vec<(String, Vec<u8>)>, String> {
    spec.split(',').filter(|s| !s.is_empty()).map(input).collect()
}

fn input(item: &str) -> Result<(String, Vec<u8>), String> {
    if let Some(rest) = item.strip_prefix("git:") {
        let (rev, path) = rest.split_once(':').ok_or_else(|| format!("`{item}`: write `git:REF:PATH`"))?;
        let out = std::process::Command::new("git")
            .args(["show", &format!("{rev}:{path}")])
            .output()
            .map_err(|e| format!("cannot run git for `{item}`: {e}"))?;
        if !out.status.success() {
            return Err(format!("`{item}`: {}", String::from_utf8_lossy(&out.stderr).trim()));
        }
        return Ok((format!("{rev}:{path}"), out.stdout));
    }
    let path = Path::new(item);
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read `{}`: {e}", crate::source::display_path(path)))?;
    Ok((crate::source::display_path(path), bytes))
}

/// `stitchgen gateway`: the contract, or the contract imported in memory from an OpenAPI
/// document, served from memory (no generated Rust) by the runtime's gateway. Only errors are
/// reported: the gateway's stderr may be a model's to read (`call`); warnings are `check`'s.
fn gateway(source: &Path, search: bool, options: &crate::Options, args: Vec<OsString>, r: &mut Reporter) -> ExitCode {
    let name = source.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let checked = if [".stitch.yaml", ".stitch.yml", ".stitch.json"].iter().any(|s| name.ends_with(s)) {
        match crate::check_files_with(&[source], options) {
            Ok(checked) => checked,
            Err(e) => return r.failure(&e),
        }
    } else {
        let import = crate::import::ImportOptions { service: None, expose: true, lenient: false, search };
        let imported = match crate::import::import(source, &import) {
            Ok(imported) => imported,
            Err(e) => return r.failure(&e),
        };
        let Some(contract) = imported.contract else {
            let errors = errors(&imported.diagnostics);
            r.diagnostics(&errors, &imported.sources, "import");
            return ExitCode::from(FINDINGS);
        };
        let stem = name.split('.').next().unwrap_or("api");
        crate::check_inputs(&[(format!("{stem}.stitch.yaml"), contract.into_bytes())], options)
    };
    if checked.has_errors() {
        r.diagnostics(&errors(&checked.diagnostics), &checked.sources, "serve the contract");
        return ExitCode::from(FINDINGS);
    }
    let facts = match crate::memory::in_memory(&checked).and_then(|f| f.servable().map(|()| f)) {
        Ok(facts) => facts,
        Err(e) => return r.failure(&e),
    };
    let (types, catalog) = (facts.types, facts.catalog);
    let remote = move |origin| stitchgen_runtime::remote::service(types, catalog, origin);
    let profiles = match mcp_profiles(&facts.mcp_tools, options.profiles) {
        Ok(profiles) => profiles,
        Err(e) => return r.failure(&e),
    };
    let gateway = stitchgen_runtime::gateway::Gateway::new(facts.name, facts.mcp_tools, facts.mcp_catalog, remote)
        .with_mcp_profiles(profiles);
    let bin = format!("stitchgen gateway {}", crate::source::display_path(source));
    gateway.main(&bin, std::iter::once(OsString::from(&bin)).chain(args).collect())
}

/// The MCP client profiles' lists the gateway serves, each client its own: those `--profile`
/// names, or every MCP profile that takes every tool. A profile named that refuses a tool stops
/// the gateway, as it stops `generate`.
fn mcp_profiles(mcp_tools: &str, asked: crate::profile::Profiles) -> Result<Vec<(String, String)>, crate::Error> {
    let canonical: serde_json::Value =
        serde_json::from_str(mcp_tools).map_err(|e| crate::Error::Emit(e.to_string()))?;
    let named = asked.iter().any(crate::Profile::is_mcp);
    let mut lists = Vec::new();
    for profile in crate::Profile::ALL.into_iter().filter(|p| p.is_mcp() && (!named || asked.iter().any(|a| a == *p))) {
        let (list, refused) = crate::profile::manifest(profile, &canonical);
        match refused.first() {
            None => lists.push((profile.name().to_owned(), list.to_string())),
            Some((tool, v)) if named => {
                let why = format!("`{}` refuses tool `{tool}`: {} at {}", profile.name(), v.rule, v.at);
                return Err(crate::Error::Emit(why));
            }
            Some(_) => {}
        }
    }
    Ok(lists)
}

fn errors(diags: &[crate::diag::Diagnostic]) -> Vec<crate::diag::Diagnostic> {
    diags.iter().filter(|d| d.severity() == diag::Severity::Error).cloned().collect()
}

/// Runs the pipeline and reports its diagnostics; the exit code when it cannot go on.
fn pipeline(contracts: &[PathBuf], options: &crate::Options, r: &mut Reporter) -> Result<crate::Generated, ExitCode> {
    let generated = crate::generate(contracts, options).map_err(|e| r.failure(&e))?;
    match report(&generated.checked, r) {
        Some(code) => Err(code),
        None => Ok(generated),
    }
}

/// Reports the diagnostics; returns the exit code when there were errors.
fn report(checked: &crate::Checked, r: &mut Reporter) -> Option<ExitCode> {
    r.diagnostics(&checked.diagnostics, &checked.sources, "compile contracts");
    checked.has_errors().then_some(ExitCode::from(FINDINGS))
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
