//! Every address of the site, both ways: a page (a post, a tag's page, a
//! list page, a feed, a static file) to its site path, and a site path back
//! to what is there. Site paths start at the site's top and have no leading
//! `/`: `posts/a/`, `tags/분산-학습/page/2/`, `feed.xml`, `images/a.png`.
//! Nothing else in Hanji spells an address; the address of a post or page
//! is its tool's (`tool::Tool::address`), asked here.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::config::Config;
use crate::content::file::PostFile;
use crate::content::{Library, Post};
use crate::images;
use crate::tool::{Addressing, PostFacts, own_url, slash_path};

/// The name of the search's script in the search folder.
pub const SEARCH_SCRIPT: &str = "search.js";

/// One page (or file) the site renders.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Page {
    /// The list of newest posts; page 1 is the site's front page.
    Home(usize),
    /// A post, by the path of its file.
    Post(PathBuf),
    /// Every tag with its count.
    Tags,
    /// A tag's posts, by slug and page number.
    Tag(String, usize),
    /// Every category with its count.
    Categories,
    /// A category's posts, by slug and page number.
    Category(String, usize),
    /// Every series, with how many parts each has.
    AllSeries,
    /// A series' posts in order, by its slug.
    Series(String),
    /// An old address of a post (Hugo's and Zola's `aliases`, Jekyll's
    /// `redirect_from`), by the post's file and the site path: a page that
    /// sends the reader on to the post.
    Alias(PathBuf, String),
    Feed,
    TagFeed(String),
    Sitemap,
    Robots,
    NotFound,
    Style,
    /// The search results page (when the site has its search).
    Search,
    /// The script that searches, which every page loads.
    SearchScript,
}

/// What is at a site path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Target {
    Page(Page),
    /// A file of the blog, sent as it is.
    Asset(PathBuf),
    /// A post with errors (left out of the site), by its file: a preview
    /// shows its problems there.
    Broken(PathBuf),
}

/// The address rules of one blog's site: every address is made here, from
/// the blog's settings (where its layout's own rules, a tool's permalinks,
/// belong) and its library.
#[derive(Debug, Clone, Copy)]
pub struct Addresses<'a> {
    pub config: &'a Config,
    pub library: &'a Library,
}

impl<'a> Addresses<'a> {
    pub fn new(config: &'a Config, library: &'a Library) -> Self {
        Addresses { config, library }
    }

    /// Where a post's (or a page's) page is, as the tool that made the blog
    /// puts it (`tool::Tool::address`).
    pub fn post(&self, post: &Post) -> String {
        self.config.layout.tool().address(&self.addressing(), &post.facts())
    }

