//! The index kept between exports, so that an export updates it rather than
//! building it again: after one post's edit, only the files of that post's
//! group, and of the shards its changed tokens are in, are made and written.
//!
//! The state kept (see `store`) is a manifest (how many posts and a digest
//! of their identities, the shards with their first tokens and sizes, what
//! each file of the index held), each shard's text, and the posts' entries
//! with their identities, [`PACK`] to a file. It
//! is named for the export it belongs to (the caller's name for it): if that
//! is not the export the caller's "unchanged" is measured from, if it was
//! made by another Hanji or other settings, or if it is missing or damaged,
//! nothing of it is trusted and every entry is asked for.
//!
//! The index the update makes is byte for byte the one a build from every
//! entry makes: when the posts were numbered otherwise (a post inserted
//! among older ones, removed or moved), when the shards' measure changed
//! (the blog doubled) or many posts changed, the update builds every file
//! from the kept entries and the fresh ones, and writes those whose text
//! changed.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::io;
use std::path::Path;
use std::sync::{Mutex, RwLock};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::entry::Entry;
use super::postings::Postings;
use super::shards::{self, Cutter, Posting, post_of, posting};
use super::store::{MANIFEST, Store, digest};

/// How many posts' entries share a file of the index (`posts/<n>.js` holds
/// the posts numbered from n × GROUP): a file of their own each would cost
/// the site twice the bytes, each file being compressed on its own.
pub const GROUP: usize = 8;

/// How many posts' entries share a file of the kept state: two groups, so
/// that an edit reads and writes a small file.
pub const PACK: usize = 2 * GROUP;

/// Changes when what the state holds, or how the index is made from it, does.
const FORMAT: &str = "hanji search state 2";

/// Writes one file of the index: its name under `search/` and its text.
pub type Write<'a> = dyn Fn(&str, &str) -> io::Result<()> + Sync + 'a;

/// A shard's lines: each token with its postings.
type Lines = Vec<(String, Vec<Posting>)>;

/// A change to a token's postings: the token, the post, and its new code
/// (None: the post leaves the token).
type Change<'e> = (&'e str, u32, Option<u8>);

/// A pack's posts: each one's identity and entry.
type Pack = Vec<(String, Entry)>;

/// What the manifest of the state holds.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
struct Manifest {
    /// Hanji, the state's format and the caller's settings.
    key: String,
    /// The export this state is of.
    export: String,
    /// How many posts.
    count: usize,
    /// The digest of the identities of each pack's posts (see [`identities`]).
    ids: Vec<String>,
    /// The file of each pack of [`PACK`] posts.
    packs: Vec<String>,
    /// The digest of each group's file of the index.
    groups: Vec<String>,
    shards: Vec<Shard>,
    /// The digest of `index.js`.
    index: String,
}

/// One shard as the manifest has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Shard {
    first: String,
    /// Its text, which is the index's file `index/<name>.js`, kept as
    /// `<digest>.shard`.
    file: String,
    /// The sum of its lines' sizes, and how many lines.
    size: u64,
    tokens: u64,
    /// Whether its last line is big.
    last_big: bool,
}

impl Shard {
    fn of(lines: &[(String, Vec<Posting>)], sizes: &[usize], file: String) -> Shard {
        Shard {
            first: lines[0].0.clone(),
            file,
            size: sizes.iter().map(|s| *s as u64).sum(),
            tokens: lines.len() as u64,
            last_big: shards::is_big(*sizes.last().expect("a shard has a line")),
        }
    }

    fn name(&self) -> String {
        shards::name(&self.first)
    }

    /// The digest of its text (the index's file).
    fn digest(&self) -> &str {
        self.file.split_once('.').map_or("", |(digest, _)| digest)
    }
}

/// The state of the index of one output folder.
pub struct KeptIndex {
    store: Store,
    key: String,
    /// The manifest, if it can be trusted.
    manifest: Option<Manifest>,
    /// The files the manifest on disk names, trusted or not (to remove
    /// them once they are replaced); None if there was no readable one.
    named: Option<BTreeSet<String>>,
    /// What the last update made, until it is committed.
    pending: Option<Pending>,
}

struct Pending {
    manifest: Manifest,
    /// A file of the state could not be written: the next update starts over.
    broken: bool,
    /// Every file was made again: the folder is swept of what it does not name.
    whole: bool,
}

impl KeptIndex {
    /// The state kept in `cache_dir` for the output folder `out` (see
    /// `fs::cache_dir`), trusted if it was made with these `settings` (a
    /// text that changes when anything the entries are made with does, such
    /// as the site's settings) and committed as `export`: the caller's
    /// name for the export its "unchanged" posts are unchanged since.
    pub fn open(cache_dir: &Path, out: &Path, settings: &str, export: &str) -> KeptIndex {
        KeptIndex::with_store(Store::for_output(cache_dir, out), settings, export)
    }

