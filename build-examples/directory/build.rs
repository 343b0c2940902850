//! Generates the `people` service from its contract, and verifies the committed surface snapshot
//! (rebuild with `STITCHGEN_UPDATE=1` to accept a change after reviewing it).

fn main() {
    stitchgen::Config::new()
        .contract("contracts/people.stitch.yaml")
        .snapshot("contracts/surface.snapshot.json")
        .generate_to_out_dir()
        .unwrap();
}
