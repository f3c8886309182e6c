//! What a file of the posts folder is, from its path and the blog's layout
//! alone: a post or not, the name and slug its file gives it, whether it is a
//! bundle (`<name>/index.md` with its files beside it), the date and name a
//! Jekyll file name carries, the syntax it may hold, the size a post may
//! have, and where a post of a new slug, a new post or an added image goes.
//! Loading, watching, links, the preview and every action on a post ask here.

use std::path::{Component, Path, PathBuf};

use jiff::civil::Date;

use crate::layout::{CONTENT_DIR, JEKYLL_POSTS_DIR, Kind, Layout, ZolaSection};
use crate::markdown::Syntax;

/// Posts larger than this are not read: no one writes 5 MB of prose, and a
/// file that large is most likely data put in the wrong folder.
pub const MAX_POST_BYTES: u64 = 5 * 1024 * 1024;

/// The names of a bundle's post file, in the order they are looked for.
pub const BUNDLE_INDEXES: &[&str] = &["index.md", "index.markdown", "index.mdx"];

/// The syntax of a tool's templates, and of its shortcodes in posts:
/// Hugo's, Zola's, Liquid (Jekyll); none but Markdown for Hanji and the
/// Next.js starter (whose `.mdx` posts hold JSX, see `File::syntax`).
pub fn tool_syntax(kind: Kind) -> Syntax {
    match kind {
        Kind::Hanji | Kind::NextStarter => Syntax::Markdown,
        Kind::Hugo => Syntax::Hugo,
        Kind::Zola => Syntax::Zola,
        Kind::Jekyll => Syntax::Liquid,
    }
}

/// Whether a file of the posts folder is a post: Markdown (and MDX in the
/// Next.js starter), but not a Zola or Hugo section's `_index.md`, nor a
/// file of a Jekyll `_posts` folder whose name does not start with a date.
pub fn is_post(layout: &Layout, path: &Path) -> bool {
    is_text(layout, path) && !is_section(path) && (layout.kind != Kind::Jekyll || jekyll_post_name(path))
}

/// Jekyll reads a file of a `_posts` folder only if its name starts with a
/// date (`Document::DATE_FILENAME_MATCHER`, which `PostReader#read_publishable`
/// selects by: `\d{2,4}-\d{1,2}-\d{1,2}-`, then the name and an extension);
/// any other file there is not published at all (`(ing)2024-08-29-db.md`).
/// A file outside `_posts` is not asked about here.
fn jekyll_post_name(path: &Path) -> bool {
    let file = PostFile::new(path);
    if !file.in_jekyll_posts() {
        return true;
    }
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else { return false };
    let mut parts = name.splitn(4, '-');
    let digits = |part: Option<&str>, lengths: std::ops::RangeInclusive<usize>| {
        part.is_some_and(|p| lengths.contains(&p.len()) && p.bytes().all(|b| b.is_ascii_digit()))
    };
    digits(parts.next(), 2..=4) && digits(parts.next(), 1..=2) && digits(parts.next(), 1..=2) && parts.next().is_some()
}

/// A text file of the posts folder that is no post and that its tool does
/// not copy either: a section's `_index.md`, a file of Jekyll's `_posts`
/// without a date in its name.
pub fn is_passed_over(layout: &Layout, path: &Path) -> bool {
    is_section(path) || (is_text(layout, path) && !is_post(layout, path))
}

/// A Zola or Hugo section's own file, `_index.md`: not a post, and not a file
/// to copy either (neither tool publishes its Markdown).
pub fn is_section(path: &Path) -> bool {
    path.file_stem().is_some_and(|stem| stem == "_index")
        && path.extension().is_some_and(|e| e == "md" || e == "markdown" || e == "mdx")
}

/// Whether a file of a Jekyll blog's static folders may be one that Jekyll
/// runs through Liquid rather than copies: a text file, which it does when
/// the file starts with front matter ("any file that contains a YAML front
/// matter block will be processed by Jekyll as a special file"): Chirpy's
/// `assets/404.html`, `assets/js/data/search.json`. Hanji has not the
/// theme's Liquid to run; it writes its own 404 page, feed and search, and
/// leaves such a file out rather than copy its template as it is.
pub fn may_be_jekyll_template(layout: &Layout, path: &Path) -> bool {
    const TEXT: &[&str] =
        &["html", "htm", "xml", "json", "txt", "css", "scss", "sass", "js", "webmanifest", "svg", "yml", "yaml"];
    layout.kind == Kind::Jekyll
        && path.extension().and_then(|e| e.to_str()).is_some_and(|e| TEXT.contains(&e.to_ascii_lowercase().as_str()))
}

