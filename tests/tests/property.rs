//! Property: every random valid contract checks clean, every artifact is produced, and every
//! MCP tool validates against the official MCP schema. (A sample of them is compiled in
//! `tests/generated`.) Bounded by `STITCHGEN_PROPERTY_SECONDS` (default 10).

use std::time::{Duration, Instant};

use serde_json::Value;
use stitchgen::diag::{ColorChoice, render_all};
use stitchgen_tests::{mcp_tool_validator, random};

#[test]
fn random_valid_contracts_generate_every_artifact() {
    let seconds: u64 = std::env::var("STITCHGEN_PROPERTY_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let tool = mcp_tool_validator();
    let mut seed = 0u64;
    while Instant::now() < deadline && seed < 5_000 {
        let text = random::contract(seed);
        let checked = stitchgen::check_source(&format!("random{seed}.stitch.yaml"), &text);
        assert!(
            !checked.has_errors(),
            "seed {seed}: a generated valid contract was refused:\n{}\n{text}",
            render_all(&checked.diagnostics, &checked.sources, ColorChoice::Never)
        );
        let generated = stitchgen::generate_checked(checked).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        let names: Vec<&str> = generated.artifacts.iter().map(|a| a.name.as_str()).collect();
        let module = format!("svc{seed}.rs");
        assert_eq!(names, [module.as_str(), "openapi.json", "mcp-tools.json", "agent-tools.json"], "seed {seed}");
        assert!(!generated.snapshot.is_empty());
        let manifest: Value = serde_json::from_slice(&generated.artifacts[2].bytes).unwrap();
        if let Some(tool) = &tool {
            for t in manifest["tools"].as_array().unwrap() {
                let errors: Vec<String> = tool.iter_errors(t).map(|e| e.to_string()).collect();
                assert!(errors.is_empty(), "seed {seed}: tool {} breaks the MCP schema: {errors:?}\n{text}", t["name"]);
            }
        }
        seed += 1;
    }
    eprintln!("{seed} random contracts generated and validated");
    assert!(seed >= 20, "too few contracts to mean anything: {seed}");
}

/// Codes `check` may answer a hostile name with: a service name that makes no URL segment, a
/// path parameter that is not a name, a name with no Rust form.
const NAME_REFUSALS: &[&str] = &["E0200", "E0201", "E0801"];

/// Property: a contract with hostile names at every level (keywords, unicode, punctuation,
/// spellings sharing one case form) is either refused by `check` for its names, at the name, or
/// generates; a sample of those is compiled in `tests/generated`.
#[test]
fn hostile_names_generate_or_are_refused_by_name() {
    let seconds: u64 = std::env::var("STITCHGEN_PROPERTY_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(10);
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let (mut seed, mut generated) = (0u64, 0u64);
    while Instant::now() < deadline && seed < 5_000 {
        let text = stitchgen_tests::names::contract(seed);
        let checked = stitchgen::check_source(&format!("names{seed}.stitch.json"), &text);
        let refused: Vec<_> =
            checked.diagnostics.iter().filter(|d| d.severity() == stitchgen::diag::Severity::Error).collect();
        if refused.is_empty() {
            stitchgen::generate_checked(checked).unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            generated += 1;
        } else {
            let other: Vec<_> = refused.iter().filter(|d| !NAME_REFUSALS.contains(&d.code.id())).collect();
            assert!(
                other.is_empty(),
                "seed {seed}: refused for more than its names:\n{}\n{text}",
                render_all(&checked.diagnostics, &checked.sources, ColorChoice::Never)
            );
        }
        seed += 1;
    }
    eprintln!("{seed} contracts with hostile names, {generated} generated");
    assert!(generated >= 20, "too few contracts generated to mean anything: {generated} of {seed}");
}
