//! Post-processing of typify's output: every crate it names is reached through the runtime's
//! re-exports, serde derives are told where serde is, every public item gets a doc comment (and
//! loses typify's copy of its JSON Schema), so the module compiles under
//! `#![deny(warnings, missing_docs)]` with `stitchgen-runtime` alone.

use proc_macro2::{Group, Ident, Literal, Punct, Spacing, Span, TokenStream, TokenTree};

/// Crates typify names directly.
const ROUTED: &[&str] = &["serde", "serde_json", "chrono", "uuid", "regress"];

/// Path segments that may stand before a `::` without continuing a path.
const KEYWORDS: &[&str] = &[
    "as", "dyn", "impl", "for", "where", "in", "mut", "pub", "return", "let", "const", "static", "type", "fn", "ref",
    "move", "else", "match", "if",
];

/// The runtime path every routed crate is reached through.
pub(super) const PRIVATE: &str = "::stitchgen_runtime::__private";

/// Rewrites `::serde::…` (and the other routed crates) to `::stitchgen_runtime::__private::serde::…`
/// in tokens syn leaves unparsed (attribute arguments, macro bodies), including the string paths
/// of `#[serde(...)]` attributes. Parsed paths are rewritten by [`Finisher`], in place.
fn route(tokens: TokenStream) -> TokenStream {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut out: Vec<TokenTree> = Vec::with_capacity(tokens.len());
    let mut i = 0;
    while i < tokens.len() {
        let leading = is_path_sep(&tokens, i)
            && matches!(tokens.get(i + 2), Some(TokenTree::Ident(id)) if ROUTED.iter().any(|r| id == r))
            && !continues_path(out.last());
        if leading {
            out.extend(private_prefix());
        }
        out.push(match &tokens[i] {
            TokenTree::Group(g) => {
                let mut ng = Group::new(g.delimiter(), route(g.stream()));
                ng.set_span(g.span());
                TokenTree::Group(ng)
            }
            TokenTree::Literal(l) => route_literal(l),
            other => other.clone(),
        });
        i += 1;
    }
    out.into_iter().collect()
}

fn is_path_sep(tokens: &[TokenTree], i: usize) -> bool {
    matches!((tokens.get(i), tokens.get(i + 1)), (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b))) if a.as_char() == ':' && a.spacing() == Spacing::Joint && b.as_char() == ':')
}

/// Whether a `::` after `prev` continues a path (`Foo::serde`) rather than starting one. After
/// `>` it starts one: `impl<'de> ::serde::Deserialize<'de>`; no type has an item named after a
/// routed crate.
fn continues_path(prev: Option<&TokenTree>) -> bool {
    matches!(prev, Some(TokenTree::Ident(id)) if !KEYWORDS.iter().any(|k| id == k))
}

/// `::stitchgen_runtime::__private` as tokens (the caller's `::` follows).
fn private_prefix() -> Vec<TokenTree> {
    let mut v = Vec::new();
    for seg in ["stitchgen_runtime", "__private"] {
        v.push(TokenTree::Punct(Punct::new(':', Spacing::Joint)));
        v.push(TokenTree::Punct(Punct::new(':', Spacing::Alone)));
        v.push(TokenTree::Ident(Ident::new(seg, Span::call_site())));
    }
    v
}

fn route_literal(l: &Literal) -> TokenTree {
    let text = l.to_string();
    for krate in ROUTED {
        let from = format!("\"::{krate}::");
        if text.starts_with(&from) {
            let routed = text.replacen(&from, &format!("\"{PRIVATE}::{krate}::"), 1);
            if let Ok(TokenTree::Literal(lit)) =
                routed.parse::<TokenStream>().map(|s| s.into_iter().next().expect("one token"))
            {
                return TokenTree::Literal(lit);
            }
        }
    }
    TokenTree::Literal(l.clone())
}

/// Routes every path to a crate typify names through the runtime, adds `#[serde(crate = "...")]`
/// to items deriving serde traits, and a doc comment to every public item, field and variant
/// that has none.
pub(super) fn finish(file: &mut syn::File) {
    use syn::visit_mut::VisitMut;
    Finisher { block: Block::default() }.visit_file_mut(file);
}

