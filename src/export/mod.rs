//! Writing the site into a folder: every page rendered in parallel, then
//! written atomically. Files whose bytes did not change are left alone, files
//! of an earlier export that are gone are removed, and nothing else is ever
//! deleted.
//!
//! An export into a folder it exported to before renders only the pages
//! that changed: each page's plan (what it is made from, `site::plan`) and,
//! for a post, its text and the answers its links get, are compared with what
//! the last export kept (`state`); a page is rendered again when any of them
//! differs or its file was touched since. The site is byte for byte the one
//! a first export makes. Copies of images sized for the screen are kept
//! while their image file and the image settings are as they were.

mod destination;
mod last;
mod search;
mod state;

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::blog::Blog;
use crate::content::Post;
use crate::content::file::{self, MAX_POST_BYTES};
use crate::diagnostics::{Diagnostic, Severity};
use crate::digest::{self, Digest};
use crate::fs::{self, Folder, Program, SitePath, stamp_of};
use crate::images::{Catalog, Looked};
use crate::site::plan::{Body, Plan};
use crate::site::theme::Theme;
use crate::site::{Page, Site, SiteOptions};
use destination::Written;
use last::Last;
use state::{From, Head, Made, State};

/// How an export is made.
#[derive(Debug, Clone, Default)]
pub struct ExportOptions {
    /// Write into a folder that has files Hanji did not export there (none
    /// of them is deleted).
    pub force: bool,
    /// Where what an export can make again is kept between exports
    /// (highlighted code in `highlight.bin`, what each page was made from
    /// under `exports/`); None keeps nothing, and every page is rendered.
    /// Not the blog folder (it is not the author's text) and not the output
    /// (it would be published): see `fs::cache_dir`.
    pub cache_dir: Option<PathBuf>,
    /// The process ends once the export is told: what it held is left for
    /// the system to take back, not freed piece by piece (at 10,000 posts,
    /// tens of milliseconds). The command line's; never an app's.
    pub process_ends: bool,
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{message}")]
    Refused { message: String, hint: String },
    #[error("cannot write `{path}`: {source}")]
    Io { path: PathBuf, source: io::Error },
}

/// What an export did.
#[derive(Debug, Default)]
pub struct Summary {
    pub written: usize,
    pub unchanged: usize,
    pub removed: usize,
    /// Pages rendered (the others were as the last export left them).
    pub rendered: usize,
    /// Every problem: the blog's, the theme's, and those rendering found.
    pub problems: Vec<Diagnostic>,
    /// Posts left out because they have errors.
    pub left_out: Vec<PathBuf>,
    /// Copies of images made, and found in the cache (or kept in the site).
    pub image_copies: (usize, usize),
    pub elapsed: Duration,
}

impl Summary {
    pub fn files(&self) -> usize {
        self.written + self.unchanged
    }

    /// One line for the author: `exported 130 files to site: 130 written, 0
    /// unchanged, 0 removed; 95 pages rendered in 0.24 s`.
    pub fn line(&self, out: &Path) -> String {
        format!(
            "exported {} files to {}: {} written, {} unchanged, {} removed; {} {} rendered in {:.2} s",
            self.files(),
            out.display(),
            self.written,
            self.unchanged,
            self.removed,
            self.rendered,
            if self.rendered == 1 { "page" } else { "pages" },
            self.elapsed.as_secs_f64()
        )
    }

    /// `12 copies of images made, 30 from the cache` (`1 copy …`), or None when the pages
    /// show no image that has copies.
    pub fn images_line(&self) -> Option<String> {
        let (made, reused) = self.image_copies;
        let copies = if made == 1 { "copy" } else { "copies" };
        (made + reused > 0).then(|| format!("{made} {copies} of images made, {reused} from the cache"))
    }

    pub fn errors(&self) -> usize {
        self.problems.iter().filter(|p| p.severity == Severity::Error).count()
    }
}

/// Called as files are rendered and written: (done, total).
pub type Progress<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Exports `blog` into `out`. Refuses, writing nothing, an `out` that is the
/// blog folder, a parent of it, inside it (but for its `output_dir`), or a
/// folder with other files that Hanji did not export there (unless `force`);
/// and waits for no other export or publish of the blog: while one is under
/// way, another is refused (see `lock`).
pub fn export(blog: &Blog, out: &Path, options: &ExportOptions, progress: Progress) -> Result<Summary, ExportError> {
    let _lock = lock(blog, options.cache_dir.as_deref())?;
    export_locked(blog, out, options, progress)
}

