//! The CLI surface on clap: one subcommand per tool exposed on CLI, flags from the tool's input
//! schema, the answer (the view) on stdout, the tool envelope on stderr, and exit codes by class
//! (DESIGN §4).

use std::ffi::OsString;
use std::process::ExitCode;

use clap::builder::PossibleValuesParser;
use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, Command};
use serde_json::{Map, Value};

use crate::coerce::scalar;
use crate::{AppError, Caller, Ctx, ErrorCode, FieldDef, Identify, OperationDef, Service, Surface};

/// The CLI surface of generated services.
#[derive(Clone)]
pub struct ToolCli {
    services: Vec<Service>,
    identify: Identify,
}

impl std::fmt::Debug for ToolCli {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolCli").field("services", &self.services).finish_non_exhaustive()
    }
}

/// One tool's flags: the argument key, its flag, and the field its text is read into.
struct Flag {
    key: String,
    long: String,
    field: &'static FieldDef,
    kind: FlagKind,
}

#[derive(PartialEq)]
enum FlagKind {
    Bool,
    Many,
    Json,
    One,
}

/// A parsed command line: the tool and its arguments, or the exit code of `--help`/an error.
enum Parsed {
    Call { tool: String, args: Value, compact: bool },
    Done(ExitCode),
}

impl ToolCli {
    /// The CLI tools of `services`. Every call is anonymous until [`ToolCli::identify`].
    pub fn new(services: impl IntoIterator<Item = Service>) -> Self {
        ToolCli { services: services.into_iter().collect(), identify: crate::ctx::anonymous() }
    }

    /// Establishes who is calling, as the HTTP and MCP adapters do; the caller carries no
    /// headers here: the user who started the process is the caller (a token from the
    /// environment, a local credential).
    #[must_use]
    pub fn identify<F, Fut>(mut self, identify: F) -> Self
    where
        F: Fn(Caller) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Ctx, AppError>> + Send + 'static,
    {
        self.identify = crate::ctx::boxed(identify);
        self
    }

    fn tools(&self) -> impl Iterator<Item = &'static OperationDef> + '_ {
        self.services.iter().flat_map(|s| s.operations().iter().copied()).filter(|op| op.on(Surface::Cli))
    }

    /// The command tree: `name TOOL [--flags] [--json]`.
    pub fn command(&self, name: impl Into<clap::builder::Str>) -> Command {
        let mut cmd = Command::new(name)
            .about("Call a tool: the answer on stdout, the error envelope on stderr")
            .subcommand_required(true)
            .arg(
                Arg::new("json")
                    .long("json")
                    .global(true)
                    .action(ArgAction::SetTrue)
                    .help("Print the answer as compact JSON"),
            );
        for op in self.tools() {
            let tool = op.tool_name.unwrap_or(op.action);
            // The list of tools shows each description's first line; `call TOOL --help` all of it.
            let first = op.description.lines().next().unwrap_or_default();
            let mut sub = Command::new(tool).about(first).long_about(op.description);
            for flag in flags(op) {
                sub = sub.args(flag.args());
            }
            cmd = cmd.subcommand(sub);
        }
        cmd
    }

    /// Parses `args` (the program name first) and runs the tool as the identified caller,
    /// printing as the CLI surface does. A usage error is a `VALIDATION_ERROR` (exit 1), like any
    /// bad argument.
    pub async fn run(&self, name: &'static str, args: impl IntoIterator<Item = OsString>) -> ExitCode {
        match self.parse(name, args) {
            Parsed::Done(code) => code,
            Parsed::Call { tool, args, compact } => self.call(&tool, args, compact).await,
        }
    }

    fn parse(&self, name: &'static str, args: impl IntoIterator<Item = OsString>) -> Parsed {
        let matches = match self.command(name).bin_name(name).try_get_matches_from(args) {
            Ok(m) => m,
            Err(e) if !e.use_stderr() => {
                let _ = e.print();
                return Parsed::Done(ExitCode::SUCCESS);
            }
            Err(e) => {
                eprint!("{}", e.render());
                let err = crate::validation::invalid("input", e.kind().to_string(), Vec::new());
                return Parsed::Done(report(&err));
            }
        };
        let compact = matches.get_flag("json");
        let Some((tool, sub)) = matches.subcommand() else { return Parsed::Done(ExitCode::from(1)) };
        let Some(op) = self.tools().find(|op| op.tool_name == Some(tool)) else {
            return Parsed::Done(ExitCode::from(1));
        };
        match arguments(op, sub) {
            Ok(args) => Parsed::Call { tool: tool.to_owned(), args: Value::Object(args), compact },
            Err(e) => Parsed::Done(report(&e)),
        }
    }

    /// Calls `tool` with `args` as the identified caller and prints the answer or the envelope;
    /// the exit code of §4.
    pub async fn call(&self, tool: &str, args: Value, compact: bool) -> ExitCode {
        let ctx = match (self.identify)(Caller::new(Surface::Cli, None)).await {
            Ok(ctx) => ctx.on_progress(|p| {
                eprintln!("{}", progress_line(&p));
                std::future::ready(())
            }),
            Err(e) => return report(&e),
        };
        let ctx = &ctx;
        let Some(service) = self.services.iter().find(|s| s.find_tool(Surface::Cli, tool).is_some()) else {
            return report(&AppError::new(ErrorCode::NotFound, format!("unknown tool `{tool}`")));
        };
        match service.call_tool(Surface::Cli, tool, args, ctx).await {
            Ok(outcome) => {
                let text = if compact {
                    serde_json::to_string(&outcome.value)
                } else {
                    serde_json::to_string_pretty(&outcome.value)
                };
                println!("{}", text.unwrap_or_default());
                ExitCode::SUCCESS
            }
            Err(e) => report(&e),
        }
    }
}

