//! Front matter: split it from the body, read its fields, edit one field in place.
//!
//! `parse` reads a post's text (never a file): `split` finds the `---` YAML or
//! `+++` TOML block, `read_yaml`/`read_toml` read it into raw fields, and
//! `fields` types them; `edit` changes one field and leaves every other byte.

mod date;
mod edit;
mod edit_toml;
mod edit_yaml;
mod fields;
mod read_toml;
mod read_yaml;
pub(crate) mod split;
mod yaml_text;

pub use edit::{EditError, FieldValue, remove_field, set_field};
pub(crate) use fields::{NO_DATE, NO_TITLE, RawField, is_read_key};

use crate::diagnostics::Problem;

/// When a post was written: the calendar date as written in the front matter,
/// and the time of day if one was given (only used to order posts of a day).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct PostDate {
    pub date: jiff::civil::Date,
    pub time: Option<jiff::civil::Time>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Yaml,
    Toml,
}

/// A post's fields under the names Hugo, Zola, Jekyll and the Next.js starter
/// use; everything else is in `extra`, in file order, for templates.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FrontMatter {
    pub title: Option<String>,
    pub date: Option<PostDate>,
    /// `lastmod` or `updated`.
    pub updated: Option<PostDate>,
    /// `tags` (a list or `"a, b"`), or Zola's `[taxonomies] tags`.
    pub tags: Vec<String>,
    /// `categories` (Jekyll's `category` too), or Zola's `[taxonomies]
    /// categories`: a taxonomy of their own. They stay in `extra` as well,
    /// for templates and Jekyll's `:categories` in permalinks.
    pub categories: Vec<String>,
    /// `summary`, else `description`.
    pub summary: Option<String>,
    pub draft: bool,
    pub slug: Option<String>,
    /// `authors` or `author`, a list or a single name.
    pub authors: Vec<String>,
    /// `images` or `image`, a list or a single path.
    pub images: Vec<String>,
    /// `canonicalUrl` or `canonical_url`.
    pub canonical_url: Option<String>,
    pub layout: Option<String>,
    pub extra: serde_json::Map<String, serde_json::Value>,
}

/// How the tool a post was written for spells what Hanji reads, where it
/// differs from the others. The default is what Hugo, Zola and the Next.js
/// starter share.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dialect {
    /// Jekyll: tags and categories in one string are separated by spaces
    /// (`tags: rust async`), and `category` is `categories` too.
    pub jekyll: bool,
    /// The file's name gives the date and title (Jekyll's
    /// `_posts/2026-07-17-hello.md`), so a post without them is fine.
    pub named_by_file: bool,
}

/// A post's text taken apart. `problems` are those that do not stop the post
/// from loading (a bad date, a missing title); lines count in the whole text.
#[derive(Debug, Clone, PartialEq)]
pub struct Document<'a> {
    pub front_matter: FrontMatter,
    /// `None` when the text has no front matter.
    pub format: Option<Format>,
    pub body: &'a str,
    /// The line of the text on which `body` starts (1-based).
    pub body_line: usize,
    pub problems: Vec<Problem>,
}

/// Reads a post's text. `Err` only when the front matter cannot be read at all
/// (never closed, not YAML/TOML, duplicate keys, too big); the problem's line
/// and column are in `text`.
pub fn parse(text: &str) -> Result<Document<'_>, Problem> {
    parse_with(text, Dialect::default())
}

/// [`parse`], for a post of the tool that `dialect` describes.
pub fn parse_with(text: &str, dialect: Dialect) -> Result<Document<'_>, Problem> {
    let split = split::split(text)?;
    let front_matter_text = &text[split.front_matter.clone()];
    let (raw, mut problems) = match split.format {
        None => (Vec::new(), Vec::new()),
        Some(Format::Yaml) => read_yaml::read_lenient(front_matter_text, split.front_matter_line)?,
        Some(Format::Toml) => (read_toml::read(front_matter_text, split.front_matter_line)?, Vec::new()),
    };
    let origin =
        fields::Origin { format: split.format, line: split.front_matter_line.saturating_sub(1).max(1), dialect };
    let front_matter = fields::front_matter(raw, &origin, &mut problems);
    Ok(Document { front_matter, format: split.format, body: &text[split.body], body_line: split.body_line, problems })
}

/// The top-level fields of a whole YAML or TOML file (a tool's settings file),
/// each with the line of its key, and the warnings about what its tool
/// takes leniently (a key given twice).
pub(crate) fn read_fields(text: &str, format: Format) -> Result<(Vec<RawField>, Vec<Problem>), Problem> {
    match format {
        Format::Yaml => read_yaml::read_lenient(text, 1),
        Format::Toml => Ok((read_toml::read(text, 1)?, Vec::new())),
    }
}

#[cfg(test)]
mod tests;
