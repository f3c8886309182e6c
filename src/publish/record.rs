//! The record of a publish: which files Hanji put on a target, each with
//! the hash of its bytes and what the target said of it then (its stamp).
//! It is kept on the target itself (`.hanji-publish.json`), written last,
//! so it says what the target confirmed, and every machine the blog is
//! written on reads the same one. Files in no record are not Hanji's: they
//! are never removed.
//!
//! The journal is the other half: while a publish runs, each file the
//! target confirmed is added to a local file, so a publish that is stopped
//! halfway (killed, cut off) is finished by the next one without sending
//! those files again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fs;

/// The record's name on the target, at the top of the site's folder.
pub const RECORD: &str = fs::PUBLISH_RECORD;

/// What the target holds of one file Hanji published.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Sent {
    /// The hash of the file's bytes (a git blob id, whatever the kind).
    pub hash: String,
    /// What the target said of the file when it took it (a bucket's ETag,
    /// a server's size and time, a git blob id); empty if it said nothing.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stamp: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// Site path (`posts/a/index.html`) → what was sent.
    pub files: BTreeMap<String, Sent>,
}

impl Record {
    /// Reads a record; one that cannot be read counts as none (then nothing
    /// is removed, and every file is compared again).
    pub fn from_bytes(bytes: &[u8]) -> Option<Record> {
        let record: Record = serde_json::from_slice(bytes).ok()?;
        let safe = record.files.keys().all(|path| is_site_path(path));
        safe.then_some(record)
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = serde_json::to_vec_pretty(self).expect("a record serializes");
        bytes.push(b'\n');
        bytes
    }

    /// A name for this record's bytes, to tell whether a journal was kept
    /// against it.
    pub fn id(bytes: &[u8]) -> String {
        fs::version_of(bytes)
    }
}

/// A site path Hanji may write or remove on a target: a `SitePath` (which
/// is never the record).
pub fn is_site_path(path: &str) -> bool {
    fs::SitePath::new(path).is_ok()
}

/// The files confirmed by a publish that has not finished, against the
/// record it started from: a line each, appended as they are confirmed.
#[derive(Debug)]
pub struct Journal {
    /// The publish's work folder in the cache, and the journal's name in it.
    folder: PathBuf,
    name: fs::SitePath,
    file: PathBuf,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t")]
enum Line {
    /// The record the publish started from.
    #[serde(rename = "from")]
    From { record: String },
    #[serde(rename = "sent")]
    Sent { path: String, hash: String, stamp: String },
    #[serde(rename = "removed")]
    Removed { path: String },
}

impl Journal {
    /// The journal `name` in the work folder `folder`: written through the
    /// folder's handle (`fs::Folder`).
    pub fn new(folder: PathBuf, name: &str) -> Self {
        let name = fs::SitePath::new(name).unwrap_or_else(|_| fs::SitePath::new("publish.journal").expect("plain"));
        Journal { file: folder.join(name.as_path()), folder, name }
    }

    fn folder(&self) -> std::io::Result<fs::Folder> {
        fs::Folder::open(&self.folder, true)
    }

    pub fn path(&self) -> &Path {
        &self.file
    }

    /// The changes a stopped publish confirmed, if it started from the
    /// record named `record` (another record means another publish has
    /// happened since, from here or elsewhere, and the journal is stale).
    pub fn read(&self, record: &str) -> Vec<(String, Option<Sent>)> {
        let Ok(bytes) = fs::read(&self.file) else { return Vec::new() };
        let text = String::from_utf8_lossy(&bytes);
        let mut lines = text.lines().map(serde_json::from_str::<Line>);
        match lines.next() {
            Some(Ok(Line::From { record: from })) if from == record => {}
            _ => return Vec::new(),
        }
        // A line cut off by a kill is the last one, and is left out.
        lines
            .map_while(Result::ok)
            .filter_map(|line| match line {
                Line::Sent { path, hash, stamp } => Some((path, Some(Sent { hash, stamp }))),
                Line::Removed { path } => Some((path, None)),
                Line::From { .. } => None,
            })
            .filter(|(path, _)| is_site_path(path))
            .collect()
    }

    /// Starts the journal of a publish from the record `record`, keeping
    /// what a stopped publish from the same record confirmed.
    pub fn begin(&self, record: &str, kept: &[(String, Option<Sent>)]) -> std::io::Result<()> {
        let mut text = line(&Line::From { record: record.to_string() });
        for (path, sent) in kept {
            text.push_str(&match sent {
                Some(sent) => {
                    line(&Line::Sent { path: path.clone(), hash: sent.hash.clone(), stamp: sent.stamp.clone() })
                }
                None => line(&Line::Removed { path: path.clone() }),
            });
        }
        self.folder()?.write(&self.name, text.as_bytes(), fs::Durable::Flushed)
    }

    pub fn sent(&self, path: &str, sent: &Sent) -> std::io::Result<()> {
        let entry = Line::Sent { path: path.to_string(), hash: sent.hash.clone(), stamp: sent.stamp.clone() };
        self.folder()?.append(&self.name, line(&entry).as_bytes())
    }

    pub fn removed(&self, path: &str) -> std::io::Result<()> {
        self.folder()?.append(&self.name, line(&Line::Removed { path: path.to_string() }).as_bytes())
    }

    /// The publish finished: its record is on the target.
    pub fn finish(&self) {
        if let Ok(folder) = self.folder() {
            let _ = folder.remove(&self.name);
        }
    }
}

fn line(entry: &Line) -> String {
    let mut text = serde_json::to_string(entry).expect("a journal line serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_paths_stay_inside() {
        assert!(is_site_path("posts/a/index.html"));
        assert!(is_site_path("tags/분산-학습/index.html"));
        for bad in ["", "/etc/passwd", "../x", "a/../../x", "a//b", RECORD, "./a"] {
            assert!(!is_site_path(bad), "{bad}");
        }
        let bytes = br#"{"files":{"../../.ssh/authorized_keys":{"hash":"x"}}}"#;
        assert_eq!(Record::from_bytes(bytes), None, "a record that leads out is no record");
        assert_eq!(Record::from_bytes(b"not json"), None);
    }

    #[test]
    fn a_journal_keeps_what_was_confirmed_and_drops_a_cut_line() {
        let dir = tempfile::tempdir().unwrap();
        let journal = Journal::new(dir.path().to_path_buf(), "j");
        journal.begin("r1", &[]).unwrap();
        journal.sent("a.html", &Sent { hash: "h1".into(), stamp: "s1".into() }).unwrap();
        journal.removed("old.html").unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(journal.path())
            .and_then(|mut file| std::io::Write::write_all(&mut file, b"{\"t\":\"sent\",\"path\":\"b.ht"))
            .unwrap();
        let kept = journal.read("r1");
        assert_eq!(
            kept,
            vec![
                ("a.html".to_string(), Some(Sent { hash: "h1".into(), stamp: "s1".into() })),
                ("old.html".to_string(), None)
            ]
        );
        assert!(journal.read("r2").is_empty(), "kept against another record: stale");
        journal.finish();
        assert!(journal.read("r1").is_empty());
    }
}
