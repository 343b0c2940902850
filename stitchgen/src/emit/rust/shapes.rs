//! Inner items of one shape printed once. An operation's handler method, dispatch arm, client
//! method or forwarding method differs from another operation's of the same shape only in its
//! names and its doc; prettyplease breaks lines by the width of each word, never by its text,
//! so an item whose names are replaced by placeholders of the same lengths prints as the item
//! does, placeholders for names. Each shape is parsed and printed once, and every item of it
//! filled in from that text.

use std::collections::BTreeMap;

use proc_macro2::{Delimiter, Group, Ident, Span, TokenStream, TokenTree};

/// An inner item and the words of it that vary from operation to operation: identifiers and
/// literals, as they print (`list_g0`, `0usize`).
pub(super) struct Varying {
    pub(super) tokens: TokenStream,
    pub(super) words: Vec<String>,
}

impl Varying {
    /// An item with nothing that varies (printed as a shape of its own).
    pub(super) fn fixed(tokens: TokenStream) -> Varying {
        Varying { tokens, words: Vec::new() }
    }
}

/// What stands for an item's leading docs in its shape.
const DOC: &str = " __stitchgen_doc";

/// Text the tokens of an item may not hold for it to have a shape: the placeholders' marks.
const MARKS: [&str; 2] = ["Qz", "__stitchgen"];

/// An item as a shape: its tokens with each varying word a placeholder of the word's length
/// and its leading docs one placeholder doc. The shape's tokens are built only when it is
/// printed, the first time it is met; every other item of it is known by its key alone.
pub(super) struct Shape {
    /// The item's tokens, its leading docs first.
    trees: Vec<TokenTree>,
    /// How many of `trees` are the leading docs.
    doc_trees: usize,
    /// The shape's tokens, written out one to one (each with its kind and length): equal keys
    /// are equal shapes.
    key: String,
    /// What follows `///` on each doc line, in order.
    docs: Vec<String>,
    /// Each placeholder used and the word it stands for.
    fills: Vec<(String, String)>,
}

impl Shape {
    /// The shape of `item`; the item's tokens back where it has none that can be filled in
    /// exactly (a doc of several lines or a fence, a word too short for a placeholder, a mark).
    pub(super) fn of(item: Varying) -> Result<Shape, TokenStream> {
        let Varying { tokens, words } = item;
        let trees: Vec<TokenTree> = tokens.into_iter().collect();
        let (docs, doc_trees) = leading_docs(&trees);
        let Some(docs) = docs.iter().map(|d| super::rewrite::doc_comment(d)).collect::<Option<Vec<_>>>() else {
            return Err(trees.into_iter().collect());
        };
        let mut fills: Vec<(String, String)> = Vec::new();
        for (slot, word) in words.into_iter().enumerate() {
            let plain = !word.is_empty() && word.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            match placeholder(slot, word.len()) {
                Some(p) if plain => fills.push((p, word)),
                _ => return Err(trees.into_iter().collect()),
            }
        }
        let mut key = String::from(if docs.is_empty() { "-" } else { "d" });
        let mut word = String::new();
        if !trees[doc_trees..].iter().all(|tree| write_key(tree, &fills, &mut key, &mut word)) {
            return Err(trees.into_iter().collect());
        }
        Ok(Shape { trees, doc_trees, key, docs, fills })
    }

