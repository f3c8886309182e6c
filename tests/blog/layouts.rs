//! Blogs made with Hugo, Zola, Jekyll and tailwind-nextjs-starter-blog,
//! opened as they are: `tests/fixtures/layouts/<tool>/`, written for these
//! tests in each tool's own layout.

use std::fs;
use std::path::Path;

use hanji::Blog;
use hanji::Kind;
use hanji::PostDate;
use hanji::Theme;
use hanji::{Page, Site, SiteOptions};
use jiff::civil::{date, time};

use crate::{BlogTest, export, files, p, read, visible_text};

fn layout(name: &str) -> BlogTest {
    BlogTest::fixture(&format!("layouts/{name}"))
}

/// `name (count)` of every published tag, most used first.
fn tags(blog: &Blog) -> Vec<String> {
    blog.library.tags(false).iter().map(|t| format!("{} ({})", t.name, t.count)).collect()
}

/// (path, slug, date) of every post, newest first.
fn posts(blog: &Blog) -> Vec<(String, String, Option<jiff::civil::Date>)> {
    blog.library
        .posts()
        .filter(|post| !post.page)
        .map(|post| (post.path.display().to_string(), post.slug.clone(), post.date.map(|d| d.date)))
        .collect()
}

/// The pages (not posts) of a blog, by file, with their addresses.
fn pages(blog: &Blog) -> Vec<(String, String)> {
    let addresses = hanji::Addresses::new(&blog.config, &blog.library);
    let mut pages: Vec<(String, String)> = blog
        .library
        .posts()
        .filter(|post| post.page)
        .map(|post| (post.path.display().to_string(), addresses.post(post)))
        .collect();
    pages.sort();
    pages
}

/// Every file of the folder with its bytes.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    files(dir).into_iter().map(|file| (file.clone(), fs::read(dir.join(&file)).unwrap())).collect()
}

/// A post's page as the preview and the export render it.
fn page(blog: &Blog, post: &str) -> String {
    let (theme, problems) = Theme::new(&blog.templates);
    assert!(problems.is_empty(), "{problems:?}");
    let site = Site::new(&blog.config, &blog.library, &blog.assets, &theme, SiteOptions::default());
    site.render(&Page::Post(p(post))).unwrap().text
}

#[test]
fn a_hugo_blog_loads_as_it_is() {
    let blog = layout("hugo").load();
    assert_eq!(blog.layout().kind, Kind::Hugo);
    assert_eq!(blog.layout().settings_file, Some(p("hugo.toml")));
    let config = &blog.config;
    assert_eq!(config.posts_dir, p("content"), "every section");
    assert_eq!(config.output_dir, p("hanji-public"));
    assert_eq!(config.title, "Hugo 노트");
    assert_eq!(config.locale, "ko-KR", "from locale = \"ko-kr\" (Hugo 0.158+)");
    assert_eq!(config.base_url, "https://hugo.example.org/");
    assert_eq!(config.description, "A Hugo blog that Hanji opens as it is");
    assert_eq!(config.author, "Kim Hana");

    // _index.md sections, about.md (outside every section: a page),
    // archetypes/ and Hugo's own public/ are not posts.
    assert_eq!(
        posts(&blog),
        [
            ("content/posts/draft-post.md".into(), "draft-post".into(), Some(date(2026, 3, 5))),
            ("content/posts/first-steps.md".into(), "first-steps".into(), Some(date(2026, 3, 1))),
            ("content/posts/toml-front-matter.md".into(), "toml-front-matter".into(), Some(date(2026, 2, 10))),
            ("content/posts/photo-bundle/index.md".into(), "photo-bundle".into(), Some(date(2026, 1, 20))),
        ]
    );
    assert_eq!(pages(&blog), [("content/about.md".into(), "about/".into())]);
    let toml = blog.library.post(&p("content/posts/toml-front-matter.md")).unwrap();
    assert_eq!(toml.date, Some(PostDate { date: date(2026, 2, 10), time: Some(time(8, 30, 0, 0)) }));
    assert_eq!(toml.updated.map(|d| d.date), Some(date(2026, 2, 12)));
    assert_eq!(toml.tags, ["hugo"], "Hugo's categories are not tags");
    assert!(blog.library.post(&p("content/posts/draft-post.md")).unwrap().draft);
    assert!(blog.library.post(&p("content/posts/photo-bundle/index.md")).unwrap().bundle);

    assert_eq!(tags(&blog), ["hugo (3)", "photos (1)", "rust (1)"]);
    assert_eq!(blog.library.tag("hugo").unwrap().draft_count, 1);
    let assets: Vec<String> = blog.assets.iter().map(|a| a.display().to_string()).collect();
    assert_eq!(assets, ["content/posts/photo-bundle/sunrise.png", "static/images/diagram.png"], "no section file");
    assert!(blog.diagnostics().is_empty(), "{:?}", blog.diagnostics());
}

