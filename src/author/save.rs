//! Saving a post: atomically (a temp file beside it, flushed to disk, then
//! renamed over it), keeping the file's permissions, and never over a file
//! that changed on disk since the author opened it.

use std::io;
use std::path::Path;

use super::AuthorError;
use crate::fs::{self, OwnWrites, version_of, write_atomically};

/// Writes `text` to the post at `path` (relative to `root`, already confined).
/// With `expected`, the file must still hold the version the author opened
/// (or be gone): otherwise nothing is written and `Conflict` carries the
/// file's text as it is now. Returns the version written.
pub fn save_post(
    root: &Path,
    path: &Path,
    text: &str,
    expected: Option<&str>,
    own: &OwnWrites,
) -> Result<String, AuthorError> {
    save_post_keeping(root, path, text, expected, own, |_| {})
}

/// `save_post`, giving `keep` the text the save replaces (when the file was
/// there) before anything is written: the history has the old text even if
/// the write then fails halfway, or the machine stops.
pub fn save_post_keeping(
    root: &Path,
    path: &Path,
    text: &str,
    expected: Option<&str>,
    own: &OwnWrites,
    keep: impl FnOnce(&[u8]),
) -> Result<String, AuthorError> {
    let file = root.join(path);
    match fs::read(&file) {
        Ok(bytes) if expected.is_some_and(|expected| version_of(&bytes) != expected) => {
            let theirs = String::from_utf8_lossy(&bytes).into_owned();
            return Err(AuthorError::Conflict { path: path.to_path_buf(), theirs: Some(theirs) });
        }
        Ok(bytes) => keep(&bytes),
        // New, or deleted meanwhile: writing it again loses nothing.
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(source) if expected.is_some() => return Err(AuthorError::Io { path: path.to_path_buf(), source }),
        Err(_) => {}
    }
    own.expect(path, text.as_bytes());
    write_atomically(&file, text.as_bytes()).map_err(AuthorError::io(path))?;
    Ok(version_of(text.as_bytes()))
}
