//! The one error every command returns: `{kind, message, path}`, plus the
//! file as it is on disk for a `conflict`.

use serde::Serialize;

use hanji::author::AuthorError;
use hanji::author::version_of;

use crate::view::PostText;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AppError {
    pub kind: &'static str,
    pub message: String,
    pub path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theirs: Option<Box<PostText>>,
}

pub type Result<T, E = AppError> = std::result::Result<T, E>;

impl AppError {
    pub fn new(kind: &'static str, message: impl Into<String>) -> Self {
        AppError { kind, message: message.into(), path: None, theirs: None }
    }

    pub fn at(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    pub fn no_blog() -> Self {
        AppError::new("no_blog", "no blog is open: open a blog folder first")
    }
}

impl From<AuthorError> for AppError {
    fn from(error: AuthorError) -> Self {
        let message = error.to_string();
        let path = |p: &std::path::Path| Some(p.to_string_lossy().into_owned());
        let (kind, path, theirs) = match &error {
            AuthorError::Outside { path } => ("outside_blog", Some(path.clone()), None),
            AuthorError::Conflict { path: p, theirs } => {
                let theirs = theirs.as_ref().map(|text| {
                    Box::new(PostText {
                        path: p.to_string_lossy().into_owned(),
                        version: version_of(text.as_bytes()),
                        text: text.clone(),
                    })
                });
                ("conflict", path(p), theirs)
            }
            AuthorError::NotFound(p) => ("not_found", path(p), None),
            AuthorError::Exists(p) => ("exists", path(p), None),
            AuthorError::Invalid(_) => ("invalid", None, None),
            AuthorError::FrontMatter { path: p, .. } => ("front_matter", path(p), None),
            AuthorError::Io { path: p, .. } => ("io", path(p), None),
        };
        AppError { kind, message, path, theirs }
    }
}
