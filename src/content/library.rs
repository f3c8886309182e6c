//! The library: every post of a blog by path, and the tag index, kept current
//! one post at a time. Pure: it never touches the disk.

use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use super::front_matter::PostDate;
use super::front_matter::{NO_DATE, NO_TITLE};
use super::post::{Held, Parsed, Post};
use crate::config::{Config, TagTitle};
use crate::diagnostics::Diagnostic;
use crate::slug::TermSlugs;
use crate::tool::Layout;

/// Newest first; posts without a date last; same moment by path.
type Order = (Reverse<Option<PostDate>>, File);

fn order(post: &Post) -> Order {
    (Reverse(post.date), File(post.path.clone()))
}

/// The library's order of posts (`Library::posts`), as `Order` has it:
/// newest first, then by file.
pub fn newest_first(a: &Post, b: &Post) -> std::cmp::Ordering {
    b.date.cmp(&a.date).then_with(|| crate::text::path_order(&a.path, &b.path))
}

/// A post's file as the library keys it: hashed, compared and ordered by its
/// bytes (ordered folder by folder, as `text::path_order` says). The
/// library's paths are as the loader made them (relative, without `.` or a
/// doubled `/`), so equal paths have equal bytes; taking every path apart,
/// as `Path`'s own hashing and ordering do, cost a tenth of an export.
#[derive(Debug, Clone)]
struct File(PathBuf);

impl File {
    fn bytes(path: &Path) -> &[u8] {
        path.as_os_str().as_encoded_bytes()
    }
}

impl PartialEq for File {
    fn eq(&self, other: &Self) -> bool {
        File::bytes(&self.0) == File::bytes(&other.0)
    }
}

impl Eq for File {}

impl std::hash::Hash for File {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        File::bytes(&self.0).hash(state);
    }
}

impl std::borrow::Borrow<[u8]> for File {
    fn borrow(&self) -> &[u8] {
        File::bytes(&self.0)
    }
}

impl Ord for File {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        crate::text::path_order(&self.0, &other.0)
    }
}

impl PartialOrd for File {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

/// What the blog's settings say about its posts, which the library applies
/// to each post it takes in: which files are pages, how tag pages are titled,
/// which posts are held back until their time.
#[derive(Debug, Clone)]
pub struct Rules {
    pub tag_title: TagTitle,
    pub layout: Layout,
    /// Categories are tags too (`categories_are_tags = true`).
    pub categories_are_tags: bool,
    /// The blog sets a `permalink` pattern, which makes its posts' addresses.
    pub permalink: bool,
    /// The moment posts are judged by: a post whose date (or `publishDate`)
    /// comes later is scheduled, one whose `expiryDate` has come expired.
    /// None judges none by time (tests of other things).
    pub now: Option<jiff::Timestamp>,
    /// The blog's time zone, in which a post's date comes.
    pub time_zone: jiff::tz::TimeZone,
    /// Publish scheduled posts now (`--future`).
    pub future: bool,
}

/// The same rules, whatever the moment each was made at: two libraries of
/// one folder read a moment apart are equal if their posts are.
impl PartialEq for Rules {
    fn eq(&self, other: &Self) -> bool {
        let Rules { tag_title, layout, categories_are_tags, permalink, now: _, time_zone, future } = self;
        (tag_title, layout, categories_are_tags, permalink, time_zone, future)
            == (
                &other.tag_title,
                &other.layout,
                &other.categories_are_tags,
                &other.permalink,
                &other.time_zone,
                &other.future,
            )
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            tag_title: TagTitle::default(),
            layout: Layout::default(),
            categories_are_tags: false,
            permalink: false,
            now: None,
            time_zone: jiff::tz::TimeZone::UTC,
            future: false,
        }
    }
}

impl Rules {
    /// The rules of a blog with these settings, judged at `now` (see
    /// `clock`), with scheduled posts published if `future`.
    pub fn of(config: &Config, now: jiff::Timestamp, future: bool) -> Self {
        Rules {
            tag_title: config.tag_title,
            layout: config.layout.clone(),
            categories_are_tags: config.categories_are_tags,
            permalink: config.permalink.is_some(),
            now: Some(now),
            time_zone: config.time_zone(),
            future,
        }
    }

    /// When a date of a post comes in the blog's time zone: its day at the
    /// time written (or at midnight). An offset written with it is not
    /// applied, as no date of a post is shifted (see `front_matter::date`).
    pub fn moment_of(&self, date: PostDate) -> jiff::Timestamp {
        let civil = date.date.to_datetime(date.time.unwrap_or_default()); // midnight when it has no time
        // A time the clocks skip (a daylight saving gap) comes just after it.
        self.time_zone
            .to_timestamp(civil)
            .unwrap_or_else(|_| self.time_zone.to_ambiguous_timestamp(civil).later().unwrap_or(jiff::Timestamp::MAX))
    }

