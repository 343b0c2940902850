//! Determinism: the same contracts give the same bytes, run after run, and a contract whose
//! maps are written in another order gives the same OpenAPI document, manifests and snapshot.

use std::path::{Path, PathBuf};

use serde_json::Value;
use stitchgen::{Options, generate};
use stitchgen_tests::fixtures;

/// Every artifact and the snapshot, by name.
fn outputs(paths: &[PathBuf]) -> Vec<(String, Vec<u8>)> {
    let generated = generate(paths, &Options::default()).expect("the fixtures read");
    assert!(!generated.checked.has_errors(), "{paths:?}: {:?}", generated.checked.diagnostics);
    let mut out: Vec<(String, Vec<u8>)> = generated.artifacts.into_iter().map(|a| (a.name, a.bytes)).collect();
    out.push(("surface.snapshot.json".into(), generated.snapshot));
    out
}

#[test]
fn a_hundred_runs_are_byte_identical() {
    let valid = fixtures("valid");
    let first = outputs(&valid);
    for run in 1..100 {
        assert!(outputs(&valid) == first, "run {run} differs from the first");
    }
}

/// Every mapping in reverse order, except the `properties` of a schema, whose order is content:
/// the order in which people and models read the fields.
fn reversed(v: Value, parent: Option<&str>) -> Value {
    match v {
        Value::Object(map) => {
            let keep = parent == Some("properties");
            let mut entries: Vec<(String, Value)> = map.into_iter().collect();
            if !keep {
                entries.reverse();
            }
            Value::Object(entries.into_iter().map(|(k, v)| (k.clone(), reversed(v, Some(&k)))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(|i| reversed(i, parent)).collect()),
        other => other,
    }
}

/// `contract` written into `dir` under its own file name (JSON is YAML), maps reordered or not.
fn write_copy(contract: &Path, dir: &Path, reorder: bool) -> PathBuf {
    let text = std::fs::read_to_string(contract).unwrap();
    let value: Value = serde_saphyr::from_str(&text).unwrap();
    let value = if reorder { reversed(value, None) } else { value };
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(contract.file_name().unwrap());
    std::fs::write(&path, serde_json::to_string_pretty(&value).unwrap()).unwrap();
    path
}

#[test]
fn reordered_maps_give_identical_documents_and_snapshot() {
    let scratch = std::env::temp_dir().join(format!("stitchgen-reorder-{}", std::process::id()));
    for contract in fixtures("valid") {
        // Absolute paths in two folders: both contracts are named by their file name alone.
        let as_written = write_copy(&contract, &scratch.join("as-written"), false);
        let reordered = write_copy(&contract, &scratch.join("reordered"), true);
        assert_ne!(std::fs::read(&as_written).unwrap(), std::fs::read(&reordered).unwrap());
        let (a, b) = (outputs(&[as_written]), outputs(&[reordered]));
        for ((name, x), (_, y)) in a.iter().zip(&b).filter(|((name, _), _)| !name.ends_with(".rs")) {
            assert!(x == y, "{}: {name} moved when the contract's maps were reordered", contract.display());
        }
    }
    std::fs::remove_dir_all(&scratch).ok();
}
