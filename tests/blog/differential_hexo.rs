//! Hexo blogs built by the real Hexo (8.1.2, which `make test-deps` installs
//! into `.cache/hexo`): `hexo generate` of a copy of the fixture blog with a
//! site script that writes what Hexo itself publishes (its `locals`: each
//! post's and page's path, each tag's path and count, each category's name
//! and count, the posts' titles) and the files it copies; Hanji's export of
//! the same folder must publish the same.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::{BlogTest, export, files, read};

/// What a site publishes: posts and pages by address, tags by address and
/// categories by name with their counts of posts, the posts' titles, and
/// the files copied as they are.
#[derive(Debug, Default, PartialEq)]
struct Published {
    posts: Vec<String>,
    pages: Vec<String>,
    tags: BTreeMap<String, usize>,
    categories: BTreeMap<String, usize>,
    titles: Vec<String>,
    copies: Vec<String>,
}

/// The site script Hexo runs: a generator that writes its own `locals`.
const DUMP: &str = r#"'use strict';
hexo.extend.generator.register('hanji_dump', function (locals) {
  const strip = p => '/' + p.replace(/^\/+/, '').replace(/index\.html$/, '');
  const out = { posts: [], pages: [], tags: {}, categories: {}, titles: [] };
  locals.posts.forEach(p => { out.posts.push(strip(p.path)); out.titles.push(p.title); });
  locals.pages.forEach(p => { out.pages.push(strip(p.path)); });
  locals.tags.forEach(t => { out.tags[strip(t.path)] = t.length; });
  locals.categories.forEach(c => { out.categories[c.name] = (out.categories[c.name] || 0) + c.length; });
  return { path: 'hanji-dump.json', data: JSON.stringify(out) };
});
"#;

/// Hexo and its plugins as `make test-deps` installs them.
fn hexo_modules() -> PathBuf {
    let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join(".cache/hexo/node_modules");
    assert!(modules.join("hexo-cli/bin/hexo").is_file(), "Hexo is installed in {} (make test-deps)", modules.display());
    modules
}

/// Builds `blog` with the real Hexo: its `node_modules` are the installed
/// Hexo's, and the dump script is its site script.
fn hexo(blog: &BlogTest) -> Published {
    let modules = hexo_modules();
    let blog = BlogTest::copy_of(blog.path()).write("scripts/hanji-dump.js", DUMP);
    std::os::unix::fs::symlink(&modules, blog.path().join("node_modules")).unwrap();
    let built = Command::new("node")
        .arg(modules.join("hexo-cli/bin/hexo"))
        .args(["generate", "--silent"])
        .current_dir(blog.path())
        .output()
        .expect("node runs Hexo (make test-deps installs it)");
    assert!(
        built.status.success(),
        "hexo failed: {}{}",
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr)
    );
    let public = blog.path().join("public");
    let dump: serde_json::Value = serde_json::from_str(&read(public.join("hanji-dump.json"))).unwrap();
    let texts = |key: &str| -> Vec<String> {
        let mut texts: Vec<String> =
            dump[key].as_array().unwrap().iter().map(|v| v.as_str().unwrap().to_string()).collect();
        texts.sort();
        texts
    };
    let counts = |key: &str| -> BTreeMap<String, usize> {
        dump[key].as_object().unwrap().iter().map(|(k, v)| (k.clone(), v.as_u64().unwrap() as usize)).collect()
    };
    Published {
        posts: texts("posts"),
        pages: texts("pages"),
        tags: counts("tags"),
        categories: counts("categories"),
        titles: texts("titles"),
        copies: copies(&public),
    }
}

/// The files of a built site that are not its pages (nor the dump).
fn copies(site: &Path) -> Vec<String> {
    files(site).into_iter().filter(|f| !f.ends_with(".html") && !f.ends_with(".json")).collect()
}

