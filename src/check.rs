//! Checks that need the whole blog: links between posts, images beside them,
//! and what rendering each post finds (math that does not parse, another
//! tool's syntax that Hanji does not render); and what the next export
//! publishes, and holds back until when. `check` is every problem of a blog
//! (what `hanji check` prints); a `Checker` keeps that set current as files
//! change, rendering again only the posts that changed or whose links and
//! images lead elsewhere now (the app's problems).

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use rayon::prelude::*;

use crate::blog::Blog;
use crate::content::{Held, Library, Post, PostDate};
use crate::diagnostics::{Diagnostic, Problem};
use crate::digest::{self, Digest};
use crate::images::Catalog;
use crate::markdown::{self, Link, LinkResolver, Options, PictureResolver, Sizing};
use crate::site::images::Pictures;
use crate::site::links::Links;
use crate::site::routes::Routes;
use crate::site::theme::Theme;
use crate::site::{Site, SiteOptions};
use crate::watch::{ChangeSet, FileChange};

/// Every problem in the blog, sorted by file and line.
pub fn check(blog: &Blog) -> Vec<Diagnostic> {
    Checker::default().check(blog, &blog.library, &Touched::All)
}

/// What changed since a `Checker` last checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Touched {
    /// Anything: the settings, the templates, the whole folder read again.
    All,
    /// These files only (posts, pages, files beside them; both names of a
    /// renamed one), on disk or in the unsaved texts checked.
    Files(BTreeSet<PathBuf>),
}

impl Touched {
    pub fn nothing() -> Self {
        Touched::Files(BTreeSet::new())
    }

    /// What a change on disk changed: its files, or everything when the
    /// settings, templates or shortcode templates changed or the folder
    /// was read again.
    pub fn of(set: &ChangeSet) -> Self {
        if set.config || set.templates || set.shortcodes || set.rescanned {
            return Touched::All;
        }
        let files = |changes: &[FileChange]| changes.iter().map(|c| c.path.clone()).collect::<Vec<_>>();
        let mut all: BTreeSet<PathBuf> = files(&set.added).into_iter().chain(files(&set.changed)).collect();
        all.extend(files(&set.removed));
        all.extend(set.renamed.iter().flat_map(|r| [r.from.clone(), r.to.clone()]));
        all.extend(set.assets.iter().cloned());
        Touched::Files(all)
    }

    /// Adds `other` to what changed.
    pub fn add(&mut self, other: Touched) {
        match (&mut *self, other) {
            (Touched::All, _) => {}
            (_, Touched::All) => *self = Touched::All,
            (Touched::Files(files), Touched::Files(more)) => files.extend(more),
        }
    }
}

/// The problems of a blog, kept between checks: what the theme and the
/// site's addresses say, and for each post what rendering it found and
/// what its links and images led to.
#[derive(Default)]
pub struct Checker {
    state: Option<State>,
}

/// What a check keeps for the next.
struct State {
    theme: Theme,
    theme_problems: Vec<Diagnostic>,
    /// The site as published, and with the drafts in it: a draft's links
    /// are checked against the second.
    published: Routes,
    with_drafts: Routes,
    catalog: Catalog,
    posts: HashMap<PathBuf, PostCheck>,
}

/// One post's problems from rendering it, and what it asked to find them.
struct PostCheck {
    /// The post's text and all that was read of it, as checked.
    post: Digest,
    problems: Vec<Diagnostic>,
    /// Every link, image and picture its rendering asked for…
    asked: Vec<(Ask, String)>,
    /// …and the digest of the answers, in that order.
    answers: Digest,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Ask {
    Link,
    Image,
    Picture,
}

impl Checker {
    /// Every problem of the blog whose settings, templates and files are
    /// `blog`'s and whose posts are `library`'s (the saved posts, or the
    /// app's unsaved texts put over them), as `check` finds them, after
    /// `changed` changed since the last call. Only the posts that changed,
    /// and those whose links or images now lead elsewhere, are rendered again.
    pub fn check(&mut self, blog: &Blog, library: &Library, changed: &Touched) -> Vec<Diagnostic> {
        let options = |drafts| SiteOptions { drafts, search: true, ..SiteOptions::default() };
        let files = match (self.state.as_mut(), changed) {
            (Some(state), Touched::Files(files)) => {
                for (routes, drafts) in [(&mut state.published, false), (&mut state.with_drafts, true)] {
                    let site = Site::for_posts(&blog.config, library, &blog.assets, &state.theme, options(drafts));
                    routes.update(&site, files);
                }
                Some(files)
            }
            _ => {
                let (theme, theme_problems) = Theme::new(&blog.templates);
                let routes =
                    |drafts| Routes::of(&Site::new(&blog.config, library, &blog.assets, &theme, options(drafts)));
                let (published, with_drafts) = (routes(false), routes(true));
                let catalog = Catalog::new(&blog.root, &blog.config.images, None);
                let posts = HashMap::new();
                self.state = Some(State { theme, theme_problems, published, with_drafts, catalog, posts });
                None
            }
        };
        let state = self.state.as_mut().expect("made above");
        let posts: Vec<&Post> = library.posts().collect();
        let done = &state.posts;
        let context =
            Context { blog, library, published: &state.published, drafts: &state.with_drafts, catalog: &state.catalog };
        let again: Vec<(PathBuf, PostCheck)> = posts
            .par_iter()
            .filter(|post| {
                let Some(done) = done.get(&post.path) else { return true };
                let changed = files.is_some_and(|files| files.contains(&post.path));
                changed || done.post != post_digest(post) || !context.still(post, done)
            })
            .map(|post| (post.path.clone(), context.check_post(post)))
            .collect();
        state.posts.retain(|path, _| library.post(path).is_some());
        state.posts.extend(again);

        let mut all = library.diagnostics();
        all.extend(blog.problems.iter().cloned());
        all.extend(state.theme_problems.iter().cloned());
        // Posts and pages the export would leave out, as it names them.
        let published = Site::new(&blog.config, library, &blog.assets, &state.theme, options(false));
        all.extend(published.files().problems);
        all.extend(state.posts.values().flat_map(|check| check.problems.iter().cloned()));
        all.sort();
        all.dedup();
        all
    }
}

/// All that is read of a post, its text with it.
fn post_digest(post: &Post) -> Digest {
    digest::of(&(post.text_digest(), post.facts_digest()))
}

/// What the posts of one check are checked against.
struct Context<'a> {
    blog: &'a Blog,
    library: &'a Library,
    published: &'a Routes,
    drafts: &'a Routes,
    catalog: &'a Catalog,
}

