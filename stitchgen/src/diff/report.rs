//! Rendering a diff: text for terminals and logs, Markdown for a pull-request comment, JSON.

use serde_json::json;

use super::Change;
use super::rules::Level;

fn summary(changes: &[Change]) -> String {
    let count = |l: Level| changes.iter().filter(|c| c.level == l).count();
    format!("{} breaking, {} warning, {} info", count(Level::Breaking), count(Level::Warning), count(Level::Info))
}

/// One line per change, then a summary line.
pub fn text(changes: &[Change]) -> String {
    let mut out = String::new();
    let width = changes.iter().map(|c| c.subject.len()).max().unwrap_or(0);
    for c in changes {
        out.push_str(&format!(
            "{:<8}  {:<5}  {:<width$}  {}: {}\n",
            c.level.as_str(),
            c.consumer.as_str(),
            c.subject,
            c.rule,
            c.detail
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
        let level =
            if c.level == Level::Breaking { format!("**{}**", c.level.as_str()) } else { c.level.as_str().to_owned() };
        let detail = c.detail.replace('|', "\\|");
        out.push_str(&format!("| {level} | {} | `{}` | {} | {detail} |\n", c.consumer.as_str(), c.subject, c.rule));
    }
    out
}

/// `{"changes": [...], "summary": {...}}`, pretty, with a trailing newline.
pub fn json(changes: &[Change]) -> String {
    let count = |l: Level| changes.iter().filter(|c| c.level == l).count();
    let items: Vec<_> = changes
        .iter()
        .map(|c| json!({ "level": c.level.as_str(), "consumer": c.consumer.as_str(), "subject": c.subject, "rule": c.rule, "detail": c.detail }))
        .collect();
    let doc = json!({ "changes": items, "summary": { "breaking": count(Level::Breaking), "warning": count(Level::Warning), "info": count(Level::Info) } });
    String::from_utf8(crate::emit::json_bytes(&doc)).expect("JSON is UTF-8")
}
