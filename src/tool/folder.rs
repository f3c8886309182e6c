//! A folder of Markdown or MDX posts with front matter, published by site
//! code of its own: a Gatsby site (gatsby-starter-hoodie, gatsby-starter-blog),
//! an Astro site's content collection, a Next.js site of its own. Where its
//! posts are and the address its code gives them are read from the blog's
//! own files (`gatsby-node.js`, the site's page routes), never by running
//! them, and `hanji.toml` may set both (`posts_dir`, `permalink`); every
//! other rule is Hanji's. A `permalink` here is a pattern of `:name` (the
//! file's name, or a bundle's folder, as written), `:path` (the file's path
//! under the posts folder, without its extension or a bundle's `index`),
//! `:slugpath` (`:path` with each folder made a slug), `:slug`, `:year`,
//! `:month` and `:day`.

use std::path::{Path, PathBuf};

use super::address::{date_values, fill, own_url, slash_path};
use super::next_starter::NextStarter;
use super::{Addressing, Folder, Kind, Layout, PostFacts, PostFile, Settings, StaticDir, Syntax, Tool};
use crate::diagnostics::Diagnostic;

pub(super) struct MarkdownFolder;

const GATSBY: &[&str] = &["gatsby-config.js", "gatsby-config.ts", "gatsby-config.mjs"];
const ASTRO: &[&str] = &["astro.config.mjs", "astro.config.ts", "astro.config.js", "astro.config.cjs"];

/// gatsby-starter-hoodie keeps its site settings apart from Gatsby's
/// (`module.exports = { title, description, author, siteUrl }`).
const HOODIE_SETTINGS: &str = "blog-config.js";

/// Every file that says which site code the folder has, its settings first.
const SETTINGS: &[&str] = &[
    HOODIE_SETTINGS,
    "gatsby-config.js",
    "gatsby-config.ts",
    "gatsby-config.mjs",
    "astro.config.mjs",
    "astro.config.ts",
    "astro.config.js",
    "astro.config.cjs",
    "package.json",
];

/// Where such sites usually keep their posts, the likeliest first:
/// gatsby-starter-hoodie, gatsby-starter-blog, Astro's blog template, the
/// Next.js blog starter and its many descendants.
const POSTS_DIRS: &[&str] = &[
    "contents/posts",
    "content/blog",
    "content/posts",
    "src/content/blog",
    "src/content/posts",
    "_posts",
    "posts",
    "data/posts",
    "src/posts",
    "blog",
];

/// The site code a folder has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Site {
    Gatsby,
    Astro,
    Next,
}

fn site(folder: &dyn Folder) -> Option<Site> {
    let any = |files: &[&str]| files.iter().any(|file| folder.is_file(Path::new(file)));
    if any(GATSBY) {
        return Some(Site::Gatsby);
    }
    if any(ASTRO) {
        return Some(Site::Astro);
    }
    let package = folder.read(Path::new("package.json")).unwrap_or_default();
    package.contains("\"next\"").then_some(Site::Next)
}

/// The posts folder the site's code names: Gatsby's `gatsby-node.js` query
/// (`fileAbsolutePath: { regex: "/contents/posts/" }`), Astro's collection
/// (`src/content/<name>/`), else the first usual folder found.
fn found_posts_dir(folder: &dyn Folder, site: Site) -> Option<PathBuf> {
    if site == Site::Gatsby
        && let Ok(node) = folder.read(Path::new("gatsby-node.js"))
        && let Some(named) = regex_folder(&node).filter(|dir| folder.is_dir(dir))
    {
        return Some(named);
    }
    let usual = POSTS_DIRS.iter().map(PathBuf::from).find(|dir| folder.is_dir(dir));
    if site == Site::Astro && usual.is_none() {
        return folder.folders(Path::new("src/content")).into_iter().next();
    }
    usual
}

/// The folder of `fileAbsolutePath: { regex: "/contents/posts/" }`.
fn regex_folder(node: &str) -> Option<PathBuf> {
    let at = node.find("fileAbsolutePath")?;
    let rest = &node[at..];
    let rest = &rest[rest.find("regex")?..];
    let quote = rest.find(['"', '\'', '`'])?;
    let text = &rest[quote + 1..];
    let end = text.find(['"', '\'', '`'])?;
    let named = text[..end].trim_matches('/');
    (!named.is_empty() && !named.contains(['\\', '*', '(', '[', '$', '^'])).then(|| PathBuf::from(named))
}

