//! tailwind-nextjs-starter-blog: posts in `data/blog/` (`.mdx` and `.md`,
//! subfolders too) at `blog/<path>/`, static files in `public/`, and the
//! site settings from `data/siteMetadata.js`, whose plain values
//! (`title: 'My blog'`) are read by a small scanner: no JavaScript is run;
//! the About page is the default author's file.

use std::path::{Path, PathBuf};

use jiff::civil::Date;

use super::address::slash_path;
use super::{Addressing, Folder, Kind, Layout, PostFacts, PostFile, Setting, Settings, StaticDir, Syntax, Tool};
use crate::diagnostics::{Diagnostic, Problem};
use crate::slug::TermSlugs;
use crate::text::line_column;

pub(super) const SETTINGS: &[&str] = &["data/siteMetadata.js"];

pub(super) const POSTS_DIR: &str = "data/blog";

/// The authors' files: the starter's About page (`pages/about.js` in the
/// first version, `getFileBySlug('authors', ['default'])`; `app/about/page.tsx`
/// in the second, `allAuthors.find((p) => p.slug === 'default')`) renders
/// `default.md(x)` at `/about`; the other authors have no page of their own.
pub(super) const AUTHORS_DIR: &str = "data/authors";

/// The default author's file's name, without its extension.
const DEFAULT_AUTHOR: &str = "default";

/// Where the starter's first version made its posts' slugs (`lib/mdx.js`,
/// `formatSlug`); the second makes them in `contentlayer.config`.
pub(super) const V1_SLUGS: &str = "lib/mdx.js";

pub(super) struct NextStarter;

impl Tool for NextStarter {
    fn kind(&self) -> Kind {
        Kind::NextStarter
    }

    fn settings_files(&self) -> &'static [&'static str] {
        SETTINGS
    }

    fn claims(&self, folder: &dyn Folder) -> Option<Option<PathBuf>> {
        SETTINGS.iter().map(PathBuf::from).find(|file| folder.is_file(file)).map(Some)
    }

    fn posts_dir(&self) -> PathBuf {
        POSTS_DIR.into()
    }

    /// Next.js serves `public/` at the top of the site; every post is
    /// published whatever its date.
    fn layout(&self) -> Layout {
        Layout {
            static_dirs: vec![StaticDir::at_top("public")],
            pages_dirs: vec![AUTHORS_DIR.into()],
            term_slugs: TermSlugs::GitHub,
            future_posts: true,
            ..Layout::base(Kind::NextStarter)
        }
    }

    /// Whether the blog's own `lib/mdx.js` is the first version's.
    fn read_folder(&self, folder: &dyn Folder, layout: &mut Layout) {
        let v1 = folder.read(Path::new(V1_SLUGS)).ok();
        layout.starter_strips_dates = v1.as_deref().is_some_and(v1_strips_dates);
    }

    fn settings(&self, file: &Path, text: &str, problems: &mut Vec<Diagnostic>) -> Settings {
        let (settings, found) = settings(text);
        problems.extend(found.into_iter().map(|problem| problem.in_file(file)));
        settings
    }

    /// Every post is MDX, `.md` too: the first version compiles each file
    /// with `mdx-bundler` (`lib/mdx.js`, `bundleMDX({ source })`), the
    /// second with contentlayer's `contentType: 'mdx'`.
    fn syntax(&self, _path: &Path) -> Syntax {
        Syntax::Mdx
    }

    fn is_text(&self, path: &Path) -> bool {
        path.extension().is_some_and(|e| e == "md" || e == "markdown" || e == "mdx")
    }

    /// Every file of `data/blog/` is a post; the authors' files are pages.
    fn is_page(&self, _layout: &Layout, path: &Path) -> bool {
        path.starts_with(AUTHORS_DIR)
    }

    /// The About page's title (`genPageMetadata({ title: 'About' })` in
    /// `app/about/page.tsx`); the author's file has a `name`, no `title`.
    fn page_title(&self, path: &Path) -> Option<&'static str> {
        is_default_author(path).then_some("About")
    }

    /// Only the default author's file is a page of the site (the About page).
    fn publishes_page(&self, path: &Path, _has_front_matter: bool) -> bool {
        !path.starts_with(AUTHORS_DIR) || is_default_author(path)
    }

    fn new_post_path(&self, posts_dir: &Path, slug: &str, _bundle: bool, _date: Date) -> PathBuf {
        posts_dir.join(format!("{slug}.mdx"))
    }

    /// `public/static/images`, which the starter's own posts use.
    fn images_dir(&self, layout: &Layout) -> PathBuf {
        let first = layout.static_dirs.first().map_or_else(|| PathBuf::from("public"), |dir| dir.folder.clone());
        first.join("static").join("images")
    }

    /// The file's path under the posts folder, without `.mdx` (a bundle's
    /// folder for its `index.mdx`), as the starter routes it
    /// (`data/blog/guides/a.mdx` → `blog/guides/a/`), without its dates in
    /// the first version.
    fn address(&self, at: &Addressing, post: &PostFacts) -> String {
        if post.page && is_default_author(post.path) {
            return "about/".to_string();
        }
        let file = PostFile::new(post.path);
        let named = file.bundle_folder().map_or_else(|| file.path().with_extension(""), Path::to_path_buf);
        let within = slash_path(named.strip_prefix(at.posts_dir).unwrap_or(&named));
        if at.layout.starter_strips_dates {
            return format!("blog/{}/", without_dates(&within));
        }
        format!("blog/{within}/")
    }
}

