//! Hanji's own blog: posts in `posts/` (a file, or a bundle folder with its
//! images), pages in `pages/`, static files in `static/`, settings in
//! `hanji.toml`; a post is at `posts/<slug>/` unless the blog's `permalink`
//! pattern (Jekyll's styles and names, `:title` and `:slug` both the post's slug) says otherwise.

use std::path::{Path, PathBuf};

use super::address::{folder_of, slugged_folders};
use super::{Addressing, Kind, Layout, PAGES_DIR, PostFacts, Tool};

pub(super) struct Hanji;

impl Tool for Hanji {
    fn kind(&self) -> Kind {
        Kind::Hanji
    }

    fn posts_dir(&self) -> PathBuf {
        "posts".into()
    }

    fn layout(&self) -> Layout {
        Layout { pages_dirs: vec![PAGES_DIR.into()], ..Layout::base(Kind::Hanji) }
    }

    fn output_dir(&self) -> &'static str {
        "public"
    }

    fn is_page(&self, layout: &Layout, path: &Path) -> bool {
        layout.in_pages_dir(path)
    }

    /// Every post of a slug is at `posts/<slug>/`, unless a permalink
    /// pattern places them; a page shares its folder's addresses only.
    fn slug_shares_address(&self, permalink: bool, pages: (bool, bool), same_folder: bool) -> bool {
        match pages {
            (false, false) => !permalink,
            (true, true) => same_folder,
            _ => false,
        }
    }

    fn address(&self, at: &Addressing, post: &PostFacts) -> String {
        if post.page {
            return page_address(post);
        }
        at.permalink
            .and_then(|pattern| super::jekyll::permalink_named(pattern, post, post.slug.into(), post.slug.into()))
            .unwrap_or_else(|| format!("posts/{}/", post.slug))
    }
}

/// A page's path under `pages/` and its slug: `pages/about.md` → `about/`,
/// `pages/docs/intro/index.md` → `docs/intro/`.
fn page_address(post: &PostFacts) -> String {
    let folder = folder_of(post.path);
    let within = folder.strip_prefix(PAGES_DIR).unwrap_or(folder);
    format!("{}{}/", slugged_folders(within), post.slug)
}
