//! Reading an OpenAPI description whole: the entry document and every file its relative `$ref`s
//! name, each reference checked (it points somewhere, stays under the entry's folder, does not
//! loop) before anything is converted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::parse::node::{Node, Value};
use crate::parse::{self, ReadError};
use crate::source::{SourceMap, Span};

/// The most files one description may span (DigitalOcean's public one is about 2,850).
pub(super) const MAX_FILES: usize = 20_000;
/// The longest chain of bare `$ref`s followed before it counts as a loop.
const MAX_HOPS: usize = 64;

/// One file of the description.
#[derive(Debug)]
pub(super) struct Doc {
    /// The file's tree, spans in the file.
    pub(super) root: Node,
    /// The canonical path: which file it is.
    pub(super) path: PathBuf,
    /// The path it was read at, relative where the entry's was: its references resolve against
    /// it, and diagnostics show it.
    given: PathBuf,
}

/// Where a reference leads: a document and a JSON pointer in it (`""` for the whole file).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Loc {
    /// Index into [`Docs::docs`].
    pub(super) doc: usize,
    /// RFC 6901 pointer, decoded from the reference's fragment.
    pub(super) pointer: String,
}

/// Every file of one description, the entry first.
#[derive(Debug)]
pub(super) struct Docs {
    /// The files, in the order they were first referred to.
    pub(super) docs: Vec<Doc>,
    by_path: BTreeMap<PathBuf, usize>,
    /// A reference that points nowhere is read as any value, with a warning.
    lenient: bool,
}

/// What the reader says about a `$ref` string before anything is read.
enum Target {
    /// Same file or a relative path (already joined with the referring file's folder).
    Local(Option<PathBuf>, String),
    /// A URL or a network path.
    Network,
}

impl Docs {
    /// Reads the entry document and every file it refers to, reporting each reference that
    /// points nowhere, leaves the entry's folder or the machine, or loops. `None` when any
    /// file is not readable as JSON or YAML, or any reference is broken.
    pub(super) fn load(
        entry: &Path,
        lenient: bool,
        sources: &mut SourceMap,
        diags: &mut Diagnostics,
    ) -> Result<Option<Docs>, ReadError> {
        let canonical = std::fs::canonicalize(entry)
            .map_err(|error| ReadError { path: crate::source::display_path(entry), error })?;
        let folder = canonical.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut docs = Docs { docs: Vec::new(), by_path: BTreeMap::new(), lenient };
        let Some(root) = read_tree(entry, sources, diags)? else { return Ok(None) };
        docs.add(root, canonical, entry.to_path_buf());
        let mut refs = Vec::new();
        let mut next = 0;
        while next < docs.docs.len() {
            let mut found = Vec::new();
            collect_refs(&docs.docs[next].root, "", &mut found);
            for (span, text, at) in found {
                let mut local = Diagnostics::default();
                let loc = docs.locate(next, &text, span, &folder, sources, &mut local)?;
                diags.extend(with_pointer(local, &at));
                refs.extend(loc.map(|loc| (span, text, at, loc)));
            }
            next += 1;
        }
        for (span, text, at, loc) in &refs {
            let mut local = Diagnostics::default();
            docs.check_ref(*span, text, loc, &mut local);
            diags.extend(with_pointer(local, at));
        }
        Ok((!diags.has_errors()).then_some(docs))
    }

    fn add(&mut self, root: Node, path: PathBuf, given: PathBuf) -> usize {
        self.docs.push(Doc { root, path: path.clone(), given });
        self.by_path.insert(path, self.docs.len() - 1);
        self.docs.len() - 1
    }

