//! The exact bytes that ship — OpenAPI, MCP and agent manifests — for every valid fixture, and
//! the promises they keep: HTTP gets the full record, tools get the card.

mod read_fields;

use serde_json::Value;
use stitchgen::{Options, generate};
use stitchgen_tests::{fixtures, repo_root};

fn artifacts(files: &[std::path::PathBuf]) -> Vec<(String, String)> {
    let g = generate(files, &Options::default()).unwrap();
    assert!(!g.checked.has_errors(), "{:?}", g.checked.diagnostics);
    g.artifacts.into_iter().map(|a| (a.name, String::from_utf8(a.bytes).unwrap())).collect()
}

fn text<'a>(artifacts: &'a [(String, String)], name: &str) -> &'a str {
    &artifacts.iter().find(|(n, _)| n == name).unwrap().1
}

fn json(artifacts: &[(String, String)], name: &str) -> Value {
    serde_json::from_str(&artifacts.iter().find(|(n, _)| n == name).unwrap().1).unwrap()
}

#[test]
fn artifact_bytes_of_every_valid_fixture() {
    for f in fixtures("valid") {
        let stem = f.file_name().unwrap().to_string_lossy().trim_end_matches(".stitch.yaml").to_owned();
        for (name, text) in artifacts(std::slice::from_ref(&f)) {
            insta::with_settings!({ snapshot_path => "snapshots/artifacts", prepend_module_to_snapshot => false, omit_expression => true }, {
                insta::assert_snapshot!(format!("{stem}__{name}"), text);
            });
        }
    }
}

/// Every GET, HEAD and DELETE of every valid fixture: the runtime reads from the query exactly
/// the fields `openapi.json` lists, as the types it lists them with.
#[test]
fn every_query_field_read_is_the_one_listed() {
    let mut agreed = 0;
    for f in fixtures("valid") {
        let a = artifacts(std::slice::from_ref(&f));
        let openapi = json(&a, "openapi.json");
        for (name, rust) in a.iter().filter(|(n, _)| n.ends_with(".rs")) {
            let n = read_fields::query_fields_match(rust, &openapi).unwrap_or_else(|e| panic!("{name}: {e}"));
            agreed += n;
        }
    }
    // Counted, so a change that stops reading fields (or stops listing them) is seen.
    assert_eq!(agreed, 26, "query fields agreed across the valid fixtures");
}

#[test]
fn artifacts_are_deterministic_and_end_with_a_newline() {
    let all = fixtures("valid");
    let first = artifacts(&all);
    for _ in 0..5 {
        assert_eq!(artifacts(&all), first);
    }
    for (name, text) in &first {
        assert!(text.ends_with("}\n") && !text.contains('\r'), "{name}");
    }
    assert!(first.iter().any(|(n, _)| n == "tickets.rs"), "one Rust module per service");
    let root = repo_root().to_string_lossy().into_owned();
    for (name, text) in &first {
        assert!(!text.contains(&root), "{name} carries an absolute path");
    }
}

#[test]
fn http_gets_the_full_record_and_tools_the_card() {
    let a = artifacts(&[repo_root().join("fixtures/valid/helpdesk.stitch.yaml")]);
    let openapi = json(&a, "openapi.json");
    let mcp = json(&a, "mcp-tools.json");
    let tool = |name: &str| {
        mcp["tools"].as_array().unwrap().iter().find(|t| t["name"] == name).cloned().unwrap_or(Value::Null)
    };

    // The HTTP list answer is the full record; the MCP outputSchema of the same endpoint is its card.
    let list = &openapi["paths"]["/api/tickets"]["get"];
    let http_items =
        &list["responses"]["200"]["content"]["application/json"]["schema"]["properties"]["tickets"]["items"];
    assert_eq!(http_items["$ref"], "#/components/schemas/Ticket");
    assert!(openapi["components"]["schemas"]["Ticket"]["properties"]["customer"].is_object());
    let card = &tool("list_tickets")["outputSchema"]["properties"]["tickets"]["items"];
    assert!(card["properties"]["subject"].is_object());
    assert!(card["properties"].get("customer").is_none(), "the card carries no personal record");

    // View defaults are stated as `default` and not required.
    let input = &tool("list_tickets")["inputSchema"];
    assert_eq!(input["properties"]["limit"]["default"], 20);
    assert_eq!(input["properties"]["include"]["default"], serde_json::json!([]));
    assert!(!input["required"].as_array().into_iter().flatten().any(|r| r == "limit" || r == "include"));
    let comment = &tool("comment_on_ticket")["inputSchema"];
    assert_eq!(comment["properties"]["public"]["default"], false);

    // HTTP-only endpoints are in OpenAPI and in no manifest; runtime tools the other way round.
    for (path, method) in [
        ("/api/tickets/export", "get"),
        ("/api/tickets/{id}", "head"),
        ("/api/tickets/webhooks/mail", "post"),
        ("/api/tickets/{id}/attachments", "post"),
        ("/api/tickets/import", "post"),
        ("/api/tickets/events", "get"),
        ("/api/tickets/files/{rest}", "get"),
    ] {
        let op = &openapi["paths"][path][method];
        assert!(op.is_object(), "{method} {path} missing from OpenAPI");
        let id = op["operationId"].as_str().unwrap();
        let action = id.trim_start_matches("tickets_");
        for manifest in ["mcp-tools.json", "agent-tools.json"] {
            let text = &a.iter().find(|(n, _)| n == manifest).unwrap().1;
            assert!(
                !text.contains(&format!("\"{action}_ticket\"")) && !text.contains(&format!("\"{action}_tickets\"")),
                "{action} in {manifest}"
            );
        }
    }
    assert!(tool("summarize_queue").is_object());
    assert!(!text(&a, "openapi.json").contains("summarize"), "runtime tools have no OpenAPI entry");
    assert!(json(&a, "agent-tools.json")["tools"].as_array().unwrap().iter().any(|t| t["name"] == "summarize_queue"));
}