    fn addressing(&self) -> Addressing<'a> {
        Addressing {
            layout: &self.config.layout,
            posts_dir: &self.config.posts_dir,
            permalink: self.config.permalink.as_deref(),
        }
    }

    /// The old addresses of a post, as site paths: its `aliases` (Hugo, Zola)
    /// or `redirect_from` (Jekyll), a list or one text. One without an
    /// extension is a folder (`/old` → `old/`); one without a leading `/` is
    /// in the folder of the post's address (`old` beside `posts/new/` is
    /// `posts/old/`), as Hugo has it.
    pub fn aliases(&self, post: &Post) -> Vec<String> {
        let key = self.config.layout.tool().aliases_key();
        let written: Vec<&str> = match post.extra.get(key) {
            Some(serde_json::Value::String(one)) => vec![one.as_str()],
            Some(serde_json::Value::Array(many)) => many.iter().filter_map(|v| v.as_str()).collect(),
            _ => return Vec::new(),
        };
        let address = self.post(post);
        let folder = address.trim_end_matches('/').rsplit_once('/').map_or("", |(folder, _)| folder);
        written
            .into_iter()
            .filter(|alias| !alias.contains("://"))
            .filter_map(|alias| match alias.strip_prefix('/') {
                Some(rooted) => own_url(rooted),
                None if folder.is_empty() => own_url(alias),
                None => own_url(&format!("{folder}/{alias}")),
            })
            .filter(|alias| *alias != address)
            .collect()
    }

    /// `tags/<slug>/`: the first page of a tag.
    pub fn tag(&self, slug: &str) -> String {
        format!("tags/{slug}/")
    }

    /// `categories/<slug>/`: the first page of a category.
    pub fn category(&self, slug: &str) -> String {
        format!("categories/{slug}/")
    }

    /// `series/<slug>/`: a series' page.
    pub fn series(&self, slug: &str) -> String {
        format!("series/{slug}/")
    }

    /// `tags/<slug>/feed.xml` (`index.xml` in a Hugo blog): a tag's feed.
    pub fn tag_feed(&self, slug: &str) -> String {
        format!("{}{}", self.tag(slug), self.config.layout.feed_file)
    }

    /// Whether the theme writes a page of its own at `site_path` (the front
    /// page, `tags/`, a tag's page, a feed…), which a page of the blog at
    /// the same address gives way to.
    pub fn is_theme_page(&self, site_path: &str) -> bool {
        let fixed = [
            Page::Home(1),
            Page::Tags,
            Page::Categories,
            Page::AllSeries,
            Page::Feed,
            Page::Sitemap,
            Page::Robots,
            Page::NotFound,
            Page::Style,
        ];
        if fixed.iter().any(|page| self.page(page) == site_path) || site_path.starts_with("page/") {
            return true;
        }
        let term = |prefix: &str| {
            site_path.strip_prefix(prefix).and_then(|rest| rest.split('/').next()).map(crate::site::url::percent_decode)
        };
        term("tags/").is_some_and(|slug| self.library.tag(&slug).is_some())
            || term("categories/").is_some_and(|slug| self.library.category(&slug).is_some())
            || term("series/").is_some_and(|slug| self.library.series(&slug).is_some())
    }

    /// `search/`: the search results page. The search's other files (its
    /// script and index) are in that folder too: see [`Addresses::search_file`].
    pub fn search(&self) -> String {
        "search/".into()
    }

    /// A file of the search, by its name in the search folder:
    /// `search/index.js`, `search/posts/3.js`.
    pub fn search_file(&self, name: &str) -> String {
        format!("{}{name}", self.search())
    }

    /// Where a copy of an image is, beside the image (at `site_path`) and
    /// named after it whole, so no two images' copies meet:
    /// `posts/a/chart.png` → `posts/a/chart.png-480w.webp`.
    pub fn image_copy(&self, site_path: &str, copy: images::Copy) -> String {
        format!("{site_path}-{}w.{}", copy.width, copy.format.extension())
    }

    /// The image a copy's site path is of, and which copy: the way back
    /// from [`Addresses::image_copy`]. None for any other path.
    pub fn copy_of(site_path: &str) -> Option<(String, images::Copy)> {
        let (rest, extension) = site_path.rsplit_once('.')?;
        let format = images::Format::of_extension(extension)?;
        let (image, width) = rest.rsplit_once('-')?;
        let digits = width.strip_suffix('w')?;
        if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let copy = images::Copy { width: digits.parse().ok()?, format };
        Some((image.to_string(), copy)).filter(|(image, _)| !image.is_empty() && !image.ends_with('/'))
    }

    /// Where a page is; a post not in the library has none (`""`).
    pub fn page(&self, page: &Page) -> String {
        match page {
            Page::Home(n) => numbered("", *n),
            Page::Post(path) => self.library.post(path).map(|post| self.post(post)).unwrap_or_default(),
            Page::Tags => "tags/".into(),
            Page::Tag(slug, n) => numbered(&self.tag(slug), *n),
            Page::Categories => "categories/".into(),
            Page::Category(slug, n) => numbered(&self.category(slug), *n),
            Page::AllSeries => "series/".into(),
            Page::Series(slug) => self.series(slug),
            Page::Alias(_, site_path) => site_path.clone(),
            Page::Feed => self.config.layout.feed_file.clone(),
            Page::TagFeed(slug) => self.tag_feed(slug),
            Page::Sitemap => "sitemap.xml".into(),
            Page::Robots => "robots.txt".into(),
            Page::NotFound => "404.html".into(),
            Page::Style => "style.css".into(),
            Page::Search => self.search(),
            Page::SearchScript => self.search_file(SEARCH_SCRIPT),
        }
    }

    /// Where a file that could not be read as a post at all would have its
    /// page: the address its file's name gives it, where a preview shows its
    /// problems.
    pub fn unreadable(&self, file: &Path) -> String {
        let slug = PostFile::new(file).slug();
        let nothing = serde_json::Map::new();
        let facts = PostFacts {
            path: file,
            slug: &slug,
            own_slug: false,
            title: &slug,
            date: None,
            time: None,
            page: false,
            extra: &nothing,
        };
        self.config.layout.tool().address(&self.addressing(), &facts)
    }

    /// Where a file of the blog is copied to in the site: a file of a static
    /// folder to its place (`static/x` to `x`); a file in a bundle beside its
    /// post's page; other files under the posts folder to the same place
    /// under `posts/`. None for a file in no folder the site publishes.
    pub fn asset(&self, asset: &Path) -> Option<String> {
        let config = self.config;
        if let Some(site_path) = config.layout.static_site_path(asset) {
            return Some(site_path);
        }
        let within = asset.strip_prefix(&config.posts_dir).ok()?;
        if let Some((post, folder)) = asset_owner(config, self.library, asset) {
            let rest = asset.strip_prefix(folder).ok()?;
            let folder = config.layout.tool().asset_folder_address(&self.post(post));
            return Some(format!("{folder}{}", slash_path(rest)));
        }
        config.layout.tool().loose_asset(&slash_path(within))
    }
}