    /// Finds (reading it when new) the file a reference names; reports references it refuses.
    fn locate(
        &mut self,
        from: usize,
        text: &str,
        span: Span,
        folder: &Path,
        sources: &mut SourceMap,
        diags: &mut Diagnostics,
    ) -> Result<Option<Loc>, ReadError> {
        let base = self.docs[from].given.parent().map(Path::to_path_buf).unwrap_or_default();
        let (file, pointer) = match split(text, &base) {
            Some(Target::Local(file, pointer)) => (file, pointer),
            Some(Target::Network) => {
                diags.push(
                    Diagnostic::new(Code::ImportRefOutside, span, format!("`$ref: {text}` refers to the network"))
                        .label("not read")
                        .help("download the referenced document beside this one and refer to it by a relative path"),
                );
                return Ok(None);
            }
            None => {
                diags.push(
                    Diagnostic::new(Code::ImportRefNowhere, span, format!("`$ref: {text}` is not a reference"))
                        .label("the fragment is not a JSON pointer")
                        .help("write `#/components/schemas/NAME` or `FILE#/POINTER`"),
                );
                return Ok(None);
            }
        };
        let Some(file) = file else { return Ok(Some(Loc { doc: from, pointer })) };
        let Ok(canonical) = std::fs::canonicalize(&file) else {
            let label = "no such file, relative to the file that refers to it";
            diags.push(self.nowhere(span, format!("`$ref: {text}` names a file that does not exist"), label.into()));
            return Ok(None);
        };
        if !canonical.starts_with(folder) {
            diags.push(
                Diagnostic::new(
                    Code::ImportRefOutside,
                    span,
                    format!("`$ref: {text}` leaves the folder of the entry document"),
                )
                .label("not read")
                .help("import from the topmost document of the description, or move the file under its folder"),
            );
            return Ok(None);
        }
        if let Some(&doc) = self.by_path.get(&canonical) {
            return Ok(Some(Loc { doc, pointer }));
        }
        if self.docs.len() >= MAX_FILES {
            diags.push(
                Diagnostic::new(Code::YamlLimit, span, format!("the description spans more than {MAX_FILES} files"))
                    .label("not read: one file too many"),
            );
            return Ok(None);
        }
        let Some(root) = read_tree(&file, sources, diags)? else { return Ok(None) };
        Ok(Some(Loc { doc: self.add(root, canonical, file), pointer }))
    }

    /// Reports a reference whose pointer names nothing, or that starts a loop of bare `$ref`s.
    fn check_ref(&self, span: Span, text: &str, loc: &Loc, diags: &mut Diagnostics) {
        let Some(loc) = self.through(loc, 0) else {
            let label = format!("nothing at `{}` in that file", shown_pointer(&loc.pointer));
            diags.push(self.nowhere(span, format!("`$ref: {text}` points nowhere"), label));
            return;
        };
        let mut seen = BTreeSet::new();
        let mut at = loc.clone();
        for _ in 0..MAX_HOPS {
            if !seen.insert(at.clone()) {
                diags.push(
                    Diagnostic::new(Code::ImportRefCycle, span, format!("`$ref: {text}` starts a loop of references"))
                        .label("following it comes back here")
                        .help("one of the schemas on the loop must say what it is, not only refer on"),
                );
                return;
            }
            match self.node(&at).and_then(bare_ref).and_then(|r| self.follow(at.doc, r)) {
                Some(next) => at = next,
                None => return,
            }
        }
    }

    /// A reference that points nowhere: the document is broken, unless the import is lenient,
    /// which reads it as any value.
    fn nowhere(&self, span: Span, message: String, label: String) -> Diagnostic {
        if self.lenient {
            Diagnostic::new(Code::ImportLowered, span, format!("{message}: read as any value (`--lenient`)"))
                .label(label)
        } else {
            Diagnostic::new(Code::ImportRefNowhere, span, message)
                .label(label)
                .help("fix the reference; or import with `--lenient`, which reads it as any value, with a warning")
        }
    }

    /// The node at `loc`, if there is one.
    pub(super) fn node(&self, loc: &Loc) -> Option<&Node> {
        self.docs.get(loc.doc)?.root.pointer(&loc.pointer)
    }

    /// Where a reference written in document `from` leads (files already read only), through
    /// any mapping-level `$ref` on the way ([`Docs::through`]).
    pub(super) fn follow(&self, from: usize, text: &str) -> Option<Loc> {
        let loc = self.target(from, text)?;
        Some(self.through(&loc, 0).unwrap_or(loc))
    }

