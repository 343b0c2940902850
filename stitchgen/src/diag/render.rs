//! rustc-style rendering of diagnostics through annotate-snippets.

use std::borrow::Cow;

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use super::{Diagnostic, Label, Severity};
use crate::source::{FileId, SourceMap, char_range, floor_char_boundary};

/// A source line longer than this many bytes is shown cut around its labels (a minified JSON
/// document is one line of megabytes): rendering costs what it shows.
const LONG_LINE: usize = 400;
/// How much of a cut line is kept on each side of the labels, in bytes.
const CONTEXT: usize = 80;
/// Marks where a cut line goes on.
const ELLIPSIS: &str = "…";

/// Whether rendered diagnostics carry ANSI colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// Plain text: files, pipes, CI logs, snapshots.
    Never,
    /// ANSI colour, for a terminal.
    Always,
}

/// Renders every diagnostic, separated by blank lines, followed by a summary line.
pub fn render_all(diags: &[Diagnostic], sources: &SourceMap, color: ColorChoice) -> String {
    render_all_for(diags, sources, color, "compile contracts")
}

/// [`render_all`] for another task than compiling: the summary says `could not {task}`.
pub fn render_all_for(diags: &[Diagnostic], sources: &SourceMap, color: ColorChoice, task: &str) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&render(d, sources, color));
        out.push_str("\n\n");
    }
    let errors = diags.iter().filter(|d| d.severity() == Severity::Error).count();
    let warnings = diags.len() - errors;
    let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    match (errors, warnings) {
        (0, 0) => {}
        (0, w) => out.push_str(&format!("warning: {} emitted\n", plural(w, "warning"))),
        (e, 0) => out.push_str(&format!("error: could not {task}: {}\n", plural(e, "error"))),
        (e, w) => out.push_str(&format!(
            "error: could not {task}: {}; {} emitted\n",
            plural(e, "error"),
            plural(w, "warning")
        )),
    }
    out
}

