//! The blogs of other tools, built by the tools themselves: Debian's `hugo`
//! (which `make test-deps` installs) builds a fixture blog with a theme of
//! its own that writes only each page's kind, address and count of pages;
//! Hanji's export of the same folder must publish the same posts at the same
//! addresses, and the same tags with the same counts.

use std::collections::BTreeMap;
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
/// `POST <address>` (`PAGE` outside every section) or `LIST <kind> <address> <pages>`.
fn hugo(blog: &BlogTest) -> Published {
    let settings = read(blog.path().join("hugo.toml"));
    let settings: String = settings.lines().filter(|l| !l.starts_with("theme")).map(|l| format!("{l}\n")).collect();
    let blog = BlogTest::copy_of(blog.path())
        .write("hugo.toml", settings)
        .write("layouts/_default/single.html", "{{ if .Section }}POST{{ else }}PAGE{{ end }} {{ .RelPermalink }}\n")
        .write("layouts/_default/list.html", "LIST {{ .Kind }} {{ .RelPermalink }} {{ len .Pages }}\n");
    let out = tempfile::tempdir().unwrap();
    let built = Command::new("hugo")
        .args(["--quiet", "--source"])
        .arg(blog.path())
        .arg("--destination")
        .arg(out.path())
        .output()
        .expect("Debian's `hugo` runs (make test-deps installs it)");
    assert!(built.status.success(), "hugo failed: {}", String::from_utf8_lossy(&built.stderr));
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
fn hugo_and_hanji_agree_on_tag_addresses_and_categories() {
    let blog = BlogTest::fixture("layouts/hugo")
        .write(
            "content/posts/names.md",
            "---\ntitle: Names\ndate: 2026-04-01\ntags: [I/O, C++, 분산 학습, Node.js, Deep  Learning, 🦀]\n\
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
    let hugo = hugo(&blog);
    assert!(hugo.categories.len() >= 2, "Hugo made category pages: {hugo:?}");
    assert!(hugo.posts.iter().any(|p| p.starts_with("/til/")), "every section: {hugo:?}");
    let mut hanji = hanji(&blog);
    // The one difference, on purpose: Hugo drops a tag its rule empties;
    // Hanji never drops a tag.
    assert_eq!(hanji.tags.remove("/tags/🦀/"), Some(1));
    assert!(!hugo.tags.keys().any(|t| t.contains('🦀')));
    assert_eq!(hanji, hugo, "Hanji's export against Hugo's build");
}
