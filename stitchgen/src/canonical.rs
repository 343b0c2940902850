//! Canonical JSON (RFC 8785) and the short digests built on it.

use serde_json::Value;
use sha2::{Digest, Sha256};

/// The canonical JSON text of `value`: keys sorted by UTF-16 code units, no whitespace,
/// numbers in ECMAScript form, and every `required` array of strings sorted first, so that
/// the order properties are written in never moves a digest.
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    value.write_canonical(&mut out);
    out
}

/// What writes itself as canonical JSON: a [`Value`], a string, or a borrowed record (a tool's
/// manifest entry) hashed as it stands rather than copied into a value first.
pub trait Canonical {
    /// Appends the canonical JSON text of `self` to `out`.
    fn write_canonical(&self, out: &mut String);
}

impl Canonical for Value {
    fn write_canonical(&self, out: &mut String) {
        write(self, out);
    }
}

impl<T: Canonical + ?Sized> Canonical for Box<T> {
    fn write_canonical(&self, out: &mut String) {
        (**self).write_canonical(out);
    }
}

impl Canonical for str {
    fn write_canonical(&self, out: &mut String) {
        write_str(self, out);
    }
}

/// An object of `entries` (each key once), its keys sorted as RFC 8785 sorts them.
pub(crate) fn write_object(mut entries: Vec<(&str, &dyn Canonical)>, out: &mut String) {
    entries.sort_by(|a, b| utf16_order(a.0, b.0));
    joined(out, ('{', '}'), entries, |(key, value), out| {
        write_str(key, out);
        out.push(':');
        value.write_canonical(out);
    });
}

/// `items` written by `each` between `brackets`, a comma between each two.
fn joined<T>(
    out: &mut String,
    brackets: (char, char),
    items: impl IntoIterator<Item = T>,
    mut each: impl FnMut(T, &mut String),
) {
    out.push(brackets.0);
    for (i, item) in items.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        each(item, out);
    }
    out.push(brackets.1);
}

/// A `required` array's names, sorted: the order properties are written in never moves a digest.
struct Required<'a>(Vec<&'a str>);

impl Canonical for Required<'_> {
    fn write_canonical(&self, out: &mut String) {
        joined(out, ('[', ']'), &self.0, |name, out| write_str(name, out));
    }
}

/// The first 16 lowercase hex characters of the SHA-256 of the canonical JSON of `value`.
pub fn digest(value: &Value) -> String {
    let hash = Sha256::digest(canonical(value).as_bytes());
    hash.iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The [`digest`] of the array of `items`, hashed an item at a time: a catalog's every tool is
/// never spelled out in one value, or one text, at once.
pub fn list_digest<T: Canonical>(items: impl IntoIterator<Item = T>) -> String {
    let mut hash = Sha256::new();
    let mut text = String::new();
    hash.update(b"[");
    for (i, item) in items.into_iter().enumerate() {
        text.clear();
        if i > 0 {
            text.push(',');
        }
        item.write_canonical(&mut text);
        hash.update(text.as_bytes());
    }
    hash.update(b"]");
    hash.finalize().iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// The digest of a schema (digest version 2): every entry of the root's `$defs` stands as its
/// own [`digest`], so that a type many schemas share is hashed once, not once per schema that
/// reaches it; a schema without `$defs` has its plain [`digest`]. It still moves when and only
/// when a byte of the schema does.
pub fn schema_digest(schema: &Value) -> String {
    match schema.get("$defs").and_then(Value::as_object) {
        Some(defs) => {
            let defs = defs.iter().map(|(k, v)| (k.clone(), Value::String(digest(v)))).collect();
            digest(&with_defs(schema, defs))
        }
        None => digest(schema),
    }
}

/// `schema` with its `$defs` replaced by `defs` (the entries' digests).
pub(crate) fn with_defs(schema: &Value, defs: serde_json::Map<String, Value>) -> Value {
    let mut root: serde_json::Map<String, Value> = schema
        .as_object()
        .into_iter()
        .flatten()
        .filter(|(k, _)| *k != "$defs")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    root.insert("$defs".into(), Value::Object(defs));
    Value::Object(root)
}

fn write(value: &Value, out: &mut String) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number(n)),
        Value::String(s) => write_str(s, out),
        Value::Array(items) => joined(out, ('[', ']'), items, write),
        Value::Object(map) => {
            let required = map.get("required").and_then(Value::as_array).and_then(|items| {
                let mut names: Vec<&str> = items.iter().map(Value::as_str).collect::<Option<_>>()?;
                names.sort_unstable();
                Some(Required(names))
            });
            let entries = map
                .iter()
                .map(|(k, v)| match (k.as_str(), &required) {
                    ("required", Some(names)) => (k.as_str(), names as &dyn Canonical),
                    _ => (k.as_str(), v as &dyn Canonical),
                })
                .collect();
            write_object(entries, out);
        }
    }
}

