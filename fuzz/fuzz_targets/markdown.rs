//! `markdown::render` on any body, with every option on: no panics, and when
//! the body has no raw HTML, the block and inline tags it writes are balanced.

#![no_main]

use arbitrary::Arbitrary;
use hanji::markdown::{self, Link, LinkResolver, Options, Syntax};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input<'a> {
    first_line: u16,
    source_lines: bool,
    highlight: bool,
    syntax: u8,
    body: &'a str,
}

/// Keeps, rewrites or breaks links by their first byte, so every path runs.
struct Links;

impl LinkResolver for Links {
    fn resolve_link(&self, dest: &str) -> Link {
        decide(dest)
    }
    fn resolve_image(&self, dest: &str) -> Link {
        decide(dest)
    }
}

fn decide(dest: &str) -> Link {
    match dest.len() % 3 {
        0 => Link::Keep,
        1 => Link::Rewrite(format!("/posts/{dest}/")),
        _ => Link::Broken { message: format!("no post `{dest}`"), hint: Some("check the name".into()) },
    }
}

const TAGS: &[&str] = &["p", "blockquote", "ul", "ol", "li", "table", "pre", "em", "strong", "del", "h2", "h3"];

fuzz_target!(|input: Input<'_>| {
    let syntax = match input.syntax % 5 {
        0 => Syntax::Markdown,
        1 => Syntax::Hugo,
        2 => Syntax::Zola,
        3 => Syntax::Liquid,
        _ => Syntax::Mdx,
    };
    let options = Options {
        first_line: usize::from(input.first_line),
        source_lines: input.source_lines,
        highlight: input.highlight,
        highlights: None,
        links: Some(&Links),
        syntax,
    };
    let rendered = markdown::render(input.body, &options);
    let _ = markdown::summary_text(input.body);
    assert!(!rendered.html.contains('\0'), "NUL in the HTML");
    let first = usize::from(input.first_line).max(1);
    let last = first + input.body.split('\n').count();
    for problem in &rendered.problems {
        assert!((first..=last).contains(&problem.line), "problem line {} outside {first}..={last}", problem.line);
    }
    // Raw HTML is passed through as written, so balance only holds without it.
    if syntax == Syntax::Markdown && !input.body.contains('<') {
        for tag in TAGS {
            let opened = count_open(&rendered.html, tag);
            let closed = rendered.html.matches(&format!("</{tag}>")).count();
            assert_eq!(opened, closed, "<{tag}> opened {opened} times, closed {closed}:\n{}", rendered.html);
        }
    }
});

/// `<tag>` or `<tag ` (with attributes), not `<tagname`.
fn count_open(html: &str, tag: &str) -> usize {
    let open = format!("<{tag}");
    html.match_indices(&open)
        .filter(|(at, _)| matches!(html.as_bytes().get(at + open.len()), Some(b'>' | b' ')))
        .count()
}
