//! Jekyll: `_config.yml`, where `url` and `baseurl` make the base URL and
//! `defaults` gives posts and pages values by scope; posts in `_posts`
//! folders named after their dates, pages in `_pages/` and at the top;
//! static files in its asset folders (a text file with front matter there is
//! a Liquid template); includes as shortcodes; addresses by `permalink`
//! (its styles and `UrlDrop`'s names) and pages by their paths.

use std::path::{Path, PathBuf};

use jiff::civil::Date;

use super::address::{date_values, fill, own_url, slash_path};
use super::settings::{author, field, setting};
use super::{
    Addressing, Collection, Folder, JEKYLL_INCLUDES_DIR, JEKYLL_PAGES_DIR, JEKYLL_POSTS_DIR, JEKYLL_STATIC_DIRS, Kind,
    Layout, PostFacts, PostFile, Setting, Settings, StaticDir, Syntax, TOP, Tool,
};
use crate::defaults::DefaultSet;
use crate::diagnostics::Diagnostic;
use crate::front_matter::RawField;
use crate::slug::TermSlugs;

pub(super) struct Jekyll;

impl Tool for Jekyll {
    fn kind(&self) -> Kind {
        Kind::Jekyll
    }

    fn settings_files(&self) -> &'static [&'static str] {
        SETTINGS
    }

    /// `_config.yml`, or a `_posts` folder.
    fn claims(&self, folder: &dyn Folder) -> Option<Option<PathBuf>> {
        if let Some(file) = SETTINGS.iter().map(PathBuf::from).find(|file| folder.is_file(file)) {
            return Some(Some(file));
        }
        folder.is_dir(Path::new(JEKYLL_POSTS_DIR)).then_some(None)
    }

    fn posts_dir(&self) -> PathBuf {
        JEKYLL_POSTS_DIR.into()
    }

    /// Jekyll copies every folder not starting with `_`; the usual ones that
    /// hold what posts link to are copied to the same place in the site.
    fn layout(&self) -> Layout {
        Layout {
            static_dirs: JEKYLL_STATIC_DIRS
                .iter()
                .map(|folder| StaticDir { folder: folder.into(), site_path: format!("{folder}/") })
                .collect(),
            pages_dirs: vec![JEKYLL_PAGES_DIR.into(), TOP.into()],
            shortcode_dirs: vec![JEKYLL_INCLUDES_DIR.into()],
            term_slugs: TermSlugs::Jekyll,
            ..Layout::base(Kind::Jekyll)
        }
    }

    fn settings(&self, file: &Path, text: &str, problems: &mut Vec<Diagnostic>) -> Settings {
        super::settings::fields(self.kind(), file, text, problems).map(|fields| settings(&fields)).unwrap_or_default()
    }

    fn template_syntax(&self) -> Syntax {
        Syntax::Liquid
    }

    /// Jekyll reads a file of a `_posts` folder only if its name starts with
    /// a date (`Document::DATE_FILENAME_MATCHER`, which `PostReader#read_publishable`
    /// selects by: `\d{2,4}-\d{1,2}-\d{1,2}-`, then the name and an
    /// extension); any other file there is not published at all
    /// (`(ing)2024-08-29-db.md`). A file outside `_posts` is a page's.
    fn is_post(&self, _layout: &Layout, path: &Path) -> bool {
        self.is_text(path) && !super::is_section(path) && (!PostFile::new(path).in_jekyll_posts() || dated_name(path))
    }

    fn is_page(&self, layout: &Layout, path: &Path) -> bool {
        layout.in_pages_dir(path)
    }

    /// A text file that Jekyll runs through Liquid rather than copies when it
    /// starts with front matter ("any file that contains a YAML front matter
    /// block will be processed by Jekyll as a special file"): Chirpy's
    /// `assets/404.html`, `assets/js/data/search.json`. Hanji has not the
    /// theme's Liquid to run; it writes its own 404 page, feed and search,
    /// and leaves such a file out rather than copy its template as it is.
    fn may_be_template(&self, path: &Path) -> bool {
        const TEXT: &[&str] =
            &["html", "htm", "xml", "json", "txt", "css", "scss", "sass", "js", "webmanifest", "svg", "yml", "yaml"];
        path.extension().and_then(|e| e.to_str()).is_some_and(|e| TEXT.contains(&e.to_ascii_lowercase().as_str()))
    }

    fn shortcode_dirs(&self) -> &'static [&'static str] {
        &[JEKYLL_INCLUDES_DIR]
    }

    /// An include is called by its path: `notes/warn.html`.
    fn shortcode_name(&self, below: &str) -> Option<String> {
        Some(below.to_string())
    }

    /// `<date>-<slug>.md`.
    fn new_post_path(&self, posts_dir: &Path, slug: &str, _bundle: bool, date: Date) -> PathBuf {
        posts_dir.join(format!("{}-{slug}.md", date.strftime("%Y-%m-%d")))
    }

    /// A top-level file without front matter is copied as it is (`README.md`),
    /// and the top-level `index.md` is the theme's front page.
    fn publishes_page(&self, path: &Path, has_front_matter: bool) -> bool {
        let front_page = PostFile::new(path).name() == "index" && path.components().count() == 1;
        has_front_matter && !front_page
    }

    /// Where a permalink makes the address, posts of one slug are apart.
    fn slug_shares_address(&self, _permalink: bool, _pages: (bool, bool), _same_folder: bool) -> bool {
        false
    }

    /// A post's own `permalink` wins; then the blog's; then Jekyll's `date` style.
    fn address(&self, at: &Addressing, post: &PostFacts) -> String {
        if post.page {
            return page_address(at, post);
        }
        let pattern = post.text("permalink").or(at.permalink).unwrap_or("date");
        permalink(pattern, post).unwrap_or_else(|| format!("posts/{}/", post.slug))
    }

    fn aliases_key(&self) -> &'static str {
        "redirect_from"
    }
}

