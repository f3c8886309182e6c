//! `hanji export`: the pages, the links between them, and the rules that make
//! writing into a folder safe.

use std::fs;
use std::path::Path;

use crate::{BlogTest, export, files, read, visible_text};

fn exported(blog: &BlogTest) -> (tempfile::TempDir, crate::Run) {
    let out = tempfile::tempdir().unwrap();
    let run = export(blog, &out.path().join("site"), &[]);
    (out, run)
}

#[test]
fn the_sample_blogs_tag_page_is_the_seed_page() {
    // The seed page is the starter blog's, whose words are English beside
    // Korean dates: the blog's own word list gives them over the theme's
    // Korean ones (the guide, Theme).
    let blog = BlogTest::sample()
        .write("templates/words.ko.toml", "all_posts = \"All Posts\"\npublished_on = \"Published on\"\n");
    let (out, run) = exported(&blog);
    assert_eq!(run.code(), 0, "{}{}", run.stdout(), run.stderr());
    let page = read(out.path().join("site/tags/nccl/index.html"));
    assert!(page.contains("<html lang=\"ko\""), "lang");
    assert!(page.contains(">Nccl<"), "the heading");
    assert!(visible_text(&page).contains("nccl (5)"), "the sidebar count");
    assert!(page.contains("All Posts"));
    assert_eq!(page.matches("Published on").count(), 5);
    assert!(page.contains("<time datetime=\"2026-07-17\">2026년 7월 17일</time>"));
    // Newest first, the same-day pair in the seed's order.
    let first = page.find("분산 시스템 완전 정복").unwrap();
    let second = page.find("CUDA GPU 프로그래밍 심화").unwrap();
    assert!(page.find("PyTorch 2.13의 torchcomms").unwrap() < first && first < second);
    // Exactly five posts: no pagination.
    assert!(!page.contains(" of 2"), "no pagination");
}

/// The theme writes its words in the page's language: the sample blog is
/// Korean (with one English post, `lang: en`, in English).
#[test]
fn the_theme_writes_in_the_pages_language() {
    let blog = BlogTest::sample();
    let (out, run) = exported(&blog);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let tag = read(out.path().join("site/tags/nccl/index.html"));
    assert!(tag.contains(">모든 글</a>") && tag.matches(">게시일</dt>").count() == 5, "Korean words");
    assert!(!tag.contains("All Posts") && !tag.contains("Published on"));
    let post = read(out.path().join("site/posts/rdma-complete-guide/index.html"));
    for word in [">목차</h2>", "분 분량</span>", ">관련 글</h2>", ">다음 글</span>", "← 모든 글</a>"] {
        assert!(post.contains(word), "{word}");
    }
    // An English site, with a post in Korean (`lang: ko`), and a word of the blog's own.
    let blog = BlogTest::empty()
        .write("hanji.toml", "title = \"Notes\"\nlocale = \"en-US\"\n")
        .write("posts/en.md", "---\ntitle: English\ndate: 2026-11-01\n---\nWords.\n")
        .write("posts/ko.md", "---\ntitle: 한국어\ndate: 2026-11-02\nlang: ko\n---\n낱말.\n")
        .write("templates/words.en.toml", "min_read = \"{n}-minute read\"\n");
    let (out, run) = exported(&blog);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let english = read(out.path().join("site/posts/en/index.html"));
    assert!(english.contains("1-minute read</span>") && english.contains("← All Posts</a>"), "{english}");
    let korean = read(out.path().join("site/posts/ko/index.html"));
    assert!(
        korean.contains("<html lang=\"ko\"") && korean.contains("1분 분량</span>") && korean.contains("← 모든 글</a>")
    );
}

