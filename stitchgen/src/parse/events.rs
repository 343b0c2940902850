//! Plain YAML read straight from the YAML parser's events into the spanned tree. Through serde,
//! every value is a `Spanned` record of locations read field by field: more than half the time
//! of reading a large contract (25 of 61 ms for the parser's events alone, 1,000 endpoints).
//!
//! The events are the same parser's, with serde-saphyr's parser options; only what plainly reads
//! one way is read here, into the tree (values and spans) serde-saphyr makes of it. Anything else
//! (an anchor, an alias, a tag, a directive, a merge key, a key that is not a name, a plain scalar that is a
//! number or a boolean in any spelling but the simplest, a second document, a parser error,
//! nesting or size near a bound) returns `None` and is read, and reported on, by serde-saphyr as
//! before.

use std::borrow::Cow;

use serde_saphyr::granit_parser::{Event, Parser, ScalarStyle, StrInput};

use super::node::{Node, Value};
use super::{MAX_NODES, MAX_YAML_DEPTH};
use crate::source::{FileId, Span};

/// The tree of `text` when its one document is a mapping read plainly, spans in file 0.
pub(super) fn read(text: &str) -> Option<Node> {
    Some(part(text)?.0)
}

/// What reading a text took: summed over the halves of one text, it stays within the bounds of
/// reading it whole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Counts {
    events: usize,
    scalar_bytes: usize,
    nodes: usize,
}

impl Counts {
    /// The most one reading takes: well inside serde-saphyr's own bounds, so that what it
    /// refuses is never read here.
    pub(super) fn most() -> Counts {
        let budget = serde_saphyr::Budget::default();
        Counts { events: budget.max_events / 2, scalar_bytes: budget.max_total_scalar_bytes / 2, nodes: MAX_NODES / 2 }
    }

    /// Whether this is within `most` ([`Counts::most`]).
    pub(super) fn within(self, most: Counts) -> bool {
        self.events <= most.events && self.scalar_bytes <= most.scalar_bytes && self.nodes < most.nodes
    }
}

impl std::ops::Add for Counts {
    type Output = Counts;
    fn add(self, other: Counts) -> Counts {
        Counts {
            events: self.events + other.events,
            scalar_bytes: self.scalar_bytes + other.scalar_bytes,
            nodes: self.nodes + other.nodes,
        }
    }
}

/// [`read`] of `text` in one piece, with what it took.
pub(super) fn part(text: &str) -> Option<(Node, Counts)> {
    let budget = serde_saphyr::Budget::default();
    // The parser's options as serde-saphyr sets them for the DSL's budget.
    let options = serde_saphyr::granit_parser::options! {
        simple_key_max_lookahead: budget.simple_key_max_lookahead,
        flow_nesting_limit: budget.flow_nesting_limit,
        block_nesting_limit: serde_saphyr::granit_parser::Options::default()
            .block_nesting_limit
            .max(MAX_YAML_DEPTH + 1),
        emit_comments: false,
    };
    let mut parser = Parser::with_options(StrInput::new(text), options);
    let most = Counts::most();
    let mut tree = Tree { stack: Vec::new(), root: None, counts: Counts::default(), most, documents: 0 };
    while let Some(next) = parser.next_event() {
        let (event, span) = next.ok()?;
        tree.counts.events += 1;
        if !tree.counts.within(most) {
            return None;
        }
        let lo = span.start.byte_offset()?;
        let hi = span.end.byte_offset()?;
        let at = Span::new(FileId(0), lo, hi.max(lo));
        if !tree.event(event, at)? {
            break;
        }
    }
    let root = tree.root?;
    matches!(root.value, Value::Map(_)).then_some((root, tree.counts))
}

/// The collections open, innermost last, and the root once closed.
struct Tree {
    stack: Vec<Open>,
    root: Option<Node>,
    /// Events, scalar bytes and nodes (keys included) read so far, and the most read.
    counts: Counts,
    most: Counts,
    documents: usize,
}

/// A collection being read: its span, and its items or entries so far (a key waiting for its
/// value in `key`).
enum Open {
    Seq(Span, Vec<Node>),
    Map(Span, Vec<(Node, Node)>, Option<Node>),
}

