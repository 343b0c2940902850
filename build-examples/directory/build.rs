//! Generates the `people` service from its contract.

fn main() {
    stitchgen::Config::new().contract("contracts/people.stitch.yaml").generate_to_out_dir().unwrap();
}
