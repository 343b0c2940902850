//! rustc-style rendering of diagnostics through annotate-snippets.

use annotate_snippets::{AnnotationKind, Group, Level, Renderer, Snippet};

use super::{Diagnostic, Label, Severity};
use crate::source::{FileId, SourceMap, char_range};

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
    for w in &windows {
        let mut snippet = Snippet::source(w.text).line_start(w.first_line).path(w.path);
        for (label, kind, range) in &w.labels {
            let (lo, hi) = (range.start - w.offset, range.end - w.offset);
            snippet = snippet.annotation((*kind).span(lo..hi).label(label.text.as_str()));
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
    renderer.render(&report)
}

/// The lines of one file that a diagnostic's labels fall on.
struct Window<'a> {
    path: &'a str,
    text: &'a str,
    offset: usize,
    first_line: usize,
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
            let start = text[..lo].rfind('\n').map_or(0, |i| i + 1);
            let end = text[hi..].find('\n').map_or(text.len(), |i| hi + i);
            let (first_line, _) = sources.line_col(file, start as u32);
            Window { path: &src.display, text: &text[start..end], offset: start, first_line, labels }
        })
        .collect()
}