    /// Where a reference written in document `from` points, as written.
    fn target(&self, from: usize, text: &str) -> Option<Loc> {
        let base = self.docs[from].given.parent()?.to_path_buf();
        match split(text, &base)? {
            Target::Local(None, pointer) => Some(Loc { doc: from, pointer }),
            Target::Local(Some(file), pointer) => {
                let doc = *self.by_path.get(&std::fs::canonicalize(file).ok()?)?;
                Some(Loc { doc, pointer })
            }
            Target::Network => None,
        }
    }

    /// `loc` where its node is written: a pointer that passes a mapping-level `$ref`
    /// (`#/components/schemas/Place` when `schemas` is `{$ref: ./schemas/_index.yml}`) goes on
    /// in the file that reference names. `None` when nothing is there.
    fn through(&self, loc: &Loc, hops: usize) -> Option<Loc> {
        let mut node = &self.docs.get(loc.doc)?.root;
        let mut at = Loc { doc: loc.doc, pointer: String::new() };
        let tokens: Vec<&str> = loc.pointer.split('/').skip(1).collect();
        for (i, token) in tokens.iter().enumerate() {
            let name = token.replace("~1", "/").replace("~0", "~");
            let child = match &node.value {
                Value::Map(_) => node.get(&name),
                Value::Seq(items) => token.parse::<usize>().ok().and_then(|n| items.get(n)),
                _ => None,
            };
            match child {
                Some(child) => {
                    node = child;
                    at.pointer = format!("{}/{token}", at.pointer);
                }
                None if hops < MAX_HOPS => {
                    let target = node.get("$ref").and_then(Node::as_str).and_then(|r| self.target(at.doc, r))?;
                    let rest: String = tokens[i..].iter().map(|t| format!("/{t}")).collect();
                    let next = Loc { doc: target.doc, pointer: format!("{}{rest}", target.pointer) };
                    return self.through(&next, hops + 1);
                }
                None => return None,
            }
        }
        Some(at)
    }

    /// Whether the schema at `target` is a definition of its own (`components/schemas/NAME`,
    /// `definitions/NAME`, `$defs/NAME`, or a top-level entry of a file of schemas) whose every
    /// reference, in every file read, is a member of an `allOf`: the schema is only ever
    /// extended, never a value of its own, where a `discriminator` on it would choose among the
    /// schemas that extend it. A schema written inline is a value where it is written.
    pub(super) fn only_extended(&self, target: &Loc) -> bool {
        let segments: Vec<&str> = target.pointer.split('/').skip(1).collect();
        let defined = matches!(segments.as_slice(), ["components", "schemas", _] | ["definitions" | "$defs", _])
            || (target.doc > 0 && segments.len() == 1);
        defined && self.docs.iter().enumerate().all(|(doc, d)| self.extended_in(doc, &d.root, target, false))
    }

    fn extended_in(&self, doc: usize, node: &Node, target: &Loc, member: bool) -> bool {
        match &node.value {
            Value::Map(entries) => {
                let refers = node.get("$ref").and_then(Node::as_str).and_then(|r| self.follow(doc, r));
                if !member && refers.as_ref() == Some(target) {
                    return false;
                }
                entries.iter().all(|(k, v)| match (&v.value, k.as_str() == Some("allOf")) {
                    (Value::Seq(members), true) => members.iter().all(|m| self.extended_in(doc, m, target, true)),
                    _ => self.extended_in(doc, v, target, false),
                })
            }
            Value::Seq(items) => items.iter().all(|n| self.extended_in(doc, n, target, false)),
            _ => true,
        }
    }

    /// Follows bare `$ref`s (a mapping whose only meaningful key is `$ref`) from `node` in
    /// `loc`'s document to what they name: for parameters, responses, bodies and headers.
    pub(super) fn deref<'a>(&'a self, mut loc: Loc, mut node: &'a Node) -> (Loc, &'a Node) {
        for _ in 0..MAX_HOPS {
            let Some(next) = bare_ref(node).and_then(|r| self.follow(loc.doc, r)) else { break };
            let Some(target) = self.node(&next) else { break };
            (loc, node) = (next, target);
        }
        (loc, node)
    }
}

