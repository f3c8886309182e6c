//! The site as a preview shows it: any address answered from the blog as it
//! is now (pages by `Site::render`, files as they are, a post with errors as
//! its list of problems), and a post rendered from the author's unsaved text.
//! `hanji serve` and the app's `preview:` protocol both answer from here.

use std::path::Path;

use crate::blog::Blog;
use crate::content::Library;
use crate::content::file::MAX_POST_BYTES;
use crate::diagnostics::Diagnostic;
use crate::front_matter;
use crate::fs;
use crate::images::Catalog;
use crate::markdown::{self, TocEntry};
use crate::site::routes::{Addresses, Found, Routes, Target};
use crate::site::theme::Theme;
use crate::site::{Page, Site, SiteOptions, url};

/// Every address of the blog's site, as a preview with `options` shows it.
pub fn routes(blog: &Blog, theme: &Theme, options: SiteOptions) -> Routes {
    Routes::of(&Site::new(&blog.config, &blog.library, &blog.assets, theme, options))
}

/// The answer to a request for a site path.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
    /// Where a redirect leads (a folder asked for without its `/`).
    pub location: Option<String>,
}

impl Answer {
    pub fn html(status: u16, text: String) -> Answer {
        Answer { status, content_type: content_type(""), body: text.into_bytes(), location: None }
    }

    pub fn is_html(&self) -> bool {
        self.content_type.starts_with("text/html")
    }
}

/// Answers `site_path` (decoded, without the leading `/`) from `blog`, its
/// posts as `library` has them (the saved ones, or the author's unsaved
/// texts put over them) and `routes` the addresses of those; its images
/// sized for the screen by `images`, whose copies are made as they are
/// asked for.
pub fn answer(
    blog: &Blog,
    library: &Library,
    theme: &Theme,
    routes: &Routes,
    images: Option<&Catalog>,
    site_path: &str,
    options: SiteOptions,
) -> Answer {
    let target = match routes.find(site_path) {
        Found::At(target) => target,
        Found::Redirect(location) => {
            return Answer { status: 308, content_type: "text/plain", body: Vec::new(), location: Some(location) };
        }
        Found::Nowhere => {
            let copy = images.and_then(|images| image_copy(routes, images, site_path));
            return copy.unwrap_or_else(|| render(blog, library, theme, images, &Page::NotFound, options, 404));
        }
    };
    match target {
        Target::Page(page) => render(blog, library, theme, images, page, options, 200),
        Target::Asset(file) => match fs::read_file(&blog.root, file) {
            Ok(body) => Answer { status: 200, content_type: content_type(site_path), body, location: None },
            Err(e) => Answer {
                status: 404,
                content_type: content_type("a.txt"),
                body: format!("cannot read `{}`: {e}", file.display()).into_bytes(),
                location: None,
            },
        },
        Target::Broken(file) => {
            let problems = library.diagnostics_of(file);
            let title = format!("{} has errors", file.display());
            let text = "The post is left out of the site until they are fixed; this page reloads when it is saved.";
            Answer::html(500, problem_page(&title, text, &problems))
        }
    }
}

/// A copy of an image of the blog (`posts/a/chart.png-480w.webp`), made
/// now if the cache does not have it; None where there is no such copy.
fn image_copy(routes: &Routes, images: &Catalog, site_path: &str) -> Option<Answer> {
    let (image, copy) = Addresses::copy_of(site_path)?;
    let Found::At(Target::Asset(file)) = routes.find(&image) else { return None };
    let answer = match images.copy(file, copy)? {
        Ok(body) => Answer { status: 200, content_type: content_type(site_path), body, location: None },
        Err(error) => Answer {
            status: 500,
            content_type: content_type("a.txt"),
            body: format!("cannot make this copy of `{}`: {error}", file.display()).into_bytes(),
            location: None,
        },
    };
    Some(answer)
}

fn render(
    blog: &Blog,
    library: &Library,
    theme: &Theme,
    images: Option<&Catalog>,
    page: &Page,
    options: SiteOptions,
    status: u16,
) -> Answer {
    let mut site = Site::new(&blog.config, library, &blog.assets, theme, options).with_shortcodes(&blog.shortcodes);
    if let Some(images) = images {
        site = site.with_images(images);
    }
    match site.render(page) {
        Ok(rendered) => Answer {
            status,
            content_type: content_type(&site.path_of(page)),
            body: rendered.text.into_bytes(),
            location: None,
        },
        Err(error) => {
            let text = "The theme could not render this page.";
            Answer::html(500, problem_page("Template error", text, &[error.to_diagnostic()]))
        }
    }
}

