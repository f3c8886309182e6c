//! The site: which pages a blog has, and each page rendered through the theme.
//! The export, the preview server and the app's preview all render here, so a
//! page looks the same wherever it is seen.

pub mod context;
pub mod dates;
pub mod images;
pub mod links;
pub mod related;
pub mod routes;
pub mod stale;
pub mod theme;
pub mod url;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use minijinja::{Value, context};

use crate::config::Config;
use crate::content::{Library, Post, Tag};
use crate::diagnostics::Diagnostic;
use crate::images::Catalog;
use crate::markdown::{self, HighlightCache, Options, Shortcodes};
use crate::search::index as search;
use context::{
    AnalyticsInfo, CommentsInfo, FeedItem, PageInfo, Pagination, PostLink, PostPage, PostSeries, PostSummary,
    RelatedPost, SeriesInfo, SeriesPart, SiteInfo, SitemapEntry, TagInfo,
};
use dates::DateFormat;
use images::Pictures;
use links::Links;
use routes::Addresses;
pub use routes::Page;
use theme::{Theme, ThemeError};

/// How the site is rendered: the export shows no drafts; a preview may.
#[derive(Debug, Clone, Copy, Default)]
pub struct SiteOptions {
    /// Show drafts (marked) in lists, counts and as pages.
    pub drafts: bool,
    /// Add `data-line` to the blocks of posts, for the editor's scroll sync.
    pub source_lines: bool,
    /// Give the site its search (a box on every page, the results page and
    /// its script), if the blog's settings have it on: the export and `hanji
    /// serve` do; the app's preview, whose pages run no script, does not.
    pub search: bool,
    /// Add the comments and analytics the settings name: the export does;
    /// previews do not (the app's pages run no script, and an author's own
    /// visits to `hanji serve` are not readers to count).
    pub services: bool,
}

/// The pages of a site with the file each is written to, and the posts left
/// out because another page has their file.
#[derive(Debug, Default)]
pub struct Placed {
    pub pages: Vec<(Page, String)>,
    pub problems: Vec<Diagnostic>,
    /// Posts not written, each named in `problems` with an error.
    pub left_out: Vec<PathBuf>,
}

/// A rendered page, with the problems rendering found (links that lead nowhere).
#[derive(Debug, Clone)]
pub struct RenderedPage {
    pub text: String,
    pub problems: Vec<Diagnostic>,
    /// A post's prose, as search indexes it (`markdown::Rendered::text`);
    /// None for other pages.
    pub post_text: Option<String>,
}

/// A post's page, with the counts of its text (for the app's status bar).
#[derive(Debug, Clone)]
pub struct RenderedPost {
    pub page: RenderedPage,
    /// The headings the page's table of contents lists, with their lines.
    pub toc: Vec<markdown::TocEntry>,
    /// Its prose, as search indexes it.
    pub text: String,
    pub words: usize,
    pub reading_minutes: usize,
}