#[test]
fn a_zola_blog_loads_as_it_is() {
    let blog = layout("zola").load();
    assert_eq!(blog.layout().kind, Kind::Zola);
    assert_eq!(blog.layout().settings_file, Some(p("config.toml")));
    let config = &blog.config;
    assert_eq!(config.posts_dir, p("content"));
    assert_eq!(
        (config.title.as_str(), config.base_url.as_str(), config.locale.as_str(), config.author.as_str()),
        ("Zola notes", "https://zola.example.org", "en", "Lee Sora")
    );
    assert_eq!(config.description, "Notes kept with Zola");
    assert!(blog.templates.is_empty(), "Zola's Tera templates are not Hanji's: {:?}", blog.templates.keys());

    assert_eq!(
        posts(&blog),
        [
            ("content/blog/with-assets/index.md".into(), "with-assets".into(), Some(date(2026, 3, 1))),
            ("content/blog/second-post.md".into(), "second-post".into(), Some(date(2026, 2, 14))),
            ("content/blog/hello-zola.md".into(), "hello-zola".into(), Some(date(2026, 1, 5))),
        ],
        "the sections' _index.md are not posts"
    );
    let second = blog.library.post(&p("content/blog/second-post.md")).unwrap();
    assert_eq!(second.updated.map(|d| d.date), Some(date(2026, 2, 15)));
    assert_eq!(second.extra["taxonomies"]["categories"][0], "diary", "other taxonomies are kept for templates");
    let hello = blog.library.post(&p("content/blog/hello-zola.md")).unwrap();
    assert_eq!(hello.summary.as_deref(), Some("The first post."));
    assert_eq!(tags(&blog), ["zola (3)", "images (1)", "rust (1)"]);
    assert!(blog.assets.contains(&p("content/blog/with-assets/chart.png")));
    assert!(blog.assets.contains(&p("static/favicon.png")));
}

#[test]
fn a_jekyll_blog_loads_with_dates_and_slugs_from_file_names() {
    let blog = layout("jekyll").load();
    assert_eq!(blog.layout().kind, Kind::Jekyll);
    let config = &blog.config;
    assert_eq!(config.posts_dir, p("_posts"));
    assert_eq!(config.title, "Jekyll Journal");
    assert_eq!(config.description, "Posts written for Jekyll.");
    assert_eq!(config.base_url, "https://jekyll.example.org/journal", "url and baseurl");
    assert_eq!((config.locale.as_str(), config.author.as_str()), ("en-GB", "Park Minji"));

    assert_eq!(
        posts(&blog),
        [
            ("_posts/2026-02-01-untitled-thoughts.md".into(), "untitled-thoughts".into(), Some(date(2026, 2, 1))),
            ("_posts/2026-01-15-notes-on-rust.md".into(), "notes-on-rust".into(), Some(date(2026, 1, 16))),
            (
                "_posts/2025-12-24-welcome-to-jekyll.markdown".into(),
                "welcome-to-jekyll".into(),
                Some(date(2025, 12, 24))
            ),
        ],
        "_drafts/, pages and _layouts/ are not posts; the front matter's date wins over the name's"
    );
    // about.md is a page at its own permalink; index.md is the front page,
    // which is the theme's.
    assert_eq!(pages(&blog), [("about.md".into(), "about/".into())]);
    let welcome = blog.library.post(&p("_posts/2025-12-24-welcome-to-jekyll.markdown")).unwrap();
    assert_eq!(welcome.title, "Welcome to Jekyll!");
    assert!(welcome.tags.is_empty(), "categories are not tags");
    assert_eq!(welcome.categories, ["jekyll", "update"], "`categories: jekyll update` is two categories");
    let untitled = blog.library.post(&p("_posts/2026-02-01-untitled-thoughts.md")).unwrap();
    assert_eq!(untitled.title, "Untitled Thoughts", "as Jekyll titles a post from its name");
    let rust = blog.library.post(&p("_posts/2026-01-15-notes-on-rust.md")).unwrap();
    assert_eq!(rust.tags, ["rust", "async"]);
    assert_eq!(tags(&blog), ["rust (2)", "async (1)"]);
    let categories: Vec<String> =
        blog.library.categories(false).iter().map(|c| format!("{} ({})", c.name, c.count)).collect();
    assert_eq!(categories, ["jekyll (1)", "update (1)"]);
    assert!(blog.assets.contains(&p("assets/logo.png")));
    assert!(blog.diagnostics().is_empty(), "no title or date is fine in Jekyll: {:?}", blog.diagnostics());
}

