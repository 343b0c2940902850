//! Keys an answer carries that its schema does not declare: valid (JSON Schema allows them unless
//! told otherwise) and passed on, but the sign of an origin drifting from its contract, or of a
//! map-typed handler output. Found as paths (`/people/*/ssn`), never values.

use std::collections::BTreeSet;

use serde_json::Value;

/// How deep the walk goes: an answer nested deeper is not looked at further.
const MAX_DEPTH: usize = 64;

/// The schemas an answer is read against: its own (for `#/…` references) and the module's
/// types document (for `urn:stitchgen:types#/…`).
pub(crate) struct Schemas<'a> {
    pub(crate) root: &'a Value,
    pub(crate) types: &'a Value,
}

impl Schemas<'_> {
    /// The paths of the keys in `value` that `schema` declares nowhere: not among the
    /// `properties` of the schema or of any schema it composes (`allOf`, `anyOf`, `oneOf`,
    /// `$ref`), and not covered by a schema of `additionalProperties` or `patternProperties` (a
    /// map). Array items and map entries are written `*`, so one path stands for all of them.
    pub(crate) fn undeclared(&self, value: &Value, schema: &Value) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        self.walk(value, schema, &mut String::new(), &mut out, 0);
        out
    }

    fn walk(&self, value: &Value, schema: &Value, at: &mut String, out: &mut BTreeSet<String>, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let mut branches = Vec::new();
        self.flatten(schema, &mut branches, 0);
        match value {
            Value::Object(map) => {
                for (key, item) in map {
                    let declared = branches.iter().find_map(|s| s.get("properties")?.get(key));
                    let map_entry = branches.iter().find_map(|s| {
                        s.get("additionalProperties").filter(|a| a.is_object()).or(s.get("patternProperties"))
                    });
                    let len = at.len();
                    match (declared, map_entry) {
                        (Some(sub), _) => {
                            at.push('/');
                            at.push_str(&escape(key));
                            self.walk(item, sub, at, out, depth + 1);
                        }
                        (None, Some(entries)) => {
                            at.push_str("/*");
                            // `patternProperties` holds several schemas: the walk stops there.
                            if entries.get("type").is_some() || entries.get("$ref").is_some() {
                                self.walk(item, entries, at, out, depth + 1);
                            }
                        }
                        (None, None) => {
                            at.push('/');
                            at.push_str(&escape(key));
                            out.insert(at.clone());
                        }
                    }
                    at.truncate(len);
                }
            }
            Value::Array(items) => {
                let Some(each) = branches.iter().find_map(|s| s.get("items")) else { return };
                let len = at.len();
                at.push_str("/*");
                for item in items {
                    self.walk(item, each, at, out, depth + 1);
                }
                at.truncate(len);
            }
            _ => {}
        }
    }

    /// `schema` and every schema it composes, references followed, each once: a schema that
    /// composes itself (`anyOf: [{$ref: Node}, {$ref: Node}]`) is walked once, not 2^depth times.
    fn flatten<'s>(&'s self, schema: &'s Value, out: &mut Vec<&'s Value>, depth: usize) {
        if depth > MAX_DEPTH || out.iter().any(|seen| std::ptr::eq(*seen, schema)) {
            return;
        }
        out.push(schema);
        if let Some(target) = self.target(schema) {
            self.flatten(target, out, depth + 1);
        }
        for key in ["allOf", "anyOf", "oneOf"] {
            for branch in schema.get(key).and_then(Value::as_array).into_iter().flatten() {
                self.flatten(branch, out, depth + 1);
            }
        }
    }

    /// The schema `schema`'s `$ref` points to, when it has one that resolves.
    fn target(&self, schema: &Value) -> Option<&Value> {
        let target = schema.get("$ref").and_then(Value::as_str)?;
        match target.split_once('#')? {
            ("", pointer) => self.root.pointer(pointer),
            (uri, pointer) if uri == crate::TYPES_URI => self.types.pointer(pointer),
            _ => None,
        }
    }
}

/// A key as a JSON pointer token (RFC 6901).
fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::Schemas;

    #[test]
    fn a_key_no_schema_declares_is_found_by_its_path_and_a_map_entry_is_not() {
        let types = json!({ "$defs": { "Person": { "type": "object", "properties": { "id": {}, "tags": {
            "type": "object", "additionalProperties": { "type": "string" } } } } } });
        let root = json!({ "type": "object", "properties": { "people": { "type": "array", "items": {
            "$ref": "urn:stitchgen:types#/$defs/Person" } }, "total": {} },
            "allOf": [{ "properties": { "next": {} } }] });
        let schemas = Schemas { root: &root, types: &types };
        let answer = json!({ "total": 2, "next": null, "debug": true, "people": [
            { "id": "p1", "ssn": "1", "tags": { "a": "x" } }, { "id": "p2", "ssn": "2", "a/b": 1 } ] });
        let found: Vec<String> = schemas.undeclared(&answer, &root).into_iter().collect();
        assert_eq!(found, ["/debug", "/people/*/a~1b", "/people/*/ssn"]);
    }

    #[test]
    fn a_schema_that_composes_itself_is_walked_once() {
        let types = json!({ "$defs": { "Node": { "properties": { "next": { "$ref": "urn:stitchgen:types#/$defs/Node" } },
            "anyOf": [{ "$ref": "urn:stitchgen:types#/$defs/Node" }, { "$ref": "urn:stitchgen:types#/$defs/Node" }] } } });
        let root = json!({ "$ref": "urn:stitchgen:types#/$defs/Node" });
        let schemas = Schemas { root: &root, types: &types };
        let mut answer = json!({ "extra": 1 });
        for _ in 0..100 {
            answer = json!({ "next": answer });
        }
        let found = schemas.undeclared(&answer, &root);
        // Past the depth bound the walk stops; no path is invented, and it ends at once.
        assert!(found.iter().all(|p| p.ends_with("/extra")), "{found:?}");
    }
}