/// The lock that keeps one export or publish of a blog at a time: in the
/// cache folder, named by the blog folder; the system lets go of it when
/// the process ends, however it ends. None without a cache folder.
pub fn lock(blog: &Blog, cache_dir: Option<&Path>) -> Result<Option<fs::Lock>, ExportError> {
    let Some(cache_dir) = cache_dir else { return Ok(None) };
    let root = fs::absolute(&blog.root).unwrap_or_else(|_| blog.root.clone());
    let name = format!("locks/{:032x}.lock", digest::of_bytes(root.as_os_str().as_encoded_bytes()));
    let file = SitePath::new(&name).expect("a hex name");
    // A cache folder this user cannot write (nor any other Hanji of the
    // same user): nothing to lock with, nor anyone to keep out.
    let Ok(folder) = Folder::open(cache_dir, true) else { return Ok(None) };
    match folder.lock(&file) {
        Err(_) => Ok(None),
        Ok(Some(lock)) => Ok(Some(lock)),
        Ok(None) => {
            let holder = folder.lock_holder(&file).map(|pid| format!(" (process {pid})")).unwrap_or_default();
            Err(ExportError::Refused {
                message: format!("another export or publish of this blog is under way{holder}"),
                hint: "wait for it to end, then try again".into(),
            })
        }
    }
}

