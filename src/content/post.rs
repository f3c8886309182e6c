//! A post: its front matter read into typed fields, its body, and what is
//! derived from them (slug, URL, summary). Parsed from a string; reads no file.

use std::borrow::Cow;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::file::{MAX_POST_BYTES, PostFile};
use super::front_matter::{self, Dialect, Format, PostDate};
use super::text::Text;
use crate::diagnostics::{Diagnostic, Problem, Severity};
use crate::digest::{self, Digest};
use crate::markdown;

/// Longer than any real title (they are rarely over 100); a title this long
/// is most likely a post's text pasted into the field.
const MAX_TITLE_CHARS: usize = 1000;

/// What is read from a post's file. Serializable, so that an export can keep
/// what it read between runs and read again only the files that changed;
/// the text itself is not kept there (see [`Post::without_text`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Post {
    /// Relative to the blog folder: `posts/a.md` or `posts/b/index.md`.
    pub path: PathBuf,
    pub slug: String,
    pub title: String,
    pub date: Option<PostDate>,
    pub updated: Option<PostDate>,
    /// As the post spells them, without repeats.
    pub tags: Vec<String>,
    /// A taxonomy of their own, as the post spells them, without repeats.
    pub categories: Vec<String>,
    pub summary: Option<String>,
    /// Not published: a draft, or a post its tool holds back (`held`).
    pub draft: bool,
    /// Why a post that is not a draft is not published yet, or any more, as
    /// the blog's tool has it by default (see `Rules`).
    pub held: Option<Held>,
    /// When a scheduled post is published: its `publishDate`, else its date,
    /// in the blog's time zone (see `Rules`).
    pub publish_date: Option<PostDate>,
    pub authors: Vec<String>,
    pub images: Vec<String>,
    pub canonical_url: Option<String>,
    pub layout: Option<String>,
    /// Front matter keys Hanji does not know, in file order, for templates.
    #[serde(with = "json_text")]
    pub extra: serde_json::Map<String, serde_json::Value>,
    pub format: Option<Format>,
    /// A bundle is `posts/<slug>/index.md` with its images beside it.
    pub bundle: bool,
    /// A page (an About page), not a post: at its own address, in no list,
    /// feed or tag. The blog's layout says which files are (`file::is_page`),
    /// and the library marks them.
    pub page: bool,
    /// The post has an error; it is listed for the author but never published.
    pub has_errors: bool,
    /// 1-based line of the file where the body starts.
    pub body_line: usize,
    /// The file's whole text, packed or not (`packed`); None once it is
    /// let go (`without_text`).
    #[serde(skip)]
    source: Option<Text>,
    body_start: usize,
    /// The digest of the text, which names it while it is let go.
    text_digest: Digest,
    /// The lines of the front matter keys a page's address is made from
    /// (`ADDRESS_KEYS`), by their place in that list, so that a problem
    /// with the address names its line even while the text is let go.
    key_lines: Vec<(u8, u32)>,
}

/// The front matter keys an address may be made from, in any tool's rule.
const ADDRESS_KEYS: [&str; 12] = [
    "slug",
    "permalink",
    "url",
    "path",
    "aliases",
    "redirect_from",
    "tags",
    "categories",
    "category",
    "series",
    "title",
    "date",
];

/// Why a post is held back from the site, as its tool does it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Held {
    /// Its date (or `publishDate`) is still to come: Hugo, Jekyll and Hanji
    /// publish it then; Zola and the Next.js starter at once.
    Scheduled,
    /// Its `expiryDate` has passed (Hugo).
    Expired,
    /// `published: false` (Jekyll, and older Hugo blogs).
    Unpublished,
}

impl Held {
    pub fn name(self) -> &'static str {
        match self {
            Held::Scheduled => "scheduled",
            Held::Expired => "expired",
            Held::Unpublished => "unpublished",
        }
    }
}

/// What reading one file gave: the post (none for a file too big to be one,
/// or, from the loader, one that cannot be read as text), and every problem
/// found on the way. A post whose front matter cannot be read is a post with
/// an error: listed, never published.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Parsed {
    pub path: PathBuf,
    pub post: Option<Post>,
    pub problems: Vec<Diagnostic>,
}

