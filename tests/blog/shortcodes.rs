//! A blog's own shortcodes: the templates its tool keeps (Hugo's
//! `layouts/shortcodes/`, a theme's, Zola's `templates/shortcodes/`, Jekyll's
//! `_includes/`), read with the blog, run where simple in the export and the
//! preview alike, reported where not, and followed when they change.
//! `differential.rs` holds the Hugo ones to the real Hugo.

use std::path::Path;

use hanji::{Theme, post_preview};

use crate::watch::Watched;
use crate::{BlogTest, export, read};

const POST: &str = "content/posts/shortcodes.md";

/// What the fixture's `shortcodes.md` must show, wherever it is seen.
const SHOWN: &[&str] = &[
    "<figure class=\"image-full wide\">",
    "<figcaption><strong>그림 1</strong>: the <em>first</em> figure</figcaption>",
    "<span class=\"badge\" title='tip &amp; trick'>새 기능</span>",
    "<aside class=\"note\">A note with <strong>bold</strong> text",
    "<div class=\"callout warning\">\n<p>Two paragraphs in the callout of the theme.</p>",
    "href=\"#ZgotmplZ\">this</a>",
];

/// What of `SHOWN` the page does not show.
fn shown_in(html: &str) -> Vec<&'static str> {
    SHOWN.iter().copied().filter(|wanted| !html.contains(wanted)).collect()
}

#[test]
fn a_hugo_blog_s_own_and_its_theme_s_shortcodes_render_in_the_export_and_the_preview() {
    let blog = BlogTest::fixture("shortcodes/hugo");
    let loaded = blog.load();
    assert_eq!(loaded.shortcodes.len(), 6, "five of the blog's own, the theme's callout (its note is the blog's)");
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    export(&blog, &site, &[]);
    let page = read(site.join("posts/shortcodes/index.html"));
    assert_eq!(shown_in(&page), Vec::<&str>::new(), "{page}");
    assert!(!page.contains("theme-note") && !page.contains("unrendered"), "{page}");

    let theme = Theme::new(&loaded.templates).0;
    let preview = post_preview(&loaded, &theme, None, Path::new(POST), &read(blog.path().join(POST)));
    assert_eq!(shown_in(&preview.html), Vec::<&str>::new(), "the preview renders as the export: {}", preview.html);
    assert!(preview.problems.is_empty(), "{:?}", preview.problems);
}

#[test]
fn images_of_a_shortcode_are_checked_and_lead_where_the_site_has_them() {
    let blog = BlogTest::fixture("shortcodes/hugo");
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    export(&blog, &site, &[]);
    let page = read(site.join("posts/local/index.html"));
    assert!(page.contains("<img src=\"../../img/local.png\" alt=\"A local image\">"), "{page}");
    let check = blog.hanji(&["check"]);
    let (missing, _) = check.line_starting("content/posts/local.md:8:1:");
    assert!(missing.contains("/img/missing.png"), "{missing}");
}

#[test]
fn a_template_that_is_not_simple_is_named_with_what_in_it_is_not_run() {
    let check = BlogTest::fixture("shortcodes/hugo").hanji(&["check"]);
    let (line, hint) = check.line_starting("content/posts/local.md:10:1:");
    assert_eq!(
        line,
        "content/posts/local.md:10:1: warning: Hugo shortcode `gallery` is not rendered: its template \
         layouts/shortcodes/gallery.html has `{{ $dir := .Get \"dir\" }}`, which Hanji does not run (line 1); \
         it is shown as written"
    );
    assert!(hint.contains("`.Get`, `.Inner`, `markdownify`"), "{hint}");
    let warnings = check.lines().into_iter().filter(|l| l.contains(": warning:")).count();
    assert_eq!(warnings, 2, "the gallery and the missing image, nothing else: {}", check.stdout());
}

#[test]
fn a_changed_shortcode_template_renders_every_post_again() {
    let w = Watched::start(BlogTest::fixture("shortcodes/hugo"));
    w.write("layouts/shortcodes/badge.html", "<mark class=\"badge\">{{ .Get 1 }}</mark>\n");
    let (set, _) = w.change("a shortcode template", |s| s.shortcodes);
    assert!(set.stale.all, "{set:#?}");
    w.settles();
    let blog = w.watch.blog().read().unwrap();
    let theme = Theme::new(&blog.templates).0;
    let preview = post_preview(&blog, &theme, None, Path::new(POST), &read(w.blog.path().join(POST)));
    assert!(preview.html.contains("<mark class=\"badge\">새 기능</mark>"), "{}", preview.html);
    drop(blog);
    // A theme's template counts as the blog's own do.
    w.write("themes/paper/layouts/shortcodes/callout.html", "<div class=\"callout2\">{{ .Inner }}</div>");
    w.change("the theme's template", |s| s.shortcodes);
    w.settles();
}

#[test]
fn zola_and_jekyll_blogs_own_shortcodes_render() {
    let zola = BlogTest::empty()
        .write("config.toml", "base_url = \"https://z.example\"\ntitle = \"Z\"\ntheme = \"even\"\n")
        .write("templates/shortcodes/quote.html", "<blockquote>{{ body | markdown | safe }}<cite>{{ author }}</cite></blockquote>\n")
        .write("themes/even/templates/shortcodes/hi.md", "Hello, **{{ name }}**!\n")
        .write(
            "content/a.md",
            "+++\ntitle = \"A\"\ndate = 2026-07-17\n+++\n{% quote(author=\"Ada\") %}\nA *quote*.\n{% end %}\n\n{{ hi(name=\"you\") }}\n",
        );
    let check = zola.hanji(&["check"]);
    assert!(!check.stdout().contains("warning"), "{}", check.stdout());
    let out = tempfile::tempdir().unwrap();
    export(&zola, &out.path().join("site"), &[]);
    let page = read(out.path().join("site/a/index.html"));
    assert!(page.contains("<blockquote><p>A <em>quote</em>.</p>\n<cite>Ada</cite></blockquote>"), "{page}");
    assert!(page.contains("<p>Hello, <strong>you</strong>!</p>"), "the theme's `.md` shortcode: {page}");

    let jekyll = BlogTest::empty()
        .write("_config.yml", "title: J\n")
        .write("_includes/notice.html", "<div class=\"notice\">{% if include.title %}<b>{{ include.title }}</b> {% endif %}{{ include.text | markdownify }}</div>\n")
        .write(
            "_posts/2026-07-17-a.md",
            "---\ntitle: A\n---\n{% include notice.html title=\"주의\" text=\"Read *this*.\" %}\n\n{% include notice.html text=\"No title.\" %}\n",
        );
    let check = jekyll.hanji(&["check"]);
    assert!(!check.stdout().contains("warning"), "{}", check.stdout());
    let out = tempfile::tempdir().unwrap();
    export(&jekyll, &out.path().join("site"), &[]);
    let page = read(out.path().join("site/2026/07/17/a.html"));
    assert!(page.contains("<div class=\"notice\"><b>주의</b> <p>Read <em>this</em>.</p>\n</div>"), "{page}");
    assert!(page.contains("<div class=\"notice\"><p>No title.</p>\n</div>"), "{page}");
}
