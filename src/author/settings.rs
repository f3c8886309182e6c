//! The settings the app writes into the blog's `hanji.toml`: a publish
//! target set up in the app's form, the rest of the file kept as written.

use std::path::Path;

use super::AuthorError;
use crate::config::{self, PublishTarget};
use crate::fs;

/// Writes `[publish.NAME]` into `root/hanji.toml` (made if missing).
pub fn save_publish_target(root: &Path, target: &PublishTarget) -> Result<(), AuthorError> {
    let file = root.join(config::FILE_NAME);
    let io = |source| AuthorError::Io { path: file.clone(), source };
    let text = fs::read_settings(&file).map_err(io)?.unwrap_or_default();
    let text = config::set_target(&text, target).map_err(|problem| AuthorError::Invalid(problem.message))?;
    fs::write_atomically(&file, text.as_bytes()).map_err(io)
}
