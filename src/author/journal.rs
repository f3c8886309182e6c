//! The journal of unsaved text: while the author writes, each unsaved post's
//! text is kept in the app's own data folder (never the blog's), so that after
//! a crash or a kill the next start can offer it back beside the saved file.
//! One file a post, `<journal>/<blog>/<post>.json`, each named by the
//! digest of its path's bytes (xxh3: the same name across Rust releases and
//! builds), written atomically and flushed, through a `Folder` that cannot
//! leave the journal.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::digest;
use crate::fs::{self, Durable, Folder, SitePath};

/// A post's unsaved text, as the journal kept it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    /// The blog folder, absolute.
    pub root: PathBuf,
    /// The post, relative to the blog folder.
    pub path: PathBuf,
    pub text: String,
    /// When it was kept, seconds since 1970.
    pub kept_at: i64,
}

#[derive(Debug, Clone)]
pub struct Journal {
    folder: PathBuf,
}

impl Journal {
    pub fn new(folder: impl Into<PathBuf>) -> Self {
        Journal { folder: folder.into() }
    }

    /// Keeps `text` as the unsaved text of `path` in the blog at `root`.
    pub fn keep(&self, root: &Path, path: &Path, text: &str) -> std::io::Result<()> {
        let kept = Kept {
            root: root.to_path_buf(),
            path: path.to_path_buf(),
            text: text.to_string(),
            kept_at: jiff::Timestamp::now().as_second(),
        };
        let bytes = serde_json::to_vec(&kept).map_err(std::io::Error::other)?;
        Folder::open(&self.folder, true)?.write(&self.file(root, path), &bytes, Durable::Flushed)
    }

    /// Forgets the unsaved text of `path` (it was saved, or thrown away).
    pub fn forget(&self, root: &Path, path: &Path) {
        if let Ok(folder) = Folder::open(&self.folder, false) {
            let _ = folder.remove(&self.file(root, path));
        }
    }

    /// Every text kept for the blog at `root` that differs from its file on
    /// disk now; those that equal it are forgotten, having nothing to offer.
    /// Every blog's folder is read, and each text kept by its `root`: a file
    /// kept under another name (by a Hanji that named them otherwise) is
    /// found too, and moved to its name.
    pub fn pending(&self, root: &Path) -> Vec<Kept> {
        let Ok(folder) = Folder::open(&self.folder, false) else { return Vec::new() };
        let mut pending: Vec<Kept> = Vec::new();
        for (file, _) in folder.files().unwrap_or_default() {
            if !file.as_str().ends_with(".json") {
                continue;
            }
            // A journal file that cannot be read holds nothing usable.
            let Some(kept) = folder.read(&file).ok().and_then(|b| serde_json::from_slice::<Kept>(&b).ok()) else {
                continue;
            };
            if kept.root != root {
                continue;
            }
            let named = self.file(root, &kept.path);
            if named != file && folder.rename(&file, &named).is_err() {
                continue;
            }
            match fs::read(&root.join(&kept.path)) {
                Ok(saved) if saved == kept.text.as_bytes() => {
                    let _ = folder.remove(&named);
                }
                _ => pending.push(kept),
            }
        }
        pending.sort_by(|a, b| a.path.cmp(&b.path));
        pending
    }

    /// `<blog>/<post>.json`, each the digest of its path's bytes.
    fn file(&self, root: &Path, path: &Path) -> SitePath {
        let name = |path: &Path| format!("{:032x}", digest::of_bytes(path.as_os_str().as_encoded_bytes()));
        SitePath::new(&format!("{}/{}.json", name(root), name(path))).expect("hex names")
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::*;

    #[test]
    fn kept_text_comes_back_until_it_is_saved_or_forgotten() {
        let data = tempfile::tempdir().unwrap();
        let blog = tempfile::tempdir().unwrap();
        let root = blog.path();
        fs::create_dir_all(root.join("posts")).unwrap();
        fs::write(root.join("posts/a.md"), "saved a").unwrap();
        fs::write(root.join("posts/b.md"), "saved b").unwrap();
        let journal = Journal::new(data.path());
        journal.keep(root, Path::new("posts/a.md"), "unsaved a, 한글").unwrap();
        journal.keep(root, Path::new("posts/b.md"), "unsaved b").unwrap();
        journal.keep(root, Path::new("posts/new.md"), "a post never saved").unwrap();
        // Another blog's journal is its own.
        journal.keep(data.path(), Path::new("posts/a.md"), "elsewhere").unwrap();

        let pending = journal.pending(root);
        let texts: Vec<&str> = pending.iter().map(|k| k.text.as_str()).collect();
        assert_eq!(texts, ["unsaved a, 한글", "unsaved b", "a post never saved"]);
        assert!(pending.iter().all(|k| k.root == root));

        // b saved with that text: nothing to offer; a forgotten.
        fs::write(root.join("posts/b.md"), "unsaved b").unwrap();
        journal.forget(root, Path::new("posts/a.md"));
        let pending = journal.pending(root);
        assert_eq!(pending.len(), 1);
        assert_eq!(pending[0].path, Path::new("posts/new.md"));
        let b = data.path().join(journal.file(root, Path::new("posts/b.md")).as_path());
        assert!(!b.exists(), "a kept text equal to the file is dropped");
    }

    #[test]
    fn a_damaged_journal_file_is_skipped() {
        let data = tempfile::tempdir().unwrap();
        let blog = tempfile::tempdir().unwrap();
        let journal = Journal::new(data.path());
        journal.keep(blog.path(), Path::new("posts/a.md"), "kept").unwrap();
        let file = data.path().join(journal.file(blog.path(), Path::new("posts/a.md")).as_path());
        fs::write(file.with_file_name("broken.json"), "{ not json").unwrap();
        assert_eq!(journal.pending(blog.path()).len(), 1);
    }

    #[test]
    fn a_text_kept_under_an_older_name_is_found_and_named_anew() {
        let data = tempfile::tempdir().unwrap();
        let blog = tempfile::tempdir().unwrap();
        let kept = Kept { root: blog.path().into(), path: "posts/a.md".into(), text: "미저장".into(), kept_at: 1 };
        // As an earlier Hanji named it: by std's hasher, which may change between releases.
        fs::create_dir_all(data.path().join("0123456789abcdef")).unwrap();
        let old = data.path().join("0123456789abcdef/fedcba9876543210.json");
        fs::write(&old, serde_json::to_vec(&kept).unwrap()).unwrap();
        let journal = Journal::new(data.path());
        assert_eq!(journal.pending(blog.path()), [kept]);
        assert!(!old.exists());
        journal.forget(blog.path(), Path::new("posts/a.md"));
        assert!(journal.pending(blog.path()).is_empty(), "forgotten under its new name");
    }
}
