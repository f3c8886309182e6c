//! One test per bug fixed, named for what went wrong, each failing before
//! its fix. Add the next one at the end.

use std::path::Path;
use std::sync::Arc;

use hanji::{Session, SessionOptions};

use crate::{BlogTest, export, files, read, visible_text};

fn session(blog: &BlogTest) -> Arc<Session> {
    Session::open(blog.path(), SessionOptions::default(), |_, _| {}).unwrap()
}

/// The UI made tag slugs of its own (`CUDA²` → `cuda²`) while the core's is
/// `cuda`, so a click on that tag showed none of its posts. The UI now takes
/// every slug from the core: each post's tag slugs are the tag list's.
#[test]
fn a_tag_with_a_superscript_lists_its_posts() {
    let blog = BlogTest::empty()
        .write("posts/a.md", "---\ntitle: A\ntags: [CUDA², 분산 학습, C++]\n---\n")
        .write("posts/b.md", "---\ntitle: B\ntags: [cuda²]\n---\n");
    let loaded = blog.load();
    let tags = loaded.library.tags(true);
    let cuda = tags.iter().find(|t| t.name == "CUDA²" || t.name == "cuda²").expect("the tag is listed");
    assert_eq!(cuda.slug, hanji::tag_slug("CUDA²"));
    let with_it: Vec<&str> = loaded
        .library
        .posts()
        .filter(|post| loaded.library.tag_slugs_of(post).any(|slug| slug == cuda.slug))
        .map(|post| post.title.as_str())
        .collect();
    assert_eq!(with_it.len(), 2, "both posts are found by the listed slug: {with_it:?}");
    for tag in &tags {
        assert!(
            loaded.library.posts().any(|p| loaded.library.tag_slugs_of(p).any(|s| s == tag.slug)),
            "{} has posts",
            tag.name
        );
    }
}

/// Renaming `_posts/2026-07-17-a.md` wrote `_posts/<slug>.md`: the date in the
/// name, which is the post's date in Jekyll, was lost.
#[test]
fn renaming_a_jekyll_post_keeps_the_date_in_its_name() {
    let blog = BlogTest::empty()
        .write("_config.yml", "title: J\n")
        .write("_posts/2026-07-17-a.md", "---\ntitle: A\n---\nBody.\n");
    let moved = session(&blog).rename_post(Path::new("_posts/2026-07-17-a.md"), "second-name").unwrap();
    assert_eq!(moved.path, Path::new("_posts/2026-07-17-second-name.md"));
    assert_eq!(read(blog.path().join(&moved.path)), "---\ntitle: A\n---\nBody.\n");
    assert!(!blog.path().join("_posts/2026-07-17-a.md").exists());
    let post = blog.load().library.post(&moved.path).cloned().expect("still a post");
    assert_eq!(post.date.map(|d| d.date.to_string()).as_deref(), Some("2026-07-17"));
    assert_eq!(post.slug, "second-name");
}

/// Renaming an `.mdx` post of a tailwind-nextjs starter blog failed with
/// "there is no post": only `.md` files were taken for posts.
#[test]
fn renaming_an_mdx_post_keeps_its_extension() {
    let blog = BlogTest::fixture("layouts/next-starter");
    let moved = session(&blog).rename_post(Path::new("data/blog/nccl-intro.mdx"), "nccl").unwrap();
    assert_eq!(moved.path, Path::new("data/blog/nccl.mdx"));
    assert!(blog.load().library.post(Path::new("data/blog/nccl.mdx")).is_some());
}

/// An image pasted into a single-file post of a Jekyll or Next starter blog
/// went to `static/images/`, which those layouts never publish.
#[test]
fn an_image_added_to_a_post_is_where_the_layout_publishes_it() {
    for (fixture, post, folder, published) in [
        ("layouts/jekyll", "_posts/2026-01-15-notes-on-rust.md", "assets/images", "assets/images/chart.png"),
        ("layouts/next-starter", "data/blog/nccl-intro.mdx", "public/static/images", "static/images/chart.png"),
    ] {
        let blog = BlogTest::fixture(fixture);
        let markdown = session(&blog).add_image(Path::new(post), "chart.png", b"\x89PNG chart").unwrap();
        assert!(blog.path().join(folder).join("chart.png").is_file(), "{fixture}: in {folder}");
        assert!(!blog.path().join("static/images/chart.png").exists(), "{fixture}: not in static/");
        assert!(markdown.starts_with("![chart](") && markdown.ends_with("/chart.png)"), "{markdown}");
        let out = tempfile::tempdir().unwrap();
        let site = out.path().join("site");
        export(&blog, &site, &[]);
        assert!(files(&site).contains(&published.to_string()), "{fixture}: {published} is published");
    }
}

/// Jekyll posts whose `tags` is a list of lists (`- - Algorithm`, as some
/// front matter tools write it) were refused, every one: the blog exported
/// empty and `hanji tags` printed nothing. Jekyll reads the one list of items.
#[test]
fn tags_written_as_a_list_of_lists_are_the_list_of_their_items() {
    let blog = BlogTest::empty()
        .write("_config.yml", "title: J\n")
        .write("_posts/2026-07-17-a.md", "---\ntitle: A\ntags:\n  - - Algorithm\n    - CS\n---\nBody.\n")
        .write("_posts/2026-07-18-b.md", "---\ntitle: B\ntags: [[CS], Rust]\n---\nBody.\n");
    let loaded = blog.load();
    let a = loaded.library.post(Path::new("_posts/2026-07-17-a.md")).expect("read as a post");
    assert!(!a.has_errors, "{:?}", loaded.diagnostics());
    assert_eq!(a.tags, ["Algorithm", "CS"]);
    let tags = blog.hanji(&["tags"]);
    assert_eq!(tags.code(), 0);
    assert_eq!(tags.lines(), ["CS (2)", "Algorithm (1)", "Rust (1)"]);
}

/// A tag that the slug rule empties (`🦀`) was dropped without a word. It is
/// kept, with its own characters as its address.
#[test]
fn a_tag_of_only_an_emoji_is_kept_with_an_address() {
    let blog = BlogTest::empty().write("posts/a.md", "---\ntitle: A\ntags: [🦀, rust]\n---\nBody.\n");
    let loaded = blog.load();
    assert_eq!(loaded.library.post(Path::new("posts/a.md")).unwrap().tags, ["🦀", "rust"]);
    let crab = loaded.library.tags(false).into_iter().find(|t| t.name == "🦀").expect("the tag is listed");
    assert_eq!((crab.slug.as_str(), crab.count), ("🦀", 1));
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    assert_eq!(export(&blog, &site, &[]).code(), 0);
    assert!(site.join("tags/🦀/index.html").is_file());
    let tags_page = read(site.join("tags/index.html"));
    assert!(tags_page.contains("tags/%F0%9F%A6%80/index.html"), "linked, percent-encoded");
}

/// Zola's and Hugo's section files (`_index.md`) were copied into the export
/// as raw Markdown; neither tool publishes them as files.
#[test]
fn a_sections_index_md_is_not_copied_into_the_site() {
    for fixture in ["layouts/zola", "layouts/hugo"] {
        let blog = BlogTest::fixture(fixture);
        assert!(files(blog.path()).iter().any(|f| f.ends_with("_index.md")), "{fixture} has sections");
        let out = tempfile::tempdir().unwrap();
        let site = out.path().join("site");
        assert_eq!(export(&blog, &site, &[]).code(), 0, "{fixture}");
        let copied: Vec<String> = files(&site).into_iter().filter(|f| f.ends_with(".md")).collect();
        assert!(copied.is_empty(), "{fixture}: Markdown copied as it is: {copied:?}");
        assert!(site.join("index.html").is_file(), "{fixture}: the site is there");
    }
}

/// Kramdown attribute lists (`{: .notice--info}`, `{:target="_blank"}`),
/// Jekyll's default Markdown, were shown as text in the posts of a Jekyll
/// blog, in the summaries too, and without a warning.
#[test]
fn kramdown_attribute_lists_become_attributes_in_a_jekyll_blog() {
    let blog = BlogTest::empty().write("_config.yml", "title: J\n").write(
        "_posts/2026-07-17-a.md",
        "---\ntitle: A\n---\n**Note:** read [this](https://x.org){:target=\"_blank\"}.\n{: .notice--info}\n\nMore.\n",
    );
    let check = blog.hanji(&["check"]);
    assert!(!check.stdout().contains("warning"), "{}", check.stdout());
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    assert_eq!(export(&blog, &site, &[]).code(), 0);
    let page = read(site.join("2026/07/17/a.html"));
    assert!(page.contains("<p class=\"notice--info\"><strong>Note:</strong>"), "{page}");
    assert!(page.contains("<a target=\"_blank\" href=\"https://x.org\">this</a>"), "{page}");
    assert!(!page.contains("{:"), "nothing raw: {page}");
    let home = read(site.join("index.html"));
    assert!(home.contains("Note: read this.") && !home.contains("{:"), "the summary is prose");
}

/// JSX attribute values in the HTML of an `.mdx` post (`width={500}`,
/// `style={{ margin: 0 }}`) were passed into the page as they are.
#[test]
fn jsx_attribute_values_in_mdx_become_html() {
    let blog = BlogTest::empty().write("data/siteMetadata.js", "const siteMetadata = { title: 'N' }\n").write(
        "data/blog/a.mdx",
        "---\ntitle: A\ndate: 2026-07-17\n---\n<img src=\"/static/a.png\" width={500} style={{ margin: 0 }} />\n",
    );
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    assert_eq!(export(&blog, &site, &[]).code(), 0);
    let page = read(site.join("blog/a/index.html"));
    assert!(page.contains("width=\"500\" style=\"margin: 0\""), "{page}");
    assert!(!page.contains("={"), "no JSX in the page");
}

/// `<img src>` in a post's raw HTML was never checked nor made to lead where
/// the site has the file, as a Markdown image is.
#[test]
fn images_in_raw_html_are_checked_and_lead_to_the_copied_file() {
    let blog = BlogTest::empty()
        .write(
            "posts/b/index.md",
            "---\ntitle: B\n---\n<p><img src=\"diagram.png\" alt=\"D\"></p>\n\n<img src=\"nope.png\">\n",
        )
        .write("posts/b/diagram.png", b"\x89PNG");
    let check = blog.hanji(&["check"]);
    let (line, _) = check.line_starting("posts/b/index.md:6");
    assert!(line.contains("image `nope.png` leads nowhere"), "{line}");
    assert!(!check.stdout().contains("diagram.png"), "the file is there: {}", check.stdout());
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    export(&blog, &site, &[]);
    let page = read(site.join("posts/b/index.html"));
    assert!(page.contains("<img src=\"../../posts/b/diagram.png\" alt=\"D\">"), "{page}");
    assert!(site.join("posts/b/diagram.png").is_file());
}