/// The front matter fields the app's form shows, read from a post's text.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Fields {
    pub title: Option<String>,
    /// `YYYY-MM-DD`.
    pub date: Option<String>,
    pub tags: Vec<String>,
    pub summary: Option<String>,
    pub draft: bool,
    /// Why the front matter cannot be read (the form cannot edit it then).
    pub error: Option<Diagnostic>,
}

/// One post rendered from unsaved text, as the app's preview shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct PostPreview {
    /// Where the post's page is: `posts/<slug>/index.html`.
    pub site_path: String,
    /// The page, its blocks marked with their source lines (`data-line`).
    pub html: String,
    pub fields: Fields,
    /// The headings of the page's table of contents (levels 2–4), each with
    /// its source line: the app's outline.
    pub toc: Vec<TocEntry>,
    pub words: usize,
    pub reading_minutes: usize,
    pub problems: Vec<Diagnostic>,
}

/// Renders the post at `path` from `text`, in the blog as it is otherwise,
/// through the theme the export uses (drafts shown, source lines marked),
/// its images sized for the screen by `images`.
pub fn post_preview(blog: &Blog, theme: &Theme, images: Option<&Catalog>, path: &Path, text: &str) -> PostPreview {
    let parsed = blog.library.parse(path, text);
    let mut problems = parsed.problems.clone();
    let fields = fields_of(path, text);
    let addresses = Addresses::new(&blog.config, &blog.library);
    let site_path = match &parsed.post {
        Some(post) => url::file_of(&addresses.post(post)),
        None => url::file_of(&addresses.unreadable(path)),
    };
    // The app's preview runs no script, so it has no search.
    let options = SiteOptions { drafts: true, source_lines: true, search: false, services: false };
    let mut toc = Vec::new();
    let (html, (words, reading_minutes)) = match &parsed.post {
        Some(post) if !post.has_errors => {
            let mut site = Site::for_posts(&blog.config, &blog.library, &blog.assets, theme, options)
                .with_shortcodes(&blog.shortcodes);
            if let Some(images) = images {
                site = site.with_images(images);
            }
            match site.render_post(post) {
                Ok(rendered) => {
                    problems.extend(rendered.page.problems);
                    toc = rendered.toc;
                    let counts = (rendered.words, rendered.reading_minutes);
                    (rendered.page.text, counts)
                }
                Err(error) => {
                    let problem = error.to_diagnostic();
                    let text = "The theme could not render this post.";
                    let page = problem_page("Template error", text, std::slice::from_ref(&problem));
                    problems.push(problem);
                    (page, counts_of(&post.body()))
                }
            }
        }
        _ => {
            // Counted in the text as written when it cannot be read as a
            // post, unless it is too big to be one.
            let counted = match &parsed.post {
                Some(post) => post.body(),
                None if text.len() as u64 > MAX_POST_BYTES => "".into(),
                None => text.into(),
            };
            let title = format!("{} has errors", path.display());
            let page = problem_page(&title, "The post is left out of the site until they are fixed.", &problems);
            (page, counts_of(&counted))
        }
    };
    problems.sort();
    problems.dedup();
    PostPreview { site_path, html, fields, toc, words, reading_minutes, problems }
}

/// Words and reading minutes of a body that is not rendered as a page.
fn counts_of(body: &str) -> (usize, usize) {
    let rendered = markdown::render(body, &markdown::Options::default());
    (rendered.word_count, rendered.reading_minutes)
}

/// The form's fields of a post's text, exactly as written (no fallbacks).
pub fn fields_of(path: &Path, text: &str) -> Fields {
    match front_matter::parse(text) {
        Ok(document) => {
            let fm = document.front_matter;
            Fields {
                title: fm.title,
                date: fm.date.map(|d| d.date.to_string()),
                tags: fm.tags,
                summary: fm.summary,
                draft: fm.draft,
                error: None,
            }
        }
        Err(problem) => Fields { error: Some(problem.in_file(path)), ..Fields::default() },
    }
}

