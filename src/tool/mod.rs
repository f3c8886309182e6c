//! The tools a blog folder can be made with, each in one module of its own
//! (`hanji`, `hugo`, `zola`, `jekyll`, `next_starter`, `hexo`): how the tool is
//! detected, its settings, which of its files are posts and pages, the syntax
//! its posts hold, how it names and dates a post from its file, what it holds
//! back, the addresses of posts and pages, its aliases and shortcodes, and
//! where new posts and images go. The rest of the core asks the blog's tool
//! through [`Tool`] (`tool::of(kind)`) and branches on no tool itself
//! (`tests/blog/layers.rs` holds it). Adding a tool is one new module here,
//! its `Kind`, its fixtures and its differential test.

mod address;
mod file;
mod folder;
mod hanji;
mod hexo;
mod hugo;
mod jekyll;
mod layout;
mod next_starter;
mod settings;
mod zola;

use std::path::{Path, PathBuf};

use jiff::civil::Date;
use serde_json::{Map, Value};

use crate::diagnostics::Diagnostic;

pub use address::{own_url, slash_path};
#[cfg(test)]
pub(crate) use file::title_from_name;
pub use file::{BUNDLE_INDEXES, PostFile};
pub use hexo::HexoRules;
#[cfg(test)]
pub(crate) use jekyll::permalink_named;
pub use layout::*;
#[cfg(test)]
pub(crate) use settings::FakeFolder;
pub use settings::{Folder, Setting, Settings};

/// Which other tool's syntax a body may hold besides Markdown, and its
/// tool's templates are written in. Only that tool's is looked for: `{{ x }}`
/// is text in a Hanji post, Liquid in Jekyll's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Syntax {
    #[default]
    Markdown,
    /// Shortcodes `{{< name … >}}` and `{{% name … %}}`.
    Hugo,
    /// Shortcodes `{{ name(…) }}` and `{% name(…) %}…{% end %}`.
    Zola,
    /// Jekyll's tags `{% name … %}` and output `{{ … }}`.
    Liquid,
    /// JSX components `<Name …/>` and `import`/`export` lines.
    Mdx,
}

/// What a tool's rules read of a post: its file, what its front matter
/// writes, and what Hanji made of it (`content::Post::facts`).
#[derive(Debug, Clone)]
pub struct PostFacts<'a> {
    /// Relative to the blog folder.
    pub path: &'a Path,
    pub slug: &'a str,
    /// The front matter writes `slug`.
    pub own_slug: bool,
    pub title: &'a str,
    pub date: Option<Date>,
    /// The time of day the front matter's date gives, if any.
    pub time: Option<jiff::civil::Time>,
    pub page: bool,
    /// The front matter keys Hanji keeps as they are (`url`, `permalink`, `path`, …).
    pub extra: &'a Map<String, Value>,
}

impl PostFacts<'_> {
    /// A text value of the front matter.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.extra.get(key).and_then(Value::as_str)
    }

    /// The slug as the post writes it, before a tool makes an address of it:
    /// its `slug`, else its file's name (a Jekyll name without its date, a
    /// bundle's folder).
    pub fn written_slug(&self) -> String {
        if self.own_slug { self.slug.to_string() } else { crate::tool::PostFile::new(self.path).name() }
    }
}

/// What an address is made from besides the post: the blog's settings.
#[derive(Debug, Clone, Copy)]
pub struct Addressing<'a> {
    pub layout: &'a Layout,
    pub posts_dir: &'a Path,
    /// The blog's address pattern (`permalink` in `hanji.toml`, Jekyll's `permalink`).
    pub permalink: Option<&'a str>,
}

/// A tool's rules. Each method says which rule of the tool it follows.
pub trait Tool: Sync {
    fn kind(&self) -> Kind;

    // Detection and settings.