#[test]
fn every_page_of_the_site_is_written() {
    let blog = BlogTest::fixture("site");
    let (out, run) = exported(&blog);
    // The broken post is left out and reported; the rest is written.
    assert_eq!(run.code(), 1);
    assert!(run.stderr().contains("left out: posts/broken.md"), "{}", run.stderr());
    let site = out.path().join("site");
    let all = files(&site);
    for expected in [
        "index.html",
        "page/2/index.html",
        "posts/first/index.html",
        "posts/second/index.html",
        "posts/bundle/index.html",
        "posts/bundle/diagram.png",
        "tags/index.html",
        "tags/rust/index.html",
        "tags/rust/feed.xml",
        "tags/분산-학습/index.html",
        "tags/images/index.html",
        "feed.xml",
        "sitemap.xml",
        "robots.txt",
        "404.html",
        "style.css",
        "images/icon.png",
        "CNAME",
        ".hanji-export",
    ] {
        assert!(all.contains(&expected.to_string()), "{expected} missing from {all:?}");
    }
    // Readable by a web server running as another user (umask 022 here).
    for file in ["index.html", "posts/bundle/diagram.png", "images/icon.png"] {
        let mode = std::os::unix::fs::PermissionsExt::mode(&fs::metadata(site.join(file)).unwrap().permissions());
        assert_eq!(mode & 0o044, 0o044, "{file} has mode {mode:o}");
    }
    // Three public posts, two per page.
    assert!(!all.contains(&"page/3/index.html".to_string()));
    assert!(!all.iter().any(|f| f.contains("broken") || f.contains("secret")), "{all:?}");
}

#[test]
fn drafts_and_broken_posts_appear_nowhere() {
    let blog = BlogTest::fixture("site");
    let (out, _) = exported(&blog);
    for file in files(&out.path().join("site")) {
        let Ok(text) = fs::read_to_string(out.path().join("site").join(&file)) else { continue };
        for hidden in ["Secret draft title", "secret-draft", "draft-only-tag", "Broken post title"] {
            assert!(!text.contains(hidden), "{hidden} in {file}");
        }
    }
    // rust: first and second only (the draft and the broken post are not counted).
    let tags = read(out.path().join("site/tags/index.html"));
    assert!(visible_text(&tags).contains("rust (2)"), "{tags}");
}

#[test]
fn links_are_relative_and_addresses_use_the_base_url() {
    let blog = BlogTest::fixture("site");
    let (out, _) = exported(&blog);
    let site = out.path().join("site");
    let post = read(site.join("posts/first/index.html"));
    assert!(post.contains("href=\"https://me.github.io/blog/posts/first/\""), "canonical");
    assert!(post.contains("href=\"../../style.css\""), "stylesheet");
    assert!(post.contains("href=\"../../posts/second/index.html\""), "link to another post by its file");
    assert!(post.contains("href=\"../../tags/%EB%B6%84%EC%82%B0-%ED%95%99%EC%8A%B5/index.html\""), "Korean tag link");
    // No link leaves the site's folder by an absolute path (it may live under /blog/).
    for file in files(&site).iter().filter(|f| f.ends_with(".html") && *f != "404.html") {
        let text = read(site.join(file));
        assert!(!text.contains("href=\"/") && !text.contains("src=\"/"), "absolute path in {file}");
    }
    // The 404 page is served at any address: its links start from the base path.
    let not_found = read(site.join("404.html"));
    assert!(not_found.contains("href=\"/blog/style.css\""), "{not_found}");
    let bundle = read(site.join("posts/bundle/index.html"));
    assert!(bundle.contains("src=\"../../posts/bundle/diagram.png\""), "{bundle}");
    assert!(bundle.contains("A bundle with &lt;angle&gt; &amp; ampersand"), "titles are escaped");
    assert!(bundle.contains("<math"), "math rendered to MathML");
    // Front matter images become full addresses for Open Graph.
    for image in [
        "https://me.github.io/blog/posts/bundle/diagram.png",
        "https://me.github.io/blog/images/icon.png",
        "https://cdn.example.com/x.png",
    ] {
        assert!(bundle.contains(&format!("content=\"{image}\"")), "{image} in {bundle}");
    }
}

