//! `directory`: a people directory served from one generated service.
//!
//! ```text
//! directory call TOOL [ARGS_JSON]     the tool surface (CLI): cards, view defaults applied
//! directory http ACTION [ARGS_JSON]   what HTTP answers for ACTION: full records
//! ```

mod people_impl;

use std::process::ExitCode;

use stitchgen_runtime::{Call, Ctx, ErrorCode, Surface};

stitchgen_runtime::include_contract!("people");

fn usage() -> ExitCode {
    eprintln!("usage: directory call TOOL [ARGS_JSON] | directory http ACTION [ARGS_JSON]");
    ExitCode::from(2)
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(command), Some(name)) = (args.first(), args.get(1)) else { return usage() };
    let json = match args.get(2).map(|a| serde_json::from_str::<serde_json::Value>(a)).transpose() {
        Ok(v) => v.unwrap_or_else(|| serde_json::json!({})),
        Err(e) => {
            eprintln!("error: ARGS_JSON is not JSON: {e}");
            return ExitCode::from(2);
        }
    };
    let service = people::service(people_impl::Directory::seeded(300));
    let ctx = Ctx::with_identity("cli", ["admin"]);
    let result = match command.as_str() {
        "call" => service.call_tool(Surface::Cli, name, json, &ctx).await.map(|o| o.value),
        "http" => {
            let Some(op) = service.operations().iter().position(|o| o.action == name) else {
                eprintln!("error: no action `{name}`");
                return ExitCode::from(2);
            };
            let keys = service.operations()[op].param_keys;
            let (params, input) = json
                .as_object()
                .cloned()
                .unwrap_or_default()
                .into_iter()
                .partition(|(k, _)| keys.contains(&k.as_str()));
            service.call_http(op, params, input, Call::default(), &ctx).await.map(|a| a.value)
        }
        _ => return usage(),
    };
    match result {
        Ok(value) => {
            println!("{}", serde_json::to_string_pretty(&value).expect("JSON values serialize"));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{}", serde_json::to_string(&e.tool_envelope()).expect("envelopes serialize"));
            let code = ErrorCode::from_name(&e.code).map_or(1, ErrorCode::exit_code);
            ExitCode::from(code)
        }
    }
}
