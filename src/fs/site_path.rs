//! `SitePath`: the place of a file inside a folder Hanji writes (the
//! exported site, the cache, the journal, the history), as a type that can
//! only hold a plain relative path. Every address rule's result becomes one
//! here, in one place, and every write under such a folder takes one
//! (`Folder`): a blog whose slug, permalink, tag or alias would climb out of
//! the site, or onto one of Hanji's own files, is refused at this door,
//! whichever rule made the name.

use std::fmt;
use std::path::Path;

use icu_normalizer::ComposingNormalizerBorrowed;

/// The longest name a file system on which sites are kept allows (ext4,
/// APFS, NTFS: 255 bytes).
pub const MAX_NAME_BYTES: usize = 255;

/// The longest path a site may hold: Linux's `PATH_MAX` less room for the
/// output folder's own path.
pub const MAX_PATH_BYTES: usize = 3072;

/// A plain relative path of a file: `/`-separated names, none empty, `.`
/// or `..`, nor a look-alike of them; no `\`, NUL or control character; no
/// name that Windows reserves (`CON`, `nul.txt`, a name ending in a dot or
/// a space), so that a site copied there stays whole; not one of the names
/// Hanji keeps for itself in a folder it writes (its export record, its
/// temp files).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(transparent)]
pub struct SitePath(String);

/// Why a name cannot be a file's place in a folder Hanji writes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unsafe {
    #[error("it is empty")]
    Empty,
    #[error("it starts at the top of the disk (`/`)")]
    Absolute,
    #[error("it has an empty name between two `/`")]
    EmptyName,
    #[error("it has a `{0}` part, which would lead out of its folder")]
    Climbs(String),
    #[error("it has a `\\`")]
    Backslash,
    #[error("it has a NUL or control character")]
    Control,
    #[error("its name `{0}` is one that Windows keeps for a device or strips (a dot or space at the end)")]
    Reserved(String),
    #[error("its name `{0}` is one that Hanji keeps for its own files")]
    Hanji(String),
    #[error("it is longer than a file system allows ({0} bytes)")]
    TooLong(usize),
}

impl SitePath {
    /// `path` if it is a plain relative path of a file (see the type).
    pub fn new(path: &str) -> Result<SitePath, Unsafe> {
        check(path, false)?;
        Ok(SitePath(path.to_string()))
    }

