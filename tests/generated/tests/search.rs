//! Search mode run for real: the catalog generated for `fleet` (fixtures/valid/search.stitch.yaml)
//! searched, described and called through the runner, and the MCP server that serves it.

use serde_json::{Value, json};
use stitchgen_generated_tests::fleet::{
    self, create_machine, delete_machine, get_machine, list_machines, resize_machine,
};
use stitchgen_runtime::mcp::{ManifestError, McpServer};
use stitchgen_runtime::search::{CALL_TOOL, Catalog, DESCRIBE_TOOL, META_TOOLS, SEARCH_TOOL};
use stitchgen_runtime::{AppError, Ctx, ErrorCode, Reply, Service, Surface};

/// Every valid fixture is generated together; `fleet` is the one in search mode, so the
/// generation's documents, which every module names, hold both catalogs.
const MCP_TOOLS: &str = fleet::MCP_TOOLS;
const MCP_CATALOG: &str = fleet::MCP_CATALOG.expect("a contract generated together is in search mode");
const AGENT_CATALOG: &str = fleet::AGENT_CATALOG.expect("a contract generated together is in search mode");

struct Fleet;

fn machine(id: u64, name: &str, size: &str) -> fleet::types::Machine {
    serde_json::from_value(json!({ "id": id, "name": name, "size": size, "status": "new" })).unwrap()
}

impl fleet::Handler for Fleet {
    async fn create_machine(&self, _: &Ctx, input: create_machine::Input) -> Reply<create_machine::Output> {
        let size = serde_json::to_value(input.size).unwrap();
        Ok(machine(7, &input.name, size.as_str().unwrap()))
    }
    async fn list_machines(&self, _: &Ctx, _: list_machines::Input) -> Reply<list_machines::Output> {
        Ok(serde_json::from_value(json!({ "machines": [machine(1, "web", "small")] })).unwrap())
    }
    async fn get_machine(&self, _: &Ctx, params: get_machine::Params) -> Reply<get_machine::Output> {
        Err(AppError::new(ErrorCode::NotFound, format!("no machine {}", params.id)))
    }
    async fn resize_machine(
        &self,
        _: &Ctx,
        params: resize_machine::Params,
        _: resize_machine::Input,
    ) -> Reply<resize_machine::Output> {
        Ok(machine(params.id, "web", "large"))
    }
    async fn delete_machine(&self, _: &Ctx, _: delete_machine::Params) -> Reply<()> {
        Ok(())
    }
}

fn services() -> [Service; 1] {
    [fleet::service(Fleet)]
}

async fn call(catalog: &Catalog, surface: Surface, tool: &str, args: Value) -> Result<Value, AppError> {
    catalog.call(&services(), surface, tool, args, &Ctx::anonymous()).await.map(|o| o.value)
}

#[tokio::test]
async fn search_finds_the_tool_a_task_needs_and_describe_states_it_as_listed() {
    let catalog = Catalog::parse(MCP_CATALOG).unwrap();
    let names: Vec<&str> = catalog.names().collect();
    assert_eq!(
        names,
        [
            "create_machine_fleet",
            "delete_machine_fleet",
            "get_machine_fleet",
            "list_machines_fleet",
            "resize_machine_fleet"
        ]
    );
    let found = call(&catalog, Surface::Mcp, SEARCH_TOOL, json!({ "query": "resize my machines", "limit": 2 })).await;
    let found = found.unwrap();
    assert_eq!(found["tools"][0], json!({ "name": "resize_machine_fleet", "description": "Resize a machine." }));
    assert_eq!(found["tools"].as_array().unwrap().len(), 2);
    let described = call(&catalog, Surface::Mcp, DESCRIBE_TOOL, json!({ "names": ["resize_machine_fleet"] })).await;
    assert_eq!(described.unwrap()["tools"], json!([catalog.definition("resize_machine_fleet").unwrap()]));
}

#[tokio::test]
async fn call_tool_validates_against_the_tool_s_own_schema_and_answers_its_own_answer() {
    let catalog = Catalog::parse(MCP_CATALOG).unwrap();
    let args = json!({ "name": "create_machine_fleet", "arguments": { "name": "db", "size": "huge" } });
    let refused = call(&catalog, Surface::Mcp, CALL_TOOL, args).await.unwrap_err();
    assert_eq!(refused.code, "VALIDATION_ERROR");
    assert_eq!(refused.details.unwrap()["errors"][0]["path"], "/size");
    let args = json!({ "name": "create_machine_fleet", "arguments": { "name": "db", "size": "large" } });
    let answer = call(&catalog, Surface::Mcp, CALL_TOOL, args).await.unwrap();
    assert_eq!(answer, json!({ "id": 7, "name": "db", "size": "large", "status": "new" }));
    // The handler's own errors come back as they would from the tool listed.
    let args = json!({ "name": "get_machine_fleet", "arguments": { "id": 3 } });
    assert_eq!(call(&catalog, Surface::Mcp, CALL_TOOL, args).await.unwrap_err().code, "NOT_FOUND");
}

