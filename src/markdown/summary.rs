//! The plain text of a post's first paragraph, for post lists and feeds when
//! the front matter has no summary. It runs for every post at load, so it
//! parses only as much of the body as it needs.
//!
//! pulldown-cmark parses a whole document's block structure up front, so the
//! body is given to it in growing prefixes cut at line ends (4 KB, 16 KB, …).
//! A top-level paragraph found in a prefix is the real first paragraph when
//! something follows it inside the prefix: whatever ended it (a blank line, a
//! heading, a fence) is then part of the prefix, and lines further on cannot
//! change it. The one thing a prefix can get wrong is a reference — a link
//! `[text][ref]` or footnote `[^1]` defined further down — so a paragraph that
//! seems to hold one is read again from the whole body.

use pulldown_cmark::{Event, Parser, Tag, TagEnd};

const FIRST_PREFIX: usize = 4 * 1024;

pub(super) fn first_paragraph(body: &str) -> Option<String> {
    let mut size = FIRST_PREFIX;
    loop {
        let prefix = prefix_at_line_end(body, size);
        let whole = prefix.len() == body.len();
        match scan(prefix, whole) {
            Scan::Found(text) => return Some(text),
            Scan::Unsure if !whole => size = size.saturating_mul(4),
            Scan::Unsure | Scan::NotFound => return None,
        }
    }
}

enum Scan {
    Found(String),
    /// No paragraph is known to be complete in this prefix, or it may hold a
    /// reference defined further on.
    Unsure,
    NotFound,
}

/// `body` up to the end of the line holding byte `size`.
fn prefix_at_line_end(body: &str, size: usize) -> &str {
    if size >= body.len() {
        return body;
    }
    match body.as_bytes()[size..].iter().position(|&b| b == b'\n') {
        Some(newline) => &body[..size + newline + 1],
        None => body,
    }
}

/// Where another tool's syntax starts in a summary's text: a Hugo shortcode
/// (`{{<`, `{{%`) or a Liquid or Zola tag (`{%`).
fn other_syntax_start(text: &str) -> Option<usize> {
    ["{{<", "{{%", "{%"].iter().filter_map(|open| text.find(open)).min()
}

/// A paragraph of nothing but another tool's syntax (`{{< figure … >}}`,
/// `{% include x %}`, an MDX `import … from '…'` line, a tag Markdown did not
/// take for HTML, `<img width={500} />`) is no summary, in any post: it is not
/// prose a reader would want in a list of posts.
fn is_other_syntax(text: &str) -> bool {
    let text = text.trim();
    let wrapped = |open: &str, close: &str| text.starts_with(open) && text.ends_with(close);
    let module = (text.starts_with("import ") && (text.contains(" from '") || text.contains(" from \"")))
        || ["export const ", "export default ", "export function ", "export {"].iter().any(|e| text.starts_with(e));
    let tag = wrapped("<", ">") && text[1..].starts_with(|c: char| c.is_ascii_alphabetic());
    wrapped("{{", "}}") || wrapped("{%", "%}") || module || tag
}

