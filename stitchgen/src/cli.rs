//! The `stitchgen` command line: parses options and calls the library, nothing more.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::diag::{self, ColorChoice};
use crate::emit::mcp::McpTarget;

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
}

impl Target {
    fn options(&self) -> crate::Options {
        crate::Options { mcp_target: McpTarget::parse(&self.mcp_target).unwrap_or_default() }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Markdown,
    Json,
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
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Exit 1 when a change at or above this level exists.
        #[arg(long, value_enum, value_name = "LEVEL")]
        fail_on: Option<FailOn>,
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
    },
    /// Print the JSON Schema of the contract DSL, for editors.
    Schema,
}

/// Runs the command line and returns the process exit code.
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
        Command::Check { contracts, snapshot, out, target } => {
            check(&contracts, snapshot.as_deref(), out.as_deref(), &target.options(), color)
        }
        Command::Generate { contracts, out, snapshot, target } => {
            let snapshot = snapshot.unwrap_or_else(|| out.join(crate::verify::SNAPSHOT_FILE));
            generate(&contracts, &out, &snapshot, &target.options(), color)
        }
        Command::Diff { old, new, format, fail_on, target } => {
            diff(&old, &new, format, fail_on, &target.options(), color)
        }
        Command::Import { openapi, out, service, expose, lenient, search } => {
            import(&openapi, &out, &crate::import::ImportOptions { service, expose, lenient, search }, color)
        }
        Command::Schema => {
            print!("{}", crate::dsl::schema_json());
            ExitCode::SUCCESS
        }
    }
}

fn check(
    contracts: &[PathBuf],
    snapshot: Option<&Path>,
    out: Option<&Path>,
    options: &crate::Options,
    color: ColorChoice,
) -> ExitCode {
    if snapshot.is_none() && out.is_none() {
        // Declarations only: no code to generate, so none is generated.
        let checked = match crate::check_files_with(contracts, options) {
            Ok(c) => crate::check_surfaces(c),
            Err(e) => return usage_error(&e),
        };
        if let Some(code) = report(&checked, color) {
            return code;
        }
        let n = checked.contracts.len();
        eprintln!("ok: {n} contract{} checked", plural(n));
        return ExitCode::SUCCESS;
    }
    let generated = match pipeline(contracts, options, color) {
        Ok(g) => g,
        Err(code) => return code,
    };
    let findings = crate::verify::verify(&generated, snapshot, out);
    for f in &findings {
        eprintln!("error: {f}");
    }
    if !findings.is_empty() {
        let out = out.map_or_else(|| "DIR".to_owned(), crate::source::display_path);
        let snapshot = snapshot.map(|s| format!(" --snapshot {}", crate::source::display_path(s))).unwrap_or_default();
        eprintln!(
            "help: run `stitchgen generate {} --out {out}{snapshot}`, review the diff and commit it",
            args(contracts)
        );
        return ExitCode::from(FINDINGS);
    }
    let n = generated.checked.contracts.len();
    eprintln!("ok: {n} contract{} checked", plural(n));
    ExitCode::SUCCESS
}

fn import(openapi: &Path, out: &Path, options: &crate::import::ImportOptions, color: ColorChoice) -> ExitCode {
    let imported = match crate::import::import(openapi, options) {
        Ok(i) => i,
        Err(e) => return usage_error(&e),
    };
    if !imported.diagnostics.is_empty() {
        let text = diag::render_all_for(&imported.diagnostics, &imported.sources, color, "import");
        let _ = std::io::stderr().write_all(text.as_bytes());
    }
    let Some(contract) = imported.contract else { return ExitCode::from(FINDINGS) };
    eprint!("{}", imported.summary);
    match crate::out::write_if_changed(out, contract.as_bytes()) {
        Ok(_) => {
            eprintln!("ok: wrote {}", crate::source::display_path(out));
            ExitCode::SUCCESS
        }
        Err(e) => usage_error(&format!("cannot write `{}`: {e}", crate::source::display_path(out))),
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
    color: ColorChoice,
) -> ExitCode {
    let generated = match pipeline(contracts, options, color) {
        Ok(g) => g,
        Err(code) => return code,
    };
    match crate::verify::write(&generated, out, snapshot) {
        Ok(r) => {
            let dir = crate::source::display_path(out);
            eprintln!(
                "ok: {} file{} written, {} unchanged, in {dir}",
                r.written.len(),
                plural(r.written.len()),
                r.unchanged.len()
            );
            ExitCode::SUCCESS
        }
        Err(e) => usage_error(&e),
    }
}

fn diff(
    old: &str,
    new: &str,
    format: Format,
    fail_on: Option<FailOn>,
    options: &crate::Options,
    color: ColorChoice,
) -> ExitCode {
    let (old, new) = match (side(old), side(new)) {
        (Ok(o), Ok(n)) => (o, n),
        (Err(e), _) | (_, Err(e)) => return usage_error(&e),
    };
    let diffed = crate::diff(&old, &new, options);
    for checked in [&diffed.old, &diffed.new] {
        if let Some(code) = report(checked, color) {
            return code;
        }
    }
    let changes = &diffed.changes;
    let text = match format {
        Format::Text => crate::diff::report::text(changes),
        Format::Markdown => crate::diff::report::markdown(changes),
        Format::Json => crate::diff::report::json(changes),
    };
    print!("{text}");
    let threshold = fail_on.map(|f| match f {
        FailOn::Breaking => crate::diff::rules::Level::Breaking,
        FailOn::Warning => crate::diff::rules::Level::Warning,
    });
    if threshold.is_some_and(|t| changes.iter().any(|c| c.level >= t)) {
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

/// Runs the pipeline and prints its diagnostics; the exit code when it cannot go on.
fn pipeline(contracts: &[PathBuf], options: &crate::Options, color: ColorChoice) -> Result<crate::Generated, ExitCode> {
    let generated = crate::generate(contracts, options).map_err(|e| usage_error(&e))?;
    match report(&generated.checked, color) {
        Some(code) => Err(code),
        None => Ok(generated),
    }
}

/// Prints the diagnostics; returns the exit code when there were errors.
fn report(checked: &crate::Checked, color: ColorChoice) -> Option<ExitCode> {
    if !checked.diagnostics.is_empty() {
        let text = diag::render_all(&checked.diagnostics, &checked.sources, color);
        let _ = std::io::stderr().write_all(text.as_bytes());
    }
    checked.has_errors().then_some(ExitCode::from(FINDINGS))
}

fn usage_error(e: &dyn std::fmt::Display) -> ExitCode {
    eprintln!("error: {e}");
    ExitCode::from(USAGE)
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
