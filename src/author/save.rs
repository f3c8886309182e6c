//! Saving a post: atomically (a temp file beside it, flushed to disk, then
//! renamed over it), keeping the file's permissions, and never over a file
//! that changed on disk since the author opened it.

use std::fs::{self, File, Permissions};
use std::hash::{DefaultHasher, Hasher};
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::AuthorError;
use crate::watch::OwnWrites;

/// Names the bytes of a file, to tell later whether it is still the same.
pub fn version_of(bytes: &[u8]) -> String {
    let mut hasher = DefaultHasher::new();
    hasher.write(bytes);
    format!("{:016x}-{}", hasher.finish(), bytes.len())
}

/// Writes `text` to the post at `path` (relative to `root`, already confined).
/// With `expected`, the file must still hold the version the author opened
/// (or be gone): otherwise nothing is written and `Conflict` carries the
/// file's text as it is now. Returns the version written.
pub fn save_post(
    root: &Path,
    path: &Path,
    text: &str,
    expected: Option<&str>,
    own: &OwnWrites,
) -> Result<String, AuthorError> {
    let file = root.join(path);
    if let Some(expected) = expected {
        match fs::read(&file) {
            Ok(bytes) if version_of(&bytes) != expected => {
                let theirs = String::from_utf8_lossy(&bytes).into_owned();
                return Err(AuthorError::Conflict { path: path.to_path_buf(), theirs: Some(theirs) });
            }
            Ok(_) => {}
            // Deleted meanwhile: writing it again loses nothing.
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(source) => return Err(AuthorError::Io { path: path.to_path_buf(), source }),
        }
    }
    own.expect(path, text.as_bytes());
    write_atomically(&file, text.as_bytes()).map_err(AuthorError::io(path))?;
    Ok(version_of(text.as_bytes()))
}

/// The end of the names of the temp files saves write (hidden, beside the post).
const TEMP_SUFFIX: &str = ".hanji-tmp";

/// Removes the temp files a save that was killed halfway left behind (the
/// post itself was never touched by it). Called when the app opens a blog.
pub fn clean_temp_files(root: &Path) -> Vec<std::path::PathBuf> {
    let hidden = |name: &std::ffi::OsStr| name.to_string_lossy().starts_with('.');
    let left: Vec<_> = walkdir::WalkDir::new(root)
        .into_iter()
        // Not into hidden folders (`.git`), nor along symlinks.
        .filter_entry(|e| e.depth() == 0 || e.file_type().is_file() || !hidden(e.file_name()))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file() && hidden(e.file_name()))
        .filter(|e| e.file_name().to_string_lossy().ends_with(TEMP_SUFFIX))
        .map(|e| e.into_path())
        .collect();
    left.into_iter().filter(|file| fs::remove_file(file).is_ok()).collect()
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
    // Hidden and named after the post, so a watcher ignores it and a person
    // who finds one after a crash knows what it was. Made 0666 less the
    // umask, as a new file would be; an existing file's permissions are kept.
    let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut temp = tempfile::Builder::new()
        .prefix(&format!(".{name}."))
        .suffix(TEMP_SUFFIX)
        .permissions(Permissions::from_mode(0o666))
        .tempfile_in(folder)?;
    temp.write_all(bytes)?;
    if let Ok(meta) = fs::metadata(file) {
        temp.as_file().set_permissions(meta.permissions())?;
    }
    temp.as_file().sync_all()?;
    temp.persist(file).map_err(|e| e.error)?;
    // The rename itself is made durable by flushing the folder.
    File::open(folder)?.sync_all()
}