fn scan(text: &str, whole: bool) -> Scan {
    // Only told when a reference could not be resolved in `text`.
    let mut unresolved = false;
    let mut note_broken = |_: pulldown_cmark::BrokenLink<'_>| {
        unresolved = true;
        None
    };
    let mut events = Parser::new_with_broken_link_callback(text, super::parser_options(), Some(&mut note_broken));
    let mut depth = 0usize;
    let mut found: Option<String> = None;
    while let Some(event) = events.next() {
        match event {
            Event::Start(Tag::Paragraph) if depth == 0 => {
                let mut summary = Summary::default();
                summary.read_paragraph(&mut events);
                // Kramdown attribute lists are markup, not prose (the text
                // events of one may come in pieces, so they go from the whole).
                if let std::borrow::Cow::Owned(text) = super::foreign::without_attribute_lists(&summary.text) {
                    summary.text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                }
                // Prose runs up to another tool's syntax (a shortcode, a Liquid
                // tag) in the same paragraph: the rest is markup, not words.
                if let Some(at) = other_syntax_start(&summary.text).filter(|at| *at > 0) {
                    summary.text.truncate(at);
                    summary.text.truncate(summary.text.trim_end().len());
                }
                if !summary.text.is_empty() && !is_other_syntax(&summary.text) {
                    found = Some(summary.text);
                    break;
                }
            }
            Event::Start(_) => depth += 1,
            Event::End(_) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    let Some(text_found) = found else {
        return if whole { Scan::NotFound } else { Scan::Unsure };
    };
    if whole {
        return Scan::Found(text_found);
    }
    let complete = events.next().is_some();
    // In GFM footnote syntax an undefined `[^x]` is literal text.
    drop(events);
    if !complete || unresolved || text_found.contains("[^") { Scan::Unsure } else { Scan::Found(text_found) }
}

#[derive(Default)]
struct Summary {
    text: String,
    /// A space is due before the next word.
    space: bool,
}

impl Summary {
    /// Reads up to the paragraph's end, keeping the text of text, code, links
    /// and math, dropping images, raw HTML tags and footnote references.
    fn read_paragraph<'a>(&mut self, events: &mut impl Iterator<Item = Event<'a>>) {
        let mut depth = 0usize;
        let mut in_image = 0usize;
        for event in events {
            match event {
                Event::End(TagEnd::Paragraph) if depth == 0 => return,
                Event::Start(Tag::Image { .. }) => {
                    depth += 1;
                    in_image += 1;
                }
                Event::End(TagEnd::Image) => {
                    depth = depth.saturating_sub(1);
                    in_image = in_image.saturating_sub(1);
                }
                Event::Start(_) => depth += 1,
                Event::End(_) => depth = depth.saturating_sub(1),
                Event::Text(text) | Event::Code(text) | Event::InlineMath(text) | Event::DisplayMath(text)
                    if in_image == 0 =>
                {
                    self.push(&text)
                }
                Event::SoftBreak | Event::HardBreak => self.space = true,
                _ => {}
            }
        }
    }

    /// Appends `text` with runs of whitespace collapsed to one space and none
    /// at either end.
    fn push(&mut self, text: &str) {
        for (i, word) in text.split(char::is_whitespace).enumerate() {
            if i > 0 {
                self.space = true;
            }
            if word.is_empty() {
                continue;
            }
            if self.space && !self.text.is_empty() {
                self.text.push(' ');
            }
            self.space = false;
            self.text.push_str(&word.replace('\0', "\u{FFFD}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tag_markdown_did_not_take_for_html_is_no_summary() {
        let body = "<img src=\"/a.png\" width={500} style={{ margin: 0 }} />\n\nThe first words.\n";
        assert_eq!(first_paragraph(body).as_deref(), Some("The first words."));
        assert_eq!(first_paragraph("<b>Bold</b> start.\n").as_deref(), Some("Bold start."));
    }

    #[test]
    fn prose_ends_where_another_tools_syntax_starts() {
        let body = "Go's loops, briefly.\n{{< highlight go >}}\nfor {}\n{{< /highlight >}}\n";
        assert_eq!(first_paragraph(body).as_deref(), Some("Go's loops, briefly."));
        assert_eq!(first_paragraph("See {% include note.html %} here.\n").as_deref(), Some("See"));
        assert_eq!(first_paragraph("{{< figure src=\"a.png\" >}}\n\nThe words.\n").as_deref(), Some("The words."));
    }

    #[test]
    fn kramdown_attribute_lists_are_not_prose() {
        let summary = first_paragraph("**Note:** read [this](x){:target=\"_blank\"}.\n{: .notice--info}\n");
        assert_eq!(summary.as_deref(), Some("Note: read this."));
        assert_eq!(first_paragraph("A {: word} stays.\n").as_deref(), Some("A {: word} stays."));
    }

    #[test]
    fn first_paragraph_text() {
        let body = "Hello *world*, see [the docs](https://x.y) and `cargo  test`.\nSecond   line.\n\nNext paragraph.";
        assert_eq!(first_paragraph(body).as_deref(), Some("Hello world, see the docs and cargo test. Second line."));
    }

    #[test]
    fn headings_code_html_and_images_are_skipped() {
        let body = "# Title\n\n```rust\nfn main() {}\n```\n\n<div>\nraw\n</div>\n\n![a picture](p.png)\n\n> quoted\n\n- item\n\n분산 학습을 **시작**합니다.\n";
        assert_eq!(first_paragraph(body).as_deref(), Some("분산 학습을 시작합니다."));
    }

    #[test]
    fn no_paragraph_is_none() {
        assert_eq!(first_paragraph(""), None);
        assert_eq!(first_paragraph("# Only a heading\n\n```\ncode\n```\n"), None);
        assert_eq!(first_paragraph("- a list\n- only\n"), None);
    }

    #[test]
    fn references_defined_at_the_end_of_a_long_post_resolve() {
        let filler = "Filler paragraph with some words.\n\n".repeat(400);
        let body = format!(
            "Intro with a [link][ref] and a note[^1].\n\n{filler}[ref]: https://example.com\n\n[^1]: The note.\n"
        );
        assert_eq!(first_paragraph(&body).as_deref(), Some("Intro with a link and a note."));
        // Undefined ones stay literal, as in the rendered post.
        let body = format!("Tagged [WIP] here.\n\n{filler}");
        assert_eq!(first_paragraph(&body).as_deref(), Some("Tagged [WIP] here."));
    }

    #[test]
    fn a_paragraph_cut_by_the_prefix_is_read_whole() {
        // One paragraph longer than the first prefix, then a second one.
        let long = "word ".repeat(2000);
        let body = format!("{}\nend\n\nsecond", long.trim_end().replace("word word", "word\nword"));
        let summary = first_paragraph(&body).unwrap();
        assert!(summary.ends_with("word end"), "{}", &summary[summary.len() - 20..]);
        // A setext heading underline just past the prefix turns the "paragraph" into a heading.
        let body = format!("{}\n===\n\nreal first", "x".repeat(FIRST_PREFIX + 10));
        assert_eq!(first_paragraph(&body).as_deref(), Some("real first"));
    }
}
