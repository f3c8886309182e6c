//! From the raw fields of a front matter to a post's typed fields: which names
//! each field goes by in Hugo, Zola, Jekyll and the Next.js starter, what type
//! it must have, and the `extra` map that keeps everything else for templates.

use serde_json::{Map, Value};

use super::{Dialect, Format, FrontMatter, PostDate};
use crate::diagnostics::Problem;

/// One top-level field as read from YAML or TOML, before it is typed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct RawField {
    pub key: String,
    /// Line and column of the key in the file.
    pub line: usize,
    pub column: usize,
    pub value: Value,
}

/// The names a typed field is found under, preferred first. When several are
/// present the first wins and the others are left in `extra` untouched (a
/// `description` beside a `summary` is still there for a meta tag).
pub(crate) const TITLE: &[&str] = &["title"];
pub(crate) const DATE: &[&str] = &["date"];
pub(crate) const UPDATED: &[&str] = &["lastmod", "updated"];
pub(crate) const TAGS: &[&str] = &["tags"];
pub(crate) const SUMMARY: &[&str] = &["summary", "description"];
pub(crate) const DRAFT: &[&str] = &["draft"];
pub(crate) const SLUG: &[&str] = &["slug"];
pub(crate) const AUTHORS: &[&str] = &["authors", "author"];
pub(crate) const IMAGES: &[&str] = &["images", "image"];
pub(crate) const CANONICAL_URL: &[&str] = &["canonicalUrl", "canonical_url"];
pub(crate) const LAYOUT: &[&str] = &["layout"];

/// Every group of names, for edits that follow the same aliases.
pub(crate) const ALIASES: &[&[&str]] =
    &[TITLE, DATE, UPDATED, TAGS, SUMMARY, DRAFT, SLUG, AUTHORS, IMAGES, CANONICAL_URL, LAYOUT];

/// Whether Hanji reads `key` into a post's own fields (under any of its
/// names), rather than keeping it as written for the templates.
pub(crate) fn is_read_key(key: &str) -> bool {
    ALIASES.iter().any(|names| names.contains(&key))
        || CATEGORIES.contains(&key)
        || [TAXONOMIES, "published"].contains(&key)
}

/// Zola keeps tags in `[taxonomies]`.
pub(crate) const TAXONOMIES: &str = "taxonomies";

/// Jekyll's other taxonomy, which Hanji counts as tags in Jekyll posts. Left in
/// `extra` too, for templates that show categories.
pub(crate) const CATEGORIES: &[&str] = &["categories", "category"];

/// Where the front matter sits, for problems about fields that are missing.
pub(crate) struct Origin {
    pub format: Option<Format>,
    /// The line of the opening `---`/`+++` (1 when there is none).
    pub line: usize,
    pub dialect: Dialect,
}

pub(crate) fn front_matter(raw: Vec<RawField>, origin: &Origin, problems: &mut Vec<Problem>) -> FrontMatter {
    let mut fields = Fields {
        raw: raw.into_iter().map(Some).collect(),
        problems,
        reported: Vec::new(),
        format: origin.format,
        jekyll: origin.dialect.jekyll,
    };
    let mut front_matter = FrontMatter {
        title: fields.take(TITLE, text),
        date: fields.take(DATE, date),
        updated: fields.take(UPDATED, date),
        summary: fields.take(SUMMARY, text),
        draft: fields.take(DRAFT, draft).unwrap_or(false),
        slug: fields.take(SLUG, text),
        authors: fields.take(AUTHORS, texts).unwrap_or_default(),
        images: fields.take_images(),
        canonical_url: fields.take(CANONICAL_URL, text),
        layout: fields.take(LAYOUT, text),
        tags: fields.take_tags(),
        categories: fields.categories(),
        extra: Map::new(),
    };
    // A title or date that is there but unreadable already has its problem.
    let reported = std::mem::take(&mut fields.reported);
    front_matter.extra = fields.raw.into_iter().flatten().map(|field| (field.key, field.value)).collect();

    // Jekyll takes both from the file name, `2026-07-17-my-post.md`.
    let named_by_file = origin.dialect.named_by_file;
    if front_matter.title.is_none() && !reported.contains(&TITLE) && !named_by_file {
        problems.push(missing(origin, NO_TITLE, "title", "\"My post\""));
    }
    if front_matter.date.is_none() && !reported.contains(&DATE) && !named_by_file {
        problems.push(missing(origin, NO_DATE, "date", "2026-07-17"));
    }
    front_matter
}

