//! A folder target: a mounted drive, a synced folder. Each file is
//! replaced at once (a temp file, then a rename), so a reader sees the old
//! file or the new one, never half of one; the temp file of a publish
//! killed halfway is removed by the next. Every write and removal goes
//! through the folder's handle (`fs::Folder`): none leaves it or follows a
//! link in it. A folder with files Hanji did not publish there is refused:
//! the settings name it, and a blog's settings are not trusted to choose
//! where files are replaced.

use std::collections::BTreeMap;
use std::path::Path;

use super::error::{Fault, PublishError, hint_of, io_fault};
use super::plan::Listing;
use super::progress::Progress;
use super::record::{RECORD, Sent};
use super::remote::{Confirm, Remote, Removed, Upload};
use crate::fs::{self, Durable, SitePath};

pub struct Folder {
    folder: fs::Folder,
}

impl Folder {
    /// The folder at `root`, which must be there (a drive that is not
    /// mounted is not made on the mount point), not the blog's, not a
    /// link, and empty or published to by Hanji before. With `claim`, an
    /// empty folder gets an empty record at once: it is Hanji's from then
    /// on, so that a first publish stopped halfway is finished by the next.
    pub fn open(root: &Path, blog: Option<&Path>, claim: bool) -> Result<Self, PublishError> {
        let root = fs::lexical_absolute(root).unwrap_or_else(|_| root.to_path_buf());
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
        let resolved = fs::absolute(&root).unwrap_or_else(|_| root.clone());
        if let Some(blog) = blog.and_then(|b| fs::absolute(b).ok())
            && (resolved.starts_with(&blog) || blog.starts_with(&resolved))
        {
            return Err(PublishError::new(
                Fault::Settings,
                format!("`{}` is the blog folder, inside it or around it", root.display()),
                "publish to a folder outside the blog",
            ));
        }
        let folder = fs::Folder::open(&root, false).map_err(|e| {
            PublishError::new(Fault::Settings, e.to_string(), "set `path` to a folder that is not a link")
        })?;
        let record = SitePath::own(RECORD).expect("Hanji's own name");
        let empty = fs::is_empty_folder(&root).unwrap_or(false);
        if !empty && folder.stamp(&record).is_none() {
            return Err(PublishError::new(
                Fault::Settings,
                format!("`{}` has files that Hanji did not publish there", root.display()),
                "publish to an empty or new folder (no file of one Hanji did not publish to is replaced)",
            ));
        }
        let folder = Folder { folder };
        if empty && claim {
            let written = folder.folder.write(&record, &super::record::Record::default().to_bytes(), Durable::Flushed);
            written.map_err(|e| folder.fault("write", RECORD, &e))?;
        }
        Ok(folder)
    }

    fn fault(&self, doing: &str, path: &str, error: &std::io::Error) -> PublishError {
        let fault = io_fault(error);
        let message = format!("cannot {doing} `{}`: {error}", self.folder.path().join(path).display());
        PublishError::new(fault, message, hint_of(fault))
    }

    /// `path` as a file of the folder; a name that cannot be one is refused.
    fn file(&self, path: &str) -> Result<SitePath, PublishError> {
        SitePath::new(path).map_err(|why| {
            PublishError::new(Fault::Failed, format!("`{path}` cannot be a file of the site: {why}"), "export again")
        })
    }

    fn record_path() -> SitePath {
        SitePath::own(RECORD).expect("Hanji's own name")
    }
}

/// A file's size and time, as a stamp.
fn stamp_text(stamp: fs::Stamp) -> String {
    format!("{}:{}", stamp.len, stamp.modified)
}

impl Remote for Folder {
    fn record(&mut self) -> Result<Option<Vec<u8>>, PublishError> {
        match self.folder.read(&Folder::record_path()) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(self.fault("read", RECORD, &e)),
        }
    }

    fn listing(&mut self, known: &BTreeMap<String, Sent>) -> Result<Listing, PublishError> {
        // Each file Hanji knows it sent, as it is now.
        let files = known
            .keys()
            .filter_map(|path| {
                let stamp = self.folder.stamp(&SitePath::new(path).ok()?)?;
                Some((path.clone(), stamp_text(stamp)))
            })
            .collect();
        Ok(Listing { files: Some(files), stamps_are_hashes: false })
    }

    fn confirms_each_file(&self) -> bool {
        true
    }

    fn send(&mut self, files: &[Upload], confirm: Confirm) -> Result<(), PublishError> {
        for upload in files {
            let target = self.file(&upload.path)?;
            let written = self.folder.copy_if_changed(&target, &upload.file);
            written.map_err(|e| match e {
                fs::CopyError::Read(e) | fs::CopyError::Write(e) => self.fault("write", &upload.path, &e),
            })?;
            let stamp = self.folder.stamp(&target).map(stamp_text).unwrap_or_default();
            if !confirm(upload, stamp) {
                break;
            }
        }
        Ok(())
    }

    fn remove(&mut self, paths: &[String], removed: Removed) -> Result<(), PublishError> {
        for path in paths {
            let target = self.file(path)?;
            self.folder.remove(&target).map_err(|e| self.fault("remove", path, &e))?;
            if !removed(path) {
                break;
            }
        }
        Ok(())
    }

    fn finish(&mut self, record: &[u8], _message: &str, _progress: &dyn Fn(Progress)) -> Result<(), PublishError> {
        // What a publish that was stopped halfway through writing a file
        // left beside it.
        self.folder.clean_temp_files();
        let written = self.folder.write(&Folder::record_path(), record, Durable::Flushed);
        written.map_err(|e| self.fault("write", RECORD, &e))
    }
}