/// The collections Jekyll writes (`Collection#write?`: `output: true` in
/// its metadata; a collection given as a list of names has none, and is not
/// written). `posts` is Jekyll's own, read as posts; a name that is not a
/// plain folder name is left out.
fn collections(field: &RawField) -> Vec<Collection> {
    let Some(map) = field.value.as_object() else { return Vec::new() };
    map.iter()
        .filter(|(name, _)| *name != "posts" && !name.is_empty() && !name.contains(['/', '\\', '.']))
        .filter(|(_, metadata)| metadata.get("output").and_then(serde_json::Value::as_bool) == Some(true))
        .map(|(name, metadata)| Collection {
            name: name.clone(),
            permalink: metadata.get("permalink").and_then(serde_json::Value::as_str).map(str::to_string),
        })
        .collect()
}

/// Where a document of a collection is (`Document#url`): its own
/// `permalink`, else its collection's, else `Collection#url_template`:
/// `/:collection/:path` with the suffix the site's permalink style gives
/// (`Utils.add_permalink_suffix`: `/` for `pretty` or a style ending in
/// `/`, `:output_ext` for `date`, `ordinal`, `none` or one ending in it);
/// `:path` is the document's path in its folder without its extension,
/// `:name` and `:title` its file's name.
fn document_address(at: &Addressing, post: &PostFacts, collection: &Collection) -> Option<String> {
    let style = at.permalink.unwrap_or("date");
    let template =
        post.text("permalink").map(str::to_string).or_else(|| collection.permalink.clone()).unwrap_or_else(|| {
            let mut template = String::from("/:collection/:path");
            match style {
                "pretty" => template.push('/'),
                "date" | "ordinal" | "none" => template.push_str(":output_ext"),
                _ if style.ends_with('/') => template.push('/'),
                _ if style.ends_with(":output_ext") => template.push_str(":output_ext"),
                _ => {}
            }
            template
        });
    let within = post.path.strip_prefix(collection.folder()).ok()?.with_extension("");
    let name = PostFile::new(post.path).name();
    let values = [
        (":collection", collection.name.clone()),
        (":output_ext", ".html".to_string()),
        (":path", slash_path(&within)),
        (":name", name.clone()),
        (":title", name),
    ];
    let address = fill(&template, &values);
    let parts: Vec<&str> =
        address.split('/').filter(|part| !part.is_empty() && *part != "." && *part != "..").collect();
    if parts.is_empty() {
        return None;
    }
    let last = parts.last().copied().unwrap_or_default();
    let end = if template.ends_with('/') {
        "/"
    } else if last.contains('.') {
        ""
    } else {
        ".html"
    };
    Some(format!("{}{end}", parts.join("/")))
}

