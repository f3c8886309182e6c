//! Checks that need the whole blog: links between posts, images beside them,
//! and what rendering each post finds (math that does not parse, another
//! tool's syntax that Hanji does not render); and what the next export
//! publishes, and holds back until when.

use std::path::PathBuf;

use rayon::prelude::*;

use crate::blog::Blog;
use crate::content::{Held, PostDate};
use crate::diagnostics::Diagnostic;
use crate::images::Catalog;
use crate::markdown::{self, Options};
use crate::site::images::Pictures;
use crate::site::links::Links;
use crate::site::routes::Routes;
use crate::site::theme::Theme;
use crate::site::{Site, SiteOptions};

/// Every problem in the blog, sorted by file and line.
pub fn check(blog: &Blog) -> Vec<Diagnostic> {
    let mut all = blog.diagnostics();
    let posts: Vec<_> = blog.library.posts().collect();
    // Links written as site paths are checked against the site as it is
    // published; a draft's, against the site with the drafts in it.
    let theme = Theme::new(&blog.templates).0;
    let site = |drafts| {
        let options = SiteOptions { drafts, search: true, ..SiteOptions::default() };
        Site::new(&blog.config, &blog.library, &blog.assets, &theme, options)
    };
    let published_site = site(false);
    // Posts and pages the export would leave out, as it names them.
    all.extend(published_site.files().problems);
    let (published, with_drafts) = (Routes::of(&published_site), Routes::of(&site(true)));
    // Images that cannot be read, or are too large to resize, are named.
    let catalog = Catalog::new(&blog.root, &blog.config.images, None);
    let rendered: Vec<Vec<Diagnostic>> = posts
        .par_iter()
        .map(|post| {
            let routes = Some(if post.draft { &with_drafts } else { &published });
            let (config, library, assets) = (&blog.config, &blog.library, &blog.assets);
            let links = Links { config, library, assets, post, root: "", routes };
            let pictures = Pictures { links, catalog: &catalog };
            let options = Options {
                first_line: post.body_line,
                links: Some(&links),
                syntax: post.file().syntax(&blog.config.layout),
                shortcodes: Some(&blog.shortcodes),
                pictures: Some(&pictures),
                ..Options::default()
            };
            let mut problems = markdown::render(&post.body(), &options).problems;
            problems.extend(cover_problem(post, &links, &pictures));
            problems.into_iter().map(|p| p.in_file(&post.path)).collect()
        })
        .collect();
    all.extend(rendered.into_iter().flatten());
    all.sort();
    all.dedup();
    all
}

/// What is wrong with a post's `cover`: an image that is not there, cannot
/// be read, or is too large, at the `cover` line.
fn cover_problem(
    post: &crate::content::Post,
    links: &Links,
    pictures: &Pictures,
) -> Option<crate::diagnostics::Problem> {
    use crate::markdown::{Link, LinkResolver, PictureResolver, Sizing};
    let (dest, _) = post.cover()?;
    let (line, column) = post.cover_line();
    let (message, hint) = match (links.resolve_image(dest), pictures.picture(dest)) {
        (Link::Broken { message, hint }, _) | (_, Sizing::Problem { message, hint }) => (message, hint),
        _ => return None,
    };
    Some(crate::diagnostics::Problem { hint, ..crate::diagnostics::Problem::warning(line, column, message) })
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
    let written: std::collections::HashSet<&std::path::Path> = placed
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