/// Whether `path` is the default author's file, `data/authors/default.md(x)`.
fn is_default_author(path: &Path) -> bool {
    path.parent() == Some(Path::new(AUTHORS_DIR)) && path.file_stem().is_some_and(|stem| stem == DEFAULT_AUTHOR)
}

/// Whether the starter's first version's `formatSlug` is the blog's: it
/// takes every `YYYY-MM-DD-` out of a post's path (`/(\d{4})-(\d{2})-(\d{2})-/g`),
/// so `data/blog/2017-05-15-hello-world.md` is `/blog/hello-world`. Read from
/// the blog's own `lib/mdx.js`, not run.
pub(super) fn v1_strips_dates(mdx_js: &str) -> bool {
    mdx_js.contains("function formatSlug") && mdx_js.contains(r"(\d{4})-(\d{2})-(\d{2})-")
}

/// `path` without every `YYYY-MM-DD-` in it, as the starter's first version's
/// `formatSlug` takes them out (`/(\d{4})-(\d{2})-(\d{2})-/g`).
fn without_dates(path: &str) -> String {
    let bytes = path.as_bytes();
    let dated = |at: usize| {
        let digits = |range: std::ops::Range<usize>| bytes.get(range).is_some_and(|b| b.iter().all(u8::is_ascii_digit));
        digits(at..at + 4)
            && bytes.get(at + 4) == Some(&b'-')
            && digits(at + 5..at + 7)
            && bytes.get(at + 7) == Some(&b'-')
            && digits(at + 8..at + 10)
            && bytes.get(at + 10) == Some(&b'-')
    };
    let mut out = String::with_capacity(path.len());
    let mut at = 0;
    while at < path.len() {
        if dated(at) {
            at += 11;
        } else {
            let c = path[at..].chars().next().unwrap_or_default();
            out.push(c);
            at += c.len_utf8().max(1);
        }
    }
    out
}

/// The keys read, and the `hanji.toml` setting each becomes.
const KEYS: &[(&str, &str)] = &[
    ("title", "title"),
    ("description", "description"),
    ("siteUrl", "base_url"),
    ("locale", "locale"),
    ("language", "locale"),
    ("author", "author"),
];

/// The settings of `siteMetadata.js`. A key read whose value is not plain
/// text (`siteUrl: process.env.URL`) is a warning that names it.
pub(super) fn settings(text: &str) -> (Settings, Vec<Problem>) {
    let mut settings = Settings::default();
    let mut problems = Vec::new();
    let Some(properties) = object_properties(text) else {
        problems.push(
            Problem::warning(1, 1, "no `const siteMetadata = { … }` found")
                .with_hint("default settings are used; set title, base_url and locale in hanji.toml"),
        );
        return (settings, problems);
    };
    let mut language = None;
    for property in properties {
        let Some((_, setting)) = KEYS.iter().find(|(key, _)| *key == property.key) else { continue };
        let (line, column) = line_column(text, property.at);
        let Value::Text(value) = property.value else {
            let Value::Expression(expression) = &property.value else { continue };
            let shown: String = expression.chars().take(40).collect();
            problems.push(
                Problem::warning(line, column, format!("`{}` is not plain text: `{shown}`", property.key)).with_hint(
                    format!("Hanji reads this file without running it; set `{setting}` in hanji.toml instead"),
                ),
            );
            continue;
        };
        let found = Some(Setting { value, line, column, key: property.key.clone() });
        match property.key.as_str() {
            "title" => settings.title = found,
            "description" => settings.description = found,
            "siteUrl" => settings.base_url = found,
            "locale" => settings.locale = found,
            "language" => language = found,
            _ => settings.author = found,
        }
    }
    settings.locale = settings.locale.or(language);
    (settings, problems)
}

