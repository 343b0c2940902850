//! Diagnostics: what went wrong, where, and what to do about it.

mod catalog;
pub mod github;
mod render;

pub use catalog::Code;
pub use render::{ColorChoice, render, render_all, render_all_for};

use crate::source::Span;

/// How bad a diagnostic is.
///
/// ```
/// use stitchgen::{Code, Severity};
/// // Every warning code, allowed in a build script that means them (none are errors).
/// let warnings = Code::ALL.iter().copied().filter(|c| c.severity() == Severity::Warning);
/// let config = stitchgen::Config::new().allow(warnings);
/// # let _ = config;
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Severity {
    /// Generation cannot proceed.
    Error,
    /// Generation proceeds; the contract probably says something it did not mean.
    Warning,
}

/// A span with the text shown under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What to say there (may be empty).
    pub text: String,
}

/// One problem found in a contract.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Stable code from the catalog; also decides the severity.
    pub code: Code,
    /// One line saying what is wrong.
    pub message: String,
    /// The place at fault.
    pub primary: Label,
    /// Related places (the first definition of a duplicate, say).
    pub secondary: Vec<Label>,
    /// Extra facts (`= note:` lines).
    pub notes: Vec<String>,
    /// What to do about it (`= help:` line).
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with `code`, pointing at `span`.
    pub fn new(code: Code, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            message: message.into(),
            primary: Label { span, text: String::new() },
            secondary: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }

    /// The severity of this diagnostic's code.
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }

    /// Sets the text under the primary span.
    #[must_use]
    pub fn label(mut self, text: impl Into<String>) -> Self {
        self.primary.text = text.into();
        self
    }

    /// Adds a related place.
    #[must_use]
    pub fn secondary(mut self, span: Span, text: impl Into<String>) -> Self {
        self.secondary.push(Label { span, text: text.into() });
        self
    }

    /// Adds a `= note:` line.
    #[must_use]
    pub fn note(mut self, text: impl Into<String>) -> Self {
        self.notes.push(text.into());
        self
    }

    /// Sets the `= help:` line.
    #[must_use]
    pub fn help(mut self, text: impl Into<String>) -> Self {
        self.help = Some(text.into());
        self
    }
}

/// Diagnostics accumulated within a phase.
#[derive(Debug, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
}

impl Diagnostics {
    /// Records a diagnostic.
    pub fn push(&mut self, d: Diagnostic) {
        self.items.push(d);
    }

    /// True when at least one error (not a warning) was recorded.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(|d| d.severity() == Severity::Error)
    }

    /// All diagnostics sorted by position, then code, with exact repeats removed.
    pub fn into_sorted(mut self) -> Vec<Diagnostic> {
        self.items.sort_by(|a, b| (a.primary.span, a.code, &a.message).cmp(&(b.primary.span, b.code, &b.message)));
        self.items.dedup();
        self.items
    }

    /// Moves every diagnostic of `other` into this one.
    pub fn extend(&mut self, other: Diagnostics) {
        self.items.extend(other.items);
    }

    /// The diagnostics recorded so far, unsorted.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }
}
