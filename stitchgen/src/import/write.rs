//! Writing the imported contract: fixed key order, two-space YAML, a header naming the source.

use std::path::Path;

use serde_json::{Value as J, json};

use crate::parse::node::Node;

/// Where editors find the DSL's JSON Schema.
const SCHEMA_URL: &str = "https://raw.githubusercontent.com/stitchgen/stitchgen/main/schema/stitch.schema.json";

/// Everything the written contract holds.
pub(super) struct Contract<'a> {
    /// The entry document.
    pub(super) root: &'a Node,
    /// Its OpenAPI version.
    pub(super) version: &'a str,
    /// Its path, of which only the file name is written.
    pub(super) entry: &'a Path,
    /// The contract's service name.
    pub(super) service: String,
    /// `types` (in the order first met) and `endpoints` (in path order).
    pub(super) body: J,
    /// Whether the tools are presented in search mode.
    pub(super) search: bool,
}

impl Contract<'_> {
    /// The contract's YAML text.
    pub(super) fn render(self) -> Result<String, String> {
        let info = self.root.get("info");
        let text = |k: &str| {
            info.and_then(|i| i.get(k)).map(|v| v.as_str().map_or_else(|| v.to_json().to_string(), str::to_owned))
        };
        let (title, version) = (text("title"), text("version"));
        let mut doc = json!({ "stitch": 1, "service": self.service });
        if let Some(t) = title.as_ref().filter(|t| !t.trim().is_empty()) {
            doc["title"] = J::String(t.clone());
        }
        if let Some(v) = version.as_ref().filter(|v| !v.trim().is_empty()) {
            doc["version"] = J::String(v.clone());
        }
        doc["basePath"] = J::String("/".into());
        doc["toolExposure"] = J::String("explicit".into());
        if self.search {
            doc["toolDiscovery"] = J::String("search".into());
        }
        let mut body = self.body;
        for key in ["securitySchemes", "security"] {
            if let Some(v) = body.get_mut(key).map(J::take) {
                doc[key] = v;
            }
        }
        if body["types"].as_object().is_some_and(|t| !t.is_empty()) {
            doc["types"] = body["types"].take();
        }
        doc["endpoints"] = body["endpoints"].take();
        let file = self.entry.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
        let about = match (&title, &version) {
            (Some(t), Some(v)) => format!(": {} {}", one_line(t), one_line(v)),
            (Some(t), None) => format!(": {}", one_line(t)),
            _ => String::new(),
        };
        let yaml = serde_saphyr::to_string(&doc).map_err(|e| format!("writing the contract: {e}"))?;
        read_back(&yaml, &doc)?;
        Ok(format!(
            "# yaml-language-server: $schema={SCHEMA_URL}\n# Imported by `stitchgen import` from {file} (OpenAPI {}){about}.\n{yaml}",
            one_line(self.version)
        ))
    }
}

/// The written YAML read as `check` reads it must be the contract meant: a string the writer
/// left unquoted that the reader takes for another value, or a folded line that loses a space,
/// would change the API silently.
fn read_back(yaml: &str, meant: &J) -> Result<(), String> {
    match crate::parse::yaml_values(yaml) {
        Some(read) if &read == meant => Ok(()),
        Some(_) => Err("the written contract reads back as other data".into()),
        None => Err("the written contract does not read back as YAML".into()),
    }
}

/// Text fit for a one-line comment.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
