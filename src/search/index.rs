//! The index's files held in memory (name under `search/` → text), made
//! from the posts' entries and kept up to date as posts change: what `hanji
//! serve` answers from, and what the tests and benchmarks look at. Its
//! state lives in memory; see `kept` for the one an export keeps on disk.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;

use rayon::prelude::*;

use super::entry::Entry;
use super::kept::KeptIndex;

/// The index's files: name under `search/` → text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Index {
    pub files: BTreeMap<String, String>,
}

impl Index {
    /// The index of the posts whose entries these are, oldest first (a
    /// post's number is its place).
    pub fn build(entries: Vec<Entry>) -> Index {
        let mut served = Served::default();
        let posts = (0..entries.len()).map(|n| (n.to_string(), String::new())).collect();
        let entries: Vec<Mutex<Option<Entry>>> = entries.into_iter().map(|e| Mutex::new(Some(e))).collect();
        served.update("", posts, |n| entries[n].lock().expect("entry").take().expect("each entry once"));
        served.index
    }
}

/// An index kept in memory and updated rather than made again: only the
/// posts whose entry may have changed are asked for.
#[derive(Default)]
pub struct Served {
    kept: Option<KeptIndex>,
    settings: String,
    /// What each post's entry was made from, by its identity.
    made_from: HashMap<String, String>,
    index: Index,
}

impl Served {
    /// Brings the index up to date with `posts` (oldest first), each as its
    /// identity and a digest of what its entry is made from (see `digest`): `entry_of(n)`
    /// makes post n's entry when that digest is new, or when `settings`
    /// (what every entry is made with) changed.
    pub fn update(&mut self, settings: &str, posts: Vec<(String, String)>, entry_of: impl Fn(usize) -> Entry + Sync) {
        if self.settings != settings || self.kept.is_none() {
            self.kept = Some(KeptIndex::in_memory(settings));
            self.settings = settings.to_string();
            self.made_from.clear();
        }
        let kept = self.kept.as_mut().expect("a kept index");
        let fresh: Vec<usize> =
            (0..posts.len()).filter(|&n| self.made_from.get(&posts[n].0) != Some(&posts[n].1)).collect();
        let written = Mutex::new(Vec::new());
        let write = |name: &str, text: &str| {
            written.lock().expect("written").push((name.to_string(), text.to_string()));
            Ok(())
        };
        let identities = posts.iter().map(|(id, _)| id.clone()).collect();
        let update = kept.update(identities, &write);
        fresh.par_iter().for_each(|&n| update.put(n, entry_of(n)));
        let updated = update.finish(&entry_of).expect("memory is written");
        kept.commit("").expect("memory is written");
        let names: std::collections::HashSet<&String> = updated.files.iter().collect();
        self.index.files.retain(|name, _| names.contains(name));
        self.index.files.extend(written.into_inner().expect("written"));
        self.made_from = posts.into_iter().collect();
    }

    /// The text of the index's file `name` (under `search/`).
    pub fn file(&self, name: &str) -> Option<&str> {
        self.index.files.get(name).map(String::as_str)
    }

    pub fn index(&self) -> &Index {
        &self.index
    }
}
