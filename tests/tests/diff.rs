//! `stitchgen diff` over every case in `fixtures/diff/`: each is classified as its name says
//! (`RULE`, or `RULE--SHAPE` where a rule has a case per shape), and its text and Markdown
//! reports are snapshotted.

use stitchgen::diff::report;
use stitchgen::diff::rules::{Consumer, RULES};
use stitchgen::{Options, diff};
use stitchgen_tests::repo_root;

fn side(case: &std::path::Path, which: &str) -> Vec<(String, Vec<u8>)> {
    let path = case.join(format!("{which}.stitch.yaml"));
    vec![(format!("{which}.stitch.yaml"), std::fs::read(path).unwrap())]
}

/// The options a case is diffed with: the client profiles its old side names on its first line
/// (`# profile: cursor`), as `--profile` would.
fn options(case: &std::path::Path) -> Options {
    let text = std::fs::read_to_string(case.join("old.stitch.yaml")).unwrap();
    let named = text.lines().next().and_then(|l| l.strip_prefix("# profile:")).unwrap_or_default();
    let profiles = named.split(',').filter_map(|p| stitchgen::Profile::parse(p.trim()));
    Options { profiles: profiles.fold(Default::default(), stitchgen::profile::Profiles::with), ..Options::default() }
}

fn cases() -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = std::fs::read_dir(repo_root().join("fixtures/diff"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    out.sort();
    out
}

#[test]
fn every_case_is_classified_as_its_name_says() {
    let mut failures = Vec::new();
    for case in cases() {
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        let d = diff(&side(&case, "old"), &side(&case, "new"), &options(&case));
        assert!(!d.old.has_errors() && !d.new.has_errors(), "{name}: a side does not check clean");
        if name == "reorder-only" {
            if !d.changes.is_empty() {
                failures.push(format!("{name}: expected no change, got {:?}", d.changes));
            }
        } else {
            // `RULE` or `RULE--SHAPE`: a rule may have a case per shape it is found in.
            let id = name.split_once("--").map_or(name.as_str(), |(id, _)| id);
            let rule = RULES.iter().find(|r| r.id == id).unwrap_or_else(|| panic!("{name}: not a rule id"));
            let hits: Vec<_> = d.changes.iter().filter(|c| c.rule == rule.id).collect();
            if hits.is_empty() {
                failures.push(format!("{name}: no `{id}` change in:\n{}", report::text(&d.changes)));
            }
            for c in hits {
                let expected = match c.consumer {
                    Consumer::Http => rule.http,
                    Consumer::Tools => rule.tools,
                };
                assert_eq!(Some(c.level), expected, "{name}: {c:?}");
            }
        }
        insta::with_settings!({ snapshot_path => "snapshots/diff", prepend_module_to_snapshot => false, omit_expression => true }, {
            insta::assert_snapshot!(format!("{name}.text"), report::text(&d.changes));
            insta::assert_snapshot!(format!("{name}.markdown"), report::markdown(&d.changes));
        });
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_rule_has_a_case() {
    let names: Vec<String> = cases().iter().map(|c| c.file_name().unwrap().to_string_lossy().into_owned()).collect();
    let missing: Vec<&str> = RULES.iter().map(|r| r.id).filter(|id| !names.iter().any(|n| n == id)).collect();
    assert!(missing.is_empty(), "rules without a case in fixtures/diff: {missing:?}");
    assert!(names.iter().any(|n| n == "reorder-only"));
}

#[test]
fn json_report_counts_levels() {
    let case = repo_root().join("fixtures/diff/route-changed");
    let d = diff(&side(&case, "old"), &side(&case, "new"), &Options::default());
    let mut doc = stitchgen::findings::Report::new(stitchgen::findings::Command::Diff);
    doc.changes(&d.changes);
    let v: serde_json::Value = serde_json::from_str(&doc.to_json()).unwrap();
    assert!(v["summary"]["changes"]["breaking"].as_u64().unwrap() >= 1);
    assert_eq!(v["changes"][0]["rule"], "route-changed");
}
