//! The per-tool byte budget on the two shapes that blow real tool definitions up: a big type
//! referenced many times, and a ring of types every answer reaches. Every tool ends within its
//! budget, valid against the official MCP schema, and still accepts every real answer.

use serde_json::{Map, Value, json};
use stitchgen::Options;
use stitchgen::diag::{Code, ColorChoice, render_all};
use stitchgen::model::DEFAULT_BUDGET as DEFAULT;
use stitchgen_tests::{mcp_tool_validator, repo_root};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(repo_root().join("fixtures/invalid").join(format!("{name}.stitch.yaml"))).unwrap()
}

/// Generates one contract; its MCP manifest, its snapshot and its warnings.
fn generate(text: &str) -> (Value, Value, Vec<Code>) {
    let checked = stitchgen::check_inputs(&[("c.stitch.yaml".into(), text.as_bytes().to_vec())], &Options::default());
    let generated = stitchgen::generate_checked(checked).unwrap();
    let c = &generated.checked;
    assert!(!c.has_errors(), "{}", render_all(&c.diagnostics, &c.sources, ColorChoice::Never));
    let manifest = generated.artifacts.iter().find(|a| a.name == "mcp-tools.json").unwrap();
    let codes = c.diagnostics.iter().map(|d| d.code).collect();
    (serde_json::from_slice(&manifest.bytes).unwrap(), serde_json::from_slice(&generated.snapshot).unwrap(), codes)
}

/// A tool's cost as the budget counts it: its compact entry, less the catalog stamp.
fn cost(tool: &Value) -> usize {
    let mut tool = tool.clone();
    let meta = tool["_meta"].as_object_mut().unwrap();
    meta.remove("stitchgen/catalog");
    if meta.is_empty() {
        tool.as_object_mut().unwrap().remove("_meta");
    }
    serde_json::to_string(&tool).unwrap().len()
}

/// Every tool within `budget`, valid against the official schema, and sized in the snapshot
/// as the budget counts it.
fn within(manifest: &Value, snapshot: &Value, budget: u64) {
    let validator = mcp_tool_validator();
    let rows = snapshot["toolSurfaces"][0]["tools"].as_array().unwrap();
    for (tool, row) in manifest["tools"].as_array().unwrap().iter().zip(rows) {
        let name = &tool["name"];
        assert!(cost(tool) as u64 <= budget, "{name}: {} bytes", cost(tool));
        assert_eq!(row["bytes"], json!(cost(tool)), "{name}: the snapshot's bytes");
        if let Some(v) = &validator {
            let errors: Vec<String> = v.iter_errors(tool).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{name} breaks the MCP schema: {errors:?}");
        }
    }
}

