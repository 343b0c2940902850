//! The YAML document as a spanned tree: every scalar, sequence, mapping and key keeps its place.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::source::{FileId, Span};

/// A YAML value with its source span.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The value.
    pub value: Value,
    /// Where it stands (for a mapping, its key's value position; for an alias, the alias).
    pub span: Span,
}

/// The value of a [`Node`]: the JSON data model plus spans, with mapping keys kept in order
/// and duplicates kept so they can be reported.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`, `~` or nothing.
    Null,
    /// `true` / `false` (YAML 1.2 spellings only).
    Bool(bool),
    /// A number: integer or float as written.
    Number(serde_json::Number),
    /// A string (including `yes`, `012` and other scalars that are not strictly numbers).
    String(String),
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping, in source order; keys are string nodes.
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// The kind of value, as people say it: `a string`, `a mapping`, …
    pub fn kind(&self) -> &'static str {
        match &self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The boolean, if this is one.
    pub fn as_bool(&self) -> Option<bool> {
        match self.value {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The entries, if this is a mapping.
    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            Value::Map(m) => Some(m),
            _ => None,
        }
    }

    /// The items, if this is a sequence.
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(s) => Some(s),
            _ => None,
        }
    }

    /// The first entry of a mapping whose key is `key`, with the key node.
    pub fn entry(&self, key: &str) -> Option<(&Node, &Node)> {
        self.as_map()?.iter().find(|(k, _)| k.as_str() == Some(key)).map(|(k, v)| (k, v))
    }

    /// The value of the first entry whose key is `key`.
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|(_, v)| v)
    }

    /// The node a JSON Pointer (RFC 6901) names inside this one.
    pub fn pointer(&self, pointer: &str) -> Option<&Node> {
        let mut node = self;
        for token in pointer.split('/').skip(1) {
            let token = token.replace("~1", "/").replace("~0", "~");
            node = match &node.value {
                Value::Map(_) => node.get(&token)?,
                Value::Seq(items) => items.get(token.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// A tree of the JSON data `v`, every node at `span` (for data made, not read).
    pub fn from_json(v: &serde_json::Value, span: Span) -> Node {
        use serde_json::Value as J;
        let value = match v {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(*b),
            J::Number(n) => Value::Number(n.clone()),
            J::String(s) => Value::String(s.clone()),
            J::Array(items) => Value::Seq(items.iter().map(|i| Node::from_json(i, span)).collect()),
            J::Object(map) => Value::Map(
                map.iter()
                    .map(|(k, v)| (Node { value: Value::String(k.clone()), span }, Node::from_json(v, span)))
                    .collect(),
            ),
        };
        Node { value, span }
    }

    /// The same data as JSON, without spans. Keys keep their order; a repeated key keeps its last value.
    pub fn to_json(&self) -> serde_json::Value {
        use serde_json::Value as J;
        match &self.value {
            Value::Null => J::Null,
            Value::Bool(b) => J::Bool(*b),
            Value::Number(n) => J::Number(n.clone()),
            Value::String(s) => J::String(s.clone()),
            Value::Seq(items) => J::Array(items.iter().map(Node::to_json).collect()),
            Value::Map(entries) => {
                J::Object(entries.iter().filter_map(|(k, v)| Some((k.as_str()?.to_owned(), v.to_json()))).collect())
            }
        }
    }
}

/// Deserializes a [`Node`] from serde-saphyr, reading each value through `Spanned`.
/// The file id is attached afterwards by `Node::with_file`.
impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let spanned = serde_saphyr::Spanned::<Value>::deserialize(d)?;
        let span = spanned.referenced.span();
        let lo = span.byte_offset().unwrap_or(0) as usize;
        let hi = lo + span.byte_len().unwrap_or(0) as usize;
        Ok(Node { value: spanned.value, span: Span::new(FileId(0), lo, hi) })
    }
}

impl Node {
    /// Moves a tree as read (every span in `FileId(0)`) into `file`: the first file's tree, most
    /// often the only one, stays as it is read.
    pub(crate) fn with_file(mut self, file: FileId) -> Self {
        if file != FileId(0) {
            self.each_span(&mut |span| span.file = file);
        }
        self
    }

    /// Calls `f` on the span of the node and of every node inside it.
    pub(crate) fn each_span(&mut self, f: &mut impl FnMut(&mut Span)) {
        f(&mut self.span);
        match &mut self.value {
            Value::Seq(items) => items.iter_mut().for_each(|i| i.each_span(f)),
            Value::Map(entries) => entries.iter_mut().for_each(|(k, v)| {
                k.each_span(f);
                v.each_span(f);
            }),
            _ => {}
        }
    }
}

/// A YAML value read without spans, as [`Node::to_json`] gives the spanned tree's: the same
/// scalars, keys written as numbers or booleans read as their text, keys of no text left out.
pub(crate) struct Plain(pub(crate) serde_json::Value);

impl<'de> Deserialize<'de> for Plain {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(PlainVisitor).map(Plain)
    }
}

