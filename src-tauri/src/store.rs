//! What the app remembers between runs, in its own config folder (never in
//! the blog): the settings and the blogs opened lately, newest first.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::view::Settings;

const FILE: &str = "hanji-app.json";
const RECENT: usize = 10;

#[derive(Debug, Default, Clone, Serialize, Deserialize)]
#[serde(default)]
struct Remembered {
    settings: Settings,
    recent: Vec<PathBuf>,
}

#[derive(Debug)]
pub struct Store {
    file: Option<PathBuf>,
    remembered: Mutex<Remembered>,
}

impl Store {
    /// The store in `folder` (none: nothing is remembered).
    pub fn open(folder: Option<PathBuf>) -> Self {
        let file = folder.map(|f| f.join(FILE));
        // A missing or unreadable file starts afresh: it holds no writing.
        let remembered = file
            .as_deref()
            .and_then(|f| hanji::read_bytes(f).ok())
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        Store { file, remembered: Mutex::new(remembered) }
    }

    pub fn settings(&self) -> Settings {
        self.remembered.lock().expect("store").settings.clone()
    }

    pub fn set_settings(&self, settings: Settings) {
        self.change(|r| r.settings = settings);
    }

    pub fn recent(&self) -> Vec<PathBuf> {
        self.remembered.lock().expect("store").recent.clone()
    }

    /// Puts `root` first among the recent blogs.
    pub fn opened(&self, root: &Path) {
        self.change(|r| {
            r.recent.retain(|p| p != root);
            r.recent.insert(0, root.to_path_buf());
            r.recent.truncate(RECENT);
        });
    }

    fn change(&self, change: impl FnOnce(&mut Remembered)) {
        let mut remembered = self.remembered.lock().expect("store");
        change(&mut remembered);
        if let Some(file) = &self.file {
            let bytes = serde_json::to_vec_pretty(&*remembered).expect("settings as JSON");
            // Losing a setting is not losing writing: a failure is only logged.
            if let Err(e) = hanji::write_atomically(file, &bytes) {
                eprintln!("hanji: cannot remember settings in {}: {e}", file.display());
            }
        }
    }
}
