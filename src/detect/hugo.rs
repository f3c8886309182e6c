//! Hugo: its settings files (`hugo.toml`, the older `config.toml`, YAML, or
//! `config/_default/`), where posts are (`content/posts`, `content/post`,
//! `content/blog`), and the site settings read from its keys, which Hugo
//! matches in any case (`baseURL`, `baseurl`).

use super::{Settings, author, field, nested, setting, themes};
use crate::content::front_matter::RawField;
use crate::slug::{HugoPaths, TermSlugs};

/// The settings files only Hugo has.
pub(super) const OWN_SETTINGS: &[&str] = &[
    "hugo.toml",
    "hugo.yaml",
    "hugo.yml",
    "config/_default/hugo.toml",
    "config/_default/hugo.yaml",
    "config/_default/config.toml",
    "config/_default/config.yaml",
];

/// YAML settings under the older name; Zola's settings are never YAML.
pub(super) const YAML_SETTINGS: &[&str] = &["config.yaml", "config.yml"];

/// Every file Hugo reads its settings from, preferred first.
pub(super) const SETTINGS: &[&str] = &[
    "hugo.toml",
    "hugo.yaml",
    "hugo.yml",
    "config/_default/hugo.toml",
    "config/_default/hugo.yaml",
    "config/_default/config.toml",
    "config/_default/config.yaml",
    "config.toml",
    "config.yaml",
    "config.yml",
];

/// The section folders where a Hugo blog's new posts go, the first found
/// wins (Hugo publishes every section, and Hanji reads them all).
pub(super) const POSTS_DIRS: &[&str] = &["content/posts", "content/post", "content/blog"];

pub(super) fn settings(fields: &[RawField]) -> Settings {
    let params = field(fields, "params");
    Settings {
        title: field(fields, "title").and_then(setting),
        description: params
            .and_then(|p| nested(p, "description"))
            .or_else(|| field(fields, "description").and_then(setting)),
        base_url: field(fields, "baseURL").and_then(setting),
        // `locale` (Hugo 0.158+) over the older `languageCode` it replaces
        // (allconfig.Config.CompileConfig's "Legacy language values").
        locale: field(fields, "locale")
            .or_else(|| field(fields, "languageCode"))
            .or_else(|| field(fields, "defaultContentLanguage"))
            .and_then(setting),
        author: params
            .and_then(|p| nested(p, "author"))
            .or_else(|| params.and_then(author_in))
            .or_else(|| field(fields, "author").and_then(author)),
        permalink: None,
        term_slugs: super::flag(fields, "removePathAccents")
            .map(|remove_accents| TermSlugs::Hugo(HugoPaths { remove_accents })),
        feed_file: None,
        time_zone: field(fields, "timeZone").and_then(setting),
        future_posts: super::flag(fields, "buildFuture"),
        expired_posts: super::flag(fields, "buildExpired"),
        section_permalinks: field(fields, "permalinks").map(section_permalinks).unwrap_or_default(),
        zola_paths: None,
        zola_keep_dates: None,
        front_matter_defaults: Vec::new(),
        themes: field(fields, "theme").map(themes).unwrap_or_default(),
    }
}

/// `[permalinks] posts = "/:year/:slug/"`, or the same under `page`.
fn section_permalinks(field: &RawField) -> Vec<(String, String)> {
    let serde_json::Value::Object(map) = &field.value else { return Vec::new() };
    let map = match map.get("page") {
        Some(serde_json::Value::Object(page)) => page,
        _ => map,
    };
    map.iter().filter_map(|(section, pattern)| Some((section.clone(), pattern.as_str()?.to_string()))).collect()
}

/// `[params.author] name = "…"`.
fn author_in(params: &RawField) -> Option<super::Setting> {
    let serde_json::Value::Object(map) = &params.value else { return None };
    let value = map.iter().find(|(k, _)| k.eq_ignore_ascii_case("author")).map(|(_, v)| v)?;
    let serde_json::Value::Object(author) = value else { return None };
    let name = author.iter().find(|(k, _)| k.eq_ignore_ascii_case("name")).map(|(_, v)| v)?;
    super::setting_at(params, name, "params.author.name")
}
