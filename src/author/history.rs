//! Saved versions of posts: every save keeps the text it replaces in the
//! app's own data folder (beside the journal, never in the blog), so that an
//! author can see and restore what a post said before any save. Hanji's
//! other writes of a post (a tag renamed across the blog, or put back) and
//! another program's writes that Hanji read again keep the text they
//! replaced too, each with its cause. One file a
//! version, `<history>/<blog>/<post>/<saved-at-ms>.json`, written atomically
//! and flushed through a `Folder` that cannot leave the history; each post
//! keeps at most `Limits::versions` of them, none older than `Limits::days`
//! (pruned at every save, and for every post of a blog when it is opened,
//! so that the versions of a post deleted since go too). While the author
//! keeps typing, the saves made by themselves (autosaves) keep one version
//! every `Limits::every_minutes`; a save the author asks for keeps one each
//! time.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::fs::{Durable, Folder, SitePath};

/// How many versions of each post are kept, and for how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// At most this many versions a post; 0 keeps none.
    pub versions: usize,
    /// None older than this many days.
    pub days: u32,
    /// An autosave keeps a version only if none was kept in the last this
    /// many minutes (0: every autosave keeps one).
    pub every_minutes: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { versions: 50, days: 90, every_minutes: 5 }
    }
}

/// What replaced a kept version's text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "VersionCause"))]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Cause {
    /// The author saved the post.
    #[default]
    Save,
    /// Hanji renamed the tag `from` to `to` in every post that had it (or
    /// put such a rename back, from the new name to the old).
    TagRename { from: String, to: String },
    /// Another program wrote the post, and Hanji read it again.
    Outside,
}

/// A text replaced: what it was, what it became, and why.
#[derive(Debug, Clone, Copy)]
pub struct Replaced<'a> {
    pub previous: &'a str,
    pub next: &'a str,
    pub cause: &'a Cause,
}

/// One kept version, as the History panel lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Version {
    /// Names the version for `History::read`.
    pub id: String,
    /// When the save that replaced it was made, milliseconds since 1970.
    pub saved_at: i64,
    /// The version's size in bytes.
    pub bytes: usize,
    /// Lines the save added and removed: the size of the change it made.
    pub added: usize,
    pub removed: usize,
    pub cause: Cause,
}

/// What a version's file holds.
#[derive(Debug, Serialize, Deserialize)]
struct Kept {
    root: PathBuf,
    path: PathBuf,
    saved_at: i64,
    added: usize,
    removed: usize,
    /// Versions kept before causes were written down were all saves.
    #[serde(default)]
    cause: Cause,
    text: String,
}

#[derive(Debug, Clone)]
pub struct History {
    folder: PathBuf,
}

impl History {
    pub fn new(folder: impl Into<PathBuf>) -> Self {
        History { folder: folder.into() }
    }

    /// Keeps `replaced.previous`, the text of `path` that `replaced.next`
    /// replaces at `now` (ms since 1970), then prunes the post's versions to
    /// `limits`. Nothing is kept when the text did not change.
    pub fn keep(&self, root: &Path, path: &Path, replaced: Replaced, now: i64, limits: Limits) -> std::io::Result<()> {
        let Replaced { previous, next, cause } = replaced;
        if previous == next || limits.versions == 0 {
            return self.prune(root, path, now, limits);
        }
        let (added, removed) = lines_changed(previous, next);
        let folder = Folder::open(&self.folder, true)?;
        let post_folder = self.post_folder(root, path);
        // Two saves in one millisecond still keep two versions.
        let mut at = now;
        while folder.stamp(&version_file(&post_folder, at)).is_some() {
            at += 1;
        }
        let kept = Kept {
            root: root.into(),
            path: path.into(),
            saved_at: at,
            added,
            removed,
            cause: cause.clone(),
            text: previous.into(),
        };
        let bytes = serde_json::to_vec(&kept).map_err(std::io::Error::other)?;
        folder.write(&version_file(&post_folder, at), &bytes, Durable::Flushed)?;
        self.prune(root, path, now, limits)
    }

    /// Whether a version of `path` was kept within `minutes` before `now`
    /// (ms since 1970): an autosave then keeps none, as the text it
    /// replaces is a moment of the same stretch of typing.
    pub fn kept_lately(&self, root: &Path, path: &Path, now: i64, minutes: u32) -> bool {
        let since = now - i64::from(minutes) * 60_000;
        minutes > 0 && self.files(root, path).iter().any(|(at, _)| *at > since)
    }

