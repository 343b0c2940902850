//! The JSON Schema of the contract DSL itself, for editors (`stitchgen schema`).

use crate::parse::ast::Contract;

/// The DSL's JSON Schema (draft 2020-12), derived from the AST, as pretty JSON with a trailing newline.
pub fn schema_json() -> String {
    let schema = schemars::schema_for!(Contract);
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema serializes");
    text.push('\n');
    text
}