/// A Zola theme's `katex` shortcode was shown raw, with a warning, though it
/// holds TeX that Hanji renders.
#[test]
fn a_zola_katex_shortcode_is_math() {
    let blog = BlogTest::empty().write("config.toml", "base_url = \"https://z.example\"\ntitle = \"Z\"\n").write(
        "content/a.md",
        "+++\ntitle = \"A\"\ndate = 2026-07-17\n+++\n{% katex(block=true) %}\\sum_i x_i{% end %}\n",
    );
    let check = blog.hanji(&["check"]);
    assert!(!check.stdout().contains("warning"), "{}", check.stdout());
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    export(&blog, &site, &[]);
    let page = read(site.join("a/index.html"));
    assert!(page.contains("<math") && !page.contains("katex"), "{page}");
}

/// TeX that KaTeX renders, `{1 \over N}`, was refused as if it were wrong:
/// plain TeX's infix fractions were not known.
#[test]
fn plain_tex_infix_fractions_render() {
    let blog = BlogTest::empty()
        .write("posts/a.md", "---\ntitle: A\ndate: 2026-07-17\n---\n$$ {1 \\over N} \\sum_i {n \\choose i} $$\n");
    let check = blog.hanji(&["check"]);
    assert!(!check.stdout().contains("math"), "{}", check.stdout());
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    export(&blog, &site, &[]);
    let page = read(site.join("posts/a/index.html"));
    assert!(page.contains("<mfrac>") && !page.contains("math-error"), "{page}");
}

/// `hanji check` did not look at links written as site paths
/// (`[x](/tags/nope/)`) at all.
#[test]
fn links_written_as_site_paths_are_checked() {
    let blog = BlogTest::empty()
        .write("hanji.toml", "base_url = \"https://me.github.io/blog/\"\n")
        .write("static/images/logo.png", b"\x89PNG")
        .write("posts/b.md", "---\ntitle: B\ndate: 2026-07-16\ntags: [nccl]\n---\nB.\n")
        .write(
            "posts/a.md",
            "---\ntitle: A\ndate: 2026-07-17\ntags: [nccl]\n---\n[t](/tags/nccl/) [b](/posts/b/#part) [base](/blog/posts/b/) \
             [logo](/images/logo.png) [feed](/feed.xml)\n\n[gone](/tags/nope/) and [old](/2018/08/15/a-post)\n",
        );
    let check = blog.hanji(&["check"]);
    let warnings: Vec<String> = check.lines().into_iter().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 2, "{}", check.stdout());
    assert!(warnings[0].contains("link `/tags/nope/` leads to no page of the site"), "{warnings:?}");
    assert!(warnings[1].contains("`/2018/08/15/a-post`"), "{warnings:?}");
}

/// A Hugo blog with `content/posts/` and `content/til/` publishes both;
/// Hanji read only `posts/` and said nothing of the other. Now every section
/// is read, and a `posts_dir` that leaves one out still names it.
#[test]
fn a_hugo_section_that_is_not_read_is_named() {
    let blog = BlogTest::fixture("layouts/hugo")
        .write("content/til/one.md", "---\ntitle: One\ndate: 2026-07-17\n---\nA thing I learned.\n")
        .write("content/til/two.md", "---\ntitle: Two\ndate: 2026-07-18\n---\nAnother.\n")
        .write("content/til/_index.md", "---\ntitle: TIL\n---\n");
    let loaded = blog.load();
    assert!(loaded.library.post(Path::new("content/til/one.md")).is_some_and(|post| !post.page));
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&blog, out.path(), &[]).code(), 0);
    assert!(out.path().join("til/one/index.html").is_file(), "the section's posts are published");
    assert!(!loaded.diagnostics().iter().any(|d| d.message.contains("section")), "{:?}", loaded.diagnostics());
    // A posts_dir that reads one section only names the others.
    let one = blog.write("hanji.toml", "posts_dir = \"content/posts\"\n");
    let check = one.hanji(&["check"]);
    let (line, hint) = check.line_starting("content/til");
    assert!(line.contains("Hugo publishes the 2 posts of the section `content/til/`"), "{line}");
    assert!(hint.contains("posts_dir = \"content\""), "{hint}");
}

/// Summaries and meta descriptions were made from unprocessed text: a
/// literal `{{< /highlight >}}` stood in a Hugo post's description.
#[test]
fn a_summary_holds_no_shortcode() {
    let blog = BlogTest::fixture("layouts/hugo").write(
        "content/posts/loops.md",
        "---\ntitle: Loops\ndate: 2026-03-02\n---\nGo's loops, briefly.\n{{< highlight go >}}\nfor {}\n{{< /highlight >}}\n",
    );
    let post = blog.load().library.post(Path::new("content/posts/loops.md")).cloned().unwrap();
    assert_eq!(post.summary.as_deref(), Some("Go's loops, briefly."));
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    export(&blog, &site, &[]);
    let page = read(site.join("posts/loops/index.html"));
    assert!(
        page.contains("<meta name=\"description\" content=\"Go&#39;s loops, briefly.\">")
            || page.contains("<meta name=\"description\" content=\"Go's loops, briefly.\">"),
        "{page}"
    );
    assert!(!read(site.join("index.html")).contains("{{&lt;"), "no shortcode in the list");
}

/// Every post was written at `posts/<slug>/`, whatever tool made the blog:
/// Hugo's and Zola's addresses keep the post's folders under `content/`, the
/// Next.js starter's are `/blog/<path>`, and links between posts follow.
#[test]
fn posts_keep_the_addresses_their_tool_gives_them() {
    for (fixture, extra, addresses) in [
        (
            "layouts/hugo",
            ("content/posts/2024/deep.md", "[first](../first-steps.md)"),
            ["posts/2024/deep/", "posts/first-steps/"],
        ),
        (
            "layouts/zola",
            ("content/blog/2024/deep.md", "[hello](../hello-zola.md)"),
            ["blog/2024/deep/", "blog/hello-zola/"],
        ),
        (
            "layouts/next-starter",
            ("data/blog/guides/deep.mdx", "[intro](../nccl-intro.mdx)"),
            ["blog/guides/deep/", "blog/nccl-intro/"],
        ),
    ] {
        let (file, link) = extra;
        let front = if fixture.ends_with("zola") {
            "+++\ntitle = \"Deep\"\ndate = 2024-01-01\n+++\n"
        } else {
            "---\ntitle: Deep\ndate: 2024-01-01\n---\n"
        };
        let blog = BlogTest::fixture(fixture).write(file, format!("{front}See {link}.\n"));
        let out = tempfile::tempdir().unwrap();
        let site = out.path().join("site");
        assert_eq!(export(&blog, &site, &[]).code(), 0, "{fixture}");
        let [deep, other] = addresses;
        let page = read(site.join(deep).join("index.html"));
        let link = format!("href=\"{}{other}index.html\"", "../".repeat(deep.matches('/').count()));
        assert!(page.contains(&link), "{fixture}: {link} in {page}");
        assert!(site.join(other).join("index.html").is_file(), "{fixture}: {other}");
    }
}

/// A Jekyll blog's posts were all written at `posts/<slug>/`, not where
/// Jekyll puts them (its `permalink` style, or a post's own), so every
/// inbound link broke; a Hanji blog could not choose its addresses.
#[test]
fn permalinks_keep_jekyll_addresses_and_hanji_may_set_its_own() {
    let post = |categories: &str, extra: &str| {
        format!("---\ntitle: T\n{categories}{extra}---\nSee [the other](2026-07-18-b.md).\n")
    };
    for (config, a_address, b_address) in [
        ("title: J\n", "rust/2026/07/17/a.html", "2026/07/18/b.html"),
        ("title: J\npermalink: pretty\n", "rust/2026/07/17/a/", "2026/07/18/b/"),
        ("title: J\npermalink: /:year/:title/\n", "2026/a/", "2026/b/"),
    ] {
        let blog = BlogTest::empty()
            .write("_config.yml", config)
            .write("_posts/2026-07-17-a.md", post("categories: [Rust]\n", ""))
            .write("_posts/2026-07-18-b.md", post("", ""))
            .write("_posts/2026-07-19-c.md", post("", "permalink: /its/own/\n"));
        let out = tempfile::tempdir().unwrap();
        let site = out.path().join("site");
        assert_eq!(export(&blog, &site, &[]).code(), 0, "{config}");
        let file = |address: &str| if address.ends_with('/') { format!("{address}index.html") } else { address.into() };
        let a = read(site.join(file(a_address)));
        let link = format!("href=\"{}{}\"", "../".repeat(a_address.matches('/').count()), file(b_address));
        assert!(a.contains(&link), "{config}: {link} in the page of a");
        assert!(site.join(file(b_address)).is_file(), "{config}: {b_address}");
        assert!(site.join("its/own/index.html").is_file(), "{config}: a post's own permalink");
        // The app's preview shows the post at the same address.
        let preview = session(&blog).preview(Path::new("_posts/2026-07-17-a.md"), post("categories: [Rust]\n", ""));
        assert_eq!(preview.site_path, file(a_address), "{config}");
    }
    let hanji = BlogTest::empty()
        .write("hanji.toml", "permalink = \"/:year/:month/:slug/\"\n")
        .write("posts/a.md", "---\ntitle: A\ndate: 2026-07-17\n---\nA.\n");
    let out = tempfile::tempdir().unwrap();
    export(&hanji, &out.path().join("site"), &[]);
    assert!(out.path().join("site/2026/07/a/index.html").is_file());
}

/// Two posts at one address (a permalink without `:slug`) were both written
/// to the same file, the last one over the other, in no fixed order.
#[test]
fn posts_at_one_address_are_named_and_neither_is_written_over_the_other() {
    let blog = BlogTest::empty()
        .write("hanji.toml", "permalink = \"/:year/\"\n")
        .write("posts/a.md", "---\ntitle: A\ndate: 2026-07-17\n---\nA.\n")
        .write("posts/b.md", "---\ntitle: B\ndate: 2026-07-18\n---\nB.\n")
        .write("posts/c.md", "---\ntitle: C\ndate: 2025-01-01\n---\nC.\n");
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    let run = export(&blog, &site, &[]);
    assert_eq!(run.code(), 1, "an error: {}", run.stdout());
    for post in ["posts/a.md", "posts/b.md"] {
        assert!(
            run.stdout().contains(&format!("{post}:1:1: error: `2026/index.html` is the address")),
            "{}",
            run.stdout()
        );
    }
    assert!(!site.join("2026/index.html").exists(), "neither is written");
    assert!(read(site.join("2025/index.html")).contains("C."), "the post with an address of its own is");
}