/// `export`, by a caller that holds the blog's `lock` (a publish).
pub fn export_locked(
    blog: &Blog,
    out: &Path,
    options: &ExportOptions,
    progress: Progress,
) -> Result<Summary, ExportError> {
    let started = Instant::now();
    let out = fs::lexical_absolute(out).map_err(|source| ExportError::Io { path: out.into(), source })?;
    let folder = destination::open(blog, &out, options.force)?;
    // What this machine's Hanji wrote there last: the only files it may remove.
    let key = fs::absolute(&out).unwrap_or_else(|_| out.clone());
    let previous = Written::read(options.cache_dir.as_deref(), &key);
    // The site is made from the blog and the files beside its posts: when
    // they and the site are as the last export left them, so is the rest.
    let stamps: Vec<_> = blog.assets.par_iter().map(|asset| stamp_of(&blog.root.join(asset))).collect();
    let facts = blog.facts();
    let inputs = digest::of(&(blog.digest(&facts), &stamps));
    let last = options.cache_dir.as_deref().map(|dir| Last::of(dir, &key));
    if let Some(mut summary) = last.as_ref().and_then(|last| last.unchanged(inputs, &folder, &previous)) {
        summary.elapsed = started.elapsed();
        return Ok(summary);
    }
    // An export that did not end may have left a temp file beside the page
    // it was writing.
    if !last.as_ref().is_some_and(Last::forget) {
        folder.clean_temp_files();
    }

    let mut summary = Summary { problems: blog.diagnostics(), ..Summary::default() };
    summary.left_out = blog
        .library
        .posts()
        .filter(|p| p.has_errors || blog.library.shares_slug(&p.path))
        .map(|p| p.path.clone())
        .collect();
    let (theme, theme_problems) = Theme::new(&blog.templates);
    summary.problems.extend(theme_problems);
    // Copies of the images pages show are made as the pages ask for them.
    let images = Catalog::new(&blog.root, &blog.config.images, options.cache_dir.as_deref()).preparing();
    let site_options = SiteOptions { search: true, services: true, ..SiteOptions::default() };
    // What the last export kept is read while the site is laid out.
    let (state, site) = rayon::join(
        || options.cache_dir.as_deref().map(|dir| State::open(dir, &key)),
        || {
            Site::new(&blog.config, &blog.library, &blog.assets, &theme, site_options)
                .with_images(&images)
                .with_shortcodes(&blog.shortcodes)
                .with_routes()
        },
    );
    // A post's images are answered by their files' stamps: when any file
    // beside the posts changed, every post's answers are asked again.
    let (placed, head) = rayon::join(
        || site.files(),
        || Head {
            program: Program::this(),
            links: digest::of(&(site.links_digest(), stamps)),
            facts: site.facts_digest(&facts),
        },
    );
    let (mut copies, copy_problems) = site.copies(&placed);
    // A Jekyll theme's file with front matter is a template, not a file to copy.
    copies.retain(|(from, _)| {
        !(file::may_be_template(&blog.config.layout, from) && fs::starts_with_front_matter(&blog.root, from))
    });
    summary.problems.extend(placed.problems);
    summary.problems.extend(copy_problems);
    summary.left_out.extend(placed.left_out);
    let ticks = Ticks::new(progress, placed.pages.len() + copies.len());
    let tick = || ticks.tick();

    // Which pages are as the last export left them; the others' plans are
    // made again as they are rendered (a large blog's plans, all held at
    // once, would double what the export holds).
    let planned = plan_pages(&site, &placed.pages, &folder, state.as_ref(), &head);
    // The search index is updated with the posts rendered now: a post whose
    // page is as it was has the entry it had. It is read while the
    // highlighted code is.
    let (highlights_file, mut kept_index) = rayon::join(
        || read_highlights(&site, options.cache_dir.as_deref(), &planned),
        || {
            let (cache_dir, search_name) = (options.cache_dir.as_deref(), previous.search.as_deref());
            site.has_search().then(|| search::open(&site, cache_dir, &folder, &key, search_name, state.as_ref()))
        },
    );
    let index_writes = search::Writes::new(&folder, site.addresses());
    let write_index = |name: &str, text: &str| index_writes.write(name, text);
    let index = kept_index.as_mut().map(|kept| search::Updating::new(&site, kept, &write_index));

    let outcomes: Vec<Outcome> = planned
        .par_iter()
        .map(|planned| {
            let outcome = match planned.kept {
                Some(kept) => Outcome::Kept(kept),
                None => render_page(blog, &site, &folder, planned, index.as_ref()),
            };
            tick();
            outcome
        })
        .collect();
    let copied: Vec<Outcome> = copies
        .par_iter()
        .map(|(from, file)| {
            let kept = state.as_ref().and_then(|state| state.made.get(file.as_str()));
            let outcome = copy(blog, &folder, from, file, kept);
            tick();
            outcome
        })
        .collect();

    // The pages' problems, cloned on every core: a large blog's pages kept
    // as they were have tens of thousands.
    summary.problems.par_extend(outcomes.par_iter().flat_map_iter(|outcome| match outcome {
        Outcome::Kept(Made { from: From::Page { problems, .. }, .. })
        | Outcome::Written { made: Made { from: From::Page { problems, .. }, .. }, .. } => problems.iter().cloned(),
        _ => [].iter().cloned(),
    }));
    let mut made = Vec::with_capacity(outcomes.len() + copied.len());
    for outcome in outcomes.into_iter().chain(copied) {
        match outcome {
            Outcome::Kept(kept) => {
                summary.unchanged += 1;
                made.push(Cow::Borrowed(kept));
            }
            Outcome::Written { made: new, written } => {
                if let From::Page { .. } = &new.from {
                    summary.rendered += 1;
                }
                if written {
                    summary.written += 1;
                } else {
                    summary.unchanged += 1;
                }
                made.push(Cow::Owned(new));
            }
            Outcome::Failed(problem) => summary.problems.push(problem),
            Outcome::LeftOut(path, problem) => {
                summary.left_out.push(path);
                summary.problems.push(problem);
            }
            Outcome::Io(error) => return Err(error),
        }
    }
    let settings = digest::of(&format!("{:?}", blog.config.images));
    let (copies, kept_copies) = image_copies(&site, &images, &made, state.as_ref(), &folder, settings, &ticks);
    let (made_copies, reused) = images.counts();
    summary.image_copies = (made_copies, reused + kept_copies);
    for outcome in copies {
        match outcome {
            Outcome::Written { made: new, written, .. } => {
                summary.written += usize::from(written);
                summary.unchanged += usize::from(!written);
                made.push(Cow::Owned(new));
            }
            Outcome::Kept(kept) => {
                summary.unchanged += 1;
                made.push(Cow::Borrowed(kept));
            }
            Outcome::Io(error) => return Err(error),
            Outcome::Failed(problem) | Outcome::LeftOut(_, problem) => summary.problems.push(problem),
        }
    }
    let mut search_name = None;
    if let Some(index) = index {
        let (index_files, name) = index.finish(|post| post_with_text(blog, post).map(|full| site.post_text(&full)))?;
        let written = index_writes.written();
        search_name = Some(name);
        for file in index_files {
            let Some(stamp) = folder.stamp(&file) else {
                return Err(ExportError::Io { path: folder.join(&file), source: io::ErrorKind::NotFound.into() });
            };
            let was_written = written.contains(file.as_str());
            summary.written += usize::from(was_written);
            summary.unchanged += usize::from(!was_written);
            made.push(Cow::Owned(Made { file, stamp, from: From::Search }));
        }
    }

    // In the order of their names, once: the folder's record, the files
    // removed and the last export's stamps are in that order.
    let mut sorted: Vec<(&str, fs::Stamp)> = made.iter().map(|m| (m.file.as_str(), m.stamp)).collect();
    sorted.par_sort_unstable_by_key(|(file, _)| *file);
    sorted.dedup_by_key(|(file, _)| *file);
    let files: Vec<&str> = sorted.iter().map(|(file, _)| *file).collect();
    summary.removed = remove_stale(&folder, &previous, &files)?;
    summary.problems.par_sort();
    summary.problems.dedup();
    write_if_changed(&folder, &destination::record(), destination::RECORD_TEXT)?;
    let written = Written {
        files: made.iter().map(|made| made.file.clone()).collect::<BTreeSet<SitePath>>().into_iter().collect(),
        search: search_name.clone(),
    };
    written.save(options.cache_dir.as_deref(), &key);
    if let (Some(kept), Some(name)) = (&mut kept_index, &search_name) {
        // Only a cache: if it cannot be kept, the next export makes the index again.
        let _ = kept.commit(name);
    }
    // What is kept for the next export, written on both cores.
    rayon::join(
        || {
            if let Some(state) = &state {
                state.save(&head, &made);
            }
        },
        || {
            if let (Some(_), Some(cache_dir)) = (highlights_file, options.cache_dir.as_deref())
                && site.highlights().is_changed()
            {
                // Only a cache: if it cannot be written, the next export highlights again.
                let file = SitePath::new(HIGHLIGHTS).expect("a plain name");
                let mut write = |out: &mut dyn std::io::Write| site.highlights().write_to(out);
                let _ = Folder::open(cache_dir, true)
                    .and_then(|cache| cache.write_streamed(&file, fs::Durable::Replaced, &mut write));
            }
            if let Some(last) = &last {
                last.save(inputs, sorted.iter().copied(), &folder, &summary);
            }
        },
    );
    summary.elapsed = started.elapsed();
    // A large blog's site and records take tens of milliseconds to free:
    // on both cores, or not at all when the process ends.
    drop((made, kept_index, planned));
    let held = (state, (site, placed.pages));
    match options.process_ends {
        true => std::mem::forget(held),
        false => _ = rayon::join(|| drop(held.0), || drop(held.1)),
    }
    Ok(summary)
}

