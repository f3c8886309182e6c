//! Records kept between runs in the cache folder (what was read from each
//! post, what made each page of an export), so that the next run redoes only
//! what changed. They are spread over [`SHARDS`] files by a digest of their
//! key, so that they are read on every core and only the shards with a
//! changed record are written again. Each shard starts with a head (which
//! Hanji wrote it, and what the records were made under); a record is a
//! length and its bytes (postcard), kept as bytes until asked for. A shard
//! that cannot be read is as good as none: records are only ever a cache.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Folder, SitePath};
use crate::digest::{self, Digest};

/// How many files the records of one folder are spread over.
pub const SHARDS: usize = 16;

/// How many folders of one kind are kept (those used last).
const FOLDERS: usize = 16;

/// The records of one kind for one thing (a blog, an output folder):
/// `<cache>/<kind>/<digest of the thing's path>/NN.bin`, written through
/// the cache folder's handle (`Folder`).
pub struct Records {
    cache: PathBuf,
    kind: String,
    /// `<kind>/<digest>`, relative to the cache folder.
    folder: String,
}

/// One shard as read: its head and its records' bytes.
pub struct Shard<H> {
    pub head: H,
    bytes: Vec<u8>,
    spans: Vec<std::ops::Range<usize>>,
}

impl<H> Shard<H> {
    /// Each record's bytes, in the order written.
    pub fn records(&self) -> impl Iterator<Item = &[u8]> {
        self.spans.iter().map(|span| &self.bytes[span.clone()])
    }

    /// The bytes of the `n`th record.
    pub fn record(&self, n: usize) -> Option<&[u8]> {
        self.spans.get(n).map(|span| &self.bytes[span.clone()])
    }
}

impl Records {
    pub fn new(cache_dir: &Path, kind: &str, of: &Path) -> Records {
        let name = format!("{:032x}", digest::of_bytes(of.as_os_str().as_encoded_bytes()));
        Records { cache: cache_dir.to_path_buf(), kind: kind.to_string(), folder: format!("{kind}/{name}") }
    }

    /// The shard a record of this key is in.
    pub fn shard_of(key: &[u8]) -> usize {
        (digest::of_bytes(key) % SHARDS as Digest) as usize
    }

    /// Every shard, read on every core; None for one missing or unreadable.
    pub fn read<H: DeserializeOwned + Send>(&self) -> Vec<Option<Shard<H>>> {
        (0..SHARDS).into_par_iter().map(|n| read_shard(&self.file(n))).collect()
    }

    /// Writes the shards given (`Some`: the head and every record of that
    /// shard), leaves the others, and marks the folder used now; folders of
    /// the same kind not used among the last [`FOLDERS`] are removed. A
    /// shard that cannot be written is removed, so that no stale one stays.
    pub fn write<H: Serialize + Sync>(&self, head: &H, shards: Vec<Option<Vec<&[u8]>>>) {
        self.write_with(head, shards, |bytes, record| {
            bytes.extend((record.len() as u32).to_le_bytes());
            bytes.extend(*record);
        });
    }

    /// [`Records::write`] of records not encoded yet: each is encoded into
    /// its shard's file as that is made, so that a large export's records
    /// are never all held as bytes at once. A record that cannot be encoded
    /// (a path that is not UTF-8) is left out.
    pub fn write_encoding<H: Serialize + Sync, T: Serialize + Sync>(&self, head: &H, shards: Vec<Option<Vec<&T>>>) {
        self.write_with(head, shards, |bytes, record| {
            let at = bytes.len();
            bytes.extend([0; 4]);
            match postcard::to_io(record, &mut *bytes) {
                Ok(_) => {
                    let len = (bytes.len() - at - 4) as u32;
                    bytes[at..at + 4].copy_from_slice(&len.to_le_bytes());
                }
                Err(_) => bytes.truncate(at),
            }
        });
    }

    /// Writes each shard given, its head first and then each record as
    /// `put` adds it to the shard's bytes.
    fn write_with<H: Serialize + Sync, R: Sync>(
        &self,
        head: &H,
        shards: Vec<Option<Vec<R>>>,
        put: impl Fn(&mut Vec<u8>, &R) + Sync,
    ) {
        let Ok(cache) = Folder::open(&self.cache, true) else { return };
        super::mark_used(&self.cache.join(&self.folder));
        keep_newest_folders(&cache, &self.kind, FOLDERS);
        let head = encode(head).expect("a head encodes");
        shards.into_par_iter().enumerate().for_each(|(n, records)| {
            let Some(records) = records else { return };
            let mut bytes = Vec::with_capacity(head.len() + 4);
            bytes.extend((head.len() as u32).to_le_bytes());
            bytes.extend(&head);
            for record in records {
                put(&mut bytes, record);
            }
            let file = self.shard(n);
            if cache.write_if_changed(&file, &bytes).is_err() {
                let _ = cache.remove(&file);
            }
        });
    }

    /// The bytes of a file of its own kept with the records (`last.bin`).
    pub fn read_beside(&self, name: &str) -> Option<Vec<u8>> {
        super::read(&self.cache.join(&self.folder).join(name)).ok()
    }

