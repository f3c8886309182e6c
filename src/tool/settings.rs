//! What the tools' settings readers share: the folder detection asks about,
//! the site settings a tool's settings file gives, and reading its fields.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::Kind;
use crate::diagnostics::Diagnostic;
use crate::front_matter::{self, Format, RawField};

/// What detection asks of the blog folder; the loader answers from the disk.
pub trait Folder {
    fn is_file(&self, path: &Path) -> bool;
    fn is_dir(&self, path: &Path) -> bool;
    /// The text of a file, or why it cannot be read.
    fn read(&self, path: &Path) -> Result<String, String>;
    /// The folders directly in `path` (relative to the blog, as `path` is),
    /// links left out, sorted.
    fn folders(&self, path: &Path) -> Vec<PathBuf>;
}

/// A value in a tool's settings, with where its key is, to point at it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    pub value: String,
    pub line: usize,
    pub column: usize,
    /// The tool's name for it (`languageCode`).
    pub key: String,
}

/// The site settings another tool's settings file gives.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Settings {
    pub title: Option<Setting>,
    pub description: Option<Setting>,
    pub base_url: Option<Setting>,
    pub locale: Option<Setting>,
    pub author: Option<Setting>,
    /// The address pattern of posts (Jekyll's `permalink`).
    pub permalink: Option<Setting>,
    /// Address patterns by section (Hugo's `[permalinks]`), the posts'
    /// section's taken.
    pub section_permalinks: Vec<(String, String)>,
    /// How tags' addresses are made, where the settings choose (Zola's
    /// `[slugify] taxonomies`).
    pub term_slugs: Option<crate::slug::TermSlugs>,
    /// Future posts published at once (Hugo's `buildFuture`, Jekyll's `future`).
    pub future_posts: Option<bool>,
    /// The site's time zone (Hugo's `timeZone`, Jekyll's `timezone`).
    pub time_zone: Option<Setting>,
    /// Expired posts still published (Hugo's `buildExpired`).
    pub expired_posts: Option<bool>,
    /// The feed's file name (Zola's `feed_filename`, or the first of `feed_filenames`).
    pub feed_file: Option<String>,
    /// The themes the blog uses (Hugo's and Zola's `theme`), first the one
    /// whose templates win.
    pub themes: Vec<String>,
    /// Front matter values by scope (Jekyll's `defaults`).
    pub front_matter_defaults: Vec<crate::defaults::DefaultSet>,
    /// Zola's `[slugify] paths` and `paths_keep_dates`.
    pub zola_paths: Option<crate::slug::ZolaPaths>,
    pub zola_keep_dates: Option<bool>,
    /// Jekyll's collections that it writes (`output: true`).
    pub collections: Vec<super::Collection>,
}

/// The top-level fields of a tool's TOML or YAML settings file, or None
/// (with the problem, and that defaults are used meanwhile) when it cannot be read.
pub(super) fn fields(kind: Kind, file: &Path, text: &str, problems: &mut Vec<Diagnostic>) -> Option<Vec<RawField>> {
    let format = if file.extension().is_some_and(|e| e == "toml") { Format::Toml } else { Format::Yaml };
    match front_matter::read_fields(text, format) {
        Ok((fields, warnings)) => {
            problems.extend(warnings.into_iter().map(|problem| problem.in_file(file)));
            Some(fields)
        }
        Err(problem) => {
            let name = file.display();
            let problem = problem.with_hint(format!(
                "fix {name} as {} would need it; Hanji's default settings are used meanwhile",
                kind.name()
            ));
            problems.push(problem.in_file(file));
            None
        }
    }
}

/// The top-level field `key` (any case: Hugo's keys are case-insensitive).
pub(super) fn field<'a>(fields: &'a [RawField], key: &str) -> Option<&'a RawField> {
    fields.iter().find(|field| field.key.eq_ignore_ascii_case(key))
}

/// A field's value as a setting, if it is text (or a number).
pub(super) fn setting(field: &RawField) -> Option<Setting> {
    setting_at(field, &field.value, &field.key)
}

/// `value` (found under `field`) as a setting named `key`.
pub(super) fn setting_at(field: &RawField, value: &Value, key: &str) -> Option<Setting> {
    let value = match value {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        _ => return None,
    };
    Some(Setting { value, line: field.line, column: field.column, key: key.to_string() })
}

/// `key` inside the mapping of `field` (Hugo's `[params] description`).
pub(super) fn nested(field: &RawField, key: &str) -> Option<Setting> {
    let Value::Object(map) = &field.value else { return None };
    let value = map.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v)?;
    setting_at(field, value, &format!("{}.{key}", field.key))
}

/// A setting that is `true` or `false`.
pub(super) fn flag(fields: &[RawField], key: &str) -> Option<bool> {
    field(fields, key).and_then(|field| field.value.as_bool())
}

/// The theme names of `theme = "a"` or `theme = ["a", "b"]`.
pub(super) fn themes(field: &RawField) -> Vec<String> {
    match &field.value {
        Value::String(name) => vec![name.clone()],
        Value::Array(names) => names.iter().filter_map(|n| n.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    }
}

/// An author given as a name or as `{name: …}`.
pub(super) fn author(field: &RawField) -> Option<Setting> {
    setting(field).or_else(|| nested(field, "name"))
}

/// For tests of detection: a folder of files given as text.
#[cfg(test)]
pub(crate) struct FakeFolder(pub Vec<(&'static str, &'static str)>);

#[cfg(test)]
impl Folder for FakeFolder {
    fn is_file(&self, path: &Path) -> bool {
        self.0.iter().any(|(file, _)| Path::new(file) == path)
    }

    fn is_dir(&self, path: &Path) -> bool {
        self.0.iter().any(|(file, _)| Path::new(file).starts_with(path) && Path::new(file) != path)
    }

    fn read(&self, path: &Path) -> Result<String, String> {
        self.0
            .iter()
            .find(|(file, _)| Path::new(file) == path)
            .map(|(_, text)| text.to_string())
            .ok_or_else(|| "not found".to_string())
    }

    fn folders(&self, path: &Path) -> Vec<PathBuf> {
        let mut found: Vec<PathBuf> = self
            .0
            .iter()
            .filter_map(|(file, _)| {
                let rest = Path::new(file).strip_prefix(path).ok()?;
                let mut parts = rest.components();
                let first = parts.next()?;
                parts.next().map(|_| path.join(first))
            })
            .collect();
        found.sort();
        found.dedup();
        found
    }
}