    /// The versions of `path`, newest first.
    pub fn versions(&self, root: &Path, path: &Path) -> Vec<Version> {
        let mut versions: Vec<Version> = self
            .files(root, path)
            .into_iter()
            .filter_map(|(at, file)| {
                // A file that cannot be read holds no version worth listing.
                let kept: Kept = serde_json::from_slice(&self.folder()?.read(&file).ok()?).ok()?;
                let id = at.to_string();
                (kept.root == root && kept.path == path).then_some(Version {
                    id,
                    saved_at: kept.saved_at,
                    bytes: kept.text.len(),
                    added: kept.added,
                    removed: kept.removed,
                    cause: kept.cause,
                })
            })
            .collect();
        versions.sort_by_key(|v| std::cmp::Reverse(v.saved_at));
        versions
    }

    /// The text of version `id` of `path`.
    pub fn read(&self, root: &Path, path: &Path, id: &str) -> std::io::Result<String> {
        let not_found = || std::io::Error::new(std::io::ErrorKind::NotFound, format!("there is no version `{id}`"));
        if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
            return Err(not_found());
        }
        let at: i64 = id.parse().map_err(|_| not_found())?;
        let bytes = Folder::open(&self.folder, false)?.read(&version_file(&self.post_folder(root, path), at))?;
        let kept: Kept = serde_json::from_slice(&bytes).map_err(|_| not_found())?;
        Ok(kept.text)
    }

    /// The post at `from` is now at `to`: its versions go with it.
    pub fn moved(&self, root: &Path, from: &Path, to: &Path) {
        let Some(folder) = self.folder() else { return };
        for (at, file) in self.files(root, from) {
            let Some(mut kept) = folder.read(&file).ok().and_then(|b| serde_json::from_slice::<Kept>(&b).ok()) else {
                continue;
            };
            kept.path = to.to_path_buf();
            let target = version_file(&self.post_folder(root, to), at);
            let written = serde_json::to_vec(&kept)
                .map_err(std::io::Error::other)
                .and_then(|b| folder.write(&target, &b, Durable::Flushed));
            if written.is_ok() {
                let _ = folder.remove(&file);
            }
        }
    }

    /// Prunes the versions of every post of the blog at `root` to `limits`
    /// at `now`, posts deleted since included (their versions go once they
    /// are older than `limits.days`, or all of them if `limits.versions` is
    /// 0). Gives how many versions went.
    pub fn prune_blog(&self, root: &Path, now: i64, limits: Limits) -> usize {
        let Some(folder) = self.folder() else { return 0 };
        let blog = name_of(root);
        let mut by_post: std::collections::BTreeMap<String, Vec<(i64, SitePath)>> = Default::default();
        for (file, _) in folder.files().unwrap_or_default() {
            let mut names = file.names();
            let (Some(b), Some(post), Some(name), None) = (names.next(), names.next(), names.next(), names.next())
            else {
                continue;
            };
            let Some(at) = at_of(name) else { continue };
            if b == blog {
                by_post.entry(post.to_string()).or_default().push((at, file.clone()));
            }
        }
        let mut gone = 0;
        for files in by_post.values() {
            let stamps: Vec<i64> = files.iter().map(|(at, _)| *at).collect();
            for index in to_prune(&stamps, now, limits) {
                gone += usize::from(folder.remove(&files[index].1).unwrap_or(false));
            }
        }
        gone
    }

    fn prune(&self, root: &Path, path: &Path, now: i64, limits: Limits) -> std::io::Result<()> {
        let files = self.files(root, path);
        let Some(folder) = self.folder() else { return Ok(()) };
        let stamps: Vec<i64> = files.iter().map(|(at, _)| *at).collect();
        for index in to_prune(&stamps, now, limits) {
            folder.remove(&files[index].1)?;
        }
        Ok(())
    }

    /// The post's version files with the time in their names.
    fn files(&self, root: &Path, path: &Path) -> Vec<(i64, SitePath)> {
        let post_folder = self.post_folder(root, path);
        crate::fs::files_in(&self.folder.join(&post_folder))
            .into_iter()
            .filter_map(|file| {
                let at = at_of(file.file_name()?.to_str()?)?;
                Some((at, version_file(&post_folder, at)))
            })
            .collect()
    }

    /// The history folder, if there is one yet.
    fn folder(&self) -> Option<Folder> {
        Folder::open(&self.folder, false).ok()
    }

    /// `<blog>/<post>`, each named by the digest of its path.
    fn post_folder(&self, root: &Path, path: &Path) -> String {
        format!("{}/{}", name_of(root), name_of(path))
    }
}