impl Post {
    /// Reads the text of the file at `path` (relative to the blog folder).
    /// A post in a `_posts` folder is read as Jekyll does: the date and slug
    /// come from its name, `2026-07-17-my-post.md`, unless the front matter
    /// gives them, and `categories` are tags too.
    pub fn parse(path: &Path, text: &str) -> Parsed {
        let path = path.to_path_buf();
        // The loader refuses such files before reading them; this stops the
        // same text arriving another way (the editor's unsaved text).
        if text.len() as u64 > MAX_POST_BYTES {
            let megabytes = text.len() as f64 / 1e6;
            let problem = Problem::error(1, 1, format!("post is {megabytes:.1} MB; posts over 5 MB are not read"))
                .with_hint("split it into several posts, or move large data to static/");
            return Parsed { problems: vec![problem.in_file(&path)], path, post: None };
        }
        let file = PostFile::new(&path);
        let dated = file.dated();
        let dialect = Dialect { jekyll: file.in_jekyll_posts(), named_by_file: dated.is_some() };
        let (read, mut problems) = match front_matter::parse_with(text, dialect) {
            Ok(mut document) => {
                let problems = std::mem::take(&mut document.problems).into_iter().map(|p| p.in_file(&path)).collect();
                (Read::of(text, document), problems)
            }
            // Only why it cannot be read: what was read without the line at
            // fault (a date now missing) is no problem of its own.
            Err(problem) => (Read::without(text, &problem, dialect), vec![problem.in_file(&path)]),
        };
        let Read { front_matter: fm, format, body_start, body_line } = read;
        let body = &text[body_start..];
        let bundle = file.is_bundle();
        let slug = match fm.slug.as_deref().map(str::trim) {
            Some(s) if !s.is_empty() && !s.contains(['/', '\\']) => s.to_string(),
            Some(s) => {
                let (line, column) = key_line(text, "slug");
                problems.push(
                    Problem::warning(line, column, format!("`slug: {s}` cannot be used in a URL"))
                        .with_hint("write a slug without slashes, or remove it to use the file name")
                        .in_file(&path),
                );
                file.slug()
            }
            None => file.slug(),
        };
        let title = fm.title.filter(|t| !t.trim().is_empty()).unwrap_or_else(|| file.title());
        let length = title.chars().count();
        if length > MAX_TITLE_CHARS {
            let (line, column) = key_line(text, "title");
            problems.push(
                Problem::warning(line, column, format!("title is {length} characters long"))
                    .with_hint("a title is one line: shorten it, and put the rest in the post or in `summary:`")
                    .in_file(&path),
            );
        }
        let date = fm.date.or(dated.map(|(date, _)| PostDate { date, time: None }));
        let summary = fm.summary.filter(|s| !s.trim().is_empty()).or_else(|| markdown::summary_text(body));
        let has_errors = problems.iter().any(|p| p.severity == Severity::Error);

        let post = Post {
            slug,
            title,
            date,
            updated: fm.updated,
            tags: distinct_tags(fm.tags),
            categories: distinct_tags(fm.categories),
            summary,
            draft: fm.draft,
            held: None,
            publish_date: None,
            authors: fm.authors,
            images: fm.images,
            canonical_url: fm.canonical_url,
            layout: fm.layout,
            extra: fm.extra,
            format,
            bundle,
            page: false,
            has_errors,
            body_line,
            source: Some(Text::whole(text)),
            body_start,
            text_digest: digest::of_bytes(text.as_bytes()),
            key_lines: ADDRESS_KEYS
                .iter()
                .enumerate()
                .filter_map(|(n, key)| Some((n as u8, find_key(&text[..body_start], key)? as u32)))
                .collect(),
            path: path.clone(),
        };
        Parsed { path, post: Some(post), problems }
    }

