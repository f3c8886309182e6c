//! The disk: every byte Hanji reads from a blog folder or writes to one (or
//! to its own folders) goes through here. Reading a text file with a size
//! limit and UTF-8 diagnostics, walking a folder with the skip rules and
//! confinement, writing atomically, writing only what changed, moving and
//! removing; and `OwnWrites`, which remembers what Hanji itself did, so that
//! the watcher tells it from changes made elsewhere.

mod folder;
pub mod own_writes;
pub mod records;
mod site_path;

use std::fs::{self, File, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

use rayon::prelude::*;

use crate::diagnostics::{Diagnostic, Problem};
pub use folder::{CopyError, Durable, Folder, Lock, link_refused};
pub use own_writes::OwnWrites;
pub use site_path::{SitePath, Unsafe};

/// Left in every folder Hanji exports to: the files of that export. It
/// marks the folder as Hanji's; what may be removed from it is known from
/// this machine's cache, never from this file (a blog may ship one).
pub const EXPORT_RECORD: &str = ".hanji-export";

/// Left in a folder Hanji publishes to: what each file sent was.
pub const PUBLISH_RECORD: &str = ".hanji-publish.json";

/// Why a text file was not read.
#[derive(Debug, Clone, PartialEq)]
pub enum TextError {
    /// It is larger than the limit it was read with.
    TooBig { bytes: u64 },
    /// It cannot be read.
    Unreadable(Problem),
    /// It is not UTF-8: the problem points at the first bad byte.
    NotUtf8(Problem),
}

/// The text of the file at `path` (relative to `root`), with every check a
/// text needs before it is parsed: at most `limit` bytes, readable, UTF-8.
pub fn read_text(root: &Path, path: &Path, limit: u64) -> Result<String, TextError> {
    if !is_plain(path) {
        return Err(TextError::Unreadable(climbing_problem(path)));
    }
    let full = root.join(path);
    match fs::metadata(&full) {
        Ok(meta) if meta.len() > limit => return Err(TextError::TooBig { bytes: meta.len() }),
        Ok(_) => {}
        Err(e) => return Err(TextError::Unreadable(read_problem(&e))),
    }
    let bytes = fs::read(&full).map_err(|e| TextError::Unreadable(read_problem(&e)))?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let valid = std::str::from_utf8(valid).unwrap_or_default();
        let (line, column) = crate::text::line_column(valid, valid.len());
        let utf16 = e.as_bytes().starts_with(&[0xFF, 0xFE]) || e.as_bytes().starts_with(&[0xFE, 0xFF]);
        let hint = if utf16 {
            "it is saved as UTF-16: save it as UTF-8 in your editor"
        } else {
            "save it as UTF-8 in your editor (the first bad byte is here)"
        };
        TextError::NotUtf8(Problem::error(line, column, "file is not UTF-8 text").with_hint(hint))
    })
}

/// Whether there is a folder at `path` (an error if there is nothing).
pub fn is_folder(path: &Path) -> io::Result<bool> {
    fs::metadata(path).map(|meta| meta.is_dir())
}

/// The text of a settings file; None if there is none.
pub fn read_settings(path: &Path) -> io::Result<Option<String>> {
    match fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// The text of a file, as the system reads it (an error if not UTF-8).
pub fn read_string(path: &Path) -> io::Result<String> {
    fs::read_to_string(path)
}

/// The bytes of a file (an image to serve, a file to compare, a journal entry).
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    fs::read(path)
}

/// The files directly in `folder` (not in its subfolders), skipped names
/// left out, sorted.
pub fn files_in(folder: &Path) -> Vec<PathBuf> {
    entries_in(folder, Path::is_file)
}

/// The folders directly in `folder`, skipped names left out, sorted.
pub fn folders_in(folder: &Path) -> Vec<PathBuf> {
    entries_in(folder, Path::is_dir)
}

fn entries_in(folder: &Path, kind: fn(&Path) -> bool) -> Vec<PathBuf> {
    let Ok(entries) = fs::read_dir(folder) else { return Vec::new() };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| !is_skipped(&e.file_name().to_string_lossy()))
        .map(|e| e.path())
        .filter(|path| kind(path))
        .collect();
    found.sort();
    found
}

/// Whether the folder at `path` is empty (an error if there is no folder).
pub fn is_empty_folder(path: &Path) -> io::Result<bool> {
    Ok(fs::read_dir(path)?.next().is_none())
}