/// Walks the module; `block` follows the Markdown blocks across the lines of an item's docs.
struct Finisher {
    block: Block,
}

/// Renames repeated identifiers, in order, as [`crate::naming::dedup_idents`] does.
fn dedup_in_place(mut idents: Vec<&mut syn::Ident>) {
    let names: Vec<String> = idents.iter().map(|i| i.to_string()).collect();
    if names.iter().enumerate().all(|(n, a)| !names[..n].contains(a)) {
        return;
    }
    for (ident, name) in idents.iter_mut().zip(crate::naming::dedup_idents(names)) {
        if **ident != name {
            **ident = syn::Ident::new(&name, ident.span());
        }
    }
}

fn has_doc(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("doc"))
}

fn doc(text: &str) -> syn::Attribute {
    let text = format!(" {text}");
    syn::parse_quote!(#[doc = #text])
}

fn derives_serde(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().filter(|a| a.path().is_ident("derive")).any(|a| {
        let text = a.meta.to_token_stream_string();
        text.contains("Serialize") || text.contains("Deserialize")
    })
}

trait TokenText {
    fn to_token_stream_string(&self) -> String;
}

impl<T: quote::ToTokens> TokenText for T {
    fn to_token_stream_string(&self) -> String {
        self.to_token_stream().to_string()
    }
}

/// The name a field or variant has in JSON: its serde rename, else its identifier.
fn json_name(attrs: &[syn::Attribute], ident: &str) -> String {
    for a in attrs.iter().filter(|a| a.path().is_ident("serde")) {
        let text = a.meta.to_token_stream_string();
        if let Some(rest) = text.split("rename = \"").nth(1)
            && let Some(name) = rest.split('"').next()
        {
            return name.to_owned();
        }
    }
    ident.trim_start_matches("r#").to_owned()
}

/// Whether `c` reorders how text is shown (rustc refuses these in literals and docs, the
/// "trojan source" codepoints).
pub(super) fn is_bidi(c: char) -> bool {
    matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Contract text made safe for a doc comment: control and bidi characters shown as escapes.
fn doc_safe(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_bidi(c) || (c.is_control() && c != '\n' && c != '\t') {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    out
}

/// What follows `///` where prettyplease prints `#[doc = text]` once finished, for a doc comment
/// of an item whose docs so far are text; `None` where that is not one `///` line shown as
/// written (a line break, a code fence, a line indented as code), or ends in a blank (left to
/// prettyplease).
pub(super) fn doc_comment(text: &str) -> Option<String> {
    let plain = !text.contains('\n') && !text.starts_with('/') && !text.ends_with(char::is_whitespace);
    (plain && indent(text) < 4 && fence(text).is_none()).then(|| doc_literal(&doc_safe(text)))
}

/// Where the Markdown of an item's docs stands between one line and the next (and from one
/// `#[doc]` of the item to the next).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Block {
    /// Text; `open` where an indented line would start a code block (at the start, after a
    /// blank line, a heading or the end of a code block), not where it continues a paragraph.
    Text { open: bool },
    /// A fenced code block: its fence's character and length, which a closing fence matches.
    Fenced { marker: char, run: usize },
    /// An indented code block, written as a `text` fence that the first line indented less
    /// closes.
    Indented,
}

impl Default for Block {
    fn default() -> Self {
        Block::Text { open: true }
    }
}

/// The columns of a line's indentation (a tab to the next multiple of four).
fn indent(line: &str) -> usize {
    let mut columns = 0;
    for c in line.chars() {
        match c {
            ' ' => columns += 1,
            '\t' => columns += 4 - columns % 4,
            _ => break,
        }
    }
    columns
}

/// A code fence (CommonMark): at most three columns of indentation, then three or more
/// backticks or tildes; its indentation, character, length and info string. A backtick fence's
/// info string holds no backtick (``` ```a``` ``` is a code span).
fn fence(line: &str) -> Option<(&str, char, usize, &str)> {
    let body = line.trim_start_matches([' ', '\t']);
    let lead = &line[..line.len() - body.len()];
    let marker = body.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let run = body.len() - body.trim_start_matches(marker).len();
    let info = &body[run..];
    (indent(lead) <= 3 && run >= 3 && !(marker == '`' && info.contains('`'))).then_some((lead, marker, run, info))
}

/// A doc comment's text as rustdoc should show it, a line at a time; `block` follows the
/// Markdown blocks from line to line. In text a line is shown as written ([`doc_literal`]); in
/// code, as is. A fence opened without a language or as Rust opens a `text` block, and one with
/// text rustdoc would read as code block attributes a `text` block with that text on the next
/// line; an indented code block is written as a `text` fence: description text is never a
/// doctest, nor a rustdoc warning. (Not handled: fences and indented blocks inside quotes,
/// which rustdoc reads as code too.)
fn finish_doc(text: &str, block: &mut Block) -> String {
    let mut out = String::with_capacity(text.len());
    for (n, line) in text.split('\n').enumerate() {
        if n > 0 {
            out.push('\n');
        }
        finish_line(&doc_safe(line), block, &mut out);
    }
    out
}

/// One line of [`finish_doc`].
fn finish_line(line: &str, block: &mut Block, out: &mut String) {
    let blank = line.trim().is_empty();
    match *block {
        Block::Fenced { marker, run } => {
            out.push_str(line);
            if fence(line).is_some_and(|(_, m, r, info)| m == marker && r >= run && info.trim().is_empty()) {
                *block = Block::Text { open: true };
            }
            return;
        }
        Block::Indented if blank || indent(line) >= 4 => {
            out.push_str(line);
            return;
        }
        Block::Indented => {
            // The first line indented less ends the block, after its closing fence.
            out.push_str("```\n");
            *block = Block::Text { open: true };
        }
        Block::Text { .. } => {}
    }
    let open = *block == Block::Text { open: true };
    if let Some((lead, marker, run, info)) = fence(line) {
        let fence = marker.to_string().repeat(run);
        let language = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ',' | '+' | '.');
        // Tags that make rustdoc compile and run the block.
        let runs = |tag: &str| {
            matches!(tag, "rust" | "no_run" | "should_panic" | "compile_fail" | "test_harness" | "standalone_crate")
                || tag.starts_with("edition")
        };
        match info.trim() {
            "" => out.push_str(&format!("{lead}{fence}text")),
            word if word.split(',').any(|t| runs(t.trim())) => out.push_str(&format!("{lead}{fence}text")),
            word if word.chars().all(language) => out.push_str(line),
            rest => out.push_str(&format!("{lead}{fence}text\n{lead}{rest}")),
        }
        *block = Block::Fenced { marker, run };
    } else if open && !blank && indent(line) >= 4 {
        out.push_str("```text\n");
        out.push_str(line);
        *block = Block::Indented;
    } else {
        out.push_str(&doc_literal(line));
        let heading = indent(line) <= 3 && line.trim_start().starts_with('#');
        *block = Block::Text { open: blank || heading };
    }
}

/// A doc line shown as written by rustdoc: outside code spans, `[`, `]` and `<` are escaped so
/// that contract text never becomes an intra-doc link or an HTML tag.
fn doc_literal(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut span: Option<usize> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '`' {
            let mut run = 1;
            while chars.next_if(|(_, c)| *c == '`').is_some() {
                run += 1;
            }
            span = match span {
                Some(open) if open == run => None,
                // A run opens a code span only when the same run closes it later on the line.
                None if closes(&line[i + run..], run) => Some(run),
                open => open,
            };
            out.push_str(&"`".repeat(run));
            continue;
        }
        if span.is_none() && matches!(c, '[' | ']' | '<') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The text of a `#[doc = "…"]` attribute.
pub(super) fn doc_text(a: &syn::Attribute) -> Option<String> {
    match &a.meta {
        syn::Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(text), .. }) => Some(text.value()),
            _ => None,
        },
        _ => None,
    }
}