/// Links to the web (`http:`, `https:`, `mailto:`) open a new window when
/// clicked, which the app turns into the system's browser; every other link
/// stays in the preview. A link that names its own target is left alone.
pub fn links_out_in_new_windows(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + 256);
    let mut rest = html;
    while let Some(at) = rest.find("<a ") {
        let Some(end) = rest[at..].find('>').map(|end| at + end) else { break };
        let tag = &rest[at..end];
        out.push_str(&rest[..end]);
        let href = tag.split_once("href=").map(|(_, v)| v.trim_start_matches(['"', '\'']).to_ascii_lowercase());
        let outward = href.is_some_and(|h| ["http://", "https://", "mailto:"].iter().any(|s| h.starts_with(s)));
        if outward && !tag.contains(" target=") {
            out.push_str(" target=\"_blank\" rel=\"noopener\"");
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A page of Hanji's own (not the theme's): the problems, with their files,
/// lines and hints.
pub fn problem_page(title: &str, text: &str, problems: &[Diagnostic]) -> String {
    let mut items = String::new();
    for problem in problems {
        items.push_str(&format!("<li><code>{}</code>", escape(&problem.to_string())));
        if let Some(hint) = &problem.hint {
            items.push_str(&format!("<br>hint: {}", escape(hint)));
        }
        items.push_str("</li>\n");
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title}</title>\n\
         <style>body{{font:16px/1.5 system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}}\
         li{{margin:.5rem 0}}code{{color:#b00020;white-space:pre-wrap}}</style>\n</head>\n<body>\n\
         <h1>{title}</h1>\n<p>{text}</p>\n<ul>\n{items}</ul>\n</body>\n</html>\n",
        title = escape(title),
        text = escape(text),
    )
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// The type of what is at a site path, by its name.
pub fn content_type(site_path: &str) -> &'static str {
    if site_path.is_empty() || site_path.ends_with('/') {
        return "text/html; charset=utf-8";
    }
    let extension = site_path.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    match extension.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "xml" => "application/xml; charset=utf-8",
        "txt" | "md" => "text/plain; charset=utf-8",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "avif" => "image/avif",
        "svg" => "image/svg+xml",
        "ico" => "image/x-icon",
        "pdf" => "application/pdf",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        "mp4" => "video/mp4",
        "webm" => "video/webm",
        "mp3" => "audio/mpeg",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load;

    #[test]
    fn a_post_preview_is_the_page_the_site_has() {
        let blog = load::load(Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/content"))).unwrap();
        let theme = Theme::new(&blog.templates).0;
        let site = Site::new(
            &blog.config,
            &blog.library,
            &blog.assets,
            &theme,
            SiteOptions { drafts: true, source_lines: true, search: false, services: false },
        );
        let mut compared = 0;
        for post in blog.library.posts().filter(|p| !p.has_errors) {
            let whole = site.render(&Page::Post(post.path.clone())).unwrap().text;
            let preview = post_preview(&blog, &theme, None, &post.path, &post.source()).html;
            assert_eq!(preview, whole, "{}", post.path.display());
            compared += 1;
        }
        assert!(compared > 10);
    }

    #[test]
    fn links_to_the_web_open_new_windows() {
        let html = "<p><a href=\"https://example.com/\">web</a> <a href=\"../../tags/nccl/index.html\">tag</a> \
                    <a href='MAILTO:me@x.kr'>mail</a> <a href=\"http://a\" target=\"_self\">own</a> <a id=x>no href</a></p>";
        let out = links_out_in_new_windows(html);
        assert_eq!(
            out,
            "<p><a href=\"https://example.com/\" target=\"_blank\" rel=\"noopener\">web</a> \
             <a href=\"../../tags/nccl/index.html\">tag</a> \
             <a href='MAILTO:me@x.kr' target=\"_blank\" rel=\"noopener\">mail</a> \
             <a href=\"http://a\" target=\"_self\">own</a> <a id=x>no href</a></p>"
        );
        assert_eq!(links_out_in_new_windows(&out), out, "twice is once");
    }

    #[test]
    fn fields_are_read_as_written() {
        let fields = fields_of(
            Path::new("posts/a.md"),
            "---\ntitle: 제목\ndate: 2026-07-17\ntags: [nccl, gpu]\ndraft: true\n---\n",
        );
        assert_eq!(fields.title.as_deref(), Some("제목"));
        assert_eq!(fields.date.as_deref(), Some("2026-07-17"));
        assert_eq!(fields.tags, ["nccl", "gpu"]);
        assert!(fields.draft && fields.error.is_none());
        let broken = fields_of(Path::new("posts/a.md"), "---\ntitle: [unclosed\n---\n");
        let error = broken.error.unwrap();
        assert_eq!((error.path.as_path(), error.line), (Path::new("posts/a.md"), 2));
    }

    #[test]
    fn types_by_name() {
        assert_eq!(content_type("posts/a/"), "text/html; charset=utf-8");
        assert_eq!(content_type("feed.xml"), "application/xml; charset=utf-8");
        assert_eq!(content_type("static/d.PNG"), "image/png");
        assert_eq!(content_type("x.unknown"), "application/octet-stream");
    }
}