/// Every object schema under `schema` (`type: object`, or `properties`) not closed.
fn open_objects(schema: &Value) -> Vec<String> {
    fn walk(v: &Value, at: String, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                let object = m.get("type") == Some(&json!("object")) || m.contains_key("properties");
                if object && m.get("additionalProperties") != Some(&Value::Bool(false)) {
                    out.push(at.clone());
                }
                for (k, c) in m.iter().filter(|(k, _)| !["enum", "const", "default", "examples"].contains(&k.as_str()))
                {
                    walk(c, format!("{at}/{k}"), out);
                }
            }
            Value::Array(a) => a.iter().enumerate().for_each(|(i, c)| walk(c, format!("{at}/{i}"), out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(schema, "#".into(), &mut out);
    out
}

fn accepts(schema: &Value, answer: &Value) {
    let v = jsonschema::validator_for(schema).unwrap();
    let errors: Vec<String> = v.iter_errors(answer).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "a real answer is refused by the advertised schema: {errors:?}");
}

#[test]
fn a_big_type_referenced_a_hundred_times_fits_and_accepts_every_answer() {
    let (manifest, snapshot, codes) = generate(&fixture("W0007_user_referenced_100_times"));
    assert_eq!(codes, [Code::ToolOverBudget]);
    within(&manifest, &snapshot, DEFAULT);
    let user: Map<String, Value> = (0..400).map(|i| (format!("field{i:03}"), json!(format!("value {i}")))).collect();
    let message: Map<String, Value> = (0..100).map(|i| (format!("user{i:03}"), Value::Object(user.clone()))).collect();
    accepts(&manifest["tools"][0]["outputSchema"], &Value::Object(message));
}

#[test]
fn a_ring_of_types_fits_every_tool_and_accepts_every_answer() {
    let (manifest, snapshot, codes) = generate(&fixture("W0007_ring_of_100_types"));
    assert_eq!(codes.len(), 100, "one warning per tool");
    within(&manifest, &snapshot, DEFAULT);
    // Resource 0 with every link expanded around the ring, back to an id.
    let mut answer = json!("r000-id");
    for i in (0..100).rev() {
        answer = json!({ "id": format!("r{i:03}"), "name": "a name", "created": 1, "next": answer });
    }
    let get000 = manifest["tools"].as_array().unwrap().iter().find(|t| t["name"] == "get000_ring").unwrap();
    accepts(&get000["outputSchema"], &answer);
}

#[test]
fn a_contract_or_an_endpoint_may_raise_the_budget() {
    let text = fixture("W0007_user_referenced_100_times");
    let raised = text.replacen("service: chat", "service: chat\ntoolBudget: 2000000", 1);
    let (manifest, snapshot, codes) = generate(&raised);
    assert!(codes.is_empty(), "{codes:?}");
    within(&manifest, &snapshot, 2_000_000);
    assert!(cost(&manifest["tools"][0]) as u64 > DEFAULT, "advertised in full");
    let per_endpoint = text.replacen(
        "    output: { $ref: \"#/types/Message\" }",
        "    output: { $ref: \"#/types/Message\" }\n    tool: { budget: 2000000 }",
        1,
    );
    let (_, _, codes) = generate(&per_endpoint);
    assert!(codes.is_empty(), "{codes:?}");
}

#[test]
fn diff_compares_the_full_tool_past_its_budget() {
    // The advertised tool is relaxed; the runner validates the full schemas, so a change deep
    // inside still reaches tool consumers.
    // get000's answer is advertised relaxed below about 20 of the ring's types: R050 is not in it.
    let old = fixture("W0007_ring_of_100_types");
    let was = "created: { type: integer, description: \"When resource 050 was made";
    let new = old.replacen(was, "created: { type: string, description: \"When resource 050 was made", 1);
    assert_ne!(old, new);
    let input = |text: &str| vec![("ring.stitch.yaml".to_owned(), text.as_bytes().to_vec())];
    let diffed = stitchgen::diff(&input(&old), &input(&new), &Options::default());
    let subjects: Vec<(&str, &str)> = diffed
        .changes
        .iter()
        .filter(|c| c.consumer == stitchgen::diff::rules::Consumer::Tools)
        .map(|c| (c.subject.as_str(), c.rule))
        .collect();
    assert!(subjects.iter().any(|(s, _)| *s == "get000_ring (MCP)"), "{subjects:?}");
}

#[test]
fn an_agent_tool_past_its_budget_relaxes_its_input_and_states_no_answer_schema() {
    let text = fixture("W0007_user_referenced_100_times").replacen("service: chat", "service: chat\ntoolBudget: 4000", 1).replace(
        "    output: { $ref: \"#/types/Message\" }",
        "    output: { $ref: \"#/types/Message\" }\n  post:\n    method: POST\n    path: /\n    desc: Post a message.\n    input: { $ref: \"#/types/Message\" }\n    output: { $ref: \"#/types/Message\" }",
    );
    let checked = stitchgen::check_inputs(&[("c.stitch.yaml".into(), text.into_bytes())], &Options::default());
    let generated = stitchgen::generate_checked(checked).unwrap();
    let over = generated.checked.diagnostics.iter().filter(|d| d.code == Code::ToolOverBudget).count();
    assert_eq!(over, 3, "both MCP tools, and the agent tool whose input is a `Message`");
    let agent = generated.artifacts.iter().find(|a| a.name == "agent-tools.json").unwrap();
    let agent: Value = serde_json::from_slice(&agent.bytes).unwrap();
    for tool in agent["tools"].as_array().unwrap() {
        assert!(serde_json::to_string(tool).unwrap().len() <= 4000, "{}", tool["name"]);
        // Providers refuse a function tool with an open object: a loosened one stays closed.
        assert_eq!(open_objects(&tool["parameters"]), Vec::<String>::new(), "{}", tool["name"]);
    }
    let snapshot: Value = serde_json::from_slice(&generated.snapshot).unwrap();
    let rows = snapshot["toolSurfaces"][1]["tools"].as_array().unwrap();
    assert_eq!(snapshot["toolSurfaces"][1]["transport"], "AGENT");
    // An agent function tool has its parameters alone: no agent row states an answer, within
    // its budget or past it; the operation's row does.
    assert!(rows.iter().all(|r| r["output"].is_null()), "no agent row states an answer: {rows:?}");
    assert!(snapshot["operations"].as_array().unwrap().iter().all(|o| o["schemas"]["output"].is_string()));
}
