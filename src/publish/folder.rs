//! A folder target: a mounted drive, a synced folder. Each file is
//! replaced at once (a temp file, then a rename), so a reader sees the old
//! file or the new one, never half of one; the temp file of a publish
//! killed halfway is removed by the next.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::error::{Fault, PublishError, hint_of, io_fault};
use super::plan::Listing;
use super::progress::Progress;
use super::record::{RECORD, Sent};
use super::remote::{Confirm, Remote, Removed, Upload};
use crate::fs;

pub struct Folder {
    root: PathBuf,
}

impl Folder {
    /// The folder at `root`, which must be there (a drive that is not
    /// mounted is not made on the mount point), and not the blog's.
    pub fn open(root: &Path, blog: Option<&Path>) -> Result<Self, PublishError> {
        let root = fs::absolute(root).unwrap_or_else(|_| root.to_path_buf());
        match fs::is_folder(&root) {
            Ok(true) => {}
            Ok(false) => {
                return Err(PublishError::new(
                    Fault::Settings,
                    format!("`{}` is a file, not a folder", root.display()),
                    "set `path` to a folder",
                ));
            }
            Err(_) => {
                return Err(PublishError::new(
                    Fault::Unreachable,
                    format!("the folder `{}` is not there", root.display()),
                    "if it is on a drive, connect or mount the drive; else make the folder, then publish again",
                ));
            }
        }
        if let Some(blog) = blog.and_then(|b| fs::absolute(b).ok())
            && (root.starts_with(&blog) || blog.starts_with(&root))
        {
            return Err(PublishError::new(
                Fault::Settings,
                format!("`{}` is the blog folder, inside it or around it", root.display()),
                "publish to a folder outside the blog",
            ));
        }
        Ok(Folder { root })
    }

    fn fault(&self, doing: &str, path: &str, error: &std::io::Error) -> PublishError {
        let fault = io_fault(error);
        let message = format!("cannot {doing} `{}`: {error}", self.root.join(path).display());
        PublishError::new(fault, message, hint_of(fault))
    }
}

/// A file's size and time, as a stamp.
fn stamp(path: &Path) -> Option<String> {
    fs::stamp_of(path).map(|stamp| format!("{}:{}", stamp.len, stamp.modified))
}

impl Remote for Folder {
    fn record(&mut self) -> Result<Option<Vec<u8>>, PublishError> {
        match fs::read(&self.root.join(RECORD)) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(self.fault("read", RECORD, &e)),
        }
    }

    fn listing(&mut self, known: &BTreeMap<String, Sent>) -> Result<Listing, PublishError> {
        // Each file Hanji knows it sent, as it is now.
        let files = known.keys().filter_map(|path| Some((path.clone(), stamp(&self.root.join(path))?))).collect();
        Ok(Listing { files: Some(files), stamps_are_hashes: false })
    }

    fn confirms_each_file(&self) -> bool {
        true
    }

    fn send(&mut self, files: &[Upload], confirm: Confirm) -> Result<(), PublishError> {
        for upload in files {
            let bytes = fs::read(&upload.file).map_err(|e| self.fault("read", &upload.path, &e))?;
            let target = self.root.join(&upload.path);
            fs::write_if_changed(&target, &bytes).map_err(|e| self.fault("write", &upload.path, &e))?;
            if !confirm(upload, stamp(&target).unwrap_or_default()) {
                break;
            }
        }
        Ok(())
    }

    fn remove(&mut self, paths: &[String], removed: Removed) -> Result<(), PublishError> {
        for path in paths {
            let target = self.root.join(path);
            fs::remove_file(&target).map_err(|e| self.fault("remove", path, &e))?;
            fs::remove_empty_folders(&target, &self.root);
            if !removed(path) {
                break;
            }
        }
        Ok(())
    }

    fn finish(&mut self, record: &[u8], _message: &str, _progress: &dyn Fn(Progress)) -> Result<(), PublishError> {
        // What a publish that was stopped halfway through writing a file
        // left beside it.
        fs::clean_temp_files(&self.root);
        fs::write_atomically(&self.root.join(RECORD), record).map_err(|e| self.fault("write", RECORD, &e))
    }
}
