//! Changing one field of YAML front matter line by line, so that comments, key
//! order, quoting and blank lines elsewhere stay byte for byte. There is no
//! format-preserving YAML library; this edits top-level `key:` entries (and
//! `taxonomies:`'s `tags`) by finding the lines their value runs over.

use std::ops::Range;

use serde_json::Value;

use super::edit::{FieldValue, Place};
use super::fields::TAXONOMIES;
use super::yaml_text::{self, Context, Quote};

/// `text` (the front matter between the fences) with the field at `place` set.
/// `taxonomies` is the parsed `taxonomies` value, for the rare flow mapping.
pub(crate) fn set(text: &str, place: &Place, value: &FieldValue, eol: &str, taxonomies: Option<&Value>) -> String {
    let lines = Lines::new(text);
    let all = 0..lines.len();
    // Top-level keys are usually at column 1, but YAML allows any indentation.
    let top = lines.first_indent(all.clone()).unwrap_or(0);
    let margin = " ".repeat(top);
    match place {
        Place::Top(key) => match lines.find(all, top, key) {
            Some(entry) => lines.replace(&entry, &lines.render(&entry, value, eol)),
            None => lines.insert(text.len(), &new_entry(&margin, key, value, eol)),
        },
        Place::TaxonomyTags => {
            let Some(parent) = lines.find(all, top, TAXONOMIES) else {
                return lines.insert(text.len(), &new_entry(&margin, "tags", value, eol));
            };
            if !lines.value_is_below(&parent) {
                return lines.rewrite_flow_taxonomies(&parent, taxonomies, Some(value), eol);
            }
            let children = parent.key_line + 1..parent.end_line;
            let indent = lines.first_indent(children.clone()).unwrap_or(top + 2);
            match lines.find(children, indent, "tags") {
                Some(entry) => lines.replace(&entry, &lines.render(&entry, value, eol)),
                None => {
                    let at = lines.spans[parent.end_line - 1].end;
                    lines.insert(at, &new_entry(&" ".repeat(indent), "tags", value, eol))
                }
            }
        }
    }
}

/// `text` without the field at `place`; unchanged if it is not there.
pub(crate) fn remove(text: &str, place: &Place, taxonomies: Option<&Value>) -> String {
    let lines = Lines::new(text);
    let all = 0..lines.len();
    let top = lines.first_indent(all.clone()).unwrap_or(0);
    match place {
        Place::Top(key) => match lines.find(all, top, key) {
            Some(entry) => lines.replace(&entry, ""),
            None => text.to_string(),
        },
        Place::TaxonomyTags => {
            let Some(parent) = lines.find(all, top, TAXONOMIES) else {
                return text.to_string();
            };
            if !lines.value_is_below(&parent) {
                return lines.rewrite_flow_taxonomies(&parent, taxonomies, None, "\n");
            }
            let children = parent.key_line + 1..parent.end_line;
            let indent = lines.first_indent(children.clone()).unwrap_or(top + 2);
            let Some(entry) = lines.find(children.clone(), indent, "tags") else {
                return text.to_string();
            };
            // Without its only child, `taxonomies:` would read as null: remove it too.
            let others = children.filter(|line| !(entry.key_line..entry.end_line).contains(line));
            if others.clone().any(|line| lines.indent(line).is_some()) {
                lines.replace(&entry, "")
            } else {
                lines.replace(&parent, "")
            }
        }
    }
}

/// `key: value` as a new line, in the plainest style that is safe.
fn new_entry(indent: &str, key: &str, value: &FieldValue, eol: &str) -> String {
    let value = match value {
        FieldValue::Text(text) => yaml_text::scalar(text, Quote::Plain, Context::Block),
        FieldValue::List(items) => yaml_text::flow_list(items, Quote::Plain, false),
        FieldValue::Bool(flag) => flag.to_string(),
        FieldValue::Date(date) => yaml_text::date(date, Quote::Plain),
    };
    format!("{indent}{key}: {value}{eol}")
}

/// One `key:` and the lines its value runs over: `key_line..end_line`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    key_line: usize,
    end_line: usize,
    /// Byte offset just after the `:`.
    colon_end: usize,
}