    /// The files the tool reads its settings from, preferred first.
    fn settings_files(&self) -> &'static [&'static str] {
        &[]
    }

    /// Whether `folder` is surely this tool's blog (by a file only it has),
    /// and its settings file.
    fn claims(&self, _folder: &dyn Folder) -> Option<Option<PathBuf>> {
        None
    }

    /// Whether `folder` may be this tool's blog when no tool claims it surely.
    fn may_claim(&self, _folder: &dyn Folder) -> Option<Option<PathBuf>> {
        None
    }

    /// Where the tool keeps posts.
    fn posts_dir(&self) -> PathBuf;

    /// Where this blog keeps its posts, where its own files say (a Gatsby
    /// site's query).
    fn posts_dir_in(&self, _folder: &dyn Folder) -> PathBuf {
        self.posts_dir()
    }

    /// The address pattern the blog's own files give its posts (read into
    /// the blog's `permalink`, which its settings and `hanji.toml` may set).
    fn permalink_in(&self, _folder: &dyn Folder) -> Option<String> {
        None
    }

    /// The tool's folders and rules before its settings are read.
    fn layout(&self) -> Layout;

    /// What the blog's own files say of its layout besides its settings
    /// (Zola's sections, the starter's version).
    fn read_folder(&self, _folder: &dyn Folder, _layout: &mut Layout) {}

    /// The site settings from the tool's settings file.
    fn settings(&self, _file: &Path, _text: &str, _problems: &mut Vec<Diagnostic>) -> Settings {
        Settings::default()
    }

    /// Where `hanji export` writes without `--out`.
    fn output_dir(&self) -> &'static str {
        OTHER_OUTPUT_DIR
    }

    /// The folder above the posts folder whose every section the tool
    /// publishes (Hugo's `content/`), where the posts folder is set to one.
    fn publishes_every_section_of(&self) -> Option<&'static str> {
        None
    }

    // Files.

    /// The syntax of the tool's templates and shortcodes.
    fn template_syntax(&self) -> Syntax {
        Syntax::Markdown
    }

    /// The syntax a post file may hold besides Markdown.
    fn syntax(&self, _path: &Path) -> Syntax {
        self.template_syntax()
    }

    /// Whether the file is one of the tool's text posts (Markdown).
    fn is_text(&self, path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "md" || e == "markdown")
    }

    /// Whether a file of the posts folder is neither a post nor a file the
    /// tool copies: a section's `_index.md`, a text file that is no post
    /// (Jekyll's undated `_posts` files).
    fn passes_over(&self, layout: &Layout, path: &Path) -> bool {
        is_section(path) || (self.is_text(path) && !self.is_post(layout, path))
    }

    /// Whether a file of the posts folder (or of a pages folder) is read as a
    /// post or page.
    fn is_post(&self, _layout: &Layout, path: &Path) -> bool {
        self.is_text(path) && !is_section(path)
    }

    /// Whether a post file is a page (an About page) rather than a post, by
    /// its place alone.
    fn is_page(&self, layout: &Layout, path: &Path) -> bool;

    /// Whether a text file of the static folders may be a template the tool
    /// runs rather than copies (when it starts with front matter).
    fn may_be_template(&self, _path: &Path) -> bool {
        false
    }

    /// Whether a file of the posts folder is part of the settings (Zola's
    /// sections' `_index.md`, which say how they list their pages).
    fn is_listing_setting(&self, _path: &Path) -> bool {
        false
    }

    /// Where the blog's shortcode templates are (and a theme's, below
    /// `themes/<name>/`), the first found of a name winning.
    fn shortcode_dirs(&self) -> &'static [&'static str] {
        &[]
    }

    /// The name a post calls the shortcode template by, from its path below
    /// the shortcode folder (`note.html`, `sub/note.html`).
    fn shortcode_name(&self, _below: &str) -> Option<String> {
        None
    }

    /// The posts whose own folder `asset` (a file of `posts_dir`) may be in,
    /// nearest first, each with that folder: a bundle's `index.md` beside it.
    /// The asset goes beside the first of them that is a post's page.
    fn asset_folders(&self, _layout: &Layout, posts_dir: &Path, asset: &Path) -> Vec<(PathBuf, PathBuf)> {
        let folders = asset.ancestors().skip(1).take_while(|f| f.starts_with(posts_dir) && *f != posts_dir);
        folders
            .flat_map(|folder| BUNDLE_INDEXES.iter().map(move |name| (folder.join(name), folder.to_path_buf())))
            .collect()
    }

    /// Where a file of the posts folder that is in no post's folder goes in
    /// the site, by its path `within` the posts folder: under `posts/`. None
    /// where the tool does not publish it.
    fn loose_asset(&self, within: &str) -> Option<String> {
        Some(format!("posts/{within}"))
    }

    /// Where the files of a post's own folder go, by the post's address: in
    /// its folder, or beside its page where its address is a file
    /// (`2024/a.html` → `2024/`).
    fn asset_folder_address(&self, post_address: &str) -> String {
        if post_address.ends_with('/') {
            return post_address.to_string();
        }
        post_address.rsplit_once('/').map_or_else(String::new, |(folder, _)| format!("{folder}/"))
    }

    /// The file of the posts folder that `loose_asset` puts at `site_path`, if any.
    fn loose_file(&self, _site_path: &str) -> Option<PathBuf> {
        None
    }

    /// Where a new post named `slug` goes in `posts_dir`.
    fn new_post_path(&self, posts_dir: &Path, slug: &str, bundle: bool, _date: Date) -> PathBuf {
        if bundle { posts_dir.join(slug).join("index.md") } else { posts_dir.join(format!("{slug}.md")) }
    }

    /// Where an image added to a single-file post goes, in a folder the site publishes.
    fn images_dir(&self, layout: &Layout) -> PathBuf {
        layout.static_dirs.first().map_or_else(|| PathBuf::from(STATIC_DIR), |dir| dir.folder.clone()).join("images")
    }

    // Reading a post.

    /// The slug and date a post's file name gives it where the tool reads
    /// them so (Zola's dated names); `slug` is the front matter's.
    fn named(&self, _layout: &Layout, _path: &Path, _slug: Option<&str>) -> Option<(String, Option<Date>)> {
        None
    }

    /// Whether the tool makes a post a page by what it writes (Zola's own
    /// `template`, or no date in a section sorted by date).
    fn is_page_by_front_matter(&self, _layout: &Layout, _post: &PostFacts) -> bool {
        false
    }

    /// The title the tool shows for the one a post's front matter writes,
    /// where it changes it (Hexo's `titlecase`); None keeps it.
    fn title(&self, _layout: &Layout, _written: &str, _extra: &Map<String, Value>) -> Option<String> {
        None
    }

    /// The title the tool gives a page whose front matter has none (the
    /// Next.js starter's About page, the default author's file).
    fn page_title(&self, _path: &Path) -> Option<&'static str> {
        None
    }

    /// Whether a page is published at all: Jekyll copies a top-level file
    /// without front matter as it is, and its `index.md` is the theme's front page.
    fn publishes_page(&self, _path: &Path, _has_front_matter: bool) -> bool {
        true
    }

    /// Whether a post whose `expiryDate` passed is held back.
    fn holds_expired(&self, _layout: &Layout) -> bool {
        false
    }

    /// Whether two posts of one slug are at one address (so one is left
    /// out), by their places: `same_folder` where neither has its own.
    fn slug_shares_address(&self, _permalink: bool, _pages: (bool, bool), same_folder: bool) -> bool {
        same_folder
    }

    // Addresses.

    /// Where a post's (or a page's) page is, as the tool puts it.
    fn address(&self, at: &Addressing, post: &PostFacts) -> String;

    /// The front matter key of a post's old addresses.
    fn aliases_key(&self) -> &'static str {
        "aliases"
    }
}