/// A Hugo post's own `url` and the section's `[permalinks]` were not read:
/// the posts were written elsewhere than Hugo publishes them.
#[test]
fn hugo_urls_and_permalinks_are_kept() {
    let settings = read(BlogTest::fixture("layouts/hugo").path().join("hugo.toml"));
    let blog = BlogTest::fixture("layouts/hugo")
        .write("hugo.toml", format!("{settings}\n[permalinks]\nposts = \"/:year/:month/:slug/\"\n"))
        .write("content/posts/u.md", "---\ntitle: Elsewhere\ndate: 2026-03-03\nurl: /elsewhere/u\n---\nAway.\n");
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    assert_eq!(export(&blog, &site, &[]).code(), 0);
    assert!(site.join("elsewhere/u/index.html").is_file(), "the post's own url");
    // `:slug` is the title made a slug, as Hugo has it, where no `slug` is set.
    assert!(site.join("2026/03/first-steps-with-hugo/index.html").is_file(), "{:?}", files(&site));
}

/// A Zola page's own `path` was not read: the page was written elsewhere
/// than Zola publishes it.
#[test]
fn a_zola_pages_own_path_is_kept() {
    let blog = BlogTest::fixture("layouts/zola").write(
        "content/blog/moved.md",
        "+++\ntitle = \"Moved\"\ndate = 2026-03-01\npath = \"notes/moved-here\"\n+++\nHere.\n",
    );
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    assert_eq!(export(&blog, &site, &[]).code(), 0);
    assert!(read(site.join("notes/moved-here/index.html")).contains("Here."));
    assert!(!site.join("blog/moved/index.html").exists());
}

/// An About page was dropped (Hanji blogs had no place for it) or listed as
/// an undated post (`content/about.md` in Hugo, Jekyll's `about.md`).
#[test]
fn a_page_is_exported_as_a_page_not_listed_as_a_post() {
    let blog = BlogTest::sample()
        .write("pages/about.md", "---\ntitle: 소개\ntags: [rust]\n---\n저는 글을 씁니다.\n")
        .write("pages/docs/setup.md", "---\ntitle: Setup\n---\nSteps.\n");
    let loaded = blog.load();
    let about = loaded.library.post(Path::new("pages/about.md")).expect("pages/ is read");
    assert!(about.page);
    assert!(loaded.library.diagnostics_of(Path::new("pages/about.md")).is_empty(), "a page needs no date");
    let rust_before = BlogTest::sample().load().library.tag("rust").map(|t| t.count);
    assert_eq!(loaded.library.tag("rust").map(|t| t.count), rust_before, "a page is in no tag");

    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    assert_eq!(export(&blog, &site, &[]).code(), 0);
    let page = read(site.join("about/index.html"));
    assert!(page.contains("저는 글을 씁니다.") && page.contains("class=\"post page\""), "{page}");
    assert!(!page.contains("post-nav"), "no newer and older posts on a page");
    assert!(site.join("docs/setup/index.html").is_file(), "a page's folders are in its address");
    let home = read(site.join("index.html"));
    assert!(home.contains("href=\"about/index.html\">소개</a>"), "the navigation links the page");
    assert!(!visible_text(&home).contains("저는 글을 씁니다."), "the page is not in the list of posts");
    assert!(!read(site.join("feed.xml")).contains("소개"), "nor in the feed");
    assert!(read(site.join("sitemap.xml")).contains("about/"), "but in the sitemap");
}

/// Jekyll's pages: a top-level page at its own permalink or at its path as
/// Jekyll makes it, `_pages/`; the front page and files without front matter
/// are not pages; a page where the theme has its own page is named.
#[test]
fn jekyll_pages_keep_jekylls_addresses() {
    let blog = BlogTest::fixture("layouts/jekyll")
        .write("contact.md", "---\ntitle: Contact\n---\nMail me.\n")
        .write("README.md", "How to build this blog.\n")
        .write("_pages/now.md", "---\ntitle: Now\npermalink: /now/\n---\nNow.\n")
        .write("_pages/tag-archive.md", "---\ntitle: Tags\npermalink: /tags/\n---\n");
    let loaded = blog.load();
    let addresses = hanji::Addresses::new(&loaded.config, &loaded.library);
    let mut pages: Vec<String> = loaded.library.posts().filter(|p| p.page).map(|p| addresses.post(p)).collect();
    pages.sort();
    assert_eq!(pages, ["about/", "contact.html", "now/", "tags/"]);
    let out = tempfile::tempdir().unwrap();
    let run = export(&blog, out.path(), &[]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(out.path().join("contact.html").is_file() && out.path().join("now/index.html").is_file());
    assert!(!read(out.path().join("tags/index.html")).contains("class=\"post page\""), "the theme's tags page");
    let check = blog.hanji(&["check"]);
    let (line, _) = check.line_starting("_pages/tag-archive.md");
    assert!(line.contains("warning"), "{line}");
}

/// A Zola page that names its own template is a page, not a post.
#[test]
fn a_zola_page_with_its_own_template_is_a_page() {
    let blog = BlogTest::fixture("layouts/zola")
        .write("content/blog/search.md", "+++\ntitle = \"Search\"\ntemplate = \"search.html\"\n+++\n")
        .write("content/about.md", "+++\ntitle = \"About\"\n+++\nMe.\n");
    let loaded = blog.load();
    for path in ["content/blog/search.md", "content/about.md"] {
        assert!(loaded.library.post(Path::new(path)).is_some_and(|p| p.page), "{path}");
    }
    assert!(!loaded.diagnostics().iter().any(|d| d.message.contains("no date")), "{:?}", loaded.diagnostics());
}

/// Zola's tags `I/O` and `io` have two addresses in Zola (`i-o`, `io`);
/// Hanji merged them into one with its own slug rule.
#[test]
fn zola_tags_keep_zolas_addresses() {
    let blog = BlogTest::fixture("layouts/zola")
        .write(
            "content/blog/disk.md",
            "+++\ntitle = \"Disk\"\ndate = 2026-04-01\n[taxonomies]\ntags = [\"I/O\", \"분산 학습\"]\n+++\nA.\n",
        )
        .write(
            "content/blog/net.md",
            "+++\ntitle = \"Net\"\ndate = 2026-04-02\n[taxonomies]\ntags = [\"io\"]\n+++\nB.\n",
        );
    let loaded = blog.load();
    assert_eq!(loaded.library.tag("i-o").map(|t| t.count), Some(1));
    assert_eq!(loaded.library.tag("io").map(|t| t.count), Some(1));
    assert!(loaded.library.tag("bunsan-hagseub").is_some(), "Zola writes tag addresses in ASCII");
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&blog, out.path(), &[]).code(), 0);
    assert!(out.path().join("tags/i-o/index.html").is_file() && out.path().join("tags/io/index.html").is_file());
    // `[slugify] taxonomies = "safe"` keeps the names as they are.
    let settings = read(blog.path().join("config.toml"));
    let safe = blog.write("config.toml", format!("{settings}\n[slugify]\ntaxonomies = \"safe\"\n"));
    assert!(safe.load().library.tag("분산 학습").is_some());
}

/// Posts still to come were published at once, and Jekyll's `published:
/// false` too; each tool holds them back by default (Zola does not).
#[test]
fn future_and_unpublished_posts_are_held_as_the_tool_does() {
    let later = "---\ntitle: Later\ndate: 2099-01-01\n---\nSoon.\n";
    let hugo = BlogTest::fixture("layouts/hugo").write("content/posts/later.md", later);
    let post = hugo.load().library.post(Path::new("content/posts/later.md")).cloned().unwrap();
    assert_eq!(post.held, Some(hanji::Held::Scheduled));
    let check = hugo.hanji(&["check"]);
    assert!(check.stderr().contains("content/posts/later.md: scheduled for 2099-01-01 00:00 "), "{}", check.stderr());
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&hugo, out.path(), &[]).code(), 0);
    assert!(!out.path().join("posts/later/index.html").exists());
    // Hugo's buildFuture publishes it.
    let settings = read(hugo.path().join("hugo.toml"));
    let built = hugo.write("hugo.toml", format!("buildFuture = true\n{settings}"));
    assert_eq!(built.load().library.post(Path::new("content/posts/later.md")).unwrap().held, None);

    let zola = BlogTest::fixture("layouts/zola")
        .write("content/blog/later.md", "+++\ntitle = \"Later\"\ndate = 2099-01-01\n+++\nSoon.\n");
    assert_eq!(zola.load().library.post(Path::new("content/blog/later.md")).unwrap().held, None, "Zola publishes it");

    let jekyll = BlogTest::fixture("layouts/jekyll")
        .write("_posts/2026-01-01-hidden.md", "---\ntitle: Hidden\npublished: false\n---\nNo.\n");
    let loaded = jekyll.load();
    let hidden = loaded.library.post(Path::new("_posts/2026-01-01-hidden.md")).unwrap();
    assert_eq!(hidden.held, Some(hanji::Held::Unpublished));
    assert!(!loaded.library.published().any(|p| p.title == "Hidden"));
}

/// Posts that link to each other by their live addresses, under the site's
/// base path and without `.html` (`[x](/journal/2026/01/16/notes-on-rust)`),
/// were kept as written: broken from `file://` and under another root.
#[test]
fn a_link_by_the_live_address_leads_to_the_page() {
    let blog = BlogTest::fixture("layouts/jekyll").write(
        "_posts/2026-03-01-links.md",
        "---\ntitle: Links\n---\n[rust](/journal/2026/01/16/notes-on-rust) and [about](/about/) and [gone](/journal/nowhere/)\n",
    );
    let check = blog.hanji(&["check"]);
    let broken: Vec<String> =
        check.lines().into_iter().filter(|l| l.starts_with("_posts/2026-03-01-links.md")).collect();
    assert_eq!(broken.len(), 1, "only the link to nowhere: {broken:?}");
    assert!(broken[0].contains("/journal/nowhere/"), "{broken:?}");
    let out = tempfile::tempdir().unwrap();
    export(&blog, out.path(), &[]);
    let page = read(out.path().join("2026/03/01/links.html"));
    assert!(
        page.contains("href=\"../../../2026/01/16/notes-on-rust.html\""),
        "the base path is not in the site's folders: {page}"
    );
    assert!(page.contains("href=\"../../../about/index.html\""), "{page}");
}

/// TeX that KaTeX renders was refused (`\R`, `\argmax`, `\boxed`, lines
/// broken with `\\`), some was shown as written with no warning
/// (`\text{caf\'e}`), and a refusal did not name the command at fault.
#[test]
fn tex_that_katex_renders_renders_and_a_refusal_names_its_command() {
    let body = "$$ x \\in \\R^n, \\quad \\argmax_x f(x) = \\boxed{1} $$\n\n\
                $$ a = b \\\\ c = d $$\n\nInline $\\text{caf\\'e}$ and $\\bra{\\psi}$.\n\n\
                Not KaTeX: $\\phase{30}$.\n";
    let blog = BlogTest::empty().write("posts/a.md", format!("---\ntitle: A\ndate: 2026-07-17\n---\n{body}"));
    let check = blog.hanji(&["check"]);
    let warnings: Vec<String> = check.lines().into_iter().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "{}", check.stdout());
    assert!(warnings[0].starts_with("posts/a.md:11:12:"), "{warnings:?}");
    assert!(warnings[0].contains("unknown TeX command `\\phase`"), "{warnings:?}");
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    export(&blog, &site, &[]);
    let page = read(site.join("posts/a/index.html"));
    assert_eq!(page.matches("math-error").count(), 1, "{page}");
    assert!(page.contains("ℝ") && page.contains("arg max") && page.contains("cafe\u{301}"), "{page}");
    let body = &page[page.find("</head>").unwrap()..];
    assert!(!body.contains("\\R") && !body.contains("\\text"), "no TeX left in the MathML: {body}");
}

