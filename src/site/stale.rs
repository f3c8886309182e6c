//! The pages of the site that a change to the blog made stale, as pages and
//! files (never addresses to parse again). Whole groups are named rather than
//! listed, so that a change costs the same in a blog of any size.

use std::collections::BTreeSet;
use std::path::PathBuf;

use serde::Serialize;

use super::Site;
use super::routes::{Page, Target};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StalePages {
    /// Every page and file: the settings or the theme changed, or the folder
    /// was read again.
    pub all: bool,
    /// Every list page: the home pages, `tags/` and every page of every tag.
    /// Each shows every tag's count in its sidebar, so any change to a count
    /// makes all of them stale.
    pub lists: bool,
    /// The home pages (a post's place or summary changed).
    pub home: bool,
    /// Tags (by slug) all of whose pages and feed are stale.
    pub tags: BTreeSet<String>,
    /// Series (by slug) whose page is stale, and with it the page of every
    /// series.
    pub series: BTreeSet<String>,
    /// Files whose page or copy is stale: posts (and the pages of posts with
    /// errors), their neighbours, assets.
    pub files: BTreeSet<PathBuf>,
    /// Other single pages: the feed, the sitemap.
    pub pages: BTreeSet<Page>,
}

impl StalePages {
    pub fn is_empty(&self) -> bool {
        !self.all
            && !self.lists
            && !self.home
            && self.tags.is_empty()
            && self.series.is_empty()
            && self.files.is_empty()
            && self.pages.is_empty()
    }

    /// Whether what is at an address is stale.
    pub fn contains(&self, target: &Target) -> bool {
        if self.all {
            return true;
        }
        match target {
            Target::Asset(file) | Target::Broken(file) | Target::Page(Page::Post(file)) => self.files.contains(file),
            Target::Page(page) => self.contains_page(page),
        }
    }

    fn contains_page(&self, page: &Page) -> bool {
        match page {
            Page::Home(_) => self.home || self.lists,
            Page::Tags => self.lists,
            // A category's page shows its posts as lists do.
            Page::Categories | Page::Category(..) => self.lists || self.home,
            Page::Tag(slug, _) => self.lists || self.tags.contains(slug),
            Page::TagFeed(slug) => self.tags.contains(slug),
            Page::Series(slug) => self.series.contains(slug),
            Page::AllSeries => !self.series.is_empty(),
            Page::Post(file) | Page::Alias(file, _) => self.files.contains(file),
            page => self.pages.contains(page),
        }
    }

    /// The stale pages of `site`, one by one (for writing them again).
    pub fn pages(&self, site: &Site) -> Vec<Page> {
        site.pages().into_iter().filter(|page| self.all || self.contains_page(page)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(page: Page) -> Target {
        Target::Page(page)
    }

    #[test]
    fn stale_groups_name_their_pages() {
        let stale = StalePages {
            home: true,
            tags: ["nccl".to_string()].into(),
            files: ["posts/a.md".into()].into(),
            ..StalePages::default()
        };
        let nccl = || "nccl".to_string();
        for target in [
            page(Page::Home(1)),
            page(Page::Home(2)),
            page(Page::Tag(nccl(), 1)),
            page(Page::Tag(nccl(), 3)),
            page(Page::TagFeed(nccl())),
            page(Page::Post("posts/a.md".into())),
        ] {
            assert!(stale.contains(&target), "{target:?}");
        }
        for target in [
            page(Page::Tags),
            page(Page::Tag("rust".into(), 1)),
            page(Page::Post("posts/b.md".into())),
            page(Page::Feed),
            Target::Asset("posts/a/x.png".into()),
        ] {
            assert!(!stale.contains(&target), "{target:?}");
        }
        let lists = StalePages { lists: true, ..StalePages::default() };
        for target in [page(Page::Home(1)), page(Page::Home(9)), page(Page::Tags), page(Page::Tag("rust".into(), 2))] {
            assert!(lists.contains(&target), "{target:?}");
        }
        for target in [
            page(Page::TagFeed("rust".into())),
            page(Page::Post("posts/a.md".into())),
            page(Page::Feed),
            page(Page::Sitemap),
        ] {
            assert!(!lists.contains(&target), "{target:?}");
        }
        assert!(StalePages { all: true, ..StalePages::default() }.contains(&Target::Asset("anything.png".into())));
        assert!(StalePages::default().is_empty());
    }
}
