//! A valid value of a contract's JSON Schema, made without a model: each keyword the fixtures use
//! read as its author meant, candidates tried in turn (the generated value, `examples`,
//! `default`, each `oneOf` branch) and the first the schema accepts kept.

use serde_json::{Map, Value, json};

/// Where the generated module's schemas refer to its types document.
const TYPES_URI: &str = "urn:stitchgen:types";

/// Makes values of the schemas of one generated module (`types`, its types document).
pub(crate) struct Sampler {
    types: Value,
    registry: jsonschema::Registry<'static>,
}

impl Sampler {
    pub(crate) fn new(types: &str) -> Self {
        let types: Value = serde_json::from_str(types).expect("the types document is JSON");
        let registry = jsonschema::Registry::new()
            .add(TYPES_URI, jsonschema::Resource::from_contents(types.clone()))
            .and_then(|r| r.prepare())
            .expect("the types document registers");
        Sampler { types, registry }
    }

    /// A validator of `schema` that resolves the types document as the runner does.
    pub(crate) fn validator(&self, schema: &Value) -> jsonschema::Validator {
        jsonschema::options()
            .with_registry(&self.registry)
            .should_validate_formats(true)
            .build(schema)
            .unwrap_or_else(|e| panic!("the schema compiles: {e}: {schema}"))
    }

    /// A value `schema` accepts, or `None` when no candidate passes.
    pub(crate) fn valid(&self, schema: &str) -> Option<Value> {
        let schema: Value = serde_json::from_str(schema).expect("a schema is JSON");
        let validator = self.validator(&schema);
        self.candidates(&schema, &schema, 0).into_iter().find(|v| validator.is_valid(v))
    }

    /// Values worth trying for `schema`, the most complete first.
    fn candidates(&self, root: &Value, schema: &Value, depth: usize) -> Vec<Value> {
        let mut out = Vec::new();
        if let Some(c) = schema.get("const") {
            return vec![c.clone()];
        }
        if let Some(values) = schema.get("enum").and_then(Value::as_array) {
            return values.iter().filter(|v| !v.is_null()).chain(values.iter()).cloned().collect();
        }
        for key in ["oneOf", "anyOf"] {
            for branch in schema.get(key).and_then(Value::as_array).into_iter().flatten() {
                out.extend(self.candidates(root, &merged(schema, key, branch), depth + 1));
            }
        }
        let examples = schema.get("examples").and_then(Value::as_array).into_iter().flatten().cloned();
        if schema.get("pattern").is_some() {
            out.extend(examples.clone());
        }
        out.push(self.make(root, schema, depth));
        out.extend(examples);
        out.extend(schema.get("default").cloned());
        out
    }

    /// The schema `reference` points to: a type of the types document, or a part of `root`.
    fn target<'a>(&'a self, root: &'a Value, reference: &str) -> &'a Value {
        let (doc, pointer) = match reference.split_once('#') {
            Some((TYPES_URI, pointer)) => (&self.types, pointer),
            Some(("", pointer)) => (root, pointer),
            _ => panic!("a reference the fixtures do not use: {reference}"),
        };
        doc.pointer(pointer).unwrap_or_else(|| panic!("`{reference}` points nowhere"))
    }

    /// One value built keyword by keyword.
    fn make(&self, root: &Value, schema: &Value, depth: usize) -> Value {
        if let Some(r) = schema.get("$ref").and_then(Value::as_str) {
            let target = self.target(root, r);
            let candidates =
                self.candidates(if r.starts_with(TYPES_URI) { &self.types } else { root }, target, depth + 1);
            // A type of the types document stands alone: keep the first value it accepts.
            let check = r.starts_with(TYPES_URI).then(|| self.validator(&json!({ "$ref": r })));
            let mut valid = candidates.iter().filter(|v| check.as_ref().is_none_or(|c| c.is_valid(v)));
            return valid.next().or(candidates.first()).cloned().unwrap_or(Value::Null);
        }
        if let Some(parts) = schema.get("allOf").and_then(Value::as_array) {
            let values: Vec<Value> = parts.iter().map(|part| self.make(root, part, depth + 1)).collect();
            if !values.iter().any(Value::is_object) && kind(schema) != "object" {
                // `allOf: [{$ref: …}]` beside a default: a value of the part.
                return values.into_iter().next().unwrap_or(Value::Null);
            }
            let mut all = Map::new();
            for value in values {
                if let Value::Object(map) = value {
                    all.extend(map);
                }
            }
            if let Value::Object(own) = self.object(root, schema, depth) {
                all.extend(own);
            }
            return Value::Object(all);
        }
        match kind(schema) {
            "object" => self.object(root, schema, depth),
            "array" => {
                let items = schema.get("items").cloned().unwrap_or(json!({}));
                let count = schema.get("minItems").and_then(Value::as_u64).unwrap_or(1).max(1);
                let count = if depth > 4 { schema.get("minItems").and_then(Value::as_u64).unwrap_or(0) } else { count };
                if count == 0 {
                    return json!([]);
                }
                let item = self.candidates(root, &items, depth + 1).into_iter().next().unwrap_or(Value::Null);
                Value::Array(vec![item; count as usize])
            }
            "string" => string(schema),
            "integer" => number(schema, true),
            "number" => number(schema, false),
            "boolean" => Value::Bool(true),
            "null" => Value::Null,
            _ => json!("any"),
        }
    }

