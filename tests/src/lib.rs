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

/// The folder beside the clone where the public documents the tests read are laid out
/// (`corpus/`, `mcp-spec/`; tests/corpus/README.md): `../shared`, or `$STITCHGEN_SHARED_DIR`
/// (CI names an empty folder there to run the tests as a bare clone does).
pub fn shared_dir() -> PathBuf {
    std::env::var_os("STITCHGEN_SHARED_DIR").map_or_else(|| repo_root().join("../shared"), PathBuf::from)
}

/// `$defs/Tool` of the official MCP schema: from `MCP_SPEC_DIR` when set (then it must be
/// there; `tests/conformance/run.sh` sets it), else from `mcp-spec/` in [`shared_dir`] when
/// present. The schemas are not part of this repository; CI's conformance step always reads them.
pub fn mcp_tool_validator() -> Option<jsonschema::Validator> {
    let (dir, required) = match std::env::var("MCP_SPEC_DIR") {
        Ok(dir) => (dir.into(), true),
        Err(_) => (shared_dir().join("mcp-spec"), false),
    };
    let path = dir.join("schema-2025-11-25.json");
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) if required => panic!("MCP_SPEC_DIR is set but {} does not read: {e}", path.display()),
        Err(_) => {
            eprintln!("no MCP schema beside the clone: tools are validated by tests/conformance/run.sh");
            return None;
        }
    };
    let mut spec: serde_json::Value = serde_json::from_str(&text).unwrap();
    spec["$ref"] = serde_json::Value::String("#/$defs/Tool".into());
    Some(jsonschema::validator_for(&spec).unwrap())
}
