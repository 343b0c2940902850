//! `gateway`: a contract's tool surfaces in front of the API that already runs it, in any
//! language, with the contract compiled in ([`stitchgen_runtime::gateway`] says what each
//! command does). Every call goes through the one runner here (view defaults, validation before
//! anything is sent, the scope gate, the answer checked against the contract on return, the
//! view), then to the origin through the typed client.
//!
//! ```text
//! gateway mcp --origin URL [--credential SCHEME=VALUE]... [--header 'NAME: VALUE']... [--scope S]...
//! gateway http --origin URL [--addr ADDR] [--forward-authorization | --trust-callers] ...
//! GATEWAY_ORIGIN=URL gateway call TOOL [--flags] [--json]
//! ```
//!
//! The contract is chosen at build time: `GATEWAY_CONTRACT=path/to/api.stitch.yaml cargo build
//! -p gateway-example` (default: the Petstore imported beside this crate). `stitchgen gateway`
//! serves any contract or OpenAPI document the same way with no build.

use std::process::ExitCode;

use gateway_example::{self as generated, MCP_CATALOG, MCP_TOOLS};
use stitchgen_runtime::gateway::Gateway;

fn main() -> ExitCode {
    let gateway = Gateway::new(generated::NAME, MCP_TOOLS, MCP_CATALOG.map(str::to_owned), generated::remote);
    gateway.main("gateway", std::env::args_os().collect())
}