    /// When a date comes, as an author reads it: `2026-12-24 09:00 KST`, in
    /// the blog's time zone.
    pub fn when(&self, date: PostDate) -> String {
        let moment = self.moment_of(date).to_zoned_datetime(self.time_zone.clone());
        moment.strftime("%Y-%m-%d %H:%M %Z").to_string()
    }

    /// Whether the blog's tool holds `post` back, as it does by default (or
    /// as its settings say: Hugo's `buildFuture`, Jekyll's `future`), and
    /// when a scheduled post is published.
    fn held(&self, post: &Post) -> (Option<Held>, Option<PostDate>) {
        if post.extra.get("published").and_then(|v| v.as_bool()) == Some(false) {
            return (Some(Held::Unpublished), None);
        }
        let Some(now) = self.now else { return (None, None) };
        let date_of = |keys: &[&str]| {
            keys.iter()
                .find_map(|key| post.extra.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)))
                .and_then(|(_, value)| value.as_str().and_then(PostDate::parse))
        };
        let publish = date_of(&["publishDate", "pubdate"]).or(post.date);
        if !self.layout.future_posts
            && !self.future
            && let Some(publish) = publish.filter(|date| self.moment_of(*date) > now)
        {
            return (Some(Held::Scheduled), Some(publish));
        }
        let expiry = date_of(&["expiryDate", "unpublishdate"]);
        let expired = expiry.is_some_and(|date| self.moment_of(date) <= now);
        if expired && self.layout.tool().holds_expired(&self.layout) {
            return (Some(Held::Expired), None);
        }
        (None, None)
    }

    /// What was read from a file, as the blog's tool has it: its slug and
    /// date as the tool takes them from the file's name (`Tool::named`), its
    /// post marked a page where the tool says so by its place or its front
    /// matter, which needs no date. Nothing at all for a page the tool does
    /// not publish (`Tool::publishes_page`: a Jekyll top-level file without
    /// front matter, which Jekyll copies as it is).
    fn apply(&self, mut parsed: Parsed) -> Parsed {
        let tool = self.layout.tool();
        let Some(post) = parsed.post.as_mut() else { return parsed };
        (post.held, post.publish_date) = self.held(post);
        post.draft |= post.held.is_some();
        if self.categories_are_tags {
            for category in std::mem::take(&mut post.categories) {
                if !post.tags.iter().any(|tag| tag.to_lowercase() == category.to_lowercase()) {
                    post.tags.push(category);
                }
            }
        }
        let own_slug = post.gives("slug").then_some(post.slug.as_str());
        if let Some((slug, date)) = tool.named(&self.layout, &post.path, own_slug) {
            post.slug = slug;
            post.date = post.date.or(date.map(|date| PostDate { date, time: None }));
        }
        post.page = tool.is_page(&self.layout, &post.path) || tool.is_page_by_front_matter(&self.layout, &post.facts());
        if post.gives("title")
            && let Some(title) = tool.title(&self.layout, &post.title, &post.extra)
        {
            post.title = title;
        }
        if !self.layout.front_matter_defaults.is_empty() {
            apply_defaults(post, &self.layout);
        }
        if !post.page {
            return parsed;
        }
        if !tool.publishes_page(&post.path, post.format.is_some()) {
            return Parsed { post: None, problems: Vec::new(), ..parsed };
        }
        if !post.gives("title")
            && let Some(title) = tool.page_title(&post.path)
        {
            post.title = title.to_string();
            parsed.problems.retain(|problem| problem.message != NO_TITLE);
        }
        parsed.problems.retain(|problem| problem.message != NO_DATE);
        parsed
    }
}

