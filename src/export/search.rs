//! The export's search index: the index kept in the cache (`search::kept`)
//! updated with the posts whose pages are rendered now, its files written
//! into the site, and the name of the export it is of kept in the folder's
//! record, so that the next export trusts it only if the folder is still
//! what this one left.

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::io;
use std::path::Path;
use std::sync::Mutex;

use super::ExportError;
use super::state::{From, State};
use crate::content::Post;
use crate::fs::{Folder, SitePath};
use crate::search::kept::{KeptIndex, Update, Write};
use crate::site::Site;
use crate::site::routes::Addresses;

/// The index kept for exports into `out`, trusted when the last export's
/// record names the export it was committed as, and every file of the index
/// that export wrote is still as it was written.
pub fn open(
    site: &Site,
    cache_dir: Option<&Path>,
    folder: &Folder,
    out: &Path,
    previous: Option<&str>,
    state: Option<&State>,
) -> KeptIndex {
    let settings = site.search_settings();
    let Some(cache_dir) = cache_dir else { return KeptIndex::in_memory(&settings) };
    let files: Vec<_> =
        state.into_iter().flat_map(|state| state.made.values()).filter(|made| made.from == From::Search).collect();
    let untouched = !files.is_empty() && files.iter().all(|made| folder.stamp(&made.file) == Some(made.stamp));
    // An export name no state has: nothing kept is trusted.
    let previous = previous.filter(|_| untouched).unwrap_or("");
    KeptIndex::open(cache_dir, out, &settings, previous)
}

/// Writes the index's files into the site, and remembers which it wrote.
pub struct Writes<'a> {
    folder: &'a Folder,
    addresses: Addresses<'a>,
    written: Mutex<HashSet<String>>,
}

impl<'a> Writes<'a> {
    pub fn new(folder: &'a Folder, addresses: Addresses<'a>) -> Writes<'a> {
        Writes { folder, addresses, written: Mutex::default() }
    }

    /// Writes the index's file `name` (under the search folder).
    pub fn write(&self, name: &str, text: &str) -> io::Result<()> {
        let file = self.addresses.search_file(name);
        let file =
            SitePath::new(&file).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, format!("{file}: {e}")))?;
        let written = self
            .folder
            .write_if_changed(&file, text.as_bytes())
            .map_err(|e| io::Error::new(e.kind(), format!("{file}: {e}")))?;
        if written {
            self.written.lock().expect("written").insert(file.into_string());
        }
        Ok(())
    }

    /// The site's files written, relative to the output folder.
    pub fn written(&self) -> HashSet<String> {
        std::mem::take(&mut *self.written.lock().expect("written"))
    }
}

/// An update of the index under way, given each post's prose as its page
/// is rendered.
pub struct Updating<'s, 'a, 'k> {
    site: &'s Site<'a>,
    update: Update<'k>,
    posts: Vec<&'a Post>,
    /// By the post's path (its bytes: hashing a path by its parts costs more).
    numbers: HashMap<&'a OsStr, usize>,
}

impl<'s, 'a, 'k> Updating<'s, 'a, 'k> {
    pub fn new(site: &'s Site<'a>, kept: &'k mut KeptIndex, write: &'k Write<'k>) -> Updating<'s, 'a, 'k> {
        let posts: Vec<&Post> = site.search_posts().collect();
        let numbers = posts.iter().enumerate().map(|(n, post)| (post.path.as_os_str(), n)).collect();
        let ids = posts.iter().map(|post| post.path.to_string_lossy().into_owned()).collect();
        Updating { site, update: kept.update(ids, write), posts, numbers }
    }

    /// A rendered post's prose (a page, an About page, is not in the search).
    pub fn put(&self, post: &Post, text: String) {
        if let Some(&n) = self.numbers.get(post.path.as_os_str()) {
            self.update.put(n, self.site.search_entry(self.posts[n], text));
        }
    }

    /// Writes the files of the index that changed; gives every file of it
    /// (relative to the output folder) and the index's name (see
    /// `search::kept::Updated::name`). `text_of` renders the prose of a post
    /// the kept index has not (None if its file cannot be read).
    pub fn finish(
        self,
        text_of: impl Fn(&Post) -> Option<String> + Sync,
    ) -> Result<(Vec<SitePath>, String), ExportError> {
        let Updating { site, update, posts, .. } = self;
        let updated = update
            .finish(|n| site.search_entry(posts[n], text_of(posts[n]).unwrap_or_default()))
            .map_err(|source| ExportError::Io { path: site.addresses().search().into(), source })?;
        let files = updated.files.iter().map(|name| site.addresses().search_file(name));
        let files = files.map(|file| {
            SitePath::new(&file).map_err(|why| ExportError::Io {
                path: file.into(),
                source: io::Error::new(io::ErrorKind::InvalidInput, why.to_string()),
            })
        });
        Ok((files.collect::<Result<_, _>>()?, updated.name))
    }
}
