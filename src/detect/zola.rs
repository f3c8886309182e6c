//! Zola: `config.toml` (told from Hugo's by Zola's required `base_url`), posts
//! anywhere under `content/` (its sections' `_index.md` are not posts), and
//! the site settings from its keys.

use super::{Settings, author, field, nested, setting, themes};
use std::path::PathBuf;

use super::Folder;
use crate::content::front_matter::{self, RawField};
use crate::layout::{CONTENT_DIR, ZolaSection};
use crate::slug::{TermSlugs, ZolaPaths};

pub(super) const SETTINGS: &[&str] = &["config.toml"];

/// Whether a `config.toml` is Zola's: it sets `base_url` before any table
/// (read line by line, so a file with a TOML error is still recognised).
pub(super) fn is_zola_settings(text: &str) -> bool {
    for line in text.lines() {
        let line = line.trim_start();
        if line.starts_with('[') {
            return false;
        }
        let key = line.split('=').next().unwrap_or("").trim().trim_matches(['"', '\'']);
        if line.contains('=') && key == "base_url" {
            return true;
        }
    }
    false
}

/// Every section of `content/` (a folder with an `_index.md`, `content/`
/// itself included) and how it lists its pages, from its `sort_by` and
/// `render`, which say which pages a theme shows as posts. At most ten
/// thousand folders are looked into.
pub(super) fn sections(folder: &dyn Folder) -> Vec<(PathBuf, ZolaSection)> {
    const MAX_FOLDERS: usize = 10_000;
    let mut sections = Vec::new();
    let mut queue = vec![PathBuf::from(CONTENT_DIR)];
    let mut seen = 0;
    while let Some(dir) = queue.pop() {
        seen += 1;
        if seen > MAX_FOLDERS {
            break;
        }
        let index = dir.join("_index.md");
        if let Ok(text) = folder.read(&index) {
            let document = front_matter::parse(text.trim_start_matches('\u{feff}')).ok();
            let key = |key: &str| document.as_ref().and_then(|d| d.front_matter.extra.get(key).cloned());
            let how = if key("render").and_then(|v| v.as_bool()) == Some(false) {
                ZolaSection::Hidden
            } else if matches!(key("sort_by").as_ref().and_then(|v| v.as_str()), Some("date" | "update_date")) {
                ZolaSection::ByDate
            } else {
                ZolaSection::Unsorted
            };
            sections.push((dir.clone(), how));
        }
        queue.extend(folder.folders(&dir));
    }
    sections.sort_by(|(a, _), (b, _)| a.cmp(b));
    sections
}

pub(super) fn settings(fields: &[RawField]) -> Settings {
    let extra = field(fields, "extra");
    Settings {
        title: field(fields, "title").and_then(setting),
        description: field(fields, "description").and_then(setting),
        base_url: field(fields, "base_url").and_then(setting),
        locale: field(fields, "default_language").and_then(setting),
        author: field(fields, "author").and_then(author).or_else(|| extra.and_then(|e| nested(e, "author"))),
        permalink: None,
        section_permalinks: Vec::new(),
        feed_file: field(fields, "feed_filename").and_then(setting).map(|s| s.value).or_else(|| {
            let names = field(fields, "feed_filenames")?;
            names.value.as_array()?.first()?.as_str().map(str::to_string)
        }),
        future_posts: None,
        time_zone: None,
        expired_posts: None,
        // `[slugify] taxonomies = "safe"` (or "off", taken as "safe").
        term_slugs: field(fields, "slugify")
            .and_then(|slugify| nested(slugify, "taxonomies"))
            .map(|strategy| if strategy.value == "on" { TermSlugs::Zola } else { TermSlugs::ZolaSafe }),
        front_matter_defaults: Vec::new(),
        zola_paths: field(fields, "slugify")
            .and_then(|slugify| nested(slugify, "paths"))
            .and_then(|strategy| ZolaPaths::of(&strategy.value)),
        zola_keep_dates: field(fields, "slugify")
            .and_then(|slugify| slugify.value.get("paths_keep_dates"))
            .and_then(serde_json::Value::as_bool),
        themes: field(fields, "theme").map(themes).unwrap_or_default(),
    }
}