/// Puts the values of the blog's front matter defaults (Jekyll's `defaults`)
/// for this file into the post where its own front matter is silent: its
/// `layout`, and the keys Hanji keeps as they are (`permalink`, `toc`,
/// `comments`, …), which is where Jekyll's themes read them. A default for a
/// key Hanji reads itself (`title`, `date`, `tags`) is not applied. A
/// document of a collection is of its collection's type (Jekyll's
/// `Document#type`, the collection's label: `type: tabs` scopes `_tabs/`).
fn apply_defaults(post: &mut Post, layout: &Layout) {
    let path = post.path.to_string_lossy().replace('\\', "/");
    let collection = layout.collections.iter().find(|c| post.path.starts_with(c.folder()));
    let kind = match collection {
        Some(collection) => collection.name.as_str(),
        None if post.page => "pages",
        None => "posts",
    };
    for (key, value) in crate::defaults::for_file(&layout.front_matter_defaults, &path, kind) {
        if key == "layout" {
            if post.layout.is_none() {
                post.layout = value.as_str().map(str::to_string);
            }
        } else if !super::front_matter::is_read_key(&key) {
            post.extra.entry(key).or_insert(value);
        }
    }
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Library {
    rules: Rules,
    /// The pages' paths (an About page), which no list shows.
    pages: BTreeSet<PathBuf>,
    /// By path; a hash map, as lookups by path are the hot path of loading
    /// and rendering (a tree compares paths component by component).
    posts: HashMap<File, Post>,
    /// Problems found reading each file; files without problems have no entry.
    problems: BTreeMap<PathBuf, Vec<Diagnostic>>,
    newest_first: BTreeSet<Order>,
    tags: Terms,
    /// Categories, a taxonomy of their own (unless `categories_are_tags`).
    categories: Terms,
    /// Series (`series:`), each a post's one.
    series: Terms,
    slugs: BTreeMap<String, BTreeSet<PathBuf>>,
    /// How many slugs more than one post has: while there are none, the
    /// counts need not look for posts that share one.
    shared_slugs: usize,
}

#[derive(Debug, Clone, PartialEq, Default)]
struct TagEntry {
    /// How posts spell the tag, and how many do.
    spellings: BTreeMap<String, usize>,
    published: BTreeSet<Order>,
    drafts: BTreeSet<Order>,
}

/// One tag as the sidebar and the tag pages show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tag {
    pub slug: String,
    /// The most common spelling among the posts.
    pub name: String,
    /// The heading of its page, per `tag_title`.
    pub title: String,
    /// Published posts: not drafts, without errors.
    pub count: usize,
    pub draft_count: usize,
    /// Published posts, newest first.
    pub posts: Vec<PathBuf>,
    /// Drafts, newest first.
    pub drafts: Vec<PathBuf>,
}

impl Library {
    pub fn new(rules: Rules) -> Self {
        Self { rules, ..Self::default() }
    }

    /// A library of these files, as loading a folder makes it: as if each
    /// were inserted in turn, but with the blog's rules applied, and its
    /// lists made, on every core.
    pub fn from_parsed(rules: Rules, files: impl IntoIterator<Item = Parsed>) -> Self {
        let mut library = Self::new(rules);
        let files: Vec<Parsed> = files.into_iter().collect();
        let files: Vec<Parsed> = files.into_par_iter().map(|parsed| library.rules.apply(parsed)).collect();
        let mut once = HashSet::with_capacity(files.len());
        if !files.iter().all(|parsed| once.insert(parsed.path.as_os_str())) {
            // A file given twice: the later one replaces the earlier.
            for parsed in files {
                library.insert_applied(parsed);
            }
            return library;
        }
        let posts: Vec<&Post> = files.iter().filter_map(|parsed| parsed.post.as_ref()).collect();
        library.index(&posts, true);
        // Room for every post at once: a post is large, and moved whenever the map grows.
        library.posts.reserve(posts.len());
        for parsed in files {
            library.keep(parsed);
        }
        library
    }

    /// The rules this library applies to its posts.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Reads the text of the file at `path` as this blog has it (`Post::parse`,
    /// then the blog's rules): how a text not in the library, the author's
    /// unsaved one, is read.
    pub fn parse(&self, path: &Path, text: &str) -> Parsed {
        self.rules.apply(Post::parse(path, text))
    }

    /// Puts what was read from one file in the library, replacing what was there.
    pub fn insert(&mut self, parsed: Parsed) {
        let parsed = self.rules.apply(parsed);
        self.insert_applied(parsed);
    }

    /// `insert`, the blog's rules applied already.
    fn insert_applied(&mut self, parsed: Parsed) {
        self.remove(&parsed.path);
        if let Some(post) = &parsed.post {
            self.index(&[post], false);
        }
        self.keep(parsed);
    }

    /// Keeps a file's post and problems, its post indexed already.
    fn keep(&mut self, parsed: Parsed) {
        if !parsed.problems.is_empty() {
            self.problems.insert(parsed.path.clone(), parsed.problems);
        }
        if let Some(post) = parsed.post {
            self.posts.insert(File(parsed.path), post);
        }
    }

    /// What was read from the file at `path`, as `insert` took it (its post
    /// and its problems; neither if it is not in the library).
    pub fn entry(&self, path: &Path) -> Parsed {
        Parsed {
            path: path.to_path_buf(),
            post: self.post(path).cloned(),
            problems: self.problems.get(path).cloned().unwrap_or_default(),
        }
    }

    /// Forgets the file at `path`; gives back its post if it had one.
    pub fn remove(&mut self, path: &Path) -> Option<Post> {
        self.problems.remove(path);
        let post = self.posts.remove(File::bytes(path))?;
        self.unindex(&post);
        Some(post)
    }

