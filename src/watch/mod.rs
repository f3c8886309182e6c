//! Following the blog folder: the folder is watched recursively (notify,
//! debounced), each batch of paths is applied to the blog, and what changed
//! is reported as one change set. Used by the app and by `hanji serve`.
//!
//! When the system cannot keep up, the watch says so and falls back: lost
//! events (a full queue) read the whole folder again; a folder that cannot be
//! watched (out of inotify watches) is polled instead; a blog folder deleted
//! or moved away leaves the last blog in place, is reported, and is picked up
//! again when it comes back.

mod batcher;
pub mod changes;
pub mod classify;

use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use notify::event::{AccessKind, AccessMode};
use notify::{EventKind, PollWatcher, RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, NoCache, RecommendedCache, new_debouncer_opt};
use serde::Serialize;

pub use changes::{Batch, ChangeSet, FileChange, Rename, TagChange, apply, rescan};

use crate::blog::{Blog, Schedule};
pub use crate::fs::OwnWrites;
use crate::fs::identity;
use crate::load::{self, LoadError};
pub use crate::site::stale::StalePages;
use batcher::Batcher;

/// How often a watch that has nothing to do checks that the folder is there.
const HEARTBEAT: Duration = Duration::from_millis(250);

/// A watched blog is held open for long: its posts hold their texts packed,
/// when it is first read, when a post is read again and when the folder is.
const TEXTS: load::Texts = load::Texts::Packed;

#[derive(Debug, Clone, Copy)]
pub struct WatchOptions {
    /// Events on a path are held this long, so that a file written in chunks
    /// or saved through a temp file is read once, when it is whole.
    pub debounce: Duration,
    /// Poll instead of asking the system for events (the fallback when the
    /// system cannot watch the folder).
    pub poll: bool,
    pub poll_interval: Duration,
    /// When the blog is read (the clock its scheduled posts are judged by).
    pub schedule: Schedule,
}

impl Default for WatchOptions {
    fn default() -> Self {
        Self {
            debounce: Duration::from_millis(50),
            poll: false,
            poll_interval: Duration::from_millis(500),
            schedule: Schedule::default(),
        }
    }
}

/// What a watch tells its owner, on the watch's own thread.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Update {
    /// The blog changed on disk; the shared `Blog` already shows it.
    Changed(Box<ChangeSet>),
    /// The blog folder was deleted or moved away. The last blog is kept
    /// until the folder is back (then a `Changed` follows).
    Gone { message: String },
    /// The blog folder is there again; a `Changed` with what it holds follows.
    Back { message: String },
    /// Something worth telling the author: a fallback taken, events lost.
    Notice { message: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum WatchState {
    /// The system reports changes as they happen.
    Watching,
    /// The folder is read every `poll_interval` for changes.
    Polling,
    /// The blog folder is not there.
    Gone,
}

#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error("cannot watch `{path}`: {source}")]
    Notify { path: PathBuf, source: notify::Error },
}

/// The blog as the watch keeps it: read it, render from it; the watch alone
/// writes it, for the moment it takes to apply one batch.
pub type SharedBlog = Arc<RwLock<Blog>>;

/// A watched blog folder. Stops watching when dropped.
pub struct Watch {
    blog: SharedBlog,
    own_writes: Arc<OwnWrites>,
    state: Arc<Mutex<WatchState>>,
    signals: Sender<Signal>,
    thread: Option<JoinHandle<()>>,
}

enum Signal {
    Events(DebounceEventResult),
    Stop,
}

impl Watch {
    /// Starts watching `root`, then loads it (so no change made meanwhile is
    /// missed), and calls `on_update` after every change from then on.
    pub fn start(
        root: &Path,
        options: WatchOptions,
        on_update: impl FnMut(&Update) + Send + 'static,
    ) -> Result<Watch, WatchError> {
        Watch::start_reporting(root, options, &load::Progress::default(), on_update)
    }