/// Removes the collapsible JSON Schema typify writes under every type's description (and the
/// blank line before it). The contract is where the schema is read; in the module the copies
/// were a fifth of the bytes, parsed, printed and compiled on every build.
fn drop_schema_doc(attrs: &mut Vec<syn::Attribute>) {
    let is = |a: &syn::Attribute, line: &str| doc_text(a).is_some_and(|t| t.trim() == line);
    let Some(start) = attrs.iter().rposition(|a| is(a, "<details><summary>JSON schema</summary>")) else {
        return;
    };
    let Some(len) = attrs[start..].iter().position(|a| is(a, "</details>")) else {
        return;
    };
    let from = if start > 0 && is(&attrs[start - 1], "") { start - 1 } else { start };
    attrs.drain(from..=start + len);
}

/// Whether `p` starts with a crate typify names (`::serde::…`).
fn routed(p: &syn::Path) -> bool {
    p.leading_colon.is_some() && p.segments.first().is_some_and(|s| ROUTED.iter().any(|r| s.ident == r))
}

/// In `<T as ::serde::de::Error>::custom` the trait's segments are counted: the two segments
/// routing adds to the path belong to the trait.
fn requalify(qself: Option<&mut syn::QSelf>, path: &syn::Path) {
    if let Some(q) = qself
        && q.position > 0
        && routed(path)
    {
        q.position += 2;
    }
}

