//! Blogs made with other tools, opened as they are: the tool a folder is
//! laid out for (or the one `hanji.toml` names), its layout, and the blog's
//! settings read from that tool's settings file. What each tool is and how
//! it is found is its own module's (`tool`); this puts it into a `Config`.

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::diagnostics::Diagnostic;
use crate::tool::{self, Kind, Setting, Settings};

pub use crate::tool::{Folder, is_settings_file};

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
        Some(kind) => {
            let files = tool::of(kind).settings_files();
            (kind, files.iter().map(PathBuf::from).find(|file| folder.is_file(file)))
        }
        None => tool::detect_kind(folder).unwrap_or_default(),
    };
    let tool = tool::of(kind);
    let mut layout = tool.layout();
    layout.settings_file = settings_file.clone();
    layout.chosen_by_setting = wanted.is_some();
    let mut config = Config { layout, ..Config::default() };
    let mut problems = Vec::new();
    config.posts_dir = tool.posts_dir_in(folder);
    config.permalink = tool.permalink_in(folder);
    tool.read_folder(folder, &mut config.layout);
    config.output_dir = tool.output_dir().into();
    if let Some(file) = settings_file {
        match folder.read(&file) {
            Ok(text) => {
                let settings = tool.settings(&file, text.trim_start_matches('\u{feff}'), &mut problems);
                apply(settings, &mut config, &file, &mut problems);
            }
            Err(reason) => problems.push(
                Diagnostic::error(&file, 1, 1, format!("cannot read the settings: {reason}"))
                    .with_hint("check the file's permissions; default settings are used meanwhile"),
            ),
        }
    }
    Detected { config, problems }
}

/// Puts what the tool's settings say into the blog's settings.
fn apply(settings: Settings, config: &mut Config, file: &Path, problems: &mut Vec<Diagnostic>) {
    let text = |setting: Option<Setting>| setting.map(|s| s.value).filter(|v| !v.trim().is_empty());
    if let Some(title) = text(settings.title) {
        config.title = title;
    }
    if let Some(description) = text(settings.description) {
        config.description = description;
    }
    if let Some(base_url) = text(settings.base_url) {
        config.base_url = base_url;
    }
    if let Some(author) = text(settings.author) {
        config.author = author;
    }
    if let Some(permalink) = text(settings.permalink) {
        config.permalink = Some(permalink);
    }
    config.layout.section_permalinks = settings.section_permalinks;
    config.layout.front_matter_defaults = settings.front_matter_defaults;
    for collection in &settings.collections {
        config.layout.pages_dirs.push(collection.folder());
    }
    config.layout.collections = settings.collections;
    if let Some(paths) = settings.zola_paths {
        config.layout.zola_paths = paths;
    }
    if let Some(keep) = settings.zola_keep_dates {
        config.layout.zola_keep_dates = keep;
    }
    if let Some(future) = settings.future_posts {
        config.layout.future_posts = future;
    }
    if let Some(expired) = settings.expired_posts {
        config.layout.expired_posts = expired;
    }
    if let Some(zone) = settings.time_zone.filter(|z| !z.value.trim().is_empty()) {
        if jiff::tz::TimeZone::get(zone.value.trim()).is_ok() {
            config.time_zone = Some(zone.value.trim().to_string());
        } else {
            let message = format!("`{}` is not a time zone: `{}`", zone.key, zone.value);
            let hint = "scheduled posts are judged in the computer's time zone; set `time_zone = \"Asia/Seoul\"` (or another IANA name) in hanji.toml";
            problems.push(Diagnostic::warning(file, zone.line, zone.column, message).with_hint(hint));
        }
    }
    if let Some(feed_file) = settings.feed_file.filter(|name| !name.is_empty() && !name.contains(['/', '\\'])) {
        config.layout.feed_file = feed_file;
    }
    if let Some(term_slugs) = settings.term_slugs {
        config.layout.term_slugs = term_slugs;
    }
    for theme in &settings.themes {
        config.layout.add_theme(theme);
    }
    if let Some(locale) = settings.locale.filter(|l| !l.value.trim().is_empty()) {
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

#[cfg(test)]
mod tests;
