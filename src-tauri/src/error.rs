//! The core's errors as the one error every command returns
//! (`view::AppError`: `{kind, message, path}`, plus the file as it is on
//! disk for a `conflict`).

use hanji::{AuthorError, ExportError, ImportError, PublishError, version_of};

use crate::view::{AppError, ErrorKind, PostText};

pub type Result<T, E = AppError> = std::result::Result<T, E>;

impl From<AuthorError> for AppError {
    fn from(error: AuthorError) -> Self {
        let message = error.to_string();
        let path = |p: &std::path::Path| Some(p.to_string_lossy().into_owned());
        let (kind, path, theirs) = match &error {
            AuthorError::Outside { path } => (ErrorKind::OutsideBlog, Some(path.clone()), None),
            AuthorError::Conflict { path: p, theirs } => {
                let theirs = theirs.as_ref().map(|text| {
                    Box::new(PostText {
                        path: p.to_string_lossy().into_owned(),
                        version: version_of(text.as_bytes()),
                        text: text.clone(),
                    })
                });
                (ErrorKind::Conflict, path(p), theirs)
            }
            AuthorError::NotFound(p) | AuthorError::Unreadable { path: p, .. } => (ErrorKind::NotFound, path(p), None),
            AuthorError::Exists(p) => (ErrorKind::Exists, path(p), None),
            AuthorError::Invalid(_) => (ErrorKind::Invalid, None, None),
            AuthorError::FrontMatter { path: p, .. } => (ErrorKind::FrontMatter, path(p), None),
            AuthorError::Io { path: p, .. } => (ErrorKind::Io, path(p), None),
        };
        AppError { kind, message, path, theirs, hint: None, fault: None }
    }
}

impl From<ExportError> for AppError {
    fn from(error: ExportError) -> Self {
        match error {
            ExportError::Refused { message, hint } => AppError::new(ErrorKind::Invalid, format!("{message} ({hint})")),
            error => AppError::new(ErrorKind::Io, error.to_string()),
        }
    }
}

impl From<PublishError> for AppError {
    fn from(error: PublishError) -> Self {
        AppError {
            hint: Some(error.hint),
            fault: Some(error.fault),
            ..AppError::new(ErrorKind::Publish, error.message)
        }
    }
}

impl From<ImportError> for AppError {
    fn from(error: ImportError) -> Self {
        let path = |p: &std::path::Path| Some(p.to_string_lossy().into_owned());
        let (kind, path) = match &error {
            ImportError::Unknown { path: p, .. } | ImportError::Unreadable { path: p, .. } => {
                (ErrorKind::Invalid, path(p))
            }
            ImportError::Occupied(p) => (ErrorKind::Exists, path(p)),
            ImportError::Io { path: p, .. } => (ErrorKind::Io, path(p)),
            ImportError::Interrupted { into, .. } => (ErrorKind::Io, path(into)),
        };
        AppError { hint: Some(error.hint().to_string()), path, ..AppError::new(kind, error.to_string()) }
    }
}
