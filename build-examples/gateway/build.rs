//! Generates the contract named by `GATEWAY_CONTRACT` (default: the Petstore imported beside this
//! crate) into `$OUT_DIR/contract/`, and `$OUT_DIR/gateway.rs`, which includes its module and
//! names its remote service for `main.rs`: the module's compiled operation definitions served by
//! `remote::service`, the very dispatch `stitchgen gateway` serves its in-memory ones with.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-env-changed=GATEWAY_CONTRACT");
    let contract = std::env::var_os("GATEWAY_CONTRACT")
        .map_or_else(|| PathBuf::from("contracts/petstore.stitch.yaml"), PathBuf::from);
    println!("cargo:rerun-if-changed={}", contract.display());
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // A fresh folder: a module left by an earlier contract must not be taken for this one's.
    let dir = out.join("contract");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("OUT_DIR is writable");
    if let Err(e) = stitchgen::Config::new().contract(&contract).out_dir(&dir).generate_to_out_dir() {
        panic!("{}: {e}", contract.display());
    }
    let module = module(&dir);
    let text = std::fs::read_to_string(dir.join(format!("{module}.rs"))).expect("the module was written");
    if text.contains("pub trait Views") || text.contains("pub trait Presenters") {
        panic!(
            "{}: its `project: true` views or presenters are Rust functions the gateway cannot write; \
             call `{module}::remote::<YourViews, _>(origin)` from your own crate instead",
            contract.display()
        );
    }
    // In search mode (`toolDiscovery: search`) the manifest's three tools stand for a catalog.
    let catalog = if dir.join("mcp-catalog.json").is_file() {
        "Some(include_str!(concat!(env!(\"OUT_DIR\"), \"/contract/mcp-catalog.json\")))"
    } else {
        "None"
    };
    let gateway = format!(
        "include!(concat!(env!(\"OUT_DIR\"), \"/contract/{module}.rs\"));\n\
         /// The contract's tool catalog, when its tools are presented in search mode.\n\
         pub const MCP_CATALOG: Option<&str> = {catalog};\n\
         /// The contract's service name.\n\
         pub const NAME: &str = {module:?};\n\
         /// The contract's service in front of `origin`: every operation forwarded as JSON, judged\n\
         /// by the contract's schemas alone, as `stitchgen gateway` serves it from memory.\n\
         pub fn remote(origin: ::stitchgen_runtime::remote::Origin) -> ::stitchgen_runtime::Service {{\n    \
         ::stitchgen_runtime::remote::service({module}::TYPES, {module}::CATALOG, origin)\n}}\n"
    );
    std::fs::write(out.join("gateway.rs"), gateway).expect("OUT_DIR is writable");
}

/// The one Rust module the contract generated.
fn module(dir: &Path) -> String {
    let mut modules: Vec<String> = std::fs::read_dir(dir)
        .expect("the contract folder exists")
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".rs").map(str::to_owned))
        .collect();
    modules.sort();
    match modules.as_slice() {
        [one] => one.clone(),
        more => panic!("the gateway serves one contract of one service; this generated {more:?}"),
    }
}