    /// A state in memory, for a server that keeps its index between changes.
    pub fn in_memory(settings: &str) -> KeptIndex {
        KeptIndex::with_store(Store::in_memory(), settings, "")
    }

    fn with_store(store: Store, settings: &str, export: &str) -> KeptIndex {
        // Another build of Hanji trusts nothing this one kept.
        let key = format!("{FORMAT} {:?} {settings}", crate::fs::Program::this());
        let read = store.read(MANIFEST).and_then(|bytes| serde_json::from_slice::<Manifest>(&bytes).ok());
        let named = read.as_ref().map(Manifest::files);
        let manifest = read.filter(|m| m.key == key && m.export == export);
        KeptIndex { store, key, manifest, named, pending: None }
    }

    /// Whether the state cannot give any post's entry: then the update
    /// should be given every post fresh (each post's prose rendered), as
    /// any it is not given is made by the `entry_of` it is passed.
    pub fn needs_every_entry(&self) -> bool {
        self.manifest.is_none()
    }

    /// Begins an update of the index to these posts (each one's identity:
    /// its file or its address), oldest first. `write` writes a file of the
    /// index whose text changed; it may be called from any thread.
    pub fn update<'a>(&'a mut self, posts: Vec<String>, write: &'a Write<'a>) -> Update<'a> {
        self.pending = None;
        // The posts keep their numbers when the old ones are the first of
        // the new ones, or the new ones the first of the old.
        let same = self.manifest.as_ref().is_some_and(|old| {
            let kept = old.count.min(posts.len());
            (0..kept.div_ceil(PACK)).all(|p| {
                let range = p * PACK..(p * PACK + PACK).min(old.count);
                if range.end <= posts.len() {
                    return old.ids.get(p) == Some(&identities(&posts[range]));
                }
                // The new posts end within this pack: compare with its posts.
                let pack = old.packs.get(p).and_then(|file| read_pack(&self.store.read_checked(file)?));
                pack.is_some_and(|pack| {
                    pack.iter().map(|(id, _)| id).take(kept - range.start).eq(&posts[range.start..kept])
                })
            })
        });
        let mode = if same { Mode::Edits(Mutex::default()) } else { Mode::Whole(Whole::new(posts.len())) };
        Update { kept: self, posts, write, mode: RwLock::new(mode), broken: Mutex::new(false) }
    }

    /// Keeps what the last update made as the state of `export` (after the
    /// index's files are written; see [`KeptIndex::open`]), and removes the files
    /// of the state it replaces.
    pub fn commit(&mut self, export: &str) -> io::Result<()> {
        let Some(Pending { mut manifest, broken, whole }) = self.pending.take() else { return Ok(()) };
        if broken {
            // Nothing half-made is trusted: the next update starts over.
            self.store.remove(MANIFEST);
            self.manifest = None;
            return Ok(());
        }
        manifest.export = export.to_string();
        let bytes = serde_json::to_vec(&manifest).expect("a manifest serializes");
        self.store.write(MANIFEST, &bytes)?;
        let named = manifest.files();
        let stale: Vec<String> = match (&self.named, whole) {
            (Some(before), false) => before.difference(&named).cloned().collect(),
            _ => self.store.names().into_iter().filter(|f| f != MANIFEST && !named.contains(f)).collect(),
        };
        for file in stale {
            self.store.remove(&file);
        }
        self.named = Some(named);
        self.manifest = Some(manifest);
        Ok(())
    }
}

impl Manifest {
    /// The state's files it names.
    fn files(&self) -> BTreeSet<String> {
        self.packs.iter().cloned().chain(self.shards.iter().map(|s| s.file.clone())).collect()
    }

    /// A digest of what the index's files hold (see `Updated::name`).
    fn name(&self) -> String {
        let shards: Vec<(&str, &str)> = self.shards.iter().map(|s| (s.first.as_str(), s.digest())).collect();
        let held = serde_json::to_vec(&(self.count, &self.groups, shards, &self.index)).expect("a manifest serializes");
        digest(&held)
    }

    /// The names of every file of the index.
    fn index_files(&self) -> Vec<String> {
        let mut names = vec!["index.js".to_string()];
        names.extend(self.shards.iter().map(|s| format!("index/{}.js", s.name())));
        names.extend((0..self.groups.len()).map(|g| format!("posts/{g}.js")));
        names
    }
}

/// What an update did.
#[derive(Debug, Default)]
pub struct Updated {
    /// The names of every file of the index, under `search/`.
    pub files: Vec<String>,
    /// How many of them were written (their text changed).
    pub written: usize,
    /// A name for the index made, from what its files hold: equal indexes
    /// have equal names, whether updated or made whole.
    pub name: String,
}