#[tokio::test]
async fn the_agent_catalog_takes_a_tool_s_arguments_as_json_text() {
    let catalog = Catalog::parse(AGENT_CATALOG).unwrap();
    let args = json!({ "name": "resize_machine_fleet", "arguments": "{\"id\": 4, \"size\": \"large\"}" });
    assert_eq!(call(&catalog, Surface::Agent, CALL_TOOL, args).await.unwrap()["id"], 4);
    let args = json!({ "name": "resize_machine_fleet", "arguments": "[4]" });
    let refused = call(&catalog, Surface::Agent, CALL_TOOL, args).await.unwrap_err();
    assert_eq!(refused.details.unwrap()["errors"][0]["path"], "/arguments");
}

#[tokio::test]
async fn unknown_names_are_refused_with_the_closest_names() {
    let catalog = Catalog::parse(MCP_CATALOG).unwrap();
    for (tool, args) in [
        (CALL_TOOL, json!({ "name": "create_machnie_fleet", "arguments": {} })),
        (DESCRIBE_TOOL, json!({ "names": ["create_machnie_fleet"] })),
    ] {
        let refused = call(&catalog, Surface::Mcp, tool, args).await.unwrap_err();
        assert_eq!(refused.code, "NOT_FOUND", "{tool}");
        let message = refused.message;
        assert!(
            message.starts_with("unknown tool `create_machnie_fleet`; the closest are `create_machine_fleet`"),
            "{message}"
        );
    }
}

#[tokio::test]
async fn a_hostile_name_or_query_is_refused_before_any_matching() {
    let catalog = Catalog::parse(MCP_CATALOG).unwrap();
    let huge = "create_machine_fleet".repeat(50_000);
    for (tool, args, path) in [
        (CALL_TOOL, json!({ "name": huge, "arguments": {} }), "/name"),
        (DESCRIBE_TOOL, json!({ "names": ["list_machines_fleet", huge] }), "/names/1"),
        (SEARCH_TOOL, json!({ "query": huge }), "/query"),
    ] {
        let refused = call(&catalog, Surface::Mcp, tool, args).await.unwrap_err();
        assert_eq!(refused.code, "VALIDATION_ERROR", "{tool}");
        assert_eq!(refused.details.as_deref().unwrap()["errors"][0]["path"], path, "{tool}");
        assert!(refused.message.len() < 200, "the answer does not echo the name: {tool}");
    }
    // At the bound, a name is still compared and the closest names offered.
    let long = format!("{:x<128}", "create_machine_fleet");
    let refused = call(&catalog, Surface::Mcp, CALL_TOOL, json!({ "name": long, "arguments": {} })).await;
    assert_eq!(refused.unwrap_err().code, "NOT_FOUND");
}

/// The manifest's three search-mode tools alone: `fleet` is the one service given.
fn fleet_manifest() -> String {
    let mut manifest: Value = serde_json::from_str(MCP_TOOLS).unwrap();
    let tools = manifest["tools"].as_array_mut().unwrap();
    tools.retain(|t| META_TOOLS.contains(&t["name"].as_str().unwrap()));
    assert_eq!(tools.len(), 3);
    manifest.to_string()
}

#[test]
fn the_mcp_server_serves_a_search_manifest_only_with_its_catalog() {
    let manifest = fleet_manifest();
    assert!(McpServer::searching(&manifest, MCP_CATALOG, services()).is_ok());
    let Err(e) = McpServer::new(&manifest, services()) else { panic!("served without its catalog") };
    assert!(matches!(e, ManifestError::NeedsCatalog), "{e}");
    // A catalog that lacks a tool the service serves was generated from another contract.
    let mut catalog: Value = serde_json::from_str(MCP_CATALOG).unwrap();
    catalog["tools"].as_array_mut().unwrap().pop();
    catalog["index"]["tools"].as_array_mut().unwrap().pop();
    let Err(e) = McpServer::searching(&manifest, &catalog.to_string(), services()) else { panic!("a stale catalog") };
    assert!(e.to_string().contains("is not listed"), "{e}");
}