/// Two posts of one slug were both left out as a clash, though their tool
/// puts them at two addresses: Hugo's `posts/a.md` and `til/a.md`, Jekyll's
/// `2020-01-01-notes.md` and `2021-01-01-notes.md`.
#[test]
fn posts_of_one_slug_at_two_addresses_are_both_published() {
    let post = "---\ntitle: Notes\ndate: 2026-01-01\n---\nText.\n";
    let hugo =
        BlogTest::fixture("layouts/hugo").write("content/posts/notes.md", post).write("content/til/notes.md", post);
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&hugo, out.path(), &[]).code(), 0);
    assert!(out.path().join("posts/notes/index.html").is_file() && out.path().join("til/notes/index.html").is_file());
    assert!(hugo.load().diagnostics().iter().all(|d| !d.message.contains("slug")));

    let jekyll = BlogTest::fixture("layouts/jekyll")
        .write("_posts/2020-01-01-notes.md", "---\ntitle: Old\n---\nA.\n")
        .write("_posts/2021-01-01-notes.md", "---\ntitle: New\n---\nB.\n");
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&jekyll, out.path(), &[]).code(), 0);
    assert!(out.path().join("2020/01/01/notes.html").is_file() && out.path().join("2021/01/01/notes.html").is_file());

    // In a Hanji blog one slug is one address: both are named and left out.
    let hanji = BlogTest::sample().write("posts/a.md", post).write("posts/b/a.md", post);
    let clashes: Vec<_> = hanji.load().diagnostics().into_iter().filter(|d| d.message.contains("slug `a`")).collect();
    assert_eq!(clashes.len(), 2, "{clashes:?}");
}

/// Feed readers subscribed to a Hugo blog's `/index.xml` (or a tag's
/// `/tags/x/index.xml`) or a Zola blog's `/atom.xml` lost it: Hanji wrote
/// `feed.xml` everywhere.
#[test]
fn feeds_keep_the_tools_addresses() {
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&BlogTest::fixture("layouts/hugo"), out.path(), &[]).code(), 0);
    assert!(out.path().join("index.xml").is_file() && out.path().join("tags/hugo/index.xml").is_file());
    let home = read(out.path().join("index.html"));
    assert!(home.contains("href=\"index.xml\""), "the page links the feed where it is");
    let zola = BlogTest::fixture("layouts/zola");
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&zola, out.path(), &[]).code(), 0);
    assert!(out.path().join("atom.xml").is_file());
    let settings = read(zola.path().join("config.toml"));
    let named = zola.write("config.toml", format!("feed_filenames = [\"rss.xml\"]\n{settings}"));
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&named, out.path(), &[]).code(), 0);
    assert!(out.path().join("rss.xml").is_file() && !out.path().join("atom.xml").exists());
}

/// A blog's own simple shortcode (`layouts/shortcodes/imageFull.html`, a
/// `<figure><img>`) was shown as written in a dashed box, as if Hanji could
/// not know what it makes.
#[test]
fn a_blogs_own_simple_shortcode_is_rendered() {
    let blog = BlogTest::fixture("layouts/hugo")
        .write(
            "layouts/shortcodes/imageFull.html",
            "<figure class=\"full\"><img src=\"{{ .Get \"src\" }}\" alt=\"{{ .Get \"alt\" }}\"></figure>\n",
        )
        .write("static/images/wide.png", b"\x89PNG")
        .write(
            "content/posts/wide.md",
            "---\ntitle: Wide\ndate: 2026-03-05\n---\n{{< imageFull src=\"/images/wide.png\" alt=\"넓은 그림\" >}}\n",
        );
    let check = blog.hanji(&["check"]);
    assert!(!check.stdout().contains("content/posts/wide.md"), "{}", check.stdout());
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    export(&blog, &site, &[]);
    let page = read(site.join("posts/wide/index.html"));
    assert!(
        page.contains("<figure class=\"full\"><img src=\"../../images/wide.png\" alt=\"넓은 그림\"></figure>"),
        "{page}"
    );
    assert!(!page.contains("unrendered"), "{page}");
}

/// Old addresses were lost: Hugo's and Zola's `aliases` and Jekyll's
/// `redirect_from` publish a page that sends readers on; an old address that
/// another page now has gives way to it, with a warning.
#[test]
fn an_old_address_sends_the_reader_on() {
    let blog = BlogTest::fixture("layouts/jekyll")
        .write("_posts/2026-03-01-moved.md", "---\ntitle: Moved\nredirect_from: [/old-place/, /about/]\n---\nHere.\n");
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&blog, out.path(), &[]).code(), 0);
    let old = read(out.path().join("old-place/index.html"));
    assert!(old.contains("url=../2026/03/01/moved.html"), "{old}");
    assert!(read(out.path().join("about/index.html")).contains("A page, not a post."), "the page keeps its address");
    let check = blog.hanji(&["check"]);
    let (line, _) = check.line_starting("_posts/2026-03-01-moved.md");
    assert!(line.contains("old address `about/index.html`"), "{line}");
}

/// An export of an unchanged blog wrote nothing, even when a scheduled
/// post's moment had come since the last one: the post stayed unpublished
/// until some other file changed. Which posts are held is part of what an
/// export is made from now.
#[test]
fn an_unchanged_blog_exported_after_a_posts_moment_publishes_it() {
    let blog = BlogTest::empty()
        .write("posts/now.md", "---\ntitle: Now\ndate: 2026-12-01\n---\nNow.\n")
        .write("posts/soon.md", "---\ntitle: Soon\ndate: 2026-12-24\n---\nSoon.\n");
    let out = tempfile::tempdir().unwrap();
    let at = |now: &str| {
        let args = ["export", "--quiet", "--out", out.path().to_str().unwrap()];
        blog.hanji_with(&[("HANJI_NOW", now)], &args)
    };
    at("2026-12-02T00:00:00Z");
    assert!(!out.path().join("posts/soon/index.html").exists());
    let later = at("2026-12-25T00:00:00Z");
    assert!(out.path().join("posts/soon/index.html").is_file(), "{}", later.stderr());
}

/// The Open Graph address of a front matter image with a Korean name was
/// percent-encoded twice (`%25EC…`), so link previews found no image.
#[test]
fn an_open_graph_image_with_a_korean_name_is_encoded_once() {
    let blog = BlogTest::empty()
        .write("hanji.toml", "base_url = \"https://me.github.io/blog/\"\n")
        .write("posts/a/index.md", "---\ntitle: A\nimages: [차트.png]\n---\nBody.\n")
        .write("posts/a/차트.png", "not really a png");
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&blog, out.path(), &[]).code(), 0);
    let page = read(out.path().join("posts/a/index.html"));
    assert!(page.contains("content=\"https://me.github.io/blog/posts/a/%EC%B0%A8%ED%8A%B8.png\""), "{page}");
}

/// A publish to a folder killed while it wrote a page left that page's
/// temp file on the target, and the next publish, which finished the site,
/// left it there too (CI saw `page/54/.hanji-4QJLto`). An export killed so
/// left one in its folder, which a copy of that folder then published. A
/// publish to a folder, and an export after one that did not end, now
/// remove the temp files Hanji left; a hidden file of the author's stays.
#[test]
fn a_killed_publish_or_export_leaves_no_temp_file_behind() {
    let target = tempfile::tempdir().unwrap();
    let blog = BlogTest::empty()
        .write("posts/a.md", "---\ntitle: A\ndate: 2026-11-01\n---\nA.\n")
        .write("hanji.toml", format!("[publish.site]\nkind = \"folder\"\npath = {:?}\n", target.path()));
    // What a write killed before its rename leaves: see `fs::temp_file_for`.
    let left_by_a_kill = ".index.html.k1LL3d.hanji-tmp";
    let authors = ".index.html.swp";
    let publish = blog.hanji(&["publish", "--quiet"]);
    assert_eq!(publish.code(), 0, "{}", publish.stderr());
    for file in [left_by_a_kill, authors] {
        std::fs::write(target.path().join("posts/a").join(file), "half a page").unwrap();
    }
    std::fs::write(blog.path().join("posts/a.md"), "---\ntitle: A\ndate: 2026-11-01\n---\nA, again.\n").unwrap();
    let publish = blog.hanji(&["publish", "--quiet"]);
    assert_eq!(publish.code(), 0, "{}", publish.stderr());
    assert!(!target.path().join("posts/a").join(left_by_a_kill).exists(), "the temp file is removed");
    assert!(target.path().join("posts/a").join(authors).exists(), "the author's file stays");

    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&blog, out.path(), &[]).code(), 0);
    std::fs::write(out.path().join("posts/a").join(left_by_a_kill), "half a page").unwrap();
    // The killed export forgot the last one's record when it began.
    let new_cache = tempfile::tempdir().unwrap();
    let cache = new_cache.path().to_str().unwrap();
    let again =
        blog.hanji_with(&[("HANJI_CACHE_DIR", cache)], &["export", "--quiet", "--out", out.path().to_str().unwrap()]);
    assert_eq!(again.code(), 0, "{}", again.stderr());
    assert!(!out.path().join("posts/a").join(left_by_a_kill).exists(), "the export's temp file is removed");
}

/// What an export keeps is trusted only by the Hanji that kept it, known by
/// its binary's stamp, change time included: a hard link to the binary
/// (`perf record` makes one to profile it) or a chmod made the next export
/// render every page again. The binary's change time no longer counts.
#[test]
fn a_hard_link_to_hanji_does_not_make_the_next_export_a_full_one() {
    let blog = BlogTest::empty()
        .write("posts/a.md", "---\ntitle: A\ndate: 2026-11-01\ntags: [nccl]\n---\nA.\n")
        .write("posts/b.md", "---\ntitle: B\ndate: 2026-11-02\ntags: [nccl]\n---\nB.\n");
    let out = tempfile::tempdir().unwrap();
    let out_arg = out.path().to_str().unwrap();
    let first = blog.hanji(&["export", "--out", out_arg]);
    assert_eq!(first.code(), 0, "{}", first.stderr());
    // The binary's change time moves, as a hard link moves it.
    let binary = Path::new(env!("CARGO_BIN_EXE_hanji"));
    let beside = tempfile::tempdir_in(binary.parent().unwrap()).unwrap();
    std::fs::hard_link(binary, beside.path().join("hanji")).unwrap();
    // Past the clock's grain, as an author's next export would be.
    std::thread::sleep(std::time::Duration::from_millis(2100));
    let again = blog.hanji(&["export", "--out", out_arg]);
    assert_eq!(again.code(), 0, "{}", again.stderr());
    assert!(again.stderr().contains("; 0 pages rendered"), "the blog did not change: {}", again.stderr());
}

