//! Source files and byte spans; line and column are computed only when rendering.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Serialize;

/// Index of a file in a [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FileId(pub(crate) u32);

/// A byte range in one source file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    /// The file the range is in.
    pub file: FileId,
    /// First byte.
    pub lo: u32,
    /// One past the last byte.
    pub hi: u32,
}

impl Span {
    /// A span over `lo..hi` in `file`.
    pub fn new(file: FileId, lo: usize, hi: usize) -> Self {
        let clamp = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Span { file, lo: clamp(lo), hi: clamp(hi.max(lo)) }
    }

    /// The byte range, for slicing the source text.
    pub fn range(self) -> std::ops::Range<usize> {
        self.lo as usize..self.hi as usize
    }
}

/// A span as people and tools read it: the file as shown, one-based line and column (in
/// characters) of its start, and where it ends.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Location {
    /// The file, with `/` separators.
    pub file: String,
    /// One-based line.
    pub line: usize,
    /// One-based column, in characters.
    pub column: usize,
    /// Where the span ends (exclusive).
    pub end: Position,
}

/// A line and a column.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// One-based line.
    pub line: usize,
    /// One-based column, in characters.
    pub column: usize,
}

/// One contract file as read.
#[derive(Debug)]
pub struct SourceFile {
    /// The path as shown to people: relative to the working directory where possible.
    pub display: String,
    /// The path used to read the file.
    pub path: PathBuf,
    /// The file's text (valid UTF-8; invalid files never get here).
    pub text: String,
    /// The byte offset where each line starts: positions are looked up, not counted again for
    /// every diagnostic.
    line_starts: Vec<usize>,
    /// The characters before every [`MARK`]th byte, made when a column is first counted on a
    /// long line: a minified document is one line, and each column would count it again.
    char_marks: std::sync::OnceLock<Vec<usize>>,
}

/// Bytes between two entries of [`SourceFile::char_marks`].
const MARK: usize = 4096;

impl SourceFile {
    /// The characters of the text before byte `offset` (a character boundary).
    fn chars_before(&self, offset: usize) -> usize {
        let marks = self.char_marks.get_or_init(|| {
            let mut count = 0;
            let mut from = 0;
            let mut marks = vec![0];
            for at in (MARK..=self.text.len()).step_by(MARK) {
                let at = floor_char_boundary(&self.text, at);
                count += self.text[from..at].chars().count();
                marks.push(count);
                from = at;
            }
            marks
        });
        let mark = offset / MARK;
        let from = floor_char_boundary(&self.text, mark * MARK);
        marks[mark] + self.text[from..offset].chars().count()
    }
}

/// Every file read in one run, addressed by [`FileId`].
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a file and returns its id.
    pub fn add(&mut self, path: &Path, text: String) -> FileId {
        let id = FileId(u32::try_from(self.files.len()).expect("fewer than 4 billion files"));
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        let char_marks = std::sync::OnceLock::new();
        self.files.push(SourceFile {
            display: display_path(path),
            path: path.to_path_buf(),
            text,
            line_starts,
            char_marks,
        });
        id
    }

    /// The file behind `id`.
    pub fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    /// All files, in the order they were added.
    pub fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files.iter().enumerate().map(|(i, f)| (FileId(i as u32), f))
    }

    /// Where `span` is, by line and column.
    pub fn locate(&self, span: Span) -> Location {
        let (line, column) = self.line_col(span.file, span.lo);
        let (end_line, end_column) = self.line_col(span.file, span.hi);
        Location {
            file: self.file(span.file).display.clone(),
            line,
            column,
            end: Position { line: end_line, column: end_column },
        }
    }

    /// The byte range of the line holding `offset`, without its line break: found in the
    /// line index, so a minified document's one long line is never scanned for it.
    pub fn line_bounds(&self, file: FileId, offset: usize) -> std::ops::Range<usize> {
        let f = self.file(file);
        let line = f.line_starts.partition_point(|&start| start <= offset).max(1);
        let end = f.line_starts.get(line).map_or(f.text.len(), |next| next - 1);
        f.line_starts[line - 1]..end.max(f.line_starts[line - 1])
    }

    /// One-based line and column (in characters) of a byte offset.
    pub fn line_col(&self, file: FileId, offset: u32) -> (usize, usize) {
        let f = self.file(file);
        let offset = floor_char_boundary(&f.text, offset as usize);
        // The last line starting at or before `offset` (the first line starts at 0).
        let line = f.line_starts.partition_point(|&start| start <= offset).max(1);
        let line_start = f.line_starts[line - 1];
        let column = match offset - line_start {
            short if short < MARK => f.text[line_start..offset].chars().count(),
            _ => f.chars_before(offset) - f.chars_before(line_start),
        };
        (line, column + 1)
    }
}