/// The name of a blog's or a post's folder: FNV-1a of its path's bytes,
/// which stays the same across Rust releases (std's hasher may change), so
/// old versions are found again.
fn name_of(path: &Path) -> String {
    format!("{:016x}", stable_hash(path))
}

/// A version's file in a post's folder.
fn version_file(post_folder: &str, at: i64) -> SitePath {
    SitePath::new(&format!("{post_folder}/{at}.json")).expect("hex and digits")
}

/// The time in a version file's name (`1767000000000.json`).
fn at_of(name: &str) -> Option<i64> {
    let digits = name.strip_suffix(".json")?;
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then(|| digits.parse().ok()).flatten()
}

/// Which of the versions saved at `stamps` (ms, any order) go: all past the
/// newest `limits.versions`, and any older than `limits.days` at `now`.
/// Returns their indexes in `stamps`.
pub fn to_prune(stamps: &[i64], now: i64, limits: Limits) -> Vec<usize> {
    let mut order: Vec<usize> = (0..stamps.len()).collect();
    order.sort_by(|&a, &b| stamps[b].cmp(&stamps[a]));
    let oldest = now - i64::from(limits.days) * 86_400_000;
    let mut gone: Vec<usize> = order
        .iter()
        .enumerate()
        .filter(|&(rank, &i)| rank >= limits.versions || stamps[i] < oldest)
        .map(|(_, &i)| i)
        .collect();
    gone.sort_unstable();
    gone
}

/// Lines added and removed from `before` to `after`.
fn lines_changed(before: &str, after: &str) -> (usize, usize) {
    let diff = similar::TextDiff::from_lines(before, after);
    diff.iter_all_changes().fold((0, 0), |(added, removed), change| match change.tag() {
        similar::ChangeTag::Insert => (added + 1, removed),
        similar::ChangeTag::Delete => (added, removed + 1),
        similar::ChangeTag::Equal => (added, removed),
    })
}

