//! Hexo: `_config.yml` (told from Jekyll's by a `source/_posts` folder or a
//! `package.json` that depends on `hexo`); everything under `source/`: posts
//! in `source/_posts`, drafts in `source/_drafts`, pages anywhere else, other
//! files copied to the same place; `_`- and `.`-named files and folders
//! left out; a post's asset folder (`post_asset_folder`) beside its page;
//! addresses by `permalink` and its variables; tags and categories named by
//! hexo-util's `slugize`. Each rule names the Hexo 8 function it follows.

use std::path::{Path, PathBuf};

use jiff::civil::Date;
use serde::Serialize;
use serde_json::Value;

use super::address::{own_url, slash_path};
use super::settings::{author, field, flag, setting, setting_at};
use super::{Addressing, Folder, Kind, Layout, PostFacts, Setting, Settings, Tool};
use crate::diagnostics::Diagnostic;
use crate::front_matter::{self, Format, RawField};
use crate::slug::{TermSlugs, hexo_slugize};

/// Hexo's `source_dir`: every file of the site is under it.
pub(super) const SOURCE_DIR: &str = "source";

/// Where Hexo's posts and drafts are in `source/` (`processor/post.js`, `postDir`, `draftDir`).
const POSTS: &str = "_posts/";
const DRAFTS: &str = "_drafts/";

pub(super) const SETTINGS: &[&str] = &["_config.yml"];

/// Hexo's default `permalink` (`hexo/default_config.js`).
const DEFAULT_PERMALINK: &str = ":year/:month/:day/:title/";

pub(super) struct Hexo;

/// What a Hexo blog's `_config.yml` says of its files and addresses besides
/// the site settings, with Hexo's defaults (`hexo/default_config.js`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HexoRules {
    /// `new_post_name` (`:title.md`): its extension is the posts' own when
    /// `post_asset_folder` is on.
    pub new_post_name: String,
    /// `post_asset_folder`: `source/_posts/a.md`'s files in `source/_posts/a/`.
    pub post_asset_folder: bool,
    /// `skip_render`, `include` and `exclude`: globs of paths under `source/`.
    pub skip_render: Vec<String>,
    pub include: Vec<String>,
    pub exclude: Vec<String>,
    /// `render_drafts`: the posts of `source/_drafts` are published too.
    pub render_drafts: bool,
    /// `permalink_defaults`: values of a pattern's other names.
    pub permalink_defaults: Vec<(String, String)>,
    /// `default_category`: a post's `:category` when it has none.
    pub default_category: String,
    /// `filename_case`: 1 lowercases slugs, 2 uppercases them.
    pub filename_case: u8,
    /// `category_map`: the name a category's slug is made from.
    pub category_map: Vec<(String, String)>,
    /// `titlecase`: titles in title case (a post's own `titlecase` wins).
    pub titlecase: bool,
    /// `timezone`: the zone a post's written date and time are in.
    pub timezone: String,
}

impl Default for HexoRules {
    fn default() -> Self {
        HexoRules {
            new_post_name: ":title.md".into(),
            post_asset_folder: false,
            skip_render: Vec::new(),
            include: Vec::new(),
            exclude: Vec::new(),
            render_drafts: false,
            permalink_defaults: Vec::new(),
            default_category: "uncategorized".into(),
            filename_case: 0,
            category_map: Vec::new(),
            titlecase: false,
            timezone: String::new(),
        }
    }
}

impl HexoRules {
    /// The `_config.yml` keys that say how files are read and placed.
    fn read(fields: &[RawField]) -> HexoRules {
        let defaults = HexoRules::default();
        let text = |key: &str| field(fields, key).and_then(setting).map(|s| s.value);
        let globs = |key: &str| field(fields, key).map(|f| texts(&f.value)).unwrap_or_default();
        let pairs = |key: &str| match field(fields, key).map(|f| &f.value) {
            Some(Value::Object(map)) => map.iter().filter_map(|(k, v)| Some((k.clone(), scalar(v)?))).collect(),
            _ => Vec::new(),
        };
        HexoRules {
            new_post_name: text("new_post_name").unwrap_or(defaults.new_post_name),
            post_asset_folder: flag(fields, "post_asset_folder").unwrap_or(false),
            skip_render: globs("skip_render"),
            include: globs("include"),
            exclude: globs("exclude"),
            render_drafts: flag(fields, "render_drafts").unwrap_or(false),
            permalink_defaults: pairs("permalink_defaults"),
            default_category: text("default_category").unwrap_or(defaults.default_category),
            filename_case: field(fields, "filename_case").and_then(|f| f.value.as_u64()).map_or(0, |n| n.min(2) as u8),
            category_map: pairs("category_map"),
            titlecase: flag(fields, "titlecase").unwrap_or(false),
            timezone: text("timezone").unwrap_or_default(),
        }
    }

