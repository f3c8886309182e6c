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
    Addressing, CONTENT_DIR, Folder, HUGO_SHORTCODES_DIRS, Kind, Layout, PostFacts, PostFile, Settings, Syntax, Tool,
};
use crate::diagnostics::Diagnostic;
use crate::front_matter::RawField;
use crate::slug::{HugoPaths, TermSlugs};

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
            shortcode_dirs: HUGO_SHORTCODES_DIRS.iter().map(PathBuf::from).collect(),
            term_slugs: TermSlugs::Hugo(HugoPaths::default()),
            feed_file: "index.xml".into(),
            ..Layout::base(Kind::Hugo)
        }
    }

    /// New posts go to the posts' section, the first of `POSTS_DIRS` found;
    /// the blog's own home template says whether the top pages are posts.
    fn read_folder(&self, folder: &dyn Folder, layout: &mut Layout) {
        let section = POSTS_DIRS.iter().map(PathBuf::from).find(|dir| folder.is_dir(dir));
        layout.new_posts_dir = Some(section.unwrap_or_else(|| POSTS_DIRS[0].into()));
        let home = HOME_TEMPLATES.iter().find_map(|file| folder.read(Path::new(file)).ok());
        layout.hugo_home_lists_top_pages = home.as_deref().is_some_and(home_lists_top_pages);
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
    /// (`content/about.md`, `content/about/index.md`), is a page, unless
    /// the blog's own home lists it with the posts.
    fn is_page(&self, layout: &Layout, path: &Path) -> bool {
        !layout.hugo_home_lists_top_pages && folder_of(path) == Path::new(CONTENT_DIR)
    }

    fn shortcode_dirs(&self) -> &'static [&'static str] {
        HUGO_SHORTCODES_DIRS
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
        let paths = at.layout.hugo_paths();
        let by_pattern = || pattern.filter(|_| !post.page).and_then(|pattern| permalink(pattern, post, paths));
        // A slug of the front matter is the page's name as it is given
        // (createTargetPathDescriptor's BaseName); the file's name is read
        // as a content path.
        let own_slug = post.own_slug.then(|| paths.sanitized(post.slug));
        own.or_else(by_pattern).unwrap_or_else(|| in_content(post.path, own_slug, paths))
    }
}

/// A post's folders under `content/` and its slug, as Zola places a page
/// without a pattern.
pub(super) fn slugged_in_content(post: &PostFacts) -> String {
    let folder = folder_of(post.path);
    format!("{}{}/", slugged_folders(folder.strip_prefix(CONTENT_DIR).unwrap_or(Path::new(""))), post.slug)
}

/// Where a Hugo page is without a `url` or a permalink pattern: its folders
/// under `content/` and its name, each read as a content path (Hugo's
/// `PathParser.Parse`, then `pagePathBuilder.Sanitize`): `content/posts/2024/
/// C++ & Rust.md` → `posts/2024/c++--rust/`; a bundle's name is its folder's;
/// `slug`, a front matter slug already made a path, takes the name's place.
fn in_content(file: &Path, slug: Option<String>, paths: HugoPaths) -> String {
    let post_file = PostFile::new(file);
    let folders: String = folder_of(file)
        .strip_prefix(CONTENT_DIR)
        .unwrap_or(Path::new(""))
        .components()
        .map(|c| paths.of_content(&c.as_os_str().to_string_lossy()))
        .filter(|part| !part.is_empty())
        .map(|part| format!("{part}/"))
        .collect();
    // A name Hugo empties (`!!.md`) would be its section's own page: Hanji
    // keeps the file's slug, so that every post has an address of its own.
    let name = slug.unwrap_or_else(|| paths.of_content(&post_file.name()));
    let name = if name.trim_matches(['-', '/']).is_empty() { post_file.slug() } else { name };
    format!("{folders}{name}/")
}

