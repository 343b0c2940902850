//! Whether a tree is up to date with its contracts: the committed surface snapshot and the
//! generated files checked in, compared with what the contracts generate now. `stitchgen check`
//! and build.rs's `Config` both ask here, so that they answer alike; each only prints.

use std::path::{Path, PathBuf};

use crate::Generated;
use crate::snapshot::stale::{Stale, compare};

/// The file `generate --out DIR` writes the surface snapshot to, unless told another.
pub const SNAPSHOT_FILE: &str = "surface.snapshot.json";

/// How many hunks of a stale file's diff are shown; the rest are counted.
const HUNKS: usize = 3;

/// A committed file that no longer matches what the contracts generate.
#[derive(Debug)]
pub enum Finding {
    /// The surface snapshot: missing, of another version, or with rows that moved.
    Snapshot {
        /// Where it was read.
        path: PathBuf,
        /// What moved.
        why: Stale,
    },
    /// A generated file checked in under the output directory.
    File {
        /// Where it was read.
        path: PathBuf,
        /// The unified diff from the committed bytes to the generated ones (the first hunks and
        /// a count of the others); `None` when the file is missing.
        diff: Option<String>,
    },
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Finding::Snapshot { path, why } => {
                write!(f, "the surface snapshot `{}` is stale\n{why}", crate::source::display_path(path))
            }
            Finding::File { path, diff: None } => write!(f, "`{}` is missing", crate::source::display_path(path)),
            Finding::File { path, diff: Some(diff) } => {
                write!(f, "`{}` is stale\n{diff}", crate::source::display_path(path))
            }
        }
    }
}

/// Compares a tree with `generated`: the snapshot at `snapshot`, else at `out/`[`SNAPSHOT_FILE`]
/// when `out` is given, and every generated file under `out`. Empty when all are up to date.
pub fn verify(generated: &Generated, snapshot: Option<&Path>, out: Option<&Path>) -> Vec<Finding> {
    let mut found = Vec::new();
    let snapshot = snapshot.map(Path::to_path_buf).or_else(|| out.map(|dir| dir.join(SNAPSHOT_FILE)));
    if let Some(path) = snapshot
        && let Err(why) = compare(std::fs::read(&path).ok().as_deref(), &generated.snapshot)
    {
        found.push(Finding::Snapshot { path, why });
    }
    let Some(dir) = out else { return found };
    for a in &generated.artifacts {
        let path = dir.join(&a.name);
        match std::fs::read(&path) {
            Ok(bytes) if bytes == a.bytes => {}
            Ok(bytes) => found.push(Finding::File { diff: Some(diff(&bytes, &a.bytes)), path }),
            Err(_) => found.push(Finding::File { path, diff: None }),
        }
    }
    found
}

/// The unified diff from `committed` to `generated`: the first [`HUNKS`] hunks, then how many
/// more there are, so that a CI log says what moved without holding a whole module.
fn diff(committed: &[u8], generated: &[u8]) -> String {
    let (a, b) = (String::from_utf8_lossy(committed), String::from_utf8_lossy(generated));
    let diff = similar::TextDiff::from_lines(a.as_ref(), b.as_ref());
    let mut unified = diff.unified_diff();
    unified.context_radius(3).header("committed", "generated");
    let hunks: Vec<String> = unified.iter_hunks().map(|h| h.to_string()).collect();
    let mut out = format!("--- committed\n+++ generated\n{}", hunks.iter().take(HUNKS).cloned().collect::<String>());
    if hunks.len() > HUNKS {
        out.push_str(&format!("… and {} more hunks\n", hunks.len() - HUNKS));
    }
    out
}

/// Writes `generated` into `out`, and its snapshot to `snapshot`, each file only where its
/// bytes change and atomically; nothing when any error was found.
pub fn write(generated: &Generated, out: &Path, snapshot: &Path) -> std::io::Result<crate::out::WriteReport> {
    if generated.artifacts.is_empty() {
        return Ok(crate::out::WriteReport::default());
    }
    let mut report = crate::out::write_all(out, &generated.artifacts)?;
    let name = crate::source::display_path(snapshot);
    if accept_snapshot(generated, snapshot)? {
        report.written.push(name);
    } else {
        report.unchanged.push(name);
    }
    Ok(report)
}

/// Writes the fresh snapshot to `path` (its folder created) where its bytes change: what a
/// reviewer accepts. Nothing when any error was found. Returns whether it wrote.
pub fn accept_snapshot(generated: &Generated, path: &Path) -> std::io::Result<bool> {
    if generated.snapshot.is_empty() {
        return Ok(false);
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    crate::out::write_if_changed(path, &generated.snapshot)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stale_file_shows_its_first_hunks_and_counts_the_rest() {
        let old: String = (0..200).map(|i| format!("line {i}\n")).collect();
        let new = old.replace("line 10\n", "line ten\n").replace("line 50\n", "").replace("line 90\n", "x\n");
        let new = new.replace("line 130\n", "y\n").replace("line 170\n", "z\n");
        let shown = diff(old.as_bytes(), new.as_bytes());
        assert!(shown.starts_with("--- committed\n+++ generated\n@@"), "{shown}");
        assert!(shown.contains("-line 10\n+line ten\n"), "{shown}");
        assert!(shown.contains("-line 90\n+x\n"), "{shown}");
        assert!(!shown.contains("+y\n"), "{shown}");
        assert!(shown.ends_with("… and 2 more hunks\n"), "{shown}");
    }
}
