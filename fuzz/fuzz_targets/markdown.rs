//! `markdown::render` on any body, with every option on: no panics, and when
//! the body has no raw HTML, the block and inline tags it writes are balanced.

#![no_main]

use std::path::Path;
use std::sync::OnceLock;

use arbitrary::Arbitrary;
use hanji::markdown::{self, Link, LinkResolver, Options, Shortcodes, Syntax};
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

/// A blog's own shortcodes in each syntax, with blocks, values and inner
/// text rendered, whose HTML is balanced.
fn shortcodes() -> &'static Shortcodes {
    static SHORTCODES: OnceLock<Shortcodes> = OnceLock::new();
    SHORTCODES.get_or_init(|| {
        let mut all = Shortcodes::new();
        let hugo = "<aside>{{ with .Get 0 }}<em>{{ . }}</em>{{ end }}{{ .Inner | markdownify }}</aside>";
        all.add(Syntax::Hugo, "note", Path::new("layouts/shortcodes/note.html"), hugo);
        let zola = "<aside>{% if title %}<em>{{ title }}</em>{% endif %}{{ body | markdown | safe }}</aside>";
        all.add(Syntax::Zola, "aside", Path::new("templates/shortcodes/aside.html"), zola);
        let liquid = "<aside>{{ include.text | markdownify }}</aside>";
        all.add(Syntax::Liquid, "note.html", Path::new("_includes/note.html"), liquid);
        all
    })
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
        shortcodes: Some(shortcodes()),
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