/// FNV-1a of a path's bytes: folder names that stay the same across Rust
/// releases (std's hasher may change), so old versions are found again.
fn stable_hash(path: &Path) -> u64 {
    path.as_os_str()
        .as_encoded_bytes()
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: i64 = 86_400_000;

    #[test]
    fn the_versions_of_a_deleted_post_are_pruned_when_the_blog_opens() {
        let data = tempfile::tempdir().unwrap();
        let (root, other) = (Path::new("/blogs/mine"), Path::new("/blogs/other"));
        let history = History::new(data.path());
        let keep = |root, post: &str, now| {
            let replaced = Replaced { previous: "a", next: "b", cause: &Cause::Save };
            history.keep(root, Path::new(post), replaced, now, Limits::default()).unwrap();
        };
        keep(root, "posts/deleted.md", DAY);
        keep(root, "posts/deleted.md", 2 * DAY);
        keep(root, "posts/kept.md", 95 * DAY);
        keep(other, "posts/deleted.md", DAY);
        let gone = history.prune_blog(root, 100 * DAY, Limits::default());
        assert_eq!(gone, 2, "older than 90 days, though no save of that post prunes them any more");
        assert!(history.versions(root, Path::new("posts/deleted.md")).is_empty());
        assert_eq!(history.versions(root, Path::new("posts/kept.md")).len(), 1);
        assert_eq!(history.versions(other, Path::new("posts/deleted.md")).len(), 1, "another blog's are its own");
    }

    #[test]
    fn pruning_keeps_the_newest_within_count_and_age() {
        let limits = Limits { versions: 3, days: 10, every_minutes: 0 };
        let now = 100 * DAY;
        // Out of order on purpose: the newest count, not the first listed.
        let stamps = [now - DAY, now - 20 * DAY, now - 2 * DAY, now - 3 * DAY, now - 4 * DAY];
        assert_eq!(to_prune(&stamps, now, limits), [1, 4], "past the newest three, and older than ten days");
        assert!(to_prune(&stamps[..3], now - 15 * DAY, Limits { versions: 5, days: 10, every_minutes: 0 }).is_empty());
        assert_eq!(
            to_prune(&stamps, now, Limits { versions: 0, days: 10, every_minutes: 0 }),
            [0, 1, 2, 3, 4],
            "0 keeps none"
        );
        assert_eq!(
            to_prune(&[now - 11 * DAY, now - 9 * DAY], now, Limits { versions: 9, days: 10, every_minutes: 0 }),
            [0]
        );
        assert!(to_prune(&[], now, limits).is_empty());
    }

    #[test]
    fn every_save_keeps_what_it_replaced() {
        let data = tempfile::tempdir().unwrap();
        let root = Path::new("/blogs/mine");
        let post = Path::new("posts/a.md");
        let history = History::new(data.path());
        let limits = Limits::default();
        let keep = |previous, next, now, limits| {
            history.keep(root, post, Replaced { previous, next, cause: &Cause::Save }, now, limits).unwrap();
        };
        keep("월요일의 글\n둘째 줄\n", "월요일의 글\n", 1_000, limits);
        keep("월요일의 글\n", "월요일의 글\n화요일에 더함\n셋\n", 2_000, limits);
        keep("same", "same", 3_000, limits);
        let versions = history.versions(root, post);
        let seen: Vec<(i64, usize, usize)> = versions.iter().map(|v| (v.saved_at, v.added, v.removed)).collect();
        assert_eq!(seen, [(2_000, 2, 0), (1_000, 0, 1)], "newest first, with the size of each change");
        assert_eq!(history.read(root, post, &versions[1].id).unwrap(), "월요일의 글\n둘째 줄\n");
        assert_eq!(versions[1].bytes, "월요일의 글\n둘째 줄\n".len());
        assert!(history.read(root, post, "../../etc").is_err(), "an id names a version, nothing else");
        assert!(history.versions(root, Path::new("posts/b.md")).is_empty(), "each post has its own");
        assert!(history.versions(Path::new("/blogs/other"), post).is_empty(), "each blog has its own");

        // Two saves in the same millisecond are two versions.
        keep("x", "y", 2_000, limits);
        assert_eq!(history.versions(root, post).len(), 3);

        // Saving prunes to the limits.
        keep("y", "z", 4_000, Limits { versions: 2, days: 1, every_minutes: 0 });
        assert_eq!(history.versions(root, post).iter().map(|v| v.saved_at).collect::<Vec<_>>(), [4_000, 2_001]);

        history.moved(root, post, Path::new("posts/renamed.md"));
        assert!(history.versions(root, post).is_empty());
        assert_eq!(history.versions(root, Path::new("posts/renamed.md")).len(), 2, "versions follow a rename");
    }

    #[test]
    fn each_version_says_what_replaced_it() {
        let data = tempfile::tempdir().unwrap();
        let (root, post) = (Path::new("/blogs/mine"), Path::new("posts/a.md"));
        let history = History::new(data.path());
        let renamed = Cause::TagRename { from: "분산 학습".into(), to: "distributed".into() };
        let kept = |previous, next, cause, now| {
            history.keep(root, post, Replaced { previous, next, cause }, now, Limits::default()).unwrap();
        };
        kept("tags: [분산 학습]\n", "tags: [distributed]\n", &renamed, 1_000);
        kept("tags: [distributed]\n", "tags: [distributed]\n바깥에서 고침\n", &Cause::Outside, 2_000);
        let causes: Vec<Cause> = history.versions(root, post).into_iter().map(|v| v.cause).collect();
        assert_eq!(causes, [Cause::Outside, renamed]);

        // A version kept before causes were written down was a save.
        let folder = data.path().join(history.post_folder(root, post));
        let old = serde_json::json!({ "root": root, "path": post, "saved_at": 500, "added": 1, "removed": 0, "text": "옛 글" });
        std::fs::write(folder.join("500.json"), old.to_string()).unwrap();
        let oldest = history.versions(root, post).pop().unwrap();
        assert_eq!((oldest.saved_at, oldest.cause), (500, Cause::Save));
    }
}