/// Reads a [`Plain`] value: scalars through [`ValueVisitor`], so that both read them alike.
struct PlainVisitor;

impl<'de> Visitor<'de> for PlainVisitor {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        Plain::deserialize(d).map(|p| p.0)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Self::Value, E> {
        Ok(n.into())
    }
    fn visit_u64<E>(self, n: u64) -> Result<Self::Value, E> {
        Ok(n.into())
    }
    fn visit_i128<E: serde::de::Error>(self, n: i128) -> Result<Self::Value, E> {
        ValueVisitor.visit_i128(n).map(|v| scalar(&v))
    }
    fn visit_u128<E: serde::de::Error>(self, n: u128) -> Result<Self::Value, E> {
        ValueVisitor.visit_u128(n).map(|v| scalar(&v))
    }
    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Self::Value, E> {
        ValueVisitor.visit_f64(n).map(|v| scalar(&v))
    }
    fn visit_str<E>(self, s: &str) -> Result<Self::Value, E> {
        Ok(serde_json::Value::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Self::Value, E> {
        Ok(serde_json::Value::String(s))
    }
    fn visit_bytes<E: serde::de::Error>(self, b: &[u8]) -> Result<Self::Value, E> {
        ValueVisitor.visit_bytes(b).map(|v| scalar(&v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Plain(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(serde_json::Value::Array(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries = serde_json::Map::new();
        while let Some(Plain(key)) = map.next_key()? {
            let Plain(value) = map.next_value()?;
            let key = match key {
                serde_json::Value::String(s) => s,
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Bool(b) => b.to_string(),
                _ => continue,
            };
            entries.insert(key, value);
        }
        Ok(serde_json::Value::Object(entries))
    }
}

/// A scalar [`Value`] as JSON.
fn scalar(v: &Value) -> serde_json::Value {
    Node { value: v.clone(), span: Span::new(FileId(0), 0, 0) }.to_json()
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Value, E> {
        Ok(Value::Number(n.into()))
    }
    fn visit_i128<E: serde::de::Error>(self, n: i128) -> Result<Value, E> {
        i64::try_from(n).map(|n| Value::Number(n.into())).map_err(|_| E::custom("integer out of range"))
    }
    fn visit_u128<E: serde::de::Error>(self, n: u128) -> Result<Value, E> {
        u64::try_from(n).map(|n| Value::Number(n.into())).map_err(|_| E::custom("integer out of range"))
    }
    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Value, E> {
        serde_json::Number::from_f64(n)
            .map(Value::Number)
            .ok_or_else(|| E::custom("non-finite numbers have no JSON form"))
    }
    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::String(s.to_owned()))
    }
    fn visit_string<E>(self, s: String) -> Result<Value, E> {
        Ok(Value::String(s))
    }
    fn visit_bytes<E: serde::de::Error>(self, _: &[u8]) -> Result<Value, E> {
        Err(E::custom("binary values have no JSON form"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut entries = Vec::new();
        while let Some(mut key) = map.next_key::<Node>()? {
            // Keys are names; a key written `200` or `true` means the name "200" or "true".
            key.value = match key.value {
                Value::Number(n) => Value::String(n.to_string()),
                Value::Bool(b) => Value::String(b.to_string()),
                other => other,
            };
            entries.push((key, map.next_value()?));
        }
        Ok(Value::Map(entries))
    }
}
