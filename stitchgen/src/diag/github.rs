//! GitHub Actions workflow commands (`::error file=…,line=…::message`), escaped as GitHub's
//! toolkit escapes them: what a CI run turns into notes on the lines at fault.

use crate::source::Location;

/// The kind of annotation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Annotation {
    /// `::error`.
    Error,
    /// `::warning`.
    Warning,
    /// `::notice`.
    Notice,
}

/// Where a workflow command points.
#[derive(Clone, Copy, Debug)]
pub enum Place<'a> {
    /// Nowhere: the annotation belongs to the run.
    None,
    /// A file as a whole.
    File(&'a str),
    /// A span of a file.
    At(&'a Location),
}

/// `::LEVEL file=…,line=…,col=…,endLine=…,endColumn=…,title=TITLE::MESSAGE` and a newline, every
/// value escaped as GitHub's toolkit does.
pub fn workflow_command(level: Annotation, place: Place<'_>, title: &str, message: &str) -> String {
    let command = match level {
        Annotation::Error => "error",
        Annotation::Warning => "warning",
        Annotation::Notice => "notice",
    };
    let mut properties = Vec::new();
    match place {
        Place::None => {}
        Place::File(file) => properties.push(format!("file={}", escape_property(file))),
        Place::At(at) => {
            properties.push(format!("file={}", escape_property(&at.file)));
            properties.push(format!("line={}", at.line));
            properties.push(format!("col={}", at.column));
            properties.push(format!("endLine={}", at.end.line));
            // GitHub reads endColumn only on a one-line annotation.
            if at.end.line == at.line {
                properties.push(format!("endColumn={}", at.end.column));
            }
        }
    }
    properties.push(format!("title={}", escape_property(title)));
    format!("::{command} {}::{}\n", properties.join(","), escape_data(message))
}

/// A command's message: `%`, CR and LF escaped (`@actions/core`'s `escapeData`).
fn escape_data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A command's property value: the message's escapes, and `:` and `,` (`escapeProperty`).
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Position;

    #[test]
    fn workflow_commands_escape_what_github_reads_as_syntax() {
        let at = Location { file: "a,b:c.yaml".into(), line: 3, column: 5, end: Position { line: 3, column: 9 } };
        let line = workflow_command(Annotation::Error, Place::At(&at), "E0012", "100% wrong\nsee: here, there\r");
        assert_eq!(
            line,
            "::error file=a%2Cb%3Ac.yaml,line=3,col=5,endLine=3,endColumn=9,title=E0012::100%25 wrong%0Asee: here, there%0D\n"
        );
    }

    #[test]
    fn a_finding_without_a_place_has_no_file() {
        let line = workflow_command(Annotation::Notice, Place::None, "diff", "accepted");
        assert_eq!(line, "::notice title=diff::accepted\n");
    }
}