#[test]
fn a_view_never_changes_a_byte_of_openapi() {
    let base = std::fs::read_to_string(repo_root().join("fixtures/valid/minimal.stitch.yaml")).unwrap();
    let with_view = format!(
        "{base}    tool:\n      view:\n        output: {{ type: object, properties: {{ up: {{ type: boolean }} }} }}\n"
    );
    let dir = std::env::temp_dir().join(format!("stitchgen-view-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (plain, viewed) = (dir.join("plain.stitch.yaml"), dir.join("viewed.stitch.yaml"));
    std::fs::write(&plain, &base).unwrap();
    std::fs::write(&viewed, &with_view).unwrap();
    let (a, b) = (artifacts(&[plain]), artifacts(&[viewed]));
    assert_eq!(text(&a, "openapi.json"), text(&b, "openapi.json"), "openapi.json moved");
    assert_ne!(text(&a, "mcp-tools.json"), text(&b, "mcp-tools.json"), "the MCP manifest advertises the view");
    std::fs::remove_dir_all(dir).unwrap();
}

/// HTTP never shows a tool view: `components.schemas` holds the types HTTP operations reach,
/// and removing every view of every valid fixture moves no byte of `openapi.json`.
#[test]
fn openapi_holds_the_types_http_reaches_and_no_view_moves_it() {
    let text = r##"stitch: 1
service: people
types:
  Person:
    type: object
    required: [id, name]
    properties: { id: { type: string }, name: { type: string }, email: { type: string }, address: { $ref: "#/types/Address" } }
  Address: { type: object, properties: { city: { type: string } } }
  Card: { type: object, required: [id], properties: { id: { type: string } } }
  Unused: { type: string }
endpoints:
  get:
    method: GET
    path: /:id
    desc: Get one person.
    output: { $ref: "#/types/Person" }
    expose: [HTTP, MCP]
    tool:
      view:
        output: { $ref: "#/types/Card" }
"##;
    let checked =
        stitchgen::check_inputs(&[("people.stitch.yaml".into(), text.as_bytes().to_vec())], &Options::default());
    let g = stitchgen::generate_checked(checked).unwrap();
    assert!(!g.checked.has_errors(), "{:?}", g.checked.diagnostics);
    let openapi: Value =
        serde_json::from_slice(&g.artifacts.iter().find(|a| a.name == "openapi.json").unwrap().bytes).unwrap();
    let names: Vec<&String> = openapi["components"]["schemas"].as_object().unwrap().keys().collect();
    assert_eq!(names, ["Address", "ErrorEnvelope", "Person"], "only what HTTP reaches, the envelope included");

    for f in fixtures("valid") {
        let checked = stitchgen::check_files(std::slice::from_ref(&f)).unwrap();
        assert!(!checked.has_errors(), "{}", f.display());
        let model = stitchgen::model::lower(&checked.contracts, &checked.sources, &checked.options);
        let mut viewless = model.clone();
        viewless.services.iter_mut().flat_map(|s| s.operations.iter_mut()).for_each(|o| o.view = None);
        let (with, without) =
            (stitchgen::emit::openapi::document(&model), stitchgen::emit::openapi::document(&viewless));
        assert_eq!(with, without, "{}: a view moved openapi.json", f.display());
    }
}

/// The names the `types` module of a Rust artifact defines with any of `kinds` (`pub struct `, …).
fn type_names(rust: &str, kinds: &[&str]) -> std::collections::BTreeSet<String> {
    let types = rust.split_once("    pub mod types {").map_or("", |(_, rest)| rest);
    types
        .lines()
        .filter_map(|l| kinds.iter().find_map(|k| l.trim_start().strip_prefix(k)))
        .map(|rest| rest.split(|c: char| !c.is_alphanumeric() && c != '_').next().unwrap_or_default().to_owned())
        .collect()
}

/// One type per shape never takes a name away: with an endpoint added before every other (a copy
/// of the first, so that its types share their shapes and take the definitions, their names being
/// the least), every type name of every valid fixture's module is still defined.
#[test]
fn an_added_endpoint_takes_no_type_name_away() {
    let scratch = std::env::temp_dir().join(format!("stitchgen-added-{}", std::process::id()));
    let mut moved = 0;
    for fixture in fixtures("valid") {
        let text = std::fs::read_to_string(&fixture).unwrap();
        let mut contract: Value = serde_saphyr::from_str(&text).unwrap();
        let Some(endpoints) = contract.get_mut("endpoints").and_then(Value::as_object_mut) else { continue };
        let Some((_, first)) = endpoints.iter().next() else { continue };
        let mut added = first.clone();
        let path = added["path"].as_str().unwrap_or("/").to_owned();
        added["path"] = Value::String(format!("/aaa-added{}", path.trim_end_matches('/')));
        // A name written out would be written twice.
        if let Some(tool) = added.get_mut("tool").and_then(Value::as_object_mut) {
            tool.remove("name");
        }
        let rest = std::mem::take(endpoints);
        endpoints.insert("aaaAdded".into(), added);
        endpoints.extend(rest);
        let name = fixture.file_name().unwrap();
        let (before, after) = (scratch.join("before"), scratch.join("after"));
        std::fs::create_dir_all(&before).unwrap();
        std::fs::create_dir_all(&after).unwrap();
        std::fs::write(
            before.join(name),
            serde_json::to_string(&serde_saphyr::from_str::<Value>(&text).unwrap()).unwrap(),
        )
        .unwrap();
        std::fs::write(after.join(name), serde_json::to_string(&contract).unwrap()).unwrap();
        let rust = |dir: &std::path::Path| -> String {
            let all = artifacts(&[dir.join(name)]);
            all.into_iter().filter(|(n, _)| n.ends_with(".rs")).map(|(_, t)| t).collect()
        };
        let (was, is) = (rust(&before), rust(&after));
        let all = ["pub struct ", "pub enum ", "pub type "];
        let lost: Vec<String> = type_names(&was, &all).difference(&type_names(&is, &all)).cloned().collect();
        assert!(lost.is_empty(), "{}: an added endpoint took {lost:?} away", fixture.display());
        moved += type_names(&was, &all[..2]).intersection(&type_names(&is, &all[2..])).count();
    }
    std::fs::remove_dir_all(&scratch).ok();
    // The added endpoint's types took definitions over somewhere: the names above were read
    // through aliases, not only left where they were.
    assert!(moved > 0, "no definition moved to the added endpoint's types");
}

/// Each module names the documents of its generation as constants read from beside it: every
/// document it names is written, and each catalog written is named (for every valid fixture
/// alone, and all of them together).
#[test]
fn every_module_names_exactly_the_documents_of_its_generation() {
    let mut runs: Vec<Vec<std::path::PathBuf>> = fixtures("valid").into_iter().map(|f| vec![f]).collect();
    runs.push(fixtures("valid"));
    let mut searched = 0;
    for files in &runs {
        let all = artifacts(files);
        let written = |name: &str| all.iter().any(|(n, _)| n == name);
        for (name, module) in all.iter().filter(|(n, _)| n.ends_with(".rs")) {
            for document in
                ["openapi.json", "mcp-tools.json", "agent-tools.json", "mcp-catalog.json", "agent-catalog.json"]
            {
                let named = module.contains(&format!("include_str!(\"{document}\")"));
                assert!(!named || written(document), "{name} names {document}, which its generation does not write");
                if document.contains("catalog") {
                    assert_eq!(named, written(document), "{name}: {document}");
                    searched += usize::from(named);
                }
            }
        }
    }
    assert!(searched > 2, "the search-mode fixtures name their catalogs ({searched})");
}