    /// `start`, telling `progress` how far the first reading of the blog has come.
    pub fn start_reporting(
        root: &Path,
        mut options: WatchOptions,
        progress: &load::Progress,
        on_update: impl FnMut(&Update) + Send + 'static,
    ) -> Result<Watch, WatchError> {
        let load_options = load::LoadOptions {
            texts: TEXTS,
            progress: progress.clone(),
            schedule: options.schedule,
            ..load::LoadOptions::default()
        };
        let (signals, receiver) = mpsc::channel();
        let watched = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        let identity = identity(root);
        // Watch first, then load: a change made meanwhile is then in the
        // load, or in an event, or both (which applies the same again).
        let (watcher, notice) = match start_watcher(&watched, &mut options, &signals) {
            Ok(started) => started,
            Err(_) if !root.is_dir() => {
                return Err(load::load_with(root, &load_options)
                    .err()
                    .unwrap_or(LoadError::NotFound(root.into()))
                    .into());
            }
            Err(source) => return Err(WatchError::Notify { path: root.into(), source }),
        };
        let state = if options.poll { WatchState::Polling } else { WatchState::Watching };
        let mut follower = Follower {
            root: root.to_path_buf(),
            watched,
            identity,
            options,
            signals: signals.clone(),
            watcher: Some(watcher),
            state: Arc::new(Mutex::new(state)),
            blog: Arc::new(RwLock::new(load::load_with(root, &load_options)?)),
            own_writes: Arc::new(OwnWrites::new()),
            on_update: Box::new(on_update),
        };
        if let Some(message) = notice {
            follower.notify(Update::Notice { message });
        }
        let (blog, own_writes, state) = (follower.blog.clone(), follower.own_writes.clone(), follower.state.clone());
        let thread = std::thread::Builder::new()
            .name("hanji watch".into())
            .spawn(move || follower.run(receiver))
            .expect("a thread for the watch");
        Ok(Watch { blog, own_writes, state, signals, thread: Some(thread) })
    }

    pub fn blog(&self) -> &SharedBlog {
        &self.blog
    }

    /// Where Hanji says what it is about to write, so that the change comes
    /// back marked as its own (`FileChange::external` false).
    pub fn own_writes(&self) -> &Arc<OwnWrites> {
        &self.own_writes
    }