impl Context<'_> {
    /// Where `post`'s links and images lead: links written as site paths
    /// are checked against the site as it is published; a draft's, against
    /// the site with the drafts in it.
    fn links<'p>(&'p self, post: &'p Post) -> Links<'p> {
        let routes = Some(if post.draft { self.drafts } else { self.published });
        let (config, library, assets) = (&self.blog.config, self.library, &self.blog.assets);
        Links { config, library, assets, post, root: "", routes }
    }

    /// Renders `post` for its problems, noting what it asked of its links and images.
    fn check_post(&self, post: &Post) -> PostCheck {
        let links = self.links(post);
        // Images that cannot be read, or are too large to resize, are named.
        let pictures = Pictures { links, catalog: self.catalog };
        let asking = Asking { links: &links, pictures: &pictures, asked: Mutex::default() };
        let options = Options {
            first_line: post.body_line,
            links: Some(&asking),
            syntax: crate::content::file::syntax(&self.blog.config.layout, &post.path),
            shortcodes: Some(&self.blog.shortcodes),
            pictures: Some(&asking),
            ..Options::default()
        };
        let mut problems = markdown::render(&post.body(), &options).problems;
        problems.extend(cover_problem(post, &asking, &asking));
        let problems = problems.into_iter().map(|p| p.in_file(&post.path)).collect();
        let asked = asking.asked.into_inner().expect("asked");
        let (asked, answers): (Vec<(Ask, String)>, Vec<String>) = asked.into_iter().unzip();
        PostCheck { post: post_digest(post), problems, asked, answers: digest::of(&answers) }
    }

    /// Whether every link and image `post` asked for when it was checked
    /// leads where it led then.
    fn still(&self, post: &Post, done: &PostCheck) -> bool {
        if done.asked.is_empty() {
            return true;
        }
        let links = self.links(post);
        let pictures = Pictures { links, catalog: self.catalog };
        let answers: Vec<String> = done.asked.iter().map(|(ask, dest)| answer(&links, &pictures, *ask, dest)).collect();
        digest::of(&answers) == done.answers
    }
}

/// What `ask` of `dest` answers, as text.
fn answer(links: &dyn LinkResolver, pictures: &dyn PictureResolver, ask: Ask, dest: &str) -> String {
    match ask {
        Ask::Link => format!("{:?}", links.resolve_link(dest)),
        Ask::Image => format!("{:?}", links.resolve_image(dest)),
        Ask::Picture => format!("{:?}", pictures.picture(dest)),
    }
}

/// A post's links and pictures, answering as they do and noting each
/// question with its answer.
struct Asking<'a> {
    links: &'a dyn LinkResolver,
    pictures: &'a dyn PictureResolver,
    asked: Mutex<Vec<((Ask, String), String)>>,
}

impl Asking<'_> {
    fn note(&self, ask: Ask, dest: &str, answer: String) {
        self.asked.lock().expect("asked").push(((ask, dest.to_string()), answer));
    }
}

impl LinkResolver for Asking<'_> {
    fn resolve_link(&self, dest: &str) -> Link {
        let link = self.links.resolve_link(dest);
        self.note(Ask::Link, dest, format!("{link:?}"));
        link
    }

    fn resolve_image(&self, dest: &str) -> Link {
        let link = self.links.resolve_image(dest);
        self.note(Ask::Image, dest, format!("{link:?}"));
        link
    }
}

