//! Splitting a post's text into its front matter and its Markdown body: YAML
//! between `---` lines (YAML's own `...` also closes it), TOML between `+++`.

use std::ops::Range;

use super::Format;
use crate::diagnostics::Problem;

const BOM: char = '\u{feff}';

/// Where the parts of a post's text are. Offsets are bytes into the whole text
/// (a BOM included), so an edit can splice the text without disturbing the rest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Split {
    /// `None` when the text has no front matter.
    pub format: Option<Format>,
    /// The text between the opening and closing lines, with its line endings.
    pub front_matter: Range<usize>,
    /// The file line of the first front matter line (the one after `---`).
    pub front_matter_line: usize,
    /// Everything after the closing line.
    pub body: Range<usize>,
    pub body_line: usize,
    /// `"\r\n"` when the first line ends so, else `"\n"`: what new lines use.
    pub line_ending: &'static str,
}

pub(crate) fn split(text: &str) -> Result<Split, Problem> {
    let start = if text.starts_with(BOM) { BOM.len_utf8() } else { 0 };
    let after_bom = &text[start..];
    let line_ending = match after_bom.find('\n') {
        Some(end) if after_bom[..end].ends_with('\r') => "\r\n",
        _ => "\n",
    };

    let mut lines = Lines { text, at: start, number: 0 };
    let Some(opening) = lines.next() else {
        return Ok(no_front_matter(text, start, line_ending));
    };
    let (format, closers): (Format, &[&str]) = match fence(&text[opening.content.clone()]) {
        "---" => (Format::Yaml, &["---", "..."]),
        "+++" => (Format::Toml, &["+++"]),
        _ => return Ok(no_front_matter(text, start, line_ending)),
    };

    let front_matter_start = opening.end;
    for line in lines.by_ref() {
        if closers.contains(&fence(&text[line.content.clone()])) {
            return Ok(Split {
                format: Some(format),
                front_matter: front_matter_start..line.start,
                front_matter_line: opening.number + 1,
                body: line.end..text.len(),
                body_line: line.number + 1,
                line_ending,
            });
        }
    }

    let fence = closers[0];
    Err(Problem::error(opening.number, 1, format!("the front matter opened by `{fence}` is never closed"))
        .with_hint(format!("did you forget the closing `{fence}`?")))
}

fn no_front_matter(text: &str, start: usize, line_ending: &'static str) -> Split {
    Split {
        format: None,
        front_matter: start..start,
        front_matter_line: 1,
        body: start..text.len(),
        body_line: 1,
        line_ending,
    }
}

/// A fence line without the trailing spaces some editors leave.
fn fence(line: &str) -> &str {
    line.trim_end_matches([' ', '\t'])
}

struct Line {
    number: usize,
    start: usize,
    /// The line without its `\n` or `\r\n`.
    content: Range<usize>,
    /// Just after the line ending.
    end: usize,
}

struct Lines<'a> {
    text: &'a str,
    at: usize,
    number: usize,
}

impl Iterator for Lines<'_> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        if self.at >= self.text.len() {
            return None;
        }
        let start = self.at;
        let rest = &self.text[start..];
        let (content_len, end) = match rest.find('\n') {
            Some(newline) if rest[..newline].ends_with('\r') => (newline - 1, start + newline + 1),
            Some(newline) => (newline, start + newline + 1),
            None => (rest.len(), self.text.len()),
        };
        self.at = end;
        self.number += 1;
        Some(Line { number: self.number, start, content: start..start + content_len, end })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(text: &str) -> (Option<Format>, &str, usize, &str, usize) {
        let split = split(text).unwrap();
        (
            split.format,
            &text[split.front_matter.clone()],
            split.front_matter_line,
            &text[split.body.clone()],
            split.body_line,
        )
    }

    #[test]
    fn splits_yaml() {
        let text = "---\ntitle: Hi\n---\n# Hello\n";
        assert_eq!(parts(text), (Some(Format::Yaml), "title: Hi\n", 2, "# Hello\n", 4));
    }

    #[test]
    fn yaml_may_close_with_dots() {
        let text = "---\ntitle: Hi\n...\nbody";
        assert_eq!(parts(text), (Some(Format::Yaml), "title: Hi\n", 2, "body", 4));
    }

    #[test]
    fn splits_toml() {
        let text = "+++\ntitle = \"Hi\"\n\n+++\n\nbody\n";
        assert_eq!(parts(text), (Some(Format::Toml), "title = \"Hi\"\n\n", 2, "\nbody\n", 5));
    }

    #[test]
    fn toml_is_not_closed_by_dashes() {
        let error = split("+++\ntitle = 1\n---\nbody\n").unwrap_err();
        assert_eq!((error.line, error.hint.as_deref()), (1, Some("did you forget the closing `+++`?")));
    }

    #[test]
    fn text_without_front_matter_is_all_body() {
        for text in ["# Hello\n---\n", "", "----\na: b\n----\n", " ---\n---\n"] {
            assert_eq!(parts(text), (None, "", 1, text, 1), "{text:?}");
        }
    }

    #[test]
    fn accepts_bom_and_crlf() {
        let text = "\u{feff}---\r\ntitle: Hi\r\n---\r\n\r\nbody\r\n";
        assert_eq!(parts(text), (Some(Format::Yaml), "title: Hi\r\n", 2, "\r\nbody\r\n", 4));
        assert_eq!(split(text).unwrap().line_ending, "\r\n");
    }

    #[test]
    fn bom_without_front_matter_is_not_body() {
        let text = "\u{feff}# Hi\n";
        assert_eq!(parts(text), (None, "", 1, "# Hi\n", 1));
    }

    #[test]
    fn closing_line_may_end_the_text() {
        assert_eq!(parts("---\na: 1\n---"), (Some(Format::Yaml), "a: 1\n", 2, "", 4));
        assert_eq!(parts("---\n---\n"), (Some(Format::Yaml), "", 2, "", 3));
    }

    #[test]
    fn fences_may_have_trailing_spaces() {
        assert_eq!(parts("--- \na: 1\n---\t\nbody"), (Some(Format::Yaml), "a: 1\n", 2, "body", 4));
    }

    #[test]
    fn unclosed_front_matter_points_at_the_opening_line() {
        let error = split("---\ntitle: Hi\n\nbody\n").unwrap_err();
        assert_eq!(error.line, 1);
        assert_eq!(error.column, 1);
        assert_eq!(error.hint.as_deref(), Some("did you forget the closing `---`?"));
    }
}
