//! What the app holds while it runs: the open blog (watched), the author's
//! unsaved texts for the preview, the last tag rename (to undo), and the
//! stream of changes to the UI.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::Duration;

use tauri::ipc::Channel;

use hanji::author::journal::Journal;
use hanji::author::retag::RetagBatch;
use hanji::author::trash::TrashCan;
use hanji::author::version_of;
use hanji::load::Blog;
use hanji::preview::Target;
use hanji::site::SiteOptions;
use hanji::site::theme::Theme;
use hanji::watch::{SharedBlog, Update, Watch, WatchOptions};

use crate::dialogs::Dialogs;
use crate::error::{AppError, Result};
use crate::store::Store;
use crate::view::{BlogView, WatchUpdate};

/// What the preview shows: drafts too, as the author sees the blog.
pub const PREVIEW: SiteOptions = SiteOptions { drafts: true, source_lines: false };

pub type Routes = HashMap<String, Target>;

pub struct AppState {
    pub blog: Mutex<Option<Arc<OpenBlog>>>,
    pub store: Store,
    /// The blog to open at start (the command line's, else the last one, else the sample).
    pub start: Option<PathBuf>,
    pub dialogs: Dialogs,
    pub trash: TrashCan,
    /// The folder of the last export: the only one "Show folder" opens.
    pub exported: Mutex<Option<PathBuf>>,
    /// Where unsaved text is kept against a crash (None: nowhere).
    pub journal: Option<Journal>,
}

impl AppState {
    pub fn new(
        store: Store,
        start: Option<PathBuf>,
        dialogs: Dialogs,
        trash: TrashCan,
        journal: Option<Journal>,
    ) -> Self {
        AppState { blog: Mutex::default(), store, start, dialogs, trash, exported: Mutex::default(), journal }
    }

    pub fn open_blog(&self) -> Result<Arc<OpenBlog>> {
        self.blog.lock().expect("app state").clone().ok_or_else(AppError::no_blog)
    }

    /// Opens and watches the blog in `root`, in place of the one open.
    pub fn open(&self, root: &Path) -> Result<Arc<OpenBlog>> {
        let root = root.canonicalize().map_err(|e| {
            AppError::new("not_found", format!("cannot open `{}`: {e}", root.display()))
                .at(root.to_string_lossy().into_owned())
        })?;
        // The old blog stops being watched before the new one starts.
        self.blog.lock().expect("app state").take();
        let open = OpenBlog::start(&root, self.journal.clone())?;
        *self.blog.lock().expect("app state") = Some(open.clone());
        self.store.opened(&root);
        Ok(open)
    }
}

pub struct OpenBlog {
    pub root: PathBuf,
    pub watch: Watch,
    theme: Arc<RwLock<Arc<Theme>>>,
    /// The saved blog's addresses, made again after each change on disk:
    /// files and the theme's style do not depend on unsaved text.
    saved_routes: Arc<Mutex<Option<Arc<Routes>>>>,
    /// Unsaved texts by post file (relative), put over the saved posts in the preview.
    pub unsaved: Mutex<HashMap<PathBuf, String>>,
    /// The last post preview: its site path and page.
    pub last_preview: Mutex<Option<(String, String)>>,
    pub retags: Mutex<Vec<RetagBatch>>,
    listener: Arc<Mutex<Option<Channel<WatchUpdate>>>>,
    pub journal: Option<Journal>,
    /// What the journal holds now: the version of each post's kept text.
    kept: Mutex<HashMap<PathBuf, String>>,
    /// Tells the journal's thread to stop (the blog was closed).
    stop: Arc<AtomicBool>,
}

/// How often unsaved text is written to the journal.
const JOURNAL_EVERY: Duration = Duration::from_secs(2);

