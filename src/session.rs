//! An editing session on one blog: the blog watched, the theme and the
//! addresses of its site kept current after each change on disk (the theme
//! built again when a template changes; the addresses moved for the files
//! that changed only), the author's unsaved texts (put over the saved posts
//! in the preview, and kept in the journal against a crash), the tag renames
//! that can be undone, the search of the posts' text, and the blog's
//! problems kept current (as `hanji check` finds them, the unsaved texts
//! in). The app holds one while a blog is open; `hanji serve` holds one with
//! no unsaved text.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock, RwLockReadGuard};
use std::time::Duration;

use crate::author::history::{self, Cause, History, Replaced, Version};
use crate::author::journal::{Journal, Kept};
use crate::author::new_post::NewPost;
use crate::author::retag::{RetagBatch, RetagPlan};
use crate::author::trash::TrashCan;
use crate::author::{self, AuthorError};
use crate::blog::Blog;
use crate::check::{Checker, Touched};
use crate::content::{Library, Post};
use crate::diagnostics::Diagnostic;
use crate::fs::{self, OwnWrites, version_of};
use crate::images::Catalog;
use crate::load::Progress;
use crate::preview::{self, Answer, PostPreview, content_type};
use crate::search::index::Served;
use crate::site::routes::{Found, Routes, Target};
use crate::site::theme::Theme;
use crate::site::{Page, Site, SiteOptions};
use crate::watch::{ChangeSet, FileChange, SharedBlog, Update, Watch, WatchError, WatchOptions, WatchState};

/// How often unsaved text is written to the journal.
const JOURNAL_EVERY: Duration = Duration::from_secs(2);

/// How long an export or a publish waits for the watcher to apply a save
/// made just before it: its debounce and the time to read the post, with
/// room to spare on a loaded machine.
const SETTLE_AT_MOST: Duration = Duration::from_secs(3);

/// How a session shows and keeps the blog.
#[derive(Debug, Clone, Default)]
pub struct SessionOptions {
    pub watch: WatchOptions,
    /// How its pages are rendered: the app's preview shows drafts.
    pub site: SiteOptions,
    /// Where unsaved text is kept against a crash (None: nowhere).
    pub journal: Option<Journal>,
    /// Where each save keeps the version it replaces (None: nowhere).
    pub history: Option<History>,
    /// Where copies of images made for the preview are kept (`images/` in
    /// it; see `fs::cache_dir`), None: nowhere, made again when asked for.
    pub cache_dir: Option<PathBuf>,
    /// Who hears how far the first reading of the blog has come.
    pub progress: Progress,
}

/// The theme and the saved blog's addresses, kept current after each change
/// on disk: files and the theme's style do not depend on unsaved text.
pub struct Built {
    pub theme: Arc<Theme>,
    pub routes: Routes,
    /// What is known of the blog's images, kept while `[images]` stays the same.
    pub images: Arc<Catalog>,
    /// Whether the search index is up to date with this build (it is
    /// updated when first asked for).
    search: OnceLock<()>,
    /// Counts the changes on disk: what was made from the saved blog knows
    /// which one it was made after.
    version: u64,
}

/// The saved blog's posts with the author's unsaved texts put over them, and
/// the addresses of that site: made once after a change on disk, then kept
/// as the unsaved texts change, so that a page of the preview's site costs
/// its rendering only.
struct Overlay {
    /// The `Built::version` it was made at.
    version: u64,
    library: Library,
    routes: Routes,
    /// The unsaved text put in for each post file.
    texts: HashMap<PathBuf, String>,
}

/// A post's text as it is on disk, with the version to save over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    pub text: String,
    pub version: String,
}