/// The warning of a post without a date; a page needs none (see `Library`).
pub(crate) const NO_DATE: &str = "post has no date";

/// The problem of a post without a title, which a page the tool names
/// itself (the Next.js starter's About page) does not have.
pub(crate) const NO_TITLE: &str = "post has no title";

fn missing(origin: &Origin, message: &str, key: &str, example: &str) -> Problem {
    let hint = match origin.format {
        Some(Format::Yaml) => format!("add `{key}: {}`", example.trim_matches('"')),
        Some(Format::Toml) => format!("add `{key} = {example}`"),
        None => format!("start the file with front matter: `---`, `{key}: {}`, `---`", example.trim_matches('"')),
    };
    Problem::warning(origin.line, 1, message).with_hint(hint)
}

/// What a field's value was turned into, or why it could not be.
enum Typed<T> {
    Value(T),
    /// Nothing there (`title:` with no value): as if the field were absent.
    Empty,
    /// The expected type, for "`tags` should be …, not a number".
    Wrong(&'static str),
    /// Not a type mismatch but an unreadable value (a date that is no date).
    Problem(Problem),
    /// A shape this name does not take, left in `extra` for templates
    /// (Jekyll themes write `image: {path: …, alt: …}`).
    Leave,
}

struct Fields<'p> {
    /// `None` once a field is consumed by a typed field.
    raw: Vec<Option<RawField>>,
    problems: &'p mut Vec<Problem>,
    /// The fields (by their names) that already have a problem.
    reported: Vec<&'static [&'static str]>,
    format: Option<Format>,
    /// Read tags as Jekyll does (see [`Dialect::jekyll`]).
    jekyll: bool,
}

impl Fields<'_> {
    fn position(&self, key: &str) -> Option<usize> {
        self.raw.iter().position(|field| field.as_ref().is_some_and(|field| field.key == key))
    }

    /// The first of `names` that gives a value; names whose value is empty are
    /// consumed too, so `summary:` with nothing after it is not kept in `extra`.
    fn take<T>(&mut self, names: &'static [&'static str], read: fn(&RawField) -> Typed<T>) -> Option<T> {
        for name in names {
            let Some(index) = self.position(name) else {
                continue;
            };
            let Some(field) = self.raw[index].as_ref() else {
                continue;
            };
            match read(field) {
                Typed::Value(value) => {
                    self.raw[index] = None;
                    return Some(value);
                }
                Typed::Empty => self.raw[index] = None,
                Typed::Wrong(expected) => {
                    let problem = Problem::error(
                        field.line,
                        field.column,
                        format!("`{}` should be {expected}, not {}", field.key, kind(&field.value)),
                    )
                    .with_hint(type_hint(&field.key, expected, self.format));
                    self.problems.push(problem);
                    self.reported.push(names);
                    self.raw[index] = None;
                    return None;
                }
                Typed::Problem(problem) => {
                    self.problems.push(problem);
                    self.reported.push(names);
                    self.raw[index] = None;
                    return None;
                }
                Typed::Leave => {}
            }
        }
        None
    }

    fn take_images(&mut self) -> Vec<String> {
        fn image(field: &RawField) -> Typed<Vec<String>> {
            match (field.key.as_str(), &field.value) {
                ("image", Value::Object(_)) => Typed::Leave,
                _ => texts(field),
            }
        }
        self.take(IMAGES, image).unwrap_or_default()
    }

    /// `tags`, else Zola's `taxonomies.tags`; the rest of `taxonomies` stays in
    /// `extra` (Zola sites have `categories` there too).
    fn take_tags(&mut self) -> Vec<String> {
        if self.jekyll {
            return cleaned(self.take(TAGS, jekyll_tags).unwrap_or_default());
        }
        if let Some(tags) = self.take(TAGS, tags) {
            return tags;
        }
        let Some(index) = self.position(TAXONOMIES) else {
            return Vec::new();
        };
        let Some(field) = self.raw[index].as_mut() else {
            return Vec::new();
        };
        let Value::Object(taxonomies) = &mut field.value else {
            return Vec::new();
        };
        let Some(value) = taxonomies.shift_remove("tags") else {
            return Vec::new();
        };
        let emptied = taxonomies.is_empty();
        let inner = RawField { key: "taxonomies.tags".into(), line: field.line, column: field.column, value };
        if emptied {
            self.raw[index] = None;
        }
        match tags(&inner) {
            Typed::Value(tags) => tags,
            Typed::Wrong(expected) => {
                let message = format!("`taxonomies.tags` should be {expected}, not {}", kind(&inner.value));
                let hint = format!("under `taxonomies`, {}", type_hint("tags", expected, self.format));
                self.problems.push(Problem::error(inner.line, inner.column, message).with_hint(hint));
                self.reported.push(TAGS);
                Vec::new()
            }
            Typed::Empty | Typed::Problem(_) | Typed::Leave => Vec::new(),
        }
    }
}

