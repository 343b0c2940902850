//! Plain JSON read straight into the spanned tree, in one pass: most large descriptions are
//! published as JSON, and the YAML parser reads them an event at a time through serde.
//!
//! Only what is plainly JSON and within the YAML parser's bounds is read here, into the tree
//! (values and spans) the YAML parser makes of it; anything else (a YAML flow mapping, a
//! comment, an integer past 64 bits, nesting or size near a bound) returns `None` and is read,
//! and reported on, by the YAML parser as before.

use super::node::{Node, Value};
use super::{MAX_NODES, MAX_YAML_DEPTH};
use crate::source::{FileId, Span};

/// The tree of `text` when it is one JSON object or array, spans in file 0.
pub(super) fn read(text: &str) -> Option<Node> {
    let mut r = Reader { text, bytes: text.as_bytes(), at: 0, nodes: 0 };
    r.space();
    if !matches!(r.peek()?, b'{' | b'[') {
        return None;
    }
    let node = r.value(0)?;
    r.space();
    (r.at == r.bytes.len()).then_some(node)
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    /// Nodes read so far, keys included.
    nodes: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Consumes `byte` (after white space) when it comes next.
    fn eat(&mut self, byte: u8) -> bool {
        self.space();
        let next = self.peek() == Some(byte);
        self.at += usize::from(next);
        next
    }

    fn node(&mut self, value: Value, lo: usize) -> Option<Node> {
        // Well inside the YAML parser's own bounds, so that what it refuses is never read here.
        self.nodes += 1;
        (self.nodes < MAX_NODES / 2).then(|| Node { value, span: Span::new(FileId(0), lo, self.at) })
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        self.space();
        let lo = self.at;
        let value = match self.peek()? {
            b'{' if depth + 1 < MAX_YAML_DEPTH => return self.object(depth + 1),
            b'[' if depth + 1 < MAX_YAML_DEPTH => return self.array(depth + 1),
            b'"' => Value::String(self.string()?),
            b't' => self.word("true", Value::Bool(true))?,
            b'f' => self.word("false", Value::Bool(false))?,
            b'n' => self.word("null", Value::Null)?,
            b'-' | b'0'..=b'9' => Value::Number(self.number()?),
            _ => return None,
        };
        self.node(value, lo)
    }

    /// A mapping; its span is its opening brace, as the YAML parser gives a flow mapping's.
    fn object(&mut self, depth: usize) -> Option<Node> {
        self.collection(b'}', |r| {
            r.space();
            if r.peek()? != b'"' {
                return None;
            }
            let key = r.value(depth)?;
            r.eat(b':').then_some(())?;
            Some((key, r.value(depth)?))
        })
        .map(|(entries, lo)| self.opened(Value::Map(entries), lo))?
    }

    /// A sequence; its span is its opening bracket.
    fn array(&mut self, depth: usize) -> Option<Node> {
        self.collection(b']', |r| r.value(depth)).map(|(items, lo)| self.opened(Value::Seq(items), lo))?
    }

    /// The entries of a mapping or sequence from its opening byte to `close`, comma-separated,
    /// and where it opened.
    fn collection<T>(&mut self, close: u8, mut entry: impl FnMut(&mut Self) -> Option<T>) -> Option<(Vec<T>, usize)> {
        let lo = self.at;
        self.at += 1;
        let mut entries = Vec::new();
        if self.eat(close) {
            return Some((entries, lo));
        }
        loop {
            entries.push(entry(self)?);
            if self.eat(close) {
                return Some((entries, lo));
            }
            self.eat(b',').then_some(())?;
        }
    }

    /// The node of a mapping or sequence opened at `lo`, spanning its opening byte.
    fn opened(&mut self, value: Value, lo: usize) -> Option<Node> {
        let mut node = self.node(value, lo)?;
        node.span = Span::new(FileId(0), lo, lo + 1);
        Some(node)
    }

    /// A string from its opening quote: the text between the quotes when nothing is escaped,
    /// else unescaped by serde_json.
    fn string(&mut self) -> Option<String> {
        let lo = self.at;
        let mut escaped = false;
        let mut i = lo + 1;
        loop {
            match *self.bytes.get(i)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    i += 2;
                }
                0..0x20 => return None,
                _ => i += 1,
            }
        }
        self.at = i + 1;
        let quoted = self.text.get(lo..self.at)?;
        match escaped {
            false => Some(quoted[1..quoted.len() - 1].to_owned()),
            true => serde_json::from_str(quoted).ok(),
        }
    }

    fn word(&mut self, word: &str, value: Value) -> Option<Value> {
        let end = self.at + word.len();
        let delimited = matches!(self.bytes.get(end), None | Some(b' ' | b'\t' | b'\n' | b'\r' | b',' | b'}' | b']'));
        (self.bytes.get(self.at..end)? == word.as_bytes() && delimited).then(|| {
            self.at = end;
            value
        })
    }

    /// A number as JSON writes it: an integer within 64 bits, or a finite float.
    fn number(&mut self) -> Option<serde_json::Number> {
        let lo = self.at;
        let digits = |r: &mut Self| {
            let from = r.at;
            while r.peek().is_some_and(|b| b.is_ascii_digit()) {
                r.at += 1;
            }
            r.at > from
        };
        self.at += usize::from(self.peek() == Some(b'-'));
        let first = self.at;
        if !digits(self) || (self.bytes[first] == b'0' && self.at - first > 1) {
            return None;
        }
        let mut float = false;
        if self.peek() == Some(b'.') {
            self.at += 1;
            float = true;
            if !digits(self) {
                return None;
            }
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            float = true;
            self.at += usize::from(matches!(self.peek(), Some(b'+' | b'-')));
            if !digits(self) {
                return None;
            }
        }
        let text = &self.text[lo..self.at];
        if float {
            return serde_json::Number::from_f64(text.parse().ok()?);
        }
        match text.parse::<i64>() {
            Ok(n) => Some(n.into()),
            Err(_) => text.parse::<u64>().ok().map(Into::into),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The YAML parser's tree of `text`.
    fn yaml(text: &str) -> Option<Node> {
        super::super::saphyr(text, FileId(0)).ok()
    }

    #[test]
    fn json_reads_as_the_yaml_parser_reads_it() {
        let texts = [
            r#"{"a": 1, "b": [true, false, null], "c": {"d": "e\"f\\u00e9\ud83d\ude00"}, "g": -1.5e3}"#,
            "[\n  1,\n  -0,\n  0.25,\n  18446744073709551615,\n  -9223372036854775808,\n  \"\u{e9}t\u{e9}\"\n]\n",
            r#"{"empty": {}, "list": [], "nested": [[{}], {"x": []}], "dup": 1, "dup": 2, "": ""}"#,
            "  {\"spaces\"  :  \"around\"  ,\n\t\"tabs\":\t1 }  \n",
            r#"{"openapi": "3.1.0", "paths": {"/a/{id}": {"get": {"responses": {"200": {"description": "ok"}}}}}}"#,
        ];
        for text in texts {
            let read = read(text);
            assert!(read.is_some(), "{text}");
            assert_eq!(read, yaml(text), "{text}");
        }
    }

    #[test]
    fn every_json_fixture_reads_as_the_yaml_parser_reads_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        let mut pending = vec![root];
        let mut read = 0;
        while let Some(dir) = pending.pop() {
            for path in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()) {
                if path.is_dir() {
                    pending.push(path);
                } else if path.extension().is_some_and(|x| x == "json") {
                    let text = std::fs::read_to_string(&path).unwrap();
                    assert!(super::super::json_reads_as_yaml(&text), "{}", path.display());
                    read += 1;
                }
            }
        }
        assert!(read >= 3, "{read} JSON fixtures");
    }

    #[test]
    fn what_is_not_plain_json_is_left_to_the_yaml_parser() {
        for text in [
            "a: 1",
            "{a: 1}",
            "{\"a\": 1,}",
            "{\"a\": 01}",
            "{\"a\": 1} # comment",
            "{\"a\": 18446744073709551616}",
            "{\"a\": 1e999}",
            "{\"a\": tru}",
            "{\"a\": \"\u{1}\"}",
            "\"just a string\"",
            "{\"a\": 1",
            &format!("{}{}", "[".repeat(MAX_YAML_DEPTH), "]".repeat(MAX_YAML_DEPTH)),
        ] {
            assert_eq!(read(text), None, "{text}");
        }
    }
}