pub(crate) fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// `span` as a byte range of `text`, widened to whole characters and kept inside the text, so
/// slicing with it never panics whatever a span says.
pub(crate) fn char_range(text: &str, span: Span) -> std::ops::Range<usize> {
    let lo = floor_char_boundary(text, span.lo as usize);
    let mut hi = (span.hi as usize).clamp(lo, text.len());
    while !text.is_char_boundary(hi) {
        hi += 1;
    }
    lo..hi
}

/// How generated files name their contract: the path as given when it is relative (normalized,
/// `/` separators), else the file name alone. Never an absolute path, and never the working
/// directory: the same arguments give the same bytes wherever they run.
pub fn artifact_name(path: &Path) -> String {
    if path.is_absolute() {
        return path.file_name().map_or_else(|| "contract".to_owned(), |n| n.to_string_lossy().into_owned());
    }
    slashed(path)
}

/// Shows `path` relative to the working directory when it lies below it, with `/` separators:
/// what diagnostics print.
pub fn display_path(path: &Path) -> String {
    let cwd = std::env::current_dir().ok();
    let shown = match (path.is_absolute(), cwd) {
        (true, Some(cwd)) => path.strip_prefix(&cwd).unwrap_or(path),
        _ => path,
    };
    let root = if shown.has_root() { "/" } else { "" };
    format!("{root}{}", slashed(shown))
}

/// The normal and `..` components of a path joined with `/` (no `.`, no root, no prefix).
fn slashed(path: &Path) -> String {
    let parts: Vec<_> = path
        .components()
        .filter_map(|c| match c {
            std::path::Component::Normal(p) => Some(p.to_string_lossy()),
            std::path::Component::ParentDir => Some("..".into()),
            _ => None,
        })
        .collect();
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_and_column_of_every_offset_match_counting_from_the_start() {
        let text = "a: 1\n\nb: \u{e9}t\u{e9}\r\n  - x\nlast";
        let mut map = SourceMap::new();
        let id = map.add(Path::new("c.yaml"), text.to_owned());
        for offset in 0..=text.len() + 3 {
            let before = &text[..floor_char_boundary(text, offset)];
            let line = before.matches('\n').count() + 1;
            let start = before.rfind('\n').map_or(0, |i| i + 1);
            let want = (line, before[start..].chars().count() + 1);
            assert_eq!(map.line_col(id, offset as u32), want, "offset {offset}");
        }
    }

    #[test]
    fn columns_on_a_long_line_are_counted_from_its_start() {
        // Two lines, the second long and with characters wider than a byte across the marks.
        let text = format!("x\n{}", "a\u{e9}\u{1f600}b".repeat(5_000));
        let mut map = SourceMap::new();
        let id = map.add(Path::new("api.json"), text.clone());
        for offset in (2..text.len()).step_by(997).chain([text.len()]) {
            let offset = floor_char_boundary(&text, offset);
            let want = (2, text[2..offset].chars().count() + 1);
            assert_eq!(map.line_col(id, offset as u32), want, "offset {offset}");
        }
    }
}
