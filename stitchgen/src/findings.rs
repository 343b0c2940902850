//! Findings as machines read them: GitHub Actions workflow commands, and one JSON document whose
//! versioned schema is committed (`schema/findings.schema.json`) and derived from the types here.

use schemars::JsonSchema;
use serde::Serialize;

use crate::diag::github::{Annotation, Place, workflow_command};
use crate::diag::{Diagnostic, Label, Severity};
use crate::source::{Location, SourceMap};

/// The version of the JSON document's schema. It grows by one when a field changes meaning or
/// goes away; a new optional field keeps it.
pub const VERSION: u32 = 1;

/// What `stitchgen check|generate|import|diff --format json` prints: one document, written whether
/// or not errors were found (the exit code says the same as in the human format).
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[schemars(title = "stitchgen findings")]
pub struct Report {
    /// The version of this document's schema; 1 for this one.
    #[schemars(extend("const" = 1))]
    pub version: u32,
    /// The command that wrote it: `check`, `generate`, `import` or `diff`.
    pub command: Command,
    /// True when the command did what it was asked: no error, no stale file, no change at or
    /// above `--fail-on`.
    pub ok: bool,
    /// Why the command could not run at all (a file it cannot read, a bad argument): exit code 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<String>,
    /// Every diagnostic, in the order the human format prints them.
    pub diagnostics: Vec<Finding>,
    /// `check --snapshot/--out`: each generated file or snapshot that is missing or out of date.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stale: Vec<Stale>,
    /// `diff`: every change, most severe first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<crate::diff::report::ChangeRecord>>,
    /// How many of each.
    pub summary: Summary,
}

/// The command a [`Report`] is from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Command {
    /// `stitchgen check`.
    Check,
    /// `stitchgen generate`.
    Generate,
    /// `stitchgen import`.
    Import,
    /// `stitchgen diff`.
    Diff,
}

/// One diagnostic, located.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Finding {
    /// The stable code from the catalog (`docs/diagnostics.md`), such as `E0511`.
    pub code: String,
    /// `error` or `warning`.
    pub severity: Level,
    /// One line saying what is wrong.
    pub message: String,
    /// Where: the file as given on the command line (relative to the working directory when it
    /// lies below it), one-based line and column (in characters), and where the span ends.
    #[serde(flatten)]
    pub at: Location,
    /// The text under the place at fault, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// What to do about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// Further facts.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Related places (the first definition of a duplicate, say).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
}

/// How bad a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// The command fails.
    Error,
    /// The command goes on; worth a look.
    Warning,
}

/// A related place of a finding.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Related {
    /// Where.
    #[serde(flatten)]
    pub at: Location,
    /// What to say there (may be empty).
    pub message: String,
}

/// A generated file or snapshot that does not match what the contracts generate.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Stale {
    /// The file.
    pub file: String,
    /// What differs (a unified diff, or the snapshot rows that moved); absent when the file is
    /// missing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// Counts.
#[derive(Debug, Default, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Summary {
    /// Diagnostics of severity error.
    pub errors: usize,
    /// Diagnostics of severity warning.
    pub warnings: usize,
    /// `diff`: changes by level, accepted ones included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<crate::diff::report::Counts>,
}

impl Report {
    /// An empty report of `command`: ok until something is added that says otherwise.
    pub fn new(command: Command) -> Self {
        Report {
            version: VERSION,
            command,
            ok: true,
            failure: None,
            diagnostics: Vec::new(),
            stale: Vec::new(),
            changes: None,
            summary: Summary::default(),
        }
    }

    /// Records why the command could not go on (what it found before stays reported).
    pub fn failed(&mut self, why: impl Into<String>) -> &mut Self {
        self.ok = false;
        self.failure = Some(why.into());
        self
    }

    /// Adds `diagnostics`, located in `sources`; an error makes the report not ok.
    pub fn diagnostics(&mut self, diagnostics: &[Diagnostic], sources: &SourceMap) -> &mut Self {
        let errors = diagnostics.iter().filter(|d| d.severity() == Severity::Error).count();
        self.summary.errors += errors;
        self.summary.warnings += diagnostics.len() - errors;
        self.ok &= errors == 0;
        self.diagnostics.extend(diagnostics.iter().map(|d| finding(d, sources)));
        self
    }

    /// Adds the files `check --snapshot/--out` found stale; any makes the report not ok.
    pub fn stale(&mut self, found: &[crate::verify::Finding]) -> &mut Self {
        self.ok &= found.is_empty();
        self.stale.extend(found.iter().map(Stale::from));
        self
    }

    /// Sets the changes of a diff.
    pub fn changes(&mut self, changes: &[crate::diff::Change]) -> &mut Self {
        self.summary.changes = Some(crate::diff::report::Counts::of(changes));
        self.changes = Some(changes.iter().map(Into::into).collect());
        self
    }

    /// The document, pretty, with a trailing newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a report serializes");
        text.push('\n');
        text
    }
}

impl From<&crate::verify::Finding> for Stale {
    fn from(f: &crate::verify::Finding) -> Self {
        use crate::verify::Finding as F;
        let (path, detail) = match f {
            F::Snapshot { path, why } => (path, Some(why.to_string())),
            F::File { path, diff } => (path, diff.clone()),
        };
        Stale { file: crate::source::display_path(path), detail }
    }
}

/// One GitHub workflow command per stale file, on the file.
pub fn github_stale(found: &[crate::verify::Finding]) -> String {
    found
        .iter()
        .map(|f| {
            let stale = Stale::from(f);
            let message = format!("{f}\nhelp: run `stitchgen generate`, review the diff and commit it");
            workflow_command(Annotation::Error, Place::File(&stale.file), "stale", &message)
        })
        .collect()
}

/// The JSON Schema of [`Report`], as committed in `schema/findings.schema.json`.
pub fn schema_json() -> String {
    let mut text = serde_json::to_string_pretty(&schemars::schema_for!(Report)).expect("a schema serializes");
    text.push('\n');
    text
}

fn finding(d: &Diagnostic, sources: &SourceMap) -> Finding {
    Finding {
        code: d.code.id().to_owned(),
        severity: match d.severity() {
            Severity::Error => Level::Error,
            Severity::Warning => Level::Warning,
        },
        message: d.message.clone(),
        at: location(&d.primary, sources),
        label: Some(d.primary.text.clone()).filter(|t| !t.is_empty()),
        help: d.help.clone(),
        notes: d.notes.clone(),
        related: d.secondary.iter().map(|l| Related { at: location(l, sources), message: l.text.clone() }).collect(),
    }
}

fn location(label: &Label, sources: &SourceMap) -> Location {
    sources.locate(label.span)
}

/// One GitHub Actions workflow command per diagnostic (`::error file=…,line=…::message`), the
/// message carrying the help and notes on lines of their own.
pub fn github(diagnostics: &[Diagnostic], sources: &SourceMap) -> String {
    let mut out = String::new();
    for d in diagnostics {
        let f = finding(d, sources);
        let mut message = f.message.clone();
        if let Some(label) = &f.label {
            message.push_str(&format!(" ({label})"));
        }
        for note in &f.notes {
            message.push_str(&format!("\nnote: {note}"));
        }
        if let Some(help) = &f.help {
            message.push_str(&format!("\nhelp: {help}"));
        }
        out.push_str(&workflow_command(annotation(f.severity), Place::At(&f.at), &f.code, &message));
    }
    out
}

fn annotation(level: Level) -> Annotation {
    match level {
        Level::Error => Annotation::Error,
        Level::Warning => Annotation::Warning,
    }
}