    /// Every property (only the required ones past a depth, where types may recurse).
    fn object(&self, root: &Value, schema: &Value, depth: usize) -> Value {
        let required: Vec<&str> =
            schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        let mut map = Map::new();
        for (name, property) in schema.get("properties").and_then(Value::as_object).into_iter().flatten() {
            if depth > 3 && !required.contains(&name.as_str()) {
                continue;
            }
            let value = self.candidates(root, property, depth + 1).into_iter().next().unwrap_or(Value::Null);
            map.insert(name.clone(), value);
        }
        for name in required {
            map.entry(name.to_owned()).or_insert_with(|| json!("any"));
        }
        if let Some(values) = schema.get("additionalProperties").filter(|a| a.is_object())
            && map.is_empty()
            && depth <= 3
        {
            let value = self.candidates(root, values, depth + 1).into_iter().next().unwrap_or(Value::Null);
            map.insert("key".into(), value);
        }
        Value::Object(map)
    }
}

/// `schema` with its `key` combinator replaced by one `branch`, so siblings still apply.
fn merged(schema: &Value, key: &str, branch: &Value) -> Value {
    let mut whole = schema.as_object().cloned().unwrap_or_default();
    whole.remove(key);
    let mut branch = branch.as_object().cloned().unwrap_or_default();
    for (k, v) in whole {
        match (branch.get_mut(&k), v) {
            (Some(Value::Object(mine)), Value::Object(theirs)) if k == "properties" => {
                for (name, s) in theirs {
                    mine.entry(name).or_insert(s);
                }
            }
            (Some(_), _) => {}
            (None, v) => {
                branch.insert(k, v);
            }
        }
    }
    Value::Object(branch)
}

/// The first non-null type a schema names, or what its keywords imply.
fn kind(schema: &Value) -> &str {
    match schema.get("type") {
        Some(Value::String(t)) => t,
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).find(|t| *t != "null").unwrap_or("null"),
        _ if schema.get("properties").is_some() => "object",
        _ if schema.get("items").is_some() => "array",
        _ => "",
    }
}

fn string(schema: &Value) -> Value {
    let format = schema.get("format").and_then(Value::as_str).unwrap_or_default();
    let text = match format {
        "date-time" => "2026-01-02T03:04:05Z".to_owned(),
        "date" => "2026-01-02".to_owned(),
        "time" => "03:04:05Z".to_owned(),
        "email" => "ada@example.com".to_owned(),
        "uuid" => "5f0c3e8e-1b2a-4c3d-9e8f-0a1b2c3d4e5f".to_owned(),
        "uri" | "url" => "https://example.com/a".to_owned(),
        "hostname" => "example.com".to_owned(),
        "ipv4" => "192.0.2.1".to_owned(),
        "ipv6" => "2001:db8::1".to_owned(),
        _ => schema.get("pattern").and_then(Value::as_str).and_then(matching).unwrap_or("sample text/?#%".into()),
    };
    let min = schema.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    let max = schema.get("maxLength").and_then(Value::as_u64).map_or(usize::MAX, |m| m as usize);
    let mut text: String = text.chars().take(max).collect();
    while text.chars().count() < min {
        text.push('x');
    }
    Value::String(text)
}

/// A text an anchored pattern of literals, classes and counts matches (`^T-[0-9]{6}$`), or
/// `None` for anything more (groups, alternatives).
fn matching(pattern: &str) -> Option<String> {
    let body = pattern.strip_prefix('^')?.strip_suffix('$')?;
    let mut chars = body.chars().peekable();
    let mut out = String::new();
    while let Some(c) = chars.next() {
        let one = match c {
            '[' => {
                let class: String = chars.by_ref().take_while(|c| *c != ']').collect();
                class.chars().next()?
            }
            '\\' => match chars.next()? {
                'd' => '7',
                'w' => 'a',
                other => other,
            },
            '(' | ')' | '|' | '.' | '*' | '+' | '?' | '{' => return None,
            literal => literal,
        };
        let count = match chars.peek() {
            Some('{') => {
                chars.next();
                let n: String = chars.by_ref().take_while(|c| *c != '}').collect();
                n.split(',').next()?.parse().ok()?
            }
            Some('+') => {
                chars.next();
                1
            }
            Some('*' | '?') => {
                chars.next();
                0
            }
            _ => 1,
        };
        out.extend(std::iter::repeat_n(one, count));
    }
    Some(out)
}

fn number(schema: &Value, integer: bool) -> Value {
    let get = |k: &str| schema.get(k).and_then(Value::as_f64);
    let (min, xmin, max, xmax) = (get("minimum"), get("exclusiveMinimum"), get("maximum"), get("exclusiveMaximum"));
    let n = if integer {
        let low = min.or(xmin.map(|m| m.floor() + 1.0));
        let high = max.or(xmax.map(|m| m.ceil() - 1.0));
        match (low, high) {
            (Some(low), _) => low,
            (None, Some(high)) => high.min(3.0),
            (None, None) => 3.0,
        }
    } else {
        match (min.or(xmin), max.or(xmax)) {
            (Some(low), Some(high)) => (low + high) / 2.0,
            (Some(low), None) => low + 1.5,
            (None, Some(high)) => high.min(3.0) - 0.5,
            (None, None) => 2.5,
        }
    };
    let n = match get("multipleOf") {
        Some(step) => (n / step).ceil() * step,
        None => n,
    };
    if integer { json!(n as i64) } else { json!(n) }
}
