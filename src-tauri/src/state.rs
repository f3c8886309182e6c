//! What the app holds while it runs: the open blog's editing session (the
//! core's `Session`: the watched blog, its theme and addresses, the unsaved
//! texts, the journal, the saved versions, the tag renames to undo), the stream of its changes
//! to the UI, the blog's problems checked off the window's thread after each
//! change, and what the app remembers and asks.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, OnceLock, Weak};

use tauri::ipc::Channel;

use hanji::{Diagnostic, History, Journal, LoadProgress, Session, SessionOptions, SiteOptions, TrashCan, Update};

use crate::dialogs::Dialogs;
use crate::error::Result;
use crate::progress::LoadingReport;
use crate::store::Store;
use crate::view::{AppError, BlogView, ErrorKind, Loading, WatchUpdate};

/// What the preview shows: drafts too, as the author sees the blog.
pub const PREVIEW: SiteOptions = SiteOptions { drafts: true, source_lines: false, search: false, services: false };

pub struct AppState {
    pub blog: Mutex<Option<Arc<OpenBlog>>>,
    pub store: Store,
    /// The blog to open at start (the command line's; else the last one is).
    pub start: Option<PathBuf>,
    pub dialogs: Dialogs,
    pub trash: TrashCan,
    /// The folder of the last export: the only one "Show folder" opens.
    pub exported: Mutex<Option<PathBuf>>,
    /// Where unsaved text is kept against a crash (None: nowhere).
    pub journal: Option<Journal>,
    /// Where saves keep the versions they replace (None: nowhere).
    pub history: Option<History>,
    /// The publish running, to cancel it.
    pub publishing: Mutex<Option<Arc<std::sync::atomic::AtomicBool>>>,
    /// The blog opened at start, read while the window starts.
    first: Mutex<First>,
    first_read: Condvar,
}

/// Where opening the first blog is.
enum First {
    NotAsked,
    Opening(LoadingReport),
    /// The blog (None: there was none to open) or why it could not be opened.
    Done(Option<Result<Arc<OpenBlog>>>),
}

impl AppState {
    pub fn new(
        store: Store,
        start: Option<PathBuf>,
        dialogs: Dialogs,
        trash: TrashCan,
        journal: Option<Journal>,
        history: Option<History>,
    ) -> Self {
        AppState {
            blog: Mutex::default(),
            store,
            start,
            dialogs,
            trash,
            exported: Mutex::default(),
            journal,
            history,
            publishing: Mutex::default(),
            first: Mutex::new(First::NotAsked),
            first_read: Condvar::new(),
        }
    }

    /// Opens the blog to start with: the command line's, else the last one;
    /// None if there is none (the UI welcomes the author with a way to open
    /// one). An installed app has no sample blog beside it: `make run` names
    /// the sample on the command line. Asked again (the window
    /// starting reads it early, then the UI asks), the one reading waits
    /// for it, `progress` hearing how far it has come.
    pub fn open_first(&self, progress: Option<Channel<Loading>>) -> Option<Result<Arc<OpenBlog>>> {
        let mut first = self.first.lock().expect("first blog");
        loop {
            match &*first {
                First::NotAsked => break,
                First::Opening(report) => {
                    if let Some(channel) = progress.clone() {
                        report.listen(channel);
                    }
                    first = self.first_read.wait(first).expect("first blog");
                }
                First::Done(result) => return result.clone(),
            }
        }
        let report = LoadingReport::default();
        if let Some(channel) = progress {
            report.listen(channel);
        }
        *first = First::Opening(report.clone());
        drop(first);
        let root = self.start.clone().or_else(|| self.store.recent().into_iter().find(|p| p.is_dir()));
        let result = root.map(|root| self.open(&root, report.progress(&root)));
        *self.first.lock().expect("first blog") = First::Done(result.clone());
        self.first_read.notify_all();
        result
    }

    pub fn open_blog(&self) -> Result<Arc<OpenBlog>> {
        self.blog.lock().expect("app state").clone().ok_or_else(AppError::no_blog)
    }

    /// Opens and watches the blog in `root`, in place of the one open,
    /// telling `progress` how far reading it has come.
    pub fn open(&self, root: &Path, progress: LoadProgress) -> Result<Arc<OpenBlog>> {
        let root = root.canonicalize().map_err(|e| {
            AppError::new(ErrorKind::NotFound, format!("cannot open `{}`: {e}", root.display()))
                .at(root.to_string_lossy().into_owned())
        })?;
        // The old blog stops being watched before the new one starts.
        self.blog.lock().expect("app state").take();
        let open = OpenBlog::start(&root, self.journal.clone(), self.history.clone(), progress)?;
        open.session.set_history_limits(self.store.settings().history_limits());
        *self.blog.lock().expect("app state") = Some(open.clone());
        self.store.opened(&root);
        Ok(open)
    }
}

/// The open blog: its session, where its changes go, and its problems.
pub struct OpenBlog {
    pub session: Arc<Session>,
    listener: Arc<Mutex<Option<Channel<WatchUpdate>>>>,
    checks: Arc<Checks>,
}