/// Whether a post file is a page (an About page) rather than a post: a file
/// of a pages folder (Hanji's `pages/`, Jekyll's `_pages/` and top-level
/// files), or in a Hugo or Zola blog one at the top of `content/`, outside
/// every section (`content/about.md`, `content/about/index.md`); in a Zola
/// blog, any page of a section with `render = false`, and none of a section
/// sorted by date (the top of `content/` too). A page has its own address
/// and is not in the lists, feeds and tags of posts.
pub fn is_page(layout: &Layout, path: &Path) -> bool {
    match layout.kind {
        Kind::Hanji | Kind::Jekyll => layout.in_pages_dir(path),
        Kind::Hugo | Kind::Zola => {
            let file = PostFile::new(path);
            let folder = file.bundle_folder().and_then(Path::parent).unwrap_or(file.folder());
            // A Zola section that lists nothing holds pages; one sorted by
            // date lists its dated pages, the top of `content/` too (the
            // library marks an undated one a page: `Rules::apply`).
            match layout.zola_section(folder).filter(|_| layout.kind == Kind::Zola) {
                Some(ZolaSection::Hidden) => true,
                Some(ZolaSection::ByDate) => false,
                Some(ZolaSection::Unsorted) | None => folder == Path::new(CONTENT_DIR),
            }
        }
        Kind::NextStarter => false,
    }
}

/// Markdown, or MDX in the Next.js starter.
fn is_text(layout: &Layout, path: &Path) -> bool {
    let Some(extension) = path.extension() else { return false };
    let markdown = extension == "md" || extension == "markdown";
    markdown || (layout.kind == Kind::NextStarter && extension == "mdx")
}

/// A post's file, by its path relative to the blog folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PostFile<'a> {
    path: &'a Path,
}

impl<'a> PostFile<'a> {
    pub fn new(path: &'a Path) -> Self {
        PostFile { path }
    }