impl Fields<'_> {
    /// `categories` (else `category`), or Zola's `taxonomies.categories`,
    /// read but not taken: they stay in `extra` as well.
    fn categories(&mut self) -> Vec<String> {
        let found = CATEGORIES.iter().find_map(|name| self.position(name)).and_then(|i| self.raw[i].clone());
        let in_taxonomies = || {
            let taxonomies = self.position(TAXONOMIES).and_then(|i| self.raw[i].as_ref())?;
            let value = taxonomies.value.get("categories")?.clone();
            Some(RawField { key: "taxonomies.categories".into(), value, ..taxonomies.clone() })
        };
        let Some(field) = found.or_else(in_taxonomies) else {
            return Vec::new();
        };
        let read = if self.jekyll { jekyll_tags } else { tags };
        match read(&field) {
            Typed::Value(categories) => categories,
            Typed::Wrong(expected) => {
                let message = format!("`{}` should be {expected}, not {}", field.key, kind(&field.value));
                let hint = type_hint(&field.key, expected, self.format);
                self.problems.push(Problem::warning(field.line, field.column, message).with_hint(hint));
                Vec::new()
            }
            Typed::Empty | Typed::Problem(_) | Typed::Leave => Vec::new(),
        }
    }
}

/// How to write a field of the `expected` type, in the file's own syntax.
fn type_hint(key: &str, expected: &str, format: Option<Format>) -> String {
    let toml = format == Some(Format::Toml);
    let example = match expected {
        "true or false" => "true".to_string(),
        "text" if toml => "\"…\"".to_string(),
        "text" => "…".to_string(),
        _ if expected.starts_with("a date") => return "write it as 2026-07-17".to_string(),
        _ if toml => "[\"a\", \"b\"]".to_string(),
        _ => "[a, b]".to_string(),
    };
    let separator = if toml { " = " } else { ": " };
    format!("write `{key}{separator}{example}`")
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "empty",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// A scalar as text: `title: 1984` and `slug: 2024` are meant as text.
fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Number(number) => Some(number.to_string()),
        Value::Bool(flag) => Some(flag.to_string()),
        _ => None,
    }
}

fn text(field: &RawField) -> Typed<String> {
    match &field.value {
        Value::Null => Typed::Empty,
        value => match scalar_text(value) {
            Some(text) if text.trim().is_empty() => Typed::Empty,
            Some(text) => Typed::Value(text),
            None => Typed::Wrong("text"),
        },
    }
}

/// A list of text, or one text for a list of one (`author: Kim`). An empty
/// item (`tags:` then a bare `-`) is left out, as the tools leave it: Hexo
/// keeps only the names it has, and Hugo and Jekyll make no term of nothing.
fn texts(field: &RawField) -> Typed<Vec<String>> {
    match &field.value {
        Value::Null => Typed::Empty,
        Value::Array(items) => match items.iter().filter(|v| !v.is_null()).map(scalar_text).collect::<Option<Vec<_>>>()
        {
            Some(items) => Typed::Value(cleaned(items)),
            None => Typed::Wrong("a list of text"),
        },
        value => match scalar_text(value) {
            Some(text) => Typed::Value(cleaned(vec![text])),
            None => Typed::Wrong("text or a list of text"),
        },
    }
}