/// The `n`th page of a list whose first page is at `first`: `first` + `page/<n>/`.
pub fn numbered(first: &str, n: usize) -> String {
    if n == 1 { first.to_string() } else { format!("{first}page/{n}/") }
}

/// The post whose folder holds `asset` (a bundle's, or the asset folder
/// the blog's tool gives a post), if any.
pub fn bundle_of<'a>(config: &Config, library: &'a Library, asset: &Path) -> Option<&'a Post> {
    asset_owner(config, library, asset).map(|(post, _)| post)
}

/// The post whose folder holds `asset`, and that folder, as the blog's tool
/// has it (`tool::Tool::asset_folders`).
fn asset_owner<'a>(config: &Config, library: &'a Library, asset: &Path) -> Option<(&'a Post, PathBuf)> {
    let layout = &config.layout;
    layout
        .tool()
        .asset_folders(layout, &config.posts_dir, asset)
        .into_iter()
        .find_map(|(post, folder)| library.post(&post).map(|post| (post, folder)))
}

/// Where a site path leads.
#[derive(Debug, Clone, PartialEq)]
pub enum Found<'a> {
    At(&'a Target),
    /// A folder asked for without its `/`: the address to send the reader to.
    Redirect(String),
    Nowhere,
}

/// The site's addresses, each with what is there. Kept current one change
/// at a time (`update`): a changed post moves only its own addresses and the
/// list pages whose number changed, never the whole map.
#[derive(Debug, Clone, Default)]
pub struct Routes {
    /// What a reader gets at each address: of the pages and files that
    /// claim it, the first by `rank`.
    targets: HashMap<String, Target>,
    /// The other claims on addresses that more than one page or file wants.
    others: HashMap<String, Vec<Target>>,
    /// What each file (a post, a page, an unreadable file, a copied file)
    /// claims, to take back when it changes.
    files: BTreeMap<PathBuf, Claims>,
    /// How many pages the list of newest posts has, and each shown tag's
    /// and category's list, by slug.
    home_pages: usize,
    tag_pages: BTreeMap<String, usize>,
    category_pages: BTreeMap<String, usize>,
}

/// The addresses one file claims, and what of it decides other files'
/// addresses (its slug, which posts share; the tags and categories whose
/// lists it is on).
#[derive(Debug, Clone, Default)]
struct Claims {
    addresses: Vec<(String, Target)>,
    slug: Option<String>,
    terms: Vec<String>,
}

/// Which claim on one address wins: the theme's own pages, then posts and
/// pages, then old addresses, copied files, and posts with problems; the
/// same kind by the order of what is there, so that the winner never
/// depends on the order the claims came in.
fn rank(target: &Target) -> (u8, &Target) {
    let kind = match target {
        Target::Page(Page::Post(_)) => 1,
        Target::Page(Page::Alias(..)) => 2,
        Target::Page(_) => 0,
        Target::Asset(_) => 3,
        Target::Broken(_) => 4,
    };
    (kind, target)
}

impl Routes {
    /// Every address of `site`: its pages, its files, and the pages of posts
    /// with errors (which show their problems instead).
    pub fn of(site: &super::Site) -> Routes {
        let mut routes = Routes::default();
        for page in [Page::Tags, Page::Feed, Page::Sitemap, Page::Robots, Page::NotFound, Page::Style] {
            routes.claim(site.path_of(&page), Target::Page(page));
        }
        if site.has_search() {
            routes.claim(site.path_of(&Page::Search), Target::Page(Page::Search));
            routes.claim(site.path_of(&Page::SearchScript), Target::Page(Page::SearchScript));
        }
        let library = site.library;
        // In the order of their names' bytes: a path's own order takes it
        // apart to compare, which cost more than the rest of the map.
        let mut files: Vec<&Path> = library
            .posts()
            .map(|post| post.path.as_path())
            .chain(library.unreadable())
            .chain(site.assets.iter().map(PathBuf::as_path))
            .collect();
        files.par_sort_unstable_by(|a, b| a.as_os_str().as_encoded_bytes().cmp(b.as_os_str().as_encoded_bytes()));
        files.dedup();
        // What each file claims is worked out on every core; the claims are
        // then made in that order, as one at a time would make them.
        let claims: Vec<(&Path, Claims)> =
            files.par_iter().filter_map(|file| Some((*file, Routes::claims_of(site, file)?))).collect();
        for (address, target) in claims.iter().flat_map(|(_, claims)| &claims.addresses) {
            routes.claim(address.clone(), target.clone());
        }
        let terms = claims.iter().flat_map(|(_, claims)| claims.terms.iter().cloned()).collect();
        // Nearly in the map's order already: built without a search per file.
        routes.files = claims.into_iter().map(|(file, claims)| (file.to_path_buf(), claims)).collect();
        routes.follow_lists(site, terms);
        routes
    }