/// The blog's problems, checked again on a thread of their own after each
/// change (on disk, or in an unsaved text): one check at a time, and one
/// more after it when something changed meanwhile. Each set found goes to
/// the UI as `WatchUpdate::Problems`.
#[derive(Default)]
struct Checks {
    session: OnceLock<Weak<Session>>,
    listener: Arc<Mutex<Option<Channel<WatchUpdate>>>>,
    /// The last set found, for a UI that starts listening after it.
    last: Mutex<Option<Vec<Diagnostic>>>,
    /// (a check is running, another is wanted after it)
    running: Mutex<(bool, bool)>,
}

impl Checks {
    fn again(self: &Arc<Self>) {
        {
            let mut running = self.running.lock().expect("checks");
            if running.0 {
                running.1 = true;
                return;
            }
            *running = (true, false);
        }
        let checks = self.clone();
        let spawned = std::thread::Builder::new().name("hanji check".into()).spawn(move || {
            loop {
                let Some(session) = checks.session.get().and_then(Weak::upgrade) else { break };
                let problems = session.problems();
                drop(session);
                // Kept and sent at once (under the listener's lock): a UI that
                // starts listening meanwhile gets it either way.
                let listener = checks.listener.lock().expect("listener");
                *checks.last.lock().expect("checks") = Some(problems.clone());
                if let Some(channel) = listener.as_ref() {
                    let _ = channel.send(WatchUpdate::Problems { problems });
                }
                drop(listener);
                let mut running = checks.running.lock().expect("checks");
                if !running.1 {
                    break;
                }
                running.1 = false;
            }
            checks.running.lock().expect("checks").0 = false;
        });
        if let Err(e) = spawned {
            eprintln!("hanji: cannot check the blog's problems: {e}");
            self.running.lock().expect("checks").0 = false;
        }
    }
}

impl OpenBlog {
    fn start(
        root: &Path,
        journal: Option<Journal>,
        history: Option<History>,
        progress: LoadProgress,
    ) -> Result<Arc<Self>> {
        let listener: Arc<Mutex<Option<Channel<WatchUpdate>>>> = Arc::default();
        let checks = Arc::new(Checks { listener: listener.clone(), ..Checks::default() });
        let on_update = {
            let (listener, checks) = (listener.clone(), checks.clone());
            move |update: &Update, blog: &hanji::Blog| {
                let message = match update {
                    Update::Changed(set) => WatchUpdate::changed(set, blog, hanji::WatchState::Watching),
                    Update::Gone { message } => WatchUpdate::Gone { message: message.clone() },
                    Update::Back { message } => WatchUpdate::Back { message: message.clone() },
                    Update::Notice { message } => WatchUpdate::Notice { message: message.clone() },
                };
                if let Some(channel) = listener.lock().expect("listener").as_ref() {
                    // The UI may be reloading; the next change reaches it again.
                    let _ = channel.send(message);
                }
                if matches!(update, Update::Changed(_) | Update::Back { .. }) {
                    checks.again();
                }
            }
        };
        // Saves killed halfway (a crash) left their temp files: the posts are whole.
        hanji::clean_temp_files(root);
        // Scheduled posts are judged by the wall clock, or by `HANJI_NOW` (tests).
        let schedule = hanji::Schedule { clock: hanji::Clock::from_env().unwrap_or_default(), future: false };
        let watch = hanji::WatchOptions { schedule, ..Default::default() };
        let cache_dir = hanji::cache_dir();
        let options = SessionOptions { site: PREVIEW, journal, history, watch, cache_dir, progress };
        let session = Session::open(root, options, on_update)
            .map_err(|e| AppError::new(ErrorKind::Io, e.to_string()).at(root.to_string_lossy().into_owned()))?;
        let _ = checks.session.set(Arc::downgrade(&session));
        // The first check runs while the window shows the blog.
        checks.again();
        Ok(Arc::new(OpenBlog { session, listener, checks }))
    }

    pub fn root(&self) -> &Path {
        self.session.root()
    }

    pub fn view(&self) -> BlogView {
        BlogView::of(&self.session.blog(), self.session.watch_state())
    }

    /// Sends every change to `channel` from now on, starting with the
    /// problems last found (a check still running sends its own).
    pub fn listen(&self, channel: Channel<WatchUpdate>) {
        let mut listener = self.listener.lock().expect("listener");
        if let Some(problems) = self.checks.last.lock().expect("checks").clone() {
            let _ = channel.send(WatchUpdate::Problems { problems });
        }
        *listener = Some(channel);
    }

    /// Checks the blog's problems again (an unsaved text changed); the UI
    /// hears the set found.
    pub fn recheck(&self) {
        self.checks.again();
    }

    /// `given` (from the UI) as a path inside this blog.
    pub fn inside(&self, given: &str) -> Result<PathBuf> {
        Ok(hanji::inside(self.root(), given)?)
    }
}