/// A list, or one text of comma-separated tags (`tags: rust, async`). A list
/// of lists (`- - Algorithm`, as some front matter tools write it) is read as
/// the one list of its items, as Jekyll reads it.
fn tags(field: &RawField) -> Typed<Vec<String>> {
    match &field.value {
        Value::String(text) => Typed::Value(cleaned(text.split(',').map(str::to_string).collect())),
        Value::Array(items) if items.iter().any(Value::is_array) => {
            let flat = RawField { value: Value::Array(flattened(items)), ..field.clone() };
            texts(&flat)
        }
        Value::Array(_) | Value::Null => texts(field),
        _ => Typed::Wrong("a list of tags"),
    }
}

/// The items of nested lists, in order, as one list.
fn flattened(items: &[Value]) -> Vec<Value> {
    items
        .iter()
        .flat_map(|item| match item {
            Value::Array(inner) => flattened(inner),
            other => vec![other.clone()],
        })
        .collect()
}

/// Jekyll's tags: a list, or one text of tags separated by spaces (commas are
/// taken as separators too, as an author coming from elsewhere writes them).
fn jekyll_tags(field: &RawField) -> Typed<Vec<String>> {
    match &field.value {
        Value::String(text) => {
            Typed::Value(cleaned(text.split(|c: char| c.is_whitespace() || c == ',').map(str::to_string).collect()))
        }
        Value::Number(_) | Value::Bool(_) => texts(field),
        _ => tags(field),
    }
}

/// Trimmed, without empty entries or repeats, in the author's order.
fn cleaned(items: Vec<String>) -> Vec<String> {
    let mut kept: Vec<String> = Vec::with_capacity(items.len());
    for item in items {
        let item = item.trim();
        if !item.is_empty() && !kept.iter().any(|seen| seen == item) {
            kept.push(item.to_string());
        }
    }
    kept
}

fn draft(field: &RawField) -> Typed<bool> {
    match &field.value {
        Value::Null => Typed::Empty,
        Value::Bool(flag) => Typed::Value(*flag),
        Value::String(text) if text.trim().eq_ignore_ascii_case("true") => Typed::Value(true),
        Value::String(text) if text.trim().eq_ignore_ascii_case("false") => Typed::Value(false),
        _ => Typed::Wrong("true or false"),
    }
}