/// An update of the index under way: see [`KeptIndex::update`].
pub struct Update<'a> {
    kept: &'a mut KeptIndex,
    posts: Vec<String>,
    write: &'a Write<'a>,
    mode: RwLock<Mode>,
    /// A file of the state could not be written.
    broken: Mutex<bool>,
}

enum Mode {
    /// The posts keep their numbers: the fresh entries, to compare with the
    /// kept ones.
    Edits(Mutex<Vec<(usize, Entry)>>),
    /// Every file made again.
    Whole(Whole),
}

/// What the edits came to: the new manifest and how many files were
/// written, or the entries back if the state cannot give what they need.
enum Edited {
    Done(Manifest, usize),
    Whole(Vec<(usize, Entry)>),
}

impl Update<'_> {
    /// Gives the update post number `n`'s entry, rendered this time: from
    /// any thread, in any order, as each post's page is rendered. A post
    /// not given is unchanged; of a post given twice, the first counts.
    pub fn put(&self, n: usize, entry: Entry) {
        assert!(n < self.posts.len(), "post {n} of {}", self.posts.len());
        let many = {
            let mode = self.mode.read().expect("mode");
            match &*mode {
                Mode::Whole(whole) => return whole.put(self, n, entry),
                Mode::Edits(fresh) => {
                    let mut fresh = fresh.lock().expect("fresh");
                    fresh.push((n, entry));
                    fresh.len() > 64 + self.posts.len() / 32
                }
            }
        };
        if many {
            // So many posts changed that making every file costs less than
            // finding each change.
            let mut mode = self.mode.write().expect("mode");
            if let Mode::Edits(fresh) = &mut *mode {
                let fresh = std::mem::take(fresh.get_mut().expect("fresh"));
                let whole = Whole::new(self.posts.len());
                // One thread: the others wait for this lock.
                for (n, entry) in fresh {
                    whole.put(self, n, entry);
                }
                *mode = Mode::Whole(whole);
            }
        }
    }

    /// Finishes the update: writes the files of the index whose text
    /// changed, and returns the names of all of them. `entry_of(n)` makes
    /// post n's entry (rendering its prose) when it was not given and the
    /// state cannot give it. Then [`KeptIndex::commit`] keeps the new state.
    pub fn finish(mut self, entry_of: impl Fn(usize) -> Entry + Sync) -> io::Result<Updated> {
        let mode = std::mem::replace(self.mode.get_mut().expect("mode"), Mode::Edits(Mutex::default()));
        let whole = match mode {
            Mode::Whole(whole) => whole,
            Mode::Edits(fresh) => {
                let mut fresh = fresh.into_inner().expect("fresh");
                // Of a post given twice, the first counts (the sort is stable).
                fresh.sort_by_key(|(n, _)| *n);
                fresh.dedup_by_key(|(n, _)| *n);
                match self.edits(fresh, &entry_of)? {
                    Edited::Done(manifest, written) => return Ok(self.done(manifest, written, false)),
                    Edited::Whole(fresh) => {
                        let whole = Whole::new(self.posts.len());
                        fresh.into_par_iter().for_each(|(n, entry)| whole.put(&self, n, entry));
                        whole
                    }
                }
            }
        };
        let (manifest, written) = self.whole(whole, &entry_of)?;
        Ok(self.done(manifest, written, true))
    }

    fn done(self, manifest: Manifest, written: usize, whole: bool) -> Updated {
        let broken = *self.broken.lock().expect("broken");
        let files = manifest.index_files();
        let name = manifest.name();
        self.kept.pending = Some(Pending { manifest, broken, whole });
        Updated { files, written, name }
    }

    fn store(&self) -> &Store {
        &self.kept.store
    }

    fn old(&self) -> Option<&Manifest> {
        self.kept.manifest.as_ref()
    }

    /// Keeps a file of the state, named by its text; a failure only makes
    /// the next update start over.
    fn keep(&self, kind: &str, bytes: &[u8]) -> String {
        self.store().write_named(kind, bytes).unwrap_or_else(|_| {
            *self.broken.lock().expect("broken") = true;
            String::new()
        })
    }

    /// [`Update::keep`] of a file whose name is known.
    fn keep_as(&self, name: &str, bytes: &[u8]) {
        if self.store().write_as(name, bytes).is_err() {
            *self.broken.lock().expect("broken") = true;
        }
    }

    /// The kept pack `p`: each post's identity and entry; None if it cannot
    /// be read whole.
    fn pack(&self, p: usize) -> Option<Pack> {
        let old = self.old()?;
        let pack = read_pack(&self.store().read_checked(old.packs.get(p)?)?)?;
        (pack.len() == PACK.min(old.count.saturating_sub(p * PACK))).then_some(pack)
    }

    /// The lines of the kept shard `k`; None if it cannot be read.
    fn shard(&self, k: usize) -> Option<Lines> {
        let file = &self.old()?.shards.get(k)?.file;
        shards::read(std::str::from_utf8(&self.store().read_checked(file)?).ok()?)
    }

    /// Writes `index.js` if its text changed; how many files were written.
    fn write_index(&self, manifest: &mut Manifest) -> io::Result<usize> {
        // Each shard by its first token: the browser works out its name.
        let firsts: Vec<&str> = manifest.shards.iter().map(|s| s.first.as_str()).collect();
        let json = serde_json::json!({ "posts": manifest.count, "group": GROUP, "shards": firsts });
        let text = format!("hanjiSearch.index({json});\n");
        manifest.index = digest(text.as_bytes());
        if self.old().is_some_and(|old| old.index == manifest.index) {
            return Ok(0);
        }
        (self.write)("index.js", &text)?;
        Ok(1)
    }

    /// Makes every file of the index from the entries given, the kept ones
    /// and, for posts the state has not, `entry_of`'s.
    fn whole(&self, whole: Whole, entry_of: &(dyn Fn(usize) -> Entry + Sync)) -> io::Result<(Manifest, usize)> {
        // The posts not given: from the kept packs, found by their identities.
        let missing: HashMap<&str, usize> = whole.missing().into_iter().map(|n| (self.posts[n].as_str(), n)).collect();
        if let Some(old) = self.old().filter(|_| !missing.is_empty()) {
            (0..old.packs.len()).into_par_iter().for_each(|p| {
                for (id, entry) in self.pack(p).into_iter().flatten() {
                    if let Some(&n) = missing.get(id.as_str()) {
                        whole.put(self, n, entry);
                    }
                }
            });
        }
        // Those the state has not (or not whole): made.
        whole.missing().into_par_iter().for_each(|n| whole.put(self, n, entry_of(n)));
        let Whole { postings, records, error, .. } = whole;
        if let Some(error) = error.into_inner().expect("error") {
            return Err(error);
        }
        let records = records.into_inner().expect("records");
        let mut manifest = Manifest {
            key: self.kept.key.clone(),
            count: self.posts.len(),
            ids: self.posts.chunks(PACK).map(identities).collect(),
            packs: records.packs,
            groups: records.groups,
            ..Manifest::default()
        };
        let lines = postings.into_lines();
        let (shards, written) = self.cut(lines, None)?;
        manifest.shards = shards;
        let written = records.written + written + self.write_index(&mut manifest)?;
        Ok((manifest, written))
    }

    /// Cuts `lines` (every token's, in order) into shards with the rule
    /// `every` (None: the one their sizes give), writing those whose text
    /// changed.
    fn cut(&self, lines: Lines, every: Option<u64>) -> io::Result<(Vec<Shard>, usize)> {
        let sizes: Vec<usize> = lines.par_iter().map(|(token, list)| shards::line_size(token, list)).collect();
        let every = every.unwrap_or_else(|| shards::every(sizes.iter().map(|s| *s as u64).sum(), lines.len() as u64));
        let mut cutter = Cutter::whole(every);
        let mut starts: Vec<usize> = (0..lines.len()).filter(|i| cutter.begins(&lines[*i].0, sizes[*i])).collect();
        starts.push(lines.len());
        let old = self.old_shards();
        // Each shard written as it is made: its text is not kept meanwhile.
        let written: Vec<io::Result<(Shard, bool)>> = starts
            .par_windows(2)
            .map(|cut| self.write_shard(Made::of(&lines[cut[0]..cut[1]], &sizes[cut[0]..cut[1]]), &old, true))
            .collect();
        gather(written)
    }

    /// The kept shards' digests, by name.
    fn old_shards(&self) -> HashMap<String, &str> {
        self.old().map(|old| old.shards.iter().map(|s| (s.name(), s.digest())).collect()).unwrap_or_default()
    }

    /// Writes a shard made unless its text is the kept one (`old`, by
    /// name), and keeps it (also when it is, if `all`: to mend a damaged
    /// state). Says whether it was written.
    fn write_shard(&self, made: Made, old: &HashMap<String, &str>, all: bool) -> io::Result<(Shard, bool)> {
        let Made { shard, text } = made;
        let name = shard.name();
        let same = old.get(&name) == Some(&shard.digest());
        if all || !same {
            self.keep_as(&shard.file, text.as_bytes());
        }
        if !same {
            (self.write)(&format!("index/{name}.js"), &text)?;
        }
        Ok((shard, !same))
    }

    /// Updates the index for the fresh entries, the posts keeping their
    /// numbers (new ones after them, or the last ones gone).
    fn edits(&self, fresh: Vec<(usize, Entry)>, entry_of: &(dyn Fn(usize) -> Entry + Sync)) -> io::Result<Edited> {
        let old = self.old().expect("edits have a state");
        let (before, now) = (old.count, self.posts.len());
        let given: BTreeSet<usize> = fresh.iter().map(|(n, _)| *n).collect();
        let made: Vec<(usize, Entry)> = (before..now)
            .filter(|n| !given.contains(n))
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|n| (n, entry_of(n)))
            .collect();
        let new: HashMap<usize, &Entry> = fresh.iter().chain(&made).map(|(n, e)| (*n, e)).collect();
        // Every post whose entry may change: given, added or gone.
        let mut posts: Vec<usize> = new.keys().copied().chain(now..before).collect();
        posts.sort_unstable();

        // The kept packs of those posts.
        let wanted: BTreeSet<usize> = posts.iter().map(|n| n / PACK).filter(|p| p * PACK < before).collect();
        let packs: Vec<(usize, Option<Pack>)> = wanted.into_par_iter().map(|p| (p, self.pack(p))).collect();
        let mut kept: HashMap<usize, Pack> = HashMap::new();
        for (p, pack) in packs {
            match pack {
                Some(pack) => kept.insert(p, pack),
                None => return Ok(Edited::Whole(fresh.into_iter().chain(made).collect())),
            };
        }
        let was = |n: usize| (n < before).then(|| &kept[&(n / PACK)][n % PACK].1);

        // What changes in each token's posts.
        let mut changes: Vec<Change<'_>> = Vec::new();
        let mut changed = BTreeSet::new();
        for &n in &posts {
            let (was, now) = (was(n), new.get(&n).copied());
            if let (Some(was), Some(now)) = (was, now)
                && was.same_as(now)
            {
                continue;
            }
            changed.insert(n);
            let before = was.map(Entry::sorted).unwrap_or_default();
            let after = now.map(Entry::sorted).unwrap_or_default();
            changes.extend(differences(&before, &after, n as u32));
        }
        changes.sort_unstable();

        let mut manifest = Manifest {
            key: self.kept.key.clone(),
            count: now,
            ids: self.posts.chunks(PACK).map(identities).collect(),
            ..old.clone()
        };
        let Some((shards, mut written)) = self.edit_shards(&old.shards, &changes)? else {
            return Ok(Edited::Whole(fresh.into_iter().chain(made).collect()));
        };
        manifest.shards = shards;

        // The packs and groups of the changed posts (the added and the gone
        // among them).
        let packs: BTreeSet<usize> = changed.iter().map(|n| n / PACK).collect();
        manifest.packs.truncate(now.div_ceil(PACK));
        manifest.groups.truncate(now.div_ceil(GROUP));
        for p in packs.into_iter().filter(|p| p * PACK < now) {
            let range = p * PACK..now.min(p * PACK + PACK);
            let entries: Vec<(&str, &Entry)> = range
                .clone()
                .map(|n| (self.posts[n].as_str(), new.get(&n).copied().or_else(|| was(n)).expect("an entry")))
                .collect();
            set(&mut manifest.packs, p, self.keep("pack", &write_pack(&entries)));
            for g in range.start / GROUP..range.end.div_ceil(GROUP) {
                let shown = (g * GROUP..range.end.min(g * GROUP + GROUP)).map(|n| entries[n - range.start].1.shown());
                let text = group_text(g * GROUP, shown);
                let hash = digest(text.as_bytes());
                if manifest.groups.get(g) != Some(&hash) {
                    (self.write)(&format!("posts/{g}.js"), &text)?;
                    written += 1;
                }
                set(&mut manifest.groups, g, hash);
            }
        }
        written += self.write_index(&mut manifest)?;
        Ok(Edited::Done(manifest, written))
    }

    /// The shards after `changes` (by token, then post; None: the post
    /// leaves the token), and how many files of the index were written; None
    /// if a kept shard cannot be read. Only the shards of the changed tokens
    /// are cut again, and those after them until one begins where it did:
    /// from there on, the cut is the one before.
    fn edit_shards(&self, old: &[Shard], changes: &[Change<'_>]) -> io::Result<Option<(Vec<Shard>, usize)>> {
        if changes.is_empty() {
            return Ok(Some((old.to_vec(), 0)));
        }
        // Each change in the shard its token is (or would be) in.
        let mut by_shard: Vec<(usize, &[Change<'_>])> = Vec::new();
        for run in changes.chunk_by(|a, b| shard_of(old, a.0) == shard_of(old, b.0)) {
            by_shard.push((shard_of(old, run[0].0), run));
        }
        let loaded: Vec<(usize, Option<Lines>)> = by_shard
            .par_iter()
            .map(|(k, run)| {
                let lines = if old.is_empty() { Some(Vec::new()) } else { self.shard(*k) };
                (
                    *k,
                    lines.map(|mut lines| {
                        apply(&mut lines, run);
                        lines
                    }),
                )
            })
            .collect();
        let mut edited: HashMap<usize, Lines> = HashMap::new();
        for (k, lines) in loaded {
            let Some(lines) = lines else { return Ok(None) };
            edited.insert(k, lines);
        }
        let size = |lines: &[(String, Vec<Posting>)]| -> (u64, u64) {
            (lines.iter().map(|(t, l)| shards::line_size(t, l) as u64).sum(), lines.len() as u64)
        };
        let (mut total, mut tokens) = old.iter().fold((0, 0), |(s, t), shard| (s + shard.size, t + shard.tokens));
        let every_before = shards::every(total, tokens);
        for (k, lines) in &edited {
            let (s, t) = size(lines);
            if let Some(shard) = old.get(*k) {
                (total, tokens) = (total - shard.size, tokens - shard.tokens);
            }
            (total, tokens) = (total + s, tokens + t);
        }
        let every = shards::every(total, tokens);
        if old.is_empty() || every != every_before {
            // The measure of shards changed (the blog doubled or halved):
            // every shard is cut again.
            let mut lines = Vec::new();
            for k in 0..old.len().max(1) {
                match edited.remove(&k).or_else(|| self.shard(k)) {
                    Some(shard) => lines.extend(shard),
                    None => return Ok(None),
                }
            }
            return self.cut(lines, Some(every)).map(Some);
        }

        let modified: BTreeSet<usize> = edited.keys().copied().collect();
        let first_change: HashMap<usize, &str> = by_shard.iter().map(|(k, run)| (*k, run[0].0)).collect();
        let mut made: Vec<Made> = Vec::new();
        let mut kept_as_were: Vec<(usize, std::ops::Range<usize>)> = Vec::new();
        let mut k = 0;
        while k < old.len() {
            let Some(&m) = modified.range(k..).next() else {
                kept_as_were.push((made.len(), k..old.len()));
                break;
            };
            // A window from a shard that begins where it did whatever the
            // changes: the first changed one, or the one before if its first
            // line changed.
            let s = if m > k && first_change[&m] <= old[m].first.as_str() { m - 1 } else { m };
            kept_as_were.push((made.len(), k..s));
            let mut cutter = Cutter::from(every, s > 0 && old[s - 1].last_big);
            let (mut lines, mut sizes): (Lines, Vec<usize>) = (Vec::new(), Vec::new());
            let mut j = s;
            k = 'window: loop {
                if j == old.len() {
                    break 'window j;
                }
                let Some(shard) = edited.remove(&j).or_else(|| self.shard(j)) else { return Ok(None) };
                for (i, line) in shard.into_iter().enumerate() {
                    let size = shards::line_size(&line.0, &line.1);
                    let begins = cutter.begins(&line.0, size);
                    if i == 0 && j > s && begins && !modified.contains(&j) {
                        // Begins where it did: the shards from here are the old ones.
                        break 'window j;
                    }
                    if begins && !lines.is_empty() {
                        made.push(Made::of(&lines, &sizes));
                        (lines, sizes) = (Vec::new(), Vec::new());
                    }
                    lines.push(line);
                    sizes.push(size);
                }
                j += 1;
            };
            if !lines.is_empty() {
                made.push(Made::of(&lines, &sizes));
            }
        }
        // The old shards kept, in their places among the new ones.
        let mut shards: Vec<Result<Shard, Made>> = Vec::new();
        let mut made = made.into_iter();
        let mut at = 0;
        for (before, range) in kept_as_were {
            shards.extend(made.by_ref().take(before - at).map(Err));
            at = before;
            shards.extend(old[range].iter().cloned().map(Ok));
        }
        shards.extend(made.map(Err));
        // A shard's name is its first token's hash: two of one name (never
        // seen) are left to the rule of a whole cut, which has them in one.
        let mut names = std::collections::HashSet::new();
        if !shards.iter().all(|s| names.insert(s.as_ref().map_or_else(|m| m.shard.name(), Shard::name))) {
            let mut lines = Vec::new();
            for shard in shards {
                match shard {
                    Err(made) => lines.extend(shards::read(&made.text).expect("a shard made here reads back")),
                    Ok(kept) => match self.shard(old.iter().position(|o| *o == kept).expect("an old shard")) {
                        Some(shard) => lines.extend(shard),
                        None => return Ok(None),
                    },
                }
            }
            return self.cut(lines, Some(every)).map(Some);
        }
        let mut order = Vec::with_capacity(shards.len());
        let mut to_write = Vec::new();
        for shard in shards {
            match shard {
                Ok(kept) => order.push(Ok(kept)),
                Err(made) => {
                    order.push(Err(to_write.len()));
                    to_write.push(made);
                }
            }
        }
        let old_shards = self.old_shards();
        let (new, written) =
            gather(to_write.into_par_iter().map(|made| self.write_shard(made, &old_shards, false)).collect())?;
        let shards = order.into_iter().map(|o| o.unwrap_or_else(|i| new[i].clone())).collect();
        Ok(Some((shards, written)))
    }
}

/// The shards written, and how many of them were, or the first error.
fn gather(written: Vec<io::Result<(Shard, bool)>>) -> io::Result<(Vec<Shard>, usize)> {
    let mut shards = Vec::with_capacity(written.len());
    let mut count = 0;
    for result in written {
        let (shard, wrote) = result?;
        count += usize::from(wrote);
        shards.push(shard);
    }
    Ok((shards, count))
}

/// A shard made: its record (its file named by its text's digest, not yet
/// kept) and text.
struct Made {
    shard: Shard,
    text: String,
}

impl Made {
    fn of(lines: &[(String, Vec<Posting>)], sizes: &[usize]) -> Made {
        let name = shards::name(&lines[0].0);
        let text = shards::text(&name, lines.iter().map(|(t, l)| (t.as_str(), l.as_slice())));
        let shard = Shard::of(lines, sizes, format!("{}.shard", digest(text.as_bytes())));
        Made { shard, text }
    }
}

/// The shard a token is in, or would be: the last one whose first token is
/// not after it (the first one for a token before all).
fn shard_of(shards: &[Shard], token: &str) -> usize {
    shards.partition_point(|s| s.first.as_str() <= token).saturating_sub(1)
}

/// Applies `changes` (by token, then post) to a shard's lines.
fn apply(lines: &mut Lines, changes: &[Change<'_>]) {
    for run in changes.chunk_by(|a, b| a.0 == b.0) {
        let token = run[0].0;
        match lines.binary_search_by(|(t, _)| t.as_str().cmp(token)) {
            Ok(i) => {
                let list = &mut lines[i].1;
                for &(_, post, code) in run {
                    match (list.binary_search_by_key(&post, |p| post_of(*p)), code) {
                        (Ok(at), Some(code)) => list[at] = posting(post, code),
                        (Ok(at), None) => {
                            list.remove(at);
                        }
                        (Err(at), Some(code)) => list.insert(at, posting(post, code)),
                        (Err(_), None) => {}
                    }
                }
                if list.is_empty() {
                    lines.remove(i);
                }
            }
            Err(i) => {
                let list: Vec<Posting> =
                    run.iter().filter_map(|(_, post, code)| Some(posting(*post, (*code)?))).collect();
                if !list.is_empty() {
                    lines.insert(i, (token.to_string(), list));
                }
            }
        }
    }
}

/// What changes in the lists of post `post`'s tokens from `before` to
/// `after` (both by token): each token it leaves (None), gains or has with
/// another code.
fn differences<'e>(before: &[(&'e str, u8)], after: &[(&'e str, u8)], post: u32) -> Vec<Change<'e>> {
    let (mut a, mut b) = (before.iter().peekable(), after.iter().peekable());
    let mut out = Vec::new();
    loop {
        match (a.peek(), b.peek()) {
            (None, None) => return out,
            (Some(&&(t, _)), None) => {
                out.push((t, post, None));
                a.next();
            }
            (None, Some(&&(t, c))) => {
                out.push((t, post, Some(c)));
                b.next();
            }
            (Some(&&(x, cx)), Some(&&(y, cy))) => match x.cmp(y) {
                std::cmp::Ordering::Less => {
                    out.push((x, post, None));
                    a.next();
                }
                std::cmp::Ordering::Greater => {
                    out.push((y, post, Some(cy)));
                    b.next();
                }
                std::cmp::Ordering::Equal => {
                    if cx != cy {
                        out.push((y, post, Some(cy)));
                    }
                    a.next();
                    b.next();
                }
            },
        }
    }
}

/// Sets `list[at]`, which may be the one after its last.
fn set(list: &mut Vec<String>, at: usize, value: String) {
    if at < list.len() {
        list[at] = value;
    } else {
        list.push(value);
    }
}

/// A digest of these posts' identities.
fn identities(posts: &[String]) -> String {
    let mut bytes = Vec::new();
    for id in posts {
        bytes.extend((id.len() as u32).to_le_bytes());
        bytes.extend(id.as_bytes());
    }
    digest(&bytes)
}

/// The text of the group file of the posts numbered from `first`.
fn group_text<'a>(first: usize, shown: impl Iterator<Item = &'a str>) -> String {
    let mut text = String::new();
    for (n, shown) in shown.enumerate() {
        let _ = writeln!(text, "hanjiSearch.post({},{shown});", first + n);
    }
    text
}

const PACK_HEADER: &[u8] = b"hanji search pack\n";

/// A pack of posts' entries as it is kept: each post's identity, shown
/// JSON, tokens and codes, each after its length.
fn write_pack(posts: &[(&str, &Entry)]) -> Vec<u8> {
    let mut out = PACK_HEADER.to_vec();
    let part = |out: &mut Vec<u8>, bytes: &[u8]| {
        out.extend((bytes.len() as u32).to_le_bytes());
        out.extend(bytes);
    };
    for (id, entry) in posts {
        part(&mut out, id.as_bytes());
        part(&mut out, entry.shown().as_bytes());
        // The tokens, `\0` after each.
        let (tokens, codes) = entry.parts();
        out.extend((tokens.len() as u32 + codes.len() as u32).to_le_bytes());
        for (token, _) in entry.tokens() {
            out.extend(token.as_bytes());
            out.push(0);
        }
        part(&mut out, codes);
    }
    out
}

/// A pack read back; None if it is not one [`write_pack`] wrote.
fn read_pack(bytes: &[u8]) -> Option<Pack> {
    fn take<'b>(rest: &mut &'b [u8]) -> Option<&'b [u8]> {
        let len = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?) as usize;
        let part = rest.get(4..4 + len)?;
        *rest = &rest[4 + len..];
        Some(part)
    }
    let text = |bytes: &[u8]| String::from_utf8(bytes.to_vec()).ok();
    let mut rest = bytes.strip_prefix(PACK_HEADER)?;
    let mut posts = Vec::new();
    while !rest.is_empty() {
        let id = text(take(&mut rest)?)?;
        let shown = text(take(&mut rest)?)?;
        let tokens = text(take(&mut rest)?)?;
        let codes = take(&mut rest)?.to_vec();
        posts.push((id, Entry::from_parts(&tokens, codes, shown)?));
    }
    Some(posts)
}