/// A progress report as the CLI prints it on stderr: `progress: 3/8 room Curie`. Never JSON, so
/// that the error envelope stays the one JSON line of stderr (its last).
fn progress_line(p: &crate::Progress) -> String {
    let mut line = format!("progress: {}", p.done);
    if let Some(total) = p.total {
        line.push_str(&format!("/{total}"));
    }
    if let Some(message) = &p.message {
        // One line, whatever the handler wrote.
        line.push(' ');
        line.extend(message.chars().map(|c| if c.is_control() { ' ' } else { c }));
    }
    line
}

/// The envelope on stderr, and the exit code of the error's class.
fn report(e: &AppError) -> ExitCode {
    eprintln!("{}", serde_json::to_string(&e.tool_envelope()).unwrap_or_default());
    ExitCode::from(e.registry_code().map_or(1, ErrorCode::exit_code))
}

/// The flags of a tool: one per field its arguments arrive in ([`OperationDef::tool_fields`]).
fn flags(op: &OperationDef) -> Vec<Flag> {
    let mut taken: Vec<String> = vec!["json".into(), "help".into()];
    op.tool_fields
        .iter()
        .map(|field| {
            let kind = if field.types == ["boolean"] {
                FlagKind::Bool
            } else if field.repeats() && !field.items.iter().any(|t| matches!(*t, "object" | "array")) {
                FlagKind::Many
            } else if field.types.iter().any(|t| matches!(*t, "object" | "array")) || field.types.is_empty() {
                FlagKind::Json
            } else {
                FlagKind::One
            };
            let mut long = kebab(field.name);
            while taken.contains(&long) || (kind == FlagKind::Bool && taken.contains(&format!("no-{long}"))) {
                long.push_str("-arg");
            }
            taken.push(long.clone());
            taken.push(format!("no-{long}"));
            Flag { key: field.name.to_owned(), long, field, kind }
        })
        .collect()
}

impl Flag {
    fn args(&self) -> Vec<Arg> {
        let field = self.field;
        let help = if field.required { format!("{} (required)", field.description) } else { field.description.into() };
        let arg = Arg::new(self.key.clone()).long(self.long.clone()).help(help.trim().to_owned());
        let arg = match field.default {
            Some(d) => arg.long_help(format!("{} [default: {d}]", field.description)),
            None => arg,
        };
        let arg = if field.values.is_empty() { arg } else { arg.value_parser(PossibleValuesParser::new(field.values)) };
        match self.kind {
            FlagKind::Bool => vec![
                arg.action(ArgAction::SetTrue).overrides_with(format!("no-{}", self.key)),
                Arg::new(format!("no-{}", self.key))
                    .long(format!("no-{}", self.long))
                    .action(ArgAction::SetTrue)
                    .hide(true)
                    .overrides_with(self.key.clone()),
            ],
            FlagKind::Many => vec![arg.action(ArgAction::Append).value_name("VALUE")],
            FlagKind::Json => vec![arg.value_name("JSON")],
            FlagKind::One => vec![arg.value_name("VALUE")],
        }
    }
}

/// The tool's arguments from the parsed flags; only flags given on the command line, so view
/// defaults and the contract's own defaults stay the runner's to apply.
fn arguments(op: &OperationDef, matches: &ArgMatches) -> Result<Map<String, Value>, AppError> {
    let mut out = Map::new();
    for flag in flags(op) {
        let given = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
        let value = match flag.kind {
            FlagKind::Bool if given(&flag.key) => Value::Bool(true),
            FlagKind::Bool if given(&format!("no-{}", flag.key)) => Value::Bool(false),
            FlagKind::Bool => continue,
            _ if !given(&flag.key) => continue,
            FlagKind::Many => Value::Array(
                matches
                    .get_many::<String>(&flag.key)
                    .into_iter()
                    .flatten()
                    .map(|t| scalar(t, flag.field.items))
                    .collect(),
            ),
            FlagKind::Json => {
                let text = matches.get_one::<String>(&flag.key).cloned().unwrap_or_default();
                serde_json::from_str(&text).map_err(|e| {
                    crate::validation::invalid_argument(
                        &format!("/{}", flag.key),
                        &format!("--{} is not JSON: {e}", flag.long),
                    )
                })?
            }
            FlagKind::One => scalar(matches.get_one::<String>(&flag.key).map_or("", String::as_str), flag.field.types),
        };
        out.insert(flag.key, value);
    }
    Ok(out)
}

/// `customerId` / `max_results` → `customer-id` / `max-results`.
fn kebab(key: &str) -> String {
    let mut out = String::new();
    for (i, c) in key.chars().enumerate() {
        if c.is_uppercase() && i > 0 && !out.ends_with('-') {
            out.push('-');
        }
        out.extend(if c == '_' { '-' } else { c }.to_lowercase());
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn flags_are_kebab_case() {
        assert_eq!(super::kebab("customerId"), "customer-id");
        assert_eq!(super::kebab("max_results"), "max-results");
        assert_eq!(super::kebab("team"), "team");
    }
}
