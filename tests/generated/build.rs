//! Generates every valid fixture, the contract imported from every OpenAPI fixture that imports
//! (with `--expose`), and a sample of random valid contracts, together, with the build.rs API
//! users call.

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
    imported(&random.join("imported"));
    // With the MCP clients' profiles: `MCP_PROFILES` is served and called in `mcp_profiles.rs`.
    let config = [stitchgen::Profile::Cursor, stitchgen::Profile::VsCode, stitchgen::Profile::ClaudeCode]
        .into_iter()
        .fold(stitchgen::Config::new(), stitchgen::Config::profile);
    config.contracts(contracts).allow(warnings()).generate_to_out_dir().unwrap();
}

/// Every warning code: the fixtures here are meant to warn, and `tests/tests/fixtures.rs` holds
/// each to the warnings it declares, so none is news in the test output.
fn warnings() -> impl Iterator<Item = stitchgen::diag::Code> {
    use stitchgen::diag::{Code, Severity};
    Code::ALL.iter().copied().filter(|c| c.severity() == Severity::Warning)
}

/// Imports (with `--expose`) every OpenAPI fixture that imports: those under
/// `fixtures/import/valid`, the warning fixtures (`W…`) under `fixtures/import/diagnostics`, and
/// its references that point nowhere (`E0902…`) with `--lenient`.
/// Each is service `imported_NAME`, generated on its own (the imported APIs' routes may overlap
/// the fixtures') into `dir/NAME/`; `dir/imported.rs` includes them.
fn imported(dir: &std::path::Path) {
    use stitchgen::import::{ImportOptions, import};
    std::fs::create_dir_all(dir).expect("OUT_DIR is writable");
    let mut cases = Vec::new();
    for folder in ["valid", "diagnostics"] {
        let root = std::path::Path::new("../../fixtures/import").join(folder);
        println!("cargo:rerun-if-changed={}", root.display());
        for e in std::fs::read_dir(&root).expect("fixtures/import exists") {
            let path = e.expect("a directory entry").path();
            let name = path.file_name().expect("a name").to_string_lossy().into_owned();
            // Warnings import as written; references that point nowhere import with `--lenient`.
            let lenient = name.starts_with("E0902");
            if folder == "diagnostics" && !name.starts_with('W') && !lenient {
                continue;
            }
            let stem =
                if path.is_dir() { name.clone() } else { name.rsplit_once('.').expect("an extension").0.to_owned() };
            let entry = if path.is_dir() { path.join("openapi.yaml") } else { path };
            cases.push((stem, entry, lenient));
        }
    }
    cases.sort();
    let mut includes = String::new();
    for (stem, entry, lenient) in cases {
        let service = format!("imported_{}", stem.to_lowercase().replace(|c: char| !c.is_ascii_alphanumeric(), "_"));
        let options = ImportOptions { service: Some(service.clone()), expose: true, lenient, search: false };
        let imported = import(&entry, &options).unwrap_or_else(|e| panic!("{}: {e}", entry.display()));
        let contract = imported.contract.unwrap_or_else(|| panic!("{}: the import failed", entry.display()));
        let own = dir.join(&service);
        std::fs::create_dir_all(&own).expect("OUT_DIR is writable");
        let path = own.join(format!("{service}.stitch.yaml"));
        std::fs::write(&path, contract).expect("OUT_DIR is writable");
        stitchgen::Config::new().contracts([path]).out_dir(&own).allow(warnings()).generate_to_out_dir().unwrap();
        let module = format!("/random/imported/{service}/{service}.rs");
        includes += &format!("include!(concat!(env!(\"OUT_DIR\"), {module:?}));\n");
    }
    std::fs::write(dir.join("imported.rs"), includes).expect("OUT_DIR is writable");
}