    pub fn path(&self) -> &'a Path {
        self.path
    }

    /// `posts/<name>/index.md`: the folder is the post, its files beside it.
    pub fn is_bundle(&self) -> bool {
        self.path.file_stem().is_some_and(|s| s == "index")
            && self.path.parent().is_some_and(|p| p.file_name().is_some())
    }

    /// The bundle's folder, `posts/<name>`, if it is one.
    pub fn bundle_folder(&self) -> Option<&'a Path> {
        self.is_bundle().then(|| self.path.parent()).flatten()
    }

    /// The folder that relative links and images in the post start from.
    pub fn folder(&self) -> &'a Path {
        self.path.parent().unwrap_or(Path::new(""))
    }

    /// Whether the post is in a Jekyll `_posts` folder (at any depth), where
    /// Jekyll's rules for names and categories hold.
    pub fn in_jekyll_posts(&self) -> bool {
        self.folder().components().any(|c| c == Component::Normal(JEKYLL_POSTS_DIR.as_ref()))
    }

    /// The date and name of a Jekyll post's file: `_posts/2026-07-17-hello-world.md`
    /// → (2026-07-17, `hello-world`). None outside a `_posts` folder.
    pub fn dated(&self) -> Option<(Date, &'a str)> {
        if !self.in_jekyll_posts() {
            return None;
        }
        let stem = self.path.file_stem()?.to_str()?;
        let mut parts = stem.splitn(4, '-');
        let (year, month, day, name) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        let number = |text: &str, digits: std::ops::RangeInclusive<usize>| {
            (digits.contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit()))
                .then(|| text.parse::<i16>().ok())?
        };
        let date = Date::new(number(year, 4..=4)?, number(month, 1..=2)? as i8, number(day, 1..=2)? as i8).ok()?;
        (!name.is_empty()).then_some((date, name))
    }

    /// The name the file gives the post: a Jekyll name without its date, the
    /// folder of a bundle, else the file's stem.
    pub fn name(&self) -> String {
        if let Some((_, name)) = self.dated() {
            return name.to_string();
        }
        let named = if self.is_bundle() { self.path.parent().and_then(Path::file_name) } else { self.path.file_stem() };
        named.map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
    }

    /// The slug the file gives the post (its front matter may set another).
    pub fn slug(&self) -> String {
        let name = self.name();
        let slug = crate::slug::slug(&name);
        if slug.trim_matches('-').is_empty() { name } else { slug }
    }

    /// The title of a post whose front matter has none: as Jekyll makes it
    /// from a dated name (`my-first-post` → `My First Post`), else the name.
    pub fn title(&self) -> String {
        match self.dated() {
            Some((_, name)) => title_from_name(name),
            None => self.name(),
        }
    }

    /// The syntax besides Markdown that the post may hold, by the tool that
    /// made the blog.
    pub fn syntax(&self, layout: &Layout) -> Syntax {
        match layout.kind {
            Kind::NextStarter if self.path.extension().is_some_and(|e| e == "mdx") => Syntax::Mdx,
            kind => tool_syntax(kind),
        }
    }

    /// What moves when the post takes the name `slug`: (the file or bundle
    /// folder that moves, where it goes, the post's new path). A bundle's
    /// folder is renamed; a file keeps its extension (`.mdx`) and a Jekyll
    /// file its date (`2026-07-17-<slug>.md`).
    pub fn renamed(&self, slug: &str) -> (PathBuf, PathBuf, PathBuf) {
        if let Some(folder) = self.bundle_folder() {
            let to = folder.parent().unwrap_or(Path::new("")).join(slug);
            let new_path = to.join(self.path.file_name().expect("a bundle's file has a name"));
            return (folder.to_path_buf(), to, new_path);
        }
        let extension = self.path.extension().map_or_else(|| "md".into(), |e| e.to_string_lossy().into_owned());
        let name = match self.dated() {
            Some((date, _)) => format!("{}-{slug}.{extension}", date.strftime("%Y-%m-%d")),
            None => format!("{slug}.{extension}"),
        };
        let new_path = self.path.with_file_name(name);
        (self.path.to_path_buf(), new_path.clone(), new_path)
    }

    /// Where an image added to the post goes: beside a bundle's file, else
    /// in the layout's images folder, which its site publishes.
    pub fn images_folder(&self, layout: &Layout) -> PathBuf {
        match self.bundle_folder() {
            Some(folder) => folder.to_path_buf(),
            None => layout.images_dir(),
        }
    }
}

/// Where a new post named `slug` goes in `posts_dir`: `<slug>.md`, or
/// `<slug>/index.md` as a bundle where the layout has bundles; a Jekyll post
/// is `<date>-<slug>.md`, and a Next.js starter post `<slug>.mdx`.
pub fn new_post_path(layout: &Layout, posts_dir: &Path, slug: &str, bundle: bool, date: Date) -> PathBuf {
    match layout.kind {
        Kind::Jekyll => posts_dir.join(format!("{}-{slug}.md", date.strftime("%Y-%m-%d"))),
        Kind::NextStarter => posts_dir.join(format!("{slug}.mdx")),
        Kind::Hanji | Kind::Hugo | Kind::Zola if bundle => posts_dir.join(slug).join("index.md"),
        Kind::Hanji | Kind::Hugo | Kind::Zola => posts_dir.join(format!("{slug}.md")),
    }
}