pub struct Session {
    root: PathBuf,
    watch: Watch,
    options: SiteOptions,
    built: Arc<RwLock<Built>>,
    overlay: Mutex<Option<Overlay>>,
    /// Unsaved texts by post file (relative).
    unsaved: Mutex<HashMap<PathBuf, String>>,
    /// The last post preview: its site path and page.
    last_preview: Mutex<Option<(String, String)>>,
    retags: Mutex<Vec<RetagBatch>>,
    journal: Option<Journal>,
    /// What the journal holds now: the version of each post's kept text.
    kept: Mutex<HashMap<PathBuf, String>>,
    /// Tells the journal's thread to stop.
    stop: Arc<AtomicBool>,
    history: Option<History>,
    /// Shared with the watch, which keeps what other programs' writes replaced.
    history_limits: Arc<Mutex<history::Limits>>,
    /// The search index of the saved blog, updated for the posts that changed.
    search: Mutex<Served>,
    /// The blog's problems as last checked, and what changed since (on disk,
    /// or in the unsaved texts).
    checker: Mutex<Checker>,
    unchecked: Arc<Mutex<Touched>>,
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl Session {
    /// Opens and watches the blog at `root`. After every change on disk the
    /// theme and addresses are built again, then `on_update` hears of it
    /// with the blog as it is now (on the watch's thread).
    pub fn open(
        root: &Path,
        options: SessionOptions,
        mut on_update: impl FnMut(&Update, &Blog) + Send + 'static,
    ) -> Result<Arc<Session>, WatchError> {
        let shared: Arc<OnceLock<SharedBlog>> = Arc::default();
        let site = options.site;
        let cache_dir = options.cache_dir.clone();
        let built = Arc::new(RwLock::new(Built {
            theme: Arc::new(Theme::new(&Default::default()).0),
            routes: Routes::default(),
            images: Arc::new(Catalog::new(root, &Default::default(), cache_dir.as_deref())),
            search: OnceLock::new(),
            version: 0,
        }));
        let history_limits: Arc<Mutex<history::Limits>> = Arc::default();
        let unchecked = Arc::new(Mutex::new(Touched::All));
        let watch = {
            let (shared, built, unchecked) = (shared.clone(), built.clone(), unchecked.clone());
            let outside = options.history.clone().map(|history| (history, history_limits.clone(), root.to_path_buf()));
            Watch::start_reporting(root, options.watch, &options.progress, move |update| {
                let Some(blog) = shared.get() else { return };
                let blog = blog.read().expect("blog lock");
                match update {
                    Update::Changed(set) if !(set.templates || set.config || set.rescanned) => {
                        follow(&built, &blog, site, set);
                    }
                    Update::Changed(_) | Update::Back { .. } => rebuild(&built, &blog, site, cache_dir.as_deref()),
                    Update::Gone { .. } | Update::Notice { .. } => {}
                }
                let changed = match update {
                    Update::Changed(set) => Touched::of(set),
                    Update::Back { .. } => Touched::All,
                    Update::Gone { .. } | Update::Notice { .. } => Touched::nothing(),
                };
                unchecked.lock().expect("unchecked").add(changed);
                // Kept before the app hears of it, so that its History shows it.
                if let (Update::Changed(set), Some((history, limits, root))) = (update, &outside) {
                    keep_outside_writes(history, limits, root, set, &blog);
                }
                on_update(update, &blog);
            })?
        };
        let _ = shared.set(watch.blog().clone());
        rebuild(&built, &watch.blog().read().expect("blog lock"), site, options.cache_dir.as_deref());
        let session = Arc::new(Session {
            root: root.to_path_buf(),
            watch,
            options: site,
            built,
            overlay: Mutex::default(),
            unsaved: Mutex::default(),
            last_preview: Mutex::default(),
            retags: Mutex::default(),
            journal: options.journal,
            kept: Mutex::default(),
            stop: Arc::default(),
            history: options.history,
            history_limits,
            search: Mutex::default(),
            checker: Mutex::default(),
            unchecked,
        });
        if session.journal.is_some() {
            let (weak, stop) = (Arc::downgrade(&session), session.stop.clone());
            std::thread::Builder::new()
                .name("hanji journal".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(JOURNAL_EVERY);
                        match weak.upgrade() {
                            Some(session) => session.flush_journal(),
                            None => return,
                        }
                    }
                })
                .expect("a thread for the journal");
        }
        Ok(session)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The blog as it is on disk now.
    pub fn blog(&self) -> RwLockReadGuard<'_, Blog> {
        self.watch.blog().read().expect("blog lock")
    }

    /// The blog once the watcher has applied the posts Hanji itself has just
    /// written (a save right before an export or a publish, which would
    /// otherwise go out as it was before the save), waiting at most
    /// `SETTLE_AT_MOST` for them.
    pub fn settled_blog(&self) -> RwLockReadGuard<'_, Blog> {
        let deadline = std::time::Instant::now() + SETTLE_AT_MOST;
        loop {
            let blog = self.blog();
            let waiting = self.own_writes().pending().iter().any(|path| {
                crate::watch::classify::classify(&blog.config, path) == crate::watch::classify::FileKind::Post
            });
            if !waiting || std::time::Instant::now() >= deadline {
                return blog;
            }
            drop(blog);
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    pub fn watch_state(&self) -> WatchState {
        self.watch.state()
    }

    pub fn own_writes(&self) -> &OwnWrites {
        self.watch.own_writes()
    }

    pub fn built(&self) -> RwLockReadGuard<'_, Built> {
        self.built.read().expect("built")
    }

    /// What the page at `site_path` shows, as the saved site is now.
    pub fn target(&self, site_path: &str) -> Option<Target> {
        match self.built().routes.find(site_path) {
            Found::At(target) => Some(target.clone()),
            Found::Redirect(_) | Found::Nowhere => None,
        }
    }

    /// The post at `path` (relative, confined) as it is on disk.
    pub fn read_post(&self, path: &Path) -> Result<Opened, AuthorError> {
        let shown = path.display();
        let bytes = fs::read_file(&self.root, path)
            .map_err(|e| AuthorError::Unreadable { path: path.to_path_buf(), reason: e.to_string() })?;
        let version = version_of(&bytes);
        let text = String::from_utf8(bytes).map_err(|e| {
            AuthorError::Invalid(format!(
                "`{shown}` is not UTF-8 text (byte {}); save it as UTF-8 in another editor",
                e.utf8_error().valid_up_to()
            ))
        })?;
        Ok(Opened { text, version })
    }

    /// Renders the post at `path` from the author's unsaved `text`, which the
    /// other pages of the preview then show too.
    pub fn preview(&self, path: &Path, text: String) -> PostPreview {
        let built = self.built();
        let rendered = preview::post_preview(&self.blog(), &built.theme, Some(&built.images), path, &text);
        self.unsaved.lock().expect("unsaved").insert(path.to_path_buf(), text);
        self.unchecked(path);
        *self.last_preview.lock().expect("preview") = Some((rendered.site_path.clone(), rendered.html.clone()));
        rendered
    }

    /// The answer to a request for `site_path` (decoded, without the
    /// leading `/`): the last post previewed as it was rendered, the other
    /// pages with the unsaved texts put over the saved ones, files as saved.
    pub fn answer(&self, site_path: &str) -> Answer {
        if let Some(answer) = self.search_file(site_path) {
            return answer;
        }
        let last = self.last_preview.lock().expect("preview").clone();
        if let Some((path, html)) = last
            && path == site_path
        {
            return Answer::html(200, html);
        }
        let unsaved = self.unsaved.lock().expect("unsaved").clone();
        let blog = self.blog();
        let built = self.built();
        let depends_on_text =
            !matches!(built.routes.get(site_path), Some(Target::Asset(_)) | Some(Target::Page(Page::Style)));
        let images = Some(built.images.as_ref());
        if unsaved.is_empty() || !depends_on_text {
            return preview::answer(&blog, &blog.library, &built.theme, &built.routes, images, site_path, self.options);
        }
        self.with_unsaved(&blog, &built, &unsaved, |library, routes| {
            preview::answer(&blog, library, &built.theme, routes, images, site_path, self.options)
        })
    }

    /// Calls `with` on the saved blog's posts with the `unsaved` texts put
    /// over them, and the addresses of that site. Made once after each
    /// change on disk, then kept as the unsaved texts change.
    fn with_unsaved<T>(
        &self,
        blog: &Blog,
        built: &Built,
        unsaved: &HashMap<PathBuf, String>,
        with: impl FnOnce(&Library, &Routes) -> T,
    ) -> T {
        let mut overlay = self.overlay.lock().expect("overlay");
        let overlay = match &mut *overlay {
            Some(overlay) if overlay.version == built.version => overlay,
            stale => stale.insert(Overlay {
                version: built.version,
                library: blog.library.clone(),
                routes: built.routes.clone(),
                texts: HashMap::new(),
            }),
        };
        // The texts that changed since, put in; those saved or thrown away since, taken out.
        let mut changed = BTreeSet::new();
        for (path, text) in unsaved {
            if overlay.texts.get(path) != Some(text) {
                overlay.library.insert(Post::parse(path, text));
                overlay.texts.insert(path.clone(), text.clone());
                changed.insert(path.clone());
            }
        }
        for path in overlay.texts.keys().filter(|path| !unsaved.contains_key(*path)).cloned().collect::<Vec<_>>() {
            match blog.library.contains(&path) {
                true => overlay.library.insert(blog.library.entry(&path)),
                false => drop(overlay.library.remove(&path)),
            }
            overlay.texts.remove(&path);
            changed.insert(path);
        }
        if !changed.is_empty() {
            let site = Site::for_posts(&blog.config, &overlay.library, &blog.assets, &built.theme, self.options);
            overlay.routes.update(&site, &changed);
        }
        with(&overlay.library, &overlay.routes)
    }

    /// Every problem of the blog as `hanji check` finds it, with the
    /// author's unsaved texts put over the saved posts: the problems the
    /// blog will have once they are saved. Only what changed since the last
    /// call (on disk, or in the unsaved texts) is checked again.
    pub fn problems(&self) -> Vec<Diagnostic> {
        let mut checker = self.checker.lock().expect("checker");
        let blog = self.blog();
        // Taken with the blog read: a change applied after is checked next time.
        let changed = std::mem::replace(&mut *self.unchecked.lock().expect("unchecked"), Touched::nothing());
        let unsaved = self.unsaved.lock().expect("unsaved").clone();
        if unsaved.is_empty() {
            return checker.check(&blog, &blog.library, &changed);
        }
        let built = self.built();
        self.with_unsaved(&blog, &built, &unsaved, |library, _| checker.check(&blog, library, &changed))
    }

    /// The text of `path` changed apart from the disk: check it again.
    fn unchecked(&self, path: &Path) {
        self.unchecked.lock().expect("unchecked").add(Touched::Files(BTreeSet::from([path.to_path_buf()])));
    }

    /// A file of the search index (`search/index.js`, …), as the export
    /// writes it from the saved blog; None for any other address, or when
    /// the site has no search.
    fn search_file(&self, site_path: &str) -> Option<Answer> {
        let blog = self.blog();
        let built = self.built();
        // Asked of every request: the site's lists (in time proportional to
        // the blog) are made only for a file of the search.
        let bare = Site::for_posts(&blog.config, &blog.library, &blog.assets, &built.theme, self.options);
        let name = site_path.strip_prefix(&bare.addresses().search()).filter(|_| bare.has_search())?;
        let site = Site::new(&blog.config, &blog.library, &blog.assets, &built.theme, self.options)
            .with_shortcodes(&blog.shortcodes);
        let mut index = self.search.lock().expect("search");
        built.search.get_or_init(|| site.update_search(&mut index));
        Some(Answer {
            status: 200,
            content_type: content_type(site_path),
            body: index.file(name)?.as_bytes().to_vec(),
            location: None,
        })
    }

    /// Saves `text` to `path`; with `version`, only over the file as it was
    /// read. Returns the version written.
    /// The text it replaces is kept in the history.
    pub fn save(&self, path: &Path, text: &str, version: Option<&str>) -> Result<String, AuthorError> {
        self.save_as(path, text, version, true)
    }

    /// Saves as `save` does, a save the app made by itself (after a pause
    /// in typing): it keeps the text it replaces only if no version of the
    /// post was kept in the last `every_minutes` (see `history::Limits`).
    pub fn autosave(&self, path: &Path, text: &str, version: Option<&str>) -> Result<String, AuthorError> {
        self.save_as(path, text, version, false)
    }

    /// The text a save replaces is kept before the new one is written.
    fn save_as(&self, path: &Path, text: &str, version: Option<&str>, asked: bool) -> Result<String, AuthorError> {
        let now = jiff::Timestamp::now().as_millisecond();
        let every = self.history_limits.lock().expect("history").every_minutes;
        let keeps = self.history.as_ref().is_some_and(|h| asked || !h.kept_lately(&self.root, path, now, every));
        let keep = |previous: &[u8]| {
            if keeps {
                let previous = String::from_utf8_lossy(previous);
                self.keep_version(path, Replaced { previous: &previous, next: text, cause: &Cause::Save });
            }
        };
        let written = author::save_post_keeping(&self.root, path, text, version, self.own_writes(), keep)?;
        self.forget_unsaved(path);
        Ok(written)
    }

    /// Keeps the text a write of Hanji's replaces in the history, before the
    /// write: a version that cannot be kept is only logged, and the write
    /// goes on.
    fn keep_version(&self, path: &Path, replaced: Replaced) {
        if let Some(history) = &self.history {
            keep_version(history, &self.history_limits, &self.root, path, replaced);
        }
    }

    /// How many saved versions each post keeps, and for how long; the
    /// versions past them go now, those of posts deleted since too (on a
    /// thread of their own: a blog's history may be large).
    pub fn set_history_limits(&self, limits: history::Limits) {
        *self.history_limits.lock().expect("history") = limits;
        if let Some(history) = self.history.clone() {
            let root = self.root.clone();
            let _ = std::thread::Builder::new().name("hanji history".into()).spawn(move || {
                history.prune_blog(&root, jiff::Timestamp::now().as_millisecond(), limits);
            });
        }
    }

    /// The saved versions of the post at `path`, newest first.
    pub fn versions(&self, path: &Path) -> Vec<Version> {
        self.history.as_ref().map(|h| h.versions(&self.root, path)).unwrap_or_default()
    }

    /// The text of saved version `id` of the post at `path`.
    pub fn read_version(&self, path: &Path, id: &str) -> Result<String, AuthorError> {
        let unreadable = |reason: String| AuthorError::Unreadable { path: path.to_path_buf(), reason };
        let history = self.history.as_ref().ok_or_else(|| unreadable("no saved versions are kept".into()))?;
        history.read(&self.root, path, id).map_err(|e| unreadable(format!("saved version {id}: {e}")))
    }

    /// The post's text is saved (or thrown away): nothing left to keep.
    pub fn forget_unsaved(&self, path: &Path) {
        let mut unsaved = self.unsaved.lock().expect("unsaved");
        if unsaved.remove(path).is_some() {
            self.unchecked(path);
        }
        if unsaved.is_empty() {
            // Nothing unsaved: the site is the saved one, and its copy is let go.
            *self.overlay.lock().expect("overlay") = None;
        }
        drop(unsaved);
        if let Some(journal) = &self.journal {
            journal.forget(&self.root, path);
        }
    }

    /// Writes each unsaved text that changed since the last time to the
    /// journal, and forgets those saved or thrown away since.
    pub fn flush_journal(&self) {
        let Some(journal) = &self.journal else { return };
        let unsaved = self.unsaved.lock().expect("unsaved").clone();
        let mut kept = self.kept.lock().expect("journal");
        for (path, text) in &unsaved {
            let version = version_of(text.as_bytes());
            if kept.get(path) == Some(&version) {
                continue;
            }
            if fs::read_file(&self.root, path).is_ok_and(|saved| saved == text.as_bytes()) {
                journal.forget(&self.root, path);
            } else if let Err(e) = journal.keep(&self.root, path, text) {
                eprintln!("hanji: cannot keep unsaved text of {} in the journal: {e}", path.display());
                continue;
            }
            kept.insert(path.clone(), version);
        }
        kept.retain(|path, _| {
            let still = unsaved.contains_key(path);
            if !still {
                journal.forget(&self.root, path);
            }
            still
        });
    }

    /// Unsaved text the journal kept from before the blog was last closed.
    pub fn recovered(&self) -> Vec<Kept> {
        self.journal.as_ref().map(|journal| journal.pending(&self.root)).unwrap_or_default()
    }

    /// Writes a new post titled `title` (see `author::new_post`).
    pub fn new_post(&self, title: &str, bundle: bool, today: jiff::civil::Date) -> Result<NewPost, AuthorError> {
        let blog = self.blog();
        author::new_post::new_post(&self.root, &blog.config, &blog.library, title, bundle, today, self.own_writes())
    }

    /// Gives the post at `path` a new slug and file; its unsaved text moves with it.
    pub fn rename_post(&self, path: &Path, slug: &str) -> Result<NewPost, AuthorError> {
        let layout = self.blog().config.layout.clone();
        let moved = author::rename::rename_post(&self.root, &layout, path, slug, self.own_writes())?;
        if let Some(history) = &self.history {
            history.moved(&self.root, path, &moved.path);
        }
        let text = self.unsaved.lock().expect("unsaved").get(path).cloned();
        self.forget_unsaved(path);
        if let Some(text) = text {
            self.unsaved.lock().expect("unsaved").insert(moved.path.clone(), text);
        }
        Ok(moved)
    }

    /// Moves the post at `path` to the trash; says where it went.
    pub fn delete_post(&self, path: &Path, can: TrashCan) -> Result<String, AuthorError> {
        let said = author::trash::trash_post(&self.root, path, can, self.own_writes())?;
        self.forget_unsaved(path);
        Ok(said)
    }

    /// Adds an image to the post at `post` where the layout publishes it;
    /// returns the Markdown that shows it.
    pub fn add_image(&self, post: &Path, name: &str, bytes: &[u8]) -> Result<String, AuthorError> {
        let layout = self.blog().config.layout.clone();
        author::image::add_image(&self.root, &layout, post, name, bytes, self.own_writes())
    }

    pub fn plan_retag(&self, from: &str, to: &str) -> Result<RetagPlan, AuthorError> {
        author::retag::plan_retag(&self.blog().library, from, to)
    }

    /// Renames the tag `from` to `to` in every post; returns the number to
    /// undo it by, and the files changed.
    pub fn retag(&self, from: &str, to: &str) -> Result<(usize, Vec<PathBuf>), AuthorError> {
        let plan = self.plan_retag(from, to)?;
        let cause = Cause::TagRename { from: plan.from.clone(), to: plan.to.clone() };
        let keep = |path: &Path, before: &str, after: &str| {
            self.keep_version(path, Replaced { previous: before, next: after, cause: &cause });
        };
        let batch = author::retag::retag(&self.root, &plan, self.own_writes(), &keep)?;
        let files = batch.files.iter().map(|(path, _, _)| path.clone()).collect();
        let mut retags = self.retags.lock().expect("retags");
        retags.push(batch);
        Ok((retags.len() - 1, files))
    }

    /// Puts back the tag rename `number`, in the files not edited since.
    pub fn undo_retag(&self, number: usize) -> Result<Vec<PathBuf>, AuthorError> {
        let retags = self.retags.lock().expect("retags");
        let batch = retags
            .get(number)
            .ok_or_else(|| AuthorError::Invalid("that tag rename cannot be undone any more".into()))?;
        let cause = Cause::TagRename { from: batch.to.clone(), to: batch.from.clone() };
        let keep = |path: &Path, before: &str, after: &str| {
            self.keep_version(path, Replaced { previous: before, next: after, cause: &cause });
        };
        author::retag::undo_retag(&self.root, batch, self.own_writes(), &keep)
    }

    /// The posts whose text holds `query` (any case), in the library's order:
    /// on every core, as each text is unpacked to be read.
    pub fn search(&self, query: &str) -> Vec<PathBuf> {
        use rayon::prelude::*;
        let query = query.trim().to_lowercase();
        if query.is_empty() {
            return Vec::new();
        }
        let blog = self.blog();
        let posts: Vec<&Post> = blog.library.posts().collect();
        posts.par_iter().filter(|p| p.source().to_lowercase().contains(&query)).map(|p| p.path.clone()).collect()
    }
}

