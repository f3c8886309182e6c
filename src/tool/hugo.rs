//! Hugo: its settings files (`hugo.toml`, the older `config.toml`, YAML, or
//! `config/_default/`) and the site settings read from its keys, which Hugo
//! matches in any case (`baseURL`, `baseurl`); posts in every section of
//! `content/` and pages at its top; shortcodes in `layouts/shortcodes/`;
//! expired posts held back; addresses by `url`, `[permalinks]` or the
//! post's folders, tags by Hugo's own slugs.

use std::path::{Path, PathBuf};

use super::address::{date_values, fill, folder_of, own_url, slugged_folders};
use super::settings::{author, field, nested, setting, themes};
use super::{
    Addressing, CONTENT_DIR, Folder, HUGO_SHORTCODES_DIR, Kind, Layout, PostFacts, PostFile, Settings, Syntax, Tool,
};
use crate::diagnostics::Diagnostic;
use crate::front_matter::RawField;
use crate::slug::TermSlugs;

pub(super) struct Hugo;

impl Tool for Hugo {
    fn kind(&self) -> Kind {
        Kind::Hugo
    }

    fn settings_files(&self) -> &'static [&'static str] {
        SETTINGS
    }

    fn claims(&self, folder: &dyn Folder) -> Option<Option<PathBuf>> {
        OWN_SETTINGS.iter().map(PathBuf::from).find(|file| folder.is_file(file)).map(Some)
    }

    /// A `content/` folder with an older `config.toml` (one that is not
    /// Zola's) or a YAML one.
    fn may_claim(&self, folder: &dyn Folder) -> Option<Option<PathBuf>> {
        if !folder.is_dir(Path::new(CONTENT_DIR)) {
            return None;
        }
        let shared = Path::new("config.toml");
        if folder.is_file(shared) {
            return Some(Some(shared.into()));
        }
        YAML_SETTINGS.iter().map(PathBuf::from).find(|file| folder.is_file(file)).map(Some)
    }

    /// Every section of `content/`, as Hugo publishes them.
    fn posts_dir(&self) -> PathBuf {
        CONTENT_DIR.into()
    }

    fn layout(&self) -> Layout {
        Layout {
            shortcode_dirs: vec![HUGO_SHORTCODES_DIR.into()],
            term_slugs: TermSlugs::Hugo,
            feed_file: "index.xml".into(),
            ..Layout::base(Kind::Hugo)
        }
    }

    /// New posts go to the posts' section, the first of `POSTS_DIRS` found.
    fn read_folder(&self, folder: &dyn Folder, layout: &mut Layout) {
        let section = POSTS_DIRS.iter().map(PathBuf::from).find(|dir| folder.is_dir(dir));
        layout.new_posts_dir = Some(section.unwrap_or_else(|| POSTS_DIRS[0].into()));
    }

    fn settings(&self, file: &Path, text: &str, problems: &mut Vec<Diagnostic>) -> Settings {
        super::settings::fields(self.kind(), file, text, problems).map(|fields| settings(&fields)).unwrap_or_default()
    }

    fn publishes_every_section_of(&self) -> Option<&'static str> {
        Some(CONTENT_DIR)
    }

    fn template_syntax(&self) -> Syntax {
        Syntax::Hugo
    }

    /// A file at the top of `content/`, outside every section
    /// (`content/about.md`, `content/about/index.md`), is a page.
    fn is_page(&self, _layout: &Layout, path: &Path) -> bool {
        folder_of(path) == Path::new(CONTENT_DIR)
    }

    fn shortcode_dir(&self) -> Option<&'static str> {
        Some(HUGO_SHORTCODES_DIR)
    }

    /// `note.html` is `note`, `sub/note.html` is `sub/note`; `note.amp.html`
    /// is another output format's, none.
    fn shortcode_name(&self, below: &str) -> Option<String> {
        below.strip_suffix(".html").filter(|n| !n.contains('.')).map(str::to_string)
    }

    /// `expiryDate` passed: held back unless `buildExpired`.
    fn holds_expired(&self, layout: &Layout) -> bool {
        !layout.expired_posts
    }

    /// A post's own `url` wins, then its section's `[permalinks]` (or
    /// `permalink` in hanji.toml; pages are in no section), then its folders
    /// under `content/` and its slug (`content/posts/2024/a.md` → `posts/2024/a/`).
    fn address(&self, at: &Addressing, post: &PostFacts) -> String {
        let own = post.text("url").and_then(own_url);
        let section = post.path.components().nth(1).map(|c| c.as_os_str().to_string_lossy());
        let of_section =
            at.layout.section_permalinks.iter().find(|(name, _)| Some(name.as_str()) == section.as_deref());
        let pattern = at.permalink.or(of_section.map(|(_, pattern)| pattern.as_str()));
        let by_pattern = || pattern.filter(|_| !post.page).and_then(|pattern| permalink(pattern, post));
        own.or_else(by_pattern).unwrap_or_else(|| in_content(post))
    }
}