impl Tree {
    /// Takes in one event; `Some(false)` once the stream ends, `None` for what is not read here.
    fn event(&mut self, event: Event<'_>, at: Span) -> Option<bool> {
        match event {
            Event::StreamStart => {}
            Event::StreamEnd => return Some(false),
            // A `%YAML` directive may ask for another reading of scalars.
            Event::DocumentStart(_, version) => {
                self.documents += 1;
                if self.documents > 1 || version.is_some() {
                    return None;
                }
            }
            Event::DocumentEnd => {}
            Event::MappingStart(_, 0, None) => self.open(Open::Map(at, Vec::new(), None))?,
            Event::SequenceStart(_, 0, None) => self.open(Open::Seq(at, Vec::new()))?,
            Event::MappingEnd => match self.stack.pop()? {
                Open::Map(span, entries, None) => self.add(Node { value: Value::Map(entries), span })?,
                _ => return None,
            },
            Event::SequenceEnd => match self.stack.pop()? {
                Open::Seq(span, items) => self.add(Node { value: Value::Seq(items), span })?,
                Open::Map(..) => return None,
            },
            Event::Scalar(text, style, 0, None) => {
                self.counts.scalar_bytes += text.len();
                let key = matches!(self.stack.last(), Some(Open::Map(_, _, None)));
                let value = if key { key_name(&text, style)? } else { scalar(text, style)? };
                self.add(Node { value, span: at })?;
            }
            // Anchors, aliases, tags, and anything else: serde-saphyr's to read.
            _ => return None,
        }
        Some(true)
    }

    /// Opens a collection, one level deeper.
    fn open(&mut self, open: Open) -> Option<()> {
        (self.stack.len() + 1 < MAX_YAML_DEPTH).then(|| self.stack.push(open))
    }

    /// Adds a finished node to the collection open, or makes it the root.
    fn add(&mut self, node: Node) -> Option<()> {
        self.counts.nodes += 1;
        if !self.counts.within(self.most) {
            return None;
        }
        match self.stack.last_mut() {
            None if self.root.is_none() => self.root = Some(node),
            None => return None,
            Some(Open::Seq(_, items)) => items.push(node),
            Some(Open::Map(_, _, key @ None)) => {
                // A key that is a collection is no name.
                if !matches!(node.value, Value::String(_)) {
                    return None;
                }
                *key = Some(node);
            }
            Some(Open::Map(_, entries, key)) => {
                let key = key.take()?;
                entries.push((key, node));
            }
        }
        Some(())
    }
}

/// A key's name: a quoted or block scalar's text, or a plain scalar that reads as a string or
/// as a decimal integer (serde-saphyr reads `200:` as a number, whose text the tree keeps).
/// `<<` is a merge key, and `true` or `null` keys are read by serde-saphyr.
fn key_name(text: &str, style: ScalarStyle) -> Option<Value> {
    if style != ScalarStyle::Plain {
        return Some(Value::String(text.to_owned()));
    }
    match scalar(Cow::Borrowed(text), style)? {
        Value::String(s) if s != "<<" => Some(Value::String(s)),
        Value::Number(n) if n.is_u64() || n.is_i64() => Some(Value::String(n.to_string())),
        _ => None,
    }
}

/// A scalar's value as serde-saphyr reads it with the DSL's options: a quoted or block scalar is
/// its text; a plain one is null, a boolean, a decimal integer of at most 18 digits, a decimal
/// fraction, its text when it starts with none of `0-9 + - .` and is no spelling of infinity or
/// not-a-number, and otherwise what serde-saphyr reads it as (`123e4567-…` is text, `1e5` a
/// number), asked of it alone.
fn scalar(text: Cow<'_, str>, style: ScalarStyle) -> Option<Value> {
    if style != ScalarStyle::Plain {
        return Some(Value::String(text.into_owned()));
    }
    let t: &str = &text;
    Some(match t {
        "" | "~" | "null" | "Null" | "NULL" => Value::Null,
        "true" | "True" | "TRUE" => Value::Bool(true),
        "false" | "False" | "FALSE" => Value::Bool(false),
        _ if integer(t) => {
            let n: serde_json::Number =
                if t.starts_with('-') { t.parse::<i64>().ok()?.into() } else { t.parse::<u64>().ok()?.into() };
            Value::Number(n)
        }
        _ if fraction(t) => Value::Number(serde_json::Number::from_f64(t.parse::<f64>().ok()?)?),
        _ if t.starts_with(|c: char| c.is_ascii_digit() || matches!(c, '+' | '-' | '.'))
            || ["nan", "inf", "infinity"].iter().any(|s| t.eq_ignore_ascii_case(s)) =>
        {
            read_alone(t)?
        }
        _ if t.trim() != t => return None,
        _ => Value::String(text.into_owned()),
    })
}

