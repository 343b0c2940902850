//! Every fixture through `check`: valid ones pass clean, invalid ones give their code, and the
//! rendered diagnostics are snapshotted byte for byte.

use std::path::{Path, PathBuf};

use stitchgen::Profile;
use stitchgen::diag::{self, Code, ColorChoice, Severity};
use stitchgen::profile::Profiles;
use stitchgen_tests::{fixtures, repo_root};

/// The contracts of one invalid case: a file, or every contract in a directory.
fn case_files(case: &Path) -> Vec<PathBuf> {
    if case.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(case).unwrap().map(|e| e.unwrap().path()).collect();
        files.sort();
        files
    } else {
        vec![case.to_path_buf()]
    }
}

/// Every invalid case, sorted: `fixtures/invalid/<CODE>_<what>.stitch.yaml` or `<CODE>_<what>/`.
fn invalid_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(repo_root().join("fixtures/invalid"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() || p.to_string_lossy().ends_with(".stitch.yaml"))
        .collect();
    cases.sort();
    cases
}

fn case_name(case: &Path) -> String {
    let name = case.file_name().unwrap().to_string_lossy();
    name.trim_end_matches(".stitch.yaml").to_owned()
}

/// Paths relative to the repository root, as a user running from there would see them.
fn relative(files: &[PathBuf]) -> Vec<PathBuf> {
    let root = repo_root();
    files.iter().map(|f| Path::new("..").join(f.strip_prefix(&root).unwrap())).collect()
}

/// The warnings a valid fixture declares on its first line (`# expect: W0004`): what real
/// documents publish and stitchgen accepts, warning about it.
fn expected_warnings(f: &Path) -> Vec<Code> {
    let text = std::fs::read_to_string(f).unwrap();
    let first = text.lines().next().unwrap_or_default();
    let listed = first.strip_prefix("# expect:").unwrap_or_default();
    listed.split([',', ' ']).filter(|s| !s.is_empty()).map(|id| Code::from_id(id).unwrap()).collect()
}

/// The client profiles an invalid fixture is checked with, named on its first line
/// (`# profile: gemini`): a rule of a profile is broken only where the profile is asked for.
fn profiles_of(case: &Path) -> Profiles {
    let text = std::fs::read_to_string(case).unwrap_or_default();
    let first = text.lines().next().unwrap_or_default();
    let listed = first.strip_prefix("# profile:").unwrap_or_default();
    listed
        .split([',', ' '])
        .filter(|s| !s.is_empty())
        .map(|p| Profile::parse(p).unwrap())
        .fold(Profiles::default(), Profiles::with)
}

#[test]
fn valid_fixtures_check_clean_alone_and_together() {
    let all = fixtures("valid");
    assert!(all.len() >= 3);
    // Every client profile's rules too: no valid fixture has a tool a profile refuses.
    let every = Profile::ALL.into_iter().fold(Profiles::default(), Profiles::with);
    let options = stitchgen::Options { profiles: every, ..Default::default() };
    for f in &all {
        let checked =
            stitchgen::check_surfaces(stitchgen::check_files_with(std::slice::from_ref(f), &options).unwrap());
        let text = diag::render_all(&checked.diagnostics, &checked.sources, ColorChoice::Never);
        let mut got: Vec<Code> = checked.diagnostics.iter().map(|d| d.code).collect();
        got.sort();
        got.dedup();
        assert_eq!(got, expected_warnings(f), "{}:\n{text}", f.display());
    }
    let together = stitchgen::check_files(&all).unwrap();
    assert!(
        !together.has_errors(),
        "{}",
        diag::render_all(&together.diagnostics, &together.sources, ColorChoice::Never)
    );
}

