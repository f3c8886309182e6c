//! Highlighted code remembered: each distinct block is highlighted once per
//! process, and the export keeps what it highlighted on disk, so that exporting
//! a blog again costs milliseconds instead of seconds of tree-sitter work.

use std::collections::{HashMap, HashSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Range;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, RwLock};

use super::highlight::{self, HIGHLIGHT_VERSION};

/// What a saved cache starts with; a file without it (or of another
/// highlighter version) is ignored, never trusted.
const MAGIC: &[u8] = b"hanji highlight cache 1\n";

/// (version, grammar, code) → 128 bits. Two SipHash runs with fixed keys: the
/// same on every run, and collisions are out of reach for any blog.
type Key = u128;

#[derive(Default)]
pub struct HighlightCache {
    entries: RwLock<HashMap<Key, Arc<str>>>,
    /// Entries read back (`add_from_bytes`), left in the bytes read until
    /// a page asks for one: an export that renders one post reads a large
    /// blog's cache without making an entry of each of its blocks.
    read: RwLock<Vec<ReadBack>>,
    /// Keys looked up since the cache was made: only these are saved, so the
    /// file holds what the blog uses now and does not grow without end.
    used: Mutex<HashSet<Key>>,
    /// Whether anything was highlighted anew.
    added: AtomicBool,
}

/// Bytes a cache was saved as, and where each entry's HTML is in them.
struct ReadBack {
    bytes: Vec<u8>,
    at: HashMap<Key, Range<usize>>,
}

impl ReadBack {
    /// The bytes of `key`'s HTML in the first of `read` that has it.
    fn find<'r>(read: &'r [ReadBack], key: &Key) -> Option<&'r [u8]> {
        read.iter().find_map(|read| Some(&read.bytes[read.at.get(key)?.clone()]))
    }
}

impl HighlightCache {
    pub fn new() -> Self {
        Self::default()
    }

    /// The highlighted HTML of `code` in the language of fence `lang`, or None
    /// for a language Hanji does not highlight (the caller escapes it as text).
    pub fn highlight(&self, lang: &str, code: &str) -> Option<Arc<str>> {
        let grammar = highlight::language(lang)?;
        let key = key(grammar, code);
        self.used.lock().expect("highlight cache").insert(key);
        if let Some(html) = self.entries.read().expect("highlight cache").get(&key) {
            return Some(html.clone());
        }
        let html: Arc<str> = match self.read_back(key) {
            Some(html) => html.into(),
            None => {
                let html = highlight::highlight(lang, code)?;
                self.added.store(true, std::sync::atomic::Ordering::Relaxed);
                html.into()
            }
        };
        self.entries.write().expect("highlight cache").insert(key, html.clone());
        Some(html)
    }

    /// The HTML of `key` in the bytes read back, if it is there (and text).
    fn read_back(&self, key: Key) -> Option<String> {
        let read = self.read.read().expect("highlight cache");
        String::from_utf8(ReadBack::find(&read, &key)?.to_vec()).ok()
    }

    /// Every key known, read back or not.
    fn keys(&self) -> HashSet<Key> {
        let mut keys: HashSet<Key> = self.entries.read().expect("highlight cache").keys().copied().collect();
        keys.extend(self.read.read().expect("highlight cache").iter().flat_map(|read| read.at.keys()));
        keys
    }

    pub fn len(&self) -> usize {
        self.keys().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// A cache read back from `bytes` as [`HighlightCache::to_bytes`] wrote
    /// them; anything unreadable gives an empty cache.
    pub fn from_bytes(bytes: &[u8]) -> Self {
        let cache = Self::new();
        cache.add_from_bytes(bytes.to_vec());
        cache
    }

    /// Whether anything was highlighted anew (or `keep_all` was not asked
    /// and some entries went unused): what is saved would differ.
    pub fn is_changed(&self) -> bool {
        self.added.load(std::sync::atomic::Ordering::Relaxed)
            || self.used.lock().expect("highlight cache").len() != self.len()
    }

    /// Saves every entry, used or not (see `to_bytes`): when only some of a
    /// blog's posts are rendered, the others' code stays.
    pub fn keep_all(&self) {
        let keys = self.keys();
        self.used.lock().expect("highlight cache").extend(keys);
    }

    /// Adds the entries in `bytes` (as `to_bytes` wrote them); anything
    /// unreadable adds nothing.
    pub fn add_from_bytes(&self, bytes: Vec<u8>) {
        let Some(mut rest) = bytes.strip_prefix(MAGIC) else { return };
        let mut at = HashMap::new();
        let mut take = |n: usize| -> Option<Range<usize>> {
            let (head, tail) = rest.split_at_checked(n)?;
            rest = tail;
            let start = bytes.len() - tail.len() - head.len();
            Some(start..start + n)
        };
        let version_len = take(4).map(|r| u32::from_le_bytes(bytes[r].try_into().expect("4 bytes")));
        if take(version_len.unwrap_or_default() as usize).map(|r| &bytes[r]) != Some(HIGHLIGHT_VERSION.as_bytes()) {
            return;
        }
        while let Some(key) = take(16) {
            let key = Key::from_le_bytes(bytes[key].try_into().expect("16 bytes"));
            let Some(len) = take(4).map(|r| u32::from_le_bytes(bytes[r].try_into().expect("4 bytes"))) else { break };
            let Some(html) = take(len as usize) else { break };
            at.insert(key, html);
        }
        self.read.write().expect("highlight cache").push(ReadBack { bytes, at });
    }

    /// The entries used since this cache was made, to be read back by
    /// [`HighlightCache::from_bytes`].
    #[cfg(test)]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::new();
        self.write_to(&mut bytes).expect("writing to memory");
        bytes
    }

