//! What a path in the blog folder is to Hanji, decided from the path alone:
//! the watcher asks this of every path an event names, and drops the ignored.

use std::path::{Component, Path};

use serde::Serialize;

use crate::config::{self, Config};
use crate::content::file::{is_passed_over, is_post};
use crate::detect;
use crate::fs;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FileKind {
    /// A Markdown file under the posts folder.
    Post,
    /// Any other file the site copies: under `static/`, or beside the posts
    /// (a bundle's images).
    Asset,
    /// A file of `templates/` that replaces or adds to the theme.
    Template,
    /// A shortcode template of the blog's tool (`layouts/shortcodes/x.html`,
    /// Jekyll's `_includes/x.html`), the blog's own or its theme's.
    Shortcode,
    /// `hanji.toml`, or the settings file of another tool (`hugo.toml`,
    /// `_config.yml`, …), which may change how the folder is laid out.
    Config,
    /// Nothing the blog is made of: `.git/`, `node_modules/`, the export
    /// folder, editor temp files, anything outside the folders above.
    Ignored,
}

/// What the file at `path` (relative to the blog folder) is. Agrees with the
/// loader: a file is read by `load` exactly when this says it is not ignored.
pub fn classify(config: &Config, path: &Path) -> FileKind {
    if path.as_os_str().is_empty() || !path.components().all(|c| matches!(c, Component::Normal(_))) {
        return FileKind::Ignored;
    }
    if path == Path::new(config::FILE_NAME) || detect::is_settings_file(path) {
        return FileKind::Config;
    }
    // A Zola section's `_index.md` says whether its pages are posts (`sort_by`).
    if config.layout.tool().is_listing_setting(path) {
        return FileKind::Config;
    }
    if path.starts_with(&config.output_dir) {
        return FileKind::Ignored;
    }
    // Below the folder it is in, every part of the path must be a name the
    // loader reads: `posts/.drafts/a.md` and `static/x.png~` are passed over.
    let read =
        |folder: &Path| path.strip_prefix(folder).ok().filter(|rest| !rest.as_os_str().is_empty() && !skipped(rest));
    if read(&config.posts_dir).is_some() {
        return match (is_post(&config.layout, path), is_passed_over(&config.layout, path)) {
            (true, _) => FileKind::Post,
            // A section's `_index.md`, an undated file of `_posts`: neither a post nor a file to copy.
            (false, true) => FileKind::Ignored,
            (false, false) => FileKind::Asset,
        };
    }
    let layout = &config.layout;
    if layout.in_pages_dir(path) && !skipped(path) && is_post(layout, path) {
        return FileKind::Post;
    }
    if config.layout.static_dirs.iter().any(|dir| read(&dir.folder).is_some()) {
        return FileKind::Asset;
    }
    if !skipped(path) && config.layout.shortcode_name(path).is_some() {
        return FileKind::Shortcode;
    }
    // Templates are the files directly in `templates/`; its subfolders are not read.
    match read(&config.layout.templates_dir) {
        Some(rest) if rest.components().count() == 1 => FileKind::Template,
        _ => FileKind::Ignored,
    }
}

