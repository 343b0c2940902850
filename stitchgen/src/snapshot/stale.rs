//! Telling a committed snapshot from a fresh one: which operations and tools moved, and the
//! unified diff, so a CI log alone says what to do.

use serde_json::{Map, Value};

/// Why a committed snapshot does not match.
#[derive(Debug, PartialEq, Eq)]
pub enum Stale {
    /// There is no committed snapshot.
    Missing,
    /// The committed snapshot has another layout version.
    OtherVersion(String),
    /// It differs: one line per moved row, then the unified diff.
    Moved(String),
}

impl std::fmt::Display for Stale {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Stale::Missing => f.write_str("no committed snapshot"),
            Stale::OtherVersion(v) => write!(
                f,
                "snapshot manifestVersion {v} is not {}: regenerate and review the diff",
                super::MANIFEST_VERSION
            ),
            Stale::Moved(report) => f.write_str(report),
        }
    }
}

/// Compares the committed bytes (if any) with the fresh ones. `Ok` when identical.
pub fn compare(committed: Option<&[u8]>, fresh: &[u8]) -> Result<(), Stale> {
    let Some(committed) = committed else { return Err(Stale::Missing) };
    if committed == fresh {
        return Ok(());
    }
    let old: Value = serde_json::from_slice(committed).unwrap_or(Value::Null);
    let version = old.get("manifestVersion").cloned().unwrap_or(Value::Null);
    if version != super::MANIFEST_VERSION {
        return Err(Stale::OtherVersion(version.to_string()));
    }
    let new: Value = serde_json::from_slice(fresh).expect("a fresh snapshot is JSON");
    let mut report = moved_rows(&old, &new).join("\n");
    if !report.is_empty() {
        report.push_str("\n\n");
    }
    let (a, b) = (String::from_utf8_lossy(committed), String::from_utf8_lossy(fresh));
    let diff = similar::TextDiff::from_lines(a.as_ref(), b.as_ref());
    report.push_str(&diff.unified_diff().context_radius(3).header("committed", "generated").to_string());
    Err(Stale::Moved(report))
}

fn keyed(rows: Option<&Value>, key: impl Fn(&Value) -> String) -> Vec<(String, &Map<String, Value>)> {
    rows.and_then(Value::as_array).into_iter().flatten().filter_map(|r| Some((key(r), r.as_object()?))).collect()
}

fn changed_fields(old: &Map<String, Value>, new: &Map<String, Value>) -> Vec<String> {
    let mut keys: Vec<&String> = old.keys().chain(new.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut out = Vec::new();
    for k in keys {
        match (old.get(k), new.get(k)) {
            (Some(Value::Object(a)), Some(Value::Object(b))) => {
                out.extend(changed_fields(a, b).into_iter().map(|f| format!("{k}.{f}")))
            }
            (a, b) if a != b => out.push(k.clone()),
            _ => {}
        }
    }
    out
}

fn compare_rows(
    what: &str,
    old: &[(String, &Map<String, Value>)],
    new: &[(String, &Map<String, Value>)],
    out: &mut Vec<String>,
) {
    for (k, o) in old {
        match new.iter().find(|(n, _)| n == k) {
            None => out.push(format!("{what} {k}: removed")),
            Some((_, n)) => {
                let fields = changed_fields(o, n);
                if !fields.is_empty() {
                    out.push(format!("{what} {k}: {} changed", fields.join(", ")));
                }
            }
        }
    }
    for (k, _) in new.iter().filter(|(k, _)| !old.iter().any(|(o, _)| o == k)) {
        out.push(format!("{what} {k}: added"));
    }
}

/// One line per operation or tool that was added, removed or changed, and per moved stamp.
pub fn moved_rows(old: &Value, new: &Value) -> Vec<String> {
    let op_key = |r: &Value| {
        format!(
            "{}.{} ({})",
            r["service"].as_str().unwrap_or(""),
            r["action"].as_str().unwrap_or(""),
            r["kind"].as_str().unwrap_or("")
        )
    };
    let mut out = Vec::new();
    compare_rows("operation", &keyed(old.get("operations"), op_key), &keyed(new.get("operations"), op_key), &mut out);
    let surfaces = |v: &Value| {
        keyed(v.get("toolSurfaces"), |r| r["transport"].as_str().unwrap_or("").to_owned())
            .into_iter()
            .map(|(k, m)| (k, m.clone()))
            .collect::<Vec<_>>()
    };
    let (old_s, new_s) = (surfaces(old), surfaces(new));
    for (transport, n) in &new_s {
        let o = old_s.iter().find(|(t, _)| t == transport).map(|(_, m)| m);
        if o.and_then(|o| o.get("catalog")) != n.get("catalog") {
            out.push(format!("{transport} catalog: stamp moved"));
        }
        if o.and_then(|o| o.get("discovery")) != n.get("discovery") {
            out.push(format!("{transport} discovery: search mode changed"));
        }
        let tool_key = |r: &Value| r["name"].as_str().unwrap_or("").to_owned();
        let what = format!("tool {transport}");
        compare_rows(
            &what,
            &keyed(o.and_then(|o| o.get("tools")), tool_key),
            &keyed(n.get("tools"), tool_key),
            &mut out,
        );
    }
    let file = |r: &Value| r["file"].as_str().unwrap_or("").to_owned();
    compare_rows("profile", &keyed(old.get("profiles"), file), &keyed(new.get("profiles"), file), &mut out);
    out
}