/// The address the site's code gives a post, read from its files: Gatsby's
/// `createFilePath` path (gatsby-starter-hoodie keeps only its last folder:
/// `slug.split("/").reverse()[1]`); the folder of a dynamic route in an
/// Astro or Next.js site's pages (`src/pages/blog/[...slug].astro`,
/// `app/posts/[slug]/page.tsx`) with the post's name or slugged path.
fn found_permalink(folder: &dyn Folder, site: Site, posts_dir: &Path) -> String {
    match site {
        Site::Gatsby => {
            let node = folder.read(Path::new("gatsby-node.js")).unwrap_or_default();
            if node.contains(".reverse()[1]") { "/:name/".into() } else { "/:path/".into() }
        }
        Site::Astro => {
            let collection = posts_dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let route = route_folder(folder, &["src/pages"]).unwrap_or(collection);
            format!("/{route}/:slugpath/")
        }
        Site::Next => {
            let route = route_folder(folder, &["app", "src/app", "pages", "src/pages"]).unwrap_or("posts".into());
            format!("/{route}/:name/")
        }
    }
}

/// The first folder of the page routes `roots` that holds a dynamic route
/// (`[slug]`, `[...slug]`, as a file or a folder).
fn route_folder(folder: &dyn Folder, roots: &[&str]) -> Option<String> {
    const DYNAMIC: &[&str] = &["[slug]", "[...slug]", "[id]", "[...id]"];
    for root in roots {
        for route in folder.folders(Path::new(root)) {
            let dynamic = DYNAMIC.iter().any(|name| {
                folder.is_dir(&route.join(name))
                    || ["astro", "js", "jsx", "ts", "tsx", "mdx"]
                        .iter()
                        .any(|ext| folder.is_file(&route.join(format!("{name}.{ext}"))))
            });
            if dynamic {
                return route.file_name().map(|n| n.to_string_lossy().into_owned());
            }
        }
    }
    None
}

impl Tool for MarkdownFolder {
    fn kind(&self) -> Kind {
        Kind::Folder
    }

