//! A large contract's YAML read in two halves side by side. Most of a contract is one
//! top-level mapping (`endpoints:`, `types:`) whose entries each start on a line of their own,
//! at one indentation: the text splits at such a line nearest its middle (within its middle
//! half). The first half is read as it stands; the second is read after a line naming the
//! mapping again (`endpoints:`), and its entries join the first's, every span moved to where it
//! stands in the whole text.
//!
//! A split is only made where the whole text would read the same: the lines from the mapping's
//! key to the split are at least as indented as its entries (so no block scalar or plain scalar
//! of the top level runs across the split, and none inside it can: they are indented deeper than
//! their key), and a flow collection or quoted scalar left open at the split leaves the first
//! half unread. Anything else that stands in the way (a document marker, a directive, a tab or
//! carriage return, a half that does not read, a second half that does not start with the
//! mapping's entries) reads the text whole, as before.

use super::events::{self, Counts};
use super::node::{Node, Value};

/// Texts shorter than this are read whole: a thread costs more than the half it saves.
const FROM: usize = 1 << 17;

/// `text` read in two halves; `None` where it is read whole.
pub(super) fn read(text: &str) -> Option<Node> {
    if text.len() < FROM {
        return None;
    }
    read_split(text)
}

/// `text` read in two halves wherever a split is found, whatever its length.
fn read_split(text: &str) -> Option<Node> {
    let split = Split::find(text)?;
    let head = format!("{}:\n", split.key);
    let second = format!("{head}{}", &text[split.at..]);
    // The first half ends where the entry's name starts, as the whole text's next token does:
    // a block scalar before it ends there.
    let first = &text[..split.at + split.indent];
    let halves = crate::threads::each([first, second.as_str()], crate::threads::MAIN_STACK, events::part);
    let mut halves = halves.into_iter();
    let ((first, a), (second, b)) = (halves.next()??, halves.next()??);
    if !(a + b).within(Counts::most()) {
        return None;
    }
    join(first, second, split.key, split.at - head.len())
}

/// Where a text splits: before the line at `at`, an entry of the top-level mapping `key`
/// indented by `indent`.
#[derive(Debug, PartialEq)]
struct Split<'t> {
    key: &'t str,
    at: usize,
    indent: usize,
}

impl<'t> Split<'t> {
    /// The entry line of a top-level block mapping nearest the middle of `text`, not its first.
    fn find(text: &'t str) -> Option<Split<'t>> {
        if text.contains(['\r', '\t']) {
            return None;
        }
        let middle = text.len() / 2;
        // The top-level key whose block mapping the lines are in, its entries' indentation
        // once known, and whether an entry was seen.
        let mut open: Option<(&str, usize, bool)> = None;
        let mut best: Option<Split<'t>> = None;
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            let start = at;
            at += line.len();
            let body = line.strip_suffix('\n').unwrap_or(line);
            let content = body.trim_start_matches(' ');
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            let indent = body.len() - content.len();
            if indent == 0 {
                if ["---", "...", "%"].iter().any(|m| body.starts_with(m)) {
                    return None;
                }
                if best.is_some() && start > middle {
                    break;
                }
                open = name(body).filter(|(_, rest)| rest.trim_end().is_empty()).map(|(key, _)| (key, 0, false));
                continue;
            }
            let Some((key, entries, seen)) = &mut open else { continue };
            if *entries == 0 {
                *entries = indent;
            }
            if indent < *entries || (indent == *entries && name(content).is_none()) {
                open = None;
                continue;
            }
            if indent > *entries {
                continue;
            }
            if *seen {
                if best.as_ref().is_none_or(|b| start.abs_diff(middle) < b.at.abs_diff(middle)) {
                    best = Some(Split { key, at: start, indent });
                }
                // Past the middle, every entry is farther from it.
                if start >= middle {
                    break;
                }
            }
            *seen = true;
        }
        // A split far from the middle saves less than the thread costs.
        best.filter(|b| (text.len() / 4..=text.len() / 4 * 3).contains(&b.at))
    }
}