fn skipped(rest: &Path) -> bool {
    rest.components().any(|c| fs::is_skipped(&c.as_os_str().to_string_lossy()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(path: &str) -> FileKind {
        classify(&Config::default(), Path::new(path))
    }

    #[test]
    fn the_parts_of_a_blog() {
        assert_eq!(kind("posts/a.md"), FileKind::Post);
        assert_eq!(kind("posts/b/index.md"), FileKind::Post);
        assert_eq!(kind("posts/notes.markdown"), FileKind::Post);
        assert_eq!(kind("posts/b/diagram.png"), FileKind::Asset);
        assert_eq!(kind("posts/_index.md"), FileKind::Ignored, "Zola section files are not posts, nor copied");
        assert_eq!(kind("static/images/logo.png"), FileKind::Asset);
        assert_eq!(kind("static/CNAME"), FileKind::Asset);
        assert_eq!(kind("templates/post.html"), FileKind::Template);
        assert_eq!(kind("hanji.toml"), FileKind::Config);
    }

    #[test]
    fn editor_temp_files_are_ignored() {
        for path in [
            "posts/a.md~",
            "posts/.a.md.swp",
            "posts/.a.md.swx",
            "posts/4913",
            "posts/.#a.md",
            "posts/a.md.tmp",
            "posts/a.md___jb_tmp___",
            "posts/a.md___jb_old___",
            "static/.DS_Store",
            "templates/.post.html.swp",
            "templates/post.html~",
        ] {
            assert_eq!(kind(path), FileKind::Ignored, "{path}");
        }
    }

    #[test]
    fn folders_that_are_not_the_blog_are_ignored() {
        for path in [
            ".git/index",
            ".git/objects/ab/cdef",
            "posts/.git/HEAD",
            "node_modules/x/index.md",
            "posts/node_modules/x.md",
            "static/node_modules/x.js",
            "public/index.html",
            "public/posts/a/index.html",
            "README.md",
            "notes/a.md",
            "templates/partials/x.html",
            "posts",
            "static",
            "templates",
            "",
            "../elsewhere/a.md",
            "/etc/passwd",
        ] {
            assert_eq!(kind(path), FileKind::Ignored, "{path}");
        }
    }

    #[test]
    fn shortcode_templates_and_the_themes_are_the_blog_s() {
        use crate::tool::{Kind, Layout};
        let mut layout = Layout::of(Kind::Hugo);
        layout.add_theme("paper");
        let hugo = Config { posts_dir: "content/posts".into(), layout, ..Config::default() };
        let kind = |path: &str| classify(&hugo, Path::new(path));
        assert_eq!(kind("layouts/shortcodes/imageFull.html"), FileKind::Shortcode);
        assert_eq!(kind("themes/paper/layouts/shortcodes/note.html"), FileKind::Shortcode);
        assert_eq!(kind("themes/other/layouts/shortcodes/note.html"), FileKind::Ignored, "not the blog's theme");
        assert_eq!(kind("layouts/shortcodes/note.html~"), FileKind::Ignored);
        assert_eq!(kind("layouts/_default/single.html"), FileKind::Ignored);
        let jekyll = Config { posts_dir: "_posts".into(), layout: Layout::of(Kind::Jekyll), ..Config::default() };
        assert_eq!(classify(&jekyll, Path::new("_includes/notes/warn.html")), FileKind::Shortcode);
    }

    #[test]
    fn the_settings_move_the_folders() {
        let config = Config { posts_dir: "content/blog".into(), output_dir: "site".into(), ..Config::default() };
        let kind = |path: &str| classify(&config, Path::new(path));
        assert_eq!(kind("content/blog/a.md"), FileKind::Post);
        assert_eq!(kind("posts/a.md"), FileKind::Ignored);
        assert_eq!(kind("site/index.html"), FileKind::Ignored);
        assert_eq!(kind("public/index.html"), FileKind::Ignored);
    }

    #[test]
    fn the_layout_moves_the_folders_and_names_the_settings() {
        use crate::tool::{Kind, Layout};
        let config = Config {
            posts_dir: "data/blog".into(),
            output_dir: "hanji-public".into(),
            layout: Layout::of(Kind::NextStarter),
            ..Config::default()
        };
        let kind = |path: &str| classify(&config, Path::new(path));
        assert_eq!(kind("data/blog/sub/a.mdx"), FileKind::Post);
        assert_eq!(kind("public/static/images/a.png"), FileKind::Asset);
        assert_eq!(kind("data/siteMetadata.js"), FileKind::Config);
        assert_eq!(kind("hanji-public/index.html"), FileKind::Ignored);
        assert_eq!(kind("data/authors/default.mdx"), FileKind::Post, "the About page");
        assert_eq!(kind("static/a.png"), FileKind::Ignored, "not a static folder of this layout");

        let zola = Config { posts_dir: "content".into(), layout: Layout::of(Kind::Zola), ..Config::default() };
        assert_eq!(classify(&zola, Path::new("templates/page.html")), FileKind::Ignored, "Zola's own");
        assert_eq!(classify(&zola, Path::new("templates/shortcodes/note.html")), FileKind::Shortcode);
        assert_eq!(classify(&zola, Path::new("templates/shortcodes/.note.html.swp")), FileKind::Ignored);
        assert_eq!(classify(&zola, Path::new("hanji-templates/post.html")), FileKind::Template);
        assert_eq!(classify(&zola, Path::new("config.toml")), FileKind::Config);
    }
}