/// A post's folders under `content/` and its slug, as Hugo and Zola place a
/// page without a pattern.
pub(super) fn in_content(post: &PostFacts) -> String {
    let folder = folder_of(post.path);
    format!("{}{}/", slugged_folders(folder.strip_prefix(CONTENT_DIR).unwrap_or(Path::new(""))), post.slug)
}

/// A post's address by a Hugo `[permalinks]` pattern (`resources/page/permalinks.go`):
/// `:year`, `:month`, `:day`, `:slug` (the front matter's `slug`, else the
/// title made a slug), `:title` (the title made a slug), `:filename` and
/// `:contentbasename` (the file's name, a bundle's folder), `:slugorfilename`,
/// `:slugorcontentbasename`, `:section` and `:sections` (the top section: a
/// deeper folder is a section in Hugo only with an `_index.md`, which Hanji
/// does not read here). None for a pattern that needs a date the post has not.
fn permalink(pattern: &str, post: &PostFacts) -> Option<String> {
    let date = post.date;
    if ["year", "month", "day"].iter().any(|p| pattern.contains(&format!(":{p}"))) && date.is_none() {
        return None;
    }
    let file = PostFile::new(post.path);
    let title = crate::slug::slug(post.title);
    let from_front_matter = post.slug != file.slug();
    let section = post.path.components().nth(1).map(|c| c.as_os_str().to_string_lossy().into_owned());
    let slug_or_name = if from_front_matter { post.slug.to_string() } else { file.slug() };
    // Longest names first: `:slugorfilename` before `:slug`, `:sections` before `:section`.
    let mut values: Vec<(&str, String)> = vec![
        (":slugorcontentbasename", slug_or_name.clone()),
        (":slugorfilename", slug_or_name),
        (":contentbasename", file.slug()),
        (":filename", file.slug()),
        (":sections", section.clone().unwrap_or_default()),
        (":section", section.unwrap_or_default()),
    ];
    values.extend(date_values(date));
    values
        .extend([(":slug", if from_front_matter { post.slug.to_string() } else { title.clone() }), (":title", title)]);
    own_url(&fill(pattern, &values))
}

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
        locale: field(fields, "languageCode").or_else(|| field(fields, "defaultContentLanguage")).and_then(setting),
        author: params
            .and_then(|p| nested(p, "author"))
            .or_else(|| params.and_then(author_in))
            .or_else(|| field(fields, "author").and_then(author)),
        permalink: None,
        term_slugs: None,
        feed_file: None,
        time_zone: field(fields, "timeZone").and_then(setting),
        future_posts: super::settings::flag(fields, "buildFuture"),
        expired_posts: super::settings::flag(fields, "buildExpired"),
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
    super::settings::setting_at(params, name, "params.author.name")
}