/// `s` as a JSON string, escaped as serde_json escapes it (RFC 8785 §3.2.2.2): only `"`, `\`
/// and control characters are, so text without them is written as it stands.
fn write_str(s: &str, out: &mut String) {
    if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(&serde_json::to_string(s).expect("strings serialize"));
    } else {
        out.push('"');
        out.push_str(s);
        out.push('"');
    }
}

/// Keys in UTF-16 code unit order, as RFC 8785 sorts them. UTF-8 byte order is the same except
/// where a character past U+FFFF meets one in U+E000..=U+FFFF, so only text with one of those
/// pays for the UTF-16 comparison.
fn utf16_order(a: &str, b: &str) -> std::cmp::Ordering {
    let plain = |s: &str| !s.chars().any(|c| c >= '\u{e000}');
    if plain(a) && plain(b) { a.cmp(b) } else { a.encode_utf16().cmp(b.encode_utf16()) }
}

/// ECMAScript `Number.prototype.toString` for finite doubles (RFC 8785 §3.2.2.3).
fn number(n: &serde_json::Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f == 0.0 {
        return "0".into();
    }
    // Shortest round-trip digits and exponent, then laid out the ECMAScript way.
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').expect("`{:e}` has an exponent");
    let exp: i32 = exp.parse().expect("integer exponent");
    let negative = mantissa.starts_with('-');
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let k = digits.len() as i32;
    let n = exp + 1;
    let body = if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let sign = if e < 0 { '-' } else { '+' };
        let m = if k == 1 { digits.clone() } else { format!("{}.{}", &digits[..1], &digits[1..]) };
        format!("{m}e{sign}{}", e.abs())
    };
    if negative { format!("-{body}") } else { body }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_sorted_no_whitespace() {
        assert_eq!(canonical(&json!({"b": 1, "a": [true, null, "x"]})), r#"{"a":[true,null,"x"],"b":1}"#);
    }

    #[test]
    fn required_sorted_so_property_order_never_moves_a_digest() {
        let a = json!({"type": "object", "required": ["b", "a"], "properties": {"b": {}, "a": {}}});
        let b = json!({"type": "object", "required": ["a", "b"], "properties": {"a": {}, "b": {}}});
        assert_eq!(digest(&a), digest(&b));
        assert_eq!(digest(&a).len(), 16);
    }

    #[test]
    fn a_schema_digest_hashes_each_def_once_and_moves_with_any_byte() {
        let a = json!({"$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}}}, "B": {"type": "string"}}});
        let mut b = a.clone();
        b["$defs"]["B"]["maxLength"] = json!(3);
        assert_ne!(schema_digest(&a), schema_digest(&b));
        let without = json!({"type": "string"});
        assert_eq!(schema_digest(&without), digest(&without));
        assert_ne!(schema_digest(&a), digest(&a));
    }

    #[test]
    fn ecmascript_numbers() {
        let cases = [
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (0.1, "0.1"),
            (1.5e-7, "1.5e-7"),
            (-2.5, "-2.5"),
            (0.000001, "0.000001"),
            (123.456, "123.456"),
        ];
        for (f, want) in cases {
            assert_eq!(number(&serde_json::Number::from_f64(f).unwrap()), want, "{f}");
        }
    }

    #[test]
    fn keys_sort_by_utf16_code_units_where_utf8_order_differs() {
        // U+1F600 is 0xD83D 0xDE00 in UTF-16, below U+FB01; in UTF-8 it sorts after it.
        let v = json!({"\u{fb01}": 1, "\u{1f600}": 2, "b": 3, "a": 4});
        assert_eq!(canonical(&v), "{\"a\":4,\"b\":3,\"\u{1f600}\":2,\"\u{fb01}\":1}");
    }

    #[test]
    fn rfc8785_example_strings() {
        assert_eq!(canonical(&json!({"\u{20ac}": "€", "\r": "\u{1}"})), "{\"\\r\":\"\\u0001\",\"€\":\"€\"}");
    }

    #[test]
    fn a_list_hashed_an_item_at_a_time_has_the_digest_of_the_array() {
        let items = vec![json!({"b": 1, "a": [true, null]}), json!("x"), json!({"required": ["z", "y"]})];
        assert_eq!(list_digest(items.clone()), digest(&Value::Array(items)));
        assert_eq!(list_digest(Vec::<Value>::new()), digest(&json!([])));
    }
}
