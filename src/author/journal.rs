//! The journal of unsaved text: while the author writes, each unsaved post's
//! text is kept in the app's own data folder (never the blog's), so that after
//! a crash or a kill the next start can offer it back beside the saved file.
//! One file a post, `<journal>/<blog>/<post>.json`, written atomically.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fs::{self, write_atomically};

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
        write_atomically(&self.file(root, path), &bytes)
    }

    /// Forgets the unsaved text of `path` (it was saved, or thrown away).
    pub fn forget(&self, root: &Path, path: &Path) {
        let _ = fs::remove_file(&self.file(root, path));
    }

    /// Every text kept for the blog at `root` that differs from its file on
    /// disk now; those that equal it are forgotten, having nothing to offer.
    pub fn pending(&self, root: &Path) -> Vec<Kept> {
        let mut pending: Vec<Kept> = Vec::new();
        for file in fs::files_in(&self.blog_folder(root)) {
            if file.extension().is_none_or(|e| e != "json") {
                continue;
            }
            // A journal file that cannot be read holds nothing usable.
            let Some(kept) = fs::read(&file).ok().and_then(|b| serde_json::from_slice::<Kept>(&b).ok()) else {
                continue;
            };
            if kept.root != root {
                continue;
            }
            match fs::read(&root.join(&kept.path)) {
                Ok(saved) if saved == kept.text.as_bytes() => {
                    let _ = fs::remove_file(&file);
                }
                _ => pending.push(kept),
            }
        }
        pending.sort_by(|a, b| a.path.cmp(&b.path));
        pending
    }

    fn blog_folder(&self, root: &Path) -> PathBuf {
        self.folder.join(format!("{:016x}", hash(root)))
    }

    fn file(&self, root: &Path, path: &Path) -> PathBuf {
        self.blog_folder(root).join(format!("{:016x}.json", hash(path)))
    }
}

fn hash(value: &(impl Hash + ?Sized)) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
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
        assert!(!journal.file(root, Path::new("posts/b.md")).exists(), "a kept text equal to the file is dropped");
    }

    #[test]
    fn a_damaged_journal_file_is_skipped() {
        let data = tempfile::tempdir().unwrap();
        let blog = tempfile::tempdir().unwrap();
        let journal = Journal::new(data.path());
        journal.keep(blog.path(), Path::new("posts/a.md"), "kept").unwrap();
        let folder = journal.blog_folder(blog.path());
        fs::write(folder.join("broken.json"), "{ not json").unwrap();
        assert_eq!(journal.pending(blog.path()).len(), 1);
    }
}