    /// The extension of `new_post_name` (`md`).
    fn post_extension(&self) -> &str {
        self.new_post_name.rsplit_once('.').map_or("", |(_, extension)| extension)
    }

    /// `processor/common.js`'s `isExcludedFile`: a temporary file (`…~`,
    /// `…%`), one `exclude` names, or a hidden one (`_` or `.` starts a part
    /// of its path) that `include` does not name.
    fn is_excluded(&self, path: &str) -> bool {
        is_temporary(path) || matches_any(&self.exclude, path) || (is_hidden(path) && !matches_any(&self.include, path))
    }
}

impl Tool for Hexo {
    fn kind(&self) -> Kind {
        Kind::Hexo
    }

    fn settings_files(&self) -> &'static [&'static str] {
        SETTINGS
    }

    /// `_config.yml` with a `source/_posts` folder, or with a `package.json`
    /// that depends on `hexo` (which `hexo-cli` looks for to run at all).
    fn claims(&self, folder: &dyn Folder) -> Option<Option<PathBuf>> {
        let settings = Path::new(SETTINGS[0]);
        if !folder.is_file(settings) {
            return None;
        }
        let posts = Path::new(SOURCE_DIR).join(POSTS.trim_end_matches('/'));
        let package = folder.read(Path::new("package.json")).ok();
        (folder.is_dir(&posts) || package.as_deref().is_some_and(depends_on_hexo)).then(|| Some(settings.into()))
    }

    fn posts_dir(&self) -> PathBuf {
        SOURCE_DIR.into()
    }

    /// Everything Hexo publishes is under `source/`, read as the posts
    /// folder; new posts go to `source/_posts`; Hexo publishes future posts
    /// unless `future: false`.
    fn layout(&self) -> Layout {
        Layout {
            static_dirs: Vec::new(),
            new_posts_dir: Some(Path::new(SOURCE_DIR).join(POSTS.trim_end_matches('/'))),
            term_slugs: TermSlugs::Hexo(0),
            future_posts: true,
            ..Layout::base(Kind::Hexo)
        }
    }

    /// The rules of `_config.yml` for files and addresses (`HexoRules`).
    fn read_folder(&self, folder: &dyn Folder, layout: &mut Layout) {
        let text = folder.read(Path::new(SETTINGS[0])).unwrap_or_default();
        let fields = front_matter::read_fields(text.trim_start_matches('\u{feff}'), Format::Yaml).ok();
        layout.hexo = fields.map(|(fields, _)| HexoRules::read(&fields)).unwrap_or_default();
    }

    fn settings(&self, file: &Path, text: &str, problems: &mut Vec<Diagnostic>) -> Settings {
        super::settings::fields(self.kind(), file, text, problems).map(|fields| settings(&fields)).unwrap_or_default()
    }

    /// `processor/post.js`'s pattern: a file of `source/_posts` (of
    /// `source/_drafts` with `render_drafts`) whose path below it has no
    /// hidden part, that a renderer reads and `skip_render` does not name,
    /// and, with `post_asset_folder`, has `new_post_name`'s extension.
    /// `processor/asset.js`'s: any other file of `source/` that is not
    /// excluded (`isExcludedFile`) is a page when it is Markdown and
    /// `skip_render` does not name it.
    fn is_post(&self, layout: &Layout, path: &Path) -> bool {
        let rules = &layout.hexo;
        let Some(within) = within_source(path) else { return false };
        if !self.is_text(path) || matches_any(&rules.skip_render, &within) {
            return false;
        }
        match post_part(rules, &within) {
            Some(rest) => {
                let extension = path.extension().and_then(|e| e.to_str()).unwrap_or_default();
                !is_hidden(rest)
                    && !is_temporary(rest)
                    && (!rules.post_asset_folder || extension == rules.post_extension())
            }
            None => !within.starts_with(POSTS) && !within.starts_with(DRAFTS) && !rules.is_excluded(&within),
        }
    }

    /// Every Markdown file of `source/` outside `_posts` and `_drafts` is a page.
    fn is_page(&self, _layout: &Layout, path: &Path) -> bool {
        within_source(path).is_some_and(|within| !within.starts_with(POSTS) && !within.starts_with(DRAFTS))
    }

    /// A file of `source/_posts` that is no post is published only as an
    /// asset of a post's folder, with `post_asset_folder`
    /// (`processor/post.js`, `processAsset`); drafts' files never (unless
    /// `render_drafts`); elsewhere what `isExcludedFile` leaves out.
    fn passes_over(&self, layout: &Layout, path: &Path) -> bool {
        let rules = &layout.hexo;
        let Some(within) = within_source(path) else { return true };
        if self.is_post(layout, path) {
            return false;
        }
        match post_part(rules, &within) {
            Some(rest) => !rules.post_asset_folder || is_hidden(rest) || is_temporary(rest),
            None if within.starts_with(POSTS) || within.starts_with(DRAFTS) => true,
            // A Markdown file `skip_render` names is copied as it is.
            None => rules.is_excluded(&within),
        }
    }

    /// A post's asset folder (`models/post.js`, `asset_dir`: its file's path
    /// without the extension), with `post_asset_folder`; the nearest first.
    fn asset_folders(&self, layout: &Layout, posts_dir: &Path, asset: &Path) -> Vec<(PathBuf, PathBuf)> {
        if !layout.hexo.post_asset_folder {
            return Vec::new();
        }
        let extension = layout.hexo.post_extension();
        let posts = posts_dir.join(POSTS.trim_end_matches('/'));
        let drafts = posts_dir.join(DRAFTS.trim_end_matches('/'));
        let folders = asset
            .ancestors()
            .skip(1)
            .take_while(|f| (f.starts_with(&posts) && *f != posts) || (f.starts_with(&drafts) && *f != drafts));
        folders
            .map(|folder| {
                let mut post = folder.as_os_str().to_os_string();
                post.push(format!(".{extension}"));
                (PathBuf::from(post), folder.to_path_buf())
            })
            .collect()
    }

    /// `models/post_asset.js`, `path`: the post's path without `.html`
    /// (or `.htm`), then the file's path in the post's folder.
    fn asset_folder_address(&self, post_address: &str) -> String {
        let folder = post_address.strip_suffix(".html").or_else(|| post_address.strip_suffix(".htm"));
        let folder = folder.unwrap_or(post_address);
        if folder.ends_with('/') || folder.is_empty() { folder.to_string() } else { format!("{folder}/") }
    }

    /// A file of `source/` goes to the same place in the site
    /// (`processor/asset.js`); one of `_posts` in no post's folder nowhere.
    fn loose_asset(&self, within: &str) -> Option<String> {
        (!within.starts_with(POSTS) && !within.starts_with(DRAFTS)).then(|| within.to_string())
    }

    fn loose_file(&self, site_path: &str) -> Option<PathBuf> {
        self.loose_asset(site_path).map(|_| Path::new(SOURCE_DIR).join(site_path))
    }

    /// `source/_posts/<slug>.md`, as `hexo new` names it by default.
    fn new_post_path(&self, posts_dir: &Path, slug: &str, _bundle: bool, _date: Date) -> PathBuf {
        posts_dir.join(format!("{slug}.md"))
    }

    /// `source/images`, which Hexo copies to `images/`.
    fn images_dir(&self, _layout: &Layout) -> PathBuf {
        Path::new(SOURCE_DIR).join("images")
    }

    /// Posts are at the addresses their patterns give, pages at their paths.
    fn slug_shares_address(&self, _permalink: bool, _pages: (bool, bool), _same_folder: bool) -> bool {
        false
    }

    /// `filter/before_post_render/titlecase.js`: with `titlecase` (the
    /// post's own, else the blog's), the title as the `titlecase` package
    /// writes it.
    fn title(&self, layout: &Layout, written: &str, extra: &serde_json::Map<String, Value>) -> Option<String> {
        let wanted = extra.get("titlecase").map_or(layout.hexo.titlecase, is_truthy);
        (wanted && !written.is_empty()).then(|| titlecase(written))
    }

    fn address(&self, at: &Addressing, post: &PostFacts) -> String {
        if post.page { page_address(post) } else { post_address(at, post) }
    }
}