#[test]
fn feeds_and_sitemap_are_read_by_a_feed_reader() {
    let blog = BlogTest::fixture("site");
    let (out, _) = exported(&blog);
    let site = out.path().join("site");
    let feed = rss::Channel::read_from(read(site.join("feed.xml")).as_bytes()).unwrap();
    let titles: Vec<_> = feed.items().iter().map(|i| i.title().unwrap()).collect();
    assert_eq!(titles, ["A bundle with <angle> & ampersand", "Second post", "First post"]);
    assert_eq!(feed.items()[2].link(), Some("https://me.github.io/blog/posts/first/"));
    assert_eq!(feed.items()[2].pub_date(), Some("Sat, 10 Jan 2026 00:00:00 +0000"));
    let tag_feed = rss::Channel::read_from(read(site.join("tags/rust/feed.xml")).as_bytes()).unwrap();
    assert_eq!(tag_feed.items().len(), 2);
    let home = read(site.join("index.html"));
    assert!(home.contains("application/rss+xml"), "feed linked from pages");

    let sitemap = read(site.join("sitemap.xml"));
    assert!(sitemap.contains("<loc>https://me.github.io/blog/posts/first/</loc>"));
    assert!(sitemap.contains("<lastmod>2026-01-10</lastmod>"));
    assert!(!sitemap.contains("secret"));
    assert!(read(site.join("robots.txt")).contains("Sitemap: https://me.github.io/blog/sitemap.xml"));
}

/// Pagination: 0, 1, exactly N and N+1 posts, with N = 2 per page.
#[test]
fn pagination_edges() {
    for (posts, pages) in [(0, 1), (1, 1), (2, 1), (3, 2)] {
        let mut blog = BlogTest::empty().write("hanji.toml", "posts_per_page = 2\n");
        for i in 0..posts {
            blog = blog.write(
                &format!("posts/p{i}.md"),
                format!("---\ntitle: \"Post {i}\"\ndate: 2026-01-0{}\ntags: [t]\n---\nBody.\n", i + 1),
            );
        }
        let (out, run) = exported(&blog);
        assert_eq!(run.code(), 0, "{}", run.stderr());
        let site = out.path().join("site");
        let home = read(site.join("index.html"));
        assert_eq!(site.join("page/2/index.html").exists(), pages == 2, "{posts} posts");
        assert_eq!(home.contains(&format!("1 of {pages}")), pages > 1, "{posts} posts: {home}");
        if posts > 0 {
            assert!(home.contains("Post 0") || posts > 2);
            let tag = read(site.join("tags/t/index.html"));
            assert_eq!(site.join("tags/t/page/2/index.html").exists(), pages == 2);
            assert_eq!(tag.matches("Published on").count(), posts.min(2));
        }
        if pages == 2 {
            let second = read(site.join("page/2/index.html"));
            assert!(second.contains("2 of 2") && second.contains("href=\"../../index.html\""), "{second}");
        }
    }
}

#[test]
fn a_second_export_writes_nothing_and_changes_write_only_what_changed() {
    let blog = BlogTest::fixture("site");
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    export(&blog, &site, &[]);
    let stamp = fs::metadata(site.join("posts/first/index.html")).unwrap().modified().unwrap();
    let style = fs::metadata(site.join("style.css")).unwrap().modified().unwrap();

    let again = export(&blog, &site, &[]);
    assert!(again.stderr().contains(" 0 written,"), "{}", again.stderr());
    assert_eq!(fs::metadata(site.join("posts/first/index.html")).unwrap().modified().unwrap(), stamp);

    // A page changed or deleted in the output by hand is written again.
    fs::write(site.join("tags/index.html"), "edited by hand").unwrap();
    fs::remove_file(site.join("feed.xml")).unwrap();
    let repaired = export(&blog, &site, &[]);
    assert!(repaired.stderr().contains(" 2 written,"), "{}", repaired.stderr());
    assert!(read(site.join("tags/index.html")).contains("<!doctype html>"));
    assert!(site.join("feed.xml").exists());

    // A file of the author's own in the output folder is never deleted.
    fs::write(site.join("keep-me.txt"), "mine").unwrap();
    // Delete a post: its page goes, and so does the tag only it had.
    fs::remove_dir_all(blog.path().join("posts/bundle")).unwrap();
    let after = export(&blog, &site, &[]);
    assert!(!site.join("posts/bundle").exists());
    assert!(!site.join("tags/images").exists());
    assert!(site.join("keep-me.txt").exists());
    assert!(after.stderr().contains("removed"), "{}", after.stderr());
    let removed: usize = after.stderr().split(" removed").next().unwrap().rsplit(' ').next().unwrap().parse().unwrap();
    assert!(removed >= 4, "page, image, tag page, tag feed: {}", after.stderr());
    // The stylesheet owes nothing to the post (first's page lists it among
    // its related posts, so that one is written again).
    assert_eq!(fs::metadata(site.join("style.css")).unwrap().modified().unwrap(), style, "untouched");
}

