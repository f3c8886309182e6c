//! Zola: `config.toml` (told from Hugo's by Zola's required `base_url`), posts
//! anywhere under `content/` (its sections' `_index.md` are not posts), and
//! the site settings from its keys.

use super::{Settings, author, field, nested, setting, themes};
use crate::content::front_matter::RawField;
use crate::slug::TermSlugs;

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
        themes: field(fields, "theme").map(themes).unwrap_or_default(),
    }
}
