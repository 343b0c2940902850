//! Reading contract files: bytes → YAML tree with spans → the contract AST.

pub mod ast;
mod decode;
mod events;
mod halves;
mod json;
pub mod node;
mod security;

use std::path::Path;

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::source::{FileId, SourceMap, Span};
use node::Node;

/// The largest contract file read, in bytes. A 5,000-endpoint contract is about 3 MiB.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;
/// The deepest YAML nesting accepted; bounds recursion everywhere downstream.
pub const MAX_YAML_DEPTH: usize = 64;
/// The most YAML nodes one file may hold, aliases expanded.
pub const MAX_NODES: usize = 2_000_000;
/// The most events alias expansion may replay: a few hundred small reuses pass, a
/// billion-laughs document is refused long before it costs memory.
pub const MAX_ALIAS_REPLAY: usize = 100_000;

/// One endpoint decoded from a tree of the importer's, for the questions `check` answers about
/// endpoints (such as [`crate::check::not_a_tool`]); `None` where it does not decode.
pub(crate) fn endpoint(action: &str, node: &Node) -> Option<ast::Endpoint> {
    use decode::DecodeEntry;
    ast::Endpoint::decode_entry(action, node.span, node, &mut Diagnostics::default())
}

/// An I/O failure reading a contract: a usage problem, not a declaration error.
#[derive(Debug)]
pub struct ReadError {
    /// The path as given.
    pub path: String,
    /// What the operating system said.
    pub error: std::io::Error,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot read `{}`: {}", self.path, self.error)
    }
}

impl std::error::Error for ReadError {}

/// What a file read is, as its diagnostics name it: an OpenAPI document is never called a
/// contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Document {
    /// A contract (`*.stitch.yaml`).
    Contract,
    /// A file of an OpenAPI description, read by `import`.
    OpenApi,
    /// The accepted changes of `diff --accept`.
    Acceptance,
}

impl Document {
    fn noun(self) -> &'static str {
        match self {
            Document::Contract => "contract file",
            Document::OpenApi => "OpenAPI document",
            Document::Acceptance => "acceptance file",
        }
    }

    fn smaller(self) -> &'static str {
        match self {
            Document::Contract => "split the service into several contracts given together",
            Document::OpenApi => "split the description into files joined by `$ref`",
            Document::Acceptance => "keep fewer accepted changes",
        }
    }
}

/// The first bytes of a gzip stream.
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Reads one contract into `sources`; see [`read_as`].
pub fn read(path: &Path, sources: &mut SourceMap, diags: &mut Diagnostics) -> Result<Option<FileId>, ReadError> {
    read_as(path, Document::Contract, sources, diags)
}

/// Reads one file into `sources`, bounded in size: gzip-compressed input (as public API corpora
/// ship their descriptions) is decompressed, and bounded after decompression, so a small file
/// cannot unpack into an unbounded one. Invalid UTF-8 and oversized files become diagnostics on
/// the file; only I/O failures (a corrupt gzip stream among them) are errors.
pub fn read_as(
    path: &Path,
    what: Document,
    sources: &mut SourceMap,
    diags: &mut Diagnostics,
) -> Result<Option<FileId>, ReadError> {
    use std::io::{BufRead, Read};
    let err = |error| ReadError { path: crate::source::display_path(path), error };
    let mut file = std::io::BufReader::new(std::fs::File::open(path).map_err(err)?);
    let gzip = file.fill_buf().map_err(err)?.starts_with(&GZIP_MAGIC);
    let mut bytes = Vec::new();
    if gzip {
        flate2::bufread::MultiGzDecoder::new(file).take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)
    } else {
        file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)
    }
    .map_err(err)?;
    Ok(load_as(path, what, bytes, sources, diags))
}

/// Adds contract bytes read from anywhere (a file, `git show`) to `sources`; see [`load_as`].
pub fn load(path: &Path, bytes: Vec<u8>, sources: &mut SourceMap, diags: &mut Diagnostics) -> Option<FileId> {
    load_as(path, Document::Contract, bytes, sources, diags)
}

