//! Generates the `people` and `rooms` services from their contracts, together (one OpenAPI
//! document and one MCP manifest for both, tool names unique across them), and verifies the
//! committed surface snapshot (rebuild with `STITCHGEN_UPDATE=1` to accept a change after
//! reviewing it).

fn main() {
    stitchgen::Config::new()
        .contract("contracts/people.stitch.yaml")
        .contract("contracts/rooms.stitch.yaml")
        .snapshot("contracts/surface.snapshot.json")
        .generate_to_out_dir()
        .unwrap();
}