    fn settings_files(&self) -> &'static [&'static str] {
        SETTINGS
    }

    /// A Gatsby, Astro or Next.js site with a folder of posts.
    fn claims(&self, folder: &dyn Folder) -> Option<Option<PathBuf>> {
        let site = site(folder)?;
        found_posts_dir(folder, site)?;
        Some(SETTINGS.iter().map(PathBuf::from).find(|file| folder.is_file(file)))
    }

    fn posts_dir(&self) -> PathBuf {
        "posts".into()
    }

    fn posts_dir_in(&self, folder: &dyn Folder) -> PathBuf {
        site(folder).and_then(|site| found_posts_dir(folder, site)).unwrap_or_else(|| self.posts_dir())
    }

    fn permalink_in(&self, folder: &dyn Folder) -> Option<String> {
        let site = site(folder)?;
        let posts_dir = found_posts_dir(folder, site)?;
        Some(found_permalink(folder, site, &posts_dir))
    }

    fn layout(&self) -> Layout {
        Layout { future_posts: true, ..Layout::base(Kind::Folder) }
    }

    /// Static files: Gatsby's `static/`, Next.js's and Astro's `public/`
    /// (Gatsby's `public/` is its own output). Pages: the folders beside the
    /// posts folder in its content folder (gatsby-starter-hoodie's
    /// `contents/about/`).
    fn read_folder(&self, folder: &dyn Folder, layout: &mut Layout) {
        let Some(site) = site(folder) else { return };
        if site != Site::Gatsby {
            layout.static_dirs = vec![StaticDir::at_top("public")];
        }
        let Some(posts_dir) = found_posts_dir(folder, site) else { return };
        let Some(content) = posts_dir.parent().filter(|p| !p.as_os_str().is_empty()) else { return };
        if site == Site::Gatsby {
            layout.pages_dirs = folder.folders(content).into_iter().filter(|dir| *dir != posts_dir).collect();
        }
    }

    fn settings(&self, file: &Path, text: &str, problems: &mut Vec<Diagnostic>) -> Settings {
        if file != Path::new(HOODIE_SETTINGS) {
            return Settings::default();
        }
        // The same `module.exports = { … }` of plain values as the starter's `siteMetadata.js`.
        NextStarter.settings(file, text, problems)
    }

    /// MDX as the Next.js starter reads it.
    fn syntax(&self, path: &Path) -> Syntax {
        NextStarter.syntax(path)
    }

    fn is_text(&self, path: &Path) -> bool {
        NextStarter.is_text(path)
    }

    fn is_page(&self, layout: &Layout, path: &Path) -> bool {
        layout.in_pages_dir(path)
    }

    /// By the pattern (`permalink`), `/:path/` without one; a page at its name.
    fn address(&self, at: &Addressing, post: &PostFacts) -> String {
        let file = PostFile::new(post.path);
        if post.page {
            return format!("{}/", file.name());
        }
        let named = file.bundle_folder().map_or_else(|| post.path.with_extension(""), Path::to_path_buf);
        let path = slash_path(named.strip_prefix(at.posts_dir).unwrap_or(&named));
        let slugged: Vec<String> = path.split('/').map(crate::slug::slug).filter(|s| !s.is_empty()).collect();
        let mut values = vec![
            (":slugpath", slugged.join("/")),
            (":name", file.name()),
            (":path", path),
            (":slug", post.slug.to_string()),
        ];
        values.extend(date_values(post.date));
        let pattern = at.permalink.unwrap_or("/:path/");
        let address = own_url(&fill(pattern, &values)).unwrap_or_else(|| format!("{}/", post.slug));
        // A pattern that ends in `/` makes a folder, a dot in its last name or not (`/oauth-2.0/`).
        if pattern.ends_with('/') && !address.ends_with('/') { format!("{address}/") } else { address }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::FakeFolder;

    #[test]
    fn the_posts_folder_and_address_come_from_the_sites_code() {
        let hoodie = FakeFolder(vec![
            ("gatsby-config.js", "module.exports = {}"),
            ("blog-config.js", "module.exports = { title: 'hudi.blog' }"),
            (
                "gatsby-node.js",
                "filter: { fileAbsolutePath: { regex: \"/contents/posts/\" } }\nconst newSlug = `/${slug.split(\"/\").reverse()[1]}/`",
            ),
            ("contents/posts/algo/binary-search/index.md", ""),
            ("contents/about/index.md", ""),
        ]);
        let tool = MarkdownFolder;
        assert_eq!(tool.claims(&hoodie), Some(Some(PathBuf::from(HOODIE_SETTINGS))));
        assert_eq!(tool.posts_dir_in(&hoodie), Path::new("contents/posts"));
        assert_eq!(tool.permalink_in(&hoodie).as_deref(), Some("/:name/"));
        let mut layout = tool.layout();
        tool.read_folder(&hoodie, &mut layout);
        assert_eq!(layout.pages_dirs, [PathBuf::from("contents/about")]);

        let next = FakeFolder(vec![
            ("package.json", "{\"dependencies\": {\"next\": \"14\"}}"),
            ("_posts/hello-world.md", ""),
            ("app/posts/[slug]/page.tsx", ""),
        ]);
        assert_eq!(tool.posts_dir_in(&next), Path::new("_posts"));
        assert_eq!(tool.permalink_in(&next).as_deref(), Some("/posts/:name/"));

        let astro = FakeFolder(vec![
            ("astro.config.mjs", ""),
            ("src/content/blog/first-post.md", ""),
            ("src/pages/blog/[...slug].astro", ""),
        ]);
        assert_eq!(tool.posts_dir_in(&astro), Path::new("src/content/blog"));
        assert_eq!(tool.permalink_in(&astro).as_deref(), Some("/blog/:slugpath/"));
        let plain = FakeFolder(vec![("package.json", "{\"dependencies\": {\"react\": \"18\"}}"), ("posts/a.md", "")]);
        assert_eq!(tool.claims(&plain), None, "no site code Hanji knows");
    }

    #[test]
    fn addresses_by_pattern() {
        let layout = MarkdownFolder.layout();
        let extra = serde_json::Map::new();
        let post = |path: &'static str| PostFacts {
            path: Path::new(path),
            slug: "s",
            own_slug: false,
            title: "T",
            date: None,
            time: None,
            page: false,
            extra: &extra,
        };
        let at = |permalink: Option<&'static str>| Addressing {
            layout: &layout,
            posts_dir: Path::new("contents/posts"),
            permalink,
        };
        let tool = MarkdownFolder;
        assert_eq!(
            tool.address(&at(Some("/:name/")), &post("contents/posts/a/2024_KPT_회고/index.md")),
            "2024_KPT_회고/"
        );
        assert_eq!(tool.address(&at(None), &post("contents/posts/Notes/Hello World.md")), "Notes/Hello World/");
        assert_eq!(tool.address(&at(Some("/:name/")), &post("contents/posts/oauth-2.0/index.md")), "oauth-2.0/");
        assert_eq!(
            tool.address(&at(Some("/blog/:slugpath/")), &post("contents/posts/Notes/Hello World.mdx")),
            "blog/notes/hello-world/"
        );
        let about = PostFacts { page: true, ..post("contents/about/index.md") };
        assert_eq!(tool.address(&at(None), &about), "about/");
    }
}