#[test]
fn a_next_starter_blog_loads_mdx_posts_and_its_site_metadata() {
    let blog = layout("next-starter").load();
    assert_eq!(blog.layout().kind, Kind::NextStarter);
    assert_eq!(blog.layout().settings_file, Some(p("data/siteMetadata.js")));
    let config = &blog.config;
    assert_eq!(config.posts_dir, p("data/blog"));
    assert_eq!(config.title, "분산 학습 블로그");
    assert_eq!(config.locale, "ko-KR", "`locale` over `language`");
    assert_eq!(config.base_url, "https://next.example.org");
    assert_eq!(config.author, "Hanji Tester");
    assert_eq!(config.output_dir, p("hanji-public"), "public/ is the starter's static folder");

    assert_eq!(
        posts(&blog),
        [
            ("data/blog/draft-post.mdx".into(), "draft-post".into(), Some(date(2026, 7, 20))),
            ("data/blog/nccl-intro.mdx".into(), "nccl-intro".into(), Some(date(2026, 7, 17))),
            ("data/blog/plain-markdown.md".into(), "plain-markdown".into(), Some(date(2026, 6, 1))),
            ("data/blog/guides/nested-post.mdx".into(), "nested-post".into(), Some(date(2026, 5, 2))),
        ],
        "data/authors/ is not a post"
    );
    let intro = blog.library.post(&p("data/blog/nccl-intro.mdx")).unwrap();
    assert_eq!(intro.summary.as_deref(), Some("NCCL이 무엇이고 왜 필요한가"));
    assert_eq!(intro.updated.map(|d| d.date), Some(date(2026, 7, 18)));
    assert_eq!(tags(&blog), ["GPU (2)", "NCCL (2)"]);
    assert_eq!(blog.library.tag("nccl").unwrap().draft_count, 1);
    assert_eq!(blog.assets.iter().collect::<Vec<_>>(), [&p("public/static/images/ring.png")]);
}

#[test]
fn hanji_check_says_what_was_detected_and_where_syntax_is_not_rendered() {
    let run = layout("hugo").hanji(&["check"]);
    assert_eq!(run.code(), 0, "warnings only: {}", run.stderr());
    assert_eq!(
        run.stdout(),
        "content/posts/first-steps.md:13:9: warning: Hugo shortcode `instagram` is not rendered; it is shown as written\n  \
         hint: Hanji does not run Hugo shortcodes: write it in Markdown, or keep it for Hugo\n"
    );
    assert_eq!(
        run.stderr(),
        "detected a Hugo blog (hugo.toml): posts in content\n\
         the next export publishes 3 posts and 1 page\n\
         4 posts, 1 page, 0 errors, 1 warning\n"
    );

    // Each tool's syntax, at its file, line and column.
    let at = |name: &str| -> Vec<String> {
        let blog = layout(name).load();
        hanji::check(&blog)
            .iter()
            .map(|d| format!("{}:{}:{} {}", d.path.display(), d.line, d.column, d.message))
            .collect()
    };
    assert_eq!(
        at("zola"),
        [
            "content/blog/hello-zola.md:13:1 Zola shortcode `note` is not rendered; it is shown as written",
            "content/blog/hello-zola.md:15:1 Zola shortcode end `{% end %}` is not rendered; it is shown as written",
        ]
    );
    assert_eq!(
        at("jekyll"),
        [
            "_posts/2025-12-24-welcome-to-jekyll.markdown:14:17 Liquid output `{{ site.title }}` is not rendered; it is shown as written",
            "_posts/2025-12-24-welcome-to-jekyll.markdown:16:1 Liquid tag `include note.html` is not rendered: the blog has \
             no `_includes/note.html` (a theme gem's includes are not read); it is shown as written",
        ]
    );
    assert_eq!(
        at("next-starter"),
        ["data/blog/nccl-intro.mdx:18:29 MDX component `<Note>` is not rendered; it is left out",]
    );
}