/// One entry of a mapping whose keys are names: its key, and where its value is.
pub(super) struct Named<'a> {
    /// The name, as written.
    pub(super) key: &'a Node,
    /// Where the value is (in the file of the mapping that holds it).
    pub(super) loc: Loc,
    /// The value.
    pub(super) node: &'a Node,
}

impl Docs {
    /// The entries of the name mapping `node` at `loc` (`paths`, `components.schemas`), with a
    /// mapping-level `$ref` (`paths: {$ref: ./paths/_index.yml}`, not standard OpenAPI but
    /// published) read as the entries of the mapping it names. Returns the entries and the
    /// mapping-level references followed, each as (span, JSON pointer).
    pub(super) fn named<'a>(&'a self, loc: &Loc, node: &'a Node) -> (Vec<Named<'a>>, Vec<(Span, String)>) {
        let (mut out, mut followed) = (Vec::new(), Vec::new());
        self.named_into(loc, node, 0, &mut out, &mut followed);
        (out, followed)
    }

    fn named_into<'a>(
        &'a self,
        loc: &Loc,
        node: &'a Node,
        hops: usize,
        out: &mut Vec<Named<'a>>,
        followed: &mut Vec<(Span, String)>,
    ) {
        for (k, v) in node.as_map().unwrap_or_default() {
            let key = k.as_str().unwrap_or_default();
            let pointer = format!("{}/{}", loc.pointer, key.replace('~', "~0").replace('/', "~1"));
            let target = v.as_str().filter(|_| key == "$ref").and_then(|r| self.follow(loc.doc, r));
            match target.and_then(|t| Some((self.node(&t)?, t))) {
                Some((target, at)) if hops < MAX_HOPS => {
                    followed.push((k.span, pointer));
                    self.named_into(&at, target, hops + 1, out, followed);
                }
                _ => out.push(Named { key: k, loc: Loc { doc: loc.doc, pointer }, node: v }),
            }
        }
    }
}

/// The diagnostics of one reference, each with the JSON pointer of the `$ref` (file errors of
/// a file it names are that file's own and keep their place).
fn with_pointer(local: Diagnostics, at: &str) -> Diagnostics {
    let mut out = Diagnostics::default();
    for d in local.into_sorted() {
        let is_ref = matches!(
            d.code,
            Code::ImportRefNowhere | Code::ImportRefOutside | Code::ImportRefCycle | Code::ImportLowered
        );
        out.push(if is_ref { d.note(format!("the `$ref` is at {}", shown_pointer(at))) } else { d });
    }
    out
}

/// Reads and parses one file of the description.
fn read_tree(path: &Path, sources: &mut SourceMap, diags: &mut Diagnostics) -> Result<Option<Node>, ReadError> {
    let Some(file) = parse::read_as(path, parse::Document::OpenApi, sources, diags)? else { return Ok(None) };
    Ok(parse::yaml(sources, file, diags))
}

/// The target of a `$ref` written in a file of folder `base`; `None` when it is malformed.
fn split(text: &str, base: &Path) -> Option<Target> {
    if text.starts_with("//") || text.split_once(':').is_some_and(|(scheme, _)| is_scheme(scheme)) {
        return Some(Target::Network);
    }
    let (file, fragment) = text.split_once('#').unwrap_or((text, ""));
    let pointer = decode(fragment)?;
    if !(pointer.is_empty() || pointer.starts_with('/')) {
        return None;
    }
    let file = if file.is_empty() { None } else { Some(lexical(&base.join(decode(file)?))) };
    Some(Target::Local(file, pointer))
}