    /// The file moved: its post is read again under the new name (the slug may
    /// follow the file name). False if there was no post at `from` to move; the
    /// caller then reads the file at `to`.
    pub fn rename(&mut self, from: &Path, to: &Path) -> bool {
        match self.remove(from) {
            Some(post) => {
                let mut parsed = Post::parse(to, &post.source());
                if post.is_packed() {
                    parsed.post = parsed.post.map(Post::packed);
                }
                self.insert(parsed);
                true
            }
            None => false,
        }
    }

    /// Puts `posts` (not in the library) in its lists: the order, the
    /// slugs and the pages, then the tags, categories and series; both at
    /// once, on two cores, if `at_once` (a blog read whole: one post put in
    /// by the app waits for no other thread).
    fn index(&mut self, posts: &[&Post], at_once: bool) {
        let Library { newest_first, slugs, shared_slugs, pages, tags, categories, series, rules, .. } = self;
        let mut order_and_slugs = || {
            for post in posts {
                newest_first.insert(order(post));
                let paths = slugs.entry(post.slug.clone()).or_default();
                paths.insert(post.path.clone());
                if paths.len() == 2 {
                    *shared_slugs += 1;
                }
                if post.page {
                    pages.insert(post.path.clone());
                }
            }
        };
        let rule = rules.layout.term_slugs;
        let mut terms = || {
            // A page is in no tag's list.
            for post in posts.iter().filter(|post| !post.page) {
                let key = order(post);
                tags.add(post, &post.tags, &key, rule);
                categories.add(post, &post.categories, &key, rule);
                series.add(post, &series_of(post), &key, rule);
            }
        };
        match at_once {
            true => _ = rayon::join(order_and_slugs, terms),
            false => {
                order_and_slugs();
                terms();
            }
        }
    }

    fn unindex(&mut self, post: &Post) {
        let key = order(post);
        self.newest_first.remove(&key);
        if let Some(paths) = self.slugs.get_mut(&post.slug) {
            if paths.remove(&post.path) && paths.len() == 1 {
                self.shared_slugs -= 1;
            }
            if paths.is_empty() {
                self.slugs.remove(&post.slug);
            }
        }
        if post.page {
            self.pages.remove(&post.path);
            return;
        }
        let rule = self.rules.layout.term_slugs;
        self.tags.remove(&post.tags, &key, rule);
        self.categories.remove(&post.categories, &key, rule);
        self.series.remove(&series_of(post), &key, rule);
    }

    /// The slug of a tag named `name`, by the blog's tool's rule: its page's
    /// address, and what names one tag.
    pub fn tag_slug(&self, name: &str) -> String {
        match self.tags.slugs.get(name).or_else(|| self.categories.slugs.get(name)) {
            Some(slug) => slug.clone(),
            None => self.rules.layout.term_slugs.slug(name),
        }
    }

    /// The slugs of a post's tags, in its order.
    pub fn tag_slugs_of<'p>(&'p self, post: &'p Post) -> impl Iterator<Item = String> + 'p {
        post.tags.iter().map(|tag| self.tag_slug(tag))
    }

    pub fn len(&self) -> usize {
        self.posts.len()
    }

    pub fn is_empty(&self) -> bool {
        self.posts.is_empty()
    }

    pub fn post(&self, path: &Path) -> Option<&Post> {
        self.posts.get(File::bytes(path))
    }

    /// Whether anything was read from the file at `path`: a post, or problems.
    pub fn contains(&self, path: &Path) -> bool {
        self.posts.contains_key(File::bytes(path)) || self.problems.contains_key(path)
    }

    /// Every file read (with a post or only problems) at `path` or under it.
    pub fn files_under(&self, path: &Path) -> BTreeSet<PathBuf> {
        let within = |p: &&PathBuf| p.starts_with(path);
        // A scan of the posts: folders go away rarely, and 10,000 paths take well
        // under a millisecond. Problems order by component, so the files of a
        // folder come right after it.
        let posts = self.posts.keys().map(|file| &file.0).filter(within);
        let problems = self.problems.range(path.to_path_buf()..).map(|(p, _)| p).take_while(within);
        posts.chain(problems).cloned().collect()
    }

