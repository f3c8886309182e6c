//! How a blog folder is laid out: which tool made it (`Kind`), and the
//! folders and rules its tool and settings give: where static files are and
//! where in the site they go, where the theme's overrides and shortcodes
//! are. A model: each tool's module fills it in (`Tool::layout`), and
//! detection reads the blog's settings over it.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::defaults::DefaultSet;
use crate::slug::{HugoPaths, TermSlugs, ZolaPaths};

/// The folder copied to the site as it is, in a Hanji, Hugo or Zola blog.
pub const STATIC_DIR: &str = "static";

/// The blog's own versions of the theme's templates, by the same names.
pub const TEMPLATES_DIR: &str = "templates";

/// Jekyll's posts: `_posts/YYYY-MM-DD-slug.md`.
pub const JEKYLL_POSTS_DIR: &str = "_posts";

/// The content folder of Hugo and Zola blogs: its folders are sections, and
/// they are in the addresses of their pages.
pub const CONTENT_DIR: &str = "content";

/// A Hanji blog's pages (an About page): `pages/about.md` is at `about/`.
pub const PAGES_DIR: &str = "pages";

/// The folder of pages that Jekyll themes add to `include` (`_pages/about.md`).
pub const JEKYLL_PAGES_DIR: &str = "_pages";

/// Markdown files directly in the blog folder are pages in a Jekyll blog
/// (`about.md`); this names "the blog folder itself" among `pages_dirs`.
pub const TOP: &str = "";

/// The usual top-level folders of images and files in a Jekyll blog, copied
/// to the same place in the site. (Jekyll copies every folder not starting
/// with `_`; these are the ones that hold what posts link to.)
pub const JEKYLL_STATIC_DIRS: &[&str] = &["assets", "images", "img", "files"];

/// Where `hanji export` writes, without `--out`, in a blog made with another
/// tool: not `public/`, which is Hugo's and Zola's output and the Next.js
/// starter's static files.
pub const OTHER_OUTPUT_DIR: &str = "hanji-public";

/// Hanji's theme overrides in a Zola blog, whose `templates/` are Zola's own.
pub const ZOLA_TEMPLATES_DIR: &str = "hanji-templates";

/// Where each tool keeps the shortcode templates of a blog (and of a theme,
/// under `themes/<theme>/`): Hugo's and Zola's shortcodes, Jekyll's includes.
/// Hugo 0.146+ names its folder `layouts/_shortcodes` and still reads the
/// older `layouts/shortcodes` as it (`TemplateStore.insertTemplates`'
/// `fromLegacyPath`); the first template found of a name wins.
pub const HUGO_SHORTCODES_DIRS: &[&str] = &["layouts/_shortcodes", "layouts/shortcodes"];
pub const ZOLA_SHORTCODES_DIR: &str = "templates/shortcodes";
pub const JEKYLL_INCLUDES_DIR: &str = "_includes";

/// The tool a blog folder is laid out for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    #[default]
    Hanji,
    Hugo,
    Zola,
    Jekyll,
    /// tailwind-nextjs-starter-blog.
    NextStarter,
    /// A folder of Markdown posts published by site code of its own
    /// (Gatsby, Astro, a Next.js site).
    Folder,
    Hexo,
}

impl Kind {
    pub const ALL: [Kind; 7] =
        [Kind::Hanji, Kind::Hugo, Kind::Zola, Kind::Jekyll, Kind::NextStarter, Kind::Folder, Kind::Hexo];

    /// As people call it: `Hugo`, `Next.js starter`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Hanji => "Hanji",
            Kind::Hugo => "Hugo",
            Kind::Zola => "Zola",
            Kind::Jekyll => "Jekyll",
            Kind::NextStarter => "Next.js starter",
            Kind::Folder => "Markdown folder",
            Kind::Hexo => "Hexo",
        }
    }

    /// As `layout = "…"` in `hanji.toml` names it.
    pub fn setting(self) -> &'static str {
        match self {
            Kind::Hanji => "hanji",
            Kind::Hugo => "hugo",
            Kind::Zola => "zola",
            Kind::Jekyll => "jekyll",
            Kind::NextStarter => "next-starter",
            Kind::Folder => "folder",
            Kind::Hexo => "hexo",
        }
    }

    pub fn from_setting(value: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.setting() == value)
    }
}

/// A folder copied to the site as it is, and where in the site it goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StaticDir {
    /// Relative to the blog folder: `static`.
    pub folder: PathBuf,
    /// The site path its files go under: `""` for the top, `assets/`.
    pub site_path: String,
}