/// Renders one diagnostic like rustc: title with code, location, source lines, labels, notes, help.
pub fn render(d: &Diagnostic, sources: &SourceMap, color: ColorChoice) -> String {
    let level = match d.severity() {
        Severity::Error => Level::ERROR,
        Severity::Warning => Level::WARNING,
    };
    let windows = windows(d, sources);
    let mut group = Group::with_title(level.primary_title(&d.message).id(d.code.id()));
    // A cut line's location is the uncut line's column, not the shown text's. annotate-snippets
    // takes no column offset for a snippet (an `Origin` element beside a snippet without a path
    // prints an empty `:::` line), so the column it prints is replaced.
    let mut columns = Vec::new();
    for w in &windows {
        let mut snippet = Snippet::source(w.text.clone()).line_start(w.first_line).path(w.path);
        if let (Some((line, column)), Some((_, _, range))) = (w.origin, w.labels.first()) {
            let at = range.start.clamp(w.offset, w.offset + w.len) - w.offset + w.shift;
            let shown = w.text[..at].chars().count() + 1;
            columns.push((format!("{}:{line}:{shown}", w.path), format!("{}:{line}:{column}", w.path)));
        }
        for (label, kind, range) in &w.labels {
            let clamp = |i: usize| i.clamp(w.offset, w.offset + w.len) - w.offset + w.shift;
            snippet = snippet.annotation((*kind).span(clamp(range.start)..clamp(range.end)).label(label.text.as_str()));
        }
        group = group.element(snippet);
    }
    for note in &d.notes {
        group = group.element(Level::NOTE.message(note.as_str()));
    }
    if let Some(help) = &d.help {
        group = group.element(Level::HELP.message(help.as_str()));
    }
    let report: [Group<'_>; 1] = [group];
    let renderer = match color {
        ColorChoice::Never => Renderer::plain(),
        ColorChoice::Always => Renderer::styled(),
    };
    let mut text = renderer.render(&report);
    for (shown, real) in columns {
        text = text.replacen(&shown, &real, 1);
    }
    text
}

/// The lines of one file that a diagnostic's labels fall on.
struct Window<'a> {
    path: &'a str,
    /// What is shown: the lines, or the part of one long line around its labels.
    text: Cow<'a, str>,
    /// Where the shown source starts in the file, and how many of its bytes are shown.
    offset: usize,
    len: usize,
    /// The bytes of the ellipsis before the shown source, when the line is cut on the left.
    shift: usize,
    first_line: usize,
    /// The primary label's line and column, when the line is cut.
    origin: Option<(usize, usize)>,
    labels: Vec<(&'a Label, AnnotationKind, std::ops::Range<usize>)>,
}

/// One window per file, primary file first, each cut to the lines its labels touch, so rendering
/// costs the size of those lines and not of the file.
fn windows<'a>(d: &'a Diagnostic, sources: &'a SourceMap) -> Vec<Window<'a>> {
    let mut files: Vec<FileId> = vec![d.primary.span.file];
    for s in &d.secondary {
        if !files.contains(&s.span.file) {
            files.push(s.span.file);
        }
    }
    files
        .into_iter()
        .map(|file| {
            let src = sources.file(file);
            let text = src.text.as_str();
            let labels: Vec<_> = std::iter::once((&d.primary, AnnotationKind::Primary))
                .chain(d.secondary.iter().map(|l| (l, AnnotationKind::Context)))
                .filter(|(l, _)| l.span.file == file)
                .map(|(l, k)| (l, k, char_range(text, l.span)))
                .collect();
            let lo = labels.iter().map(|(_, _, r)| r.start).min().unwrap_or(0);
            let hi = labels.iter().map(|(_, _, r)| r.end).max().unwrap_or(0).max(lo);
            let (start, end) = (sources.line_bounds(file, lo).start, sources.line_bounds(file, hi).end);
            let (first_line, _) = sources.line_col(file, start as u32);
            let one_line = sources.line_bounds(file, lo).end >= end;
            let whole = Window {
                path: &src.display,
                text: Cow::Borrowed(&text[start..end]),
                offset: start,
                len: end - start,
                shift: 0,
                first_line,
                origin: None,
                labels,
            };
            if end - start <= LONG_LINE || !one_line {
                return whole;
            }
            // The location annotate-snippets prints is its first label's (the primary, in the
            // primary file's window).
            let first = whole.labels.first().map_or(lo, |(_, _, r)| r.start);
            cut(whole, text, lo, hi, first, sources.line_col(file, first as u32))
        })
        .collect()
}

/// `w`, one long line, cut to its labels `lo..hi` and some context on each side, with an
/// ellipsis where the line goes on. Labels further apart than the line's budget are cut to the
/// part around the first (the primary); the others are shown at the cut's edge.
fn cut<'a>(w: Window<'a>, text: &'a str, lo: usize, hi: usize, first: usize, origin: (usize, usize)) -> Window<'a> {
    let (start, end) = (w.offset, w.offset + w.len);
    let (lo, hi) = (lo.max(first.saturating_sub(LONG_LINE / 2)), hi.min(first + LONG_LINE / 2));
    let from = floor_char_boundary(text, lo.saturating_sub(CONTEXT).max(start));
    let to = floor_char_boundary(text, hi.saturating_add(CONTEXT).min(end)).max(from);
    let before = if from > start { ELLIPSIS } else { "" };
    let after = if to < end { ELLIPSIS } else { "" };
    Window {
        text: Cow::Owned(format!("{before}{}{after}", &text[from..to])),
        offset: from,
        len: to - from,
        shift: before.len(),
        origin: Some(origin),
        ..w
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::diag::Code;
    use crate::source::Span;

    #[test]
    fn a_label_on_a_long_line_shows_its_surroundings_at_the_lines_own_column() {
        // One line of 200,000 characters, some of them wider than a byte, as a minified document.
        let line = format!(
            "{{\"a\":\"{}\",\"b\":{{\"requestBody\":1}},\"z\":\"{}\"}}",
            "é".repeat(100_000),
            "x".repeat(100_000)
        );
        let at = line.find("\"requestBody\"").unwrap();
        let mut sources = SourceMap::new();
        let file = sources.add(Path::new("api.json"), line.clone());
        let span = Span { file, lo: at as u32, hi: (at + 13) as u32 };
        let d = Diagnostic::new(Code::ImportLowered, span, "a lowering").label("here");
        let text = render(&d, &sources, ColorChoice::Never);
        let column = line[..at].chars().count() + 1;
        assert!(text.contains(&format!("--> api.json:1:{column}")), "{text}");
        assert!(text.contains("…") && text.contains("\"requestBody\":1") && text.contains("^^^^ here"), "{text}");
        assert!(text.len() < 1_000, "the snippet costs what it shows: {} bytes", text.len());
    }

    #[test]
    fn a_cut_line_is_located_at_its_primary_label_when_another_label_comes_first() {
        let line = format!("{{\"a\":1,\"b\":2,{}\"c\":3}}", " ".repeat(1_000));
        let (a, c) = (line.find("\"a\"").unwrap(), line.find("\"c\"").unwrap());
        let mut sources = SourceMap::new();
        let file = sources.add(Path::new("api.json"), line.clone());
        let at = |i: usize| Span { file, lo: i as u32, hi: (i + 3) as u32 };
        let d = Diagnostic::new(Code::ImportLowered, at(c), "a lowering").label("primary").secondary(at(a), "context");
        let text = render(&d, &sources, ColorChoice::Never);
        assert!(text.contains(&format!("--> api.json:1:{}", c + 1)), "{text}");
    }
}