pub struct Site<'a> {
    pub config: &'a Config,
    pub library: &'a Library,
    pub assets: &'a BTreeSet<PathBuf>,
    pub theme: &'a Theme,
    pub options: SiteOptions,
    info: SiteInfo,
    dates: DateFormat,
    /// Shown posts, newest first.
    posts: Vec<&'a Post>,
    /// Shown pages (an About page), which no list shows.
    pages: Vec<&'a Post>,
    position: HashMap<&'a Path, usize>,
    /// Shown tags, most used first, with their shown posts newest first.
    tags: Vec<(TagInfo, Vec<&'a Post>)>,
    tag_index: HashMap<String, usize>,
    /// Shown categories, as `tags`.
    categories: Vec<(TagInfo, Vec<&'a Post>)>,
    category_index: HashMap<String, usize>,
    /// Shown series, most parts first, with their shown posts first first.
    series: Vec<(TagInfo, Vec<&'a Post>)>,
    series_index: HashMap<String, usize>,
    /// The sidebar is the same on many pages: rendered once per way to the
    /// top and current tag.
    sidebars: Mutex<HashMap<(String, String), Arc<str>>>,
    highlights: HighlightCache,
    /// The site's addresses, for links written as site paths to be written
    /// as the site has them (and checked); see `with_routes`.
    routes: Option<routes::Routes>,
    /// The blog's own shortcode templates.
    shortcodes: Option<&'a Shortcodes>,
    /// What the site knows of its images, to size them for the screen.
    images: Option<&'a Catalog>,
    /// Every tag's shown posts, numbered, for related posts: made when the
    /// first post's page asks.
    related: std::sync::OnceLock<related::RelatedIndex<'a>>,
}

impl<'a> Site<'a> {
    pub fn new(
        config: &'a Config,
        library: &'a Library,
        assets: &'a BTreeSet<PathBuf>,
        theme: &'a Theme,
        options: SiteOptions,
    ) -> Self {
        let (pages, posts): (Vec<&Post>, Vec<&Post>) =
            library.posts().filter(|p| shown(library, p, options)).partition(|p| p.page);
        let tags: Vec<(TagInfo, Vec<&Post>)> = library
            .tags(options.drafts)
            .iter()
            .map(|tag| {
                (
                    TagInfo::of(tag, options.drafts, &Addresses::new(config, library)),
                    tag_posts(library, tag, options.drafts),
                )
            })
            .collect();
        let categories: Vec<(TagInfo, Vec<&Post>)> = library
            .categories(options.drafts)
            .iter()
            .map(|category| {
                let info = TagInfo::of_category(category, options.drafts, &Addresses::new(config, library));
                (info, tag_posts(library, category, options.drafts))
            })
            .collect();
        let series: Vec<(TagInfo, Vec<&Post>)> = library
            .all_series(options.drafts)
            .iter()
            .map(|series| {
                let info = TagInfo::of_series(series, options.drafts, &Addresses::new(config, library));
                let mut posts = tag_posts(library, series, options.drafts);
                posts.sort_by(|a, b| first_first(a).cmp(&first_first(b)));
                (info, posts)
            })
            .collect();
        let mut site = Self::with_lists(config, library, assets, theme, options, posts, tags);
        site.category_index = categories.iter().enumerate().map(|(i, (t, _))| (t.slug.clone(), i)).collect();
        site.categories = categories;
        site.series_index = series.iter().enumerate().map(|(i, (t, _))| (t.slug.clone(), i)).collect();
        site.series = series;
        site.pages = pages;
        site
    }

    /// A site that renders single posts only (`render_post`): the lists of
    /// posts and tags, which cost time in proportion to the blog, are not
    /// made. The app's live preview renders one through it per keystroke.
    pub fn for_posts(
        config: &'a Config,
        library: &'a Library,
        assets: &'a BTreeSet<PathBuf>,
        theme: &'a Theme,
        options: SiteOptions,
    ) -> Self {
        Self::with_lists(config, library, assets, theme, options, Vec::new(), Vec::new())
    }

    fn with_lists(
        config: &'a Config,
        library: &'a Library,
        assets: &'a BTreeSet<PathBuf>,
        theme: &'a Theme,
        options: SiteOptions,
        posts: Vec<&'a Post>,
        tags: Vec<(TagInfo, Vec<&'a Post>)>,
    ) -> Self {
        let position = posts.iter().enumerate().map(|(i, p)| (p.path.as_path(), i)).collect();
        let tag_index = tags.iter().enumerate().map(|(i, (t, _))| (t.slug.clone(), i)).collect();
        let lang = config.locale.split(['-', '_']).next().unwrap_or("en").to_string();
        // The pages in the navigation: not one at the address of a page of the
        // theme's own (a Jekyll blog's `tags.md`), which the export leaves out.
        let addresses = Addresses::new(config, library);
        let mut page_links: Vec<PostLink> = library
            .pages()
            .filter(|page| shown(library, page, options))
            .map(|page| PostLink::of(page, &addresses))
            .filter(|link| !addresses.is_theme_page(&link.path))
            .collect();
        page_links.sort_by(|a, b| a.path.cmp(&b.path));
        let info = SiteInfo {
            title: config.title.clone(),
            description: config.description.clone(),
            base_url: config.base_url.clone(),
            locale: config.locale.clone(),
            lang,
            author: config.author.clone(),
            pages: page_links,
            categories: library.has_categories(options.drafts),
            series: library.has_series(options.drafts),
            feed: addresses.page(&Page::Feed),
        };
        Site {
            config,
            library,
            assets,
            theme,
            options,
            info,
            dates: DateFormat::new(&config.locale),
            posts,
            pages: Vec::new(),
            position,
            tags,
            tag_index,
            categories: Vec::new(),
            category_index: HashMap::new(),
            series: Vec::new(),
            series_index: HashMap::new(),
            sidebars: Mutex::default(),
            highlights: HighlightCache::new(),
            routes: None,
            shortcodes: None,
            images: None,
            related: std::sync::OnceLock::new(),
        }
    }

    /// The blog's own shortcode templates, run in its posts where simple.
    pub fn with_shortcodes(mut self, shortcodes: &'a Shortcodes) -> Self {
        self.shortcodes = Some(shortcodes);
        self
    }

    /// Images sized for the screen, from what `catalog` knows of them (an
    /// export's catalog also makes their copies as pages ask for them).
    pub fn with_images(mut self, catalog: &'a Catalog) -> Self {
        self.images = Some(catalog);
        self
    }

    /// Highlighted code from an earlier export, to be used again.
    pub fn with_highlights(mut self, highlights: HighlightCache) -> Self {
        self.highlights = highlights;
        self
    }

    /// The site with its addresses known to its pages' links: a link by a
    /// page's live address (`/2018/08/15/a-post`) is written as the site has
    /// it (`….html`), and one to nowhere is a problem of the page.
    pub fn with_routes(mut self) -> Self {
        self.routes = Some(routes::Routes::of(&self));
        self
    }

    /// The code this site highlighted (and what it was given), to be kept.
    pub fn highlights(&self) -> &HighlightCache {
        &self.highlights
    }

    /// Every page of the site.
    pub fn pages(&self) -> Vec<Page> {
        let mut pages = Vec::with_capacity(self.posts.len() * 2 + 8);
        for n in 1..=self.page_count(self.posts.len()) {
            pages.push(Page::Home(n));
        }
        pages.extend(self.posts.iter().chain(&self.pages).map(|p| Page::Post(p.path.clone())));
        let addresses = self.addresses();
        for post in self.posts.iter().chain(&self.pages) {
            pages.extend(addresses.aliases(post).into_iter().map(|alias| Page::Alias(post.path.clone(), alias)));
        }
        pages.push(Page::Tags);
        for (tag, posts) in &self.tags {
            for n in 1..=self.page_count(posts.len()) {
                pages.push(Page::Tag(tag.slug.clone(), n));
            }
            pages.push(Page::TagFeed(tag.slug.clone()));
        }
        if !self.categories.is_empty() {
            pages.push(Page::Categories);
        }
        for (category, posts) in &self.categories {
            for n in 1..=self.page_count(posts.len()) {
                pages.push(Page::Category(category.slug.clone(), n));
            }
        }
        if !self.series.is_empty() {
            pages.push(Page::AllSeries);
        }
        pages.extend(self.series.iter().map(|(series, _)| Page::Series(series.slug.clone())));
        pages.extend([Page::Feed, Page::Sitemap, Page::Robots, Page::NotFound, Page::Style]);
        if self.has_search() {
            pages.extend([Page::Search, Page::SearchScript]);
        }
        pages
    }

    /// Every page with the file it is written to, less the posts whose file
    /// another page has too (a `permalink` without `:slug`, a post at
    /// `tags/`): none of them is written, and each is named, rather than one
    /// silently over the other. A page (an About page) where the theme has
    /// one of its own (a Jekyll blog's `tags.md` at `tags/`) gives way to it.
    pub fn files(&self) -> Placed {
        let pages: Vec<(Page, String)> = self
            .pages()
            .into_iter()
            .map(|page| {
                let file = url::file_of(&self.path_of(&page));
                (page, file)
            })
            .collect();
        let mut at: BTreeMap<&str, Vec<&Page>> = BTreeMap::new();
        for (page, file) in &pages {
            at.entry(file).or_default().push(page);
        }
        let mut placed = Placed::default();
        let mut left_out = BTreeSet::new();
        for (file, all) in at.iter().filter(|(_, pages)| pages.len() > 1) {
            // An old address (an alias) gives way to any page that is there now.
            let (aliases, clashing): (Vec<&Page>, Vec<&Page>) =
                all.iter().copied().partition(|page| matches!(page, Page::Alias(..)));
            let kept_alias = clashing.is_empty().then(|| aliases.first().copied()).flatten();
            for alias in aliases.iter().filter(|alias| Some(**alias) != kept_alias) {
                let Page::Alias(path, _) = alias else { continue };
                left_out.insert((*alias).clone());
                let message = format!(
                    "the old address `{file}` of this post is taken by another page; no redirect is written there"
                );
                let hint = "remove the alias, or move the other page";
                placed.problems.push(Diagnostic::warning(path, 1, 1, message).with_hint(hint));
            }
            if clashing.len() < 2 {
                continue;
            }
            let theme_page = clashing.iter().any(|page| !matches!(page, Page::Post(_)));
            for page in &clashing {
                let Page::Post(path) = page else { continue };
                left_out.insert((*page).clone());
                if theme_page && self.library.post(path).is_some_and(|post| post.page) {
                    let message = format!("`{file}` is where the theme writes its own page; this page is not written");
                    let hint = "Hanji makes this page itself: give your page another permalink to keep it";
                    placed.problems.push(Diagnostic::warning(path, 1, 1, message).with_hint(hint));
                    continue;
                }
                let others = clashing.len() - 1;
                let message = format!(
                    "`{file}` is the address of this post and {others} other page(s); none of the posts is written"
                );
                let hint = "give the posts addresses of their own: other slugs, or a permalink with :slug";
                placed.problems.push(Diagnostic::error(path, 1, 1, message).with_hint(hint));
                placed.left_out.push(path.clone());
            }
        }
        placed.pages = pages.into_iter().filter(|(page, _)| !left_out.contains(page)).collect();
        placed
    }

    /// Whether this site has its search: asked for by the options and not
    /// turned off in the settings.
    pub fn has_search(&self) -> bool {
        self.options.search && self.config.search
    }

    /// The shown posts, newest first.
    pub fn posts(&self) -> &[&'a Post] {
        &self.posts
    }

    /// A shown post's part of the search index, with its prose `text`.
    pub fn search_entry(&self, post: &Post, text: String) -> search::Entry {
        let shown = PostSummary::of(post, &self.dates, &self.addresses());
        let doc = search::Doc {
            link: url::link(&url::root_of(&self.addresses().search()), &shown.path),
            title: shown.title,
            date: shown.date_text,
            tags: shown.tags.into_iter().map(|t| t.name).collect(),
            summary: shown.summary,
            text,
        };
        search::Entry::of(&doc)
    }

    /// The search index of the shown posts, from each one's entry (oldest
    /// first, so that a new post takes the next number).
    pub fn search_index(&self, mut entry_of: impl FnMut(&Post) -> search::Entry) -> search::Index {
        search::Index::build(self.posts.iter().rev().map(|post| entry_of(post)).collect())
    }

    /// A post's prose as search indexes it, rendered on its own (without
    /// highlighting, which the prose does not show).
    pub fn post_text(&self, post: &Post) -> String {
        let options = Options {
            first_line: post.body_line,
            syntax: post.file().syntax(&self.config.layout),
            shortcodes: self.shortcodes,
            ..Options::default()
        };
        markdown::render(post.body(), &options).text
    }

    fn page_count(&self, posts: usize) -> usize {
        posts.div_ceil(self.config.posts_per_page).max(1)
    }

    /// Where a page is in the site: `posts/a/`, `tags/nccl/page/2/`, `feed.xml`.
    pub fn path_of(&self, page: &Page) -> String {
        self.addresses().page(page)
    }

    /// The address rules of this site.
    pub fn addresses(&self) -> Addresses<'a> {
        Addresses::new(self.config, self.library)
    }

    /// Renders one page.
    pub fn render(&self, page: &Page) -> Result<RenderedPage, ThemeError> {
        let path = self.path_of(page);
        // The 404 page is served at any address, so its links start from the top.
        let root = if *page == Page::NotFound { url::base_path(&self.config.base_url) } else { url::root_of(&path) };
        let plain = |text: String| Ok(RenderedPage { text, problems: Vec::new(), post_text: None });
        match page {
            Page::Style => plain(self.theme.style().to_string()),
            Page::SearchScript => plain(crate::search::SCRIPT.to_string()),
            Page::Search => {
                let info = self.page_info("search", &path, "Search", &self.config.description, "feed.xml");
                self.page("search.html", info, &root, context! {}).and_then(plain)
            }
            Page::Home(n) => {
                let posts = self.page_of(&self.posts, *n);
                let info = self.page_info("home", &path, "", &self.config.description, &self.info.feed);
                let context = context! {
                    posts => v(&posts),
                    pagination => v(&Pagination::of("", *n, self.page_count(self.posts.len()))),
                    sidebar => Value::from_safe_string(self.sidebar(&root, "")?.to_string()),
                };
                self.page("home.html", info, &root, context).and_then(plain)
            }
            Page::Tag(slug, n) => {
                let Some((tag, posts)) = self.tag_index.get(slug).map(|i| &self.tags[*i]) else {
                    return plain(String::new());
                };
                let description = format!("{} ({})", tag.name, tag.count);
                let info = self.page_info("tag", &path, &tag.title, &description, &tag.feed);
                let context = context! {
                    tag => v(tag),
                    posts => v(&self.page_of(posts, *n)),
                    pagination => v(&Pagination::of(&tag.path, *n, self.page_count(posts.len()))),
                    sidebar => Value::from_safe_string(self.sidebar(&root, slug)?.to_string()),
                };
                self.page("tag.html", info, &root, context).and_then(plain)
            }
            Page::Category(slug, n) => {
                let Some((category, posts)) = self.category_index.get(slug).map(|i| &self.categories[*i]) else {
                    return plain(String::new());
                };
                let description = format!("{} ({})", category.name, category.count);
                let info = self.page_info("category", &path, &category.title, &description, &self.info.feed);
                let context = context! {
                    category => v(category),
                    posts => v(&self.page_of(posts, *n)),
                    pagination => v(&Pagination::of(&category.path, *n, self.page_count(posts.len()))),
                };
                self.page("category.html", info, &root, context).and_then(plain)
            }
            Page::Categories => {
                let info = self.page_info("categories", &path, "Categories", &self.config.description, &self.info.feed);
                let categories: Vec<&TagInfo> = self.categories.iter().map(|(t, _)| t).collect();
                self.page("categories.html", info, &root, context! { categories => v(&categories) }).and_then(plain)
            }
            Page::AllSeries => {
                let info = self.page_info("all-series", &path, "Series", &self.config.description, &self.info.feed);
                let series: Vec<SeriesInfo> =
                    self.series.iter().map(|(info, posts)| self.series_info(info, posts)).collect();
                self.page("all-series.html", info, &root, context! { series => v(&series) }).and_then(plain)
            }
            Page::Series(slug) => {
                let Some((series, posts)) = self.series_index.get(slug).map(|i| &self.series[*i]) else {
                    return plain(String::new());
                };
                let description = format!("{} ({})", series.name, series.count);
                let info = self.page_info("series", &path, &series.title, &description, &self.info.feed);
                let series = self.series_info(series, posts);
                self.page("series.html", info, &root, context! { series => v(&series) }).and_then(plain)
            }
            Page::Tags => {
                let info = self.page_info("tags", &path, "Tags", &self.config.description, &self.info.feed);
                let tags: Vec<&TagInfo> = self.tags.iter().map(|(t, _)| t).collect();
                self.page("tags.html", info, &root, context! { tags => v(&tags) }).and_then(plain)
            }
            Page::Post(file) => match self.library.post(file) {
                Some(post) => self
                    .post_page(post, &path, &root)
                    .map(|post| RenderedPage { post_text: Some(post.text), ..post.page }),
                None => plain(String::new()),
            },
            Page::Alias(file, _) => {
                let Some(post) = self.library.post(file) else { return plain(String::new()) };
                let to = self.addresses().post(post);
                let info = self.page_info("alias", &path, &post.title, "", &self.info.feed);
                let url = url::absolute(&self.config.base_url, &to);
                let context = context! { to => to, url => url };
                self.page("alias.html", info, &root, context).and_then(plain)
            }
            Page::NotFound => {
                let info = self.page_info("404", &path, "Page not found", &self.config.description, &self.info.feed);
                self.page("404.html", info, &root, context! {}).and_then(plain)
            }
            Page::Feed => self.feed(&self.posts, &path, &self.config.title, "").and_then(plain),
            Page::TagFeed(slug) => {
                let Some((tag, posts)) = self.tag_index.get(slug).map(|i| &self.tags[*i]) else {
                    return plain(String::new());
                };
                let title = format!("{} · {}", tag.title, self.config.title);
                self.feed(posts, &path, &title, &tag.path).and_then(plain)
            }
            Page::Sitemap => self.sitemap().and_then(plain),
            Page::Robots => {
                let sitemap = url::absolute(&self.config.base_url, "sitemap.xml");
                self.theme.render("robots.txt", context! { site => v(&self.info), sitemap => sitemap }).and_then(plain)
            }
        }
    }

    /// The page of `post`, which may be another text of a post in the
    /// library (the author's unsaved one).
    pub fn render_post(&self, post: &Post) -> Result<RenderedPost, ThemeError> {
        let path = self.addresses().post(post);
        self.post_page(post, &path, &url::root_of(&path))
    }

    fn post_page(&self, post: &Post, path: &str, root: &str) -> Result<RenderedPost, ThemeError> {
        let routes = self.routes.as_ref();
        let links = Links { config: self.config, library: self.library, assets: self.assets, post, root, routes };
        let pictures = self.images.map(|catalog| Pictures { links, catalog });
        let cover = self.cover(post, &links, pictures.as_ref());
        let options = Options {
            first_line: post.body_line,
            source_lines: self.options.source_lines,
            highlight: true,
            highlights: Some(&self.highlights),
            links: Some(&links),
            syntax: post.file().syntax(&self.config.layout),
            shortcodes: self.shortcodes,
            pictures: pictures.as_ref().map(|p| p as &dyn markdown::PictureResolver),
            first_screen_taken: cover.is_some(),
        };
        let mut rendered = markdown::render(post.body(), &options);
        let (newer, older) = match self.position.get(post.path.as_path()) {
            _ if post.page => (None, None),
            Some(&i) => (i.checked_sub(1).and_then(|i| self.posts.get(i)).copied(), self.posts.get(i + 1).copied()),
            // Without the lists (`for_posts`), or a post not shown: as the library orders them.
            None => self.library.neighbours(&post.path, |p| !p.page && shown(self.library, p, self.options)),
        };
        let page = PostPage {
            summary: PostSummary::of(post, &self.dates, &self.addresses()),
            content: rendered.html,
            toc: rendered.toc.clone(),
            reading_minutes: rendered.reading_minutes,
            word_count: rendered.word_count,
            newer: newer.map(|p| PostLink::of(p, &self.addresses())),
            older: older.map(|p| PostLink::of(p, &self.addresses())),
            series: self.post_series(post),
            related: self
                .related(post)
                .into_iter()
                .map(|p| RelatedPost::of(p, &self.dates, &self.addresses()))
                .collect(),
            cover: cover.map(|(cover, problem)| {
                rendered.problems.extend(problem);
                cover
            }),
            images: post.images.iter().map(|image| self.image_address(&links, image)).collect(),
            canonical_url: post.canonical_url.clone(),
            layout: post.layout.clone(),
            extra: post.extra.clone(),
        };
        let description = post.summary.clone().unwrap_or_default();
        let kind = if post.page { "page" } else { "post" };
        let mut info = self.page_info(kind, path, &post.title, &description, &self.info.feed);
        if let Some(canonical) = &post.canonical_url {
            info.url = canonical.clone();
        }
        let template = match &post.layout {
            Some(layout) if self.theme.has(&format!("{layout}.html")) => format!("{layout}.html"),
            _ => format!("{kind}.html"),
        };
        let text = self.page(&template, info, root, context! { post => v(&page) })?;
        let problems = rendered.problems.into_iter().map(|p| p.in_file(&post.path)).collect();
        let (words, reading_minutes) = (rendered.word_count, rendered.reading_minutes);
        let page = RenderedPage { text, problems, post_text: None };
        Ok(RenderedPost { page, toc: rendered.toc, text: rendered.text, words, reading_minutes })
    }

    /// The post's cover (`cover:`), sized for the screen as its images are,
    /// with the problem its image has, if any.
    fn cover(
        &self,
        post: &Post,
        links: &Links,
        pictures: Option<&Pictures>,
    ) -> Option<(context::Cover, Option<crate::diagnostics::Problem>)> {
        let (dest, alt) = post.cover()?;
        let (line, column) = post.cover_line();
        let warning = |message: &String, hint: &Option<String>| crate::diagnostics::Problem {
            hint: hint.clone(),
            ..crate::diagnostics::Problem::warning(line, column, message.clone())
        };
        let (src, broken) = match markdown::LinkResolver::resolve_image(links, dest) {
            markdown::Link::Rewrite(src) => (src, None),
            markdown::Link::Keep => (dest.to_string(), None),
            markdown::Link::Broken { message, hint } => (dest.to_string(), Some(warning(&message, &hint))),
        };
        let sizing = pictures.map_or(markdown::Sizing::AsItIs, |p| markdown::PictureResolver::picture(p, dest));
        let problem = match &sizing {
            markdown::Sizing::Problem { message, hint } => Some(warning(message, hint)),
            _ => broken,
        };
        let cover = context::Cover {
            html: markdown::image_html(&src, alt, &sizing, true),
            url: self.image_address(links, dest),
            src,
            alt: alt.to_string(),
        };
        Some((cover, problem))
    }

    /// A series as its page lists it.
    fn series_info(&self, info: &TagInfo, posts: &[&Post]) -> SeriesInfo {
        SeriesInfo {
            name: info.name.clone(),
            slug: info.slug.clone(),
            path: info.path.clone(),
            count: info.count,
            posts: posts.iter().map(|p| PostSummary::of(p, &self.dates, &self.addresses())).collect(),
        }
    }

    /// Up to `related_posts` posts related to `post`: over an index of every
    /// tag's shown posts, made once for the site, or, in a site without its
    /// lists (`for_posts`), of the post's own tags.
    fn related(&self, post: &Post) -> Vec<&'a Post> {
        let limit = self.config.related_posts;
        if self.tag_index.is_empty() {
            return related::RelatedIndex::of_post(self.library, post).related(self.library, post, limit);
        }
        let index = self.related.get_or_init(|| {
            let tags = self.tags.iter().map(|(tag, posts)| (tag.slug.as_str(), posts.as_slice()));
            related::RelatedIndex::new(self.library, tags)
        });
        index.related(self.library, post, limit)
    }

    /// The series `post` is a part of, as its page shows it: its shown parts
    /// in order, `post` among them (as given: an unsaved text in a preview).
    fn post_series(&self, post: &Post) -> Option<PostSeries> {
        if post.page {
            return None;
        }
        let slug = self.library.series_slug_of(post)?;
        let (name, mut parts): (String, Vec<&Post>) = match self.series_index.get(&slug) {
            Some(&i) => (self.series[i].0.name.clone(), self.series[i].1.clone()),
            None => {
                let series = self.library.series(&slug);
                let name =
                    series.as_ref().map_or_else(|| post.series().unwrap_or_default().to_string(), |s| s.name.clone());
                let paths = series.iter().flat_map(|s| {
                    let drafts = if self.options.drafts { s.drafts.as_slice() } else { &[] };
                    s.posts.iter().chain(drafts)
                });
                let mut parts: Vec<&Post> = paths.filter_map(|path| self.library.post(path)).collect();
                parts.sort_by(|a, b| first_first(a).cmp(&first_first(b)));
                (name, parts)
            }
        };
        parts.retain(|part| part.path != post.path);
        let at = parts.partition_point(|part| first_first(part) < first_first(post));
        parts.insert(at, post);
        let addresses = self.addresses();
        let link = |p: &&Post| PostLink::of(p, &addresses);
        Some(PostSeries {
            name,
            path: addresses.series(&slug),
            slug,
            part: at + 1,
            total: parts.len(),
            previous: at.checked_sub(1).and_then(|i| parts.get(i)).map(link),
            next: parts.get(at + 1).map(link),
            posts: parts
                .iter()
                .map(|part| SeriesPart {
                    title: part.title.clone(),
                    path: addresses.post(part),
                    current: part.path == post.path,
                    draft: part.draft,
                })
                .collect(),
        })
    }

    /// The full address of an image named in front matter (`images:`), for
    /// Open Graph: written beside the post, under `static/`, or already full.
    fn image_address(&self, links: &Links, image: &str) -> String {
        let on_top = Links { root: "", ..*links };
        match crate::markdown::LinkResolver::resolve_image(&on_top, image) {
            markdown::Link::Rewrite(site_path) => url::absolute(&self.config.base_url, &site_path),
            _ => image.to_string(),
        }
    }

    fn page_info(&self, kind: &'static str, path: &str, title: &str, description: &str, feed: &str) -> PageInfo {
        PageInfo {
            kind,
            path: path.to_string(),
            url: url::absolute(&self.config.base_url, path),
            title: title.to_string(),
            description: description.to_string(),
            feed: feed.to_string(),
        }
    }

    /// Renders `template` with what every page gets (`site`, `page`, `root`)
    /// and the page's own `extra` values.
    fn page(&self, template: &str, page: PageInfo, root: &str, extra: Value) -> Result<String, ThemeError> {
        let services = self.options.services;
        let comments = self.config.comments.as_ref().filter(|_| services);
        let analytics = self.config.analytics.as_ref().filter(|_| services);
        let common = context! {
            site => v(&self.info),
            page => v(&page),
            root => root,
            drafts => self.options.drafts,
            search => self.has_search(),
            comments => v(&comments.and_then(|c| CommentsInfo::of(c, &self.info.lang))),
            analytics => v(&analytics.and_then(|a| AnalyticsInfo::of(a, &self.config.base_url))),
        };
        self.theme.render(template, context! { ..common, ..extra })
    }

    fn page_of(&self, posts: &[&Post], n: usize) -> Vec<PostSummary> {
        let per_page = self.config.posts_per_page;
        posts
            .iter()
            .skip((n - 1) * per_page)
            .take(per_page)
            .map(|p| PostSummary::of(p, &self.dates, &self.addresses()))
            .collect()
    }

    fn sidebar(&self, root: &str, current: &str) -> Result<Arc<str>, ThemeError> {
        let key = (root.to_string(), current.to_string());
        if let Some(html) = self.sidebars.lock().expect("sidebar cache").get(&key) {
            return Ok(html.clone());
        }
        let tags: Vec<&TagInfo> = self.tags.iter().map(|(t, _)| t).collect();
        let context = context! { site => v(&self.info), root => root, tags => v(&tags), current => current };
        let html: Arc<str> = self.theme.render("sidebar.html", context)?.into();
        self.sidebars.lock().expect("sidebar cache").insert(key, html.clone());
        Ok(html)
    }

    fn feed(&self, posts: &[&Post], path: &str, title: &str, page: &str) -> Result<String, ThemeError> {
        let items: Vec<FeedItem> = posts
            .iter()
            .take(self.config.feed_limit)
            .map(|p| FeedItem::of(p, &self.config.base_url, &self.addresses()))
            .collect();
        let context = context! {
            site => v(&self.info),
            feed => context! {
                title => title,
                url => url::absolute(&self.config.base_url, path),
                link => url::absolute(&self.config.base_url, page),
                description => self.config.description.clone(),
                updated => posts.first().and_then(|p| p.date).map(context::rfc2822).unwrap_or_default(),
                items => v(&items),
            },
        };
        self.theme.render("feed.xml", context)
    }

    fn sitemap(&self) -> Result<String, ThemeError> {
        let date = |post: &Post| post.updated.or(post.date).map(|d| d.date.to_string()).unwrap_or_default();
        let newest = self.posts.first().map(|p| date(p)).unwrap_or_default();
        let entry =
            |path: &str, lastmod: String| SitemapEntry { url: url::absolute(&self.config.base_url, path), lastmod };
        let mut entries = vec![entry("", newest.clone()), entry("tags/", newest)];
        entries.extend(self.posts.iter().chain(&self.pages).map(|p| entry(&self.addresses().post(p), date(p))));
        entries.extend(
            self.tags
                .iter()
                .chain(&self.categories)
                .map(|(t, posts)| entry(&t.path, posts.first().map(|p| date(p)).unwrap_or_default())),
        );
        // A series' newest part is its last.
        entries.extend(
            self.series
                .iter()
                .map(|(s, posts)| entry(&s.path, posts.iter().map(|p| date(p)).max().unwrap_or_default())),
        );
        self.theme.render("sitemap.xml", context! { site => v(&self.info), entries => v(&entries) })
    }
}

/// A template value of anything serializable.
fn v(value: &impl serde::Serialize) -> Value {
    Value::from(minijinja::value::Serde(value))
}

/// Whether a post is on the site: not if it has errors or shares its slug,
/// and drafts only in a preview.
fn shown(library: &Library, post: &Post, options: SiteOptions) -> bool {
    !post.has_errors && (options.drafts || !post.draft) && !library.shares_slug(&post.path)
}

/// The order of a series: first the oldest (by date, then file); posts
/// without a date last.
fn first_first(post: &Post) -> (bool, Option<crate::content::PostDate>, &Path) {
    (post.date.is_none(), post.date, &post.path)
}

/// A tag's shown posts, newest first.
fn tag_posts<'a>(library: &'a Library, tag: &Tag, drafts: bool) -> Vec<&'a Post> {
    let mut posts: Vec<&Post> = tag.posts.iter().filter_map(|p| library.post(p)).collect();
    if drafts {
        posts.extend(tag.drafts.iter().filter_map(|p| library.post(p)));
        posts.sort_by(|a, b| b.date.cmp(&a.date).then_with(|| a.path.cmp(&b.path)));
    }
    posts
}
