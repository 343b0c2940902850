//! What a description's own examples say about its formats: a `format: uri` whose documented
//! example is a relative reference (Twilio's `uri: /2010-04-01/Accounts/AC….json`, which its API
//! answers too) is the format `uri-reference`; kept as `uri`, the runner would refuse every such
//! answer as off its contract.

use std::collections::BTreeMap;

use serde_json::json;

use super::load::{Docs, Loc, escape};
use crate::parse::node::{Node, Value};

/// How far one example is followed into its schema, and how many schema nodes all examples
/// visit together: a description's examples are bounded input, but its `allOf` chains need not be.
const MAX_DEPTH: usize = 64;
const BUDGET: usize = 200_000;

/// Each schema (where it is written) whose `format: uri` (or `iri`) a documented example breaks
/// by being a relative reference, with that example.
pub(super) fn relative_references(docs: &Docs) -> BTreeMap<Loc, String> {
    let mut walk = Walk { docs, found: BTreeMap::new(), budget: BUDGET };
    for (doc, d) in docs.docs.iter().enumerate() {
        walk.scan(doc, &d.root, String::new(), "");
    }
    walk.found
}

struct Walk<'d> {
    docs: &'d Docs,
    found: BTreeMap<Loc, String>,
    budget: usize,
}

impl Walk<'_> {
    /// Finds every object that pairs a `schema` with `example` or `examples` (a media type, a
    /// parameter, a header) and walks each example value along that schema. A schema's own
    /// `example(s)` are walked along it too. Names under `properties` are property names.
    fn scan(&mut self, doc: usize, node: &Node, pointer: String, parent: &str) {
        match &node.value {
            Value::Map(entries) => {
                if parent != "properties" {
                    self.examples_of(doc, node, &pointer);
                }
                for (k, v) in entries {
                    let key = k.as_str().unwrap_or_default();
                    self.scan(doc, v, format!("{pointer}/{}", escape(key)), key);
                }
            }
            Value::Seq(items) => {
                for (i, v) in items.iter().enumerate() {
                    self.scan(doc, v, format!("{pointer}/{i}"), "");
                }
            }
            _ => {}
        }
    }

    fn examples_of(&mut self, doc: usize, node: &Node, pointer: &str) {
        let (schema, schema_at) = match node.get("schema") {
            Some(s) if s.as_map().is_some() => (s, format!("{pointer}/schema")),
            // A schema with examples of its own.
            _ if node.get("type").is_some() || node.get("format").is_some() => (node, pointer.to_owned()),
            _ => return,
        };
        let mut values: Vec<&Node> = node.get("example").into_iter().collect();
        match node.get("examples").map(|e| &e.value) {
            Some(Value::Seq(list)) => values.extend(list),
            Some(Value::Map(named)) => {
                for (_, e) in named {
                    let (_, e) = self.docs.deref(Loc { doc, pointer: String::new() }, e);
                    values.extend(e.get("value"));
                }
            }
            _ => {}
        }
        for value in values {
            self.value(value, Loc { doc, pointer: schema_at.clone() }, schema, 0);
        }
    }

    /// Walks `value` along the schema `schema` written at `loc`.
    fn value(&mut self, value: &Node, loc: Loc, schema: &Node, depth: usize) {
        if depth > MAX_DEPTH || self.budget == 0 {
            return;
        }
        self.budget -= 1;
        let (loc, schema) = self.docs.deref(loc, schema);
        // A `$ref` beside other keywords: the referenced schema applies too.
        if let Some(target) = schema.get("$ref").and_then(Node::as_str).and_then(|r| self.docs.follow(loc.doc, r))
            && target != loc
            && let Some(referenced) = self.docs.node(&target)
        {
            self.value(value, target, referenced, depth + 1);
        }
        for kw in ["allOf", "anyOf", "oneOf"] {
            for (i, branch) in schema.get(kw).and_then(Node::as_seq).unwrap_or_default().iter().enumerate() {
                self.value(value, child(&loc, &format!("{kw}/{i}")), branch, depth + 1);
            }
        }
        match &value.value {
            Value::String(text) => self.string(text, &loc, schema),
            Value::Map(entries) => {
                let properties = schema.get("properties");
                let more = schema.get("additionalProperties").filter(|s| s.as_map().is_some());
                for (k, v) in entries {
                    let name = k.as_str().unwrap_or_default();
                    if let Some(p) = properties.and_then(|ps| ps.get(name)) {
                        self.value(v, child(&loc, &format!("properties/{}", escape(name))), p, depth + 1);
                    } else if let Some(more) = more {
                        self.value(v, child(&loc, "additionalProperties"), more, depth + 1);
                    }
                }
            }
            Value::Seq(items) => {
                if let Some(item) = schema.get("items").filter(|s| s.as_map().is_some()) {
                    for v in items {
                        self.value(v, child(&loc, "items"), item, depth + 1);
                    }
                }
            }
            _ => {}
        }
    }

    fn string(&mut self, text: &str, loc: &Loc, schema: &Node) {
        let Some(format @ ("uri" | "iri")) = schema.get("format").and_then(Node::as_str) else { return };
        // A text with a scheme is never refused for being relative: most examples of a `uri`
        // are absolute, and each needs no validator compiled for it.
        if self.found.contains_key(loc) || has_scheme(text) {
            return;
        }
        let value = json!(text);
        let types = crate::schema::Types::new(None);
        let fails = |f: &str| {
            let alone = Node::from_json(&json!({ "format": f }), schema.span);
            crate::schema::first_violation(types, &alone, &value, "schema").is_some()
        };
        if fails(format) && !fails(&format!("{format}-reference")) {
            self.found.insert(loc.clone(), text.to_owned());
        }
    }
}

/// Whether `text` begins with a URI scheme (RFC 3986: a letter, then letters, digits, `+`, `-`
/// or `.`, then `:`).
fn has_scheme(text: &str) -> bool {
    let Some((scheme, _)) = text.split_once(':') else { return false };
    scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// The schema under `loc` at the relative pointer `rest` (already escaped).
fn child(loc: &Loc, rest: &str) -> Loc {
    Loc { doc: loc.doc, pointer: format!("{}/{rest}", loc.pointer) }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_scheme_is_what_rfc_3986_calls_one() {
        for text in ["https://example.com/", "urn:isbn:1", "git+ssh://h/r", "mailto:a@b"] {
            assert!(super::has_scheme(text), "{text}");
        }
        for text in ["", "/2010-04-01/Calls.json", "a/b:c", "1x:y", "?q=a:b", "./x"] {
            assert!(!super::has_scheme(text), "{text}");
        }
    }
}