/// Where Hanji keeps what it can make again (highlighted code): the
/// `$HANJI_CACHE_DIR`, else `hanji` in the user's cache folder. For the
/// command line and the app to pass to an export; the core looks nowhere itself.
pub fn cache_dir() -> Option<PathBuf> {
    std::env::var_os("HANJI_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("hanji")))
        .or_else(|| std::env::var_os("HOME").map(|d| PathBuf::from(d).join(".cache/hanji")))
}

/// Where Hanji keeps its own settings (the app's, and the SSH servers the
/// author trusts): `$HANJI_CONFIG_DIR`, else `hanji` in the user's config
/// folder.
pub fn config_dir() -> Option<PathBuf> {
    std::env::var_os("HANJI_CONFIG_DIR").map(PathBuf::from).or_else(|| {
        let config = std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))?;
        Some(config.join("hanji"))
    })
}

/// Whether `path` itself is a symlink (not followed).
pub fn is_symlink(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|meta| meta.is_symlink())
}

/// Whether anything is at `path` (a file, a folder, a symlink that leads nowhere).
pub fn exists(path: &Path) -> bool {
    path.symlink_metadata().is_ok()
}

/// Removes a file; true if it was there.
pub fn remove_file(path: &Path) -> io::Result<bool> {
    match fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Moves a file or folder to the desktop's trash, or says why it cannot.
pub fn move_to_system_trash(path: &Path) -> Result<(), trash::Error> {
    trash::delete(path)
}

/// Moves `from` (a file or a folder) to `to`, making the folders `to` needs.
pub fn move_to(from: &Path, to: &Path) -> io::Result<()> {
    if let Some(folder) = to.parent() {
        fs::create_dir_all(folder)?;
    }
    fs::rename(from, to)
}

/// The bytes of a file of the blog (an image to serve, a file to compare).
pub fn read_file(root: &Path, path: &Path) -> io::Result<Vec<u8>> {
    if !is_plain(path) {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, climbing_problem(path).message));
    }
    fs::read(root.join(path))
}

/// Whether the blog's file at `path` starts with a front matter line
/// (`---`), read from its first bytes only.
pub fn starts_with_front_matter(root: &Path, path: &Path) -> bool {
    use std::io::Read;
    let Ok((file, _)) = open_read(root, path) else { return false };
    let mut start = [0u8; 5];
    let read = file.take(5).read(&mut start).unwrap_or(0);
    let start = &start[..read];
    start.starts_with(b"---\n") || start.starts_with(b"---\r\n") || start == b"---"
}

/// A file of the blog opened to be read a piece at a time (a large static
/// file sent by `hanji serve`), with its size.
pub fn open_read(root: &Path, path: &Path) -> io::Result<(File, u64)> {
    if !is_plain(path) {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, climbing_problem(path).message));
    }
    let file = File::open(root.join(path))?;
    let size = file.metadata()?.len();
    Ok((file, size))
}

/// Whether `path` names a place inside the folder it is read from: only
/// names, no `..`, no `/` or drive at its start. Every read of a blog's
/// file asks this first, whichever rule made the path (a theme's name in
/// the settings, a link in a post).
pub fn is_plain(path: &Path) -> bool {
    path.components().all(|part| matches!(part, Component::Normal(_) | Component::CurDir))
}

fn climbing_problem(path: &Path) -> Problem {
    Problem::error(1, 1, format!("`{}` leads out of the blog folder; it is not read", path.display()))
        .with_hint("name a file inside the blog")
}

/// Names the loader passes over wherever they are: hidden files and folders
/// (`.git`, `.a.md.swp`, `.#a.md`), `node_modules`, and the temp files editors
/// leave while saving (`a.md~`, `4913`, `a.md.tmp`, JetBrains' `___jb_tmp___`).
pub fn is_skipped(name: &str) -> bool {
    name.starts_with('.')
        || name == "node_modules"
        || name == "4913"
        || name.ends_with('~')
        || name.ends_with(".tmp")
        || name.ends_with("___jb_tmp___")
        || name.ends_with("___jb_old___")
}

