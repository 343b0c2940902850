//! Each transport's tool list as its manifest shows it: the snapshot's sizes and catalog stamps
//! are those of the manifests' entries, and `diff` compares each tool as its transport ships it.

use serde_json::{Value, json};
use stitchgen::Options;
use stitchgen::canonical::digest;
use stitchgen::diff::rules::Consumer;
use stitchgen_tests::{fixtures, repo_root};

/// The MCP manifest, the agent manifest and the snapshot of one set of contracts.
fn generate(inputs: &[(String, Vec<u8>)]) -> (Value, Value, Value) {
    let (mcp, agent, snapshot, _) = generate_all(inputs);
    (mcp, agent, snapshot)
}

/// As [`generate`], with the search-mode catalogs (MCP, agent) where the contracts have them.
fn generate_all(inputs: &[(String, Vec<u8>)]) -> (Value, Value, Value, [Option<Value>; 2]) {
    let generated = stitchgen::generate_checked(stitchgen::check_inputs(inputs, &Options::default())).unwrap();
    assert!(!generated.checked.has_errors(), "{:?}", generated.checked.diagnostics);
    let artifact = |name: &str| -> Option<Value> {
        let a = generated.artifacts.iter().find(|a| a.name == name)?;
        Some(serde_json::from_slice(&a.bytes).unwrap())
    };
    let catalogs = [artifact("mcp-catalog.json"), artifact("agent-catalog.json")];
    let snapshot = serde_json::from_slice(&generated.snapshot).unwrap();
    (artifact("mcp-tools.json").unwrap(), artifact("agent-tools.json").unwrap(), snapshot, catalogs)
}

/// Every tool a transport offers, as its definition ships: the listed ones, and in search mode
/// the catalog's in place of the three tools that stand for them; sorted by name.
fn offered(manifest: &Value, catalog: Option<&Value>) -> Vec<Value> {
    let meta = stitchgen_runtime::search::META_TOOLS;
    let listed = manifest["tools"].as_array().unwrap().iter();
    let mut entries: Vec<Value> = match catalog {
        Some(_) => listed.filter(|t| !meta.contains(&t["name"].as_str().unwrap())).map(unstamped).collect(),
        None => listed.map(unstamped).collect(),
    };
    if let Some(catalog) = catalog {
        entries.extend(catalog["tools"].as_array().unwrap().iter().map(unstamped));
    }
    entries.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    entries
}

/// A tool's manifest entry without the catalog stamp every MCP tool carries alike.
fn unstamped(entry: &Value) -> Value {
    let mut entry = entry.clone();
    if let Some(meta) = entry.get_mut("_meta").and_then(Value::as_object_mut) {
        meta.remove("stitchgen/catalog");
        if meta.is_empty() {
            entry.as_object_mut().unwrap().remove("_meta");
        }
    }
    entry
}

fn surface<'a>(snapshot: &'a Value, transport: &str) -> &'a Value {
    snapshot["toolSurfaces"].as_array().unwrap().iter().find(|s| s["transport"] == transport).unwrap()
}

fn people() -> String {
    std::fs::read_to_string(repo_root().join("fixtures/valid/people.stitch.yaml")).unwrap()
}

fn input(text: &str) -> Vec<(String, Vec<u8>)> {
    vec![("people.stitch.yaml".to_owned(), text.as_bytes().to_vec())]
}

