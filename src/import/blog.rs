//! An export written as a Hanji blog: `hanji.toml`, each post as a bundle
//! (`posts/<slug>/index.md` with its images beside it), pages under
//! `pages/`, and the old addresses as a redirect map (`static/redirects.csv`
//! and Netlify's and Cloudflare's `static/_redirects`), the new addresses
//! asked of the blog's own routes. Every write goes through `fs::Folder`.
//! The folder must be new or empty, or hold an earlier import of the same
//! site: then a file is written again only if it is still what that import
//! wrote (a digest of each is kept in `.hanji-import.json`).

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::path::Path;

use super::report::Report;
use super::{Entry, Export, ImportError, ImportOptions};
use crate::front_matter::{FieldValue, set_field};
use crate::fs::{self, Durable, Folder, SitePath};

/// The import's record in the new blog: which site it came from and a
/// digest of each file it wrote (hidden, so the blog's loader skips it).
pub const RECORD: &str = ".hanji-import.json";

#[derive(Debug, Default, serde::Serialize, serde::Deserialize)]
struct Record {
    /// The old site's address: a second import must be of the same one.
    site: String,
    platform: String,
    /// Site path → `fs::version_of` its bytes as the import wrote them.
    files: BTreeMap<String, String>,
}

/// Writes `export` into `options.into` (see the module).
pub(crate) fn write(export: &Export, options: &ImportOptions, report: &mut Report) -> Result<(), ImportError> {
    let into = options.into.as_path();
    let previous = previous(into, export)?;
    let folder = Folder::open(into, true).map_err(|source| ImportError::Io { path: into.to_path_buf(), source })?;
    let mut writer = Writer {
        folder: &folder,
        previous: previous.as_ref(),
        record: Record { site: export.site.clone(), platform: export.platform.to_string(), files: BTreeMap::new() },
        report,
    };
    // The settings are the author's from the first import on.
    if writer.previous.is_none() {
        writer.put("hanji.toml", settings(export).as_bytes())?;
    }
    let mut written_entries = Vec::new();
    for entry in &export.entries {
        if let Some(path) = writer.put_entry(entry)? {
            written_entries.push((path, entry));
        }
    }
    count(export, writer.report);
    writer.redirects(into, &written_entries)?;
    if let Some(previous) = writer.previous {
        // Files of an earlier import that this one did not make again stay, and stay recorded.
        for (path, version) in &previous.files {
            writer.record.files.entry(path.clone()).or_insert_with(|| version.clone());
        }
    }
    let record = serde_json::to_vec_pretty(&writer.record).unwrap_or_default();
    let name = SitePath::new(RECORD).map_err(|e| invalid(into, RECORD, &e.to_string()))?;
    folder.write(&name, &record, Durable::Flushed).map_err(|source| ImportError::Io { path: into.join(RECORD), source })
}

/// Refuses a folder an import of `site` from `platform` must not write
/// into (see `previous`), before anything is read.
pub(crate) fn check(into: &Path, site: &str, platform: &'static str) -> Result<(), ImportError> {
    let export = Export { platform, site: site.to_string(), ..Export::default() };
    previous(into, &export).map(|_| ())
}

/// The record of an earlier import of the same site in `into`; None if the
/// folder is new or empty (or holds only what an import that was cut short
/// kept to go on with); refused if it holds anything else.
fn previous(into: &Path, export: &Export) -> Result<Option<Record>, ImportError> {
    let only_kept = || {
        Folder::open(into, false)
            .and_then(|folder| folder.files())
            .is_ok_and(|files| files.iter().all(|(file, _)| super::velog::is_cache(file.as_str())))
    };
    if fs::read(&into.join(RECORD)).is_err() && only_kept() {
        return Ok(None);
    }
    match fs::is_empty_folder(into) {
        Ok(true) => return Ok(None),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.kind() != io::ErrorKind::NotADirectory => {
            return Err(ImportError::Io { path: into.to_path_buf(), source: e });
        }
        _ => {}
    }
    let record = fs::read(&into.join(RECORD)).ok().and_then(|bytes| serde_json::from_slice::<Record>(&bytes).ok());
    match record {
        Some(record) if record.site == export.site && record.platform == export.platform => Ok(Some(record)),
        _ => Err(ImportError::Occupied(into.to_path_buf())),
    }
}