/// Whether the name of a file in `_posts` starts with a date as
/// `DATE_FILENAME_MATCHER` has it.
fn dated_name(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return false };
    let mut parts = name.splitn(4, '-');
    let digits = |part: Option<&str>, lengths: std::ops::RangeInclusive<usize>| {
        part.is_some_and(|p| lengths.contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
    };
    digits(parts.next(), 2..=4) && digits(parts.next(), 1..=2) && digits(parts.next(), 1..=2) && parts.next().is_some()
}

/// Where a page is: its own `permalink` (one without names), else its path
/// as Jekyll makes it (`about.md` → `about.html`, or `about/` where the
/// blog's permalinks end in `/`; `docs/index.md` → `docs/`).
fn page_address(at: &Addressing, post: &PostFacts) -> String {
    if let Some(collection) = at.layout.collections.iter().find(|c| post.path.starts_with(c.folder()))
        && let Some(address) = document_address(at, post, collection)
    {
        return address;
    }
    let own = post.text("permalink").filter(|p| !p.contains(':'));
    if let Some(address) = own.and_then(own_url) {
        return address;
    }
    let file = PostFile::new(post.path);
    let folder = slash_path(file.folder());
    let folder = if folder.is_empty() { folder } else { format!("{folder}/") };
    let name = file.name();
    let pretty = at.permalink.is_some_and(|p| p == "pretty" || p.ends_with('/'));
    match (name.as_str(), pretty) {
        ("index", _) => folder,
        (_, true) => format!("{folder}{name}/"),
        (_, false) => format!("{folder}{name}.html"),
    }
}

/// A post's address by a permalink pattern as Jekyll fills it
/// (`Drops::UrlDrop`): `:title` is the post's written slug (its `slug`, else
/// its file's name without the date) slugified in `pretty` mode with its case
/// kept, `:slug` the same in the `default` mode, lowercased:
/// `2022-02-09-oracleProject.md` is `oracleProject` by `:title` and
/// `oracleproject` by `:slug`.
pub(crate) fn permalink(pattern: &str, post: &PostFacts) -> Option<String> {
    let written = post.written_slug();
    let title = crate::slug::jekyll_slugify(&written, true, true);
    let slug = crate::slug::jekyll_slugify(&written, false, false);
    // A name Jekyll's slugify empties (all punctuation) keeps Hanji's slug.
    let or_own = |made: String| if made.is_empty() { post.slug.to_string() } else { made };
    permalink_named(pattern, post, or_own(title), or_own(slug))
}

/// A post's address by a permalink pattern: Jekyll's styles (`date`,
/// `pretty`, `ordinal`, `none`) or a pattern of `:year`, `:month`, `:day`,
/// `:i_month`, `:i_day`, `:short_year`, `:y_day`, `:title`, `:slug`,
/// `:categories` (lowercased, one folder each) and `:output_ext` (`.html`).
/// An address that ends in neither `/` nor an extension gets `.html`. None
/// for a pattern that needs a date the post has not.
pub(crate) fn permalink_named(pattern: &str, post: &PostFacts, title: String, slug: String) -> Option<String> {
    let pattern = match pattern {
        "date" => "/:categories/:year/:month/:day/:title:output_ext",
        "pretty" => "/:categories/:year/:month/:day/:title/",
        "ordinal" => "/:categories/:year/:y_day/:title:output_ext",
        "none" => "/:categories/:title:output_ext",
        pattern => pattern,
    };
    let date = post.date;
    let needs_date = ["year", "month", "day", "y_day"].iter().any(|p| pattern.contains(&format!(":{p}")));
    if needs_date && date.is_none() {
        return None;
    }
    // Longest names first: `:i_month` before `:month`, `:short_year` before `:year`.
    let mut values: Vec<(&str, String)> = vec![
        (":categories", categories_of(post).join("/")),
        (":output_ext", ".html".into()),
        (":short_year", date.map(|d| format!("{:02}", d.year() % 100)).unwrap_or_default()),
        (":i_month", date.map(|d| d.month().to_string()).unwrap_or_default()),
        (":i_day", date.map(|d| d.day().to_string()).unwrap_or_default()),
        (":y_day", date.map(|d| format!("{:03}", d.day_of_year())).unwrap_or_default()),
    ];
    values.extend(date_values(date));
    values.extend([(":title", title), (":slug", slug)]);
    let address = fill(pattern, &values);
    let parts: Vec<&str> = address.split('/').filter(|part| !part.is_empty()).collect();
    let mut address = parts.join("/");
    if address.is_empty() {
        return None;
    }
    let last = parts.last().copied().unwrap_or_default();
    if pattern.ends_with('/') {
        address.push('/');
    } else if !last.contains('.') {
        address.push_str(".html");
    }
    Some(address)
}