    /// Brings the map in line with `site` after the files `changed` (post
    /// files and copied files, added, changed or removed; both names of a
    /// renamed one) changed, and nothing else: not the settings, not the
    /// templates. Only their addresses move, those of the posts that share
    /// a slug with them and of the files beside a bundle post, and the list
    /// pages whose number changed. `site` may be one without lists
    /// (`Site::for_posts`).
    pub fn update(&mut self, site: &super::Site, changed: &BTreeSet<PathBuf>) {
        let library = site.library;
        let mut files = changed.clone();
        for file in changed {
            let slugs = self.files.get(file).and_then(|c| c.slug.clone()).into_iter();
            for slug in slugs.chain(library.post(file).map(|post| post.slug.clone())) {
                files.extend(library.paths_with_slug(&slug).map(Path::to_path_buf));
            }
            // The files beside a bundle post are copied beside its page.
            if let Some(folder) = PostFile::new(file).bundle_folder() {
                files.extend(
                    self.files
                        .range(folder.to_path_buf()..)
                        .map(|(p, _)| p)
                        .take_while(|p| p.starts_with(folder))
                        .cloned(),
                );
                files.extend(site.assets.range(folder.to_path_buf()..).take_while(|p| p.starts_with(folder)).cloned());
            }
        }
        for file in &files {
            if let Some(claims) = self.files.remove(file) {
                for (address, target) in claims.addresses {
                    self.unclaim(&address, &target);
                }
            }
            self.claim_file(site, file);
        }
        let terms = files.iter().filter_map(|f| self.files.get(f)).flat_map(|c| c.terms.clone()).collect();
        self.follow_lists(site, terms);
    }

    /// Claims the addresses of one file as `site` has it.
    fn claim_file(&mut self, site: &super::Site, file: &Path) {
        if let Some(claims) = Routes::claims_of(site, file) {
            self.register(file, claims);
        }
    }

    /// What `file` claims (None: nothing).
    fn claims_of(site: &super::Site, file: &Path) -> Option<Claims> {
        let (library, addresses, options) = (site.library, site.addresses(), site.options);
        let mut claims = Claims::default();
        if let Some(post) = library.post(file) {
            claims.slug = Some(post.slug.clone());
            claims.terms =
                library.tag_slugs_of(post).chain(post.categories.iter().map(|c| library.tag_slug(c))).collect();
            if super::shown(library, post, options) {
                let path = post.path.clone();
                claims.addresses.push((addresses.post(post), Target::Page(Page::Post(path.clone()))));
                for alias in addresses.aliases(post) {
                    claims.addresses.push((alias.clone(), Target::Page(Page::Alias(path.clone(), alias))));
                }
            } else if (post.has_errors || library.shares_slug(&post.path)) && (options.drafts || !post.draft) {
                claims.addresses.push((addresses.post(post), Target::Broken(post.path.clone())));
            }
        } else if library.contains(file) {
            // Read, but not as a post: its problems are shown where its name puts it.
            claims.addresses.push((addresses.unreadable(file), Target::Broken(file.to_path_buf())));
        } else if site.assets.contains(file)
            && let Some(address) = addresses.asset(file)
        {
            claims.addresses.push((address, Target::Asset(file.to_path_buf())));
        }
        (!claims.addresses.is_empty() || claims.slug.is_some()).then_some(claims)
    }

    fn register(&mut self, file: &Path, claims: Claims) {
        for (address, target) in &claims.addresses {
            self.claim(address.clone(), target.clone());
        }
        self.files.insert(file.to_path_buf(), claims);
    }

