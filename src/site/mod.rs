//! The site: which pages a blog has, and each page rendered through the theme.
//! The export, the preview server and the app's preview all render here, so a
//! page looks the same wherever it is seen.

pub mod context;
pub mod dates;
pub mod images;
pub mod links;
pub mod placed;
pub mod plan;
pub mod related;
pub mod routes;
pub mod stale;
pub mod theme;
pub mod url;

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::hash::Hash;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use minijinja::{Value, context};
use rayon::prelude::*;

use crate::config::Config;
use crate::content::{Library, Post, Tag};
use crate::diagnostics::Diagnostic;
use crate::digest::{self, Digest};
use crate::images::Catalog;
use crate::markdown::{self, HighlightCache, LinkResolver, Options, Shortcodes};
use crate::search::{entry as search, index::Served};
use context::{
    AnalyticsInfo, CommentsInfo, FeedItem, PageInfo, Pagination, PostLink, PostPage, PostSeries, PostSummary,
    RelatedPost, SeriesInfo, SeriesPart, SiteInfo, SitemapEntry, TagInfo,
};
use dates::DateFormat;
use images::Pictures;
use links::Links;
use plan::{Answers, Asked, Body, Feed, LinkAnswer, LinkTo, Listed, Plan, PostPlan, Recorded, Sidebar, Values};
use routes::Addresses;
pub use routes::Page;
use theme::{Theme, ThemeError};

/// How the site is rendered: the export shows no drafts; a preview may.
#[derive(Debug, Clone, Copy, Default, Hash)]
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

