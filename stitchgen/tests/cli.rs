//! The `stitchgen` binary as CI runs it: exit codes, streams, paths.

use std::path::Path;
use std::process::{Command, Output};

fn stitchgen(args: &[&str]) -> Output {
    // Run from the repository root so paths in diagnostics are short and stable.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    Command::new(env!("CARGO_BIN_EXE_stitchgen")).args(args).current_dir(root).env_remove("NO_COLOR").output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn check_valid_exits_0() {
    let out = stitchgen(&["check", "fixtures/valid/helpdesk.stitch.yaml", "fixtures/valid/projects.stitch.yaml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "ok: 2 contracts checked\n");
    assert!(out.stdout.is_empty());
}

#[test]
fn check_invalid_exits_1_with_relative_paths_and_no_colour() {
    let out = stitchgen(&["check", "fixtures/invalid/E0206_route_conflict.stitch.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.starts_with("error[E0206]: "), "{err}");
    assert!(err.contains(" --> fixtures/invalid/E0206_route_conflict.stitch.yaml:"), "{err}");
    assert!(!err.contains('\u{1b}'), "no colour when stderr is not a terminal");
}

#[test]
fn colour_on_request() {
    let out = stitchgen(&["--color", "always", "check", "fixtures/invalid/E0206_route_conflict.stitch.yaml"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains('\u{1b}'));
}

#[test]
fn missing_file_is_a_usage_error() {
    let out = stitchgen(&["check", "fixtures/valid/no-such.stitch.yaml"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("error: cannot read `fixtures/valid/no-such.stitch.yaml`"));
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(stitchgen(&["check"]).status.code(), Some(2));
    assert_eq!(stitchgen(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(stitchgen(&["--help"]).status.code(), Some(0));
}

#[test]
fn schema_prints_the_committed_dsl_schema() {
    let out = stitchgen(&["schema"]);
    assert_eq!(out.status.code(), Some(0));
    let committed =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../schema/stitch.schema.json")).unwrap();
    assert_eq!(
        text(&out.stdout),
        committed,
        "schema/stitch.schema.json is stale: run `cargo run -p stitchgen -- schema > schema/stitch.schema.json`"
    );
}
