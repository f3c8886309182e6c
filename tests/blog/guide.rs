//! The user's guide in `docs/` is a Hanji blog: it opens with no problem,
//! exports, and every link of every page it exports leads to a page of the
//! site (and to an element of it, for a `#fragment`). `make html` checks its
//! pages with the Nu HTML Checker besides.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::{BlogTest, export, files, read};

fn guide() -> BlogTest {
    BlogTest::copy_of(&Path::new(env!("CARGO_MANIFEST_DIR")).join("docs"))
}

#[test]
fn the_guide_is_a_hanji_blog_with_no_problem() {
    let guide = guide();
    let run = guide.hanji(&["check"]);
    assert_eq!(run.code(), 0, "{}{}", run.stdout(), run.stderr());
    assert_eq!(run.stdout(), "", "no problem");
    assert!(run.stderr().trim_end().ends_with("posts, 0 errors, 0 warnings"), "{}", run.stderr());
    let blog = guide.load();
    assert!(blog.library.len() >= 10, "the guide's chapters: {}", blog.library.len());
}

/// The values of `attribute="…"` in the tags of an HTML page, as written
/// (not in text, where a `<` is written `&lt;`).
fn attribute_values<'a>(html: &'a str, attribute: &str) -> Vec<&'a str> {
    let needle = format!(" {attribute}=\"");
    html.split('<')
        .skip(1)
        .filter_map(|tag| tag.split_once('>').map(|(inside, _)| inside))
        .filter_map(|inside| {
            let at = inside.find(&needle)?;
            let rest = &inside[at + needle.len()..];
            rest.find('"').map(|end| &rest[..end])
        })
        .collect()
}

#[test]
fn every_link_of_the_exported_guide_leads_somewhere() {
    let guide = guide();
    let out = tempfile::tempdir().unwrap();
    let run = export(&guide, out.path(), &[]);
    assert_eq!(run.code(), 0, "{}", run.stderr());
    let site = out.path();
    let pages: Vec<String> = files(site).into_iter().filter(|f| f.ends_with(".html")).collect();
    assert!(pages.len() > 20, "the guide's pages: {pages:?}");
    let ids = |page: &Path| -> BTreeSet<String> {
        attribute_values(&read(page), "id").into_iter().map(str::to_string).collect()
    };
    let mut broken = Vec::new();
    for page in &pages {
        let path = site.join(page);
        let html = read(&path);
        for link in attribute_values(&html, "href").into_iter().chain(attribute_values(&html, "src")) {
            let link = link.replace("&amp;", "&");
            if link.contains("://") || link.starts_with("mailto:") || link.starts_with("data:") {
                continue;
            }
            let (file, fragment) = link.split_once('#').unwrap_or((&link, ""));
            let file = file.split('?').next().unwrap_or_default();
            let target: PathBuf = match file.strip_prefix('/') {
                _ if file.is_empty() => path.clone(),
                // The 404 page's links lead from the site's top (its base_url is `/`).
                Some(from_top) => site.join(from_top),
                None => path.parent().unwrap().join(file),
            };
            let target = if file.ends_with('/') { target.join("index.html") } else { target };
            let target = normalize(&target);
            if !target.starts_with(site) || !target.is_file() {
                broken.push(format!("{page}: {link} (no file {})", target.display()));
            } else if !fragment.is_empty() && target.extension().is_some_and(|e| e == "html") {
                let fragment = hanji::percent_decode(fragment);
                if !ids(&target).contains(&fragment) {
                    broken.push(format!("{page}: {link} (no element #{fragment})"));
                }
            }
        }
    }
    assert!(broken.is_empty(), "links that lead nowhere:\n{}", broken.join("\n"));
}

/// `a/b/../c` as `a/c`, without asking the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}
