//! What Hanji does to a blog's files for its author: save a post, start one,
//! rename it, move it to the trash, add an image, rename a tag across posts,
//! keep the versions its saves replace (`history`), and check its spelling.
//! Paths come in relative to the blog folder and are confined to it first
//! (`confine`); every write is atomic, and every write, move and removal is
//! announced to `OwnWrites`, so the watcher knows the change that comes back
//! as Hanji's own. Where a post's file goes is `content::file`'s rule.

pub mod confine;
pub mod history;
pub mod image;
pub mod journal;
pub mod new_blog;
pub mod new_post;
pub mod rename;
pub mod retag;
pub mod save;
pub mod settings;
pub mod spelling;
pub mod trash;

use std::io;
use std::path::PathBuf;

use crate::front_matter::EditError;

pub use confine::inside;
pub use save::{save_post, save_post_keeping};

#[derive(Debug, thiserror::Error)]
pub enum AuthorError {
    #[error("`{path}` is outside the blog folder")]
    Outside { path: String },
    /// The file is not as it was when the author opened it: `theirs` is what
    /// it holds now (None: it was deleted).
    #[error("`{}` changed on disk since it was opened", .path.display())]
    Conflict { path: PathBuf, theirs: Option<String> },
    #[error("there is no post at `{}`", .0.display())]
    NotFound(PathBuf),
    #[error("cannot read `{}`: {reason}", .path.display())]
    Unreadable { path: PathBuf, reason: String },
    #[error("`{}` already exists", .0.display())]
    Exists(PathBuf),
    #[error("{0}")]
    Invalid(String),
    #[error("cannot change the front matter of `{}`: {source}", .path.display())]
    FrontMatter { path: PathBuf, source: EditError },
    #[error("cannot write `{}`: {}", .path.display(), explain(.source))]
    Io { path: PathBuf, source: io::Error },
}

/// The system's reason, and what the author can do about the common ones.
fn explain(error: &io::Error) -> String {
    let advice = match error.kind() {
        io::ErrorKind::StorageFull | io::ErrorKind::QuotaExceeded => {
            "the disk is full: free some space, then save again; the text is kept until then"
        }
        io::ErrorKind::ReadOnlyFilesystem => {
            "the disk is read-only: make it writable (or copy the blog elsewhere), then save again; the text is kept until then"
        }
        io::ErrorKind::PermissionDenied => {
            "Hanji may not write there: check the folder's permissions, then save again; the text is kept until then"
        }
        _ => return error.to_string(),
    };
    format!("{error}. {}{}", advice[..1].to_uppercase(), &advice[1..])
}

impl AuthorError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> AuthorError {
        let path = path.into();
        move |source| AuthorError::Io { path, source }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_or_read_only_disk_says_what_to_do() {
        let full = AuthorError::Io { path: "posts/a.md".into(), source: io::Error::from(io::ErrorKind::StorageFull) };
        let message = full.to_string();
        assert!(message.starts_with("cannot write `posts/a.md`: "), "{message}");
        assert!(message.contains("The disk is full: free some space, then save again"), "{message}");
        let read_only = AuthorError::Io { path: "a".into(), source: io::Error::from_raw_os_error(30) };
        assert!(read_only.to_string().contains("The disk is read-only"), "{read_only}");
        let other = AuthorError::Io { path: "a".into(), source: io::Error::other("odd") };
        assert_eq!(other.to_string(), "cannot write `a`: odd");
    }
}