#[derive(Debug, Clone, Copy)]
struct Span {
    start: usize,
    /// Where the line's `\n` or `\r\n` starts.
    content_end: usize,
    /// Just after the line ending.
    end: usize,
}

struct Lines<'a> {
    text: &'a str,
    spans: Vec<Span>,
}

impl<'a> Lines<'a> {
    fn new(text: &'a str) -> Self {
        let mut spans = Vec::new();
        let mut start = 0;
        while start < text.len() {
            let rest = &text[start..];
            let (content_len, len) = match rest.find('\n') {
                Some(newline) if rest[..newline].ends_with('\r') => (newline - 1, newline + 1),
                Some(newline) => (newline, newline + 1),
                None => (rest.len(), rest.len()),
            };
            spans.push(Span { start, content_end: start + content_len, end: start + len });
            start += len;
        }
        Lines { text, spans }
    }

    fn len(&self) -> usize {
        self.spans.len()
    }

    fn content(&self, line: usize) -> &'a str {
        let span = self.spans[line];
        &self.text[span.start..span.content_end]
    }

    /// The line's own ending, or `fallback` for a last line without one.
    fn eol<'e>(&self, line: usize, fallback: &'e str) -> &'e str
    where
        'a: 'e,
    {
        let span = self.spans[line];
        match &self.text[span.content_end..span.end] {
            "" => fallback,
            own => own,
        }
    }

    /// Indentation of a line with content; `None` for blank and comment lines.
    fn indent(&self, line: usize) -> Option<usize> {
        let content = self.content(line);
        let rest = content.trim_start_matches([' ', '\t']);
        (!rest.is_empty() && !rest.starts_with('#')).then_some(content.len() - rest.len())
    }

    fn first_indent(&self, lines: Range<usize>) -> Option<usize> {
        lines.into_iter().find_map(|line| self.indent(line))
    }

    /// The entry `key:` at exactly `indent` among `lines`.
    fn find(&self, lines: Range<usize>, indent: usize, key: &str) -> Option<Entry> {
        let end = lines.end;
        for line in lines {
            if self.indent(line) != Some(indent) {
                continue;
            }
            let Some((found, colon)) = key_of(&self.content(line)[indent..]) else {
                continue;
            };
            if found == key {
                let colon_end = self.spans[line].start + indent + colon;
                return Some(Entry {
                    key_line: line,
                    end_line: self.value_end(line, indent, colon_end, end),
                    colon_end,
                });
            }
        }
        None
    }

    /// The line after the last one of the value of the key on `key_line`:
    /// lines indented deeper, `- ` items at the key's own indentation (YAML's
    /// compact lists), and blank or comment lines between them. Blank and
    /// comment lines after the value belong to what follows and stay.
    fn value_end(&self, key_line: usize, indent: usize, colon_end: usize, limit: usize) -> usize {
        let header = self.text[colon_end..self.spans[key_line].content_end].trim_start();
        // In `|` and `>` block scalars a `#` line is text, not a comment.
        let block_scalar = header.starts_with('|') || header.starts_with('>');
        let mut end = key_line + 1;
        for line in key_line + 1..limit {
            let content = self.content(line);
            let rest = content.trim_start_matches([' ', '\t']);
            let depth = content.len() - rest.len();
            if rest.is_empty() || (rest.starts_with('#') && !(block_scalar && depth > indent)) {
                continue;
            }
            let belongs = depth > indent || (depth == indent && (rest == "-" || rest.starts_with("- ")));
            // Anything else at this indentation that is not a key (a closing `]`
            // of a flow list, say) still belongs to the value above it.
            let stray = depth == indent && key_of(rest).is_none() && !rest.starts_with("- ");
            if !(belongs || stray) {
                break;
            }
            end = line + 1;
        }
        end
    }

    /// Whether the entry's value starts on the next line (a block list, a
    /// nested mapping) rather than after the colon.
    fn value_is_below(&self, entry: &Entry) -> bool {
        let inline = self.text[entry.colon_end..self.spans[entry.key_line].content_end].trim_start();
        inline.is_empty() || inline.starts_with('#')
    }

    /// The entry as it will read with the new value, keeping the key as
    /// written, the spacing after the colon, a trailing comment, and the list
    /// and quoting style the value had.
    fn render(&self, entry: &Entry, value: &FieldValue, eol: &str) -> String {
        let key_span = self.spans[entry.key_line];
        let head = &self.text[key_span.start..entry.colon_end];
        let rest = &self.text[entry.colon_end..key_span.content_end];
        let inline = rest.trim_start();
        let eol = self.eol(entry.key_line, eol);
        let single_line = entry.end_line == entry.key_line + 1;

        let (sep, token, comment) = if inline.is_empty() || inline.starts_with('#') {
            (" ", "", if inline.is_empty() { String::new() } else { format!(" {inline}") })
        } else {
            let sep = &rest[..rest.len() - inline.len()];
            match yaml_text::token_len(inline) {
                Some(len) if single_line && inline[len..].trim_start().starts_with('#') => {
                    (sep, &inline[..len], inline[len..].to_string())
                }
                _ => (sep, inline, String::new()),
            }
        };

        // A block list keeps its items' indentation and quoting.
        let first_below = (entry.key_line + 1..entry.end_line).find(|&line| self.indent(line).is_some());
        let block_items = first_below.and_then(|line| {
            let content = self.content(line);
            let item = content.trim_start_matches([' ', '\t']);
            let marker = item.strip_prefix("- ").or((item == "-").then_some(""))?;
            Some((&content[..content.len() - item.len()], Quote::of(marker.trim_start())))
        });

        match value {
            FieldValue::List(items) => match block_items {
                Some((item_indent, quote)) if token.is_empty() && !items.is_empty() => {
                    let mut written = format!("{head}{comment}{eol}");
                    for item in items {
                        let item = yaml_text::scalar(item, quote, Context::Block);
                        written.push_str(&format!("{item_indent}- {item}{eol}"));
                    }
                    written
                }
                _ => {
                    let (quote, padded) = match token.strip_prefix('[') {
                        Some(list) => (Quote::of(list.trim_start()), list.starts_with(' ')),
                        None => (Quote::Plain, false),
                    };
                    format!("{head}{sep}{}{comment}{eol}", yaml_text::flow_list(items, quote, padded))
                }
            },
            FieldValue::Text(text) => {
                format!("{head}{sep}{}{comment}{eol}", yaml_text::scalar(text, Quote::of(token), Context::Block))
            }
            FieldValue::Bool(flag) => format!("{head}{sep}{flag}{comment}{eol}"),
            FieldValue::Date(date) => format!("{head}{sep}{}{comment}{eol}", yaml_text::date(date, Quote::of(token))),
        }
    }

    /// A flow `taxonomies: {tags: [...]}` cannot be edited line by line: it is
    /// written again, as JSON (which YAML reads), with its tags changed.
    fn rewrite_flow_taxonomies(
        &self,
        parent: &Entry,
        taxonomies: Option<&Value>,
        tags: Option<&FieldValue>,
        eol: &str,
    ) -> String {
        let mut map = match taxonomies {
            Some(Value::Object(map)) => map.clone(),
            _ => serde_json::Map::new(),
        };
        match tags {
            Some(value) => {
                map.insert("tags".into(), value.to_json());
            }
            None => {
                map.shift_remove("tags");
            }
        }
        if map.is_empty() && tags.is_none() {
            return self.replace(parent, "");
        }
        let key_span = self.spans[parent.key_line];
        let head = &self.text[key_span.start..parent.colon_end];
        let eol = self.eol(parent.end_line - 1, eol);
        self.replace(parent, &format!("{head} {}{eol}", Value::Object(map)))
    }

    fn replace(&self, entry: &Entry, with: &str) -> String {
        let start = self.spans[entry.key_line].start;
        let end = self.spans[entry.end_line - 1].end;
        // A last line without a line ending keeps having none.
        let with = if end == self.text.len() && !self.text.ends_with('\n') {
            with.trim_end_matches(['\r', '\n'])
        } else {
            with
        };
        format!("{}{with}{}", &self.text[..start], &self.text[end..])
    }

    fn insert(&self, at: usize, entry: &str) -> String {
        let before = &self.text[..at];
        let missing_eol = if !before.is_empty() && !before.ends_with('\n') {
            let eol_len = entry.len() - entry.trim_end_matches(['\r', '\n']).len();
            &entry[entry.len() - eol_len..]
        } else {
            ""
        };
        format!("{before}{missing_eol}{entry}{}", &self.text[at..])
    }
}