impl StaticDir {
    /// A folder whose files go to the top of the site.
    pub fn at_top(folder: &str) -> StaticDir {
        StaticDir { folder: folder.into(), site_path: String::new() }
    }
}

/// How a blog folder is laid out. The posts folder and the export folder are
/// settings (`posts_dir`, `output_dir`), which detection fills in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Layout {
    pub kind: Kind,
    /// The tool's settings file the site settings were read from
    /// (`hugo.toml`), relative to the blog folder.
    pub settings_file: Option<PathBuf>,
    /// `hanji.toml` named the kind (`layout = "hugo"`) rather than detection.
    pub chosen_by_setting: bool,
    pub static_dirs: Vec<StaticDir>,
    /// Where the blog's versions of the theme's templates are.
    pub templates_dir: PathBuf,
    /// Folders of pages outside the posts folder: Hanji's `pages/`, Jekyll's
    /// `_pages/` and its top-level files (`TOP`: those directly in the blog
    /// folder, not below). Hugo's and Zola's pages are in `content/` itself.
    pub pages_dirs: Vec<PathBuf>,
    /// Where new posts go when it is not the posts folder: a Hugo blog reads
    /// every section of `content/`, and new posts go to `content/posts`.
    pub new_posts_dir: Option<PathBuf>,
    /// Address patterns by section, from the tool's settings (Hugo's
    /// `[permalinks]`: `posts = "/:year/:slug/"`).
    pub section_permalinks: Vec<(String, String)>,
    /// How the tool makes its tags' addresses from their names.
    pub term_slugs: TermSlugs,
    /// Posts dated later than now are published at once (Zola, the Next.js
    /// starter, or Hugo's `buildFuture`, Jekyll's `future`), not scheduled.
    pub future_posts: bool,
    /// Posts whose `expiryDate` has passed are still published (Hugo's `buildExpired`).
    pub expired_posts: bool,
    /// The name of the site's feed, and of each tag's feed in the tag's
    /// folder, as the tool names them: Hugo's `index.xml`, Zola's `atom.xml`
    /// (or its `feed_filename`), else `feed.xml`.
    pub feed_file: String,
    /// Where the tool's shortcode templates are, the blog's own first, then
    /// its theme's (a name found in an earlier folder wins).
    pub shortcode_dirs: Vec<PathBuf>,
    /// Front matter values by scope (Jekyll's `defaults`), in their order.
    pub front_matter_defaults: Vec<DefaultSet>,
    /// Jekyll's collections that it writes (`collections: tabs: output: true`),
    /// whose documents (`_tabs/about.md`) are pages.
    pub collections: Vec<Collection>,
    /// How Zola makes its pages' slugs (`[slugify] paths`), and whether a
    /// date at the start of a file's name stays in its slug (`paths_keep_dates`).
    pub zola_paths: ZolaPaths,
    pub zola_keep_dates: bool,
    /// Zola's sections (folders with an `_index.md`) and how each lists its pages.
    pub zola_sections: Vec<(PathBuf, ZolaSection)>,
    /// The Next.js starter's first version takes the dates out of its posts'
    /// paths (`formatSlug`): `2017-05-15-hello-world.md` → `/blog/hello-world`.
    pub starter_strips_dates: bool,
    /// A Hugo blog's own home template lists the pages at the top of
    /// `content/` with its posts (`range .Paginator.Pages`, `range
    /// .Site.RegularPages`): they are posts, not pages.
    pub hugo_home_lists_top_pages: bool,
    /// What a Hexo blog's `_config.yml` says of its files and addresses.
    pub hexo: super::HexoRules,
}

/// A collection of documents that Jekyll writes as pages of their own.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Collection {
    /// `tabs`: its documents are in `_tabs/`.
    pub name: String,
    /// Its own `permalink`, if it has one.
    pub permalink: Option<String>,
}

impl Collection {
    /// The folder of its documents: `_tabs`.
    pub fn folder(&self) -> PathBuf {
        PathBuf::from(format!("_{}", self.name))
    }
}

/// How a Zola section lists its pages, which says which of them a theme
/// shows as posts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum ZolaSection {
    /// `sort_by = "date"` (or `"update_date"`): its dated pages, newest first;
    /// Zola leaves a page without a date out of the list (`ignored_pages`).
    ByDate,
    /// Any other order (Zola's default, `"none"`): every page.
    Unsorted,
    /// `render = false`: the section has no page of its own, and lists none.
    Hidden,
}

