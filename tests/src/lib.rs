//! Shared helpers for stitchgen's end-to-end tests.

use std::path::{Path, PathBuf};

pub mod names;
pub mod random;

/// The repository root (the workspace directory).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ lives in the workspace").to_path_buf()
}

/// Every `*.stitch.yaml` directly under `fixtures/<dir>`, sorted by name.
pub fn fixtures(dir: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(repo_root().join("fixtures").join(dir))
        .expect("fixture directory exists")
        .map(|e| e.expect("readable directory entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".stitch.yaml"))
        .collect();
    out.sort();
    out
}