#[test]
fn refuses_folders_that_are_not_safe_to_write() {
    let blog = BlogTest::fixture("site");
    let refused = |out: &Path, expected: &str| {
        let run = export(&blog, out, &[]);
        assert_eq!(run.code(), 2, "{}", run.stderr());
        assert!(run.stderr().contains(expected), "{}", run.stderr());
        assert!(run.stderr().contains("hint:"), "{}", run.stderr());
    };
    refused(blog.path(), "is the blog folder itself");
    refused(blog.path().parent().unwrap(), "holds the blog folder");
    refused(&blog.path().join("posts/out"), "is inside the blog folder");
    assert!(!blog.path().join("posts/out").exists(), "nothing written");

    let other = tempfile::tempdir().unwrap();
    fs::write(other.path().join("thesis.tex"), "precious").unwrap();
    refused(other.path(), "has files that Hanji did not export");
    assert_eq!(files(other.path()), ["thesis.tex"]);
    let forced = export(&blog, other.path(), &["--force"]);
    assert_eq!(forced.code(), 1, "only the broken post's error: {}", forced.stderr());
    assert!(other.path().join("thesis.tex").exists() && other.path().join("index.html").exists());

    // The blog's own output folder is fine, and the loader never reads it.
    let inside = export(&blog, &blog.path().join("public"), &[]);
    assert_eq!(inside.code(), 1, "{}", inside.stderr());
    assert!(blog.path().join("public/index.html").exists());
    let again = export(&blog, &blog.path().join("public"), &[]);
    assert!(again.stderr().contains(" 0 written,"), "{}", again.stderr());
}

#[test]
fn strict_fails_on_warnings() {
    let blog = BlogTest::empty()
        .write("posts/a.md", "---\ntitle: A\ndate: 2026-01-01\n---\nA [link](nowhere.md) that leads nowhere.\n");
    let out = tempfile::tempdir().unwrap();
    let lenient = export(&blog, &out.path().join("a"), &[]);
    assert_eq!(lenient.code(), 0, "{}", lenient.stdout());
    assert!(
        lenient.stdout().contains("posts/a.md:5:3: warning: link `nowhere.md` leads nowhere"),
        "{}",
        lenient.stdout()
    );
    assert_eq!(export(&blog, &out.path().join("b"), &["--strict"]).code(), 1);
}

#[test]
fn template_errors_name_the_template_and_line() {
    let blog = BlogTest::fixture("site")
        .write("templates/tags.html", "{% extends \"base.html\" %}\n{% block content %}\n{{ 1 + }}\n{% endblock %}\n")
        .write(
            "templates/404.html",
            "{% for a in range(10000) %}{% for b in range(10000) %}{{ b }}{% endfor %}{% endfor %}",
        );
    let out = tempfile::tempdir().unwrap();
    let run = export(&blog, &out.path().join("site"), &[]);
    assert_eq!(run.code(), 1);
    let (line, _) = run.line_starting("templates/tags.html:3:1: error: template error");
    assert!(line.contains("syntax") || line.contains("unexpected"), "{line}");
    run.line_starting("templates/404.html:1:1: error: template ran too long");
    // Both pages still exist: the broken override fell back to the built-in
    // template; the endless one was stopped and left out.
    assert!(out.path().join("site/tags/index.html").exists());
    assert!(!out.path().join("site/404.html").exists());
}

/// The pages of a small blog as they are written, for review when the theme
/// changes: `INSTA_UPDATE=always cargo test --test blog snapshots` rewrites them.
#[test]
fn snapshots_of_the_main_pages() {
    let blog = BlogTest::fixture("site");
    let (out, _) = exported(&blog);
    let site = out.path().join("site");
    insta::assert_snapshot!("tag_page", read(site.join("tags/rust/index.html")));
    insta::assert_snapshot!("post_page", read(site.join("posts/first/index.html")));
    insta::assert_snapshot!("home_page", read(site.join("index.html")));
    insta::assert_snapshot!("feed", read(site.join("feed.xml")));
}