impl Layout {
    /// A `kind` of blog laid out as Hanji lays out its own: static files in
    /// `static/`, templates in `templates/`, no pages folder, no shortcodes,
    /// GitHub's slugs for tags, `feed.xml`. Each tool's `layout` starts here.
    pub(super) fn base(kind: Kind) -> Layout {
        Layout {
            kind,
            settings_file: None,
            chosen_by_setting: false,
            static_dirs: vec![StaticDir::at_top(STATIC_DIR)],
            templates_dir: TEMPLATES_DIR.into(),
            pages_dirs: Vec::new(),
            new_posts_dir: None,
            section_permalinks: Vec::new(),
            term_slugs: TermSlugs::GitHub,
            future_posts: false,
            expired_posts: false,
            feed_file: "feed.xml".into(),
            shortcode_dirs: Vec::new(),
            front_matter_defaults: Vec::new(),
            collections: Vec::new(),
            zola_paths: ZolaPaths::On,
            zola_keep_dates: false,
            zola_sections: Vec::new(),
            starter_strips_dates: false,
            hugo_home_lists_top_pages: false,
            hexo: super::HexoRules::default(),
        }
    }

    /// The Zola section nearest a page in `folder`: None when no folder from
    /// it up to `content/` is a section.
    pub fn zola_section(&self, folder: &Path) -> Option<ZolaSection> {
        folder
            .ancestors()
            .take_while(|f| f.starts_with(CONTENT_DIR))
            .find_map(|f| self.zola_sections.iter().find(|(section, _)| section == f).map(|(_, how)| *how))
    }

