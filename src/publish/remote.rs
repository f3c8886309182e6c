//! The one seam between a publish and the kinds of target: what the target
//! holds, sending files, removing files, and the last step that makes the
//! new site the target's (the record; for git, the commit and the push).

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::error::{Fault, PublishError};
use super::plan::Listing;
use super::progress::Progress;
use super::record::Sent;

/// A file to send, read from the exported site.
#[derive(Debug, Clone)]
pub struct Upload {
    pub path: String,
    pub file: PathBuf,
    pub size: u64,
    pub hash: String,
    /// Sent after every file of a lower wave is there: 0 new files, 1 new
    /// pages, 2 changed files, 3 changed pages (see `plan`).
    pub wave: u8,
}

impl Upload {
    /// The exported file's bytes, to send.
    pub fn bytes(&self) -> Result<Vec<u8>, PublishError> {
        crate::fs::read(&self.file).map_err(|e| {
            PublishError::new(Fault::Export, format!("cannot read `{}`: {e}", self.file.display()), "publish again")
        })
    }
}

/// Told of each file the target confirmed, with the target's stamp of it;
/// answers false to stop (the author cancelled).
pub type Confirm<'a> = &'a mut dyn FnMut(&Upload, String) -> bool;

/// Told of each file removed; answers false to stop.
pub type Removed<'a> = &'a mut dyn FnMut(&str) -> bool;

pub trait Remote {
    /// The record's bytes, if the target has one.
    fn record(&mut self) -> Result<Option<Vec<u8>>, PublishError>;

    /// What the target holds now: every file, or at least the `known`
    /// ones (those of the record and of a stopped publish's journal).
    fn listing(&mut self, known: &BTreeMap<String, Sent>) -> Result<Listing, PublishError>;

    /// Whether a file the target confirmed is published at once (a folder,
    /// a bucket, a server), so a stopped publish can be finished from a
    /// journal; false where nothing is until `finish` (a git commit).
    fn confirms_each_file(&self) -> bool;

    /// Sends `files` in their order.
    fn send(&mut self, files: &[Upload], confirm: Confirm) -> Result<(), PublishError>;

    /// Removes `paths`, and the folders that leaves empty.
    fn remove(&mut self, paths: &[String], removed: Removed) -> Result<(), PublishError>;

    /// Puts the record: from now on the target holds the new site. For git
    /// this is the commit (with `message`) and the push.
    fn finish(&mut self, record: &[u8], message: &str, progress: &dyn Fn(Progress)) -> Result<(), PublishError>;
}