/// The files at `path` (relative to `root`), as the loader would find them:
/// the file itself, every file under a folder, or none if nothing is there.
pub fn files_at(root: &Path, path: &Path) -> Vec<PathBuf> {
    if !is_plain(path) {
        return Vec::new();
    }
    match fs::metadata(root.join(path)) {
        Ok(meta) if meta.is_dir() => walk(root, path, &mut Vec::new()),
        Ok(meta) if meta.is_file() && Inside::new(root).leads_out(&root.join(path)).is_none() => {
            vec![path.to_path_buf()]
        }
        Ok(_) | Err(_) => Vec::new(),
    }
}

/// The files of `paths` (relative to `root`) that cannot be opened, each as an
/// error: they would be left out of an export.
pub fn unreadable_files<'a>(root: &Path, paths: impl IntoIterator<Item = &'a PathBuf>) -> Vec<Diagnostic> {
    let paths: Vec<&PathBuf> = paths.into_iter().collect();
    paths
        .par_iter()
        .filter_map(|path| {
            let error = fs::File::open(root.join(path)).err()?;
            Some(read_problem(&error).in_file(path.as_path()))
        })
        .collect()
}

/// Every file under `root/folder`, relative to `root`, skipped names left out.
/// Symlinks are followed, so a loop is reported rather than walked forever.
pub fn walk(root: &Path, folder: &Path, problems: &mut Vec<Diagnostic>) -> Vec<PathBuf> {
    if !is_plain(folder) {
        problems.push(climbing_problem(folder).in_file(folder));
        return Vec::new();
    }
    let start = root.join(folder);
    if !start.is_dir() {
        return Vec::new();
    }
    let mut files = Vec::new();
    let inside = Inside::new(root);
    let mut walker = walkdir::WalkDir::new(&start)
        .follow_links(true)
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_skipped(&e.file_name().to_string_lossy()));
    while let Some(entry) = walker.next() {
        let entry = match entry {
            Ok(entry) => entry,
            Err(error) => {
                problems.push(walk_problem(root, &error));
                continue;
            }
        };
        let relative = entry.path().strip_prefix(root).unwrap_or(entry.path());
        if entry.path_is_symlink()
            && let Some(target) = inside.leads_out(entry.path())
        {
            problems.push(outside_problem(relative, &target));
            if entry.file_type().is_dir() {
                walker.skip_current_dir();
            }
            continue;
        }
        if entry.file_type().is_file() && entry.path().starts_with(root) {
            files.push(relative.to_path_buf());
        }
    }
    // Sorted once at the end: walkdir's own sorting takes each name apart.
    files.sort_unstable_by(|a, b| crate::text::path_order(a, b));
    files
}

/// The blog folder with its symlinks resolved, to tell where a link leads.
pub struct Inside(Option<PathBuf>);

impl Inside {
    pub fn new(root: &Path) -> Self {
        Inside(fs::canonicalize(root).ok())
    }

    /// Where the symlink (or path through one) at `path` leads, if that is
    /// outside the blog folder. Such links are not followed: a blog cloned
    /// from someone else must not publish the files it points at
    /// (`static/key -> ~/.ssh/id_ed25519`), as Jekyll's safe mode and Hugo
    /// refuse them too.
    pub fn leads_out(&self, path: &Path) -> Option<PathBuf> {
        let root = self.0.as_ref()?;
        let target = fs::canonicalize(path).ok()?;
        (!target.starts_with(root)).then_some(target)
    }
}

pub fn outside_problem(path: &Path, target: &Path) -> Diagnostic {
    Diagnostic::warning(path, 1, 1, format!("symlink leads outside the blog folder, to `{}`", target.display()))
        .with_hint("it is skipped: links out of the blog are not followed; copy what it points at into the blog")
}

fn walk_problem(root: &Path, error: &walkdir::Error) -> Diagnostic {
    let path = error.path().map(|p| p.strip_prefix(root).unwrap_or(p).to_path_buf()).unwrap_or_default();
    if let Some(ancestor) = error.loop_ancestor() {
        let ancestor = ancestor.strip_prefix(root).unwrap_or(ancestor);
        Diagnostic::error(path, 1, 1, format!("symlink loop back to `{}`", ancestor.display()))
            .with_hint("remove the link or point it elsewhere; the folder is skipped")
    } else {
        let reason = error.io_error().map_or_else(|| error.to_string(), ToString::to_string);
        let link = error.path().is_some_and(|p| p.symlink_metadata().is_ok_and(|m| m.file_type().is_symlink()));
        let hint = if link {
            "the symlink leads nowhere or round in a loop: point it at a file, or remove it; it is skipped"
        } else {
            "check the permissions of the file or folder; it is skipped"
        };
        Diagnostic::error(path, 1, 1, format!("cannot read: {reason}")).with_hint(hint)
    }
}