/// The highlighted code of every export, in the cache folder.
const HIGHLIGHTS: &str = "highlight.bin";

/// A page with the digest of its plan, and what the last export kept of it
/// if the page in the folder is still what that plan makes.
struct Planned<'s> {
    page: &'s Page,
    path: &'s str,
    file: &'s SitePath,
    digest: Digest,
    post: bool,
    kept: Option<&'s Made>,
}

/// What became of one file of the site.
enum Outcome<'s> {
    /// As the last export left it.
    Kept(&'s Made),
    /// Made now (`written` if its bytes changed).
    Written { made: Made, written: bool },
    /// Not made: the page's problem (a template error, an unreadable file).
    Failed(Diagnostic),
    /// A post not written, with why.
    LeftOut(PathBuf, Diagnostic),
    /// The folder could not be written: the export stops.
    Io(ExportError),
}

/// Every page's plan, and whether the last export's page is still right:
/// made from an equal plan (with what every page shares), its post's links
/// answered the same, and its file untouched since. While the links and
/// all that is known of every post are as they were (`Head`), every plan
/// is, but those of the posts whose text changed: the others are not made.
fn plan_pages<'s>(
    site: &Site,
    pages: &'s [(Page, String, SitePath)],
    folder: &Folder,
    state: Option<&'s State>,
    head: &Head,
) -> Vec<Planned<'s>> {
    let shared = site.shared_digest();
    let kept_head = state.and_then(|state| state.head.as_ref());
    let links_unchanged = kept_head.is_some_and(|kept| kept.links == head.links);
    let facts_unchanged = links_unchanged && kept_head.is_some_and(|kept| kept.facts == head.facts);
    pages
        .par_iter()
        .map(|(page, path, file)| {
            let made = state.and_then(|state| state.made.get(file.as_str()));
            if facts_unchanged
                && let Some(planned) = made.and_then(|made| as_before(site, page, path, file, made, folder))
            {
                return planned;
            }
            let plan = site.plan_at(page, path.clone());
            let digest = digest::of(&(shared, &plan));
            let kept = made.filter(|made| {
                let From::Page { plan: made_from, links, .. } = &made.from else { return false };
                let links_same = match (&plan.body, links) {
                    (Body::Post(post), Some(links)) => {
                        links_unchanged
                            || digest::of(&site.answer_again(post.post, &post.path, &links.questions()))
                                == links.answers
                    }
                    (Body::Post(_), None) => false,
                    _ => true,
                };
                *made_from == digest && links_same && folder.stamp(file) == Some(made.stamp)
            });
            let post = matches!(plan.body, Body::Post(_));
            Planned { page, path, file, digest, post, kept }
        })
        .collect()
}