    /// The Markdown after the front matter.
    pub fn body(&self) -> Cow<'_, str> {
        match self.source() {
            Cow::Borrowed(source) => Cow::Borrowed(&source[self.body_start..]),
            Cow::Owned(mut source) => {
                // The front matter taken off in place: no second copy of the body.
                source.replace_range(..self.body_start, "");
                Cow::Owned(source)
            }
        }
    }

    /// The whole text of the file, as it was read. Only a post loaded for an
    /// export has let it go (`without_text`), and the export gives it back
    /// before it renders the post (`with_text`): asking a post without its
    /// text for it is a bug, and stops rather than render an empty post.
    pub fn source(&self) -> Cow<'_, str> {
        self.source.as_ref().expect("the text of a post loaded without it").get()
    }

    /// Whether the post holds its text (see `without_text`).
    pub fn has_text(&self) -> bool {
        self.source.is_some()
    }

    /// The digest of the file's text: equal digests, equal texts.
    pub fn text_digest(&self) -> Digest {
        self.text_digest
    }

    /// The digest of all that is known of the post but its text: its front
    /// matter and what was made of it (slug, summary, whether it is held
    /// back). Other pages show a post by these alone, so while every post's
    /// are as they were, only the pages of posts whose text changed can be.
    pub fn facts_digest(&self) -> Digest {
        // Spelled out in full: a field added to posts has to be placed here.
        let Post {
            path,
            slug,
            title,
            date,
            updated,
            tags,
            categories,
            summary,
            draft,
            held,
            publish_date,
            authors,
            images,
            canonical_url,
            layout,
            extra,
            format,
            bundle,
            page,
            has_errors,
            body_line,
            source: _,
            body_start,
            text_digest: _,
            key_lines,
        } = self;
        let mut digester = digest::Digester::default();
        use std::hash::Hash;
        (path, slug, title, date, updated, tags, categories, summary).hash(&mut digester);
        (draft, held, publish_date, authors, images, canonical_url, layout).hash(&mut digester);
        (format, bundle, page, has_errors, body_line, body_start, key_lines).hash(&mut digester);
        // The unknown keys as their JSON text (JSON values have no `Hash`).
        if !extra.is_empty() {
            serde_json::to_string(extra).expect("JSON values serialize").hash(&mut digester);
        }
        digester.digest()
    }

    /// The post without its text, to be held by the thousand: what lists,
    /// addresses and tags need stays. An export loads posts so, and reads a
    /// post's text again when it renders its page.
    pub fn without_text(mut self) -> Post {
        self.source = None;
        self
    }

    /// The post with its text given back: `text` is what was read from its
    /// file; None if that is not the text the post was read from (the file
    /// changed since).
    pub fn with_text(&self, text: &str) -> Option<Post> {
        if digest::of_bytes(text.as_bytes()) != self.text_digest {
            return None;
        }
        Some(Post { source: Some(Text::whole(text)), ..self.clone() })
    }

    /// The post with its text packed, to be held by the thousand for long
    /// (the app, `hanji serve`): all stays, the text takes 40 to 60 % of the
    /// room, and is unpacked when asked for.
    pub fn packed(mut self) -> Post {
        self.source = self.source.map(Text::packed);
        self
    }

    /// Whether the post holds its text packed (see `packed`).
    pub fn is_packed(&self) -> bool {
        self.source.as_ref().is_some_and(Text::is_packed)
    }

    /// What its file is: see `content::file`.
    pub fn file(&self) -> PostFile<'_> {
        PostFile::new(&self.path)
    }

    /// The folder that relative links and images in the post start from.
    pub fn folder(&self) -> &Path {
        self.file().folder()
    }

    /// The series the post is a part of: `series: "NCCL 입문"`, or the first
    /// of a list (`series: [NCCL 입문]`, Hugo's taxonomy; Zola's `[taxonomies]
    /// series`). None for no series, or an empty name.
    pub fn series(&self) -> Option<&str> {
        let value = self.extra.get("series").or_else(|| self.extra.get("taxonomies").and_then(|t| t.get("series")));
        let name = match value? {
            serde_json::Value::String(name) => name.as_str(),
            serde_json::Value::Array(names) => names.first()?.as_str()?,
            _ => return None,
        };
        Some(name.trim()).filter(|name| !name.is_empty())
    }

    /// Where `cover` is written in the file, for problems with its image
    /// (the first line of a post held without its text).
    pub fn cover_line(&self) -> (usize, usize) {
        self.key_line("cover")
    }

    /// Where a top-level front matter `key` is written in the file, for
    /// problems with its value (the first line of a post held without its
    /// text, or without the key).
    /// The slug as the post writes it, before any tool makes an address of
    /// it: its front matter's `slug`, else its file's name (a Jekyll name
    /// without its date, a bundle's folder). Jekyll's `data["slug"]`.
    pub fn written_slug(&self) -> String {
        self.facts().written_slug()
    }

    /// What the blog's tool reads of the post to place it.
    pub fn facts(&self) -> crate::tool::PostFacts<'_> {
        crate::tool::PostFacts {
            path: &self.path,
            slug: &self.slug,
            own_slug: self.gives("slug"),
            title: &self.title,
            date: self.date.map(|d| d.date),
            time: self.date.and_then(|d| d.time),
            page: self.page,
            extra: &self.extra,
        }
    }

    /// Whether the post's front matter writes `key`, one of the keys an
    /// address is made from (`slug`, `permalink`, …).
    pub fn gives(&self, key: &str) -> bool {
        let wanted = ADDRESS_KEYS.iter().position(|k| *k == key);
        self.key_lines.iter().any(|(at, _)| Some(usize::from(*at)) == wanted)
    }

    pub fn key_line(&self, key: &str) -> (usize, usize) {
        if let Some(source) = &self.source {
            return key_line(&source.get(), key);
        }
        let kept = ADDRESS_KEYS
            .iter()
            .position(|k| *k == key)
            .and_then(|n| self.key_lines.iter().find(|(at, _)| usize::from(*at) == n).map(|(_, line)| *line as usize));
        (kept.unwrap_or(1), 1)
    }

    /// The image the post shows above its text: `cover: a.jpg`, or
    /// `cover: {image: a.jpg, alt: …}` (as Hugo's PaperMod writes it), with
    /// its alt text (empty if none).
    pub fn cover(&self) -> Option<(&str, &str)> {
        let (image, alt) = match self.extra.get("cover")? {
            serde_json::Value::String(image) => (image.as_str(), ""),
            serde_json::Value::Object(cover) => {
                let text = |key: &str| cover.get(key).and_then(|v| v.as_str());
                (text("image")?, text("alt").unwrap_or(""))
            }
            _ => return None,
        };
        Some((image.trim(), alt)).filter(|(image, _)| !image.is_empty())
    }
}