fn invalid(into: &Path, path: &str, reason: &str) -> ImportError {
    ImportError::Io { path: into.join(path), source: io::Error::new(io::ErrorKind::InvalidInput, reason.to_string()) }
}

struct Writer<'a> {
    folder: &'a Folder,
    previous: Option<&'a Record>,
    record: Record,
    report: &'a mut Report,
}

impl Writer<'_> {
    /// Writes `bytes` at `path` unless the file there is not the import's
    /// own as it wrote it (see the module).
    fn put(&mut self, path: &str, bytes: &[u8]) -> Result<(), ImportError> {
        let into = self.folder.path();
        let site_path = SitePath::new(path).map_err(|e| invalid(into, path, &e.to_string()))?;
        let version = fs::version_of(bytes);
        let recorded = self.previous.and_then(|p| p.files.get(path));
        match self.folder.read(&site_path) {
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(source) => return Err(ImportError::Io { path: into.join(path), source }),
            Ok(current) if current == bytes => {
                self.report.unchanged += 1;
                self.record.files.insert(path.to_string(), version);
                return Ok(());
            }
            Ok(current) => match recorded {
                Some(recorded) if *recorded == fs::version_of(&current) => {}
                Some(recorded) => {
                    self.report.kept.push(path.to_string());
                    self.record.files.insert(path.to_string(), recorded.clone());
                    return Ok(());
                }
                None => {
                    self.report.foreign.push(path.to_string());
                    return Ok(());
                }
            },
        }
        self.folder
            .write(&site_path, bytes, Durable::Replaced)
            .map_err(|source| ImportError::Io { path: into.join(path), source })?;
        self.report.written.push(path.to_string());
        self.record.files.insert(path.to_string(), version);
        Ok(())
    }

    /// Writes one post or page and its files; its path, or None if its
    /// name cannot be a file's (noted).
    fn put_entry(&mut self, entry: &Entry) -> Result<Option<String>, ImportError> {
        let (path, files_at) = if entry.page {
            (format!("pages/{}.md", entry.slug), format!("static/images/{}", entry.slug))
        } else {
            (format!("posts/{}/index.md", entry.slug), format!("posts/{}", entry.slug))
        };
        if SitePath::new(&path).is_err() {
            self.report.note(&entry.source, format!("its name `{}` cannot be a file's: not imported", entry.slug));
            return Ok(None);
        }
        let text = match post_text(entry) {
            Ok(text) => text,
            Err(reason) => {
                self.report.note(&entry.source, format!("its front matter cannot be written ({reason}): not imported"));
                return Ok(None);
            }
        };
        self.put(&path, text.as_bytes())?;
        for (name, bytes) in &entry.files {
            self.put(&format!("{files_at}/{name}"), bytes)?;
        }
        Ok(Some(path))
    }

    /// The old addresses → the new ones, asked of the written blog's routes.
    fn redirects(&mut self, into: &Path, entries: &[(String, &Entry)]) -> Result<(), ImportError> {
        if entries.iter().all(|(_, entry)| entry.aliases.is_empty()) {
            return Ok(());
        }
        let blog = match crate::load::load(into) {
            Ok(blog) => blog,
            Err(error) => {
                self.report.note(
                    &into.display().to_string(),
                    format!("the new blog does not load ({error}): no redirects written"),
                );
                return Ok(());
            }
        };
        let addresses = crate::site::routes::Addresses::new(&blog.config, &blog.library);
        let mut csv = String::from("from,to\n");
        let mut netlify = String::from("# Old addresses of the imported blog (Netlify, Cloudflare Pages)\n");
        let mut seen = BTreeSet::new();
        for (path, entry) in entries {
            let Some(post) = blog.library.post(Path::new(path)) else { continue };
            let to = format!("/{}", addresses.post(post));
            for from in &entry.aliases {
                if *from == to || !seen.insert(from.clone()) {
                    continue;
                }
                csv.push_str(&format!("{},{}\n", csv_field(from), csv_field(&to)));
                netlify.push_str(&format!(
                    "{} {} 301\n",
                    crate::site::url::encode_path(from),
                    crate::site::url::encode_path(&to)
                ));
            }
        }
        self.report.count("redirects", seen.len());
        self.put("static/redirects.csv", csv.as_bytes())?;
        self.put("static/_redirects", netlify.as_bytes())
    }
}