    /// Writes [`HighlightCache::to_bytes`] to `out` as they are made: a
    /// large blog's are tens of megabytes, which an export need not hold
    /// at once.
    pub fn write_to(&self, out: &mut dyn std::io::Write) -> std::io::Result<()> {
        let entries = self.entries.read().expect("highlight cache");
        let read = self.read.read().expect("highlight cache");
        let used = self.used.lock().expect("highlight cache");
        let html_of = |key: &Key| match entries.get(key) {
            Some(html) => Some(html.as_bytes()),
            None => ReadBack::find(&read, key),
        };
        out.write_all(MAGIC)?;
        out.write_all(&(HIGHLIGHT_VERSION.len() as u32).to_le_bytes())?;
        out.write_all(HIGHLIGHT_VERSION.as_bytes())?;
        let mut keys: Vec<(&Key, &[u8])> = used.iter().filter_map(|key| Some((key, html_of(key)?))).collect();
        keys.sort_unstable_by_key(|(key, _)| **key);
        for (key, html) in keys {
            out.write_all(&key.to_le_bytes())?;
            out.write_all(&(html.len() as u32).to_le_bytes())?;
            out.write_all(html)?;
        }
        Ok(())
    }
}

fn key(grammar: &str, code: &str) -> Key {
    let half = |salt: u8| {
        let mut hasher = DefaultHasher::new();
        (salt, HIGHLIGHT_VERSION, grammar, code).hash(&mut hasher);
        hasher.finish()
    };
    (u128::from(half(1)) << 64) | u128::from(half(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gives_what_highlighting_gives() {
        let cache = HighlightCache::new();
        let code = "fn main() { println!(\"hi\"); }\n";
        let direct = highlight::highlight("rust", code).unwrap();
        assert_eq!(cache.highlight("rust", code).as_deref(), Some(direct.as_str()));
        assert_eq!(cache.highlight("rs", code).as_deref(), Some(direct.as_str()), "an alias is the same grammar");
        assert_eq!(cache.len(), 1);
        assert_eq!(cache.highlight("klingon", code), None);
    }

    #[test]
    fn survives_a_round_trip_through_bytes() {
        let cache = HighlightCache::new();
        let rust = cache.highlight("rust", "let x = 1;\n").unwrap();
        let python = cache.highlight("python", "x = '분산'\n").unwrap();
        let again = HighlightCache::from_bytes(&cache.to_bytes());
        assert_eq!(again.len(), 2);
        // Served from the entries read back: equal to what was highlighted.
        assert_eq!(again.highlight("rust", "let x = 1;\n"), Some(rust));
        assert_eq!(again.highlight("py", "x = '분산'\n"), Some(python));
    }

    #[test]
    fn saves_only_what_was_used() {
        let old = HighlightCache::new();
        old.highlight("rust", "let a = 1;\n");
        old.highlight("rust", "let b = 2;\n");
        let new = HighlightCache::from_bytes(&old.to_bytes());
        new.highlight("rust", "let b = 2;\n");
        assert_eq!(HighlightCache::from_bytes(&new.to_bytes()).len(), 1);
    }

    #[test]
    fn entries_read_back_and_not_used_are_kept_when_asked() {
        let old = HighlightCache::new();
        old.highlight("rust", "let a = 1;\n");
        old.highlight("rust", "let b = 2;\n");
        let new = HighlightCache::from_bytes(&old.to_bytes());
        new.highlight("rust", "let b = 2;\n");
        assert!(new.is_changed(), "one entry unused: the file would lose it");
        new.keep_all();
        assert!(!new.is_changed());
        assert_eq!(new.to_bytes(), old.to_bytes());
        // Read back, an entry that is not text is highlighted again.
        let mut bytes = old.to_bytes();
        let at = bytes.windows(3).position(|w| w == b"let").expect("the code is in the file");
        bytes[at] = 0xff;
        let broken = HighlightCache::from_bytes(&bytes);
        assert!(broken.highlight("rust", "let a = 1;\n").unwrap().contains("let"));
        assert!(broken.highlight("rust", "let b = 2;\n").unwrap().contains("let"));
        assert!(broken.is_changed());
    }

    #[test]
    fn unreadable_bytes_give_an_empty_cache() {
        assert!(HighlightCache::from_bytes(b"").is_empty());
        assert!(HighlightCache::from_bytes(b"something else entirely").is_empty());
        let cache = HighlightCache::new();
        cache.highlight("rust", "let a = 1;\n");
        let bytes = cache.to_bytes();
        // Cut short: the entries before the cut are kept, nothing breaks.
        assert!(HighlightCache::from_bytes(&bytes[..bytes.len() - 3]).is_empty());
        // Another highlighter version: ignored.
        let other = String::from_utf8_lossy(&bytes).replace(HIGHLIGHT_VERSION, &"x".repeat(HIGHLIGHT_VERSION.len()));
        assert!(HighlightCache::from_bytes(other.as_bytes()).is_empty());
    }
}
