//! Blogs made with other tools, opened as they are: which tool a folder is
//! laid out for (Hugo, Zola, Jekyll, tailwind-nextjs-starter-blog, or Hanji's
//! own), where its posts are, and the site settings from that tool's settings
//! file. (The layout itself is `layout`'s; what its files are, `content::file`'s.)
//!
//! Detection asks about the folder through [`Folder`], which the loader
//! answers from the disk; every settings file is parsed from a string.

mod hugo;
mod jekyll;
mod next_starter;
mod zola;

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::config::Config;
use crate::content::front_matter::{self, Format, RawField};
use crate::diagnostics::Diagnostic;
use crate::layout::{CONTENT_DIR, JEKYLL_POSTS_DIR, Kind, Layout, OTHER_OUTPUT_DIR};

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

/// The settings files of every tool, the ones Hugo may keep in
/// `config/_default/` too: a change to any of them may change the layout.
pub fn is_settings_file(path: &Path) -> bool {
    [hugo::SETTINGS, zola::SETTINGS, jekyll::SETTINGS, next_starter::SETTINGS]
        .iter()
        .any(|files| files.iter().any(|file| path == Path::new(file)))
}

/// The layout and the settings found in a folder: the base that `hanji.toml`
/// is read over.
#[derive(Debug)]
pub struct Detected {
    pub config: Config,
    /// Problems with the tool's settings file.
    pub problems: Vec<Diagnostic>,
}

/// Finds how `folder` is laid out, or takes `wanted` (from `hanji.toml`), and
/// reads that tool's settings. A folder of no known tool is a Hanji blog.
pub fn detect(folder: &dyn Folder, wanted: Option<Kind>) -> Detected {
    let (kind, settings_file) = match wanted {
        Some(kind) => (kind, settings_files(kind).iter().map(PathBuf::from).find(|file| folder.is_file(file))),
        None => detect_kind(folder).unwrap_or((Kind::Hanji, None)),
    };
    let mut layout = Layout::of(kind);
    layout.settings_file = settings_file.clone();
    layout.chosen_by_setting = wanted.is_some();
    let mut config = Config { layout, ..Config::default() };
    let mut problems = Vec::new();
    if kind == Kind::Hanji {
        return Detected { config, problems };
    }
    config.posts_dir = posts_dir(kind);
    if kind == Kind::Zola {
        config.layout.zola_sections = zola::sections(folder);
    }
    if kind == Kind::NextStarter {
        let v1 = folder.read(Path::new(next_starter::V1_SLUGS)).ok();
        config.layout.starter_strips_dates = v1.as_deref().is_some_and(next_starter::v1_strips_dates);
    }
    if kind == Kind::Hugo {
        // Hugo publishes every section; new posts go to the posts' section.
        let section = hugo::POSTS_DIRS.iter().map(PathBuf::from).find(|dir| folder.is_dir(dir));
        config.layout.new_posts_dir = Some(section.unwrap_or_else(|| hugo::POSTS_DIRS[0].into()));
    }
    config.output_dir = OTHER_OUTPUT_DIR.into();
    if let Some(file) = settings_file {
        match folder.read(&file) {
            Ok(text) => {
                let settings = read_settings(kind, &file, text.trim_start_matches('\u{feff}'), &mut problems);
                settings.apply(&mut config, &file, &mut problems);
            }
            Err(reason) => problems.push(
                Diagnostic::error(&file, 1, 1, format!("cannot read the settings: {reason}"))
                    .with_hint("check the file's permissions; default settings are used meanwhile"),
            ),
        }
    }
    Detected { config, problems }
}

/// The settings files a kind of blog may have, preferred first.
fn settings_files(kind: Kind) -> &'static [&'static str] {
    match kind {
        Kind::Hanji => &[],
        Kind::Hugo => hugo::SETTINGS,
        Kind::Zola => zola::SETTINGS,
        Kind::Jekyll => jekyll::SETTINGS,
        Kind::NextStarter => next_starter::SETTINGS,
    }
}