/// Adds the bytes of a `what` to `sources`, bounded in size. Oversized and invalid UTF-8 input
/// become diagnostics.
pub fn load_as(
    path: &Path,
    what: Document,
    bytes: Vec<u8>,
    sources: &mut SourceMap,
    diags: &mut Diagnostics,
) -> Option<FileId> {
    let noun = what.noun();
    if bytes.len() as u64 > MAX_FILE_BYTES {
        let id = sources.add(path, String::new());
        diags.push(
            Diagnostic::new(
                Code::FileTooLarge,
                Span::new(id, 0, 0),
                format!("{noun} is larger than {} MiB", MAX_FILE_BYTES >> 20),
            )
            .help(what.smaller()),
        );
        return None;
    }
    match String::from_utf8(bytes) {
        Ok(text) => Some(sources.add(path, text)),
        Err(e) => {
            let at = e.utf8_error().valid_up_to();
            let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
            let id = sources.add(path, text);
            // The first bad sequence is one U+FFFD in the lossy text, right at `at`.
            let replacement = char::REPLACEMENT_CHARACTER.len_utf8();
            diags.push(
                Diagnostic::new(
                    Code::InvalidUtf8,
                    Span::new(id, at, at + replacement),
                    format!("{noun} is not valid UTF-8"),
                )
                .label("invalid byte sequence here")
                .help("save the file as UTF-8"),
            );
            None
        }
    }
}

/// Parses the YAML text of `file` into a spanned tree with the DSL's strict options.
/// Plain JSON (most large descriptions) is read in one pass into the same tree, and plain YAML
/// straight from the parser's events.
pub fn yaml(sources: &SourceMap, file: FileId, diags: &mut Diagnostics) -> Option<Node> {
    let text = &sources.file(file).text;
    if let Some(node) = json::read(text).or_else(|| plain(text)) {
        return Some(node.with_file(file));
    }
    match saphyr(text, file) {
        Ok(node) => Some(node.with_file(file)),
        Err(d) => {
            diags.push(*d);
            None
        }
    }
}

#[doc(hidden)]
/// Whether the one-pass JSON reader reads `text`, into the very tree (values and spans) the YAML
/// parser makes of it: the corpus test asks of every real JSON description.
pub fn json_reads_as_yaml(text: &str) -> bool {
    let read = json::read(text);
    read.is_some() && read == saphyr(text, FileId(0)).ok()
}

#[doc(hidden)]
/// Whether the YAML read from the parser's events (in halves, where a large text splits) is the
/// tree serde-saphyr makes of `text` (values and spans); `None` when `text` is not read from the
/// events: the corpus test asks of every real YAML document and every contract imported.
pub fn events_read_as_yaml(text: &str) -> Option<bool> {
    plain(text).map(|read| saphyr(text, FileId(0)).ok() == Some(read))
}

/// Every YAML fixture and example contract of the repository with its text: what the readers'
/// tests read.
#[cfg(test)]
fn yaml_fixtures() -> Vec<(std::path::PathBuf, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let (mut pending, mut out) = (vec![root.join("fixtures"), root.join("build-examples")], Vec::new());
    while let Some(dir) = pending.pop() {
        for path in std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()) {
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|x| x == "yaml")
                && let Ok(text) = std::fs::read_to_string(&path)
            {
                out.push((path, text));
            }
        }
    }
    out
}

/// Plain YAML read from the parser's events: a large text in two halves side by side where it
/// splits plainly ([`halves`]), else whole.
fn plain(text: &str) -> Option<Node> {
    halves::read(text).or_else(|| events::read(text))
}

/// `text` read by the YAML parser.
fn saphyr(text: &str, file: FileId) -> Result<Node, Box<Diagnostic>> {
    on_parser_stack(|| {
        serde_saphyr::from_str_with_options::<Node>(text, options()).map_err(|e| Box::new(yaml_error(&e, text, file)))
    })
}

/// The values of YAML `text` as [`yaml`] reads them ([`Node::to_json`] of its tree), read
/// without spans: `import` reads the contract it wrote back so, to be sure it reads as meant.
pub(crate) fn yaml_values(text: &str) -> Option<serde_json::Value> {
    on_parser_stack(|| serde_saphyr::from_str_with_options::<node::Plain>(text, options()).ok().map(|p| p.0))
}

/// The DSL's strict reading of YAML, and its bounds.
fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        strict_booleans: true,
        leading_zero_numbers_as_strings: true,
        reject_unsupported_tags: true,
        duplicate_keys: serde_saphyr::DuplicateKeyPolicy::PassThrough,
        budget: serde_saphyr::budget! { max_depth: MAX_YAML_DEPTH, max_nodes: MAX_NODES, max_documents: 1 },
        alias_limits: serde_saphyr::alias_limits! { max_total_replayed_events: MAX_ALIAS_REPLAY },
    }
}

