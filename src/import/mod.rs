//! Leaving a hosted blog: `hanji import SOURCE` reads a platform's export
//! (a WordPress WXR file, a Medium export ZIP, a Tistory backup) and makes a new Hanji blog of
//! it, with a report of what could not come over exactly. Each platform's
//! reading is a module of its own that turns its export into `Entry` values;
//! `blog` writes them (never over a file the author changed), `html` turns
//! their HTML into Markdown, `download` fetches the images an export only
//! links to, `report` says what happened.

mod archive;
mod blog;
mod download;
mod html;
mod medium;
mod report;
mod shortcodes;
mod tistory;
mod velog;
mod wordpress;

use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use blog::RECORD;
pub use html::{Converted, to_markdown};
pub use report::{Note, Report};
pub use velog::API as VELOG_API;

/// What `hanji import` is asked to do.
#[derive(Debug, Clone, Default)]
pub struct ImportOptions {
    /// The new blog's folder: it must not exist, be empty, or hold an
    /// earlier import of the same source.
    pub into: PathBuf,
    /// A copy of the old site's uploaded files (WordPress's
    /// `wp-content/uploads`), where images are taken from.
    pub uploads: Option<PathBuf>,
    /// Velog's API (tests point it at a server of their own); None is
    /// `HANJI_VELOG_API`, else Velog's own.
    pub api: Option<String>,
    /// Told how an import that reads the network is going (`velog: 40/120 posts fetched`).
    pub progress: Option<Progress>,
    /// Leave the images a WordPress or Medium export links to but does not
    /// hold where they are, rather than download them (no network).
    pub offline: bool,
}

/// Where an import says how it is going.
#[derive(Clone)]
pub struct Progress(pub Arc<dyn Fn(&str) + Send + Sync>);

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Progress")
    }
}

/// Why an import did not happen.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The source is not an export Hanji knows.
    #[error("`{}` is not an export Hanji can import: {reason}", .path.display())]
    Unknown { path: PathBuf, reason: String },
    /// The export is damaged or not what its name says.
    #[error("`{}` cannot be read: {reason}", .path.display())]
    Unreadable { path: PathBuf, reason: String },
    /// The folder holds files that are not an earlier import of this source.
    #[error("`{}` already has files that are not an earlier import of this export", .0.display())]
    Occupied(PathBuf),
    #[error("cannot write `{}`: {source}", .path.display())]
    Io { path: PathBuf, source: std::io::Error },
    /// The network failed partway; what was fetched is kept in `into`.
    #[error("reading `{account}` stopped after {fetched} of {listed} posts: {reason}")]
    Interrupted { account: String, reason: String, fetched: usize, listed: usize, into: PathBuf },
}

impl ImportError {
    /// What the author can do about it.
    pub fn hint(&self) -> &'static str {
        match self {
            ImportError::Unknown { .. } => {
                "give a WordPress export (Tools → Export, an .xml file), a Medium export (.zip from Settings → Download your information) or a Tistory backup (.xml or .zip from Settings → Data management → Backup)"
            }
            ImportError::Unreadable { .. } => {
                "download the export again; a file cut short or changed by hand cannot be read"
            }
            ImportError::Occupied(_) => {
                "name a new folder with --into (an import never writes into another blog's files)"
            }
            ImportError::Io { .. } => "check that the folder can be written and the disk has room",
            ImportError::Interrupted { .. } => {
                "check the connection and run the same command again: what was fetched is kept in the new blog's folder, and the import goes on from there"
            }
        }
    }
}

impl Entry {
    /// Puts `bytes` beside the post as a file named after `wanted` (made a
    /// plain name, `image` if nothing of it is left; `a-2.png` when `a.png`
    /// is taken by other bytes); the same bytes already there are not put
    /// twice. How the post links to it: its name beside a post, under
    /// `/images/<page>/` for a page (see `blog::write`).
    pub(crate) fn add_file(&mut self, wanted: &str, bytes: Vec<u8>) -> String {
        let name = match self.files.iter().find(|(_, had)| *had == bytes) {
            Some((name, _)) => name.clone(),
            None => {
                let plain = file_name(wanted, "image");
                let (stem, extension) = match plain.rsplit_once('.') {
                    Some((stem, extension)) if !stem.is_empty() => (stem.to_string(), format!(".{extension}")),
                    _ => (plain.clone(), String::new()),
                };
                let name = (1..)
                    .map(|n| if n == 1 { plain.clone() } else { format!("{stem}-{n}{extension}") })
                    .find(|name| !self.files.iter().any(|(had, _)| had == name))
                    .expect("a free name");
                self.files.push((name.clone(), bytes));
                name
            }
        };
        if self.page { format!("/images/{}/{name}", self.slug) } else { name }
    }
}