/// What Hanji's export of `blog` publishes, in the same terms.
fn hanji(blog: &BlogTest) -> Published {
    let out = tempfile::tempdir().unwrap();
    let site = out.path().join("site");
    let run = export(blog, &site, &[]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let loaded = blog.load();
    let addresses = hanji::Addresses::new(&loaded.config, &loaded.library);
    let shown: Vec<_> = loaded.library.posts().filter(|post| !post.draft && !post.has_errors).collect();
    let published = |pages: bool| {
        let mut found: Vec<String> = shown
            .iter()
            .filter(|post| post.page == pages)
            .map(|post| format!("/{}", addresses.post(post)))
            .inspect(|address| {
                let file = if address.ends_with('/') { format!("{address}index.html") } else { address.clone() };
                assert!(site.join(&file[1..]).is_file(), "Hanji wrote {file}");
            })
            .collect();
        found.sort();
        found
    };
    let mut titles: Vec<String> = shown.iter().filter(|post| !post.page).map(|post| post.title.clone()).collect();
    titles.sort();
    // Hanji's own files (its style, feeds, search, its record of the export) are not Hexo's.
    let theirs = ["style.css", "feed.xml", "sitemap.xml", "robots.txt"];
    let copies = copies(&site)
        .into_iter()
        .filter(|f| {
            !theirs.contains(&f.as_str())
                && !f.starts_with("search/")
                && !f.starts_with(".hanji")
                && !f.ends_with("/feed.xml")
        })
        .collect();
    Published {
        posts: published(false),
        pages: published(true),
        tags: loaded
            .library
            .tags(false)
            .into_iter()
            .map(|t| (format!("/{}", addresses.tag(&t.slug)), t.count))
            .collect(),
        categories: loaded.library.categories(false).into_iter().map(|t| (t.name, t.count)).collect(),
        titles,
        copies,
    }
}

/// The fixture with these `_config.yml` settings in place of its own.
fn with_settings(settings: &[(&str, &str)]) -> BlogTest {
    let fixture = BlogTest::fixture("layouts/hexo");
    let mut text = read(fixture.path().join("_config.yml"));
    for (key, value) in settings {
        let line = format!("{key}: {value}");
        let lines: Vec<String> = text
            .lines()
            .map(|l| if l.starts_with(&format!("{key}:")) { line.clone() } else { l.to_string() })
            .collect();
        text = lines.join("\n") + "\n";
        if !text.contains(&line) {
            text.push_str(&format!("{line}\n"));
        }
    }
    fixture.write("_config.yml", text)
}

#[test]
fn hexo_and_hanji_publish_the_same_posts_pages_tags_and_files() {
    let blog = BlogTest::fixture("layouts/hexo");
    let hexo = hexo(&blog);
    // What the fixture is for: nested folders, a post's own permalink, a
    // future post (published: `future` is on by default), the asset folder.
    // (Dates in addresses are the written ones in `Asia/Seoul` as the
    // computer's own time zone shows them: the day may be the one before.)
    let posts = |end: &str| hexo.posts.iter().filter(|p| p.ends_with(end)).count();
    assert!(posts("/writing/own-address/") == 1 && posts("/notes/C++ 메모/") == 1 && posts("/later/") == 1);
    assert_eq!(hexo.pages, ["/about/", "/contact.html"]);
    assert!(hexo.copies.iter().any(|f| f.ends_with("/with-assets/diagram.png")), "{hexo:?}");
    assert_eq!(hexo.tags.get("/tags/분산-학습/"), Some(&1));
    assert!(!hexo.tags.keys().any(|t| t.contains("비공개") || t.contains("초안")), "held back: {hexo:?}");
    assert_eq!(hanji(&blog), hexo, "Hanji's export against Hexo's build");
}

#[test]
fn hexo_and_hanji_agree_on_a_blogs_own_settings() {
    let variants: [&[(&str, &str)]; 4] = [
        &[("permalink", ":title/")],
        &[("permalink", ":category/:name.html"), ("titlecase", "true"), ("future", "false")],
        &[("permalink", ":year/:i_month/:i_day/:post_title/"), ("filename_case", "1"), ("post_asset_folder", "false")],
        &[("permalink", ":lang/:hour:minute/:title"), ("permalink_defaults", "{lang: ko}")],
    ];
    for settings in variants {
        let blog = with_settings(settings);
        assert_eq!(hanji(&blog), hexo(&blog), "{settings:?}");
    }
}