/// A post's categories, as its address has them (`UrlDrop#categories`: each
/// lowercased, joined by `/`): `categories` (a list, or words), else
/// `category`. A category may hold folders of its own (`tteodeulX2/Issue`);
/// the empty and dot-only ones Jekyll's `URL#sanitize_url` drops are left out
/// (and `SitePath` refuses whatever else would climb).
fn categories_of(post: &PostFacts) -> Vec<String> {
    let value = post.extra.get("categories").or_else(|| post.extra.get("category"));
    let words: Vec<String> = match value {
        Some(serde_json::Value::String(text)) => text.split_whitespace().map(str::to_string).collect(),
        Some(serde_json::Value::Array(items)) => items.iter().filter_map(|v| v.as_str()).map(str::to_string).collect(),
        _ => Vec::new(),
    };
    words
        .iter()
        .flat_map(|word| word.split('/'))
        .map(str::to_lowercase)
        .filter(|w| !w.is_empty() && !w.chars().all(|c| c == '.') && !w.contains('\\'))
        .collect()
}

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
        future_posts: super::settings::flag(fields, "future"),
        expired_posts: None,
        section_permalinks: Vec::new(),
        themes: Vec::new(),
        zola_paths: None,
        zola_keep_dates: None,
        collections: field(fields, "collections").map(collections).unwrap_or_default(),
        front_matter_defaults: field(fields, "defaults")
            .and_then(|field| field.value.as_array())
            .map(|sets| sets.iter().filter_map(DefaultSet::read).collect())
            .unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collection_documents_are_where_jekyll_writes_them() {
        let mut layout = Jekyll.layout();
        let tabs = Collection { name: "tabs".into(), permalink: None };
        layout.collections = vec![tabs.clone()];
        let extra = serde_json::Map::new();
        let about = PostFacts {
            path: Path::new("_tabs/about.md"),
            slug: "about",
            own_slug: false,
            title: "About",
            date: None,
            time: None,
            page: true,
            extra: &extra,
        };
        let at =
            |permalink: Option<&'static str>| Addressing { layout: &layout, posts_dir: Path::new("_posts"), permalink };
        assert_eq!(Jekyll.address(&at(Some("/posts/:title/")), &about), "tabs/about/", "Chirpy's style ends in /");
        assert_eq!(Jekyll.address(&at(None), &about), "tabs/about.html", "the `date` style adds :output_ext");
        assert_eq!(Jekyll.address(&at(Some("pretty")), &about), "tabs/about/");
        let mut own = layout.clone();
        own.collections = vec![Collection { name: "tabs".into(), permalink: Some("/:title/".into()) }];
        let at_own = Addressing { layout: &own, posts_dir: Path::new("_posts"), permalink: None };
        assert_eq!(Jekyll.address(&at_own, &about), "about/", "the collection's own permalink");

        let fields = crate::front_matter::read_fields(
            "collections:\n  tabs:\n    output: true\n  drafts_box:\n    output: false\n  posts:\n    output: true\n",
            crate::front_matter::Format::Yaml,
        )
        .unwrap()
        .0;
        assert_eq!(settings(&fields).collections, [tabs], "only what Jekyll writes, and not its posts");
    }
}
