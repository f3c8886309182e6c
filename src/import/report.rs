//! What an import did: counts by kind, each thing that did not come over
//! exactly (with where it came from and why), and which files an earlier
//! import wrote that the author has edited since, left as they are.

use std::collections::BTreeMap;
use std::fmt;

/// One thing that did not come over exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// Where in the export: `item 568 "Hello" (https://old.example/hello/)`.
    pub source: String,
    /// What happened to it and why.
    pub what: String,
}

/// The import's report.
#[derive(Debug, Default)]
pub struct Report {
    /// `WordPress`, `Medium`.
    pub platform: String,
    /// How many of each kind came over: `posts`, `pages`, `drafts`, `tags`,
    /// `categories`, `images`, `aliases`.
    pub counts: BTreeMap<&'static str, usize>,
    pub notes: Vec<Note>,
    /// Files written (new or changed).
    pub written: Vec<String>,
    /// Files an earlier import wrote and the author changed since: not written.
    pub kept: Vec<String>,
    /// Files of the blog the import would have written that it did not make: not written.
    pub foreign: Vec<String>,
    /// Files that were already as the import would write them.
    pub unchanged: usize,
}

impl Report {
    pub(crate) fn note(&mut self, source: &str, what: impl Into<String>) {
        self.notes.push(Note { source: source.to_string(), what: what.into() });
    }

    /// What converting `source`'s HTML to Markdown could not say exactly:
    /// elements kept as HTML and elements left out
    /// (`html::Converted`'s `kept_html` and `dropped`).
    pub(crate) fn conversion(&mut self, source: &str, kept_html: &[String], dropped: &[String]) {
        for kept in kept_html {
            self.note(source, format!("`<{kept}>` kept as HTML (Markdown has no such thing)"));
        }
        for dropped in dropped {
            self.note(source, format!("`<{dropped}>` left out (a static page does not run it)"));
        }
    }

    pub(crate) fn count(&mut self, kind: &'static str, n: usize) {
        *self.counts.entry(kind).or_default() += n;
    }

    /// How many of `kind` came over.
    pub fn counted(&self, kind: &str) -> usize {
        self.counts.get(kind).copied().unwrap_or(0)
    }
}

impl fmt::Display for Report {
    /// The report as the command line prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let counts: Vec<String> = self.counts.iter().map(|(kind, n)| format!("{n} {kind}")).collect();
        writeln!(f, "imported from {}: {}", self.platform, counts.join(", "))?;
        if !self.notes.is_empty() {
            writeln!(f, "not converted exactly ({}):", self.notes.len())?;
            for note in &self.notes {
                writeln!(f, "  {}: {}", note.source, note.what)?;
            }
        }
        for file in &self.kept {
            writeln!(f, "kept your edit: {file} (changed since the last import; not written)")?;
        }
        for file in &self.foreign {
            writeln!(f, "left alone: {file} (not written by an import; not written)")?;
        }
        write!(f, "{} files written, {} unchanged", self.written.len(), self.unchanged)
    }
}
