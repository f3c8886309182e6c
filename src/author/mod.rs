//! What Hanji does to a blog's files for its author: save a post, start one,
//! rename it, move it to the trash, add an image, rename a tag across posts.
//! Paths come in relative to the blog folder and are confined to it first
//! (`confine`); every write is atomic and announced to `OwnWrites`, so the
//! watcher knows the change that comes back as Hanji's own.

pub mod confine;
pub mod image;
pub mod new_post;
pub mod rename;
pub mod retag;
pub mod save;
pub mod trash;

use std::io;
use std::path::PathBuf;

use crate::content::front_matter::EditError;

pub use confine::inside;
pub use save::{save_post, version_of, write_atomically};

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
    #[error("`{}` already exists", .0.display())]
    Exists(PathBuf),
    #[error("{0}")]
    Invalid(String),
    #[error("cannot change the front matter of `{}`: {source}", .path.display())]
    FrontMatter { path: PathBuf, source: EditError },
    #[error("cannot write `{}`: {source}", .path.display())]
    Io { path: PathBuf, source: io::Error },
}

impl AuthorError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(io::Error) -> AuthorError {
        let path = path.into();
        move |source| AuthorError::Io { path, source }
    }
}