    pub fn state(&self) -> WatchState {
        *self.state.lock().expect("watch state")
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.signals.send(Signal::Stop);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A running debouncer, kept only to be dropped: that stops it.
type Watcher = Box<dyn std::any::Any + Send>;

/// The watch's thread: turns events into batches and batches into updates.
struct Follower {
    root: PathBuf,
    /// The blog folder with symlinks resolved: events name paths under it.
    watched: PathBuf,
    /// Which folder is at `root` (device and inode), to notice another
    /// folder put in its place.
    identity: Option<(u64, u64)>,
    options: WatchOptions,
    signals: Sender<Signal>,
    watcher: Option<Watcher>,
    state: Arc<Mutex<WatchState>>,
    blog: SharedBlog,
    own_writes: Arc<OwnWrites>,
    on_update: Box<dyn FnMut(&Update) + Send>,
}

impl Follower {
    /// Watches the folder again (it came back, or polling is needed).
    fn watch(&mut self) -> Result<Option<String>, notify::Error> {
        self.watcher = None;
        self.watched = self.root.canonicalize().unwrap_or_else(|_| self.root.clone());
        self.identity = identity(&self.root);
        let (watcher, notice) = start_watcher(&self.watched, &mut self.options, &self.signals)?;
        self.watcher = Some(watcher);
        self.set_state(if self.options.poll { WatchState::Polling } else { WatchState::Watching });
        Ok(notice)
    }

    fn run(mut self, receiver: Receiver<Signal>) {
        let mut batcher = Batcher::new(self.options.debounce);
        // Errors handed over with the batch being gathered, told once it is applied.
        let mut errors = Vec::new();
        loop {
            let due = batcher.due();
            let wait = due.map_or(HEARTBEAT, |due| due.saturating_duration_since(Instant::now()));
            match receiver.recv_timeout(wait) {
                Ok(Signal::Events(result)) => {
                    if due.is_none() && self.state() == WatchState::Gone {
                        continue; // events from the watcher of the folder that went
                    }
                    let batch = self.collect(result, &mut errors);
                    batcher.add(batch, Instant::now());
                }
                Ok(Signal::Stop) | Err(RecvTimeoutError::Disconnected) => return,
                Err(RecvTimeoutError::Timeout) if due.is_none() => self.check_folder(),
                Err(RecvTimeoutError::Timeout) => {
                    let Some(mut batch) = batcher.take(Instant::now()) else {
                        continue; // woken before it is due: wait the rest
                    };
                    self.handle_errors(std::mem::take(&mut errors), &mut batch);
                    self.apply(batch);
                    batcher.applied(Instant::now());
                }
            }
        }
    }

    /// The paths of one debounced batch of events; its errors go to `errors`.
    fn collect(&self, result: DebounceEventResult, errors: &mut Vec<notify::Error>) -> Batch {
        let mut batch = Batch::default();
        match result {
            Ok(events) => {
                for event in events {
                    batch.rescan |= event.need_rescan();
                    if !changes_files(&event.kind) {
                        continue;
                    }
                    for path in &event.paths {
                        if let Some(relative) = self.relative(path) {
                            batch.paths.insert(relative);
                        }
                    }
                }
            }
            Err(more) => errors.extend(more),
        }
        batch
    }

    /// `path` relative to the blog folder, from either name of it.
    fn relative(&self, path: &Path) -> Option<PathBuf> {
        let relative = path.strip_prefix(&self.watched).or_else(|_| path.strip_prefix(&self.root)).ok()?;
        Some(relative.to_path_buf())
    }

    fn handle_errors(&mut self, errors: Vec<notify::Error>, batch: &mut Batch) {
        if errors.is_empty() {
            return;
        }
        if errors.iter().any(out_of_watches) && !self.options.poll {
            // Folders added since are not watched: poll instead, and read
            // everything again, since events may have been missed.
            self.options.poll = true;
            let message = polling_notice(&self.options);
            match self.watch() {
                Ok(_) => self.notify(Update::Notice { message }),
                Err(error) => self.notify(Update::Notice { message: format!("cannot watch the folder: {error}") }),
            }
            batch.rescan = true;
            return;
        }
        for error in errors {
            self.notify(Update::Notice { message: format!("watching the folder: {error}") });
        }
        batch.rescan = true;
    }

    fn apply(&mut self, batch: Batch) {
        if !self.folder_is_there() {
            return self.gone();
        }
        let lost = batch.rescan;
        let result = {
            let mut blog = self.blog.write().expect("blog lock");
            changes::apply(&mut blog, &batch, &self.own_writes)
        };
        match result {
            Ok(set) => {
                if lost {
                    let message = "some changes were not reported by the system; the folder was read again";
                    self.notify(Update::Notice { message: message.into() });
                }
                if !set.is_empty() {
                    self.notify(Update::Changed(Box::new(set)));
                }
            }
            Err(_) => self.gone(),
        }
    }

    /// On the heartbeat: is the folder gone, or back?
    fn check_folder(&mut self) {
        match self.state() {
            WatchState::Gone if self.root.is_dir() => self.back(),
            WatchState::Gone => {}
            _ if !self.folder_is_there() => self.gone(),
            _ => {}
        }
    }

    fn folder_is_there(&self) -> bool {
        self.root.is_dir() && identity(&self.root) == self.identity
    }

    fn gone(&mut self) {
        if self.state() == WatchState::Gone {
            return;
        }
        self.watcher = None;
        self.set_state(WatchState::Gone);
        let message = format!(
            "the blog folder `{}` was deleted or moved away; showing the blog as it was until it is back",
            self.root.display()
        );
        self.notify(Update::Gone { message });
    }

    fn back(&mut self) {
        let notice = match self.watch() {
            Ok(notice) => notice,
            Err(_) => return self.set_state(WatchState::Gone), // try again on the next heartbeat
        };
        let result = {
            let mut blog = self.blog.write().expect("blog lock");
            changes::rescan(&mut blog, &self.own_writes)
        };
        match result {
            Ok(set) => {
                let message = format!("the blog folder `{}` is back", self.root.display());
                self.notify(Update::Back { message });
                if let Some(message) = notice {
                    self.notify(Update::Notice { message });
                }
                if !set.is_empty() {
                    self.notify(Update::Changed(Box::new(set)));
                }
            }
            Err(_) => {
                self.watcher = None;
                self.set_state(WatchState::Gone);
            }
        }
    }

    fn notify(&mut self, update: Update) {
        (self.on_update)(&update);
    }

    fn state(&self) -> WatchState {
        *self.state.lock().expect("watch state")
    }

    fn set_state(&self, state: WatchState) {
        *self.state.lock().expect("watch state") = state;
    }
}

/// Starts the system's watcher on `path`, or the polling one if `options`
/// ask for it or the system cannot watch the folder (then `options.poll` is
/// set, and the notice to pass on is given).
fn start_watcher(
    path: &Path,
    options: &mut WatchOptions,
    signals: &Sender<Signal>,
) -> Result<(Watcher, Option<String>), notify::Error> {
    let handler = |signals: Sender<Signal>| {
        move |result| {
            let _ = signals.send(Signal::Events(result));
        }
    };
    let mut notice = None;
    if !options.poll {
        let started = new_debouncer_opt(
            options.debounce,
            Some(tick(options.debounce)),
            handler(signals.clone()),
            RecommendedCache::new(),
            notify::Config::default(),
        )
        .and_then(|mut watcher: Debouncer<RecommendedWatcher, RecommendedCache>| {
            watcher.watch(path, RecursiveMode::Recursive).map(|()| watcher)
        });
        match started {
            Ok(watcher) => return Ok((Box::new(watcher), None)),
            Err(error) if out_of_watches(&error) => {
                options.poll = true;
                notice = Some(polling_notice(options));
            }
            Err(error) => return Err(error),
        }
    }
    let config = notify::Config::default().with_poll_interval(options.poll_interval);
    let mut watcher: Debouncer<PollWatcher, NoCache> =
        new_debouncer_opt(options.debounce, Some(tick(options.debounce)), handler(signals.clone()), NoCache, config)?;
    watcher.watch(path, RecursiveMode::Recursive)?;
    Ok((Box::new(watcher), notice))
}

/// The debouncer looks for ripe events this often: a small part of the
/// debounce, so that a change arrives within the debounce and a few ms.
fn tick(debounce: Duration) -> Duration {
    (debounce / 16).clamp(Duration::from_millis(1), debounce.max(Duration::from_millis(1)))
}

/// Whether an event can mean a file changed. Reading a file is an event too
/// (opened, closed unwritten); those are Hanji's own reads, and must not set
/// off another read.
fn changes_files(kind: &EventKind) -> bool {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

/// The system has no more watches to give (inotify's `max_user_watches`).
fn out_of_watches(error: &notify::Error) -> bool {
    match &error.kind {
        notify::ErrorKind::MaxFilesWatch => true,
        // ENOSPC, as inotify_add_watch reports it.
        notify::ErrorKind::Io(io) => io.raw_os_error() == Some(28),
        _ => false,
    }
}

fn polling_notice(options: &WatchOptions) -> String {
    format!(
        "the system cannot watch more folders (on Linux, raise fs.inotify.max_user_watches); \
         looking for changes every {:.1} s instead",
        options.poll_interval.as_secs_f64()
    )
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use notify::event::Flag;
    use notify::{Error, ErrorKind, Event};
    use notify_debouncer_full::DebouncedEvent;

    use super::*;

    const DEADLINE: Duration = Duration::from_secs(20);

    fn watched() -> (tempfile::TempDir, Watch, Receiver<Update>) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("posts")).unwrap();
        std::fs::write(dir.path().join("posts/a.md"), "---\ntitle: A\ndate: 2026-01-01\n---\n").unwrap();
        let (send, updates) = mpsc::channel();
        let watch = Watch::start(dir.path(), WatchOptions::default(), move |u| {
            let _ = send.send(u.clone());
        })
        .unwrap();
        (dir, watch, updates)
    }

    fn next(updates: &Receiver<Update>, wanted: impl Fn(&Update) -> bool) -> Update {
        let deadline = Instant::now() + DEADLINE;
        loop {
            match updates.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                Ok(update) if wanted(&update) => return update,
                Ok(_) => {}
                Err(_) => panic!("no such update within {DEADLINE:?}"),
            }
        }
    }

