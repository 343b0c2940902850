//! Accepted breaking changes (`stitchgen diff --accept FILE`): a committed list of changes the
//! team decided to ship, each with its reason and, if it likes, an expiry date. An accepted
//! change is still reported, marked accepted; it only stops counting for `--fail-on`.

use std::path::Path;

use super::Change;
use super::rules::{Consumer, RULES};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::node::Node;
use crate::source::{SourceMap, Span};

/// Why a change was accepted, as its entry says.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Accepted {
    /// The entry's reason.
    pub reason: String,
    /// The entry's expiry date (`YYYY-MM-DD`), if it has one.
    pub expires: Option<String>,
}

/// What an entry names: an operation (`service.action`, HTTP changes) or a tool (its name, on
/// every transport, or `name (MCP)` for one).
#[derive(Debug)]
enum Subject {
    Operation(String),
    Tool(String),
}

/// One entry of an acceptance file.
#[derive(Debug)]
struct Entry {
    rule: String,
    subject: Subject,
    accepted: Accepted,
    span: Span,
}

/// The entries of one acceptance file, read.
#[derive(Debug, Default)]
pub struct Acceptances {
    entries: Vec<Entry>,
}

const KEYS: [&str; 5] = ["rule", "operation", "tool", "reason", "expires"];

/// Reads the acceptance file at `path` into `sources`; what cannot be read is an `E1000` in
/// `diags` (the entry is then left out). Only I/O failures are errors.
pub fn read(path: &Path, sources: &mut SourceMap, diags: &mut Diagnostics) -> Result<Acceptances, String> {
    let Some(file) =
        crate::parse::read_as(path, crate::parse::Document::Acceptance, sources, diags).map_err(|e| e.to_string())?
    else {
        return Ok(Acceptances::default());
    };
    let Some(root) = crate::parse::yaml(sources, file, diags) else { return Ok(Acceptances::default()) };
    let Some(items) = root.as_seq() else {
        diags.push(
            invalid(root.span, format!("an acceptance file is a list of entries, not {}", root.kind()))
                .help("write `- {rule: RULE, operation: SERVICE.ACTION, reason: WHY}` per accepted change"),
        );
        return Ok(Acceptances::default());
    };
    let entries = items.iter().filter_map(|item| entry(item, diags)).collect();
    Ok(Acceptances { entries })
}

fn entry(item: &Node, diags: &mut Diagnostics) -> Option<Entry> {
    let Some(map) = item.as_map() else {
        diags.push(invalid(item.span, format!("an accepted change is a mapping, not {}", item.kind())));
        return None;
    };
    // A mapping's own span is the point where it starts: what it lacks is shown at its first key.
    let at = map.first().map_or(item.span, |(k, _)| k.span);
    let mut ok = known_keys(map, diags);
    let text = |key: &str, diags: &mut Diagnostics| -> Option<(String, Span)> {
        let node = item.get(key)?;
        match node.as_str().map(str::trim) {
            Some(s) if !s.is_empty() => Some((s.to_owned(), node.span)),
            _ => {
                diags.push(invalid(node.span, format!("`{key}` is a non-empty string, not {}", node.kind())));
                None
            }
        }
    };
    let rule = text("rule", diags);
    let reason = text("reason", diags);
    let expires = text("expires", diags);
    let subject = match (text("operation", diags), text("tool", diags)) {
        (Some((op, _)), None) => Some(Subject::Operation(op)),
        (None, Some((tool, _))) => Some(Subject::Tool(tool)),
        (Some(_), Some(_)) => {
            diags.push(invalid(at, "an accepted change names an `operation` or a `tool`, not both".into()));
            None
        }
        (None, None) => None,
    };
    let mut missing = |what: &str, help: &str| {
        diags.push(invalid(at, format!("an accepted change without {what}")).help(help.to_owned()));
    };
    if item.get("rule").is_none() {
        missing("`rule`", "name the diff rule it accepts, such as `output-field-removed` (docs/diff.md)");
    }
    if item.get("reason").is_none() {
        missing("`reason`", "say why the change ships: reviewers read it beside the change");
    }
    if item.get("operation").is_none() && item.get("tool").is_none() {
        missing("`operation` or `tool`", "name what changed: `operation: SERVICE.ACTION` or `tool: NAME`");
    }
    if let Some((id, span)) = &rule {
        ok &= known_rule(id, *span, diags);
    }
    if let Some((date, span)) = &expires
        && !is_date(date)
    {
        diags.push(invalid(*span, format!("`expires` is a date written `YYYY-MM-DD`, not `{date}`")));
        ok = false;
    }
    // Located at the rule it accepts.
    let (rule, span) = rule?;
    let accepted = Accepted { reason: reason?.0, expires: expires.map(|(d, _)| d) };
    Some(Entry { rule, subject: subject?, accepted, span }).filter(|_| ok)
}

fn invalid(span: Span, message: String) -> Diagnostic {
    Diagnostic::new(Code::AcceptInvalid, span, message)
}

/// Whether every key of an entry is one it may have; each other is an `E1000`.
fn known_keys(map: &[(Node, Node)], diags: &mut Diagnostics) -> bool {
    let mut ok = true;
    for (key, _) in map {
        let name = key.as_str().unwrap_or_default();
        if !KEYS.contains(&name) {
            let mut d = invalid(key.span, format!("unknown key `{name}` in an accepted change"));
            if let Some(near) = crate::naming::closest(name, &KEYS) {
                d = d.help(format!("did you mean `{near}`?"));
            }
            diags.push(d);
            ok = false;
        }
    }
    ok
}

