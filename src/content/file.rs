//! What a file of the posts folder is, from its path and the blog's layout
//! alone, as the blog's tool has it (`tool::Tool`): a post or not, a page,
//! passed over, the syntax it may hold, the size a post may have, and where
//! a new post goes. Loading, watching, links, the preview and every action on
//! a post ask here.

use std::path::{Path, PathBuf};

use jiff::civil::Date;

pub use crate::tool::PostFile;
use crate::tool::{Layout, Syntax};

/// Posts larger than this are not read: no one writes 5 MB of prose, and a
/// file that large is most likely data put in the wrong folder.
pub const MAX_POST_BYTES: u64 = 5 * 1024 * 1024;

/// Whether a file of the posts folder is a post (or a page), as the blog's tool reads it.
pub fn is_post(layout: &Layout, path: &Path) -> bool {
    layout.tool().is_post(layout, path)
}

/// A text file of the posts folder that is no post and that its tool does
/// not copy either: a section's `_index.md`, a file of Jekyll's `_posts`
/// without a date in its name.
pub fn is_passed_over(layout: &Layout, path: &Path) -> bool {
    layout.tool().passes_over(layout, path)
}

/// Whether a text file of the static folders may be a template the tool runs
/// (when it starts with front matter) rather than a file it copies.
pub fn may_be_template(layout: &Layout, path: &Path) -> bool {
    layout.tool().may_be_template(path)
}

/// The syntax besides Markdown that the post at `path` may hold.
pub fn syntax(layout: &Layout, path: &Path) -> Syntax {
    layout.tool().syntax(path)
}

/// Where a new post named `slug` goes in `posts_dir`, as the blog's tool
/// names its posts.
pub fn new_post_path(layout: &Layout, posts_dir: &Path, slug: &str, bundle: bool, date: Date) -> PathBuf {
    layout.tool().new_post_path(posts_dir, slug, bundle, date)
}

#[cfg(test)]
mod tests {
    use jiff::civil::date;

    use super::*;
    use crate::tool::{Kind, is_section, title_from_name};

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
        assert_eq!(syntax(&next, Path::new("data/blog/a.mdx")), Syntax::Mdx);
        assert_eq!(syntax(&next, Path::new("data/blog/a.md")), Syntax::Mdx, "the starter compiles `.md` as MDX");
        assert_eq!(syntax(&Layout::of(Kind::Jekyll), Path::new("_posts/a.md")), Syntax::Liquid);
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