/// Keeps the text of `path` that a write replaced in `history`; a version
/// that cannot be kept is only logged.
fn keep_version(history: &History, limits: &Mutex<history::Limits>, root: &Path, path: &Path, replaced: Replaced) {
    let limits = *limits.lock().expect("history");
    let now = jiff::Timestamp::now().as_millisecond();
    if let Err(e) = history.keep(root, path, replaced, now, limits) {
        eprintln!("hanji: cannot keep the replaced version of {} in the history: {e}", path.display());
    }
}

/// More posts than this changed by other programs in one batch (a branch
/// checked out, a script run over the folder) keep no versions: version
/// control has them, and writing them all would hold up the app.
const OUTSIDE_AT_ONCE: usize = 50;

/// The posts another program changed whose replaced text is kept: each such
/// post of the batch, unless there are more than `OUTSIDE_AT_ONCE`.
fn outside_writes(set: &ChangeSet) -> Vec<&crate::watch::FileChange> {
    let changed: Vec<_> = set.changed.iter().filter(|c| c.external && c.replaced.is_some()).collect();
    if changed.len() > OUTSIDE_AT_ONCE { Vec::new() } else { changed }
}

/// Keeps, for each post another program changed, the text Hanji had of it.
fn keep_outside_writes(history: &History, limits: &Mutex<history::Limits>, root: &Path, set: &ChangeSet, blog: &Blog) {
    for change in outside_writes(set) {
        let (Some(previous), Some(post)) = (&change.replaced, blog.library.post(&change.path)) else { continue };
        let replaced = Replaced { previous, next: &post.source(), cause: &Cause::Outside };
        keep_version(history, limits, root, &change.path, replaced);
    }
}