/// The page `made` was, if it still is, in a site whose links and posts
/// are all as they were when it was made: its plan is the one it had unless
/// it is a post's page and the post's text changed.
fn as_before<'s>(
    site: &Site,
    page: &'s Page,
    path: &'s str,
    file: &'s SitePath,
    made: &'s Made,
    folder: &Folder,
) -> Option<Planned<'s>> {
    let From::Page { plan, text, .. } = &made.from else { return None };
    let text_now = match page {
        Page::Post(post) => Some(site.library.post(post)?.text_digest()),
        _ => None,
    };
    let as_before = *text == text_now && folder.stamp(file) == Some(made.stamp);
    as_before.then_some(Planned { page, path, file, digest: *plan, post: text_now.is_some(), kept: Some(made) })
}

/// Reads the highlighted code of earlier exports into the site's cache when
/// any post is to be rendered (even one: a language's highlighter costs more
/// to start than the cache of the whole blog's code to read, about 1 G
/// instructions against 0.1 G at 10,000 posts); gives the file to save the
/// cache in after.
fn read_highlights(site: &Site, cache_dir: Option<&Path>, planned: &[Planned]) -> Option<PathBuf> {
    let posts = |kept: bool| planned.iter().filter(|p| p.kept.is_some() == kept && p.post).count();
    let (to_render, kept) = (posts(false), posts(true));
    let file = cache_dir.map(|dir| dir.join(HIGHLIGHTS)).filter(|_| to_render > 0)?;
    if let Ok(bytes) = fs::read(&file) {
        site.highlights().add_from_bytes(bytes);
    }
    if kept > 0 {
        // The code of the posts not rendered now stays in the cache.
        site.highlights().keep_all();
    }
    Some(file)
}

/// Renders a page and writes it. A post loaded without its text has it read
/// again here; if the file changed since it was loaded, the post is left out
/// this time, and named.
fn render_page<'s>(
    blog: &Blog,
    site: &Site,
    folder: &Folder,
    planned: &Planned,
    index: Option<&search::Updating<'_, '_, '_>>,
) -> Outcome<'s> {
    let plan = site.plan_at(planned.page, planned.path.to_string());
    let full;
    let mut plan_now = None;
    if let Body::Post(post) = &plan.body
        && !post.post.has_text()
    {
        let path = &post.post.path;
        let text = match fs::read_text(&blog.root, path, MAX_POST_BYTES) {
            Ok(text) => text,
            Err(_) => return changed_meanwhile(path),
        };
        full = match post.post.with_text(&text) {
            Some(full) => full,
            None => return changed_meanwhile(path),
        };
        plan_now = Some(Plan { root: plan.root.clone(), body: Body::Post(Box::new(post.with_post(&full))) });
    }
    let plan = plan_now.as_ref().unwrap_or(&plan);
    let (page, answers) = match site.render_plan(plan) {
        Ok(rendered) => rendered,
        // A page the theme cannot render is left out and reported.
        Err(error) => return Outcome::Failed(error.to_diagnostic()),
    };
    let written = match write_if_changed(folder, planned.file, page.text.as_bytes()) {
        Ok(written) => written,
        Err(error) => return Outcome::Io(error),
    };
    let Some(stamp) = folder.stamp(planned.file) else {
        return Outcome::Io(ExportError::Io {
            path: folder.join(planned.file),
            source: io::ErrorKind::NotFound.into(),
        });
    };
    let links = match (&plan.body, page.post_text) {
        (Body::Post(post), text) => {
            if let (Some(index), Some(text)) = (index, text) {
                index.put(post.post, text);
            }
            Some(state::Links::of(&answers))
        }
        _ => None,
    };
    let text = match &plan.body {
        Body::Post(post) => Some(post.post.text_digest()),
        _ => None,
    };
    let from = From::Page { plan: planned.digest, problems: page.problems, links, text };
    Outcome::Written { made: Made { file: planned.file.clone(), stamp, from }, written }
}

