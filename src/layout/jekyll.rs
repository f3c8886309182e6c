//! Jekyll: `_config.yml`, posts in `_posts/` named `YYYY-MM-DD-slug.md` (the
//! date and slug come from the name), the top-level folders it copies as they
//! are, and the site settings (`url` and `baseurl` make the base URL).

use std::path::{Component, Path};

use jiff::civil::Date;

use super::{Setting, Settings, author, field, setting};
use crate::content::front_matter::RawField;

pub(super) const SETTINGS: &[&str] = &["_config.yml", "_config.yaml"];

pub(super) const POSTS_DIR: &str = "_posts";

/// The usual top-level folders of images and files, copied to the same
/// place in the site. (Jekyll copies every folder not starting with `_`;
/// these are the ones that hold what posts link to.)
pub(super) const STATIC_DIRS: &[&str] = &["assets", "images", "img", "files"];

/// A post's date and name from its file, when it is in a `_posts` folder:
/// `_posts/2026-07-17-hello-world.md` → (2026-07-17, `hello-world`).
pub fn dated_file_name(path: &Path) -> Option<(Date, &str)> {
    let in_posts = path.parent()?.components().any(|c| c == Component::Normal(POSTS_DIR.as_ref()));
    if !in_posts {
        return None;
    }
    let stem = path.file_stem()?.to_str()?;
    let mut parts = stem.splitn(4, '-');
    let (year, month, day, name) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let number = |text: &str, digits: std::ops::RangeInclusive<usize>| {
        (digits.contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit())).then(|| text.parse::<i16>().ok())?
    };
    let date = Date::new(number(year, 4..=4)?, number(month, 1..=2)? as i8, number(day, 1..=2)? as i8).ok()?;
    (!name.is_empty()).then_some((date, name))
}

/// A post's title from its name when the front matter has none, as Jekyll
/// makes it: `my-first-post` → `My First Post`.
pub fn title_from_name(name: &str) -> String {
    let words = name.split('-').filter(|w| !w.is_empty()).map(|word| {
        let mut chars = word.chars();
        chars.next().map(|first| first.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
    });
    words.collect::<Vec<_>>().join(" ")
}

/// Whether the post at `path` is a Jekyll post (it is in a `_posts` folder).
pub(crate) fn is_jekyll_post(path: &Path) -> bool {
    path.parent().is_some_and(|p| p.components().any(|c| c == Component::Normal(POSTS_DIR.as_ref())))
}

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
    }
}
