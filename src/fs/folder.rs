//! `Folder`: a folder Hanji writes (the exported site, the cache, the
//! journal, the history, a publish folder), held open as a directory handle.
//! Every write, replace and removal under it names its file by a `SitePath`
//! and is made relative to that handle, folder by folder, without following
//! a symlink anywhere on the way (Linux's `openat2` with
//! `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`, else `openat` with `O_NOFOLLOW`
//! one name at a time): nothing a blog puts in the folder, a link to the
//! user's home or a folder swapped for one, can take a write outside it.
//!
//! Why not `cap-std`: its `Dir` keeps a path beneath its folder but still
//! follows a symlink that stays inside; a site has no use for links, and one
//! in an output folder is refused here, with what to do.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{AtFlags, Mode, OFlags};

use super::{SitePath, Stamp, TEMP_SUFFIX, is_temp_file};

/// A folder held open; see the module.
#[derive(Debug)]
pub struct Folder {
    handle: OwnedFd,
    path: PathBuf,
}

/// How a replaced file is made to last.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Durable {
    /// Renamed into place: a reader sees the old file or the new one. A
    /// site's pages, which an export can make again.
    Replaced,
    /// And flushed to the disk with the rename (and any folder made for
    /// it): the author's text, the journal, the history.
    Flushed,
}

/// A symlink met where Hanji writes: never followed, always refused.
#[derive(Debug)]
pub struct LinkRefused(pub PathBuf);

