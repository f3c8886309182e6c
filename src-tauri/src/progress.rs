//! Progress sent to the UI over a channel a few times a second: the export's,
//! and how far reading a blog has come, even before the UI listens (the first
//! blog is read while the window starts; the last word is kept for the UI).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tauri::ipc::Channel;

use hanji::LoadProgress;

use crate::view::Loading;

/// A few progress messages a second are plenty for a bar; the last one is always sent.
pub struct Paced(Mutex<Option<Instant>>);

impl Default for Paced {
    fn default() -> Self {
        Paced(Mutex::new(None))
    }
}

impl Paced {
    /// Whether the message for `done` of `total` is to be sent now.
    pub fn due(&self, done: usize, total: usize) -> bool {
        let mut last = self.0.lock().expect("progress");
        let due = done == total || last.is_none_or(|last| last.elapsed() >= Duration::from_millis(50));
        if due {
            *last = Some(Instant::now());
        }
        due
    }
}

/// Where the progress of reading one blog goes: to the UI's channel once
/// there is one; the last word is kept for a channel given later.
#[derive(Clone, Default)]
pub struct LoadingReport(Arc<Mutex<Listener>>);

#[derive(Default)]
struct Listener {
    channel: Option<Channel<Loading>>,
    last: Option<Loading>,
}

impl LoadingReport {
    /// Sends to `channel` from now on, starting with the last word if any.
    pub fn listen(&self, channel: Channel<Loading>) {
        let mut listener = self.0.lock().expect("loading");
        if let Some(last) = &listener.last {
            let _ = channel.send(last.clone());
        }
        listener.channel = Some(channel);
    }

    /// The core's progress in reading the blog at `root`, reported here.
    pub fn progress(&self, root: &std::path::Path) -> LoadProgress {
        let (report, root, paced) = (self.clone(), root.to_string_lossy().into_owned(), Paced::default());
        LoadProgress::new(move |read, total| {
            if paced.due(read, total) {
                let loading = Loading { root: root.clone(), read, total };
                let mut listener = report.0.lock().expect("loading");
                if let Some(channel) = &listener.channel {
                    let _ = channel.send(loading.clone());
                }
                listener.last = Some(loading);
            }
        })
    }
}
