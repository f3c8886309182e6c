//! Problems found in a blog's files, each with the file, line and column, and a
//! hint saying what to do about it.

use std::cmp::Ordering;
use std::fmt;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

/// One problem in one file. `path` is relative to the blog folder; `line` and
/// `column` count from 1 (a problem with the whole file is at 1:1).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Diagnostic {
    #[cfg_attr(feature = "ts", ts(type = "string"))]
    pub path: PathBuf,
    pub line: usize,
    pub column: usize,
    pub severity: Severity,
    pub message: String,
    pub hint: Option<String>,
}

/// By file, then line, column, severity, message and hint. Files compare as
/// their paths do, folder by folder, but byte by byte (the separator first),
/// which is the same order for the blog's paths and costs far less when a
/// large blog's thousands of problems are sorted.
impl Ord for Diagnostic {
    fn cmp(&self, other: &Self) -> Ordering {
        let path = crate::text::path_order(&self.path, &other.path);
        path.then_with(|| {
            (self.line, self.column, self.severity, &self.message, &self.hint).cmp(&(
                other.line,
                other.column,
                other.severity,
                &other.message,
                &other.hint,
            ))
        })
    }
}

impl PartialOrd for Diagnostic {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Diagnostic {
    pub fn error(path: impl Into<PathBuf>, line: usize, column: usize, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, path.into(), line, column, message.into())
    }

    pub fn warning(path: impl Into<PathBuf>, line: usize, column: usize, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, path.into(), line, column, message.into())
    }

    fn new(severity: Severity, path: PathBuf, line: usize, column: usize, message: String) -> Self {
        Self { path, line: line.max(1), column: column.max(1), severity, message, hint: None }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// `path:line:col: error: message`, the form editors and terminals link to.
/// A control character in a file's name (a newline, say) is written escaped,
/// `posts/a\nb.md`, so that each problem stays on one line.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.to_string_lossy();
        if path.contains(char::is_control) {
            for c in path.chars() {
                if c.is_control() { write!(f, "{}", c.escape_default())? } else { write!(f, "{c}")? }
            }
        } else {
            f.write_str(&path)?;
        }
        write!(f, ":{}:{}: {}: {}", self.line, self.column, self.severity, self.message)
    }
}

/// A problem found while parsing or rendering one text, before it is known which
/// file the text came from. `line` and `column` count from 1 in that text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub column: usize,
    pub severity: Severity,
    pub message: String,
    pub hint: Option<String>,
}

impl Problem {
    pub fn error(line: usize, column: usize, message: impl Into<String>) -> Self {
        Self { line, column, severity: Severity::Error, message: message.into(), hint: None }
    }

    pub fn warning(line: usize, column: usize, message: impl Into<String>) -> Self {
        Self { line, column, severity: Severity::Warning, message: message.into(), hint: None }
    }

    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }

    /// This problem as a diagnostic of the file at `path`.
    pub fn in_file(self, path: impl Into<PathBuf>) -> Diagnostic {
        Diagnostic {
            path: path.into(),
            line: self.line.max(1),
            column: self.column.max(1),
            severity: self.severity,
            message: self.message,
            hint: self.hint,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_control_character_in_a_name_is_shown_escaped() {
        let diagnostic = Diagnostic::error("posts/new\nline\t.md", 3, 1, "bad");
        assert_eq!(diagnostic.to_string(), "posts/new\\nline\\t.md:3:1: error: bad");
        assert_eq!(
            Diagnostic::warning("posts/한글 제목.md", 1, 1, "x").to_string(),
            "posts/한글 제목.md:1:1: warning: x"
        );
    }
}
