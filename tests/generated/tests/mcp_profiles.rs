//! Each MCP client's profile, served by `McpServer` to the client that announces itself as that
//! client (`fixtures/valid/client_profiles.stitch.yaml`): the official Rust SDK's client lists
//! the profile's tools, renamed where the client cannot take the canonical names, and a call by
//! the names it lists reaches the handler as the canonical call does.

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation};
use serde_json::{Value, json};
use stitchgen_generated_tests::client_profiles::{self, types};
use stitchgen_runtime::mcp::{CLIENT_PROFILES, McpServer};
use stitchgen_runtime::{AppError, Ctx, Service, Surface};

struct Claims;

impl client_profiles::Handler for Claims {
    async fn list_claims(
        &self,
        _ctx: &Ctx,
        input: client_profiles::list_claims::Input,
    ) -> Result<client_profiles::list_claims::Output, AppError> {
        // The answer says what the handler read, so that each call's input can be compared.
        let claim = types::Claim { name: "pvc-1".into(), namespace: input.namespace, expanded: input.expand };
        Ok(client_profiles::list_claims::Output { items: vec![claim] })
    }
}

const CANONICAL: &str = "list_namespaced_persistent_volume_claims_for_all_namespaces";

/// `manifest`'s tools that `service` serves (the fixtures are generated together).
fn only(manifest: &str, service: &Service) -> String {
    let mut doc: Value = serde_json::from_str(manifest).unwrap();
    doc["tools"].as_array_mut().unwrap().retain(|t| {
        let name = t.pointer("/_meta/stitchgen~1name").or(t.get("name")).and_then(Value::as_str).unwrap();
        service.find_tool(Surface::Mcp, name).is_some()
    });
    doc.to_string()
}

fn server() -> McpServer {
    let service = client_profiles::service(Claims);
    let lists: Vec<(&str, String)> =
        client_profiles::MCP_PROFILES.iter().map(|(p, m)| (*p, only(m, &service))).collect();
    let lists: Vec<(&str, &str)> = lists.iter().map(|(p, m)| (*p, m.as_str())).collect();
    let manifest = only(client_profiles::MCP_TOOLS, &service);
    McpServer::new(&manifest, [service]).unwrap().profiles(&lists).unwrap()
}

/// `server` reached by the official Rust SDK's client announcing itself as `client`.
async fn connect(server: McpServer, client: &str) -> rmcp::service::RunningService<rmcp::RoleClient, ClientConfig> {
    let (here, there) = tokio::io::duplex(1 << 16);
    tokio::spawn(async move { server.serve(there).await.unwrap().waiting().await });
    let info = ClientConfig::new(ClientCapabilities::default(), Implementation::new(client, "1.0.0"));
    info.serve(here).await.expect("the client initializes")
}

async fn call(
    client: &rmcp::service::RunningService<rmcp::RoleClient, ClientConfig>,
    name: &str,
    args: Value,
) -> Value {
    let params = CallToolRequestParams::new(name.to_owned()).with_arguments(args.as_object().cloned().unwrap());
    let result = client.call_tool(params).await.expect("an answer");
    assert_ne!(result.is_error, Some(true), "{name}: {result:?}");
    result.structured_content.expect("a structured answer")
}

#[tokio::test]
async fn each_client_is_listed_its_profile_and_its_calls_reach_the_handler_as_the_canonical_call() {
    let canonical = connect(server(), "an-unknown-client").await;
    let listed = canonical.list_all_tools().await.unwrap();
    assert_eq!(listed.iter().map(|t| t.name.as_ref()).collect::<Vec<_>>(), [CANONICAL]);
    let want = call(&canonical, CANONICAL, json!({"namespace": "ns", "expand[]": ["spec"]})).await;
    assert_eq!(want["items"][0], json!({"name": "pvc-1", "namespace": "ns", "expanded": ["spec"]}));
    for (client, profile) in CLIENT_PROFILES {
        let session = connect(server(), client).await;
        let tools = session.list_all_tools().await.unwrap();
        let (_, manifest) = client_profiles::MCP_PROFILES.iter().find(|(p, _)| *p == profile).unwrap();
        let expected: Value = serde_json::from_str(manifest).unwrap();
        let tool = expected["tools"].as_array().unwrap().iter().find(|t| t["_meta"]["stitchgen/name"] == CANONICAL);
        let tool = tool.expect("the profile renames the tool");
        assert_eq!(serde_json::to_value(&tools[0]).unwrap(), *tool, "{client}: the profile's tool as written");
        let name = tool["name"].as_str().unwrap();
        assert!(name.len() < CANONICAL.len(), "{client}: {name}");
        // The arguments as that client's model fills them from the listed schema.
        let key = if tool["inputSchema"]["properties"].get("expand").is_some() { "expand" } else { "expand[]" };
        assert_eq!(key == "expand", profile == "cursor", "{client}");
        let got = call(&session, name, json!({"namespace": "ns", key: ["spec"]})).await;
        assert_eq!(got, want, "{client} ({profile}): {name}");
    }
}

#[tokio::test]
async fn an_argument_given_under_both_its_names_is_refused_and_the_mapping_can_be_overridden() {
    // An application names a client the default mapping does not know.
    let session = connect(server().client_profile("my-agent", "cursor"), "my-agent").await;
    let name = session.list_all_tools().await.unwrap()[0].name.to_string();
    assert_ne!(name, CANONICAL);
    let args = json!({"namespace": "ns", "expand": ["spec"], "expand[]": ["status"]});
    let params = CallToolRequestParams::new(name).with_arguments(args.as_object().cloned().unwrap());
    let result = session.call_tool(params).await.expect("an answer");
    let text = serde_json::to_string(&result).unwrap();
    assert!(result.is_error == Some(true) && text.contains("VALIDATION_ERROR") && text.contains("twice"), "{text}");
    // A profile the server was not given: the canonical list.
    let session = connect(server().client_profile("my-agent", "no-such-profile"), "my-agent").await;
    assert_eq!(session.list_all_tools().await.unwrap()[0].name, CANONICAL);
}

#[test]
fn a_profile_list_that_does_not_match_the_services_is_refused() {
    let service = client_profiles::service(Claims);
    let manifest = only(client_profiles::MCP_TOOLS, &service);
    let server = McpServer::new(&manifest, [service]).unwrap();
    let e = server.profile("cursor", r#"{"tools": []}"#).unwrap_err();
    assert!(e.to_string().contains("does not list the tools"), "{e}");
}
