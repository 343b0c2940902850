//! Generates every valid fixture and a sample of random valid contracts, together, with the
//! build.rs API users call.

/// Seeds of the random contracts compiled here (the property test checks thousands more).
const RANDOM_SEEDS: [u64; 4] = [1, 2, 3, 4];

fn main() {
    let mut contracts: Vec<_> = std::fs::read_dir("../../fixtures/valid")
        .expect("fixtures/valid exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".stitch.yaml"))
        .collect();
    contracts.sort();
    println!("cargo:rerun-if-changed=../../fixtures/valid");
    println!("cargo:rerun-if-changed=../src/random.rs");
    let random = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("random");
    std::fs::create_dir_all(&random).expect("OUT_DIR is writable");
    for seed in RANDOM_SEEDS {
        let path = random.join(format!("svc{seed}.stitch.yaml"));
        std::fs::write(&path, stitchgen_tests::random::contract(seed)).expect("OUT_DIR is writable");
        contracts.push(path);
    }
    // Contracts with hostile names; `names.rs` includes each module, whatever its service is named.
    let mut includes = String::new();
    for (seed, module, text) in stitchgen_tests::names::sample() {
        let path = random.join(format!("names{seed}.stitch.json"));
        std::fs::write(&path, text).expect("OUT_DIR is writable");
        contracts.push(path);
        includes += &format!("stitchgen_runtime::include_contract!({module:?});\n");
    }
    std::fs::write(random.join("names.rs"), includes).expect("OUT_DIR is writable");
    println!("cargo:rerun-if-changed=../src/names.rs");
    stitchgen::Config::new().contracts(contracts).generate_to_out_dir().unwrap();
}