    /// Adds the shortcode templates of the theme `name` (`themes/<name>/…`),
    /// after the blog's own.
    pub fn add_theme(&mut self, name: &str) {
        let name = name.trim();
        if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
            return;
        }
        for own in self.tool().shortcode_dirs() {
            let dir = Path::new("themes").join(name).join(own);
            if !self.shortcode_dirs.contains(&dir) {
                self.shortcode_dirs.push(dir);
            }
        }
    }

    /// How a Hugo blog makes paths of names (its `removePathAccents`).
    pub fn hugo_paths(&self) -> HugoPaths {
        match self.term_slugs {
            TermSlugs::Hugo(paths) => paths,
            _ => HugoPaths::default(),
        }
    }

    /// Where a file of a static folder goes in the site: `static/a.png` →
    /// `a.png`, Jekyll's `assets/a.png` → `assets/a.png`.
    pub fn static_site_path(&self, file: &Path) -> Option<String> {
        self.static_dirs.iter().find_map(|dir| {
            let rest = file.strip_prefix(&dir.folder).ok()?;
            let rest: Vec<_> = rest.components().map(|c| c.as_os_str().to_string_lossy()).collect();
            Some(format!("{}{}", dir.site_path, rest.join("/")))
        })
    }

    /// The files that could be at `site_path` (`images/a.png`), one per static
    /// folder that holds that part of the site, and the posts folder's file
    /// there where the tool copies its files to the same place (Hexo's `source/`).
    pub fn static_files(&self, site_path: &str) -> Vec<PathBuf> {
        let mut files: Vec<PathBuf> = self
            .static_dirs
            .iter()
            .filter_map(|dir| site_path.strip_prefix(dir.site_path.as_str()).map(|rest| dir.folder.join(rest)))
            .collect();
        files.extend(self.tool().loose_file(site_path));
        files
    }

    /// Whether `path` (relative to the blog folder) is in one of the pages
    /// folders: under `pages/`, or, for `TOP`, directly in the blog folder.
    pub fn in_pages_dir(&self, path: &Path) -> bool {
        self.pages_dirs.iter().any(|dir| match dir.as_os_str().is_empty() {
            true => path.components().count() == 1,
            false => path.starts_with(dir) && path != dir,
        })
    }

    /// Where new posts go: the posts folder, or the layout's own choice.
    pub fn new_posts_dir<'a>(&'a self, posts_dir: &'a Path) -> &'a Path {
        self.new_posts_dir.as_deref().filter(|dir| dir.starts_with(posts_dir)).unwrap_or(posts_dir)
    }

    /// The name a post calls the shortcode template at `path` (relative to
    /// the blog folder) by, if it is one: Hugo's `layouts/shortcodes/note.html`
    /// is `note` (`sub/note.html` is `sub/note`; `note.amp.html` is another
    /// output format's, none), Zola's `templates/shortcodes/note.html` or
    /// `.md` is `note`, Jekyll's `_includes/notes/warn.html` is `notes/warn.html`.
    pub fn shortcode_name(&self, path: &Path) -> Option<String> {
        let relative = self.shortcode_dirs.iter().find_map(|dir| path.strip_prefix(dir).ok())?;
        let parts: Vec<String> = relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        self.tool().shortcode_name(&parts.join("/")).filter(|n| !n.is_empty())
    }

    /// Where an image added to a single-file post is put, a folder that this
    /// layout publishes: `static/images` (Hanji, Hugo, Zola), `assets/images`
    /// (Jekyll), `public/static/images` (the Next.js starter).
    pub fn images_dir(&self) -> PathBuf {
        self.tool().images_dir(self)
    }

    /// One line for `hanji check` and the app: `detected a Hugo blog
    /// (hugo.toml): posts in content/posts`. None for a Hanji blog.
    pub fn describe(&self, posts_dir: &Path) -> Option<String> {
        if self.kind == Kind::default() {
            return None;
        }
        let how = if self.chosen_by_setting {
            format!("a {} blog, as hanji.toml says", self.kind.name())
        } else {
            format!("detected a {} blog", self.kind.name())
        };
        let from = self.settings_file.as_ref().map(|file| format!(" ({})", file.display())).unwrap_or_default();
        Some(format!("{how}{from}: posts in {}", posts_dir.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_layout_says_where_static_files_go() {
        let jekyll = Layout::of(Kind::Jekyll);
        assert_eq!(jekyll.static_site_path(Path::new("assets/img/a.png")).as_deref(), Some("assets/img/a.png"));
        assert_eq!(jekyll.static_files("assets/img/a.png"), [PathBuf::from("assets/img/a.png")]);
        assert_eq!(jekyll.static_site_path(Path::new("_posts/a.png")), None);
        let next = Layout::of(Kind::NextStarter);
        assert_eq!(next.static_site_path(Path::new("public/static/a.png")).as_deref(), Some("static/a.png"));
        assert_eq!(next.static_files("static/a.png"), [PathBuf::from("public/static/a.png")]);
        for kind in Kind::ALL {
            let layout = Layout::of(kind);
            let image = layout.images_dir().join("a.png");
            // Or, in a Hexo blog, as a file of the posts folder (`source/`).
            let loose = image.strip_prefix(layout.tool().posts_dir()).ok().map(crate::tool::slash_path);
            let loose = loose.and_then(|within| layout.tool().loose_asset(&within));
            assert!(layout.static_site_path(&image).is_some() || loose.is_some(), "{kind:?} publishes its images");
        }
        let hexo = Layout::of(Kind::Hexo);
        assert_eq!(hexo.static_files("images/a.png"), [PathBuf::from("source/images/a.png")]);
        assert!(hexo.static_files("_posts/a.png").is_empty());
    }

    #[test]
    fn shortcode_templates_are_named_as_posts_call_them() {
        let mut hugo = Layout::of(Kind::Hugo);
        hugo.add_theme("ananke");
        let name = |layout: &Layout, path: &str| layout.shortcode_name(Path::new(path));
        assert_eq!(name(&hugo, "layouts/shortcodes/imageFull.html").as_deref(), Some("imageFull"));
        assert_eq!(name(&hugo, "layouts/_shortcodes/imageFull.html").as_deref(), Some("imageFull"), "Hugo 0.146+");
        assert_eq!(name(&hugo, "themes/ananke/layouts/_shortcodes/x.html").as_deref(), Some("x"));
        assert_eq!(name(&hugo, "layouts/shortcodes/sub/note.html").as_deref(), Some("sub/note"));
        assert_eq!(name(&hugo, "themes/ananke/layouts/shortcodes/x.html").as_deref(), Some("x"));
        assert_eq!(name(&hugo, "layouts/shortcodes/x.amp.html"), None, "another output format's");
        assert_eq!(name(&hugo, "layouts/partials/x.html"), None);
        hugo.add_theme("../../etc");
        assert_eq!(hugo.shortcode_dirs.len(), 4, "a theme name is a name, not a path");
        let zola = Layout::of(Kind::Zola);
        assert_eq!(name(&zola, "templates/shortcodes/note.md").as_deref(), Some("note"));
        let jekyll = Layout::of(Kind::Jekyll);
        assert_eq!(name(&jekyll, "_includes/notes/warn.html").as_deref(), Some("notes/warn.html"));
        assert!(Layout::of(Kind::Hanji).shortcode_dirs.is_empty());
    }
}