#[test]
fn every_tool_row_states_its_manifest_entry_and_every_stamp_covers_that_manifest() {
    let mut rows = 0;
    for f in fixtures("valid") {
        let (mcp, agent, snapshot, [mcp_catalog, agent_catalog]) =
            generate_all(&[(f.display().to_string(), std::fs::read(&f).unwrap())]);
        for (transport, manifest, catalog) in [("MCP", &mcp, &mcp_catalog), ("AGENT", &agent, &agent_catalog)] {
            let entries = offered(manifest, catalog.as_ref());
            let listed = surface(&snapshot, transport);
            let tools = listed["tools"].as_array().unwrap();
            let names = |v: &[Value]| v.iter().map(|t| t["name"].clone()).collect::<Vec<_>>();
            assert_eq!(names(tools), names(&entries), "{}: {transport} rows", f.display());
            for (row, entry) in tools.iter().zip(&entries) {
                let compact = serde_json::to_string(entry).unwrap().len();
                assert_eq!(row["bytes"], json!(compact), "{}: {transport} {}", f.display(), row["name"]);
                rows += 1;
            }
            // The stamp covers what the transport offers, and nothing else; in search mode also
            // which tools are searched, since that changes what is listed.
            let mut covered = entries;
            if let Some(catalog) = catalog {
                let searched: Vec<&Value> = catalog["tools"].as_array().unwrap().iter().map(|t| &t["name"]).collect();
                covered.push(json!({ "discovery": "search", "tools": searched }));
            }
            assert_eq!(listed["catalog"], json!(digest(&Value::Array(covered))), "{}: {transport}", f.display());
        }
        for tool in mcp["tools"].as_array().unwrap() {
            let stamp = &tool["_meta"]["stitchgen/catalog"]["digest"];
            assert_eq!(stamp, &surface(&snapshot, "MCP")["catalog"], "{}", f.display());
        }
    }
    assert!(rows > 100, "{rows} rows");
}

#[test]
fn an_annotation_edit_moves_only_the_mcp_stamp_and_only_mcp_diff_rows() {
    let old = people();
    let new = old.replacen("name: get_person\n      annotations: { readOnlyHint: true }", "name: get_person", 1);
    assert_ne!(old, new);
    let (_, _, before) = generate(&input(&old));
    let (_, _, after) = generate(&input(&new));
    assert_ne!(surface(&before, "MCP")["catalog"], surface(&after, "MCP")["catalog"]);
    for transport in ["AGENT", "CLI"] {
        assert_eq!(surface(&before, transport), surface(&after, transport), "{transport}");
    }
    let changes = stitchgen::diff(&input(&old), &input(&new), &Options::default()).changes;
    let tools: Vec<(&str, &str)> =
        changes.iter().filter(|c| c.consumer == Consumer::Tools).map(|c| (c.subject.as_str(), c.rule)).collect();
    assert_eq!(tools, [("get_person (MCP)", "read-only-dropped")]);
}

#[test]
fn agent_tools_are_compared_closed_as_they_ship() {
    // Closing an open input narrows what an MCP client may send; an agent tool ships every
    // object closed already, so nothing changes for it.
    let old = people();
    let open = "    inputContentType: application/merge-patch+json\n    input:\n      type: object\n";
    let new = old.replacen(open, &format!("{open}      additionalProperties: false\n"), 1);
    assert_ne!(old, new);
    let (_, agent, _) = generate(&input(&old));
    assert!(agent["tools"].as_array().unwrap().iter().any(|t| t["name"] == "update_person"));
    let changes = stitchgen::diff(&input(&old), &input(&new), &Options::default()).changes;
    let subjects: Vec<&str> =
        changes.iter().filter(|c| c.consumer == Consumer::Tools).map(|c| c.subject.as_str()).collect();
    assert!(subjects.contains(&"update_person (MCP)"), "{subjects:?}");
    assert!(!subjects.iter().any(|s| s.ends_with("(AGENT)")), "{subjects:?}");
}