#[derive(Debug, PartialEq)]
enum Value {
    /// A string literal: `'…'`, `"…"`, or a template without `${}`.
    Text(String),
    /// Anything else, as written.
    Expression(String),
}

#[derive(Debug, PartialEq)]
struct Property {
    key: String,
    /// Byte offset of the key.
    at: usize,
    value: Value,
}

/// The top-level properties of the first object literal assigned in the file
/// (`const siteMetadata = {`, `module.exports = {`); None if there is none.
fn object_properties(text: &str) -> Option<Vec<Property>> {
    let mut scan = Scanner { text, at: 0 };
    loop {
        scan.trivia();
        let c = scan.peek()?;
        if c == '=' && !scan.rest().starts_with("==") && !scan.rest().starts_with("=>") {
            scan.at += 1;
            scan.trivia();
            if scan.peek() == Some('{') {
                scan.at += 1;
                return Some(scan.properties());
            }
        } else if !scan.skip_literal() {
            scan.at += c.len_utf8();
        }
    }
}

struct Scanner<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Scanner<'a> {
    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Whitespace and comments.
    fn trivia(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.at += rest.len() - trimmed.len();
            if trimmed.starts_with("//") {
                self.at += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if let Some(comment) = trimmed.strip_prefix("/*") {
                self.at += comment.find("*/").map_or(trimmed.len(), |end| end + 4);
            } else {
                return;
            }
        }
    }

    /// Steps over a string or template literal if one starts here.
    fn skip_literal(&mut self) -> bool {
        self.string().is_some()
    }

    /// A string or template literal starting here, as (its value, whether it
    /// is plain: no `${}`); the cursor moves past it.
    fn string(&mut self) -> Option<(String, bool)> {
        let quote = self.peek().filter(|c| matches!(c, '\'' | '"' | '`'))?;
        let mut value = String::new();
        let mut plain = true;
        let mut chars = self.rest().char_indices().skip(1);
        while let Some((i, c)) = chars.next() {
            match c {
                '\\' => {
                    if let Some((_, escaped)) = chars.next() {
                        value.push(match escaped {
                            'n' => '\n',
                            't' => '\t',
                            other => other,
                        });
                    }
                }
                '$' if quote == '`' && self.rest()[i..].starts_with("${") => {
                    plain = false;
                    value.push(c);
                }
                c if c == quote => {
                    self.at += i + 1;
                    return Some((value, plain));
                }
                // A quote left open ends at the line; a template goes on.
                '\n' if quote != '`' => {
                    self.at += i;
                    return Some((value, false));
                }
                c => value.push(c),
            }
        }
        self.at = self.text.len();
        Some((value, false))
    }

    /// `key: value` pairs up to the closing `}` of the object just opened.
    fn properties(&mut self) -> Vec<Property> {
        let mut properties = Vec::new();
        loop {
            self.trivia();
            let before = self.at;
            let Some(c) = self.peek() else { return properties };
            if c == '}' {
                return properties;
            }
            if c == ',' {
                self.at += 1;
                continue;
            }
            let at = self.at;
            let key = if let Some((key, _)) = self.string() {
                key
            } else {
                let length = self.rest().find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).unwrap_or(0);
                self.at += length;
                self.text[at..at + length].to_string()
            };
            self.trivia();
            if key.is_empty() || self.peek() != Some(':') {
                // A spread, a method, a shorthand: nothing to read.
                self.expression();
                if self.at == before {
                    // A stray `)` or `]`: step over it.
                    self.at += c.len_utf8();
                }
                continue;
            }
            self.at += 1;
            self.trivia();
            let start = self.at;
            let value = match self.string() {
                Some((text, true)) => {
                    self.trivia();
                    if matches!(self.peek(), Some(',' | '}') | None) {
                        Value::Text(text)
                    } else {
                        self.expression();
                        Value::Expression(self.text[start..self.at].trim().to_string())
                    }
                }
                _ => {
                    self.at = start;
                    self.expression();
                    Value::Expression(self.text[start..self.at].trim().to_string())
                }
            };
            properties.push(Property { key, at, value });
        }
    }

    /// Steps to the `,` or `}` that ends the current value, over nested
    /// brackets, strings and comments.
    fn expression(&mut self) {
        let mut depth = 0usize;
        loop {
            self.trivia();
            let Some(c) = self.peek() else { return };
            match c {
                '\'' | '"' | '`' => {
                    self.string();
                    continue;
                }
                '{' | '[' | '(' => depth += 1,
                '}' | ']' | ')' if depth == 0 => return,
                '}' | ']' | ')' => depth -= 1,
                ',' if depth == 0 => return,
                _ => {}
            }
            self.at += c.len_utf8();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STARTER: &str = r#"/** @type {import("pliny/config").PlinyConfig } */
const siteMetadata = {
  title: 'Next.js Starter Blog',
  author: 'Tails Azimuth',
  headerTitle: "TailwindBlog",
  description: `A blog created with Next.js and Tailwind.css`,
  language: 'en-us',
  theme: 'system', // system, dark or light
  siteUrl: 'https://tailwind-nextjs-starter-blog.vercel.app',
  socialBanner: `${process.env.BASE_PATH}/static/images/twitter-card.png`,
  analytics: {
    title: 'not the site title',
    umamiAnalytics: { umamiWebsiteId: process.env.NEXT_UMAMI_ID },
  },
  locale: 'ko-KR',
  search: { provider: 'kbar', kbarConfig: { searchDocumentsPath: `${process.env.BASE_PATH || ''}/search.json` } },
}

module.exports = siteMetadata
"#;

    #[test]
    fn reads_the_plain_top_level_values() {
        let (settings, problems) = settings(STARTER);
        assert_eq!(problems, vec![]);
        let value = |s: Option<Setting>| s.map(|s| s.value);
        assert_eq!(value(settings.title), Some("Next.js Starter Blog".to_string()));
        assert_eq!(value(settings.author), Some("Tails Azimuth".to_string()));
        assert_eq!(value(settings.description), Some("A blog created with Next.js and Tailwind.css".to_string()));
        assert_eq!(value(settings.base_url), Some("https://tailwind-nextjs-starter-blog.vercel.app".to_string()));
        let locale = settings.locale.unwrap();
        assert_eq!(
            (locale.value.as_str(), locale.line, locale.column),
            ("ko-KR", 15, 3),
            "`locale` wins over `language`"
        );
    }

    #[test]
    fn a_value_that_is_not_plain_text_is_named() {
        let text = "const siteMetadata = {\n  title: 'T',\n  siteUrl: process.env.SITE_URL,\n  language: 'en',\n}\n";
        let (settings, problems) = settings(text);
        assert_eq!(settings.title.map(|s| s.value).as_deref(), Some("T"));
        assert_eq!(settings.locale.map(|s| s.value).as_deref(), Some("en"), "`language` when there is no `locale`");
        assert!(settings.base_url.is_none());
        assert_eq!(problems.len(), 1);
        assert_eq!((problems[0].line, problems[0].column), (3, 3));
        assert_eq!(problems[0].message, "`siteUrl` is not plain text: `process.env.SITE_URL`");
        assert!(problems[0].hint.as_deref().unwrap().contains("`base_url`"));
    }

    #[test]
    fn a_file_without_the_object_is_a_warning_not_a_panic() {
        for text in ["", "export default function x() {}", "const a = 'unclosed", "const x = {", "/* never closed"] {
            let (settings, problems) = settings(text);
            assert!(settings.title.is_none(), "{text}");
            assert!(problems.len() <= 1, "{text}");
        }
        let (_, problems) = settings("module.exports = 5\n");
        assert_eq!(problems[0].message, "no `const siteMetadata = { … }` found");
    }
}