/// The tool a folder is laid out for, from the files only that tool has. A
/// `config.toml` is Zola's when it sets Zola's required `base_url`, else Hugo's.
fn detect_kind(folder: &dyn Folder) -> Option<(Kind, Option<PathBuf>)> {
    let first = |files: &[&str]| files.iter().map(PathBuf::from).find(|file| folder.is_file(file));
    if let Some(file) = first(next_starter::SETTINGS) {
        return Some((Kind::NextStarter, Some(file)));
    }
    if let Some(file) = first(hugo::OWN_SETTINGS) {
        return Some((Kind::Hugo, Some(file)));
    }
    if let Some(file) = first(jekyll::SETTINGS) {
        return Some((Kind::Jekyll, Some(file)));
    }
    if folder.is_dir(Path::new(JEKYLL_POSTS_DIR)) {
        return Some((Kind::Jekyll, None));
    }
    if !folder.is_dir(Path::new(CONTENT_DIR)) {
        return None;
    }
    let shared = Path::new("config.toml");
    if folder.is_file(shared) {
        let text = folder.read(shared).unwrap_or_default();
        let kind = if zola::is_zola_settings(&text) { Kind::Zola } else { Kind::Hugo };
        return Some((kind, Some(shared.into())));
    }
    first(hugo::YAML_SETTINGS).map(|file| (Kind::Hugo, Some(file)))
}

fn posts_dir(kind: Kind) -> PathBuf {
    match kind {
        Kind::Hanji => Config::default().posts_dir,
        Kind::Hugo | Kind::Zola => CONTENT_DIR.into(),
        Kind::Jekyll => JEKYLL_POSTS_DIR.into(),
        Kind::NextStarter => next_starter::POSTS_DIR.into(),
    }
}

fn read_settings(kind: Kind, file: &Path, text: &str, problems: &mut Vec<Diagnostic>) -> Settings {
    if kind == Kind::NextStarter {
        let (settings, found) = next_starter::settings(text);
        problems.extend(found.into_iter().map(|problem| problem.in_file(file)));
        return settings;
    }
    let format = if file.extension().is_some_and(|e| e == "toml") { Format::Toml } else { Format::Yaml };
    let fields = match front_matter::read_fields(text, format) {
        Ok((fields, warnings)) => {
            problems.extend(warnings.into_iter().map(|problem| problem.in_file(file)));
            fields
        }
        Err(problem) => {
            let name = file.display();
            let problem = problem.with_hint(format!(
                "fix {name} as {} would need it; Hanji's default settings are used meanwhile",
                kind.name()
            ));
            problems.push(problem.in_file(file));
            return Settings::default();
        }
    };
    match kind {
        Kind::Hugo => hugo::settings(&fields),
        Kind::Zola => zola::settings(&fields),
        Kind::Jekyll => jekyll::settings(&fields),
        Kind::Hanji | Kind::NextStarter => Settings::default(),
    }
}

/// A value in a tool's settings, with where its key is, to point at it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Setting {
    pub value: String,
    pub line: usize,
    pub column: usize,
    /// The tool's name for it (`languageCode`).
    pub key: String,
}

/// The site settings another tool's settings file gives.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Settings {
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
}