/// A post's title from its name, as Jekyll makes it: `my-first-post` → `My First Post`.
pub fn title_from_name(name: &str) -> String {
    let words = name.split('-').filter(|w| !w.is_empty()).map(|word| {
        let mut chars = word.chars();
        chars.next().map(|first| first.to_uppercase().chain(chars).collect::<String>()).unwrap_or_default()
    });
    words.collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use jiff::civil::date;

    use super::*;

    fn file(path: &str) -> PostFile<'_> {
        PostFile::new(Path::new(path))
    }

    #[test]
    fn jekyll_file_names_give_date_and_name() {
        let named = |path: &str| file(path).dated().map(|(d, name)| (d, name.to_string()));
        assert_eq!(named("_posts/2026-07-17-hello-world.md"), Some((date(2026, 7, 17), "hello-world".to_string())));
        assert_eq!(named("_posts/notes/2026-7-1-a.markdown"), Some((date(2026, 7, 1), "a".to_string())));
        assert_eq!(named("cat/_posts/2026-01-02-x-y.md"), Some((date(2026, 1, 2), "x-y".to_string())));
        assert_eq!(named("posts/2026-07-17-hello.md"), None, "only in a `_posts` folder");
        assert_eq!(named("_posts/2026-02-30-no-such-day.md"), None);
        assert_eq!(named("_posts/2026-07-17.md"), None, "no name");
        assert_eq!(named("_posts/hello.md"), None);
        assert_eq!(title_from_name("my-first-post"), "My First Post");
        assert_eq!(title_from_name("분산-학습"), "분산 학습");
    }

    #[test]
    fn each_layout_says_which_files_are_posts_and_what_they_hold() {
        let next = Layout::of(Kind::NextStarter);
        assert!(is_post(&next, Path::new("data/blog/a.mdx")));
        assert!(!is_post(&Layout::default(), Path::new("posts/a.mdx")), "MDX is the Next.js starter's");
        assert!(!is_post(&Layout::of(Kind::Zola), Path::new("content/blog/_index.md")));
        assert!(!is_post(&next, Path::new("data/blog/_index.mdx")));
        assert!(is_post(&Layout::default(), Path::new("posts/a.markdown")));
        assert!(!is_post(&Layout::default(), Path::new("posts/a.png")));
        assert!(is_section(Path::new("content/blog/_index.md")) && !is_section(Path::new("content/_index.png")));
        assert_eq!(file("data/blog/a.mdx").syntax(&next), Syntax::Mdx);
        assert_eq!(file("data/blog/a.md").syntax(&next), Syntax::Markdown);
        assert_eq!(file("_posts/a.md").syntax(&Layout::of(Kind::Jekyll)), Syntax::Liquid);
    }

    #[test]
    fn names_and_slugs_come_from_the_file() {
        assert_eq!(
            (file("posts/Bad Post.md").name(), file("posts/Bad Post.md").slug()),
            ("Bad Post".into(), "bad-post".into())
        );
        assert_eq!(file("posts/b/index.md").slug(), "b");
        assert!(file("posts/b/index.mdx").is_bundle());
        assert!(!file("index.md").is_bundle(), "the top of the blog is no bundle");
        assert_eq!(file("_posts/2026-07-17-my-post.md").slug(), "my-post");
        assert_eq!(file("_posts/2026-07-17-my-post.md").title(), "My Post");
        assert_eq!(file("posts/!!.md").slug(), "!!", "a name with no letters is kept as it is");
    }

    #[test]
    fn a_new_slug_keeps_what_the_layout_needs() {
        let moved = |path: &str, slug: &str| file(path).renamed(slug);
        let p = PathBuf::from;
        assert_eq!(moved("posts/a.md", "b"), (p("posts/a.md"), p("posts/b.md"), p("posts/b.md")));
        assert_eq!(moved("posts/a/index.md", "b"), (p("posts/a"), p("posts/b"), p("posts/b/index.md")));
        assert_eq!(moved("data/blog/a.mdx", "b").2, p("data/blog/b.mdx"));
        assert_eq!(moved("_posts/2026-07-17-a.md", "b").2, p("_posts/2026-07-17-b.md"));
    }

    #[test]
    fn new_posts_and_images_go_where_the_layout_publishes_them() {
        let today = date(2026, 12, 1);
        let at =
            |kind: Kind, dir: &str, bundle: bool| new_post_path(&Layout::of(kind), Path::new(dir), "hi", bundle, today);
        assert_eq!(at(Kind::Hanji, "posts", false), Path::new("posts/hi.md"));
        assert_eq!(at(Kind::Hanji, "posts", true), Path::new("posts/hi/index.md"));
        assert_eq!(at(Kind::Jekyll, "_posts", true), Path::new("_posts/2026-12-01-hi.md"));
        assert_eq!(at(Kind::NextStarter, "data/blog", false), Path::new("data/blog/hi.mdx"));
        let images = |kind: Kind, path: &str| file(path).images_folder(&Layout::of(kind));
        assert_eq!(images(Kind::Hanji, "posts/a.md"), Path::new("static/images"));
        assert_eq!(images(Kind::Hanji, "posts/b/index.md"), Path::new("posts/b"));
        assert_eq!(images(Kind::Jekyll, "_posts/2026-07-17-a.md"), Path::new("assets/images"));
        assert_eq!(images(Kind::NextStarter, "data/blog/a.mdx"), Path::new("public/static/images"));
    }
}