impl Drop for OpenBlog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl OpenBlog {
    fn start(root: &Path, journal: Option<Journal>) -> Result<Arc<Self>> {
        let listener: Arc<Mutex<Option<Channel<WatchUpdate>>>> = Arc::default();
        let shared: Arc<OnceLock<SharedBlog>> = Arc::default();
        let theme = Arc::new(RwLock::new(Arc::new(Theme::new(&Default::default()).0)));
        let saved_routes: Arc<Mutex<Option<Arc<Routes>>>> = Arc::default();
        let on_update = {
            let (listener, shared, theme) = (listener.clone(), shared.clone(), theme.clone());
            let saved_routes = saved_routes.clone();
            move |update: &Update| {
                let Some(blog) = shared.get() else { return };
                saved_routes.lock().expect("routes").take();
                let message = match update {
                    Update::Changed(set) => {
                        let blog = blog.read().expect("blog lock");
                        if set.templates || set.config || set.rescanned {
                            *theme.write().expect("theme") = Arc::new(Theme::new(&blog.templates).0);
                        }
                        WatchUpdate::changed(set, BlogView::of(&blog, hanji::watch::WatchState::Watching))
                    }
                    Update::Gone { message } => WatchUpdate::Gone { message: message.clone() },
                    Update::Back { message } => WatchUpdate::Back { message: message.clone() },
                    Update::Notice { message } => WatchUpdate::Notice { message: message.clone() },
                };
                if let Some(channel) = listener.lock().expect("listener").as_ref() {
                    // The UI may be reloading; the next change reaches it again.
                    let _ = channel.send(message);
                }
            }
        };
        let watch = Watch::start(root, WatchOptions::default(), on_update)
            .map_err(|e| AppError::new("io", e.to_string()).at(root.to_string_lossy().into_owned()))?;
        let _ = shared.set(watch.blog().clone());
        *theme.write().expect("theme") = Arc::new(Theme::new(&watch.blog().read().expect("blog lock").templates).0);
        // Saves killed halfway (a crash) left their temp files: the posts are whole.
        hanji::author::save::clean_temp_files(root);
        let open = Arc::new(OpenBlog {
            root: root.to_path_buf(),
            watch,
            theme,
            saved_routes,
            unsaved: Mutex::default(),
            last_preview: Mutex::default(),
            retags: Mutex::default(),
            listener,
            journal,
            kept: Mutex::default(),
            stop: Arc::default(),
        });
        if open.journal.is_some() {
            let (blog, stop) = (Arc::downgrade(&open), open.stop.clone());
            std::thread::Builder::new()
                .name("hanji journal".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(JOURNAL_EVERY);
                        match blog.upgrade() {
                            Some(open) => open.flush_journal(),
                            None => return,
                        }
                    }
                })
                .expect("a thread for the journal");
        }
        Ok(open)
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
            if std::fs::read(self.root.join(path)).is_ok_and(|saved| saved == text.as_bytes()) {
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

    /// The post's text is saved (or thrown away): nothing left to keep.
    pub fn saved(&self, path: &Path) {
        self.unsaved.lock().expect("unsaved").remove(path);
        if let Some(journal) = &self.journal {
            journal.forget(&self.root, path);
        }
    }

    pub fn blog(&self) -> std::sync::RwLockReadGuard<'_, Blog> {
        self.watch.blog().read().expect("blog lock")
    }

    pub fn theme(&self) -> Arc<Theme> {
        self.theme.read().expect("theme").clone()
    }

    /// The saved blog's addresses (made once per change on disk).
    pub fn saved_routes(&self, blog: &Blog, theme: &Theme) -> Arc<Routes> {
        let mut cached = self.saved_routes.lock().expect("routes");
        cached.get_or_insert_with(|| Arc::new(hanji::preview::routes(blog, theme, PREVIEW))).clone()
    }

    pub fn view(&self) -> BlogView {
        BlogView::of(&self.blog(), self.watch.state())
    }

    pub fn listen(&self, channel: Channel<WatchUpdate>) {
        *self.listener.lock().expect("listener") = Some(channel);
    }

    /// `given` (from the UI) as a path inside this blog.
    pub fn inside(&self, given: &str) -> Result<PathBuf> {
        Ok(hanji::author::inside(&self.root, given)?)
    }
}