/// Whether a front matter value is true as JavaScript tests it.
fn is_truthy(value: &Value) -> bool {
    match value {
        Value::Null => false,
        Value::Bool(flag) => *flag,
        Value::Number(number) => number.as_f64().is_some_and(|n| n != 0.0),
        Value::String(text) => !text.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// The npm package `titlecase` 1.1 (`to-title-case.js`, `toTitleCase`),
/// which Hexo's filter calls: each word (from a letter or digit of
/// `[A-Za-z0-9À-ÿ]` to the next space or `-`) gets a capital first letter,
/// unless something after its first letter is already a capital or a dot
/// with a letter after it (`iPhone`, `Node.js`); a small word (`a`, `of`,
/// `the`, `vs.`, …) inside the title after a space or `-` is lowercased
/// instead, unless a `:` comes just before it.
fn titlecase(title: &str) -> String {
    const SMALL: &[&str] = &[
        "a", "an", "and", "as", "at", "but", "by", "en", "for", "if", "in", "nor", "of", "on", "or", "per", "the",
        "to", "v", "vs", "v.", "vs.", "via",
    ];
    let starts = |c: char| c.is_ascii_alphanumeric() || ('\u{C0}'..='\u{FF}').contains(&c);
    let breaks = |c: char| c.is_whitespace() || c == '\u{feff}' || c == '-';
    let chars: Vec<char> = title.chars().collect();
    let at = |i: isize| if i < 0 { None } else { chars.get(i as usize).copied() };
    let mut out = String::with_capacity(title.len());
    let mut i = 0;
    while i < chars.len() {
        if !starts(chars[i]) {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let end = (i..chars.len()).find(|&j| breaks(chars[j])).unwrap_or(chars.len());
        let word: String = chars[i..end].iter().collect();
        let (index, after) = (i as isize, end as isize);
        let small = index > 0
            && end != chars.len()
            && SMALL.contains(&word.to_lowercase().as_str())
            && at(index - 2) != Some(':')
            && (at(after) != Some('-') || at(index - 1) == Some('-'))
            && at(index - 1).is_none_or(breaks);
        let rest = &chars[i + 1..end];
        let shaped = rest.iter().any(char::is_ascii_uppercase) || rest.windows(2).any(|pair| pair[0] == '.');
        if small {
            out.push_str(&word.to_lowercase());
        } else if shaped {
            out.push_str(&word);
        } else {
            out.extend(chars[i].to_uppercase());
            out.extend(rest);
        }
        i = end;
    }
    out
}

/// Whether `package.json` lists `hexo` among its dependencies.
fn depends_on_hexo(package: &str) -> bool {
    let Ok(package) = serde_json::from_str::<Value>(package) else { return false };
    ["dependencies", "devDependencies"].iter().any(|key| package.get(key).and_then(|d| d.get("hexo")).is_some())
}

/// A path below `source/`, with `/` between its parts.
fn within_source(path: &Path) -> Option<String> {
    path.strip_prefix(SOURCE_DIR).ok().map(slash_path).filter(|within| !within.is_empty())
}

/// The part of a path below `source/` that is below `_posts/` (or
/// `_drafts/` with `render_drafts`): where Hexo's post processor reads.
fn post_part<'a>(rules: &HexoRules, within: &'a str) -> Option<&'a str> {
    within.strip_prefix(POSTS).or_else(|| within.strip_prefix(DRAFTS).filter(|_| rules.render_drafts))
}

/// `processor/common.js`'s `isHiddenFile`: `/(^|\/)[_.]/`.
fn is_hidden(path: &str) -> bool {
    path.split('/').any(|part| part.starts_with(['_', '.']))
}

/// `processor/common.js`'s `isTmpFile`.
fn is_temporary(path: &str) -> bool {
    path.ends_with('%') || path.ends_with('~')
}

/// Whether any of the globs matches `path`, as micromatch's `isMatch` does for
/// the plain globs Hexo's settings use: `*` and `?` within a part of the
/// path, `**` across parts (`**/` may match none).
fn matches_any(globs: &[String], path: &str) -> bool {
    globs.iter().any(|glob| glob_matches(glob.trim_start_matches("./").as_bytes(), path.as_bytes()))
}

fn glob_matches(glob: &[u8], path: &[u8]) -> bool {
    match glob {
        [] => path.is_empty(),
        [b'*', b'*', b'/', rest @ ..] => {
            glob_matches(rest, path)
                || path.iter().enumerate().any(|(at, &b)| b == b'/' && glob_matches(rest, &path[at + 1..]))
        }
        [b'*', b'*', rest @ ..] => (0..=path.len()).any(|at| glob_matches(rest, &path[at..])),
        [b'*', rest @ ..] => {
            let part = path.iter().position(|&b| b == b'/').unwrap_or(path.len());
            (0..=part).any(|at| glob_matches(rest, &path[at..]))
        }
        [b'?', rest @ ..] => path.first().is_some_and(|&b| b != b'/') && glob_matches(rest, &path[1..]),
        [first, rest @ ..] => path.first() == Some(first) && glob_matches(rest, &path[1..]),
    }
}

/// The texts of a value that is one text or a list of them.
fn texts(value: &Value) -> Vec<String> {
    match value {
        Value::Array(items) => items.iter().filter_map(scalar).collect(),
        other => scalar(other).into_iter().collect(),
    }
}

/// A value as JavaScript writes it into a string, for a text, number or boolean.
fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    }
}

