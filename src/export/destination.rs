//! Where an export writes: the output folder, refused or held open as a
//! `Folder` (no write leaves it or follows a link in it), and what this
//! machine's Hanji wrote there before, the only files an export ever
//! removes. That is kept in the cache folder, never read from the output
//! folder: a blog can ship its output folder, record and all.

use std::io;
use std::path::{Component, Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ExportError;
use crate::blog::Blog;
use crate::fs::records::{self, Records};
use crate::fs::{self, EXPORT_RECORD, Folder, SitePath};

/// What the output folder's `.hanji-export` says: only that Hanji exported
/// there (so that a later export may write over what is in it).
pub const RECORD_TEXT: &[u8] = b"{\"exported_by\":\"hanji\"}\n";

/// The record's place in the output folder.
pub fn record() -> SitePath {
    SitePath::own(EXPORT_RECORD).expect("Hanji's own name")
}

/// What an export into one folder wrote, kept in this machine's cache.
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Written {
    /// Sorted.
    pub files: Vec<SitePath>,
    /// The name of the export the search index kept in the cache is of.
    pub search: Option<String>,
}

/// Its file, beside the export's records for the folder.
const FILE: &str = "written.bin";

impl Written {
    /// What this machine's Hanji wrote into `out` (absolute) last; nothing
    /// if it did not, or the cache does not say.
    pub fn read(cache_dir: Option<&Path>, out: &Path) -> Written {
        let bytes = cache_dir.and_then(|dir| Records::new(dir, "exports", out).read_beside(FILE));
        bytes.and_then(|bytes| records::decode(&bytes)).unwrap_or_default()
    }

    /// Keeps it, for the next export into `out`. Only a cache: if it cannot
    /// be kept, the next export removes nothing it did not write itself.
    pub fn save(&self, cache_dir: Option<&Path>, out: &Path) {
        let (Some(dir), Some(bytes)) = (cache_dir, records::encode(self)) else { return };
        Records::new(dir, "exports", out).write_beside(FILE, &bytes);
    }
}

/// The output folder, opened (and made), if it is fit to export into: not
/// the blog folder, a parent of it, nor inside it but for its `output_dir`;
/// not a symlink, nor reached through one inside the blog; and empty, or
/// marked as Hanji's, unless `force`. `out` is absolute, symlinks unresolved.
pub fn open(blog: &Blog, out: &Path, force: bool) -> Result<Folder, ExportError> {
    let refuse = |message: String, hint: &str| ExportError::Refused { message, hint: hint.to_string() };
    let root = fs::absolute(&blog.root).map_err(|source| ExportError::Io { path: blog.root.clone(), source })?;
    let resolved = fs::absolute(out).map_err(|source| ExportError::Io { path: out.into(), source })?;
    let configured = root.join(&blog.config.output_dir);
    if let Some(link) = link_on_the_way(&blog.root, out) {
        return Err(refuse(
            format!("`{}` is a symlink, and the output folder is reached through it", link.display()),
            "Hanji does not write through links: remove the link, or export elsewhere with --out",
        ));
    }
    if resolved == root {
        return Err(refuse(
            format!("`{}` is the blog folder itself", out.display()),
            "export to another folder, e.g. --out ../site",
        ));
    }
    if root.starts_with(&resolved) {
        return Err(refuse(
            format!("`{}` holds the blog folder", out.display()),
            "export to a folder outside the blog, e.g. --out ../site",
        ));
    }
    if resolved.starts_with(&root) && resolved != configured {
        return Err(refuse(
            format!("`{}` is inside the blog folder", out.display()),
            &format!("export outside the blog, or into its output folder `{}`", blog.config.output_dir.display()),
        ));
    }
    let empty = match fs::is_empty_folder(out) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => true,
        Err(e) if e.kind() == io::ErrorKind::NotADirectory => {
            return Err(refuse(format!("`{}` is a file", out.display()), "export to a folder"));
        }
        Err(source) => return Err(ExportError::Io { path: out.into(), source }),
        Ok(empty) => empty,
    };
    let folder = Folder::open(out, true).map_err(|source| match source.kind() {
        io::ErrorKind::InvalidInput => {
            refuse(source.to_string(), "Hanji does not write through links: remove the link, or export elsewhere")
        }
        _ => ExportError::Io { path: out.into(), source },
    })?;
    if !empty && !force && folder.stamp(&record()).is_none() {
        return Err(refuse(
            format!("`{}` has files that Hanji did not export", out.display()),
            "export to an empty or new folder, or add --force to write over it (no file is deleted)",
        ));
    }
    Ok(folder)
}

/// The first symlink among `out` and, where `out` is in the blog folder
/// `root`, the folders between them.
fn link_on_the_way(root: &Path, out: &Path) -> Option<PathBuf> {
    let is_link = fs::is_symlink;
    if is_link(out) {
        return Some(out.to_path_buf());
    }
    let root = fs::lexical_absolute(root).ok()?;
    let within = out.strip_prefix(&root).ok()?;
    let mut path = root;
    for part in within.components() {
        if let Component::Normal(name) = part {
            path.push(name);
            if is_link(&path) {
                return Some(path);
            }
        }
    }
    None
}
