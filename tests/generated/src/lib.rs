//! The code stitchgen generates for every valid fixture, compiled in a crate that depends on
//! `stitchgen-runtime` alone, with every warning and every missing doc an error.
#![deny(warnings, missing_docs)]

stitchgen_runtime::include_contract!("answers");
stitchgen_runtime::include_contract!("bot_status");
stitchgen_runtime::include_contract!("bounds");
stitchgen_runtime::include_contract!("client_profiles");
stitchgen_runtime::include_contract!("box");
stitchgen_runtime::include_contract!("default_beside_union");
stitchgen_runtime::include_contract!("default_in_context");
stitchgen_runtime::include_contract!("default_null");
stitchgen_runtime::include_contract!("enum_beside_all_of");
stitchgen_runtime::include_contract!("enum_plus_one");
stitchgen_runtime::include_contract!("error_answers");
stitchgen_runtime::include_contract!("examples");
stitchgen_runtime::include_contract!("fleet");
stitchgen_runtime::include_contract!("fields_same_case");
stitchgen_runtime::include_contract!("generated_input");
stitchgen_runtime::include_contract!("hostile");
stitchgen_runtime::include_contract!("inline_named");
stitchgen_runtime::include_contract!("nullable_enum");
stitchgen_runtime::include_contract!("nullable_shared_type");
stitchgen_runtime::include_contract!("numeric_formats");
stitchgen_runtime::include_contract!("one_of_all_of");
stitchgen_runtime::include_contract!("one_of_enum");
stitchgen_runtime::include_contract!("one_of_mixed");
stitchgen_runtime::include_contract!("one_of_overlap");
stitchgen_runtime::include_contract!("orders");
stitchgen_runtime::include_contract!("people");
stitchgen_runtime::include_contract!("projects");
stitchgen_runtime::include_contract!("query_fields");
stitchgen_runtime::include_contract!("read_write_only");
stitchgen_runtime::include_contract!("ref_with_sibling");
stitchgen_runtime::include_contract!("request_parts");
stitchgen_runtime::include_contract!("required_across");
stitchgen_runtime::include_contract!("rulesets");
stitchgen_runtime::include_contract!("same_module");
stitchgen_runtime::include_contract!("same_module_2");
stitchgen_runtime::include_contract!("same_rust_name");
stitchgen_runtime::include_contract!("sampling");
stitchgen_runtime::include_contract!("scalar_union");
stitchgen_runtime::include_contract!("several_successes");
stitchgen_runtime::include_contract!("shapes");
stitchgen_runtime::include_contract!("tickets");
stitchgen_runtime::include_contract!("title_names_type");
stitchgen_runtime::include_contract!("types_same_rust_name");
stitchgen_runtime::include_contract!("vault");
stitchgen_runtime::include_contract!("wide_integers");

/// A sample of random valid contracts (`stitchgen_tests::random`), compiled like the fixtures.
pub mod random {
    stitchgen_runtime::include_contract!("svc1");
    stitchgen_runtime::include_contract!("svc2");
    stitchgen_runtime::include_contract!("svc3");
    stitchgen_runtime::include_contract!("svc4");
}

/// The contract imported (with `--expose`) from every OpenAPI fixture that imports
/// (`fixtures/import`): what passed `check` compiles.
pub mod imported {
    include!(concat!(env!("OUT_DIR"), "/random/imported/imported.rs"));
}

/// A sample of contracts with hostile names at every level (`stitchgen_tests::names`): keywords,
/// unicode, punctuation, spellings of one case form.
pub mod names {
    include!(concat!(env!("OUT_DIR"), "/random/names.rs"));
}