#[test]
fn an_object_answer_stated_through_all_of_or_one_of_is_typed_at_the_root() {
    // Real descriptions compose answers (Petstore's `Pet` is `allOf: [NewPet, {id}]`); MCP
    // requires `type: object` at the root of every `outputSchema`.
    let text = r##"stitch: 1
service: pets
types:
  NewPet:
    type: object
    required: [name]
    properties: { name: { type: string } }
  Pet:
    allOf:
      - { $ref: "#/types/NewPet" }
      - { type: object, required: [id], properties: { id: { type: integer } } }
  Cat: { type: object, required: [meow], properties: { meow: { type: boolean } } }
  Dog: { type: object, required: [bark], properties: { bark: { type: boolean } } }
  Kind: { oneOf: [{ $ref: "#/types/Cat" }, { $ref: "#/types/Dog" }] }
endpoints:
  get:
    method: GET
    path: /:id
    desc: Get one pet.
    output: { $ref: "#/types/Pet" }
    expose: [HTTP, MCP, AGENT, CLI]
  kind:
    method: GET
    path: /:id/kind
    desc: Get what kind of pet it is.
    output: { $ref: "#/types/Kind" }
    expose: [HTTP, MCP, AGENT, CLI]
"##;
    let (mcp, _, _) = generate(&[("pets.stitch.yaml".to_owned(), text.as_bytes().to_vec())]);
    let tools = mcp["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 2);
    let validator = stitchgen_tests::mcp_tool_validator();
    for tool in tools {
        assert_eq!(tool["outputSchema"]["type"], "object", "{}", tool["name"]);
        if let Some(v) = &validator {
            let errors: Vec<String> = v.iter_errors(tool).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{}: {errors:?}", tool["name"]);
        }
    }
}

#[test]
fn a_profile_past_its_tool_cap_is_a_warning_and_its_list_is_written_whole() {
    // 129 tools, one past what OpenAI takes in one request.
    let mut text = String::from("stitch: 1\nservice: many\nendpoints:\n");
    for i in 0..129 {
        text.push_str(&format!(
            "  op{i}:\n    method: GET\n    path: /op{i}\n    desc: Operation {i}.\n    output: {{ type: object }}\n    expose: [HTTP, AGENT]\n"
        ));
    }
    let options = Options {
        profiles: stitchgen::profile::Profiles::default().with(stitchgen::Profile::OpenAi),
        ..Default::default()
    };
    let inputs = vec![("many.stitch.yaml".to_owned(), text.into_bytes())];
    let generated = stitchgen::generate_checked(stitchgen::check_inputs(&inputs, &options)).unwrap();
    let codes: Vec<&str> = generated.checked.diagnostics.iter().map(|d| d.code.id()).collect();
    assert_eq!(codes, ["W0009"]);
    let listed = generated.artifacts.iter().find(|a| a.name == "agent-tools.openai.json").expect("the profile's list");
    let listed: Value = serde_json::from_slice(&listed.bytes).unwrap();
    assert_eq!(listed["tools"].as_array().map(Vec::len), Some(129));
}

#[test]
fn a_profile_rewrites_what_its_provider_cannot_read_and_keeps_what_it_means() {
    // `people`'s list input: a bounded integer with a default, an enum, an optional string.
    let (_, agent, _) = generate(&input(&people()));
    for profile in stitchgen::Profile::ALL.into_iter().filter(|p| !p.is_mcp()) {
        let (rewritten, refused) = stitchgen::profile::manifest(profile, &agent);
        assert!(refused.is_empty(), "{}: {refused:?}", profile.name());
        let tools = rewritten["tools"].as_array().unwrap();
        assert_eq!(tools.len(), agent["tools"].as_array().unwrap().len(), "{}", profile.name());
        for tool in tools {
            let text = tool["parameters"].to_string();
            match profile {
                // Strict: every property required, an optional one nullable; no `default` or length.
                stitchgen::Profile::OpenAiStrict => {
                    assert_eq!(tool["strict"], true);
                    assert!(!text.contains("\"default\"") && !text.contains("\"minLength\""), "{text}");
                }
                // Gemini: no type lists, no `$ref`, no closing keyword.
                stitchgen::Profile::Gemini => {
                    assert!(!text.contains("\"type\":[") && !text.contains("$ref"), "{text}");
                    assert!(!text.contains("additionalProperties"), "{text}");
                }
                _ => assert_eq!(
                    tool["parameters"],
                    agent["tools"].as_array().unwrap().iter().find(|t| t["name"] == tool["name"]).unwrap()["parameters"]
                ),
            }
        }
    }
}

#[test]
fn every_profile_and_pass_is_documented() {
    let docs = std::fs::read_to_string(repo_root().join("docs/profiles.md")).unwrap();
    for profile in stitchgen::Profile::ALL {
        assert!(docs.contains(&format!("| `{}` |", profile.name())), "docs/profiles.md lacks `{}`", profile.name());
        for pass in profile.passes() {
            assert!(docs.contains(&format!("| `{}` |", pass.name())), "docs/profiles.md lacks pass `{}`", pass.name());
        }
    }
}

#[test]
fn a_body_of_several_shapes_becomes_one_object_that_takes_every_call_the_runner_takes() {
    // As the canonical list states an operation with a path parameter and a body that is one
    // of two shapes (each closed, each with its discriminator), and a field typed through an
    // `allOf` of a type and a note.
    let card = json!({"type": "object", "additionalProperties": false, "required": ["kind", "number"],
        "properties": {"kind": {"const": "card"}, "number": {"type": "string", "pattern": "^[0-9]+$"}}});
    let bank = json!({"type": "object", "additionalProperties": false, "required": ["kind", "iban"],
        "properties": {"kind": {"const": "bank"}, "iban": {"type": "string"},
            "note": {"allOf": [{"type": "string", "maxLength": 9}, {"description": "For the payee."}]}}});
    let canonical = json!({"name": "pay", "description": "Pays.", "parameters": {
        "type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"],
        "additionalProperties": false, "allOf": [{"oneOf": [card, bank]}]}});
    // What the runner takes: the path parameter, and a body one branch accepts.
    let calls = [
        json!({"id": "7", "kind": "card", "number": "4242"}),
        json!({"id": "7", "kind": "bank", "iban": "DE89", "note": "rent"}),
    ];
    for profile in stitchgen::Profile::ALL.into_iter().filter(|p| !p.is_mcp()) {
        let (tool, refused) = stitchgen::profile::tool(profile, &canonical);
        assert!(refused.is_empty(), "{}: {refused:?}", profile.name());
        let params = &tool["parameters"];
        assert_eq!(params["type"], "object", "{}", profile.name());
        assert!(params.get("oneOf").is_none() && params.get("anyOf").is_none() && params.get("allOf").is_none());
        let described = params["description"].as_str().unwrap();
        assert!(described.contains(r#"{kind = "card": kind, number}; {kind = "bank": kind, iban}"#), "{described}");
        if profile == stitchgen::Profile::Gemini {
            continue; // An OpenAPI 3.0 subset: validated by the google-genai SDK in conformance.
        }
        let validator = jsonschema::validator_for(params).unwrap();
        let keys: Vec<&String> = params["properties"].as_object().unwrap().keys().collect();
        for call in &calls {
            let mut sent = call.clone();
            if profile == stitchgen::Profile::OpenAiStrict {
                // Strict mode sends every key, `null` for one it has no value for.
                for k in &keys {
                    sent.as_object_mut().unwrap().entry(k.as_str()).or_insert(Value::Null);
                }
            }
            assert!(validator.is_valid(&sent), "{}: {sent} refused by {params}", profile.name());
        }
        let stray = json!({"id": "7", "kind": "card", "number": "4242", "stray": 1});
        assert!(!validator.is_valid(&stray), "{}: a key no shape has is taken", profile.name());
    }
}

#[test]
fn an_mcp_client_profile_renames_what_its_client_drops_and_records_the_canonical_names() {
    let long = "list_core_v1_namespaced_persistent_volume_claim_for_all_namespaces";
    let node = json!({"type": "object", "properties": {"child": {"$ref": "#/$defs/Node"}}});
    let manifest = json!({"tools": [
        {"name": long, "description": "Lists.", "inputSchema": {"type": "object",
            "properties": {"tags": {"type": "array"}, "parent": {"$ref": "#/$defs/Node"},
                "kind": {"type": ["string", "null"], "maxLength": 8}, "expand[]": {"type": "string"}},
            "required": ["expand[]"], "$defs": {"Node": node}},
         "outputSchema": {"type": "object", "properties": {"value": {"$ref": "#/$defs/Node"}}, "$defs": {"Node": node}}},
        {"name": "short", "inputSchema": {"type": "object"}},
    ]});
    for profile in stitchgen::Profile::ALL.into_iter().filter(|p| p.is_mcp()) {
        let (listed, refused) = stitchgen::profile::manifest(profile, &manifest);
        assert!(refused.is_empty(), "{}: {refused:?}", profile.name());
        assert_eq!(listed, stitchgen::profile::manifest(profile, &manifest).0, "the same names every time");
        let (tool, short) = (&listed["tools"][0], &listed["tools"][1]);
        assert_eq!(short, &manifest["tools"][1], "{}: a tool it takes is left as it is", profile.name());
        let name = tool["name"].as_str().unwrap();
        assert!(name.len() <= profile.max_name() && name != long, "{}: {name}", profile.name());
        assert!(
            name.starts_with("list_core_v1_namespaced") && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        );
        assert_eq!(tool["_meta"]["stitchgen/name"], long);
        let text = tool.to_string();
        assert!(!text.contains("\"$ref\"") && !text.contains("\"$defs\""), "{}: {text}", profile.name());
        assert_eq!(
            tool["inputSchema"]["properties"]["parent"]["properties"]["child"]["description"],
            "(a Node, as above)"
        );
        match profile {
            stitchgen::Profile::Cursor => {
                let args = &tool["inputSchema"];
                assert_eq!(args["required"], json!(["expand"]));
                assert_eq!(tool["_meta"]["stitchgen/arguments"], json!({"expand": "expand[]"}));
                assert_eq!(
                    args["properties"]["kind"],
                    json!({"anyOf": [{"type": "string", "maxLength": 8}, {"type": "null", "maxLength": 8}]})
                );
            }
            stitchgen::Profile::VsCode => assert_eq!(tool["inputSchema"]["properties"]["tags"]["items"], json!({})),
            _ => assert!(tool["inputSchema"]["properties"].get("expand[]").is_some()),
        }
    }
}

#[test]
fn the_snapshot_records_each_profile_s_list_and_a_moved_one_is_named() {
    let profiles = [stitchgen::Profile::Gemini, stitchgen::Profile::Cursor]
        .into_iter()
        .fold(stitchgen::profile::Profiles::default(), stitchgen::profile::Profiles::with);
    let options = Options { profiles, ..Options::default() };
    let generated = |text: &str| {
        let generated = stitchgen::generate_checked(stitchgen::check_inputs(&input(text), &options)).unwrap();
        assert!(!generated.checked.has_errors(), "{:?}", generated.checked.diagnostics);
        generated
    };
    let first = generated(&people());
    let snapshot: Value = serde_json::from_slice(&first.snapshot).unwrap();
    let rows = snapshot["profiles"].as_array().unwrap();
    assert_eq!(
        rows.iter().map(|r| r["file"].as_str().unwrap()).collect::<Vec<_>>(),
        ["agent-tools.gemini.json", "mcp-tools.cursor.json"]
    );
    for row in rows {
        let written = first.artifacts.iter().find(|a| a.name == row["file"]).unwrap();
        let list: Value = serde_json::from_slice(&written.bytes).unwrap();
        assert_eq!(row["bytes"], written.bytes.len(), "{row}");
        assert_eq!(row["digest"], digest(&list), "{row}");
        assert_eq!(row["tools"], list["tools"].as_array().unwrap().len(), "{row}");
        assert_eq!(row["renamed"], 0, "{row}");
    }
    // A description edited: both lists move, and a stale snapshot names them.
    let edited = generated(&people().replacen("desc: ", "desc: Now ", 1));
    let after: Value = serde_json::from_slice(&edited.snapshot).unwrap();
    let moved = stitchgen::snapshot::stale::moved_rows(&snapshot, &after);
    for file in ["agent-tools.gemini.json", "mcp-tools.cursor.json"] {
        assert!(moved.iter().any(|m| m.starts_with(&format!("profile {file}: bytes, digest changed"))), "{moved:?}");
    }
    // Without a profile, the snapshot has no `profiles` key: snapshots of such contracts stay.
    let plain = stitchgen::generate_checked(stitchgen::check_inputs(&input(&people()), &Options::default())).unwrap();
    let plain: Value = serde_json::from_slice(&plain.snapshot).unwrap();
    assert!(plain.get("profiles").is_none());
}