/// Whether `rest` holds a run of exactly `run` backticks.
fn closes(rest: &str, run: usize) -> bool {
    rest.split(|c| c != '`').any(|r| r.len() == run)
}

impl syn::visit_mut::VisitMut for Finisher {
    fn visit_attribute_mut(&mut self, a: &mut syn::Attribute) {
        if a.path().is_ident("doc")
            && let syn::Meta::NameValue(nv) = &mut a.meta
            && let syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(text), .. }) = &mut nv.value
        {
            let text_value = text.value();
            let safe = finish_doc(&text_value, &mut self.block);
            if safe != text_value {
                *text = syn::LitStr::new(&safe, text.span());
            }
        }
        syn::visit_mut::visit_attribute_mut(self, a);
    }

    // A code fence never runs from one item's (field's, variant's) doc comment into the next's:
    // rustdoc reads each item's docs on their own.
    fn visit_item_mut(&mut self, i: &mut syn::Item) {
        self.block = Block::default();
        syn::visit_mut::visit_item_mut(self, i);
    }

    fn visit_trait_item_mut(&mut self, i: &mut syn::TraitItem) {
        self.block = Block::default();
        syn::visit_mut::visit_trait_item_mut(self, i);
    }

    fn visit_impl_item_mut(&mut self, i: &mut syn::ImplItem) {
        self.block = Block::default();
        syn::visit_mut::visit_impl_item_mut(self, i);
    }

    fn visit_field_mut(&mut self, f: &mut syn::Field) {
        self.block = Block::default();
        syn::visit_mut::visit_field_mut(self, f);
    }

    fn visit_variant_mut(&mut self, v: &mut syn::Variant) {
        self.block = Block::default();
        syn::visit_mut::visit_variant_mut(self, v);
    }

    fn visit_path_mut(&mut self, p: &mut syn::Path) {
        if routed(p) {
            let span = Span::call_site();
            p.segments.insert(0, syn::PathSegment::from(Ident::new("__private", span)));
            p.segments.insert(0, syn::PathSegment::from(Ident::new("stitchgen_runtime", span)));
        }
        syn::visit_mut::visit_path_mut(self, p);
    }

    fn visit_expr_path_mut(&mut self, e: &mut syn::ExprPath) {
        requalify(e.qself.as_mut(), &e.path);
        syn::visit_mut::visit_expr_path_mut(self, e);
    }

    fn visit_type_path_mut(&mut self, t: &mut syn::TypePath) {
        requalify(t.qself.as_mut(), &t.path);
        syn::visit_mut::visit_type_path_mut(self, t);
    }

    fn visit_meta_list_mut(&mut self, m: &mut syn::MetaList) {
        m.tokens = route(std::mem::take(&mut m.tokens));
        syn::visit_mut::visit_meta_list_mut(self, m);
    }

    fn visit_macro_mut(&mut self, m: &mut syn::Macro) {
        m.tokens = route(std::mem::take(&mut m.tokens));
        syn::visit_mut::visit_macro_mut(self, m);
    }

    fn visit_item_struct_mut(&mut self, s: &mut syn::ItemStruct) {
        drop_schema_doc(&mut s.attrs);
        if derives_serde(&s.attrs) {
            let krate = format!("{PRIVATE}::serde");
            s.attrs.push(syn::parse_quote!(#[serde(crate = #krate)]));
        }
        if !has_doc(&s.attrs) {
            s.attrs.insert(0, doc(&format!("`{}`.", s.ident)));
        }
        for f in s.fields.iter_mut().filter(|f| matches!(f.vis, syn::Visibility::Public(_))) {
            if !has_doc(&f.attrs)
                && let Some(ident) = &f.ident
            {
                f.attrs.insert(0, doc(&format!("The `{}` property.", json_name(&f.attrs, &ident.to_string()))));
            }
        }
        syn::visit_mut::visit_item_struct_mut(self, s);
    }

    fn visit_item_enum_mut(&mut self, e: &mut syn::ItemEnum) {
        drop_schema_doc(&mut e.attrs);
        if derives_serde(&e.attrs) {
            let krate = format!("{PRIVATE}::serde");
            e.attrs.push(syn::parse_quote!(#[serde(crate = #krate)]));
        }
        if !has_doc(&e.attrs) {
            e.attrs.insert(0, doc(&format!("`{}`.", e.ident)));
        }
        for v in &mut e.variants {
            if !has_doc(&v.attrs) {
                let name = json_name(&v.attrs, &v.ident.to_string());
                v.attrs.insert(0, doc(&format!("`{name}`.")));
            }
            // typify names the values `+1` and `-1` `plus1` and `minus1` in every case
            // (typify-impl `util::sanitize`), which `non_camel_case_types` refuses.
            if v.ident.to_string().starts_with(|c: char| c.is_ascii_lowercase()) {
                v.attrs.push(syn::parse_quote!(#[allow(non_camel_case_types)]));
            }
            for f in v.fields.iter_mut() {
                if !has_doc(&f.attrs)
                    && let Some(ident) = &f.ident
                {
                    f.attrs.insert(0, doc(&format!("The `{}` property.", json_name(&f.attrs, &ident.to_string()))));
                }
            }
        }
        syn::visit_mut::visit_item_enum_mut(self, e);
    }

    /// Properties whose names share one Rust form (`EndTime`, `EndTime<`) come out of typify
    /// as two fields of one name; each repeat takes a suffix (its `serde(rename)` keeps the
    /// wire name). typify writes struct literals in field order, so they are renamed alike.
    fn visit_fields_named_mut(&mut self, f: &mut syn::FieldsNamed) {
        let idents: Vec<&mut syn::Ident> = f.named.iter_mut().filter_map(|f| f.ident.as_mut()).collect();
        dedup_in_place(idents);
        syn::visit_mut::visit_fields_named_mut(self, f);
    }

    fn visit_expr_struct_mut(&mut self, e: &mut syn::ExprStruct) {
        let idents: Vec<&mut syn::Ident> = e
            .fields
            .iter_mut()
            .filter_map(|f| match &mut f.member {
                syn::Member::Named(i) => Some(i),
                syn::Member::Unnamed(_) => None,
            })
            .collect();
        dedup_in_place(idents);
        syn::visit_mut::visit_expr_struct_mut(self, e);
    }

    fn visit_item_type_mut(&mut self, t: &mut syn::ItemType) {
        if !has_doc(&t.attrs) {
            t.attrs.insert(0, doc(&format!("`{}`.", t.ident)));
        }
        syn::visit_mut::visit_item_type_mut(self, t);
    }

    fn visit_impl_item_fn_mut(&mut self, f: &mut syn::ImplItemFn) {
        if matches!(f.vis, syn::Visibility::Public(_)) && !has_doc(&f.attrs) {
            f.attrs.insert(0, doc(&format!("`{}`.", f.sig.ident)));
        }
        syn::visit_mut::visit_impl_item_fn_mut(self, f);
    }
}

#[cfg(test)]
mod tests {
    use super::{Block, finish_doc};

    fn finished(lines: &[&str]) -> Vec<String> {
        let mut block = Block::default();
        lines.iter().map(|l| finish_doc(l, &mut block)).collect()
    }

    #[test]
    fn text_outside_a_fence_is_shown_as_written_and_inside_as_is() {
        let doc = " See [a] <b>\n```json\n{\"a\": [1]}\n```\nthen [c]";
        let want = " See \\[a\\] \\<b>\n```json\n{\"a\": [1]}\n```\nthen \\[c\\]";
        assert_eq!(finish_doc(doc, &mut Block::default()), want);
    }

    #[test]
    fn a_fence_without_a_language_is_text_never_a_doctest() {
        assert_eq!(
            finished(&[" ```", " let x = [1];", " ```", " [d]"]),
            [" ```text", " let x = [1];", " ```", " \\[d\\]"]
        );
    }

    #[test]
    fn text_after_a_fence_that_is_no_language_goes_to_the_next_line() {
        let doc = "``` <quantity> ::= <digit>\n<digit> ::= 0 | 1";
        assert_eq!(finish_doc(doc, &mut Block::default()), "```text\n<quantity> ::= <digit>\n<digit> ::= 0 | 1");
    }

    #[test]
    fn a_fence_rustdoc_would_run_is_text() {
        assert_eq!(finished(&["```rust", "curl -X GET", "```"]), ["```text", "curl -X GET", "```"]);
        assert_eq!(finished(&["```no_run,edition2021", "x", "```"]), ["```text", "x", "```"]);
        assert_eq!(finished(&["```json", "{}", "```"]), ["```json", "{}", "```"]);
    }

    #[test]
    fn tilde_fences_and_longer_fences_are_fences() {
        assert_eq!(finished(&["~~~", "let x = [1];", "~~~", "[x]"]), ["~~~text", "let x = [1];", "~~~", "\\[x\\]"]);
        // Only a fence as long closes one: the three backticks inside are code.
        assert_eq!(finished(&["````", "```", "[x]", "````", "[x]"]), ["````text", "```", "[x]", "````", "\\[x\\]"]);
        assert_eq!(finished(&["```a```"]), ["```a```"], "a code span, not a fence");
    }

    #[test]
    fn an_indented_code_block_is_a_text_fence() {
        let doc = " Example:\n\n    let x = [1];\n\n        y\nthen [x]";
        assert_eq!(
            finish_doc(doc, &mut Block::default()),
            " Example:\n\n```text\n    let x = [1];\n\n        y\n```\nthen \\[x\\]"
        );
        // Each line its own `#[doc]`: the block still starts after a blank line or a heading.
        assert_eq!(finished(&["# Use", "\tcurl [x]", "[y]"]), ["# Use", "```text\n\tcurl [x]", "```\n\\[y\\]"]);
        assert_eq!(finished(&["    [first]"]), ["```text\n    [first]"], "at the start of the docs");
    }

    #[test]
    fn an_indented_line_that_continues_a_paragraph_is_text() {
        assert_eq!(finished(&["A paragraph", "    continued [x]"]), ["A paragraph", "    continued \\[x\\]"]);
        assert_eq!(super::doc_comment("    code"), None);
        assert_eq!(super::doc_comment("~~~"), None);
        assert_eq!(super::doc_comment(" "), None, "a blank is left to prettyplease");
    }

    #[test]
    fn only_a_bare_fence_closes_one() {
        assert_eq!(finished(&["```", "```json", "[x]", "```", "[x]"]), ["```text", "```json", "[x]", "```", "\\[x\\]"]);
    }
}
