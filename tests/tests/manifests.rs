//! The publishable crates' dependency requirements, as a user's resolver reads them (after
//! workspace inheritance): caret requirements, so stitchgen resolves beside a user's other
//! dependencies. `Cargo.lock` pins this repository; the manifests do not.

use std::process::Command;

use stitchgen_tests::repo_root;

/// Exact requirements kept on purpose: generated code must not move between patch releases of
/// the type generator and the printer (each is commented in the root manifest).
const EXACT: &[&str] = &["typify", "prettyplease"];

#[test]
fn publishable_manifests_have_no_exact_requirements_but_the_commented_ones() {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(repo_root())
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut exact = Vec::new();
    let mut publishable = 0;
    for package in meta["packages"].as_array().unwrap() {
        // `publish: []` is `publish = false`.
        if package["publish"].as_array().is_some_and(Vec::is_empty) {
            continue;
        }
        publishable += 1;
        for dep in package["dependencies"].as_array().unwrap() {
            let (name, req) = (dep["name"].as_str().unwrap(), dep["req"].as_str().unwrap());
            let dev = dep["kind"].as_str() == Some("dev");
            if req.trim_start().starts_with('=') && !dev && !EXACT.contains(&name) {
                exact.push(format!("{}: {name} {req}", package["name"].as_str().unwrap()));
            }
        }
    }
    assert_eq!(publishable, 3, "stitchgen, stitchgen-runtime and stitchgen-cli are the publishable crates");
    assert!(exact.is_empty(), "exact requirements a user cannot resolve around: {exact:#?}");
}