    /// The pages (an About page), by path.
    pub fn pages(&self) -> impl Iterator<Item = &Post> + '_ {
        self.pages.iter().filter_map(|path| self.posts.get(File::bytes(path)))
    }

    /// Every post, drafts and posts with errors included, newest first.
    pub fn posts(&self) -> impl DoubleEndedIterator<Item = &Post> + '_ {
        self.newest_first.iter().filter_map(|(_, file)| self.posts.get(file))
    }

    /// The posts a reader sees: no drafts, none with errors, none that shares
    /// its slug with another; newest first.
    pub fn published(&self) -> impl DoubleEndedIterator<Item = &Post> + '_ {
        self.posts().filter(|p| !p.draft && !p.has_errors && !self.shares_slug(&p.path))
    }

    /// Whether the post at `path` has the slug of another post. Both are then
    /// kept out of the site, as posts with errors are: they would be written
    /// to one page, and which one won would depend on chance.
    pub fn shares_slug(&self, path: &Path) -> bool {
        self.shared_slugs > 0 && !self.sharing(path).is_empty()
    }

    /// The other posts whose slug puts them at the address of the post at
    /// `path`: in a Hanji blog every post of its slug (`posts/<slug>/`); in a
    /// Hugo, Zola or Next.js starter blog those of its slug in its folder
    /// (`til/a.md` and `posts/a.md` are at `til/a/` and `posts/a/`). Where
    /// a permalink makes the address (a Jekyll blog, a Hanji blog's
    /// `permalink`) the export finds posts at one address instead.
    fn sharing(&self, path: &Path) -> Vec<&Path> {
        let Some(post) = self.posts.get(File::bytes(path)) else { return Vec::new() };
        let Some(paths) = self.slugs.get(&post.slug).filter(|paths| paths.len() > 1) else { return Vec::new() };
        let folder = |post: &Post| {
            let file = post.file();
            file.bundle_folder().and_then(Path::parent).unwrap_or(file.folder()).to_path_buf()
        };
        let tool = self.rules.layout.tool();
        let same_place = |other: &Post| {
            tool.slug_shares_address(self.rules.permalink, (post.page, other.page), folder(other) == folder(post))
        };
        paths
            .iter()
            .filter(|other| *other != path)
            .filter(|other| self.posts.get(File::bytes(other)).is_some_and(same_place))
            .map(PathBuf::as_path)
            .collect()
    }

    /// The published posts of a tag (those sharing a slug left out).
    fn published_of<'e>(&'e self, entry: &'e TagEntry) -> impl Iterator<Item = &'e PathBuf> + 'e {
        entry.published.iter().map(|(_, file)| &file.0).filter(|path| !self.shares_slug(path))
    }

    /// Files that could not be read as posts at all (bad front matter, not UTF-8, …).
    pub fn unreadable(&self) -> impl Iterator<Item = &Path> + '_ {
        self.problems.keys().filter(|p| !self.posts.contains_key(File::bytes(p))).map(PathBuf::as_path)
    }

    pub fn post_by_slug(&self, slug: &str) -> Option<&Post> {
        self.slugs.get(slug)?.iter().next().and_then(|p| self.posts.get(File::bytes(p)))
    }

    /// Every tag, most used first, ties by name. Without `drafts`, tags only
    /// drafts use are left out and the order counts published posts only.
    pub fn tags(&self, drafts: bool) -> Vec<Tag> {
        self.all_of(&self.tags, drafts)
    }

    /// Every category, as `tags` orders them.
    pub fn categories(&self, drafts: bool) -> Vec<Tag> {
        self.all_of(&self.categories, drafts)
    }

    pub fn tag(&self, slug: &str) -> Option<Tag> {
        self.term(&self.tags, slug)
    }

    /// Whether any shown post has a category (drafts' too, with `drafts`).
    pub fn has_categories(&self, drafts: bool) -> bool {
        self.categories.any_shown(drafts)
    }

    /// Whether any shown post is a part of a series (drafts too, with `drafts`).
    pub fn has_series(&self, drafts: bool) -> bool {
        self.series.any_shown(drafts)
    }

    pub fn category(&self, slug: &str) -> Option<Tag> {
        self.term(&self.categories, slug)
    }

    /// Every series, as `tags` orders them (its posts newest first, as a
    /// tag's are).
    pub fn all_series(&self, drafts: bool) -> Vec<Tag> {
        self.all_of(&self.series, drafts)
    }

    /// A series by its slug (its name made a slug by the tag rule).
    pub fn series(&self, slug: &str) -> Option<Tag> {
        self.term(&self.series, slug)
    }

    /// The slug of the series `post` is a part of.
    pub fn series_slug_of(&self, post: &Post) -> Option<String> {
        post.series().map(|name| self.tag_slug(name))
    }

    fn all_of(&self, terms: &Terms, drafts: bool) -> Vec<Tag> {
        let mut tags: Vec<Tag> = terms
            .by_slug
            .keys()
            .filter_map(|slug| self.term(terms, slug))
            .filter(|t| t.count > 0 || (drafts && t.draft_count > 0))
            .collect();
        let weight = |t: &Tag| if drafts { t.count + t.draft_count } else { t.count };
        // Ties by slug: the name without case, so `Rust` does not sort before `nccl`.
        tags.sort_by(|a, b| weight(b).cmp(&weight(a)).then_with(|| a.slug.cmp(&b.slug)));
        tags
    }

    fn term(&self, terms: &Terms, slug: &str) -> Option<Tag> {
        let entry = terms.by_slug.get(slug)?;
        let name = entry.name()?;
        let paths = |set: &BTreeSet<Order>| set.iter().map(|(_, file)| file.0.clone()).collect::<Vec<_>>();
        Some(Tag {
            slug: slug.to_string(),
            title: self.rules.tag_title.apply(&name),
            name,
            count: self.published_of(entry).count(),
            draft_count: entry.drafts.len(),
            posts: self.published_of(entry).cloned().collect(),
            drafts: paths(&entry.drafts),
        })
    }

    /// A tag's name and counts, without its lists of posts (cheap to ask).
    pub fn tag_count(&self, slug: &str) -> Option<TagCount> {
        let entry = self.tags.by_slug.get(slug)?;
        let count = if self.shared_slugs == 0 { entry.published.len() } else { self.published_of(entry).count() };
        Some(TagCount { name: entry.name()?, count, draft_count: entry.drafts.len() })
    }

    /// A category's name and counts, as `tag_count`.
    pub fn category_count(&self, slug: &str) -> Option<TagCount> {
        let entry = self.categories.by_slug.get(slug)?;
        Some(TagCount { name: entry.name()?, count: self.published_of(entry).count(), draft_count: entry.drafts.len() })
    }

    /// The files whose post has `slug` (more than one is a problem).
    pub fn paths_with_slug(&self, slug: &str) -> impl Iterator<Item = &Path> + '_ {
        self.slugs.get(slug).into_iter().flatten().map(PathBuf::as_path)
    }

    /// The posts just newer and just older than the post at `path` among the
    /// posts `shown` lets through: its previous and next links.
    pub fn neighbours(&self, path: &Path, shown: impl Fn(&Post) -> bool) -> (Option<&Post>, Option<&Post>) {
        let Some(post) = self.posts.get(File::bytes(path)) else { return (None, None) };
        let key = order(post);
        let posts = |keys: &mut dyn Iterator<Item = &Order>| {
            keys.filter_map(|(_, file)| self.posts.get(file)).find(|p| shown(p))
        };
        let newer = posts(&mut self.newest_first.range(..key.clone()).rev());
        let older = posts(&mut self.newest_first.range(key..).skip(1));
        (newer, older)
    }

    /// Every problem: each file's own, and those between files (two posts with
    /// one slug). Sorted by file, then line.
    pub fn diagnostics(&self) -> Vec<Diagnostic> {
        let mut all: Vec<Diagnostic> = self.problems.values().flatten().cloned().collect();
        for (slug, paths) in self.slugs.iter().filter(|(_, paths)| paths.len() > 1) {
            for path in paths {
                let others = self.sharing(path);
                if !others.is_empty() {
                    all.push(slug_clash(slug, &others, path));
                }
            }
        }
        all.sort();
        all
    }

    /// The problems of one file: its own, and a slug it shares with others.
    pub fn diagnostics_of(&self, path: &Path) -> Vec<Diagnostic> {
        let mut all = self.problems.get(path).cloned().unwrap_or_default();
        let others = self.sharing(path);
        if let Some(post) = self.posts.get(File::bytes(path))
            && !others.is_empty()
        {
            all.push(slug_clash(&post.slug, &others, path));
        }
        all.sort();
        all
    }
}