/// A post or page read from an export, ready to be written.
#[derive(Debug, Clone, Default)]
pub(crate) struct Entry {
    pub page: bool,
    pub title: String,
    /// The file's name: `posts/<slug>/index.md`, or the page's path under
    /// `pages/` (`about/team`).
    pub slug: String,
    /// RFC 3339, with the offset the platform gave (`2010-08-06T08:09:39-07:00`).
    pub date: Option<String>,
    pub updated: Option<String>,
    pub draft: bool,
    pub tags: Vec<String>,
    pub categories: Vec<String>,
    pub authors: Vec<String>,
    pub summary: Option<String>,
    /// The series the post is a part of (`series` in its front matter).
    pub series: Option<String>,
    /// The featured image, as linked from the post (a file of its bundle or a URL).
    pub cover: Option<String>,
    /// Old addresses, as site paths from the top (`/2010/08/06/hello/`).
    pub aliases: Vec<String>,
    /// Markdown.
    pub body: String,
    /// Files to put beside the post (its images): name in the bundle and bytes.
    pub files: Vec<(String, Vec<u8>)>,
    /// Where it came from, for the report (`item 568 "Hello" (https://…)`).
    pub source: String,
}

/// What an export holds, read: the blog's settings and its entries.
#[derive(Debug, Default)]
pub(crate) struct Export {
    /// Which platform (`WordPress`, `Medium`), for the report.
    pub platform: &'static str,
    /// The old site, which names the source of an import in its record
    /// (a second import of the same site may update the first).
    pub site: String,
    pub title: String,
    pub description: String,
    pub locale: String,
    pub entries: Vec<Entry>,
}

/// Imports the export at `source` into a new blog (see `ImportOptions`);
/// what was written and what was not converted exactly is in the report.
pub fn import(source: &Path, options: &ImportOptions) -> Result<Report, ImportError> {
    let mut report = Report::default();
    if let Some(user) = velog_user(source) {
        blog::check(&options.into, &format!("https://velog.io/@{user}"), "Velog")?;
        let export = velog::read(&user, options, &mut report)?;
        report.platform = export.platform.to_string();
        blog::write(&export, options, &mut report)?;
        velog::forget(&options.into);
        return Ok(report);
    }
    let export = read(source, options, &mut report)?;
    report.platform = export.platform.to_string();
    blog::write(&export, options, &mut report)?;
    Ok(report)
}

/// Where an import of `source` goes when no folder is named: in `parent`,
/// a new folder named after the export file; for a Velog account always
/// `<user>.log`, so that importing again goes on with an import the network
/// cut short (or updates the earlier one).
pub fn folder_for(source: &Path, parent: &Path) -> PathBuf {
    if let Some(user) = velog_user(source) {
        return parent.join(format!("{user}.log"));
    }
    let name = source.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    crate::author::new_blog::fresh_folder(parent, &name)
}

/// The Velog user a source names (`velog:@user`, `https://velog.io/@user`).
pub fn velog_user(source: &Path) -> Option<String> {
    source.to_str().and_then(velog::user_of)
}

/// The export at `source`, read by its platform's module (told by its content).
fn read(source: &Path, options: &ImportOptions, report: &mut Report) -> Result<Export, ImportError> {
    let unreadable = |reason: String| ImportError::Unreadable { path: source.to_path_buf(), reason };
    let bytes = crate::fs::read(source).map_err(|e| unreadable(e.to_string()))?;
    if bytes.starts_with(b"PK\x03\x04") {
        let mut archive = archive::Archive::new(bytes).map_err(|e| unreadable(format!("not a ZIP file: {e}")))?;
        if let Some(name) = tistory::ttxml_in(&mut archive) {
            let text = archive.text(&name).map_err(unreadable)?;
            return tistory::read(&text, report).map_err(|e| unreadable(format!("{name}: {e}")));
        }
        if medium::is_medium(&archive) {
            let downloader = downloader(options, report);
            return medium::read(&mut archive, downloader.as_ref(), report).map_err(unreadable);
        }
        return Err(ImportError::Unknown {
            path: source.to_path_buf(),
            reason: "a ZIP file, but not a Medium export (no `posts/*.html` in it) nor a Tistory backup (no TTXML `.xml` in it)".into(),
        });
    }
    let text = String::from_utf8(bytes).map_err(|_| unreadable("it is not UTF-8 text".into()))?;
    if wordpress::is_wxr(&text) {
        let downloader = downloader(options, report);
        return wordpress::read(&text, options.uploads.as_deref(), downloader.as_ref(), report).map_err(unreadable);
    }
    if tistory::is_ttxml(&text) {
        return tistory::read(&text, report).map_err(unreadable);
    }
    Err(ImportError::Unknown {
        path: source.to_path_buf(),
        reason: "neither a WordPress WXR file, a Tistory backup (TTXML) nor a ZIP export".into(),
    })
}