/// A post whose `slug` was `..` had its page at `posts/../`, the site's own
/// front page, which it replaced (issue 30). Its address now fails the site
/// path's door: the post is named with its line, and the home page stays.
#[test]
fn a_slug_of_two_dots_no_longer_replaces_the_home_page() {
    let blog = BlogTest::empty()
        .write("posts/a.md", "---\ntitle: Plain\ndate: 2026-11-01\n---\nPlain.\n")
        .write("posts/b.md", "---\ntitle: Dots\ndate: 2026-11-02\nslug: \"..\"\n---\nDOTS-TEXT\n");
    let out = tempfile::tempdir().unwrap();
    let run = export(&blog, &out.path().join("site"), &[]);
    assert_eq!(run.code(), 1, "an error: {}", run.stderr());
    let (line, _) = run.line_starting("posts/b.md:4:1: error: the address `posts/../`");
    assert!(line.contains("cannot be a page of the site"), "{line}");
    // The front page is the front page (which lists the post, as it lists
    // any post whose page is left out by its address), not the post's.
    let home = read(out.path().join("site/index.html"));
    assert!(home.contains("posts/a/index.html") && !home.contains("<article class=\"post\""), "{home}");
    assert!(read(out.path().join("site/posts/a/index.html")).contains("Plain"));
}

/// A tag named `../..` (no letters, so its own characters are its slug) had
/// its page written two folders above the site (issue 30).
#[test]
fn a_tag_without_letters_no_longer_writes_above_the_site() {
    let blog =
        BlogTest::empty().write("posts/a.md", "---\ntitle: A\ndate: 2026-11-01\ntags: [\"../..\", fine]\n---\nA.\n");
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("deep/site");
    let run = export(&blog, &site, &[]);
    assert_eq!(run.code(), 1, "{}", run.stderr());
    assert!(run.stdout().contains("posts/a.md:4:1: error: the address `tags/../../`"), "{}", run.stdout());
    assert_eq!(files(out.path()).into_iter().filter(|f| !f.starts_with("deep/site/")).count(), 0);
    assert!(site.join("posts/a/index.html").exists() && site.join("tags/fine/index.html").exists());
}

