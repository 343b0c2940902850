//! `stitchgen import` on hand-written OpenAPI fixtures and the public corpus: the written
//! contract and the warnings are snapshotted, every contract passes `check`, and broken input
//! gives its coded diagnostics.

use std::path::{Path, PathBuf};

use stitchgen::diag::{self, Code, ColorChoice};
use stitchgen::import::{ImportOptions, Imported, import};
use stitchgen_tests::repo_root;

/// The cases under `fixtures/import/<dir>`: a file, or a folder whose entry is its one
/// `openapi.yaml`/`openapi.json` (at any depth).
fn cases(dir: &str) -> Vec<(String, PathBuf)> {
    let root = repo_root().join("fixtures/import").join(dir);
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| {
            let file = p.file_name().unwrap().to_string_lossy().into_owned();
            let name = if p.is_dir() { file } else { file.rsplit_once('.').unwrap().0.to_owned() };
            let entry =
                if p.is_dir() { entry_of(&p).unwrap_or_else(|| panic!("{}: no openapi.*", p.display())) } else { p };
            (name, relative(&entry))
        })
        .collect();
    out.sort();
    out
}

fn entry_of(dir: &Path) -> Option<PathBuf> {
    let mut found = None;
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_dir() {
            found = found.or_else(|| entry_of(&p));
        } else if name == "openapi.yaml" || name == "openapi.json" {
            return Some(p);
        }
    }
    found
}

/// A path relative to the tests' working directory, as a user there would give it.
fn relative(p: &Path) -> PathBuf {
    Path::new("..").join(p.strip_prefix(repo_root()).unwrap())
}

fn rendered(imported: &Imported) -> String {
    diag::render_all_for(&imported.diagnostics, &imported.sources, ColorChoice::Never, "import")
}

/// What a user sees: the written contract (when there is one), the diagnostics, the summary.
fn report(imported: &Imported) -> String {
    match &imported.contract {
        Some(contract) => {
            format!("{contract}\n--- warnings ---\n{}\n--- summary ---\n{}", rendered(imported), imported.summary)
        }
        None => rendered(imported),
    }
}

/// Checks the written contract; panics with the rendered errors when it does not pass.
fn check_clean(name: &str, contract: &str) -> stitchgen::Checked {
    let checked = stitchgen::check_source(&format!("{name}.stitch.yaml"), contract);
    let text = diag::render_all(&checked.diagnostics, &checked.sources, ColorChoice::Never);
    assert!(!checked.has_errors(), "{name}: the imported contract does not pass check:\n{text}");
    checked
}

#[test]
fn valid_fixtures_import_and_check() {
    let all = cases("valid");
    assert!(all.len() >= 2);
    for (name, entry) in all {
        let imported = import(&entry, &ImportOptions::default()).unwrap();
        let contract = imported.contract.clone().unwrap_or_else(|| panic!("{name}:\n{}", rendered(&imported)));
        check_clean(&name, &contract);
        let again = import(&entry, &ImportOptions::default()).unwrap();
        assert_eq!(again.contract.as_deref(), Some(contract.as_str()), "{name}: not deterministic");
        let report =
            format!("{contract}\n--- warnings ---\n{}\n--- summary ---\n{}", rendered(&imported), imported.summary);
        insta::with_settings!({ snapshot_path => "snapshots/import", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(name.clone(), report);
        });
    }
}

#[test]
fn valid_fixtures_import_with_expose_and_check() {
    let expose = ImportOptions { expose: true, ..ImportOptions::default() };
    for (name, entry) in cases("valid") {
        let imported = import(&entry, &expose).unwrap();
        let contract = imported.contract.clone().unwrap_or_else(|| panic!("{name}:\n{}", rendered(&imported)));
        let checked = check_clean(&name, &contract);
        let tools = checked.contracts[0]
            .endpoints
            .iter()
            .flat_map(|e| e.value.iter())
            .filter(|(_, e)| e.expose.is_some())
            .count();
        assert_eq!(
            tools + imported.summary.http_only.len(),
            imported.summary.imported,
            "{name}: every endpoint is a tool or says why not"
        );
        if name == "shop-3.0" {
            insta::with_settings!({ snapshot_path => "snapshots/import", prepend_module_to_snapshot => false, omit_expression => true }, {
                insta::assert_snapshot!(format!("{name}.expose"), report(&imported));
            });
        }
    }
}

#[test]
fn diagnostics_fixtures_give_their_code() {
    for (name, entry) in cases("diagnostics") {
        let code =
            Code::from_id(name.split('_').next().unwrap()).unwrap_or_else(|| panic!("{name}: not named after a code"));
        let imported = import(&entry, &ImportOptions::default()).unwrap();
        let text = rendered(&imported);
        assert!(imported.diagnostics.iter().any(|d| d.code == code), "{name}: expected {}, got:\n{text}", code.id());
        if code.severity() == diag::Severity::Error {
            assert!(imported.contract.is_none(), "{name}: wrote a contract despite errors");
        } else {
            check_clean(&name, imported.contract.as_deref().unwrap());
        }
        insta::with_settings!({ snapshot_path => "snapshots/import", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(name.clone(), report(&imported));
        });
    }
}

/// `--lenient` reads every reference that points nowhere as any value, with a warning at it, and
/// the contract checks.
#[test]
fn lenient_reads_references_that_point_nowhere_as_any_value() {
    let lenient = ImportOptions { lenient: true, ..ImportOptions::default() };
    let nowhere: Vec<_> = cases("diagnostics").into_iter().filter(|(name, _)| name.starts_with("E0902")).collect();
    assert!(nowhere.len() >= 2);
    for (name, entry) in nowhere {
        let imported = import(&entry, &lenient).unwrap();
        let contract = imported.contract.clone().unwrap_or_else(|| panic!("{name}:\n{}", rendered(&imported)));
        check_clean(&name, &contract);
        assert!(imported.diagnostics.iter().all(|d| d.code.severity() != diag::Severity::Error));
        insta::with_settings!({ snapshot_path => "snapshots/import", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(format!("{name}.lenient"), report(&imported));
        });
    }
}

#[test]
fn a_missing_entry_is_an_io_error() {
    assert!(import(Path::new("no-such-openapi.yaml"), &ImportOptions::default()).is_err());
}