pub fn read_problem(error: &io::Error) -> Problem {
    let hint = match error.kind() {
        io::ErrorKind::PermissionDenied => "let your user read the file (chmod u+r)",
        _ => "check that the file exists and can be read",
    };
    Problem::error(1, 1, format!("cannot read: {error}")).with_hint(hint)
}

/// Names the bytes of a file, to tell later whether it is still the same
/// (xxh3: the same name in every build, unlike std's hasher).
pub fn version_of(bytes: &[u8]) -> String {
    format!("{:032x}-{}", crate::digest::of_bytes(bytes), bytes.len())
}

/// The end of the names of the temp files Hanji writes (hidden, beside the
/// file they become: `.index.html.Xq3aZ1.hanji-tmp`).
pub const TEMP_SUFFIX: &str = ".hanji-tmp";

/// Whether a file of this name is a temp file Hanji was writing: one left
/// behind was never renamed over the file it was for.
pub fn is_temp_file(name: &std::ffi::OsStr) -> bool {
    let name = name.as_encoded_bytes();
    name.starts_with(b".") && name.ends_with(TEMP_SUFFIX.as_bytes())
}

/// Removes the temp files that a save, an export or a publish killed
/// halfway left under `root` (what they were writing was never touched by
/// them). Called when the app opens a blog, by an export that follows one
/// which did not end, and by a publish to a folder.
pub fn clean_temp_files(root: &Path) -> Vec<PathBuf> {
    let hidden = |name: &std::ffi::OsStr| name.as_encoded_bytes().starts_with(b".");
    let left: Vec<_> = walkdir::WalkDir::new(root)
        .into_iter()
        // Not into hidden folders (`.git`), nor along symlinks.
        .filter_entry(|e| e.depth() == 0 || e.file_type().is_file() || !hidden(e.file_name()))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && is_temp_file(e.file_name()))
        .map(|e| e.into_path())
        .collect();
    left.into_iter().filter(|file| fs::remove_file(file).is_ok()).collect()
}

/// A new temp file in `folder` for `file`: hidden and named after it, so a
/// watcher ignores it and a person who finds one after a crash knows what
/// it was. Made 0666 less the umask, as a new file would be (a temp file is
/// otherwise the owner's only, and a web server running as another user
/// could not serve the page).
fn temp_file_for(file: &Path, folder: &Path) -> io::Result<tempfile::NamedTempFile> {
    let name = file.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
    // At most 100 bytes of it, so that a name near the system's limit of
    // 255 still leaves room for the temp file's own.
    let name = &name[..crate::text::floor_char_boundary(&name, name.len().min(100))];
    tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(TEMP_SUFFIX)
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(folder)
}

/// Replaces `file` with `bytes` so that, whatever happens meanwhile (a crash,
/// a full disk), the file holds either its old bytes or the new ones, whole.
/// The file keeps its permissions.
pub fn write_atomically(file: &Path, bytes: &[u8]) -> io::Result<()> {
    // A post that is a symlink (inside the blog) is written where it leads.
    let resolved;
    let file = match fs::symlink_metadata(file) {
        Ok(meta) if meta.is_symlink() => {
            resolved = fs::canonicalize(file)?;
            resolved.as_path()
        }
        _ => file,
    };
    let folder = match file.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    fs::create_dir_all(folder)?;
    let mut temp = temp_file_for(file, folder)?;
    temp.write_all(bytes)?;
    // An existing file's permissions are kept.
    if let Ok(meta) = fs::metadata(file) {
        temp.as_file().set_permissions(meta.permissions())?;
    }
    temp.as_file().sync_all()?;
    temp.persist(file).map_err(|e| e.error)?;
    // The rename itself is made durable by flushing the folder.
    File::open(folder)?.sync_all()
}

/// Every file under `folder` with its size, relative to it, hidden ones
/// too (a site may publish `.well-known/`), without following symlinks.
pub fn files_under(folder: &Path) -> io::Result<Vec<(PathBuf, u64)>> {
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(folder).sort_by_file_name() {
        let entry = entry.map_err(io::Error::from)?;
        if entry.file_type().is_file() {
            let size = entry.metadata().map_err(io::Error::from)?.len();
            files.push((entry.path().strip_prefix(folder).unwrap_or(entry.path()).to_path_buf(), size));
        }
    }
    Ok(files)
}