/// Stack for the YAML parser. Its recursion is bounded by [`MAX_YAML_DEPTH`], but unoptimized
/// builds spend tens of KiB a level, more than the 2 MiB of a test or worker thread.
const PARSER_STACK_BYTES: usize = 64 * 1024 * 1024;

/// Runs `f` on a thread with a stack large enough for the deepest document accepted.
fn on_parser_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("stitchgen-parse".into())
            .stack_size(PARSER_STACK_BYTES)
            .spawn_scoped(scope, f)
            .expect("spawning the parser thread");
        handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

fn yaml_error(e: &serde_saphyr::Error, text: &str, file: FileId) -> Diagnostic {
    use serde_saphyr::MessageFormatter;
    let message = serde_saphyr::DefaultMessageFormatter.format_message(e).into_owned();
    let at = e
        .location()
        .and_then(|l| {
            l.span().byte_offset().map(|o| o as usize).or_else(|| line_col_offset(text, l.line(), l.column()))
        })
        .unwrap_or(0);
    let at = crate::source::floor_char_boundary(text, at);
    let span = Span::new(file, at, next_char(text, at));
    let limit = |what: String| {
        Diagnostic::new(Code::YamlLimit, span, format!("the document exceeds a parser limit: {what}"))
            .label("limit reached here")
            .note(format!(
                "a contract nests at most {MAX_YAML_DEPTH} levels, holds at most {MAX_NODES} nodes and replays at most {MAX_ALIAS_REPLAY} events through aliases"
            ))
    };
    let lower = message.to_lowercase();
    if lower.contains("documents") {
        Diagnostic::new(Code::YamlUnsupported, span, "more than one YAML document in a contract")
            .label("a second document starts here")
            .help("a contract is one document: give each service its own file")
    } else if lower.contains("depth") || lower.contains("recursion") || lower.contains("nesting") {
        limit(format!("nested deeper than {MAX_YAML_DEPTH} levels"))
            .help("name inner schemas under `types:` and refer to them with `$ref`")
    } else if lower.contains("alias") || lower.contains("replay") {
        limit("aliases expand to too much".into())
            .help("write the repeated parts once under `types:` and refer to them with `$ref`")
    } else if lower.contains("budget") {
        limit(message.clone()).help("split the service into several contracts given together")
    } else if lower.contains("tag") {
        Diagnostic::new(Code::YamlUnsupported, span, format!("unsupported YAML tag: {message}"))
            .label("tags are not part of the DSL")
            .help("remove the tag; contracts are plain YAML")
    } else {
        Diagnostic::new(Code::YamlSyntax, span, format!("invalid YAML: {message}")).label(message)
    }
}

fn line_col_offset(text: &str, line: u64, col: u64) -> Option<usize> {
    let line_start = if line <= 1 { 0 } else { text.match_indices('\n').nth(line as usize - 2).map(|(i, _)| i + 1)? };
    let rest = &text[line_start..];
    Some(line_start + rest.char_indices().nth(col.saturating_sub(1) as usize).map_or(rest.len(), |(i, _)| i))
}

fn next_char(text: &str, at: usize) -> usize {
    text.get(at..).and_then(|rest| rest.chars().next()).map_or(at, |c| at + c.len_utf8())
}

/// Decodes a parsed document into the contract AST, reporting every problem found.
pub fn contract(root: &Node, diags: &mut Diagnostics) -> Option<ast::Contract> {
    decode::contract(root, diags)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_without_spans_are_those_of_the_spanned_tree() {
        let texts = [
            "a: 1\nb: [true, false, ~, 1.5, -2, 012, yes, '3']\n200: {x: y}\ntrue: 1\n",
            "k: &anchor {v: 1}\nl: *anchor\nfolded: >-\n  one\n  two\nliteral: |\n  x\n",
            "dup: 1\ndup: 2\n? [a]\n: dropped\nbig: 18446744073709551615\nf: 1e3\n",
            "{\"json\": [1, {\"x\": null}]}",
        ];
        for text in texts {
            let spanned = saphyr(text, FileId(0)).map(|n| n.to_json()).ok();
            assert!(spanned.is_some(), "{text}");
            assert_eq!(yaml_values(text), spanned, "{text}");
        }
        assert_eq!(yaml_values("a: [1"), None);
    }
}