/// Builds the theme and the saved blog's addresses again (the templates or
/// the settings changed, or the whole folder was read again), and the image
/// catalog if `[images]` changed.
fn rebuild(built: &RwLock<Built>, blog: &Blog, options: SiteOptions, cache_dir: Option<&Path>) {
    let theme = Arc::new(Theme::new(&blog.templates).0);
    let routes = preview::routes(blog, &theme, options);
    let mut built = built.write().expect("built");
    let images = match built.images.settings() == &blog.config.images {
        true => built.images.clone(),
        false => Arc::new(Catalog::new(&blog.root, &blog.config.images, cache_dir)),
    };
    let version = built.version + 1;
    *built = Built { theme, routes, images, search: OnceLock::new(), version };
}

/// Moves the saved blog's addresses of the files `set` changed, and only
/// those (see `Routes::update`).
fn follow(built: &RwLock<Built>, blog: &Blog, options: SiteOptions, set: &ChangeSet) {
    let files = |changes: &[FileChange]| changes.iter().map(|c| c.path.clone()).collect::<Vec<_>>();
    let mut changed: BTreeSet<PathBuf> = files(&set.added).into_iter().chain(files(&set.changed)).collect();
    changed.extend(files(&set.removed));
    changed.extend(set.renamed.iter().flat_map(|r| [r.from.clone(), r.to.clone()]));
    changed.extend(set.assets.iter().cloned());
    let mut built = built.write().expect("built");
    let theme = built.theme.clone();
    let site = Site::for_posts(&blog.config, &blog.library, &blog.assets, &theme, options);
    built.routes.update(&site, &changed);
    built.search = OnceLock::new();
    built.version += 1;
}

