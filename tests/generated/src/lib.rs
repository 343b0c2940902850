//! The code stitchgen generates for every valid fixture, compiled in a crate that depends on
//! `stitchgen-runtime` alone, with every warning and every missing doc an error.
#![deny(warnings, missing_docs)]

stitchgen_runtime::include_contract!("bot_status");
stitchgen_runtime::include_contract!("hostile");
stitchgen_runtime::include_contract!("people");
stitchgen_runtime::include_contract!("projects");
stitchgen_runtime::include_contract!("tickets");