/// Spaces collapsed (`분산  학습` is `분산 학습`), empty ones dropped, and the
/// second spelling of a tag the post already has (but for case) dropped too.
fn distinct_tags(tags: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    tags.into_iter()
        .map(|t| t.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|t| !t.is_empty() && seen.insert(t.to_lowercase()))
        .collect()
}

/// What was read of a post's front matter, and where its body starts.
struct Read {
    front_matter: front_matter::FrontMatter,
    format: Option<Format>,
    /// Byte offset and file line of the body in the whole text.
    body_start: usize,
    body_line: usize,
}

impl Read {
    fn of(text: &str, document: front_matter::Document) -> Read {
        Read {
            body_start: text.len() - document.body.len(),
            body_line: document.body_line,
            format: document.format,
            front_matter: document.front_matter,
        }
    }

    /// What can be read of a front matter that cannot be read whole: the
    /// same text without the line at fault (a bad date, a stray quote), so
    /// that a post broken by another program keeps its title, tags and
    /// place among the others beside its error. If that cannot be read
    /// either (a front matter never closed), nothing: the whole text is
    /// taken for front matter, with no body (the post is not published, and
    /// its text is no Markdown to check).
    fn without(text: &str, problem: &Problem, dialect: Dialect) -> Read {
        let fault = problem.line.saturating_sub(1);
        // The line at fault blanked byte for byte: every offset and line stays.
        let blanked: String = text
            .split_inclusive('\n')
            .enumerate()
            .map(|(n, line)| match n == fault {
                true => {
                    let end = line.trim_end_matches(['\r', '\n']).len();
                    format!("{}{}", " ".repeat(end), &line[end..])
                }
                false => line.to_string(),
            })
            .collect();
        let format = match text.trim_start_matches('\u{feff}').get(..3) {
            Some("---") => Some(Format::Yaml),
            Some("+++") => Some(Format::Toml),
            _ => None,
        };
        // (Blanking the opening line of one never closed leaves no front matter at all.)
        if let Ok(document) = front_matter::parse_with(&blanked, dialect)
            && document.format == format
        {
            return Read::of(text, document);
        }
        let body_line = text.lines().count() + 1;
        Read { front_matter: Default::default(), format, body_start: text.len(), body_line }
    }
}

/// Line and column of a top-level front matter key, for problems about it.
fn key_line(text: &str, key: &str) -> (usize, usize) {
    find_key(text, key).map_or((1, 1), |line| (line, 1))
}

/// The 1-based line of a top-level front matter key, if it is written.
fn find_key(text: &str, key: &str) -> Option<usize> {
    text.lines().position(|l| l.starts_with(key) && l[key.len()..].trim_start().starts_with([':', '='])).map(|i| i + 1)
}

/// Values of any shape kept as their JSON text, so that a post is kept in
/// formats that know only the shapes declared (the cache's).
mod json_text {
    use serde::{Deserialize, Deserializer, Serializer};

    type Map = serde_json::Map<String, serde_json::Value>;

    pub fn serialize<S: Serializer>(map: &Map, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&serde_json::to_string(map).map_err(serde::ser::Error::custom)?)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Map, D::Error> {
        serde_json::from_str(&String::deserialize(deserializer)?).map_err(serde::de::Error::custom)
    }
}