impl Settings {
    fn apply(self, config: &mut Config, file: &Path, problems: &mut Vec<Diagnostic>) {
        let text = |setting: Option<Setting>| setting.map(|s| s.value).filter(|v| !v.trim().is_empty());
        if let Some(title) = text(self.title) {
            config.title = title;
        }
        if let Some(description) = text(self.description) {
            config.description = description;
        }
        if let Some(base_url) = text(self.base_url) {
            config.base_url = base_url;
        }
        if let Some(author) = text(self.author) {
            config.author = author;
        }
        if let Some(permalink) = text(self.permalink) {
            config.permalink = Some(permalink);
        }
        config.layout.section_permalinks = self.section_permalinks;
        config.layout.front_matter_defaults = self.front_matter_defaults;
        if let Some(paths) = self.zola_paths {
            config.layout.zola_paths = paths;
        }
        if let Some(keep) = self.zola_keep_dates {
            config.layout.zola_keep_dates = keep;
        }
        if let Some(future) = self.future_posts {
            config.layout.future_posts = future;
        }
        if let Some(expired) = self.expired_posts {
            config.layout.expired_posts = expired;
        }
        if let Some(zone) = self.time_zone.filter(|z| !z.value.trim().is_empty()) {
            if jiff::tz::TimeZone::get(zone.value.trim()).is_ok() {
                config.time_zone = Some(zone.value.trim().to_string());
            } else {
                let message = format!("`{}` is not a time zone: `{}`", zone.key, zone.value);
                let hint = "scheduled posts are judged in the computer's time zone; set `time_zone = \"Asia/Seoul\"` (or another IANA name) in hanji.toml";
                problems.push(Diagnostic::warning(file, zone.line, zone.column, message).with_hint(hint));
            }
        }
        if let Some(feed_file) = self.feed_file.filter(|name| !name.is_empty() && !name.contains(['/', '\\'])) {
            config.layout.feed_file = feed_file;
        }
        if let Some(term_slugs) = self.term_slugs {
            config.layout.term_slugs = term_slugs;
        }
        for theme in &self.themes {
            config.layout.add_theme(theme);
        }
        if let Some(locale) = self.locale.filter(|l| !l.value.trim().is_empty()) {
            let normalized = normalize_locale(locale.value.trim());
            if crate::config::is_language_tag(&normalized) {
                config.locale = normalized;
            } else {
                problems.push(
                    Diagnostic::warning(
                        file,
                        locale.line,
                        locale.column,
                        format!("`{}` is not a locale: `{}`", locale.key, locale.value),
                    )
                    .with_hint(format!(
                        "dates are written for {}; set `locale = \"ko-KR\"` (or another BCP 47 tag) in hanji.toml",
                        config.locale
                    )),
                );
            }
        }
    }
}

/// `en-us` → `en-US`, `en_GB` → `en-GB`, `zh-hant-tw` → `zh-Hant-TW`.
fn normalize_locale(tag: &str) -> String {
    let parts: Vec<String> = tag
        .split(['-', '_'])
        .enumerate()
        .map(|(index, part)| match (index, part.len()) {
            (0, _) => part.to_ascii_lowercase(),
            (_, 2) => part.to_ascii_uppercase(),
            (_, 4) => {
                let lower = part.to_ascii_lowercase();
                let (first, rest) = lower.split_at(1);
                format!("{}{rest}", first.to_ascii_uppercase())
            }
            _ => part.to_string(),
        })
        .collect();
    parts.join("-")
}

/// The top-level field `key` (any case: Hugo's keys are case-insensitive).
fn field<'a>(fields: &'a [RawField], key: &str) -> Option<&'a RawField> {
    fields.iter().find(|field| field.key.eq_ignore_ascii_case(key))
}

/// A field's value as a setting, if it is text (or a number).
fn setting(field: &RawField) -> Option<Setting> {
    setting_at(field, &field.value, &field.key)
}

/// `value` (found under `field`) as a setting named `key`.
fn setting_at(field: &RawField, value: &Value, key: &str) -> Option<Setting> {
    let value = match value {
        Value::String(text) => text.clone(),
        Value::Number(number) => number.to_string(),
        _ => return None,
    };
    Some(Setting { value, line: field.line, column: field.column, key: key.to_string() })
}

/// `key` inside the mapping of `field` (Hugo's `[params] description`).
fn nested(field: &RawField, key: &str) -> Option<Setting> {
    let Value::Object(map) = &field.value else { return None };
    let value = map.iter().find(|(k, _)| k.eq_ignore_ascii_case(key)).map(|(_, v)| v)?;
    setting_at(field, value, &format!("{}.{key}", field.key))
}

/// A setting that is `true` or `false`.
fn flag(fields: &[RawField], key: &str) -> Option<bool> {
    field(fields, key).and_then(|field| field.value.as_bool())
}

/// The theme names of `theme = "a"` or `theme = ["a", "b"]`.
fn themes(field: &RawField) -> Vec<String> {
    match &field.value {
        Value::String(name) => vec![name.clone()],
        Value::Array(names) => names.iter().filter_map(|n| n.as_str().map(str::to_string)).collect(),
        _ => Vec::new(),
    }
}

/// An author given as a name or as `{name: …}`.
fn author(field: &RawField) -> Option<Setting> {
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

#[cfg(test)]
mod tests;
