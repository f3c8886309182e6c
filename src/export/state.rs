//! What an export keeps in the cache folder between runs (`fs::records`),
//! for the next export into the same folder: for every file it wrote, the
//! stamp the file had when written and what it was made from (a page's plan
//! digest, the links its post asked about and the digest of their answers,
//! and the problems rendering found; a copied file's source stamp; an image
//! copy's image, its stamp and the image settings). The next
//! export renders again only the pages whose plan, links' answers or file
//! changed. The records are trusted only by the Hanji that wrote them, and
//! only all together: a missing or damaged shard makes the next export a full
//! one, never a wrong one.

use std::borrow::Cow;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::diagnostics::Diagnostic;
use crate::digest::{self, Digest};
use crate::fs::records::{self, Records, SHARDS};
use crate::fs::{Program, SitePath, Stamp};
use crate::site::plan::{Answers, Asked, LinkAnswer};

/// What heads each shard.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Head {
    pub program: Program,
    /// What the links of posts led to (`Site::links_digest`) when it was written.
    pub links: Digest,
    /// What the pages were made from but the posts' texts (`Site::facts_digest`).
    pub facts: Digest,
}

/// What one written file was made from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Made {
    /// The file, relative to the output folder (checked again as it is read
    /// back: a record never names a file outside the folder).
    pub file: SitePath,
    /// Its stamp right after it was written (or found unchanged).
    pub stamp: Stamp,
    pub from: From,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum From {
    /// A page: the digest of its plan with what every page shares, and
    /// the problems rendering it found.
    Page {
        plan: Digest,
        problems: Vec<Diagnostic>,
        /// A post's page: the links and images it asked about (their
        /// answers left out) and the digest of the answers.
        links: Option<Links>,
        /// A post's page: the digest of the post's text.
        text: Option<Digest>,
    },
    /// A file copied as it is, from a source with this stamp.
    Copy(Stamp),
    /// A file of the search index, made from the index kept in the cache.
    Search,
    /// A copy of an image sized for the screen: the image file, its stamp
    /// and the digest of the image settings it was made with.
    Image { image: PathBuf, source: Stamp, settings: Digest },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Links {
    pub asked: Vec<(Asked, String)>,
    pub answers: Digest,
    /// The image files whose copies the page shows.
    pub pictured: Vec<PathBuf>,
}

impl Links {
    pub fn of(answers: &Answers) -> Links {
        Links {
            asked: answers.links.iter().map(|a| (a.asked, a.dest.clone())).collect(),
            answers: digest::of(&answers.links),
            pictured: answers.pictured.clone(),
        }
    }

    /// The questions again, for `Site::answer_again`.
    pub fn questions(&self) -> Vec<LinkAnswer> {
        use crate::site::plan::LinkTo;
        let ask =
            |(asked, dest): &(Asked, String)| LinkAnswer { asked: *asked, dest: dest.clone(), answer: LinkTo::Keep };
        self.asked.iter().map(ask).collect()
    }
}

/// What the last export into one folder kept.
#[derive(Default)]
pub struct State {
    records: Option<Records>,
    /// The head all its shards had, if they agreed and were this Hanji's.
    pub head: Option<Head>,
    pub made: HashMap<SitePath, Made>,
}

impl State {
    /// What is kept for exports into `out` (absolute) under `cache_dir`.
    pub fn open(cache_dir: &Path, out: &Path) -> State {
        let records = Records::new(cache_dir, "exports", out);
        let shards = records.read::<Head>();
        let program = Program::this();
        let first = shards.first().and_then(Option::as_ref).map(|shard| &shard.head);
        // Shards are all or nothing: without all of them, nothing is trusted.
        let agreed = first.filter(|first| {
            first.program == program && shards.iter().all(|s| s.as_ref().is_some_and(|s| s.head == **first))
        });
        let made: Option<HashMap<SitePath, Made>> = agreed.and_then(|_| {
            shards
                .par_iter()
                .flatten()
                .flat_map_iter(|shard| shard.records().map(records::decode::<Made>))
                .map(|made| made.map(|m| (m.file.clone(), m)))
                .collect()
        });
        match made {
            Some(made) => State { head: agreed.cloned(), made, records: Some(records) },
            None => State { records: Some(records), ..State::default() },
        }
    }

    /// Keeps `made` (every file of this export: borrowed, a record of this
    /// state kept as it was) under `head` for next time, writing the shards
    /// that differ from what was kept.
    pub fn save(&self, head: &Head, made: &[Cow<Made>]) {
        let Some(records) = &self.records else { return };
        let shard_of = |file: &SitePath| Records::shard_of(file.as_str().as_bytes());
        let mut changed = [self.head.as_ref() != Some(head); SHARDS];
        let mut counts = [0isize; SHARDS];
        for file in self.made.keys() {
            counts[shard_of(file)] += 1;
        }
        for entry in made {
            counts[shard_of(&entry.file)] -= 1;
            // A record borrowed from this state is the one kept for its file.
            let kept = matches!(entry, Cow::Borrowed(_)) || self.made.get(&entry.file) == Some(&**entry);
            if !kept {
                changed[shard_of(&entry.file)] = true;
            }
        }
        for (n, count) in counts.iter().enumerate() {
            changed[n] |= *count != 0;
        }
        // A page whose problems name a file that is not UTF-8 is not kept
        // (see `write_encoding`), and is rendered again next time.
        let mut shards: Vec<Option<Vec<&Made>>> = changed.iter().map(|c| c.then(Vec::new)).collect();
        for entry in made {
            if let Some(shard) = &mut shards[shard_of(&entry.file)] {
                shard.push(&**entry);
            }
        }
        records.write_encoding(head, shards);
    }
}