    /// Keeps a file of its own with the records (removed with them). Only
    /// a cache: false if it could not be written.
    pub fn write_beside(&self, name: &str, bytes: &[u8]) -> bool {
        let Ok(cache) = Folder::open(&self.cache, true) else { return false };
        let Ok(file) = SitePath::new(&format!("{}/{name}", self.folder)) else { return false };
        cache.write_if_changed(&file, bytes).is_ok()
    }

    /// Removes a file kept with the records; true if it was there.
    pub fn remove_beside(&self, name: &str) -> bool {
        let Ok(cache) = Folder::open(&self.cache, false) else { return false };
        let Ok(file) = SitePath::new(&format!("{}/{name}", self.folder)) else { return false };
        cache.remove(&file).unwrap_or(false)
    }

    fn shard(&self, n: usize) -> SitePath {
        SitePath::new(&format!("{}/{n:02}.bin", self.folder)).expect("a kind and hex names")
    }

    fn file(&self, n: usize) -> PathBuf {
        self.cache.join(self.shard(n).as_path())
    }
}

/// Keeps the `keep` folders of `kind` in the cache used last (see
/// `mark_used`) and removes the others, with all they hold: records kept per
/// blog or per output folder would otherwise pile up for folders long gone.
fn keep_newest_folders(cache: &Folder, kind: &str, keep: usize) {
    let mut folders: Vec<(std::time::SystemTime, PathBuf)> = super::folders_in(&cache.path().join(kind))
        .into_iter()
        .filter_map(|folder| Some((std::fs::metadata(&folder).ok()?.modified().ok()?, folder)))
        .collect();
    folders.sort_by_key(|(modified, _)| std::cmp::Reverse(*modified));
    for (_, folder) in folders.into_iter().skip(keep) {
        let Some(name) = folder.file_name().and_then(|n| n.to_str()) else { continue };
        if let Ok(folder) = SitePath::new(&format!("{kind}/{name}")) {
            cache.remove_folder(&folder);
        }
    }
}

/// A record's bytes; None if it cannot be encoded (a path that is not UTF-8).
pub fn encode<T: Serialize + ?Sized>(record: &T) -> Option<Vec<u8>> {
    postcard::to_stdvec(record).ok()
}

/// A record read back; None if the bytes are not one.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    postcard::from_bytes(bytes).ok()
}

fn read_shard<H: DeserializeOwned>(file: &Path) -> Option<Shard<H>> {
    let bytes = super::read(file).ok()?;
    let mut spans = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let len = u32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize;
        let span = at + 4..at + 4 + len;
        bytes.get(span.clone())?;
        at = span.end;
        spans.push(span);
    }
    let head = decode(&bytes[spans.first()?.clone()])?;
    spans.remove(0);
    Some(Shard { head, bytes, spans })
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;

    use super::*;

    #[test]
    fn only_the_folders_used_last_are_kept() {
        let cache = tempfile::tempdir().unwrap();
        let day = std::time::Duration::from_secs(86_400);
        let kind = cache.path().join("exports");
        for (n, name) in ["old", "older", "new"].iter().enumerate() {
            let folder = kind.join(name);
            std::fs::create_dir_all(folder.join("deep")).unwrap();
            std::fs::write(folder.join("deep/kept"), "x").unwrap();
            let age = [2, 3, 0][n];
            std::fs::File::open(&folder).unwrap().set_modified(std::time::SystemTime::now() - day * age).unwrap();
        }
        // A link in an old folder: removed, never followed.
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("mine"), "mine").unwrap();
        std::os::unix::fs::symlink(outside.path(), kind.join("old/link")).unwrap();
        super::super::mark_used(&kind.join("older"));
        keep_newest_folders(&Folder::open(cache.path(), false).unwrap(), "exports", 2);
        assert_eq!(super::super::folders_in(&kind), [kind.join("new"), kind.join("older")]);
        assert_eq!(std::fs::read_to_string(outside.path().join("mine")).unwrap(), "mine");
    }

    #[test]
    fn records_encoded_as_written_read_back_as_given_bytes_are() {
        let cache = tempfile::tempdir().unwrap();
        let (given, encoded) =
            (Records::new(cache.path(), "k", Path::new("a")), Records::new(cache.path(), "k", Path::new("b")));
        let records: Vec<PathBuf> = ["posts/a.md", "posts/b.md", "posts/c.md"].map(PathBuf::from).to_vec();
        let bytes: Vec<Vec<u8>> = records.iter().map(|r| encode(r).unwrap()).collect();
        given.write(&"head", vec![Some(bytes.iter().map(Vec::as_slice).collect()), None]);
        // A path that is not UTF-8 cannot be encoded: it is left out.
        let odd = PathBuf::from(OsStr::from_bytes(b"posts/\xff.md"));
        let with_odd: Vec<&PathBuf> = vec![&records[0], &odd, &records[1], &records[2]];
        encoded.write_encoding(&"head", vec![Some(with_odd), None]);
        assert_eq!(std::fs::read(given.file(0)).unwrap(), std::fs::read(encoded.file(0)).unwrap());
        let shards = encoded.read::<String>();
        let shard = shards[0].as_ref().expect("shard 0 written");
        assert_eq!(shard.head, "head");
        let read: Vec<PathBuf> = shard.records().map(|r| decode(r).unwrap()).collect();
        assert_eq!(read, records);
        assert!(shards[1].is_none(), "a shard not given is not written");
    }
}