    /// A path of Hanji's own making among its own files (the export record,
    /// `.hanji-export`): the same checks but the last.
    pub(crate) fn own(path: &str) -> Result<SitePath, Unsafe> {
        check(path, true)?;
        Ok(SitePath(path.to_string()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn as_path(&self) -> &Path {
        Path::new(&self.0)
    }

    /// The folders and the file's name: `posts/a/index.html` → (`posts/a`, `index.html`).
    pub fn split(&self) -> (Option<&str>, &str) {
        match self.0.rsplit_once('/') {
            Some((folder, name)) => (Some(folder), name),
            None => (None, &self.0),
        }
    }

    /// Its names, from the top.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.0.split('/')
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Debug for SitePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for SitePath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl AsRef<str> for SitePath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for SitePath {
    fn borrow(&self) -> &str {
        &self.0
    }
}

/// Read back from Hanji's records, checked again: a record is never trusted
/// to name a file.
impl<'de> serde::Deserialize<'de> for SitePath {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        SitePath::new(&text).map_err(serde::de::Error::custom)
    }
}

fn check(path: &str, own: bool) -> Result<(), Unsafe> {
    if path.is_empty() {
        return Err(Unsafe::Empty);
    }
    if path.starts_with('/') {
        return Err(Unsafe::Absolute);
    }
    if path.len() > MAX_PATH_BYTES {
        return Err(Unsafe::TooLong(path.len()));
    }
    if path.contains('\\') {
        return Err(Unsafe::Backslash);
    }
    if path.chars().any(char::is_control) {
        return Err(Unsafe::Control);
    }
    let names: Vec<&str> = path.split('/').collect();
    let last = names.len() - 1;
    for (n, name) in names.into_iter().enumerate() {
        check_name(name, own && n == last)?;
    }
    Ok(())
}

fn check_name(name: &str, own: bool) -> Result<(), Unsafe> {
    if name.is_empty() {
        return Err(Unsafe::EmptyName);
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(Unsafe::TooLong(name.len()));
    }
    if is_dots(name) {
        return Err(Unsafe::Climbs(name.to_string()));
    }
    if is_reserved_on_windows(name) {
        return Err(Unsafe::Reserved(name.to_string()));
    }
    if !own && is_hanjis(name) {
        return Err(Unsafe::Hanji(name.to_string()));
    }
    Ok(())
}

/// `.`, `..`, and what a server, a file system or a later step could read
/// as them: a name of dots only once made compatible (NFKC: `．．`, `‥`),
/// percent-decoded (`%2e%2e`) or stripped of the spaces Windows strips.
fn is_dots(name: &str) -> bool {
    let only_dots = |text: &str| {
        let text = text.trim_matches(' ');
        !text.is_empty() && text.chars().all(|c| c == '.')
    };
    if only_dots(name) {
        return true;
    }
    let compatible = ComposingNormalizerBorrowed::new_nfkc().normalize(name);
    if only_dots(&compatible) {
        return true;
    }
    let decoded = crate::text::percent_decode(&compatible);
    only_dots(&decoded) || only_dots(&ComposingNormalizerBorrowed::new_nfkc().normalize(&decoded))
}

/// Windows' device names (`CON`, `NUL`, `COM1`…, with any extension) and
/// names it would strip of a final dot or space.
fn is_reserved_on_windows(name: &str) -> bool {
    if name.ends_with('.') || name.ends_with(' ') {
        return true;
    }
    let stem = name.split('.').next().unwrap_or(name).trim_end_matches(' ').to_ascii_uppercase();
    matches!(stem.as_str(), "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$")
        || (stem.len() == 4
            && (stem.starts_with("COM") || stem.starts_with("LPT"))
            && matches!(stem.as_bytes()[3], b'0'..=b'9' | 0xB9 | 0xB2 | 0xB3))
        || ["COM¹", "COM²", "COM³", "LPT¹", "LPT²", "LPT³"].contains(&stem.as_str())
}

/// The names Hanji keeps in a folder it writes: the export and publish
/// records, and the temp files it writes before renaming them.
fn is_hanjis(name: &str) -> bool {
    name == super::EXPORT_RECORD || name == super::PUBLISH_RECORD || super::is_temp_file(std::ffi::OsStr::new(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_paths_are_site_paths() {
        for path in ["index.html", "posts/a/index.html", "tags/분산-학습/index.html", ".well-known/security.txt"] {
            assert_eq!(SitePath::new(path).unwrap().as_str(), path);
        }
        let path = SitePath::new("posts/a/index.html").unwrap();
        assert_eq!(path.split(), (Some("posts/a"), "index.html"));
        assert_eq!(SitePath::new("feed.xml").unwrap().split(), (None, "feed.xml"));
    }

    #[test]
    fn names_that_climb_or_hide_are_refused() {
        let refused = [
            ("", Unsafe::Empty),
            ("/etc/passwd", Unsafe::Absolute),
            ("posts//index.html", Unsafe::EmptyName),
            ("posts/", Unsafe::EmptyName),
            ("../index.html", Unsafe::Climbs("..".into())),
            ("posts/./index.html", Unsafe::Climbs(".".into())),
            ("tags/..../index.html", Unsafe::Climbs("....".into())),
            ("a/．．/b", Unsafe::Climbs("．．".into())),
            ("a/\u{2025}/b", Unsafe::Climbs("\u{2025}".into())),
            ("a/%2e%2E/b", Unsafe::Climbs("%2e%2E".into())),
            ("a/%EF%BC%8E%EF%BC%8E/b", Unsafe::Climbs("%EF%BC%8E%EF%BC%8E".into())),
            ("a/ .. /b", Unsafe::Climbs(" .. ".into())),
            ("a\\..\\b", Unsafe::Backslash),
            ("a/\0/b", Unsafe::Control),
            ("a/\n/b", Unsafe::Control),
            ("con/index.html", Unsafe::Reserved("con".into())),
            ("posts/NUL.txt", Unsafe::Reserved("NUL.txt".into())),
            ("posts/lpt¹", Unsafe::Reserved("lpt¹".into())),
            ("posts/a./index.html", Unsafe::Reserved("a.".into())),
            (".hanji-export", Unsafe::Hanji(".hanji-export".into())),
            ("posts/.index.html.x1.hanji-tmp", Unsafe::Hanji(".index.html.x1.hanji-tmp".into())),
        ];
        for (path, why) in refused {
            assert_eq!(SitePath::new(path), Err(why), "{path:?}");
        }
        assert!(matches!(SitePath::new(&"a".repeat(256)), Err(Unsafe::TooLong(256))));
        assert!(matches!(SitePath::new(&"a/".repeat(2000)), Err(Unsafe::TooLong(_))));
        assert!(SitePath::own(".hanji-export").is_ok(), "Hanji's own name, where Hanji writes it");
        assert!(SitePath::own("../.hanji-export").is_err());
    }

    #[test]
    fn a_record_cannot_name_a_path_that_climbs() {
        assert!(serde_json::from_str::<SitePath>("\"../../.bashrc\"").is_err());
        assert_eq!(serde_json::from_str::<SitePath>("\"a/b.html\"").unwrap().as_str(), "a/b.html");
    }
}
