//! The service built in memory from a contract (no generated Rust) and the one compiled here
//! from the same contracts: the same operation definitions, types document and MCP tool list,
//! value for value, for every fixture compiled by this crate's build script.

use stitchgen_generated_tests as compiled;
use stitchgen_runtime::OperationDef;

/// Each module compiled here: its name, catalog and types document.
macro_rules! modules {
    ($path:ident; $($m:ident),* $(,)?) => {
        [$((stringify!($m), compiled::$path::$m::CATALOG, compiled::$path::$m::TYPES)),*]
    };
    ($($m:ident),* $(,)?) => {
        [$((stringify!($m), compiled::$m::CATALOG, compiled::$m::TYPES)),*]
    };
}

type Compiled = (&'static str, &'static [&'static OperationDef], &'static str);

#[test]
fn every_compiled_module_is_the_service_built_in_memory() {
    let out = std::path::Path::new(env!("OUT_DIR"));
    // The contracts in the order the build script gives them: module names depend on it.
    let mut contracts: Vec<std::path::PathBuf> = std::fs::read_dir("../../fixtures/valid")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".stitch.yaml"))
        .collect();
    contracts.sort();
    contracts.extend((1..=4).map(|seed| out.join(format!("random/svc{seed}.stitch.yaml"))));
    contracts.extend(
        stitchgen_tests::names::sample()
            .into_iter()
            .map(|(seed, ..)| out.join(format!("random/names{seed}.stitch.json"))),
    );
    let checked = stitchgen::check_files(&contracts).unwrap();
    let services = stitchgen::memory::services(&checked).unwrap();
    let tools = std::fs::read_to_string(out.join("mcp-tools.json")).unwrap();
    assert!(services.iter().all(|s| s.mcp_tools == tools), "the MCP tool list is generate's, byte for byte");

    let fixtures: Vec<Compiled> = modules![
        answers,
        bot_status,
        bounds,
        r#box,
        default_beside_union,
        default_in_context,
        default_null,
        enum_beside_all_of,
        enum_plus_one,
        examples,
        fleet,
        fields_same_case,
        generated_input,
        hostile,
        inline_named,
        nullable_enum,
        nullable_shared_type,
        numeric_formats,
        one_of_all_of,
        one_of_enum,
        one_of_mixed,
        one_of_overlap,
        orders,
        people,
        projects,
        query_fields,
        ref_with_sibling,
        required_across,
        same_module,
        same_module_2,
        same_rust_name,
        sampling,
        scalar_union,
        shapes,
        tickets,
        title_names_type,
        types_same_rust_name,
        vault,
    ]
    .into();
    let random: Vec<Compiled> = modules![random; svc1, svc2, svc3, svc4].into();
    let mut compared = 0;
    for (name, catalog, types) in fixtures.into_iter().chain(random) {
        let name = name.trim_start_matches("r#");
        let memory = services.iter().find(|s| s.name == name).unwrap_or_else(|| panic!("no service `{name}`"));
        assert_eq!(format!("{:#?}", memory.catalog), format!("{catalog:#?}"), "{name}");
        assert_eq!(memory.types, types, "{name}");
        compared += 1;
    }
    assert_eq!(compared, 42);
}