/// A tag's name and how many posts have it, as the sidebar counts them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TagCount {
    pub name: String,
    pub count: usize,
    pub draft_count: usize,
}

/// The posts of each tag (or category), by slug.
#[derive(Debug, Clone, Default)]
struct Terms {
    by_slug: BTreeMap<String, TagEntry>,
    /// The slug of each spelling seen: a blog's thousands of posts share a
    /// few hundred tags, each slugged once.
    slugs: HashMap<String, String>,
}

/// Equal when they hold the same tags (the slugs remembered do not count).
impl PartialEq for Terms {
    fn eq(&self, other: &Self) -> bool {
        self.by_slug == other.by_slug
    }
}

impl Terms {
    fn any_shown(&self, drafts: bool) -> bool {
        self.by_slug.values().any(|entry| !entry.published.is_empty() || (drafts && !entry.drafts.is_empty()))
    }

    fn slug(&mut self, name: &str, rule: TermSlugs) -> String {
        if let Some(slug) = self.slugs.get(name) {
            return slug.clone();
        }
        let slug = rule.slug(name);
        self.slugs.insert(name.to_string(), slug.clone());
        slug
    }

    fn add(&mut self, post: &Post, names: &[String], key: &Order, rule: TermSlugs) {
        for name in names {
            let slug = self.slug(name, rule);
            let entry = self.by_slug.entry(slug).or_default();
            *entry.spellings.entry(name.clone()).or_default() += 1;
            if post.draft {
                entry.drafts.insert(key.clone());
            } else if !post.has_errors {
                entry.published.insert(key.clone());
            }
        }
    }