/// A post's address by a Hugo `[permalinks]` pattern, as Hugo's
/// `PermalinkExpander` (resources/page/permalinks.go) fills it: `:year`,
/// `:month`, `:day`; `:title` (`pageToPermalinkTitle`: the title through
/// `urlize`); `:slug` (the front matter's `slug`, else `:title`);
/// `:filename` and `:contentbasename` (the file's name as written, a
/// bundle's folder's); `:slugorfilename`, `:slugorcontentbasename`;
/// `:section` and `:sections` (the top section: a deeper folder is a
/// section in Hugo only with an `_index.md`, which Hanji does not read
/// here). Each value is `urlize`d (`PathSpec.URLize`: `HugoPaths::sanitized`),
/// and the whole address is again (`pagePathBuilder.Sanitize`). None for a
/// pattern that needs a date the post has not.
fn permalink(pattern: &str, post: &PostFacts, paths: HugoPaths) -> Option<String> {
    let date = post.date;
    if ["year", "month", "day"].iter().any(|p| pattern.contains(&format!(":{p}"))) && date.is_none() {
        return None;
    }
    let file = PostFile::new(post.path);
    let urlize = |text: &str| paths.sanitized(text);
    let title = urlize(post.title);
    let name = urlize(&file.name());
    let own_slug = post.own_slug.then(|| urlize(post.slug));
    let section = post.path.components().nth(1).map(|c| paths.of_content(&c.as_os_str().to_string_lossy()));
    let slug_or_name = own_slug.clone().unwrap_or_else(|| name.clone());
    // Longest names first: `:slugorfilename` before `:slug`, `:sections` before `:section`.
    let mut values: Vec<(&str, String)> = vec![
        (":slugorcontentbasename", slug_or_name.clone()),
        (":slugorfilename", slug_or_name),
        (":contentbasename", name.clone()),
        (":filename", name),
        (":sections", section.clone().unwrap_or_default()),
        (":section", section.unwrap_or_default()),
    ];
    values.extend(date_values(date));
    values.extend([(":slug", own_slug.unwrap_or_else(|| title.clone())), (":title", title)]);
    own_url(&paths.sanitized(&fill(pattern, &values)))
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
        term_slugs: super::settings::flag(fields, "removePathAccents")
            .map(|remove_accents| TermSlugs::Hugo(HugoPaths { remove_accents })),
        feed_file: None,
        time_zone: field(fields, "timeZone").and_then(setting),
        future_posts: super::settings::flag(fields, "buildFuture"),
        expired_posts: super::settings::flag(fields, "buildExpired"),
        section_permalinks: field(fields, "permalinks").map(section_permalinks).unwrap_or_default(),
        zola_paths: None,
        zola_keep_dates: None,
        front_matter_defaults: Vec::new(),
        collections: Vec::new(),
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

/// The blog's own templates Hugo makes its home page with, first found
/// first (the documented lookup order for the home page: `index.html`,
/// `home.html`, `list.html`, then the same in `_default/`). A theme's are
/// not read.
const HOME_TEMPLATES: &[&str] = &[
    "layouts/index.html",
    "layouts/home.html",
    "layouts/list.html",
    "layouts/_default/index.html",
    "layouts/_default/home.html",
    "layouts/_default/list.html",
];

/// Whether a home template lists the pages at the top of `content/`: its
/// first `range` goes over the home's own pages unfiltered
/// (`.Paginator.Pages`, with no `.Paginate` of a chosen list; on the home
/// page those are the top pages and sections) or over every regular page
/// (`.Site.RegularPages`, `site.RegularPages`). Read, never run; a `where`
/// or a `mainSections` filter is a list of the posts' sections, which is
/// Hugo's usual home and Hanji's rule already.
fn home_lists_top_pages(template: &str) -> bool {
    let Some(at) = template.find("range ") else { return false };
    let expression = template[at + "range ".len()..].split("}}").next().unwrap_or_default();
    // `range $i, $p := X`: the list is after `:=`.
    let list = expression.rsplit(":=").next().unwrap_or_default().trim().trim_end_matches('-').trim();
    match list {
        ".Paginator.Pages" | "$.Paginator.Pages" => !template.contains(".Paginate ") && !template.contains("paginate "),
        ".Site.RegularPages" | "$.Site.RegularPages" | "site.RegularPages" => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_home_that_lists_every_page_makes_the_top_pages_posts() {
        assert!(home_lists_top_pages("{{ define \"main\" }}{{ range .Paginator.Pages }}{{ .Title }}{{ end }}"));
        assert!(home_lists_top_pages("{{- range $i, $p := site.RegularPages -}}"));
        assert!(!home_lists_top_pages("{{ range (.Paginate (where .Pages \"Type\" \"post\")).Pages }}"));
        assert!(!home_lists_top_pages("{{ $p := .Paginate $pages }}{{ range .Paginator.Pages }}"));
        assert!(!home_lists_top_pages("{{ range where site.RegularPages \"Type\" \"in\" site.Params.mainSections }}"));
        assert!(!home_lists_top_pages("{{ range $name, $taxonomy := .Site.Taxonomies.series }}"));
        assert!(!home_lists_top_pages("no range at all {{ range"));
    }
}
