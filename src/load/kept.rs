//! What was read from each post file, kept between runs in the cache folder
//! (`fs::records`): the file's stamp and what `Post::parse` made of it
//! (without the text). A blog read again with it reads only the files whose
//! stamp changed; an export of a 10,000-post blog after one edit reads one
//! file. Entries are trusted only by the Hanji that kept them, and only
//! where the file's stamp could not hide a change: a file written within
//! two seconds of when its entry was kept is read again.

use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::content::post::Parsed;
use crate::fs::records::{self, Records, SHARDS, Shard};
use crate::fs::{self, Program, Stamp};

/// What heads each shard: which Hanji kept it, and when.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Head {
    program: Program,
    /// When the shard was written (ns since 1970): entries of files written
    /// that close to it are not trusted (`Stamp::is_racy`).
    kept_at: i64,
}

/// One file's entry: the stamp it had and what was read from it.
#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    path: PathBuf,
    stamp: Stamp,
    parsed: Parsed,
}

/// The start of an entry: which file, at which stamp. Read alone on
/// opening; what was read from the file only for the files taken.
#[derive(Debug, Deserialize)]
struct Key {
    path: PathBuf,
    stamp: Stamp,
}

/// Where an entry was kept (shard, record).
#[derive(Debug, Clone, Copy)]
pub struct At(usize, usize);

/// An entry found on opening, and whether this run took it.
struct Found {
    at: At,
    stamp: Stamp,
    trusted: bool,
}

/// What was kept for one blog, and what this run took from it or read anew.
pub struct Kept {
    records: Records,
    program: Program,
    shards: Vec<Option<Shard<Head>>>,
    /// By the file's path (its bytes: hashing a path by its parts costs more).
    found: HashMap<OsString, Found>,
    /// The entries of the files read in this run.
    fresh: Vec<(PathBuf, Vec<u8>)>,
}

impl Kept {
    /// What is kept for the blog at `root` (an absolute path) under `cache_dir`.
    /// Nothing, not an error, if nothing is kept or it cannot be read.
    pub fn open(cache_dir: &Path, root: &Path) -> Kept {
        let records = Records::new(cache_dir, "posts", root);
        let program = Program::this();
        let shards: Vec<Option<Shard<Head>>> =
            records.read::<Head>().into_iter().map(|shard| shard.filter(|s| s.head.program == program)).collect();
        let found: Vec<(OsString, Found)> = shards
            .par_iter()
            .enumerate()
            .flat_map_iter(|(n, shard)| {
                let entries = shard.iter().flat_map(|shard| shard.records().enumerate().map(move |r| (shard, r)));
                entries.filter_map(move |(shard, (i, bytes))| {
                    let key: Key = records::decode(bytes)?;
                    let racy = key.stamp.is_racy(shard.head.kept_at);
                    let found = Found { at: At(n, i), stamp: key.stamp, trusted: false };
                    (!racy).then_some((key.path.into_os_string(), found))
                })
            })
            .collect();
        Kept { records, program, shards, found: found.into_iter().collect(), fresh: Vec::new() }
    }

    /// Where what was read from the file at `path` (relative to the blog)
    /// is kept, if the file has not changed since; None if it must be read
    /// again. Taken entries are kept for next time.
    pub fn take(&mut self, path: &Path, stamp: Stamp) -> Option<At> {
        let found = self.found.get_mut(path.as_os_str()).filter(|found| found.stamp == stamp)?;
        found.trusted = true;
        Some(found.at)
    }

    /// What was read from the file whose entry is `at` (on any thread);
    /// None if the entry cannot be read after all (then `distrust` it).
    pub fn parsed(&self, at: At) -> Option<Parsed> {
        let bytes = self.shards.get(at.0)?.as_ref()?.record(at.1)?;
        records::decode::<Entry>(bytes).map(|entry| entry.parsed)
    }

    /// Not to be kept: the entry of `path` could not be read.
    pub fn distrust(&mut self, path: &Path) {
        if let Some(found) = self.found.get_mut(path.as_os_str()) {
            found.trusted = false;
        }
    }

    /// Keeps an entry [`entry_of`] made for next time.
    pub fn keep(&mut self, path: PathBuf, entry: Vec<u8>) {
        self.fresh.push((path, entry));
    }

    /// Writes the shards whose entries changed: a file read anew, or one whose
    /// entry was not taken (the file changed or is gone).
    pub fn save(self) {
        let mut changed = [false; SHARDS];
        let untrusted = self.found.iter().filter(|(_, found)| !found.trusted).map(|(path, _)| path.as_os_str());
        for path in untrusted.chain(self.fresh.iter().map(|(path, _)| path.as_os_str())) {
            changed[Records::shard_of(path.as_encoded_bytes())] = true;
        }
        // Entries left out as racy are read again and come back fresh.
        let mut shards: Vec<Option<Vec<&[u8]>>> = changed.iter().map(|c| c.then(Vec::new)).collect();
        let kept = self.found.iter().filter(|(_, found)| found.trusted).filter_map(|(path, found)| {
            let shard = self.shards[found.at.0].as_ref()?;
            Some((path.as_os_str(), shard.record(found.at.1)?))
        });
        let fresh = self.fresh.iter().map(|(path, bytes)| (path.as_os_str(), bytes.as_slice()));
        for (path, bytes) in kept.chain(fresh) {
            if let Some(shard) = &mut shards[Records::shard_of(path.as_encoded_bytes())] {
                shard.push(bytes);
            }
        }
        self.records.write(&Head { program: self.program.clone(), kept_at: fs::now() }, shards);
    }
}

/// The entry that keeps what was read from `path` as it was at `stamp`
/// (without the text), for [`Kept::keep`]; made on any thread. None for a
/// file whose name is not UTF-8, which is read every time.
pub fn entry_of(path: &Path, stamp: Stamp, parsed: &Parsed) -> Option<Vec<u8>> {
    let parsed = Parsed { post: parsed.post.clone().map(|post| post.without_text()), ..parsed.clone() };
    records::encode(&Entry { path: path.to_path_buf(), stamp, parsed })
}