    /// The list pages (newest posts, each tag's and category's posts, the
    /// tags' feeds, the list of categories) as many as `site` has now; only
    /// the tags and categories `terms` (those of the files that changed)
    /// and those known are looked at.
    fn follow_lists(&mut self, site: &super::Site, terms: BTreeSet<String>) {
        let (library, options) = (site.library, site.options);
        let posts = library.posts().filter(|p| !p.page && super::shown(library, p, options)).count();
        let home = site.page_count(posts);
        self.follow_pages(self.home_pages, home, Page::Home, site);
        self.home_pages = home;
        let shown = |count: Option<crate::content::TagCount>| {
            count.map_or(0, |c| c.count + if options.drafts { c.draft_count } else { 0 })
        };
        let had_categories = !self.category_pages.is_empty();
        for slug in terms.iter().chain(self.tag_pages.keys()).cloned().collect::<BTreeSet<_>>() {
            let before = self.tag_pages.get(&slug).copied().unwrap_or(0);
            let posts = shown(library.tag_count(&slug));
            let pages = if posts > 0 { site.page_count(posts) } else { 0 };
            if (before > 0) != (pages > 0) {
                let feed = Target::Page(Page::TagFeed(slug.clone()));
                match pages > 0 {
                    true => self.claim(site.path_of(&Page::TagFeed(slug.clone())), feed),
                    false => self.unclaim(&site.path_of(&Page::TagFeed(slug.clone())), &feed),
                }
            }
            self.follow_pages(before, pages, |n| Page::Tag(slug.clone(), n), site);
            match pages {
                0 => self.tag_pages.remove(&slug),
                _ => self.tag_pages.insert(slug, pages),
            };
        }
        for slug in terms.iter().chain(self.category_pages.keys()).cloned().collect::<BTreeSet<_>>() {
            let before = self.category_pages.get(&slug).copied().unwrap_or(0);
            let posts = shown(library.category_count(&slug));
            let pages = if posts > 0 { site.page_count(posts) } else { 0 };
            self.follow_pages(before, pages, |n| Page::Category(slug.clone(), n), site);
            match pages {
                0 => self.category_pages.remove(&slug),
                _ => self.category_pages.insert(slug, pages),
            };
        }
        let has_categories = !self.category_pages.is_empty();
        if had_categories != has_categories {
            let page = Page::Categories;
            match had_categories {
                false => self.claim(site.path_of(&page), Target::Page(page)),
                true => self.unclaim(&site.path_of(&page), &Target::Page(page)),
            }
        }
    }

    /// From `before` numbered pages of a list to `after`.
    fn follow_pages(&mut self, before: usize, after: usize, page: impl Fn(usize) -> Page, site: &super::Site) {
        for n in after + 1..=before {
            let page = page(n);
            self.unclaim(&site.path_of(&page), &Target::Page(page));
        }
        for n in before + 1..=after {
            let page = page(n);
            self.claim(site.path_of(&page), Target::Page(page));
        }
    }

    fn claim(&mut self, address: String, target: Target) {
        match self.targets.get_mut(&address) {
            None => {
                self.targets.insert(address, target);
            }
            Some(now) if rank(&target) < rank(now) => {
                let loser = std::mem::replace(now, target);
                self.others.entry(address).or_default().push(loser);
            }
            Some(_) => self.others.entry(address).or_default().push(target),
        }
    }

    fn unclaim(&mut self, address: &str, target: &Target) {
        if self.targets.get(address) == Some(target) {
            let next = self.others.get_mut(address).and_then(|others| {
                let best = (0..others.len()).min_by(|a, b| rank(&others[*a]).cmp(&rank(&others[*b])))?;
                Some(others.swap_remove(best))
            });
            match next {
                Some(next) => self.targets.insert(address.to_string(), next),
                None => self.targets.remove(address),
            };
        } else if let Some(others) = self.others.get_mut(address)
            && let Some(at) = others.iter().position(|t| t == target)
        {
            others.swap_remove(at);
        }
        if self.others.get(address).is_some_and(Vec::is_empty) {
            self.others.remove(address);
        }
    }

    /// Adds every address and what is there to `state`, in address order.
    pub fn hash_into(&self, state: &mut impl std::hash::Hasher) {
        use std::hash::Hash;
        let mut targets: Vec<(&String, &Target)> = self.targets.iter().collect();
        targets.sort_unstable_by(|a, b| a.0.cmp(b.0));
        targets.hash(state);
    }

    /// What is at `site_path` exactly.
    pub fn get(&self, site_path: &str) -> Option<&Target> {
        self.targets.get(site_path)
    }

    /// What a reader asking for `site_path` (decoded, without the leading
    /// `/`) gets: `a/index.html` is `a/`, and `a` leads to `a/`.
    /// The site path of what is at `site_path`, as the site writes it: `a/`
    /// for `a` or `a/index.html`, `a.html` for `a` (as static hosts serve a
    /// Jekyll post). None where nothing is.
    pub fn address_of(&self, site_path: &str) -> Option<String> {
        let path = site_path.strip_suffix("index.html").unwrap_or(site_path);
        let mut candidates = vec![path.to_string(), site_path.to_string()];
        if !path.is_empty() && !path.ends_with('/') {
            candidates.extend([format!("{path}/"), format!("{path}.html")]);
        }
        candidates.into_iter().find(|candidate| self.targets.contains_key(candidate))
    }