/// An output folder shipped in a cloned blog, with a `.hanji-export` naming
/// files, had those files removed by the next export (issue 30): only what
/// this machine's Hanji wrote is removed now.
#[test]
fn a_shipped_export_record_no_longer_removes_files() {
    let blog = BlogTest::empty()
        .write("hanji.toml", "title = \"T\"\n")
        .write("posts/a.md", "---\ntitle: A\n---\nA.\n")
        .write("public/notes.txt", "the owner's notes\n")
        .write("public/.hanji-export", "{\"files\":[\"notes.txt\"]}");
    let run = blog.hanji(&["export", "--quiet"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert_eq!(read(blog.path().join("public/notes.txt")), "the owner's notes\n");
    // What this Hanji wrote, and no longer writes, is removed.
    std::fs::remove_file(blog.path().join("posts/a.md")).unwrap();
    blog.hanji(&["export", "--quiet"]);
    assert!(!blog.path().join("public/posts/a/index.html").exists());
    assert!(blog.path().join("public/notes.txt").exists());
}

/// A folder of the output that was a symlink out of it had the export's
/// pages written where it led (issue 30).
#[test]
fn a_link_in_the_output_folder_is_no_longer_written_through() {
    let elsewhere = tempfile::tempdir().unwrap();
    let blog = BlogTest::empty().write("hanji.toml", "title = \"T\"\n").write("posts/a.md", "---\ntitle: A\n---\nA.\n");
    // The blog ships its output folder, marked as Hanji's.
    std::fs::create_dir_all(blog.path().join("public")).unwrap();
    std::fs::write(blog.path().join("public/.hanji-export"), "{}").unwrap();
    std::os::unix::fs::symlink(elsewhere.path(), blog.path().join("public/posts")).unwrap();
    let run = blog.hanji(&["export", "--quiet"]);
    assert_ne!(run.code(), 0);
    assert!(run.stderr().contains("is a symlink"), "{}", run.stderr());
    assert!(files(elsewhere.path()).is_empty(), "nothing written where the link leads");
}

/// `hanji publish --trust-host --dry-run` wrote the known hosts file (all of
/// it again, dropping what libssh2 could not read): a dry run writes
/// nothing, and trusting never rewrites a file the settings name (issue 30).
#[test]
fn a_dry_run_no_longer_trusts_a_host() {
    let known = tempfile::tempdir().unwrap();
    let file = known.path().join("known_hosts");
    std::fs::write(&file, "# keep me\n@cert-authority *.corp ssh-ed25519 AAAA\n").unwrap();
    let settings = format!(
        "title = \"T\"\n[publish.server]\nkind = \"sftp\"\nhost = \"127.0.0.1\"\nport = 1\nuser = \"me\"\npath = \"/srv\"\nknown_hosts = {:?}\n",
        file.display().to_string()
    );
    let blog = BlogTest::empty().write("hanji.toml", settings).write("posts/a.md", "---\ntitle: A\n---\nA.\n");
    let config = tempfile::tempdir().unwrap();
    let run = blog.hanji_with(
        &[("HANJI_CONFIG_DIR", config.path().to_str().unwrap())],
        &["publish", "--dry-run", "--trust-host", "--quiet"],
    );
    assert!(run.stderr().contains("is not trusted (nothing is written)"), "{}", run.stderr());
    assert_eq!(read(&file), "# keep me\n@cert-authority *.corp ssh-ed25519 AAAA\n");
    assert!(files(config.path()).is_empty(), "{:?}", files(config.path()));
}

/// A token in a git remote's address was shown in the error of a publish
/// that could not reach it (issue 30).
#[test]
fn a_token_in_a_remote_is_no_longer_shown() {
    let settings = "title = \"T\"\n[publish.pages]\nkind = \"git\"\nremote = \"https://me:ghp_T0KEN5ECRET@127.0.0.1:1/me/blog.git\"\n";
    let blog = BlogTest::empty().write("hanji.toml", settings).write("posts/a.md", "---\ntitle: A\n---\nA.\n");
    let run = blog.hanji_with(&[("HANJI_PUBLISH_SECRET", "x")], &["publish", "--quiet"]);
    assert_ne!(run.code(), 0);
    let said = format!("{}{}", run.stdout(), run.stderr());
    assert!(!said.contains("ghp_T0KEN5ECRET"), "{said}");
    assert!(said.contains("https://me:***@127.0.0.1:1/me/blog.git"), "{said}");
}

/// A save kept the text it replaced in the history after writing the new
/// text: a crash between the two lost the old text (issue 30). The version
/// is now kept first.
#[test]
fn the_replaced_text_is_kept_before_the_save_writes() {
    let blog = BlogTest::empty().write("posts/a.md", "---\ntitle: A\n---\nThe old text.\n");
    let history = tempfile::tempdir().unwrap();
    let options = SessionOptions { history: Some(hanji::History::new(history.path())), ..SessionOptions::default() };
    let session = Session::open(blog.path(), options, |_, _| {}).unwrap();
    session.save(Path::new("posts/a.md"), "---\ntitle: A\n---\nThe new text.\n", None).unwrap();
    let version = files(history.path()).into_iter().next().expect("a version kept");
    let kept_at = std::fs::metadata(history.path().join(&version)).unwrap().modified().unwrap();
    let written_at = std::fs::metadata(blog.path().join("posts/a.md")).unwrap().modified().unwrap();
    assert!(kept_at <= written_at, "kept at {kept_at:?}, the post written at {written_at:?}");
    assert!(read(history.path().join(&version)).contains("The old text."));
}

/// Journal files were named by std's hasher, which may change between Rust
/// releases: after an update, unsaved text was no longer offered back
/// (issue 30). Every blog's journal folder is read now, each text by the
/// blog it names.
#[test]
fn unsaved_text_kept_under_an_older_name_is_offered_back() {
    let journal = tempfile::tempdir().unwrap();
    let blog = BlogTest::empty().write("posts/a.md", "---\ntitle: A\n---\nSaved.\n");
    let kept = hanji::Kept {
        root: blog.path().to_path_buf(),
        path: "posts/a.md".into(),
        text: "---\ntitle: A\n---\nUnsaved.\n".into(),
        kept_at: 1,
    };
    std::fs::create_dir_all(journal.path().join("00c0ffee00c0ffee")).unwrap();
    std::fs::write(journal.path().join("00c0ffee00c0ffee/1234.json"), serde_json::to_vec(&kept).unwrap()).unwrap();
    assert_eq!(hanji::Journal::new(journal.path()).pending(blog.path()), [kept]);
}

/// The versions of a post deleted since were kept for ever: no save of it
/// pruned them any more (issue 30). A blog's whole history is pruned when
/// its limits are set (as the app does when it opens the blog).
#[test]
fn the_versions_of_a_deleted_post_are_pruned() {
    let data = tempfile::tempdir().unwrap();
    let history = hanji::History::new(data.path());
    let replaced = hanji::Replaced { previous: "old", next: "new", cause: &hanji::VersionCause::Save };
    let day = 86_400_000;
    history.keep(Path::new("/b"), Path::new("posts/gone.md"), replaced, day, hanji::HistoryLimits::default()).unwrap();
    assert_eq!(history.prune_blog(Path::new("/b"), 200 * day, hanji::HistoryLimits::default()), 1);
    assert!(history.versions(Path::new("/b"), Path::new("posts/gone.md")).is_empty());
}

/// A post whose front matter another program broke (a date TOML cannot
/// read, written by an editor or a `git pull`) vanished from the app's list,
/// and its problem said to open it in another editor, while the same
/// mistake typed in Hanji kept the post open. Such a post is still a post:
/// listed with its error, its title and tags kept from the rest of its front
/// matter, never published, and its problem at its line.
#[test]
fn a_post_whose_front_matter_breaks_is_still_a_post_with_its_error() {
    let blog = BlogTest::empty()
        .write("posts/good.md", "---\ntitle: Good\ndate: 2026-11-01\ntags: [rust]\n---\nGood.\n")
        .write("posts/toml.md", "+++\ntitle = \"분산 학습 노트\"\ndate = 2026-13-45\ntags = [\"gpu\"]\n+++\n본문.\n")
        .write("posts/yaml.md", "---\ntitle: \"Stray quote\ntags: [x]\n---\nBody.\n")
        .write("posts/unclosed.md", "---\ntitle: Never closed\n");
    let loaded = blog.load();
    let toml = loaded.library.post(Path::new("posts/toml.md")).expect("the TOML post is listed");
    assert!(toml.has_errors);
    assert_eq!(
        (toml.title.as_str(), toml.tags.as_slice(), toml.date),
        ("분산 학습 노트", &["gpu".to_string()][..], None)
    );
    assert!(loaded.library.post(Path::new("posts/yaml.md")).is_some_and(|p| p.has_errors));
    let unclosed = loaded.library.post(Path::new("posts/unclosed.md")).expect("even one never closed");
    assert!(unclosed.has_errors && unclosed.title == "unclosed" && unclosed.body().is_empty());
    let problems = hanji::check(&loaded);
    let at = |file: &str| problems.iter().filter(|d| d.path == Path::new(file)).map(|d| d.line).collect::<Vec<_>>();
    assert_eq!(at("posts/toml.md"), [3], "{problems:#?}");
    assert_eq!(at("posts/unclosed.md"), [1]);
    // Never published, and no tag of theirs is counted.
    assert_eq!(blog.hanji(&["tags"]).lines(), ["rust (1)"]);
    let out = tempfile::tempdir().unwrap();
    export(&blog, out.path(), &[]);
    assert!(!out.path().join("posts/toml/index.html").exists() && out.path().join("posts/good/index.html").exists());
}

/// The app counted the problems known without rendering (and the open
/// post's): "No problems" on a Jekyll blog where `hanji check` found 112
/// warnings, and while the Export summary listed two. The session's problems
/// are `hanji check`'s, kept current as files change, only what changed
/// checked again: a link that leads nowhere until its post is written.
#[test]
fn the_apps_problems_are_hanji_checks_and_follow_the_files() {
    let blog = BlogTest::sample().write(
        "posts/links.md",
        "---\ntitle: Links\ndate: 2026-11-01\n---\n[그 글](later.md) and [site](/tags/nowhere/).\n",
    );
    let session = session(&blog);
    let loaded = blog.load();
    assert_eq!(session.problems(), hanji::check(&loaded), "the set `hanji check` prints");
    let on = |problems: &[hanji::Diagnostic], file: &str| problems.iter().filter(|d| d.path == Path::new(file)).count();
    assert_eq!(on(&session.problems(), "posts/links.md"), 2);
    // The post it links to is written: its link leads there now, without it being changed.
    std::fs::write(blog.path().join("posts/later.md"), "---\ntitle: Later\ndate: 2026-11-02\n---\n").unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while on(&session.problems(), "posts/links.md") != 1 {
        assert!(std::time::Instant::now() < deadline, "the link to the new post is no problem any more");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert_eq!(session.problems(), hanji::check(&blog.load()));
    // An unsaved text is checked as it will be once saved.
    session.preview(Path::new("posts/later.md"), "---\ntitle: Later\ndate: 2026-11-02\n---\n[x](nope.md)\n".into());
    assert_eq!(on(&session.problems(), "posts/later.md"), 1);
    session.forget_unsaved(Path::new("posts/later.md"));
    assert_eq!(on(&session.problems(), "posts/later.md"), 0);
}

/// A template that does not compile was named by the export but not by
/// `hanji check`, so the app's count (check's) missed it.
#[test]
fn check_names_a_template_that_does_not_compile() {
    let blog = BlogTest::empty()
        .write("posts/a.md", "---\ntitle: A\ndate: 2026-11-01\n---\nA.\n")
        .write("templates/post.html", "{% if %}\n");
    let problems = hanji::check(&blog.load());
    assert!(problems.iter().any(|d| d.path == Path::new("templates/post.html") && d.is_error()), "{problems:#?}");
}

/// The search page's "More results" button showed while hidden (`.button`'s
/// `display` beat `[hidden]`), and did nothing.
#[test]
fn the_search_pages_more_button_shows_only_when_there_are_more() {
    let blog = BlogTest::sample();
    let out = tempfile::tempdir().unwrap();
    assert_eq!(export(&blog, &out.path().join("site"), &[]).code(), 0);
    let browser = crate::browser::Browser::start();
    let page = out.path().join("site/search/index.html");
    browser.open(&format!("file://{}?q=gpu", hanji::encode_path(&page.to_string_lossy())));
    browser.wait_for("results", "return document.querySelectorAll('.search-result').length > 0;");
    let shown = "return getComputedStyle(document.querySelector('.search-more')).display !== 'none';";
    let more = browser.script("return document.querySelector('.search-more').hidden;").unwrap();
    assert_eq!(
        browser.script(shown).unwrap(),
        serde_json::json!(!more.as_bool().unwrap()),
        "shown exactly when not hidden"
    );
    browser.script("const i = document.querySelector('.search-input'); i.value = 'zzyzx'; i.dispatchEvent(new Event('input'));").unwrap();
    browser.wait_for("nothing found", "return document.querySelectorAll('.search-result').length === 0;");
    assert_eq!(browser.script(shown).unwrap(), serde_json::json!(false), "no results: no More results");
}

/// A first export of an image-heavy blog sat at a full progress bar while it
/// wrote its image copies (issue 32: "a first Hugo export with 509 images
/// took 49 s with the app looking stuck"). Its progress now counts the image
/// copies the pages asked for too, tells each step once and ends at its
/// total. Every post shows one shared image as well, so pages wait for one
/// another's copies (made once, on the thread that asked first).
#[test]
fn a_first_export_with_images_reports_progress_through_its_image_copies() {
    let settings = "title = \"Pictures\"\n[images]\nwidths = [160, 240, 320, 400]\n";
    let mut blog = BlogTest::empty().write("hanji.toml", settings).write("shared.png", crate::images::png(300, 150));
    for n in 0..12 {
        let post = format!(
            "---\ntitle: Photo {n}\ndate: 2026-03-{:02}\n---\n![Photo {n}](photo.jpg)\n\n![Shared](/shared.png)\n",
            n + 1
        );
        blog = blog
            .write(&format!("posts/p{n}/index.md"), post)
            .write(&format!("posts/p{n}/photo.jpg"), crate::images::jpeg(500, 250));
    }
    let (out, cache) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let loaded = hanji::load(blog.path()).unwrap();
    let options = hanji::ExportOptions { cache_dir: Some(cache.path().to_path_buf()), ..Default::default() };
    let ticks = std::sync::Mutex::new(Vec::new());
    let summary =
        hanji::export(&loaded, out.path(), &options, &|done, total| ticks.lock().unwrap().push((done, total))).unwrap();
    let ticks = ticks.into_inner().unwrap();
    let copies = files(out.path()).iter().filter(|f| f.contains(".jpg-") || f.contains(".png-")).count();
    assert!(copies >= 12 * 4, "every image's copies are written: {copies}");
    let &(last_done, last_total) = ticks.last().expect("progress is reported");
    assert_eq!(last_done, last_total, "the progress ends at its total");
    assert!(
        last_total >= summary.rendered + copies,
        "the image copies are counted: {last_total} < {} + {copies}",
        summary.rendered
    );
    let mut seen: Vec<usize> = ticks.iter().map(|(done, _)| *done).collect();
    seen.sort_unstable();
    assert_eq!(seen, (1..=last_done).collect::<Vec<_>>(), "each step is told once");
    assert!(ticks.iter().all(|(done, total)| done <= total), "never past its total: {ticks:?}");
}

/// A Jekyll blog whose include holds a script with `›` in it (a Chirpy
/// blog's mermaid fix) could not be opened at all: reading the include's
/// script looked for its end tag by slicing inside that character, and
/// `hanji tags` panicked.
#[test]
fn an_include_whose_script_holds_a_multibyte_character_is_read() {
    let blog = BlogTest::empty()
        .write("_config.yml", "title: T\n")
        .write(
            "_includes/mermaid.html",
            "<script>\n/* fix the SVG › <https://github.com/x> */\n$(\".mermaid\").html(svg);\n</script>\n",
        )
        .write("_posts/2024-01-01-a.md", "---\ntitle: A\ntags: [cs]\n---\n{% include mermaid.html %}\n\nText.\n");
    let loaded = blog.load();
    let titles: Vec<&str> = loaded.library.posts().map(|post| post.title.as_str()).collect();
    assert_eq!(titles, ["A"]);
    let run = blog.hanji(&["tags"]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(run.stdout().contains("cs"), "{}", run.stdout());
}

/// The addresses of every post of `blog`, by title, as the site has them.
fn addresses_by_title(blog: &BlogTest) -> Vec<(String, String)> {
    let loaded = blog.load();
    let addresses = hanji::Addresses::new(&loaded.config, &loaded.library);
    let mut found: Vec<(String, String)> =
        loaded.library.posts().map(|post| (post.title.clone(), addresses.post(post))).collect();
    found.sort();
    found
}

/// A Chirpy blog gives its posts' permalink in `defaults` (scope: posts),
/// not at the top of `_config.yml`: Hanji took the top-level default and
/// every address of such a blog was wrong. Jekyll's front matter defaults
/// are applied by scope and precedence (`FrontmatterDefaults#all`).
#[test]
fn a_permalink_given_by_jekyll_s_defaults_makes_the_posts_addresses() {
    let config = "title: T\npermalink: /:year/:title/\ndefaults:\n  - scope:\n      path: \"\"\n      type: posts\n    \
                  values:\n      layout: post\n      permalink: /posts/:title/\n  - scope:\n      path: _posts/notes\n    \
                  values:\n      permalink: /notes/:title/\n";
    let blog = BlogTest::empty()
        .write("_config.yml", config)
        .write("_posts/2024-01-02-first-post.md", "---\ntitle: First\n---\nText.\n")
        .write("_posts/notes/2024-01-03-a-note.md", "---\ntitle: Note\n---\nText.\n")
        .write("_posts/2024-01-04-own.md", "---\ntitle: Own\npermalink: /mine/\n---\nText.\n");
    assert_eq!(
        addresses_by_title(&blog),
        [
            ("First".to_string(), "posts/first-post/".to_string()),
            ("Note".to_string(), "notes/a-note/".to_string()),
            ("Own".to_string(), "mine/".to_string()),
        ]
    );
}

/// Jekyll keeps a post's name as written in `:title` (`UrlDrop#title`:
/// slugified in `pretty` mode with its case), lowercases it in `:slug`, and
/// a category may hold folders (`tteodeulX2/Issue`); Hanji lowercased the
/// first and dropped the last.
#[test]
fn jekyll_s_title_keeps_its_case_and_a_category_its_folders() {
    let blog = BlogTest::empty()
        .write("_config.yml", "title: T\npermalink: /:categories/:title/\n")
        .write("_posts/2022-2-9-oracleProject.md", "---\ntitle: Oracle\ncategory: project_fullstack\n---\nText.\n")
        .write("_posts/2024-06-13-mysql-error.md", "---\ntitle: MySQL\ncategories:\n  - tteodeulX2/Issue\n---\nText.\n")
        .write("_posts/2024-06-14-Hello, World!.md", "---\ntitle: Hello\ncategories: [a]\npermalink: /:slug/\n---\n");
    assert_eq!(
        addresses_by_title(&blog),
        [
            ("Hello".to_string(), "hello-world/".to_string()),
            ("MySQL".to_string(), "tteodeulx2/issue/mysql-error/".to_string()),
            ("Oracle".to_string(), "project_fullstack/oracleProject/".to_string()),
        ]
    );
}

/// A file of `_posts` whose name does not start with a date is not a post
/// to Jekyll (`PostReader` reads only names its `DATE_FILENAME_MATCHER`
/// takes): Hanji published `(ing)2024-08-29-db.md` as one.
#[test]
fn a_file_of_posts_without_a_date_in_its_name_is_not_published() {
    let blog = BlogTest::empty()
        .write("_config.yml", "title: T\n")
        .write("_posts/2024-08-29-db.md", "---\ntitle: Dated\n---\nText.\n")
        .write("_posts/(ing)2024-08-29-db.md", "---\ntitle: Not yet\ndate: 2024-08-29\n---\nText.\n")
        .write("_posts/todo.md", "---\ntitle: Todo\ndate: 2024-08-29\n---\nText.\n");
    let titles: Vec<String> = blog.load().library.posts().map(|post| post.title.clone()).collect();
    assert_eq!(titles, ["Dated"]);
    let out = tempfile::tempdir().unwrap();
    let run = export(&blog, out.path(), &[]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    assert!(!files(out.path()).iter().any(|f| f.contains("ing") || f.contains("todo")), "{:?}", files(out.path()));
}

/// A key given twice in `_config.yml` made Hanji drop every setting of a
/// Jekyll blog (Ruby's YAML takes the last one), and in a post the post.
/// Now the last one is used, with a warning at the second.
#[test]
fn a_key_given_twice_takes_the_last_value_with_a_warning() {
    let blog = BlogTest::empty()
        .write("_config.yml", "title: First\npermalink: /:title/\ntitle: Last\n")
        .write("_posts/2024-01-02-a.md", "---\ntitle: A\ntags: [x]\ntitle: B\n---\nText.\n");
    let loaded = blog.load();
    assert_eq!(loaded.config.title, "Last");
    assert_eq!(loaded.config.permalink.as_deref(), Some("/:title/"));
    let post = loaded.library.posts().next().expect("the post is there");
    assert_eq!(post.title, "B");
    let run = blog.hanji(&["check"]);
    assert_eq!(run.code(), 0, "a warning, not an error: {}", run.stdout());
    let said = run.stdout() + &run.stderr();
    assert!(said.contains("_config.yml:3:1: warning: `title` is given twice (first on line 1)"), "{said}");
    assert!(said.contains("2024-01-02-a.md:4:1: warning: `title` is given twice (first on line 2)"), "{said}");
}

/// Zola takes a date at the start of a file's name as the page's date and
/// leaves it out of the slug (`Page::parse`, `RFC3339_DATE`), and makes the
/// slug by `[slugify] paths`: Hanji kept the date in the address.
#[test]
fn a_zola_page_named_after_a_date_is_dated_by_it_and_slugged_without_it() {
    let blog = BlogTest::empty()
        .write("config.toml", "base_url = \"https://example.com\"\ntitle = \"Z\"\n")
        .write("content/links/_index.md", "+++\nsort_by = \"date\"\n+++\n")
        .write("content/links/2025-09-19-Claude Code SDK.md", "+++\ntitle = \"SDK\"\n+++\nText.\n")
        .write("content/links/2025-07-28_doctext/index.md", "+++\ntitle = \"Doctext\"\n+++\nText.\n")
        .write(
            "content/links/2024-01-01-own.md",
            "+++\ntitle = \"Own\"\nslug = \"Mine Too\"\ndate = 2023-05-05\n+++\n",
        );
    assert_eq!(
        addresses_by_title(&blog),
        [
            ("Doctext".to_string(), "links/doctext/".to_string()),
            ("Own".to_string(), "links/mine-too/".to_string()),
            ("SDK".to_string(), "links/claude-code-sdk/".to_string()),
        ]
    );
    let loaded = blog.load();
    let dates: Vec<String> =
        loaded.library.posts().map(|post| post.date.map(|d| d.date.to_string()).unwrap_or_default()).collect();
    assert_eq!(dates, ["2025-09-19", "2025-07-28", "2023-05-05"], "newest first, the front matter's date first");
}

/// Zola's sections say which pages a theme lists: those of a section sorted
/// by date (the top of `content/` too) are posts, those of one that is not
/// (`render = false`) are pages. Hanji took every page at the top of
/// `content/` for a page and every other for a post, so a blog whose posts
/// are at the top published none.
#[test]
fn a_zola_section_sorted_by_date_holds_posts_and_another_pages() {
    let blog = BlogTest::empty()
        .write("config.toml", "base_url = \"https://example.com\"\ntitle = \"Z\"\n")
        .write("content/_index.md", "+++\nsort_by = \"date\"\npaginate_by = 5\n+++\n")
        .write("content/20171219.md", "+++\ntitle = \"Top post\"\ndate = 2017-12-19\n+++\nText.\n")
        .write("content/pages/_index.md", "+++\nrender = false\n+++\n")
        .write("content/pages/about.md", "+++\ntitle = \"About\"\npath = \"about\"\n+++\nText.\n");
    let loaded = blog.load();
    let posts: Vec<&str> = loaded.library.posts().filter(|p| !p.page).map(|post| post.title.as_str()).collect();
    assert_eq!(posts, ["Top post"]);
    let pages: Vec<&str> = loaded.library.pages().map(|post| post.title.as_str()).collect();
    assert_eq!(pages, ["About"]);
}

/// Kramdown still reads the attribute lists inside a Liquid `raw` block
/// (Liquid runs first, and `raw` only stops Liquid), and a list of bare
/// names after an element refers to lists defined elsewhere: Hanji showed
/// both as text (`{: file='.github/dependabot.yml'}` under a code block
/// wrapped in `{% raw %}`, `` `a.conf`{: filepath} ``), on 125 pages of the
/// corpus's Jekyll blogs. After text Kramdown keeps `{:` as text, and so
/// does Hanji.
#[test]
fn kramdown_attribute_lists_in_raw_blocks_and_references_are_not_shown() {
    let post = "---\ntitle: A\n---\n{% raw %}\n```yaml\nsecret: ${{ secrets.TOKEN }}\n```\n{: file='a.yml' }\n{% endraw %}\n\n\
                1. `/etc/a.conf`{: filepath} edited\n\nPlain text {: not-a-list} stays.\n";
    let blog = BlogTest::empty().write("_config.yml", "title: T\n").write("_posts/2024-01-01-a.md", post);
    let out = tempfile::tempdir().unwrap();
    let run = export(&blog, out.path(), &[]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let page = visible_text(&read(out.path().join("2024/01/01/a.html")));
    assert!(page.contains("${{ secrets.TOKEN }}"), "the raw block's text is kept: {page}");
    assert!(!page.contains("{: file") && !page.contains("{: filepath}"), "{page}");
    assert!(page.contains("Plain text {: not-a-list} stays."), "{page}");
}

/// A Jekyll theme's file with front matter in `assets/` (Chirpy's
/// `assets/404.html`, `assets/js/data/search.json`) is a Liquid template
/// that Jekyll renders; Hanji copied it as it is, Liquid and all. Such a
/// file is left out of the site; the other files of `assets/` are copied.
#[test]
fn a_jekyll_asset_with_front_matter_is_not_copied_as_it_is() {
    let blog = BlogTest::empty()
        .write("_config.yml", "title: T\n")
        .write("_posts/2024-01-01-a.md", "---\ntitle: A\n---\nText.\n")
        .write("assets/404.html", "---\nlayout: page\npermalink: /404.html\n---\n{% include lang.html %}\n")
        .write("assets/js/data/search.json", "---\nlayout: compress\n---\n[{% for post in site.posts %}{% endfor %}]\n")
        .write("assets/js/plain.js", "console.log('---');\n")
        .write("assets/css/style.css", "body { color: red }\n");
    let out = tempfile::tempdir().unwrap();
    let run = export(&blog, out.path(), &[]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let written = files(out.path());
    assert!(written.contains(&"assets/js/plain.js".to_string()), "{written:?}");
    assert!(written.contains(&"assets/css/style.css".to_string()), "{written:?}");
    assert!(!written.iter().any(|f| f == "assets/404.html" || f == "assets/js/data/search.json"), "{written:?}");
}

/// The Next.js starter's first version (`lib/mdx.js`) takes the dates out of
/// its posts' paths (`formatSlug`): Hanji kept them, and every address of
/// such a blog was wrong. The second version (contentlayer) keeps them.
#[test]
fn the_first_starter_takes_dates_out_of_its_posts_addresses() {
    let metadata = "const siteMetadata = {\n  title: 'T',\n}\nmodule.exports = siteMetadata\n";
    let mdx = "export function formatSlug(slug) {\n  const regex = /(\\d{4})-(\\d{2})-(\\d{2})-/g\n  \
               return slug.replace(regex, '').replace(/\\.(mdx|md)/, '')\n}\n";
    let post = "---\ntitle: Hello\ndate: '2017-05-15'\n---\nText.\n";
    let v2 =
        BlogTest::empty().write("data/siteMetadata.js", metadata).write("data/blog/2017-05-15-hello-world.md", post);
    let v1 = BlogTest::empty()
        .write("data/siteMetadata.js", metadata)
        .write("lib/mdx.js", mdx)
        .write("data/blog/2017-05-15-hello-world.md", post)
        .write("data/blog/notes/2018-01-02-later.md", "---\ntitle: Later\ndate: '2018-01-02'\n---\n");
    assert_eq!(addresses_by_title(&v2), [("Hello".to_string(), "blog/2017-05-15-hello-world/".to_string())]);
    assert_eq!(
        addresses_by_title(&v1),
        [
            ("Hello".to_string(), "blog/hello-world/".to_string()),
            ("Later".to_string(), "blog/notes/later/".to_string())
        ]
    );
}

/// `tags:` with a bare `-` item (an empty tag, as a Hexo scaffold leaves it)
/// made the whole post an error and left it out; the tools drop the empty
/// item and publish the post with its other tags.
#[test]
fn an_empty_item_in_a_list_of_tags_is_left_out_not_an_error() {
    let blog = BlogTest::empty()
        .write("posts/a.md", "---\ntitle: A\ndate: 2024-09-01\ntags:\n  -\n---\n\nx\n")
        .write("posts/b.md", "---\ntitle: B\ndate: 2024-09-01\ntags:\n  - \n  - ok\n---\n\nx\n");
    let loaded = blog.load();
    let a = loaded.library.post(&crate::p("posts/a.md")).unwrap();
    let b = loaded.library.post(&crate::p("posts/b.md")).unwrap();
    assert!(!a.has_errors && !b.has_errors, "the posts have no errors");
    assert!(a.tags.is_empty());
    assert_eq!(b.tags, ["ok"]);
}

/// An imported paragraph that is only `:` after another paragraph
/// (`<p>(</p><p>:</p>`) became Markdown that Hanji reads as a definition
/// list, and the `:` was lost; a line that starts with `:` is escaped.
#[test]
fn an_imported_paragraph_of_a_colon_is_not_read_as_a_definition() {
    let markdown = hanji::html_to_markdown("<p>(</p><p>:</p><p>: term</p><pre><code>: code</code></pre>").markdown;
    assert!(markdown.contains("\\:") && markdown.contains("\\: term"), "{markdown}");
    assert!(markdown.contains("\n: code"), "code is left as it is: {markdown}");
    let html = hanji::markdown::render("(\n\n\\:\n", &hanji::markdown::Options::default()).html;
    assert!(html.contains(":") && !html.contains("<dl"), "{html}");
}

/// Velog's importer named a second image of the same name `a.png-2`, so it
/// was no longer an image to a browser; every importer now names the files
/// it puts in a bundle in one place (`a-2.png`), the downloads of a
/// WordPress export too.
#[test]
fn a_second_image_of_the_same_name_keeps_its_extension() {
    let server = crate::import_images::ImageServer::start();
    let site = &server.address;
    let body = format!("<p><img src=\"{site}/x/a.png\" alt=\"x\"> <img src=\"{site}/y/a.png\" alt=\"y\"></p>");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.xml"), crate::import_images::wxr(site, &body)).unwrap();
    let run = crate::Run(
        std::process::Command::new(env!("CARGO_BIN_EXE_hanji"))
            .args(["import", "old.xml", "--into", "blog"])
            .current_dir(dir.path())
            .output()
            .unwrap(),
    );
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let text = read(dir.path().join("blog/posts/hello/index.md"));
    assert!(text.contains("![x](a.png)") && text.contains("![y](a-2.png)"), "{text}");
    assert_eq!(std::fs::read(dir.path().join("blog/posts/hello/a-2.png")).unwrap(), b"PNG of /y/a.png");
}

/// An image whose address ends in a name longer than a disk allows (a
/// Korean name of 200 letters is 600 bytes; 255 is the most) stopped the
/// whole import with an error when its file was written; the name is now
/// cut short, its extension kept.
#[test]
fn an_image_with_a_name_too_long_for_a_disk_is_imported_under_a_shorter_one() {
    let server = crate::import_images::ImageServer::start();
    let site = &server.address;
    let long: String = "%EA%B0%80".repeat(200);
    let body = format!("<p><img src=\"{site}/img/{long}.png\" alt=\"long\"></p>");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("old.xml"), crate::import_images::wxr(site, &body)).unwrap();
    let run = crate::Run(
        std::process::Command::new(env!("CARGO_BIN_EXE_hanji"))
            .args(["import", "old.xml", "--into", "blog"])
            .current_dir(dir.path())
            .output()
            .unwrap(),
    );
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let names = files(&dir.path().join("blog/posts/hello"));
    let image = names.iter().find(|n| n.ends_with(".png")).unwrap_or_else(|| panic!("{names:?}"));
    assert!(image.len() <= 120 && image.starts_with("가가가"), "{image}");
    assert!(read(dir.path().join("blog/posts/hello/index.md")).contains(&format!("![long]({image})")));
}

/// The pages of a blog, by path, at their addresses.
fn page_addresses(blog: &BlogTest) -> Vec<(String, String)> {
    let loaded = blog.load();
    let addresses = hanji::Addresses::new(&loaded.config, &loaded.library);
    let mut found: Vec<(String, String)> = loaded
        .library
        .pages()
        .map(|page| (page.path.to_string_lossy().replace('\\', "/"), addresses.post(page)))
        .collect();
    found.sort();
    found
}

/// Chirpy gives its tabs (`_tabs/about.md`) their addresses in `defaults`
/// scoped by the collection's type (`type: tabs`, `permalink: /:title/`):
/// Hanji gave a collection's documents the type `pages`, so the default
/// never applied and the About page was at `tabs/about/`, not `about/`.
/// A document's type is its collection's label (Jekyll's `Document#type`).
#[test]
fn jekyll_s_defaults_scoped_by_a_collection_s_type_give_its_documents_their_address() {
    let config = "title: T\ncollections:\n  tabs:\n    output: true\ndefaults:\n  - scope:\n      path: \"\"\n      \
                  type: tabs\n    values:\n      permalink: /:title/\n";
    let blog = BlogTest::empty()
        .write("_config.yml", config)
        .write("_tabs/about.md", "---\ntitle: About\n---\nMe.\n")
        .write("_posts/2024-01-01-a.md", "---\ntitle: A\n---\nx\n");
    assert_eq!(page_addresses(&blog), [("_tabs/about.md".to_string(), "about/".to_string())]);
    let plain = BlogTest::empty()
        .write("_config.yml", "title: T\ncollections:\n  tabs:\n    output: true\n")
        .write("_tabs/about.md", "---\ntitle: About\n---\nMe.\n");
    assert_eq!(page_addresses(&plain), [("_tabs/about.md".to_string(), "tabs/about.html".to_string())]);
}

/// The Next.js starter's About page is the default author's file
/// (`data/authors/default.mdx`, which `pages/about.js` or
/// `app/about/page.tsx` renders at `/about`): Hanji had no page there. The
/// other authors' files are no pages.
#[test]
fn the_next_starter_s_about_page_is_its_default_author() {
    let blog = BlogTest::empty()
        .write("data/siteMetadata.js", "const siteMetadata = {\n  title: 'T',\n}\nmodule.exports = siteMetadata\n")
        .write("data/blog/a.mdx", "---\ntitle: A\ndate: '2024-01-01'\n---\nx\n")
        .write("data/authors/default.mdx", "---\nname: Me\n---\nAbout me.\n")
        .write("data/authors/other.md", "---\nname: Other\n---\nSomeone else.\n");
    assert_eq!(page_addresses(&blog), [("data/authors/default.mdx".to_string(), "about/".to_string())]);
    assert!(addresses_by_title(&blog).contains(&("A".to_string(), "blog/a/".to_string())));
}

/// A Next.js starter's `.md` post with JSX (`<TOCInline toc={props.toc} />`,
/// `<td style={{textAlign: 'left'}}>`) was read as plain Markdown and its
/// JSX shown as text; the starter compiles every post as MDX.
#[test]
fn a_next_starter_md_post_is_mdx() {
    let blog = BlogTest::empty()
        .write("data/siteMetadata.js", "const siteMetadata = {\n  title: 'T',\n}\nmodule.exports = siteMetadata\n")
        .write(
            "data/blog/a.md",
            "---\ntitle: A\ndate: '2024-01-01'\n---\n<TOCInline toc={props.toc} />\n\n## One\n\n\
             <table><tr><td style={{textAlign: 'left'}}>x</td></tr></table>\n",
        );
    let out = tempfile::tempdir().unwrap();
    let run = crate::export(&blog, out.path(), &[]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let page = crate::read(out.path().join("blog/a/index.html"));
    assert!(!crate::visible_text(&page).contains('{'), "{page}");
    assert!(page.contains("<td style=\"text-align: left\">x</td>"), "{page}");
    assert!(page.contains("<ul><li><a href=\"#one\">One</a></li></ul>"), "{page}");
}

/// A Kramdown attribute list whose quoted value holds a backslashed quote
/// (`{: file='\'dotnet nuget push\' error'}`, as Chirpy's code block titles
/// are written) was not read as one and shown as text; Kramdown takes `\'`
/// in a value as the quote itself.
#[test]
fn a_kramdown_attribute_with_an_escaped_quote_is_read() {
    let body = "```\nerror\n```\n{: file='\\'dotnet nuget push\\' error'}\n";
    let html = hanji::markdown::render(
        body,
        &hanji::markdown::Options { syntax: hanji::markdown::Syntax::Liquid, ..Default::default() },
    )
    .html;
    assert!(!html.contains("{:") && !html.contains("dotnet"), "{html}");
    assert!(html.contains("<pre><code>error\n</code></pre>"), "{html}");
}

/// A Hexo post dated `2024-09-02T24:00+09:00` (the end of the day, which
/// JavaScript's `Date` reads as the next day's midnight) was refused as no
/// date, so the post and its tags were left out; it is 2024-09-03.
#[test]
fn a_date_at_hour_24_is_the_next_day_s_midnight() {
    let blog = BlogTest::empty()
        .write("_config.yml", "title: T\npermalink: :title/\n")
        .write("source/_posts/a.md", "---\ntitle: A\ndate: 2024-09-02T24:00+09:00\ntags:\n  - Masking\n---\nx\n");
    let loaded = blog.load();
    let post = loaded.library.post(&crate::p("source/_posts/a.md")).unwrap();
    assert!(!post.has_errors);
    assert_eq!(post.date.map(|d| d.date.to_string()), Some("2024-09-03".to_string()));
    assert_eq!(post.tags, ["Masking"]);
}

/// A Hugo blog whose own home template lists every page
/// (`layouts/_default/list.html`: `range .Paginator.Pages`) keeps its posts
/// at the top of `content/`: Hanji took them for pages (About pages) and
/// published 11 of its 61 posts. The blog's template says which it lists.
#[test]
fn a_hugo_home_that_lists_the_top_pages_makes_them_posts() {
    let post = |title: &str| format!("---\ntitle: {title}\ndate: 2024-01-01\n---\nx\n");
    let plain = BlogTest::empty()
        .write("hugo.toml", "title = 'T'\n")
        .write("content/top.md", post("Top"))
        .write("content/posts/a.md", post("A"));
    let listing = BlogTest::empty()
        .write("hugo.toml", "title = 'T'\n")
        .write("layouts/_default/list.html", "{{ range .Paginator.Pages }}{{ .Title }}{{ end }}\n")
        .write("content/top.md", post("Top"))
        .write("content/posts/a.md", post("A"));
    let posts = |blog: &BlogTest| -> Vec<String> {
        let loaded = blog.load();
        let mut titles: Vec<String> = loaded.library.posts().filter(|p| !p.page).map(|p| p.title.clone()).collect();
        titles.sort();
        titles
    };
    assert_eq!(posts(&plain), ["A"]);
    assert_eq!(posts(&listing), ["A", "Top"]);
    assert!(addresses_by_title(&listing).contains(&("Top".to_string(), "top/".to_string())));
}

/// Publish in the app saves every post, then exports: the save wrote the
/// file, but the blog in memory was brought up to date by the watcher after
/// its debounce, so the export could send the post as it was before the save
/// (an end-to-end run sent it again on the next, unchanged publish). An
/// export now takes the blog once the watcher has applied Hanji's own writes.
#[test]
fn an_export_right_after_a_save_has_the_saved_text() {
    let blog = BlogTest::empty().write("posts/a.md", "---\ntitle: A\n---\nThe old text.\n");
    let session = session(&blog);
    for round in 0..5 {
        let text = format!("---\ntitle: A\n---\nThe text of round {round}.\n");
        session.save(Path::new("posts/a.md"), &text, None).unwrap();
        let settled = session.settled_blog();
        let post = settled.library.post(Path::new("posts/a.md")).expect("the post");
        assert_eq!(post.source(), text, "round {round}: the blog an export takes holds the save");
    }
}
