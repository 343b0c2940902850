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
        #[command(flatten)]
        target: Target,
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
        Command::Check { contracts, target } => check(&contracts, &target.options(), color),
        Command::Generate { contracts, out, target } => generate(&contracts, &out, &target.options(), color),
        Command::Schema => {
            print!("{}", crate::dsl::schema_json());
            ExitCode::SUCCESS
        }
    }
}

fn check(contracts: &[PathBuf], options: &crate::Options, color: ColorChoice) -> ExitCode {
    let checked = match crate::check_files_with(contracts, options) {
        Ok(c) => c,
        Err(e) => return usage_error(&e),
    };
    if let Some(code) = report(&checked, color) {
        return code;
    }
    let n = checked.contracts.len();
    eprintln!("ok: {n} contract{} checked", plural(n));
    ExitCode::SUCCESS
}

fn generate(contracts: &[PathBuf], out: &Path, options: &crate::Options, color: ColorChoice) -> ExitCode {
    let generated = match crate::generate(contracts, options) {
        Ok(g) => g,
        Err(e) => return usage_error(&e),
    };
    if let Some(code) = report(&generated.checked, color) {
        return code;
    }
    match crate::out::write_all(out, &generated.artifacts) {
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
