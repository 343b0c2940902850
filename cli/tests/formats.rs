//! `--format github|json` as CI reads it, and `diff --accept`: the exact bytes each command
//! prints on stdout, its exit code, and every JSON document valid against the committed schema.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

fn stitchgen(args: &[&str]) -> Output {
    // From the repository root, so that paths in findings are short and the same everywhere.
    Command::new(env!("CARGO_BIN_EXE_stitchgen"))
        .args(args)
        .current_dir(root())
        .env_remove("NO_COLOR")
        .output()
        .unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The committed schema of the JSON findings document.
fn schema() -> serde_json::Value {
    let text = std::fs::read_to_string(root().join("schema/findings.schema.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// `text` parsed and valid against the committed schema.
fn valid_json(text: &str) -> serde_json::Value {
    let doc: serde_json::Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    let schema = schema();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator.iter_errors(&doc).map(|e| format!("{e} at {}", e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}\n{text}");
    doc
}

const CONTRACT: &str = "fixtures/formats/errors_and_warnings.stitch.yaml";
const OLD: &str = "fixtures/diff/output-field-removed/old.stitch.yaml";
const NEW: &str = "fixtures/diff/output-field-removed/new.stitch.yaml";
const ACCEPTED: &str = "fixtures/formats/accepted.yaml";

#[test]
fn the_committed_schema_is_the_one_the_types_give() {
    let committed = std::fs::read_to_string(root().join("schema/findings.schema.json")).unwrap();
    assert_eq!(
        committed,
        stitchgen::findings::schema_json(),
        "run `stitchgen schema --findings > schema/findings.schema.json`"
    );
    let printed = stitchgen(&["schema", "--findings"]);
    assert_eq!(stdout(&printed), committed);
}

#[test]
fn check_github_annotates_each_line_at_fault() {
    let out = stitchgen(&["check", CONTRACT, "--format", "github"]);
    assert_eq!(out.status.code(), Some(1));
    insta::assert_snapshot!("check.github", stdout(&out));
}

#[test]
fn check_json_is_one_document_with_errors_and_warnings() {
    let out = stitchgen(&["check", CONTRACT, "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc = valid_json(&stdout(&out));
    assert_eq!((doc["ok"].as_bool(), doc["summary"]["errors"].as_u64()), (Some(false), Some(1)));
    insta::assert_snapshot!("check.json", stdout(&out));
}

#[test]
fn check_json_of_a_valid_contract_says_ok() {
    let out = stitchgen(&["check", "fixtures/valid/minimal.stitch.yaml", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let doc = valid_json(&stdout(&out));
    assert_eq!(doc["ok"], true);
    assert_eq!(doc["diagnostics"], serde_json::json!([]));
}

#[test]
fn a_command_that_cannot_run_still_writes_its_document() {
    let out = stitchgen(&["check", "fixtures/formats/no-such-file.stitch.yaml", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    let doc = valid_json(&stdout(&out));
    assert!(doc["failure"].as_str().unwrap().contains("no-such-file"), "{doc}");
    let out = stitchgen(&["check", "fixtures/formats/no-such-file.stitch.yaml", "--format", "github"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stdout(&out).starts_with("::error title=stitchgen::cannot read"), "{}", stdout(&out));
}

#[test]
fn check_of_stale_files_names_each_file() {
    let dir = tempdir("stale");
    let out =
        stitchgen(&["check", "fixtures/valid/minimal.stitch.yaml", "--out", dir.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    let doc = valid_json(&stdout(&out));
    assert!(doc["stale"].as_array().is_some_and(|s| !s.is_empty()), "{doc}");
    let out = stitchgen(&[
        "check",
        "fixtures/valid/minimal.stitch.yaml",
        "--out",
        dir.to_str().unwrap(),
        "--format",
        "github",
    ]);
    assert!(stdout(&out).lines().all(|l| l.starts_with("::error file=")), "{}", stdout(&out));
}

#[test]
fn import_reports_its_lowerings() {
    let dir = tempdir("import");
    let contract = dir.join("lowerings.stitch.yaml");
    let args = ["import", "fixtures/import/diagnostics/W0900_lowerings.yaml", "--out", contract.to_str().unwrap()];
    let github = stitchgen(&[&args[..], &["--format", "github"]].concat());
    assert_eq!(github.status.code(), Some(0));
    insta::assert_snapshot!("import.github", stdout(&github));
    let json = stitchgen(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(json.status.code(), Some(0));
    let doc = valid_json(&stdout(&json));
    assert!(doc["summary"]["warnings"].as_u64().unwrap() > 1, "{doc}");
    insta::assert_snapshot!("import.json", stdout(&json));
}

#[test]
fn generate_json_reports_warnings_and_writes() {
    let dir = tempdir("generate");
    let out = stitchgen(&[
        "generate",
        "fixtures/valid/example_breaks_schema.stitch.yaml",
        "--out",
        dir.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let doc = valid_json(&stdout(&out));
    assert_eq!((doc["ok"].as_bool(), doc["summary"]["warnings"].as_u64()), (Some(true), Some(2)), "{doc}");
    assert!(dir.join("surface.snapshot.json").is_file());
}

#[test]
fn diff_reports_accepted_changes_and_stale_acceptances() {
    let args = ["diff", OLD, NEW, "--accept", ACCEPTED, "--fail-on", "breaking"];
    // The expired entry's change counts again: the run still fails.
    for format in ["text", "github", "json"] {
        let out = stitchgen(&[&args[..], &["--format", format]].concat());
        assert_eq!(out.status.code(), Some(1), "{format}");
        if format == "json" {
            let doc = valid_json(&stdout(&out));
            assert_eq!(doc["summary"]["changes"]["accepted"], 1);
            let codes: Vec<&str> =
                doc["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
            assert_eq!(codes, ["W1001", "W1000"]);
        }
        insta::assert_snapshot!(format!("diff.accept.{format}"), stdout(&out));
    }
}

#[test]
fn accepting_every_breaking_change_lets_the_gate_pass() {
    let dir = tempdir("accept-all");
    let file = dir.join("accepted.yaml");
    std::fs::write(
        &file,
        "- {rule: output-field-removed, operation: orders.get, reason: announced}\n\
         - {rule: output-field-removed, tool: get_order, reason: models never read it}\n",
    )
    .unwrap();
    let out = stitchgen(&["diff", OLD, NEW, "--accept", file.to_str().unwrap(), "--fail-on", "breaking"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    // Reported, never hidden.
    assert_eq!(stdout(&out).matches("[accepted: ").count(), 2, "{}", stdout(&out));
}

#[test]
fn each_acceptance_code_has_its_rendered_fixture() {
    for entry in std::fs::read_dir(root().join("fixtures/accept")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let relative = format!("fixtures/accept/{}", path.file_name().unwrap().to_string_lossy());
        let out = stitchgen(&["diff", OLD, NEW, "--accept", &relative]);
        let code = name.split('_').next().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.contains(&format!("[{code}]")), "{name}: {stderr}");
        assert_eq!(out.status.code(), Some(if code.starts_with('E') { 1 } else { 0 }), "{name}: {stderr}");
        insta::assert_snapshot!(format!("accept.{name}"), stderr);
    }
}

fn tempdir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("stitchgen-formats-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
