//! Where the index's kept state lives between updates: files in a folder
//! of the cache (each written atomically through the cache folder's handle,
//! `fs::Folder`, by names that must be plain), or memory (`hanji serve`). Its files other than the manifest are named by their content's
//! hash, so a file is never replaced by another: an update that stops
//! halfway leaves the state before it whole, and a damaged file is told
//! by its name.

use std::collections::HashMap;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::fs;

/// The name of the file that says what the state is.
pub const MANIFEST: &str = "manifest.json";

pub enum Store {
    /// The cache folder, and the state's folder in it (`search/<key>`).
    Folder {
        cache: PathBuf,
        folder: String,
    },
    Memory(Mutex<HashMap<String, Arc<[u8]>>>),
}

impl Store {
    /// The folder of the state for the output folder `out`, in `cache_dir`.
    pub fn for_output(cache_dir: &Path, out: &Path) -> Store {
        let out = fs::absolute(out).unwrap_or_else(|_| out.to_path_buf());
        let key = digest(out.to_string_lossy().as_bytes());
        Store::Folder { cache: cache_dir.to_path_buf(), folder: format!("search/{key}") }
    }

    /// A file of the state's folder, relative to the cache: a name that is
    /// not plain (from a damaged manifest) is none.
    fn file(folder: &str, name: &str) -> io::Result<fs::SitePath> {
        fs::SitePath::new(&format!("{folder}/{name}")).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))
    }

    pub fn in_memory() -> Store {
        Store::Memory(Mutex::default())
    }

    pub fn read(&self, name: &str) -> Option<Arc<[u8]>> {
        match self {
            Store::Folder { cache, folder } => {
                let file = Store::file(folder, name).ok()?;
                fs::read(&cache.join(file.as_path())).ok().map(Arc::from)
            }
            Store::Memory(files) => files.lock().expect("store").get(name).cloned(),
        }
    }

    /// The bytes of the file `name`, if it holds what its name says.
    pub fn read_checked(&self, name: &str) -> Option<Arc<[u8]>> {
        let (hash, _) = name.split_once('.')?;
        self.read(name).filter(|bytes| digest(bytes) == hash)
    }

    pub fn write(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        match self {
            Store::Folder { cache, folder } => {
                fs::Folder::open(cache, true)?.write_if_changed(&Store::file(folder, name)?, bytes).map(|_| ())
            }
            Store::Memory(files) => {
                files.lock().expect("store").insert(name.to_string(), Arc::from(bytes));
                Ok(())
            }
        }
    }

    /// Writes `bytes` as a file named by their hash and `kind` (unless it
    /// holds them already); returns the name.
    pub fn write_named(&self, kind: &str, bytes: &[u8]) -> io::Result<String> {
        let name = format!("{}.{kind}", digest(bytes));
        self.write(&name, bytes)?;
        Ok(name)
    }

    /// [`Store::write_named`] where the name (`<digest>.<kind>`) is known.
    pub fn write_as(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        debug_assert!(name.starts_with(&digest(bytes)), "{name}");
        self.write(name, bytes)
    }

    /// Removes the file `name` (nothing if it is not there).
    pub fn remove(&self, name: &str) {
        match self {
            Store::Folder { cache, folder } => {
                if let (Ok(cache), Ok(file)) = (fs::Folder::open(cache, false), Store::file(folder, name)) {
                    let _ = cache.remove(&file);
                }
            }
            Store::Memory(files) => {
                files.lock().expect("store").remove(name);
            }
        }
    }

    /// The names of every file.
    pub fn names(&self) -> Vec<String> {
        match self {
            Store::Folder { cache, folder } => fs::files_in(&cache.join(folder))
                .into_iter()
                .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
                .collect(),
            Store::Memory(files) => files.lock().expect("store").keys().cloned().collect(),
        }
    }
}

/// A hash of `bytes` in hex: the names of the state's files.
pub fn digest(bytes: &[u8]) -> String {
    format!("{:032x}", crate::digest::of_bytes(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_named_by_what_it_holds() {
        let dir = tempfile::tempdir().unwrap();
        let folder = || Store::Folder { cache: dir.path().into(), folder: "state".into() };
        for store in [folder(), Store::in_memory()] {
            let name = store.write_named("pack", b"some posts").unwrap();
            assert!(name.ends_with(".pack") && name.len() == 32 + 5, "{name}");
            assert_eq!(store.read_checked(&name).as_deref(), Some(&b"some posts"[..]));
            assert_eq!(store.write_named("pack", b"some posts").unwrap(), name);
            store.write(&name, b"some pests").unwrap();
            assert!(store.read_checked(&name).is_none(), "a damaged file is told by its name");
            assert_eq!(store.names(), std::slice::from_ref(&name));
            store.remove(&name);
            assert!(store.names().is_empty() && store.read(&name).is_none());
        }
        assert_ne!(digest(b""), digest(b"\0"));
        assert_ne!(digest(b"abcdefgh1"), digest(b"abcdefgh2"));
    }
}
