//! Zola: `config.toml` (told from Hugo's by Zola's required `base_url`) and
//! the site settings from its keys; pages anywhere under `content/`, its
//! sections' `_index.md` saying which of them a theme lists as posts;
//! dated file names; slugs by `[slugify]`; addresses by `path` or folders;
//! shortcodes in `templates/shortcodes/`; future posts published.

use std::path::{Path, PathBuf};

use jiff::civil::Date;

use super::address::{folder_of, own_url};
use super::settings::{author, field, nested, setting, themes};
use super::{
    Addressing, CONTENT_DIR, Folder, Kind, Layout, PostFacts, PostFile, Settings, Syntax, Tool, ZOLA_SHORTCODES_DIR,
    ZOLA_TEMPLATES_DIR, ZolaSection, is_section,
};
use crate::diagnostics::Diagnostic;
use crate::front_matter::{self, RawField};
use crate::slug::{TermSlugs, ZolaPaths};

pub(super) struct Zola;

impl Tool for Zola {
    fn kind(&self) -> Kind {
        Kind::Zola
    }

    fn settings_files(&self) -> &'static [&'static str] {
        SETTINGS
    }

    /// A `content/` folder and a `config.toml` that sets `base_url`.
    fn claims(&self, folder: &dyn Folder) -> Option<Option<PathBuf>> {
        let file = Path::new(SETTINGS[0]);
        let zola = folder.is_dir(Path::new(CONTENT_DIR))
            && folder.is_file(file)
            && is_zola_settings(&folder.read(file).unwrap_or_default());
        zola.then(|| Some(file.into()))
    }

    fn posts_dir(&self) -> PathBuf {
        CONTENT_DIR.into()
    }

    /// Zola's `templates/` are its own; Hanji's overrides are beside them.
    fn layout(&self) -> Layout {
        Layout {
            templates_dir: ZOLA_TEMPLATES_DIR.into(),
            shortcode_dirs: vec![ZOLA_SHORTCODES_DIR.into()],
            term_slugs: TermSlugs::Zola,
            future_posts: true,
            feed_file: "atom.xml".into(),
            ..Layout::base(Kind::Zola)
        }
    }

    fn read_folder(&self, folder: &dyn Folder, layout: &mut Layout) {
        layout.zola_sections = sections(folder);
    }

    fn settings(&self, file: &Path, text: &str, problems: &mut Vec<Diagnostic>) -> Settings {
        super::settings::fields(self.kind(), file, text, problems).map(|fields| settings(&fields)).unwrap_or_default()
    }

    fn template_syntax(&self) -> Syntax {
        Syntax::Zola
    }

    /// A page of a section with `render = false`; none of a section sorted
    /// by date (its undated pages are: `is_page_by_front_matter`); else one
    /// at the top of `content/`, outside every section.
    fn is_page(&self, layout: &Layout, path: &Path) -> bool {
        let folder = folder_of(path);
        match layout.zola_section(folder) {
            Some(ZolaSection::Hidden) => true,
            Some(ZolaSection::ByDate) => false,
            Some(ZolaSection::Unsorted) | None => folder == Path::new(CONTENT_DIR),
        }
    }

    /// A section's `_index.md` says whether its pages are posts (`sort_by`).
    fn is_listing_setting(&self, path: &Path) -> bool {
        is_section(path) && path.starts_with(CONTENT_DIR)
    }

    fn shortcode_dirs(&self) -> &'static [&'static str] {
        &[ZOLA_SHORTCODES_DIR]
    }

    /// `note.html` or `note.md` is `note`; none in a subfolder.
    fn shortcode_name(&self, below: &str) -> Option<String> {
        let name = below.strip_suffix(".html").or_else(|| below.strip_suffix(".md"));
        name.filter(|n| !n.contains(['.', '/'])).map(str::to_string)
    }

    /// A page's slug and date from its name, as Zola's `Page::parse` makes
    /// them: a file (or bundle folder) named after a date, `2024-05-01-intro.md`
    /// or `2024-05-01_intro.md` (Zola's `RFC3339_DATE`), is dated by it, and
    /// its slug is the rest (unless `paths_keep_dates`); the front matter's
    /// `slug` wins; either is made a slug by `[slugify] paths`.
    fn named(&self, layout: &Layout, path: &Path, slug: Option<&str>) -> Option<(String, Option<Date>)> {
        let name = PostFile::new(path).name();
        let dated = dated(&name);
        let written = match (slug, dated) {
            (Some(own), _) => own.to_string(),
            (None, Some((_, rest))) if !layout.zola_keep_dates => rest.to_string(),
            _ => name.clone(),
        };
        Some((layout.zola_paths.slug(&written), dated.map(|(date, _)| date)))
    }

    /// A page that names its own `template`, or has no date in a section
    /// sorted by date, which Zola leaves out of the section's list
    /// (`Section::ignored_pages`).
    fn is_page_by_front_matter(&self, layout: &Layout, post: &PostFacts) -> bool {
        post.extra.contains_key("template")
            || (post.date.is_none() && layout.zola_section(folder_of(post.path)) == Some(ZolaSection::ByDate))
    }

    /// A page's own `path`, else its folders under `content/` and its slug.
    fn address(&self, _at: &Addressing, post: &PostFacts) -> String {
        post.text("path").and_then(own_url).unwrap_or_else(|| super::hugo::slugged_in_content(post))
    }
}

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

/// The date and the rest of a name that starts with one, as Zola's
/// `RFC3339_DATE` reads it: `YYYY-MM-DD`, an optional RFC 3339 time
/// (`T10:00:00Z`, `T10:00:00+09:00`), an optional space, then `_` or `-`
/// and at least one more character.
fn dated(name: &str) -> Option<(Date, &str)> {
    let bytes = name.as_bytes();
    let digits =
        |range: std::ops::Range<usize>| bytes.get(range.clone()).is_some_and(|b| b.iter().all(u8::is_ascii_digit));
    if !(digits(0..4) && bytes.get(4) == Some(&b'-') && digits(5..7) && bytes.get(7) == Some(&b'-') && digits(8..10)) {
        return None;
    }
    let date: Date = name[..10].parse().ok()?;
    let mut rest = &name[10..];
    if let Some(time) = rest.strip_prefix('T') {
        // HH:MM:SS, a fraction, then Z or ±HH:MM.
        let end = time.find(['Z', '+', '-']).filter(|&at| at >= 8)?;
        let zone = if time[end..].starts_with('Z') { 1 } else { 6 };
        time.get(end..end + zone)?;
        rest = &time[end + zone..];
    }
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    let rest = rest.strip_prefix(['_', '-'])?;
    (!rest.is_empty()).then_some((date, rest))
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
        collections: Vec::new(),
        zola_paths: field(fields, "slugify")
            .and_then(|slugify| nested(slugify, "paths"))
            .and_then(|strategy| ZolaPaths::of(&strategy.value)),
        zola_keep_dates: field(fields, "slugify")
            .and_then(|slugify| slugify.value.get("paths_keep_dates"))
            .and_then(serde_json::Value::as_bool),
        themes: field(fields, "theme").map(themes).unwrap_or_default(),
    }
}