/// Every tool, Hanji's own first.
pub const TOOLS: [&dyn Tool; 7] = [
    &hanji::Hanji,
    &hugo::Hugo,
    &zola::Zola,
    &jekyll::Jekyll,
    &next_starter::NextStarter,
    &folder::MarkdownFolder,
    &hexo::Hexo,
];

/// The rules of the tool `kind`.
pub fn of(kind: Kind) -> &'static dyn Tool {
    match kind {
        Kind::Hanji => &hanji::Hanji,
        Kind::Hugo => &hugo::Hugo,
        Kind::Zola => &zola::Zola,
        Kind::Jekyll => &jekyll::Jekyll,
        Kind::NextStarter => &next_starter::NextStarter,
        Kind::Folder => &folder::MarkdownFolder,
        Kind::Hexo => &hexo::Hexo,
    }
}

/// The order detection asks the tools in: the starter's settings file is in
/// no other tool's folder; Hugo's own names come before Jekyll's; Hexo's
/// `_config.yml` is Jekyll's name too, so Hexo (surely claimed by its
/// `source/_posts` or its `package.json`) is asked first, and a site of its
/// own (Gatsby, Astro, Next.js) too, as the Next.js blog starter keeps its
/// posts in `_posts`; a Zola `config.toml` is told from Hugo's older one by
/// Zola's required `base_url`.
const DETECTION_ORDER: [Kind; 6] = [Kind::NextStarter, Kind::Hugo, Kind::Hexo, Kind::Folder, Kind::Jekyll, Kind::Zola];

/// The tool a folder is laid out for and its settings file: first a tool
/// that claims it surely, then one that may. None for a Hanji blog.
pub fn detect_kind(folder: &dyn Folder) -> Option<(Kind, Option<PathBuf>)> {
    let surely = DETECTION_ORDER.iter().find_map(|kind| of(*kind).claims(folder).map(|file| (*kind, file)));
    surely.or_else(|| DETECTION_ORDER.iter().find_map(|kind| of(*kind).may_claim(folder).map(|file| (*kind, file))))
}

/// The settings files of every tool: a change to any of them may change the layout.
pub fn is_settings_file(path: &Path) -> bool {
    TOOLS.iter().any(|tool| tool.settings_files().iter().any(|file| path == Path::new(file)))
}

/// A Zola or Hugo section's own file, `_index.md`: not a post, and not a file
/// to copy either (neither tool publishes its Markdown).
pub fn is_section(path: &Path) -> bool {
    path.file_stem().is_some_and(|stem| stem == "_index")
        && path.extension().is_some_and(|e| e == "md" || e == "markdown" || e == "mdx")
}

impl Default for Layout {
    fn default() -> Self {
        Layout::of(Kind::Hanji)
    }
}

impl Layout {
    /// The folders and rules of a `kind` of blog, before its settings are read.
    pub fn of(kind: Kind) -> Layout {
        of(kind).layout()
    }

    /// The rules of the blog's tool.
    pub fn tool(&self) -> &'static dyn Tool {
        of(self.kind)
    }
}