/// `path` with `.` dropped and each `..` taking back the name before it, as people read it
/// (the file itself is found by its canonical path).
fn lexical(path: &Path) -> PathBuf {
    use std::path::Component;
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// A URI scheme (RFC 3986: a letter, then letters, digits, `+`, `-`, `.`), longer than one
/// character so a Windows drive letter is not one.
fn is_scheme(s: &str) -> bool {
    s.len() > 1
        && s.starts_with(|c: char| c.is_ascii_alphabetic())
        && s.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
}

/// Percent-decodes a reference part; `None` when the result is not UTF-8.
fn decode(s: &str) -> Option<String> {
    percent_encoding::percent_decode_str(s).decode_utf8().ok().map(|c| c.into_owned())
}

/// The pointer as written in messages: `#` for the whole file.
pub(super) fn shown_pointer(pointer: &str) -> String {
    format!("#{pointer}")
}

/// The target of a mapping that is only a reference (its other keys, if any, are
/// annotations such as `description` or `summary`, which 3.0 ignores beside `$ref`).
pub(super) fn bare_ref(node: &Node) -> Option<&str> {
    let entries = node.as_map()?;
    let target = node.get("$ref")?.as_str()?;
    let annotations = ["$ref", "description", "summary"];
    entries.iter().all(|(k, _)| k.as_str().is_some_and(|k| annotations.contains(&k))).then_some(target)
}

/// Every `$ref` string of a tree, with its span and JSON pointer. Values that are data, not
/// description (`example`, `examples`, `default`, `enum`, `const`, extensions), are not searched,
/// except where a key is a name (a property called `default`, the `default` response).
fn collect_refs(node: &Node, pointer: &str, out: &mut Vec<(Span, String, String)>) {
    collect(node, pointer, false, out);
}

/// [`collect_refs`]; `names` says the keys of this mapping are names, not keywords.
fn collect(node: &Node, pointer: &str, names: bool, out: &mut Vec<(Span, String, String)>) {
    match &node.value {
        Value::Map(entries) => {
            for (k, v) in entries {
                let key = k.as_str().unwrap_or_default();
                let at = format!("{pointer}/{}", key.replace('~', "~0").replace('/', "~1"));
                if names && !(key == "$ref" && v.as_str().is_some()) {
                    collect(v, &at, false, out);
                } else if key == "$ref" {
                    if let Some(text) = v.as_str() {
                        out.push((v.span, text.to_owned(), at));
                    }
                } else if !is_data_key(key) {
                    collect(v, &at, NAME_MAPS.contains(&key), out);
                }
            }
        }
        Value::Seq(items) => {
            items.iter().enumerate().for_each(|(i, n)| collect(n, &format!("{pointer}/{i}"), false, out))
        }
        _ => {}
    }
}

/// Keywords whose value maps names to objects, so its keys are never keywords.
const NAME_MAPS: &[&str] = &[
    "properties",
    "patternProperties",
    "$defs",
    "definitions",
    "dependentSchemas",
    "paths",
    "webhooks",
    "callbacks",
    "pathItems",
    "responses",
    "schemas",
    "parameters",
    "requestBodies",
    "headers",
    "securitySchemes",
    "links",
    "content",
    "encoding",
];

/// Keys whose values are instance data or extensions, never descriptions with references.
fn is_data_key(key: &str) -> bool {
    matches!(key, "example" | "examples" | "default" | "enum" | "const") || key.starts_with("x-")
}

/// A JSON pointer token for `s` (RFC 6901).
pub(super) fn escape(s: &str) -> String {
    s.replace('~', "~0").replace('/', "~1")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_split_into_file_and_pointer() {
        let base = Path::new("/api");
        assert!(matches!(split("https://x.org/a.yaml", base), Some(Target::Network)));
        assert!(matches!(split("//x.org/a.yaml", base), Some(Target::Network)));
        let Some(Target::Local(file, pointer)) = split("models/a%20b.yaml#/x~1y", base) else { panic!() };
        assert_eq!(file.as_deref(), Some(Path::new("/api/models/a b.yaml")));
        assert_eq!(pointer, "/x~1y");
        assert!(matches!(split("#/components/schemas/A", base), Some(Target::Local(None, _))));
        assert!(split("#nope", base).is_none());
        assert!(matches!(split("C:x.yaml", base), Some(Target::Local(Some(_), _))));
    }
}