    fn remove(&mut self, names: &[String], key: &Order, rule: TermSlugs) {
        for name in names {
            let slug = self.slug(name, rule);
            let Some(entry) = self.by_slug.get_mut(&slug) else { continue };
            if let Some(count) = entry.spellings.get_mut(name) {
                *count -= 1;
                if *count == 0 {
                    entry.spellings.remove(name);
                }
            }
            entry.published.remove(key);
            entry.drafts.remove(key);
            if entry.spellings.is_empty() {
                self.by_slug.remove(&slug);
            }
        }
    }
}

impl TagEntry {
    /// Most common spelling; on a tie the one that sorts first, so the name
    /// does not depend on the order posts were read in.
    fn name(&self) -> Option<String> {
        self.spellings.iter().max_by(|a, b| a.1.cmp(b.1).then_with(|| b.0.cmp(a.0))).map(|(name, _)| name.clone())
    }
}

/// A post's series as a list of names, as `Terms` takes them.
fn series_of(post: &Post) -> Vec<String> {
    post.series().map(|name| vec![name.to_string()]).unwrap_or_default()
}

fn slug_clash(slug: &str, others: &[&Path], path: &Path) -> Diagnostic {
    let others: Vec<String> = others.iter().map(|p| format!("`{}`", p.display())).collect();
    Diagnostic::error(path, 1, 1, format!("slug `{slug}` is also the slug of {}", others.join(", ")))
        .with_hint("give one of them another `slug:` in its front matter, or rename its file")
}

