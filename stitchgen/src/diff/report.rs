//! Rendering a diff: text for terminals and logs, Markdown for a pull-request comment, GitHub
//! workflow commands, and the records of the JSON findings document.

use schemars::JsonSchema;
use serde::Serialize;

use super::Change;
use super::rules::Level;
use crate::diag::github::{Annotation, Place, workflow_command};

/// How many changes of each level, and how many of them are accepted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    /// Changes that may break existing consumers.
    pub breaking: usize,
    /// Changes existing consumers survive but may notice.
    pub warning: usize,
    /// Changes worth knowing.
    pub info: usize,
    /// Of all these, the changes an entry of `--accept` accepts.
    pub accepted: usize,
}

impl Counts {
    /// The counts of `changes`.
    pub fn of(changes: &[Change]) -> Self {
        let count = |l: Level| changes.iter().filter(|c| c.level == l).count();
        Counts {
            breaking: count(Level::Breaking),
            warning: count(Level::Warning),
            info: count(Level::Info),
            accepted: changes.iter().filter(|c| c.accepted.is_some()).count(),
        }
    }
}

/// One change in the JSON findings document.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChangeRecord {
    /// The rule id (`docs/diff.md`), such as `output-field-removed`.
    pub rule: String,
    /// `breaking`, `warning` or `info`.
    pub level: String,
    /// `HTTP` (clients reading full answers) or `tools` (models, views applied).
    pub consumer: String,
    /// The operation (`service.action`) for HTTP, the tool (`name (TRANSPORT)`) for tools.
    pub subject: String,
    /// What exactly changed.
    pub detail: String,
    /// For a change inside a schema: a JSON Pointer into the subject's schemas as presented,
    /// `{input, output, stream: {item, terminal}}` (in the new one; in the old one for what is
    /// gone), such as `/output/properties/note`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// The value at `pointer` before; absent for what is new.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub old: Option<serde_json::Value>,
    /// The value at `pointer` after; absent for what is gone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new: Option<serde_json::Value>,
    /// Set when an entry of `--accept` accepts the change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accepted: Option<AcceptedRecord>,
}

/// Why a change is accepted.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AcceptedRecord {
    /// The entry's reason.
    pub reason: String,
    /// The entry's expiry date, `YYYY-MM-DD`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<String>,
}

impl From<&Change> for ChangeRecord {
    fn from(c: &Change) -> Self {
        ChangeRecord {
            rule: c.rule.to_owned(),
            level: c.level.as_str().to_owned(),
            consumer: c.consumer.as_str().to_owned(),
            subject: c.subject.clone(),
            detail: c.detail.clone(),
            pointer: c.pointer.clone(),
            old: c.old.clone(),
            new: c.new.clone(),
            accepted: c
                .accepted
                .as_ref()
                .map(|a| AcceptedRecord { reason: a.reason.clone(), expires: a.expires.clone() }),
        }
    }
}

fn summary(changes: &[Change]) -> String {
    let n = Counts::of(changes);
    let accepted = if n.accepted > 0 { format!(" ({} accepted)", n.accepted) } else { String::new() };
    format!("{} breaking, {} warning, {} info{accepted}", n.breaking, n.warning, n.info)
}

/// `[accepted: REASON, until DATE]`, or nothing.
fn accepted_note(c: &Change) -> String {
    match &c.accepted {
        None => String::new(),
        Some(a) => {
            let until = a.expires.as_ref().map(|d| format!(", until {d}")).unwrap_or_default();
            format!(" [accepted: {}{until}]", a.reason)
        }
    }
}

/// One line per change, then a summary line.
pub fn text(changes: &[Change]) -> String {
    let mut out = String::new();
    let width = changes.iter().map(|c| c.subject.len()).max().unwrap_or(0);
    for c in changes {
        out.push_str(&format!(
            "{:<8}  {:<5}  {:<width$}  {}: {}{}\n",
            c.level.as_str(),
            c.consumer.as_str(),
            c.subject,
            c.rule,
            c.detail,
            accepted_note(c)
        ));
    }
    if changes.is_empty() {
        out.push_str("no change\n");
    } else {
        out.push_str(&format!(
            "{} change{}: {}\n",
            changes.len(),
            if changes.len() == 1 { "" } else { "s" },
            summary(changes)
        ));
    }
    out
}

/// A Markdown table, ready to post as a review comment.
pub fn markdown(changes: &[Change]) -> String {
    let mut out = format!("### stitchgen diff: {}\n\n", summary(changes));
    if changes.is_empty() {
        out.push_str("No surface changed.\n");
        return out;
    }
    out.push_str("| level | consumer | subject | rule | change |\n|---|---|---|---|---|\n");
    for c in changes {
        let level = match (c.level, &c.accepted) {
            (Level::Breaking, None) => format!("**{}**", c.level.as_str()),
            (_, Some(_)) => format!("{} (accepted)", c.level.as_str()),
            _ => c.level.as_str().to_owned(),
        };
        let detail = format!("{}{}", c.detail, accepted_note(c)).replace('|', "\\|");
        out.push_str(&format!("| {level} | {} | `{}` | {} | {detail} |\n", c.consumer.as_str(), c.subject, c.rule));
    }
    out
}

/// One GitHub workflow command per change: breaking an error, warning a warning, info and
/// accepted changes a notice (an accepted change is shown, never hidden).
pub fn github(changes: &[Change]) -> String {
    changes
        .iter()
        .map(|c| {
            let level = match (c.level, &c.accepted) {
                (_, Some(_)) | (Level::Info, None) => Annotation::Notice,
                (Level::Breaking, None) => Annotation::Error,
                (Level::Warning, None) => Annotation::Warning,
            };
            let title = format!("{} ({} for {})", c.rule, c.level.as_str(), c.consumer.as_str());
            workflow_command(level, Place::None, &title, &format!("{}: {}{}", c.subject, c.detail, accepted_note(c)))
        })
        .collect()
}