/// A line that starts with a plain name and a `:` ending it (`endpoints:`, `listUsers: {…}`):
/// the name, and what follows the `:`.
fn name(line: &str) -> Option<(&str, &str)> {
    let end = line.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let (key, rest) = line.split_at(end);
    let rest = rest.strip_prefix(':')?;
    let plain = key.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
    (plain && (rest.is_empty() || rest.starts_with(' '))).then_some((key, rest))
}

/// The first half's tree with the second's entries of `key` joined to its last entry's, and the
/// second's other entries to its own; every span of the second moved on by `by`.
fn join(mut first: Node, second: Node, key: &str, by: usize) -> Option<Node> {
    let named = |node: &Node| matches!(&node.value, Value::String(s) if s == key);
    let Value::Map(entries) = &mut first.value else { return None };
    let (last, value) = entries.last_mut()?;
    let Value::Map(inner) = &mut value.value else { return None };
    let Value::Map(rest) = second.value else { return None };
    let mut rest = rest.into_iter();
    let (again, more) = rest.next()?;
    let Value::Map(more) = more.value else { return None };
    if !named(last) || !named(&again) {
        return None;
    }
    let moved = |(k, v): (Node, Node)| (moved(k, by), moved(v, by));
    inner.extend(more.into_iter().map(moved));
    entries.extend(rest.map(moved));
    Some(first)
}

/// `node` with every span moved on by `by` bytes.
fn moved(mut node: Node, by: usize) -> Node {
    let by = u32::try_from(by).unwrap_or(u32::MAX);
    node.each_span(&mut |span| {
        span.lo = span.lo.saturating_add(by);
        span.hi = span.hi.saturating_add(by);
    });
    node
}

#[cfg(test)]
mod tests {
    use super::{Split, read_split};

    #[test]
    fn a_text_splits_at_the_entry_of_a_top_level_mapping_nearest_its_middle() {
        let text = "stitch: 1\nendpoints:\n  a: { x: 1 }\n  b:\n    y: |\n      z: 1\n  c: 2\n  d: 3\ntypes: {}\n";
        let split = Split::find(text).expect("a split");
        assert_eq!(split.key, "endpoints");
        assert_eq!(&text[split.at..split.at + 4], "  b:");
        // Lines inside a block scalar, a flow or an entry are never a split.
        for text in ["a: 1\n", "k: |\n  a: 1\n  b: 2\n", "k:\n  - a: 1\n  - b: 2\n", "k:\n  a: 1\n---\nb: 2\n"] {
            assert_eq!(Split::find(text), None, "{text:?}");
        }
    }

    #[test]
    fn what_is_read_in_halves_is_what_is_read_whole() {
        let texts = [
            "stitch: 1\nendpoints:\n  a: { x: 1 }\n  b:\n    y: |\n      z: 1\n\n  c: 'q'\n  d: [1,\n    2]\ntypes:\n  T: { type: string }\n",
            "endpoints:\n  a: 1\n  b: \"two\n  lines\"\n  c: 3\n",
            "endpoints:\n  a: 1\n  b: [2,\n  3]\n  c: 3\n",
            "endpoints:\n  a: 1\n  # note\n  b: 2\n  c: 3\nendpoints:\n  d: 4\n",
            "endpoints:\n  a: |\n    x\n  # note\n\n  b: >-\n    y\n\n\n  c: |+\n    z\n\n  d: 4\n",
            "x:\n  a: 1\n  b: 2\n  c: &anchor 3\n",
        ];
        for text in texts {
            let whole = super::events::part(text).map(|(node, _)| node);
            if let Some(halves) = read_split(text) {
                assert_eq!(Some(halves), whole, "{text:?}");
            }
        }
        // The block scalars, the comment and the second `endpoints:` are read in halves.
        assert!([0, 3, 4].iter().all(|&i| read_split(texts[i]).is_some()));
    }

    #[test]
    fn every_yaml_fixture_read_in_halves_reads_as_it_reads_whole() {
        let (mut split, mut whole) = (0, 0);
        for (path, text) in super::super::yaml_fixtures() {
            match read_split(&text) {
                Some(halves) => {
                    assert_eq!(Some(halves), super::events::part(&text).map(|(n, _)| n), "{}", path.display());
                    split += 1;
                }
                None => whole += 1,
            }
        }
        assert!(split >= 100 && whole >= 5, "{split} read in halves, {whole} whole");
    }
}
