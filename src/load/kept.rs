//! What was read from each post file, kept between runs in the cache folder:
//! the file's stamp and what `Post::parse` made of it (without the text). A
//! blog read again with it reads only the files whose stamp changed; an
//! export of a 10,000-post blog after one edit reads one file.
//!
//! Kept in [`SHARDS`] files under `posts/<digest of the blog folder>/`, one
//! JSON line a file of the blog, so that they are read on every core and only
//! the shards with a changed file are written again. Kept entries are trusted
//! only by the Hanji that wrote them (the program's own stamp heads each
//! shard), and only where the file's stamp could not hide a change: a file
//! written within two seconds of when its entry was kept is read again.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::content::post::Parsed;
use crate::digest::{self, Digest};
use crate::fs::{self, Program, Stamp};

/// How many files the entries are spread over.
const SHARDS: u64 = 16;

/// How many blogs' entries are kept (the last read).
const BLOGS: usize = 16;

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

/// An entry as it was kept: its line, and what it holds until taken.
struct Line {
    stamp: Stamp,
    text: Vec<u8>,
    parsed: Option<Parsed>,
}

/// What was kept for one blog, and what this run took from it or read anew.
pub struct Kept {
    folder: PathBuf,
    program: Program,
    lines: HashMap<PathBuf, Line>,
    /// The files whose kept entry was still right.
    trusted: HashSet<PathBuf>,
    /// The lines of the files read in this run.
    fresh: Vec<(PathBuf, Vec<u8>)>,
}

impl Kept {
    /// What is kept for the blog at `root` (an absolute path) under `cache_dir`.
    /// Nothing, not an error, if nothing is kept or it cannot be read.
    pub fn open(cache_dir: &Path, root: &Path) -> Kept {
        let name = format!("{:032x}", digest::of_bytes(root.as_os_str().as_encoded_bytes()));
        let folder = cache_dir.join("posts").join(name);
        let program = Program::this();
        let shards: Vec<Vec<(PathBuf, Line)>> =
            (0..SHARDS).into_par_iter().map(|n| read_shard(&folder.join(shard_name(n)), &program)).collect();
        let lines = shards.into_iter().flatten().collect();
        Kept { folder, program, lines, trusted: HashSet::new(), fresh: Vec::new() }
    }

    /// What was read from the file at `path` (relative to the blog), if it
    /// has not changed since; None if it must be read again.
    pub fn take(&mut self, path: &Path, stamp: Stamp) -> Option<Parsed> {
        let line = self.lines.get_mut(path).filter(|line| line.stamp == stamp)?;
        let parsed = line.parsed.take()?;
        self.trusted.insert(path.to_path_buf());
        Some(parsed)
    }

    /// Keeps a line [`line_of`] made for next time.
    pub fn keep(&mut self, path: PathBuf, line: Vec<u8>) {
        self.fresh.push((path, line));
    }

    /// Writes the shards whose entries changed: a file read anew, or one whose
    /// entry was not taken (the file changed or is gone). A shard that cannot
    /// be written is left as it is: it is only a cache, and the next run
    /// reads those files again.
    pub fn save(self) {
        let mut changed = [false; SHARDS as usize];
        fs::mark_used(&self.folder);
        if let Some(all) = self.folder.parent() {
            fs::keep_newest_folders(all, BLOGS);
        }
        let untrusted = self.lines.keys().filter(|path| !self.trusted.contains(*path));
        for path in untrusted.chain(self.fresh.iter().map(|(path, _)| path)) {
            changed[shard_of(path)] = true;
        }
        if !changed.contains(&true) {
            return;
        }
        let head = Head { program: self.program, kept_at: fs::now() };
        let mut shards: Vec<Vec<u8>> = (0..SHARDS)
            .map(|_| {
                let mut text = serde_json::to_vec(&head).expect("a head serializes");
                text.push(b'\n');
                text
            })
            .collect();
        let kept = self.lines.into_iter().filter(|(path, _)| self.trusted.contains(path)).map(|(p, l)| (p, l.text));
        for (path, line) in kept.chain(self.fresh) {
            let shard = &mut shards[shard_of(&path)];
            shard.extend_from_slice(&line);
            shard.push(b'\n');
        }
        let folder = self.folder;
        shards.into_par_iter().enumerate().filter(|(n, _)| changed[*n]).for_each(|(n, text)| {
            let _ = fs::write_if_changed(&folder.join(shard_name(n as u64)), &text);
        });
    }
}

/// The line that keeps what was read from `path` as it was at `stamp`
/// (without the text), for [`Kept::keep`]; made on any thread. None for a
/// file whose name is not UTF-8, which is read every time.
pub fn line_of(path: &Path, stamp: Stamp, parsed: &Parsed) -> Option<Vec<u8>> {
    let parsed = Parsed { post: parsed.post.clone().map(|post| post.without_text()), ..parsed.clone() };
    serde_json::to_vec(&Entry { path: path.to_path_buf(), stamp, parsed }).ok()
}

fn shard_name(n: u64) -> String {
    format!("{n:02}.jsonl")
}

fn shard_of(path: &Path) -> usize {
    (digest::of_bytes(path.as_os_str().as_encoded_bytes()) % Digest::from(SHARDS)) as usize
}

/// A shard's entries, if it was kept by this Hanji; those whose files could
/// have changed unseen since are left out.
fn read_shard(file: &Path, program: &Program) -> Vec<(PathBuf, Line)> {
    let Ok(bytes) = fs::read(file) else { return Vec::new() };
    let mut lines = bytes.split(|b| *b == b'\n').filter(|line| !line.is_empty());
    let Some(head) = lines.next().and_then(|line| serde_json::from_slice::<Head>(line).ok()) else {
        return Vec::new();
    };
    if head.program != *program {
        return Vec::new();
    }
    lines
        .filter_map(|text| {
            let entry: Entry = serde_json::from_slice(text).ok()?;
            let line = Line { stamp: entry.stamp, text: text.to_vec(), parsed: Some(entry.parsed) };
            (!entry.stamp.is_racy(head.kept_at)).then_some((entry.path, line))
        })
        .collect()
}
