//! Jekyll's settings: `_config.yml`, where `url` and `baseurl` make the base
//! URL, and `defaults` gives posts and pages values by scope. (Its dated post names are `content::file`'s, its folders `layout`'s.)

use super::{Setting, Settings, author, field, setting};
use crate::content::front_matter::RawField;
use crate::defaults::DefaultSet;

pub(super) const SETTINGS: &[&str] = &["_config.yml", "_config.yaml"];

pub(super) fn settings(fields: &[RawField]) -> Settings {
    let url = field(fields, "url").and_then(setting);
    let base = field(fields, "baseurl").and_then(setting);
    let base_url = match (url, base) {
        (Some(url), Some(base)) => Some(Setting {
            value: format!("{}/{}", url.value.trim_end_matches('/'), base.value.trim_matches('/')),
            ..url
        }),
        (url, base) => url.or(base),
    };
    Settings {
        title: field(fields, "title").and_then(setting),
        description: field(fields, "description").and_then(setting),
        base_url,
        locale: field(fields, "lang").or_else(|| field(fields, "locale")).and_then(setting),
        author: field(fields, "author").and_then(author),
        permalink: field(fields, "permalink").and_then(setting),
        term_slugs: None,
        feed_file: None,
        time_zone: field(fields, "timezone").and_then(setting),
        future_posts: super::flag(fields, "future"),
        expired_posts: None,
        section_permalinks: Vec::new(),
        themes: Vec::new(),
        zola_paths: None,
        zola_keep_dates: None,
        front_matter_defaults: field(fields, "defaults")
            .and_then(|field| field.value.as_array())
            .map(|sets| sets.iter().filter_map(DefaultSet::read).collect())
            .unwrap_or_default(),
    }
}
