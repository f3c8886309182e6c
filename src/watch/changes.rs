//! What one batch of changed paths does to a blog: the library, assets,
//! templates and settings brought in line with the disk, and one change set
//! that says what changed and which pages of the site are now stale.
//!
//! Paths are taken as hints, not as a story: whatever the events said
//! (created, renamed, removed, in which order), each path is looked at as it
//! is on disk now, so the blog always ends as a fresh `load` would make it.
//! Files are read through `load` and `fs`.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use super::classify::{FileKind, classify};
use crate::blog::Blog;
use crate::config::{self, Config};
use crate::content::post::Parsed;
use crate::content::{Library, Post, TagCount};
use crate::detect;
use crate::diagnostics::Diagnostic;
use crate::digest::Digest;
use crate::fs::{self, OwnWrites};
use crate::load::{self, LoadError};
use crate::site::Page;
use crate::site::routes::bundle_of;
use crate::site::stale::StalePages;

/// Paths that changed on disk, relative to the blog folder: one debounced batch.
#[derive(Debug, Clone, Default)]
pub struct Batch {
    pub paths: BTreeSet<PathBuf>,
    /// Events were lost (the system's queue overflowed): read everything again.
    pub rescan: bool,
}

/// What one batch changed. Paths are relative to the blog folder and sorted.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ChangeSet {
    /// Post files that appeared (an unreadable one too: it has problems).
    pub added: Vec<FileChange>,
    /// Post files whose text changed.
    pub changed: Vec<FileChange>,
    pub removed: Vec<FileChange>,
    /// Post files that moved with their text unchanged, also across folders.
    pub renamed: Vec<Rename>,
    /// Files under `static/` or beside the posts that appeared, changed or went.
    pub assets: Vec<PathBuf>,
    /// Tags whose name or counts changed; a tag that appeared has no
    /// `before`, one that vanished no `after`.
    pub tags: Vec<TagChange>,
    pub diagnostics_added: Vec<Diagnostic>,
    pub diagnostics_cleared: Vec<Diagnostic>,
    /// `hanji.toml` changed what the site is: everything was read again.
    pub config: bool,
    /// A file of `templates/` changed: the theme must be built again.
    pub templates: bool,
    /// A shortcode template changed: every post is rendered again.
    pub shortcodes: bool,
    /// The whole folder was read again (settings changed, events were lost,
    /// the folder came back).
    pub rescanned: bool,
    pub stale: StalePages,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileChange {
    pub path: PathBuf,
    /// False when Hanji itself wrote the file so, or removed it (`OwnWrites`).
    pub external: bool,
    /// A post's text before another program changed it (for the history of
    /// saved versions); None for Hanji's own writes and for a file that was
    /// not a readable post before.
    #[serde(skip)]
    pub replaced: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rename {
    pub from: PathBuf,
    pub to: PathBuf,
    /// False when Hanji itself moved the post.
    pub external: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TagChange {
    pub slug: String,
    pub before: Option<TagCount>,
    pub after: Option<TagCount>,
}

impl ChangeSet {
    /// Nothing the blog is made of changed (a file was touched, an ignored
    /// file changed, a file was written with the text it had).
    pub fn is_empty(&self) -> bool {
        self.added.is_empty()
            && self.changed.is_empty()
            && self.removed.is_empty()
            && self.renamed.is_empty()
            && self.assets.is_empty()
            && self.tags.is_empty()
            && self.diagnostics_added.is_empty()
            && self.diagnostics_cleared.is_empty()
            && !self.config
            && !self.templates
            && !self.shortcodes
            && self.stale.is_empty()
    }

    /// Whether anything in it was not written by Hanji itself.
    pub fn is_external(&self) -> bool {
        let external = |changes: &[FileChange]| changes.iter().any(|c| c.external);
        external(&self.added)
            || external(&self.changed)
            || external(&self.removed)
            || self.renamed.iter().any(|r| r.external)
            || !self.assets.is_empty()
            || self.config
            || self.templates
            || self.shortcodes
    }
}

/// Brings `blog` in line with the disk at the paths of `batch`. Reads the
/// whole folder again when the batch asks for it, when the settings changed,
/// or when a folder that holds content (`posts/`, `static/`, `templates/`,
/// the shortcode templates' folders, or the blog folder itself) was itself
/// created, moved or removed. Fails only
/// if the blog folder cannot be read any more.
pub fn apply(blog: &mut Blog, batch: &Batch, own: &OwnWrites) -> Result<ChangeSet, LoadError> {
    if batch.rescan || batch.paths.iter().any(|p| holds_content(&blog.config, p)) {
        return rescan(blog, own);
    }
    let mut config_problems = None;
    if batch.paths.iter().any(|p| classify(&blog.config, p) == FileKind::Config) {
        let mut problems = Vec::new();
        let config = load::read_config(&blog.root, &mut problems);
        if config != blog.config {
            // The settings decide where posts are, how tags are titled, how
            // many posts a page has: everything depends on them.
            return rescan(blog, own);
        }
        config_problems = Some(problems);
    }

    // Every file the batch may have touched: the files now at each path (a
    // folder moved in brings all of its files), and those known there before
    // (a folder deleted takes all of its files).
    let root = blog.root.clone();
    let mut posts = BTreeSet::new();
    let mut assets = BTreeSet::new();
    let mut present = BTreeSet::new();
    let mut templates = false;
    let mut shortcodes = false;
    for path in &batch.paths {
        if classify(&blog.config, path) == FileKind::Ignored {
            continue;
        }
        let now = fs::files_at(&root, path);
        let mut files: BTreeSet<PathBuf> = blog.library.files_under(path);
        files.extend(under(&blog.assets, path));
        files.extend(now.iter().cloned());
        present.extend(now);
        for file in files {
            match classify(&blog.config, &file) {
                FileKind::Post => {
                    posts.insert(file);
                }
                FileKind::Asset => {
                    assets.insert(file);
                }
                FileKind::Template => templates = true,
                FileKind::Shortcode => shortcodes = true,
                FileKind::Config | FileKind::Ignored => {}
            }
        }
        templates |= classify(&blog.config, path) == FileKind::Template;
        shortcodes |= classify(&blog.config, path) == FileKind::Shortcode;
    }

    // Read first, then change the library: what the batch does to tags and
    // slugs must be known before, to take the picture of how things were.
    let read: Vec<(PathBuf, Option<Parsed>)> = posts
        .par_iter()
        .map(|path| (path.clone(), present.contains(path).then(|| super::TEXTS.held(load::read_post(&root, path)))))
        .collect();
    let mut slugs = BTreeSet::new();
    let mut tags = BTreeSet::new();
    for (path, parsed) in &read {
        let new = parsed.as_ref().and_then(|p| p.post.as_ref());
        for post in blog.library.post(path).into_iter().chain(new) {
            slugs.insert(post.slug.clone());
            tags.extend(blog.library.tag_slugs_of(post));
        }
    }
    let before = Snapshot::take(&blog.library, &posts, &slugs, &tags);

    let mut old_posts = BTreeMap::new();
    for (path, parsed) in read {
        if let Some(post) = blog.library.remove(&path) {
            old_posts.insert(path, post);
        }
        if let Some(parsed) = parsed {
            blog.library.insert(parsed);
        }
    }
    let mut changed_assets = Vec::new();
    for asset in assets {
        let changed = if present.contains(&asset) {
            blog.assets.insert(asset.clone());
            true
        } else {
            blog.assets.remove(&asset)
        };
        if changed {
            changed_assets.push(asset);
        }
    }
    let problems_before: BTreeSet<Diagnostic> = blog.problems.iter().cloned().collect();
    if templates {
        let mut problems = Vec::new();
        let read = load::read_templates(&root, &blog.config, &mut problems);
        templates = read != blog.templates;
        blog.templates = read;
        let folder = blog.config.layout.templates_dir.clone();
        replace_problems(blog, |p| p.starts_with(&folder), problems);
    }
    if shortcodes {
        let mut problems = Vec::new();
        let read = load::read_shortcodes(&root, &blog.config, &mut problems);
        shortcodes = read != blog.shortcodes;
        blog.shortcodes = read;
        let folders = blog.config.layout.shortcode_dirs.clone();
        replace_problems(blog, |p| folders.iter().any(|folder| p.starts_with(folder)), problems);
    }
    if let Some(problems) = config_problems {
        replace_problems(blog, |p| p == Path::new(config::FILE_NAME) || detect::is_settings_file(p), problems);
    }

    let after = Snapshot::take(&blog.library, &posts, &slugs, &tags);
    let mut set = diff(&Change {
        files: &posts,
        before: &before,
        after: &after,
        old: &|path| old_posts.get(path),
        library: &blog.library,
        own,
        root: &root,
    });
    for asset in &changed_assets {
        stale_asset(&mut set.stale, &blog.config, &blog.library, asset);
    }
    set.assets = changed_assets;
    set.templates = templates;
    set.shortcodes = shortcodes;
    set.stale.all |= templates || shortcodes;
    problems_diff(&mut set, &problems_before, &blog.problems);
    Ok(set)
}

/// Reads the whole folder again and says what changed since `blog` was read.
pub fn rescan(blog: &mut Blog, own: &OwnWrites) -> Result<ChangeSet, LoadError> {
    let options = load::LoadOptions { texts: super::TEXTS, schedule: blog.schedule, ..load::LoadOptions::default() };
    let fresh = load::load_with(&blog.root, &options)?;
    let all = Path::new("");
    let mut files = blog.library.files_under(all);
    files.extend(fresh.library.files_under(all));
    let mut slugs = BTreeSet::new();
    let mut tags = BTreeSet::new();
    for library in [&blog.library, &fresh.library] {
        for post in library.posts() {
            slugs.insert(post.slug.clone());
            tags.extend(library.tag_slugs_of(post));
        }
    }
    let before = Snapshot::take(&blog.library, &files, &slugs, &tags);
    let after = Snapshot::take(&fresh.library, &files, &slugs, &tags);
    let old = std::mem::replace(blog, fresh);
    let mut set = diff(&Change {
        files: &files,
        before: &before,
        after: &after,
        old: &|path| old.library.post(path),
        library: &blog.library,
        own,
        root: &blog.root,
    });
    set.assets = old.assets.symmetric_difference(&blog.assets).cloned().collect();
    for asset in &set.assets {
        stale_asset(&mut set.stale, &blog.config, &blog.library, asset);
    }
    set.config = old.config != blog.config;
    set.templates = old.templates != blog.templates;
    set.shortcodes = old.shortcodes != blog.shortcodes;
    set.rescanned = true;
    problems_diff(&mut set, &old.problems.iter().cloned().collect(), &blog.problems);
    // Whatever changed, a rescan cannot tell which pages it touched when an
    // image changed in place or the settings changed: all of them.
    set.stale.all = !set.is_empty();
    Ok(set)
}

/// A folder whose files are the blog (or the blog folder itself, `""`).
fn holds_content(config: &Config, path: &Path) -> bool {
    let layout = &config.layout;
    let statics = layout.static_dirs.iter().map(|dir| dir.folder.as_path());
    let shortcodes = layout.shortcode_dirs.iter().map(PathBuf::as_path);
    [config.posts_dir.as_path(), layout.templates_dir.as_path()]
        .into_iter()
        .chain(statics)
        .chain(layout.pages_dirs.iter().map(PathBuf::as_path))
        .chain(shortcodes)
        .any(|folder| folder.starts_with(path))
}

/// The paths of `set` at `path` or under it.
fn under<'a>(set: &'a BTreeSet<PathBuf>, path: &'a Path) -> impl Iterator<Item = PathBuf> + 'a {
    set.range(path.to_path_buf()..).take_while(move |p| p.starts_with(path)).cloned()
}

fn replace_problems(blog: &mut Blog, of: impl Fn(&Path) -> bool, new: Vec<Diagnostic>) {
    blog.problems.retain(|p| !of(&p.path));
    blog.problems.extend(new);
    blog.problems.sort();
}

fn problems_diff(set: &mut ChangeSet, before: &BTreeSet<Diagnostic>, after: &[Diagnostic]) {
    let after: BTreeSet<Diagnostic> = after.iter().cloned().collect();
    set.diagnostics_added.extend(after.difference(before).cloned());
    set.diagnostics_cleared.extend(before.difference(&after).cloned());
    set.diagnostics_added.sort();
    set.diagnostics_cleared.sort();
}

/// How the files of a batch, and what depends on them, stood at one moment.
struct Snapshot {
    /// Files with a post or with problems.
    known: BTreeSet<PathBuf>,
    /// Each file's problems, its clashes with other files included.
    problems: BTreeMap<PathBuf, Vec<Diagnostic>>,
    /// Problems of the batch's files and of every file sharing a slug with them.
    diagnostics: BTreeSet<Diagnostic>,
    tags: BTreeMap<String, Option<TagCount>>,
    /// The files of each post's previous and next posts, with drafts shown or not.
    neighbours: BTreeMap<PathBuf, BTreeSet<PathBuf>>,
}

impl Snapshot {
    fn take(library: &Library, files: &BTreeSet<PathBuf>, slugs: &BTreeSet<String>, tags: &BTreeSet<String>) -> Self {
        let mut snapshot = Snapshot {
            known: files.iter().filter(|f| library.contains(f)).cloned().collect(),
            problems: BTreeMap::new(),
            diagnostics: BTreeSet::new(),
            tags: tags.iter().map(|slug| (slug.clone(), library.tag_count(slug))).collect(),
            neighbours: BTreeMap::new(),
        };
        for file in &snapshot.known {
            let problems = library.diagnostics_of(file);
            snapshot.diagnostics.extend(problems.iter().cloned());
            snapshot.problems.insert(file.clone(), problems);
            let published = library.neighbours(file, |p| !p.has_errors && !p.draft);
            let with_drafts = library.neighbours(file, |p| !p.has_errors);
            let pages = [published.0, published.1, with_drafts.0, with_drafts.1].into_iter().flatten();
            snapshot.neighbours.insert(file.clone(), pages.map(|p| p.path.clone()).collect());
        }
        for slug in slugs {
            for path in library.paths_with_slug(slug).filter(|p| !files.contains(*p)) {
                snapshot.diagnostics.extend(library.diagnostics_of(path));
            }
        }
        snapshot
    }
}

/// One batch's files before and after, to compare.
struct Change<'a> {
    files: &'a BTreeSet<PathBuf>,
    before: &'a Snapshot,
    after: &'a Snapshot,
    /// The post each file had before.
    old: &'a dyn Fn(&Path) -> Option<&'a Post>,
    library: &'a Library,
    own: &'a OwnWrites,
    root: &'a Path,
}

fn diff(change: &Change) -> ChangeSet {
    let Change { files, before, after, old, library, own, root, .. } = *change;
    let mut set = ChangeSet::default();
    let mut added = Vec::new();
    let mut removed = Vec::new();
    let external = |path: &Path| {
        let read = || match library.post(path) {
            Some(post) => Some(post.source().into_owned().into_bytes()),
            None => fs::read_file(root, path).ok(),
        };
        FileChange { path: path.to_path_buf(), external: !own.recognise(path, read), replaced: None }
    };
    for file in files {
        let (old_post, new_post) = (old(file), library.post(file));
        match (before.known.contains(file), after.known.contains(file)) {
            (false, true) => added.push(file),
            (true, false) => removed.push(file),
            (true, true) if old_post != new_post || before.problems.get(file) != after.problems.get(file) => {
                let mut change = external(file);
                if change.external {
                    change.replaced = old_post.map(|post| post.source().into_owned());
                }
                set.changed.push(change);
            }
            _ => {}
        }
        stale_post(&mut set.stale, change, file);
    }

    // A post removed at one path and added at another with the same text
    // (the same digest) moved.
    let mut moved_from: HashMap<Digest, Vec<&PathBuf>> = HashMap::new();
    for file in &removed {
        if let Some(post) = old(file) {
            moved_from.entry(post.text_digest()).or_default().push(file);
        }
    }
    let mut renamed_from = BTreeSet::new();
    for file in added {
        let from = library.post(file).and_then(|p| moved_from.get_mut(&p.text_digest())).and_then(Vec::pop);
        match from {
            Some(from) => {
                renamed_from.insert(from);
                let external = external_move(own, from, &external(file));
                set.renamed.push(Rename { from: from.clone(), to: file.clone(), external });
            }
            None => set.added.push(external(file)),
        }
    }
    set.removed = removed
        .into_iter()
        .filter(|f| !renamed_from.contains(f))
        .map(|f| FileChange { path: f.clone(), external: !own.recognise_removal(f), replaced: None })
        .collect();

    for (slug, was) in &before.tags {
        let is = after.tags.get(slug).cloned().flatten();
        if *was != is {
            set.tags.push(TagChange { slug: slug.clone(), before: was.clone(), after: is });
        }
    }
    // Every list page shows every tag's count in its sidebar.
    set.stale.lists |= !set.tags.is_empty();
    set.diagnostics_added = after.diagnostics.difference(&before.diagnostics).cloned().collect();
    set.diagnostics_cleared = before.diagnostics.difference(&after.diagnostics).cloned().collect();
    set
}

/// The pages a change to one post file makes stale: its own page (at its old
/// and new address); if what related posts show of it (or what they are
/// chosen by) changed, the pages of the posts with a tag of it and of the
/// other parts of its series; if what lists show of it changed, the home
/// pages, its old and new tags' pages and series' pages, the feeds, the
/// sitemap, and the pages of its previous and next posts before and after
/// (their links name it).
fn stale_post(stale: &mut StalePages, change: &Change, file: &Path) {
    let (old, new) = ((change.old)(file), change.library.post(file));
    if old == new {
        // No post either way: an unreadable file whose problems changed
        // shows them at the address its name gives it.
        if old.is_none() && change.before.problems.get(file) != change.after.problems.get(file) {
            stale.files.insert(file.to_path_buf());
        }
        return;
    }
    stale.files.insert(file.to_path_buf());
    // A post at the same address (a slug shared, or no longer) changes with it.
    for post in old.iter().chain(new.iter()) {
        stale.files.extend(change.library.paths_with_slug(&post.slug).map(Path::to_path_buf));
    }
    if old.map(Related::of) != new.map(Related::of) {
        // The pages that may list it among their related posts (those with
        // a tag of it), and the other parts of its series.
        let library = change.library;
        for post in old.iter().chain(new.iter()) {
            for slug in library.tag_slugs_of(post) {
                let tag = library.tag(&slug);
                stale.files.extend(tag.into_iter().flat_map(|tag| tag.posts.into_iter().chain(tag.drafts)));
            }
            if let Some(slug) = library.series_slug_of(post) {
                let series = library.series(&slug);
                stale.files.extend(series.into_iter().flat_map(|series| series.posts.into_iter().chain(series.drafts)));
                stale.series.insert(slug);
            }
        }
    }
    if old.map(Listed::of) == new.map(Listed::of) {
        return;
    }
    stale.home = true;
    stale.pages.extend([Page::Feed, Page::Sitemap]);
    for post in old.iter().chain(new.iter()) {
        stale.tags.extend(change.library.tag_slugs_of(post));
        // A series' page lists its parts as lists do.
        stale.series.extend(change.library.series_slug_of(post));
    }
    for snapshot in [change.before, change.after] {
        stale.files.extend(snapshot.neighbours.get(file).into_iter().flatten().cloned());
    }
}

/// What a related post's link and a series' list of parts show of a post,
/// and what decides which posts it is related to.
#[derive(PartialEq)]
struct Related<'a> {
    slug: &'a str,
    title: &'a str,
    date: Option<crate::content::PostDate>,
    tags: &'a [String],
    series: Option<&'a str>,
    draft: bool,
    has_errors: bool,
    page: bool,
}