/// Hexo's path of a page or post (what `Router#format` writes: no leading
/// `/`, `index.html` after a trailing one) as a site path: a folder's
/// `index.html` is the folder.
fn site_path(path: &str) -> String {
    let path = path.trim_start_matches('/');
    let path = path.strip_suffix("index.html").filter(|p| p.is_empty() || p.ends_with('/')).unwrap_or(path);
    if path.is_empty() {
        return String::new();
    }
    own_url(path).unwrap_or_default()
}

/// A page's path (`processor/asset.js`, `processPage`): its own `permalink`
/// (`index` after a trailing `/`, `.html` where it has no extension), else
/// its path below `source/` with `.html` for its extension
/// (`about/index.md` → `about/`, `about.md` → `about.html`).
fn page_address(post: &PostFacts) -> String {
    if let Some(own) = post.text("permalink").filter(|p| !p.trim().is_empty()) {
        let mut path = own.to_string();
        if path.ends_with('/') {
            path.push_str("index");
        }
        let last = path.rsplit('/').next().unwrap_or_default();
        if !last.contains('.') {
            path.push_str(".html");
        }
        return site_path(&path);
    }
    let within = within_source(&post.path.with_extension("")).unwrap_or_default();
    site_path(&format!("{within}.html"))
}

/// A post's path (`filter/post_permalink.js`, `postPermalinkFilter`): its
/// own `permalink`, else the blog's pattern filled; with
/// `post_asset_folder`, one that ends in neither `/` nor `.html` gets a `/`.
fn post_address(at: &Addressing, post: &PostFacts) -> String {
    let rules = &at.layout.hexo;
    let own = post.text("permalink").filter(|p| !p.trim().is_empty());
    let mut path = match own {
        Some(own) => own.to_string(),
        None => fill(at.permalink.unwrap_or(DEFAULT_PERMALINK), &|name| value(rules, post, name)),
    };
    if rules.post_asset_folder && !path.ends_with('/') && !path.ends_with(".html") {
        path.push('/');
    }
    let address = site_path(&path);
    if address.is_empty() { format!("{}/", hexo_slug(post)) } else { address }
}