    #[test]
    fn out_of_watches_falls_back_to_polling() {
        let (dir, watch, updates) = watched();
        assert_eq!(watch.state(), WatchState::Watching);
        // What notify reports when inotify cannot add a watch for a new folder.
        let error = Error::new(ErrorKind::MaxFilesWatch);
        watch.signals.send(Signal::Events(Err(vec![error]))).unwrap();
        next(&updates, |u| matches!(u, Update::Notice { message } if message.contains("max_user_watches")));
        assert_eq!(watch.state(), WatchState::Polling);
        // Written whole, then put in place: a poll between creating the file
        // and writing it would find it empty, added without a post.
        std::fs::write(dir.path().join("b.md.tmp"), "---\ntitle: B\ndate: 2026-01-02\n---\n").unwrap();
        std::fs::rename(dir.path().join("b.md.tmp"), dir.path().join("posts/b.md")).unwrap();
        next(&updates, |u| matches!(u, Update::Changed(set) if !set.added.is_empty()));
        assert_eq!(watch.blog().read().unwrap().library.len(), 2);
    }

    #[test]
    fn a_watched_blog_holds_its_texts_packed_and_gives_them_whole() {
        let (dir, watch, updates) = watched();
        let text = |path: &str| {
            let blog = watch.blog().read().unwrap();
            let post = blog.library.post(Path::new(path)).expect("the post");
            assert!(post.is_packed(), "{path} held whole");
            post.source().into_owned()
        };
        assert_eq!(text("posts/a.md"), std::fs::read_to_string(dir.path().join("posts/a.md")).unwrap());
        // Read again after a change, and after the folder is read again.
        let changed = "---\ntitle: A again\ndate: 2026-01-01\n---\n\n한국어 본문, and more.\n";
        std::fs::write(dir.path().join("posts/a.md"), changed).unwrap();
        let update = next(&updates, |u| matches!(u, Update::Changed(set) if !set.changed.is_empty()));
        let Update::Changed(set) = update else { unreachable!() };
        assert_eq!(set.changed[0].replaced.as_deref(), Some("---\ntitle: A\ndate: 2026-01-01\n---\n"));
        assert_eq!(text("posts/a.md"), changed);
        let overflow = DebouncedEvent::new(Event::new(EventKind::Other).set_flag(Flag::Rescan), Instant::now());
        watch.signals.send(Signal::Events(Ok(vec![overflow]))).unwrap();
        next(&updates, |u| matches!(u, Update::Notice { message } if message.contains("read again")));
        assert_eq!(text("posts/a.md"), changed);
    }

