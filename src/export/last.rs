//! The last export into a folder, whole, kept in the cache folder beside its
//! pages' records (`state`): the digest of what it was made from (the blog
//! as read, and the stamps of the files beside the posts), the stamps of the
//! files it left, and what it told the author. An export of a blog that did
//! not change since, into a folder that did not either, is that export: it
//! tells the same and touches nothing. Anything else (another Hanji, a
//! changed post or setting, a file of the site touched, a record that
//! cannot be read) makes a full or incremental export as usual.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::Summary;
use super::destination::{self, Written};
use crate::diagnostics::Diagnostic;
use crate::digest::{self, Digest};
use crate::fs::records::{self, Records};
use crate::fs::{Folder, Program, Stamp};

/// What names the last export into one folder: read first, and the rest
/// of the record only if it is the export asked for.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Key {
    program: Program,
    inputs: Digest,
    /// The digest of every file the export left (its `.hanji-export`
    /// included) with its stamp: see `files_digest`.
    files: Digest,
}

/// What is kept of the last export into one folder: what names it, and
/// what it told.
#[derive(Debug, Serialize, Deserialize)]
struct Record<P = Vec<Diagnostic>, L = Vec<PathBuf>> {
    key: Key,
    problems: P,
    left_out: L,
    /// How many copies of images the site has.
    image_copies: usize,
}

/// Where the last export into `out` is kept.
pub struct Last {
    records: Records,
}

/// Its file, beside the export's records.
const FILE: &str = "last.bin";

impl Last {
    /// For exports into `out` (absolute), under `cache_dir`.
    pub fn of(cache_dir: &Path, out: &Path) -> Last {
        Last { records: Records::new(cache_dir, "exports", out) }
    }

    /// What the last export told, if it was made by this Hanji from
    /// `inputs` and every file it left in the folder (`written`) is as it
    /// left it.
    pub fn unchanged(&self, inputs: Digest, folder: &Folder, written: &Written) -> Option<Summary> {
        let files = &written.files;
        let bytes = self.records.read_beside(FILE)?;
        let key: Key = records::decode(&bytes)?;
        if key.inputs != inputs || key.program != Program::this() || files.is_empty() {
            return None;
        }
        let stamps: Vec<(&str, Option<Stamp>)> =
            files.par_iter().map(|file| (file.as_str(), folder.stamp(file))).collect();
        if files_digest(stamps.into_iter(), folder.stamp(&destination::record())) != key.files {
            return None;
        }
        let record: Record = records::decode(&bytes)?;
        Some(Summary {
            unchanged: files.len(),
            problems: record.problems,
            left_out: record.left_out,
            image_copies: (0, record.image_copies),
            ..Summary::default()
        })
    }

    /// Keeps this export: made from `inputs`, it left `files` (sorted, with
    /// their stamps) and told `summary`. Only a cache: if it cannot be
    /// written, the next export is made as usual.
    pub fn save<'f>(
        &self,
        inputs: Digest,
        files: impl Iterator<Item = (&'f str, Stamp)>,
        folder: &Folder,
        summary: &Summary,
    ) {
        let files = files_digest(files.map(|(file, stamp)| (file, Some(stamp))), folder.stamp(&destination::record()));
        let (made, reused) = summary.image_copies;
        let record = Record {
            key: Key { program: Program::this(), inputs, files },
            problems: summary.problems.as_slice(),
            left_out: summary.left_out.as_slice(),
            image_copies: made + reused,
        };
        match records::encode(&record) {
            Some(bytes) if self.records.write_beside(FILE, &bytes) => {}
            _ => _ = self.forget(),
        }
    }

    /// Forgets the last export (one is under way): until it is kept again,
    /// the next export is made as usual. False if there was none to forget
    /// (the last one did not end, or it was never kept).
    pub fn forget(&self) -> bool {
        self.records.remove_beside(FILE)
    }
}

/// The digest of the files of a site, in the order of their names, with
/// their stamps (None for one that is not there), and the stamp of its
/// `.hanji-export`.
fn files_digest<'f>(files: impl Iterator<Item = (&'f str, Option<Stamp>)>, marker: Option<Stamp>) -> Digest {
    use std::hash::Hash;
    let mut digester = digest::Digester::default();
    for file in files {
        file.hash(&mut digester);
    }
    marker.hash(&mut digester);
    digester.digest()
}
