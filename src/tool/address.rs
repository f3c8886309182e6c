//! What the tools' address rules share: a written address made a site path,
//! folders made slugs, and the date parts of a pattern.

use std::path::Path;

use jiff::civil::Date;

use super::PostFile;

/// A post's own address (Hugo's `url`, Zola's `path`, Jekyll's `permalink`)
/// as a site path: `/elsewhere/u` → `elsewhere/u/`, `/a/b.html` stays a file.
pub fn own_url(url: &str) -> Option<String> {
    let parts: Vec<&str> = url.split('/').filter(|part| !part.is_empty() && *part != "." && *part != "..").collect();
    if parts.is_empty() || url.contains("://") {
        return None;
    }
    let last = parts.last().copied().unwrap_or_default();
    let end = if last.contains('.') { "" } else { "/" };
    Some(format!("{}{end}", parts.join("/")))
}

/// Each folder of `folders` as a slug, with a `/` after each: `Notes/2024` →
/// `notes/2024/`.
pub(super) fn slugged_folders(folders: &Path) -> String {
    folders
        .components()
        .map(|c| crate::slug::slug(&c.as_os_str().to_string_lossy()))
        .filter(|part| !part.is_empty())
        .map(|part| format!("{part}/"))
        .collect()
}

pub fn slash_path(path: &Path) -> String {
    path.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// The folder a post's name is in: a bundle's is above its own folder.
pub(super) fn folder_of(path: &Path) -> &Path {
    let file = PostFile::new(path);
    file.bundle_folder().and_then(Path::parent).unwrap_or(file.folder())
}

/// `:year`, `:month` and `:day` of a post's date, as the tools write them.
pub(super) fn date_values(date: Option<Date>) -> [(&'static str, String); 3] {
    let part = |write: fn(Date) -> String| date.map(write).unwrap_or_default();
    [
        (":year", part(|d| d.year().to_string())),
        (":month", part(|d| format!("{:02}", d.month()))),
        (":day", part(|d| format!("{:02}", d.day()))),
    ]
}

/// `pattern` with each name of `values` replaced by its value, in order.
pub(super) fn fill(pattern: &str, values: &[(&str, String)]) -> String {
    values.iter().fold(pattern.to_string(), |address, (name, value)| address.replace(name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn own_addresses_become_site_paths() {
        assert_eq!(own_url("/elsewhere/u").as_deref(), Some("elsewhere/u/"));
        assert_eq!(own_url("a/b.html").as_deref(), Some("a/b.html"));
        assert_eq!(own_url("/../x/./y").as_deref(), Some("x/y/"));
        assert_eq!(own_url("https://example.com/a"), None);
        assert_eq!(own_url("/"), None);
        assert_eq!(slugged_folders(Path::new("Notes/2024")), "notes/2024/");
    }
}
