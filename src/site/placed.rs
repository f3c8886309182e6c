//! Which file each page of the site is written to: the one door every
//! address passes before it names a file. An address from any rule (a
//! permalink, a slug, a tag's name, an alias, a setting) that is not a plain
//! path inside the site (`..`, `.`, an empty name, a name Windows keeps) is
//! refused here as an error at the post's file and line, and the page is not
//! written; two pages at one file are named too. The rest of the site is
//! placed as usual.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::{Page, Site, url};
use crate::content::Post;
use crate::diagnostics::Diagnostic;
use crate::fs::{SitePath, Unsafe};

/// The pages of a site with the site path and file of each, and the posts
/// left out because their address cannot be a file of the site, or another
/// page has their file.
#[derive(Debug, Default)]
pub struct Placed {
    pub pages: Vec<(Page, String, SitePath)>,
    pub problems: Vec<Diagnostic>,
    /// Posts not written, each named in `problems` with an error.
    pub left_out: Vec<PathBuf>,
}

impl<'a> Site<'a> {
    /// Every page with the file it is written to, less the pages whose
    /// address cannot be a file in the site, and the posts whose file another
    /// page has too (a `permalink` without `:slug`, a post at `tags/`): none
    /// of them is written, and each is named, rather than one silently over
    /// the other. A page (an About page) where the theme has one of its own
    /// (a Jekyll blog's `tags.md` at `tags/`) gives way to it.
    pub fn files(&self) -> Placed {
        let mut placed = Placed::default();
        let mut pages: Vec<(Page, String, SitePath)> = Vec::with_capacity(self.paths().len());
        let mut refused = BTreeSet::new();
        for (page, path) in self.paths() {
            match SitePath::new(&url::file_of(path)) {
                Ok(file) => pages.push((page.clone(), path.clone(), file)),
                Err(why) => {
                    placed.problems.extend(self.unsafe_address(page, path, &why));
                    if let Page::Post(post) = page {
                        refused.insert(post.clone());
                    }
                }
            }
        }
        let mut at: BTreeMap<&str, Vec<&Page>> = BTreeMap::new();
        for (page, _, file) in &pages {
            at.entry(file.as_str()).or_default().push(page);
        }
        let mut left_out = BTreeSet::new();
        for (file, all) in at.iter().filter(|(_, pages)| pages.len() > 1) {
            // An old address (an alias) gives way to any page that is there now.
            let (aliases, clashing): (Vec<&Page>, Vec<&Page>) =
                all.iter().copied().partition(|page| matches!(page, Page::Alias(..)));
            let kept_alias = clashing.is_empty().then(|| aliases.first().copied()).flatten();
            for alias in aliases.iter().filter(|alias| Some(**alias) != kept_alias) {
                let Page::Alias(path, _) = alias else { continue };
                left_out.insert((*alias).clone());
                let message = format!(
                    "the old address `{file}` of this post is taken by another page; no redirect is written there"
                );
                let hint = "remove the alias, or move the other page";
                placed.problems.push(Diagnostic::warning(path, 1, 1, message).with_hint(hint));
            }
            if clashing.len() < 2 {
                continue;
            }
            let theme_page = clashing.iter().any(|page| !matches!(page, Page::Post(_)));
            for page in &clashing {
                let Page::Post(path) = page else { continue };
                left_out.insert((*page).clone());
                if theme_page && self.library.post(path).is_some_and(|post| post.page) {
                    let message = format!("`{file}` is where the theme writes its own page; this page is not written");
                    let hint = "Hanji makes this page itself: give your page another permalink to keep it";
                    placed.problems.push(Diagnostic::warning(path, 1, 1, message).with_hint(hint));
                    continue;
                }
                let others = clashing.len() - 1;
                let message = format!(
                    "`{file}` is the address of this post and {others} other page(s); none of the posts is written"
                );
                let hint = "give the posts addresses of their own: other slugs, or a permalink with :slug";
                placed.problems.push(Diagnostic::error(path, 1, 1, message).with_hint(hint));
                placed.left_out.push(path.clone());
            }
        }
        placed.left_out.extend(refused);
        placed.pages = pages.into_iter().filter(|(page, _, _)| !left_out.contains(page)).collect();
        placed
    }

    /// The files of the blog copied into the site as they are (its static
    /// folders, and the files beside the posts `placed` shows), each with its
    /// file in the site; a file whose name cannot be one in the site is
    /// named and left out.
    pub fn copies(&self, placed: &Placed) -> (Vec<(PathBuf, SitePath)>, Vec<Diagnostic>) {
        let shown: BTreeSet<&Path> = placed
            .pages
            .iter()
            .filter_map(|(page, _, _)| if let Page::Post(path) = page { Some(path.as_path()) } else { None })
            .collect();
        // Files in the folder of a draft's bundle stay private with it.
        let private: Vec<&Path> = self
            .library
            .posts()
            .filter(|post| post.bundle && !shown.contains(post.path.as_path()))
            .map(|post| post.folder())
            .collect();
        let addresses = self.addresses();
        let mut problems = Vec::new();
        let copies = self
            .assets
            .iter()
            .filter(|asset| !private.iter().any(|folder| asset.starts_with(folder)))
            .filter_map(|asset| {
                let site_path = addresses.asset(asset)?;
                match SitePath::new(&site_path) {
                    Ok(file) => Some((asset.clone(), file)),
                    Err(why) => {
                        let message = format!("this file cannot be copied to `{site_path}` in the site: {why}");
                        let hint = "rename the file (or its folder); it is left out of the site until then";
                        problems.push(Diagnostic::warning(asset, 1, 1, message).with_hint(hint));
                        None
                    }
                }
            })
            .collect();
        (copies, problems)
    }