fn changed_meanwhile<'s>(path: &Path) -> Outcome<'s> {
    let problem =
        Diagnostic::error(path, 1, 1, "the post changed while the site was exported; it is left out this time")
            .with_hint("export again");
    Outcome::LeftOut(path.to_path_buf(), problem)
}

/// How far an export has come, for its `Progress`: the pages and files
/// known at the start, then the image copies the pages asked for.
struct Ticks<'a> {
    progress: Progress<'a>,
    done: AtomicUsize,
    total: AtomicUsize,
}

impl<'a> Ticks<'a> {
    fn new(progress: Progress<'a>, total: usize) -> Self {
        Ticks { progress, done: AtomicUsize::new(0), total: AtomicUsize::new(total) }
    }

    fn more(&self, files: usize) {
        self.total.fetch_add(files, Ordering::Relaxed);
    }

    fn tick(&self) {
        let done = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        (self.progress)(done, self.total.load(Ordering::Relaxed));
    }
}

/// The copies of the images the pages show, written beside each image's own
/// copy in the site: those of the pages rendered now were made (or found in
/// the cache) as the pages asked for them; a page kept as it was names the
/// images it shows, whose copies are kept too while their image file and
/// the image settings are as they were, and made again otherwise. Gives
/// how many copies were kept.
fn image_copies<'s>(
    site: &Site,
    images: &Catalog,
    made: &[Cow<'s, Made>],
    state: Option<&'s State>,
    folder: &Folder,
    settings: Digest,
    ticks: &Ticks,
) -> (Vec<Outcome<'s>>, usize) {
    let pictured: BTreeSet<&Path> = made
        .iter()
        .filter_map(|made| match &made.from {
            From::Page { links: Some(links), .. } => Some(links.pictured.iter().map(PathBuf::as_path)),
            _ => None,
        })
        .flatten()
        .collect();
    let mut kept_copies: BTreeMap<&Path, Vec<&'s Made>> = BTreeMap::new();
    for made in state.iter().flat_map(|state| state.made.values()) {
        if let From::Image { image, .. } = &made.from {
            kept_copies.entry(image.as_path()).or_default().push(made);
        }
    }
    let prepared: HashSet<PathBuf> = images.prepared().into_iter().map(|(image, _)| image).collect();
    let (kept, again): (Vec<_>, Vec<_>) = pictured
        .into_par_iter()
        .filter(|image| !prepared.contains(*image))
        .map(|image| {
            let source = images.stamp(image);
            let copies = kept_copies.get(image).map(Vec::as_slice).unwrap_or_default();
            let still = !copies.is_empty()
                && copies.iter().all(|made| {
                    matches!(&made.from, From::Image { source: was, settings: with, .. }
                        if Some(*was) == source && *with == settings)
                        && folder.stamp(&made.file) == Some(made.stamp)
                });
            (image, still.then_some(copies))
        })
        .partition(|(_, copies)| copies.is_some());
    // Images whose copies are not as they were are prepared as a page would.
    again.par_iter().for_each(|(image, _)| {
        if let Looked::Facts(facts) = images.look(image) {
            let _ = images.plan(image, &facts);
        }
    });
    let kept: Vec<&'s Made> = kept.into_iter().flat_map(|(_, copies)| copies.unwrap_or_default()).copied().collect();
    let addresses = site.addresses();
    // An image whose name cannot be a file of the site is named by the
    // site's copies (`Site::copies`); so are its copies' (none is made).
    let copies: Vec<(SitePath, PathBuf, crate::images::Made)> = images
        .prepared()
        .into_iter()
        .filter_map(|(image, prepared)| Some((addresses.asset(&image)?, image, prepared)))
        .flat_map(|(site_path, image, prepared)| {
            let copies = prepared.copies.into_iter();
            copies.filter_map(move |(copy, made)| {
                Some((SitePath::new(&addresses.image_copy(&site_path, copy)).ok()?, image.clone(), made))
            })
        })
        .collect();
    let count = kept.len();
    ticks.more(copies.len());
    let mut outcomes: Vec<Outcome> = copies
        .par_iter()
        .map(|(file, image, made)| {
            ticks.tick();
            let source = images.stamp(image);
            let bytes = match made.bytes() {
                Ok(bytes) => bytes,
                Err(error) => return Outcome::Failed(fs::read_problem(&error).in_file(image.as_path())),
            };
            let written = match write_if_changed(folder, file, &bytes) {
                Ok(written) => written,
                Err(error) => return Outcome::Io(error),
            };
            match (folder.stamp(file), source) {
                (Some(stamp), Some(source)) => Outcome::Written {
                    made: Made {
                        file: file.clone(),
                        stamp,
                        from: From::Image { image: image.clone(), source, settings },
                    },
                    written,
                },
                _ => Outcome::Failed(fs::read_problem(&io::ErrorKind::NotFound.into()).in_file(image.as_path())),
            }
        })
        .collect();
    outcomes.extend(kept.into_iter().map(Outcome::Kept));
    (outcomes, count)
}

