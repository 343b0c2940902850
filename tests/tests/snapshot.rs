//! The surface snapshot: exact bytes, what moves it and what does not, and the stale report.

use stitchgen::snapshot::stale::{Stale, compare, moved_rows};
use stitchgen::{Options, generate};
use stitchgen_tests::{fixtures, repo_root};

fn people() -> String {
    std::fs::read_to_string(repo_root().join("fixtures/valid/people.stitch.yaml")).unwrap()
}

/// The snapshot bytes of one contract text.
fn snapshot_of(text: &str) -> Vec<u8> {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("stitchgen-snap-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("people.stitch.yaml");
    std::fs::write(&path, text).unwrap();
    let g = generate(&[&path], &Options::default()).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(!g.checked.has_errors(), "{:?}", g.checked.diagnostics);
    g.snapshot
}

fn moved(old: &[u8], new: &[u8]) -> Vec<String> {
    moved_rows(&serde_json::from_slice(old).unwrap(), &serde_json::from_slice(new).unwrap())
}

#[test]
fn snapshot_bytes_of_every_valid_fixture_and_all_together() {
    for f in fixtures("valid") {
        let stem = f.file_name().unwrap().to_string_lossy().trim_end_matches(".stitch.yaml").to_owned();
        let g = generate(std::slice::from_ref(&f), &Options::default()).unwrap();
        insta::with_settings!({ snapshot_path => "snapshots/surface", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(stem, String::from_utf8(g.snapshot).unwrap());
        });
    }
}

#[test]
fn a_fresh_snapshot_passes_and_a_description_edit_names_the_operation() {
    let base = snapshot_of(&people());
    assert_eq!(compare(Some(&base), &base), Ok(()));
    let edited = snapshot_of(&people().replace("desc: Get one person by id.", "desc: Get one person by their id."));
    let Err(Stale::Moved(report)) = compare(Some(&base), &edited) else { panic!("not stale") };
    assert!(report.starts_with("operation people.get (contract): description changed\n"), "{report}");
    assert!(report.contains("--- committed\n+++ generated\n"), "{report}");
    assert!(report.contains("-      \"description\": \"Get one person by id.\","), "{report}");
}

#[test]
fn an_annotation_edit_moves_the_mcp_stamp_and_that_tools_bytes_only() {
    let base = snapshot_of(&people());
    let edited = snapshot_of(&people().replace(
        "annotations: { title: List people, readOnlyHint: true }",
        "annotations: { title: List everyone, readOnlyHint: true }",
    ));
    // What an MCP client reads moved; the agent and the CLI advertise no annotation.
    assert_eq!(moved(&base, &edited), ["MCP catalog: stamp moved", "tool MCP list_people: bytes changed"]);
}

#[test]
fn meta_and_ui_do_not_move_the_snapshot() {
    let base = snapshot_of(&people());
    let edited = snapshot_of(
        &people().replace("title: People directory\n", "title: People directory\nmeta: { owner: people-team }\n"),
    );
    assert_eq!(compare(Some(&base), &edited), Ok(()));
}

#[test]
fn adding_a_view_moves_only_that_operations_row() {
    let without = people().replace(
        "    tool:\n      name: create_person\n      view:\n        output: { $ref: \"#/types/Card\" }\n",
        "    tool:\n      name: create_person\n",
    );
    assert_ne!(without, people(), "the fixture's create_person has a view");
    let lines = moved(&snapshot_of(&without), &snapshot_of(&people()));
    let operations: Vec<&String> = lines.iter().filter(|l| l.starts_with("operation ")).collect();
    assert_eq!(operations, ["operation people.create (contract): toolView changed"], "{lines:#?}");
    // On the tool surfaces only `create_person` moved (its advertised output), and the stamps.
    assert!(lines.iter().filter(|l| l.starts_with("tool ")).all(|l| l.contains(" create_person: ")), "{lines:#?}");
}

#[test]
fn a_snapshot_of_another_manifest_version_is_refused_by_name() {
    let base = snapshot_of(&people());
    let other = String::from_utf8(base.clone()).unwrap().replace("\"manifestVersion\": 1", "\"manifestVersion\": 3");
    let err = compare(Some(other.as_bytes()), &base).unwrap_err();
    assert_eq!(err.to_string(), "snapshot manifestVersion 3 is not 1: regenerate and review the diff");
    assert_eq!(compare(None, &base), Err(Stale::Missing));
}

#[test]
fn every_diff_rule_is_documented() {
    let doc = std::fs::read_to_string(repo_root().join("docs/diff.md")).unwrap();
    let level = |l: Option<stitchgen::diff::rules::Level>| l.map_or("—", |l| l.as_str());
    for r in stitchgen::diff::rules::RULES {
        let row = format!("| `{}` | {} | {} | {} |", r.id, level(r.http), level(r.tools), r.summary);
        assert!(doc.contains(&row), "docs/diff.md lacks or misstates: {row}");
    }
}