impl std::fmt::Display for LinkRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` is a symlink: Hanji does not write through links", self.0.display())
    }
}

impl std::error::Error for LinkRefused {}

/// Why a folder cannot be written through.
fn symlink_refused(path: &Path) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, LinkRefused(path.to_path_buf()))
}

/// The link an error of `Folder` met, if that is what stopped it.
pub fn link_refused(error: &io::Error) -> Option<&Path> {
    error.get_ref()?.downcast_ref::<LinkRefused>().map(|link| link.0.as_path())
}

/// Whether an error is the one a symlink on the way gives.
fn is_link_error(error: &rustix::io::Errno) -> bool {
    *error == rustix::io::Errno::LOOP || *error == rustix::io::Errno::NOTDIR || *error == rustix::io::Errno::XDEV
}

impl Folder {
    /// The folder at `path`, made (with the folders above it) if `make` and
    /// missing. `path` itself must not be a symlink.
    pub fn open(path: &Path, make: bool) -> io::Result<Folder> {
        if make {
            match std::fs::symlink_metadata(path) {
                Err(e) if e.kind() == io::ErrorKind::NotFound => std::fs::create_dir_all(path)?,
                _ => {}
            }
        }
        let flags = OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::RDONLY;
        let handle = rustix::fs::open(path, flags, Mode::empty()).map_err(|e| {
            if is_link_error(&e) && std::fs::symlink_metadata(path).is_ok_and(|m| m.is_symlink()) {
                symlink_refused(path)
            } else {
                io::Error::from(e)
            }
        })?;
        Ok(Folder { handle, path: path.to_path_buf() })
    }

    /// Where the folder is, for messages.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The full path of `file` in it, for messages and for reading by path
    /// what Hanji itself wrote.
    pub fn join(&self, file: &SitePath) -> PathBuf {
        self.path.join(file.as_path())
    }

    /// The folder `file` is in, opened without following a link; made if
    /// `make` (each new folder flushed into its parent when `durable`).
    fn parent_of(&self, file: &SitePath, make: Option<Durable>) -> io::Result<Parent<'_>> {
        let (Some(folders), _) = file.split() else {
            return Ok(Parent::Top(self.handle.as_fd()));
        };
        match self.open_beneath(folders) {
            Ok(handle) => Ok(Parent::Below(handle)),
            Err(e) if e == rustix::io::Errno::NOENT && make.is_some() => {
                self.make_folders(folders, make == Some(Durable::Flushed)).map(Parent::Below)
            }
            Err(e) => Err(self.error(e, folders)),
        }
    }

    /// The folder at `folders` (names from this folder down), no link followed.
    fn open_beneath(&self, folders: &str) -> Result<OwnedFd, rustix::io::Errno> {
        #[cfg(target_os = "linux")]
        {
            use rustix::fs::ResolveFlags;
            let how = ResolveFlags::BENEATH | ResolveFlags::NO_SYMLINKS | ResolveFlags::NO_MAGICLINKS;
            let flags = OFlags::DIRECTORY | OFlags::CLOEXEC | OFlags::RDONLY;
            match rustix::fs::openat2(&self.handle, folders, flags, Mode::empty(), how) {
                // An older kernel, or a sandbox that forbids the call: one name at a time.
                Err(rustix::io::Errno::NOSYS | rustix::io::Errno::PERM | rustix::io::Errno::AGAIN) => {}
                done => return done,
            }
        }
        let mut handle: Option<OwnedFd> = None;
        for name in folders.split('/') {
            let at = handle.as_ref().map_or(self.handle.as_fd(), AsFd::as_fd);
            handle = Some(open_folder(at, name)?);
        }
        handle.ok_or(rustix::io::Errno::INVAL)
    }

    /// Makes the missing folders of `folders`, one name at a time.
    fn make_folders(&self, folders: &str, flush: bool) -> io::Result<OwnedFd> {
        let mut handle: Option<OwnedFd> = None;
        for name in folders.split('/') {
            let at = handle.as_ref().map_or(self.handle.as_fd(), AsFd::as_fd);
            let next = match open_folder(at, name) {
                Ok(next) => next,
                Err(rustix::io::Errno::NOENT) => {
                    match rustix::fs::mkdirat(at, name, Mode::from_bits_truncate(0o777)) {
                        Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                        Err(e) => return Err(self.error(e, folders)),
                    }
                    if flush {
                        rustix::fs::fsync(at)?;
                    }
                    open_folder(at, name).map_err(|e| self.error(e, folders))?
                }
                Err(e) => return Err(self.error(e, folders)),
            };
            handle = Some(next);
        }
        handle.ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))
    }

    /// An error met at `at` (a path in this folder), in the author's words
    /// when a link was in the way.
    fn error(&self, error: rustix::io::Errno, at: &str) -> io::Error {
        if is_link_error(&error) { symlink_refused(&self.path.join(at)) } else { io::Error::from(error) }
    }

    /// The bytes of `file`; not through a link.
    pub fn read(&self, file: &SitePath) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        self.open_file(file)?.read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    fn open_file(&self, file: &SitePath) -> io::Result<File> {
        let parent = self.parent_of(file, None)?;
        let (_, name) = file.split();
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let handle =
            rustix::fs::openat(parent.as_fd(), name, flags, Mode::empty()).map_err(|e| self.error(e, file.as_str()))?;
        Ok(File::from(handle))
    }

    /// The stamp of `file` (a link's own, never its target's); None if it
    /// is not there.
    pub fn stamp(&self, file: &SitePath) -> Option<Stamp> {
        let parent = self.parent_of(file, None).ok()?;
        let (_, name) = file.split();
        let stat = rustix::fs::statat(parent.as_fd(), name, AtFlags::SYMLINK_NOFOLLOW).ok()?;
        let nanos = |seconds: i64, nanos: i64| seconds.saturating_mul(1_000_000_000).saturating_add(nanos);
        #[allow(clippy::unnecessary_cast, reason = "the field types differ between targets")]
        Some(Stamp {
            len: stat.st_size as u64,
            modified: nanos(stat.st_mtime as i64, stat.st_mtime_nsec as i64),
            changed: nanos(stat.st_ctime as i64, stat.st_ctime_nsec as i64),
            inode: stat.st_ino as u64,
        })
    }

    /// Writes `bytes` to `file` unless it holds exactly them; true if written.
    /// A link in the file's place is refused, not followed nor replaced.
    pub fn write_if_changed(&self, file: &SitePath, bytes: &[u8]) -> io::Result<bool> {
        let parent = self.parent_of(file, Some(Durable::Replaced))?;
        let (_, name) = file.split();
        let mode = match self.same_bytes(parent.as_fd(), file, bytes)? {
            Old::Same => return Ok(false),
            Old::Other(mode) => Some(mode),
            Old::None => None,
        };
        self.replace(parent.as_fd(), name, mode, Durable::Replaced, &mut |out| out.write_all(bytes))?;
        Ok(true)
    }

    /// Replaces `file` with `bytes` at once (a temp file, then a rename),
    /// keeping its permissions; flushed to the disk if `durable` says so.
    pub fn write(&self, file: &SitePath, bytes: &[u8], durable: Durable) -> io::Result<()> {
        self.write_streamed(file, durable, &mut |out| out.write_all(bytes))
    }

    /// `write`, with what `write` puts in the file as it is made (a cache's
    /// file of tens of megabytes, a static file copied without holding it).
    pub fn write_streamed(
        &self,
        file: &SitePath,
        durable: Durable,
        write: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        let parent = self.parent_of(file, Some(durable))?;
        let (_, name) = file.split();
        let mode = match rustix::fs::statat(parent.as_fd(), name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) if rustix::fs::FileType::from_raw_mode(stat.st_mode) == rustix::fs::FileType::Symlink => {
                return Err(symlink_refused(&self.join(file)));
            }
            Ok(stat) => Some(Mode::from_raw_mode(stat.st_mode)),
            Err(_) => None,
        };
        self.replace(parent.as_fd(), name, mode, durable, write)
    }

    /// What is at `file` now, compared with `bytes`.
    fn same_bytes(&self, parent: BorrowedFd, file: &SitePath, bytes: &[u8]) -> io::Result<Old> {
        let (_, name) = file.split();
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let handle = match rustix::fs::openat(parent, name, flags, Mode::empty()) {
            Ok(handle) => handle,
            Err(rustix::io::Errno::NOENT) => return Ok(Old::None),
            Err(e) if is_link_error(&e) => return Err(symlink_refused(&self.join(file))),
            Err(e) => return Err(e.into()),
        };
        let stat = rustix::fs::fstat(&handle)?;
        let mode = Mode::from_raw_mode(stat.st_mode);
        #[allow(clippy::unnecessary_cast, reason = "the field types differ between targets")]
        if stat.st_size as u64 != bytes.len() as u64 {
            return Ok(Old::Other(mode));
        }
        let mut old = Vec::with_capacity(bytes.len());
        File::from(handle).read_to_end(&mut old)?;
        Ok(if old == bytes { Old::Same } else { Old::Other(mode) })
    }

    /// A temp file beside `name` in `parent`, filled by `write`, then
    /// renamed over `name`.
    fn replace(
        &self,
        parent: BorrowedFd,
        name: &str,
        mode: Option<Mode>,
        durable: Durable,
        write: &mut dyn FnMut(&mut dyn Write) -> io::Result<()>,
    ) -> io::Result<()> {
        let (temp_name, temp) = new_temp_file(parent, name)?;
        let written = (|| {
            let mut out = io::BufWriter::with_capacity(1 << 16, temp);
            write(&mut out)?;
            let temp = out.into_inner().map_err(io::IntoInnerError::into_error)?;
            if let Some(mode) = mode {
                rustix::fs::fchmod(&temp, mode)?;
            }
            if durable == Durable::Flushed {
                temp.sync_all()?;
            }
            rustix::fs::renameat(parent, temp_name.as_str(), parent, name)?;
            if durable == Durable::Flushed {
                rustix::fs::fsync(parent)?;
            }
            Ok(())
        })();
        if written.is_err() {
            let _ = rustix::fs::unlinkat(parent, temp_name.as_str(), AtFlags::empty());
        }
        written
    }

    /// Copies the file at `source` (outside this folder: a file of the blog)
    /// to `file`, unless it holds the same bytes already; streamed, so that
    /// a large file is never held whole. True if written.
    pub fn copy_if_changed(&self, file: &SitePath, source: &Path) -> Result<bool, CopyError> {
        let mut from = File::open(source).map_err(CopyError::Read)?;
        let size = from.metadata().map_err(CopyError::Read)?.len();
        let parent = self.parent_of(file, Some(Durable::Replaced)).map_err(CopyError::Write)?;
        let (_, name) = file.split();
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let mode = match rustix::fs::openat(parent.as_fd(), name, flags, Mode::empty()) {
            Ok(old) => {
                let stat = rustix::fs::fstat(&old).map_err(|e| CopyError::Write(e.into()))?;
                #[allow(clippy::unnecessary_cast, reason = "the field types differ between targets")]
                if stat.st_size as u64 == size && same_stream(&mut File::from(old), &mut from)? {
                    return Ok(false);
                }
                from.rewind().map_err(CopyError::Read)?;
                Some(Mode::from_raw_mode(stat.st_mode))
            }
            Err(rustix::io::Errno::NOENT) => None,
            Err(e) if is_link_error(&e) => return Err(CopyError::Write(symlink_refused(&self.join(file)))),
            Err(e) => return Err(CopyError::Write(e.into())),
        };
        // A read that fails halfway is told apart from a write that does.
        let mut read_error = None;
        let written = self.replace(parent.as_fd(), name, mode, Durable::Replaced, &mut |out| {
            let mut buffer = vec![0; 1 << 16];
            loop {
                let n = match from.read(&mut buffer) {
                    Ok(0) => return Ok(()),
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        let kind = e.kind();
                        read_error = Some(e);
                        return Err(kind.into());
                    }
                };
                out.write_all(&buffer[..n])?;
            }
        });
        match (written, read_error) {
            (Ok(()), _) => Ok(true),
            (Err(_), Some(error)) => Err(CopyError::Read(error)),
            (Err(error), None) => Err(CopyError::Write(error)),
        }
    }

    /// Adds `bytes` at the end of `file` (made, with its folders, if
    /// missing) in one write: a journal kept a line at a time.
    pub fn append(&self, file: &SitePath, bytes: &[u8]) -> io::Result<()> {
        let parent = self.parent_of(file, Some(Durable::Flushed))?;
        let (_, name) = file.split();
        let flags = OFlags::WRONLY | OFlags::APPEND | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let handle = rustix::fs::openat(parent.as_fd(), name, flags, Mode::from_bits_truncate(0o666))
            .map_err(|e| self.error(e, file.as_str()))?;
        File::from(handle).write_all(bytes)
    }

    /// Takes the advisory lock of `file` (made if missing), which the system
    /// lets go of when the process ends, however it ends: `Ok(None)` if
    /// another process holds it. The holder's process id is written in the
    /// file, for the message of the one that waits.
    pub fn lock(&self, file: &SitePath) -> io::Result<Option<Lock>> {
        let parent = self.parent_of(file, Some(Durable::Replaced))?;
        let (_, name) = file.split();
        let flags = OFlags::RDWR | OFlags::CREATE | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let handle = rustix::fs::openat(parent.as_fd(), name, flags, Mode::from_bits_truncate(0o644))
            .map_err(|e| self.error(e, file.as_str()))?;
        let mut file = File::from(handle);
        match file.try_lock() {
            Ok(()) => {
                file.set_len(0)?;
                file.write_all(std::process::id().to_string().as_bytes())?;
                Ok(Some(Lock(file)))
            }
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => Err(e),
        }
    }

    /// The process that holds the lock of `file` (see `lock`), as it wrote itself there.
    pub fn lock_holder(&self, file: &SitePath) -> Option<u32> {
        String::from_utf8(self.read(file).ok()?).ok()?.trim().parse().ok()
    }

    /// Removes `file` (a link itself, never what it leads to) and the
    /// folders that leaves empty; true if it was there.
    pub fn remove(&self, file: &SitePath) -> io::Result<bool> {
        let parent = match self.parent_of(file, None) {
            Ok(parent) => parent,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
            Err(e) => return Err(e),
        };
        let (folders, name) = file.split();
        match rustix::fs::unlinkat(parent.as_fd(), name, AtFlags::empty()) {
            Ok(()) => {}
            Err(rustix::io::Errno::NOENT) => return Ok(false),
            Err(e) => return Err(e.into()),
        }
        drop(parent);
        // The folders left empty, from the deepest up; one that is not
        // empty stops it.
        if let Some(folders) = folders {
            let mut folders = folders;
            loop {
                let (above, name) = match folders.rsplit_once('/') {
                    Some((above, name)) => (Some(above), name),
                    None => (None, folders),
                };
                let at = match above {
                    Some(above) => match self.open_beneath(above) {
                        Ok(handle) => Parent::Below(handle),
                        Err(_) => break,
                    },
                    None => Parent::Top(self.handle.as_fd()),
                };
                if rustix::fs::unlinkat(at.as_fd(), name, AtFlags::REMOVEDIR).is_err() {
                    break;
                }
                match above {
                    Some(above) => folders = above,
                    None => break,
                }
            }
        }
        Ok(true)
    }

    /// Removes the folder `folder` and all it holds, links themselves and
    /// never what they lead to. What cannot be removed is left.
    pub fn remove_folder(&self, folder: &SitePath) {
        let top = self.join(folder);
        let inside: Vec<String> = walkdir::WalkDir::new(&top)
            .follow_links(false)
            .contents_first(true)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|entry| !entry.file_type().is_dir())
            .filter_map(|entry| entry.path().strip_prefix(&self.path).ok()?.to_str().map(str::to_string))
            .collect();
        for file in inside.iter().filter_map(|file| SitePath::own(file).ok()) {
            // Each removal takes the folders it leaves empty with it.
            let _ = self.remove(&file);
        }
        // An empty folder (one that held none) is left by the removals.
        let _ = match folder.split() {
            (Some(above), name) => {
                self.open_beneath(above).and_then(|handle| rustix::fs::unlinkat(&handle, name, AtFlags::REMOVEDIR))
            }
            (None, name) => rustix::fs::unlinkat(&self.handle, name, AtFlags::REMOVEDIR),
        };
    }

    /// Renames `from` to `to`, both in this folder (replacing `to`).
    pub fn rename(&self, from: &SitePath, to: &SitePath) -> io::Result<()> {
        let (from_parent, to_parent) = (self.parent_of(from, None)?, self.parent_of(to, Some(Durable::Flushed))?);
        rustix::fs::renameat(from_parent.as_fd(), from.split().1, to_parent.as_fd(), to.split().1)?;
        Ok(())
    }

    /// Every file under the folder with its size, hidden ones too, links
    /// and what they lead to left out, sorted by name. Names that cannot be
    /// a `SitePath` are left out too (they are no file Hanji wrote).
    pub fn files(&self) -> io::Result<Vec<(SitePath, u64)>> {
        let mut found = Vec::new();
        for entry in walkdir::WalkDir::new(&self.path).follow_links(false).sort_by_file_name() {
            let entry = entry.map_err(io::Error::from)?;
            if !entry.file_type().is_file() {
                continue;
            }
            let relative = entry.path().strip_prefix(&self.path).unwrap_or(entry.path());
            let Some(file) = relative.to_str().and_then(|path| SitePath::own(path).ok()) else { continue };
            found.push((file, entry.metadata().map_err(io::Error::from)?.len()));
        }
        Ok(found)
    }

    /// Removes the temp files that a save, an export or a publish killed
    /// halfway left in the folder (what they were writing was never
    /// touched by them); not into hidden folders (`.git`), nor along links.
    pub fn clean_temp_files(&self) -> Vec<SitePath> {
        let hidden = |name: &OsStr| name.as_bytes().starts_with(b".");
        let left: Vec<SitePath> = walkdir::WalkDir::new(&self.path)
            .follow_links(false)
            .into_iter()
            .filter_entry(|e| e.depth() == 0 || e.file_type().is_file() || !hidden(e.file_name()))
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file() && is_temp_file(e.file_name()))
            .filter_map(|e| SitePath::own(e.path().strip_prefix(&self.path).ok()?.to_str()?).ok())
            .collect();
        left.into_iter().filter(|file| self.remove(file).is_ok_and(|removed| removed)).collect()
    }
}

/// An advisory lock held (see `Folder::lock`); let go of when dropped.
#[derive(Debug)]
pub struct Lock(#[allow(dead_code, reason = "held for its lock")] File);

/// Why a file was not copied: its source could not be read, or the copy
/// not written.
#[derive(Debug)]
pub enum CopyError {
    Read(io::Error),
    Write(io::Error),
}

/// Whether two files hold the same bytes from where they are read now on
/// (the source's errors are its own).
fn same_stream(old: &mut File, source: &mut File) -> Result<bool, CopyError> {
    let (mut a, mut b) = (vec![0; 1 << 16], vec![0; 1 << 16]);
    loop {
        let n = read_full(source, &mut b).map_err(CopyError::Read)?;
        let m = read_full(old, &mut a[..n.max(1)]).map_err(CopyError::Write)?;
        if n != m || a[..m] != b[..n] {
            return Ok(false);
        }
        if n == 0 {
            return Ok(true);
        }
    }
}

/// Reads until `buffer` is full or the file ends; how much was read.
fn read_full(file: &mut File, buffer: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match file.read(&mut buffer[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

/// What a file held before it was written.
enum Old {
    None,
    Same,
    Other(Mode),
}

/// The folder a file is in: the top one (borrowed) or one below it.
enum Parent<'a> {
    Top(BorrowedFd<'a>),
    Below(OwnedFd),
}

impl Parent<'_> {
    fn as_fd(&self) -> BorrowedFd<'_> {
        match self {
            Parent::Top(fd) => *fd,
            Parent::Below(fd) => fd.as_fd(),
        }
    }
}

fn open_folder(at: BorrowedFd, name: &str) -> Result<OwnedFd, rustix::io::Errno> {
    let flags = OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::RDONLY;
    rustix::fs::openat(at, name, flags, Mode::empty())
}

/// A new temp file in `parent` for `name`: hidden and named after it, so a
/// watcher ignores it and a person who finds one after a crash knows what
/// it was (`.index.html.1a2b3c.hanji-tmp`). Made 0666 less the umask, as a
/// new file would be.
fn new_temp_file(parent: BorrowedFd, name: &str) -> io::Result<(String, File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    // At most 100 bytes of the name, so that one near the system's limit of
    // 255 still leaves room for the temp file's own.
    let short = &name[..crate::text::floor_char_boundary(name, name.len().min(100))];
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    for _ in 0..64 {
        let nonce =
            COUNTER.fetch_add(1, Ordering::Relaxed) ^ (u64::from(std::process::id()) << 32) ^ super::now() as u64;
        let temp_name = format!(".{short}.{:x}{TEMP_SUFFIX}", nonce & 0xff_ffff_ffff);
        match rustix::fs::openat(parent, temp_name.as_str(), flags, Mode::from_bits_truncate(0o666)) {
            Ok(handle) => return Ok((temp_name, File::from(handle))),
            Err(rustix::io::Errno::EXIST) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(io::Error::new(io::ErrorKind::AlreadyExists, "no free name for a temp file"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(text: &str) -> SitePath {
        SitePath::new(text).unwrap()
    }

    #[test]
    fn files_are_written_read_and_removed_with_their_empty_folders() {
        let dir = tempfile::tempdir().unwrap();
        let folder = Folder::open(&dir.path().join("site"), true).unwrap();
        assert!(folder.write_if_changed(&path("posts/a/index.html"), b"one").unwrap());
        assert!(!folder.write_if_changed(&path("posts/a/index.html"), b"one").unwrap(), "same bytes: not written");
        assert!(folder.write_if_changed(&path("posts/a/index.html"), b"two").unwrap());
        assert_eq!(folder.read(&path("posts/a/index.html")).unwrap(), b"two");
        folder.write(&path("keep/x"), b"x", Durable::Flushed).unwrap();
        assert_eq!(folder.stamp(&path("posts/a/index.html")).unwrap().len, 3);
        assert!(folder.remove(&path("posts/a/index.html")).unwrap());
        assert!(!dir.path().join("site/posts").exists(), "the folders it left empty went with it");
        assert!(!folder.remove(&path("posts/a/index.html")).unwrap());
        folder.append(&path("j/log"), b"a\n").unwrap();
        folder.append(&path("j/log"), b"b\n").unwrap();
        assert_eq!(folder.read(&path("j/log")).unwrap(), b"a\nb\n");
        let names: Vec<String> = folder.files().unwrap().into_iter().map(|(f, _)| f.into_string()).collect();
        assert_eq!(names, ["j/log", "keep/x"]);
    }

    #[test]
    fn a_file_written_streamed_is_replaced_whole_or_not_at_all() {
        let dir = tempfile::tempdir().unwrap();
        let folder = Folder::open(dir.path(), false).unwrap();
        let file = path("cache/highlight.bin");
        folder.write_streamed(&file, Durable::Replaced, &mut |out| out.write_all(b"first")).unwrap();
        folder.write_streamed(&file, Durable::Replaced, &mut |out| out.write_all(b"second")).unwrap();
        assert_eq!(folder.read(&file).unwrap(), b"second", "made with its folder, then replaced");
        let failed = folder.write_streamed(&file, Durable::Replaced, &mut |out| {
            out.write_all(b"half")?;
            Err(io::Error::other("the disk is full"))
        });
        assert!(failed.is_err());
        assert_eq!(folder.read(&file).unwrap(), b"second", "a failed write leaves the old file");
        assert_eq!(std::fs::read_dir(dir.path().join("cache")).unwrap().count(), 1, "and no temp file");
    }

    #[test]
    fn a_replaced_file_keeps_its_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let folder = Folder::open(dir.path(), false).unwrap();
        folder.write(&path("run.sh"), b"1", Durable::Replaced).unwrap();
        std::fs::set_permissions(dir.path().join("run.sh"), std::fs::Permissions::from_mode(0o750)).unwrap();
        assert!(folder.write_if_changed(&path("run.sh"), b"2").unwrap());
        let mode = std::fs::metadata(dir.path().join("run.sh")).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o750);
    }

    #[test]
    fn links_in_the_folder_are_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("bashrc"), "mine").unwrap();
        let site = dir.path().join("site");
        std::fs::create_dir_all(&site).unwrap();
        std::os::unix::fs::symlink(outside.path(), site.join("posts")).unwrap();
        std::os::unix::fs::symlink(outside.path().join("bashrc"), site.join("index.html")).unwrap();
        let folder = Folder::open(&site, false).unwrap();
        for (file, what) in [("posts/bashrc", "a folder that is a link"), ("index.html", "a file that is a link")] {
            let error = folder.write_if_changed(&path(file), b"evil").unwrap_err();
            assert!(error.to_string().contains("is a symlink"), "{what}: {error}");
            let error = folder.write(&path(file), b"evil", Durable::Flushed).unwrap_err();
            assert!(error.to_string().contains("is a symlink"), "{what}: {error}");
            assert!(folder.read(&path(file)).is_err(), "{what}: not read through");
        }
        assert!(folder.append(&path("posts/bashrc"), b"evil").is_err());
        assert!(folder.stamp(&path("posts/bashrc")).is_none());
        assert!(folder.remove(&path("posts/bashrc")).is_err());
        assert!(folder.remove(&path("index.html")).unwrap(), "the link itself is removed");
        assert_eq!(std::fs::read_to_string(outside.path().join("bashrc")).unwrap(), "mine");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&site, &link).unwrap();
        assert!(Folder::open(&link, true).unwrap_err().to_string().contains("is a symlink"));
    }

    #[test]
    fn temp_files_left_behind_are_cleaned() {
        let dir = tempfile::tempdir().unwrap();
        let folder = Folder::open(dir.path(), false).unwrap();
        std::fs::create_dir_all(dir.path().join("a")).unwrap();
        std::fs::write(dir.path().join("a/.index.html.12ab.hanji-tmp"), "half").unwrap();
        std::fs::write(dir.path().join("a/index.html"), "whole").unwrap();
        let cleaned = folder.clean_temp_files();
        assert_eq!(cleaned.len(), 1);
        assert!(dir.path().join("a/index.html").exists());
    }
}
