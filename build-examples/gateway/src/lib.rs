//! The contract the gateway was built for (`GATEWAY_CONTRACT` at build time, default the Petstore
//! imported beside this crate): its generated module, its remote service and its MCP tool list.

include!(concat!(env!("OUT_DIR"), "/gateway.rs"));

/// The contract's MCP tool list, served as it was generated.
pub const MCP_TOOLS: &str = include_str!(concat!(env!("OUT_DIR"), "/contract/mcp-tools.json"));
