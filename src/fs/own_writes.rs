//! Files Hanji writes, moves or removes itself (the app saving, renaming or
//! deleting a post) come back through the watcher like any other change.
//! Before acting, Hanji says what the file will be (these bytes, or gone);
//! the change that then finds the file so is Hanji's own, not an outside edit
//! that an open editor must reload or report.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a write is waited for. A write the watcher never reports (the
/// same bytes written again) must not make a later outside edit look like ours.
pub const EXPIRES_AFTER: Duration = Duration::from_secs(10);

/// What Hanji is doing to each file, and when it said so.
#[derive(Debug)]
pub struct OwnWrites {
    expected: Mutex<HashMap<PathBuf, (Expected, Instant)>>,
    expires_after: Duration,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expected {
    /// A 64-bit hash of the bytes being written.
    Bytes(u64),
    /// The file is being removed (or moved away).
    Gone,
}

impl Default for OwnWrites {
    fn default() -> Self {
        Self::with_expiry(EXPIRES_AFTER)
    }
}

impl OwnWrites {
    pub fn new() -> Self {
        Self::default()
    }

    /// Writes not seen within `expires_after` are forgotten.
    pub fn with_expiry(expires_after: Duration) -> Self {
        Self { expected: Mutex::default(), expires_after }
    }

    /// Call just before writing `bytes` to `path` (relative to the blog folder).
    pub fn expect(&self, path: &Path, bytes: &[u8]) {
        self.insert(path, Expected::Bytes(hash(bytes)));
    }

    /// Call just before removing the file at `path` or moving it away.
    pub fn expect_removal(&self, path: &Path) {
        self.insert(path, Expected::Gone);
    }

    fn insert(&self, path: &Path, what: Expected) {
        let mut expected = self.expected.lock().expect("own writes");
        let now = Instant::now();
        expected.retain(|_, (_, at)| now.duration_since(*at) < self.expires_after);
        expected.insert(path.to_path_buf(), (what, now));
    }

    /// Whether the file at `path` is gone because Hanji removed or moved it.
    /// Forgotten once seen, like a write.
    pub fn recognise_removal(&self, path: &Path) -> bool {
        let mut expected = self.expected.lock().expect("own writes");
        match expected.get(path) {
            Some((Expected::Gone, at)) if at.elapsed() < self.expires_after => {
                expected.remove(path);
                true
            }
            _ => false,
        }
    }

    /// Whether the file at `path` now holds what Hanji said it would write
    /// there. A match is forgotten once seen, so the next change to the file
    /// is someone else's. `read` gives the file's bytes; it is called only if
    /// a write to `path` is expected.
    pub fn recognise(&self, path: &Path, read: impl FnOnce() -> Option<Vec<u8>>) -> bool {
        let mut expected = self.expected.lock().expect("own writes");
        let Some((Expected::Bytes(wanted), at)) = expected.get(path).copied() else { return false };
        if at.elapsed() >= self.expires_after {
            expected.remove(path);
            return false;
        }
        // Not ours (yet): the file may still be half written; keep waiting.
        if read().is_none_or(|bytes| hash(&bytes) != wanted) {
            return false;
        }
        expected.remove(path);
        true
    }

    /// Every file whose write or removal is still being waited for.
    pub fn pending(&self) -> Vec<PathBuf> {
        let expected = self.expected.lock().expect("own writes");
        expected.iter().filter(|(_, (_, at))| at.elapsed() < self.expires_after).map(|(path, _)| path.clone()).collect()
    }

    /// Whether a write to `path` is being waited for.
    pub fn is_expected(&self, path: &Path) -> bool {
        self.expected.lock().expect("own writes").get(path).is_some_and(|(_, at)| at.elapsed() < self.expires_after)
    }
}

fn hash(bytes: &[u8]) -> u64 {
    // SipHash with fixed keys: the same bytes hash the same in every run.
    let mut hasher = DefaultHasher::new();
    hasher.write(bytes);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_is_recognised_once() {
        let own = OwnWrites::new();
        let path = Path::new("posts/a.md");
        own.expect(path, b"new text");
        assert!(own.is_expected(path));
        assert!(!own.recognise(path, || Some(b"half".to_vec())), "half written is not yet ours");
        assert!(own.recognise(path, || Some(b"new text".to_vec())));
        assert!(!own.recognise(path, || Some(b"new text".to_vec())), "the next change is someone else's");
        assert!(!own.is_expected(path));
    }

    #[test]
    fn other_files_and_other_bytes_are_not_ours() {
        let own = OwnWrites::new();
        own.expect(Path::new("posts/a.md"), b"mine");
        assert!(!own.recognise(Path::new("posts/b.md"), || Some(b"mine".to_vec())));
        assert!(!own.recognise(Path::new("posts/a.md"), || Some(b"theirs".to_vec())));
        assert!(!own.recognise(Path::new("posts/a.md"), || None));
    }

    #[test]
    fn a_removal_is_recognised_once_and_only_as_a_removal() {
        let own = OwnWrites::new();
        let path = Path::new("posts/a.md");
        own.expect_removal(path);
        assert!(!own.recognise(path, || Some(Vec::new())), "a removal is no write");
        assert!(own.recognise_removal(path));
        assert!(!own.recognise_removal(path), "the next removal is someone else's");
        own.expect(path, b"x");
        assert!(!own.recognise_removal(path), "a write is no removal");
        assert!(!OwnWrites::with_expiry(Duration::ZERO).recognise_removal(path));
    }

    #[test]
    fn an_old_write_is_forgotten() {
        let own = OwnWrites::with_expiry(Duration::ZERO);
        own.expect(Path::new("posts/a.md"), b"mine");
        assert!(!own.is_expected(Path::new("posts/a.md")));
        assert!(!own.recognise(Path::new("posts/a.md"), || Some(b"mine".to_vec())));
    }

    #[test]
    fn nothing_is_read_unless_a_write_is_expected() {
        let own = OwnWrites::new();
        assert!(!own.recognise(Path::new("posts/a.md"), || panic!("read without reason")));
    }
}