/// What serde-saphyr reads plain scalar `t` as, written alone as a mapping's value (where a
/// plain scalar may stand wherever it stood); `None` for one of several lines, or one it does
/// not read as a number, a boolean, null or text.
fn read_alone(t: &str) -> Option<Value> {
    if t.contains(['\n', '\r']) {
        return None;
    }
    let read =
        serde_saphyr::from_str_with_options::<super::node::Plain>(&format!("k: {t}\n"), super::options()).ok()?;
    let serde_json::Value::Object(map) = read.0 else { return None };
    Some(match map.into_iter().next()? {
        (_, serde_json::Value::Null) => Value::Null,
        (_, serde_json::Value::Bool(b)) => Value::Bool(b),
        (_, serde_json::Value::Number(n)) => Value::Number(n),
        (_, serde_json::Value::String(s)) if s == t => Value::String(s),
        _ => return None,
    })
}

/// `0`, or an optional `-` and 1 to 18 digits, the first not `0`.
fn integer(t: &str) -> bool {
    let digits = t.strip_prefix('-').unwrap_or(t);
    (t == "0" || (digits.len() <= 18 && digits.starts_with(|c: char| ('1'..='9').contains(&c))))
        && digits.bytes().all(|b| b.is_ascii_digit())
}

/// An optional `-`, an integer part (`0` or digits not starting with `0`), a `.` and digits:
/// at most 15 digits on each side, so that the value reads alike however it is parsed.
fn fraction(t: &str) -> bool {
    let unsigned = t.strip_prefix('-').unwrap_or(t);
    let Some((whole, part)) = unsigned.split_once('.') else { return false };
    let digits = |s: &str| !s.is_empty() && s.len() <= 15 && s.bytes().all(|b| b.is_ascii_digit());
    digits(whole) && digits(part) && (whole == "0" || !whole.starts_with('0'))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_yaml_fixture_read_from_the_events_reads_as_serde_saphyr_reads_it() {
        let (mut read, mut left) = (0, 0);
        for (path, text) in super::super::yaml_fixtures() {
            match super::super::events_read_as_yaml(&text) {
                Some(same) => {
                    assert!(same, "{}", path.display());
                    read += 1;
                }
                None => left += 1,
            }
        }
        // Most contracts are plain; the others (anchors, tags, odd numbers, errors) are left.
        assert!(read >= 350 && left >= 5, "{read} read from the events, {left} left to serde-saphyr");
    }

    /// Documents read here are read exactly as serde-saphyr reads them; the others are not read.
    #[test]
    fn what_is_read_is_what_serde_saphyr_reads() {
        let plain = [
            "a: 1\nb: -2\nc: 0\nd: 1.5\ne: -0.25\nf: true\ng: False\nh: ~\ni:\nj: null\nk: NULL\n",
            "name: Get one user.\npath: /users/:id\nq: 'single'\nd: \"double \\u00e9\"\n",
            "lit: |\n  line one\n  line two\nfold: >\n  folded\n  text\n",
            "flow: { a: [1, 2, { b: c }], d: [] }\nseq:\n  - x\n  - { y: z }\n",
            "200: ok\n404: missing\n'true': quoted\n",
            "# comment\n---\nk: v # trailing\n...\n",
            "é: ünïcödé\nnested:\n  deeper:\n    deepest: [é, ü]\n",
            "crlf: 1\r\nnext: two\r\n",
            "multi: this is\n  a plain scalar\n  on lines\n",
            "big: 123456789012345678\nsmall: -123456789012345678\n",
            "id: 123e4567-e89b-12d3-a456-426614174000\nsha: 5134cbc\nflag: -user\ne: 1e5\nhex: 0x1F\nz: 007\np: +5\n",
            "doc: 3-letter [ISO code](https://example.com).\nmarker: ---{content}---\n",
            "big: 1234567890123456789\nmax: 18446744073709551615\nmin: -9223372036854775808\n",
            "past: 99999999999999999999\n",
        ];
        for text in plain {
            let want = super::super::saphyr(text, crate::source::FileId(0)).ok();
            assert!(want.is_some(), "serde-saphyr reads {text:?}");
            assert_eq!(super::read(text), want, "{text:?}");
        }
        let other = [
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "<<: { a: 1 }\n",
            "a: .nan\n",
            "a: .inf\n",
            "true: x\n",
            "? [a]\n: b\n",
            "a: 1\n---\nb: 2\n",
            "- not a mapping\n",
            "a: [unclosed\n",
            "%YAML 1.2\n---\na: 1\n",
        ];
        for text in other {
            assert_eq!(super::read(text), None, "{text:?}");
        }
    }
}