/// A library of posts given as (path, text), for tests.
#[cfg(test)]
pub(crate) fn of_texts(files: &[(&str, &str)]) -> Library {
    Library::from_parsed(Rules::default(), files.iter().map(|(p, t)| Post::parse(Path::new(p), t)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(path: &str, text: &str) -> Parsed {
        Post::parse(Path::new(path), text)
    }

    fn library(files: &[(&str, &str)]) -> Library {
        of_texts(files)
    }

    fn names(tags: &[Tag]) -> Vec<String> {
        tags.iter().map(|t| format!("{} ({})", t.name, t.count)).collect()
    }

    const A: &str = "---\ntitle: A\ndate: 2026-07-17\ntags: [nccl, cuda]\n---\nA body\n";
    const B: &str = "---\ntitle: B\ndate: 2026-05-16\ntags: [nccl]\n---\nB body\n";
    const C: &str = "---\ntitle: C\ndate: 2026-06-01\ntags: [NCCL, rust]\ndraft: true\n---\n";

    #[test]
    fn a_library_made_at_once_is_the_one_inserting_each_file_makes() {
        let files = [
            ("posts/a.md", A),
            ("posts/b.md", B),
            ("posts/c.md", C),
            ("posts/d.md", "---\ntitle: D\ndate: 2026-02-01\ncategories: [GPU]\nseries: Kernels\n---\n"),
            ("posts/e.md", "---\ntitle: E\ndate: 2026-02-02\nslug: a\nseries: Kernels\ntags: [nccl]\n---\n"),
            ("posts/f.md", "---\ntitle: [unclosed\n---\n"),
            ("pages/about.md", "---\ntitle: About\ntags: [nccl]\n---\n"),
        ];
        let rules = Rules::default();
        let at_once = Library::from_parsed(rules.clone(), files.iter().map(|(p, t)| parsed(p, t)));
        let mut one_by_one = Library::new(rules.clone());
        for (path, text) in files {
            one_by_one.insert(parsed(path, text));
        }
        assert_eq!(at_once, one_by_one);
        assert!(at_once.shares_slug(Path::new("posts/e.md")));
        assert!(at_once.pages().count() == 1 && at_once.problems.contains_key(Path::new("posts/f.md")));

        // A file given twice: the later one is the one kept, as inserting them makes it.
        let twice = [("posts/a.md", A), ("posts/b.md", B), ("posts/a.md", C)];
        let at_once = Library::from_parsed(rules.clone(), twice.iter().map(|(p, t)| parsed(p, t)));
        let mut one_by_one = Library::new(rules);
        for (path, text) in twice {
            one_by_one.insert(parsed(path, text));
        }
        assert_eq!(at_once, one_by_one);
        assert!(at_once.post(Path::new("posts/a.md")).unwrap().draft);
    }

    #[test]
    fn tags_most_used_first_ties_by_name() {
        let lib = library(&[("posts/a.md", A), ("posts/b.md", B), ("posts/c.md", C)]);
        assert_eq!(names(&lib.tags(false)), ["nccl (2)", "cuda (1)"]);
        let with_drafts = lib.tags(true);
        assert_eq!(names(&with_drafts), ["nccl (2)", "cuda (1)", "rust (0)"]);
        assert_eq!(with_drafts[0].draft_count, 1);
    }

    #[test]
    fn tag_posts_newest_first_and_title() {
        let lib = library(&[("posts/b.md", B), ("posts/a.md", A)]);
        let tag = lib.tag("nccl").unwrap();
        assert_eq!(tag.posts, [PathBuf::from("posts/a.md"), PathBuf::from("posts/b.md")]);
        assert_eq!(tag.title, "Nccl");
    }

    #[test]
    fn spellings_that_differ_in_case_or_spacing_are_one_tag() {
        let lib = library(&[
            ("posts/a.md", "---\ntitle: A\ndate: 2026-01-01\ntags: [분산 학습, Rust]\n---\n"),
            ("posts/b.md", "---\ntitle: B\ndate: 2026-01-02\ntags: [분산  학습, rust]\n---\n"),
            ("posts/c.md", "---\ntitle: C\ndate: 2026-01-03\ntags: [rust]\n---\n"),
        ]);
        let tags = lib.tags(false);
        assert_eq!(names(&tags), ["rust (3)", "분산 학습 (2)"]);
        assert_eq!(tags[1].slug, "분산-학습");
    }

    #[test]
    fn updates_follow_one_post() {
        let mut lib = library(&[("posts/a.md", A), ("posts/b.md", B)]);
        lib.insert(parsed("posts/b.md", "---\ntitle: B\ndate: 2026-05-16\ntags: [rust]\n---\n"));
        assert_eq!(names(&lib.tags(false)), ["cuda (1)", "nccl (1)", "rust (1)"]);
        lib.remove(Path::new("posts/a.md"));
        assert_eq!(names(&lib.tags(false)), ["rust (1)"]);
        assert!(lib.tag("nccl").is_none());
    }

    #[test]
    fn rename_changes_the_slug() {
        let mut lib = library(&[("posts/a.md", A)]);
        assert!(lib.rename(Path::new("posts/a.md"), Path::new("posts/z.md")));
        assert_eq!(lib.post(Path::new("posts/z.md")).unwrap().slug, "z");
        assert!(lib.post_by_slug("a").is_none());
        assert_eq!(lib.tag("nccl").unwrap().posts, [PathBuf::from("posts/z.md")]);
    }

    #[test]
    fn duplicate_slugs_are_errors_on_both() {
        let lib = library(&[("posts/a.md", A), ("posts/b.md", "---\ntitle: B\ndate: 2026-01-01\nslug: a\n---\n")]);
        let problems = lib.diagnostics();
        assert_eq!(problems.len(), 2, "{problems:?}");
        assert!(problems.iter().all(|d| d.is_error() && d.message.contains("slug `a`")));
    }

    #[test]
    fn posts_that_share_a_slug_are_not_published_until_one_moves() {
        let twin = "---\ntitle: Twin\ndate: 2026-01-01\nslug: a\ntags: [nccl]\n---\n";
        let mut lib = library(&[("posts/a.md", A), ("posts/b.md", B), ("posts/twin.md", twin)]);
        assert!(lib.shares_slug(Path::new("posts/a.md")) && lib.shares_slug(Path::new("posts/twin.md")));
        assert_eq!(lib.published().map(|p| p.title.as_str()).collect::<Vec<_>>(), ["B"]);
        assert_eq!(names(&lib.tags(false)), ["nccl (1)"]);
        assert_eq!(lib.tag_count("nccl").unwrap().count, 1);
        lib.remove(Path::new("posts/twin.md"));
        assert!(!lib.shares_slug(Path::new("posts/a.md")));
        assert_eq!(names(&lib.tags(false)), ["nccl (2)", "cuda (1)"]);
        assert_eq!(lib.tag_count("nccl").unwrap().count, 2);
    }

    #[test]
    fn posts_newest_first_undated_last() {
        let lib = library(&[("posts/b.md", B), ("posts/x.md", "---\ntitle: X\n---\n"), ("posts/a.md", A)]);
        let titles: Vec<&str> = lib.posts().map(|p| p.title.as_str()).collect();
        assert_eq!(titles, ["A", "B", "X"]);
    }
}
