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
        "schema/stitch.schema.json is stale: run `cargo run -p stitchgen-cli -- schema > schema/stitch.schema.json`"
    );
}

/// A scratch folder under the target directory, fresh for each test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Generates `contract` into `dir`, then edits its snapshot as a careless merge would; returns
/// the snapshot's path and its generated text.
fn generate_and_tamper(contract: &str, dir: &Path) -> (std::path::PathBuf, String) {
    let generated = stitchgen(&["generate", contract, "--out", dir.to_str().unwrap()]);
    assert_eq!(generated.status.code(), Some(0), "{}", text(&generated.stderr));
    let snapshot = dir.join("surface.snapshot.json");
    let committed = std::fs::read_to_string(&snapshot).unwrap();
    std::fs::write(&snapshot, committed.replacen("List people", "List everyone", 1)).unwrap();
    (snapshot, committed)
}

#[test]
fn check_out_verifies_the_snapshot_generate_wrote_there_and_shows_what_moved() {
    let dir = scratch("check-out");
    let out_dir = dir.to_str().unwrap();
    let contract = "fixtures/valid/people.stitch.yaml";
    // A tampered snapshot in DIR fails `check --out DIR`, naming the row that moved.
    let (snapshot, committed) = generate_and_tamper(contract, &dir);
    let tampered = stitchgen(&["check", contract, "--out", out_dir]);
    let err = text(&tampered.stderr);
    assert_eq!(tampered.status.code(), Some(1), "{err}");
    assert!(err.contains("surface.snapshot.json` is stale"), "{err}");
    assert!(err.contains("description changed"), "{err}");
    // `--snapshot` names another file: DIR's is not read then.
    let elsewhere = dir.join("elsewhere.json");
    std::fs::write(&elsewhere, committed.as_bytes()).unwrap();
    let named = stitchgen(&["check", contract, "--out", out_dir, "--snapshot", elsewhere.to_str().unwrap()]);
    assert_eq!(named.status.code(), Some(0), "{}", text(&named.stderr));

    // Restored, the tree passes; then a stale generated file shows its diff.
    std::fs::write(&snapshot, committed).unwrap();
    let fresh = stitchgen(&["check", contract, "--out", out_dir]);
    assert_eq!(fresh.status.code(), Some(0), "{}", text(&fresh.stderr));
    let openapi = dir.join("openapi.json");
    let text_before = std::fs::read_to_string(&openapi).unwrap();
    std::fs::write(&openapi, text_before.replacen("\"title\"", "\"title \"", 1)).unwrap();
    let stale = stitchgen(&["check", contract, "--out", out_dir]);
    let err = text(&stale.stderr);
    assert_eq!(stale.status.code(), Some(1), "{err}");
    assert!(err.contains("openapi.json` is stale\n--- committed\n+++ generated\n@@"), "{err}");
    assert!(err.lines().any(|l| l.starts_with('-') && l.contains("\"title \":")), "{err}");
    assert!(err.lines().any(|l| l.starts_with('+') && l.contains("\"title\":")), "{err}");
}

#[test]
fn a_build_script_refuses_the_tampered_snapshot_check_refuses() {
    let dir = scratch("config-snapshot");
    let contract = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/valid/people.stitch.yaml");
    let (snapshot, _) = generate_and_tamper(contract.to_str().unwrap(), &dir);
    let built =
        stitchgen::Config::new().contract(&contract).snapshot(&snapshot).out_dir(dir.join("out")).generate_to_out_dir();
    assert!(matches!(built, Err(stitchgen::BuildError::StaleSnapshot(_))), "{built:?}");
    let checked = stitchgen(&["check", contract.to_str().unwrap(), "--snapshot", snapshot.to_str().unwrap()]);
    assert_eq!(checked.status.code(), Some(1), "{}", text(&checked.stderr));
}

#[test]
fn import_makes_the_folder_it_writes_into_and_a_failed_write_prints_no_summary() {
    let dir = scratch("import_out");
    let nested = dir.join("contracts/shop/shop.stitch.yaml");
    let out = stitchgen(&["import", "fixtures/import/valid/shop-3.0.json", "--out", nested.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(nested.is_file() && text(&out.stderr).contains("ok: wrote"), "{}", text(&out.stderr));
    // A file where the folder should be: the write fails, and nothing reads like success.
    let blocked = dir.join("file");
    std::fs::write(&blocked, "").unwrap();
    let target = blocked.join("shop.stitch.yaml");
    let out = stitchgen(&["import", "fixtures/import/valid/shop-3.0.json", "--out", target.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("cannot write") && !stderr.contains("ok:") && !stderr.contains("imported"), "{stderr}");
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

#[test]
fn a_gzip_compressed_description_is_read_and_bounded_after_decompression() {
    let dir = scratch("import_gzip");
    let plain =
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/import/valid/shop-3.0.json")).unwrap();
    let packed = dir.join("shop-3.0.json.gz");
    std::fs::write(&packed, gzip(&plain)).unwrap();
    let (from_plain, from_packed) = (dir.join("plain.stitch.yaml"), dir.join("packed.stitch.yaml"));
    let out = stitchgen(&["import", "fixtures/import/valid/shop-3.0.json", "--out", from_plain.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = stitchgen(&["import", packed.to_str().unwrap(), "--out", from_packed.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let read = |p: &Path| std::fs::read_to_string(p).unwrap();
    // The same contract, but for the file its header names.
    assert!(read(&from_packed).replace("shop-3.0.json.gz", "shop-3.0.json") == read(&from_plain));
    // 40 MiB of spaces packed into a few KiB: refused once 16 MiB are unpacked, named for what it is.
    let bomb = dir.join("bomb.json.gz");
    std::fs::write(&bomb, gzip(&vec![b' '; 40 << 20])).unwrap();
    let out = stitchgen(&["import", bomb.to_str().unwrap(), "--out", dir.join("bomb.stitch.yaml").to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("error[E0002]: OpenAPI document is larger than 16 MiB"), "{stderr}");
    // A stream that is not gzip past its first two bytes is an I/O error, named as such.
    let broken = dir.join("broken.json.gz");
    std::fs::write(&broken, [0x1f, 0x8b, 0, 1, 2, 3]).unwrap();
    let out = stitchgen(&["import", broken.to_str().unwrap(), "--out", dir.join("x.stitch.yaml").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("cannot read"), "{}", text(&out.stderr));
}