#[test]
fn invalid_fixtures_give_their_code() {
    let mut failures = Vec::new();
    for case in invalid_cases() {
        let name = case_name(&case);
        let code = name.split('_').next().unwrap();
        let code = Code::from_id(code).unwrap_or_else(|| panic!("{name}: not named after a catalog code"));
        let options = stitchgen::Options { profiles: profiles_of(&case), ..Default::default() };
        let checked =
            stitchgen::check_surfaces(stitchgen::check_files_with(&relative(&case_files(&case)), &options).unwrap());
        let rendered = diag::render_all(&checked.diagnostics, &checked.sources, ColorChoice::Never);
        if !checked.diagnostics.iter().any(|d| d.code == code) {
            failures.push(format!("{name}: expected {}, got:\n{rendered}", code.id()));
        }
        if code.severity() == Severity::Error {
            assert!(checked.has_errors(), "{name}");
        }
        insta::with_settings!({ snapshot_path => "snapshots/diagnostics", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(name.clone(), rendered);
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Codes whose input cannot be a committed file, each with the test that makes its input.
const GENERATED: &[(Code, &str)] = &[
    (Code::FileTooLarge, "limits::oversized_file_is_refused_without_reading_it_all"),
    // No contract that passes `check` is known to make typify fail: the model is altered instead.
    (Code::UntranslatableSchema, "stitchgen emit::rust::types::tests::the_schema_typify_fails_on_is_named"),
    // More than a hundred tools in one fixture would be noise: the test writes them.
    (Code::ProfileToolCap, "tool_lists::a_profile_past_its_tool_cap_is_a_warning_and_its_list_is_written_whole"),
];

#[test]
fn every_catalog_code_has_a_fixture() {
    let mut names: Vec<String> = invalid_cases().iter().map(|c| case_name(c)).collect();
    // The importer's codes have their fixtures beside its other inputs, `diff --accept`'s too.
    for dir in ["fixtures/import/diagnostics", "fixtures/accept"] {
        for e in std::fs::read_dir(repo_root().join(dir)).unwrap() {
            names.push(e.unwrap().file_name().to_string_lossy().into_owned());
        }
    }
    let missing: Vec<&str> = Code::ALL
        .iter()
        .filter(|c| !GENERATED.iter().any(|(g, _)| g == *c))
        .filter(|c| !names.iter().any(|n| n.split('_').next() == Some(c.id())))
        .map(|c| c.id())
        .collect();
    assert!(
        missing.is_empty(),
        "codes without a fixture in fixtures/invalid, fixtures/import/diagnostics or fixtures/accept: {missing:?}"
    );
}

#[test]
fn valid_fixtures_validate_against_the_dsl_schema() {
    let schema: serde_json::Value = serde_json::from_str(&stitchgen::dsl::schema_json()).unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for f in fixtures("valid") {
        let mut sources = stitchgen::source::SourceMap::new();
        let mut diags = stitchgen::diag::Diagnostics::default();
        let file = stitchgen::parse::read(&f, &mut sources, &mut diags).unwrap().unwrap();
        let doc = stitchgen::parse::yaml(&sources, file, &mut diags).unwrap().to_json();
        let errors: Vec<String> =
            validator.iter_errors(&doc).map(|e| format!("{} at {}", e, e.instance_path())).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", f.display());
    }
}

#[test]
fn the_dsl_schema_refuses_an_unknown_key() {
    let schema: serde_json::Value = serde_json::from_str(&stitchgen::dsl::schema_json()).unwrap();
    let doc = serde_json::json!({"stitch": 1, "service": "x", "endpoints": {"a": {"method": "GET", "path": "/", "desc": "d", "outptu": {}}}});
    assert!(!jsonschema::is_valid(&schema, &doc));
}

#[test]
fn every_code_is_documented() {
    let doc = std::fs::read_to_string(repo_root().join("docs/diagnostics.md")).unwrap();
    for code in Code::ALL {
        let row = format!(
            "| {} | {} | {} |",
            code.id(),
            if code.severity() == Severity::Error { "error" } else { "warning" },
            code.summary()
        );
        assert!(doc.contains(&row), "docs/diagnostics.md lacks or misstates: {row}");
    }
}