    #[test]
    fn a_queue_overflow_reads_the_folder_again() {
        let (dir, watch, updates) = watched();
        // The change whose events the overflow lost…
        std::fs::write(dir.path().join("posts/a.md"), "---\ntitle: A again\ndate: 2026-01-01\n---\n").unwrap();
        // …and the event notify sends for an overflow.
        let overflow = DebouncedEvent::new(Event::new(EventKind::Other).set_flag(Flag::Rescan), Instant::now());
        watch.signals.send(Signal::Events(Ok(vec![overflow]))).unwrap();
        next(&updates, |u| matches!(u, Update::Notice { message } if message.contains("read again")));
        let fresh = load::load(dir.path()).unwrap();
        assert_eq!(watch.blog().read().unwrap().library, fresh.library);
    }

    #[test]
    fn out_of_watches_is_told_apart() {
        assert!(out_of_watches(&Error::new(ErrorKind::MaxFilesWatch)));
        assert!(out_of_watches(&Error::io(std::io::Error::from_raw_os_error(28))));
        assert!(!out_of_watches(&Error::new(ErrorKind::PathNotFound)));
        assert!(!out_of_watches(&Error::generic("other")));
    }

    #[test]
    fn reading_is_not_changing() {
        use notify::event::{CreateKind, ModifyKind};
        assert!(!changes_files(&EventKind::Access(AccessKind::Open(AccessMode::Any))));
        assert!(!changes_files(&EventKind::Access(AccessKind::Close(AccessMode::Read))));
        assert!(changes_files(&EventKind::Access(AccessKind::Close(AccessMode::Write))));
        assert!(changes_files(&EventKind::Create(CreateKind::File)));
        assert!(changes_files(&EventKind::Modify(ModifyKind::Any)));
    }
}