    /// The problems of a page whose address `path` cannot be a file: at the
    /// front matter key of each post that made it, or at the settings.
    fn unsafe_address(&self, page: &Page, path: &str, why: &Unsafe) -> Vec<Diagnostic> {
        let message = format!("the address `{path}` cannot be a page of the site: {why}");
        let part = offending_part(why);
        let at_key = |post: &Post, keys: &[&str], what: &str| {
            let key = keys.iter().copied().find(|key| part.is_some_and(|part| holds(post, key, part)));
            let key = key.or_else(|| keys.iter().copied().find(|key| post.extra.contains_key(*key) || *key == "tags"));
            let (line, column) = key.map_or((1, 1), |key| post.key_line(key));
            let hint = match key {
                Some(key) => format!(
                    "change `{key}` so that no part of the address is empty, `.`, `..` or a reserved name; \
                     {what} is not written until then"
                ),
                None => {
                    format!("rename the file so that its address is a plain path; {what} is not written until then")
                }
            };
            Diagnostic::error(&post.path, line, column, message.clone()).with_hint(hint)
        };
        let posts_with = |terms: fn(&Post) -> Vec<&str>, slug: &str| {
            let named = |term: &&str| self.library.tag_slug(term) == slug;
            self.library.posts().filter(move |post| terms(post).iter().any(named)).collect::<Vec<&Post>>()
        };
        match page {
            Page::Post(file) => {
                let Some(post) = self.library.post(file) else { return Vec::new() };
                let keys = ["permalink", "url", "path", "slug", "categories", "category", "title", "date"];
                vec![at_key(post, &keys, "this post")]
            }
            Page::Alias(file, _) => {
                let Some(post) = self.library.post(file) else { return Vec::new() };
                vec![at_key(post, &["aliases", "redirect_from"], "this old address")]
            }
            Page::Tag(slug, _) | Page::TagFeed(slug) => {
                posts_with(tags_of, slug).into_iter().map(|post| at_key(post, &["tags"], "the tag's page")).collect()
            }
            Page::Category(slug, _) => {
                let keys = ["categories", "category"];
                posts_with(categories_of, slug)
                    .into_iter()
                    .map(|post| at_key(post, &keys, "the category's page"))
                    .collect()
            }
            Page::Series(slug) => posts_with(series_of, slug)
                .into_iter()
                .map(|post| at_key(post, &["series"], "the series' page"))
                .collect(),
            _ => {
                // A page whose address comes from the settings (a feed's name).
                let file = self.config.layout.settings_file.clone().unwrap_or_else(|| "hanji.toml".into());
                let hint = "change the setting that names this page's file; it is not written until then";
                vec![Diagnostic::error(file, 1, 1, message).with_hint(hint)]
            }
        }
    }
}

fn tags_of(post: &Post) -> Vec<&str> {
    post.tags.iter().map(String::as_str).collect()
}

fn categories_of(post: &Post) -> Vec<&str> {
    post.categories.iter().map(String::as_str).collect()
}

fn series_of(post: &Post) -> Vec<&str> {
    post.series().into_iter().collect()
}

/// The part of an address that made it unsafe, to find where it was written.
fn offending_part(why: &Unsafe) -> Option<&str> {
    match why {
        Unsafe::Climbs(name) | Unsafe::Reserved(name) | Unsafe::Hanji(name) => Some(name),
        Unsafe::Backslash => Some("\\"),
        Unsafe::Empty | Unsafe::Absolute | Unsafe::EmptyName | Unsafe::Control | Unsafe::TooLong(_) => None,
    }
}

/// Whether the post's `key` holds `part` (in its text, or one of its list's).
fn holds(post: &Post, key: &str, part: &str) -> bool {
    let has = |text: &str| text.contains(part) || crate::slug::slug(text).contains(part);
    match key {
        "slug" => post.slug.contains(part),
        "title" => has(&post.title),
        "tags" => post.tags.iter().any(|tag| has(tag)),
        "categories" => post.categories.iter().any(|category| has(category)),
        key => match post.extra.get(key) {
            Some(serde_json::Value::String(text)) => has(text),
            Some(serde_json::Value::Array(items)) => items.iter().filter_map(|v| v.as_str()).any(has),
            _ => false,
        },
    }
}