    pub fn find(&self, site_path: &str) -> Found<'_> {
        let path = site_path.strip_suffix("index.html").unwrap_or(site_path);
        if let Some(target) = self.targets.get(path).or_else(|| self.targets.get(site_path)) {
            return Found::At(target);
        }
        if !path.is_empty() && !path.ends_with('/') && self.targets.contains_key(&format!("{path}/")) {
            return Found::Redirect(format!("/{}/", super::url::encode_path(path)));
        }
        // `a` for `a.html`, as static hosts serve a Jekyll post's page.
        match self.targets.get(&format!("{path}.html")) {
            Some(target) if !path.is_empty() && !path.ends_with('/') => Found::At(target),
            _ => Found::Nowhere,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::content::library::of_texts as library;
    use crate::tool::Kind;

    /// A Hanji blog's `permalink` pattern: Jekyll's styles and names, with the post's slug.
    fn permalink(pattern: &str, post: &Post) -> Option<String> {
        crate::tool::permalink_named(pattern, &post.facts(), post.slug.clone(), post.slug.clone())
    }

    #[test]
    fn pages_have_their_addresses() {
        let lib = library(&[("posts/a.md", "---\ntitle: A\nslug: alpha\n---\n")]);
        let config = Config::default();
        let at = |page: Page| Addresses::new(&config, &lib).page(&page);
        assert_eq!(at(Page::Home(1)), "");
        assert_eq!(at(Page::Home(3)), "page/3/");
        assert_eq!(at(Page::Post("posts/a.md".into())), "posts/alpha/");
        assert_eq!(at(Page::Post("posts/none.md".into())), "");
        assert_eq!(at(Page::Tag("분산-학습".into(), 2)), "tags/분산-학습/page/2/");
        assert_eq!(at(Page::TagFeed("nccl".into())), "tags/nccl/feed.xml");
        assert_eq!(at(Page::NotFound), "404.html");
    }

    #[test]
    fn each_layout_gives_its_own_addresses() {
        use crate::tool::Layout;
        let at = |kind: Kind, posts_dir: &str, file: &str| {
            let config = Config { layout: Layout::of(kind), posts_dir: posts_dir.into(), ..Config::default() };
            let lib = library(&[(file, "---\ntitle: T\n---\n")]);
            Addresses::new(&config, &lib).post(lib.post(Path::new(file)).unwrap())
        };
        assert_eq!(at(Kind::Hanji, "posts", "posts/x/a.md"), "posts/a/");
        assert_eq!(at(Kind::Hugo, "content/posts", "content/posts/2024/My Post.md"), "posts/2024/my-post/");
        assert_eq!(at(Kind::Hugo, "content/posts", "content/posts/b/index.md"), "posts/b/");
        assert_eq!(at(Kind::Zola, "content", "content/blog/c.md"), "blog/c/");
        assert_eq!(at(Kind::Zola, "content", "content/about.md"), "about/");
        let zola = Config { layout: Layout::of(Kind::Zola), posts_dir: "content".into(), ..Config::default() };
        let lib = library(&[("content/blog/p.md", "+++\ntitle = \"P\"\npath = \"notes/p-elsewhere\"\n+++\n")]);
        let p = lib.post(Path::new("content/blog/p.md")).unwrap();
        assert_eq!(Addresses::new(&zola, &lib).post(p), "notes/p-elsewhere/", "a page's own `path`");
        assert_eq!(at(Kind::NextStarter, "data/blog", "data/blog/guides/D.mdx"), "blog/guides/D/");
        assert_eq!(at(Kind::NextStarter, "data/blog", "data/blog/e/index.mdx"), "blog/e/");
    }

    #[test]
    fn permalinks_as_jekyll_makes_them() {
        let lib = library(&[
            ("_posts/2025-12-24-welcome.md", "---\ntitle: W\ncategories: Jekyll update\n---\n"),
            ("_posts/2026-03-05-plain.md", "---\ntitle: P\n---\n"),
            ("_posts/2026-03-06-own.md", "---\ntitle: O\npermalink: /notes/:title/\n---\n"),
        ]);
        let post = |file: &str| lib.post(Path::new(file)).unwrap();
        let welcome = post("_posts/2025-12-24-welcome.md");
        assert_eq!(permalink("date", welcome).as_deref(), Some("jekyll/update/2025/12/24/welcome.html"));
        assert_eq!(permalink("pretty", welcome).as_deref(), Some("jekyll/update/2025/12/24/welcome/"));
        assert_eq!(permalink("none", welcome).as_deref(), Some("jekyll/update/welcome.html"));
        assert_eq!(permalink("ordinal", welcome).as_deref(), Some("jekyll/update/2025/358/welcome.html"));
        assert_eq!(permalink("/:year/:i_month/:slug", welcome).as_deref(), Some("2025/12/welcome.html"));
        assert_eq!(permalink("date", post("_posts/2026-03-05-plain.md")).as_deref(), Some("2026/03/05/plain.html"));
        let jekyll = Config { layout: crate::tool::Layout::of(Kind::Jekyll), ..Config::default() };
        let at = |file: &str| Addresses::new(&jekyll, &lib).post(post(file));
        assert_eq!(at("_posts/2025-12-24-welcome.md"), "jekyll/update/2025/12/24/welcome.html");
        assert_eq!(at("_posts/2026-03-06-own.md"), "notes/own/", "the post's own permalink");
        let pretty = Config { permalink: Some("pretty".into()), ..jekyll.clone() };
        assert_eq!(Addresses::new(&pretty, &lib).post(post("_posts/2026-03-05-plain.md")), "2026/03/05/plain/");
        let undated = library(&[("posts/u.md", "---\ntitle: U\n---\n")]);
        let hanji = Config { permalink: Some("/:year/:slug/".into()), ..Config::default() };
        let u = undated.post(Path::new("posts/u.md")).unwrap();
        assert_eq!(Addresses::new(&hanji, &undated).post(u), "posts/u/", "no date: the layout's own address");
    }

    #[test]
    fn hugo_addresses_as_hugo_makes_them() {
        let lib = library(&[
            ("content/posts/a-file.md", "---\ntitle: Hello World\ndate: 2024-03-05\n---\n"),
            ("content/posts/t.md", "---\ntitle: T\ndate: 2024-01-01\nslug: custom\n---\n"),
            ("content/posts/u.md", "---\ntitle: U\ndate: 2024-01-01\nurl: /elsewhere/u\n---\n"),
        ]);
        let config = |permalink: Option<&str>| Config {
            layout: crate::tool::Layout::of(Kind::Hugo),
            posts_dir: "content/posts".into(),
            permalink: permalink.map(str::to_string),
            ..Config::default()
        };
        let at = |config: &Config, file: &str| Addresses::new(config, &lib).post(lib.post(Path::new(file)).unwrap());
        let plain = config(None);
        assert_eq!(at(&plain, "content/posts/a-file.md"), "posts/a-file/");
        assert_eq!(at(&plain, "content/posts/u.md"), "elsewhere/u/", "the post's own url");
        let dated = config(Some("/:year/:month/:slug/"));
        assert_eq!(at(&dated, "content/posts/a-file.md"), "2024/03/hello-world/", ":slug is the title's");
        assert_eq!(at(&dated, "content/posts/t.md"), "2024/01/custom/", "or the front matter's");
        assert_eq!(at(&config(Some("/:section/:filename/")), "content/posts/a-file.md"), "posts/a-file/");
    }

    #[test]
    fn image_copies_are_named_after_their_image_both_ways() {
        let (config, lib) = (Config::default(), Library::default());
        let addresses = Addresses::new(&config, &lib);
        let copy = images::Copy { width: 480, format: images::Format::Webp };
        let path = addresses.image_copy("posts/a/chart.png", copy);
        assert_eq!(path, "posts/a/chart.png-480w.webp");
        assert_eq!(Addresses::copy_of(&path), Some(("posts/a/chart.png".to_string(), copy)));
        for other in ["posts/a/chart.png", "posts/a/x-480.webp", "a-0480w.webp", "a-w.webp", "-480w.webp", "a-480w.svg"]
        {
            assert_eq!(Addresses::copy_of(other), None, "{other}");
        }
    }

    #[test]
    fn unreadable_files_keep_the_address_of_their_name() {
        let (config, lib) = (Config::default(), Library::default());
        let at = |file: &str| Addresses::new(&config, &lib).unreadable(Path::new(file));
        assert_eq!(at("posts/Bad Post.md"), "posts/bad-post/");
        assert_eq!(at("posts/b/index.md"), "posts/b/");
        assert_eq!(at("_posts/2026-07-17-a-b.md"), "posts/a-b/");
    }

    #[test]
    fn assets_go_beside_their_page_or_keep_their_place() {
        let config = Config::default();
        let lib = library(&[("posts/b/index.md", "---\ntitle: B\nslug: bee\n---\n")]);
        let site = |p: &str| Addresses::new(&config, &lib).asset(Path::new(p));
        assert_eq!(site("static/images/logo.png").as_deref(), Some("images/logo.png"));
        assert_eq!(site("posts/b/diagram.png").as_deref(), Some("posts/bee/diagram.png"));
        assert_eq!(site("posts/b/img/x.png").as_deref(), Some("posts/bee/img/x.png"));
        assert_eq!(site("posts/images/x.png").as_deref(), Some("posts/images/x.png"));
        assert_eq!(site("elsewhere/x.png"), None);
    }

    #[test]
    fn addresses_lead_back_to_their_pages() {
        let config = Config::default();
        let lib =
            library(&[("posts/a.md", "---\ntitle: A\ntags: [x]\n---\n"), ("posts/bad.md", "---\ntitle: [\n---\n")]);
        let assets = ["static/CNAME".into()].into();
        let theme = super::super::theme::Theme::new(&Default::default()).0;
        let site = super::super::Site::new(&config, &lib, &assets, &theme, Default::default());
        let routes = Routes::of(&site);
        assert_eq!(routes.find("posts/a/index.html"), Found::At(&Target::Page(Page::Post("posts/a.md".into()))));
        assert_eq!(routes.find("tags/x/"), Found::At(&Target::Page(Page::Tag("x".into(), 1))));
        assert_eq!(routes.find("CNAME"), Found::At(&Target::Asset("static/CNAME".into())));
        assert_eq!(routes.find("posts/bad/"), Found::At(&Target::Broken("posts/bad.md".into())));
        assert_eq!(routes.find("posts/a"), Found::Redirect("/posts/a/".into()));
        assert_eq!(routes.find("posts/zzz/"), Found::Nowhere);
        assert_eq!(routes.find("404"), Found::At(&Target::Page(Page::NotFound)), "`a` for `a.html`");
        for (path, target) in &routes.targets {
            if let Target::Page(page) = target {
                assert_eq!(&Addresses::new(&config, &lib).page(page), path, "both ways agree");
            }
        }
    }

    /// The map kept one change at a time is the map made afresh, whatever
    /// the changes: posts that move, share a slug, become drafts, break,
    /// gain old addresses and tags, bundles with their files, copied files.
    #[test]
    fn the_map_kept_per_change_is_the_map_made_afresh() {
        use crate::site::{Site, SiteOptions};
        let config = Config { posts_per_page: 2, ..Config::default() };
        let theme = super::super::theme::Theme::new(&Default::default()).0;
        let files = ["posts/a.md", "posts/b.md", "posts/c.md", "posts/d/index.md", "posts/e.md", "pages/about.md"];
        let texts = [
            "---\ntitle: One\ndate: 2026-07-01\ntags: [x, y]\n---\n",
            "---\ntitle: Two\ndate: 2026-07-02\nslug: same\ntags: [x]\n---\n",
            "---\ntitle: Three\ndate: 2026-07-03\ndraft: true\ntags: [y, z]\ncategories: [c]\n---\n",
            "---\ntitle: Four\ndate: 2026-07-04\naliases: [/old/, older]\ntags: [z]\n---\n",
            "---\ntitle: [broken\n---\n",
            "---\ntitle: Five\ndate: 2026-07-05\nslug: tags\n---\n",
            "---\ntitle: Six\nslug: same\ncategories: [c, d]\n---\n",
        ];
        let assets = ["posts/d/figure.png", "static/images/a.png", "posts/d/more/b.png"];
        for drafts in [false, true] {
            let options = SiteOptions { drafts, ..SiteOptions::default() };
            let mut library = Library::default();
            let mut copied = BTreeSet::new();
            let mut routes = Routes::of(&Site::new(&config, &library, &copied, &theme, options));
            let mut seed: u64 = 7;
            let mut next = |below: usize| {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                (seed >> 33) as usize % below
            };
            for step in 0..400 {
                let changed: PathBuf = if next(4) == 0 {
                    let asset = PathBuf::from(assets[next(assets.len())]);
                    if !copied.remove(&asset) {
                        copied.insert(asset.clone());
                    }
                    asset
                } else {
                    let file = PathBuf::from(files[next(files.len())]);
                    match next(texts.len() + 1) {
                        0 => {
                            library.remove(&file);
                        }
                        n => library.insert(crate::content::Post::parse(&file, texts[n - 1])),
                    }
                    file
                };
                routes.update(&Site::for_posts(&config, &library, &copied, &theme, options), &[changed.clone()].into());
                let fresh = Routes::of(&Site::new(&config, &library, &copied, &theme, options));
                assert_eq!(routes.targets, fresh.targets, "drafts {drafts}, step {step}, {}", changed.display());
            }
        }
    }
}
