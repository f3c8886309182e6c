//! Every address builder of every layout on hostile front matter and
//! settings, and the `SitePath` door they all pass: whatever a post's slug,
//! permalink, url, path, tags, categories, aliases and file name, and the
//! blog's permalink pattern, every file the site places is a plain path
//! that stays inside the output folder, and a page whose address is not one
//! is left out, never placed.

#![no_main]

use std::path::{Component, Path};

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    layout: u8,
    file: String,
    slug: String,
    permalink: String,
    url: String,
    tags: Vec<String>,
    categories: Vec<String>,
    aliases: Vec<String>,
    pattern: Option<String>,
    raw: String,
}

/// Whether `file` joined to a folder stays in it, by its names alone.
fn stays_inside(file: &str) -> bool {
    let mut depth = 0usize;
    for part in Path::new(file).components() {
        match part {
            Component::Normal(_) => depth += 1,
            Component::ParentDir if depth > 0 => depth -= 1,
            _ => return false,
        }
    }
    depth > 0
}

fuzz_target!(|input: Input| {
    // The door itself: what it lets through stays inside.
    if let Ok(path) = hanji::SitePath::new(&input.raw) {
        assert!(stays_inside(path.as_str()), "{path:?}");
        assert!(path.as_str().split('/').all(|name| !name.trim_matches(['.', ' ']).is_empty()), "{path:?}");
    }
    let kind = hanji::Kind::ALL[usize::from(input.layout) % hanji::Kind::ALL.len()];
    let mut config = hanji::Config::default();
    config.layout = hanji::Layout::of(kind);
    config.permalink = input.pattern.clone();
    let quote = |text: &str| serde_json::to_string(text).unwrap_or_default();
    let list = |items: &[String]| items.iter().map(|i| quote(i)).collect::<Vec<_>>().join(", ");
    let text = format!(
        "---\ntitle: Fuzzed\ndate: 2024-05-01\nslug: {}\npermalink: {}\nurl: {}\npath: {}\ntags: [{}]\ncategories: [{}]\n\
         aliases: [{}]\nredirect_from: [{}]\n---\n\nText.\n",
        quote(&input.slug),
        quote(&input.permalink),
        quote(&input.url),
        quote(&input.url),
        list(&input.tags),
        list(&input.categories),
        list(&input.aliases),
        list(&input.aliases),
    );
    let name: String = input.file.chars().filter(|c| *c != '/' && *c != '\0').take(100).collect();
    let folder = match kind {
        hanji::Kind::Jekyll => "_posts/2024-05-01-",
        hanji::Kind::Hugo | hanji::Kind::Zola => "content/posts/",
        hanji::Kind::NextStarter => "data/blog/",
        hanji::Kind::Hanji => "posts/",
    };
    let path = format!("{folder}{name}.md");
    let rules = hanji::Rules::of(&config, jiff::Timestamp::UNIX_EPOCH, true);
    let library = hanji::Library::new(rules.clone());
    let parsed = library.parse(Path::new(&path), &text);
    let library = hanji::Library::from_parsed(rules, [parsed]);
    let assets = Default::default();
    let theme = hanji::Theme::new(&Default::default()).0;
    let site = hanji::Site::new(&config, &library, &assets, &theme, hanji::SiteOptions::default());
    let placed = site.files();
    for (_, _, file) in &placed.pages {
        assert!(stays_inside(file.as_str()), "placed outside: {file:?}");
        assert_ne!(file.as_str(), ".hanji-export");
    }
});