/// What fetches the images an export links to but does not hold; None
/// when the import is `offline` (or no client can be made: noted).
fn downloader(options: &ImportOptions, report: &mut Report) -> Option<download::Downloader> {
    if options.offline {
        return None;
    }
    download::Downloader::new()
        .map_err(|e| report.note("the network", format!("images cannot be downloaded ({e}): their links stay")))
        .ok()
}

/// A file name for a file of a bundle: `wanted` (the name it was uploaded
/// or served with) made plain, else `fallback` made plain, else `file`.
pub(crate) fn file_name(wanted: &str, fallback: &str) -> String {
    let plain = |text: &str| -> String {
        let last = text.rsplit(['/', '\\']).next().unwrap_or("");
        let cleaned: String =
            last.chars().map(|c| if c.is_control() || "<>:\"|?*#%".contains(c) { '_' } else { c }).collect();
        shortened(cleaned.trim().trim_start_matches('.'))
    };
    for name in [plain(wanted), plain(fallback)] {
        if !name.is_empty() && crate::fs::SitePath::new(&name).is_ok() {
            return name;
        }
    }
    "file".into()
}

/// The longest file name written (a disk allows 255 bytes).
const NAME_LIMIT: usize = 120;

/// `name` cut to `NAME_LIMIT` bytes, its extension kept.
fn shortened(name: &str) -> String {
    if name.len() <= NAME_LIMIT {
        return name.to_string();
    }
    let extension = name.rsplit_once('.').map(|(_, e)| e).filter(|e| e.len() <= 10).unwrap_or("");
    let room = NAME_LIMIT - extension.len() - 1;
    let stem = &name[..crate::text::floor_char_boundary(name, room)];
    if extension.is_empty() { stem.to_string() } else { format!("{stem}.{extension}") }
}

/// A slug for a title that has none: github-slugger's, else `post`.
fn slug_of(title: &str, fallback: &str) -> String {
    match crate::slug::slug(title) {
        slug if slug.trim_matches('-').is_empty() => fallback.to_string(),
        slug => slug,
    }
}

/// `name` made unique among `taken` (`name-2`, `name-3`…), and taken.
fn unique(name: String, taken: &mut std::collections::HashSet<String>) -> String {
    if taken.insert(name.clone()) {
        return name;
    }
    let free = (2..).map(|n| format!("{name}-{n}")).find(|n| !taken.contains(n)).expect("a free name");
    taken.insert(free.clone());
    free
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_taken_name_gets_a_number() {
        let mut taken = std::collections::HashSet::new();
        assert_eq!(unique("a".into(), &mut taken), "a");
        assert_eq!(unique("a".into(), &mut taken), "a-2");
        assert_eq!(unique("a".into(), &mut taken), "a-3");
        assert_eq!(slug_of("  ", "post"), "post");
        assert_eq!(slug_of("분산 학습", "post"), "분산-학습");
    }

    #[test]
    fn a_file_gets_a_plain_free_name_and_the_same_bytes_one_file() {
        let mut entry = Entry { slug: "hello".into(), ..Entry::default() };
        assert_eq!(entry.add_file("a.png", vec![1]), "a.png");
        assert_eq!(entry.add_file("a.png", vec![2]), "a-2.png");
        assert_eq!(entry.add_file("other.png", vec![1]), "a.png", "the same bytes");
        assert_eq!(entry.add_file("../../etc/passwd", vec![3]), "passwd");
        assert_eq!(entry.add_file("..", vec![4]), "image");
        assert_eq!(entry.add_file(".hidden", vec![5]), "hidden");
        let long = format!("{}.jpg", "가".repeat(200));
        let name = entry.add_file(&long, vec![6]);
        assert!(name.len() <= NAME_LIMIT && name.ends_with("가.jpg"), "{name}");
        let mut page = Entry { page: true, slug: "about/team".into(), ..Entry::default() };
        assert_eq!(page.add_file("a.png", vec![1]), "/images/about/team/a.png");
    }
}
