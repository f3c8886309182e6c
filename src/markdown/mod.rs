//! Markdown to HTML: the one place that turns a post's body into the HTML that
//! the preview and the export show.
//!
//! [`render`] runs pulldown-cmark (GFM tables, strikethrough, task lists,
//! footnotes, alerts, definition lists, heading attributes, math) through our own
//! writer, which adds what pulldown-cmark's `push_html` cannot: heading ids and a
//! table of contents, `data-line` attributes for scroll sync, MathML, syntax
//! highlighting, link rewriting with problems for broken links, and word counts.
//! What other blog tools write in their Markdown (Hugo and Zola shortcodes,
//! Liquid tags, MDX components) is found by `foreign` when [`Options::syntax`]
//! says to look: the harmless is rendered, the rest shown as written and
//! reported. [`summary_text`] is the cheap plain text of a post's first paragraph.
//!
//! Nothing here reads the disk: links are resolved by the caller's
//! [`LinkResolver`], and images sized by its [`PictureResolver`].

mod cache;
mod escape;
mod foreign;
mod highlight;
mod html;
mod lines;
mod math;
mod mdx;
mod shortcodes;
mod summary;
mod tex;
mod text;

#[cfg(test)]
mod tests;

use crate::diagnostics::Problem;

pub use cache::HighlightCache;
pub use highlight::{HIGHLIGHT_VERSION, highlight};
pub use shortcodes::Shortcodes;

/// What a [`LinkResolver`] says about one link destination or image source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Link {
    /// Leave the destination as the author wrote it.
    Keep,
    /// Replace the destination with this URL (e.g. `other.md` → `/posts/other/`).
    Rewrite(String),
    /// The destination leads nowhere: keep it, and report a warning at the link.
    Broken { message: String, hint: Option<String> },
}

/// Decides about the links and images of a post. Called for every destination
/// except pure `#fragment` links; the resolver decides about `http:`, `mailto:`
/// and the like. Email autolinks (`<a@b.c>`) arrive as `mailto:a@b.c`.
pub trait LinkResolver: Sync {
    fn resolve_link(&self, dest: &str) -> Link;
    fn resolve_image(&self, dest: &str) -> Link;
}

/// An image of the blog as a page offers it: its size, and the copies made
/// of it for smaller screens and in smaller formats, for a `<picture>`.
/// Addresses are as the page links them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    pub width: u32,
    pub height: u32,
    /// `<source>`s, best format first: its MIME type and `srcset`.
    pub sources: Vec<(&'static str, String)>,
    /// The `<img>`'s `src` (the widest in the image's own format) and
    /// `srcset` (empty when there is one size).
    pub src: String,
    pub srcset: String,
    /// How wide the theme shows an image, for the browser to choose.
    pub sizes: String,
}

/// What a [`PictureResolver`] says of one image.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sizing {
    /// Nothing to add: an `<img>` of the address the link resolver gave.
    AsItIs,
    /// Its size, for `width` and `height`, and no copies.
    Size {
        width: u32,
        height: u32,
    },
    Picture(Picture),
    /// Shown as it is, with this warning at the image.
    Problem {
        message: String,
        hint: Option<String>,
    },
}

/// Sizes the images of a post for the screen: what the site knows of an
/// image file (its size, its copies) without this layer reading any.
pub trait PictureResolver: Sync {
    /// The image at `dest`, as the post writes it.
    fn picture(&self, dest: &str) -> Sizing;
}

pub use crate::tool::Syntax;

/// How to render one body. `Options::default()` renders plain HTML: no source
/// lines, no highlighting, links as written.
#[derive(Default)]
pub struct Options<'a> {
    /// The 1-based line of the file where the body starts (0 means 1). Every
    /// line reported (`data-line`, `Problem::line`) is a line of the file.
    pub first_line: usize,
    /// Add `data-line="N"` to block elements, for the preview's scroll sync.
    pub source_lines: bool,
    /// Highlight fenced code with CSS classes (see [`highlight()`]).
    pub highlight: bool,
    /// Where highlighted code is remembered, so each distinct block is
    /// highlighted once (only used with `highlight`).
    pub highlights: Option<&'a HighlightCache>,
    pub links: Option<&'a dyn LinkResolver>,
    /// The other tool's syntax to look for (see `Layout::syntax_of`).
    pub syntax: Syntax,
    /// The blog's own shortcode templates, run where they are simple.
    pub shortcodes: Option<&'a Shortcodes>,
    /// Sizes images for the screen (`<picture>`, `width`, `height`); None
    /// writes each as an `<img>` of its address.
    pub pictures: Option<&'a dyn PictureResolver>,
    /// Something above the post (a cover image) fills the reader's first
    /// screen: every image of the post loads lazily.
    pub first_screen_taken: bool,
}

/// One heading of levels 2–4, for a table of contents.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct TocEntry {
    pub level: u8,
    pub id: String,
    /// The heading's plain text, whitespace collapsed.
    pub title: String,
    /// The file line the heading is written on (the app's outline jumps
    /// there); not part of what templates see.
    #[serde(skip)]
    pub line: usize,
}

#[derive(Debug, Default)]
pub struct Rendered {
    /// An HTML5 fragment.
    pub html: String,
    pub toc: Vec<TocEntry>,
    /// Prose words; see `text.rs` for how Korean and other CJK text counts.
    pub word_count: usize,
    /// At least 1 for a body with anything in it (even only code), 0 for an
    /// empty one.
    pub reading_minutes: usize,
    /// Broken links, math that could not be rendered, and other tools' syntax
    /// that is not rendered, at file lines.
    pub problems: Vec<Problem>,
    /// The prose as it is read, one block (paragraph, heading, list item,
    /// table cell) a line: the words counted, so no code blocks, math, raw
    /// HTML, image alt text or autolinked URLs. What search indexes.
    pub text: String,
}

/// Renders a post's body (the Markdown after the front matter) to HTML.
///
/// Never fails: what cannot be rendered (bad TeX, a broken link) is shown as
/// well as possible and reported in [`Rendered::problems`].
pub fn render(body: &str, options: &Options) -> Rendered {
    html::render(body, options)
}

/// An image outside a post's text (a cover above it), written as its
/// images are: a `<picture>` when `sizing` has one. `first` loads it at once
/// and before the rest (it is on the reader's first screen), else lazily.
pub fn image_html(src: &str, alt: &str, sizing: &Sizing, first: bool) -> String {
    html::image(src, alt, sizing, first)
}

/// The plain text of the body's first top-level paragraph (not a heading, code
/// block, HTML block, list or quote), inline markup stripped, whitespace
/// collapsed; `None` if there is no such paragraph with text.
pub fn summary_text(body: &str) -> Option<String> {
    summary::first_paragraph(body)
}

/// The Markdown dialect of every Hanji post. Smart punctuation stays off: it
/// would change what authors typed (`--` in commands, quotes in code-like text).
pub fn parser_options() -> pulldown_cmark::Options {
    use pulldown_cmark::Options as O;
    O::ENABLE_TABLES
        | O::ENABLE_FOOTNOTES
        | O::ENABLE_STRIKETHROUGH
        | O::ENABLE_TASKLISTS
        | O::ENABLE_HEADING_ATTRIBUTES
        | O::ENABLE_MATH
        | O::ENABLE_GFM
        | O::ENABLE_DEFINITION_LIST
}