/// The key at the start of `line` and the byte offset just after its colon:
/// `title: x`, `"title": x`, `'title' : x`. Not for `- item`, `# comment`, or
/// `a:b` (a plain scalar, not a key).
fn key_of(line: &str) -> Option<(String, usize)> {
    let (key, after_key) = match line.chars().next()? {
        quote @ ('"' | '\'') => {
            let len = yaml_text::token_len(line)?;
            let inner = &line[1..len - 1];
            let key = if quote == '\'' { inner.replace("''", "'") } else { inner.to_string() };
            (key, len)
        }
        '#' | '-' | '[' | '{' | '?' | '&' | '*' | '!' | '|' | '>' | '%' | '@' | '`' | ']' | '}' | ',' => {
            if line.starts_with('-') && !line.starts_with("- ") && line != "-" {
                plain_key(line)?
            } else {
                return None;
            }
        }
        _ => plain_key(line)?,
    };
    let rest = &line[after_key..];
    let spaces = rest.len() - rest.trim_start_matches([' ', '\t']).len();
    let after_colon = rest[spaces..].strip_prefix(':')?;
    if !(after_colon.is_empty() || after_colon.starts_with([' ', '\t'])) {
        return None;
    }
    Some((key, after_key + spaces + 1))
}

fn plain_key(line: &str) -> Option<(String, usize)> {
    let bytes = line.as_bytes();
    let colon = (0..bytes.len())
        .find(|&at| bytes[at] == b':' && bytes.get(at + 1).is_none_or(|next| *next == b' ' || *next == b'\t'))?;
    let key = line[..colon].trim_end();
    (!key.is_empty() && !key.contains(" #")).then(|| (key.to_string(), key.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front_matter::PostDate;

    fn text(value: &str) -> FieldValue {
        FieldValue::Text(value.to_string())
    }

    fn list(items: &[&str]) -> FieldValue {
        FieldValue::List(items.iter().map(|item| item.to_string()).collect())
    }

    fn set_top(yaml: &str, key: &str, value: FieldValue) -> String {
        set(yaml, &Place::Top(key.to_string()), &value, "\n", None)
    }

    #[test]
    fn finds_keys_as_written() {
        assert_eq!(key_of("title: x"), Some(("title".into(), 6)));
        assert_eq!(key_of("title   :x"), None);
        assert_eq!(key_of("title :  x"), Some(("title".into(), 7)));
        assert_eq!(key_of("\"title\": x"), Some(("title".into(), 8)));
        assert_eq!(key_of("'it''s': x"), Some(("it's".into(), 8)));
        assert_eq!(key_of("title:"), Some(("title".into(), 6)));
        assert_eq!(key_of("url: http://x"), Some(("url".into(), 4)));
        assert_eq!(key_of("- a: b"), None);
        assert_eq!(key_of("# a: b"), None);
        assert_eq!(key_of("a:b"), None);
    }

    #[test]
    fn value_extent_covers_lists_nested_maps_and_block_scalars() {
        let yaml = "a: 1\ntags:\n  - x\n\n  # gone?\n  - y\n# about b\n\nb: |\n  # text\n\n  more\nc:\n- compact\nd: [1,\n  2\n]\ne: 5\n";
        let lines = Lines::new(yaml);
        let extent = |key| lines.find(0..lines.len(), 0, key).map(|entry| (entry.key_line, entry.end_line));
        assert_eq!(extent("a"), Some((0, 1)));
        assert_eq!(extent("tags"), Some((1, 6)));
        assert_eq!(extent("b"), Some((8, 12)));
        assert_eq!(extent("c"), Some((12, 14)));
        assert_eq!(extent("d"), Some((14, 17)));
        assert_eq!(extent("e"), Some((17, 18)));
        assert_eq!(extent("zzz"), None);
    }

    #[test]
    fn keeps_spacing_quotes_and_comment_of_the_line() {
        assert_eq!(set_top("title:   'Old' # why\n", "title", text("It's new")), "title:   'It''s new' # why\n");
        assert_eq!(set_top("title: \"Old\"\n", "title", text("New")), "title: \"New\"\n");
        assert_eq!(set_top("title: Old\n", "title", text("a: b")), "title: \"a: b\"\n");
    }

    #[test]
    fn lists_keep_their_style() {
        assert_eq!(
            set_top("tags: ['a', 'b'] # t\nx: 1\n", "tags", list(&["c", "d e"])),
            "tags: ['c', 'd e'] # t\nx: 1\n"
        );
        assert_eq!(set_top("tags: # t\n    - a\n    - b\nx: 1\n", "tags", list(&["c"])), "tags: # t\n    - c\nx: 1\n");
        assert_eq!(set_top("tags:\n- a\nx: 1\n", "tags", list(&["b", "c"])), "tags:\n- b\n- c\nx: 1\n");
        assert_eq!(set_top("tags:\n  - a\nx: 1\n", "tags", list(&[])), "tags: []\nx: 1\n");
        assert_eq!(set_top("tags: a, b\n", "tags", list(&["c"])), "tags: [c]\n");
    }

    #[test]
    fn other_values() {
        let date = PostDate::parse("2026-07-18T09:30").unwrap();
        assert_eq!(set_top("date: '2026-07-17'\n", "date", FieldValue::Date(date)), "date: '2026-07-18T09:30:00'\n");
        assert_eq!(set_top("draft: no\n", "draft", FieldValue::Bool(true)), "draft: true\n");
        assert_eq!(set_top("summary: >-\n  long\n  text\nz: 1\n", "summary", text("S")), "summary: S\nz: 1\n");
    }

    #[test]
    fn appends_missing_keys() {
        assert_eq!(set_top("title: T\n# end\n", "slug", text("s")), "title: T\n# end\nslug: s\n");
        assert_eq!(set_top("", "slug", text("s")), "slug: s\n");
    }

    #[test]
    fn indented_front_matter_keeps_its_margin() {
        assert_eq!(set_top("  a: 1\n  b: 2\n", "c", text("x")), "  a: 1\n  b: 2\n  c: x\n");
        assert_eq!(set_top("  a: 1\n  b: 2\n", "a", text("x")), "  a: x\n  b: 2\n");
    }

    #[test]
    fn removes_a_key_and_its_lines_only() {
        let yaml = "a: 1\ntags:\n  - x\n  - y\n\n# b next\nb: 2\n";
        assert_eq!(remove(yaml, &Place::Top("tags".into()), None), "a: 1\n\n# b next\nb: 2\n");
        assert_eq!(remove(yaml, &Place::Top("zzz".into()), None), yaml);
    }

    #[test]
    fn edits_tags_inside_taxonomies() {
        let yaml = "taxonomies:\n  categories: [c]\n  tags:\n    - a\ntitle: T\n";
        assert_eq!(
            set(yaml, &Place::TaxonomyTags, &list(&["b"]), "\n", None),
            "taxonomies:\n  categories: [c]\n  tags:\n    - b\ntitle: T\n"
        );
        assert_eq!(remove(yaml, &Place::TaxonomyTags, None), "taxonomies:\n  categories: [c]\ntitle: T\n");
        let only_tags = "taxonomies:\n  tags: [a]\ntitle: T\n";
        assert_eq!(remove(only_tags, &Place::TaxonomyTags, None), "title: T\n");
        let no_tags = "taxonomies:\n  categories: [c]\n\ntitle: T\n";
        assert_eq!(
            set(no_tags, &Place::TaxonomyTags, &list(&["b"]), "\n", None),
            "taxonomies:\n  categories: [c]\n  tags: [b]\n\ntitle: T\n"
        );
    }

    #[test]
    fn flow_taxonomies_are_written_again() {
        let yaml = "taxonomies: {tags: [a], categories: [c]}\n";
        let parsed = serde_json::json!({"tags": ["a"], "categories": ["c"]});
        assert_eq!(
            set(yaml, &Place::TaxonomyTags, &list(&["b"]), "\n", Some(&parsed)),
            "taxonomies: {\"tags\":[\"b\"],\"categories\":[\"c\"]}\n"
        );
    }

    #[test]
    fn keeps_crlf() {
        assert_eq!(
            set_top("title: A\r\ntags:\r\n  - a\r\n", "tags", list(&["b", "c"])),
            "title: A\r\ntags:\r\n  - b\r\n  - c\r\n"
        );
    }
}