/// A CSV field, quoted when it must be (RFC 4180).
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) { format!("\"{}\"", text.replace('"', "\"\"")) } else { text.to_string() }
}

/// The post's file: front matter written by the same editor the app uses, then the body.
fn post_text(entry: &Entry) -> Result<String, String> {
    let mut text = String::new();
    let mut set = |key: &str, value: FieldValue| -> Result<(), String> {
        text = set_field(&text, key, &value).map_err(|e| e.to_string())?;
        Ok(())
    };
    set("title", FieldValue::Text(entry.title.clone()))?;
    if let Some(date) = &entry.date {
        set("date", FieldValue::Text(date.clone()))?;
    }
    if let Some(updated) = &entry.updated {
        set("lastmod", FieldValue::Text(updated.clone()))?;
    }
    if entry.draft {
        set("draft", FieldValue::Bool(true))?;
    }
    if !entry.authors.is_empty() {
        set("authors", FieldValue::List(entry.authors.clone()))?;
    }
    if !entry.categories.is_empty() {
        set("categories", FieldValue::List(entry.categories.clone()))?;
    }
    if !entry.tags.is_empty() {
        set("tags", FieldValue::List(entry.tags.clone()))?;
    }
    if let Some(summary) = &entry.summary {
        set("summary", FieldValue::Text(summary.clone()))?;
    }
    if let Some(series) = &entry.series {
        set("series", FieldValue::Text(series.clone()))?;
    }
    if let Some(cover) = &entry.cover {
        set("cover", FieldValue::Text(cover.clone()))?;
    }
    if !entry.aliases.is_empty() {
        set("aliases", FieldValue::List(entry.aliases.clone()))?;
    }
    let body = entry.body.trim_matches('\n');
    Ok(if body.is_empty() { text } else { format!("{text}\n{body}\n") })
}

/// `hanji.toml` of the new blog: its title, description and language.
fn settings(export: &Export) -> String {
    let mut settings = toml::Table::new();
    settings.insert("title".into(), export.title.clone().into());
    if !export.description.is_empty() {
        settings.insert("description".into(), export.description.clone().into());
    }
    settings.insert("locale".into(), export.locale.clone().into());
    if export.locale.to_ascii_lowercase().starts_with("ko") {
        settings.insert("time_zone".into(), "Asia/Seoul".into());
    }
    toml::to_string(&settings).unwrap_or_default()
}

/// The counts by kind.
fn count(export: &Export, report: &mut Report) {
    let posts = export.entries.iter().filter(|e| !e.page);
    let tags: BTreeSet<&str> = posts.clone().flat_map(|e| e.tags.iter().map(String::as_str)).collect();
    let categories: BTreeSet<&str> = posts.clone().flat_map(|e| e.categories.iter().map(String::as_str)).collect();
    report.count("posts", posts.clone().filter(|e| !e.draft).count());
    report.count("drafts", export.entries.iter().filter(|e| e.draft).count());
    report.count("pages", export.entries.iter().filter(|e| e.page && !e.draft).count());
    report.count("tags", tags.len());
    report.count("categories", categories.len());
    report.count("files", export.entries.iter().map(|e| e.files.len()).sum());
    report.count("aliases", export.entries.iter().map(|e| e.aliases.len()).sum());
}