/// Whether `id` names a diff rule; if not, an `E1000` with the closest one.
fn known_rule(id: &str, span: Span, diags: &mut Diagnostics) -> bool {
    if RULES.iter().any(|r| r.id == id) {
        return true;
    }
    let ids: Vec<&str> = RULES.iter().map(|r| r.id).collect();
    let mut d = invalid(span, format!("no diff rule is called `{id}`"));
    if let Some(near) = crate::naming::closest(id, &ids) {
        d = d.help(format!("did you mean `{near}`?"));
    }
    diags.push(d);
    false
}

/// `YYYY-MM-DD` with a month of 1–12 and a day of 1–31.
fn is_date(text: &str) -> bool {
    let parts: Vec<&str> = text.split('-').collect();
    let number = |s: &str, len: usize| {
        (s.len() == len && s.bytes().all(|b| b.is_ascii_digit())).then(|| s.parse::<u32>().ok()).flatten()
    };
    matches!(parts.as_slice(), [y, m, d] if number(y, 4).is_some()
        && number(m, 2).is_some_and(|m| (1..=12).contains(&m))
        && number(d, 2).is_some_and(|d| (1..=31).contains(&d)))
}

impl Entry {
    fn matches(&self, change: &Change) -> bool {
        self.rule == change.rule
            && match &self.subject {
                Subject::Operation(op) => change.consumer == Consumer::Http && *op == change.subject,
                Subject::Tool(tool) => {
                    change.consumer == Consumer::Tools
                        && (*tool == change.subject
                            || change.subject.strip_prefix(tool.as_str()).is_some_and(|rest| rest.starts_with(" (")))
                }
            }
    }
}

impl Acceptances {
    /// Marks each change an entry matches as accepted, unless the entry has expired by `today`
    /// (`YYYY-MM-DD`). An expired entry is a `W1001`, an entry that matches nothing a `W1000`.
    pub fn apply(&self, changes: &mut [Change], today: &str, diags: &mut Diagnostics) {
        for e in &self.entries {
            let expired = e.accepted.expires.as_deref().is_some_and(|d| d < today);
            let mut matched = 0;
            for c in changes.iter_mut().filter(|c| e.matches(c)) {
                matched += 1;
                if !expired && c.accepted.is_none() {
                    c.accepted = Some(e.accepted.clone());
                }
            }
            if expired {
                let date = e.accepted.expires.as_deref().unwrap_or_default();
                diags.push(
                    Diagnostic::new(
                        Code::AcceptExpired,
                        e.span,
                        format!("this acceptance of `{}` expired on {date}", e.rule),
                    )
                    .note(format!("it matches {matched} change{}, counted again", if matched == 1 { "" } else { "s" }))
                    .help("ship what it waited for, move the date on with a reason, or remove the entry"),
                );
            } else if matched == 0 {
                diags.push(
                    Diagnostic::new(
                        Code::AcceptUnmatched,
                        e.span,
                        format!("this acceptance of `{}` matches no change", e.rule),
                    )
                    .help("remove it once the change has shipped, or correct its rule, operation or tool"),
                );
            }
        }
    }
}

/// Today's date in UTC, `YYYY-MM-DD`: what `--accept` compares expiry dates with.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    civil(i64::try_from(secs / 86_400).unwrap_or(0))
}

/// The proleptic Gregorian date `days` after 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_since_the_epoch_are_civil_dates() {
        assert_eq!(civil(0), "1970-01-01");
        assert_eq!(civil(11_016), "2000-02-29");
        assert_eq!(civil(20_791), "2026-12-04");
    }

    fn change(consumer: Consumer, subject: &str) -> Change {
        Change {
            level: crate::diff::rules::Level::Breaking,
            consumer,
            subject: subject.into(),
            rule: "output-field-removed",
            detail: "output.note".into(),
            pointer: None,
            old: None,
            new: None,
            accepted: None,
        }
    }

    fn entry(subject: Subject) -> Entry {
        let span = Span::new(crate::source::FileId(0), 0, 0);
        let accepted = Accepted { reason: "announced".into(), expires: None };
        Entry { rule: "output-field-removed".into(), subject, accepted, span }
    }

    #[test]
    fn a_tool_entry_matches_its_tool_on_every_transport_or_on_the_one_it_names() {
        let any = entry(Subject::Tool("get_order".into()));
        assert!(any.matches(&change(Consumer::Tools, "get_order (MCP)")));
        assert!(any.matches(&change(Consumer::Tools, "get_order (AGENT)")));
        assert!(!any.matches(&change(Consumer::Tools, "get_orders (MCP)")));
        assert!(!any.matches(&change(Consumer::Http, "get_order")));
        let mcp = entry(Subject::Tool("get_order (MCP)".into()));
        assert!(mcp.matches(&change(Consumer::Tools, "get_order (MCP)")));
        assert!(!mcp.matches(&change(Consumer::Tools, "get_order (CLI)")));
    }

    #[test]
    fn an_operation_entry_matches_http_changes_only() {
        let op = entry(Subject::Operation("orders.get".into()));
        assert!(op.matches(&change(Consumer::Http, "orders.get")));
        assert!(!op.matches(&change(Consumer::Tools, "orders.get")));
    }

    #[test]
    fn only_iso_dates_are_dates() {
        assert!(is_date("2027-01-31"));
        for bad in ["2027-1-31", "2027-13-01", "27-01-31", "2027-01-32", "tomorrow", "2027/01/31"] {
            assert!(!is_date(bad), "{bad}");
        }
    }
}
