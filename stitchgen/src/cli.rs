//! The `stitchgen` command line: parses options and calls the library, nothing more.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

use crate::diag::{self, ColorChoice};

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
        Color::Auto
            if std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() =>
        {
            ColorChoice::Always
        }
        Color::Auto => ColorChoice::Never,
    };
    match cli.command {
        Command::Check { contracts } => check(&contracts, color),
        Command::Schema => {
            print!("{}", crate::dsl::schema_json());
            ExitCode::SUCCESS
        }
    }
}

fn check(contracts: &[PathBuf], color: ColorChoice) -> ExitCode {
    let checked = match crate::check_files(contracts) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(USAGE);
        }
    };
    if !checked.diagnostics.is_empty() {
        let text = diag::render_all(&checked.diagnostics, &checked.sources, color);
        let _ = std::io::stderr().write_all(text.as_bytes());
    }
    if checked.has_errors() {
        return ExitCode::from(FINDINGS);
    }
    let n = checked.contracts.len();
    eprintln!("ok: {n} contract{} checked", if n == 1 { "" } else { "s" });
    ExitCode::SUCCESS
}