impl<'a> Related<'a> {
    fn of(post: &'a Post) -> Self {
        Related {
            slug: &post.slug,
            title: &post.title,
            date: post.date,
            tags: &post.tags,
            series: post.series(),
            draft: post.draft,
            has_errors: post.has_errors,
            page: post.page,
        }
    }
}

/// What lists, feeds, the sitemap and neighbours' links show of a post.
#[derive(PartialEq)]
struct Listed<'a> {
    slug: &'a str,
    title: &'a str,
    date: Option<crate::content::PostDate>,
    updated: Option<crate::content::PostDate>,
    tags: &'a [String],
    series: Option<&'a str>,
    summary: Option<&'a str>,
    draft: bool,
    has_errors: bool,
    authors: &'a [String],
}

impl<'a> Listed<'a> {
    fn of(post: &'a Post) -> Self {
        Listed {
            slug: &post.slug,
            title: &post.title,
            date: post.date,
            updated: post.updated,
            tags: &post.tags,
            series: post.series(),
            summary: post.summary.as_deref(),
            draft: post.draft,
            has_errors: post.has_errors,
            authors: &post.authors,
        }
    }
}

/// An asset's own copy, and the page of the bundle it is in.
fn stale_asset(stale: &mut StalePages, config: &Config, library: &Library, asset: &Path) {
    stale.files.insert(asset.to_path_buf());
    stale.files.extend(bundle_of(config, library, asset).map(|post| post.path.clone()));
}

/// Whether a post moved by someone else: Hanji's own move removed `from`
/// (said so before) and wrote `to` (found as its own).
fn external_move(own: &OwnWrites, from: &Path, to: &FileChange) -> bool {
    let removed_by_hanji = own.recognise_removal(from);
    !removed_by_hanji || to.external
}
