//! What an export keeps in the cache folder between runs, for the next
//! export into the same folder: for every file it wrote, the stamp the file
//! had when written and what it was made from (a page's plan digest, the
//! links its post asked about and the digest of their answers, and the
//! problems rendering found; a copied file's source stamp). The next export
//! renders again only the pages whose plan, links' answers or file changed.
//!
//! Kept as [`SHARDS`] files of JSON lines under `exports/<digest of the
//! output folder>/`, so that they are read on every core and only the shards
//! with a changed file are written again. Each starts with a head naming the
//! Hanji that wrote it: another build (whose pages could differ) trusts
//! nothing in it. A missing or damaged shard only means its pages are
//! rendered again: it is never needed for a right site.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::diagnostics::Diagnostic;
use crate::digest::{self, Digest};
use crate::fs::{self, Program, Stamp};
use crate::site::plan::LinkAnswer;

const SHARDS: u64 = 16;

/// How many output folders' states are kept (the last used).
const FOLDERS: usize = 16;

/// What heads each shard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Head {
    pub program: Program,
    /// What the links of posts led to (`Site::links_digest`) when it was written.
    #[serde(with = "hex")]
    pub links: Digest,
}

/// What one written file was made from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Made {
    /// The file, relative to the output folder.
    pub file: String,
    /// Its stamp right after it was written (or found unchanged).
    pub stamp: Stamp,
    pub from: From,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum From {
    /// A page: the digest of its plan with what every page shares, and
    /// the problems rendering it found.
    Page {
        #[serde(with = "hex")]
        plan: Digest,
        problems: Vec<Diagnostic>,
        /// A post's page: the links and images it asked about (their
        /// answers left out) and the digest of the answers.
        links: Option<Links>,
    },
    /// A file copied as it is, from a source with this stamp.
    Copy(Stamp),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Links {
    pub asked: Vec<(bool, String)>,
    #[serde(with = "hex")]
    pub answers: Digest,
}

impl Links {
    pub fn of(answers: &[LinkAnswer]) -> Links {
        Links { asked: answers.iter().map(|a| (a.image, a.dest.clone())).collect(), answers: digest::of(answers) }
    }

    /// The questions again, for `Site::answer_again`.
    pub fn questions(&self) -> Vec<LinkAnswer> {
        use crate::site::plan::LinkTo;
        let ask =
            |(image, dest): &(bool, String)| LinkAnswer { image: *image, dest: dest.clone(), answer: LinkTo::Keep };
        self.asked.iter().map(ask).collect()
    }
}

/// What the last export into one folder kept.
pub struct State {
    folder: PathBuf,
    /// The head all its shards had, if they agreed and were this Hanji's.
    pub head: Option<Head>,
    pub made: HashMap<String, Made>,
}

impl State {
    /// What is kept for exports into `out` (absolute) under `cache_dir`.
    pub fn open(cache_dir: &Path, out: &Path) -> State {
        let name = format!("{:032x}", digest::of_bytes(out.as_os_str().as_encoded_bytes()));
        let folder = cache_dir.join("exports").join(name);
        let program = Program::this();
        let shards: Vec<Option<(Head, Vec<Made>)>> =
            (0..SHARDS).into_par_iter().map(|n| read_shard(&folder.join(shard_name(n)))).collect();
        let heads: Vec<&Head> = shards.iter().flatten().map(|(head, _)| head).collect();
        let agreed = heads.first().filter(|first| first.program == program && heads.iter().all(|h| h == *first));
        let head = agreed.map(|head| (*head).clone());
        // Shards are all or nothing: without all of them, nothing is trusted.
        let whole = head.is_some() && heads.len() == SHARDS as usize;
        let made = if whole {
            shards.into_iter().flatten().flat_map(|(_, made)| made).map(|m| (m.file.clone(), m)).collect()
        } else {
            HashMap::new()
        };
        State { folder, head: head.filter(|_| whole), made }
    }

    /// Keeps `made` (every file of this export) under `head` for next time,
    /// writing the shards that differ from what was kept. A shard that
    /// cannot be written is removed, so that the rest is not trusted alone.
    pub fn save(self, head: &Head, mut made: Vec<Made>) {
        made.par_sort_unstable_by(|a, b| a.file.cmp(&b.file));
        let unchanged_head = self.head.as_ref() == Some(head);
        let mut shards: Vec<Vec<&Made>> = (0..SHARDS).map(|_| Vec::new()).collect();
        let mut changed = [!unchanged_head; SHARDS as usize];
        for entry in &made {
            let n = shard_of(&entry.file);
            changed[n] |= self.made.get(&entry.file) != Some(entry);
            shards[n].push(entry);
        }
        let mut counts = [0usize; SHARDS as usize];
        for file in self.made.keys() {
            counts[shard_of(file)] += 1;
        }
        for (n, shard) in shards.iter().enumerate() {
            changed[n] |= counts[n] != shard.len();
        }
        let folder = self.folder;
        fs::mark_used(&folder);
        if let Some(all) = folder.parent() {
            fs::keep_newest_folders(all, FOLDERS);
        }
        shards.into_par_iter().enumerate().filter(|(n, _)| changed[*n]).for_each(|(n, entries)| {
            let mut text = serde_json::to_vec(head).expect("a head serializes");
            text.push(b'\n');
            for entry in entries {
                // A page whose problems name a file that is not UTF-8 is not
                // kept, and is rendered again next time.
                if let Ok(line) = serde_json::to_vec(entry) {
                    text.extend(line);
                    text.push(b'\n');
                }
            }
            let file = folder.join(shard_name(n as u64));
            if fs::write_if_changed(&file, &text).is_err() {
                let _ = fs::remove_file(&file);
            }
        });
    }
}

fn shard_name(n: u64) -> String {
    format!("{n:02}.jsonl")
}

fn shard_of(file: &str) -> usize {
    (digest::of_bytes(file.as_bytes()) % Digest::from(SHARDS)) as usize
}

fn read_shard(file: &Path) -> Option<(Head, Vec<Made>)> {
    let bytes = fs::read(file).ok()?;
    let mut lines = bytes.split(|b| *b == b'\n').filter(|line| !line.is_empty());
    let head: Head = serde_json::from_slice(lines.next()?).ok()?;
    // One damaged line spoils the shard: its pages are rendered again.
    let made = lines.map(|line| serde_json::from_slice(line).ok()).collect::<Option<Vec<Made>>>()?;
    Some((head, made))
}

/// Digests written as 32 hexadecimal digits.
mod hex {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(digest: &u128, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&format!("{digest:032x}"))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u128, D::Error> {
        let text = <&str>::deserialize(deserializer)?;
        u128::from_str_radix(text, 16).map_err(serde::de::Error::custom)
    }
}