/// hexo-util's `Permalink#stringify`: each `:name` (`/:(\w*[^_\W])/`, so a
/// name ends before its trailing `_`s) replaced by its value.
fn fill(pattern: &str, value: &dyn Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(pattern.len() * 2);
    let mut rest = pattern;
    while let Some(at) = rest.find(':') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let word = after.bytes().take_while(|b| b.is_ascii_alphanumeric() || *b == b'_').count();
        let name = after[..word].trim_end_matches('_');
        if name.is_empty() {
            out.push(':');
        } else {
            out.push_str(&value(name));
        }
        rest = &after[name.len()..];
    }
    out.push_str(rest);
    out
}

/// A post's `slug` as Hexo makes it (`processor/post.js`, `parseFilename`
/// with the default `new_post_name`, `:title.md`): its path below
/// `source/_posts` (or `_drafts`) without the extension, as written. The
/// front matter's `slug` is not read.
fn hexo_slug(post: &PostFacts) -> String {
    let within = within_source(&post.path.with_extension("")).unwrap_or_default();
    let below = within.strip_prefix(POSTS).or_else(|| within.strip_prefix(DRAFTS));
    below.unwrap_or(&within).to_string()
}

/// The value of `:name` in a post's permalink (`postPermalinkFilter`'s
/// `meta`): the post's own names first, then its front matter's keys, then
/// `permalink_defaults`; a name none of them gives is `undefined`, as in
/// JavaScript.
fn value(rules: &HexoRules, post: &PostFacts, name: &str) -> String {
    let (date, time) = moment(rules, post);
    let slug = hexo_slug(post);
    let own = match name {
        "title" => Some(slug.clone()),
        "name" => Some(slug.rsplit('/').next().unwrap_or_default().to_string()),
        "post_title" => Some(hexo_slugize(post.title, 1)),
        "year" => Some(format!("{:04}", date.year())),
        "month" => Some(format!("{:02}", date.month())),
        "day" => Some(format!("{:02}", date.day())),
        "i_month" => Some(date.month().to_string()),
        "i_day" => Some(date.day().to_string()),
        "hour" => Some(format!("{:02}", time.hour())),
        "minute" => Some(format!("{:02}", time.minute())),
        "second" => Some(format!("{:02}", time.second())),
        "id" => Some(post.extra.get("id").and_then(scalar).unwrap_or(slug)),
        "category" => Some(category(rules, post)),
        _ => None,
    };
    own.or_else(|| post.extra.get(name).and_then(front_matter_text))
        .or_else(|| rules.permalink_defaults.iter().find(|(key, _)| key == name).map(|(_, v)| v.clone()))
        .unwrap_or_else(|| "undefined".into())
}

