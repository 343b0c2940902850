//! The example as a user runs it: cards on the tool surface, full records over HTTP.

use std::process::Command;

fn directory(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_directory")).args(args).output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn the_tool_surface_answers_cards_without_personal_fields() {
    let (code, out, _) = directory(&["call", "list_people", r#"{"team":"core"}"#]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["total"], 75);
    assert_eq!(v["people"].as_array().unwrap().len(), 20, "the view's default limit");
    assert!(!out.contains("@example.com") && !out.contains("Main St") && !out.contains("+1 555"));
}

#[test]
fn http_answers_the_full_record() {
    let (code, out, _) = directory(&["http", "get", r#"{"id":"p0001"}"#]);
    assert_eq!(code, Some(0));
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["email"], "ada.lovelace1@example.com");
    assert_eq!(v["address"]["city"], "Lisbon");
}

#[test]
fn an_unknown_id_exits_4_with_the_envelope_on_stderr() {
    let (code, out, err) = directory(&["call", "get_person", r#"{"id":"nobody"}"#]);
    assert_eq!(code, Some(4));
    assert!(out.is_empty());
    let v: serde_json::Value = serde_json::from_str(err.trim()).unwrap();
    assert_eq!(v["error"], "NOT_FOUND");
}
