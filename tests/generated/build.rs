//! Generates every valid fixture, together, with the build.rs API users call.

fn main() {
    let mut contracts: Vec<_> = std::fs::read_dir("../../fixtures/valid")
        .expect("fixtures/valid exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".stitch.yaml"))
        .collect();
    contracts.sort();
    println!("cargo:rerun-if-changed=../../fixtures/valid");
    stitchgen::Config::new().contracts(contracts).generate_to_out_dir().unwrap();
}
