//! Folders of Markdown posts published by site code of their own (a Gatsby
//! site, an Astro content collection, a Next.js site), opened as they are:
//! the posts folder and the addresses are read from the site's own files,
//! and `hanji.toml` may set both.

use hanji::Kind;

use crate::{BlogTest, export, files, p, read};

/// The site paths of an export's posts and pages (their `index.html` folders).
fn exported(blog: &BlogTest) -> (Vec<String>, tempfile::TempDir) {
    let out = tempfile::tempdir().unwrap();
    let run = export(blog, &out.path().join("site"), &[]);
    assert_eq!(run.code(), 0, "{}{}", run.stdout(), run.stderr());
    (files(&out.path().join("site")), out)
}

#[test]
fn a_gatsby_hoodie_blog_keeps_its_posts_pages_and_addresses() {
    let blog = BlogTest::fixture("layouts/gatsby");
    let loaded = blog.load();
    assert_eq!(loaded.layout().kind, Kind::Folder);
    assert_eq!(loaded.layout().settings_file, Some(p("blog-config.js")));
    assert_eq!(loaded.config.posts_dir, p("contents/posts"), "gatsby-node.js's query names it");
    assert_eq!(loaded.config.permalink.as_deref(), Some("/:name/"), "gatsby-node.js keeps the last folder");
    assert_eq!(loaded.config.title, "하늘 블로그");
    assert_eq!(loaded.config.base_url, "https://haneul.example.dev");
    let mut posts: Vec<String> =
        loaded.library.posts().filter(|post| !post.page).map(|post| post.path.display().to_string()).collect();
    posts.sort();
    assert_eq!(
        posts,
        [
            "contents/posts/2024_KPT_회고/index.md",
            "contents/posts/algorithm/binary-search/index.md",
            "contents/posts/oauth-2.0/index.md"
        ],
        "post-templates/ is not a post"
    );
    let pages: Vec<String> =
        loaded.library.posts().filter(|post| post.page).map(|post| post.path.display().to_string()).collect();
    assert_eq!(pages, ["contents/about/index.md"]);
    let tags: Vec<String> = loaded.library.tags(false).iter().map(|t| format!("{} ({})", t.name, t.count)).collect();
    assert!(tags.contains(&"회고 (2)".to_string()), "{tags:?}");

    let (written, out) = exported(&blog);
    for file in [
        "binary-search/index.html",
        "binary-search/1.png",
        "2024_KPT_회고/index.html",
        "oauth-2.0/index.html",
        "about/index.html",
        "robots.txt",
    ] {
        assert!(written.iter().any(|w| w == file), "no {file} in {written:?}");
    }
    let post = read(out.path().join("site/binary-search/index.html"));
    let image = post.split("<img src=\"").nth(1).and_then(|rest| rest.split('"').next()).unwrap_or_default();
    assert!(image.ends_with("binary-search/1.png") || image == "1.png", "the bundle's image beside its post: {image}");
}

#[test]
fn a_next_js_site_of_its_own_publishes_its_posts_at_its_route() {
    let blog = BlogTest::empty()
        .write("package.json", r#"{ "dependencies": { "next": "15.0.0", "react": "19.0.0" } }"#)
        .write("app/posts/[slug]/page.tsx", "export default function Post() { return null }\n")
        .write("_posts/hello-world.md", "---\ntitle: Hello World\ndate: 2026-03-16\ntags: [next]\n---\n\nHi.\n")
        .write("_posts/dynamic-routing.md", "---\ntitle: Dynamic Routing\ndate: 2026-03-17\n---\n\nRoutes.\n")
        .write("public/assets/blog/cover.jpg", b"\xff\xd8\xff");
    let loaded = blog.load();
    assert_eq!(loaded.layout().kind, Kind::Folder, "a Next.js site's `_posts` is not Jekyll's");
    assert_eq!(loaded.config.posts_dir, p("_posts"));
    let (written, _out) = exported(&blog);
    for file in ["posts/hello-world/index.html", "posts/dynamic-routing/index.html", "assets/blog/cover.jpg"] {
        assert!(written.iter().any(|w| w == file), "no {file} in {written:?}");
    }
}

#[test]
fn an_astro_content_collection_publishes_at_its_routes_slugs() {
    let blog = BlogTest::empty()
        .write("astro.config.mjs", "export default {}\n")
        .write("src/pages/blog/[...slug].astro", "---\n---\n")
        .write("src/content/blog/First Post.md", "---\ntitle: First\npubDate: 2026-01-02\n---\n\nOne.\n")
        .write("src/content/blog/guides/Using MDX.mdx", "---\ntitle: Using MDX\n---\n\nTwo.\n")
        .write("public/favicon.svg", "<svg/>");
    let loaded = blog.load();
    assert_eq!(loaded.config.posts_dir, p("src/content/blog"));
    let (written, _out) = exported(&blog);
    for file in ["blog/first-post/index.html", "blog/guides/using-mdx/index.html", "favicon.svg"] {
        assert!(written.iter().any(|w| w == file), "no {file} in {written:?}");
    }
}

#[test]
fn hanji_toml_sets_the_posts_folder_and_the_address_of_any_folder() {
    let blog = BlogTest::empty()
        .write("hanji.toml", "layout = \"folder\"\nposts_dir = \"notes\"\npermalink = \"/writing/:year/:name/\"\n")
        .write("notes/Deep Dive.md", "---\ntitle: Deep Dive\ndate: 2025-05-05\n---\n\nText.\n");
    let (written, _out) = exported(&blog);
    assert!(written.iter().any(|w| w == "writing/2025/Deep Dive/index.html"), "{written:?}");
}