    /// The shape's tokens: the item's, each word its placeholder, the docs one placeholder doc.
    pub(super) fn tokens(&self) -> TokenStream {
        let mut out: Vec<TokenTree> = Vec::with_capacity(self.trees.len());
        if !self.docs.is_empty() {
            out.extend(quote::quote!(#[doc = #DOC]));
        }
        // Every tree substitutes: `of` found no mark in any.
        out.extend(self.trees[self.doc_trees..].iter().filter_map(|tree| substitute(tree, &self.fills)));
        out.into_iter().collect()
    }
    /// The item's text from its shape's: each placeholder the word it stands for, and the
    /// placeholder doc's line the item's doc lines, at its indent. `None` when `printed` is not
    /// this shape's text.
    pub(super) fn fill(&self, printed: &str) -> Option<String> {
        let mut text = self.words(printed);
        if self.docs.is_empty() {
            return Some(text);
        }
        let mark = format!("///{DOC}\n");
        let at = text.find(&mark)?;
        let start = text[..at].rfind('\n').map_or(0, |n| n + 1);
        let indent = &text[start..at];
        let lines: String = self.docs.iter().map(|d| format!("{indent}///{d}\n")).collect();
        text.replace_range(start..at + mark.len(), &lines);
        Some(text)
    }
}

impl Shape {
    /// `printed` with each placeholder the word it stands for, in one pass. Only placeholders
    /// hold the mark `Qz` (`of` found it in no word), and each names its slot: `Qz1` is never
    /// taken for the start of `Qz10zz`.
    fn words(&self, printed: &str) -> String {
        let mut text = String::with_capacity(printed.len() + printed.len() / 8);
        let mut rest = printed;
        while let Some(at) = rest.find(MARKS[0]) {
            text.push_str(&rest[..at]);
            let after = &rest[at + MARKS[0].len()..];
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let slot = after[..digits].parse::<usize>().ok();
            match slot.and_then(|slot| self.fills.get(slot)).filter(|(p, _)| rest[at..].starts_with(p.as_str())) {
                Some((placeholder, word)) => {
                    text.push_str(word);
                    rest = &rest[at + placeholder.len()..];
                }
                None => {
                    text.push_str(MARKS[0]);
                    rest = after;
                }
            }
        }
        text.push_str(rest);
        text
    }
}

/// The texts of the item's leading `#[doc = "…"]` attributes, and how many trees they are.
fn leading_docs(trees: &[TokenTree]) -> (Vec<String>, usize) {
    let mut docs = Vec::new();
    let mut rest = trees;
    while let [TokenTree::Punct(hash), TokenTree::Group(attr), after @ ..] = rest {
        if hash.as_char() != '#' || attr.delimiter() != Delimiter::Bracket {
            break;
        }
        let inner: Vec<TokenTree> = attr.stream().into_iter().collect();
        let [TokenTree::Ident(name), TokenTree::Punct(eq), TokenTree::Literal(lit)] = inner.as_slice() else { break };
        if name != "doc" || eq.as_char() != '=' {
            break;
        }
        let Ok(text) = syn::parse2::<syn::LitStr>(TokenTree::Literal(lit.clone()).into()) else { break };
        docs.push(text.value());
        rest = after;
    }
    (docs, trees.len() - rest.len())
}

/// The placeholder of slot `slot` for a word `len` bytes long: an identifier no generated code
/// holds (see [`MARKS`]); `None` when the word is too short for one.
fn placeholder(slot: usize, len: usize) -> Option<String> {
    let head = format!("Qz{slot}");
    (len >= head.len()).then(|| format!("{head}{}", "z".repeat(len - head.len())))
}

/// `tree` with each word of `fills` its placeholder; `None` where the tree holds a mark.
fn substitute(tree: &TokenTree, fills: &[(String, String)]) -> Option<TokenTree> {
    let text = match tree {
        TokenTree::Group(g) => {
            let stream = g.stream().into_iter().map(|t| substitute(&t, fills)).collect::<Option<TokenStream>>()?;
            return Some(TokenTree::Group(Group::new(g.delimiter(), stream)));
        }
        TokenTree::Punct(_) => return Some(tree.clone()),
        TokenTree::Ident(i) => i.to_string(),
        TokenTree::Literal(l) => l.to_string(),
    };
    if MARKS.iter().any(|m| text.contains(m)) {
        return None;
    }
    Some(match fills.iter().find(|(_, word)| *word == text) {
        Some((placeholder, _)) => TokenTree::Ident(Ident::new(placeholder, Span::call_site())),
        None => tree.clone(),
    })
}

/// Writes `tree` into a shape's key, each word of `fills` its placeholder; `false` where the
/// tree holds a mark. `word` is room to write one word's text in, kept across calls (an item
/// has hundreds of tokens: none costs an allocation).
fn write_key(tree: &TokenTree, fills: &[(String, String)], key: &mut String, word: &mut String) -> bool {
    use std::fmt::Write;
    word.clear();
    let kind = match tree {
        TokenTree::Group(g) => {
            let open = match g.delimiter() {
                Delimiter::Parenthesis => '(',
                Delimiter::Bracket => '[',
                Delimiter::Brace => '{',
                Delimiter::None => '0',
            };
            key.push(open);
            if !g.stream().into_iter().all(|t| write_key(&t, fills, key, word)) {
                return false;
            }
            key.push('}');
            return true;
        }
        TokenTree::Punct(p) => {
            key.push(if p.spacing() == proc_macro2::Spacing::Joint { 'j' } else { 'p' });
            key.push(p.as_char());
            return true;
        }
        TokenTree::Ident(i) => write!(word, "{i}").map(|()| 'i'),
        TokenTree::Literal(l) => write!(word, "{l}").map(|()| 'l'),
    };
    if kind.is_err() || MARKS.iter().any(|m| word.contains(m)) {
        return false;
    }
    // Written as its kind and length, then itself: a word is its placeholder, an identifier.
    let (kind, text) = match fills.iter().find(|(_, fill)| fill == word) {
        Some((placeholder, _)) => ('i', placeholder.as_str()),
        None => (kind.unwrap_or('i'), word.as_str()),
    };
    let _ = write!(key, "{kind}{}:{text}", text.len());
    true
}

/// Shapes printed so far, by their key.
#[derive(Default)]
pub(super) struct Printed(BTreeMap<String, String>);

impl Printed {
    /// The printed text of `shape`, printed by `print` the first time it is met.
    pub(super) fn get(
        &mut self,
        shape: &Shape,
        print: impl FnOnce(TokenStream) -> Result<String, String>,
    ) -> Result<&str, String> {
        if !self.0.contains_key(&shape.key) {
            let text = print(shape.tokens())?;
            self.0.insert(shape.key.clone(), text);
        }
        Ok(&self.0[&shape.key])
    }
}

#[cfg(test)]
mod tests {
    use quote::quote;

    use super::{Shape, Varying};

    #[test]
    fn a_shape_holds_placeholders_of_each_words_length_and_one_doc() {
        let item = Varying {
            tokens: quote! {
                #[doc = " Lists."]
                fn list_g0(&self) -> list_g0::Output { 12usize }
            },
            words: vec!["list_g0".into(), "12usize".into()],
        };
        let shape = Shape::of(item).expect("a shape");
        assert_eq!(
            shape.tokens().to_string(),
            quote! {
                #[doc = " __stitchgen_doc"]
                fn Qz0zzzz(&self) -> Qz0zzzz::Output { Qz1zzzz }
            }
            .to_string()
        );
        let printed = "        /// __stitchgen_doc\n        fn Qz0zzzz(&self) -> Qz0zzzz::Output {\n            Qz1zzzz\n        }\n";
        assert_eq!(
            shape.fill(printed).as_deref(),
            Some(
                "        /// Lists.\n        fn list_g0(&self) -> list_g0::Output {\n            12usize\n        }\n"
            )
        );
    }

    #[test]
    fn a_short_placeholder_is_never_taken_for_the_start_of_a_longer_slots() {
        // Slot 1's word is three bytes (`Qz1`), slot 10's is `Qz10zz`: filled, each is its own.
        let words: Vec<String> = (0..11).map(|i| if i == 1 { "abc".into() } else { format!("word_{i:02}") }).collect();
        let idents: Vec<proc_macro2::Ident> = words.iter().map(|w| quote::format_ident!("{}", w)).collect();
        let item = Varying { tokens: quote! { fn f() { #(#idents();)* } }, words: words.clone() };
        let shape = Shape::of(item).expect("a shape");
        let printed = shape.tokens().to_string();
        assert!(printed.contains("Qz1 ()") && printed.contains("Qz10zzz ()"), "{printed}");
        let filled = shape.fill(&printed).expect("filled");
        let calls: Vec<String> = words.iter().map(|w| format!("{w} ()")).collect();
        assert_eq!(filled, format!("fn f () {{ {} ; }}", calls.join(" ; ")));
    }

    #[test]
    fn items_that_cannot_be_filled_exactly_have_no_shape() {
        let short = Varying {
            tokens: quote!(
                fn ab() {}
            ),
            words: vec!["ab".into()],
        };
        assert!(Shape::of(short).is_err());
        let fenced = Varying {
            tokens: quote!(
                #[doc = " ```"]
                fn abc() {}
            ),
            words: vec!["abc".into()],
        };
        assert!(Shape::of(fenced).is_err());
        let marked = Varying {
            tokens: quote!(
                fn abc() -> Qz0 {}
            ),
            words: vec!["abc".into()],
        };
        assert!(Shape::of(marked).is_err());
        let raw = Varying {
            tokens: quote!(
                fn r#type() {}
            ),
            words: vec!["r#type".into()],
        };
        assert!(Shape::of(raw).is_err());
    }
}