#[test]
fn hanji_tags_counts_jekyll_categories_as_tags_only_when_told() {
    let run = layout("jekyll").hanji(&["tags"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(run.lines(), ["rust (2)", "async (1)"], "categories are a taxonomy of their own");
    let run = layout("jekyll").write("hanji.toml", "categories_are_tags = true\n").hanji(&["tags"]);
    assert_eq!(run.lines(), ["rust (2)", "async (1)", "jekyll (1)", "update (1)"]);
    let run = layout("next-starter").hanji(&["tags", "--drafts"]);
    assert_eq!(run.lines(), ["NCCL (2, 1 draft)", "GPU (2)"]);
}

#[test]
fn a_page_renders_what_is_harmless_and_shows_the_rest() {
    let hugo = layout("hugo").load();
    let first = page(&hugo, "content/posts/first-steps.md");
    assert!(
        first.contains(
            "<figure><img src=\"../../images/diagram.png\" alt=\"The build\" decoding=\"async\">\
             <figcaption>How the site is built</figcaption></figure>"
        ),
        "{first}"
    );
    assert!(
        first.contains("<a href=\"https://www.youtube.com/watch?v=w7Ft2ymGmfc\">YouTube video w7Ft2ymGmfc</a>"),
        "{first}"
    );
    assert!(first.contains("<code class=\"unrendered\">{{&lt; instagram CxOWiQNP2MO &gt;}}</code>"), "{first}");
    assert!(first.contains("<code>{{&lt; figure src=\"x.png\" &gt;}}</code>"), "a code span stays as it is");
    assert!(first.contains(">{{&lt; youtube id &gt;}}\n</code></pre>"), "so does a fenced block: {first}");
    let bundle = page(&hugo, "content/posts/photo-bundle/index.md");
    // The bundle's image, linked as a Markdown image beside it is.
    assert!(bundle.contains("<figure><img src=\"../../posts/photo-bundle/sunrise.png\" alt=\"Sunrise\""), "{bundle}");
    assert!(bundle.contains("<img src=\"../../posts/photo-bundle/sunrise.png\" alt=\"Also as Markdown\""));

    let jekyll = layout("jekyll").load();
    let welcome = page(&jekyll, "_posts/2025-12-24-welcome-to-jekyll.markdown");
    assert!(welcome.contains("<pre><code class=\"language-ruby\">"), "{welcome}");
    assert!(
        welcome.contains(
            "This post is on <code class=\"unrendered\">{{ site.title }}</code>, and {{ this }} is written as is."
        ),
        "{welcome}"
    );
    assert!(!welcome.contains("raw %}"), "the raw tags are Liquid's, and Hanji leaves the text alone too");
    // At Jekyll's address, `jekyll/update/2025/12/24/welcome-to-jekyll.html`.
    assert!(welcome.contains("<img src=\"../../../../../assets/logo.png\" alt=\"The logo\""), "{welcome}");
    assert!(welcome.contains("<time datetime=\"2025-12-24\">24 December 2025</time>"), "en-GB dates: {welcome}");

    let next = layout("next-starter").load();
    let intro = page(&next, "data/blog/nccl-intro.mdx");
    assert!(intro.contains("<p><img src=\"../../static/images/ring.png\" alt=\"Ring all-reduce\""), "{intro}");
    assert!(!intro.contains("import Note"), "an `import` shows nothing, as in MDX: {intro}");
    // `<TOCInline … exclude="Overview" toHeading={2} />`: the post's table of contents.
    assert!(intro.contains("<ul><li><a href=\"#ring-all-reduce\">Ring all-reduce</a></li></ul>"), "{intro}");
    assert!(intro.contains("<code>&lt;Image /&gt;</code>"), "{intro}");

    let zola = layout("zola").load();
    let hello = page(&zola, "content/blog/hello-zola.md");
    assert!(hello.contains("<p class=\"video\"><a href=\"https://www.youtube.com/watch?v=dQw4w9WgXcQ\">"), "{hello}");
    assert!(visible_text(&hello).contains("In a Zola post, {{ braces }} without a call are just text."));
    assert!(hello.contains("<html lang=\"en\""), "Hanji's own theme, not Zola's templates: {hello}");
}

#[test]
fn export_writes_the_site_and_nothing_into_the_blog() {
    for (name, expected) in [
        (
            "hugo",
            &[
                "posts/first-steps/index.html",
                "posts/photo-bundle/index.html",
                "posts/photo-bundle/sunrise.png",
                "tags/hugo/index.html",
                "tags/photos/index.html",
                "tags/rust/index.html",
                "images/diagram.png",
            ][..],
        ),
        (
            "zola",
            // Zola's addresses: the section's path and the slug.
            &["blog/hello-zola/index.html", "blog/with-assets/chart.png", "tags/zola/index.html", "favicon.png"][..],
        ),
        (
            "jekyll",
            &[
                // Jekyll's address: its `date` permalink style.
                "jekyll/update/2025/12/24/welcome-to-jekyll.html",
                "categories/update/index.html",
                "categories/index.html",
                "tags/async/index.html",
                "assets/logo.png",
            ][..],
        ),
        (
            "next-starter",
            // The starter's addresses: `/blog/` and the file's path.
            &[
                "blog/guides/nested-post/index.html",
                "tags/nccl/index.html",
                "tags/gpu/index.html",
                "static/images/ring.png",
            ][..],
        ),
    ] {
        let blog = layout(name);
        let before = contents(blog.path());
        let out = tempfile::tempdir().unwrap();
        let run = export(&blog, &out.path().join("site"), &[]);
        assert_eq!(run.code(), 0, "{name}: {}{}", run.stdout(), run.stderr());
        assert!(contents(blog.path()) == before, "{name}: the blog folder changed");
        let written = files(&out.path().join("site"));
        for file in expected {
            assert!(written.iter().any(|w| w == file), "{name}: no {file} in {written:?}");
        }
        assert!(!written.iter().any(|w| w.starts_with("posts/draft-post")), "{name}: a draft was exported");
    }
}

#[test]
fn export_without_out_writes_only_hanji_public() {
    let blog = layout("hugo");
    let before = contents(blog.path());
    let run = blog.hanji(&["export", "--quiet"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.stderr().contains("to ./hanji-public:"), "{}", run.stderr());
    let after = contents(blog.path());
    let added: Vec<&String> = after.iter().filter(|f| !before.contains(f)).map(|(name, _)| name).collect();
    assert!(added.iter().all(|f| f.starts_with("hanji-public/")), "{added:?}");
    assert!(added.contains(&&"hanji-public/tags/hugo/index.html".to_string()));
    assert_eq!(after.len() - added.len(), before.len(), "every file of the blog is still there");
    assert_eq!(read(blog.path().join("public/index.html")), "<!doctype html><title>Built by Hugo</title>\n");
    // The tag page, with its dates written for the Hugo blog's locale.
    let tag = read(blog.path().join("hanji-public/tags/hugo/index.html"));
    assert!(tag.contains("<time datetime=\"2026-03-01\">2026년 3월 1일</time>"), "{tag}");
    assert!(visible_text(&tag).contains("hugo (3)"));
    // Exported again: nothing of the export is read as the blog's (4 posts, 1 page).
    assert_eq!(blog.load().library.len(), 5);
    assert!(read(blog.path().join("hanji-public/about/index.html")).contains("class=\"post page\""));
}

#[test]
fn hanji_toml_overrides_what_was_detected() {
    let blog = layout("hugo").write("hanji.toml", "title = \"Mine\"\nposts_per_page = 2\n");
    let loaded = blog.load();
    assert_eq!(loaded.layout().kind, Kind::Hugo, "still the Hugo blog");
    assert_eq!(loaded.config.title, "Mine");
    assert_eq!(loaded.config.locale, "ko-KR", "not set in hanji.toml: from hugo.toml");
    assert_eq!(loaded.config.posts_per_page, 2);
    assert_eq!(loaded.library.len(), 5, "4 posts and about.md");

    let blog = blog.write("hanji.toml", "layout = \"hanji\"\n");
    let loaded = blog.load();
    assert_eq!(loaded.layout().kind, Kind::Hanji);
    assert_eq!(loaded.config.posts_dir, p("posts"));
    assert_eq!(loaded.library.len(), 0, "a Hanji blog keeps its posts in posts/");

    let blog = blog.write("hanji.toml", "layout = \"hugp\"\n");
    let run = blog.hanji(&["check"]);
    let (line, hint) = run.line_starting("hanji.toml:1:1:");
    assert_eq!(line, "hanji.toml:1:1: error: `hugp` is not a layout");
    assert_eq!(hint, "  hint: did you mean \"hugo\"?");
    assert!(run.stderr().starts_with("detected a Hugo blog (hugo.toml)"), "{}", run.stderr());
}

#[test]
fn a_broken_settings_file_names_its_line_and_the_posts_still_load() {
    let blog = layout("jekyll").write("_config.yml", "title: Fine\nauthor: [unclosed\n");
    let run = blog.hanji(&["check"]);
    let (line, hint) = run.line_starting("_config.yml:");
    assert!(line.starts_with("_config.yml:2:") && line.contains(": error: "), "{line}");
    assert!(hint.contains("Jekyll"), "{hint}");
    assert!(run.stderr().contains("3 posts, 1 page,"), "{}", run.stderr());
}