/// What tells that a file changed without reading it: its size, the times
/// it was last written and last changed (which no program can set back), and
/// its inode (a file replaced by another has a new one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Stamp {
    pub len: u64,
    /// Nanoseconds since 1970.
    pub modified: i64,
    pub changed: i64,
    pub inode: u64,
}

impl Stamp {
    /// Whether the file could have been written again since `time` (ns since
    /// 1970) without its stamp showing it: its times are that close to it
    /// (within the coarsest clock a file system keeps, two seconds).
    pub fn is_racy(&self, time: i64) -> bool {
        const TWO_SECONDS: i64 = 2_000_000_000;
        self.modified.max(self.changed) > time.saturating_sub(TWO_SECONDS)
    }
}

/// The stamp of the file at `path`, if it is there (symlinks followed).
pub fn stamp_of(path: &Path) -> Option<Stamp> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata(path).ok()?;
    let nanos = |seconds: i64, nanos: i64| seconds.saturating_mul(1_000_000_000).saturating_add(nanos);
    Some(Stamp {
        len: meta.len(),
        modified: nanos(meta.mtime(), meta.mtime_nsec()),
        changed: nanos(meta.ctime(), meta.ctime_nsec()),
        inode: meta.ino(),
    })
}

/// The running Hanji, as what it keeps between runs names it: its version
/// and its binary's stamp, so that another build (which may read or render
/// otherwise) trusts nothing kept by this one. Not the binary's change time:
/// a hard link to it (`perf record` makes one) or a change of its
/// permissions moves that, and the binary is the same.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Program {
    version: String,
    binary: Option<Stamp>,
}

impl Program {
    pub fn this() -> Program {
        let binary = std::env::current_exe().ok().and_then(|exe| stamp_of(&exe));
        let binary = binary.map(|stamp| Stamp { changed: 0, ..stamp });
        Program { version: env!("CARGO_PKG_VERSION").to_string(), binary }
    }
}

/// Marks a folder as used now (its modification time), for `keep_newest_folders`.
pub fn mark_used(folder: &Path) {
    if let Ok(handle) = File::open(folder) {
        let _ = handle.set_modified(std::time::SystemTime::now());
    }
}

/// Now, in nanoseconds since 1970, as file stamps count.
pub fn now() -> i64 {
    let since = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    i64::try_from(since.as_nanos()).unwrap_or(i64::MAX)
}

/// `path` made absolute and without `.`/`..`, following symlinks where the
/// path exists, so that two names of one folder compare equal.
pub fn absolute(path: &Path) -> io::Result<PathBuf> {
    let joined = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir()?.join(path) };
    let mut existing = joined.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            let mut result = real;
            for part in rest.iter().rev() {
                match part {
                    Component::ParentDir => {
                        result.pop();
                    }
                    Component::Normal(name) => result.push(name),
                    _ => {}
                }
            }
            return Ok(result);
        }
        match (existing.parent(), existing.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                existing = parent;
            }
            _ => return Ok(joined),
        }
    }
}

/// `path` made absolute (from the working folder) and without `.`/`..`,
/// by its names alone: symlinks are not resolved, so that one on the way
/// can still be seen.
pub fn lexical_absolute(path: &Path) -> io::Result<PathBuf> {
    let joined = if path.is_absolute() { path.to_path_buf() } else { std::env::current_dir()?.join(path) };
    let mut result = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::ParentDir => {
                result.pop();
            }
            Component::CurDir => {}
            part => result.push(part),
        }
    }
    Ok(result)
}

/// Which folder or file is at `path` (device and inode), to notice another
/// one put in its place.
#[cfg(unix)]
pub fn identity(path: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

#[cfg(not(unix))]
pub fn identity(path: &Path) -> Option<(u64, u64)> {
    path.is_dir().then_some((0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stamp_written_close_to_a_time_is_racy() {
        let stamp = Stamp { len: 1, modified: 10_000_000_000, changed: 10_000_000_000, inode: 1 };
        assert!(stamp.is_racy(11_000_000_000), "a second after: the file could change again unseen");
        assert!(!stamp.is_racy(13_000_000_000), "three seconds after: any change shows in the stamp");
    }
}