/// A shown tag: as pages show it, as the library has it (with its posts'
/// files), and its shown posts newest first, looked up when first asked for
/// (the preview's home and tags pages show only the tags' counts).
struct SiteTag<'a> {
    info: TagInfo,
    tag: Tag,
    posts: OnceLock<Vec<&'a Post>>,
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
    /// How lists show each of `posts`, made when first needed.
    summaries: Vec<OnceLock<Listed>>,
    /// Shown pages (an About page), which no list shows.
    pages: Vec<&'a Post>,
    /// Shown tags, most used first.
    tags: Vec<SiteTag<'a>>,
    tag_index: HashMap<String, usize>,
    /// Shown categories, as `tags`.
    categories: Vec<(TagInfo, Vec<&'a Post>)>,
    category_index: HashMap<String, usize>,
    /// Shown series, most parts first, with their shown posts first first.
    series: Vec<(TagInfo, Vec<&'a Post>)>,
    series_index: HashMap<String, usize>,
    /// The sidebar is the same on many pages: rendered once per way to the
    /// top and current tag.
    sidebars: Mutex<HashMap<(String, String), Value>>,
    /// `info` and the sidebar's tags as templates see them, made once: every
    /// page shows the first, every sidebar the second.
    info_value: OnceLock<Value>,
    tags_value: OnceLock<Value>,
    /// The digest of `tags`, which every sidebar shows.
    tags_digest: OnceLock<Digest>,
    /// Every page with its site path (`paths`).
    paths: OnceLock<Vec<(Page, String)>>,
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
        let addresses = Addresses::new(config, library);
        let tags: Vec<SiteTag> = library
            .tags(options.drafts)
            .into_iter()
            .map(|tag| SiteTag { info: TagInfo::of(&tag, options.drafts, &addresses), tag, posts: OnceLock::new() })
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
        tags: Vec<SiteTag<'a>>,
    ) -> Self {
        let tag_index = tags.iter().enumerate().map(|(i, t)| (t.info.slug.clone(), i)).collect();
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
            summaries: posts.iter().map(|_| OnceLock::new()).collect(),
            posts,
            pages: Vec::new(),
            tags,
            tag_index,
            categories: Vec::new(),
            category_index: HashMap::new(),
            series: Vec::new(),
            series_index: HashMap::new(),
            sidebars: Mutex::default(),
            info_value: OnceLock::new(),
            tags_value: OnceLock::new(),
            tags_digest: OnceLock::new(),
            paths: OnceLock::new(),
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
        for tag in &self.tags {
            for n in 1..=self.page_count(self.posts_tagged(tag).len()) {
                pages.push(Page::Tag(tag.info.slug.clone(), n));
            }
            pages.push(Page::TagFeed(tag.info.slug.clone()));
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

    /// The digest of what every page of this site shares: the settings, the
    /// theme, the shortcode templates and the site's own values. With a
    /// page's plan it fixes the page (see `plan`); Hanji's own build is not
    /// in it (the export keeps that apart).
    pub fn shared_digest(&self) -> Digest {
        let config = format!("{:?}", self.config);
        digest::of(&(config, self.theme.digest(), self.shortcodes, &self.info, self.options, self.has_search()))
    }

    /// The digest of what the links and images of posts lead to: every
    /// post's address (drafts' too: a link to a draft's file leads there),
    /// every file beside the posts, and every address of the site.
    pub fn links_digest(&self) -> Digest {
        let addresses = self.addresses();
        let mut digester = digest::Digester::default();
        for post in self.library.posts() {
            (&post.path, addresses.post(post)).hash(&mut digester);
        }
        self.assets.hash(&mut digester);
        if let Some(routes) = &self.routes {
            routes.hash_into(&mut digester);
        }
        digester.digest()
    }

    /// The digest of what the site's pages are made from but the posts'
    /// texts: what every page shares and `facts`, the digest of all that is
    /// known of every post (`Post::facts_digest`, in the library's order).
    /// With it and the links' (`links_digest`) as they were, a page can
    /// differ only if it is the page of a post whose text changed.
    pub fn facts_digest(&self, facts: &[Digest]) -> Digest {
        digest::of(&(self.shared_digest(), facts))
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
        search::Entry::of(&self.search_doc(post, text))
    }

    fn search_doc(&self, post: &Post, text: String) -> search::Doc {
        let shown = PostSummary::of(post, &self.dates, &self.addresses());
        search::Doc {
            link: url::link(&url::root_of(&self.addresses().search()), &shown.path),
            title: shown.title,
            date: shown.date_text,
            tags: shown.tags.into_iter().map(|t| t.name).collect(),
            summary: shown.summary,
            text,
        }
    }

    /// The shown posts in the search index's order: oldest first, so that a
    /// new post takes the next number.
    pub fn search_posts(&self) -> impl Iterator<Item = &'a Post> + '_ {
        self.posts.iter().rev().copied()
    }

    /// Brings `served` up to date with the shown posts: the prose of those
    /// whose text, title, address, date, tags or summary changed since is
    /// rendered again, and the index's files that change are made again.
    pub fn update_search(&self, served: &mut Served) {
        use rayon::prelude::*;
        let posts: Vec<&Post> = self.search_posts().collect();
        let made_from: Vec<(String, String)> = posts
            .par_iter()
            .map(|post| {
                let doc = self.search_doc(post, String::new());
                // The text by its digest: a held blog's texts are packed.
                let made_from =
                    format!("{:?}\0{:?}", (doc.title, doc.link, doc.date, doc.tags, doc.summary), post.text_digest());
                (post.path.to_string_lossy().into_owned(), crate::search::digest(made_from.as_bytes()))
            })
            .collect();
        served.update(&self.search_settings(), made_from, |n| self.search_entry(posts[n], self.post_text(posts[n])));
    }

    /// What every post's part of the search index is made with, besides the
    /// post: the settings and the blog's shortcodes.
    pub fn search_settings(&self) -> String {
        format!("{:?} {:?}", self.config, self.shortcodes)
    }

    /// A post's prose as search indexes it, rendered on its own (without
    /// highlighting, which the prose does not show).
    pub fn post_text(&self, post: &Post) -> String {
        let options = Options {
            first_line: post.body_line,
            syntax: crate::content::file::syntax(&self.config.layout, &post.path),
            shortcodes: self.shortcodes,
            ..Options::default()
        };
        markdown::render(&post.body(), &options).text
    }

    pub(crate) fn page_count(&self, posts: usize) -> usize {
        posts.div_ceil(self.config.posts_per_page).max(1)
    }

    /// Where a page is in the site: `posts/a/`, `tags/nccl/page/2/`, `feed.xml`.
    pub fn path_of(&self, page: &Page) -> String {
        self.addresses().page(page)
    }

    /// Every page with where it is in the site, worked out once.
    pub fn paths(&self) -> &[(Page, String)] {
        self.paths.get_or_init(|| {
            let addresses = self.addresses();
            self.pages()
                .into_par_iter()
                .map(|page| {
                    let path = addresses.page(&page);
                    (page, path)
                })
                .collect()
        })
    }

    /// The address rules of this site.
    pub fn addresses(&self) -> Addresses<'a> {
        Addresses::new(self.config, self.library)
    }

    /// Renders one page.
    pub fn render(&self, page: &Page) -> Result<RenderedPage, ThemeError> {
        self.render_plan(&self.plan(page)).map(|(page, _)| page)
    }

    /// What `page` is made from (see `plan`).
    pub fn plan(&self, page: &Page) -> Plan<'_> {
        self.plan_at(page, self.path_of(page))
    }

    /// What `page`, at site path `path`, is made from.
    pub fn plan_at(&self, page: &Page, path: String) -> Plan<'_> {
        // The 404 page is served at any address, so its links start from the top.
        let root = if *page == Page::NotFound { url::base_path(&self.config.base_url) } else { url::root_of(&path) };
        let template = |template, info, values| Body::Page { template, info, values };
        let body = match page {
            Page::Style => Body::Text(self.theme.style()),
            Page::SearchScript => Body::Text(crate::search::SCRIPT),
            Page::Search => {
                let info = self.page_info(
                    "search",
                    &path,
                    &self.theme.word(&self.info.lang, "search"),
                    &self.config.description,
                    "feed.xml",
                );
                template("search.html", info, Values::None)
            }
            Page::Home(n) => {
                let info = self.page_info("home", &path, "", &self.config.description, &self.info.feed);
                let values = Values::List {
                    tag: None,
                    category: None,
                    posts: self.page_of(&self.posts, *n),
                    pagination: Pagination::of("", *n, self.page_count(self.posts.len())),
                    sidebar: Some(Sidebar { tags: self.tags_digest(), current: "" }),
                };
                template("home.html", info, values)
            }
            Page::Tag(slug, n) => match self.tag(slug) {
                Some((tag, posts)) => {
                    let description = format!("{} ({})", tag.name, tag.count);
                    let info = self.page_info("tag", &path, &tag.title, &description, &tag.feed);
                    let values = Values::List {
                        tag: Some(tag),
                        category: None,
                        posts: self.page_of(posts, *n),
                        pagination: Pagination::of(&tag.path, *n, self.page_count(posts.len())),
                        sidebar: Some(Sidebar { tags: self.tags_digest(), current: &tag.slug }),
                    };
                    template("tag.html", info, values)
                }
                None => Body::Empty,
            },
            Page::Category(slug, n) => match self.category_index.get(slug).map(|i| &self.categories[*i]) {
                Some((category, posts)) => {
                    let description = format!("{} ({})", category.name, category.count);
                    let info = self.page_info("category", &path, &category.title, &description, &self.info.feed);
                    let values = Values::List {
                        tag: None,
                        category: Some(category),
                        posts: self.page_of(posts, *n),
                        pagination: Pagination::of(&category.path, *n, self.page_count(posts.len())),
                        sidebar: None,
                    };
                    template("category.html", info, values)
                }
                None => Body::Empty,
            },
            Page::Categories => {
                let info = self.page_info(
                    "categories",
                    &path,
                    &self.theme.word(&self.info.lang, "categories"),
                    &self.config.description,
                    &self.info.feed,
                );
                template("categories.html", info, Values::Categories(self.categories.iter().map(|(t, _)| t).collect()))
            }
            Page::AllSeries => {
                let info = self.page_info(
                    "all-series",
                    &path,
                    &self.theme.word(&self.info.lang, "series"),
                    &self.config.description,
                    &self.info.feed,
                );
                let series: Vec<SeriesInfo> =
                    self.series.iter().map(|(info, posts)| self.series_info(info, posts)).collect();
                template("all-series.html", info, Values::AllSeries(series))
            }
            Page::Series(slug) => match self.series_index.get(slug).map(|i| &self.series[*i]) {
                Some((series, posts)) => {
                    let description = format!("{} ({})", series.name, series.count);
                    let info = self.page_info("series", &path, &series.title, &description, &self.info.feed);
                    template("series.html", info, Values::Series(self.series_info(series, posts)))
                }
                None => Body::Empty,
            },
            Page::Tags => {
                let info = self.page_info(
                    "tags",
                    &path,
                    &self.theme.word(&self.info.lang, "tags"),
                    &self.config.description,
                    &self.info.feed,
                );
                template("tags.html", info, Values::Tags(self.tags.iter().map(|t| &t.info).collect()))
            }
            Page::Post(file) => match self.library.post(file) {
                Some(post) => Body::Post(Box::new(self.post_plan(post, path))),
                None => Body::Empty,
            },
            Page::Alias(file, _) => match self.library.post(file) {
                Some(post) => {
                    let to = self.addresses().post(post);
                    let info = self.page_info("alias", &path, &post.title, "", &self.info.feed);
                    let url = url::absolute(&self.config.base_url, &to);
                    template("alias.html", info, Values::Alias { to, url })
                }
                None => Body::Empty,
            },
            Page::NotFound => {
                let info = self.page_info(
                    "404",
                    &path,
                    &self.theme.word(&self.info.lang, "not_found"),
                    &self.config.description,
                    &self.info.feed,
                );
                template("404.html", info, Values::None)
            }
            Page::Feed => Body::Feed(self.feed(&self.posts, &path, &self.config.title, "")),
            Page::TagFeed(slug) => match self.tag(slug) {
                Some((tag, posts)) => {
                    let title = format!("{} · {}", tag.title, self.config.title);
                    Body::Feed(self.feed(posts, &path, &title, &tag.path))
                }
                None => Body::Empty,
            },
            Page::Sitemap => Body::Sitemap(self.sitemap_entries()),
            Page::Robots => Body::Robots { sitemap: url::absolute(&self.config.base_url, "sitemap.xml") },
        };
        Plan { root, body }
    }

    /// Renders the page `plan` makes, from it and what every page shares
    /// alone; a post's page with the answers its links got.
    pub fn render_plan(&self, plan: &Plan) -> Result<(RenderedPage, Answers), ThemeError> {
        let plain =
            |text: String| Ok((RenderedPage { text, problems: Vec::new(), post_text: None }, Answers::default()));
        let root = plan.root.as_str();
        match &plan.body {
            Body::Text(text) => plain(text.to_string()),
            Body::Empty => plain(String::new()),
            Body::Page { template, info, values } => {
                let values = match values {
                    Values::None => context! {},
                    Values::List { tag, category, posts, pagination, sidebar } => {
                        let sidebar = match sidebar {
                            Some(sidebar) => Some(self.sidebar(root, sidebar.current)?),
                            None => None,
                        };
                        context! {
                            tag => tag.map(v),
                            category => category.map(v),
                            posts => v(posts),
                            pagination => v(pagination),
                            sidebar => sidebar,
                        }
                    }
                    Values::Tags(tags) => context! { tags => v(tags) },
                    Values::Categories(categories) => context! { categories => v(categories) },
                    Values::AllSeries(series) => context! { series => v(series) },
                    Values::Series(series) => context! { series => v(series) },
                    Values::Alias { to, url } => context! { to => to, url => url },
                };
                self.page(template, info.clone(), root, values).and_then(plain)
            }
            Body::Post(post) => {
                let (rendered, answers) = self.post_page(post, root)?;
                Ok((RenderedPage { post_text: Some(rendered.text), ..rendered.page }, answers))
            }
            Body::Feed(feed) => {
                let context = context! {
                    site => self.info_value(),
                    feed => context! {
                        title => &feed.title,
                        url => &feed.url,
                        link => &feed.link,
                        description => self.config.description.clone(),
                        updated => &feed.updated,
                        items => v(&feed.items),
                    },
                };
                self.theme.render("feed.xml", context).and_then(plain)
            }
            Body::Sitemap(entries) => self
                .theme
                .render("sitemap.xml", context! { site => self.info_value(), entries => v(entries) })
                .and_then(plain),
            Body::Robots { sitemap } => self
                .theme
                .render("robots.txt", context! { site => self.info_value(), sitemap => sitemap })
                .and_then(plain),
        }
    }

    /// The page of `post`, which may be another text of a post in the
    /// library (the author's unsaved one).
    pub fn render_post(&self, post: &Post) -> Result<RenderedPost, ThemeError> {
        let plan = self.post_plan(post, self.addresses().post(post));
        self.post_page(&plan, &url::root_of(&plan.path)).map(|(page, _)| page)
    }

    /// What a post's page is made from: the post at `path`, as lists show
    /// it, with its neighbours.
    pub fn post_plan<'p>(&'p self, post: &'p Post, path: String) -> PostPlan<'p> {
        let (newer, older) = match self.position_of(post) {
            _ if post.page => (None, None),
            Some(i) => (i.checked_sub(1).and_then(|i| self.posts.get(i)).copied(), self.posts.get(i + 1).copied()),
            // Without the lists (`for_posts`), or a post not shown: as the library orders them.
            None => self.library.neighbours(&post.path, |p| !p.page && shown(self.library, p, self.options)),
        };
        let kind = if post.page { "page" } else { "post" };
        let template = match &post.layout {
            Some(layout) if self.theme.has(&format!("{layout}.html")) => format!("{layout}.html"),
            _ => format!("{kind}.html"),
        };
        PostPlan {
            post,
            summary: self.summary_of(post),
            newer: newer.map(|p| self.link_of(p)),
            older: older.map(|p| self.link_of(p)),
            series: self.post_series(post).map(Box::new),
            related: self.related(post).into_iter().map(|p| self.related_post(p)).collect(),
            path,
            template,
        }
    }

    /// The links and images of `post`'s page answered again, as the site is
    /// now: equal to what its last rendering got, and the page (with the
    /// same plan) comes out the same.
    pub fn answer_again(&self, post: &Post, path: &str, asked: &[LinkAnswer]) -> Vec<LinkAnswer> {
        let root = url::root_of(path);
        let links = self.links_of(post, &root);
        let pictures = self.images.map(|catalog| Pictures { links, catalog });
        asked
            .iter()
            .map(|asked| {
                let answer = match (asked.asked, &pictures) {
                    (Asked::Link, _) => LinkTo::from(&links.resolve_link(&asked.dest)),
                    (Asked::Image, _) => LinkTo::from(&links.resolve_image(&asked.dest)),
                    (Asked::Picture, Some(pictures)) => {
                        let (file, stamp) = pictures.file_of(&asked.dest);
                        LinkTo::Picture(file, stamp)
                    }
                    // Asked where the site had no catalog: it has none now either.
                    (Asked::Picture, None) => LinkTo::Keep,
                };
                LinkAnswer { answer, ..asked.clone() }
            })
            .collect()
    }

    fn links_of<'p>(&'p self, post: &'p Post, root: &'p str) -> Links<'p> {
        let routes = self.routes.as_ref();
        Links { config: self.config, library: self.library, assets: self.assets, post, root, routes }
    }

    fn post_page(&self, plan: &PostPlan, root: &str) -> Result<(RenderedPost, Answers), ThemeError> {
        let post = plan.post;
        let links = self.links_of(post, root);
        let pictures = self.images.map(|catalog| Pictures { links, catalog });
        let recorded = Recorded::new(&links, pictures.as_ref());
        let cover = self.cover(post, &recorded);
        let options = Options {
            first_line: post.body_line,
            source_lines: self.options.source_lines,
            highlight: true,
            highlights: Some(&self.highlights),
            links: Some(&recorded),
            syntax: crate::content::file::syntax(&self.config.layout, &post.path),
            shortcodes: self.shortcodes,
            pictures: pictures.as_ref().map(|_| &recorded as &dyn markdown::PictureResolver),
            first_screen_taken: cover.is_some(),
        };
        let mut rendered = markdown::render(&post.body(), &options);
        let page = PostPage {
            summary: plan.summary.summary.clone(),
            content: rendered.html,
            toc: rendered.toc.clone(),
            reading_minutes: rendered.reading_minutes,
            word_count: rendered.word_count,
            newer: plan.newer.clone(),
            older: plan.older.clone(),
            series: plan.series.as_deref().cloned(),
            related: plan.related.clone(),
            cover: cover.map(|(cover, problem)| {
                rendered.problems.extend(problem);
                cover
            }),
            images: post.images.iter().map(|image| self.image_address(&recorded, image)).collect(),
            canonical_url: post.canonical_url.clone(),
            layout: post.layout.clone(),
            extra: post.extra.clone(),
        };
        let description = post.summary.clone().unwrap_or_default();
        let kind = if post.page { "page" } else { "post" };
        let mut info = self.page_info(kind, &plan.path, &post.title, &description, &self.info.feed);
        if let Some(canonical) = &post.canonical_url {
            info.url = canonical.clone();
        }
        let text = self.page(&plan.template, info, root, context! { post => v(&page) })?;
        let problems = rendered.problems.into_iter().map(|p| p.in_file(&post.path)).collect();
        let (words, reading_minutes) = (rendered.word_count, rendered.reading_minutes);
        let page = RenderedPage { text, problems, post_text: None };
        let rendered = RenderedPost { page, toc: rendered.toc, text: rendered.text, words, reading_minutes };
        Ok((rendered, recorded.into_answers()))
    }

    /// The post's cover (`cover:`), sized for the screen as its images are,
    /// with the problem its image has, if any.
    fn cover(&self, post: &Post, recorded: &Recorded) -> Option<(context::Cover, Option<crate::diagnostics::Problem>)> {
        let (dest, alt) = post.cover()?;
        let (line, column) = post.cover_line();
        let warning = |message: &String, hint: &Option<String>| crate::diagnostics::Problem {
            hint: hint.clone(),
            ..crate::diagnostics::Problem::warning(line, column, message.clone())
        };
        let (src, broken) = match markdown::LinkResolver::resolve_image(recorded, dest) {
            markdown::Link::Rewrite(src) => (src, None),
            markdown::Link::Keep => (dest.to_string(), None),
            markdown::Link::Broken { message, hint } => (dest.to_string(), Some(warning(&message, &hint))),
        };
        let sizing = markdown::PictureResolver::picture(recorded, dest);
        let problem = match &sizing {
            markdown::Sizing::Problem { message, hint } => Some(warning(message, hint)),
            _ => broken,
        };
        let cover = context::Cover {
            html: markdown::image_html(&src, alt, &sizing, true),
            url: self.image_address(recorded, dest),
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
            let tags = self.tags.iter().map(|tag| (tag.info.slug.as_str(), self.posts_tagged(tag)));
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
    /// Asked of the page's resolver (from the page's place, so its answer
    /// is kept with the others), then made full.
    fn image_address(&self, links: &dyn LinkResolver, image: &str) -> String {
        match links.resolve_image(image) {
            markdown::Link::Rewrite(relative) => {
                let site_path = relative.trim_start_matches("../");
                url::absolute(&self.config.base_url, &url::percent_decode(site_path))
            }
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
            site => self.info_value(),
            page => v(&page),
            root => root,
            drafts => self.options.drafts,
            search => self.has_search(),
            comments => v(&comments.and_then(|c| CommentsInfo::of(c, &self.info.lang))),
            analytics => v(&analytics.and_then(|a| AnalyticsInfo::of(a, &self.config.base_url))),
        };
        self.theme.render(template, context! { ..common, ..extra })
    }

    /// How lists show `post`: made once per post.
    fn summary_of<'p>(&'p self, post: &'p Post) -> Cow<'p, Listed> {
        let listed = || Listed::new(PostSummary::of(post, &self.dates, &self.addresses()));
        match self.position_of(post) {
            Some(i) if std::ptr::eq(self.posts[i], post) => Cow::Borrowed(self.summaries[i].get_or_init(listed)),
            _ => Cow::Owned(listed()),
        }
    }

    /// `post`'s place among the shown posts, if it is one of them (as its
    /// date and file place it: `posts` is in the library's order).
    fn position_of(&self, post: &Post) -> Option<usize> {
        self.posts.binary_search_by(|shown| crate::content::library::newest_first(shown, post)).ok()
    }

    /// A link to `post` (a neighbour), from how lists show it.
    fn link_of(&self, post: &Post) -> PostLink {
        let listed = self.summary_of(post);
        PostLink { title: listed.summary.title.clone(), path: listed.summary.path.clone() }
    }

    /// `post` as related posts list it, from how lists show it.
    fn related_post(&self, post: &Post) -> RelatedPost {
        let summary = &self.summary_of(post).summary;
        RelatedPost::of(summary)
    }

    fn page_of<'p>(&'p self, posts: &[&'p Post], n: usize) -> Vec<Cow<'p, Listed>> {
        let per_page = self.config.posts_per_page;
        posts.iter().skip((n - 1) * per_page).take(per_page).map(|p| self.summary_of(p)).collect()
    }

    /// The shown tag `slug` with its shown posts, newest first.
    fn tag(&self, slug: &str) -> Option<(&TagInfo, &[&'a Post])> {
        let tag = &self.tags[*self.tag_index.get(slug)?];
        Some((&tag.info, self.posts_tagged(tag)))
    }

    /// The shown posts of `tag`, newest first, looked up the first time.
    fn posts_tagged<'t>(&self, tag: &'t SiteTag<'a>) -> &'t [&'a Post] {
        tag.posts.get_or_init(|| tag_posts(self.library, &tag.tag, self.options.drafts))
    }

    /// The digest of every tag as the sidebar shows them.
    fn tags_digest(&self) -> Digest {
        *self.tags_digest.get_or_init(|| digest::of(&self.tags.iter().map(|t| &t.info).collect::<Vec<_>>()))
    }

    /// The sidebar's HTML, as a value for the page's template.
    fn sidebar(&self, root: &str, current: &str) -> Result<Value, ThemeError> {
        let key = (root.to_string(), current.to_string());
        if let Some(html) = self.sidebars.lock().expect("sidebar cache").get(&key) {
            return Ok(html.clone());
        }
        let tags = self.tags_value.get_or_init(|| v(&self.tags.iter().map(|t| &t.info).collect::<Vec<&TagInfo>>()));
        let context = context! { site => self.info_value(), root => root, tags => tags.clone(), current => current };
        let html = Value::from_safe_string(self.theme.render("sidebar.html", context)?);
        self.sidebars.lock().expect("sidebar cache").insert(key, html.clone());
        Ok(html)
    }

    /// `site`, as templates see it.
    fn info_value(&self) -> Value {
        self.info_value.get_or_init(|| v(&self.info)).clone()
    }

    fn feed(&self, posts: &[&Post], path: &str, title: &str, page: &str) -> Feed {
        let items = posts
            .iter()
            .take(self.config.feed_limit)
            .map(|p| FeedItem::of(p, &self.config.base_url, &self.addresses()))
            .collect();
        Feed {
            title: title.to_string(),
            url: url::absolute(&self.config.base_url, path),
            link: url::absolute(&self.config.base_url, page),
            updated: posts.first().and_then(|p| p.date).map(context::rfc2822).unwrap_or_default(),
            items,
        }
    }

    fn sitemap_entries(&self) -> Vec<SitemapEntry> {
        let date = |post: &Post| post.updated.or(post.date).map(|d| d.date.to_string()).unwrap_or_default();
        let newest = self.posts.first().map(|p| date(p)).unwrap_or_default();
        let entry =
            |path: &str, lastmod: String| SitemapEntry { url: url::absolute(&self.config.base_url, path), lastmod };
        let mut entries = vec![entry("", newest.clone()), entry("tags/", newest)];
        entries.extend(self.posts.iter().chain(&self.pages).map(|p| entry(&self.addresses().post(p), date(p))));
        let newest = |posts: &[&Post]| posts.first().map(|p| date(p)).unwrap_or_default();
        let tags = self.tags.iter().map(|t| (&t.info, self.posts_tagged(t)));
        let categories = self.categories.iter().map(|(t, posts)| (t, posts.as_slice()));
        entries.extend(tags.chain(categories).map(|(t, posts)| entry(&t.path, newest(posts))));
        // A series' newest part is its last.
        entries.extend(
            self.series
                .iter()
                .map(|(s, posts)| entry(&s.path, posts.iter().map(|p| date(p)).max().unwrap_or_default())),
        );
        entries
    }
}
/// A template value of anything serializable.
fn v(value: &impl serde::Serialize) -> Value {
    Value::from(minijinja::value::Serde(value))
}

/// Whether a post is on the site: not if it has errors or shares its slug,
/// and drafts only in a preview.
pub(crate) fn shown(library: &Library, post: &Post, options: SiteOptions) -> bool {
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
