//! The blog as it is read: its settings and layout, the library of posts,
//! the other files beside them, the templates and shortcode templates, and
//! the problems found in all of them. The in-memory model; `load` reads it, `watch` keeps it current.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::clock::Clock;
use crate::config::Config;
use crate::content::Library;
use crate::diagnostics::Diagnostic;
use crate::digest::{self, Digest};
use crate::markdown::Shortcodes;
use crate::tool::Layout;

/// When a blog is read: the clock its scheduled posts are judged by, and
/// whether they are published now (`--future`). Kept with the blog, so a
/// blog read again (after its settings change) is read the same way.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Schedule {
    pub clock: Clock,
    pub future: bool,
}

/// A blog folder, read.
#[derive(Debug, Clone)]
pub struct Blog {
    pub root: PathBuf,
    pub config: Config,
    pub library: Library,
    /// Files beside the posts and under `static/` (images and the like),
    /// relative to the blog folder.
    pub assets: BTreeSet<PathBuf>,
    /// Files of `templates/` by name, put over the built-in theme's.
    pub templates: BTreeMap<String, String>,
    /// The shortcode templates of the blog's tool (Hugo's, Zola's, Jekyll's
    /// includes), its own and its theme's.
    pub shortcodes: Shortcodes,
    /// Problems with `hanji.toml`, the templates and the folder itself.
    pub problems: Vec<Diagnostic>,
    /// When it was read.
    pub schedule: Schedule,
}

impl Blog {
    /// How the folder is laid out: a Hanji blog, or one made with Hugo, Zola,
    /// Jekyll or the Next.js starter, opened as it is.
    pub fn layout(&self) -> &Layout {
        &self.config.layout
    }

    /// The digest of all that is known of each post but its text
    /// (`Post::facts_digest`), in the library's order.
    pub fn facts(&self) -> Vec<Digest> {
        use rayon::prelude::*;
        let posts: Vec<&crate::content::Post> = self.library.posts().collect();
        posts.par_iter().map(|post| post.facts_digest()).collect()
    }

    /// The digest of the blog as read, given its posts' `facts`: its folder,
    /// settings, templates and shortcodes, every post (all that is known of
    /// it, and its text), the names of the files beside the posts, every
    /// problem, and when it was read. Equal digests, equal sites (with the
    /// files beside the posts as they were).
    pub fn digest(&self, facts: &[Digest]) -> Digest {
        let texts: Vec<Digest> = self.library.posts().map(|post| post.text_digest()).collect();
        let config = format!("{:?} {:?}", self.config, self.schedule);
        let settings = (&self.root, config, &self.assets, &self.templates, &self.shortcodes);
        digest::of(&(settings, facts, texts, self.diagnostics()))
    }

    /// Every problem known without rendering, sorted by file and line.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut all = self.library.diagnostics();
        all.extend(self.problems.iter().cloned());
        all.sort();
        all
    }
}