/// A post's date and time as its permalink shows them: Hexo reads the
/// written date and time in the blog's `timezone` (`processor/common.js`,
/// `adjustDateForTimezone`) and writes the moment in the time zone of the
/// computer that builds the site (moment's `format`), so a post written at
/// `2024-05-01` in `Asia/Seoul` is at `2024/04/30/` when built in UTC. An
/// offset written with the time is not read (Hanji reads a post's date as
/// written); without `timezone` the date is as written.
fn moment(rules: &HexoRules, post: &PostFacts) -> (Date, jiff::civil::Time) {
    let date = post.date.unwrap_or(Date::constant(1970, 1, 1));
    let time = post.time.unwrap_or_default();
    let Ok(zone) = jiff::tz::TimeZone::get(rules.timezone.trim()) else { return (date, time) };
    match date.to_datetime(time).to_zoned_datetime(zone) {
        Ok(written) => {
            let built = written.with_time_zone(jiff::tz::TimeZone::system());
            (built.date(), built.time())
        }
        Err(_) => (date, time),
    }
}

/// A front matter value as JavaScript writes it into a string (a list joined by `,`).
fn front_matter_text(value: &Value) -> Option<String> {
    match value {
        Value::Array(items) => Some(items.iter().filter_map(scalar).collect::<Vec<_>>().join(",")),
        other => scalar(other),
    }
}

/// `:category`: the slug of the post's last category (`categories.last().slug`,
/// `models/category.js`: each level's name, through `category_map`, made a
/// slug, below its parent's), else `default_category` as written.
/// `categories: [A, B]` is one category `B` below `A`; `[[A, B], C]` two.
/// Hexo takes the last in the order its database holds them; here the last
/// of the last list, which is that order for categories new to the blog.
fn category(rules: &HexoRules, post: &PostFacts) -> String {
    let written = post.extra.get("categories").or_else(|| post.extra.get("category"));
    let nonempty = |v: &Value| scalar(v).filter(|name| !name.is_empty());
    let levels: Vec<String> = match written {
        Some(Value::Array(items)) if items.iter().any(Value::is_array) => match items.last() {
            Some(Value::Array(last)) => last.iter().filter_map(nonempty).collect(),
            Some(other) => nonempty(other).into_iter().collect(),
            None => Vec::new(),
        },
        Some(Value::Array(items)) => items.iter().filter_map(nonempty).collect(),
        Some(other) => nonempty(other).into_iter().collect(),
        None => Vec::new(),
    };
    if levels.is_empty() {
        return rules.default_category.clone();
    }
    let slug = |name: &String| {
        let mapped = rules.category_map.iter().find(|(from, _)| from == name).map_or(name, |(_, to)| to);
        hexo_slugize(mapped, rules.filename_case)
    };
    levels.iter().map(slug).collect::<Vec<_>>().join("/")
}

pub(super) fn settings(fields: &[RawField]) -> Settings {
    let text = |key: &str| field(fields, key).and_then(setting).filter(|s| !s.value.trim().is_empty());
    Settings {
        title: text("title"),
        description: text("description").or_else(|| text("subtitle")),
        base_url: base_url(fields),
        locale: field(fields, "language").and_then(language),
        author: field(fields, "author").and_then(author),
        permalink: text("permalink"),
        term_slugs: Some(TermSlugs::Hexo(
            field(fields, "filename_case").and_then(|f| f.value.as_u64()).map_or(0, |n| n.min(2) as u8),
        )),
        feed_file: None,
        time_zone: text("timezone"),
        future_posts: flag(fields, "future"),
        expired_posts: None,
        section_permalinks: Vec::new(),
        themes: Vec::new(),
        zola_paths: None,
        zola_keep_dates: None,
        collections: Vec::new(),
        front_matter_defaults: Vec::new(),
    }
}

/// `url` with `root` (the site's folder on its host): Hexo's docs have `url`
/// hold the folder already (`http://example.com/blog`, `root: /blog/`); a
/// `url` without it gets it from `root`.
fn base_url(fields: &[RawField]) -> Option<Setting> {
    let url = field(fields, "url").and_then(setting)?;
    let root = field(fields, "root").and_then(setting).map(|s| s.value).unwrap_or_default();
    let root = root.trim_matches('/');
    let trimmed = url.value.trim_end_matches('/');
    if root.is_empty() || trimmed.ends_with(&format!("/{root}")) {
        return Some(Setting { value: format!("{trimmed}/"), ..url });
    }
    Some(Setting { value: format!("{trimmed}/{root}/"), ..url })
}