fn date(field: &RawField) -> Typed<PostDate> {
    let text = match &field.value {
        Value::Null => return Typed::Empty,
        Value::String(text) => text,
        _ => return Typed::Wrong("a date like 2026-07-17"),
    };
    match PostDate::parse(text) {
        Some(date) => Typed::Value(date),
        None => {
            let shown: String = text.chars().take(40).collect();
            let ellipsis = if shown.len() < text.len() { "…" } else { "" };
            Typed::Problem(
                Problem::error(field.line, field.column, format!("`{}` is not a date: `{shown}{ellipsis}`", field.key))
                    .with_hint("write it as 2026-07-17"),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::Severity;
    use serde_json::json;

    fn read(fields: Value) -> (FrontMatter, Vec<Problem>) {
        read_as(fields, Dialect::default())
    }

    fn read_as(fields: Value, dialect: Dialect) -> (FrontMatter, Vec<Problem>) {
        let Value::Object(map) = fields else { panic!("test fields must be an object") };
        let raw = map
            .into_iter()
            .enumerate()
            .map(|(index, (key, value))| RawField { key, line: index + 2, column: 1, value })
            .collect();
        let mut problems = Vec::new();
        let origin = Origin { format: Some(Format::Yaml), line: 1, dialect };
        let front_matter = front_matter(raw, &origin, &mut problems);
        (front_matter, problems)
    }

    fn messages(problems: &[Problem]) -> Vec<(usize, &str)> {
        problems.iter().map(|problem| (problem.line, problem.message.as_str())).collect()
    }

    #[test]
    fn reads_every_typed_field() {
        let (front_matter, problems) = read(json!({
            "title": "Hi", "date": "2026-07-17", "updated": "2026-07-18T10:00:00Z",
            "tags": ["rust", "async"], "summary": "S", "draft": true, "slug": "hi",
            "authors": ["kim"], "images": ["a.png"], "canonicalUrl": "https://x/", "layout": "post",
        }));
        assert_eq!(problems, vec![]);
        assert_eq!(front_matter.title.as_deref(), Some("Hi"));
        assert_eq!(front_matter.date, PostDate::parse("2026-07-17"));
        assert_eq!(front_matter.updated, PostDate::parse("2026-07-18T10:00:00"));
        assert_eq!(front_matter.tags, ["rust", "async"]);
        assert_eq!(front_matter.summary.as_deref(), Some("S"));
        assert!(front_matter.draft);
        assert_eq!(front_matter.slug.as_deref(), Some("hi"));
        assert_eq!(front_matter.authors, ["kim"]);
        assert_eq!(front_matter.images, ["a.png"]);
        assert_eq!(front_matter.canonical_url.as_deref(), Some("https://x/"));
        assert_eq!(front_matter.layout.as_deref(), Some("post"));
        assert!(front_matter.extra.is_empty());
    }

    #[test]
    fn reads_other_names() {
        let (front_matter, _) = read(json!({
            "lastmod": "2026-07-18", "description": "D", "author": "kim", "image": "a.png",
            "canonical_url": "https://x/", "draft": "False",
        }));
        assert_eq!(front_matter.updated, PostDate::parse("2026-07-18"));
        assert_eq!(front_matter.summary.as_deref(), Some("D"));
        assert_eq!(front_matter.authors, ["kim"]);
        assert_eq!(front_matter.images, ["a.png"]);
        assert_eq!(front_matter.canonical_url.as_deref(), Some("https://x/"));
        assert!(!front_matter.draft);
        assert!(front_matter.extra.is_empty());
    }

    #[test]
    fn summary_wins_and_description_stays_for_templates() {
        let (front_matter, _) = read(json!({"description": "D", "summary": "S"}));
        assert_eq!(front_matter.summary.as_deref(), Some("S"));
        assert_eq!(Value::Object(front_matter.extra), json!({"description": "D"}));
    }

    #[test]
    fn comma_separated_tags_are_split_trimmed_and_cleaned() {
        let (front_matter, _) = read(json!({"tags": " rust,  async ,,rust, 분산 학습 "}));
        assert_eq!(front_matter.tags, ["rust", "async", "분산 학습"]);
        let (front_matter, _) = read(json!({"tags": ["", " a ", 2024]}));
        assert_eq!(front_matter.tags, ["a", "2024"]);
    }

    #[test]
    fn zola_taxonomies_give_tags_and_keep_the_rest() {
        let (front_matter, _) = read(json!({"taxonomies": {"tags": ["a"], "categories": ["c"]}}));
        assert_eq!(front_matter.tags, ["a"]);
        assert_eq!(Value::Object(front_matter.extra), json!({"taxonomies": {"categories": ["c"]}}));
        let (front_matter, _) = read(json!({"taxonomies": {"tags": ["a"]}}));
        assert!(front_matter.extra.is_empty());
    }

    #[test]
    fn unknown_keys_are_kept_in_order() {
        let (front_matter, _) =
            read(json!({"zeta": 1, "title": "T", "alpha": {"b": [1, 2]}, "toc": true, "mid": null}));
        let keys: Vec<&String> = front_matter.extra.keys().collect();
        assert_eq!(keys, ["zeta", "alpha", "toc", "mid"]);
        assert_eq!(front_matter.extra["alpha"], json!({"b": [1, 2]}));
    }

    #[test]
    fn wrong_types_are_errors_at_the_key_line() {
        let (front_matter, problems) =
            read(json!({"title": ["a"], "date": "2026-07-17", "tags": 5, "draft": "maybe", "authors": [["x"]]}));
        assert_eq!(
            messages(&problems),
            [
                (2, "`title` should be text, not a list"),
                (5, "`draft` should be true or false, not text"),
                (6, "`authors` should be a list of text, not a list"),
                (4, "`tags` should be a list of tags, not a number"),
            ]
        );
        assert_eq!(problems[0].hint.as_deref(), Some("write `title: …`"));
        assert_eq!(problems[1].hint.as_deref(), Some("write `draft: true`"));
        assert_eq!(problems[3].hint.as_deref(), Some("write `tags: [a, b]`"));
        assert!(front_matter.title.is_none() && front_matter.tags.is_empty() && !front_matter.draft);
        assert!(front_matter.extra.is_empty(), "consumed keys are not repeated in extra");
    }

    #[test]
    fn a_bad_date_is_an_error_with_a_hint() {
        let (front_matter, problems) = read(json!({"title": "T", "date": "17/07/2026"}));
        assert_eq!(front_matter.date, None);
        assert_eq!(messages(&problems), [(3, "`date` is not a date: `17/07/2026`")]);
        assert_eq!(problems[0].hint.as_deref(), Some("write it as 2026-07-17"));
        assert_eq!(problems[0].severity, Severity::Error);
    }

    #[test]
    fn missing_title_and_date_are_warnings() {
        let (_, problems) = read(json!({"tags": []}));
        assert_eq!(messages(&problems), [(1, "post has no title"), (1, "post has no date")]);
        assert!(problems.iter().all(|problem| problem.severity == Severity::Warning));
        assert_eq!(problems[0].hint.as_deref(), Some("add `title: My post`"));
        let (_, problems) = read(json!({"title": "  ", "date": null}));
        assert_eq!(messages(&problems), [(1, "post has no title"), (1, "post has no date")]);
    }

    #[test]
    fn jekyll_image_mapping_stays_in_extra() {
        let (front_matter, problems) = read(json!({"title": "T", "date": "2026-07-17", "image": {"path": "a.png"}}));
        assert_eq!(problems, vec![]);
        assert!(front_matter.images.is_empty());
        assert_eq!(front_matter.extra["image"], json!({"path": "a.png"}));
    }

    #[test]
    fn jekyll_tags_and_categories_split_on_spaces() {
        let jekyll = Dialect { jekyll: true, named_by_file: true };
        let (front_matter, problems) =
            read_as(json!({"layout": "post", "categories": "jekyll update", "tags": "rust async, rust"}), jekyll);
        assert_eq!(problems, vec![], "no title or date needed when the file name gives them");
        assert_eq!(front_matter.tags, ["rust", "async"]);
        assert_eq!(front_matter.categories, ["jekyll", "update"], "a taxonomy of their own");
        assert_eq!(front_matter.extra["categories"], "jekyll update", "categories stay for templates");

        let (front_matter, _) = read_as(json!({"category": "notes", "tags": ["a b"]}), jekyll);
        assert_eq!((front_matter.tags, front_matter.categories), (vec!["a b".to_string()], vec!["notes".to_string()]));
        let (front_matter, _) = read_as(json!({"categories": ["Deep Learning"]}), Dialect::default());
        assert_eq!(front_matter.categories, ["Deep Learning"], "a list keeps its items whole");
        let (front_matter, _) =
            read_as(json!({"taxonomies": {"tags": ["a"], "categories": ["b"]}}), Dialect::default());
        assert_eq!((front_matter.tags, front_matter.categories), (vec!["a".to_string()], vec!["b".to_string()]));

        let (_, problems) = read_as(json!({"categories": {"x": 1}}), jekyll);
        assert_eq!(messages(&problems), [(2, "`categories` should be a list of tags, not a mapping")]);
    }

    #[test]
    fn other_tools_keep_spaces_in_tags_and_categories_apart() {
        let (front_matter, problems) = read(json!({"categories": ["c"], "tags": "machine learning"}));
        assert_eq!(front_matter.tags, ["machine learning"]);
        assert_eq!(front_matter.extra["categories"], json!(["c"]));
        assert_eq!(messages(&problems), [(1, "post has no title"), (1, "post has no date")]);
    }
}