/// Copies a file of the blog into the site, unless the copy there is still
/// the one made from the file as it is. Streamed: a large file is never
/// held whole.
fn copy<'s>(blog: &Blog, folder: &Folder, from: &Path, file: &SitePath, kept: Option<&'s Made>) -> Outcome<'s> {
    let source = stamp_of(&blog.root.join(from));
    if let Some(kept) = kept
        && source.is_some_and(|source| kept.from == From::Copy(source))
        && folder.stamp(file) == Some(kept.stamp)
    {
        return Outcome::Kept(kept);
    }
    let written = match folder.copy_if_changed(file, &blog.root.join(from)) {
        Ok(written) => written,
        // A file that cannot be read is left out and named, as a post with
        // an error is: the rest of the site is still written.
        Err(fs::CopyError::Read(error)) => return Outcome::Failed(fs::read_problem(&error).in_file(from)),
        Err(fs::CopyError::Write(source)) => return Outcome::Io(write_error(folder, file, source)),
    };
    match (folder.stamp(file), source) {
        (Some(stamp), Some(source)) => {
            Outcome::Written { made: Made { file: file.clone(), stamp, from: From::Copy(source) }, written }
        }
        _ => Outcome::Failed(fs::read_problem(&io::ErrorKind::NotFound.into()).in_file(from)),
    }
}

/// `post` with its text, read again if it was loaded without it (None if
/// the file cannot be read or changed since).
fn post_with_text<'p>(blog: &Blog, post: &'p Post) -> Option<std::borrow::Cow<'p, Post>> {
    if post.has_text() {
        return Some(std::borrow::Cow::Borrowed(post));
    }
    let text = fs::read_text(&blog.root, &post.path, MAX_POST_BYTES).ok()?;
    post.with_text(&text).map(std::borrow::Cow::Owned)
}

/// Writes `bytes` to `file` unless it holds them already; true if written.
fn write_if_changed(folder: &Folder, file: &SitePath, bytes: &[u8]) -> Result<bool, ExportError> {
    folder.write_if_changed(file, bytes).map_err(|source| write_error(folder, file, source))
}

/// An error writing `file`: a link in the output folder is refused with
/// what to do, anything else stops the export as it is.
fn write_error(folder: &Folder, file: &SitePath, source: io::Error) -> ExportError {
    match fs::link_refused(&source) {
        Some(link) => ExportError::Refused {
            message: format!("`{}` in the output folder is a symlink", link.display()),
            hint: "Hanji does not write through links: remove the link (or export to a new folder with --out)".into(),
        },
        None => ExportError::Io { path: folder.join(file), source },
    }
}

/// Removes the files this machine's Hanji wrote into the folder last time
/// that this export did not write, and the folders that leaves empty.
/// Nothing else. `current` is sorted.
fn remove_stale(folder: &Folder, previous: &Written, current: &[&str]) -> Result<usize, ExportError> {
    let mut removed = 0;
    for file in previous.files.iter().filter(|file| current.binary_search(&file.as_str()).is_err()) {
        match folder.remove(file) {
            Ok(true) => removed += 1,
            Ok(false) => {}
            Err(source) => return Err(write_error(folder, file, source)),
        }
    }
    Ok(removed)
}