impl PictureResolver for Asking<'_> {
    fn picture(&self, dest: &str) -> Sizing {
        let sizing = self.pictures.picture(dest);
        self.note(Ask::Picture, dest, format!("{sizing:?}"));
        sizing
    }
}

/// What is wrong with a post's `cover`: an image that is not there, cannot
/// be read, or is too large, at the `cover` line.
fn cover_problem(post: &Post, links: &dyn LinkResolver, pictures: &dyn PictureResolver) -> Option<Problem> {
    let (dest, _) = post.cover()?;
    let (line, column) = post.cover_line();
    let (message, hint) = match (links.resolve_image(dest), pictures.picture(dest)) {
        (Link::Broken { message, hint }, _) | (_, Sizing::Problem { message, hint }) => (message, hint),
        _ => return None,
    };
    Some(Problem { hint, ..Problem::warning(line, column, message) })
}

/// What the next export of a blog publishes, and what it holds back.
#[derive(Debug, Clone, PartialEq)]
pub struct NextExport {
    pub posts: usize,
    pub pages: usize,
    /// Held back posts that are no drafts, the next to be published first.
    pub held: Vec<HeldPost>,
}

/// A post the export leaves out though it is no draft.
#[derive(Debug, Clone, PartialEq)]
pub struct HeldPost {
    pub path: PathBuf,
    pub held: Held,
    /// When a scheduled post is published, in the blog's time zone:
    /// `2026-12-24 09:00 KST`.
    pub publish: Option<String>,
    /// How long until then, from the moment the blog was judged at.
    pub wait: Option<jiff::SignedDuration>,
}

impl HeldPost {
    /// `scheduled for 2026-12-24 09:00 KST (in 3 days); the export leaves it
    /// out until then`, or why it is left out.
    pub fn describe(&self) -> String {
        match (self.held, &self.publish) {
            (Held::Scheduled, Some(publish)) => {
                let wait = self.wait.map(wait_text).unwrap_or_default();
                format!(
                    "scheduled for {publish}{wait}: the export leaves it out until then (--future publishes it now)"
                )
            }
            (Held::Expired, _) => "left out: its `expiryDate` has passed, as Hugo does".into(),
            (Held::Unpublished, _) => "left out: `published: false`".into(),
            (Held::Scheduled, None) => "left out: scheduled".into(),
        }
    }
}

impl NextExport {
    /// `the next export publishes 14 posts and 1 page; 1 scheduled`.
    pub fn line(&self) -> String {
        let plural = |n: usize, one: &str| if n == 1 { format!("{n} {one}") } else { format!("{n} {one}s") };
        let mut line = format!("the next export publishes {}", plural(self.posts, "post"));
        if self.pages > 0 {
            line.push_str(&format!(" and {}", plural(self.pages, "page")));
        }
        let scheduled = self.held.iter().filter(|h| h.held == Held::Scheduled).count();
        if scheduled > 0 {
            line.push_str(&format!("; {scheduled} scheduled for later"));
        }
        line
    }
}

/// What the next export of `blog` publishes (posts and pages, as the export
/// places them), and the posts it holds back, the next to come first.
pub fn next_export(blog: &Blog) -> NextExport {
    let theme = Theme::new(&blog.templates).0;
    let site = Site::new(&blog.config, &blog.library, &blog.assets, &theme, SiteOptions::default());
    let placed = site.files();
    let written: std::collections::HashSet<&Path> = placed
        .pages
        .iter()
        .filter_map(|(page, _, _)| if let crate::site::Page::Post(path) = page { Some(path.as_path()) } else { None })
        .collect();
    let written = |post: &&&crate::content::Post| written.contains(post.path.as_path());
    let rules = blog.library.rules();
    let now = rules.now;
    let held: Vec<HeldPost> = blog
        .library
        .posts()
        .filter_map(|post| {
            let reason = post.held?;
            let moment = post.publish_date.map(|date: PostDate| rules.moment_of(date));
            let held = HeldPost {
                path: post.path.clone(),
                held: reason,
                publish: post.publish_date.map(|date| rules.when(date)),
                wait: moment.zip(now).map(|(m, now)| m.duration_since(now)),
            };
            Some((moment, held))
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|(moment, held)| ((moment.is_none(), moment, held.path.clone()), held))
        .collect::<std::collections::BTreeMap<_, _>>()
        .into_values()
        .collect();
    let pages = site.library.pages().filter(|page| written(&page)).count();
    NextExport { posts: site.posts().iter().filter(written).count(), pages, held }
}

/// ` (in 3 days)`, ` (in 5 hours)`, ` (in 12 minutes)`.
fn wait_text(wait: jiff::SignedDuration) -> String {
    let minutes = wait.as_secs().max(0) / 60;
    let (n, unit) = match minutes {
        m if m >= 2 * 24 * 60 => (m / (24 * 60), "days"),
        m if m >= 2 * 60 => (m / 60, "hours"),
        1 => (1, "minute"),
        m => (m, "minutes"),
    };
    format!(" (in {n} {unit})")
}