/// Every file made again: the entries as they come, each token's posts
/// gathered, each pack's files written once its posts are all in.
struct Whole {
    postings: Postings,
    packs: Vec<Mutex<Filling>>,
    records: Mutex<Records>,
    /// The first file of the index that could not be written.
    error: Mutex<Option<io::Error>>,
}

/// A pack's entries as they come.
struct Filling {
    entries: Vec<Option<Entry>>,
    filled: usize,
}

#[derive(Default)]
struct Records {
    packs: Vec<String>,
    groups: Vec<String>,
    written: usize,
}

impl Whole {
    fn new(posts: usize) -> Whole {
        let packs = (0..posts.div_ceil(PACK))
            .map(|p| Mutex::new(Filling { entries: vec![None; PACK.min(posts - p * PACK)], filled: 0 }))
            .collect();
        let records = Records {
            packs: vec![String::new(); posts.div_ceil(PACK)],
            groups: vec![String::new(); posts.div_ceil(GROUP)],
            written: 0,
        };
        Whole { postings: Postings::default(), packs, records: Mutex::new(records), error: Mutex::default() }
    }

    fn put(&self, update: &Update, n: usize, entry: Entry) {
        let p = n / PACK;
        let entries = {
            let mut pack = self.packs[p].lock().expect("pack");
            if pack.entries.get(n % PACK).is_none_or(Option::is_some) {
                return;
            }
            self.postings.add(n as u32, &entry);
            pack.entries[n % PACK] = Some(entry);
            pack.filled += 1;
            if pack.filled < pack.entries.len() {
                return;
            }
            std::mem::take(&mut pack.entries)
        };
        // The pack is whole: its files, and the room its entries took, go.
        let first = p * PACK;
        let entries: Vec<(&str, &Entry)> = entries
            .iter()
            .enumerate()
            .map(|(i, e)| (update.posts[first + i].as_str(), e.as_ref().expect("an entry")))
            .collect();
        let file = update.keep("pack", &write_pack(&entries));
        let old = update.old().map_or(&[][..], |old| old.groups.as_slice());
        let mut groups = Vec::new();
        let mut written = 0;
        for (i, chunk) in entries.chunks(GROUP).enumerate() {
            let g = first / GROUP + i;
            let text = group_text(g * GROUP, chunk.iter().map(|(_, e)| e.shown()));
            let hash = digest(text.as_bytes());
            if old.get(g) != Some(&hash) {
                if let Err(error) = (update.write)(&format!("posts/{g}.js"), &text) {
                    self.error.lock().expect("error").get_or_insert(error);
                }
                written += 1;
            }
            groups.push((g, hash));
        }
        let mut records = self.records.lock().expect("records");
        records.packs[p] = file;
        for (g, hash) in groups {
            records.groups[g] = hash;
        }
        records.written += written;
    }

    /// The posts not given yet.
    fn missing(&self) -> Vec<usize> {
        let mut missing = Vec::new();
        for (p, pack) in self.packs.iter().enumerate() {
            let pack = pack.lock().expect("pack");
            missing.extend(pack.entries.iter().enumerate().filter(|(_, e)| e.is_none()).map(|(i, _)| p * PACK + i));
        }
        missing
    }
}

#[cfg(test)]
mod tests;