/// `language`: one, or a list whose first is the site's.
fn language(field: &RawField) -> Option<Setting> {
    match &field.value {
        Value::Array(items) => items.first().and_then(|first| setting_at(field, first, "language")),
        _ => setting(field),
    }
    .filter(|s| s.value != "default")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts<'a>(path: &'a str, extra: &'a serde_json::Map<String, Value>) -> PostFacts<'a> {
        PostFacts {
            path: Path::new(path),
            slug: "ignored",
            own_slug: false,
            title: "Hello, 세계!",
            date: Some(Date::constant(2024, 3, 7)),
            time: Some(jiff::civil::Time::constant(9, 5, 2, 0)),
            page: false,
            extra,
        }
    }

    fn address(pattern: Option<&str>, rules: HexoRules, post: &PostFacts) -> String {
        let layout = Layout { hexo: rules, ..Layout::of(Kind::Hexo) };
        let at = Addressing { layout: &layout, posts_dir: Path::new(SOURCE_DIR), permalink: pattern };
        Hexo.address(&at, post)
    }

    #[test]
    fn permalinks_as_post_permalink_filter_fills_them() {
        let none = serde_json::Map::new();
        let post = facts("source/_posts/notes/My Post.md", &none);
        assert_eq!(address(None, HexoRules::default(), &post), "2024/03/07/notes/My Post/");
        let at = |pattern: &str| address(Some(pattern), HexoRules::default(), &post);
        assert_eq!(at(":title/"), "notes/My Post/");
        assert_eq!(at(":year/:i_month/:i_day/:name.html"), "2024/3/7/My Post.html");
        assert_eq!(at(":hour:minute:second/:post_title/"), "090502/hello-세계/");
        assert_eq!(at(":category/:title/"), "uncategorized/notes/My Post/");
        assert_eq!(at(":lang/:title/"), "undefined/notes/My Post/");
        let with_defaults = HexoRules { permalink_defaults: vec![("lang".into(), "ko".into())], ..Default::default() };
        assert_eq!(address(Some(":lang/:title/"), with_defaults, &post), "ko/notes/My Post/");
        assert_eq!(at(":year/:title"), "2024/notes/My Post/", "a path without an extension is a folder");
        let assets = HexoRules { post_asset_folder: true, ..Default::default() };
        assert_eq!(address(Some(":title.html"), assets, &post), "notes/My Post.html");
    }

    #[test]
    fn categories_and_own_permalinks() {
        let extra = serde_json::json!({"categories": ["개발 일지", "Rust Lang"], "lang": "en"});
        let extra = extra.as_object().unwrap().clone();
        let post = facts("source/_posts/a.md", &extra);
        assert_eq!(address(Some(":category/:title/"), HexoRules::default(), &post), "개발-일지/Rust-Lang/a/");
        assert_eq!(address(Some(":lang/:title/"), HexoRules::default(), &post), "en/a/");
        let lists = serde_json::json!({"categories": [["A", "B"], ["C d"]]});
        let lists = lists.as_object().unwrap().clone();
        assert_eq!(address(Some(":category/"), HexoRules::default(), &facts("source/_posts/a.md", &lists)), "C-d/");
        let own = serde_json::json!({"permalink": "writing/own"});
        let own = own.as_object().unwrap().clone();
        assert_eq!(address(None, HexoRules::default(), &facts("source/_posts/a.md", &own)), "writing/own/");
    }

    #[test]
    fn pages_are_at_their_paths() {
        let none = serde_json::Map::new();
        let page = |path| PostFacts { page: true, ..facts(path, &none) };
        assert_eq!(address(None, HexoRules::default(), &page("source/about/index.md")), "about/");
        assert_eq!(address(None, HexoRules::default(), &page("source/archive/a.md")), "archive/a.html");
        let own = serde_json::json!({"permalink": "/now/"});
        let own = own.as_object().unwrap().clone();
        assert_eq!(
            address(None, HexoRules::default(), &PostFacts { page: true, ..facts("source/x.md", &own) }),
            "now/"
        );
    }

    #[test]
    fn which_files_are_posts_pages_and_copies() {
        let layout = Layout::of(Kind::Hexo);
        let post = |path: &str| Hexo.is_post(&layout, Path::new(path));
        let passed = |path: &str| Hexo.passes_over(&layout, Path::new(path));
        assert!(post("source/_posts/a.md") && post("source/_posts/deep/b.markdown") && post("source/about.md"));
        assert!(!post("source/_drafts/a.md") && !post("source/_posts/_hidden.md") && !post("source/_data/x.md"));
        assert!(!post("source/_posts/a.png") && passed("source/_posts/a/b.png"), "no asset folders by default");
        assert!(!passed("source/images/a.png") && passed("source/_data/menu.yml") && passed("source/a.md~"));
        assert!(Hexo.is_page(&layout, Path::new("source/about.md")));
        assert!(!Hexo.is_page(&layout, Path::new("source/_posts/a.md")));
        let rules = HexoRules {
            post_asset_folder: true,
            skip_render: vec!["demo/**".into(), "*.md".into()],
            render_drafts: true,
            ..Default::default()
        };
        let layout = Layout { hexo: rules, ..Layout::of(Kind::Hexo) };
        assert!(!Hexo.passes_over(&layout, Path::new("source/_posts/a/b.png")));
        assert!(Hexo.is_post(&layout, Path::new("source/_drafts/a.md")));
        assert!(!Hexo.is_post(&layout, Path::new("source/_posts/a.markdown")), "not new_post_name's extension");
        assert!(!Hexo.is_post(&layout, Path::new("source/demo/deep/x.md")));
        assert!(!Hexo.is_post(&layout, Path::new("source/top.md")));
        assert!(Hexo.is_post(&layout, Path::new("source/sub/deep.md")), "`*` stays within a part");
        assert!(!Hexo.passes_over(&layout, Path::new("source/demo/x.md")), "copied as it is");
        let owners = Hexo.asset_folders(&layout, Path::new("source"), Path::new("source/_posts/a/img/b.png"));
        assert_eq!(owners[0], (PathBuf::from("source/_posts/a/img.md"), PathBuf::from("source/_posts/a/img")));
        assert_eq!(owners[1], (PathBuf::from("source/_posts/a.md"), PathBuf::from("source/_posts/a")));
        assert_eq!(Hexo.loose_asset("images/a.png").as_deref(), Some("images/a.png"));
        assert_eq!(Hexo.loose_asset("_posts/a/b.png"), None);
    }

    /// The `titlecase` package's own cases (test/test.js), and Korean titles.
    #[test]
    fn titles_as_the_titlecase_package_writes_them() {
        assert_eq!(titlecase("the quick brown fox"), "The Quick Brown Fox");
        assert_eq!(titlecase("a thing of the past"), "A Thing of the Past");
        assert_eq!(titlecase("iPhone and node.js for the win"), "iPhone and node.js for the Win");
        assert_eq!(titlecase("Mapstruct (feat. Gradle)"), "Mapstruct (Feat. Gradle)");
        assert_eq!(titlecase("Invalid SockJS path."), "Invalid SockJS Path.");
        assert_eq!(titlecase("젠킨스 에이전트 (feat. 빌드 환경)"), "젠킨스 에이전트 (Feat. 빌드 환경)");
        assert_eq!(titlecase("Request Header is Too Large"), "Request Header Is Too Large");
        assert_eq!(titlecase("step-by-step: a guide"), "Step-by-Step: A Guide");
    }

    #[test]
    fn detection_wants_posts_or_a_hexo_package() {
        use super::super::FakeFolder;
        let claims = |files| Hexo.claims(&FakeFolder(files)).is_some();
        assert!(claims(vec![("_config.yml", "title: x\n"), ("source/_posts/a.md", "")]));
        assert!(claims(vec![("_config.yml", ""), ("package.json", r#"{"dependencies": {"hexo": "^8.0.0"}}"#)]));
        assert!(!claims(vec![("_config.yml", ""), ("_posts/2024-01-01-a.md", "")]), "Jekyll's");
        assert!(!claims(vec![("_config.yml", ""), ("package.json", r#"{"dependencies": {"vite": "1"}}"#)]));
    }

    #[test]
    fn settings_from_config_yml() {
        let text = "title: 블로그\nsubtitle: 부제\nurl: https://me.github.io\nroot: /blog/\nlanguage: [ko, en]\n\
                    permalink: :title/\nfuture: false\nfilename_case: 1\n";
        let (fields, _) = front_matter::read_fields(text, Format::Yaml).unwrap();
        let read = settings(&fields);
        assert_eq!(read.title.unwrap().value, "블로그");
        assert_eq!(read.description.unwrap().value, "부제");
        assert_eq!(read.base_url.unwrap().value, "https://me.github.io/blog/");
        assert_eq!(read.locale.unwrap().value, "ko");
        assert_eq!(read.permalink.unwrap().value, ":title/");
        assert_eq!(read.future_posts, Some(false));
        assert_eq!(read.term_slugs, Some(TermSlugs::Hexo(1)));
        assert!(glob_matches(b"**/*.js", b"a/b/c.js") && glob_matches(b"**/*.js", b"c.js"));
    }
}
