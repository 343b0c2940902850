//! The example as a user runs it: cards on the tool surfaces (CLI and MCP over stdio), full
//! records over HTTP.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn directory(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_directory")).args(args).output().unwrap();
    (out.status.code(), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

fn no_personal_field(text: &str) -> bool {
    !text.contains("@example.com") && !text.contains("Main St") && !text.contains("+1 555")
}

#[test]
fn the_cli_surface_answers_cards_without_personal_fields() {
    let (code, out, _) = directory(&["call", "list_people", "--team", "core"]);
    assert_eq!(code, Some(0));
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["total"], 75);
    assert_eq!(v["people"].as_array().unwrap().len(), 20, "the view's default limit");
    assert!(no_personal_field(&out));
    let (code, out, _) = directory(&["call", "get_person", "--id", "p0001", "--json"]);
    assert_eq!((code, out.trim()), (Some(0), r#"{"id":"p0001","name":"Ada Lovelace","team":"core"}"#));
}

#[test]
fn a_list_answer_is_wrapped_on_the_cli() {
    let (code, out, _) = directory(&["call", "list_teams", "--json"]);
    assert_eq!((code, out.trim()), (Some(0), r#"{"items":["core","kernel","tools","web"]}"#));
}

#[test]
fn an_unknown_id_exits_4_with_the_envelope_on_stderr() {
    let (code, out, err) = directory(&["call", "get_person", "--id", "nobody"]);
    assert_eq!(code, Some(4));
    assert!(out.is_empty());
    let v: Value = serde_json::from_str(err.trim()).unwrap();
    assert_eq!(v["error"], "NOT_FOUND");
}

#[test]
fn usage_errors_are_validation_errors() {
    let (code, _, err) = directory(&["call", "list_people", "--no-such-flag"]);
    assert_eq!(code, Some(1));
    assert!(err.lines().last().unwrap().contains(r#""error":"VALIDATION_ERROR""#), "{err}");
    let (code, _, err) = directory(&["call", "list_people", "--limit", "0"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("Invalid input: /limit"), "{err}");
}

#[test]
fn mcp_over_stdio_lists_and_calls() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_directory"))
        .arg("mcp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut rpc = |message: Value| -> Value {
        writeln!(stdin, "{message}").unwrap();
        if message.get("id").is_none() {
            return Value::Null;
        }
        serde_json::from_str(&lines.next().unwrap().unwrap()).unwrap()
    };
    let init =
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}});
    rpc(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init}));
    rpc(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    let listed = rpc(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let manifest: Value = serde_json::from_str(include_str!(concat!(env!("OUT_DIR"), "/mcp-tools.json"))).unwrap();
    assert_eq!(listed["result"]["tools"], manifest["tools"]);
    let call = |id: u32, name: &str, arguments: Value| json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}});
    let card = rpc(call(3, "get_person", json!({"id": "p0002"})));
    assert_eq!(card["result"]["structuredContent"], json!({"id": "p0002", "name": "Grace Lovelace", "team": "kernel"}));
    assert_eq!(card["result"]["_meta"]["stitchgen/catalog"], manifest["tools"][0]["_meta"]["stitchgen/catalog"]);
    let teams = rpc(call(6, "list_teams", json!({})));
    assert_eq!(teams["result"]["structuredContent"], json!({"items": ["core", "kernel", "tools", "web"]}));
    let missing = rpc(call(4, "get_person", json!({"id": "nobody"})));
    assert_eq!(missing["result"]["isError"], true);
    let unknown = rpc(call(5, "no_such_tool", json!({})));
    assert_eq!(unknown["error"]["code"], -32602);
    drop(stdin);
    assert!(child.wait().unwrap().success(), "the server ends cleanly when stdin closes");
}

#[test]
fn http_answers_the_full_record() {
    let mut server = Command::new(env!("CARGO_BIN_EXE_directory"))
        .args(["http", "--addr", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut banner = String::new();
    BufReader::new(server.stderr.take().unwrap()).read_line(&mut banner).unwrap();
    let addr = banner.trim().rsplit("http://").next().unwrap().to_owned();
    let get = |path: &str| {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        (head.lines().next().unwrap().to_owned(), body.to_owned())
    };
    let (status, body) = get("/people/p0001");
    // HTTP answers are never wrapped: the list is the body.
    let (_, teams) = get("/people/teams");
    // The second contract on the same port, and the one fallback for what neither serves.
    let (rooms_status, rooms) = get("/rooms");
    let (missing, envelope) = get("/nowhere");
    server.kill().ok();
    server.wait().ok();
    assert_eq!(status, "HTTP/1.1 200 OK");
    let v: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(v["email"], "ada.lovelace1@example.com");
    assert_eq!(v["address"]["city"], "Lisbon");
    assert_eq!(serde_json::from_str::<Value>(&teams).unwrap(), json!(["core", "kernel", "tools", "web"]));
    assert_eq!(rooms_status, "HTTP/1.1 200 OK");
    assert_eq!(serde_json::from_str::<Value>(&rooms).unwrap()["rooms"].as_array().map(Vec::len), Some(4));
    assert_eq!(missing, "HTTP/1.1 404 Not Found");
    assert_eq!(serde_json::from_str::<Value>(&envelope).unwrap()["error"]["code"], "NOT_FOUND");
}

#[test]
fn both_contracts_answer_on_the_cli() {
    let (code, out, _) = directory(&["call", "list_rooms", "--seats", "10", "--json"]);
    assert_eq!(code, Some(0));
    let rooms: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        rooms["rooms"].as_array().unwrap().iter().map(|r| &r["name"]).collect::<Vec<_>>(),
        ["Noether", "Turing"]
    );
    let (code, out, _) = directory(&["call", "list_teams", "--json"]);
    assert_eq!((code, out.trim()), (Some(0), r#"{"items":["core","kernel","tools","web"]}"#));
}