#[cfg(test)]
mod tests {
    use std::sync::mpsc;
    use std::time::Instant;

    use super::*;

    const DEADLINE: Duration = Duration::from_secs(20);

    fn blog() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("posts")).unwrap();
        std::fs::write(dir.path().join("posts/a.md"), "---\ntitle: Alpha\ndate: 2026-07-17\ntags: [x]\n---\nAlpha.\n")
            .unwrap();
        dir
    }

    fn open(dir: &Path, journal: Option<Journal>) -> (Arc<Session>, mpsc::Receiver<Update>) {
        let (send, updates) = mpsc::channel();
        let options = SessionOptions {
            journal,
            site: SiteOptions { drafts: true, ..SiteOptions::default() },
            ..Default::default()
        };
        let session = Session::open(dir, options, move |update, _| {
            let _ = send.send(update.clone());
        })
        .unwrap();
        (session, updates)
    }

    fn wait_for(updates: &mpsc::Receiver<Update>, what: &str, wanted: impl Fn(&Update) -> bool) -> Update {
        let until = Instant::now() + DEADLINE;
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            match updates.recv_timeout(left) {
                Ok(update) if wanted(&update) => return update,
                Ok(_) => {}
                Err(_) => break,
            }
        }
        panic!("no update: {what}");
    }

    #[test]
    fn unsaved_text_shows_on_every_page_until_it_is_saved_or_forgotten() {
        let dir = blog();
        let (session, _) = open(dir.path(), None);
        let text = "---\ntitle: Alpha, unsaved\ndate: 2026-07-17\ntags: [x]\n---\nAlpha.\n".to_string();
        let preview = session.preview(Path::new("posts/a.md"), text);
        assert_eq!(preview.site_path, "posts/a/index.html");
        let home = |session: &Session| String::from_utf8(session.answer("").body).unwrap();
        assert!(home(&session).contains("Alpha, unsaved"), "the home page lists the unsaved title");
        assert!(String::from_utf8(session.answer("posts/a/index.html").body).unwrap().contains("Alpha, unsaved"));
        session.forget_unsaved(Path::new("posts/a.md"));
        *session.last_preview.lock().unwrap() = None;
        assert!(!home(&session).contains("Alpha, unsaved"), "thrown away: the saved title again");
    }

    #[test]
    fn site_pages_follow_each_unsaved_text_and_the_disk() {
        let dir = blog();
        let (session, updates) = open(dir.path(), None);
        let post = Path::new("posts/a.md");
        let text =
            |title: &str, tag: &str| format!("---\ntitle: {title}\ndate: 2026-07-17\ntags: [{tag}]\n---\nAlpha.\n");
        let page = |session: &Session, path: &str| {
            let answer = session.answer(path);
            (answer.status, String::from_utf8(answer.body).unwrap())
        };
        session.preview(post, text("First", "fresh"));
        assert!(page(&session, "").1.contains("First"));
        let (status, tag) = page(&session, "tags/fresh/");
        assert!(status == 200 && tag.contains("First"), "the unsaved tag has its page: {status}");
        session.preview(post, text("Second", "other"));
        let home = page(&session, "").1;
        assert!(home.contains("Second") && !home.contains("First"), "the next text, not the one before");
        assert_eq!(page(&session, "tags/fresh/").0, 404, "the tag no post has now");
        assert_eq!(page(&session, "tags/other/").0, 200);
        std::fs::write(dir.path().join("posts/b.md"), "---\ntitle: Beta\ndate: 2026-07-18\n---\nBeta.\n").unwrap();
        wait_for(&updates, "b added", |u| matches!(u, Update::Changed(set) if !set.added.is_empty()));
        let home = page(&session, "");
        assert!(home.1.contains("Beta") && home.1.contains("Second"), "the disk's change and the unsaved text");
        assert_eq!(page(&session, "posts/b/").0, 200);
        session.forget_unsaved(post);
        *session.last_preview.lock().unwrap() = None;
        assert!(page(&session, "").1.contains("Alpha") && page(&session, "tags/other/").0 == 404, "thrown away");
    }

    #[test]
    fn the_addresses_follow_the_disk() {
        let dir = blog();
        let (session, updates) = open(dir.path(), None);
        assert_eq!(session.target("posts/a/"), Some(Target::Page(Page::Post("posts/a.md".into()))));
        assert_eq!(session.target("posts/b/"), None);
        std::fs::write(dir.path().join("posts/b.md"), "---\ntitle: Beta\ndate: 2026-07-18\n---\nBeta.\n").unwrap();
        wait_for(&updates, "b added", |u| matches!(u, Update::Changed(set) if !set.added.is_empty()));
        assert_eq!(session.target("posts/b/"), Some(Target::Page(Page::Post("posts/b.md".into()))));
        std::fs::create_dir_all(dir.path().join("templates")).unwrap();
        std::fs::write(dir.path().join("templates/404.html"), "<p>nothing here, 없음</p>").unwrap();
        wait_for(&updates, "a template", |u| matches!(u, Update::Changed(set) if set.templates));
        assert!(
            String::from_utf8(session.answer("nowhere/").body).unwrap().contains("없음"),
            "the theme was built again"
        );
    }

    #[test]
    fn own_deletes_and_renames_come_back_as_hanjis() {
        let dir = blog();
        let (session, updates) = open(dir.path(), None);
        session.rename_post(Path::new("posts/a.md"), "alpha").unwrap();
        let update = wait_for(&updates, "a renamed", |u| matches!(u, Update::Changed(set) if !set.is_empty()));
        let Update::Changed(set) = update else { unreachable!() };
        let moved = set.renamed.iter().map(|r| r.external).chain(set.added.iter().map(|a| a.external));
        assert!(moved.clone().count() > 0 && moved.into_iter().all(|external| !external), "{set:?}");
        assert!(set.removed.iter().all(|r| !r.external), "{set:?}");
        session.delete_post(Path::new("posts/alpha.md"), TrashCan::Blog).unwrap();
        let update =
            wait_for(&updates, "alpha removed", |u| matches!(u, Update::Changed(set) if !set.removed.is_empty()));
        let Update::Changed(set) = update else { unreachable!() };
        assert_eq!(set.removed.len(), 1);
        assert!(!set.removed[0].external, "Hanji's own delete");
        std::fs::write(dir.path().join("posts/c.md"), "---\ntitle: C\n---\n").unwrap();
        wait_for(&updates, "c added", |u| matches!(u, Update::Changed(set) if !set.added.is_empty()));
        std::fs::remove_file(dir.path().join("posts/c.md")).unwrap();
        let update = wait_for(&updates, "c removed", |u| matches!(u, Update::Changed(set) if !set.removed.is_empty()));
        let Update::Changed(set) = update else { unreachable!() };
        assert!(set.removed[0].external, "removed by someone else");
    }

    #[test]
    fn the_journal_keeps_unsaved_text_until_it_is_saved() {
        let dir = blog();
        let data = tempfile::tempdir().unwrap();
        let (session, _) = open(dir.path(), Some(Journal::new(data.path())));
        session.preview(Path::new("posts/a.md"), "unsaved, 한글".into());
        session.flush_journal();
        let kept: Vec<String> = session.recovered().into_iter().map(|k| k.text).collect();
        assert_eq!(kept, ["unsaved, 한글"]);
        session.save(Path::new("posts/a.md"), "saved", None).unwrap();
        session.flush_journal();
        assert!(session.recovered().is_empty(), "saved: nothing left to offer");
    }

    #[test]
    fn autosaves_while_typing_keep_one_version_and_each_asked_save_keeps_one() {
        let dir = blog();
        let data = tempfile::tempdir().unwrap();
        let (session, _updates) = open_with_history(dir.path(), data.path());
        let post = Path::new("posts/a.md");
        for n in 1..=5 {
            session.autosave(post, &format!("글 {n}\n"), None).unwrap();
        }
        let versions = session.versions(post);
        assert_eq!(versions.len(), 1, "the first autosave of a stretch of typing keeps the text before it");
        assert!(session.read_version(post, &versions[0].id).unwrap().starts_with("---\ntitle: Alpha"));
        session.save(post, "저장\n", None).unwrap();
        session.save(post, "또 저장\n", None).unwrap();
        assert_eq!(session.versions(post).len(), 3, "a save the author asks for keeps one each time");
        session.set_history_limits(history::Limits { every_minutes: 0, ..history::Limits::default() });
        session.autosave(post, "자동\n", None).unwrap();
        session.autosave(post, "자동 둘\n", None).unwrap();
        assert_eq!(session.versions(post).len(), 5, "0 minutes: every autosave keeps one");
    }

    #[test]
    fn each_save_keeps_the_version_it_replaced() {
        let dir = blog();
        let data = tempfile::tempdir().unwrap();
        let (send, _updates) = mpsc::channel();
        let options = SessionOptions { history: Some(History::new(data.path())), ..Default::default() };
        let session = Session::open(dir.path(), options, move |update, _| {
            let _ = send.send(update.clone());
        })
        .unwrap();
        let post = Path::new("posts/a.md");
        session.save(post, "첫 저장\n", None).unwrap();
        session.save(post, "두 번째 저장\n", None).unwrap();
        let versions = session.versions(post);
        assert_eq!(versions.len(), 2);
        assert_eq!(session.read_version(post, &versions[0].id).unwrap(), "첫 저장\n");
        assert!(session.read_version(post, &versions[1].id).unwrap().starts_with("---\ntitle: Alpha"));
        session.set_history_limits(history::Limits { versions: 1, days: 30, every_minutes: 5 });
        session.save(post, "세 번째\n", None).unwrap();
        let versions = session.versions(post);
        assert_eq!(versions.len(), 1, "pruned to the limit at the save");
        assert_eq!(session.read_version(post, &versions[0].id).unwrap(), "두 번째 저장\n");
        assert!(session.read_version(post, "999").is_err());
    }

    /// A session keeping versions in `data`, with its watch updates.
    fn open_with_history(dir: &Path, data: &Path) -> (Arc<Session>, mpsc::Receiver<Update>) {
        let (send, updates) = mpsc::channel();
        let options = SessionOptions { history: Some(History::new(data)), ..Default::default() };
        let session = Session::open(dir, options, move |update, _| {
            let _ = send.send(update.clone());
        })
        .unwrap();
        (session, updates)
    }

    #[test]
    fn a_tag_rename_and_its_undo_keep_the_texts_they_replaced() {
        let dir = blog();
        std::fs::write(dir.path().join("posts/b.md"), "---\ntitle: 베타\ndate: 2026-07-18\ntags: [x, y]\n---\n본문.\n")
            .unwrap();
        let data = tempfile::tempdir().unwrap();
        let (session, updates) = open_with_history(dir.path(), data.path());
        let before_b = std::fs::read_to_string(dir.path().join("posts/b.md")).unwrap();
        let (number, files) = session.retag("x", "분산 학습").unwrap();
        assert_eq!(files.len(), 2);
        let renamed = Cause::TagRename { from: "x".into(), to: "분산 학습".into() };
        for file in &files {
            let versions = session.versions(file);
            assert_eq!(versions.iter().map(|v| &v.cause).collect::<Vec<_>>(), [&renamed], "{}", file.display());
        }
        let b = Path::new("posts/b.md");
        assert_eq!(session.read_version(b, &session.versions(b)[0].id).unwrap(), before_b);
        // Hanji's own writes, when the watch sees them, are not also kept as another program's.
        let seen = |u: &Update| matches!(u, Update::Changed(set) if set.changed.iter().any(|c| c.path == b));
        wait_for(&updates, "the rename seen", seen);
        assert_eq!(session.versions(b).len(), 1);

        let renamed_b = std::fs::read_to_string(dir.path().join(b)).unwrap();
        assert!(renamed_b.contains("분산 학습"), "{renamed_b}");
        session.undo_retag(number).unwrap();
        let versions = session.versions(b);
        let back = Cause::TagRename { from: "분산 학습".into(), to: "x".into() };
        assert_eq!(versions.iter().map(|v| &v.cause).collect::<Vec<_>>(), [&back, &renamed], "newest first");
        assert_eq!(session.read_version(b, &versions[0].id).unwrap(), renamed_b);
        assert_eq!(std::fs::read_to_string(dir.path().join(b)).unwrap(), before_b, "put back");
    }

    #[test]
    fn another_programs_write_keeps_the_text_hanji_had() {
        let dir = blog();
        let data = tempfile::tempdir().unwrap();
        let (session, updates) = open_with_history(dir.path(), data.path());
        let post = Path::new("posts/a.md");
        let before = std::fs::read_to_string(dir.path().join(post)).unwrap();
        let after = format!("{before}다른 편집기에서 더한 줄.\n");
        std::fs::write(dir.path().join(post), &after).unwrap();
        wait_for(&updates, "the outside change", |u| matches!(u, Update::Changed(set) if !set.changed.is_empty()));
        let versions = session.versions(post);
        assert_eq!(versions.len(), 1, "kept before the change was told");
        assert_eq!(versions[0].cause, Cause::Outside);
        assert_eq!(session.read_version(post, &versions[0].id).unwrap(), before);

        // A save of Hanji's is a save, not an outside write.
        session.save(post, "저장한 글\n", None).unwrap();
        wait_for(
            &updates,
            "the save seen",
            |u| matches!(u, Update::Changed(set) if set.changed.iter().any(|c| !c.external)),
        );
        let causes: Vec<Cause> = session.versions(post).into_iter().map(|v| v.cause).collect();
        assert_eq!(causes, [Cause::Save, Cause::Outside]);
    }

    #[test]
    fn many_outside_writes_at_once_keep_no_versions() {
        let change = |n: usize, external: bool| crate::watch::FileChange {
            path: PathBuf::from(format!("posts/{n}.md")),
            external,
            replaced: Some(format!("글 {n}")),
        };
        let mut set =
            ChangeSet { changed: (0..OUTSIDE_AT_ONCE).map(|n| change(n, true)).collect(), ..Default::default() };
        set.changed.push(change(OUTSIDE_AT_ONCE, false));
        set.changed.push(crate::watch::FileChange { replaced: None, ..change(OUTSIDE_AT_ONCE + 1, true) });
        assert_eq!(outside_writes(&set).len(), OUTSIDE_AT_ONCE, "Hanji's own writes and unreadable posts are left out");
        set.changed.push(change(OUTSIDE_AT_ONCE + 2, true));
        assert!(outside_writes(&set).is_empty(), "a checkout of many posts keeps none");
    }

    #[test]
    fn tag_renames_are_undone_and_text_is_searched() {
        let dir = blog();
        let (session, _) = open(dir.path(), None);
        let (number, files) = session.retag("x", "gpu").unwrap();
        assert_eq!(files, [PathBuf::from("posts/a.md")]);
        let text = std::fs::read_to_string(dir.path().join("posts/a.md")).unwrap();
        assert!(text.contains("tags: [gpu]"), "{text}");
        assert_eq!(session.undo_retag(number).unwrap(), files);
        assert!(std::fs::read_to_string(dir.path().join("posts/a.md")).unwrap().contains("tags: [x]"));
        assert!(session.undo_retag(number + 1).is_err());
        assert_eq!(session.search("  ALPHA. "), [PathBuf::from("posts/a.md")]);
        assert!(session.search("zzz").is_empty() && session.search(" ").is_empty());
    }
}
